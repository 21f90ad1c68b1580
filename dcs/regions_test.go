package dcs_test

import (
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// thetaOfAlpha returns θ(α) of subsystem 0 of an unlifted step DCS by
// evaluating its θ-definition rows θ − θ(α) at θ = 0.
func thetaOfAlpha(t *testing.T, d *dcs.DCS, alpha []float64) []float64 {
	t.Helper()
	z := make([]float64, len(d.Z))
	put(t, d, z, dcs.Alpha, 0, alpha...)
	gv, err := d.EvalG(make([]float64, len(d.X)), nil, nil, z)
	if err != nil {
		t.Fatal(err)
	}
	bl, _ := d.GBlock(dcs.ThetaDef, 0)
	th := make([]float64, bl.Len)
	for i := range th {
		th[i] = -gv[bl.Start+i]
	}
	return th
}

func regionModel(nPsi int, regions []dcs.Region) *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", nPsi)
	m := dcs.NewModel(g, x, nil, nil)
	F := make([]ad.Vec, len(regions))
	for i := range F {
		F[i] = g.ConstVec(make([]float64, nPsi)...)
		F[i][0] = g.Const(float64(i + 1))
	}
	m.AddSubsystem(dcs.Subsystem{Psi: x, Regions: regions, F: F})
	return m
}

// TestTable3Regions: the θ of regions built from unions, intersections,
// complements and differences (004 Table 3, Example 4) equal the region
// indicators at every vertex α ∈ {0, 1}^nψ, are a partition of unity in
// [0, 1] for α ∈ [0, 1]^nψ, and equal the closed forms of Table 3 and
// Example 4.
func TestTable3Regions(t *testing.T) {
	A, B := dcs.Positive(0), dcs.Positive(1)
	notA, notB := dcs.Negative(0), dcs.Negative(1)
	cases := []struct {
		name    string
		regions []dcs.Region
		// indicator of each region at vertex (a, b) = (α₁, α₂) ∈ {0,1}²
		ind func(a, b bool) []bool
		// closed forms of θ at interior α (Table 3 / Example 4)
		closed func(a, b float64) []float64
	}{
		{"A | ∁A (Table 3 rows 1, 4)", []dcs.Region{A, dcs.Complement(A)},
			func(a, b bool) []bool { return []bool{a, !a} },
			func(a, b float64) []float64 { return []float64{a, 1 - a} }},
		{"A∩B | rest (row 3)", []dcs.Region{dcs.Intersection(A, B), dcs.Complement(dcs.Intersection(A, B))},
			func(a, b bool) []bool { return []bool{a && b, !(a && b)} },
			func(a, b float64) []float64 { return []float64{a * b, 1 - a*b} }},
		{"A∪B | rest (row 2, multilinear form)", []dcs.Region{dcs.Union(A, B), dcs.Intersection(notA, notB)},
			func(a, b bool) []bool { return []bool{a || b, !a && !b} },
			func(a, b float64) []float64 { return []float64{a + b - a*b, (1 - a) * (1 - b)} }},
		{"A∪(∁A∩B) disjoint union = α_A + α_{∁A∩B} (row 2)", []dcs.Region{dcs.Union(A, dcs.Intersection(notA, B)), dcs.Intersection(notA, notB)},
			func(a, b bool) []bool { return []bool{a || b, !a && !b} },
			func(a, b float64) []float64 { return []float64{a + (1-a)*b, (1 - a) * (1 - b)} }},
		{"A∖(A∩B) = α_A − α_Aα_B (row 5, B' ⊂ A)", []dcs.Region{dcs.Difference(A, dcs.Intersection(A, B)), dcs.Complement(dcs.Difference(A, B))},
			func(a, b bool) []bool { return []bool{a && !b, !(a && !b)} },
			func(a, b float64) []float64 { return []float64{a - a*b, 1 - a + a*b} }},
		{"004 Example 4: R₁ = R̃₁∪R̃₂∪R̃₃, R₂ = R̃₄", []dcs.Region{dcs.Union(dcs.BaseSet(0), dcs.BaseSet(1), dcs.BaseSet(2)), dcs.BaseSet(3)},
			func(a, b bool) []bool { return []bool{a || b, !a && !b} },
			// θ₁ = α₁ + (1 − α₁)α₂, θ₂ = (1 − α₁)(1 − α₂) (004 Example 4)
			func(a, b float64) []float64 { return []float64{a + (1-a)*b, (1 - a) * (1 - b)} }},
	}
	r := newRand(3)
	for _, c := range cases {
		d := reformulate(t, regionModel(2, c.regions), dcs.Options{Formulation: dcs.Step})
		for v := 0; v < 4; v++ {
			a, b := v&1 == 1, v&2 == 2
			alpha := []float64{0, 0}
			if a {
				alpha[0] = 1
			}
			if b {
				alpha[1] = 1
			}
			th := thetaOfAlpha(t, d, alpha)
			for i, want := range c.ind(a, b) {
				w := 0.0
				if want {
					w = 1
				}
				if th[i] != w {
					t.Errorf("%s: vertex α=%v: θ_%d = %g, want indicator %g", c.name, alpha, i, th[i], w)
				}
			}
		}
		for trial := 0; trial < 20; trial++ {
			alpha := []float64{r.Float64(), r.Float64()}
			th := thetaOfAlpha(t, d, alpha)
			sum := 0.0
			for i, v := range th {
				sum += v
				if v < 0 || v > 1 {
					t.Errorf("%s: θ_%d(%v) = %g outside [0, 1]", c.name, i, alpha, v)
				}
			}
			if math.Abs(sum-1) > 1e-15 {
				t.Errorf("%s: Σθ(%v) = %.17g", c.name, alpha, sum)
			}
			if diff := maxDiff(th, c.closed(alpha[0], alpha[1])); diff > 1e-15 {
				t.Errorf("%s: θ(%v) = %v, closed form %v", c.name, alpha, th, c.closed(alpha[0], alpha[1]))
			}
		}
	}
}

