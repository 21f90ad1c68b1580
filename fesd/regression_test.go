package fesd

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/rk"
)

// Regression tests for the correctness bugs nosnoc fixed over time; the
// numbers are issues and pull requests of github.com/nosnoc/nosnoc.

// nosnoc #52: a switch in the last element of a step, and a switch exactly
// at the end of a step, are detected (the last element's end point takes
// part in the cross complementarity, and a start state on the surface does
// not pin the next step's active set).
func TestRegressionSwitchInLastElement(t *testing.T) {
	c := tutorialCases()[0] // switch at 1/3, x(T) = T − 1/3
	cases := []struct {
		name      string
		tsim      float64
		nsim, nfe int
	}{
		{"last element", 0.8, 2, 3},    // step 0 = [0, 0.4], elements of 0.133: 1/3 in the last
		{"end of step", 2.0 / 3, 2, 2}, // step 0 ends at 1/3
	}
	for _, tc := range cases {
		for _, fam := range []rk.Family{rk.FamilyRadauIIA, rk.FamilyGaussLegendre} {
			for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
				c.tsim, c.nsim, c.nfe = tc.tsim, tc.nsim, tc.nfe
				r := c.simulate(t, Options{Scheme: fam, NFE: tc.nfe, DCS: dcs.Options{Formulation: f}})
				if e := math.Abs(r.Final()[0] - c.xT(c.tsim)); e > 1e-6 {
					t.Errorf("%s %v %v: x(T) error %.3g", tc.name, fam, f, e)
				}
				if len(r.Switches) != 1 || math.Abs(r.Switches[0].Time-1.0/3) > 1e-6 || r.Switches[0].Kind != Crossing {
					t.Errorf("%s %v %v: switches %+v", tc.name, fam, f, r.Switches)
				}
			}
		}
	}
}

// nosnoc #47: with c_{n_s} ≠ 1 the boundary points are part of the cross
// complementarity: the boundary variables of element n appear as end point
// in the terms of element n and as start point in those of element n + 1.
func TestRegressionBoundaryPointsInCrossComp(t *testing.T) {
	c := tutorialCases()[0]
	for _, cc := range CrossComps() {
		for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
			s, err := NewSimulator(c.model(), Options{Scheme: rk.FamilyGaussLegendre, NFE: 3, CrossComp: cc, DCS: dcs.Options{Formulation: f}}, 0.5)
			if err != nil {
				t.Fatal(err)
			}
			tr := s.tr
			for n := 0; n < tr.NE; n++ {
				if tr.zb[n] < 0 {
					t.Fatalf("%v %v: element %d has no boundary point", cc, f, n)
				}
				for _, grp := range s.d.Comp {
					for _, pr := range grp.Pairs {
						k := tr.zb[n] + tr.bzPos[pr.Lambda]
						uses := 0
						for _, term := range tr.comp {
							for _, p := range term.Pairs {
								if p[0] == k {
									uses++
									break
								}
							}
						}
						want := 1 // only its own element for the last one
						if n < tr.NE-1 {
							want = 2
						}
						if cc == StageStage || cc == FEStage {
							want *= map[CrossComp]int{StageStage: tr.ns, FEStage: 1}[cc]
						}
						if cc == StageFE {
							want *= tr.ns
						}
						if uses != want {
							t.Errorf("%v %v: boundary λ of element %d in %d terms, want %d", cc, f, n, uses, want)
						}
					}
				}
			}
			if s.NumComplementarities() == 0 {
				t.Errorf("no terms")
			}
		}
	}
}

