package main

import (
	"context"
	"time"

	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/linalg"
)

// backend is one side of the comparison: it solves an NLP, or builds the
// inner solver of an MPCC homotopy.
type backend interface {
	name() string
	solve(ctx context.Context, p nlp.Problem, set nlp.Settings) (*nlp.Result, error)
}

// native is nlp.Solver (a fresh solve each time: setup included).
type native struct{}

func (native) name() string { return "native" }

func (native) solve(ctx context.Context, p nlp.Problem, set nlp.Settings) (*nlp.Result, error) {
	return (&nlp.Solver{Settings: set}).Solve(ctx, p)
}

// timedInner adapts a backend to mpcc.InnerSolver exactly as
// mpcc.NLPSolver does (warm start with multipliers, MuInit from the
// homotopy) and sums the iterations and timings of all inner solves. For
// the native backend it reuses one nlp.Workspace, as mpcc.NLPSolver does.
type timedInner struct {
	b     backend
	set   nlp.Settings
	ws    nlp.Workspace
	iters int
	time  nlp.Timing
	fails int
}

var _ mpcc.InnerSolver = (*timedInner)(nil)

func (t *timedInner) SolveNLP(ctx context.Context, p nlp.Problem, start *mpcc.WarmStart) (*mpcc.InnerResult, error) {
	set := t.set
	if start != nil {
		set.WarmStart = &nlp.WarmStart{X: start.X, Y: start.Y, ZL: start.ZL, ZU: start.ZU}
		if start.MuInit > 0 {
			set.MuInit = start.MuInit
		}
	}
	var res *nlp.Result
	var err error
	if _, ok := t.b.(native); ok {
		res, err = (&nlp.Solver{Settings: set}).SolveIn(ctx, &t.ws, p)
	} else {
		res, err = t.b.solve(ctx, p, set)
	}
	if err != nil {
		return nil, err
	}
	t.iters += res.Iterations
	t.time.Total += res.Time.Total
	t.time.Setup += res.Time.Setup
	t.time.Evaluation += res.Time.Evaluation
	t.time.Factorization += res.Time.Factorization
	t.time.Solve += res.Time.Solve
	if !res.Status.Success() {
		t.fails++
	}
	return &mpcc.InnerResult{Status: res.Status, X: res.X, Y: res.Y, ZL: res.ZL, ZU: res.ZU, Iterations: res.Iterations}, nil
}

// timedLS wraps the native sparse LDLᵀ to time factorizations and solves
// where nlp.Result is out of reach (inside fesd.Simulate). It builds the
// backend exactly as nlp's default does (OrderBest with a stage order, else
// AMD), so the numbers are unchanged.
type timedLS struct {
	*linalg.Sparse
	fact, solve *time.Duration
}

func (l timedLS) Factorize(a *linalg.SymCSC, signs []int8) error {
	t := time.Now()
	err := l.Sparse.Factorize(a, signs)
	*l.fact += time.Since(t)
	return err
}

func (l timedLS) Solve(x, b []float64) error {
	t := time.Now()
	err := l.Sparse.Solve(x, b)
	*l.solve += time.Since(t)
	return err
}

// timedLinearSolver returns an nlp.Settings.NewLinearSolver that adds the
// factorization and solve times to fact and solve.
func timedLinearSolver(fact, solve *time.Duration) func(int, []int) (linalg.LinearSolver, error) {
	return func(_ int, perm []int) (linalg.LinearSolver, error) {
		ls := linalg.Settings{Ordering: linalg.OrderAMD}
		if perm != nil {
			ls.Ordering, ls.Perm = linalg.OrderBest, perm
		}
		s, err := linalg.NewSparse(ls)
		if err != nil {
			return nil, err
		}
		return timedLS{Sparse: s, fact: fact, solve: solve}, nil
	}
}
