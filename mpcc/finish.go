package mpcc

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/fesd-go/fesd/nlp"
)

// finishFeasTol is the largest bound and constraint violation of a
// certified point, relative to max(1, ‖x‖∞) (the tightened NLP loosens its
// free bounds by 1e-9 relative; the inner solver meets its constraints to
// ≈ 1e-12 scaled).
const finishFeasTol = 1e-8

// certify solves the tightened NLP with the variables fix held at their
// lower bound, started at start (with the multipliers in warm), and
// classifies its solution (LPEC included).
func (s *Solver) certify(ctx context.Context, inner InnerSolver, p *Problem, pi *pairInfo, prm params,
	fix []int, start []float64, warm *WarmStart) (*Certificate, *InnerResult, error) {
	t0 := time.Now()
	n0, m0 := p.NLP.Dims()
	xL, xU := make([]float64, n0), make([]float64, n0)
	p.NLP.Bounds(xL, xU, make([]float64, m0), make([]float64, m0))
	mask := make([]bool, n0)
	x0 := make([]float64, n0)
	for i := range x0 {
		x0[i] = math.Min(math.Max(start[i], xL[i]), xU[i])
	}
	for _, i := range fix {
		mask[i] = true
		x0[i] = xL[i]
	}
	// The multipliers of the homotopy point, but not its small barrier
	// parameter: the fixed variables moved to their bound (by up to the
	// active tolerance), so the start is not the tightened NLP's solution,
	// and μ₀ = 0.1σ held the iterate against the bounds (bench/ocp's motor,
	// both with NLPSolver's pivoting factorization: IterationLimit at 50
	// from μ₀ = 1e-5 after two restoration phases, solved in 24 iterations
	// from the inner solver's μ₀).
	w := &WarmStart{X: x0, MaxIter: prm.finishMaxIter}
	if warm != nil {
		w.Y, w.ZL, w.ZU = warm.Y, warm.ZL, warm.ZU
	}
	r, err := inner.SolveNLP(ctx, (&tightNLP{Problem: p.NLP, fix: mask, start: x0}).problem(), w)
	if stoppedByContext(r, err) {
		// The partial result is classified below as "cancelled".
		err = nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("mpcc: tightened NLP: %w", err)
	}
	if len(r.X) != n0 {
		return nil, nil, fmt.Errorf("%w: inner solver returned x of length %d, want %d", ErrDimension, len(r.X), n0)
	}
	c := &Certificate{NLPStatus: r.Status, Iterations: r.Iterations, Fixed: fix, MinBiactiveNu: math.Inf(1)}
	defer func() { c.Elapsed = time.Since(t0) }()
	c.X = make([]float64, n0)
	for i := range c.X {
		c.X[i] = math.Min(math.Max(r.X[i], xL[i]), xU[i])
		if mask[i] {
			c.X[i] = xL[i]
		}
	}
	if len(r.Y) >= m0 {
		c.Y = append([]float64(nil), r.Y[:m0]...)
	}
	c.Distance = maxAbsDiffVec(c.X, start)
	c.Objective = math.NaN()
	c.Violation = math.Inf(1)
	switch {
	case r.Status == nlp.Cancelled || ctx.Err() != nil:
		c.Reason = "cancelled"
	case r.Err != nil:
		c.Reason = "tightened NLP: " + r.Err.Error()
	case !finiteVec(c.X) || len(c.Y) != m0 || !finiteVec(c.Y):
		c.Reason = fmt.Sprintf("tightened NLP ended %v at a non-finite point", r.Status)
	default:
		judgeTightened(ctx, p, pi, prm, r, mask, xL, xU, start, c)
	}
	return c, r, nil
}

