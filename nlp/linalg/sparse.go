package linalg

import (
	"fmt"
	"math"
	"slices"
)

// Sparse is the sparse symmetric indefinite LDLᵀ backend: a fill-reducing
// ordering and symbolic analysis once per pattern (Analyze), then a
// pivot-free up-looking numeric factorization P A Pᵀ = L D Lᵀ with dynamic
// regularization of tiny pivots (Factorize), and triangular solves. After
// Analyze, Factorize, Solve and RefinedSolve do not allocate.
//
// A Sparse is not safe for concurrent use.
type Sparse struct {
	set Settings // with defaults filled in

	sym *symbolic
	// pattern given to Analyze, to detect a changed pattern in Factorize.
	colPtr, rowIdx []int
	ordering       Ordering // ordering actually used (AMD, Natural or Given)

	cx     []float64 // values of C = P A Pᵀ
	lx     []float64 // values of L (strictly lower, by columns)
	d      []float64 // D (after regularization)
	dinv   []float64 // 1/D
	y      []float64 // dense work row (all zero between rows)
	w      []float64 // permuted right-hand side / solution
	sgn    []int8    // expected signs in permuted order (0 = none)
	rowMax []float64 // max_j |a_kj| of every pivot's row of A (permuted order)
	rowTmp []float64 // work for rowMax (original order)
	ref    refineWork
	inert  Inertia
	nreg   int // pivots replaced by ±RegDelta
	nwrong int // pivots, not tiny, whose sign differs from the expected one
	ok     bool

	candAMD, candGiven int // nnz(L) of both candidates for OrderBest
}

var (
	_ LinearSolver  = (*Sparse)(nil)
	_ RefinedSolver = (*Sparse)(nil)
)

// NewSparse returns a sparse LDLᵀ solver with the given settings (zero fields
// take their documented defaults).
func NewSparse(settings Settings) (*Sparse, error) {
	if err := settings.Validate(); err != nil {
		return nil, err
	}
	s := settings.withDefaults()
	s.Perm = slices.Clone(s.Perm)
	return &Sparse{set: s}, nil
}

// SparseStats describes the symbolic factorization.
type SparseStats struct {
	N        int      // order of the matrix
	NnzA     int      // stored entries of A (upper triangle with diagonal)
	NnzL     int      // strictly lower entries of L (D excluded)
	Ordering Ordering // ordering used: OrderAMD, OrderNatural or OrderGiven
	// Flops estimates the floating-point operations of one Factorize:
	// Σ_j c_j(c_j+2) with c_j = nnz(L[:,j]): column j is used in
	// c_j(c_j−1)/2 multiply-adds (two operations each) and each of its
	// entries costs three more (scaling by 1/d_j and the update of d_k).
	Flops float64
	// NnzLAMD and NnzLGiven are the nnz(L) of both candidates when Ordering
	// was OrderBest (0 otherwise).
	NnzLAMD, NnzLGiven int
	// Regularized counts the pivots of the last Factorize with |d| ≤
	// ZeroPivotTol that were replaced by ±RegDelta (they are also counted in
	// Inertia().Zero). WrongSign counts the pivots, not tiny, whose sign
	// differed from the expected one; they are kept as computed.
	Regularized, WrongSign int
}

// Stats returns statistics of the analysis and of the last factorization.
func (s *Sparse) Stats() SparseStats {
	st := SparseStats{Ordering: s.ordering, Regularized: s.nreg, WrongSign: s.nwrong}
	st.NnzLAMD, st.NnzLGiven = s.candAMD, s.candGiven
	if s.sym != nil {
		st.N = s.sym.n
		st.NnzA = len(s.rowIdx)
		st.NnzL = s.sym.nnzL
		st.Flops = s.sym.flops
	}
	return st
}

// Perm returns the pivot order used (Perm()[k] is the original index of the
// k-th pivot), or nil before Analyze. The slice must not be modified.
func (s *Sparse) Perm() []int {
	if s.sym == nil {
		return nil
	}
	return s.sym.perm
}

// EmptyRows returns how many of the indices first, …, N−1 have an empty
// row of L in the analyzed pivot order: no entry of A couples them to an
// index eliminated before them, so no earlier pivot reaches them, not even
// through fill. The pivot of such an index is its diagonal entry of A,
// whatever the other values — exactly zero when that entry is (a KKT
// matrix's constraint row without δ_c eliminated before all its
// variables). 0 before Analyze.
func (s *Sparse) EmptyRows(first int) int {
	if s.sym == nil {
		return 0
	}
	n, pinv := s.sym.n, s.sym.pinv
	early := make([]int, n) // earliest pivot position among each index's neighbours
	for j := range early {
		early[j] = n
	}
	for j := range n {
		for q := s.colPtr[j]; q < s.colPtr[j+1]; q++ {
			if r := s.rowIdx[q]; r != j {
				early[r] = min(early[r], pinv[j])
				early[j] = min(early[j], pinv[r])
			}
		}
	}
	count := 0
	for c := max(first, 0); c < n; c++ {
		if early[c] > pinv[c] {
			count++
		}
	}
	return count
}

