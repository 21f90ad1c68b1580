package ad

import (
	"fmt"
	"sort"
	"strings"
)

// Sparsity is the structural nonzero pattern of a Rows×Cols matrix in
// compressed sparse column form: the row indices of column j are
// RowIdx[ColPtr[j]:ColPtr[j+1]], ascending. Values associated with a pattern
// (SparseMat.Values, the outputs of compiled Jacobians and Hessians) are in
// this order.
type Sparsity struct {
	Rows, Cols int
	ColPtr     []int
	RowIdx     []int
}

func newSparsityFromColumns(rows, cols int, col [][]int) *Sparsity {
	s := &Sparsity{Rows: rows, Cols: cols, ColPtr: make([]int, cols+1)}
	for j := 0; j < cols; j++ {
		s.RowIdx = append(s.RowIdx, col[j]...)
		s.ColPtr[j+1] = len(s.RowIdx)
	}
	if s.RowIdx == nil {
		s.RowIdx = []int{}
	}
	return s
}

// NNZ returns the number of structural nonzeros.
func (s *Sparsity) NNZ() int {
	if s == nil {
		return 0
	}
	return len(s.RowIdx)
}

// Validate checks that s is a well-formed pattern: Rows, Cols ≥ 0,
// len(ColPtr) = Cols + 1, ColPtr[0] = 0 and non-decreasing, ColPtr[Cols] =
// len(RowIdx), row indices in [0, Rows) and ascending within each column.
// The patterns this package builds are; for one that is not (a nil s, or
// one filled by hand), Coords and CSR return nil slices, Index returns −1
// and String "". Errors wrap ErrDimension.
func (s *Sparsity) Validate() error {
	if s == nil {
		return fmt.Errorf("%w: nil Sparsity", ErrDimension)
	}
	if s.Rows < 0 || s.Cols < 0 || len(s.ColPtr) != s.Cols+1 || s.ColPtr[0] != 0 || s.ColPtr[s.Cols] != len(s.RowIdx) {
		return fmt.Errorf("%w: Sparsity %d×%d with %d column pointers and %d row indices", ErrDimension, s.Rows, s.Cols, len(s.ColPtr), len(s.RowIdx))
	}
	for j := 0; j < s.Cols; j++ {
		lo, hi := s.ColPtr[j], s.ColPtr[j+1]
		if lo > hi {
			return fmt.Errorf("%w: Sparsity ColPtr decreases at column %d", ErrDimension, j)
		}
		for k := lo; k < hi; k++ {
			if i := s.RowIdx[k]; i < 0 || i >= s.Rows || (k > lo && i <= s.RowIdx[k-1]) {
				return fmt.Errorf("%w: Sparsity row index %d at position %d of column %d", ErrDimension, i, k, j)
			}
		}
	}
	return nil
}

// Coords returns the coordinate lists (row, column) of the nonzeros in value
// order.
func (s *Sparsity) Coords() (rows, cols []int) {
	if s.Validate() != nil {
		return nil, nil
	}
	rows = append([]int(nil), s.RowIdx...)
	cols = make([]int, len(s.RowIdx))
	for j := 0; j < s.Cols; j++ {
		for k := s.ColPtr[j]; k < s.ColPtr[j+1]; k++ {
			cols[k] = j
		}
	}
	return rows, cols
}

// CSR returns the pattern in compressed sparse row form: the columns of row
// i are ColIdx[RowPtr[i]:RowPtr[i+1]], ascending, and Perm[k] is the index in
// the (CSC-ordered) value array of the k-th CSR entry.
func (s *Sparsity) CSR() (rowPtr, colIdx, perm []int) {
	if s.Validate() != nil {
		return nil, nil, nil
	}
	rowPtr = make([]int, s.Rows+1)
	for _, i := range s.RowIdx {
		rowPtr[i+1]++
	}
	for i := 0; i < s.Rows; i++ {
		rowPtr[i+1] += rowPtr[i]
	}
	next := append([]int(nil), rowPtr[:s.Rows]...)
	colIdx = make([]int, len(s.RowIdx))
	perm = make([]int, len(s.RowIdx))
	for j := 0; j < s.Cols; j++ {
		for k := s.ColPtr[j]; k < s.ColPtr[j+1]; k++ {
			i := s.RowIdx[k]
			colIdx[next[i]] = j
			perm[next[i]] = k
			next[i]++
		}
	}
	return rowPtr, colIdx, perm
}

