package linalg

import (
	"fmt"
	"math"
	"slices"
)

// mfSymbolic is the symbolic phase of Multifrontal: the pivot order, the
// assembly tree of fronts and, for every front, its columns, its row
// structure and the original entries it assembles.
//
// Variables are numbered so that the fronts own contiguous ranges in a
// postorder of the assembly tree: front f owns variables fcol[f] ≤ j <
// fcol[f+1], and every child of f has an index smaller than f.
type mfSymbolic struct {
	n    int
	perm []int // perm[k] = original index of variable k

	nf      int
	fcol    []int32 // owned variables of front f: fcol[f] … fcol[f+1]−1
	fparent []int32 // parent front, −1 for roots
	cptr    []int32 // children of f: child[cptr[f]:cptr[f+1]], increasing
	child   []int32
	sptr    []int   // row structure of f: srow[sptr[f]:sptr[f+1]], increasing
	srow    []int32 // (rows of L below the owned block, no delays)
	aptr    []int   // original entries of f: aent[aptr[f]:aptr[f+1]]
	aent    []mfEntry

	nnzL     int // L entries without delays (front trapezoids, explicit zeros included)
	lxLen    int // storage of L without delays (k × front order per front)
	maxFront int // largest front order without delays
	stackVal int // peak contribution-block stack without delays (values)
	stackIdx int // same, index entries
}

// mfEntry places A.Val[p] in column col, row row of its front, in the
// front's local numbering without delayed pivots (owned variables 0…K−1,
// then the row structure K…K+r−1). Delays shift rows ≥ K by their number.
type mfEntry struct {
	p, col, row int32
}

// postorder returns a postorder of the forest given by parent (children
// visited in increasing order, roots in increasing order): post[k] is the
// k-th node.
func postorder(parent []int) []int {
	n := len(parent)
	head := make([]int, n)
	next := make([]int, n)
	for i := range head {
		head[i] = -1
	}
	for j := n - 1; j >= 0; j-- {
		if p := parent[j]; p >= 0 {
			next[j] = head[p]
			head[p] = j
		}
	}
	post := make([]int, 0, n)
	stack := make([]int, 0, n)
	for r := range n {
		if parent[r] >= 0 {
			continue
		}
		stack = append(stack, r)
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if c := head[top]; c >= 0 {
				head[top] = next[c]
				stack = append(stack, c)
				continue
			}
			stack = stack[:len(stack)-1]
			post = append(post, top)
		}
	}
	return post
}

// relaxedMerge is the amalgamation rule: a front of k columns whose dense
// trapezoid has tot entries, zeros of them structurally zero, is accepted
// when the zero fraction is below 50 % (k ≤ 8), 10 % (k ≤ 48) or 5 %
// (larger). The shape is that of CHOLMOD's relaxed supernodes (Ashcraft &
// Grimes, ACM TOMS 15(4), 1989; Chen, Davis, Hager, Rajamanickam, ACM TOMS
// 35(3), 2008); the limits are tighter than CHOLMOD's (which merges any
// k ≤ 4 and allows 80 % zeros up to k = 16) because on the OCP-shaped KKT
// benchmark (kktgen) those inflate nnz(L) by 2–3× and the factorization
// time with it, while these keep nnz(L) within 1.5–2× and are fastest.
func relaxedMerge(k, zeros, tot int) bool {
	z := float64(zeros)
	t := float64(tot)
	switch {
	case k <= 8:
		return z < 0.5*t
	case k <= 48:
		return z < 0.1*t
	default:
		return z < 0.05*t
	}
}

// mfAnalyze performs the symbolic phase of Multifrontal for the fill-reducing
// order perm0 (perm0[k] = original index of pivot k), in the steps of
// mfAnalysis below.
func mfAnalyze(a *SymCSC, perm0 []int) (*mfSymbolic, error) {
	an := &mfAnalysis{a: a, n: a.N}
	if err := an.tree(perm0); err != nil {
		return nil, err
	}
	an.supernodes()
	an.amalgamate()
	an.fronts()
	an.children()
	an.rowStructures()
	an.entries()
	an.sizes()
	return an.sym, nil
}

