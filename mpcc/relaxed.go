package mpcc

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/nlp"
)

// PenaltyScaling selects how the objective and the elastic penalty are
// weighted for L1 and LInf steering (ignored for Direct).
type PenaltyScaling int

const (
	// PenaltyOverSigma minimizes f + ρ·P with ρ = 1/σ (nosnoc's
	// objective_scaling_direct = 1, the default).
	PenaltyOverSigma PenaltyScaling = iota
	// ObjectiveTimesSigma minimizes σ·f + P, the same minimizers with
	// objective values of order one as σ → 0.
	ObjectiveTimesSigma
	numPenaltyScalings
)

func (s PenaltyScaling) String() string {
	switch s {
	case PenaltyOverSigma:
		return "PenaltyOverSigma"
	case ObjectiveTimesSigma:
		return "ObjectiveTimesSigma"
	}
	return fmt.Sprintf("PenaltyScaling(%d)", int(s))
}

// Relaxed is the relaxed NLP of an MPCC for one value of the homotopy
// parameter σ. It implements nlp.Problem:
//
//	variables   (x, s): the MPCC variables x (n₀) followed by the elastic
//	            slacks s (none for Direct steering and for L1 Scholtes, one per
//	            term for L1, one for LInf), s ≥ 0;
//	constraints the MPCC's constraints g (m₀) followed by the relaxation rows
//	            ψ_r, term by term (two rows per term for Lin–Fukushima);
//	objective   w_f·f(x) + w_p·P(x, s), where P = Σ_k c_k(x) (L1 Scholtes),
//	            Σ_k s_k (L1) or s (LInf), and (w_f, w_p) = (1, 1/σ) or (σ, 1).
//
// All derivatives are exact. The sparsity patterns are built once by
// NewRelaxed; SetSigma changes only values (and, for Lin–Fukushima and
// Kadrani, the loosened lower bounds x_L − σ).
//
// A Relaxed holds evaluation buffers and is not safe for concurrent use.
type Relaxed struct {
	base    nlp.Problem
	comp    []Complementarity
	relax   Relaxation
	steer   Steering
	scaling PenaltyScaling
	sigma   float64

	n0, m0 int
	nSlack int
	rows   []relRow
	// penalty lists the terms penalized in the objective (L1 Scholtes).
	penalty []penaltyTerm
	// loose lists the variables whose lower bound is loosened by τ.
	loose []int

	jacRows, jacCols   []int
	baseJacNNZ         int
	hessRows, hessCols []int
	baseHessSlot       []int

	start []float64

	baseHess []float64
}

type relRow struct {
	kind   rowKind
	lo, hi float64
	term   int
	// vars are the distinct MPCC variables of the row, in Jacobian order;
	// the slack (if any) follows them in the Jacobian.
	vars  []int
	slack int // global index of the slack variable, or −1
	// pairs are the term's pairs in local (vars) indices (Scholtes rows).
	pairs [][2]int
	// pairSlot[j] is the Hessian slot of pair j (Scholtes rows).
	pairSlot []int
	// slot3 maps the lower local entries (p ≥ q, order a, b, t) of scalar
	// rows to Hessian slots (−1 when absent).
	slot3  [9]int
	jacOff int
}

type penaltyTerm struct {
	term     int
	vars     []int
	pairs    [][2]int
	pairSlot []int
}

var _ nlp.Problem = (*Relaxed)(nil)

// stagedRelaxed is the view of a Relaxed whose MPCC NLP implements
// nlp.StageHinter; it passes the extended stage numbers on to the solver.
type stagedRelaxed struct{ *Relaxed }

var _ nlp.StageHinter = stagedRelaxed{}

// Stages implements nlp.StageHinter with Relaxed.StageHints.
func (s stagedRelaxed) Stages(xStage, gStage []int) { s.StageHints(xStage, gStage) }

