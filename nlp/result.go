package nlp

import (
	"errors"
	"fmt"
	"time"
)

// Status is the numerical outcome of a solve.
type Status int

const (
	// Solved: the scaled optimality error is below Settings.Tol and the
	// absolute tolerances hold.
	Solved Status = iota
	// SolvedAcceptable: the acceptable tolerances held for
	// Settings.AcceptableIter consecutive iterations.
	SolvedAcceptable
	// Infeasible: the restoration phase converged to a stationary point of
	// the constraint violation with nonzero violation.
	Infeasible
	// IterationLimit: Settings.MaxIter iterations were taken.
	IterationLimit
	// TimeLimit: Settings.MaxWallTime elapsed.
	TimeLimit
	// Cancelled: the context was cancelled.
	Cancelled
	// NumericalError: the step computation or line search failed in a way
	// the restoration phase could not repair.
	NumericalError
	// Diverging: the iterates exceeded 1e20 in max-norm, the objective fell
	// below −1e20, or the iterates ran out along a ray beyond 1e12 with the
	// objective falling (the problem is probably unbounded; see the package
	// documentation).
	Diverging
	// UserStop: a Problem callback returned an error (Solve returns it,
	// wrapped with ErrCallback, together with the result).
	UserStop
	// DerivativeMismatch: the solve converged, but at the final point the
	// derivative probe (see the package documentation) found the gradient
	// or the Jacobian inconsistent with the Problem's functions: a wrong
	// value, or a nonzero missing from JacobianStructure. The point solves
	// the problem the derivatives describe, not the Problem; Solve returns
	// a *DerivativeError naming the entries together with the result.
	DerivativeMismatch
)

var statusTable = [...]struct {
	name    string
	success bool
}{
	Solved:             {"Solved", true},
	SolvedAcceptable:   {"SolvedAcceptable", true},
	Infeasible:         {"Infeasible", false},
	IterationLimit:     {"IterationLimit", false},
	TimeLimit:          {"TimeLimit", false},
	Cancelled:          {"Cancelled", false},
	NumericalError:     {"NumericalError", false},
	Diverging:          {"Diverging", false},
	UserStop:           {"UserStop", false},
	DerivativeMismatch: {"DerivativeMismatch", false},
}

// String returns the status name.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusTable) {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusTable[s].name
}

// Success reports whether the status is Solved or SolvedAcceptable.
func (s Status) Success() bool {
	return s >= 0 && int(s) < len(statusTable) && statusTable[s].success
}

// IterRecord is one line of the iteration history (values of the scaled
// problem, as in the IPOPT log).
type IterRecord struct {
	Iter        int
	Mu          float64
	Objective   float64 // unscaled f(x)
	InfPr       float64 // max-norm constraint violation (scaled)
	InfDu       float64 // max-norm dual infeasibility (scaled)
	StepNorm    float64 // max-norm of the primal step taken to reach this iterate
	DeltaW      float64 // Hessian regularization of that step
	DeltaC      float64 // constraint regularization of that step
	AlphaPr     float64
	AlphaDu     float64
	LSTrials    int
	Restoration bool
}

// Counts are evaluation and factorization counts.
type Counts struct {
	Objective, Gradient, Constraints, Jacobian, Hessian int
	Factorizations                                      int
	// SecondOrderCorrections counts accepted second-order-corrected steps;
	// RestorationPhases counts entries into the restoration phase.
	SecondOrderCorrections, RestorationPhases int
	// Watchdogs counts starts of the watchdog procedure; CurvatureFixes
	// the δ_w increases forced by InertiaCurvature.
	Watchdogs, CurvatureFixes int
	// DeltaC counts the main-phase iterations whose step was computed with
	// the constraint regularization δ_c > 0 (a singular KKT matrix, or
	// Degeneracy.Jacobian); SingularHessian those whose unperturbed matrix
	// was singular and needed δ_w > 0 (or that started with δ_w > 0 by
	// Degeneracy.Hessian).
	DeltaC, SingularHessian int
	// SlackMoves counts the bounds moved because their slack fell below
	// ε·min(1, μ) (IPOPT's slack_move; see the package documentation).
	SlackMoves int
}

// Timing splits the wall-clock time of a solve.
type Timing struct {
	Evaluation, Factorization, Solve, Total time.Duration
	// Setup is the part of Total spent before the first iteration on the
	// structure: checks, KKT pattern, ordering and symbolic analysis.
	Setup time.Duration
}

// Result is the outcome of Solver.Solve.
//
// Multiplier sign convention (IPOPT's): at a solution
//
//	∇f(x) + J(x)ᵀ Y − ZL + ZU = 0,   ZL, ZU ≥ 0,
//
// so Y_i ≥ 0 when the upper bound g_U,i is active and Y_i ≤ 0 when the lower
// bound g_L,i is active.
type Result struct {
	Status     Status
	Iterations int
	// Degeneracy is the degeneracy of the KKT matrix this solve found (see
	// Degeneracy), to be passed on as Settings.Degeneracy to the solve of
	// a next NLP with the same structure.
	Degeneracy Degeneracy
	X          []float64 // length n
	Objective  float64   // f(X), unscaled
	G          []float64 // g(X), length m
	Y          []float64 // constraint multipliers, length m
	ZL, ZU     []float64 // bound multipliers, length n (0 for absent bounds)

	// Final unscaled errors: max-norm violation of the original bounds
	// (constraints and variables), max-norm of ∇f + JᵀY − ZL + ZU, and
	// max-norm of the complementarity products.
	PrimalInfeasibility, DualInfeasibility, Complementarity float64
	// Mu is the final barrier parameter.
	Mu float64

	History []IterRecord
	Counts  Counts
	Time    Timing

	// Derivatives is the report of Settings.DerivativeTest (nil when the
	// test was off).
	Derivatives *DerivativeReport
}

// EvalError reports a NaN or ±Inf returned by a Problem callback at the
// starting point (a solve cannot begin there). Func is "Start",
// "Objective", "Gradient", "Constraints", "JacobianValues" or
// "HessianValues" (checked with σ = 1, λ = 1); Index is the offending output
// position (0 for Objective).
type EvalError struct {
	Func  string
	Index int
	Value float64
}

func (e *EvalError) Error() string {
	return fmt.Sprintf("nlp: %s returned %g at index %d of the starting point", e.Func, e.Value, e.Index)
}

// Sentinel errors (wrapped with details).
var (
	// ErrDimension: negative dimensions or slices of wrong length.
	ErrDimension = errors.New("nlp: dimension mismatch")
	// ErrBounds: x_L > x_U or g_L > g_U, or NaN bounds.
	ErrBounds = errors.New("nlp: inconsistent bounds")
	// ErrStructure: Jacobian or Hessian structure index out of range, a
	// Hessian entry above the diagonal, or a duplicate.
	ErrStructure = errors.New("nlp: invalid sparsity structure")
	// ErrLinearSolver: the linear solver could not be created or analyzed.
	ErrLinearSolver = errors.New("nlp: linear solver setup failed")
	// ErrNilProblem: Solve or SolveIn was given a nil Problem.
	ErrNilProblem = errors.New("nlp: nil problem")
	// ErrCallback: a Problem method returned an error; the solve stopped
	// with status UserStop and the error wraps both this sentinel and the
	// callback's error.
	ErrCallback = errors.New("nlp: problem callback failed")
)
