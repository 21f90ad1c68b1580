package linalg

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Dense is a dense backend, meant as a test oracle and for tiny problems.
// Factorize computes the inertia by a dense Bunch–Kaufman LDLᵀ (1×1 and 2×2
// pivots, written here; gonum has no Dsytrf) and an LU factorization with
// partial pivoting (gonum mat.LU) for Solve. A pivot d with
// |d| ≤ max(ZeroTol, n·ε·max|a_ij|) counts as Zero.
// Expected signs are checked for length and values but otherwise ignored:
// Dense never regularizes. Factorize and Solve allocate.
type Dense struct {
	// ZeroTol is the absolute part of the zero-eigenvalue threshold
	// (default DefaultZeroPivotTol when 0).
	ZeroTol float64

	n              int
	colPtr, rowIdx []int
	a              *mat.SymDense
	lu             mat.LU
	work           []float64 // n×n row-major copy for Bunch–Kaufman
	inert          Inertia
	ref            refineWork
	bv, xv         *mat.VecDense
	analyzed, ok   bool
}

var (
	_ LinearSolver  = (*Dense)(nil)
	_ RefinedSolver = (*Dense)(nil)
)

// NewDense returns a dense backend.
func NewDense() *Dense { return &Dense{} }

// Analyze records the pattern of a.
func (s *Dense) Analyze(a *SymCSC) error {
	s.analyzed, s.ok = false, false
	if err := a.Validate(); err != nil {
		return err
	}
	s.n = a.N
	s.colPtr = append(s.colPtr[:0], a.ColPtr...)
	s.rowIdx = append(s.rowIdx[:0], a.RowIdx...)
	s.a = mat.NewSymDense(max(a.N, 1), nil)
	s.work = make([]float64, a.N*a.N)
	s.ref = newRefineWork(a.N)
	s.bv = mat.NewVecDense(max(a.N, 1), nil)
	s.xv = mat.NewVecDense(max(a.N, 1), nil)
	s.analyzed = true
	return nil
}

// Factorize computes the eigenvalues and an LU factorization of a.
// Errors as for Sparse.Factorize.
func (s *Dense) Factorize(a *SymCSC, signs []int8) error {
	s.ok = false
	if !s.analyzed {
		return ErrNotAnalyzed
	}
	if a == nil || !a.samePattern(s.n, s.colPtr, s.rowIdx) {
		return fmt.Errorf("%w: Factorize pattern differs from Analyze", ErrPattern)
	}
	if signs != nil {
		if len(signs) != s.n {
			return fmt.Errorf("%w: len(signs)=%d, want %d", ErrSigns, len(signs), s.n)
		}
		for i, g := range signs {
			if g != 1 && g != -1 {
				return fmt.Errorf("%w: signs[%d]=%d", ErrSigns, i, g)
			}
		}
	}
	for p, v := range a.Val {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &NonFiniteError{Where: "value", Index: p}
		}
	}
	s.inert = Inertia{}
	if s.n == 0 {
		s.ok = true
		return nil
	}
	for i := range s.n {
		for j := i; j < s.n; j++ {
			s.a.SetSym(i, j, 0)
		}
	}
	for j := range s.n {
		for p := a.ColPtr[j]; p < a.ColPtr[j+1]; p++ {
			s.a.SetSym(a.RowIdx[p], j, a.Val[p])
		}
	}
	n := s.n
	for i := range n {
		for j := range n {
			s.work[i*n+j] = s.a.At(i, j)
		}
	}
	tol := s.ZeroTol
	if tol == 0 {
		tol = DefaultZeroPivotTol
	}
	tol = math.Max(tol, float64(n)*0x1p-52*a.maxAbs())
	s.inert = bunchKaufmanInertia(n, s.work, tol)
	s.lu.Factorize(s.a)
	s.ok = true
	return nil
}

// Inertia reports the eigenvalue sign counts of the last factorized matrix.
func (s *Dense) Inertia() Inertia { return s.inert }

// Solve solves A x = b by LU. For a singular A it returns an error from
// gonum (mat.Condition) and leaves x unspecified. x and b may alias.
func (s *Dense) Solve(x, b []float64) error {
	if !s.ok {
		return ErrNotFactorized
	}
	if len(x) != s.n || len(b) != s.n {
		return fmt.Errorf("%w: len(x)=%d, len(b)=%d, want %d", ErrDimension, len(x), len(b), s.n)
	}
	if s.n == 0 {
		return nil
	}
	copy(s.bv.RawVector().Data, b)
	err := s.lu.SolveVecTo(s.xv, false, s.bv)
	copy(x, s.xv.RawVector().Data)
	return err
}

// RefinedSolve: see RefinedSolver.
func (s *Dense) RefinedSolve(a *SymCSC, x, b []float64, maxSteps int, tol float64) (Refinement, error) {
	if !s.ok {
		return Refinement{}, ErrNotFactorized
	}
	return refine(s, &s.ref, a, x, b, maxSteps, tol)
}
