package linalg

import (
	"fmt"
	"math"
	"slices"
)

// symbolic is the result of the analysis phase for one pattern and one
// permutation: the permuted pattern C = P A Pᵀ (upper CSC), the elimination
// tree, the column structure of L and, for every row k of L, the list of its
// off-diagonal columns together with the position in Lx where L[k,i] goes.
//
// Index arrays that scale with nnz(L) are int32 to halve memory traffic in the
// numeric loops; Analyze refuses patterns with nnz(L) ≥ 2³¹−1.
type symbolic struct {
	n    int
	perm []int // perm[k] = original index of pivot k
	pinv []int // pinv[perm[k]] = k

	cp   []int   // column pointers of C (n+1)
	ci   []int32 // row indices of C (upper, diagonal included, unsorted)
	amap []int32 // amap[p] = position in C of A.Val[p]

	parent []int // elimination tree, −1 for roots

	lp []int   // column pointers of L (n+1), strictly lower part
	li []int32 // row indices of L, increasing within each column

	rp   []int      // row pointers of the row structure of L (n+1)
	rcol []int32    // column index i of each off-diagonal entry L[k,i], increasing in i (symbolic phase only)
	rent []rowEntry // per entry L[k,i]: what the numeric phase needs, in one stream

	nnzL  int     // off-diagonal nnz(L)
	flops float64 // Σ_j c_j(c_j+2), c_j = nnz(L[:,j]); see SparseStats.Flops
}

// rowEntry describes the off-diagonal entry L[k,i] of row k: column i, the
// start of column i in li/lx, and the position of L[k,i] there. When row k
// is computed, li[start:pos] are exactly the entries of column i above row k.
type rowEntry struct {
	col, start, pos int32
}

// permutePattern builds the upper pattern of C = P A Pᵀ, where pinv maps
// original to permuted indices. amap[p] gives the position in C of entry p
// of a.
func permutePattern(a *SymCSC, pinv []int) (cp []int, ci []int32, amap []int32) {
	n := a.N
	cp = make([]int, n+1)
	for j := range n {
		cj := pinv[j]
		for p := a.ColPtr[j]; p < a.ColPtr[j+1]; p++ {
			ri := pinv[a.RowIdx[p]]
			cp[max(ri, cj)+1]++
		}
	}
	for k := range n {
		cp[k+1] += cp[k]
	}
	next := slices.Clone(cp[:n])
	nnz := cp[n]
	ci = make([]int32, nnz)
	amap = make([]int32, nnz)
	for j := range n {
		cj := pinv[j]
		for p := a.ColPtr[j]; p < a.ColPtr[j+1]; p++ {
			ri := pinv[a.RowIdx[p]]
			r, c := min(ri, cj), max(ri, cj)
			q := next[c]
			next[c]++
			ci[q] = int32(r)
			amap[p] = int32(q)
		}
	}
	return cp, ci, amap
}

// etree computes the elimination tree of the symmetric matrix whose upper
// pattern is (cp, ci), by Liu's algorithm with path compression through an
// ancestor array (Davis 2006, §4.1).
func etree(n int, cp []int, ci []int32) []int {
	parent := make([]int, n)
	anc := make([]int, n)
	for k := range n {
		parent[k] = -1
		anc[k] = -1
		for p := cp[k]; p < cp[k+1]; p++ {
			i := int(ci[p])
			for i != -1 && i < k {
				inext := anc[i]
				anc[i] = k
				if inext == -1 {
					parent[i] = k
				}
				i = inext
			}
		}
	}
	return parent
}

// rowCounts walks, for every row k, the etree reach of the pattern of
// C[:k,k]: the reach is the off-diagonal pattern of row k of L (Davis 2006,
// §4.2). It returns the column counts c_j = nnz(L[j+1:,j]) and their sum.
// If visit is not nil it is called for every (k, i) with L[k,i] ≠ 0, in no
// particular order of i.
func rowCounts(n int, cp []int, ci []int32, parent []int, visit func(k, i int)) (counts []int, total int) {
	counts = make([]int, n)
	flag := make([]int, n)
	for k := range n {
		flag[k] = k
		for p := cp[k]; p < cp[k+1]; p++ {
			i := int(ci[p])
			for i < k && flag[i] != k {
				flag[i] = k
				counts[i]++
				total++
				if visit != nil {
					visit(k, i)
				}
				i = parent[i]
			}
		}
	}
	return counts, total
}

// symbolicNnz returns the off-diagonal nnz(L) for pivot order perm.
func symbolicNnz(a *SymCSC, perm []int) int {
	pinv := invPerm(perm)
	cp, ci, _ := permutePattern(a, pinv)
	parent := etree(a.N, cp, ci)
	_, total := rowCounts(a.N, cp, ci, parent, nil)
	return total
}

func invPerm(perm []int) []int {
	pinv := make([]int, len(perm))
	for k, i := range perm {
		pinv[i] = k
	}
	return pinv
}

// analyze performs the complete symbolic phase for pivot order perm.
func analyze(a *SymCSC, perm []int) (*symbolic, error) {
	n := a.N
	s := &symbolic{n: n, perm: slices.Clone(perm), pinv: invPerm(perm)}
	s.cp, s.ci, s.amap = permutePattern(a, s.pinv)
	s.parent = etree(n, s.cp, s.ci)
	counts, total := rowCounts(n, s.cp, s.ci, s.parent, nil)
	if total >= math.MaxInt32 {
		return nil, fmt.Errorf("%w: nnz(L) = %d exceeds 2³¹−1", ErrDimension, total)
	}
	s.nnzL = total
	s.lp = make([]int, n+1)
	for j, c := range counts {
		s.lp[j+1] = s.lp[j] + c
		s.flops += float64(c) * float64(c+2)
	}
	// Row structure: count per row, then fill while walking rows in order,
	// so each column of L receives its rows in increasing order.
	rowCnt := make([]int, n)
	rowCounts(n, s.cp, s.ci, s.parent, func(k, _ int) { rowCnt[k]++ })
	s.rp = make([]int, n+1)
	for k, c := range rowCnt {
		s.rp[k+1] = s.rp[k] + c
	}
	s.rcol = make([]int32, total)
	s.rent = make([]rowEntry, total)
	s.li = make([]int32, total)
	fill := slices.Clone(s.lp[:n])
	next := slices.Clone(s.rp[:n])
	rowCounts(n, s.cp, s.ci, s.parent, func(k, i int) {
		s.rcol[next[k]] = int32(i)
		next[k]++
	})
	for k := range n {
		row := s.rcol[s.rp[k]:s.rp[k+1]]
		// Increasing column order is a topological order of the reach and
		// walks L's columns left to right (better locality).
		slices.Sort(row)
		for t, i := range row {
			q := fill[i]
			fill[i]++
			s.li[q] = int32(k)
			s.rent[s.rp[k]+t] = rowEntry{col: i, start: int32(s.lp[i]), pos: int32(q)}
		}
	}
	s.rcol = nil
	return s, nil
}
