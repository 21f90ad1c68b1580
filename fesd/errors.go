package fesd

import (
	"context"
	"errors"
	"fmt"

	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// Sentinel errors. Every error returned by this package wraps one of these
// (or an error of the dcs, rk, ad or mpcc packages), so callers can test with
// errors.Is.
var (
	// ErrOptions reports invalid or incompatible Options.
	ErrOptions = errors.New("fesd: invalid options")
	// ErrNilModel reports a nil model.
	ErrNilModel = errors.New("fesd: nil model")
	// ErrNilSolver reports a nil *OCPSolver or *Simulator (for example the
	// result of a constructor that failed).
	ErrNilSolver = errors.New("fesd: nil solver")
	// ErrDimension reports an input of the wrong length (x₀, u, p).
	ErrDimension = errors.New("fesd: dimension mismatch")
	// ErrHorizon reports a non-positive or non-finite horizon T, a step
	// count N_sim < 1 or a non-finite start time.
	ErrHorizon = errors.New("fesd: invalid horizon")
	// ErrNonFinite reports a NaN or infinite input, or a switching function
	// that is not finite at x₀ (wrapping the dcs.NonFiniteError).
	ErrNonFinite = errors.New("fesd: non-finite value")
	// ErrStepFailed reports a simulation step whose MPCC homotopy did not
	// succeed; see StepError.
	ErrStepFailed = errors.New("fesd: simulation step failed")
	// ErrBounds reports inconsistent bounds of an OCP: NaN, a lower bound
	// above the upper bound, or an empty interval at infinity.
	ErrBounds = errors.New("fesd: inconsistent bounds")
	// ErrSwitchInStep reports a simulation step with one finite element
	// (Options.NFE = 1) that failed while the event predictor finds a
	// switch inside it: FESD places switches on element boundaries, so a
	// switch inside a step needs N_FE ≥ 2. It is the Cause of the
	// StepError.
	ErrSwitchInStep = errors.New("fesd: a switch inside a step needs N_FE ≥ 2 finite elements per step (Options.NFE)")
	// ErrStructure reports a DCS whose structure the transcription cannot
	// use (for example a complementarity multiplier that is not a boundary
	// variable).
	ErrStructure = errors.New("fesd: unsupported DCS structure")
	// ErrSensitivity reports sensitivities that cannot be computed at a
	// solution: its branch NLP does not solve again, or the linearized KKT
	// system is singular (a degenerate active set).
	ErrSensitivity = errors.New("fesd: sensitivities not available")
	// ErrAppendStep reports a step that SimResult.AppendStep cannot append:
	// a nil step or result, a step without a trajectory or with one whose
	// lengths disagree (then ErrDimension too), or a stage index out of
	// order.
	ErrAppendStep = errors.New("fesd: cannot append step")
)

// StepError reports a failed simulation step: the homotopy ended with a
// status other than mpcc.Solved. A step stopped by its context has Status
// mpcc.Cancelled and Cause the context's error, which the StepError wraps
// (errors.Is(err, context.Canceled) holds).
type StepError struct {
	// Step is the index of the simulation step (0-based) and T0 its start
	// time.
	Step int
	T0   float64
	// Status is the homotopy status; CompResidual its final
	// complementarity residual.
	Status       mpcc.Status
	CompResidual float64
	// NLPStatus is the status of the homotopy's last relaxed NLP and Sigma
	// its relaxation parameter: the homotopy fails (NLPFailure) when that
	// NLP did not converge, even if its point's complementarity residual is
	// small, because the point is then not a solution of the FESD
	// equations.
	NLPStatus nlp.Status
	Sigma     float64
	// Cause is the context's error of a cancelled step, ErrSwitchInStep
	// for a step with one element and a predicted switch inside it (at
	// SwitchAt), or nil.
	Cause    error
	SwitchAt float64
}

func (e *StepError) Error() string {
	if e.Status == mpcc.Cancelled && e.Cause != nil {
		return fmt.Sprintf("fesd: simulation step %d (t = %g) stopped: %v", e.Step, e.T0, e.Cause)
	}
	msg := fmt.Sprintf("fesd: simulation step %d (t = %g) failed: homotopy status %v", e.Step, e.T0, e.Status)
	if e.Status == mpcc.NLPFailure {
		msg += fmt.Sprintf(" (the last relaxed NLP, σ = %.3g, ended %v)", e.Sigma, e.NLPStatus)
	}
	msg += fmt.Sprintf(", complementarity residual %.3g", e.CompResidual)
	if errors.Is(e.Cause, ErrSwitchInStep) {
		msg += fmt.Sprintf("; a switch at t = %.6g lies inside the step, which needs N_FE ≥ 2 finite elements per step (Options.NFE = 1)", e.SwitchAt)
	}
	return msg
}

// Unwrap returns ErrStepFailed and, for a cancelled step, the context's
// error.
func (e *StepError) Unwrap() []error {
	if e.Cause != nil {
		return []error{ErrStepFailed, e.Cause}
	}
	return []error{ErrStepFailed}
}

// cancelled returns the error of a cancelled context: ctx.Err(), or
// context.Canceled when the solver reported a cancellation on its own.
// stoppedByContext reports whether err says that a solve was stopped by its
// context (mpcc and nlp return the partial result together with such an
// error): the result is then used, with its status Cancelled.
func stoppedByContext(res any, err error) bool {
	if err == nil || res == nil {
		return false
	}
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

func cancelled(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return context.Canceled
}