// nosnoc #57: the step-equilibration indicator η_n (004 eq. 39) vanishes
// at the switch and is positive at the other element boundaries, evaluated
// at the FESD solution of the simple switch.
func TestRegressionEquilibrationIndicator(t *testing.T) {
	c := tutorialCases()[0]
	for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
		s, err := NewSimulator(c.model(), Options{NFE: 3, StepEquilibration: L2Relaxed, DCS: dcs.Options{Formulation: f}}, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		tr := s.tr
		etas := make(ad.Vec, 0, tr.NE-1)
		for n := 1; n < tr.NE; n++ {
			etas = append(etas, tr.eta(n))
		}
		fn, err := ad.NewFunction("eta", []ad.Arg{{Name: "w", V: tr.w}, {Name: "p", V: tr.params}}, []ad.Arg{{Name: "eta", V: etas}})
		if err != nil {
			t.Fatal(err)
		}
		for step, t0 := range []float64{0, 0.5} {
			x0 := []float64{-1}
			if step == 1 {
				x0 = []float64{0.5 - 1.0/3}
			}
			sr, err := s.Step(context.Background(), t0, x0, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			out := make([]float64, len(etas))
			if err := fn.Eval(fn.NewWorkspace(), [][]float64{s.prev, s.params(t0, x0, nil, nil, nil)}, [][]float64{out}); err != nil {
				t.Fatal(err)
			}
			for n := 1; n < tr.N; n++ {
				atSwitch := math.Abs(sr.T[n]-1.0/3) < 1e-6
				switch {
				case atSwitch && out[n-1] > 1e-6:
					t.Errorf("%v step %d: η at the switch t = %v is %v", f, step, sr.T[n], out[n-1])
				case !atSwitch && out[n-1] < 1e-3:
					t.Errorf("%v step %d: η at t = %v (no switch) is %v", f, step, sr.T[n], out[n-1])
				}
			}
		}
	}
}

// nosnoc #106: every integrator step is stored once (the grid has
// NSim·NFE + 1 increasing points, the stages lie inside their elements), and
// heuristic step equilibration gives no zero step sizes: elements of steps
// without a switch are equidistant (h = h₀) and all h are bounded away
// from 0.
func TestRegressionHistoryAndStepSizes(t *testing.T) {
	for _, c := range tutorialCases()[:3] {
		for _, se := range []StepEquilibration{HeuristicMean, HeuristicDiff} {
			for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
				c.nsim, c.nfe = 4, 3
				r := c.simulate(t, Options{NFE: c.nfe, StepEquilibration: se, DCS: dcs.Options{Formulation: f}})
				ne := c.nsim * c.nfe
				if len(r.T) != ne+1 || len(r.X) != ne+1 || len(r.H) != ne || len(r.PointT) != ne*2 || len(r.StageOf) != ne || len(r.Steps) != c.nsim {
					t.Fatalf("%s: sizes T %d X %d H %d stages %d steps %d", c.name, len(r.T), len(r.X), len(r.H), len(r.PointT), len(r.Steps))
				}
				h0 := c.tsim / float64(ne)
				for e := 0; e < ne; e++ {
					if !(r.T[e+1] > r.T[e]) || math.Abs(r.T[e+1]-r.T[e]-r.H[e]) > 1e-12 {
						t.Errorf("%s: element %d [%v, %v] with h = %v", c.name, e, r.T[e], r.T[e+1], r.H[e])
					}
					for m := 0; m < 2; m++ {
						if ts := r.PointT[2*e+m]; ts < r.T[e] || ts > r.T[e+1]+1e-14 {
							t.Errorf("%s: stage %v outside element %d", c.name, ts, e)
						}
					}
					if r.H[e] < 0.05*h0 {
						t.Errorf("%s %v %v: h[%d] = %v (h₀ = %v)", c.name, se, f, e, r.H[e], h0)
					}
					k := r.StageOf[e]
					if t0, t1 := r.Steps[k].T0, r.Steps[k].T1; c.ts < t0-1e-9 || c.ts > t1+1e-9 {
						if math.Abs(r.H[e]-h0) > 1e-6 {
							t.Errorf("%s %v %v: step %d without switch has h = %v ≠ h₀", c.name, se, f, k, r.H[e])
						}
					}
				}
			}
		}
	}
}

// nosnoc #19: without FESD the time of the stages is t₀ + n·h + c_i·h (the
// step sizes are not a time transformation). ẋ = 2t in both modes (ψ = x −
// 100 never changes sign) from t₀ = 0.5: x(t) = x₀ + t² − t₀², integrated
// exactly by Radau IIA n_s = 2 (order 3).
func TestRegressionTimeWithoutFESD(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	tm := g.Sym("t")
	m := dcs.NewModel(g, x, nil, nil)
	m.Time = tm
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[0].AddConst(-100)}, S: [][]int{{1}, {-1}},
		F: []ad.Vec{{tm.Scale(2)}, {tm.Scale(2)}}})
	const t0, tsim = 0.5, 1.3
	for _, off := range []bool{true, false} {
		r, err := Simulate(context.Background(), m, []float64{1}, SimOptions{T0: t0, TSim: tsim, NSim: 3, Options: Options{DisableFESD: off, NFE: 2}})
		if err != nil {
			t.Fatal(err)
		}
		want := 1 + (t0+tsim)*(t0+tsim) - t0*t0
		if e := math.Abs(r.Final()[0] - want); e > 1e-9 {
			t.Errorf("FESD off = %v: x(T) = %v, want %v", off, r.Final()[0], want)
		}
		tab, _ := rk.RadauIIA(2)
		for e := range r.H {
			for i := 0; i < 2; i++ {
				if ts, w := r.PointT[2*e+i], r.T[e]+tab.C[i]*r.H[e]; math.Abs(ts-w) > 1e-12 {
					t.Errorf("stage time %v, want %v", ts, w)
				}
			}
		}
		if math.Abs(r.T[0]-t0) > 0 || math.Abs(r.T[len(r.T)-1]-(t0+tsim)) > 1e-12 {
			t.Errorf("grid [%v, %v]", r.T[0], r.T[len(r.T)-1])
		}
	}
}

