package dcs_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// TestMisuse: bad models and bad calls return their documented errors
// (errors.Is) and do not panic.
func TestMisuse(t *testing.T) {
	// valid returns a fresh valid one-state model with one switch.
	valid := func() (*dcs.Model, ad.Vec) {
		g := ad.NewGraph()
		x := g.SymVec("x", 1)
		m := dcs.NewModel(g, x, nil, nil)
		m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[0]}, F: []ad.Vec{{g.Const(-1)}, {g.Const(1)}}})
		return m, x
	}
	m0, _ := valid()
	d0, err := m0.Reformulate(dcs.Options{})
	require.NoError(t, err)

	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"nil model", func() error { var m *dcs.Model; return m.Validate() }, dcs.ErrNilGraph},
		{"nil graph", func() error { return (&dcs.Model{}).Validate() }, dcs.ErrNilGraph},
		{"no states", func() error { return dcs.NewModel(ad.NewGraph(), nil, nil, nil).Validate() }, dcs.ErrNoStates},
		{"graph error (SymVec -1)", func() error {
			m, _ := valid()
			m.Graph.SymVec("v", -1)
			return m.Validate()
		}, dcs.ErrInvalidExpr},
		{"state not a symbol", func() error {
			m, x := valid()
			m.X = ad.Vec{x[0].AddConst(1)}
			return m.Validate()
		}, dcs.ErrNotSymbol},
		{"state repeated as control", func() error {
			m, x := valid()
			m.U = ad.Vec{x[0]}
			return m.Validate()
		}, dcs.ErrDuplicateSymbol},
		{"foreign-graph mode", func() error {
			m, _ := valid()
			m.Subsystems[0].F[0] = ad.Vec{ad.NewGraph().Const(1)}
			return m.Validate()
		}, dcs.ErrInvalidExpr},
		{"zero Expr in ψ", func() error {
			m, _ := valid()
			m.Subsystems[0].Psi = ad.Vec{{}}
			return m.Validate()
		}, dcs.ErrInvalidExpr},
		{"ψ uses time", func() error {
			m, _ := valid()
			m.Time = m.Graph.Sym("t")
			m.Subsystems[0].Psi = ad.Vec{m.Time}
			return m.Validate()
		}, dcs.ErrForeignSymbol},
		{"mode of wrong length", func() error {
			m, x := valid()
			m.Subsystems[0].F[1] = ad.Vec{x[0], x[0]}
			return m.Validate()
		}, dcs.ErrDimension},
		{"too few modes", func() error {
			m, _ := valid()
			m.Subsystems[0].F = m.Subsystems[0].F[:1]
			return m.Validate()
		}, dcs.ErrDimension},
		{"sign entry 0", func() error {
			m, _ := valid()
			m.Subsystems[0].S = [][]int{{1}, {0}}
			return m.Validate()
		}, dcs.ErrSignEntry},
		{"repeated sign row", func() error {
			m, _ := valid()
			m.Subsystems[0].S = [][]int{{1}, {1}}
			return m.Validate()
		}, dcs.ErrRepeatedRow},
		{"incomplete signs", func() error {
			m, _ := valid()
			m.Subsystems[0].S = [][]int{{1}}
			m.Subsystems[0].F = m.Subsystems[0].F[:1]
			return m.Validate()
		}, dcs.ErrIncompleteSigns},
		{"region index out of range", func() error {
			m, _ := valid()
			m.Subsystems[0].Regions = []dcs.Region{dcs.BaseSet(0), dcs.BaseSet(5)}
			return m.Validate()
		}, dcs.ErrRegionIndex},
		{"zero region", func() error {
			m, _ := valid()
			m.Subsystems[0].Regions = []dcs.Region{dcs.BaseSet(0), {}}
			return m.Validate()
		}, dcs.ErrInvalidRegion},
		{"overlapping regions", func() error {
			m, _ := valid()
			m.Subsystems[0].Regions = []dcs.Region{dcs.BaseSet(0), dcs.Union(dcs.BaseSet(0), dcs.BaseSet(1))}
			return m.Validate()
		}, dcs.ErrOverlappingRegions},
		{"uncovered base set", func() error {
			m, _ := valid()
			m.Subsystems[0].Regions = []dcs.Region{dcs.BaseSet(0)}
			m.Subsystems[0].F = m.Subsystems[0].F[:1]
			return m.Validate()
		}, dcs.ErrUncovered},
		{"too many ψ", func() error {
			m, x := valid()
			m.Subsystems[0].Psi = make(ad.Vec, dcs.MaxPsi+1)
			for i := range m.Subsystems[0].Psi {
				m.Subsystems[0].Psi[i] = x[0]
			}
			return m.Validate()
		}, dcs.ErrTooManyPsi},
		{"no dynamics", func() error {
			g := ad.NewGraph()
			return dcs.NewModel(g, g.SymVec("x", 1), nil, nil).Validate()
		}, dcs.ErrNoDynamics},
		{"no indicator", func() error {
			m, x := valid()
			m.Subsystems[0] = dcs.Subsystem{F: []ad.Vec{{x[0]}}}
			return m.Validate()
		}, dcs.ErrNoIndicator},
		{"algebraic bounds of wrong length", func() error {
			m, x := valid()
			z := m.Graph.Sym("z")
			m.AddAlgebraic(ad.Vec{z}, ad.Vec{z.Sub(x[0])})
			m.Algebraic.Lower = []float64{0, 0}
			return m.Validate()
		}, dcs.ErrDimension},
		{"Stewart with general steps", func() error {
			m, x := valid()
			m.AddStep(ad.Vec{x[0]})
			_, err := m.Reformulate(dcs.Options{})
			return err
		}, dcs.ErrStewartGeneral},
		{"Step without ψ", func() error {
			m, x := valid()
			m.Subsystems[0] = dcs.Subsystem{G: ad.Vec{x[0], x[0].Neg()}, F: []ad.Vec{{x[0]}, {x[0]}}}
			_, err := m.Reformulate(dcs.Options{Formulation: dcs.Step})
			return err
		}, dcs.ErrNoPsi},
		{"bad options", func() error {
			m, _ := valid()
			_, err := m.Reformulate(dcs.Options{LiftDepth: 2})
			return err
		}, dcs.ErrOptions},
		{"unknown formulation", func() error {
			m, _ := valid()
			_, err := m.Reformulate(dcs.Options{Formulation: 7})
			return err
		}, dcs.ErrOptions},
		{"EvalPsi short x", func() error { _, err := m0.EvalPsi(nil, nil, nil); return err }, dcs.ErrDimension},
		{"EvalPsi NaN x", func() error { _, err := m0.EvalPsi([]float64{math.NaN()}, nil, nil); return err }, dcs.ErrNonFinite},
		{"EvalPsi non-finite ψ", func() error {
			m, x := valid()
			m.Subsystems[0].Psi = ad.Vec{ad.Log(x[0])}
			_, err := m.EvalPsi([]float64{-1}, nil, nil)
			return err
		}, dcs.ErrNonFinite},
		{"EvalF short z", func() error { _, err := d0.EvalF([]float64{1}, nil, nil, nil, 0); return err }, dcs.ErrDimension},
		{"EvalG long x", func() error { _, err := d0.EvalG([]float64{1, 2}, nil, nil, make([]float64, d0.Dims.NZ)); return err }, dcs.ErrDimension},
		{"Residuals short z", func() error { _, err := d0.Residuals([]float64{1}, nil, nil, []float64{1}); return err }, dcs.ErrDimension},
		{"InitialGuess Inf", func() error { _, err := d0.InitialGuess([]float64{math.Inf(1)}, nil, nil); return err }, dcs.ErrNonFinite},
		{"nil DCS", func() error { var d *dcs.DCS; _, err := d.EvalF(nil, nil, nil, nil, 0); return err }, dcs.ErrNilDCS},
		{"hand-made DCS", func() error { _, err := (&dcs.DCS{}).InitialGuess(nil, nil, nil); return err }, dcs.ErrNilDCS},
		{"Import of a foreign expression", func() error {
			m, _ := valid()
			d, err := m.Reformulate(dcs.Options{})
			require.NoError(t, err)
			assert.False(t, d.ImportExpr(ad.NewGraph().Sym("q")).IsValid())
			return d.Graph.Err()
		}, ad.ErrForeignGraph},
		{"ParseFormulation", func() error { _, err := dcs.ParseFormulation("nope"); return err }, dcs.ErrOptions},
		{"time freezing without a graph", func() error { _, err := dcs.NewTimeFreezing(dcs.RigidBody{}, dcs.TimeFreezingOptions{}); return err }, dcs.ErrNilGraph},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			assert.NotPanics(t, func() { err = c.call() })
			require.ErrorIs(t, err, c.want)
		})
	}

	// Calls without an error result return neutral values.
	assert.NotPanics(t, func() {
		var m *dcs.Model
		assert.Equal(t, -1, m.AddSubsystem(dcs.Subsystem{}))
		assert.Nil(t, m.AddStep(nil))
		assert.Nil(t, dcs.DefaultSigns(-1))
		assert.Nil(t, dcs.DefaultSigns(dcs.MaxPsi+1))
		a, b := dcs.Pair{Lambda: 3, Sel: 0}.Values([]float64{1})
		assert.True(t, math.IsNaN(a) && math.IsNaN(b))
		ea, _ := dcs.Pair{Lambda: 0, Sel: 9}.Exprs(d0.Z[:1])
		assert.False(t, ea.IsValid())
		var d *dcs.DCS
		assert.Nil(t, d.Var(dcs.Theta, 0))
		assert.Nil(t, d.Args())
		assert.Nil(t, (&dcs.DCS{ZBlocks: []dcs.VarBlock{{Kind: dcs.Theta, Start: 2, Len: 5}}}).Var(dcs.Theta, 0))
	})
}
