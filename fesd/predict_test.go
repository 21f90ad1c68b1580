package fesd

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/internal/reference"
	"github.com/fesd-go/fesd/rk"
)

// irmaStep is the IRMA step [194, 196] of the 1000-minute run of
// examples/irma (N_FE = 3, Radau IIA n_s = 2, Step DCS, comp tol 1e-9),
// started from the exact state at t = 194 (internal/reference.IRMAExact,
// the closed-form event-driven solution). It holds two transversal
// switches 0.49 min apart: ψ₄ at 195.2016 and ψ₅ at 195.6874.
func irmaStep(t *testing.T) (*Simulator, *reference.PWATrajectory, []float64) {
	t.Helper()
	model, _ := reference.IRMAModel(false)
	ex, err := reference.IRMAExact(reference.IRMAX0, 200)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Scheme: rk.FamilyRadauIIA, Stages: 2, NFE: 3, DCS: dcs.Options{Formulation: dcs.Step}, ActiveSetTol: 1e-6}
	o.MPCC.CompTol = 1e-9
	sim, err := NewSimulator(model, o, 2)
	if err != nil {
		t.Fatal(err)
	}
	return sim, ex, ex.At(194)
}

// TestPredictEventsIRMA checks the predicted switch times against the
// exact event times of the closed-form solution: the RK4 prediction (8
// substeps per element on a piecewise-affine system) and the bisection
// resolve them far below the 1e-7 tolerance.
func TestPredictEventsIRMA(t *testing.T) {
	sim, ex, x0 := irmaStep(t)
	sim.NoPredict = true
	ev, ok, err := sim.PredictEvents(194, x0, nil, nil)
	if err != nil || !ok {
		t.Fatalf("PredictEvents: ok %v, err %v", ok, err)
	}
	var want []float64
	for _, e := range ex.Events {
		if e.T > 194 && e.T < 196 {
			want = append(want, e.T)
		}
	}
	if len(want) != 2 || len(ev) != len(want) {
		t.Fatalf("events %v, exact %v", ev, want)
	}
	for i := range ev {
		if d := math.Abs(ev[i] - want[i]); d > 1e-7 {
			t.Errorf("event %d at %.10f, exact %.10f (error %.2g > 1e-7)", i, ev[i], want[i], d)
		}
	}
	if _, _, err := sim.PredictEvents(194, x0[:3], nil, nil); err == nil {
		t.Error("x0 of the wrong length: no error")
	}
	if _, _, err := sim.PredictEvents(math.NaN(), x0, nil, nil); err == nil {
		t.Error("NaN start time: no error")
	}
}

