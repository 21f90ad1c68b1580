package dcs_test

import (
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// kindOf returns the block kind of z index i.
func kindOf(d *dcs.DCS, i int) (dcs.VarKind, int) {
	for _, bl := range d.ZBlocks {
		if i >= bl.Start && i < bl.Start+bl.Len {
			return bl.Kind, bl.Subsystem
		}
	}
	return -1, -2
}

// TestStructure checks the transcription-facing layout for every
// formulation on a model with two subsystems, general steps and a user
// variable: blocks tile z and G, pairs join a boundary multiplier with a
// selection of the same subsystem, bounds make every pair side
// nonnegative, equilibration terms are per ψ (Step) or per base set
// (Stewart), and the boundary equations depend on x and boundary
// variables only.
func TestStructure(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 3)
	u := g.SymVec("u", 1)
	m := dcs.NewModel(g, x, u, nil)
	zero := g.Zeros(3)
	m.AddSubsystem(dcs.Subsystem{Name: "a", Psi: ad.Vec{x[0], x[1]}, F: []ad.Vec{zero, zero, zero, zero}})
	m.AddSubsystem(dcs.Subsystem{Name: "b", Psi: ad.Vec{x[2].Sub(u[0])}, F: []ad.Vec{zero, zero}})
	step := m.AddStep(ad.Vec{x[0].Add(x[2])})
	w := g.Sym("w")
	m.AddAlgebraic(ad.Vec{w}, ad.Vec{w.Sub(step[0])})
	m.F0 = ad.Vec{w, step[0], x[0]}
	mStewart := dcs.NewModel(g, x, u, nil)
	mStewart.Subsystems = m.Subsystems
	for _, c := range []struct {
		m   *dcs.Model
		opt dcs.Options
	}{
		{mStewart, dcs.Options{}},
		{m, dcs.Options{Formulation: dcs.Step}},
		{m, dcs.Options{Formulation: dcs.Step, LiftDepth: 1}},
	} {
		d := reformulate(t, c.m, c.opt)
		name := c.opt
		// Blocks tile Z and G in order.
		next := 0
		for _, bl := range d.ZBlocks {
			if bl.Start != next {
				t.Errorf("%+v: Z block %v starts at %d, want %d", name, bl, bl.Start, next)
			}
			next += bl.Len
		}
		if next != len(d.Z) || len(d.Z) != d.Dims.NZ || len(d.Init) != len(d.Z) || len(d.ZLower) != len(d.Z) {
			t.Errorf("%+v: Z blocks cover %d, len(Z) = %d, NZ = %d, len(Init) = %d", name, next, len(d.Z), d.Dims.NZ, len(d.Init))
		}
		next = 0
		for _, bl := range d.GBlocks {
			if bl.Start != next {
				t.Errorf("%+v: G block %v starts at %d, want %d", name, bl, bl.Start, next)
			}
			next += bl.Len
		}
		if next != len(d.G) || len(d.G) != d.Dims.NEq {
			t.Errorf("%+v: G blocks cover %d, len(G) = %d", name, next, len(d.G))
		}
		boundary := make(map[int]bool)
		for _, i := range d.BoundaryZ {
			boundary[i] = true
		}
		// Pairs.
		nPairs := 0
		for _, cg := range d.Comp {
			for _, p := range cg.Pairs {
				nPairs++
				lk, ls := kindOf(d, p.Lambda)
				sk, ss := kindOf(d, p.Sel)
				if ls != cg.Subsystem || ss != cg.Subsystem || !boundary[p.Lambda] || boundary[p.Sel] {
					t.Errorf("%+v: pair %+v of group %v/%d joins %v/%d and %v/%d", name, p, cg.Kind, cg.Subsystem, lk, ls, sk, ss)
				}
				ok := false
				switch cg.Kind {
				case dcs.LambdaTheta:
					ok = lk == dcs.Lambda && sk == dcs.Theta && !p.OneMinus
				case dcs.LambdaNAlpha:
					ok = lk == dcs.LambdaN && sk == dcs.Alpha && !p.OneMinus
				case dcs.LambdaPOneMinusAlpha:
					ok = lk == dcs.LambdaP && sk == dcs.Alpha && p.OneMinus
				}
				if !ok {
					t.Errorf("%+v: pair %+v in group %v joins %v and %v", name, p, cg.Kind, lk, sk)
				}
				// Both sides are nonnegative by the bounds.
				if d.ZLower[p.Lambda] != 0 {
					t.Errorf("%+v: multiplier %d has lower bound %g", name, p.Lambda, d.ZLower[p.Lambda])
				}
				if p.OneMinus && d.ZUpper[p.Sel] != 1 || !p.OneMinus && d.ZLower[p.Sel] != 0 {
					t.Errorf("%+v: selection side of %+v is not bounded to be ≥ 0", name, p)
				}
			}
		}
		if nPairs != d.Dims.NComp {
			t.Errorf("%+v: %d pairs, NComp = %d", name, nPairs, d.Dims.NComp)
		}
		// Equilibration terms.
		wantTerms := d.Dims.NPsi
		if c.opt.Formulation == dcs.Stewart {
			wantTerms = d.Dims.NTheta
		}
		if len(d.Equilibration) != wantTerms {
			t.Errorf("%+v: %d equilibration terms, want %d", name, len(d.Equilibration), wantTerms)
		}
		for _, e := range d.Equilibration {
			ka, _ := kindOf(d, e.A)
			kb, _ := kindOf(d, e.B)
			if c.opt.Formulation == dcs.Stewart && (ka != dcs.Lambda || kb != dcs.Theta) ||
				c.opt.Formulation == dcs.Step && (ka != dcs.LambdaN || kb != dcs.LambdaP) {
				t.Errorf("%+v: equilibration term %+v joins %v and %v", name, e, ka, kb)
			}
		}
		// Boundary equations depend only on x, u, p and boundary variables.
		var other ad.Vec
		for i, v := range d.Z {
			if !boundary[i] {
				other = append(other, v)
			}
		}
		var rows ad.Vec
		for _, r := range d.BoundaryG {
			rows = append(rows, d.G[r])
		}
		jac, err := ad.Jacobian(rows, other)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range jac.E {
			if !e.IsZero() {
				t.Errorf("%+v: boundary row %d depends on a non-boundary variable", name, i/jac.C)
			}
		}
		if len(d.BoundaryG) != d.Dims.NLambda/2 && c.opt.Formulation == dcs.Step {
			t.Errorf("%+v: %d boundary rows, want nψ = %d", name, len(d.BoundaryG), d.Dims.NLambda/2)
		}
		// Init solves the DCS away from the switching surfaces.
		xv := []float64{0.3, -0.7, 1.1}
		uv := []float64{0.4}
		z0, err := d.InitialGuess(xv, uv, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := residuals(t, d, xv, uv, nil, z0); r.Max() > 1e-15 {
			t.Errorf("%+v: residuals at Init %+v", name, r)
		}
		// Args compile F against x, u, p, z, t.
		if _, err := ad.NewFunction("F", d.Args(), []ad.Arg{ad.A("F", d.F...)}); err != nil {
			t.Errorf("%+v: %v", name, err)
		}
		for i, lo := range d.ZLower {
			if lo > d.ZUpper[i] || math.IsNaN(lo) {
				t.Errorf("%+v: bounds of z[%d] = [%g, %g]", name, i, lo, d.ZUpper[i])
			}
		}
	}
}

// TestPairExprs checks Pair.Values against Pair.Exprs.
func TestPairExprs(t *testing.T) {
	m, _ := base()
	d := reformulate(t, m, dcs.Options{Formulation: dcs.Step})
	z := make([]float64, len(d.Z))
	for i := range z {
		z[i] = 0.1 * float64(i+1)
	}
	for _, cg := range d.Comp {
		for _, p := range cg.Pairs {
			a, b := p.Values(z)
			ea, eb := p.Exprs(d.Z)
			f := exprFunc(t, d.Z, ad.Vec{ea, eb})
			if got := f(z); got[0] != a || got[1] != b {
				t.Errorf("pair %+v: Exprs give %v, Values (%g, %g)", p, got, a, b)
			}
		}
	}
}

func TestEnumStrings(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{dcs.Stewart.String(), "Stewart"}, {dcs.Step.String(), "Step"}, {dcs.Formulation(9).String(), "Formulation(9)"},
		{dcs.LambdaP.String(), "λᵖ"}, {dcs.VarKind(-1).String(), "VarKind(-1)"},
		{dcs.ThetaDef.String(), "θ-definition"}, {dcs.EqKind(99).String(), "EqKind(99)"},
		{dcs.LambdaPOneMinusAlpha.String(), "λᵖ⊥1−α"}, {dcs.CompKind(5).String(), "CompKind(5)"},
		{dcs.Union(dcs.Positive(0), dcs.Complement(dcs.BaseSet(3))).String(), "(ψ0>0 ∪ ∁(R̃3))"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