// Problem returns q as the nlp.Problem to solve: q itself when the MPCC's
// NLP does not implement nlp.StageHinter, otherwise a view of q that also
// implements nlp.StageHinter with the numbers of StageHints, so that the
// stage order of a transcribed optimal control problem (e.g. the FESD NLP)
// reaches the KKT solver. Solver.Solve hands Problem() to the inner solver.
// A problem without stages is passed on unchanged, so that its ordering
// (AMD) is the same as before.
func (q *Relaxed) Problem() nlp.Problem {
	if _, ok := q.base.(nlp.StageHinter); ok {
		return stagedRelaxed{q}
	}
	return q
}

// StageHints writes stage numbers for the variables (xStage, length n) and
// constraints (gStage, length m) of q, (n, m) = Dims(), and reports whether
// the MPCC's NLP implements nlp.StageHinter; if it does not, nothing is
// written. The MPCC's variables and constraints keep their stages; the
// variables and rows added by the relaxation take the stage of what they
// couple:
//
//	relaxation row of term k   the largest stage of the term's variables
//	L1 slack of term k         the stage of the term's rows
//	LInf slack (one for all)   the largest stage of all MPCC variables, so
//	                           that its dense column is eliminated last.
func (q *Relaxed) StageHints(xStage, gStage []int) bool {
	h, ok := q.base.(nlp.StageHinter)
	if !ok {
		return false
	}
	xs := xStage[:q.n0]
	h.Stages(xs, gStage[:q.m0])
	last := 0
	for j, s := range xs {
		if j == 0 || s > last {
			last = s
		}
	}
	termStage := func(k int) int {
		pairs := q.comp[k].Pairs
		if len(pairs) == 0 {
			return last
		}
		st := xs[pairs[0][0]]
		for _, pr := range pairs {
			st = max(st, xs[pr[0]], xs[pr[1]])
		}
		return st
	}
	for r, rr := range q.rows {
		gStage[q.m0+r] = termStage(rr.term)
	}
	if q.steer == LInf && q.nSlack == 1 {
		xStage[q.n0] = last
	} else {
		for k := range q.nSlack {
			xStage[q.n0+k] = termStage(k)
		}
	}
	return true
}

// NewRelaxed builds the relaxed NLP of p for the relaxation r, the steering
// s and the parameter σ (σ ≥ 0 for Direct, σ > 0 otherwise). It validates
// p and the combination: a relaxation other than Scholtes on a term with
// several pairs is an ErrScalarPairRequired error naming the term.
func NewRelaxed(p *Problem, r Relaxation, s Steering, sigma float64) (*Relaxed, error) {
	return newRelaxed(p, r, s, PenaltyOverSigma, sigma)
}

// NewRelaxedScaled is NewRelaxed with an explicit PenaltyScaling.
func NewRelaxedScaled(p *Problem, r Relaxation, s Steering, scaling PenaltyScaling, sigma float64) (*Relaxed, error) {
	return newRelaxed(p, r, s, scaling, sigma)
}

func newRelaxed(p *Problem, r Relaxation, s Steering, scaling PenaltyScaling, sigma float64) (*Relaxed, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := Compatible(r, s); err != nil {
		return nil, err
	}
	if scaling < 0 || scaling >= numPenaltyScalings {
		return nil, fmt.Errorf("%w: %v", ErrSettings, scaling)
	}
	if !r.AllowsSums() {
		for k, c := range p.Comp {
			if !c.Scalar() {
				return nil, fmt.Errorf("%w: %v on term %d with %d pairs", ErrScalarPairRequired, r, k, len(c.Pairs))
			}
		}
	}
	q := &Relaxed{base: p.NLP, relax: r, steer: s, scaling: scaling}
	q.comp = make([]Complementarity, len(p.Comp))
	for k, c := range p.Comp {
		q.comp[k] = Complementarity{Pairs: append([][2]int(nil), c.Pairs...)}
	}
	if err := q.SetSigma(sigma); err != nil {
		return nil, err
	}
	q.n0, q.m0 = p.NLP.Dims()
	q.build()
	return q, nil
}

