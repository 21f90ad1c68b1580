package mpcc

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/fesd-go/fesd/nlp"
)

// Status is the outcome of a homotopy.
type Status int

const (
	// Solved: the last relaxed NLP (or the accepted active-set finish) was
	// solved and the complementarity residual is at most CompTol; or the
	// last relaxed NLP ended NumericalError or Infeasible at a point with
	// the residual at most CompTol and the constraints of the MPCC met to
	// 1e-8·max(1, ‖x‖∞) (its HomotopyStep keeps the inner status).
	Solved Status = iota
	// SigmaLimit: σ reached σ_N with the residual above CompTol.
	SigmaLimit
	// MaxSteps: Settings.MaxSteps NLPs were solved with the residual above
	// CompTol.
	MaxSteps
	// NLPFailure: the last relaxed NLP did not converge (nlp status not
	// Solved/SolvedAcceptable).
	NLPFailure
	// Cancelled: the context was cancelled.
	Cancelled
	// NotSolved: no homotopy ran; the result was evaluated at a given
	// point (for example fesd.OCPSolver.Evaluate of a saved solution).
	NotSolved
	// Infeasible: the MPCC is locally infeasible. Two consecutive relaxed
	// NLPs ended nlp.Infeasible (the inner solver's restoration phase
	// converged to a stationary point of the constraint violation) at
	// points far from MPCC-feasible (the NLP's constraints violated by more
	// than 1e-8·max(1, ‖x‖∞), or the complementarity residual above
	// ActiveTol²), with direct steering and a relaxation whose feasible set
	// contains the MPCC's (Relaxation.Outer), so no smaller σ can be
	// feasible near that point. The result is at the last infeasible
	// point.
	Infeasible
	numStatuses
)

var statusTable = [...]struct {
	name    string
	success bool
}{
	Solved:     {"Solved", true},
	SigmaLimit: {"SigmaLimit", false},
	MaxSteps:   {"MaxSteps", false},
	NLPFailure: {"NLPFailure", false},
	Cancelled:  {"Cancelled", false},
	NotSolved:  {"NotSolved", false},
	Infeasible: {"Infeasible", false},
}