// Analyze computes the ordering and the symbolic factorization for the
// pattern of a, and allocates all storage used by Factorize and Solve.
func (s *Sparse) Analyze(a *SymCSC) error {
	s.sym, s.ok = nil, false
	if err := a.Validate(); err != nil {
		return err
	}
	n := a.N
	perm, err := s.set.choosePerm(a, &s.ordering, &s.candAMD, &s.candGiven)
	if err != nil {
		return err
	}
	sym, err := analyze(a, perm)
	if err != nil {
		return err
	}
	s.sym = sym
	s.colPtr = slices.Clone(a.ColPtr)
	s.rowIdx = slices.Clone(a.RowIdx)
	s.cx = make([]float64, len(sym.ci))
	s.lx = make([]float64, sym.nnzL)
	s.d = make([]float64, n)
	s.dinv = make([]float64, n)
	s.y = make([]float64, n)
	s.w = make([]float64, n)
	s.sgn = make([]int8, n)
	s.rowMax, s.rowTmp = make([]float64, n), make([]float64, n)
	s.ref = newRefineWork(n)
	return nil
}

// choosePerm returns the pivot order for a under the settings' Ordering
// and records the ordering used and, for OrderBest, the symbolic nnz(L) of
// both candidates (zero otherwise). Shared by Sparse and Multifrontal.
func (set *Settings) choosePerm(a *SymCSC, used *Ordering, candAMD, candGiven *int) ([]int, error) {
	n := a.N
	*candAMD, *candGiven = 0, 0
	amd := func() []int {
		return AMD(a, AMDOptions{DenseAlpha: set.DenseAlpha, NoAggressiveAbsorption: set.NoAggressiveAbsorption})
	}
	switch set.Ordering {
	case OrderNatural:
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		*used = OrderNatural
		return perm, nil
	case OrderAMD:
		*used = OrderAMD
		return amd(), nil
	}
	// OrderGiven or OrderBest (Validate rejects anything else).
	if err := checkPerm(set.Perm, n); err != nil {
		return nil, err
	}
	perm := set.Perm
	*used = OrderGiven
	if set.Ordering == OrderBest {
		pa := amd()
		*candAMD = symbolicNnz(a, pa)
		*candGiven = symbolicNnz(a, perm)
		if *candAMD < *candGiven {
			perm = pa
			*used = OrderAMD
		}
	}
	return perm, nil
}

