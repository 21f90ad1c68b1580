package dcs_test

import (
	"fmt"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// pssModel is a PSS with nψ switching functions ψ = x and all 2^nψ base sets
// as modes (004 Example 5 for nψ = 3), f_i = (i+1)·e₁.
func pssModel(nPsi int) *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", nPsi)
	m := dcs.NewModel(g, x, nil, nil)
	F := make([]ad.Vec, 1<<uint(nPsi))
	for i := range F {
		F[i] = g.Zeros(nPsi)
		F[i][0] = g.Const(float64(i + 1))
	}
	m.AddSubsystem(dcs.Subsystem{Psi: x, F: F})
	return m
}

// solveTriangular fills θ and β of subsystem 0 from α: the definition rows
// are θ_r − … and β_r − … with unit coefficient, β rows use only earlier β,
// so nψ+1 sweeps z ← z − G of those rows solve them exactly.
func solveTriangular(t *testing.T, d *dcs.DCS, alpha []float64) []float64 {
	t.Helper()
	z := make([]float64, len(d.Z))
	put(t, d, z, dcs.Alpha, 0, alpha...)
	type link struct {
		eq dcs.EqKind
		v  dcs.VarKind
	}
	for sweep := 0; sweep <= len(alpha)+1; sweep++ {
		gv, err := d.EvalG(make([]float64, len(d.X)), nil, nil, z)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range []link{{dcs.ThetaDef, dcs.Theta}, {dcs.LiftDef, dcs.Beta}} {
			eb, ok := d.GBlock(l.eq, 0)
			if !ok {
				continue
			}
			vb, _ := d.ZBlock(l.v, 0)
			for r := 0; r < eb.Len; r++ {
				z[vb.Start+r] -= gv[eb.Start+r]
			}
		}
	}
	return z
}

// TestLiftingSameTheta: lifted (n_d = 1, 2, 3) and unlifted step DCS of
// 004 Example 5 (nψ = 3, n_f = 8) give the same θ(α) for random α ∈ [0, 1]³,
// and the lifted equations are then satisfied exactly.
func TestLiftingSameTheta(t *testing.T) {
	m := pssModel(3)
	plain := reformulate(t, m, dcs.Options{Formulation: dcs.Step})
	r := newRand(4)
	for nd := 1; nd <= 4; nd++ {
		d := reformulate(t, m, dcs.Options{Formulation: dcs.Step, LiftDepth: nd})
		for trial := 0; trial < 50; trial++ {
			alpha := []float64{r.Float64(), r.Float64(), r.Float64()}
			want := thetaOfAlpha(t, plain, alpha)
			z := solveTriangular(t, d, alpha)
			if diff := maxDiff(get(t, d, z, dcs.Theta, 0), want); diff > 1e-13 {
				t.Errorf("n_d=%d α=%v: lifted θ differs by %g", nd, alpha, diff)
			}
			gv, _ := d.EvalG(make([]float64, 3), nil, nil, z)
			for _, k := range []dcs.EqKind{dcs.ThetaDef, dcs.LiftDef} {
				if bl, ok := d.GBlock(k, 0); ok {
					for _, v := range gv[bl.Start : bl.Start+bl.Len] {
						if v != 0 && (v > 1e-15 || v < -1e-15) {
							t.Errorf("n_d=%d: %v residual %g", nd, k, v)
						}
					}
				}
			}
		}
	}
}

// TestLiftingExample5: with n_d = 2, Algorithm 1 reproduces G_β and G_θ of
// 004 Example 5 row by row.
func TestLiftingExample5(t *testing.T) {
	d := reformulate(t, pssModel(3), dcs.Options{Formulation: dcs.Step, LiftDepth: 2})
	th, a, b := d.Var(dcs.Theta, 0), d.Var(dcs.Alpha, 0), d.Var(dcs.Beta, 0)
	if len(b) != 4 {
		t.Fatalf("n_β = %d, want 4", len(b))
	}
	g := d.Graph
	one := g.Const(1)
	na := func(j int) ad.Expr { return one.Sub(a[j]) }
	paperBeta := ad.Vec{
		b[0].Sub(a[0].Mul(a[1])),
		b[1].Sub(a[0].Mul(na(1))),
		b[2].Sub(na(0).Mul(a[1])),
		b[3].Sub(na(0).Mul(na(1))),
	}
	var paperTheta ad.Vec
	for i := 0; i < 4; i++ {
		paperTheta = append(paperTheta, th[2*i].Sub(b[i].Mul(a[2])), th[2*i+1].Sub(b[i].Mul(na(2))))
	}
	ebT, _ := d.GBlock(dcs.ThetaDef, 0)
	ebB, _ := d.GBlock(dcs.LiftDef, 0)
	in := concatVec(th, a, b)
	ours := exprFunc(t, in, concatVec(d.G[ebT.Start:ebT.Start+ebT.Len], d.G[ebB.Start:ebB.Start+ebB.Len]))
	paper := exprFunc(t, in, concatVec(paperTheta, paperBeta))
	r := newRand(5)
	for trial := 0; trial < 20; trial++ {
		v := make([]float64, len(in))
		for i := range v {
			v[i] = 2*r.Float64() - 0.5
		}
		if diff := maxDiff(ours(v), paper(v)); diff > 1e-15 {
			t.Fatalf("G_lift differs from 004 Example 5 by %g", diff)
		}
	}
}