// TestErrors: bad inputs give errors (never panics) that name the problem.
func TestErrors(t *testing.T) {
	c := tutorialCases()[0]
	ctx := context.Background()
	good := SimOptions{TSim: 1, NSim: 2}
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	nanModel := dcs.NewModel(g, x, nil, nil)
	nanModel.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{ad.Log(x[0])}, S: [][]int{{1}, {-1}}, F: []ad.Vec{{g.Const(1)}, {g.Const(3)}}})
	with := func(f func(*SimOptions)) SimOptions { o := good; f(&o); return o }
	cases := []struct {
		name  string
		model *dcs.Model
		x0    []float64
		opts  SimOptions
		want  error
	}{
		{"nil model", nil, []float64{-1}, good, ErrNilModel},
		{"x0 length", c.model(), []float64{-1, 0}, good, ErrDimension},
		{"x0 NaN", c.model(), []float64{math.NaN()}, good, ErrNonFinite},
		{"u length", c.model(), []float64{-1}, with(func(o *SimOptions) { o.U = []float64{1} }), ErrDimension},
		{"p length", c.model(), []float64{-1}, with(func(o *SimOptions) { o.P = []float64{1} }), ErrDimension},
		{"T = 0", c.model(), []float64{-1}, with(func(o *SimOptions) { o.TSim = 0 }), ErrHorizon},
		{"T < 0", c.model(), []float64{-1}, with(func(o *SimOptions) { o.TSim = -1 }), ErrHorizon},
		{"T NaN", c.model(), []float64{-1}, with(func(o *SimOptions) { o.TSim = math.NaN() }), ErrHorizon},
		{"NSim = 0", c.model(), []float64{-1}, with(func(o *SimOptions) { o.NSim = 0 }), ErrHorizon},
		{"NFE < 1", c.model(), []float64{-1}, with(func(o *SimOptions) { o.Options.NFE = -1 }), ErrOptions},
		{"NaN ψ at x0", nanModel, []float64{-1}, good, ErrNonFinite},
		{"integral with Lobatto IIIC family", c.model(), []float64{-1}, with(func(o *SimOptions) { o.Options.Scheme = rk.FamilyLobattoIIIC }), ErrOptions},
		{"stages out of range", c.model(), []float64{-1}, with(func(o *SimOptions) { o.Options.Stages = 99 }), ErrOptions},
		{"FESD off with cross comp", c.model(), []float64{-1}, with(func(o *SimOptions) {
			o.Options.DisableFESD, o.Options.CrossComp = true, FEFE
		}), ErrOptions},
		{"FESD off with equilibration", c.model(), []float64{-1}, with(func(o *SimOptions) {
			o.Options.DisableFESD, o.Options.StepEquilibration = true, Direct
		}), ErrOptions},
		{"summed cross comp with Fischer–Burmeister", c.model(), []float64{-1}, with(func(o *SimOptions) {
			o.Options.MPCC.Relaxation = mpcc.FischerBurmeisterEq
		}), ErrOptions},
		{"GammaH < 0", c.model(), []float64{-1}, with(func(o *SimOptions) { o.Options.GammaH = -0.5 }), ErrOptions},
		{"GammaH = Inf", c.model(), []float64{-1}, with(func(o *SimOptions) { o.Options.GammaH = math.Inf(1) }), ErrOptions},
		{"RhoH < 0", c.model(), []float64{-1}, with(func(o *SimOptions) { o.Options.RhoH = -1 }), ErrOptions},
		{"unknown cross comp", c.model(), []float64{-1}, with(func(o *SimOptions) { o.Options.CrossComp = 17 }), ErrOptions},
		{"unknown equilibration", c.model(), []float64{-1}, with(func(o *SimOptions) { o.Options.StepEquilibration = 17 }), ErrOptions},
		{"unknown representation", c.model(), []float64{-1}, with(func(o *SimOptions) { o.Options.Representation = 5 }), ErrOptions},
		{"bad DCS options", c.model(), []float64{-1}, with(func(o *SimOptions) { o.Options.DCS.LiftDepth = -1 }), ErrOptions},
		{"bad MPCC settings", c.model(), []float64{-1}, with(func(o *SimOptions) { o.Options.MPCC.Kappa = 2 }), ErrOptions},
	}
	for _, tc := range cases {
		r, err := Simulate(ctx, tc.model, tc.x0, tc.opts)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
		if r != nil && len(r.X) > 0 {
			t.Errorf("%s: result with data", tc.name)
		}
	}
	// Simulator-level checks.
	if _, err := NewSimulator(c.model(), Options{}, 0); !errors.Is(err, ErrHorizon) {
		t.Errorf("NewSimulator T = 0: %v", err)
	}
	s, err := NewSimulator(c.model(), Options{}, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Step(ctx, 0, []float64{1, 2}, nil, nil); !errors.Is(err, ErrDimension) {
		t.Errorf("Step x0 length: %v", err)
	}
	if _, err := s.Step(ctx, math.Inf(1), []float64{1}, nil, nil); !errors.Is(err, ErrHorizon) {
		t.Errorf("Step t0 = Inf: %v", err)
	}
	// The non-finite ψ error names ψ_0 of subsystem 0.
	_, err = Simulate(ctx, nanModel, []float64{-1}, good)
	var nf *dcs.NonFiniteError
	if !errors.As(err, &nf) || nf.Subsystem != 0 || nf.Index != 0 {
		t.Errorf("NaN ψ: %v", err)
	}
}