// judgeTightened completes the certificate c of the tightened NLP's
// finite solution r (c.X its projection onto the bounds, mask the fixed
// variables): the objective and violation at c.X (or at the unprojected
// point when that is more feasible), the class from the multiplier signs,
// refused at an infeasible point, and the LPEC when the signs do not
// decide.
func judgeTightened(ctx context.Context, p *Problem, pi *pairInfo, prm params, r *InnerResult,
	mask []bool, xL, xU, start []float64, c *Certificate) {
	if v, err := p.NLP.Objective(c.X); err == nil {
		c.Objective = v
	}
	if v, err := nlp.Violation(p.NLP, c.X); err == nil {
		c.Violation = v
	}
	// The projection onto the bounds moves every constraint row by its
	// coefficients times the loosening (tightNLP), which can exceed the
	// loosening itself: keep the unprojected solution when it is the
	// more feasible point.
	if u, v, ok := unprojected(p.NLP, r.X, mask, pi.vars, xL, xU); ok && v < c.Violation {
		c.X, c.Violation = u, v
		c.Distance = maxAbsDiffVec(c.X, start)
	}
	d, err := evalPoint(p.NLP, c.X, c.Y)
	if err != nil {
		c.Reason = fmt.Sprintf("evaluation at the tightened point: %v", err)
		return
	}
	classify(p, pi, d, c.Y, prm.activeTol, prm.multTol, c)
	// relative to the size of the point: the free bounds were loosened
	// by 1e-9 relative, and the projection back moves constraints by as
	// much (5e-8 on a time-optimal OCP with variables of size 50)
	feasTol := finishFeasTol * math.Max(1, maxAbs(c.X))
	if c.Class != NotCertified && !(c.Violation <= feasTol) {
		c.Class = NotCertified
		c.Reason = fmt.Sprintf("tightened NLP ended %v at an infeasible point (violation %.3g > %.1e)", r.Status, c.Violation, feasTol)
	}
	if c.Class == NotCertified && c.Reason != "" && !r.Status.Success() {
		c.Reason = fmt.Sprintf("tightened NLP ended %v: %s", r.Status, c.Reason)
	}
	if c.Class == NotCertified || c.Class == SStationary {
		return
	}
	lpecClass(ctx, pi, prm, d, xL, xU, c)
}

// lpecClass decides the class of c, which the multiplier signs left open,
// by the LPEC over the movable biactive pairs at the point in d: S- or
// B-stationary, or the reason (descent, undetermined).
func lpecClass(ctx context.Context, pi *pairInfo, prm params, d *pointData, xL, xU []float64, c *Certificate) {
	zero, locked := pi.zeroSets(c.X, xL, prm.activeTol)
	var r1 float64
	for i := range d.nu {
		if !zero[i] && xL[i] < xU[i] && !nearBound(c.X[i], xL[i]) && !nearBound(c.X[i], xU[i]) {
			r1 += math.Abs(d.nu[i])
		}
	}
	var c1 float64
	for _, v := range d.grad {
		c1 += math.Abs(v)
	}
	tol := c.MultTol + r1 + 1e-8*c1
	c.LPEC = runLPEC(ctx, pi, d, zero, locked, tol, lpecMaxPairs, prm.lpecMaxLPs)
	switch c.LPEC.Outcome {
	case LPECStationary:
		if c.LPEC.LPs == c.LPEC.Blocks {
			// Every block was decided by its root LP, which frees every
			// movable variable: their value 0 means, by LP duality, that
			// S-multipliers exist (the inner solver returned other ones).
			c.Class, c.Reason = SStationary, ""
		} else {
			c.Class = BStationary
			c.Reason += fmt.Sprintf("; the LPEC (%d LPs) shows B-stationarity", c.LPEC.LPs)
		}
	case LPECDescent:
		c.Reason += fmt.Sprintf("; the LPEC finds descent %.3g on the branch freeing %v", c.LPEC.Value, c.LPEC.Freed)
	case LPECUndetermined:
		c.Reason += "; B-stationarity undetermined: " + c.LPEC.Reason
	}
}

