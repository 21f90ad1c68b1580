package fesd

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/rk"
)

// filippovOscillator is the oscillator of nosnoc_py's
// examples/oscillator/oscillator_example.py (github.com/nosnoc/nosnoc_py;
// closed form in the package documentation): ω = 2π, A₁ = [[1, ω], [−ω, 1]]
// outside the unit circle (ψ > 0), A₂ = [[1, −ω], [ω, 1]] inside,
// ψ = x₁² + x₂² − 1.
func filippovOscillator() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	w := 2 * math.Pi
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{ad.Sq(x[0]).Add(ad.Sq(x[1])).AddConst(-1)},
		S:   [][]int{{1}, {-1}},
		F: []ad.Vec{
			{x[0].Add(x[1].Scale(w)), x[0].Scale(-w).Add(x[1])},
			{x[0].Sub(x[1].Scale(w)), x[0].Scale(w).Add(x[1])},
		},
	})
	return m
}

// TestFilippovOscillator: from x₀ = (e⁻¹, 0) inside the circle the radius
// grows like e^{t−1} and reaches 1 at t = 1 at the point (1, 0); for T ≥ 1,
// x(T) = e^{T−1}(cos 2π(T−1), −sin 2π(T−1)) (closed form of §B). At (1, 0)
// the inner field A₂x = (1, ω) and the outer field A₁x = (1, −ω) both have
// ∇ψ·f = 2 > 0: the trajectory crosses from inside (ψ < 0) to outside
// (ψ > 0), a Crossing. With 15 steps of 3 elements on [0, 2], t = 1 lies in
// the middle of an element of the uniform grid; with 30 steps it is the end
// of step 14 (a switch at the end of a step, nosnoc issue #52).
func TestFilippovOscillator(t *testing.T) {
	x0 := []float64{math.Exp(-1), 0}
	const T = 2.0
	want := []float64{math.E * math.Cos(2*math.Pi*(T-1)), -math.E * math.Sin(2*math.Pi*(T-1))}
	cases := []struct {
		name string
		o    Options
		nsim int
		tol  float64 // x(T) tolerance (brief: 1e-5)
	}{
		// Gauss–Legendre n_s = 3 (order 6), h₀ = 2/45.
		{"Stewart GL3", Options{Scheme: rk.FamilyGaussLegendre, Stages: 3, NFE: 3}, 15, 1e-5},
		{"Step GL3", Options{Scheme: rk.FamilyGaussLegendre, Stages: 3, NFE: 3, DCS: dcs.Options{Formulation: dcs.Step}}, 15, 1e-5},
		// Radau IIA n_s = 3 (order 5) needs h₀ = 1/45 for 1e-5 (3e-5 at 2/45).
		{"Step Radau3", Options{Scheme: rk.FamilyRadauIIA, Stages: 3, NFE: 3, DCS: dcs.Options{Formulation: dcs.Step}}, 30, 1e-5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Simulate(context.Background(), filippovOscillator(), x0, SimOptions{TSim: T, NSim: c.nsim, Options: c.o})
			if err != nil {
				t.Fatal(err)
			}
			xT := r.Final()
			e := math.Hypot(xT[0]-want[0], xT[1]-want[1])
			if e > c.tol {
				t.Errorf("x(T) = %v, want %v (error %.3g)", xT, want, e)
			}
			if len(r.Switches) != 1 {
				t.Fatalf("switches %+v, want 1", r.Switches)
			}
			s := r.Switches[0]
			if math.Abs(s.Time-1) > 1e-6 || s.Kind != Crossing || s.Before[0] != SideNegative || s.After[0] != SidePositive {
				t.Errorf("switch %+v, want a crossing ψ<0 → ψ>0 at t = 1", s)
			}
			it := 0
			for _, st := range r.Steps {
				it += st.Iterations
			}
			t.Logf("x(T) error %.2e, switch time error %.2e, %d NLP iterations", e, s.Time-1, it)
		})
	}
}

