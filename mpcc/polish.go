package mpcc

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/fesd-go/fesd/nlp"
)

// fixedNLP is the MPCC's NLP with some variables fixed at their lower bound
// (x_U,i = x_L,i) and a given start.
type fixedNLP struct {
	nlp.Problem
	fix   []int
	start []float64
}

func (f *fixedNLP) Bounds(xL, xU, gL, gU []float64) {
	f.Problem.Bounds(xL, xU, gL, gU)
	for _, i := range f.fix {
		xU[i] = xL[i]
	}
}

func (f *fixedNLP) Start(x0 []float64) { copy(x0, f.start) }

// activeSet returns, for every pair, the variable with the smaller gap
// x_i − x_L,i (the first one on ties), without repetitions.
func activeSet(p *Problem, x, xL []float64) []int {
	seen := map[int]bool{}
	var fix []int
	for _, c := range p.Comp {
		for _, pr := range c.Pairs {
			i := pr[0]
			if x[pr[1]]-xL[pr[1]] < x[pr[0]]-xL[pr[0]] {
				i = pr[1]
			}
			if !seen[i] {
				seen[i] = true
				fix = append(fix, i)
			}
		}
	}
	return fix
}

// polish solves the MPCC's NLP with the identified active set fixed and
// replaces the result if the polished point is accepted.
func (s *Solver) polish(ctx context.Context, inner InnerSolver, p *Problem, prm params, last *InnerResult, xL, xU []float64, res *Result) error {
	t0 := time.Now()
	n0, m0 := p.NLP.Dims()
	x := append([]float64(nil), last.X[:n0]...)
	fix := activeSet(p, x, xL)
	for _, i := range fix {
		x[i] = xL[i]
	}
	for i := range x {
		x[i] = math.Min(math.Max(x[i], xL[i]), xU[i])
	}
	fp := &fixedNLP{Problem: p.NLP, fix: fix, start: x}
	warm := &WarmStart{X: x, MuInit: math.Max(prm.warmMuMin, prm.warmMuFactor*res.Sigma)}
	if !s.Settings.ColdDuals && len(last.Y) >= m0 && len(last.ZL) >= n0 && len(last.ZU) >= n0 {
		warm.Y = append([]float64(nil), last.Y[:m0]...)
		warm.ZL = append([]float64(nil), last.ZL[:n0]...)
		warm.ZU = append([]float64(nil), last.ZU[:n0]...)
	}
	r, err := inner.SolveNLP(ctx, fp, warm)
	if err != nil {
		return fmt.Errorf("mpcc: polishing: %w", err)
	}
	if len(r.X) != n0 {
		return fmt.Errorf("%w: inner solver returned x of length %d, want %d", ErrDimension, len(r.X), n0)
	}
	ps := &PolishStep{Fixed: len(fix), Status: r.Status, Iterations: r.Iterations}
	ps.CompResidual, ps.NaturalResidual = p.Residuals(r.X, xL)
	if ps.Objective, err = p.NLP.Objective(r.X); err != nil {
		ps.Objective = math.NaN()
	}
	ps.Violation, err = nlp.Violation(fp, r.X)
	if err != nil {
		ps.Violation = math.Inf(1)
	}
	// Better: not worse in f (up to PolishTol) or, when the homotopy point
	// misses the complementarity tolerance, complementarity-feasible at all.
	better := ps.Objective <= res.Objective+prm.polishTol*math.Max(1, math.Abs(res.Objective)) ||
		(res.CompResidual > prm.compTol && ps.CompResidual <= prm.compTol)
	notWorse := ps.Objective <= res.Objective+prm.polishTol*math.Max(1, math.Abs(res.Objective))
	statusOK := r.Status.Success() ||
		(s.Settings.PolishAnyStatus && r.Status != nlp.Cancelled && finiteVec(r.X) && notWorse && ps.CompResidual <= prm.compTol)
	ps.Accepted = statusOK && ps.Violation <= prm.polishFeas && better &&
		ps.CompResidual <= math.Max(res.CompResidual, prm.compTol)
	ps.Elapsed = time.Since(t0)
	res.Polish = ps
	if set := s.Settings; set.Log != nil {
		fmt.Fprintf(set.Log, "%4s %10s %10.3e %10.3e %14.7e %16v %5d %10v fixed %d, violation %.1e, accepted %v\n",
			"pol", "0", ps.CompResidual, ps.NaturalResidual, ps.Objective, ps.Status, ps.Iterations,
			ps.Elapsed.Round(time.Microsecond), ps.Fixed, ps.Violation, ps.Accepted)
	}
	if ps.Accepted {
		res.X = append(res.X[:0], r.X...)
		if len(r.Y) == m0 {
			res.Y = append(res.Y[:0], r.Y...)
		}
		res.Objective = ps.Objective
		res.CompResidual, res.NaturalResidual = ps.CompResidual, ps.NaturalResidual
		if res.CompResidual <= prm.compTol {
			res.Status = Solved
		}
	}
	return nil
}
