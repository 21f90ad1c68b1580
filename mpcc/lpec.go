package mpcc

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/fesd-go/fesd/nlp"
)

// lpDir is the linear program of one LPEC node in the direction d:
//
//	minimize ∇f(x)ᵀd  s.t.  J_A(x) d in the cone of the active constraints,
//	                       lo ≤ d ≤ hi  (−1, 0 or 1: the active bounds, the
//	                       fixed variables and the box ‖d‖∞ ≤ 1).
//
// It implements nlp.Problem with constant derivatives.
type lpDir struct {
	c        []float64
	lo, hi   []float64
	rows     []int // constraint index of every LP row
	gL, gU   []float64
	jr, jc   []int // Jacobian entries (LP row, column)
	jv       []float64
	hr, hc   []int
	zeroHess []float64
}

func (q *lpDir) Dims() (int, int) { return len(q.c), len(q.rows) }
func (q *lpDir) Bounds(xL, xU, gL, gU []float64) {
	copy(xL, q.lo)
	copy(xU, q.hi)
	copy(gL, q.gL)
	copy(gU, q.gU)
}
func (q *lpDir) Start(x0 []float64) { clear(x0) }
func (q *lpDir) Objective(x []float64) (float64, error) {
	var v float64
	for i, ci := range q.c {
		v += ci * x[i]
	}
	return v, nil
}
func (q *lpDir) Gradient(x, g []float64) error { copy(g, q.c); return nil }
func (q *lpDir) Constraints(x, g []float64) error {
	clear(g)
	for k, r := range q.jr {
		g[r] += q.jv[k] * x[q.jc[k]]
	}
	return nil
}
func (q *lpDir) JacobianStructure() (rows, cols []int) { return q.jr, q.jc }
func (q *lpDir) JacobianValues(x, v []float64) error   { copy(v, q.jv); return nil }
func (q *lpDir) HessianStructure() (rows, cols []int)  { return nil, nil }
func (q *lpDir) HessianValues(x []float64, s float64, l, v []float64) error {
	return nil
}

// lpecSettings are the inner-solver settings of the LPs: package nlp's
// defaults (tolerance 1e-8, bound relaxation 1e-8) with an iteration limit.
func lpecSettings() nlp.Settings { return nlp.Settings{MaxIter: 300} }

// lpecCompTol is the size below which a direction component counts as zero
// when testing whether an LP solution is complementary (‖d‖∞ ≤ 1).
const lpecCompTol = 1e-6

