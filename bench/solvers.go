package main

import (
	"context"

	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// backend is one side of the comparison: it solves an NLP, or builds the
// inner solver of an MPCC homotopy.
type backend interface {
	name() string
	solve(ctx context.Context, p nlp.Problem, set nlp.Settings) (*nlp.Result, error)
}

// untimedBackend is a backend that can drop expensive timing
// instrumentation (IPOPT's print_timing_statistics) for entries with many
// small NLPs.
type untimedBackend interface {
	untimed() backend
}

// native is nlp.Solver (a fresh solve each time: setup included) with
// the inertia policy inertia (the bench's -inertia flag) in place of the
// settings' one.
type native struct{ inertia nlp.InertiaPolicy }

func (native) name() string { return "native" }

func (n native) solve(ctx context.Context, p nlp.Problem, set nlp.Settings) (*nlp.Result, error) {
	set.Inertia = n.inertia
	return (&nlp.Solver{Settings: set}).Solve(ctx, p)
}

// timedInner is the inner solver of the MPCC homotopies: for the native
// backend mpcc.NLPSolver itself (the users' inner solver, with its workspace
// reuse and retries) with the bench's inertia policy, for the comparison
// backend an adapter that does what mpcc.NLPSolver does (warm start with
// multipliers, MuInit from the homotopy). It sums the iterations and
// timings of all inner solves.
type timedInner struct {
	b   backend
	set nlp.Settings
	// direct: the native backend solves every NLP with nlp.Solver once (no
	// retry with the other inertia policy), for rows whose iteration cap
	// is a measuring device (the monopod's first relaxed NLP).
	direct bool
	ws     nlp.Workspace
	ns     *mpcc.NLPSolver
	iters  int
	time   nlp.Timing
	fails  int
	facts  int // KKT factorizations (IPOPT: counted from its output)
}

var _ mpcc.InnerSolver = (*timedInner)(nil)

// add sums one nlp solve.
func (t *timedInner) add(res *nlp.Result) {
	t.iters += res.Iterations
	t.facts += res.Counts.Factorizations
	t.time.Total += res.Time.Total
	t.time.Setup += res.Time.Setup
	t.time.Evaluation += res.Time.Evaluation
	t.time.Factorization += res.Time.Factorization
	t.time.Solve += res.Time.Solve
}

func (t *timedInner) SolveNLP(ctx context.Context, p nlp.Problem, start *mpcc.WarmStart) (*mpcc.InnerResult, error) {
	if nb, ok := t.b.(native); ok && !t.direct {
		if t.ns == nil {
			set := t.set
			set.Inertia = nb.inertia
			t.ns = &mpcc.NLPSolver{Settings: set, Observe: t.add}
		}
		r, err := t.ns.SolveNLP(ctx, p, start)
		if err == nil && !r.Status.Success() {
			t.fails++
		}
		return r, err
	}
	set := t.set
	start.Apply(&set)
	var res *nlp.Result
	var err error
	if nb, ok := t.b.(native); ok {
		set.Inertia = nb.inertia
		res, err = (&nlp.Solver{Settings: set}).SolveIn(ctx, &t.ws, p)
	} else {
		res, err = t.b.solve(ctx, p, set)
	}
	// A solve stopped by ctx returns its result with an error wrapping
	// ctx.Err() (Status Cancelled), which goes up with the result, as
	// mpcc.InnerSolver asks.
	if err != nil && (res == nil || res.Status != nlp.Cancelled) {
		return nil, err
	}
	t.add(res)
	if !res.Status.Success() {
		t.fails++
	}
	return &mpcc.InnerResult{Status: res.Status, X: res.X, Y: res.Y, ZL: res.ZL, ZU: res.ZU, Iterations: res.Iterations}, err
}