// TestEnteringSlidingSin is 004 Example 3(b), ẋ ∈ −sign(x) + 0.2 sin 5t,
// from x₀ = −0.5: x(t) = −0.5 + t + 0.04(1 − cos 5t) until it reaches 0
// (the reference time is computed by bisection, enterTime), then it slides
// (|0.2 sin 5t| < 1). The fields are smooth in t, so the accuracy is that
// of the RK scheme: 1e-6 with Radau IIA n_s = 3 and h ≈ 0.05.
func TestEnteringSlidingSin(t *testing.T) {
	c := scalar{
		name:  "entering sliding sin",
		plus:  func(g *ad.Graph, t ad.Expr) ad.Expr { return ad.Sin(t.Scale(5)).Scale(0.2).AddConst(-1) },
		minus: func(g *ad.Graph, t ad.Expr) ad.Expr { return ad.Sin(t.Scale(5)).Scale(0.2).AddConst(1) },
		x0:    -0.5, tsim: 1, nsim: 10, nfe: 2,
	}
	ts := enterTime(c.x0)
	for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
		r := c.simulate(t, Options{Stages: 3, DCS: dcs.Options{Formulation: f}, NFE: c.nfe})
		if len(r.Switches) != 1 || r.Switches[0].Kind != EnteringSliding {
			t.Fatalf("%v: switches %+v", f, r.Switches)
		}
		if e := math.Abs(r.Switches[0].Time - ts); e > 1e-6 {
			t.Errorf("%v: switch at %v, reference %v (error %.2e)", f, r.Switches[0].Time, ts, e)
		}
		if x := r.Final()[0]; math.Abs(x) > 1e-6 {
			t.Errorf("%v: x(T) = %v, want 0 (sliding)", f, x)
		}
	}
}

// TestSpontaneous is 004 Example 3(d), ẋ ∈ sign(x), x(0) = 0, whose
// Filippov solutions are x ≡ 0 and ±(t − t_s)⁺ for any t_s ≥ 0. The
// simulation must return one of them; a departure from the surface is a
// Spontaneous switch (the field on the other side points away).
func TestSpontaneous(t *testing.T) {
	c := scalar{name: "spontaneous", plus: konst(1), minus: konst(-1), x0: 0, tsim: 1, nsim: 2, nfe: 2}
	for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
		r := c.simulate(t, Options{DCS: dcs.Options{Formulation: f}})
		xT := r.Final()[0]
		switch len(r.Switches) {
		case 0:
			if math.Abs(xT) > 1e-6 {
				t.Errorf("%v: no switch but x(T) = %v", f, xT)
			}
		case 1:
			s := r.Switches[0]
			if s.Kind != Spontaneous || math.Abs(math.Abs(xT)-(c.tsim-s.Time)) > 1e-6 {
				t.Errorf("%v: switch %+v with x(T) = %v is not a Filippov solution", f, s, xT)
			}
		default:
			t.Errorf("%v: switches %+v", f, r.Switches)
		}
		t.Logf("%v: x(T) = %.3g, switches %v", f, xT, r.Switches)
	}
}

// TestLeavingClassification checks the Lie-derivative test that tells
// leaving sliding from a spontaneous switch (004 Table 2 has the same sign
// pattern for both): at x = 0, a departure to ψ > 0 is spontaneous for
// ẋ ∈ sign(x) (f₋ = −1 points away from the surface) and leaving sliding
// for ẋ ∈ −sign(x) + t at t = 1 (f₋ = 2 points towards it).
func TestLeavingClassification(t *testing.T) {
	cases := []struct {
		c    scalar
		t    float64
		want SwitchKind
	}{
		{scalar{plus: konst(1), minus: konst(-1)}, 0, Spontaneous},
		{tutorialCases()[3], 1, LeavingSliding},
	}
	for _, tc := range cases {
		m := tc.c.model()
		o, _ := Options{}.resolve()
		d, err := m.Reformulate(o.DCS)
		if err != nil {
			t.Fatal(err)
		}
		si, err := newSwitchInfo(d, o)
		if err != nil {
			t.Fatal(err)
		}
		lie := make([]float64, si.nLie)
		if err := si.lie.Eval(si.lieWS, [][]float64{{0}, nil, nil, {tc.t}}, [][]float64{lie}); err != nil {
			t.Fatal(err)
		}
		if got := si.leaving(&si.groups[0], lie, 0, []Side{SidePositive}); got != tc.want {
			t.Errorf("t = %v: %v, want %v (lie %v)", tc.t, got, tc.want, lie)
		}
	}
}

// TestStepEquilibrationModes solves the simple switch (switch at 1/3,
// x(T) = T − 1/3) with every step-equilibration mode.
func TestStepEquilibrationModes(t *testing.T) {
	c := tutorialCases()[0]
	for _, se := range StepEquilibrations() {
		for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
			r := c.simulate(t, Options{StepEquilibration: se, NFE: c.nfe, DCS: dcs.Options{Formulation: f}})
			if e := math.Abs(r.Final()[0] - c.xT(c.tsim)); e > 1e-6 {
				t.Errorf("%v %v: x(T) error %.3g", se, f, e)
			}
			if len(r.Switches) != 1 || math.Abs(r.Switches[0].Time-c.ts) > 1e-6 {
				t.Errorf("%v %v: switches %+v", se, f, r.Switches)
			}
		}
	}
}

