package dcs

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Every error returned by this package wraps one of these,
// so callers can test with errors.Is; most are wrapped in an *Error that
// says where the problem is.
var (
	// ErrNilGraph reports a model without an expression graph (or a nil
	// model).
	ErrNilGraph = errors.New("dcs: nil graph")
	// ErrNilDCS reports a nil *DCS or one not made by Reformulate.
	ErrNilDCS = errors.New("dcs: nil or unbuilt DCS")
	// ErrNoStates reports a model with no differential states.
	ErrNoStates = errors.New("dcs: model has no states")
	// ErrNotSymbol reports an element of X, U, P, Time, a step selection α
	// or a user algebraic variable that is not an ad symbol.
	ErrNotSymbol = errors.New("dcs: expression is not a symbol")
	// ErrDuplicateSymbol reports a symbol used twice among the model's
	// variables (x, u, p, t, α, user z).
	ErrDuplicateSymbol = errors.New("dcs: symbol used twice")
	// ErrInvalidExpr reports a zero or invalid expression, or one from
	// another graph.
	ErrInvalidExpr = errors.New("dcs: invalid expression")
	// ErrForeignSymbol reports an expression that depends on a symbol it may
	// not use (for example a switching function that uses a symbol outside
	// x, u, p).
	ErrForeignSymbol = errors.New("dcs: expression uses a symbol outside its allowed arguments")
	// ErrDimension reports mismatched lengths (modes of the wrong length,
	// a sign matrix row of the wrong width, F with the wrong number of
	// modes, input slices of the wrong length).
	ErrDimension = errors.New("dcs: dimension mismatch")
	// ErrSignEntry reports a sign matrix entry other than −1 or +1.
	ErrSignEntry = errors.New("dcs: sign matrix entry is not ±1")
	// ErrRepeatedRow reports two equal rows of a sign matrix.
	ErrRepeatedRow = errors.New("dcs: repeated sign matrix row")
	// ErrIncompleteSigns reports a sign matrix with fewer than 2^nψ rows:
	// its base sets do not cover the state space (004 Definition 1). Use
	// Regions to merge base sets instead.
	ErrIncompleteSigns = errors.New("dcs: sign matrix does not list all 2^nψ base sets")
	// ErrTooManyPsi reports a subsystem with more than MaxPsi switching
	// functions (its 2^nψ base sets cannot be enumerated).
	ErrTooManyPsi = errors.New("dcs: too many switching functions in one subsystem")
	// ErrInvalidRegion reports a zero Region value or an operation without
	// operands where one is required.
	ErrInvalidRegion = errors.New("dcs: invalid region expression")
	// ErrRegionIndex reports a region that refers to a base set or
	// switching function that does not exist.
	ErrRegionIndex = errors.New("dcs: region refers to a nonexistent base set or switching function")
	// ErrEmptyRegion reports a region that contains no base set.
	ErrEmptyRegion = errors.New("dcs: empty region")
	// ErrOverlappingRegions reports two regions that share a base set.
	ErrOverlappingRegions = errors.New("dcs: regions overlap")
	// ErrUncovered reports a base set that belongs to no region.
	ErrUncovered = errors.New("dcs: base set belongs to no region")
	// ErrNoModes reports a subsystem without modes.
	ErrNoModes = errors.New("dcs: subsystem has no modes")
	// ErrNoDynamics reports a model with neither a drift F0 nor subsystems.
	ErrNoDynamics = errors.New("dcs: model has no dynamics")
	// ErrNoIndicator reports a subsystem that has neither switching
	// functions ψ nor Stewart indicator functions g.
	ErrNoIndicator = errors.New("dcs: subsystem has neither switching functions nor indicator functions")
	// ErrNoPsi reports a subsystem without switching functions in the step
	// formulation (which needs ψ; Stewart indicators alone are not enough).
	ErrNoPsi = errors.New("dcs: step formulation needs switching functions")
	// ErrStewartGeneral reports general step selections α (the
	// Aizerman–Pyatnitskii form f(x, u, α)) in the Stewart formulation,
	// which only represents piecewise smooth systems.
	ErrStewartGeneral = errors.New("dcs: Stewart formulation cannot represent general step selections α")
	// ErrOptions reports invalid or incompatible options.
	ErrOptions = errors.New("dcs: invalid options")
	// ErrNonFinite reports a NaN or infinite switching function value or
	// input; see NonFiniteError.
	ErrNonFinite = errors.New("dcs: non-finite value")
	// ErrMassMatrix reports a mass matrix M(q) that is not symmetric
	// positive definite at the state where it is checked (CLS.CheckAt).
	ErrMassMatrix = errors.New("dcs: mass matrix not symmetric positive definite")
	// ErrInitialGuess reports that the Newton iteration for the user
	// algebraic variables in InitialGuess did not converge.
	ErrInitialGuess = errors.New("dcs: initial guess for user algebraic variables did not converge")
)

// Error locates a model error. Err is one of the sentinel errors.
type Error struct {
	Err error
	// Subsystem is the subsystem index (−1 when the error is not about a
	// subsystem).
	Subsystem int
	// Field names the offending field: "X", "U", "P", "Time", "F0", "Psi",
	// "S", "Regions", "F", "G", "Steps", "Algebraic.Z", "Algebraic.G", ….
	Field string
	// Index and Index2 locate the element (−1 when not applicable): a
	// vector element, a sign matrix entry (row, column), a pair of rows or
	// regions, a mode and its component.
	Index, Index2 int
	// Detail adds free text (may be empty).
	Detail string
}

func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString(e.Err.Error())
	sb.WriteString(": ")
	if e.Subsystem >= 0 {
		fmt.Fprintf(&sb, "subsystem %d: ", e.Subsystem)
	}
	sb.WriteString(e.Field)
	switch {
	case e.Index >= 0 && e.Index2 >= 0:
		fmt.Fprintf(&sb, "[%d][%d]", e.Index, e.Index2)
	case e.Index >= 0:
		fmt.Fprintf(&sb, "[%d]", e.Index)
	}
	if e.Detail != "" {
		sb.WriteString(": ")
		sb.WriteString(e.Detail)
	}
	return sb.String()
}

// Unwrap returns the sentinel error.
func (e *Error) Unwrap() error { return e.Err }

func newErr(err error, sub int, field string, i, j int, format string, args ...any) *Error {
	return &Error{Err: err, Subsystem: sub, Field: field, Index: i, Index2: j, Detail: fmt.Sprintf(format, args...)}
}

// NonFiniteError reports a NaN or ±Inf switching function value ψ_j (or
// Stewart indicator g_j) at a given point.
type NonFiniteError struct {
	// Subsystem is the subsystem index, or −1 for the general step
	// functions of Model.Steps.
	Subsystem int
	// Name is "ψ" or "g".
	Name string
	// Index is j, the element within the subsystem's ψ (or g, or the
	// concatenated ψ of Model.Steps).
	Index int
	Value float64
}

func (e *NonFiniteError) Error() string {
	where := "general steps"
	if e.Subsystem >= 0 {
		where = fmt.Sprintf("subsystem %d", e.Subsystem)
	}
	return fmt.Sprintf("dcs: %s: %s_%d = %v", where, e.Name, e.Index, e.Value)
}

// Unwrap returns ErrNonFinite.
func (e *NonFiniteError) Unwrap() error { return ErrNonFinite }