// TestRegionsStewartExpands: with regions, Stewart's θ has one entry per
// base set (004 §6.4) and gives the region's mode in each base set, as the
// step DCS does.
func TestRegionsStewartExpands(t *testing.T) {
	regions := []dcs.Region{dcs.Union(dcs.BaseSet(0), dcs.BaseSet(1), dcs.BaseSet(2)), dcs.BaseSet(3)}
	m := regionModel(2, regions)
	st := reformulate(t, m, dcs.Options{Formulation: dcs.Stewart})
	sp := reformulate(t, m, dcs.Options{Formulation: dcs.Step})
	if st.Dims.NTheta != 4 || sp.Dims.NTheta != 2 || st.Dims.NF != 2 {
		t.Fatalf("Stewart n_θ = %d (want 4), step n_θ = %d (want 2), n_f = %d (want 2)", st.Dims.NTheta, sp.Dims.NTheta, st.Dims.NF)
	}
	for _, x := range [][]float64{{1, 1}, {1, -1}, {-1, 1}, {-0.5, -2}} {
		want := 1.0 // mode 1 unless both ψ < 0
		if x[0] < 0 && x[1] < 0 {
			want = 2
		}
		for _, d := range []*dcs.DCS{st, sp} {
			z0, err := d.InitialGuess(x, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res := residuals(t, d, x, nil, nil, z0); res.Max() > 1e-15 {
				t.Errorf("%v x=%v: residuals %+v", d.Formulation, x, res)
			}
			if f := evalF(t, d, x, nil, nil, z0, 0); f[0] != want {
				t.Errorf("%v x=%v: ẋ₁ = %g, want %g", d.Formulation, x, f[0], want)
			}
		}
	}
}

// TestRegionExpressionAlternatives: the same partition written with base
// sets or with half-spaces gives identical (hash-consed) θ expressions.
func TestRegionExpressionAlternatives(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	m := dcs.NewModel(g, x, nil, nil)
	F := []ad.Vec{{g.Const(1), g.Const(0)}, {g.Const(2), g.Const(0)}}
	m.AddSubsystem(dcs.Subsystem{Psi: x, Regions: []dcs.Region{dcs.Union(dcs.BaseSet(0), dcs.BaseSet(1), dcs.BaseSet(2)), dcs.BaseSet(3)}, F: F})
	d1 := reformulate(t, m, dcs.Options{Formulation: dcs.Step})
	m.Subsystems[0].Regions = []dcs.Region{dcs.Union(dcs.Positive(0), dcs.Positive(1)), dcs.Intersection(dcs.Negative(0), dcs.Negative(1))}
	d2 := reformulate(t, m, dcs.Options{Formulation: dcs.Step})
	a1, a2 := d1.Var(dcs.Alpha, 0), d2.Var(dcs.Alpha, 0)
	bl1, _ := d1.GBlock(dcs.ThetaDef, 0)
	bl2, _ := d2.GBlock(dcs.ThetaDef, 0)
	f1 := exprFunc(t, concatVec(d1.Var(dcs.Theta, 0), a1), d1.G[bl1.Start:bl1.Start+bl1.Len])
	f2 := exprFunc(t, concatVec(d2.Var(dcs.Theta, 0), a2), d2.G[bl2.Start:bl2.Start+bl2.Len])
	in := []float64{0.1, 0.2, 0.3, 0.7}
	if diff := maxDiff(f1(in), f2(in)); diff != 0 {
		t.Errorf("base-set and half-space regions differ by %g", diff)
	}
}

func concatVec(vs ...ad.Vec) ad.Vec {
	var out ad.Vec
	for _, v := range vs {
		out = append(out, v...)
	}
	return out
}
