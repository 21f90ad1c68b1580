package fesd

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/internal/reference"
	"github.com/fesd-go/fesd/rk"
)

// frictionRun simulates Stewart's three masses with Coulomb friction
// (reference.FrictionModel: smooth drift plus three 2-mode subsystems,
// ψ_j = v_j) from x0 at t0 over n steps of length T with the
// formulation f.
func frictionRun(t *testing.T, f dcs.Formulation, x0 []float64, t0, tsim float64, n int) (*SimResult, time.Duration) {
	t.Helper()
	start := time.Now()
	r, err := Simulate(context.Background(), reference.FrictionModel(reference.FrictionSplit), x0, SimOptions{
		T0: t0, TSim: tsim, NSim: n,
		Options: Options{Scheme: rk.FamilyRadauIIA, Stages: 3, NFE: 4, DCS: dcs.Options{Formulation: f}},
	})
	if err != nil {
		t.Fatalf("%v: %v", f, err)
	}
	return r, time.Since(start)
}

func totalIters(r *SimResult) (k int) {
	for _, s := range r.Steps {
		k += s.Iterations
	}
	return k
}

// compareRuns checks that two simulations with N_FE elements per step
// describe the same trajectory within tol: the states at the step
// boundaries, the switches (mass, kind, time) and the states at the
// switches. The element grids themselves may differ where nothing switches
// (FESD solutions are only locally unique, doc.go); eGrid reports by how
// much.
func compareRuns(t *testing.T, a, b *SimResult, nfe int, tol float64) (eX, eS, eGrid float64) {
	t.Helper()
	if len(a.T) != len(b.T) {
		t.Fatalf("%d and %d boundaries", len(a.T), len(b.T))
	}
	for n := range a.T {
		eGrid = max(eGrid, math.Abs(a.T[n]-b.T[n]))
		if n%nfe != 0 {
			continue
		}
		for i := range a.X[n] {
			eX = max(eX, math.Abs(a.X[n][i]-b.X[n][i]))
		}
	}
	if len(a.Switches) != len(b.Switches) {
		t.Fatalf("switches: %v and %v", switchSummary(a.Switches), switchSummary(b.Switches))
	}
	for i, s := range a.Switches {
		o := b.Switches[i]
		if s.Subsystem != o.Subsystem || s.Kind != o.Kind {
			t.Errorf("switch %d: %v of mass %d and %v of mass %d", i, s.Kind, s.Subsystem+1, o.Kind, o.Subsystem+1)
		}
		eS = max(eS, math.Abs(s.Time-o.Time))
		for k := range s.X {
			eX = max(eX, math.Abs(s.X[k]-o.X[k]))
		}
	}
	if eX > tol || eS > tol {
		t.Errorf("Step and Stewart: states differ by %.2g, switch times by %.2g (> %g)", eX, eS, tol)
	}
	return eX, eS, eGrid
}