// mfAnalysis holds the intermediate results of mfAnalyze.
type mfAnalysis struct {
	a *SymCSC
	n int
	// tree: the postordered order perm1, its pattern and elimination tree,
	// the column counts of L.
	perm1, cp, parent, counts []int
	ci                        []int32
	// supernodes: snode[j] is the fundamental supernode of column j,
	// sfirst[s] its first column (sfirst[ns] = n), sparent the supernodal
	// tree, nrow[s] = |struct|.
	snode, sfirst, sparent, nrow []int
	// amalgamate: rep[s] the front representative (top supernode), reps
	// the representatives in increasing order, fid[s] the front of a
	// representative.
	rep, reps, fid []int
	// fronts: fnew maps a front to its postordered id, newOf a perm1 index
	// to its final index.
	fnew, newOf []int
	sym         *mfSymbolic
}

// tree postorders the elimination tree of perm0 (an equivalent order, the
// same fill, in which fundamental supernodes are chains of consecutive
// columns) and counts the columns of L.
func (an *mfAnalysis) tree(perm0 []int) error {
	n, a := an.n, an.a
	cp, ci, _ := permutePattern(a, invPerm(perm0))
	parent := etree(n, cp, ci)
	post := postorder(parent)
	an.perm1 = make([]int, n)
	for k, j := range post {
		an.perm1[k] = perm0[j]
	}
	an.cp, an.ci, _ = permutePattern(a, invPerm(an.perm1))
	an.parent = etree(n, an.cp, an.ci)
	var total int
	an.counts, total = rowCounts(n, an.cp, an.ci, an.parent, nil)
	if total >= math.MaxInt32 {
		return fmt.Errorf("%w: nnz(L) = %d exceeds 2³¹−1", ErrDimension, total)
	}
	return nil
}

// supernodes finds the fundamental supernodes (Liu, Ng, Peyton, SIMAX
// 14(1), 1993): j joins the supernode of j−1 when parent(j−1) = j, j has
// no other child, and struct(j−1) = {j} ∪ struct(j) (the column counts
// differ by one).
func (an *mfAnalysis) supernodes() {
	n, parent, counts := an.n, an.parent, an.counts
	nchild := make([]int, n)
	for _, p := range parent {
		if p >= 0 {
			nchild[p]++
		}
	}
	an.snode = make([]int, n)
	sfirst := make([]int, 0, n+1)
	for j := range n {
		if j > 0 && parent[j-1] == j && counts[j-1] == counts[j]+1 && nchild[j] == 1 {
			an.snode[j] = an.snode[j-1]
			continue
		}
		an.snode[j] = len(sfirst)
		sfirst = append(sfirst, j)
	}
	ns := len(sfirst)
	an.sfirst = append(sfirst, n)
	an.sparent = make([]int, ns)
	an.nrow = make([]int, ns)
	for s := range ns {
		last := an.sfirst[s+1] - 1
		an.sparent[s] = -1
		if p := parent[last]; p >= 0 {
			an.sparent[s] = an.snode[p]
		}
		an.nrow[s] = counts[last]
	}
}

