package main

import (
	"context"
	"fmt"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/monopod"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// clsMaxIter is the iteration limit of a relaxed NLP of the FESD-J OCP
// (nosnoc's FESD-J examples: IPOPT's max_iter 1 000). A relaxed NLP that
// reaches it ends the step with IterationLimit and the homotopy goes on.
const clsMaxIter = 1000

// clsScholtesSteps is the number of relaxed NLPs of the first FESD-J
// homotopy: σ = 1, 0.1, …, 1e-5, down to the complementarity tolerance
// compTol; continueCLS goes on from its point.
const clsScholtesSteps = 6

// newCLSSolver builds the OCP of c without time freezing (-dcs fesdj):
// the robot as a complementarity Lagrangian system (monopod.NewCLS) with
// the paper's cost and bounds on (q, v) (Model.CLSOCP), transcribed by
// FESD-J, and the settings of its first homotopy: the Scholtes relaxation
// from σ₀ = 1 with κ = 0.1 (the paper's schedule) for clsScholtesSteps
// steps or until the complementarity residual is at most 1e-5, then
// FESD-J's active-set finish (fesd.CLSFinish); every relaxed NLP solved by
// package nlp to 1e-5 with threshold pivoting, cold duals and at most
// clsMaxIter iterations. continueCLS continues it. From σ₀ = 1e-3 (FESD-J
// simulation's fesd.CLSSigma0) the first relaxed NLP stays at the standing
// start (see the package doc); FESD-J OCPs default to σ₀ =
// fesd.CLSOCPSigma0 = 1, which this sets explicitly. -foot-ground and -terminal-tol add the same
// constraints as with time freezing (there is no Baumgarte gain to set:
// FESD-J keeps f_c ≥ 0 at every stage point and element boundary by
// itself).
func newCLSSolver(c config) (*fesd.OCPSolver, mpcc.Settings, *monopod.Model, error) {
	var set mpcc.Settings
	m, err := monopod.NewCLS()
	if err != nil {
		return nil, set, nil, err
	}
	p, opts, err := m.CLSOCP(c.Task, monopod.Discretization{})
	if err != nil {
		return nil, set, nil, err
	}
	c.addConstraints(p, m.Kin.Foot[1], m.CLS.X, c.Task.XTargetCLS())
	inner := monopod.NLPSettings(nlpTol, clsMaxIter)
	inner.LinearSolver = nlp.PivotingLDL
	set = mpcc.Settings{Sigma0: 1, Kappa: 0.1, CompTol: compTol, MaxSteps: clsScholtesSteps, ColdDuals: true, InexactFactor: -1, NLP: &inner, Log: c.Log}
	opts.MPCC, opts.Inner = set, c.inner
	s, err := fesd.NewOCPSolver(p, opts)
	if err != nil {
		return nil, set, nil, fmt.Errorf("monopod: building the FESD-J OCP: %w", err)
	}
	return s, set, m, nil
}

// continueCLS continues the FESD-J homotopy of s (settings set) that ended
// in r without reaching the tolerance: the same homotopy from σ = κ·σ_last
// on, started from r's primal-dual point — its multipliers included
// (fesd.Start.Warm), where the steps of one homotopy hand on the primal
// point only. The relaxed NLPs of the first homotopy end at their
// iteration limit or in a numerical error, and a step started from such a
// primal point with cold duals and μ₀ = 0.1σ can leave the path: at N = 30
// the step σ = 1e-6 of one uninterrupted homotopy went from the point at
// σ = 1e-5 (objective 14.0, 3 mm from the target) to objective 94 and the
// homotopy ended 7.7 cm from the target, where this continuation solved
// σ = 1e-6 in 626 iterations 3.3 mm from it; at N = 60, from a σ = 1e-5
// step at its iteration limit, the continuation left the path too
// (package doc). The result
// carries the records, iterations and time of both homotopies; r itself
// is returned when it is Solved or Invalid, has no step or ctx ended it.
func continueCLS(ctx context.Context, s *fesd.OCPSolver, set mpcc.Settings, r *fesd.OCPResult) (*fesd.OCPResult, error) {
	if r.Status == mpcc.Solved || r.Status == mpcc.Invalid || len(r.Homotopy) == 0 || ctx.Err() != nil {
		return r, nil
	}
	set.Sigma0, set.MaxSteps = set.Kappa*r.Homotopy[len(r.Homotopy)-1].Sigma, 0
	s2, err := s.WithHomotopy(set)
	if err != nil {
		return r, fmt.Errorf("monopod: FESD-J continuation: %w", err)
	}
	r2, err := s2.Solve(ctx, fesd.Start{Warm: r})
	if err != nil {
		return r, fmt.Errorf("monopod: FESD-J continuation: %w", err)
	}
	r2.Homotopy = append(append([]mpcc.HomotopyStep(nil), r.Homotopy...), r2.Homotopy...)
	r2.Iterations += r.Iterations
	r2.Elapsed += r.Elapsed
	return r2, nil
}