// hessIndex assigns slots to lower-triangle Hessian entries.
type hessIndex struct {
	slot       map[[2]int]int
	rows, cols []int
}

func (h *hessIndex) at(i, j int) int {
	if i < j {
		i, j = j, i
	}
	k := [2]int{i, j}
	if s, ok := h.slot[k]; ok {
		return s
	}
	s := len(h.rows)
	h.slot[k] = s
	h.rows = append(h.rows, i)
	h.cols = append(h.cols, j)
	return s
}

// localize returns the distinct variables of pairs (in order of first
// appearance) and the pairs in local indices.
func localize(pairs [][2]int) (vars []int, local [][2]int) {
	pos := map[int]int{}
	local = make([][2]int, len(pairs))
	for j, pr := range pairs {
		for e, i := range pr {
			l, ok := pos[i]
			if !ok {
				l = len(vars)
				pos[i] = l
				vars = append(vars, i)
			}
			local[j][e] = l
		}
	}
	return vars, local
}

func (q *Relaxed) build() {
	// Slacks.
	slackOf := func(int) int { return -1 }
	switch {
	case q.steer == L1 && q.relax.AllowsSums():
		// Exact penalty, no slack.
	case q.steer == L1:
		q.nSlack = len(q.comp)
		slackOf = func(k int) int { return q.n0 + k }
	case q.steer == LInf:
		q.nSlack = 1
		slackOf = func(int) int { return q.n0 }
	}
	penalize := q.steer == L1 && q.relax.AllowsSums()

	// Jacobian: base rows first.
	br, bc := q.base.JacobianStructure()
	q.baseJacNNZ = len(br)
	q.jacRows = append([]int(nil), br...)
	q.jacCols = append([]int(nil), bc...)

	// Hessian: base entries first.
	hi := &hessIndex{slot: map[[2]int]int{}}
	hr, hc := q.base.HessianStructure()
	q.baseHessSlot = make([]int, len(hr))
	for e := range hr {
		q.baseHessSlot[e] = hi.at(hr[e], hc[e])
	}
	q.baseHess = make([]float64, len(hr))

	row := q.m0
	for k, c := range q.comp {
		vars, local := localize(c.Pairs)
		if penalize {
			pt := penaltyTerm{term: k, vars: vars, pairs: local, pairSlot: make([]int, len(local))}
			for j, pr := range local {
				pt.pairSlot[j] = hi.at(vars[pr[0]], vars[pr[1]])
			}
			q.penalty = append(q.penalty, pt)
			continue
		}
		for _, spec := range q.relax.rows() {
			rr := relRow{kind: spec.kind, lo: spec.lo, hi: spec.hi, term: k, vars: vars, slack: slackOf(k), pairs: local}
			rr.jacOff = len(q.jacRows)
			for _, v := range vars {
				q.jacRows = append(q.jacRows, row)
				q.jacCols = append(q.jacCols, v)
			}
			if rr.slack >= 0 {
				q.jacRows = append(q.jacRows, row)
				q.jacCols = append(q.jacCols, rr.slack)
			}
			if spec.kind == rowScholtes {
				rr.pairSlot = make([]int, len(local))
				for j, pr := range local {
					rr.pairSlot[j] = hi.at(vars[pr[0]], vars[pr[1]])
				}
			} else {
				glob := [3]int{vars[0], vars[1], rr.slack}
				for a := 0; a < 3; a++ {
					for b := 0; b < 3; b++ {
						rr.slot3[3*a+b] = -1
						if b > a || glob[a] < 0 || glob[b] < 0 {
							continue
						}
						rr.slot3[3*a+b] = hi.at(glob[a], glob[b])
					}
				}
			}
			q.rows = append(q.rows, rr)
			row++
		}
	}
	if q.relax.loosensBounds() {
		seen := map[int]bool{}
		for _, c := range q.comp {
			for _, pr := range c.Pairs {
				for _, i := range pr {
					if !seen[i] {
						seen[i] = true
						q.loose = append(q.loose, i)
					}
				}
			}
		}
	}
	q.hessRows, q.hessCols = hi.rows, hi.cols
}

