package fesd_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
)

// TestMisuse: bad problems, options and calls return their documented
// errors (errors.Is) and do not panic.
func TestMisuse(t *testing.T) {
	ctx := context.Background()
	m, x, u := sharedModel()
	ocp := func(edit func(p *fesd.OCP)) *fesd.OCP {
		p := sharedOCP(m, x, u)
		edit(p)
		return p
	}
	solver, err := fesd.NewOCPSolver(sharedOCP(m, x, u), fesd.Options{NFE: 2})
	require.NoError(t, err)
	sim, err := fesd.NewSimulator(m, fesd.Options{NFE: 2}, 0.5)
	require.NoError(t, err)
	badModel := dcs.NewModel(ad.NewGraph(), nil, nil, nil)

	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"Simulate nil model", func() error { _, err := fesd.Simulate(ctx, nil, nil, sharedSim); return err }, fesd.ErrNilModel},
		{"Simulate invalid model", func() error { _, err := fesd.Simulate(ctx, badModel, nil, sharedSim); return err }, fesd.ErrDimension},
		{"Simulate NSim 0", func() error {
			o := sharedSim
			o.NSim = 0
			_, err := fesd.Simulate(ctx, m, []float64{-1}, o)
			return err
		}, fesd.ErrHorizon},
		{"Simulate TSim NaN", func() error {
			o := sharedSim
			o.TSim = math.NaN()
			_, err := fesd.Simulate(ctx, m, []float64{-1}, o)
			return err
		}, fesd.ErrHorizon},
		{"Simulate short x0", func() error { _, err := fesd.Simulate(ctx, m, nil, sharedSim); return err }, fesd.ErrDimension},
		{"Simulate Inf x0", func() error { _, err := fesd.Simulate(ctx, m, []float64{math.Inf(1)}, sharedSim); return err }, fesd.ErrNonFinite},
		{"Simulate missing control", func() error {
			o := sharedSim
			o.U = nil
			_, err := fesd.Simulate(ctx, m, []float64{-1}, o)
			return err
		}, fesd.ErrDimension},
		{"Simulate bad options", func() error {
			o := sharedSim
			o.Options.NFE = -1
			_, err := fesd.Simulate(ctx, m, []float64{-1}, o)
			return err
		}, fesd.ErrOptions},
		{"Simulate bad homotopy settings", func() error {
			o := sharedSim
			o.Options.MPCC = mpcc.Settings{Kappa: 2}
			_, err := fesd.Simulate(ctx, m, []float64{-1}, o)
			return err
		}, mpcc.ErrSettings},
		{"NewSimulator T 0", func() error { _, err := fesd.NewSimulator(m, fesd.Options{}, 0); return err }, fesd.ErrHorizon},
		{"Step short u", func() error { _, err := sim.Step(ctx, 0, []float64{-1}, nil, nil); return err }, fesd.ErrDimension},
		{"Step NaN t0", func() error { _, err := sim.Step(ctx, math.NaN(), []float64{-1}, []float64{0}, nil); return err }, fesd.ErrHorizon},
		{"Step on nil simulator", func() error {
			var s *fesd.Simulator
			_, err := s.Step(ctx, 0, nil, nil, nil)
			return err
		}, fesd.ErrNilSolver},
		{"NewOCPSolver nil problem", func() error { _, err := fesd.NewOCPSolver(nil, fesd.Options{}); return err }, fesd.ErrNilModel},
		{"NewOCPSolver N 0", func() error {
			_, err := fesd.NewOCPSolver(ocp(func(p *fesd.OCP) { p.N = 0 }), fesd.Options{})
			return err
		}, fesd.ErrHorizon},
		{"NewOCPSolver short X0", func() error {
			_, err := fesd.NewOCPSolver(ocp(func(p *fesd.OCP) { p.X0 = nil }), fesd.Options{})
			return err
		}, fesd.ErrDimension},
		{"NewOCPSolver NaN bound", func() error {
			_, err := fesd.NewOCPSolver(ocp(func(p *fesd.OCP) { p.UL, p.UU = []float64{math.NaN()}, []float64{1} }), fesd.Options{})
			return err
		}, fesd.ErrBounds},
		{"NewOCPSolver V not a symbol", func() error {
			_, err := fesd.NewOCPSolver(ocp(func(p *fesd.OCP) { p.V = ad.Vec{x[0].AddConst(1)} }), fesd.Options{})
			return err
		}, fesd.ErrDimension},
		{"NewOCPSolver cost in a foreign graph", func() error {
			_, err := fesd.NewOCPSolver(ocp(func(p *fesd.OCP) { p.Mayer = ad.NewGraph().Sym("q") }), fesd.Options{})
			return err
		}, ad.ErrForeignGraph},
		{"NewOCPSolver cost with a free symbol", func() error {
			_, err := fesd.NewOCPSolver(ocp(func(p *fesd.OCP) { p.Mayer = m.Graph.Sym("free") }), fesd.Options{})
			return err
		}, ad.ErrFreeSymbol},
		{"NewOCPSolver NFE entries", func() error {
			_, err := fesd.NewOCPSolver(ocp(func(p *fesd.OCP) { p.NFE = []int{2, 2, 2} }), fesd.Options{})
			return err
		}, fesd.ErrDimension},
		{"Solve wrong UInit", func() error {
			_, err := solver.Solve(ctx, fesd.Start{UInit: [][]float64{{1, 2}}})
			return err
		}, fesd.ErrDimension},
		{"Solve warm start of another size", func() error {
			_, err := solver.Solve(ctx, fesd.Start{Warm: fesd.WarmFromNLPSolution([]float64{1})})
			return err
		}, fesd.ErrDimension},
		{"Evaluate short w", func() error { _, err := solver.Evaluate([]float64{1}); return err }, fesd.ErrDimension},
		{"SetX0 NaN", func() error { return solver.SetX0([]float64{math.NaN()}) }, fesd.ErrNonFinite},
		{"Solve on nil solver", func() error {
			var s *fesd.OCPSolver
			_, err := s.Solve(ctx, fesd.Start{})
			return err
		}, fesd.ErrNilSolver},
		{"WithHomotopy bad settings", func() error { _, err := solver.WithHomotopy(mpcc.Settings{Sigma0: -1}); return err }, mpcc.ErrSettings},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			assert.NotPanics(t, func() { err = c.call() })
			require.ErrorIs(t, err, c.want)
		})
	}
	assert.NotPanics(t, func() {
		var r *fesd.OCPResult
		assert.Nil(t, r.UAt(0))
		assert.Nil(t, (&fesd.OCPResult{}).UAt(1))
	})
}
