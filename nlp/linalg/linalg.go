package linalg

// SymCSC is a sparse symmetric n×n matrix stored by its upper triangle in
// compressed sparse column form: the entries of column j are
// RowIdx[ColPtr[j]:ColPtr[j+1]] with values Val[ColPtr[j]:ColPtr[j+1]],
// every row index i satisfies i ≤ j, and row indices within a column are
// strictly increasing. Diagonal entries that are structurally present but zero
// must be stored explicitly (KKT matrices always store their diagonal).
type SymCSC struct {
	N      int
	ColPtr []int
	RowIdx []int
	Val    []float64
}

// Inertia counts the eigenvalue signs of a symmetric matrix, read from the
// signs of D in A = P L D Lᵀ Pᵀ (Sylvester's law of inertia). A pivot whose
// magnitude is below the factorization's zero-pivot threshold counts as Zero.
type Inertia struct {
	Pos, Neg, Zero int
}

// LinearSolver factors and solves sparse symmetric indefinite systems whose
// sparsity pattern stays fixed while values change (the KKT systems of an
// interior-point method). Every backend runs the same conformance suite.
//
// Use: Analyze once per pattern; then, as often as values change, Factorize
// followed by any number of Solve calls.
type LinearSolver interface {
	// Analyze performs the symbolic phase (ordering, elimination tree,
	// column counts) for the pattern of a. Values are ignored.
	Analyze(a *SymCSC) error
	// Factorize computes the numeric factorization of a, which must have the
	// pattern given to Analyze. signs, if not nil, holds the expected sign
	// (+1 or −1) of each pivot in the original (unpermuted) numbering; it is
	// used for dynamic regularization of tiny pivots. A factorization that
	// completes returns nil even if the matrix is singular or has an
	// unexpected inertia: the caller inspects Inertia.
	Factorize(a *SymCSC, signs []int8) error
	// Inertia reports the inertia of the last factorized matrix.
	Inertia() Inertia
	// Solve overwrites x with the solution of A x = b for the last
	// factorized A. x and b may be the same slice. It must not allocate.
	Solve(x, b []float64) error
}