// SetSigma sets the homotopy parameter σ. The patterns are unchanged.
func (q *Relaxed) SetSigma(sigma float64) error {
	if math.IsNaN(sigma) || math.IsInf(sigma, 0) || sigma < 0 || (sigma == 0 && q.steer != Direct) {
		return fmt.Errorf("%w: σ = %g with %v steering", ErrSigma, sigma, q.steer)
	}
	q.sigma = sigma
	return nil
}

// Sigma returns the current σ.
func (q *Relaxed) Sigma() float64 { return q.sigma }

// Relaxation returns the relaxation of q.
func (q *Relaxed) Relaxation() Relaxation { return q.relax }

// Steering returns the steering of q.
func (q *Relaxed) Steering() Steering { return q.steer }

// NumSlacks returns the number of elastic slack variables appended to x.
func (q *Relaxed) NumSlacks() int { return q.nSlack }

// NumRelaxationRows returns the number of relaxation constraint rows
// appended to g.
func (q *Relaxed) NumRelaxationRows() int { return len(q.rows) }

// SetStart overrides the starting point (length n₀ + NumSlacks) written by
// Start; nil restores the MPCC's start with slacks at τ(σ). The slice is
// copied.
func (q *Relaxed) SetStart(x []float64) error {
	if x == nil {
		q.start = nil
		return nil
	}
	if len(x) != q.n0+q.nSlack {
		return fmt.Errorf("%w: start has length %d, want %d", ErrDimension, len(x), q.n0+q.nSlack)
	}
	q.start = append(q.start[:0], x...)
	return nil
}

func (q *Relaxed) weights() (wf, wp float64) {
	if q.steer == Direct {
		return 1, 0
	}
	if q.scaling == ObjectiveTimesSigma {
		return q.sigma, 1
	}
	return 1, 1 / q.sigma
}

// Dims implements nlp.Problem.
func (q *Relaxed) Dims() (n, m int) { return q.n0 + q.nSlack, q.m0 + len(q.rows) }

// Bounds implements nlp.Problem.
func (q *Relaxed) Bounds(xL, xU, gL, gU []float64) {
	q.base.Bounds(xL[:q.n0], xU[:q.n0], gL[:q.m0], gU[:q.m0])
	tau := q.relax.Tau(q.sigma)
	for _, i := range q.loose {
		xL[i] -= tau
	}
	for i := q.n0; i < q.n0+q.nSlack; i++ {
		xL[i], xU[i] = 0, math.Inf(1)
	}
	for r, rr := range q.rows {
		gL[q.m0+r], gU[q.m0+r] = rr.lo, rr.hi
	}
}

// Start implements nlp.Problem.
func (q *Relaxed) Start(x0 []float64) {
	if q.start != nil {
		copy(x0, q.start)
		return
	}
	q.base.Start(x0[:q.n0])
	tau := q.relax.Tau(q.sigma)
	for i := q.n0; i < q.n0+q.nSlack; i++ {
		x0[i] = tau
	}
}

// Objective implements nlp.Problem.
func (q *Relaxed) Objective(x []float64) (float64, error) {
	f, err := q.base.Objective(x[:q.n0])
	if err != nil {
		return 0, err
	}
	wf, wp := q.weights()
	var pen float64
	for _, pt := range q.penalty {
		pen += q.comp[pt.term].Value(x)
	}
	for i := q.n0; i < q.n0+q.nSlack; i++ {
		pen += x[i]
	}
	return wf*f + wp*pen, nil
}

// Gradient implements nlp.Problem.
func (q *Relaxed) Gradient(x, grad []float64) error {
	if err := q.base.Gradient(x[:q.n0], grad[:q.n0]); err != nil {
		return err
	}
	wf, wp := q.weights()
	if wf != 1 {
		for i := range grad[:q.n0] {
			grad[i] *= wf
		}
	}
	for _, pt := range q.penalty {
		for _, pr := range q.comp[pt.term].Pairs {
			grad[pr[0]] += wp * x[pr[1]]
			grad[pr[1]] += wp * x[pr[0]]
		}
	}
	for i := q.n0; i < q.n0+q.nSlack; i++ {
		grad[i] = wp
	}
	return nil
}