// TestThreeMassesSlip simulates [0, 2] from q(0) = (−1, 1, −1),
// v(0) = (−1, 1, 1) (seed 000 §5) with Radau IIA n_s = 3, 10 steps of 4
// elements (step [0.2, 0.4] holds two switches, 0.0077 and 0.0487 after its
// start: with 3 elements its last element would need 0.151 > 2h₀ = 0.133,
// an infeasible FESD problem). Reference (an event-driven RK4 run, h = 1e-4 with bisection on
// the zero crossings of v_j and the stick test |smooth force| ≤ 0.3; h = 1e-3
// agrees to 1e-10): four crossings — v₂ at 0.2077363713, v₁ at
// 0.2486854426, v₃ at 0.9182547230 and 1.8693992235 — and no sticking before
// t = 3.7. Checks: exactly these switches, each with |v_j| ≤ 1e-6 at its
// time and within 1e-6 of the reference (FESD puts the switch where the
// discrete v_j vanishes, which the O(h⁵) error of the smooth arcs moves;
// measured 1.5e-9); x(2) within 1e-6 of the reference (measured 2e-8); and
// Step and
// Stewart agree within 1e-6 at the step boundaries and at the switches (the
// two are different NLPs for the same Filippov system, equal up to the
// homotopy tolerance).
func TestThreeMassesSlip(t *testing.T) {
	x0 := []float64{-1, 1, -1, -1, 1, 1}
	rs, ds := frictionRun(t, dcs.Step, x0, 0, 2, 10)
	rw, dw := frictionRun(t, dcs.Stewart, x0, 0, 2, 10)
	refT := []float64{0.2077363713, 0.2486854426, 0.9182547230, 1.8693992235}
	refMass := []int{2, 1, 3, 3}
	refX := []float64{0.32186099009412, -0.00947840539740, -0.52374195682942, 0.30519300362318, -0.35140428012197, 1.22696399732939}
	for _, r := range []*SimResult{rs, rw} {
		name := r.DCS.Formulation.String()
		if len(r.Switches) != len(refT) {
			t.Fatalf("%s: switches %v, want crossings at %v", name, switchSummary(r.Switches), refT)
		}
		for i, s := range r.Switches {
			if s.Subsystem != refMass[i]-1 || s.Kind != Crossing || math.Abs(s.Time-refT[i]) > 1e-6 {
				t.Errorf("%s: switch %d %v of mass %d at %.10f, want a crossing of mass %d at %.10f", name, i, s.Kind, s.Subsystem+1, s.Time, refMass[i], refT[i])
			}
			if v := s.X[3+s.Subsystem]; math.Abs(v) > 1e-6 {
				t.Errorf("%s: switch %d: v_%d = %.2g at the switch", name, i, s.Subsystem+1, v)
			}
		}
		var e float64
		for i, w := range refX {
			e = max(e, math.Abs(r.Final()[i]-w))
		}
		if e > 1e-6 {
			t.Errorf("%s: x(2) = %v, error %.2g > 1e-6", name, r.Final(), e)
		}
		var eS float64
		for i, s := range r.Switches {
			eS = max(eS, math.Abs(s.Time-refT[i]))
		}
		t.Logf("%s: x(2) error %.2g, switch time error %.2g", name, e, eS)
	}
	eX, eS, eG := compareRuns(t, rs, rw, 4, 1e-6)
	t.Logf("Step vs Stewart: states %.2g, switch times %.2g (element grids %.2g); Step %d iterations %v, Stewart %d iterations %v; switches %v",
		eX, eS, eG, totalIters(rs), ds.Round(time.Millisecond), totalIters(rw), dw.Round(time.Millisecond), switchSummary(rs.Switches))
}

