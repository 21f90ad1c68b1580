package dcs_test

import (
	"errors"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// byteReader hands out fuzz bytes (zeros when exhausted).
type byteReader struct {
	b []byte
	p int
}

func (r *byteReader) next() int {
	if r.p >= len(r.b) {
		return 0
	}
	r.p++
	return int(r.b[r.p-1])
}

// fuzzModel builds a model, valid or not, from fuzz bytes: 1–3 states, a
// control, up to three subsystems with up to three switching functions each
// (sign matrices that may be incomplete, repeated or carry bad entries;
// regions with indices that may be out of range), modes of possibly wrong
// lengths, expressions that may use forbidden symbols (the control or
// time in ψ, a foreign graph, a zero Expr), general steps and user
// algebraic variables.
func fuzzModel(data []byte) *dcs.Model {
	r := &byteReader{b: data}
	g := ad.NewGraph()
	nx := 1 + r.next()%3
	x := g.SymVec("x", nx)
	u := g.SymVec("u", 1)
	tm := g.Sym("t")
	foreign := ad.NewGraph().Sym("y")
	m := dcs.NewModel(g, x, u, nil)
	if r.next()%4 == 0 {
		m.Time = tm
	}
	// expr returns a scalar expression chosen by the next byte: mostly
	// affine in x, sometimes using u, t, a foreign symbol or nothing.
	expr := func() ad.Expr {
		k := r.next()
		switch k % 16 {
		case 0:
			return u[0]
		case 1:
			return tm
		case 2:
			if k == 2 {
				return foreign
			}
		case 3:
			if k == 3 {
				return ad.Expr{}
			}
		}
		c := float64(r.next()%9 - 4)
		return x[k%nx].Scale(c / 2).AddConst(float64(r.next()%5-2) / 4)
	}
	vec := func(n int) ad.Vec {
		v := make(ad.Vec, n)
		for i := range v {
			v[i] = expr()
		}
		return v
	}
	if r.next()%2 == 0 {
		m.F0 = vec(nx - 1 + r.next()%3)
	}
	var region func(depth int) dcs.Region
	region = func(depth int) dcs.Region {
		k := r.next()
		switch {
		case depth > 2 || k%8 < 3:
			return dcs.BaseSet(k/8%5 - 1)
		case k%8 == 3:
			return dcs.Positive(k/8%4 - 1)
		case k%8 == 4:
			return dcs.Negative(k / 8 % 3)
		case k%8 == 5:
			return dcs.Union(region(depth+1), region(depth+1))
		case k%8 == 6:
			return dcs.Complement(region(depth + 1))
		}
		return dcs.Difference(region(depth+1), region(depth+1))
	}
	for range r.next() % 4 {
		npsi := r.next() % 4
		s := dcs.Subsystem{Psi: vec(npsi)}
		switch r.next() % 4 {
		case 0: // default S
		case 1:
			s.S = dcs.DefaultSigns(npsi)
			if len(s.S) > 1 && r.next()%2 == 0 {
				s.S[len(s.S)-1] = s.S[0] // repeated row
			}
		case 2:
			rows := 1 + r.next()%5
			for range rows {
				row := make([]int, npsi)
				for j := range row {
					row[j] = []int{1, -1, 0, 2}[r.next()%4]
				}
				s.S = append(s.S, row)
			}
		case 3:
			for range 1 + r.next()%3 {
				s.Regions = append(s.Regions, region(0))
			}
		}
		nmodes := 1 << npsi
		if s.Regions != nil {
			nmodes = len(s.Regions)
		}
		nmodes += r.next()%3 - 1
		for range max(nmodes, 0) {
			s.F = append(s.F, vec(nx-1+r.next()%3))
		}
		if r.next()%3 == 0 {
			s.G = vec(r.next() % 5)
		}
		m.AddSubsystem(s)
	}
	if r.next()%3 == 0 {
		alpha := m.AddStep(vec(1 + r.next()%2))
		if len(alpha) > 0 && m.F0 != nil && len(m.F0) > 0 {
			m.F0[0] = m.F0[0].Add(alpha[0])
		}
	}
	if r.next()%4 == 0 {
		z := g.Sym("z")
		m.AddAlgebraic(ad.Vec{z}, ad.Vec{z.Sub(expr())})
	}
	return m
}

// FuzzModel validates and reformulates fuzzed models: no panic; every error
// wraps a sentinel of the package; the model's graph does not grow; and
// for a valid model, at a point away from every switching surface, the
// initial guess solves the DCS (package invariant: "in the interior of a
// region, Init solves the DCS exactly").
func FuzzModel(f *testing.F) {
	f.Add([]byte{0, 1, 1, 1, 4, 1, 1, 1, 0, 4, 1, 0, 4, 1, 0}, 0.3)
	f.Add([]byte{1, 0, 0, 2, 2, 0, 1, 4, 2, 0, 4, 3, 1, 4, 3, 0, 1, 1, 4, 0, 1, 4}, 0.3)
	f.Add([]byte{2, 1, 1, 1, 2, 3, 1, 2, 0, 5, 1, 6, 3, 1, 2, 4, 0, 1}, 0.3)
	f.Add([]byte{0, 0, 1, 3, 1, 4, 2, 3, 0, 5, 1, 11, 0, 0, 1, 4, 0}, 0.3)
	f.Fuzz(func(t *testing.T, data []byte, x0 float64) {
		m := fuzzModel(data)
		n0 := m.Graph.NumNodes()
		sentinel := func(err error) bool {
			for _, s := range []error{dcs.ErrNilGraph, dcs.ErrNoStates, dcs.ErrNotSymbol, dcs.ErrDuplicateSymbol,
				dcs.ErrInvalidExpr, dcs.ErrForeignSymbol, dcs.ErrDimension, dcs.ErrSignEntry, dcs.ErrRepeatedRow,
				dcs.ErrIncompleteSigns, dcs.ErrTooManyPsi, dcs.ErrInvalidRegion, dcs.ErrRegionIndex, dcs.ErrEmptyRegion,
				dcs.ErrOverlappingRegions, dcs.ErrUncovered, dcs.ErrNoModes, dcs.ErrNoDynamics, dcs.ErrNoIndicator,
				dcs.ErrNoPsi, dcs.ErrStewartGeneral, dcs.ErrOptions, dcs.ErrNonFinite, dcs.ErrInitialGuess} {
				if errors.Is(err, s) {
					return true
				}
			}
			return false
		}
		verr := m.Validate()
		if verr != nil && !sentinel(verr) {
			t.Fatalf("Validate: error wraps no sentinel: %v", verr)
		}
		for _, form := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
			d, err := m.Reformulate(dcs.Options{Formulation: form})
			if err != nil {
				if !sentinel(err) {
					t.Fatalf("%v: error wraps no sentinel: %v", form, err)
				}
				continue
			}
			if verr != nil {
				t.Fatalf("%v: Reformulate accepted a model Validate rejects (%v)", form, verr)
			}
			if math.IsNaN(x0) || math.IsInf(x0, 0) || math.Abs(x0) > 1e3 {
				continue
			}
			nx := len(m.X)
			x := make([]float64, nx)
			for i := range x {
				x[i] = x0 + 0.37*float64(i)
			}
			u := []float64{0.25}
			psi, err := m.EvalPsi(x, u, nil)
			if err != nil {
				t.Fatalf("EvalPsi: %v", err)
			}
			away := true
			for _, v := range psi {
				away = away && math.Abs(v) > 1e-6
			}
			z, err := d.InitialGuess(x, u, nil)
			if err != nil {
				if !sentinel(err) {
					t.Fatalf("InitialGuess: error wraps no sentinel: %v", err)
				}
				continue
			}
			res, err := d.Residuals(x, u, nil, z)
			if err != nil {
				t.Fatalf("Residuals: %v", err)
			}
			// Stewart's indicators g are user expressions (ties between
			// modes of equal g are possible away from ψ = 0): only the
			// default indicators are checked there.
			custom := false
			for _, s := range m.Subsystems {
				custom = custom || s.G != nil
			}
			if away && !(form == dcs.Stewart && custom) && res.Max() > 1e-9*(1+math.Abs(x0)) {
				t.Fatalf("%v: the initial guess at x = %v (ψ = %v) leaves residuals %+v", form, x, psi, res)
			}
		}
		if m.Graph.NumNodes() != n0 {
			t.Fatalf("validation/reformulation added %d nodes to the model's graph", m.Graph.NumNodes()-n0)
		}
	})
}
