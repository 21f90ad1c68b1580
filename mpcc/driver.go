package mpcc

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/fesd-go/fesd/nlp"
)

// homotopy is one run of Solver.solve: the relaxed NLP, the state handed
// from one homotopy step to the next and the result being built. Its
// methods are the parts of the driver, in the order they run:
//
//	newHomotopy      settings, relaxed NLP, bounds, log header
//	step             one homotopy step:
//	  solveRelaxed     the relaxed NLP at σ_k (tolerance, warm start, inner solve)
//	  record           its HomotopyStep
//	  handOn           failed or not; the point the next step starts from
//	  advance          the σ schedule: stop, re-solve exactly, early finish, σ_{k+1}
//	end              the result's point, certificate and active-set finish
type homotopy struct {
	s     *Solver
	set   *Settings
	prm   params
	inner InnerSolver
	p     *Problem
	q     *Relaxed
	pi    *pairInfo
	// xL are the lower bounds of the MPCC's variables (length n0); n0 is
	// the MPCC's dimension, n and m the relaxed NLP's.
	xL       []float64
	n0, n, m int
	t0       time.Time
	res      *Result

	// sigma is σ of the current step.
	sigma float64
	// warm starts the next relaxed NLP (nil: the NLP's start).
	warm *WarmStart
	// last is the inner result whose point the homotopy stands at.
	last *InnerResult
	// failed: the last step's relaxed NLP failed; finished: an early
	// finish was accepted.
	failed, finished bool
	// consecutive relaxed NLPs that ended nlp.Infeasible; infeasibility
	// of an outer relaxation is infeasibility of the MPCC (Infeasible)
	infeasible int
	outer      bool
	stopErr    error // a Problem error from a relaxed step
	// The last early finish that was not accepted, and the point it
	// started from.
	rejected     *finishOutcome
	rejectedFrom *InnerResult
	// exact is set when a step solved to the inexact tolerance met
	// CompTol: the same σ is solved again to the inner solver's own
	// tolerance (an extra step beyond MaxSteps) before the homotopy ends.
	exact       bool
	extra       int
	inexactLast *InnerResult
	inexactWarm *WarmStart
}

// newHomotopy validates the settings, builds the relaxed NLP of p at σ₀
// and checks the start (nil: the NLP's own).
func (s *Solver) newHomotopy(p *Problem, start *WarmStart) (*homotopy, error) {
	t0 := time.Now()
	if err := s.Settings.Validate(); err != nil {
		return nil, err
	}
	set := &s.Settings
	prm := s.params()
	inner := s.inner()
	if ns, ok := inner.(*NLPSolver); ok {
		// The policy of a retry and the degeneracy found hold within one
		// homotopy: a homotopy's result does not depend on earlier ones.
		ns.switched, ns.degeneracy, ns.degTight = false, nlp.Degeneracy{}, nlp.Degeneracy{}
	}
	q, err := NewRelaxedScaled(p, set.Relaxation, set.Steering, set.PenaltyScaling, prm.sigma0)
	if err != nil {
		return nil, err
	}
	n0, m0 := p.NLP.Dims()
	n, m := q.Dims()
	xL, xU := make([]float64, n0), make([]float64, n0)
	p.NLP.Bounds(xL, xU, make([]float64, m0), make([]float64, m0))

	if start != nil && (len(start.X) != n || start.Y != nil && len(start.Y) != m) {
		return nil, fmt.Errorf("%w: start of length (%d, %d), the relaxed NLP has (%d, %d)", ErrDimension, len(start.X), len(start.Y), n, m)
	}
	h := &homotopy{s: s, set: set, prm: prm, inner: inner, p: p, q: q, xL: xL, n0: n0, n: n, m: m, t0: t0,
		res: &Result{Status: MaxSteps}, warm: start, sigma: prm.sigma0,
		outer: set.Steering == Direct && set.Relaxation.Outer()}
	h.pi = newPairInfo(p, n0)
	if set.Log != nil {
		fmt.Fprintf(set.Log, "mpcc: %v relaxation, %v steering, n = %d, m = %d, %d terms\n",
			set.Relaxation, set.Steering, n, m, len(p.Comp))
		fmt.Fprintf(set.Log, "%4s %10s %10s %10s %14s %16s %5s %10s\n",
			"step", "sigma", "comp_res", "nat_res", "objective", "nlp_status", "iter", "time")
	}
	return h, nil
}