// unprojected returns x with the variables of mask at their lower bound and
// the pair variables vars projected onto their bounds (so that the
// complementarity stays exact), the other variables as the tightened NLP
// returned them, and its violation (bounds and rows of q); ok is false when
// it cannot be evaluated. Measured on bench/ocp's motor: its voltage,
// 5·(1 + 1e-9) at the solution, meets coefficients of 282, so the
// projection left a row violated by 1.4e-6 (the certificate then refused
// the point), the unprojected point violates only that bound, by 5e-9.
func unprojected(q nlp.Problem, x []float64, mask []bool, vars []int, xL, xU []float64) ([]float64, float64, bool) {
	u := append([]float64(nil), x...)
	for _, i := range vars {
		u[i] = math.Min(math.Max(u[i], xL[i]), xU[i])
	}
	for i, f := range mask {
		if f {
			u[i] = xL[i]
		}
	}
	v, err := nlp.Violation(q, u)
	if err != nil || math.IsNaN(v) {
		return nil, 0, false
	}
	return u, v, true
}

func maxAbsDiffVec(a, b []float64) float64 {
	var d float64
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// nextBranch returns the fixed set of the branch to try after c, whose
// fixed set was cur: cur without the variables to free — the LPEC's
// descent branch or, when the LPEC did not decide, the movable variables
// with negative multipliers (most negative first, at most one per biactive
// pair) — and with their partners, so that every pair keeps a fixed side.
// A variable that only reached its bound at c.X stays free (its bound
// holds it): fixing every zero variable of c.X instead made each branch
// more constrained than the last, and on the Scholtes-relaxed OCP of
// nlp/testprob (N = 200) the finish climbed through six branches of
// rising objective, class W each, until the homotopy went on to σ = 1e-9
// uncertified (93 iterations; now three branches reach the S-stationary
// limit at σ = 1e-4, 55 iterations, TestFinishBranchChange). It returns
// nil when there is nothing to free.
func nextBranch(pi *pairInfo, c *Certificate, cur []int, xL []float64, prm params) (fix, freed []int) {
	zero, locked := pi.zeroSets(c.X, xL, prm.activeTol)
	free := make([]bool, len(c.X))
	if c.LPEC != nil && c.LPEC.Outcome == LPECDescent {
		for _, i := range c.LPEC.Freed {
			free[i] = true
		}
		freed = c.LPEC.Freed
	} else {
		var cand []int
		for _, i := range pi.vars {
			if zero[i] && !locked[i] && c.Nu[i] < -c.MultTol {
				cand = append(cand, i)
			}
		}
		slices.SortStableFunc(cand, func(a, b int) int {
			switch {
			case c.Nu[a] < c.Nu[b]:
				return -1
			case c.Nu[a] > c.Nu[b]:
				return 1
			}
			return 0
		})
	next:
		for _, i := range cand {
			for _, j := range pi.partners[i] {
				if free[j] {
					continue next
				}
			}
			free[i] = true
			freed = append(freed, i)
		}
	}
	if len(freed) == 0 {
		return nil, nil
	}
	keep := make([]bool, len(c.X))
	for _, i := range cur {
		keep[i] = !free[i]
	}
	for _, i := range freed {
		for _, j := range pi.partners[i] {
			keep[j] = true
		}
	}
	for _, i := range pi.vars {
		if keep[i] {
			fix = append(fix, i)
		}
	}
	return fix, freed
}

// finishOutcome is the result of one run of the certificate and finish.
type finishOutcome struct {
	// first certifies the tightening of the start point, final the last
	// solve (the accepted point when accepted).
	first, final *Certificate
	rec          *FinishRecord
	accepted     bool
	fixKey       string
	mode         FinishMode
}

// finish certifies the homotopy point of last (σ = sigma) and, with the
// active-set finish, moves between branches until a point certifies
// B-stationarity, for at most maxBranchChanges changes.
func (s *Solver) finish(ctx context.Context, inner InnerSolver, p *Problem, pi *pairInfo, prm params,
	last *InnerResult, sigma float64, xL []float64, mode FinishMode) (*finishOutcome, error) {
	t0 := time.Now()
	n0, m0 := p.NLP.Dims()
	start := last.X[:n0]
	warm := &WarmStart{}
	if !s.Settings.ColdDuals && len(last.Y) >= m0 && len(last.ZL) >= n0 && len(last.ZU) >= n0 &&
		finiteVec(last.Y) && finiteVec(last.ZL) && finiteVec(last.ZU) {
		warm.Y = append([]float64(nil), last.Y[:m0]...)
		warm.ZL = append([]float64(nil), last.ZL[:n0]...)
		warm.ZU = append([]float64(nil), last.ZU[:n0]...)
	}
	fix := pi.identify(start, xL, prm.activeTol)
	out := &finishOutcome{rec: &FinishRecord{Sigma: sigma}, fixKey: setKey(fix), mode: mode}
	defer func() { out.rec.Elapsed = time.Since(t0) }()
	visited := map[string]bool{out.fixKey: true}
	freed := 0
	for {
		c, r, err := s.certify(ctx, inner, p, pi, prm, fix, start, warm)
		if err != nil {
			return nil, err
		}
		if out.first == nil {
			out.first = c
		}
		out.final = c
		out.rec.Solves = append(out.rec.Solves, BranchSolve{Fixed: len(fix), Freed: freed, Status: c.NLPStatus,
			Iterations: c.Iterations, Objective: c.Objective, Violation: c.Violation, Class: c.Class, Elapsed: c.Elapsed})
		if set := s.Settings; set.Log != nil {
			fmt.Fprintf(set.Log, "%4s %10s %10s %10s %14.7e %16v %5d %10v fixed %d, freed %d, violation %.1e, class %v\n",
				"fin", "0", "0", "-", c.Objective, c.NLPStatus, c.Iterations, c.Elapsed.Round(time.Microsecond),
				len(fix), freed, c.Violation, c.Class)
		}
		if mode != ActiveSetFinish {
			return out, nil
		}
		if c.Class.B() {
			if comp, _ := p.Residuals(c.X, xL); comp <= prm.compTol {
				out.accepted = true
				out.rec.Accepted = true
				if prm.explore {
					s.explore(ctx, inner, p, pi, prm, out, xL)
				}
				return out, nil
			}
		}
		if c.Class == NotCertified {
			out.rec.Reason = c.Reason
			return out, nil
		}
		if out.rec.BranchChanges >= maxBranchChanges {
			out.rec.Reason = fmt.Sprintf("%v after %d branch changes (limit): %s", c.Class, out.rec.BranchChanges, c.Reason)
			return out, nil
		}
		next, fr := nextBranch(pi, c, fix, xL, prm)
		if next == nil {
			out.rec.Reason = fmt.Sprintf("%v and no branch to move to: %s", c.Class, c.Reason)
			return out, nil
		}
		k := setKey(next)
		if visited[k] {
			out.rec.Reason = fmt.Sprintf("%v; the next branch (freeing %v) was visited before", c.Class, fr)
			return out, nil
		}
		visited[k] = true
		out.rec.BranchChanges++
		fix, freed, start = next, len(fr), c.X
		warm = &WarmStart{}
		if !s.Settings.ColdDuals && len(r.Y) == m0 && len(r.ZL) == n0 && len(r.ZU) == n0 &&
			finiteVec(r.Y) && finiteVec(r.ZL) && finiteVec(r.ZU) {
			warm.Y, warm.ZL, warm.ZU = r.Y, r.ZL, r.ZU
		}
	}
}

// apply puts the outcome of the certificate and finish into res.
func (o *finishOutcome) apply(p *Problem, prm params, xL []float64, res *Result) {
	if o.mode == ActiveSetFinish {
		res.Finish = o.rec
	}
	if o.accepted {
		c := o.final
		res.X = append(res.X[:0], c.X...)
		res.Y = append(res.Y[:0], c.Y...)
		res.Objective = c.Objective
		res.CompResidual, res.NaturalResidual = p.Residuals(res.X, xL)
		res.Certificate = c
		res.Stationarity = c.Class
		if res.CompResidual <= prm.compTol {
			res.Status = Solved
		}
		return
	}
	c := o.first
	res.Certificate = c
	res.Stationarity = c.Class
	scale := 1.0
	for _, v := range res.X {
		scale = math.Max(scale, math.Abs(v))
	}
	if c.Class != NotCertified && !(c.Distance <= prm.activeTol*scale) {
		res.Stationarity = NotCertified
	}
}

// maxAbs returns ‖v‖∞.
func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// exploreGain is the relative objective decrease, 1e-6·max(1, |f|), that
// a neighbouring branch must bring to be taken by Settings.Explore.
const exploreGain = 1e-6

// explore searches the neighbouring branches of the accepted point
// out.final (Settings.Explore): for every pair (a, b) with a fixed at zero
// and b not, the branch that fixes b and frees a (when a's other partners
// stay fixed), solved from out.final.X. The best neighbour that certifies
// B-stationarity with exact complementarity and a lower objective
// becomes out.final; the search repeats from it, at most
// maxBranchChanges times. Each branch is solved once; one whose solve
// cannot run (e.g. its start is outside the functions' domain) is skipped.
func (s *Solver) explore(ctx context.Context, inner InnerSolver, p *Problem, pi *pairInfo, prm params,
	out *finishOutcome, xL []float64) {
	visited := map[string]bool{setKey(out.final.Fixed): true}
	for out.rec.Improvements < maxBranchChanges {
		cur := out.final
		fixed := make([]bool, len(cur.X))
		for _, i := range cur.Fixed {
			fixed[i] = true
		}
		var best *Certificate
	pairs:
		for _, pr := range pi.pairs {
			for _, ab := range [2][2]int{pr, {pr[1], pr[0]}} {
				a, b := ab[0], ab[1]
				if !fixed[a] || fixed[b] {
					continue
				}
				for _, j := range pi.partners[a] {
					if j != b && !fixed[j] {
						continue pairs
					}
				}
				fix := make([]int, 0, len(cur.Fixed))
				for _, i := range cur.Fixed {
					if i != a {
						fix = append(fix, i)
					}
				}
				fix = append(fix, b)
				slices.Sort(fix)
				key := setKey(fix)
				if visited[key] {
					continue
				}
				visited[key] = true
				c, _, err := s.certify(ctx, inner, p, pi, prm, fix, cur.X, nil)
				out.rec.Explored++
				if err != nil {
					// The branch's start is out of the functions' domain
					// (an evaluation error there), say: not a candidate.
					continue
				}
				out.rec.Solves = append(out.rec.Solves, BranchSolve{Fixed: len(fix), Freed: 1, Status: c.NLPStatus,
					Iterations: c.Iterations, Objective: c.Objective, Violation: c.Violation, Class: c.Class, Elapsed: c.Elapsed})
				if set := s.Settings; set.Log != nil {
					fmt.Fprintf(set.Log, "%4s %10s %10s %10s %14.7e %16v %5d %10v fixed %d, x%d freed for x%d, violation %.1e, class %v\n",
						"exp", "0", "0", "-", c.Objective, c.NLPStatus, c.Iterations, c.Elapsed.Round(time.Microsecond),
						len(fix), a, b, c.Violation, c.Class)
				}
				if ctx.Err() != nil {
					return
				}
				if !c.Class.B() || !(c.Objective < cur.Objective-exploreGain*math.Max(1, math.Abs(cur.Objective))) ||
					(best != nil && !(c.Objective < best.Objective)) {
					continue
				}
				if comp, _ := p.Residuals(c.X, xL); comp <= prm.compTol {
					best = c
				}
			}
		}
		if best == nil {
			return
		}
		out.final = best
		out.rec.Improvements++
	}
}
