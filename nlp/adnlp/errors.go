package adnlp

import "errors"

// Sentinel errors returned by New and the Set… methods, wrapped with details
// (test with errors.Is). Errors reported by package ad during compilation are
// wrapped as well, so errors.Is also matches ad's sentinels (for example
// ad.ErrFreeSymbol).
var (
	// ErrDimension: a slice of the wrong length, an empty X or block input
	// list, or GL and GU not both nil or both of length len(G).
	ErrDimension = errors.New("adnlp: dimension mismatch")
	// ErrNotSymbol: an element of X, P or a block's In is not a symbol, or
	// a symbol occurs twice in X and P together or in one block's In.
	ErrNotSymbol = errors.New("adnlp: variables and parameters must be distinct symbols")
	// ErrFreeSymbol: F or G depends on a symbol that is neither in X nor in
	// P, or a block's F or G on a symbol that is not in its In.
	ErrFreeSymbol = errors.New("adnlp: expression depends on a symbol that is neither a variable nor a parameter")
	// ErrGraph: an invalid expression (see ad.Graph.Err), expressions of
	// different graphs, or a zero Expr{} row of G that no block fills.
	ErrGraph = errors.New("adnlp: invalid expression or expressions of different graphs")
	// ErrBounds: a NaN bound, a lower bound above the upper bound, or an
	// empty bound interval at infinity (lower = +Inf or upper = −Inf).
	ErrBounds = errors.New("adnlp: inconsistent bounds")
	// ErrNonFinite: a NaN or ±Inf parameter value, starting point entry or
	// coefficient of a block input.
	ErrNonFinite = errors.New("adnlp: non-finite value")
	// ErrIndex: a block instance names a variable, parameter or
	// constraint row outside the problem.
	ErrIndex = errors.New("adnlp: index out of range")
	// ErrCompile: package ad failed to differentiate or compile the problem
	// for another reason (the ad error is wrapped).
	ErrCompile = errors.New("adnlp: compilation failed")
)
