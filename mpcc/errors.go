package mpcc

import "errors"

// Sentinel errors. They are wrapped with details (the offending term, pair or
// setting); test for them with errors.Is.
var (
	// ErrNilProblem reports a Problem without an NLP.
	ErrNilProblem = errors.New("mpcc: nil problem")
	// ErrEmptyTerm reports a complementarity term without pairs.
	ErrEmptyTerm = errors.New("mpcc: complementarity term without pairs")
	// ErrIndex reports a pair index outside [0, n) of the NLP.
	ErrIndex = errors.New("mpcc: variable index out of range")
	// ErrSamePair reports a pair (a, a): x_a·x_a = 0 is a bound, not a
	// complementarity.
	ErrSamePair = errors.New("mpcc: pair couples a variable with itself")
	// ErrLowerBound reports a complementarity variable whose lower bound is
	// not finite and ≥ 0. Every variable in a pair must be nonnegative by its
	// bounds so that c_k(x) = Σ x_a·x_b ≥ 0.
	ErrLowerBound = errors.New("mpcc: complementarity variable not bounded below by 0")
	// ErrScalarPairRequired reports a relaxation that needs separate G and H
	// (all but Scholtes) applied to a term with more than one pair.
	ErrScalarPairRequired = errors.New("mpcc: relaxation needs a scalar pair")
	// ErrUnsupported reports a relaxation × steering combination that is not
	// defined.
	ErrUnsupported = errors.New("mpcc: unsupported relaxation/steering combination")
	// ErrRelaxation reports an unknown Relaxation value.
	ErrRelaxation = errors.New("mpcc: unknown relaxation")
	// ErrSteering reports an unknown Steering value.
	ErrSteering = errors.New("mpcc: unknown steering")
	// ErrSigma reports a relaxation parameter that is negative, NaN or
	// infinite (or zero for elastic steering, where ρ = 1/σ).
	ErrSigma = errors.New("mpcc: invalid relaxation parameter σ")
	// ErrSettings reports invalid homotopy settings.
	ErrSettings = errors.New("mpcc: invalid settings")
	// ErrDimension reports a slice of the wrong length.
	ErrDimension = errors.New("mpcc: wrong dimension")
	// ErrNoInnerSolver reports a Solver without an inner NLP solver.
	ErrNoInnerSolver = errors.New("mpcc: no inner NLP solver")
)