// step runs homotopy step k at h.sigma. stop ends the homotopy (its status
// set in h.res); otherwise h.sigma is that of the next step. An error
// means that the homotopy cannot go on (no result).
func (h *homotopy) step(ctx context.Context, k int) (stop bool, err error) {
	if err := ctx.Err(); err != nil {
		h.res.Status = Cancelled
		return true, nil
	}
	r, step, stopped, err := h.solveRelaxed(ctx, k)
	if err != nil {
		return false, err
	}
	step = h.record(k, r, step)
	if h.handOn(r, step) {
		return true, nil
	}
	return h.advance(ctx, k, r, step, stopped)
}

// solveRelaxed solves the relaxed NLP at σ = h.sigma from h.warm, to the
// inexact tolerance InexactFactor·σ until a step met CompTol (then to the
// inner solver's own). step holds the solve's σ, status, iterations, time
// and tolerance; stopped reports a solve that ctx ended.
func (h *homotopy) solveRelaxed(ctx context.Context, k int) (r *InnerResult, step HomotopyStep, stopped bool, err error) {
	sigma, prm := h.sigma, h.prm
	if err := h.q.SetSigma(sigma); err != nil {
		return nil, step, false, err
	}
	tolK := 0.0
	if prm.inexact > 0 && !h.exact && len(h.p.Comp) > 0 {
		tolK = prm.inexact * sigma
	}
	if h.warm == nil && tolK > 0 {
		h.warm = &WarmStart{}
	}
	if h.warm != nil {
		h.warm.Tol = tolK
	}
	if h.warm != nil && h.warm.X != nil {
		h.warm.MuInit = math.Max(warmMuMin, warmMuFactor*sigma)
		if err := h.q.SetStart(h.warm.X); err != nil {
			return nil, step, false, err
		}
	}
	warm := h.warm
	if h.set.ColdRestart && warm != nil && warm.X != nil && k > 0 {
		// A cold start from the point just set as the NLP's start: no
		// primal-dual warm start, the inner solver's own μ₀ and push.
		warm = &WarmStart{Tol: warm.Tol, MaxIter: warm.MaxIter}
	}
	ts := time.Now()
	r, err = h.inner.SolveNLP(ctx, h.q.Problem(), warm)
	stopped = stoppedByContext(r, err)
	if err != nil && !stopped {
		return nil, step, false, fmt.Errorf("mpcc: homotopy step %d (σ = %g): %w", k, sigma, err)
	}
	if len(r.X) != h.n {
		return nil, step, false, fmt.Errorf("%w: inner solver returned x of length %d, want %d", ErrDimension, len(r.X), h.n)
	}
	step = HomotopyStep{Sigma: sigma, Status: r.Status, Iterations: r.Iterations, Elapsed: time.Since(ts), Tol: tolK}
	return r, step, stopped, nil
}

// record completes step with the residuals and objective at r.X, appends
// it to the result's steps and logs it.
func (h *homotopy) record(k int, r *InnerResult, step HomotopyStep) HomotopyStep {
	var err error
	step.CompResidual, step.NaturalResidual = h.p.Residuals(r.X, h.xL)
	if step.Objective, err = h.p.NLP.Objective(r.X[:h.n0]); err != nil {
		step.Objective = math.NaN()
	}
	h.res.Steps = append(h.res.Steps, step)
	h.res.Sigma = step.Sigma
	if log := h.set.Log; log != nil {
		fmt.Fprintf(log, "%4d %10.3e %10.3e %10.3e %14.7e %16v %5d %10v\n", k, step.Sigma,
			step.CompResidual, step.NaturalResidual, step.Objective, step.Status, step.Iterations,
			step.Elapsed.Round(time.Microsecond))
	}
	return step
}

// stepFailed reports whether the step's relaxed NLP failed.
func (h *homotopy) stepFailed(r *InnerResult, step HomotopyStep) bool {
	failed := !r.Status.Success()
	if failed && numericalEnd(r.Status) && r.Err == nil && len(h.p.Comp) > 0 && h.prm.within(step.CompResidual, step.Sigma) &&
		finiteVec(r.X) && feasibleEnd(h.p.NLP, r.X[:h.n0]) {
		// The relaxed NLP ended without converging (NumericalError,
		// or Infeasible at a violation of rounding size) at a point
		// that meets CompTol and the MPCC's
		// constraints to finishFeasTol: that point is the result a
		// converged solve would give to these tolerances (bench/ocp's
		// three carts: the σ = 1e-10 NLPs of a simulation step, at
		// residual 8e-11 and violation 1.6e-9).
		failed = false
	}
	return failed
}

