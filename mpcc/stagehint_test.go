package mpcc

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/adnlp"
	"github.com/fesd-go/fesd/nlp/linalg"
)

// Chain MPCC: implicit Euler for ẋ ∈ w − sgn(x) in the Heaviside step form
// (sgn x ↦ 2α − 1, 004 eq. 22 with ᾱ = 1 − α a variable), N steps of length h
// from x₀. Step k has the variables (x_{k+1}, α_k, ᾱ_k, λᵖ_k, λⁿ_k) (indices
// 5k…5k+4, stage k) and the rows
//
//	x_{k+1} − x_k − h(w + 1 − 2α_k) = 0,  x_{k+1} − λᵖ_k + λⁿ_k = 0,  α_k + ᾱ_k − 1 = 0
//
// (stage k), with 0 ≤ λⁿ_k ⊥ α_k ≥ 0 and 0 ≤ λᵖ_k ⊥ ᾱ_k ≥ 0. The feasible set
// is a single point (implicit Euler for a maximal monotone inclusion), so
// every solver must find it: x decreases by h(1 − w) per step while x > 0,
// the step that would cross 0 ends at x = 0 with 2α − 1 = w + x_k/h, and
// then x stays at 0 with 2α − 1 = w (sliding).
const (
	chainH  = 0.05
	chainW  = 0.5
	chainX0 = 0.99
)

func chainMPCC(t testing.TB, n int, staged bool) *Problem {
	t.Helper()
	g := ad.NewGraph()
	x := g.SymVec("z", 5*n)
	var gs ad.Vec
	var f ad.Expr = g.Const(0)
	xl := make([]float64, 5*n)
	xu := make([]float64, 5*n)
	var vs, cs []int
	var comp []Complementarity
	prev := g.Const(chainX0)
	for k := range n {
		xk, a, ab, lp, ln := x[5*k], x[5*k+1], x[5*k+2], x[5*k+3], x[5*k+4]
		gs = append(gs,
			xk.Sub(prev).Sub(a.Scale(-2).AddConst(chainW+1).Scale(chainH)),
			xk.Sub(lp).Add(ln),
			a.Add(ab).AddConst(-1))
		f = f.Add(ad.Sq(xk))
		xl[5*k], xu[5*k] = math.Inf(-1), math.Inf(1)
		for j := 1; j < 5; j++ {
			xl[5*k+j], xu[5*k+j] = 0, math.Inf(1)
		}
		vs = append(vs, k, k, k, k, k)
		cs = append(cs, k, k, k)
		comp = append(comp, Pair(5*k+4, 5*k+1), Pair(5*k+3, 5*k+2))
		prev = xk
	}
	spec := adnlp.Spec{X: x, XL: xl, XU: xu, F: f, G: gs}
	if staged {
		spec.VarStage, spec.ConStage = vs, cs
	}
	p, err := adnlp.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	return &Problem{NLP: p, Comp: comp}
}

// chainExact returns x_{k+1} and α_k of the chain's unique feasible point.
func chainExact(n int) (x, alpha []float64) {
	xk := chainX0
	for range n {
		next := xk - chainH*(1-chainW)
		s := 1.0 // sgn(x_{k+1})
		if next <= 0 {
			next, s = 0, chainW+xk/chainH
		}
		x = append(x, next)
		alpha = append(alpha, (s+1)/2)
		xk = next
	}
	return x, alpha
}

// noStages hides the StageHinter of an NLP.
type noStages struct{ nlp.Problem }