// amalgamate merges a supernode into its parent by relaxedMerge (children
// are numbered before parents, so a parent has absorbed its earlier
// children when it is tested itself). The merged front keeps the parent's
// row structure, which contains the child's minus the parent's columns.
func (an *mfAnalysis) amalgamate() {
	ns := len(an.sparent)
	ncol := make([]int, ns)
	nzTrue := make([]int, ns) // true nnz of the columns (diagonal included)
	for s := range ns {
		ncol[s] = an.sfirst[s+1] - an.sfirst[s]
		for j := an.sfirst[s]; j < an.sfirst[s+1]; j++ {
			nzTrue[s] += an.counts[j] + 1
		}
	}
	merged := make([]int, ns)
	for s := range ns {
		merged[s] = -1
		p := an.sparent[s]
		if p < 0 {
			continue
		}
		k := ncol[s] + ncol[p]
		tot := k*(k+1)/2 + k*an.nrow[p]
		if relaxedMerge(k, tot-nzTrue[s]-nzTrue[p], tot) {
			merged[s] = p
			ncol[p] = k
			nzTrue[p] += nzTrue[s]
		}
	}
	an.rep = make([]int, ns)
	for s := ns - 1; s >= 0; s-- {
		an.rep[s] = s
		if merged[s] >= 0 {
			an.rep[s] = an.rep[merged[s]]
		}
	}
	// Fronts in increasing representative order.
	an.fid = make([]int, ns)
	for s := range ns {
		if merged[s] < 0 {
			an.fid[s] = len(an.reps)
			an.reps = append(an.reps, s)
		}
	}
}

// fronts postorders the fronts and numbers the columns: fronts in
// postorder, own columns in increasing order.
func (an *mfAnalysis) fronts() {
	n, nf := an.n, len(an.reps)
	fpar0 := make([]int, nf)
	for f, s := range an.reps {
		fpar0[f] = -1
		if p := an.sparent[s]; p >= 0 {
			fpar0[f] = an.fid[an.rep[p]]
		}
	}
	fpost := postorder(fpar0)
	an.fnew = make([]int, nf) // old front id → postordered id
	for k, f := range fpost {
		an.fnew[f] = k
	}
	sym := &mfSymbolic{n: n, nf: nf}
	an.sym = sym
	sym.fcol = make([]int32, nf+1)
	sym.fparent = make([]int32, nf)
	for f := range nf {
		sym.fparent[an.fnew[f]] = -1
		if p := fpar0[f]; p >= 0 {
			sym.fparent[an.fnew[f]] = int32(an.fnew[p])
		}
	}
	frontOf1 := make([]int, n) // front (postordered) of each perm1 index
	for j := range n {
		f := an.fnew[an.fid[an.rep[an.snode[j]]]]
		frontOf1[j] = f
		sym.fcol[f+1]++
	}
	for f := range nf {
		sym.fcol[f+1] += sym.fcol[f]
	}
	an.newOf = make([]int, n) // perm1 index → new index
	next := slices.Clone(sym.fcol[:nf])
	for j := range n {
		f := frontOf1[j]
		an.newOf[j] = int(next[f])
		next[f]++
	}
	sym.perm = make([]int, n)
	for j := range n {
		sym.perm[an.newOf[j]] = an.perm1[j]
	}
}

// children builds the children lists of the fronts.
func (an *mfAnalysis) children() {
	sym := an.sym
	nf := sym.nf
	sym.cptr = make([]int32, nf+1)
	for _, p := range sym.fparent {
		if p >= 0 {
			sym.cptr[p+1]++
		}
	}
	for f := range nf {
		sym.cptr[f+1] += sym.cptr[f]
	}
	sym.child = make([]int32, sym.cptr[nf])
	next := slices.Clone(sym.cptr[:nf])
	for f, p := range sym.fparent {
		if p >= 0 {
			sym.child[next[p]] = int32(f)
			next[p]++
		}
	}
}

// rowStructures collects the row structures, the pattern of L below the
// last column of each representative, by the row-subtree walks, and
// renumbers them.
func (an *mfAnalysis) rowStructures() {
	sym, n := an.sym, an.n
	nf := sym.nf
	sym.sptr = make([]int, nf+1)
	lastOf := make([]int, n) // front (postordered) + 1 if j is a representative's last column
	for f, s := range an.reps {
		last := an.sfirst[s+1] - 1
		lastOf[last] = an.fnew[f] + 1
		sym.sptr[an.fnew[f]+1] = an.nrow[s]
	}
	for f := range nf {
		sym.sptr[f+1] += sym.sptr[f]
	}
	sym.srow = make([]int32, sym.sptr[nf])
	next := slices.Clone(sym.sptr[:nf])
	rowCounts(n, an.cp, an.ci, an.parent, func(k, i int) {
		if f := lastOf[i] - 1; f >= 0 {
			sym.srow[next[f]] = int32(an.newOf[k])
			next[f]++
		}
	})
	for f := range nf {
		slices.Sort(sym.srow[sym.sptr[f]:sym.sptr[f+1]])
	}
}

