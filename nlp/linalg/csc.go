package linalg

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Sentinel errors. Errors returned by this package wrap one of these, so
// callers test them with errors.Is.
var (
	// ErrDimension reports slices or matrices whose sizes do not agree.
	ErrDimension = errors.New("linalg: dimension mismatch")
	// ErrPattern reports a SymCSC that is not valid upper-triangular CSC, or a
	// pattern that differs from the one given to Analyze.
	ErrPattern = errors.New("linalg: invalid or changed sparsity pattern")
	// ErrNotAnalyzed reports Factorize before Analyze.
	ErrNotAnalyzed = errors.New("linalg: Factorize called before Analyze")
	// ErrNotFactorized reports Solve before a successful Factorize.
	ErrNotFactorized = errors.New("linalg: Solve called before a successful Factorize")
	// ErrNonFinite reports a NaN or ±Inf in the matrix values or in a
	// computed pivot. The concrete error is a *NonFiniteError.
	ErrNonFinite = errors.New("linalg: non-finite value")
	// ErrPermutation reports an invalid user-supplied permutation.
	ErrPermutation = errors.New("linalg: invalid permutation")
	// ErrSettings reports invalid Settings.
	ErrSettings = errors.New("linalg: invalid settings")
	// ErrSigns reports an expected-sign slice of the wrong length or with an
	// entry other than −1 or +1.
	ErrSigns = errors.New("linalg: invalid expected pivot signs")
)

// NonFiniteError carries where a non-finite number was met. It matches
// ErrNonFinite under errors.Is.
type NonFiniteError struct {
	// Where is "value" (an entry of SymCSC.Val, Index is its position in
	// Val) or "pivot" (a computed pivot, Index is the original, unpermuted
	// row/column).
	Where string
	Index int
}

func (e *NonFiniteError) Error() string {
	return fmt.Sprintf("linalg: non-finite %s at index %d", e.Where, e.Index)
}

// Is makes errors.Is(err, ErrNonFinite) true.
func (e *NonFiniteError) Is(target error) bool { return target == ErrNonFinite }

// NewSymCSC builds a symmetric matrix of order n in upper CSC form from
// coordinate triplets (rows[t], cols[t], vals[t]). Each triplet may lie in the
// upper or the lower triangle (it is mirrored to the upper one); duplicates
// (also an (i,j) and a (j,i) pair) are summed. Every diagonal entry is stored,
// with value 0 when no triplet touches it, as SymCSC requires.
//
// vals may be nil (all values zero: a pattern only). The returned index map
// has len(rows) entries: idx[t] is the position in a.Val that triplet t adds
// into, so later values are scattered without searching:
//
//	for i := range a.Val { a.Val[i] = 0 }
//	for t, v := range newVals { a.Val[idx[t]] += v }
func NewSymCSC(n int, rows, cols []int, vals []float64) (a *SymCSC, idx []int, err error) {
	if n < 0 || len(rows) != len(cols) || (vals != nil && len(vals) != len(rows)) {
		return nil, nil, fmt.Errorf("%w: n=%d, len(rows)=%d, len(cols)=%d, len(vals)=%d",
			ErrDimension, n, len(rows), len(cols), len(vals))
	}
	nt := len(rows)
	// Count entries per column, including one diagonal per column.
	cnt := make([]int, n+1)
	for t := range nt {
		i, j := rows[t], cols[t]
		if i < 0 || i >= n || j < 0 || j >= n {
			return nil, nil, fmt.Errorf("%w: triplet %d at (%d,%d) outside %d×%d", ErrDimension, t, i, j, n, n)
		}
		if i > j {
			j = i
		}
		cnt[j+1]++
	}
	for j := range n {
		cnt[j+1]++ // the diagonal
	}
	for j := range n {
		cnt[j+1] += cnt[j]
	}
	// Bucket (row, triplet) pairs by column; diagonal placeholders use t = -1.
	type ent struct{ row, t int }
	buf := make([]ent, cnt[n])
	next := slices.Clone(cnt[:n])
	for j := range n {
		buf[next[j]] = ent{j, -1}
		next[j]++
	}
	for t := range nt {
		i, j := rows[t], cols[t]
		if i > j {
			i, j = j, i
		}
		buf[next[j]] = ent{i, t}
		next[j]++
	}
	a = &SymCSC{N: n, ColPtr: make([]int, n+1)}
	idx = make([]int, nt)
	a.RowIdx = make([]int, 0, cnt[n])
	for j := range n {
		col := buf[cnt[j]:cnt[j+1]]
		slices.SortFunc(col, func(x, y ent) int { return x.row - y.row })
		for k, e := range col {
			if k == 0 || e.row != col[k-1].row {
				a.RowIdx = append(a.RowIdx, e.row)
			}
			if e.t >= 0 {
				idx[e.t] = len(a.RowIdx) - 1
			}
		}
		a.ColPtr[j+1] = len(a.RowIdx)
	}
	a.RowIdx = slices.Clip(a.RowIdx)
	a.Val = make([]float64, len(a.RowIdx))
	if vals != nil {
		for t, v := range vals {
			a.Val[idx[t]] += v
		}
	}
	return a, idx, nil
}

