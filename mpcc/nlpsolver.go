package mpcc

import (
	"context"
	"errors"

	"github.com/fesd-go/fesd/nlp"
)

// NLPSolver adapts nlp.Solver to InnerSolver. A warm start becomes
// Settings.WarmStart, and its MuInit (if > 0) replaces Settings.MuInit.
// The relaxed NLPs go through one nlp.Workspace, so their KKT pattern,
// ordering and symbolic factorization are analysed once per homotopy; the
// tightened and branch NLPs of the certificate and finish, which have
// another structure, go through a second one. The tightened NLPs are
// solved with nlp.PivotingLDL when Settings.LinearSolver is the default
// SparseLDL (and NewLinearSolver is nil): fixing one side of every pair
// leaves them degenerate, and with the pivot-free factorization the
// inertia correction then perturbs the Hessian in every iteration.
// Measured on the first branch NLP of bench/ocp's motor (1 345 free
// variables, 1 295 rows): IterationLimit at 50 with SparseLDL, δ_w between
// 1e-6 and 1e-4 in every iteration and the dual infeasibility stalled near
// 1e-3; solved in 24 iterations with PivotingLDL (IPOPT with MUMPS: 12,
// without a perturbation). Each NLP starts with the
// nlp.Result.Degeneracy of the previous one of its kind in the same
// homotopy (nlp.Settings.Degeneracy). An NLPSolver must not be used by several
// solves at once.
type NLPSolver struct {
	Settings nlp.Settings
	// Observe, if not nil, is called with the nlp.Result of every solve (a
	// retried NLP: of both attempts), for statistics such as bench's
	// factorization counts and timings.
	Observe func(*nlp.Result)
	ws      nlp.Workspace
	wsTight nlp.Workspace
	// switched: the relaxed NLPs start with policy instead of
	// Settings.Inertia (the policy of the last successful retry in this
	// homotopy; newHomotopy clears it at the start of every homotopy).
	switched bool
	policy   nlp.InertiaPolicy
	// degeneracy is the last relaxed NLP's Result.Degeneracy, assumed
	// by the next one (nlp.Settings.Degeneracy); degTight the same for the
	// tightened NLPs.
	degeneracy, degTight nlp.Degeneracy
}

var _ InnerSolver = (*NLPSolver)(nil)

// DefaultNLPSettings returns the inner-solver settings of nosnoc (the IPOPT
// options set in +nosnoc/+reg_homotopy/Options.m): tolerances 1e-12 (tol,
// dual_inf_tol, compl_inf_tol), acceptable
// tolerance 1e-6, adaptive μ, no bound relaxation, at most 500 iterations.
func DefaultNLPSettings() nlp.Settings {
	return nlp.Settings{
		Tol:           1e-12,
		DualInfTol:    1e-12,
		ComplInfTol:   1e-12,
		AcceptableTol: 1e-6,
		MuStrategy:    nlp.MuAdaptive,
		NoBoundRelax:  true,
		MaxIter:       500,
		// No watchdog (nlp's default is IPOPT's trigger 10): with it two
		// FESD simulations of package fesd's tests end at another
		// switching structure or fail, and on the relaxed NLPs of
		// bench/ocp it did not pay (measured before the early active-set
		// finish: motor 959 against 1 049 iterations, car 656 against 584,
		// sliding-mode OCP 239 against 257).
		WatchdogTrigger: -1,
		// Warm starts (every homotopy step after the first, the branch
		// NLPs of a predicted FESD step, the finish) keep the previous
		// point: variables within 1e-6 of a bound and bound multipliers
		// of at least 1e-6, not IPOPT's 1e-3 (warm_start_bound_push,
		// warm_start_mult_bound_push), which moves a variable at 0 of a
		// complementarity pair to 1e-3 and so re-centres the iterate
		// away from a relaxed point with σ < 1e-3. Measured (NLP
		// iterations, 1e-3 → 1e-6): examples/irma 1 817 → 1 412 (same
		// 36 switches, x(1000) to 8.5e-7), examples/friction 939 → 792
		// (same 22 switches and errors), bench/ocp's quick rows 680 →
		// 656 in total.
		WarmStartBoundPush: 1e-6,
		WarmStartMultPush:  1e-6,
	}
}

