package fesd

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
)

// turboTracking is a tracking OCP of the turbo car (q̇ = v; v̇ = u below
// v = 10, 3u above), |u| ≤ 5, cost ∫ (v − v_ref)² + 0.01u² with
// v_ref = 10 + 4 sin(t/2), from v₀ = 8 (the speed crosses the switch).
func turboTracking(n int) *OCP {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	u := g.SymVec("u", 1)
	tm := g.Sym("t")
	m := dcs.NewModel(g, x, u, nil)
	m.Time = tm
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[1].AddConst(-10)}, S: [][]int{{-1}, {1}}, F: []ad.Vec{{x[1], u[0]}, {x[1], u[0].Scale(3)}}})
	ref := ad.Sin(tm.Scale(0.5)).Scale(4).AddConst(10)
	return &OCP{Model: m, X0: []float64{0, 8}, N: n, T: 0.25 * float64(n), NFE: []int{3},
		UL: []float64{-5}, UU: []float64{5},
		Lagrange: ad.Sq(x[1].Sub(ref)).Add(ad.Sq(u[0]).Scale(0.01))}
}

// TestShiftDuals: Shift moves the multipliers with the primal point. The
// bound multipliers of every variable of stages 1…N−1 move one stage
// earlier with it; every constraint and complementarity term that Shift
// matches with one a stage later evaluates, at the shifted point, to what
// its match evaluates to at the old point (the matching by sparsity pairs
// equal rows), and at least those of stages 1…N−2 are (measured: 211 of
// 258 constraints and 88 of 108 terms; the others are those of the last
// stage, which keep their own, and a few of the first, which couple to the
// initial state). A warm solve from the shifted primal-dual point and one
// from the primal point alone reach the same solution (controls to 1e-6;
// measured: 50 and 62 iterations, the cold solve 490).
func TestShiftDuals(t *testing.T) {
	ctx := context.Background()
	const N = 6
	p := turboTracking(N)
	opts := Options{NFE: 3, DCS: dcs.Options{Formulation: dcs.Step}}
	s, err := NewOCPSolver(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Solve(ctx, Start{})
	if err != nil || r.Status != mpcc.Solved {
		t.Fatalf("%v %v", err, r.Status)
	}
	if r.point == nil || r.point.Y == nil {
		t.Fatal("the result has no primal-dual point")
	}
	st, err := s.Shift(r)
	if err != nil {
		t.Fatal(err)
	}
	d := st.dual
	tr := s.tr
	if d == nil || len(d.X) != len(r.point.X) || len(d.Y) != len(r.point.Y) {
		t.Fatalf("shifted dual %v", d)
	}
	stage := tr.elemStart[1] // first element of stage 1
	first0, first1 := tr.h[0], tr.h[stage]
	if tr.u[0] >= 0 {
		first0, first1 = tr.u[0], tr.u[1]
	}
	off := first1 - first0
	for j := first0; j+off < tr.xb[tr.NE-1]; j++ {
		if d.ZL[j] != r.point.ZL[j+off] || d.ZU[j] != r.point.ZU[j+off] || st.Warm.w[j] != r.w[j+off] {
			t.Fatalf("variable %d: shifted (%g, %g, %g), old %d (%g, %g, %g)", j, st.Warm.w[j], d.ZL[j], d.ZU[j], j+off, r.w[j+off], r.point.ZL[j+off], r.point.ZU[j+off])
		}
	}
	vars := make([]int, tr.numW)
	for j := range vars {
		vars[j] = j
		if j >= first0 && j+off < tr.xb[tr.NE-1]+tr.nx {
			vars[j] = j + off
		}
	}
	cons, terms := shiftRows(tr, vars)
	pv := s.params()
	if err := tr.prob.SetParams(pv); err != nil {
		t.Fatal(err)
	}
	gOld, gNew := make([]float64, tr.numC), make([]float64, tr.numC)
	if err := tr.prob.Constraints(r.w, gOld); err != nil {
		t.Fatal(err)
	}
	if err := tr.prob.Constraints(st.Warm.w, gNew); err != nil {
		t.Fatal(err)
	}
	matched := 0
	for i, c := range cons {
		if c == i {
			continue
		}
		matched++
		if math.Abs(gNew[i]-gOld[c]) > 1e-12*(1+math.Abs(gOld[c])) {
			t.Errorf("constraint %d matched with %d: %g at the shifted point, %g at the old one", i, c, gNew[i], gOld[c])
		}
	}
	matchedT := 0
	for k, c := range terms {
		if c == k {
			continue
		}
		matchedT++
		if a, b := tr.comp[k].Value(st.Warm.w), tr.comp[c].Value(r.w); math.Abs(a-b) > 1e-14 {
			t.Errorf("term %d matched with %d: %g, %g", k, c, a, b)
		}
	}
	t.Logf("matched %d of %d constraints, %d of %d terms", matched, tr.numC, matchedT, len(tr.comp))
	if matched < (N-2)*tr.numC/N || matchedT < (N-2)*len(tr.comp)/N {
		t.Errorf("only %d of %d constraints and %d of %d terms matched", matched, tr.numC, matchedT, len(tr.comp))
	}

	// warm solves from the shifted point, one stage later, from the state
	// the solution predicts there
	wh := opts.MPCC
	wh.Sigma0 = 1e-4
	warm, err := s.WithHomotopy(wh)
	if err != nil {
		t.Fatal(err)
	}
	if err := warm.SetX0(r.StageX[1]); err != nil {
		t.Fatal(err)
	}
	if err := warm.SetT0(p.T / N); err != nil {
		t.Fatal(err)
	}
	rd, err := warm.Solve(ctx, st)
	if err != nil || rd.Status != mpcc.Solved {
		t.Fatalf("warm with duals: %v %v", err, rd.Status)
	}
	rp, err := warm.Solve(ctx, Start{Warm: st.Warm})
	if err != nil || rp.Status != mpcc.Solved {
		t.Fatalf("warm, primal only: %v %v", err, rp.Status)
	}
	for k := range rd.U {
		if math.Abs(rd.U[k][0]-rp.U[k][0]) > 1e-6 {
			t.Errorf("control %d: %g with duals, %g without", k, rd.U[k][0], rp.U[k][0])
		}
	}
	t.Logf("cold %d iterations; warm %d with the shifted duals, %d without", r.Iterations, rd.Iterations, rp.Iterations)
}
