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
	// Solved: the last relaxed NLP (or the accepted polishing NLP) was
	// solved and the complementarity residual is at most CompTol.
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
}

// PolishStep records the polishing solve.
type PolishStep struct {
	// Fixed is the number of variables fixed at their lower bound.
	Fixed                         int
	Status                        nlp.Status
	Iterations                    int
	Objective                     float64
	CompResidual, NaturalResidual float64
	// Violation is the max-norm violation of the bounds and constraints.
	Violation float64
	Accepted  bool
	Elapsed   time.Duration
}

// Result is the outcome of Solver.Solve.
type Result struct {
	Status Status
	// X is the MPCC point (length n of Problem.NLP): the last relaxed
	// solution, or the polished one if accepted.
	X []float64
	// Y are the multipliers of the MPCC's constraints g (length m) from the
	// same solve.
	Y []float64
	// Objective is f(X).
	Objective float64
	// CompResidual and NaturalResidual are Problem.Residuals(X).
	CompResidual, NaturalResidual float64
	// Sigma is σ of the last relaxed NLP.
	Sigma float64
	// Steps has one record per relaxed NLP.
	Steps []HomotopyStep
	// Polish is nil unless Settings.Polish.
	Polish *PolishStep
	// LastSuccess is the point of the last relaxed NLP whose inner solve
	// succeeded (nil if none did). X is the last step's point even when
	// that step failed (as in nosnoc, so that a continuation starts where
	// the homotopy stopped); LastSuccess keeps the last stationary point of
	// a relaxed NLP, which after a failure at small σ can be far closer to
	// feasible than X (monopod Step N = 30: residual 9.7e-5 against 2.8).
	LastSuccess *StepPoint
	Elapsed     time.Duration
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
// if finite. The error is non-nil only when the homotopy could not run
// (invalid problem or settings, or an inner solver error).
func (s *Solver) Solve(ctx context.Context, p *Problem) (*Result, error) {
	t0 := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	if err := s.Settings.Validate(); err != nil {
		return nil, err
	}
	set := &s.Settings
	prm := set.resolve()
	inner := s.Inner
	if inner == nil {
		ns := DefaultNLPSettings()
		if set.NLP != nil {
			ns = *set.NLP
		}
		inner = &NLPSolver{Settings: ns}
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
	var warm *WarmStart
	var last *InnerResult
	failed, polished := false, false
	var rejectedPolish *InnerResult // the step point whose early polish was rejected
	sigma := prm.sigma0
	if set.Log != nil {
		fmt.Fprintf(set.Log, "mpcc: %v relaxation, %v steering, n = %d, m = %d, %d terms\n",
			set.Relaxation, set.Steering, n, m, len(p.Comp))
		fmt.Fprintf(set.Log, "%4s %10s %10s %10s %14s %16s %5s %10s\n",
			"step", "sigma", "comp_res", "nat_res", "objective", "nlp_status", "iter", "time")
	}
	for k := 0; k < prm.maxSteps; k++ {
		if err := ctx.Err(); err != nil {
			res.Status = Cancelled
			break
		}
		if err := q.SetSigma(sigma); err != nil {
			return nil, err
		}
		if warm != nil {
			warm.MuInit = math.Max(prm.warmMuMin, prm.warmMuFactor*sigma)
			if err := q.SetStart(warm.X); err != nil {
				return nil, err
			}
		}
		ts := time.Now()
		r, err := inner.SolveNLP(ctx, q.Problem(), warm)
		if err != nil {
			return nil, fmt.Errorf("mpcc: homotopy step %d (σ = %g): %w", k, sigma, err)
		}
		if len(r.X) != n {
			return nil, fmt.Errorf("%w: inner solver returned x of length %d, want %d", ErrDimension, len(r.X), n)
		}
		step := HomotopyStep{Sigma: sigma, Status: r.Status, Iterations: r.Iterations, Elapsed: time.Since(ts)}
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
		if r.Status == nlp.Cancelled || ctx.Err() != nil {
			res.Status = Cancelled
			break
		}
		if !failed && prm.within(step.CompResidual, sigma) {
			res.Status = Solved
			break
		}
		if set.Polish && set.PolishSigma > 0 && !failed && sigma <= set.PolishSigma {
			// Early polishing: an accepted polished point ends the homotopy.
			if err := s.fillResult(p, last, xL, res); err != nil {
				return nil, err
			}
			if err := s.polish(ctx, inner, p, prm, last, xL, xU, res); err != nil {
				return nil, err
			}
			if res.Polish.Accepted && res.CompResidual <= prm.compTol {
				res.Status = Solved
				polished = true
				break
			}
			if !res.Polish.Accepted {
				rejectedPolish = last
			}
		}
		if sigma <= prm.sigmaN {
			res.Status = SigmaLimit
			break
		}
		sigma = set.next(prm, sigma)
	}
	if failed && res.Status != Cancelled {
		res.Status = NLPFailure
	}
	if last != nil && !polished {
		if err := s.fillResult(p, last, xL, res); err != nil {
			return nil, err
		}
	}
	// The final polish, unless it already ran (and was rejected) from
	// the same point: it would repeat that solve.
	if set.Polish && last != nil && res.Status != Cancelled && !polished && last != rejectedPolish {
		if err := s.polish(ctx, inner, p, prm, last, xL, xU, res); err != nil {
			return nil, err
		}
	}
	res.Elapsed = time.Since(t0)
	if set.Log != nil {
		fmt.Fprintf(set.Log, "mpcc: %v after %d steps, σ = %.3e, comp_res = %.3e, objective = %.10e, %v\n",
			res.Status, len(res.Steps), res.Sigma, res.CompResidual, res.Objective, res.Elapsed.Round(time.Microsecond))
	}
	return res, nil
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