// TestThreeMassesStick simulates [3.5, 4.5] from the reference state at
// t = 3.5 (the event-driven RK4 run of TestThreeMassesSlip, h = 1e-4; h = 1e-3
// agrees to 1e-11), 10 steps of 4 elements, Radau IIA n_s = 3. Reference:
// v₂ crosses 0 at 3.7176201906, mass 1 stops at 3.7289936124 and sticks
// (its smooth force stays within the friction bound 0.3 with a margin of at
// least 0.117 up to 4.5, the stick multiplier λ₁ = force/0.3 ∈ [−0.61, 0.61]),
// v₃ crosses 0 at 3.8806107195; x(4.5) below. Checks: these switches (mass 1
// EnteringSliding, the others Crossing) within 1e-6 with |v_j| ≤ 1e-6 there;
// no spurious slip of mass 1 — |v₁| ≤ 1e-6 at every element boundary and
// stage after the stop and no later switch of mass 1; its friction
// multiplier (2α₁ − 1, resp. θ₊ − θ₋) within ±0.7 while sticking; x(4.5) within 1e-6 of the
// reference; Step and Stewart agree within 1e-6.
func TestThreeMassesStick(t *testing.T) {
	const t0, tsim, nsim = 3.5, 1.0, 10
	x0 := []float64{0.18813391247206, 0.34247114045478, -0.19970004019294, -0.07837013129370, 0.33285429629060, -3.21700396188667}
	refX := []float64{0.17926343457812, 0.17566948454822, 0.54623695349335, 0, -0.23683335147957, 3.10613321964703}
	refT := []float64{3.7176201906, 3.7289936124, 3.8806107195}
	refMass := []int{2, 1, 3}
	refKind := []SwitchKind{Crossing, EnteringSliding, Crossing}
	rs, ds := frictionRun(t, dcs.Step, x0, t0, tsim, nsim)
	rw, dw := frictionRun(t, dcs.Stewart, x0, t0, tsim, nsim)
	for _, r := range []*SimResult{rs, rw} {
		name := r.DCS.Formulation.String()
		if len(r.Switches) != len(refT) {
			t.Fatalf("%s: switches %v, want masses %v at %v", name, switchSummary(r.Switches), refMass, refT)
		}
		for i, s := range r.Switches {
			if s.Subsystem != refMass[i]-1 || s.Kind != refKind[i] || math.Abs(s.Time-refT[i]) > 1e-6 {
				t.Errorf("%s: switch %d %v of mass %d at %.10f, want %v of mass %d at %.10f", name, i, s.Kind, s.Subsystem+1, s.Time, refKind[i], refMass[i], refT[i])
			}
			if v := s.X[3+s.Subsystem]; math.Abs(v) > 1e-6 {
				t.Errorf("%s: switch %d: v_%d = %.2g at the switch", name, i, s.Subsystem+1, v)
			}
		}
		stop := r.Switches[1].Time
		var slip float64
		for n, tn := range r.T {
			if tn >= stop {
				slip = max(slip, math.Abs(r.X[n][3]))
			}
		}
		for k, tk := range r.PointT {
			if tk > stop {
				slip = max(slip, math.Abs(r.PointX[k][3]))
			}
		}
		if slip > 1e-6 {
			t.Errorf("%s: mass 1 slips while sticking: max |v₁| = %.2g", name, slip)
		}
		var e float64
		for i, w := range refX {
			e = max(e, math.Abs(r.Final()[i]-w))
		}
		if e > 1e-6 {
			t.Errorf("%s: x(4.5) = %v, error %.2g > 1e-6", name, r.Final(), e)
		}
		// Friction multiplier of mass 1: sgn v₁ ↦ 2α₁ − 1 (Step) or
		// θ₊ − θ₋ (Stewart, modes v₁ > 0 and v₁ < 0).
		margin := math.Inf(1)
		alpha, theta := r.Algebraic(dcs.Alpha, 0), r.Algebraic(dcs.Theta, 0)
		for k, tk := range r.PointT {
			if tk <= stop {
				continue
			}
			lam := theta[k][0] - theta[k][1]
			if r.DCS.Formulation == dcs.Step {
				lam = 2*alpha[k][0] - 1
			}
			margin = min(margin, 1-math.Abs(lam))
		}
		if margin <= 0.3 {
			t.Errorf("%s: stick multiplier of mass 1 reaches %.3g of the bound ±1 (reference: |λ₁| ≤ 0.61)", name, 1-margin)
		}
		t.Logf("%s: x(4.5) error %.2g, max |v₁| while sticking %.2g, stick margin 1 − |λ₁| ≥ %.3g", name, e, slip, margin)
	}
	eX, eS, eG := compareRuns(t, rs, rw, 4, 1e-6)
	t.Logf("Step vs Stewart: states %.2g, switch times %.2g (element grids %.2g); Step %d iterations %v, Stewart %d iterations %v; switches %v",
		eX, eS, eG, totalIters(rs), ds.Round(time.Millisecond), totalIters(rw), dw.Round(time.Millisecond), switchSummary(rs.Switches))
}