// TestRepresentations: the integral and differential forms of the same
// collocation method define the same discrete solution (rk.Integral), so
// the simulations agree to 1e-8 (both solve to complementarity 1e-9).
func TestRepresentations(t *testing.T) {
	c := tutorialCases()[0]
	for _, fam := range []rk.Family{rk.FamilyRadauIIA, rk.FamilyGaussLegendre} {
		a := c.simulate(t, Options{Scheme: fam, Stages: 3, NFE: c.nfe})
		b := c.simulate(t, Options{Scheme: fam, Stages: 3, NFE: c.nfe, Representation: Differential})
		if len(a.T) != len(b.T) {
			t.Fatalf("grids differ")
		}
		for i := range a.T {
			if math.Abs(a.T[i]-b.T[i]) > 1e-8 || math.Abs(a.X[i][0]-b.X[i][0]) > 1e-8 {
				t.Errorf("%v point %d: integral (%v, %v), differential (%v, %v)", fam, i, a.T[i], a.X[i][0], b.T[i], b.X[i][0])
			}
		}
		for i := range a.PointX {
			if math.Abs(a.PointX[i][0]-b.PointX[i][0]) > 1e-8 {
				t.Errorf("%v stage %d: %v vs %v", fam, i, a.PointX[i][0], b.PointX[i][0])
			}
		}
	}
	// The Filippov oscillator before its switch (nonlinear dynamics). With
	// a switch inside a step the FESD solution is only locally unique: the
	// switch may sit at either inner boundary of the step, and the two
	// representations can converge to different ones (seen on [0, 1.5]).
	x0 := []float64{math.Exp(-1), 0}
	var res [2]*SimResult
	for k, rep := range []Representation{Integral, Differential} {
		r, err := Simulate(context.Background(), filippovOscillator(), x0, SimOptions{TSim: 0.9, NSim: 3, Options: Options{Stages: 2, NFE: 3, Representation: rep}})
		if err != nil {
			t.Fatal(err)
		}
		res[k] = r
	}
	for i := range res[0].X {
		for j := range res[0].X[i] {
			if e := math.Abs(res[0].X[i][j] - res[1].X[i][j]); e > 1e-8 {
				t.Errorf("oscillator point %d: integral and differential differ by %.2e", i, e)
			}
		}
	}
	// Differential works with tableaus without an integral form.
	r := c.simulate(t, Options{Scheme: rk.FamilyLobattoIIIC, Stages: 2, Representation: Differential, NFE: c.nfe})
	if e := math.Abs(r.Final()[0] - c.xT(c.tsim)); e > 1e-6 {
		t.Errorf("Lobatto IIIC: x(T) error %.3g", e)
	}
}

// TestFailedStep: a homotopy stopped after one relaxed NLP (σ = 1) does not
// reach the complementarity tolerance. Without the prediction the step is
// then rescued on its predicted branch (StepRecord.Rescued, with the failed
// homotopy's records first); with an inner solver whose every solve
// fails the branch fails too, and Simulate reports the step with its
// status and returns the records computed so far.
func TestFailedStep(t *testing.T) {
	c := tutorialCases()[0]
	o := Options{NFE: c.nfe}
	o.MPCC.MaxSteps = 1
	r, err := Simulate(context.Background(), c.model(), []float64{c.x0}, SimOptions{TSim: c.tsim, NSim: c.nsim, Options: o, NoPredict: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := r.Steps[0]; !st.Rescued || st.Status != mpcc.Solved || len(st.Homotopy) < 2 || st.Homotopy[0].Sigma != 1 {
		t.Errorf("first step %+v, want rescued on its branch after the failed homotopy", st)
	}
	o.Inner = failingInner{&mpcc.NLPSolver{Settings: mpcc.DefaultNLPSettings()}}
	r, err = Simulate(context.Background(), c.model(), []float64{c.x0}, SimOptions{TSim: c.tsim, NSim: c.nsim, Options: o, NoPredict: true})
	var se *StepError
	if !errors.As(err, &se) || !errors.Is(err, ErrStepFailed) {
		t.Fatalf("err = %v, want a StepError", err)
	}
	if se.Step != 0 || se.Status == mpcc.Solved {
		t.Errorf("step error %+v", se)
	}
	if r == nil || len(r.Steps) != 1 || r.Steps[0].Status != se.Status || len(r.X) != 0 {
		t.Errorf("result %+v", r)
	}
}

// failingInner reports every solve of its inner solver as IterationLimit.
type failingInner struct{ inner mpcc.InnerSolver }

func (f failingInner) SolveNLP(ctx context.Context, p nlp.Problem, w *mpcc.WarmStart) (*mpcc.InnerResult, error) {
	r, err := f.inner.SolveNLP(ctx, p, w)
	if err == nil {
		r.Status = nlp.IterationLimit
	}
	return r, err
}