// SolveNLP implements InnerSolver. A relaxed NLP whose solve ends in
// IterationLimit with nlp.InertiaDefault or nlp.InertiaStrict is solved
// once more from the same start with the other of the two policies and a
// fifth of the iteration limit (its iterations are added to Iterations).
// If that succeeds, its result is returned, and the following relaxed NLPs
// start with that policy until a retry succeeds with the first one again;
// Solver resets the policy at the start of every homotopy (kept across
// the simulation steps of bench/ocp's three carts, InertiaStrict ended
// their σ ≤ 1e-9 NLPs in NumericalError). Neither policy dominates on
// relaxed MPCCs: with InertiaDefault the motor of bench/ocp stalls from
// σ = 1e-4 on (line searches cut to α ≈ 1e-3 between restoration phases)
// where InertiaStrict solves each relaxed NLP in 9–22 iterations; with
// InertiaStrict the Stewart cart-pole with a hard terminal constraint from
// rest (examples/cartpole) stalled at σ = 1e-6 (α ≈ 1/32, δ_w ≈ 1e-2)
// where InertiaDefault solved it. The tightened NLPs of the certificate
// and the finish are not retried. A solve stopped by ctx returns its
// InnerResult (Status nlp.Cancelled) together with nlp's error, which wraps
// ctx.Err(), and is not retried.
func (s *NLPSolver) SolveNLP(ctx context.Context, p nlp.Problem, start *WarmStart) (*InnerResult, error) {
	solver, ws, deg, tight := s.configure(p, start)
	res, cancelled, err := s.attempt(ctx, solver, ws, p)
	if cancelled {
		// Stopped by ctx: the partial result and nlp's error, which
		// wraps ctx.Err() (no retry, no degeneracy handed on).
		return innerResult(res, nil), err
	}
	if res == nil {
		return nil, err
	}
	if other, ok := otherPolicy(solver.Settings.Inertia); ok && !tight && err == nil && retryable(res.Status) && ctx.Err() == nil {
		solver.Settings.Inertia = other
		solver.Settings.MaxIter = retryMaxIter(solver.Settings.MaxIter)
		res2, cancelled, err2 := s.attempt(ctx, solver, ws, p)
		if cancelled {
			res2.Iterations += res.Iterations
			return innerResult(res2, nil), err2
		}
		if res2 == nil {
			return nil, err2
		}
		if res2.Status.Success() || err2 != nil {
			res2.Iterations += res.Iterations
			res, err = res2, err2
			s.switched, s.policy = true, other
		} else {
			res.Iterations += res2.Iterations
		}
	}
	if err == nil && res.Iterations > 0 {
		*deg = res.Degeneracy
	}
	// A callback error or a derivative mismatch comes with a result (status
	// UserStop or DerivativeMismatch): it goes up in InnerResult.Err.
	return innerResult(res, err), nil
}

// configure returns the nlp solver of p started at start, its workspace
// and the degeneracy found so far (those of the tightened NLPs, which
// also get the pivoting LDLᵀ instead of the sparse one, when tight; the
// relaxed NLPs get the inertia policy of the last successful retry).
func (s *NLPSolver) configure(p nlp.Problem, start *WarmStart) (solver *nlp.Solver, ws *nlp.Workspace, deg *nlp.Degeneracy, tight bool) {
	solver = &nlp.Solver{Settings: s.Settings}
	start.Apply(&solver.Settings)
	ws = &s.ws
	_, tight = p.(interface{ tightened() })
	deg = &s.degeneracy
	if tight {
		ws, deg = &s.wsTight, &s.degTight
		if solver.Settings.LinearSolver == nlp.SparseLDL && solver.Settings.NewLinearSolver == nil {
			solver.Settings.LinearSolver = nlp.PivotingLDL
		}
	} else if s.switched {
		solver.Settings.Inertia = s.policy
	}
	d := &solver.Settings.Degeneracy
	d.Jacobian = d.Jacobian || deg.Jacobian
	d.Hessian = d.Hessian || deg.Hessian
	return solver, ws, deg, tight
}

// attempt solves p with solver in ws and hands the result to Observe.
// cancelled: ctx stopped the solve (res is its partial result, err wraps
// ctx.Err()). Otherwise res is nil when the solve could not run (err says
// why), and err is nil or a Problem error (nlp.ErrCallback,
// nlp.ErrDerivatives) that comes with res.
func (s *NLPSolver) attempt(ctx context.Context, solver *nlp.Solver, ws *nlp.Workspace, p nlp.Problem) (res *nlp.Result, cancelled bool, err error) {
	res, err = solver.SolveIn(ctx, ws, p)
	if err != nil && res != nil && res.Status == nlp.Cancelled {
		if s.Observe != nil {
			s.Observe(res)
		}
		return res, true, err
	}
	if err != nil && (res == nil || !(errors.Is(err, nlp.ErrCallback) || errors.Is(err, nlp.ErrDerivatives))) {
		return nil, false, err
	}
	if s.Observe != nil {
		s.Observe(res)
	}
	return res, false, err
}

// innerResult is the InnerResult of an nlp.Result, with Err set to err.
func innerResult(res *nlp.Result, err error) *InnerResult {
	return &InnerResult{
		Status:     res.Status,
		X:          res.X,
		Y:          res.Y,
		ZL:         res.ZL,
		ZU:         res.ZU,
		Iterations: res.Iterations,
		Err:        err,
	}
}

// otherPolicy is the inertia policy of the retry after a failed solve.
func otherPolicy(p nlp.InertiaPolicy) (nlp.InertiaPolicy, bool) {
	switch p {
	case nlp.InertiaStrict:
		return nlp.InertiaDefault, true
	case nlp.InertiaDefault:
		return nlp.InertiaStrict, true
	}
	return p, false
}

// retryable reports the status after which the other policy is tried: the
// iteration limit, where the line search stalled. Not a NumericalError:
// in the homotopies of examples/mpc those end the exact re-solves at
// tolerance 1e-12 at points as good as the inexact ones, and the retry
// only moves the point the certificate starts from.
func retryable(st nlp.Status) bool { return st == nlp.IterationLimit }

// retryMaxIter is the iteration limit of the retry: a fifth of the
// first attempt's (at least 50). The rescues measured take 10–20
// iterations (the motor of bench/ocp); when both policies stall (the
// monopod's relaxed NLPs at σ ≤ 1e-2) the retry then costs a fifth of a
// failed solve, not a second one.
func retryMaxIter(maxIter int) int {
	switch {
	case maxIter < 0:
		return maxIter
	case maxIter == 0:
		maxIter = 3000
	}
	return max(50, maxIter/5)
}