// Index returns the position of entry (i, j) in the value array, or −1 if it
// is structurally zero.
func (s *Sparsity) Index(i, j int) int {
	if s == nil || j < 0 || j >= s.Cols || len(s.ColPtr) != s.Cols+1 {
		return -1
	}
	lo, hi := s.ColPtr[j], s.ColPtr[j+1]
	if lo < 0 || lo > hi || hi > len(s.RowIdx) {
		return -1
	}
	k := lo + sort.SearchInts(s.RowIdx[lo:hi], i)
	if k < hi && s.RowIdx[k] == i {
		return k
	}
	return -1
}

// String draws the pattern, one line per row, '*' for a nonzero.
func (s *Sparsity) String() string {
	if s.Validate() != nil {
		return ""
	}
	grid := make([][]byte, s.Rows)
	for i := range grid {
		grid[i] = []byte(strings.Repeat(".", s.Cols))
	}
	for j := 0; j < s.Cols; j++ {
		for k := s.ColPtr[j]; k < s.ColPtr[j+1]; k++ {
			grid[s.RowIdx[k]][j] = '*'
		}
	}
	var sb strings.Builder
	for _, r := range grid {
		sb.Write(r)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// SparseMat is a sparse matrix of expressions: the structural nonzeros of
// Pattern, with Values in pattern (CSC) order.
type SparseMat struct {
	Pattern *Sparsity
	Values  Vec
}

// Sparse returns the structurally nonzero entries of m (entries that are
// not the constant 0), in CSC order.
func Sparse(m Mat) SparseMat { return sparseOf(m, false) }

// SparseLower returns the structurally nonzero entries of the lower
// triangle (i ≥ j) of m, in CSC order.
func SparseLower(m Mat) SparseMat { return sparseOf(m, true) }

// sparseOf scans m row by row (in memory order) twice: once to count the
// nonzeros of every column, once to place them; rows come out ascending
// within each column.
func sparseOf(m Mat, lower bool) SparseMat {
	p := &Sparsity{Rows: m.R, Cols: m.C, ColPtr: make([]int, m.C+1)}
	ncols := func(i int) int {
		if lower {
			return min(i+1, m.C)
		}
		return m.C
	}
	for i := 0; i < m.R; i++ {
		for j, e := range m.E[i*m.C : i*m.C+ncols(i)] {
			if !isZeroFast(e) {
				p.ColPtr[j+1]++
			}
		}
	}
	for j := 0; j < m.C; j++ {
		p.ColPtr[j+1] += p.ColPtr[j]
	}
	nnz := p.ColPtr[m.C]
	p.RowIdx = make([]int, nnz)
	vals := make(Vec, nnz)
	next := append([]int(nil), p.ColPtr[:m.C]...)
	for i := 0; i < m.R; i++ {
		for j, e := range m.E[i*m.C : i*m.C+ncols(i)] {
			if !isZeroFast(e) {
				p.RowIdx[next[j]] = i
				vals[next[j]] = e
				next[j]++
			}
		}
	}
	return SparseMat{Pattern: p, Values: vals}
}

// isZeroFast is e.IsZero() with a shortcut for the graph's cached zero.
func isZeroFast(e Expr) bool {
	if e.g != nil && e.id == e.g.zeroID && e.id != 0 {
		return true
	}
	return e.IsZero()
}