// handOn sets h.failed from the step's solve r and the point the next step
// starts from (h.last, h.warm), and keeps the last successful point. done
// reports that the exact re-solve failed: the homotopy ends Solved at the
// inexact step's point.
func (h *homotopy) handOn(r *InnerResult, step HomotopyStep) (done bool) {
	res := h.res
	h.failed = h.stepFailed(r, step)
	if h.exact && h.failed && h.inexactLast != nil {
		// The exact re-solve failed (its tolerance out of reach, say):
		// the inexact step's point, which met CompTol, is the result.
		h.last, h.warm, h.failed = h.inexactLast, h.inexactWarm, false
		res.Status = Solved
		return true
	}
	if !h.failed {
		res.LastSuccess = &StepPoint{Step: len(res.Steps) - 1, X: append([]float64(nil), r.X[:h.n0]...),
			Objective: step.Objective, CompResidual: step.CompResidual, NaturalResidual: step.NaturalResidual}
	}
	if !h.failed || h.last == nil || finiteVec(r.X) {
		h.last = r
		// Duals are handed on only when all are finite: a failed inner
		// solve may end with finite x but diverged multipliers.
		h.warm = primalDual(r, h.n, h.m, !h.set.ColdDuals)
	}
	return false
}

// primalDual returns the point of r as a WarmStart: x, and with duals its
// multipliers when all have their full lengths (n, m) and are finite.
func primalDual(r *InnerResult, n, m int, duals bool) *WarmStart {
	w := &WarmStart{X: append([]float64(nil), r.X...)}
	if duals && len(r.Y) == m && len(r.ZL) == n && len(r.ZU) == n &&
		finiteVec(r.Y) && finiteVec(r.ZL) && finiteVec(r.ZU) {
		w.Y = append([]float64(nil), r.Y...)
		w.ZL = append([]float64(nil), r.ZL...)
		w.ZU = append([]float64(nil), r.ZU...)
	}
	return w
}

// advance is the σ schedule after step k (solve r, stopped by ctx if
// stopped): it ends the homotopy (cancelled, a Problem error, infeasible,
// solved, an accepted early finish, σ_N reached), repeats σ for the exact
// re-solve, or moves h.sigma to σ_{k+1}.
func (h *homotopy) advance(ctx context.Context, k int, r *InnerResult, step HomotopyStep, stopped bool) (stop bool, err error) {
	res, prm, sigma := h.res, h.prm, h.sigma
	if r.Status == nlp.Cancelled || stopped || ctx.Err() != nil {
		res.Status = Cancelled
		return true, nil
	}
	if r.Err != nil {
		// The Problem could not be evaluated (or its derivatives are
		// wrong): no later step can do better.
		h.stopErr = fmt.Errorf("mpcc: homotopy step %d (σ = %g): %w", k, sigma, r.Err)
		return true, nil
	}
	if r.Status == nlp.Infeasible && farFromMPCC(h.p.NLP, r.X[:h.n0], step.CompResidual, prm) {
		h.infeasible++
	} else {
		h.infeasible = 0
	}
	if h.outer && h.infeasible >= 2 {
		res.Status = Infeasible
		return true, nil
	}
	if !h.failed && prm.within(step.CompResidual, sigma) {
		if step.Tol > 0 && step.Tol > innerTol(h.inner) {
			h.exact = true
			h.extra++
			h.inexactLast, h.inexactWarm = h.last, h.warm
			return false, nil
		}
		res.Status = Solved
		return true, nil
	}
	if h.earlyFinishDue() {
		if done, err := h.earlyFinish(ctx, r); done || err != nil {
			return done, err
		}
	}
	if sigma <= prm.sigmaN {
		res.Status = SigmaLimit
		return true, nil
	}
	h.sigma = h.set.next(prm, sigma)
	return false, nil
}

// earlyFinishDue reports whether the active-set finish is tried after the
// current (successful) step: σ ≤ FinishSigma up to rounding (σ = 0.1⁴
// computed by the updates is 1.0000000000000002e-4).
func (h *homotopy) earlyFinishDue() bool {
	prm := h.prm
	return prm.finish == ActiveSetFinish && prm.finishSigma > 0 && !h.failed && h.sigma <= prm.finishSigma*(1+1e-9) && len(h.p.Comp) > 0
}

