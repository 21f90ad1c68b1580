package ad

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error returned by this package wraps one of these
// (or is an ErrNonFinite), so callers can test with errors.Is.
var (
	// ErrDimension reports mismatched vector or matrix dimensions, or
	// argument slices of the wrong length.
	ErrDimension = errors.New("ad: dimension mismatch")
	// ErrForeignGraph reports an expression that belongs to another graph
	// where an expression of the receiving graph is needed. A zero Expr is
	// reported as ErrZeroExpr, which also matches ErrForeignGraph.
	ErrForeignGraph = errors.New("ad: expression from a different graph")
	// ErrZeroExpr reports the zero Expr (Expr{}, or Sum of an empty Vec,
	// which has no graph to build 0 in) used in an operation, derivative or
	// function. errors.Is(err, ErrForeignGraph) also holds for it, as
	// ErrForeignGraph reported it before.
	ErrZeroExpr error = zeroExprError{}
	// ErrNotSymbol reports a non-symbol expression where a symbol is
	// required (function inputs, differentiation variables).
	ErrNotSymbol = errors.New("ad: expression is not a symbol")
	// ErrDuplicateSymbol reports a symbol used twice as an input or
	// differentiation variable.
	ErrDuplicateSymbol = errors.New("ad: symbol used twice")
	// ErrFreeSymbol reports an output that depends on a symbol that is not
	// among the function's inputs.
	ErrFreeSymbol = errors.New("ad: output depends on a symbol that is not an input")
	// ErrSingular reports a linear system whose matrix has a structurally
	// zero column during symbolic elimination.
	ErrSingular = errors.New("ad: matrix is structurally singular")
	// ErrBadName reports an empty or duplicated input/output name.
	ErrBadName = errors.New("ad: empty or duplicate argument name")
	// ErrScatter reports an inconsistent scatter map.
	ErrScatter = errors.New("ad: inconsistent scatter map")
	// ErrNilFunction reports a nil *Function or *Scatter (for example the
	// result of a NewFunction call that failed).
	ErrNilFunction = errors.New("ad: nil function")
)

// ErrNonFinite reports a NaN or ±Inf in an output of Function.Eval when the
// workspace asks for the check (Workspace.CheckFinite). Output is the name of
// the output argument, Index the element within it and Instance the argument
// set of EvalScatter (0 for Eval).
type ErrNonFinite struct {
	Output   string
	Index    int
	Value    float64
	Instance int
}

func (e ErrNonFinite) Error() string {
	return fmt.Sprintf("ad: non-finite value %v in output %q at index %d", e.Value, e.Output, e.Index)
}

// zeroExprError is the type of ErrZeroExpr.
type zeroExprError struct{}

func (zeroExprError) Error() string {
	return "ad: invalid (zero) expression: build expressions from a Graph (Expr{} and Sum of an empty Vec have none)"
}

// Is makes ErrZeroExpr match ErrForeignGraph too.
func (zeroExprError) Is(target error) bool { return target == ErrForeignGraph }