// Validate checks that a is a well-formed SymCSC: N ≥ 0, len(ColPtr) = N+1,
// ColPtr[0] = 0 and non-decreasing, len(RowIdx) = len(Val) = ColPtr[N], row
// indices in [0, j] strictly increasing within column j (so only the upper
// triangle is stored, without duplicates), and the diagonal entry of every
// column present. Errors wrap ErrPattern or ErrDimension. Values are not
// inspected (Factorize checks that they are finite).
func (a *SymCSC) Validate() error {
	if a == nil {
		return fmt.Errorf("%w: nil matrix", ErrPattern)
	}
	n := a.N
	if n < 0 || len(a.ColPtr) != n+1 {
		return fmt.Errorf("%w: N=%d, len(ColPtr)=%d", ErrDimension, n, len(a.ColPtr))
	}
	if a.ColPtr[0] != 0 {
		return fmt.Errorf("%w: ColPtr[0]=%d, want 0", ErrPattern, a.ColPtr[0])
	}
	nnz := a.ColPtr[n]
	if len(a.RowIdx) != nnz || len(a.Val) != nnz {
		return fmt.Errorf("%w: ColPtr[N]=%d, len(RowIdx)=%d, len(Val)=%d", ErrDimension, nnz, len(a.RowIdx), len(a.Val))
	}
	for j := range n {
		p0, p1 := a.ColPtr[j], a.ColPtr[j+1]
		if p1 < p0 || p1 > nnz {
			return fmt.Errorf("%w: ColPtr not non-decreasing at column %d", ErrPattern, j)
		}
		if p1 == p0 || a.RowIdx[p1-1] != j {
			return fmt.Errorf("%w: column %d lacks its diagonal entry", ErrPattern, j)
		}
		prev := -1
		for p := p0; p < p1; p++ {
			i := a.RowIdx[p]
			if i < 0 || i > j {
				return fmt.Errorf("%w: column %d has row %d outside the upper triangle", ErrPattern, j, i)
			}
			if i <= prev {
				return fmt.Errorf("%w: column %d rows not strictly increasing at position %d", ErrPattern, j, p)
			}
			prev = i
		}
	}
	return nil
}

// MulVecTo sets dst = A x for the symmetric matrix A whose upper triangle a
// stores. dst and x must have length N and must not overlap. It does not
// allocate.
func (a *SymCSC) MulVecTo(dst, x []float64) {
	n := a.N
	if len(dst) != n || len(x) != n {
		panic(ErrDimension)
	}
	clear(dst)
	for j := range n {
		p0, p1 := a.ColPtr[j], a.ColPtr[j+1]
		ri := a.RowIdx[p0:p1]
		vv := a.Val[p0:p1]
		vv = vv[:len(ri)]
		xj := x[j]
		s := 0.0
		for k, i := range ri {
			v := vv[k]
			if i == j {
				dst[j] += v * xj
				continue
			}
			dst[i] += v * xj
			s += v * x[i]
		}
		dst[j] += s
	}
}

// SymDense returns A as a dense gonum matrix (for tests and small
// problems); nil when a is empty (gonum has no 0×0 matrix) or fails
// Validate.
func (a *SymCSC) SymDense() *mat.SymDense {
	if a.Validate() != nil || a.N == 0 {
		return nil
	}
	s := mat.NewSymDense(a.N, nil)
	for j := range a.N {
		for p := a.ColPtr[j]; p < a.ColPtr[j+1]; p++ {
			i := a.RowIdx[p]
			s.SetSym(i, j, s.At(i, j)+a.Val[p])
		}
	}
	return s
}

// Clone returns a deep copy of a (nil for nil).
func (a *SymCSC) Clone() *SymCSC {
	if a == nil {
		return nil
	}
	return &SymCSC{N: a.N, ColPtr: slices.Clone(a.ColPtr), RowIdx: slices.Clone(a.RowIdx), Val: slices.Clone(a.Val)}
}

// maxAbs returns max |a_ij| over the stored entries.
func (a *SymCSC) maxAbs() float64 {
	m := 0.0
	for _, v := range a.Val {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// samePattern reports whether a has exactly the pattern (colPtr, rowIdx).
func (a *SymCSC) samePattern(n int, colPtr, rowIdx []int) bool {
	return a.N == n && slices.Equal(a.ColPtr, colPtr) && slices.Equal(a.RowIdx, rowIdx) && len(a.Val) == len(rowIdx)
}

// rowMaxTo writes into out[k] the largest magnitude max_j |a_ij| in row
// i = perm[k] of A (both triangles, diagonal included), using tmp (length
// N) in the original numbering.
func (a *SymCSC) rowMaxTo(perm []int, tmp, out []float64) {
	clear(tmp)
	for j := range a.N {
		for p := a.ColPtr[j]; p < a.ColPtr[j+1]; p++ {
			v := math.Abs(a.Val[p])
			i := a.RowIdx[p]
			tmp[i] = max(tmp[i], v)
			tmp[j] = max(tmp[j], v)
		}
	}
	for k, i := range perm {
		out[k] = tmp[i]
	}
}
