package main

import (
	"context"
	"fmt"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/monopod"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// The monopod OCP of examples/monopod (004 §7.2 and nosnoc's
// examples/time_freezing/time_freezing_monoped_ocp/monoped_model.m; the
// model, task and OCP are internal/monopod's): two-link robot with one
// frictional contact at the foot, inelastic time freezing (μ = 0.8, a_n =
// 200), 3 m in T = 3 s, Radau IIA n_s = 2, N_FE = 3 per stage, FE_STAGE
// cross complementarity, one speed-of-time variable per stage in [0.99,
// 10], stage-wise clock constraint, the tracking cost of nosnoc's example,
// Scholtes σ₀ = 1, κ = 0.1, comp_tol 1e-5, inner tolerance 1e-5. Unlike
// examples/monopod it starts from the forward simulation (the paper's
// setting) and runs only the first relaxed NLPs up to an iteration cap:
// the bench compares the cost per iteration, not solves (a full solve
// takes minutes to hours; see examples/monopod).

// monopodOCP returns the OCP of 004 §7.2 with N stages and form, and its
// options with the homotopy cut to maxSteps relaxed NLPs. inner solves the
// NLPs.
func monopodOCP(n int, form dcs.Formulation, maxSteps int, inner mpcc.InnerSolver) (*fesd.OCP, fesd.Options, error) {
	m, err := monopod.New(form, 0)
	if err != nil {
		return nil, fesd.Options{}, err
	}
	p, opts, err := m.OCP(monopod.PaperTask(n), monopod.Discretization{})
	if err != nil {
		return nil, fesd.Options{}, err
	}
	opts.MPCC.MaxSteps = maxSteps
	// the row times the relaxed NLP alone: no certificate or finish after it
	opts.MPCC.Finish = mpcc.NoCertificate
	opts.Inner = inner
	return p, opts, nil
}

// switchInner forwards to cur: the OCP solver fixes its inner solver when
// it is built, the bench switches it between runs.
type switchInner struct{ cur mpcc.InnerSolver }

func (s *switchInner) SolveNLP(ctx context.Context, p nlp.Problem, start *mpcc.WarmStart) (*mpcc.InnerResult, error) {
	return s.cur.SolveNLP(ctx, p, start)
}

// monopodCase times the first maxSteps relaxed NLPs of the monopod
// homotopy (σ = 1, 0.1, …) with at most maxIter iterations each: a
// per-iteration comparison, not a solve. The OCP is built (tapes compiled)
// once, untimed, on the first run.
func monopodCase(n int, form dcs.Formulation, maxSteps, maxIter int) benchCase {
	sw := &switchInner{}
	var solver *fesd.OCPSolver
	c := benchCase{
		name: fmt.Sprintf("monopod N=%d %v, first relaxed NLP (σ=1), ≤%d it", n, form, maxIter),
		kind: "monopod", size: n, maxPairs: 1,
	}
	if maxSteps > 1 {
		c.name = fmt.Sprintf("monopod N=%d %v, first %d relaxed NLPs, ≤%d it each", n, form, maxSteps, maxIter)
	}
	c.prepare = func() (int, int, error) {
		p, opts, err := monopodOCP(n, form, maxSteps, sw)
		if err != nil {
			return 0, 0, err
		}
		if solver, err = fesd.NewOCPSolver(p, opts); err != nil {
			return 0, 0, fmt.Errorf("monopod: building the OCP: %w", err)
		}
		return solver.NumVariables(), solver.NumConstraints(), nil
	}
	c.release = func() { solver = nil }
	c.run = func(ctx context.Context, b backend) (sample, error) {
		if b == nil {
			b = native{}
		}
		in := &timedInner{b: b, set: monopod.NLPSettings(1e-5, maxIter), direct: true}
		sw.cur = in
		t0 := time.Now()
		r, err := solver.Solve(ctx, fesd.Start{})
		total := time.Since(t0)
		if err != nil {
			return sample{}, err
		}
		st := ""
		for i, h := range r.Homotopy {
			if i > 0 {
				st += ", "
			}
			st += fmt.Sprintf("σ=%.3g: %v (%d)", h.Sigma, h.Status, h.Iterations)
		}
		return sample{
			status: st, iters: in.iters, objective: r.Objective,
			total: total, setup: in.time.Setup,
			linalg: in.time.Factorization + in.time.Solve, eval: in.time.Evaluation,
			facts: in.facts,
		}, nil
	}
	return c
}