// entries assigns the original entries: A_ij (i ≤ j in the new numbering)
// belongs to the front owning i, at row j of its column i (local indices),
// in the order of A.Val within a front.
func (an *mfAnalysis) entries() {
	sym, n, a := an.sym, an.n, an.a
	nf := sym.nf
	frontOf := make([]int32, n)
	for f := range nf {
		for j := sym.fcol[f]; j < sym.fcol[f+1]; j++ {
			frontOf[j] = int32(f)
		}
	}
	pinv := invPerm(sym.perm)
	sym.aptr = make([]int, nf+1)
	for j := range n {
		for p := a.ColPtr[j]; p < a.ColPtr[j+1]; p++ {
			lo := min(pinv[j], pinv[a.RowIdx[p]])
			sym.aptr[frontOf[lo]+1]++
		}
	}
	for f := range nf {
		sym.aptr[f+1] += sym.aptr[f]
	}
	sym.aent = make([]mfEntry, sym.aptr[nf])
	next := slices.Clone(sym.aptr[:nf])
	for j := range n {
		for p := a.ColPtr[j]; p < a.ColPtr[j+1]; p++ {
			r, c := pinv[j], pinv[a.RowIdx[p]]
			lo, hi := min(r, c), max(r, c)
			f := frontOf[lo]
			// row holds the global index for now.
			sym.aent[next[f]] = mfEntry{p: int32(p), col: int32(lo), row: int32(hi)}
			next[f]++
		}
	}
	local := make([]int32, n)
	for f := range nf {
		f0, f1 := sym.fcol[f], sym.fcol[f+1]
		k := f1 - f0
		for t, r := range sym.srow[sym.sptr[f]:sym.sptr[f+1]] {
			local[r] = k + int32(t)
		}
		ents := sym.aent[sym.aptr[f]:sym.aptr[f+1]]
		for q := range ents {
			e := &ents[q]
			if e.row < f1 {
				e.row -= f0
			} else {
				e.row = local[e.row]
			}
			e.col -= f0
		}
		// Scatter in the order of A.Val (reads A's values sequentially).
		slices.SortFunc(ents, func(x, y mfEntry) int { return int(x.p - y.p) })
	}
}

// sizes computes the sizes without delays: nnz(L), the largest front, the
// peak stack of update matrices.
func (an *mfAnalysis) sizes() {
	sym := an.sym
	nf := sym.nf
	var stackV, stackI, nrec int
	recV := make([]int, 0, nf)
	recI := make([]int, 0, nf)
	for f := range nf {
		k := int(sym.fcol[f+1] - sym.fcol[f])
		r := sym.sptr[f+1] - sym.sptr[f]
		sym.nnzL += k*(k-1)/2 + k*r
		sym.lxLen += k * (k + r)
		sym.maxFront = max(sym.maxFront, k+r)
		nc := int(sym.cptr[f+1] - sym.cptr[f])
		for range nc {
			nrec--
			stackV -= recV[nrec]
			stackI -= recI[nrec]
		}
		recV, recI = recV[:nrec], recI[:nrec]
		if sym.fparent[f] >= 0 {
			recV = append(recV, r*(r+1)/2)
			recI = append(recI, r)
			nrec++
			stackV += r * (r + 1) / 2
			stackI += r
			sym.stackVal = max(sym.stackVal, stackV)
			sym.stackIdx = max(sym.stackIdx, stackI)
		}
	}
}
