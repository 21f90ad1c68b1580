package fesd_test

import (
	"errors"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/fesd"
)

// TestOCPErrors checks that every inconsistent input is an error wrapping
// the documented sentinel, before anything is built.
func TestOCPErrors(t *testing.T) {
	base := func() (*fesd.OCP, ad.Vec) {
		m, x := turboCar()
		return &fesd.OCP{
			Model: m, X0: []float64{0, 0}, N: 4, T: 2,
			UL: []float64{-5}, UU: []float64{5},
			Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-1)}}},
		}, x
	}
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		edit func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec)
		want error
	}{
		{"nil model", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.Model = nil }, fesd.ErrNilModel},
		{"N = 0", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.N = 0 }, fesd.ErrHorizon},
		{"T = 0", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.T = 0 }, fesd.ErrHorizon},
		{"T = NaN", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.T = nan }, fesd.ErrHorizon},
		{"T = Inf", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.T = inf }, fesd.ErrHorizon},
		{"T0 = NaN", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.T0 = nan }, fesd.ErrHorizon},
		{"X0 length", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.X0 = []float64{0} }, fesd.ErrDimension},
		{"X0 NaN", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.X0 = []float64{0, nan} }, fesd.ErrNonFinite},
		{"NFE length", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.NFE = []int{2, 2} }, fesd.ErrDimension},
		{"NFE zero", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.NFE = []int{0} }, fesd.ErrOptions},
		{"XL length", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.XL = []float64{0} }, fesd.ErrDimension},
		{"XL > XU", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.XL, p.XU = []float64{0, 1}, []float64{1, 0}
		}, fesd.ErrBounds},
		{"XU NaN", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.XU = []float64{1, nan} }, fesd.ErrBounds},
		{"XL = +Inf", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.XL = []float64{inf, 0} }, fesd.ErrBounds},
		{"UL > UU", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.UL = []float64{6} }, fesd.ErrBounds},
		{"UU length", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.UU = []float64{1, 2} }, fesd.ErrDimension},
		{"P length", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.P = []float64{1} }, fesd.ErrDimension},
		{"PStage rows", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.PStage = [][]float64{{}} }, fesd.ErrDimension},
		{"V not a symbol", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.V = ad.Vec{x[0].Scale(2)} }, fesd.ErrDimension},
		{"V is a state", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.V = ad.Vec{x[0]} }, fesd.ErrDimension},
		{"VL > VU", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.V = ad.Vec{p.Model.Graph.Sym("v")}
			p.VL, p.VU = []float64{1}, []float64{0}
		}, fesd.ErrBounds},
		{"V0 length", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.V = ad.Vec{p.Model.Graph.Sym("v")}
			st.V0 = []float64{1, 2}
		}, fesd.ErrDimension},
		{"HorizonSym not a symbol", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.HorizonSym = x[0].AddConst(1) }, fesd.ErrDimension},
		{"path L without U", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.Path = []fesd.Constraint{{G: ad.Vec{x[1]}, L: []float64{0}}}
		}, fesd.ErrDimension},
		{"path L > U", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.Path = []fesd.Constraint{{G: ad.Vec{x[1]}, L: []float64{1}, U: []float64{0}}}
		}, fesd.ErrBounds},
		{"path bounds length", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.Path = []fesd.Constraint{{G: ad.Vec{x[1]}, L: []float64{0, 0}, U: []float64{1, 1}}}
		}, fesd.ErrDimension},
		{"path Where", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.Path = []fesd.Constraint{{G: ad.Vec{x[1]}, At: 7}}
		}, fesd.ErrOptions},
		{"terminal L > U", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.Terminal = []fesd.Constraint{{G: ad.Vec{x[1]}, L: []float64{1}, U: []float64{0}}}
		}, fesd.ErrBounds},
		{"stage-end L > U", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.StageEnd = func(k int) []fesd.Constraint {
				return []fesd.Constraint{{G: ad.Vec{x[1]}, L: []float64{1}, U: []float64{0}}}
			}
		}, fesd.ErrBounds},
		{"path comp sizes", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.PathComps = []fesd.PathComp{{G: ad.Vec{x[0]}, H: ad.Vec{x[0], x[1]}}}
		}, fesd.ErrDimension},
		{"tracking XRef rows", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.Tracking = &fesd.Tracking{XRef: [][]float64{{0, 0}, {0, 0}}, Q: fesd.Diag(1, 1)}
		}, fesd.ErrDimension},
		{"tracking XRef length", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.Tracking = &fesd.Tracking{XRef: [][]float64{{0}}, Q: fesd.Diag(1, 1)}
		}, fesd.ErrDimension},
		{"tracking Q shape", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.Tracking = &fesd.Tracking{XRef: [][]float64{{0, 0}}, Q: fesd.Diag(1)}
		}, fesd.ErrDimension},
		{"tracking R shape", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.Tracking = &fesd.Tracking{R: fesd.Diag(1, 1)}
		}, fesd.ErrDimension},
		{"XInit rows", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { st.XInit = [][]float64{{0, 0}, {0, 0}} }, fesd.ErrDimension},
		{"XInit length", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { st.XInit = [][]float64{{0}} }, fesd.ErrDimension},
		{"UInit rows", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { st.UInit = [][]float64{{0}, {0}} }, fesd.ErrDimension},
		{"UInit NaN", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { st.UInit = [][]float64{{nan}} }, fesd.ErrNonFinite},
		{"TMin > TMax", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.FreeTime, p.TMin, p.TMax = true, 3, 2 }, fesd.ErrBounds},
		{"TMin < 0", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.FreeTime, p.TMin = true, -1 }, fesd.ErrBounds},
		{"free time with global SOT", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.TimeOptimal, p.SpeedOfTime = true, fesd.GlobalSpeedOfTime
		}, fesd.ErrOptions},
		{"SOTMin > SOTMax", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) {
			p.SpeedOfTime, p.SOTMin, p.SOTMax = fesd.StageSpeedOfTime, 3, 2
		}, fesd.ErrBounds},
		{"SOT mode", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.SpeedOfTime = 9 }, fesd.ErrOptions},
		{"XBoundsAt", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { p.XBoundsAt = -1 }, fesd.ErrOptions},
		{"options", func(p *fesd.OCP, o *fesd.Options, st *fesd.Start, x ad.Vec) { o.NFE = -1 }, fesd.ErrOptions},
	}
	for _, c := range cases {
		p, x := base()
		var o fesd.Options
		var st fesd.Start
		c.edit(p, &o, &st, x)
		s, err := fesd.NewOCPSolver(p, o)
		if err == nil {
			// start errors are reported when the solve starts
			_, err = s.Solve(t.Context(), st)
		}
		if !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
	}
	// a foreign symbol in an expression is reported at compilation
	p, _ := base()
	other := ad.NewGraph().Sym("y")
	p.Mayer = other
	if _, err := fesd.NewOCPSolver(p, fesd.Options{}); err == nil {
		t.Error("expression of another graph: no error")
	}
	p, _ = base()
	p.Mayer = p.Model.Graph.Sym("free")
	if _, err := fesd.NewOCPSolver(p, fesd.Options{}); err == nil {
		t.Error("free symbol in the cost: no error")
	}
	// solver-level errors
	p, _ = base()
	s, err := fesd.NewOCPSolver(p, fesd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetX0([]float64{1}); !errors.Is(err, fesd.ErrDimension) {
		t.Errorf("SetX0 of wrong length: %v", err)
	}
	if err := s.SetX0([]float64{1, nan}); !errors.Is(err, fesd.ErrNonFinite) {
		t.Errorf("SetX0 NaN: %v", err)
	}
	q, _ := base()
	q.N = 2
	s2, err := fesd.NewOCPSolver(q, fesd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := s2.Solve(t.Context(), fesd.Start{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Solve(t.Context(), fesd.Start{Warm: r2}); !errors.Is(err, fesd.ErrDimension) {
		t.Errorf("warm start from another problem: %v", err)
	}
	if _, err := s.Solve(t.Context(), fesd.Start{Warm: fesd.WarmFromNLPSolution(r2.NLPSolution())}); !errors.Is(err, fesd.ErrDimension) {
		t.Errorf("warm start from another problem's saved solution: %v", err)
	}
	w := make([]float64, s.NumVariables())
	w[len(w)-1] = math.Inf(1)
	if _, err := s.Solve(t.Context(), fesd.Start{Warm: fesd.WarmFromNLPSolution(w)}); !errors.Is(err, fesd.ErrNonFinite) {
		t.Errorf("warm start with +Inf: %v", err)
	}
	if _, err := fesd.SolveOCP(t.Context(), p, fesd.Options{}, fesd.Start{Warm: fesd.WarmFromNLPSolution(w)}); !errors.Is(err, fesd.ErrNonFinite) {
		t.Errorf("SolveOCP with a warm start with +Inf: %v", err)
	}
}