// runLPEC decides B-stationarity of the point in d over the movable
// biactive variables by a depth-first branch and bound on the LPs above:
// the root leaves every movable zero variable free (d_i ≥ 0); a node whose
// LP value is at least −tol proves that no direction of its cone descends
// and is pruned; a node whose LP solution is complementary on every
// movable pair with value below −tol is a descent branch; otherwise the
// pair with the largest min(d_a, d_b) is split into d_a = 0 and d_b = 0.
// With more than maxPairs movable pairs nothing is solved, and after
// maxLPs LPs the search stops: both end LPECUndetermined.
func runLPEC(ctx context.Context, pi *pairInfo, d *pointData, zero, locked []bool, tol float64, maxPairs, maxLPs int) *LPECRecord {
	t0 := time.Now()
	rec := &LPECRecord{Tol: tol}
	defer func() { rec.Elapsed = time.Since(t0) }()
	n := len(d.x)
	movable := make([]bool, n)
	for _, i := range pi.vars {
		movable[i] = zero[i] && !locked[i]
	}
	var edges [][2]int
	for _, pr := range pi.pairs {
		if movable[pr[0]] && movable[pr[1]] {
			edges = append(edges, pr)
		}
	}
	rec.Pairs = len(edges)
	if len(edges) > maxPairs {
		rec.Outcome = LPECUndetermined
		rec.Reason = fmt.Sprintf("%d biactive pairs exceed the limit %d", len(edges), maxPairs)
		return rec
	}
	q := &lpDir{c: d.grad, lo: make([]float64, n), hi: make([]float64, n)}
	for i := 0; i < n; i++ {
		switch {
		case d.xL[i] == d.xU[i] || (zero[i] && !movable[i]):
		case movable[i]:
			q.hi[i] = 1
		default:
			q.lo[i], q.hi[i] = -1, 1
			if nearBound(d.x[i], d.xL[i]) {
				q.lo[i] = 0
			}
			if nearBound(d.x[i], d.xU[i]) {
				q.hi[i] = 0
			}
		}
	}
	lpRow := make([]int, len(d.g))
	for i := range d.g {
		lo, hi := nearBound(d.g[i], d.gL[i]), nearBound(d.g[i], d.gU[i])
		eq := d.gL[i] == d.gU[i] || (lo && hi)
		if !eq && !lo && !hi {
			lpRow[i] = -1
			continue
		}
		lpRow[i] = len(q.rows)
		q.rows = append(q.rows, i)
		switch {
		case eq:
			q.gL, q.gU = append(q.gL, 0), append(q.gU, 0)
		case hi:
			q.gL, q.gU = append(q.gL, math.Inf(-1)), append(q.gU, 0)
		default:
			q.gL, q.gU = append(q.gL, 0), append(q.gU, math.Inf(1))
		}
	}
	for k, i := range d.jr {
		if r := lpRow[i]; r >= 0 {
			q.jr, q.jc, q.jv = append(q.jr, r), append(q.jc, d.jc[k]), append(q.jv, d.jv[k])
		}
	}
	root := append([]float64(nil), q.hi...)

	solver := nlp.Solver{Settings: lpecSettings()}
	var ws nlp.Workspace
	// Each stack entry is a node: the movable variables it fixes.
	stack := [][]int{nil}
	for len(stack) > 0 {
		if rec.LPs >= maxLPs {
			rec.Outcome = LPECUndetermined
			rec.Reason = fmt.Sprintf("LP budget of %d exhausted", maxLPs)
			return rec
		}
		if ctx.Err() != nil {
			rec.Outcome = LPECUndetermined
			rec.Reason = "cancelled"
			return rec
		}
		node := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		copy(q.hi, root)
		for _, i := range node {
			q.hi[i] = 0
		}
		r, err := solver.SolveIn(ctx, &ws, q)
		rec.LPs++
		if err != nil || !r.Status.Success() {
			rec.Outcome = LPECUndetermined
			if err != nil {
				rec.Reason = fmt.Sprintf("LP %d could not run: %v", rec.LPs, err)
			} else {
				rec.Reason = fmt.Sprintf("LP %d ended %v", rec.LPs, r.Status)
			}
			return rec
		}
		rec.Iterations += r.Iterations
		rec.Value = math.Min(rec.Value, r.Objective)
		if r.Objective >= -tol {
			continue // no descent in this cone
		}
		// The undecided pair with the largest min(d_a, d_b).
		split, worst := -1, lpecCompTol
		for e, pr := range edges {
			if v := math.Min(r.X[pr[0]], r.X[pr[1]]); v > worst && q.hi[pr[0]] > 0 && q.hi[pr[1]] > 0 {
				split, worst = e, v
			}
		}
		if split < 0 {
			rec.Outcome = LPECDescent
			for _, i := range pi.vars {
				if movable[i] && r.X[i] > lpecCompTol {
					rec.Freed = append(rec.Freed, i)
				}
			}
			if len(rec.Freed) == 0 {
				rec.Outcome = LPECUndetermined
				rec.Reason = fmt.Sprintf("descent %.3g without moving a biactive variable (the point is not stationary for the tightened NLP)", r.Objective)
			}
			return rec
		}
		// Children: fix the side with the larger component last, so that
		// the smaller one (popped first) is fixed first.
		a, b := edges[split][0], edges[split][1]
		if r.X[a] < r.X[b] {
			a, b = b, a
		}
		stack = append(stack, append(append([]int(nil), node...), a), append(append([]int(nil), node...), b))
	}
	rec.Outcome = LPECStationary
	return rec
}