func (s Status) String() string {
	if s < 0 || s >= numStatuses {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusTable[s].name
}

// Success reports whether the status is Solved.
func (s Status) Success() bool { return s >= 0 && s < numStatuses && statusTable[s].success }

// HomotopyStep records one relaxed NLP solve.
type HomotopyStep struct {
	Sigma float64
	// CompResidual and NaturalResidual are those of Problem.Residuals at
	// the step's solution.
	CompResidual, NaturalResidual float64
	// Objective is the MPCC objective f(x) (without penalty terms).
	Objective  float64
	Status     nlp.Status
	Iterations int
	Elapsed    time.Duration
	// Tol is the inexact tolerance the relaxed NLP was solved to
	// (Settings.InexactFactor), 0 for the inner solver's own; a step
	// with Tol = 0 after one with the same σ is the exact re-solve.
	Tol float64
}

// Result is the outcome of Solver.Solve.
type Result struct {
	Status Status
	// X is the MPCC point (length n of Problem.NLP): the last relaxed
	// solution, or the certified point of the active-set finish if it was
	// accepted (then the complementarity holds exactly), or the NLP's
	// starting point if the solve was cancelled before the first relaxed
	// NLP. It always has length n.
	X []float64
	// Y are the multipliers of the MPCC's constraints g (length m) from the
	// same solve (empty if no relaxed NLP ran).
	Y []float64
	// Objective is f(X).
	Objective float64
	// CompResidual and NaturalResidual are Problem.Residuals(X).
	CompResidual, NaturalResidual float64
	// Sigma is σ of the last relaxed NLP.
	Sigma float64
	// Steps has one record per relaxed NLP.
	Steps []HomotopyStep
	// Stationarity is the certified class of X: Certificate.Class when
	// Certificate.X is X (accepted finish) or within ActiveTol·max(1,
	// ‖X‖∞) of it, NotCertified otherwise.
	Stationarity Stationarity
	// Certificate is the certificate of the accepted finish point or, if
	// none, of the tightening of the homotopy point (never nil; with
	// NoCertificate or Cancelled it only carries the reason).
	Certificate *Certificate
	// Finish records the active-set finish (nil unless ActiveSetFinish;
	// with FinishSigma it is the last attempt).
	Finish *FinishRecord
	// FinishIterations are the NLP iterations of the certificate and of
	// every finish attempt, the rejected early ones (FinishSigma)
	// included; with Steps' iterations they are the solve's total.
	FinishIterations int
	// LastSuccess is the point of the last relaxed NLP whose inner solve
	// succeeded (nil if none did). X is the last step's point even when
	// that step failed (as in nosnoc, so that a continuation starts where
	// the homotopy stopped); LastSuccess keeps the last stationary point of
	// a relaxed NLP, which after a failure at small σ can be far closer to
	// feasible than X (monopod Step N = 30: residual 9.7e-5 against 2.8).
	LastSuccess *StepPoint
	// Point is the primal-dual point of the last relaxed NLP that ran (its
	// x, y, z_L and z_U, in the variables and constraints of the relaxed
	// NLP: Relaxed.Dims for the solver's Relaxation and Steering); the
	// multipliers are nil when they were not finite. Nil if no relaxed NLP
	// ran. SolveFrom starts a later solve from it (MapPoint carries it over
	// to a shifted problem).
	Point   *WarmStart
	Elapsed time.Duration
}

// StepPoint is the primal point of one homotopy step.
type StepPoint struct {
	// Step indexes Result.Steps.
	Step int
	// X is the MPCC point (length n of Problem.NLP).
	X []float64
	// Objective is f(X); CompResidual and NaturalResidual are
	// Problem.Residuals(X) (the step's record in Result.Steps).
	Objective                     float64
	CompResidual, NaturalResidual float64
}

// Solver runs the relaxation homotopy.
type Solver struct {
	Settings Settings
	// Inner solves the NLPs; nil means &NLPSolver{Settings: *Settings.NLP}
	// or DefaultNLPSettings().
	Inner InnerSolver
}

func finiteVec(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// Solve runs the homotopy on p:
//
//	σ ← σ₀; x ← start
//	repeat: solve the relaxed NLP(σ) warm-started at the previous primal-dual
//	        solution; record the step;
//	        stop if the NLP succeeded and CompResidual ≤ CompTol (Solved),
//	        if σ ≤ σ_N, or after MaxSteps solves; σ ← update(σ).
//
// A failed NLP does not stop the loop (as in nosnoc); its point is passed on
// if finite. The error is non-nil when the homotopy could not run (invalid
// problem or settings, or an inner solver error; the result is then nil),
// and when a relaxed NLP stopped because of the Problem (InnerResult.Err: a
// callback error, wrapping nlp.ErrCallback and the callback's error, or a
// derivative mismatch, wrapping nlp.ErrDerivatives): the homotopy then ends
// at that step with status NLPFailure and the error comes with the result
// (X from the last finite point, no certificate), as nlp.Solver does. A
// homotopy stopped by ctx returns its partial result with Status Cancelled
// and an error wrapping ctx.Err() (see the package documentation,
// "Cancellation").
func (s *Solver) Solve(ctx context.Context, p *Problem) (*Result, error) {
	return s.solve(ctx, p, nil)
}

// SolveFrom is Solve with the first relaxed NLP started from the
// primal-dual point start instead of the NLP's start: start.X is a point of
// the relaxed NLP (length n of Relaxed.Dims for s.Settings' Relaxation and
// Steering), start.Y, ZL and ZU its multipliers (each nil or of full
// length; dropped with ColdDuals), as in Result.Point. The first solve is
// then warm-started like every later homotopy step: its barrier parameter
// is μ₀ = max(WarmMuMin, WarmMuFactor·σ₀) (start.MuInit and MaxIter are
// not used). A nil start is Solve. Wrong lengths or non-finite values are
// an error.
func (s *Solver) SolveFrom(ctx context.Context, p *Problem, start *WarmStart) (*Result, error) {
	if start == nil {
		return s.solve(ctx, p, nil)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	n0, m0 := p.NLP.Dims()
	nSlack, nRows := relaxedExtra(p, s.Settings.Relaxation, s.Settings.Steering)
	n, m := n0+nSlack, m0+nRows
	for _, v := range []struct {
		name string
		x    []float64
		want int
		opt  bool
	}{{"X", start.X, n, false}, {"Y", start.Y, m, true}, {"ZL", start.ZL, n, true}, {"ZU", start.ZU, n, true}} {
		if v.x == nil && v.opt {
			continue
		}
		if len(v.x) != v.want {
			return nil, fmt.Errorf("%w: start %s has length %d, want %d", ErrDimension, v.name, len(v.x), v.want)
		}
		if !finiteVec(v.x) {
			return nil, fmt.Errorf("%w: start %s is not finite", ErrDimension, v.name)
		}
	}
	w := &WarmStart{X: append([]float64(nil), start.X...)}
	if !s.Settings.ColdDuals {
		w.Y = append([]float64(nil), start.Y...)
		w.ZL = append([]float64(nil), start.ZL...)
		w.ZU = append([]float64(nil), start.ZU...)
	}
	return s.solve(ctx, p, w)
}

// relaxedExtra returns the numbers of slacks and relaxation rows that the
// relaxed NLP of p adds for the relaxation r and steering st (zero
// values: the defaults), as Relaxed.Dims counts them.
func relaxedExtra(p *Problem, r Relaxation, st Steering) (nSlack, nRows int) {
	switch {
	case st == L1 && r.AllowsSums():
	case st == L1:
		nSlack = len(p.Comp)
	case st == LInf:
		nSlack = 1
	}
	if !(st == L1 && r.AllowsSums()) {
		nRows = len(p.Comp) * len(r.rows())
	}
	return nSlack, nRows
}

func (s *Solver) solve(ctx context.Context, p *Problem, start *WarmStart) (*Result, error) {
	t0 := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	if err := s.Settings.Validate(); err != nil {
		return nil, err
	}
	set := &s.Settings
	prm := set.resolve()
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

	res := &Result{Status: MaxSteps}
	warm := start
	if warm != nil && (len(warm.X) != n || warm.Y != nil && len(warm.Y) != m) {
		return nil, fmt.Errorf("%w: start of length (%d, %d), the relaxed NLP has (%d, %d)", ErrDimension, len(warm.X), len(warm.Y), n, m)
	}
	var last *InnerResult
	failed, finished := false, false
	// consecutive relaxed NLPs that ended nlp.Infeasible; infeasibility
	// of an outer relaxation is infeasibility of the MPCC (Infeasible)
	infeasible := 0
	outer := set.Steering == Direct && set.Relaxation.Outer()
	var stopErr error // a Problem error from a relaxed step
	pi := newPairInfo(p, n0)
	// The last early finish that was not accepted, and the point it
	// started from.
	var rejected *finishOutcome
	var rejectedFrom *InnerResult
	sigma := prm.sigma0
	if set.Log != nil {
		fmt.Fprintf(set.Log, "mpcc: %v relaxation, %v steering, n = %d, m = %d, %d terms\n",
			set.Relaxation, set.Steering, n, m, len(p.Comp))
		fmt.Fprintf(set.Log, "%4s %10s %10s %10s %14s %16s %5s %10s\n",
			"step", "sigma", "comp_res", "nat_res", "objective", "nlp_status", "iter", "time")
	}
	// exact is set when a step solved to the inexact tolerance met
	// CompTol: the same σ is solved again to the inner solver's own
	// tolerance (an extra step beyond MaxSteps) before the homotopy ends.
	exact, extra := false, 0
	var inexactLast *InnerResult
	var inexactWarm *WarmStart
	for k := 0; k < prm.maxSteps+extra; k++ {
		if err := ctx.Err(); err != nil {
			res.Status = Cancelled
			break
		}
		if err := q.SetSigma(sigma); err != nil {
			return nil, err
		}
		tolK := 0.0
		if prm.inexact > 0 && !exact && len(p.Comp) > 0 {
			tolK = prm.inexact * sigma
		}
		if warm == nil && tolK > 0 {
			warm = &WarmStart{}
		}
		if warm != nil {
			warm.Tol = tolK
		}
		if warm != nil && warm.X != nil {
			warm.MuInit = math.Max(prm.warmMuMin, prm.warmMuFactor*sigma)
			if err := q.SetStart(warm.X); err != nil {
				return nil, err
			}
		}
		ts := time.Now()
		r, err := inner.SolveNLP(ctx, q.Problem(), warm)
		stopped := stoppedByContext(r, err)
		if err != nil && !stopped {
			return nil, fmt.Errorf("mpcc: homotopy step %d (σ = %g): %w", k, sigma, err)
		}
		if len(r.X) != n {
			return nil, fmt.Errorf("%w: inner solver returned x of length %d, want %d", ErrDimension, len(r.X), n)
		}
		step := HomotopyStep{Sigma: sigma, Status: r.Status, Iterations: r.Iterations, Elapsed: time.Since(ts), Tol: tolK}
		step.CompResidual, step.NaturalResidual = p.Residuals(r.X, xL)
		if step.Objective, err = p.NLP.Objective(r.X[:n0]); err != nil {
			step.Objective = math.NaN()
		}
		res.Steps = append(res.Steps, step)
		res.Sigma = sigma
		if set.Log != nil {
			fmt.Fprintf(set.Log, "%4d %10.3e %10.3e %10.3e %14.7e %16v %5d %10v\n", k, sigma,
				step.CompResidual, step.NaturalResidual, step.Objective, step.Status, step.Iterations,
				step.Elapsed.Round(time.Microsecond))
		}
		failed = !r.Status.Success()
		if failed && numericalEnd(r.Status) && r.Err == nil && len(p.Comp) > 0 && prm.within(step.CompResidual, sigma) &&
			finiteVec(r.X) && feasibleEnd(p.NLP, r.X[:n0]) {
			// The relaxed NLP ended without converging (NumericalError,
			// or Infeasible at a violation of rounding size) at a point
			// that meets CompTol and the MPCC's
			// constraints to finishFeasTol: that point is the result a
			// converged solve would give to these tolerances (bench/ocp's
			// three carts: the σ = 1e-10 NLPs of a simulation step, at
			// residual 8e-11 and violation 1.6e-9).
			failed = false
		}
		if exact && failed && inexactLast != nil {
			// The exact re-solve failed (its tolerance out of reach, say):
			// the inexact step's point, which met CompTol, is the result.
			last, warm, failed = inexactLast, inexactWarm, false
			res.Status = Solved
			break
		}
		// With KeepLastSuccess a failed step that did not lower the
		// residual below the last successful one's is a dead end.
		keep := failed && set.KeepLastSuccess && res.LastSuccess != nil && !(step.CompResidual < res.LastSuccess.CompResidual)
		if !failed {
			res.LastSuccess = &StepPoint{Step: len(res.Steps) - 1, X: append([]float64(nil), r.X[:n0]...),
				Objective: step.Objective, CompResidual: step.CompResidual, NaturalResidual: step.NaturalResidual}
		}
		if !keep && (!failed || last == nil || finiteVec(r.X)) {
			last = r
			warm = &WarmStart{X: append([]float64(nil), r.X...)}
			// Duals are handed on only when all are finite: a failed inner
			// solve may end with finite x but diverged multipliers.
			if !set.ColdDuals && len(r.Y) == m && len(r.ZL) == n && len(r.ZU) == n &&
				finiteVec(r.Y) && finiteVec(r.ZL) && finiteVec(r.ZU) {
				warm.Y = append([]float64(nil), r.Y...)
				warm.ZL = append([]float64(nil), r.ZL...)
				warm.ZU = append([]float64(nil), r.ZU...)
			}
		}
		if r.Status == nlp.Cancelled || stopped || ctx.Err() != nil {
			res.Status = Cancelled
			break
		}
		if r.Err != nil {
			// The Problem could not be evaluated (or its derivatives are
			// wrong): no later step can do better.
			stopErr = fmt.Errorf("mpcc: homotopy step %d (σ = %g): %w", k, sigma, r.Err)
			break
		}
		if r.Status == nlp.Infeasible && farFromMPCC(p.NLP, r.X[:n0], step.CompResidual, prm) {
			infeasible++
		} else {
			infeasible = 0
		}
		if outer && infeasible >= 2 {
			res.Status = Infeasible
			break
		}
		if !failed && prm.within(step.CompResidual, sigma) {
			if tolK > 0 && tolK > innerTol(inner) {
				exact = true
				extra++
				inexactLast, inexactWarm = last, warm
				continue
			}
			res.Status = Solved
			break
		}
		// σ ≤ FinishSigma up to rounding: σ = 0.1⁴ computed by the updates
		// is 1.0000000000000002e-4.
		if prm.finish == ActiveSetFinish && prm.finishSigma > 0 && !failed && sigma <= prm.finishSigma*(1+1e-9) && len(p.Comp) > 0 {
			// Early finish: a certified point ends the homotopy. An attempt
			// from the same identified active set as the last rejected one
			// is skipped.
			key := setKey(pi.identify(r.X[:n0], xL, prm.activeTol))
			if rejected == nil || key != rejected.fixKey {
				// An early attempt is speculative: its branch NLPs get a
				// quarter of FinishMaxIter (the certified ones take 4–28
				// iterations on bench/ocp; the motor's rejected one ran
				// into the full 200).
				early := prm
				early.finishMaxIter = max(1, prm.finishMaxIter/4)
				o, err := s.finish(ctx, inner, p, pi, early, last, sigma, xL, prm.finish)
				if err != nil {
					return nil, err
				}
				res.FinishIterations += o.rec.Iterations()
				if o.accepted {
					o.apply(p, prm, xL, res)
					finished = true
					break
				}
				rejected, rejectedFrom = o, last
			}
		}
		if sigma <= prm.sigmaN {
			res.Status = SigmaLimit
			break
		}
		sigma = set.next(prm, sigma)
	}
	if failed && res.Status != Cancelled && res.Status != Infeasible {
		res.Status = NLPFailure
	}
	if last != nil {
		res.Point = &WarmStart{X: append([]float64(nil), last.X...)}
		if len(last.Y) == m && len(last.ZL) == n && len(last.ZU) == n &&
			finiteVec(last.Y) && finiteVec(last.ZL) && finiteVec(last.ZU) {
			res.Point.Y = append([]float64(nil), last.Y...)
			res.Point.ZL = append([]float64(nil), last.ZL...)
			res.Point.ZU = append([]float64(nil), last.ZU...)
		}
	}
	if last != nil && !finished {
		if err := s.fillResult(p, last, xL, res); err != nil {
			return nil, err
		}
	} else if last == nil && !finished {
		// No relaxed NLP ran (cancelled before the first): X is the
		// starting point, so that a caller can continue from it.
		res.X = make([]float64, n0)
		p.NLP.Start(res.X)
		res.CompResidual, res.NaturalResidual = p.Residuals(res.X, xL)
		if res.Objective, err = p.NLP.Objective(res.X); err != nil {
			res.Objective = math.NaN()
		}
	}
	switch {
	case finished:
	case res.Status == Cancelled || res.Status == Infeasible || last == nil:
		res.Certificate = &Certificate{Reason: "no certificate: " + res.Status.String()}
	case stopErr != nil:
		res.Certificate = &Certificate{Reason: "no certificate: " + stopErr.Error()}
	case prm.finish == NoCertificate:
		res.Certificate = &Certificate{Reason: "no certificate: Settings.Finish = " + NoCertificate.String()}
	case len(p.Comp) == 0:
		// Without complementarity terms the MPCC is its NLP: the relaxed
		// NLP was the NLP itself.
		res.Certificate = &Certificate{X: res.X, Y: res.Y, Objective: res.Objective, NLPStatus: last.Status,
			MinBiactiveNu: math.Inf(1)}
		if !failed {
			res.Certificate.Class = SStationary
		} else {
			res.Certificate.Reason = "the NLP ended " + last.Status.String()
		}
		res.Stationarity = res.Certificate.Class
	case last == rejectedFrom || (rejected != nil && setKey(pi.identify(last.X[:n0], xL, prm.activeTol)) == rejected.fixKey):
		// The early finish already ran (and was not accepted) from the
		// final point, or from a point with the same identified active
		// set: its branch NLP would be solved again (on the OCP MPCC of
		// bench at N = 200, 53 NLP iterations for the same rejection).
		rejected.apply(p, prm, xL, res)
	default:
		o, err := s.finish(ctx, inner, p, pi, prm, last, res.Sigma, xL, prm.finish)
		if err != nil {
			return nil, err
		}
		res.FinishIterations += o.rec.Iterations()
		o.apply(p, prm, xL, res)
	}
	if res.Status != Cancelled && ctx.Err() != nil && cutByContext(res) {
		// The homotopy ended, but ctx stopped an NLP of the certificate
		// or the finish: the result is partial.
		res.Status = Cancelled
	}
	res.Elapsed = time.Since(t0)
	if set.Log != nil {
		fmt.Fprintf(set.Log, "mpcc: %v after %d steps, σ = %.3e, comp_res = %.3e, objective = %.10e, %v-stationary, %v\n",
			res.Status, len(res.Steps), res.Sigma, res.CompResidual, res.Objective, res.Stationarity, res.Elapsed.Round(time.Microsecond))
	}
	if res.Status == Cancelled {
		return res, cancelErr(ctx, res)
	}
	return res, stopErr
}

// cutByContext reports whether an NLP of res's certificate or finish ended
// nlp.Cancelled.
func cutByContext(res *Result) bool {
	if c := res.Certificate; c != nil && c.NLPStatus == nlp.Cancelled {
		return true
	}
	if f := res.Finish; f != nil {
		for _, b := range f.Solves {
			if b.Status == nlp.Cancelled {
				return true
			}
		}
	}
	return false
}

// cancelErr is the error returned with a result of Status Cancelled: it
// wraps ctx.Err() (the rule of nlp.Solver.Solve and fesd).
func cancelErr(ctx context.Context, res *Result) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mpcc: homotopy cancelled after %d steps: %w", len(res.Steps), err)
	}
	// An inner solver reported Cancelled with ctx still live.
	return fmt.Errorf("mpcc: homotopy cancelled after %d steps by the inner solver", len(res.Steps))
}

// inner returns the inner solver: Solver.Inner, or an NLPSolver with
// Settings.NLP or DefaultNLPSettings().
func (s *Solver) inner() InnerSolver {
	if s.Inner != nil {
		return s.Inner
	}
	ns := DefaultNLPSettings()
	if s.Settings.NLP != nil {
		ns = *s.Settings.NLP
	}
	return &NLPSolver{Settings: ns}
}

// Certify certifies a point x of p (length n of p.NLP) without a
// homotopy: it fixes the pair variables within Settings.ActiveTol of their
// lower bound (and the smaller side of every other pair), solves the
// tightened NLP from x and classifies its solution, solving the LPEC when
// the multiplier signs do not decide (see the package documentation,
// "Certificate"). The certificate describes Certificate.X; its Distance to
// x says how far the point moved. The error means that the certificate
// could not run (invalid problem, settings or x, inner solver error).
func (s *Solver) Certify(ctx context.Context, p *Problem, x []float64) (*Certificate, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := s.Settings.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	n0, m0 := p.NLP.Dims()
	if len(x) != n0 {
		return nil, fmt.Errorf("%w: x has length %d, want %d", ErrDimension, len(x), n0)
	}
	if !finiteVec(x) {
		return nil, fmt.Errorf("%w: x is not finite", ErrDimension)
	}
	prm := s.Settings.resolve()
	xL := make([]float64, n0)
	p.NLP.Bounds(xL, make([]float64, n0), make([]float64, m0), make([]float64, m0))
	pi := newPairInfo(p, n0)
	c, _, err := s.certify(ctx, s.inner(), p, pi, prm, pi.identify(x, xL, prm.activeTol), x, nil)
	return c, err
}

// fillResult sets the point, multipliers, residuals and objective of res
// from the inner result last.
func (s *Solver) fillResult(p *Problem, last *InnerResult, xL []float64, res *Result) error {
	n0, m0 := p.NLP.Dims()
	res.X = append(res.X[:0], last.X[:n0]...)
	res.Y = res.Y[:0]
	if len(last.Y) >= m0 {
		res.Y = append(res.Y, last.Y[:m0]...)
	}
	res.CompResidual, res.NaturalResidual = p.Residuals(res.X, xL)
	var err error
	if res.Objective, err = p.NLP.Objective(res.X); err != nil {
		res.Objective = math.NaN()
	}
	return nil
}

// innerTol returns the tolerance of the default inner solver (0 for
// others, which then always get the re-solve of Settings.InexactFactor).
func innerTol(in InnerSolver) float64 {
	if s, ok := in.(*NLPSolver); ok {
		return s.Settings.Tol
	}
	return 0
}

// numericalEnd reports the inner statuses after which a point that meets
// the tolerances is kept (see Solved): a stall of the inner solver, not an
// iteration limit (far from a solution, possibly) nor a stop from outside.
func numericalEnd(st nlp.Status) bool { return st == nlp.NumericalError || st == nlp.Infeasible }

// feasibleEnd reports whether x meets the bounds and constraints of nl to
// finishFeasTol·max(1, ‖x‖∞), the tolerance of a certified point.
func feasibleEnd(nl nlp.Problem, x []float64) bool {
	v, err := nlp.Violation(nl, x)
	return err == nil && v <= finishFeasTol*math.Max(1, maxAbs(x))
}

// farFromMPCC reports whether an infeasible relaxed NLP's point x is
// evidence that the MPCC is infeasible: its own constraints violated
// beyond the tolerance of a certified point, or a complementarity residual
// above ActiveTol² (a pair with both members within ActiveTol counts as
// complementary in the certificate). A point that meets the constraints
// with a residual within that is a numerical failure of the relaxed NLP
// at a small σ, not evidence that no MPCC point is near.
func farFromMPCC(nl nlp.Problem, x []float64, comp float64, prm params) bool {
	return !feasibleEnd(nl, x) || comp > prm.activeTol*prm.activeTol
}