// earlyFinish runs the active-set finish from the step's point r: a
// certified point ends the homotopy (done). An attempt from the same
// identified active set as the last rejected one is skipped.
func (h *homotopy) earlyFinish(ctx context.Context, r *InnerResult) (done bool, err error) {
	prm := h.prm
	key := setKey(h.pi.identify(r.X[:h.n0], h.xL, prm.activeTol))
	if h.rejected != nil && key == h.rejected.fixKey {
		return false, nil
	}
	// An early attempt is speculative: its branch NLPs get a
	// quarter of DefaultFinishMaxIter (the certified ones take 4–28
	// iterations on bench/ocp; the motor's rejected one ran
	// into the full 200).
	early := prm
	early.finishMaxIter = max(1, prm.finishMaxIter/4)
	o, err := h.s.finish(ctx, h.inner, h.p, h.pi, early, h.last, h.sigma, h.xL, prm.finish)
	if err != nil {
		return false, err
	}
	h.res.FinishIterations += o.rec.Iterations()
	if o.accepted {
		o.apply(h.p, prm, h.xL, h.res)
		h.finished = true
		return true, nil
	}
	h.rejected, h.rejectedFrom = o, h.last
	return false, nil
}

// end completes the result after the last step: status, point, the
// certificate and finish, and the error that comes with it.
func (h *homotopy) end(ctx context.Context) (*Result, error) {
	res := h.res
	if h.failed && res.Status != Cancelled && res.Status != Infeasible {
		res.Status = NLPFailure
	}
	if h.last != nil {
		res.Point = primalDual(h.last, h.n, h.m, true)
	}
	if h.last != nil && !h.finished {
		if err := h.s.fillResult(h.p, h.last, h.xL, res); err != nil {
			return nil, err
		}
	} else if h.last == nil && !h.finished {
		// No relaxed NLP ran (cancelled before the first): X is the
		// starting point, so that a caller can continue from it.
		var err error
		res.X = make([]float64, h.n0)
		h.p.NLP.Start(res.X)
		res.CompResidual, res.NaturalResidual = h.p.Residuals(res.X, h.xL)
		if res.Objective, err = h.p.NLP.Objective(res.X); err != nil {
			res.Objective = math.NaN()
		}
	}
	if err := h.certifyEnd(ctx); err != nil {
		return nil, err
	}
	if res.Status != Cancelled && ctx.Err() != nil && cutByContext(res) {
		// The homotopy ended, but ctx stopped an NLP of the certificate
		// or the finish: the result is partial.
		res.Status = Cancelled
	}
	res.Elapsed = time.Since(h.t0)
	if log := h.set.Log; log != nil {
		fmt.Fprintf(log, "mpcc: %v after %d steps, σ = %.3e, comp_res = %.3e, objective = %.10e, %v-stationary, %v\n",
			res.Status, len(res.Steps), res.Sigma, res.CompResidual, res.Objective, res.Stationarity, res.Elapsed.Round(time.Microsecond))
	}
	if res.Status == Cancelled {
		return res, cancelErr(ctx, res)
	}
	return res, h.stopErr
}

// certifyEnd sets the certificate of the homotopy's point and, with the
// active-set finish, runs the finish from it (unless an early finish was
// accepted, or was rejected from the same identified active set).
func (h *homotopy) certifyEnd(ctx context.Context) error {
	res, prm, last := h.res, h.prm, h.last
	switch {
	case h.finished:
	case res.Status == Cancelled || res.Status == Infeasible || last == nil:
		res.Certificate = &Certificate{Reason: "no certificate: " + res.Status.String()}
	case h.stopErr != nil:
		res.Certificate = &Certificate{Reason: "no certificate: " + h.stopErr.Error()}
	case prm.finish == NoCertificate:
		res.Certificate = &Certificate{Reason: "no certificate: Settings.Finish = " + NoCertificate.String()}
	case len(h.p.Comp) == 0:
		// Without complementarity terms the MPCC is its NLP: the relaxed
		// NLP was the NLP itself.
		res.Certificate = &Certificate{X: res.X, Y: res.Y, Objective: res.Objective, NLPStatus: last.Status,
			MinBiactiveNu: math.Inf(1)}
		if !h.failed {
			res.Certificate.Class = SStationary
		} else {
			res.Certificate.Reason = "the NLP ended " + last.Status.String()
		}
		res.Stationarity = res.Certificate.Class
	case last == h.rejectedFrom || (h.rejected != nil && setKey(h.pi.identify(last.X[:h.n0], h.xL, prm.activeTol)) == h.rejected.fixKey):
		// The early finish already ran (and was not accepted) from the
		// final point, or from a point with the same identified active
		// set: its branch NLP would be solved again (on the OCP MPCC of
		// bench at N = 200, 53 NLP iterations for the same rejection).
		h.rejected.apply(h.p, prm, h.xL, res)
	default:
		o, err := h.s.finish(ctx, h.inner, h.p, h.pi, prm, last, res.Sigma, h.xL, prm.finish)
		if err != nil {
			return err
		}
		res.FinishIterations += o.rec.Iterations()
		o.apply(h.p, prm, h.xL, res)
	}
	return nil
}
