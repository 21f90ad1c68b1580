package mpcc

import (
	"context"
	"errors"
	"math"

	"github.com/fesd-go/fesd/nlp"
)

// InnerSolver solves one NLP of the homotopy (a relaxed NLP, or the MPCC's
// NLP with some pair variables fixed at zero for the certificate and the
// active-set finish). Tests inject fakes; NLPSolver
// is the default.
type InnerSolver interface {
	// SolveNLP minimizes p. start is nil for a cold start (p.Start is the
	// initial point); otherwise it carries the previous step's solution.
	// The error means the solve could not run (the result is then nil),
	// or that ctx stopped it: then the partial result comes with Status
	// nlp.Cancelled and the error wraps ctx.Err() (the rule of nlp.Solver;
	// the homotopy also accepts a Cancelled result with a nil error).
	// Numerical failures are reported in InnerResult.Status, and a solve
	// stopped by the Problem (callback error, derivative mismatch) in
	// InnerResult.Err.
	SolveNLP(ctx context.Context, p nlp.Problem, start *WarmStart) (*InnerResult, error)
}

// WarmStart is the primal-dual point handed from one homotopy step to the
// next. The multipliers follow nlp.Result's sign convention; they are nil
// with Settings.ColdDuals. MuInit is the initial barrier parameter to use
// (0: the solver's own).
type WarmStart struct {
	// X is the primal point, length n of the NLP.
	X []float64
	// Y are the constraint multipliers, length m (nil: none handed on).
	Y []float64
	// ZL are the lower-bound multipliers, length n (nil: none handed on).
	ZL []float64
	// ZU are the upper-bound multipliers, length n (nil: none handed on).
	ZU []float64
	// MuInit is the initial barrier parameter (0: the solver's own).
	MuInit float64
	// MaxIter, if positive, lowers the solver's iteration limit to it (the
	// tightened NLPs of the certificate and finish use
	// DefaultFinishMaxIter).
	MaxIter int
	// Tol, if above the solver's tolerance, replaces it for this solve
	// (and raises the dual, complementarity and constraint tolerances to
	// it): the inexact relaxed solves of Settings.InexactFactor.
	Tol float64
}

// InnerResult is what the homotopy needs from an inner solve.
type InnerResult struct {
	Status     nlp.Status
	X          []float64 // length n
	Y          []float64 // length m
	ZL, ZU     []float64 // length n
	Iterations int
	// Err is the error returned together with the result when the solve
	// stopped because of the Problem: a callback error (Status
	// nlp.UserStop; Err wraps nlp.ErrCallback and the callback's error) or
	// a confirmed derivative mismatch (Status nlp.DerivativeMismatch; Err
	// wraps nlp.ErrDerivatives). Nil otherwise. The homotopy stops at such
	// a step and returns Err, wrapped, with its result.
	Err error
}

// Apply puts the warm start into inner-solver settings: the primal-dual
// point becomes set.WarmStart, a positive MuInit replaces set.MuInit, and a
// positive MaxIter below set.MaxIter (or with set.MaxIter = 0) replaces it. A
// nil w leaves set as it is (a cold start).
func (w *WarmStart) Apply(set *nlp.Settings) {
	if w == nil {
		return
	}
	if w.X != nil {
		set.WarmStart = &nlp.WarmStart{X: w.X, Y: w.Y, ZL: w.ZL, ZU: w.ZU}
	}
	if w.Tol > set.Tol {
		set.Tol = w.Tol
		set.DualInfTol = math.Max(set.DualInfTol, w.Tol)
		set.ComplInfTol = math.Max(set.ComplInfTol, w.Tol)
		set.ConstrViolTol = math.Max(set.ConstrViolTol, w.Tol)
	}
	if w.MuInit > 0 {
		set.MuInit = w.MuInit
	}
	if w.MaxIter > 0 && (set.MaxIter == 0 || w.MaxIter < set.MaxIter) {
		set.MaxIter = w.MaxIter
	}
}

// stoppedByContext reports whether an inner solve that returned r and err
// was stopped by its context: a result together with an error wrapping
// context.Canceled or context.DeadlineExceeded (InnerSolver's rule).
func stoppedByContext(r *InnerResult, err error) bool {
	return err != nil && r != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}