// TestRelaxedStageHints checks the stage numbers of the relaxed NLP of a
// staged adnlp chain for every relaxation/steering combination: lengths,
// the MPCC's own stages unchanged, every relaxation row at the largest stage
// of its term's variables, L1 slacks at their term's stage, the LInf slack
// last; Problem() implements nlp.StageHinter exactly when the MPCC's NLP
// does.
func TestRelaxedStageHints(t *testing.T) {
	const n = 6
	p := chainMPCC(t, n, true)
	n0, m0 := p.NLP.Dims()
	bx, bg := make([]int, n0), make([]int, m0)
	p.NLP.(nlp.StageHinter).Stages(bx, bg)
	for _, r := range Relaxations() {
		for _, s := range Steerings() {
			if Compatible(r, s) != nil {
				continue
			}
			q, err := NewRelaxed(p, r, s, 0.1)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%v/%v", r, s)
			nn, mm := q.Dims()
			h, ok := q.Problem().(nlp.StageHinter)
			if !ok {
				t.Fatalf("%s: Problem() does not implement nlp.StageHinter", name)
			}
			xs, gs := make([]int, nn), make([]int, mm)
			for i := range xs {
				xs[i] = -7
			}
			for i := range gs {
				gs[i] = -7
			}
			h.Stages(xs, gs)
			for j := range n0 {
				if xs[j] != bx[j] {
					t.Errorf("%s: variable %d stage %d, want %d", name, j, xs[j], bx[j])
				}
			}
			for i := range m0 {
				if gs[i] != bg[i] {
					t.Errorf("%s: constraint %d stage %d, want %d", name, i, gs[i], bg[i])
				}
			}
			for r, rr := range q.rows {
				want := math.MinInt
				for _, pr := range p.Comp[rr.term].Pairs {
					want = max(want, bx[pr[0]], bx[pr[1]])
				}
				if gs[m0+r] != want {
					t.Errorf("%s: relaxation row %d (term %d) stage %d, want %d", name, r, rr.term, gs[m0+r], want)
				}
			}
			switch {
			case q.NumSlacks() == 1 && s == LInf:
				if xs[n0] != n-1 {
					t.Errorf("%s: LInf slack stage %d, want %d", name, xs[n0], n-1)
				}
			case q.NumSlacks() > 0:
				if q.NumSlacks() != len(p.Comp) {
					t.Fatalf("%s: %d slacks for %d terms", name, q.NumSlacks(), len(p.Comp))
				}
				for k := range q.NumSlacks() {
					// Term k of the chain belongs to step k/2.
					if xs[n0+k] != k/2 {
						t.Errorf("%s: slack %d stage %d, want %d", name, k, xs[n0+k], k/2)
					}
				}
			}
			for i, v := range xs {
				if v == -7 {
					t.Errorf("%s: variable %d has no stage", name, i)
				}
			}
			for i, v := range gs {
				if v == -7 {
					t.Errorf("%s: constraint %d has no stage", name, i)
				}
			}
		}
	}
	// Without stages in the MPCC's NLP the relaxed NLP is passed on as is.
	q, err := NewRelaxed(&Problem{NLP: noStages{p.NLP}, Comp: p.Comp}, ScholtesIneq, Direct, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := q.Problem().(nlp.StageHinter); ok {
		t.Error("Problem() of an NLP without stages implements nlp.StageHinter")
	}
	if _, ok := q.Problem().(*Relaxed); !ok {
		t.Error("Problem() of an NLP without stages is not the *Relaxed itself")
	}
	nn, mm := q.Dims()
	if q.StageHints(make([]int, nn), make([]int, mm)) {
		t.Error("StageHints reports stages for an NLP without stages")
	}
}

// TestStagedHomotopy solves the chain MPCC through the homotopy with the
// stage order forced (nlp.OrderStages, which is an error unless the relaxed
// NLP passes the hint on) and with AMD: both reach the chain's unique
// feasible point (closed form of chainExact) and agree with each other. It
// logs nnz(L) and the times of both orders (measured at 200 steps: stage
// order nnz(L) 6594, AMD 3999 — the chain is easy for AMD — and OrderAuto
// keeps AMD).
func TestStagedHomotopy(t *testing.T) {
	const n = 200
	xs, as := chainExact(n)
	run := func(ord nlp.Ordering) (*Result, linalg.SparseStats) {
		p := chainMPCC(t, n, true)
		ns := DefaultNLPSettings()
		ns.Ordering = ord
		var last *linalg.Sparse
		ns.NewLinearSolver = func(_ int, perm []int) (linalg.LinearSolver, error) {
			ls := linalg.Settings{}
			switch {
			case ord == nlp.OrderStages:
				ls.Ordering, ls.Perm = linalg.OrderGiven, perm
			case perm != nil:
				ls.Ordering, ls.Perm = linalg.OrderBest, perm
			}
			s, err := linalg.NewSparse(ls)
			last = s
			return s, err
		}
		res, err := (&Solver{Settings: Settings{NLP: &ns}}).Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("%v: %v", ord, err)
		}
		if res.Status != Solved {
			t.Fatalf("%v: status %v", ord, res.Status)
		}
		return res, last.Stats()
	}
	t0 := time.Now()
	rs, ss := run(nlp.OrderStages)
	ts := time.Since(t0)
	t0 = time.Now()
	ra, sa := run(nlp.OrderAMD)
	ta := time.Since(t0)
	t0 = time.Now()
	_, sb := run(nlp.OrderAuto)
	tb := time.Since(t0)
	if ss.Ordering != linalg.OrderGiven || sa.Ordering != linalg.OrderAMD {
		t.Errorf("orderings used: %v (stages), %v (AMD)", ss.Ordering, sa.Ordering)
	}
	if sb.NnzLGiven != ss.NnzL || sb.NnzLAMD != sa.NnzL {
		t.Errorf("OrderAuto compared nnz(L) %d (stages) and %d (AMD), want %d and %d", sb.NnzLGiven, sb.NnzLAMD, ss.NnzL, sa.NnzL)
	}
	iters := func(r *Result) (k int) {
		for _, s := range r.Steps {
			k += s.Iterations
		}
		return k
	}
	t.Logf("%d steps, %d variables: stage order nnz(L) = %d, flops %.3g, %d iterations, %v; AMD nnz(L) = %d, flops %.3g, %d iterations, %v; auto %v (%v)",
		n, len(rs.X), ss.NnzL, ss.Flops, iters(rs), ts.Round(time.Millisecond), sa.NnzL, sa.Flops, iters(ra), ta.Round(time.Millisecond), sb.Ordering, tb.Round(time.Millisecond))
	// The homotopy ends with comp residual ≤ 1e-9 (CompTol); the chain's
	// rows are linear with O(1) coefficients, so the point is within a
	// small multiple of that of the exact one.
	const tol = 1e-7
	for k := range n {
		for _, r := range []*Result{rs, ra} {
			if e := math.Abs(r.X[5*k] - xs[k]); e > tol {
				t.Fatalf("x_%d = %v, want %v (error %.2g)", k+1, r.X[5*k], xs[k], e)
			}
			if e := math.Abs(r.X[5*k+1] - as[k]); e > tol {
				t.Fatalf("α_%d = %v, want %v (error %.2g)", k, r.X[5*k+1], as[k], e)
			}
		}
	}
	var d float64
	for i := range rs.X {
		d = max(d, math.Abs(rs.X[i]-ra.X[i]))
	}
	if d > 1e-8 {
		t.Errorf("stage order and AMD differ by %.2g", d)
	}
	if math.Abs(rs.Objective-ra.Objective) > 1e-9 {
		t.Errorf("objectives %v (stages) and %v (AMD)", rs.Objective, ra.Objective)
	}
}