// maxDegreeTwo reports whether every row is a polynomial of degree ≤ 2 in
// vars without squares: its Hessian in vars is constant with a zero
// diagonal (so every product node combines at most two distinct
// variables). It returns a description of the first offending row.
func maxDegreeTwo(t *testing.T, rows, vars ad.Vec) (bool, string) {
	t.Helper()
	for r, e := range rows {
		h, err := ad.Hessian(e, vars)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < h.R; i++ {
			for j := 0; j < h.C; j++ {
				v, ok := h.At(i, j).IsConst()
				if !ok || (i == j && v != 0) {
					return false, fmt.Sprintf("row %d: ∂²/∂%v∂%v = %v", r, vars[i], vars[j], h.At(i, j))
				}
			}
		}
	}
	return true, ""
}

// TestLiftingBilinear: with n_d = 2 every θ-definition and lifting equation
// is bilinear in (θ, α, β); without lifting the degree-3 products of
// Example 5 are detected by the same check.
func TestLiftingBilinear(t *testing.T) {
	for _, nPsi := range []int{3, 4, 5} {
		for _, nd := range []int{0, 2} {
			d := reformulate(t, pssModel(nPsi), dcs.Options{Formulation: dcs.Step, LiftDepth: nd})
			vars := concatVec(d.Var(dcs.Theta, 0), d.Var(dcs.Alpha, 0), d.Var(dcs.Beta, 0))
			var rows ad.Vec
			for _, k := range []dcs.EqKind{dcs.ThetaDef, dcs.LiftDef} {
				if bl, ok := d.GBlock(k, 0); ok {
					rows = append(rows, d.G[bl.Start:bl.Start+bl.Len]...)
				}
			}
			ok, why := maxDegreeTwo(t, rows, vars)
			if nd == 2 && !ok {
				t.Errorf("nψ=%d n_d=2: not bilinear: %s", nPsi, why)
			}
			if nd == 0 && ok {
				t.Errorf("nψ=%d unlifted: the degree check did not detect the %d-fold products", nPsi, nPsi)
			}
		}
	}
}

// TestTable4Counts: dimensions of Stewart's and the step DCS (004 Table 4):
// Stewart n_alg = 2·2^nψ + 1, n_comp = 2^nψ, n_eq = 2^nψ + 1; step
// n_β = 2^nψ − 2^nd (n_d ≤ nψ, 0 for n_d > nψ or no lifting),
// n_alg = n_f + 3nψ + n_β, n_comp = 2nψ, n_eq = nψ + n_β + n_f; also the
// "best case" n_f = 2 with regions (Figure 4).
func TestTable4Counts(t *testing.T) {
	for nPsi := 1; nPsi <= 5; nPsi++ {
		m := pssModel(nPsi)
		p := 1 << uint(nPsi)
		st := reformulate(t, m, dcs.Options{}).Dims
		if st.NTheta != p || st.NZ != 2*p+1 || st.NComp != p || st.NEq != p+1 {
			t.Errorf("nψ=%d Stewart: %+v", nPsi, st)
		}
		for nd := 0; nd <= nPsi+1; nd++ {
			d := reformulate(t, m, dcs.Options{Formulation: dcs.Step, LiftDepth: nd}).Dims
			nb := 0
			if nd >= 1 && nd <= nPsi {
				nb = p - 1<<uint(nd)
			}
			if nb != dcs.NumLift(nPsi, nd) {
				t.Errorf("NumLift(%d, %d) = %d, want %d", nPsi, nd, dcs.NumLift(nPsi, nd), nb)
			}
			if d.NBeta != nb || d.NZ != p+3*nPsi+nb || d.NComp != 2*nPsi || d.NEq != nPsi+nb+p || d.NF != p || d.NAlpha != nPsi {
				t.Errorf("nψ=%d n_d=%d step: %+v, want n_β=%d", nPsi, nd, d, nb)
			}
		}
		// Two regions: one base set and the union of all others.
		var rest []dcs.Region
		for i := 1; i < p; i++ {
			rest = append(rest, dcs.BaseSet(i))
		}
		rm := regionModel(nPsi, []dcs.Region{dcs.BaseSet(0), dcs.Union(rest...)})
		d := reformulate(t, rm, dcs.Options{Formulation: dcs.Step}).Dims
		if d.NF != 2 || d.NZ != 2+3*nPsi || d.NEq != nPsi+2 || d.NComp != 2*nPsi {
			t.Errorf("nψ=%d two regions: %+v", nPsi, d)
		}
	}
}

// TestLiftingWithRegions: lifting with regions sums lifted base-set
// products and gives the same θ(α) as the factored region form.
func TestLiftingWithRegions(t *testing.T) {
	regions := []dcs.Region{
		dcs.Union(dcs.Positive(0), dcs.Intersection(dcs.Negative(0), dcs.Positive(2))),
		dcs.Intersection(dcs.Negative(0), dcs.Negative(2), dcs.Positive(1)),
		dcs.Intersection(dcs.Negative(0), dcs.Negative(2), dcs.Negative(1)),
	}
	m := regionModel(3, regions)
	plain := reformulate(t, m, dcs.Options{Formulation: dcs.Step})
	lifted := reformulate(t, m, dcs.Options{Formulation: dcs.Step, LiftDepth: 2})
	if lifted.Dims.NBeta != 4 {
		t.Errorf("n_β = %d, want 4", lifted.Dims.NBeta)
	}
	r := newRand(6)
	for trial := 0; trial < 20; trial++ {
		alpha := []float64{r.Float64(), r.Float64(), r.Float64()}
		z := solveTriangular(t, lifted, alpha)
		if diff := maxDiff(get(t, lifted, z, dcs.Theta, 0), thetaOfAlpha(t, plain, alpha)); diff > 1e-13 {
			t.Errorf("α=%v: θ differs by %g", alpha, diff)
		}
	}
}