// Factorize computes P A Pᵀ = L D Lᵀ for the values of a, whose pattern must
// equal the one given to Analyze (else ErrPattern).
//
// Pivots are never exchanged; the inertia is read from the signs of D.
// For each pivot d (in elimination order):
//
//   - |d| ≤ ZeroPivotTol·min(1, s), s the larger of max_j |a_kj| (the
//     pivot's row of A) and |a_kk| + Σ_i |l_ki d_i l_ki| (the size of the
//     terms of d = a_kk − Σ_i l_ki d_i l_ki): the absolute threshold when
//     either is ≥ 1, a test relative to them below (see
//     DefaultZeroPivotTol): counted as Zero and replaced by sign·RegDelta,
//     where
//     sign is the expected sign when signs is given, else the sign of d
//     (+ for d = 0), so that the factorization continues;
//   - otherwise d is kept as computed and counted as Pos or Neg by its actual
//     sign, even if it differs from the expected sign (counted in
//     Stats().WrongSign). The IPM thus sees the true inertia of A (up to the
//     zero threshold) and applies its own δ_w/δ_c correction.
//
// signs, if not nil, has length N with entries ±1, in the original numbering.
// Factorize returns an error wrapping ErrNonFinite (a *NonFiniteError) if a
// value of a is NaN or ±Inf, or if a pivot overflows; the factorization is
// then unusable and Solve fails until the next successful Factorize.
// A completed factorization returns nil even if A is singular or has the
// wrong inertia. Factorize does not allocate.
func (s *Sparse) Factorize(a *SymCSC, signs []int8) error {
	s.ok = false
	sym := s.sym
	if sym == nil {
		return ErrNotAnalyzed
	}
	if a == nil || !a.samePattern(sym.n, s.colPtr, s.rowIdx) {
		return fmt.Errorf("%w: Factorize pattern differs from Analyze", ErrPattern)
	}
	n := sym.n
	if signs != nil && len(signs) != n {
		return fmt.Errorf("%w: len(signs)=%d, want %d", ErrSigns, len(signs), n)
	}
	sgn := s.sgn
	for k := range sgn {
		sgn[k] = 0
	}
	if signs != nil {
		for k, orig := range sym.perm {
			g := signs[orig]
			if g != 1 && g != -1 {
				return fmt.Errorf("%w: signs[%d]=%d", ErrSigns, orig, g)
			}
			sgn[k] = g
		}
	}
	cx := s.cx
	amap := sym.amap[:len(a.Val)]
	for p, v := range a.Val {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &NonFiniteError{Where: "value", Index: p}
		}
		cx[amap[p]] = v
	}
	a.rowMaxTo(sym.perm, s.rowTmp, s.rowMax)
	rowMax := s.rowMax[:n]
	tol, delta := s.set.ZeroPivotTol, s.set.RegDelta
	var in Inertia
	nreg, nwrong := 0, 0
	y, lx, li := s.y, s.lx, sym.li
	d, dinv := s.d[:n], s.dinv[:n]
	cp, ci := sym.cp, sym.ci
	rp, rent := sym.rp, sym.rent
	sgn = sgn[:n]
	for k := range n {
		// Scatter column k of C (the upper part of row k) into y.
		cols := ci[cp[k]:cp[k+1]]
		vals := cx[cp[k]:cp[k+1]]
		vals = vals[:len(cols)]
		for q, i := range cols {
			y[i] += vals[q]
		}
		dk := y[k]
		y[k] = 0
		// mag = |a_kk| + Σ|l_ki·y_i|: the size of the terms whose sum is
		// d_k (ε·mag bounds its rounding error); the threshold also scales
		// with the row of A (rowMax), whose entries d_k divides.
		mag := math.Abs(dk)
		// Sparse triangular solve with the rows of L computed so far:
		// for each i in the row pattern (increasing), L[k,i] = y_i / d_i
		// and y ← y − L[:,i]·y_i over the entries of column i above row k.
		for _, e := range rent[rp[k]:rp[k+1]] {
			i := e.col
			yi := y[i]
			y[i] = 0
			p0, p1 := int(e.start), int(e.pos)
			col := li[p0:p1]
			lv := lx[p0:p1]
			lv = lv[:len(col)]
			for q, r := range col {
				y[r] -= lv[q] * yi
			}
			lki := yi * dinv[i]
			lx[p1] = lki
			dk -= lki * yi
			mag += math.Abs(lki * yi)
		}
		switch {
		case math.IsNaN(dk) || math.IsInf(dk, 0):
			// Leave y clean for the next Factorize.
			clear(y)
			return &NonFiniteError{Where: "pivot", Index: sym.perm[k]}
		case math.Abs(dk) <= tol*min(1, max(mag, rowMax[k])):
			in.Zero++
			nreg++
			switch g := sgn[k]; {
			case g != 0:
				dk = float64(g) * delta
			case dk < 0:
				dk = -delta
			default:
				dk = delta
			}
		case dk > 0:
			in.Pos++
			if sgn[k] < 0 {
				nwrong++
			}
		default:
			in.Neg++
			if sgn[k] > 0 {
				nwrong++
			}
		}
		d[k] = dk
		dinv[k] = 1 / dk
	}
	s.inert, s.nreg, s.nwrong = in, nreg, nwrong
	s.ok = true
	return nil
}

// Inertia reports the inertia of the last factorized matrix (zero value
// before the first successful Factorize). See Factorize for how tiny pivots
// are counted.
func (s *Sparse) Inertia() Inertia { return s.inert }

// Solve overwrites x with the solution of A x = b for the last factorized A
// (with tiny pivots regularized). x and b may be the same slice. It does not
// allocate.
func (s *Sparse) Solve(x, b []float64) error {
	if !s.ok {
		return ErrNotFactorized
	}
	n := s.sym.n
	if len(x) != n || len(b) != n {
		return fmt.Errorf("%w: len(x)=%d, len(b)=%d, want %d", ErrDimension, len(x), len(b), n)
	}
	w := s.w[:n]
	perm := s.sym.perm[:n]
	for k, i := range perm {
		w[k] = b[i]
	}
	lp, li, lx := s.sym.lp, s.sym.li, s.lx
	// L z = w, column by column.
	for j := range n {
		wj := w[j]
		if wj == 0 {
			continue
		}
		col := li[lp[j]:lp[j+1]]
		lv := lx[lp[j]:lp[j+1]]
		lv = lv[:len(col)]
		for q, r := range col {
			w[r] -= lv[q] * wj
		}
	}
	dinv := s.dinv[:n]
	for j := range w {
		w[j] *= dinv[j]
	}
	// Lᵀ x = z, by dot products with the columns of L.
	for j := n - 1; j >= 0; j-- {
		col := li[lp[j]:lp[j+1]]
		lv := lx[lp[j]:lp[j+1]]
		lv = lv[:len(col)]
		sum := w[j]
		for q, r := range col {
			sum -= lv[q] * w[r]
		}
		w[j] = sum
	}
	for k, i := range perm {
		x[i] = w[k]
	}
	return nil
}

// RefinedSolve solves A x = b with the factorization and then applies up to
// maxSteps steps of iterative refinement with the matrix a (typically the
// unregularized A; it must have order N): r = b − a·x, a solve for Δx,
// x ← x + Δx. See Refinement for the stopping rule. x and b may be the same
// slice. It does not allocate.
func (s *Sparse) RefinedSolve(a *SymCSC, x, b []float64, maxSteps int, tol float64) (Refinement, error) {
	if !s.ok {
		return Refinement{}, ErrNotFactorized
	}
	return refine(s, &s.ref, a, x, b, maxSteps, tol)
}
