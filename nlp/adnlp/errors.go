package adnlp

import "errors"

// Sentinel errors returned by New and the Set… methods, wrapped with details
// (test with errors.Is). Errors reported by package ad during compilation are
// wrapped as well, so errors.Is also matches ad's sentinels (for example
// ad.ErrFreeSymbol).
var (
	// ErrDimension: a slice of the wrong length, an empty X, or GL and GU
	// not both nil or both of length len(G).
	ErrDimension = errors.New("adnlp: dimension mismatch")
	// ErrNotSymbol: an element of X or P is not a symbol, or a symbol occurs
	// twice in X and P together.
	ErrNotSymbol = errors.New("adnlp: variables and parameters must be distinct symbols")
	// ErrFreeSymbol: F or G depends on a symbol that is neither in X nor in P.
	ErrFreeSymbol = errors.New("adnlp: expression depends on a symbol that is neither a variable nor a parameter")
	// ErrGraph: an invalid expression (see ad.Graph.Err), or expressions of
	// different graphs.
	ErrGraph = errors.New("adnlp: invalid expression or expressions of different graphs")
	// ErrBounds: a NaN bound, a lower bound above the upper bound, or an
	// empty bound interval at infinity (lower = +Inf or upper = −Inf).
	ErrBounds = errors.New("adnlp: inconsistent bounds")
	// ErrNonFinite: a NaN or ±Inf parameter value or starting point entry.
	ErrNonFinite = errors.New("adnlp: non-finite value")
	// ErrCompile: package ad failed to differentiate or compile the problem
	// for another reason (the ad error is wrapped).
	ErrCompile = errors.New("adnlp: compilation failed")
)
