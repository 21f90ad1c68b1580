package fesd

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/mpcc"
)

// ballTrace is a hand-made FESD-J trace of the 1-D ball (bouncingBall:
// x = (z, v), f_c = z, J_n = 1) with two elements of one stage point
// each: boundaries at t = 0, 0.5, 1 and points at 0.25, 0.75. The states
// are given as (z, v); no impulses, no forces.
func ballTrace() *CLSTrace {
	return &CLSTrace{
		T:       []float64{0, 0.5, 1},
		X:       [][]float64{{1, 0}, {0.6, -1}, {0.2, -2}},
		XStart:  [][]float64{{1, 0}, {0.6, -1}},
		Impulse: [][]float64{{0}, {0}},
		PointT:  []float64{0.25, 0.75},
		PointX:  [][]float64{{0.8, -0.5}, {0.4, -1.5}},
		Force:   [][]float64{{0}, {0}},
	}
}

// TestCLSValidityItems: hand-made traces of the ball that violate each
// item of CLSValidity, one at a time. The figures are the trace's own
// numbers (f_c = z, J_nᵀv = v): a point at z = −0.01 is 1e-2 deep; a
// force 5 at z = 0.4 and an impulse 2 at z = 0.6 (with v⁻ = −1 → v⁺ =
// 0.5, Newton's law for e = 0.5) are phantom; with
// e = 0.5 the impulse at z = 0 that takes v⁻ = −2 to v⁺ = 0.5 misses
// Newton's law by |0.5 + 0.5·(−2)| = 0.5, and to v⁺ = 1 it meets it
// (one impact); an impulse 0.3 on a contact separating at v⁻ = 0.5 that
// leaves it at 0.8 misses "no jump" by 0.3 (no impact); gaps up, 0, up give two flights and one landing.
func TestCLSValidityItems(t *testing.T) {
	ball := bouncingBall(t, 0.5)
	cases := []struct {
		name   string
		edit   func(tr *CLSTrace)
		item   string // "" for valid
		also   string // a second violated item
		check  func(v *CLSValidity) bool
		figure string
	}{
		{"clean flight", func(*CLSTrace) {}, "", "", func(v *CLSValidity) bool {
			return v.Flights == 1 && v.Landings == 0 && v.Impacts == 0 && v.MaxPenetration == 0
		}, "1 flight, no landing"},
		// The element's polynomial (one stage point: the line through its
		// start and the point) goes on down past the point: 0.6 − 2.44·(t −
		// 0.5), deepest at the last sample t = 0.5 + 0.5·31/32, 0.5725.
		{"penetration at a stage point", func(tr *CLSTrace) { tr.PointX[1][0] = -0.01 }, "penetration", "penetration between nodes", func(v *CLSValidity) bool {
			return math.Abs(v.MaxPenetration-0.01) < 1e-15 && v.PenetrationTime == 0.75 &&
				math.Abs(v.MaxPenetrationBetween-(2.44*0.5*31/32-0.6)) < 1e-14 && v.PenetrationBetweenTime == 0.5+0.5*31/32
		}, "depth 1e-2 at t = 0.75, 0.5725 between"},
		// Nodes above the ground (0.02 at the start, 0 at the stage point
		// t = 0.75, 0 at the end as given) and the line between them below
		// it past the point: 0.02 − 0.08·(t − 0.5), −0.01875 at the last
		// sample.
		{"penetration between nodes", func(tr *CLSTrace) {
			tr.X[1], tr.XStart[1] = []float64{0.02, -0.08}, []float64{0.02, -0.08}
			tr.PointX[1], tr.X[2] = []float64{0, -0.08}, []float64{0, -0.08}
		}, "penetration between nodes", "", func(v *CLSValidity) bool {
			return v.MaxPenetration == 0 && math.Abs(v.MaxPenetrationBetween-0.01875) < 1e-15 && v.PenetrationBetweenTime == 0.5+0.5*31/32
		}, "depth 1.875e-2 between the nodes only"},
		{"penetration at a boundary", func(tr *CLSTrace) { tr.X[2][0] = -0.002 }, "penetration", "", func(v *CLSValidity) bool {
			return math.Abs(v.MaxPenetration-0.002) < 1e-15 && v.PenetrationTime == 1
		}, "depth 2e-3 at t = 1"},
		{"phantom force", func(tr *CLSTrace) { tr.Force[1][0] = 5 }, "phantom force", "", func(v *CLSValidity) bool {
			return v.MaxPhantomForce == 5 && v.PhantomForceGap == 0.4 && v.PhantomForceTime == 0.75
		}, "force 5 at gap 0.4"},
		{"phantom impulse", func(tr *CLSTrace) { tr.Impulse[1][0] = 2; tr.XStart[1][1] = 0.5 }, "phantom impulse", "", func(v *CLSValidity) bool {
			return v.MaxPhantomImpulse == 2 && v.PhantomImpulseGap == 0.6 && v.PhantomImpulseTime == 0.5
		}, "impulse 2 at gap 0.6"},
		{"restitution", func(tr *CLSTrace) {
			tr.X[1] = []float64{0, -2}
			tr.XStart[1] = []float64{0, 0.5}
			tr.Impulse[1][0] = 2.5
		}, "restitution", "", func(v *CLSValidity) bool {
			return math.Abs(v.MaxRestitutionError-0.5) < 1e-15 && v.RestitutionTime == 0.5 && v.Impacts == 1
		}, "error 0.5 at t = 0.5, one impact"},
		{"impulse on a separating contact", func(tr *CLSTrace) {
			tr.X[1] = []float64{0, 0.5}
			tr.XStart[1] = []float64{0, 0.8}
			tr.Impulse[1][0] = 0.3
		}, "restitution", "", func(v *CLSValidity) bool {
			return math.Abs(v.MaxRestitutionError-0.3) < 1e-15 && v.Impacts == 0
		}, "error 0.3, no impact"},
		{"Newton's law met", func(tr *CLSTrace) {
			tr.X[1] = []float64{0, -2}
			tr.XStart[1] = []float64{0, 1}
			tr.Impulse[1][0] = 3
			tr.PointX[1] = []float64{0.3, 0.5}
		}, "", "", func(v *CLSValidity) bool {
			return v.MaxRestitutionError == 0 && v.Impacts == 1 && v.Flights == 2 && v.Landings == 1
		}, "one impact, two flights, one landing"},
	}
	for _, c := range cases {
		tr := ballTrace()
		c.edit(tr)
		v, err := CheckCLSValidity(ball, tr, nil, CLSValidityTolerances{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		t.Logf("%s: %v", c.name, v)
		if got := v.Valid; got != (c.item == "") {
			t.Errorf("%s: valid = %v, want %v", c.name, got, c.item == "")
		}
		want := []string{}
		for _, it := range []string{c.item, c.also} {
			if it != "" {
				want = append(want, it)
			}
		}
		ok := len(v.Violations) == len(want)
		for i := 0; ok && i < len(want); i++ {
			ok = strings.HasPrefix(v.Violations[i], want[i]+":")
		}
		if !ok {
			t.Errorf("%s: violations %q, want %q", c.name, v.Violations, want)
		}
		if !c.check(v) {
			t.Errorf("%s: %+v, want %s", c.name, v, c.figure)
		}
	}
	// a larger tolerance accepts the penetration (the second element at
	// z = −0.01 throughout)
	tr := ballTrace()
	tr.X[1][0], tr.XStart[1][0], tr.PointX[1][0] = -0.01, -0.01, -0.01
	if v, err := CheckCLSValidity(ball, tr, nil, CLSValidityTolerances{Penetration: 0.02}); err != nil || !v.Valid {
		t.Errorf("penetration 1e-2 with tolerance 2e-2: %v, %v", v, err)
	}
}

// TestCLSValidityErrors: bad tolerances, traces whose parts do not fit
// and a nil model are errors.
func TestCLSValidityErrors(t *testing.T) {
	ball := bouncingBall(t, 0.5)
	for _, c := range []struct {
		name string
		edit func(tr *CLSTrace)
		tol  CLSValidityTolerances
		want error
	}{
		{"negative tolerance", func(*CLSTrace) {}, CLSValidityTolerances{Phantom: -1}, ErrOptions},
		{"NaN tolerance", func(*CLSTrace) {}, CLSValidityTolerances{Flight: math.NaN()}, ErrOptions},
		{"no elements", func(tr *CLSTrace) { tr.T, tr.X, tr.XStart = tr.T[:1], tr.X[:1], nil }, CLSValidityTolerances{}, ErrDimension},
		{"start states", func(tr *CLSTrace) { tr.XStart = tr.XStart[:1] }, CLSValidityTolerances{}, ErrDimension},
		{"impulse rows", func(tr *CLSTrace) { tr.Impulse = tr.Impulse[:1] }, CLSValidityTolerances{}, ErrDimension},
		{"points", func(tr *CLSTrace) { tr.PointX = tr.PointX[:1] }, CLSValidityTolerances{}, ErrDimension},
		{"state length", func(tr *CLSTrace) { tr.X[1] = []float64{1} }, CLSValidityTolerances{}, ErrDimension},
		{"force length", func(tr *CLSTrace) { tr.Force[0] = []float64{0, 1} }, CLSValidityTolerances{}, ErrDimension},
		{"NaN state", func(tr *CLSTrace) { tr.PointX[0][1] = math.NaN() }, CLSValidityTolerances{}, ErrNonFinite},
	} {
		tr := ballTrace()
		c.edit(tr)
		if _, err := CheckCLSValidity(ball, tr, nil, c.tol); !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := CheckCLSValidity(nil, ballTrace(), nil, CLSValidityTolerances{}); !errors.Is(err, ErrNilModel) {
		t.Errorf("nil model: %v", err)
	}
	if _, err := CheckCLSValidity(ball, nil, nil, CLSValidityTolerances{}); err == nil {
		t.Error("nil trace: no error")
	}
}

// TestCLSValiditySolved: a simulated bouncing ball (e = 0.5, from rest
// at height 1 over 1.2 s, TestCLSBouncingBall's closed form: impacts at
// t₁ = √(2/g) = 0.4515, t₁ + 2e t₁ = 0.9030 and t₁(1 + 2e + 2e²) =
// 1.1288) is valid, with as many
// impacts and landings as SimulateCLS reports impacts (the boundaries
// only: CLSResult.Trace), and so is TestCLSOCPBall's OCP result
// (OCPResult.CLSValidity, one impact, status Solved).
func TestCLSValiditySolved(t *testing.T) {
	r, err := SimulateCLS(context.Background(), bouncingBall(t, 0.5), []float64{1, 0}, SimOptions{TSim: 1.2, NSim: 12})
	if err != nil {
		t.Fatal(err)
	}
	v, err := CheckCLSValidity(bouncingBall(t, 0.5), r.Trace(), nil, CLSValidityTolerances{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("simulation: %v", v)
	if !v.Valid || v.Impacts != 3 || len(r.Impacts()) != 3 || v.Landings != 3 || v.MaxRestitutionError > 1e-9 {
		t.Errorf("simulation: %+v (%d impact events), want valid with 3 impacts, 3 landings", v, len(r.Impacts()))
	}

	c := actuatedBall(t, 0.5)
	p := &OCP{CLS: c, X0: []float64{1, 0}, N: 4, T: 1.2, NFE: []int{3},
		Lagrange: c.Body.U[0].Mul(c.Body.U[0]),
		StageEnd: func(k int) []Constraint {
			if k < 2 {
				return []Constraint{{G: c.Body.U, L: []float64{0}, U: []float64{0}}}
			}
			return nil
		},
		Terminal: []Constraint{{G: c.Body.Q, L: []float64{0.8}, U: []float64{0.8}}}}
	res, err := SolveOCP(context.Background(), p, Options{}, Start{UInit: [][]float64{{0}, {0}, {10}, {10}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("OCP: %v, %v", res.Status, res.CLSValidity)
	if res.Status != mpcc.Solved || res.CLSValidity == nil || !res.CLSValidity.Valid || res.CLSValidity.Impacts != 1 {
		t.Errorf("OCP: status %v, validity %+v, want Solved and valid with one impact", res.Status, res.CLSValidity)
	}
}