// rowParam returns the relaxation parameter t of row rr at x.
func (q *Relaxed) rowParam(rr *relRow, x []float64) float64 {
	if rr.slack >= 0 {
		return x[rr.slack]
	}
	return q.relax.Tau(q.sigma)
}

// Constraints implements nlp.Problem.
func (q *Relaxed) Constraints(x, g []float64) error {
	if err := q.base.Constraints(x[:q.n0], g[:q.m0]); err != nil {
		return err
	}
	var gr [3]float64
	var h [9]float64
	for r := range q.rows {
		rr := &q.rows[r]
		t := q.rowParam(rr, x)
		if rr.kind == rowScholtes {
			g[q.m0+r] = q.comp[rr.term].Value(x) - t
			continue
		}
		g[q.m0+r] = psi3(rr.kind, x[rr.vars[0]], x[rr.vars[1]], t, &gr, &h)
	}
	return nil
}

// JacobianStructure implements nlp.Problem.
func (q *Relaxed) JacobianStructure() (rows, cols []int) {
	return append([]int(nil), q.jacRows...), append([]int(nil), q.jacCols...)
}

// JacobianValues implements nlp.Problem.
func (q *Relaxed) JacobianValues(x, vals []float64) error {
	if err := q.base.JacobianValues(x[:q.n0], vals[:q.baseJacNNZ]); err != nil {
		return err
	}
	var gr [3]float64
	var h [9]float64
	for r := range q.rows {
		rr := &q.rows[r]
		nv := len(rr.vars)
		out := vals[rr.jacOff : rr.jacOff+nv]
		if rr.kind == rowScholtes {
			for i := range out {
				out[i] = 0
			}
			for _, pr := range rr.pairs {
				out[pr[0]] += x[rr.vars[pr[1]]]
				out[pr[1]] += x[rr.vars[pr[0]]]
			}
			if rr.slack >= 0 {
				vals[rr.jacOff+nv] = -1
			}
			continue
		}
		t := q.rowParam(rr, x)
		psi3(rr.kind, x[rr.vars[0]], x[rr.vars[1]], t, &gr, &h)
		out[0], out[1] = gr[0], gr[1]
		if rr.slack >= 0 {
			vals[rr.jacOff+nv] = gr[2]
		}
	}
	return nil
}

// HessianStructure implements nlp.Problem.
func (q *Relaxed) HessianStructure() (rows, cols []int) {
	return append([]int(nil), q.hessRows...), append([]int(nil), q.hessCols...)
}

// HessianValues implements nlp.Problem.
func (q *Relaxed) HessianValues(x []float64, sigma float64, lambda, vals []float64) error {
	wf, wp := q.weights()
	if err := q.base.HessianValues(x[:q.n0], sigma*wf, lambda[:q.m0], q.baseHess); err != nil {
		return err
	}
	for i := range vals[:len(q.hessRows)] {
		vals[i] = 0
	}
	for e, s := range q.baseHessSlot {
		vals[s] += q.baseHess[e]
	}
	for _, pt := range q.penalty {
		for _, s := range pt.pairSlot {
			vals[s] += sigma * wp
		}
	}
	var gr [3]float64
	var h [9]float64
	for r := range q.rows {
		rr := &q.rows[r]
		l := lambda[q.m0+r]
		if rr.kind == rowScholtes {
			for _, s := range rr.pairSlot {
				vals[s] += l
			}
			continue
		}
		t := q.rowParam(rr, x)
		psi3(rr.kind, x[rr.vars[0]], x[rr.vars[1]], t, &gr, &h)
		for e, s := range rr.slot3 {
			if s >= 0 {
				vals[s] += l * h[e]
			}
		}
	}
	return nil
}
