package mpcc

import (
	"context"
	"fmt"
	"math"
	"slices"
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
// biactive variables. The LPEC separates into independent blocks: the
// connected components of the free LP variables (bounds lo < hi), two
// variables being connected when an active row holds both; the box
// ‖d‖∞ ≤ 1 and the objective are separable, so the LPEC's value is the sum
// of the blocks' values and a descent direction of one block (zero
// elsewhere) is one of the whole. Every block with a movable pair gets its
// own depth-first branch and bound on the LPs above; the blocks without
// one are a single LP. In a branch and bound the root leaves every movable
// zero variable of the block free (d_i ≥ 0); a node whose LP value is at
// least −tol proves that no direction of its cone descends and is pruned;
// a node whose LP solution is complementary on every movable pair with
// value below −tol is a descent branch; otherwise the pair with the
// largest min(d_a, d_b) is split into d_a = 0 and d_b = 0. A block with
// more than maxPairs movable pairs ends LPECUndetermined before any LP is
// solved, and so does the search when the blocks together use maxLPs LPs.
func runLPEC(ctx context.Context, pi *pairInfo, d *pointData, zero, locked []bool, tol float64, maxPairs, maxLPs int) *LPECRecord {
	t0 := time.Now()
	rec := &LPECRecord{Tol: tol}
	defer func() { rec.Elapsed = time.Since(t0) }()
	q, movable, edges := newLPDir(pi, d, zero, locked)
	rec.Pairs = len(edges)
	blocks := lpecBlocks(q, edges)
	rec.Blocks = len(blocks)
	for _, b := range blocks {
		if len(b.edges) > maxPairs {
			rec.Outcome = LPECUndetermined
			rec.Reason = fmt.Sprintf("%d biactive pairs in one block exceed the limit %d", len(b.edges), maxPairs)
			return rec
		}
	}
	s := &lpecSearch{rec: rec, solver: nlp.Solver{Settings: lpecSettings()}, movable: movable, tol: tol, maxLPs: maxLPs}
	for _, b := range blocks {
		if s.block(ctx, q, b) {
			return rec
		}
	}
	rec.Outcome = LPECStationary
	return rec
}

// newLPDir returns the LP of the LPEC's root at the point in d: the
// movable variables (zero and not locked) in [0, 1], the other zero and
// the fixed ones at 0, the free ones in [−1, 1] cut at active bounds, and
// the active rows; movable marks the movable variables and edges lists
// the pairs of two movable variables.
func newLPDir(pi *pairInfo, d *pointData, zero, locked []bool) (q *lpDir, movable []bool, edges [][2]int) {
	n := len(d.x)
	movable = make([]bool, n)
	for _, i := range pi.vars {
		movable[i] = zero[i] && !locked[i]
	}
	for _, pr := range pi.pairs {
		if movable[pr[0]] && movable[pr[1]] {
			edges = append(edges, pr)
		}
	}
	q = &lpDir{c: d.grad, lo: make([]float64, n), hi: make([]float64, n)}
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
	q.addActiveRows(d)
	return q, movable, edges
}

// addActiveRows adds the constraints of d that are active at its point as
// rows of q: J_i d = 0 for equalities (and rows at both bounds), ≤ 0 at
// the upper bound, ≥ 0 at the lower.
func (q *lpDir) addActiveRows(d *pointData) {
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
}

// lpecSearch is the branch and bound of one LPEC, block after block, with
// one LP solver and workspace for all its LPs.
type lpecSearch struct {
	rec     *LPECRecord
	solver  nlp.Solver
	ws      nlp.Workspace
	movable []bool
	tol     float64
	maxLPs  int
}

// block runs the depth-first branch and bound of block b of q and adds
// its value to the record; final reports that the search ends with this
// block (a descent branch, or undetermined; the record says which).
func (s *lpecSearch) block(ctx context.Context, q *lpDir, b lpecBlock) (final bool) {
	sub := q.restrict(b.vars)
	value := 0.0
	// Each stack entry is a node: the block's local variables it fixes.
	root := append([]float64(nil), sub.hi...)
	stack := [][]int{nil}
	for len(stack) > 0 {
		node := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r, final := s.solveNode(ctx, sub, root, node)
		if final {
			return true
		}
		value = math.Min(value, r.Objective)
		if r.Objective >= -s.tol {
			continue // no descent in this cone
		}
		// The undecided pair with the largest min(d_a, d_b).
		split, worst := -1, lpecCompTol
		for e, pr := range b.edges {
			if v := math.Min(r.X[pr[0]], r.X[pr[1]]); v > worst && sub.hi[pr[0]] > 0 && sub.hi[pr[1]] > 0 {
				split, worst = e, v
			}
		}
		if split < 0 {
			s.descent(b, r, value)
			return true
		}
		// Children: fix the side with the larger component last, so that
		// the smaller one (popped first) is fixed first.
		a, c := b.edges[split][0], b.edges[split][1]
		if r.X[a] < r.X[c] {
			a, c = c, a
		}
		stack = append(stack, append(append([]int(nil), node...), a), append(append([]int(nil), node...), c))
	}
	s.rec.Value += value
	return false
}

// solveNode solves the LP of the node that fixes the local variables node
// of sub (the other bounds those of root); final reports that the LPEC
// ends undetermined instead (LP budget, cancellation, failed LP).
func (s *lpecSearch) solveNode(ctx context.Context, sub *lpDir, root []float64, node []int) (r *nlp.Result, final bool) {
	rec := s.rec
	if rec.LPs >= s.maxLPs {
		rec.Outcome = LPECUndetermined
		rec.Reason = fmt.Sprintf("LP budget of %d exhausted", s.maxLPs)
		return nil, true
	}
	if ctx.Err() != nil {
		rec.Outcome = LPECUndetermined
		rec.Reason = "cancelled"
		return nil, true
	}
	copy(sub.hi, root)
	for _, i := range node {
		sub.hi[i] = 0
	}
	r, err := s.solver.SolveIn(ctx, &s.ws, sub)
	rec.LPs++
	if r != nil && r.Status == nlp.Cancelled {
		// Stopped by ctx (err wraps ctx.Err()).
		rec.Outcome = LPECUndetermined
		rec.Reason = "cancelled"
		return nil, true
	}
	if err != nil || !r.Status.Success() {
		rec.Outcome = LPECUndetermined
		if err != nil {
			rec.Reason = fmt.Sprintf("LP %d could not run: %v", rec.LPs, err)
		} else {
			rec.Reason = fmt.Sprintf("LP %d ended %v", rec.LPs, r.Status)
		}
		return nil, true
	}
	rec.Iterations += r.Iterations
	return r, false
}

// descent records the descent branch of block b found by the LP solution
// r (value: the smallest LP value of the block's search): the movable
// variables that r moves off zero are freed; none is undetermined.
func (s *lpecSearch) descent(b lpecBlock, r *nlp.Result, value float64) {
	rec := s.rec
	rec.Outcome = LPECDescent
	rec.Value = value
	for k, i := range b.vars {
		if s.movable[i] && r.X[k] > lpecCompTol {
			rec.Freed = append(rec.Freed, i)
		}
	}
	if len(rec.Freed) == 0 {
		rec.Outcome = LPECUndetermined
		rec.Reason = fmt.Sprintf("descent %.3g without moving a biactive variable (the point is not stationary for the tightened NLP)", r.Objective)
	}
}

// lpecBlock is one independent block of an LPEC: its variables (sorted
// indices of the full LP) and its movable pairs in local indices.
type lpecBlock struct {
	vars  []int
	edges [][2]int
}

// lpecBlocks splits the free variables of q (lo < hi) into the connected
// components of its rows (nonzero entries) and returns one block per component with a pair
// of edges, then one block of all the other free variables (if any).
func lpecBlocks(q *lpDir, edges [][2]int) []lpecBlock {
	n := len(q.c)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	first := make([]int, len(q.rows))
	for r := range first {
		first[r] = -1
	}
	for k, r := range q.jr {
		j := q.jc[k]
		if q.lo[j] >= q.hi[j] || q.jv[k] == 0 {
			continue
		}
		if first[r] < 0 {
			first[r] = j
		} else if a, b := find(first[r]), find(j); a != b {
			parent[a] = b
		}
	}
	for _, e := range edges {
		if a, b := find(e[0]), find(e[1]); a != b {
			parent[a] = b
		}
	}
	comp := map[int]int{} // root → block index
	var blocks []lpecBlock
	var rest []int
	hasEdge := map[int]bool{}
	for _, e := range edges {
		hasEdge[find(e[0])] = true
	}
	for i := 0; i < n; i++ {
		if q.lo[i] >= q.hi[i] {
			continue
		}
		root := find(i)
		if !hasEdge[root] {
			rest = append(rest, i)
			continue
		}
		k, ok := comp[root]
		if !ok {
			k = len(blocks)
			comp[root] = k
			blocks = append(blocks, lpecBlock{})
		}
		blocks[k].vars = append(blocks[k].vars, i)
	}
	for _, e := range edges {
		b := &blocks[comp[find(e[0])]]
		a, _ := slices.BinarySearch(b.vars, e[0])
		c, _ := slices.BinarySearch(b.vars, e[1])
		b.edges = append(b.edges, [2]int{a, c})
	}
	if len(rest) > 0 {
		blocks = append(blocks, lpecBlock{vars: rest})
	}
	return blocks
}

// restrict returns the LP of q over the variables vars (sorted), the
// others held at 0: the rows with a free nonzero entry in vars, with the
// entries of vars only.
func (q *lpDir) restrict(vars []int) *lpDir {
	local := make(map[int]int, len(vars))
	sub := &lpDir{c: make([]float64, len(vars)), lo: make([]float64, len(vars)), hi: make([]float64, len(vars))}
	for k, i := range vars {
		local[i] = k
		sub.c[k], sub.lo[k], sub.hi[k] = q.c[i], q.lo[i], q.hi[i]
	}
	row := make([]int, len(q.rows))
	for r := range row {
		row[r] = -1
	}
	for k, r := range q.jr {
		j, ok := local[q.jc[k]]
		if !ok || q.lo[q.jc[k]] >= q.hi[q.jc[k]] || q.jv[k] == 0 {
			continue
		}
		if row[r] < 0 {
			row[r] = len(sub.rows)
			sub.rows = append(sub.rows, q.rows[r])
			sub.gL, sub.gU = append(sub.gL, q.gL[r]), append(sub.gU, q.gU[r])
		}
		sub.jr, sub.jc, sub.jv = append(sub.jr, row[r]), append(sub.jc, j), append(sub.jv, q.jv[k])
	}
	return sub
}
