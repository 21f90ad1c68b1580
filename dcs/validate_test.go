package dcs_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// base returns a valid two-state model with one 2×2 subsystem.
func base() (*dcs.Model, ad.Vec) {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	u := g.SymVec("u", 1)
	p := g.SymVec("p", 1)
	m := dcs.NewModel(g, x, u, p)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0], x[1].Sub(p[0])},
		F:   []ad.Vec{{u[0], x[0]}, {x[1], g.Const(1)}, {g.Const(2), g.Const(0)}, {x[0], x[1]}},
	})
	return m, x
}

func TestValidateErrors(t *testing.T) {
	m0, _ := base()
	if err := m0.Validate(); err != nil {
		t.Fatalf("base model: %v", err)
	}
	type loc struct{ sub, i, j int } // expected *Error location (sub −2: no *Error)
	cases := []struct {
		name   string
		mutate func(m *dcs.Model, x ad.Vec)
		opt    dcs.Options
		want   error
		field  string
		at     loc
	}{
		{"nil graph", func(m *dcs.Model, x ad.Vec) { m.Graph = nil }, dcs.Options{}, dcs.ErrNilGraph, "", loc{-2, 0, 0}},
		{"no states", func(m *dcs.Model, x ad.Vec) { m.X = nil }, dcs.Options{}, dcs.ErrNoStates, "", loc{-2, 0, 0}},
		{"state not a symbol", func(m *dcs.Model, x ad.Vec) { m.X = ad.Vec{x[0], x[1].AddConst(1)} }, dcs.Options{}, dcs.ErrNotSymbol, "X", loc{-1, 1, -1}},
		{"state repeated in P", func(m *dcs.Model, x ad.Vec) { m.P = ad.Vec{x[1]} }, dcs.Options{}, dcs.ErrDuplicateSymbol, "P", loc{-1, 0, -1}},
		{"zero expression in ψ", func(m *dcs.Model, x ad.Vec) { m.Subsystems[0].Psi[1] = ad.Expr{} }, dcs.Options{}, dcs.ErrInvalidExpr, "Psi", loc{0, 1, -1}},
		{"ψ from another graph", func(m *dcs.Model, x ad.Vec) { m.Subsystems[0].Psi[0] = ad.NewGraph().Sym("y") }, dcs.Options{}, dcs.ErrInvalidExpr, "Psi", loc{0, 0, -1}},
		{"ψ uses a stray symbol", func(m *dcs.Model, x ad.Vec) { m.Subsystems[0].Psi[1] = x[0].Mul(m.Graph.Sym("y")) }, dcs.Options{}, dcs.ErrForeignSymbol, "Psi", loc{0, 1, -1}},
		{"ψ uses time", func(m *dcs.Model, x ad.Vec) {
			m.Time = m.Graph.Sym("t")
			m.Subsystems[0].Psi[0] = m.Time
		}, dcs.Options{}, dcs.ErrForeignSymbol, "Psi", loc{0, 0, -1}},
		{"mode uses a stray symbol", func(m *dcs.Model, x ad.Vec) { m.Subsystems[0].F[2][1] = m.Graph.Sym("w") }, dcs.Options{}, dcs.ErrForeignSymbol, "F[2]", loc{0, 1, -1}},
		{"F0 wrong length", func(m *dcs.Model, x ad.Vec) { m.F0 = ad.Vec{x[0]} }, dcs.Options{}, dcs.ErrDimension, "F0", loc{-1, -1, -1}},
		{"F0 uses a stray symbol", func(m *dcs.Model, x ad.Vec) { m.F0 = ad.Vec{x[0], m.Graph.Sym("w")} }, dcs.Options{}, dcs.ErrForeignSymbol, "F0", loc{-1, 1, -1}},
		{"three modes for four base sets", func(m *dcs.Model, x ad.Vec) { m.Subsystems[0].F = m.Subsystems[0].F[:3] }, dcs.Options{}, dcs.ErrDimension, "F", loc{0, -1, -1}},
		{"mode of wrong length", func(m *dcs.Model, x ad.Vec) { m.Subsystems[0].F[3] = ad.Vec{x[0]} }, dcs.Options{}, dcs.ErrDimension, "F", loc{0, 3, -1}},
		{"S zero entry", func(m *dcs.Model, x ad.Vec) { m.Subsystems[0].S = [][]int{{1, 1}, {1, 0}, {-1, 1}, {-1, -1}} }, dcs.Options{}, dcs.ErrSignEntry, "S", loc{0, 1, 1}},
		{"S repeated rows", func(m *dcs.Model, x ad.Vec) { m.Subsystems[0].S = [][]int{{1, 1}, {-1, 1}, {1, -1}, {-1, 1}} }, dcs.Options{}, dcs.ErrRepeatedRow, "S", loc{0, 1, 3}},
		{"S incomplete", func(m *dcs.Model, x ad.Vec) {
			m.Subsystems[0].S = [][]int{{1, 1}, {1, -1}, {-1, 1}}
			m.Subsystems[0].F = m.Subsystems[0].F[:3]
		}, dcs.Options{}, dcs.ErrIncompleteSigns, "S", loc{0, -1, -1}},
		{"S row too short", func(m *dcs.Model, x ad.Vec) { m.Subsystems[0].S = [][]int{{1, 1}, {1}, {-1, 1}, {-1, -1}} }, dcs.Options{}, dcs.ErrDimension, "S", loc{0, 1, -1}},
		{"region refers to base set 4", func(m *dcs.Model, x ad.Vec) {
			m.Subsystems[0].Regions = []dcs.Region{dcs.Union(dcs.BaseSet(0), dcs.BaseSet(4)), dcs.BaseSet(1)}
			m.Subsystems[0].F = m.Subsystems[0].F[:2]
		}, dcs.Options{}, dcs.ErrRegionIndex, "Regions", loc{0, 0, -1}},
		{"region refers to ψ_2", func(m *dcs.Model, x ad.Vec) {
			m.Subsystems[0].Regions = []dcs.Region{dcs.Positive(0), dcs.Negative(2)}
			m.Subsystems[0].F = m.Subsystems[0].F[:2]
		}, dcs.Options{}, dcs.ErrRegionIndex, "Regions", loc{0, 1, -1}},
		{"empty region", func(m *dcs.Model, x ad.Vec) {
			m.Subsystems[0].Regions = []dcs.Region{dcs.Positive(0), dcs.Negative(0), dcs.Intersection(dcs.Positive(1), dcs.Negative(1))}
			m.Subsystems[0].F = m.Subsystems[0].F[:3]
		}, dcs.Options{}, dcs.ErrEmptyRegion, "Regions", loc{0, 2, -1}},
		{"overlapping regions", func(m *dcs.Model, x ad.Vec) {
			m.Subsystems[0].Regions = []dcs.Region{dcs.Positive(0), dcs.Positive(1)}
			m.Subsystems[0].F = m.Subsystems[0].F[:2]
		}, dcs.Options{}, dcs.ErrOverlappingRegions, "Regions", loc{0, 0, 1}},
		{"uncovered base set", func(m *dcs.Model, x ad.Vec) {
			m.Subsystems[0].Regions = []dcs.Region{dcs.Positive(0), dcs.BaseSet(2)}
			m.Subsystems[0].F = m.Subsystems[0].F[:2]
		}, dcs.Options{}, dcs.ErrUncovered, "Regions", loc{0, -1, -1}},
		{"zero region", func(m *dcs.Model, x ad.Vec) {
			m.Subsystems[0].Regions = []dcs.Region{dcs.Positive(0), dcs.Union(dcs.Region{})}
			m.Subsystems[0].F = m.Subsystems[0].F[:2]
		}, dcs.Options{}, dcs.ErrInvalidRegion, "Regions", loc{0, 1, -1}},
		{"union of nothing", func(m *dcs.Model, x ad.Vec) {
			m.Subsystems[0].Regions = []dcs.Region{dcs.Union()}
			m.Subsystems[0].F = m.Subsystems[0].F[:1]
		}, dcs.Options{}, dcs.ErrInvalidRegion, "Regions", loc{0, 0, -1}},
		{"no ψ, no g", func(m *dcs.Model, x ad.Vec) { m.Subsystems[0].Psi = nil }, dcs.Options{}, dcs.ErrNoIndicator, "G", loc{0, -1, -1}},
		{"g of wrong length", func(m *dcs.Model, x ad.Vec) { m.Subsystems[0].G = ad.Vec{x[0]} }, dcs.Options{}, dcs.ErrDimension, "G", loc{0, -1, -1}},
		{"too many ψ", func(m *dcs.Model, x ad.Vec) { m.Subsystems[0].Psi = make(ad.Vec, dcs.MaxPsi+1) }, dcs.Options{}, dcs.ErrTooManyPsi, "Psi", loc{0, -1, -1}},
		{"no dynamics", func(m *dcs.Model, x ad.Vec) { m.Subsystems = nil }, dcs.Options{}, dcs.ErrNoDynamics, "", loc{-2, 0, 0}},
		{"steps: ψ and α lengths", func(m *dcs.Model, x ad.Vec) {
			m.AddStep(ad.Vec{x[0]})
			m.Steps[0].Psi = append(m.Steps[0].Psi, x[1])
		}, dcs.Options{Formulation: dcs.Step}, dcs.ErrDimension, "Steps[0]", loc{-1, -1, -1}},
		{"steps in Stewart", func(m *dcs.Model, x ad.Vec) { m.AddStep(ad.Vec{x[0]}) }, dcs.Options{}, dcs.ErrStewartGeneral, "Steps", loc{-1, -1, -1}},
		{"user equations ≠ variables", func(m *dcs.Model, x ad.Vec) { m.AddAlgebraic(m.Graph.SymVec("z", 2), ad.Vec{x[0]}) }, dcs.Options{}, dcs.ErrDimension, "Algebraic.G", loc{-1, -1, -1}},
		{"user bounds crossed", func(m *dcs.Model, x ad.Vec) {
			m.AddAlgebraic(m.Graph.SymVec("z", 1), ad.Vec{x[0]})
			m.Algebraic.Lower, m.Algebraic.Upper = []float64{1}, []float64{0}
		}, dcs.Options{}, dcs.ErrDimension, "Algebraic.Lower", loc{-1, 0, -1}},
		{"user equation uses a stray symbol", func(m *dcs.Model, x ad.Vec) {
			z := m.Graph.Sym("z")
			m.AddAlgebraic(ad.Vec{z}, ad.Vec{z.Sub(m.Graph.Sym("w"))})
		}, dcs.Options{}, dcs.ErrForeignSymbol, "Algebraic.G", loc{-1, 0, -1}},
		{"unknown formulation", func(m *dcs.Model, x ad.Vec) {}, dcs.Options{Formulation: 7}, dcs.ErrOptions, "", loc{-2, 0, 0}},
		{"negative lift depth", func(m *dcs.Model, x ad.Vec) {}, dcs.Options{Formulation: dcs.Step, LiftDepth: -1}, dcs.ErrOptions, "", loc{-2, 0, 0}},
		{"lifting with Stewart", func(m *dcs.Model, x ad.Vec) {}, dcs.Options{LiftDepth: 2}, dcs.ErrOptions, "", loc{-2, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, x := base()
			c.mutate(m, x)
			_, err := m.Reformulate(c.opt)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "dcs: ") {
				t.Errorf("message %q lacks the dcs: prefix", err)
			}
			var e *dcs.Error
			if c.at.sub == -2 {
				return
			}
			if !errors.As(err, &e) {
				t.Fatalf("err %v is not an *Error", err)
			}
			if e.Field != c.field || e.Subsystem != c.at.sub || e.Index != c.at.i || e.Index2 != c.at.j {
				t.Errorf("error at subsystem %d %s[%d][%d], want subsystem %d %s[%d][%d] (%v)",
					e.Subsystem, e.Field, e.Index, e.Index2, c.at.sub, c.field, c.at.i, c.at.j, err)
			}
		})
	}
}

// TestModelUnchanged: Reformulate does not modify the model, and two
// reformulations give the same layout.
func TestModelUnchanged(t *testing.T) {
	m, _ := base()
	before := len(m.Subsystems[0].F)
	d1 := reformulate(t, m, dcs.Options{Formulation: dcs.Step, LiftDepth: 2})
	d2 := reformulate(t, m, dcs.Options{Formulation: dcs.Step, LiftDepth: 2})
	if m.Subsystems[0].S != nil || m.Subsystems[0].Regions != nil || len(m.Subsystems[0].F) != before {
		t.Errorf("model modified: %+v", m.Subsystems[0])
	}
	if d1.Dims != d2.Dims || len(d1.ZBlocks) != len(d2.ZBlocks) {
		t.Errorf("layouts differ: %+v vs %+v", d1.Dims, d2.Dims)
	}
}
