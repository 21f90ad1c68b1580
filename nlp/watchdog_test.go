package nlp

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/nlp/hs"
)

// TestWatchdogHS027: on hs027 (Rosenbrock's valley with the equality
// x₁ + x₃² + 1 = 0, started at (2, 2, 2)) the filter shortens more than 10
// consecutive steps, the watchdog starts and its full steps save
// iterations (61 vs 63 with the watchdog off, monotone μ; WatchdogTrigger = 10, the
// default). Both reach f* = 0.04.
func TestWatchdogHS027(t *testing.T) {
	p, err := hs.ByName("hs027")
	if err != nil {
		t.Fatal(err)
	}
	run := func(trigger int) *Result {
		s := Solver{Settings: Settings{WatchdogTrigger: trigger, MuStrategy: MuMonotone}}
		r, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != Solved || math.Abs(r.Objective-0.04) > 1e-8 {
			t.Errorf("trigger %d: %v, f = %v", trigger, r.Status, r.Objective)
		}
		return r
	}
	on, off := run(0), run(-1)
	t.Logf("watchdog on: %d iterations (%d watchdogs, %d restorations); off: %d iterations (%d restorations)",
		on.Iterations, on.Counts.Watchdogs, on.Counts.RestorationPhases, off.Iterations, off.Counts.RestorationPhases)
	if off.Counts.Watchdogs != 0 {
		t.Errorf("watchdog off but %d starts", off.Counts.Watchdogs)
	}
	if on.Counts.Watchdogs == 0 || on.Iterations >= off.Iterations {
		t.Errorf("watchdog: %d starts, %d iterations vs %d without", on.Counts.Watchdogs, on.Iterations, off.Iterations)
	}
}

// TestWatchdogHS380: on hs380 (Schittkowski 1987, a flat product objective
// 10⁵∏xᵢ^aᵢ under three constraints) the line search cuts the primal steps
// to α ≈ 2·10⁻⁴ for hundreds of iterations; the watchdog's full steps get
// through (measured: 126 iterations against 2 107 with it off; IPOPT
// 3.11.9, with its watchdog, 39). Both reach f* = 3.1682215.
func TestWatchdogHS380(t *testing.T) {
	p, err := hs.ByName("hs380")
	if err != nil {
		t.Fatal(err)
	}
	run := func(trigger int) *Result {
		r, err := (&Solver{Settings: Settings{WatchdogTrigger: trigger}}).Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != Solved || math.Abs(r.Objective-p.FStar) > 1e-6*p.FStar {
			t.Errorf("trigger %d: %v, f = %v", trigger, r.Status, r.Objective)
		}
		return r
	}
	on, off := run(0), run(-1)
	t.Logf("watchdog on: %d iterations (%d watchdogs); off: %d", on.Iterations, on.Counts.Watchdogs, off.Iterations)
	if on.Counts.Watchdogs == 0 || 4*on.Iterations >= off.Iterations {
		t.Errorf("watchdog: %d starts, %d iterations vs %d without", on.Counts.Watchdogs, on.Iterations, off.Iterations)
	}
}

// TestInertiaStrict: min x₁² + x₂² s.t. x₁ + x₃ = 1, x₂ − x₃ = 0 with x₃
// free and without curvature has a structurally zero KKT diagonal; in the
// natural order it is pivoted before its constraints, a zero pivot. By
// default it is accepted (regularized, then refined); with InertiaStrict
// the matrix counts as singular and δ_c, δ_w are raised (more
// factorizations). Both give x = (1/2, 1/2, 1/2).
func TestInertiaStrict(t *testing.T) {
	p := func() *quadProb {
		return &quadProb{
			n: 3, m: 2,
			xL: []float64{-inf, -inf, -inf}, xU: []float64{inf, inf, inf},
			gL: []float64{1, 0}, gU: []float64{1, 0},
			x0: []float64{0, 0, 0},
			f:  func(x []float64) float64 { return x[0]*x[0] + x[1]*x[1] },
			df: func(x, g []float64) { g[0], g[1], g[2] = 2*x[0], 2*x[1], 0 },
			c:  func(x, c []float64) { c[0], c[1] = x[0]+x[2], x[1]-x[2] },
			jr: []int{0, 0, 1, 1}, jc: []int{0, 2, 1, 2},
			jv: func(x, v []float64) { v[0], v[1], v[2], v[3] = 1, 1, 1, -1 },
			hr: []int{0, 1}, hc: []int{0, 1},
			hv: func(x []float64, s float64, l, v []float64) { v[0], v[1] = 2*s, 2*s },
		}
	}
	var facts [2]int
	for k, strict := range []bool{false, true} {
		pol := InertiaDefault
		if strict {
			pol = InertiaStrict
		}
		s := Solver{Settings: Settings{Inertia: pol, Ordering: OrderNatural}}
		r, err := s.Solve(context.Background(), p())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("strict %v: %v, %d iterations, %d factorizations, x = %v", strict, r.Status, r.Iterations, r.Counts.Factorizations, r.X)
		for j := range 3 {
			if r.Status != Solved || math.Abs(r.X[j]-0.5) > 1e-8 {
				t.Errorf("strict %v: %v at %v", strict, r.Status, r.X)
				break
			}
		}
		facts[k] = r.Counts.Factorizations
	}
	if facts[1] <= facts[0] {
		t.Errorf("factorizations: %d strict, %d default", facts[1], facts[0])
	}
}