// TestPredictIRMAStep: with the uniform start (shifted or fresh) every
// relaxed NLP of this step from σ = 1e-4 on converges to a point of local
// infeasibility (measured: also with IPOPT as the inner solver, and for
// every step-equilibration mode), so the step fails; with Predict the
// element boundaries start at the predicted switches and the homotopy
// solves it. The element boundaries must be the exact switch times within
// 1e-5 (measured 2.9e-6: the Radau IIA n_s = 2 state error of ~3e-9 on an
// element of 1.2 min divided by the crossing speed |ẋ₂| ≈ 1.2e-3) and
// x(196) the exact state within 1e-6 (measured 1.4e-7).
func TestPredictIRMAStep(t *testing.T) {
	sim, ex, x0 := irmaStep(t)
	sim.NoPredict = true
	if _, err := sim.Step(context.Background(), 194, x0, nil, nil); err == nil {
		t.Log("the step now solves without Predict as well")
	}
	sim.Reset()
	sim.NoPredict = false
	st, err := sim.Step(context.Background(), 194, x0, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []float64
	for _, e := range ex.Events {
		if e.T > 194 && e.T < 196 {
			want = append(want, e.T)
		}
	}
	for i, w := range want {
		if d := math.Abs(st.T[i+1] - w); d > 1e-5 {
			t.Errorf("boundary t_%d = %.8f, switch at %.8f (error %.2g > 1e-5)", i+1, st.T[i+1], w, d)
		}
	}
	xe, xr := st.X[len(st.X)-1], ex.At(196)
	for i := range xe {
		if d := math.Abs(xe[i] - xr[i]); d > 1e-6 {
			t.Errorf("x_%d(196) = %.10g, exact %.10g (error %.2g > 1e-6)", i, xe[i], xr[i], d)
		}
	}
}

// TestTutorialCasesNoPredict runs the closed-form cases of
// TestTutorialCases (which run with the default prediction) with
// SimOptions.NoPredict (n_s = 2 combinations), so that every step is
// solved by the homotopy: switch time and x(T) within 1e-6, as with the
// prediction. Under -short two of the four cross complementarities per
// formulation and family, each of them twice, as TestTutorialCases.
func TestTutorialCasesNoPredict(t *testing.T) {
	const tol = 1e-6
	ncc := len(CrossComps())
	for _, c := range tutorialCases() {
		for k, cb := range combos(true) {
			if testing.Short() && (k%ncc+k/ncc)%2 != 0 {
				continue
			}
			if c.name == "leaving sliding" && cb.fam == rk.FamilyGaussLegendre {
				continue
			}
			t.Run(c.name+"/"+cb.String(), func(t *testing.T) {
				r, err := Simulate(context.Background(), c.model(), []float64{c.x0},
					SimOptions{TSim: c.tsim, NSim: c.nsim, Options: cb.options(c.nfe), NoPredict: true})
				if err != nil {
					t.Fatal(err)
				}
				if e := math.Abs(r.Final()[0] - c.xT(c.tsim)); e > tol {
					t.Errorf("x(T) error %.3g > %g", e, tol)
				}
				if len(r.Switches) != 1 {
					t.Fatalf("switches %+v, want one", r.Switches)
				}
				if e := math.Abs(r.Switches[0].Time - c.ts); e > tol || r.Switches[0].Kind != c.kind {
					t.Errorf("switch %+v, want %v at %v", r.Switches[0], c.kind, c.ts)
				}
			})
		}
	}
}

// TestPredictorRK4 checks the predictor's substep (predictor.rk4, RK4 by
// rk.ExplicitStepper) on one state with the switching function ψ = x − c:
//   - on ẋ = −λ(x + 2) (λ = 1, c = 5, x₀ = 1, h = 0.1) it is RK4 on a
//     linear ODE, whose step multiplies x + 2 by the Taylor polynomial
//     Σ_{k≤4} (−λh)^k/k! (closed form), to 1e-15; x is not modified;
//   - on the same flow with λ = 1e5 (|λh| = 1e4, far outside RK4's
//     stability interval of 2.78) the state grows beyond predictMaxGrowth
//     and the step is declined;
//   - on ẋ = √x − 10 from x₀ = 0.01 with h = 0.01 the second stage is at
//     x < 0, where √x is NaN: the step is declined, and the next step
//     (from x₀ = 1, where every stage is defined) succeeds, with the
//     failure flag reset; its result agrees with a step of the classical
//     formula x₀ + h/6·(k₁ + 2k₂ + 2k₃ + k₄) to 1e-15.
func TestPredictorRK4(t *testing.T) {
	newPredictor := func(c float64, f func(x ad.Expr) ad.Expr) *predictor {
		g := ad.NewGraph()
		x := g.SymVec("x", 1)
		m := dcs.NewModel(g, x, nil, nil)
		m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[0].AddConst(-c)}, S: [][]int{{1}, {-1}},
			F: []ad.Vec{{f(x[0])}, {f(x[0])}}})
		sim, err := NewSimulator(m, Options{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		return &predictor{s: sim, T: 1}
	}
	step := func(pr *predictor, x0, h float64) ([]float64, bool) {
		t.Helper()
		x := []float64{x0}
		z, sig, ok := pr.guess(x)
		if !ok {
			t.Fatalf("guess at x = %g failed", x0)
		}
		out, ok := pr.rk4(x, 0, h, mode{sig: sig, z: z})
		if x[0] != x0 {
			t.Errorf("rk4 modified x: %g, was %g", x[0], x0)
		}
		return out, ok
	}
	decay := func(lam float64) func(x ad.Expr) ad.Expr {
		return func(x ad.Expr) ad.Expr { return x.AddConst(2).Scale(-lam) }
	}
	const h = 0.1
	out, ok := step(newPredictor(5, decay(1)), 1, h)
	taylor, term := 1.0, 1.0
	for k := 1; k <= 4; k++ {
		term *= -h / float64(k)
		taylor += term
	}
	if want := -2 + 3*taylor; !ok || math.Abs(out[0]-want) > 1e-15 {
		t.Errorf("decay λ = 1: ok %v, x₁ = %v, want %.17g", ok, out, want)
	}
	if out, ok := step(newPredictor(5, decay(1e5)), 1, h); ok {
		t.Errorf("decay λ = 1e5: accepted x₁ = %v", out)
	}
	pr := newPredictor(50, func(x ad.Expr) ad.Expr { return ad.Sqrt(x).AddConst(-10) })
	if out, ok := step(pr, 0.01, 0.01); ok {
		t.Errorf("√x at a negative stage: accepted x₁ = %v", out)
	}
	const h2 = 0.01
	out, ok = step(pr, 1, h2)
	f := func(x float64) float64 { return math.Sqrt(x) - 10 }
	k1 := f(1)
	k2 := f(1 + h2/2*k1)
	k3 := f(1 + h2/2*k2)
	k4 := f(1 + h2*k3)
	if want := 1 + h2/6*(k1+2*k2+2*k3+k4); !ok || math.Abs(out[0]-want) > 1e-15 {
		t.Errorf("after a failed step: ok %v, x₁ = %v, want %.17g", ok, out, want)
	}
}