// TestInertiaCurvature: on hs007 and hs027 (monotone μ) the curvature test
// raises δ_w where the inertia check accepted a factorization whose step
// has (almost) no curvature, and the solves need fewer iterations (hs007:
// 10 vs 27, hs027: 33 vs 63, measured), to the same objective.
func TestInertiaCurvature(t *testing.T) {
	for _, name := range []string{"hs007", "hs027"} {
		p, err := hs.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		var res [2]*Result
		for k, on := range []bool{false, true} {
			pol := InertiaDefault
			if on {
				pol = InertiaCurvature
			}
			s := Solver{Settings: Settings{Inertia: pol, MuStrategy: MuMonotone}}
			r, err := s.Solve(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != Solved {
				t.Errorf("%s curvature test %v: %v", name, on, r.Status)
			}
			res[k] = r
		}
		off, on := res[0], res[1]
		t.Logf("%s: %d iterations with the curvature test (%d δ_w raises), %d without; f = %.10g, %.10g",
			name, on.Iterations, on.Counts.CurvatureFixes, off.Iterations, on.Objective, off.Objective)
		if off.Counts.CurvatureFixes != 0 || on.Counts.CurvatureFixes == 0 {
			t.Errorf("%s: curvature fixes %d (off), %d (on)", name, off.Counts.CurvatureFixes, on.Counts.CurvatureFixes)
		}
		if on.Iterations >= off.Iterations || math.Abs(on.Objective-off.Objective) > 1e-7*(1+math.Abs(off.Objective)) {
			t.Errorf("%s: %d iterations, f = %v with the test; %d, f = %v without", name, on.Iterations, on.Objective, off.Iterations, off.Objective)
		}
	}
}

// TestInertiaPolicyTable: each policy stands for the inertia corrector
// with the safeguards its documentation names (strict pivots, δ_c in every
// factorization, the curvature test, the δ_w tracking), and the
// restoration phase keeps the pivot, δ_c and tracking rules but not the
// curvature test.
func TestInertiaPolicyTable(t *testing.T) {
	for _, c := range []struct {
		p                                   InertiaPolicy
		strict, deltaC, curvature, tracking bool
		resto                               InertiaPolicy
	}{
		{InertiaDefault, false, false, false, false, InertiaDefault},
		{InertiaStrict, true, false, false, false, InertiaStrict},
		{InertiaStrictDeltaC, true, true, false, false, InertiaStrictDeltaC},
		{InertiaCurvature, false, false, true, false, InertiaDefault},
		{InertiaStrictCurvature, true, false, true, false, InertiaStrict},
		{InertiaTracking, false, true, false, true, InertiaTracking},
	} {
		strict, deltaC, curvature, tracking := correctorParts(t, c.p.corrector())
		if strict != c.strict || deltaC != c.deltaC || curvature != c.curvature ||
			tracking != c.tracking || c.p.restoration() != c.resto {
			t.Errorf("%v: strict %v, δ_c %v, curvature %v, tracking %v, restoration %v", c.p,
				strict, deltaC, curvature, tracking, c.p.restoration())
		}
	}
	if p := InertiaPolicy(7); p.valid() || p.restoration() != p {
		t.Errorf("%v: valid %v, restoration %v", p, p.valid(), p.restoration())
	}
}

// correctorParts returns the safeguards of an inertia corrector.
func correctorParts(t *testing.T, ic inertiaCorrector) (strict, deltaC, curvature, tracking bool) {
	switch c := ic.(type) {
	case *inertiaBased:
		return c.strict, c.alwaysDeltaC(), false, false
	case *inertiaCurvature:
		return c.strict, c.alwaysDeltaC(), true, false
	case *inertiaTracking:
		return c.strict, c.alwaysDeltaC(), false, true
	}
	t.Fatalf("unknown inertia corrector %T", ic)
	return
}
