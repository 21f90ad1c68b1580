package linalg

import (
	"fmt"
	"math"
	"slices"
)

// Multifrontal is the sparse symmetric indefinite LDLᵀ backend with
// threshold pivoting: P A Pᵀ = L D Lᵀ with D block diagonal (1×1 and 2×2
// blocks), computed by the multifrontal method of Duff & Reid (ACM TOMS 9,
// 1983) as in MA27/MA57. Analyze orders the matrix as Sparse does and builds
// an assembly tree of dense fronts (relaxed supernodes); Factorize processes
// the fronts in postorder, choosing pivots within each front by the
// threshold test with parameter Settings.PivotTol and delaying the columns
// it cannot pivot on to the parent front. See the package documentation.
//
// After Analyze and a first Factorize, Factorize, Solve and RefinedSolve do
// not allocate unless a later factorization needs more delayed pivots (and
// hence larger fronts) than any before.
//
// A Multifrontal is not safe for concurrent use.
type Multifrontal struct {
	set Settings // with defaults filled in

	sym            *mfSymbolic
	colPtr, rowIdx []int    // pattern given to Analyze
	ordering       Ordering // ordering actually used
	candAMD        int      // nnz(L) of both candidates for OrderBest
	candGiven      int

	// Factorization workspace.
	front []float64 // current front, column-major, leading dimension m (lower triangle used)
	fidx  []int32   // variables of the current front (local → global)
	upd   []float64 // local vectors in Solve
	wp    []float64 // W = L D: unscaled pivot columns of the front (m × q)
	tl    []int32   // pivots t with W[j, t] ≠ 0 for the updated column j
	wl    []float64 // their W[j, t]
	wl2   []float64 // and W[j+1, t]
	pos   []int32   // global → local position in the current front
	lpos  []int32   // local positions of a child's contribution block
	fcap  int       // front order the workspace above allows
	stk   []float64 // contribution-block stack, each block packed lower by columns
	stkI  []int32   // index lists of the stacked blocks
	recs  []mfBlock // stack records

	// Factors.
	lx    []float64 // L per front: the front's first e columns (leading dimension m), column t holds L in rows t+1…m−1
	li    []int32   // per-front index lists (m entries; pivots first, in order)
	fm    []int32   // front order m (with delays)
	fe    []int32   // pivots eliminated in the front
	loff  []int     // offsets into lx
	ioff  []int     // offsets into li
	kind  []int8    // per pivot in elimination order: 0 = 1×1, 1/2 = first/second of a 2×2
	dinv  []float64 // 1×1: 1/d; 2×2: diagonal entries of the inverse block
	doff  []float64 // 2×2: off-diagonal entry of the inverse block (at the first pivot)
	sgn   []int8    // expected signs by variable (0 = none)
	mag   []float64 // max_j |a_kj| + Σ|updates| of every diagonal (permuted order)
	rtmp  []float64 // work: row maxima of A (original order)
	w     []float64 // permuted right-hand side / solution
	ref   refineWork
	inert Inertia

	ndelay, n2x2, nzero, nnzL, maxFront int
	ok                                  bool
}

// mfBlock locates a contribution block on the stack: values stk[val:],
// size·(size+1)/2 of them, and index list stkI[idx:idx+size], whose first
// nd entries are the pivots delayed by the front.
type mfBlock struct {
	val, idx, size, nd int
}

var (
	_ LinearSolver  = (*Multifrontal)(nil)
	_ RefinedSolver = (*Multifrontal)(nil)
)

// NewMultifrontal returns a multifrontal LDLᵀ solver with threshold pivoting
// (zero fields of settings take their documented defaults).
func NewMultifrontal(settings Settings) (*Multifrontal, error) {
	if err := settings.Validate(); err != nil {
		return nil, err
	}
	s := settings.withDefaults()
	s.Perm = slices.Clone(s.Perm)
	return &Multifrontal{set: s}, nil
}

// MultifrontalStats describes the assembly tree and the last factorization.
type MultifrontalStats struct {
	N        int      // order of the matrix
	NnzA     int      // stored entries of A (upper triangle with diagonal)
	Ordering Ordering // ordering used: OrderAMD, OrderNatural or OrderGiven
	// NnzLAMD and NnzLGiven are the symbolic nnz(L) of both candidates when
	// Ordering was OrderBest (0 otherwise).
	NnzLAMD, NnzLGiven int
	// Fronts is the number of fronts (relaxed supernodes) of the assembly
	// tree.
	Fronts int
	// MaxFront is the order of the largest front of the last Factorize
	// (before it: without delays).
	MaxFront int
	// NnzL is the number of entries of L stored by the last Factorize, unit
	// diagonal excluded, explicit zeros of the dense fronts (amalgamation,
	// 2×2 blocks) included; before it, the same count without delays.
	NnzL int
	// Delayed counts the delay events of the last Factorize: a column that
	// a front could not pivot on and passed to its parent (a column
	// delayed twice counts twice).
	Delayed int
	// TwoByTwo is the number of 2×2 pivots of the last Factorize.
	TwoByTwo int
	// Zero is the number of zero pivots (1×1 pivots or 2×2 eigenvalues with
	// magnitude at most their zero-pivot threshold, see Factorize) replaced
	// by ±RegDelta; equal to
	// Inertia().Zero.
	Zero int
}

// Stats returns statistics of the analysis and of the last factorization.
func (s *Multifrontal) Stats() MultifrontalStats {
	st := MultifrontalStats{Ordering: s.ordering, NnzLAMD: s.candAMD, NnzLGiven: s.candGiven,
		Delayed: s.ndelay, TwoByTwo: s.n2x2, Zero: s.nzero}
	if s.sym != nil {
		st.N = s.sym.n
		st.NnzA = len(s.rowIdx)
		st.Fronts = s.sym.nf
		st.MaxFront, st.NnzL = s.sym.maxFront, s.sym.nnzL
		if s.ok {
			st.MaxFront, st.NnzL = s.maxFront, s.nnzL
		}
	}
	return st
}

// Analyze computes the ordering, the assembly tree and the symbolic structure
// of the fronts for the pattern of a, and allocates the storage used by
// Factorize and Solve (with room for some delayed pivots).
func (s *Multifrontal) Analyze(a *SymCSC) error {
	s.sym, s.ok = nil, false
	if err := a.Validate(); err != nil {
		return err
	}
	n := a.N
	perm, err := s.set.choosePerm(a, &s.ordering, &s.candAMD, &s.candGiven)
	if err != nil {
		return err
	}
	sym, err := mfAnalyze(a, perm)
	if err != nil {
		return err
	}
	s.sym = sym
	s.colPtr = slices.Clone(a.ColPtr)
	s.rowIdx = slices.Clone(a.RowIdx)
	// Workspace with room for delays: 25 % more, at least 8 rows per front.
	nf := sym.nf
	mcap := sym.maxFront + max(8, sym.maxFront/4)
	s.front = make([]float64, mcap*mcap)
	s.fidx = make([]int32, mcap)
	s.upd = make([]float64, mcap)
	s.wp = make([]float64, mcap*mcap)
	s.tl = make([]int32, mcap)
	s.wl = make([]float64, mcap)
	s.wl2 = make([]float64, mcap)
	s.lpos = make([]int32, mcap)
	s.fcap = mcap
	s.pos = make([]int32, n)
	s.stk = make([]float64, sym.stackVal+sym.stackVal/4+64)
	s.stkI = make([]int32, sym.stackIdx+sym.stackIdx/4+64)
	s.recs = make([]mfBlock, 0, nf)
	s.lx = make([]float64, sym.lxLen+sym.lxLen/4+64)
	nli := n + len(sym.srow)
	s.li = make([]int32, nli+nli/4+64)
	s.fm = make([]int32, nf)
	s.fe = make([]int32, nf)
	s.loff = make([]int, nf)
	s.ioff = make([]int, nf)
	s.kind = make([]int8, n)
	s.dinv = make([]float64, n)
	s.doff = make([]float64, n)
	s.sgn = make([]int8, n)
	s.mag, s.rtmp = make([]float64, n), make([]float64, n)
	s.w = make([]float64, n)
	s.ref = newRefineWork(n)
	return nil
}

// grow returns b if it has at least n elements, else a larger copy (with
// 50 % headroom, so that repeated growth is rare).
func grow[T any](b []T, n int) []T {
	if n <= len(b) {
		return b
	}
	nb := make([]T, n+n/2)
	copy(nb, b)
	return nb
}

// Factorize computes P A Pᵀ = L D Lᵀ with threshold pivoting for the values
// of a, whose pattern must equal the one given to Analyze (else ErrPattern).
//
// Each front is assembled from the original entries of its columns and the
// contribution blocks of its children (extend-add); then pivots are chosen
// among its fully summed columns (its own and those delayed by its
// children): a 1×1 pivot a_kk when |a_kk| > τ_k and
// |a_kk| ≥ u·max_{i≠k}|a_ik| over the whole front column; otherwise the 2×2
// pivot P = [a_kk a_kr; a_rk a_rr] with the fully summed row r of largest
// |a_rk|, when |P⁻¹|·(γ_k, γ_r)ᵀ ≤ (1/u, 1/u)ᵀ (γ: largest entries of
// columns k and r outside P) and both eigenvalues of P exceed
// max(τ_k, τ_r) in magnitude, where τ_k = ZeroPivotTol·min(1, s_k) and s_k
// is max_j |a_kj| over the row of A plus the sizes of the updates column
// k received (as in Sparse.Factorize). A column whose entries are all
// ≤ τ_k is a zero pivot. Columns that fail are delayed to the parent
// front; a root front eliminates every remaining column, by
// Bunch–Kaufman's choice when the threshold test fails.
//
// Zero pivots (a 1×1 pivot with magnitude ≤ τ_k, or an eigenvalue of a
// 2×2 pivot ≤ min(τ_k, τ_r), possible only at a root) are counted as Zero
// and replaced by σ·RegDelta, σ the expected sign (from signs, in the
// original numbering) or the computed sign (+ for 0), as in Sparse. The other pivots
// count by their sign; a 2×2 pivot by the signs of its eigenvalues.
//
// Errors are those of Sparse.Factorize: ErrNotAnalyzed, ErrPattern,
// ErrSigns, and an error wrapping ErrNonFinite for a NaN or ±Inf value or
// pivot (the factorization is then unusable until the next successful
// Factorize). A singular or wrongly-inertial matrix is not an error.
func (s *Multifrontal) Factorize(a *SymCSC, signs []int8) error {
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
	clear(sgn)
	if signs != nil {
		for k, orig := range sym.perm {
			g := signs[orig]
			if g != 1 && g != -1 {
				return fmt.Errorf("%w: signs[%d]=%d", ErrSigns, orig, g)
			}
			sgn[k] = g
		}
	}
	for p, v := range a.Val {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &NonFiniteError{Where: "value", Index: p}
		}
	}
	// The pivot-size scale of every diagonal: max_j |a_kj| over its row of
	// A here (which includes |a_kk|), plus the sizes of the updates it
	// receives (added as the fronts are factorized).
	a.rowMaxTo(sym.perm, s.rtmp, s.mag)
	s.inert = Inertia{}
	s.ndelay, s.n2x2, s.nzero, s.maxFront = 0, 0, 0, 0
	recs := s.recs[:0]
	stkTop, stkITop := 0, 0
	lTop, iTop, kTop, nnzL := 0, 0, 0, 0
	for f := range sym.nf {
		f0, f1 := int(sym.fcol[f]), int(sym.fcol[f+1])
		nk := f1 - f0
		nc := int(sym.cptr[f+1] - sym.cptr[f])
		ch := recs[len(recs)-nc:]
		nd := 0
		for _, c := range ch {
			nd += c.nd
		}
		rows := sym.srow[sym.sptr[f]:sym.sptr[f+1]]
		q := nk + nd
		m := q + len(rows)
		s.ensureFront(m)
		F := s.front[:m*m]
		idx := s.fidx[:m]
		for t := range nk {
			idx[t] = int32(f0 + t)
		}
		o := nk
		for _, c := range ch {
			copy(idx[o:o+c.nd], s.stkI[c.idx:c.idx+c.nd])
			o += c.nd
		}
		copy(idx[q:], rows)
		pos := s.pos
		for t, v := range idx {
			pos[v] = int32(t)
		}
		for j := range m {
			clear(F[j*m+j : (j+1)*m])
		}
		val := a.Val
		for _, e := range sym.aent[sym.aptr[f]:sym.aptr[f+1]] {
			r := int(e.row)
			if r >= nk {
				r += nd
			}
			F[int(e.col)*m+r] = val[e.p]
		}
		for _, c := range ch {
			s.extendAdd(F, m, c)
		}
		if nc > 0 {
			stkTop, stkITop = ch[0].val, ch[0].idx
			recs = recs[:len(recs)-nc]
		}
		root := sym.fparent[f] < 0
		e, err := s.factorFront(F, m, q, root, idx, kTop, stkTop)
		if err != nil {
			return err
		}
		if root && e != m {
			panic("linalg: multifrontal root front not fully eliminated")
		}
		// Store the L panel (the first e columns of the front, leading
		// dimension m) and the index list.
		s.lx = grow(s.lx, lTop+e*m)
		copy(s.lx[lTop:], F[:e*m])
		s.li = grow(s.li, iTop+m)
		copy(s.li[iTop:], idx)
		s.fm[f], s.fe[f], s.loff[f], s.ioff[f] = int32(m), int32(e), lTop, iTop
		lTop += e * m
		iTop += m
		kTop += e
		nnzL += e*(m-1) - e*(e-1)/2
		s.maxFront = max(s.maxFront, m)
		if !root {
			// factorFront pushed the contribution block F[e:m, e:m].
			sz := m - e
			s.stkI = grow(s.stkI, stkITop+sz)
			copy(s.stkI[stkITop:], idx[e:m])
			recs = append(recs, mfBlock{val: stkTop, idx: stkITop, size: sz, nd: q - e})
			s.ndelay += q - e
			stkTop += sz * (sz + 1) / 2
			stkITop += sz
		}
	}
	s.recs = recs[:0]
	s.nnzL = nnzL
	s.ok = true
	return nil
}

// ensureFront makes the front workspace large enough for fronts of order
// m (s.fcap records the order it allows).
func (s *Multifrontal) ensureFront(m int) {
	if m <= s.fcap {
		return
	}
	s.front = grow(s.front, m*m)
	s.fidx = grow(s.fidx, m)
	s.upd = grow(s.upd, m)
	s.wp = grow(s.wp, m*m)
	s.tl = grow(s.tl, m)
	s.wl = grow(s.wl, m)
	s.wl2 = grow(s.wl2, m)
	s.lpos = grow(s.lpos, m)
	s.fcap = m
}

// extendAdd adds the contribution block c into the front F of order m,
// whose local positions are in s.pos. The block's first c.nd variables
// (pivots delayed by the child) may land anywhere among the parent's fully
// summed columns; the others keep their relative order in the parent, and
// a column whose rows land on consecutive positions is added as a whole.
func (s *Multifrontal) extendAdd(F []float64, m int, c mfBlock) {
	sz := c.size
	lp := s.lpos[:sz]
	for i, v := range s.stkI[c.idx : c.idx+sz] {
		lp[i] = s.pos[v]
	}
	cb := s.stk[c.val : c.val+sz*(sz+1)/2]
	o := 0
	for j := range sz {
		lj := int(lp[j])
		col := cb[o : o+sz-j]
		o += sz - j
		rows := lp[j:sz]
		rows = rows[:len(col)]
		if j < c.nd {
			// A delayed column: its rows may precede it in the parent.
			for t, v := range col {
				li := int(rows[t])
				if li >= lj {
					F[lj*m+li] += v
				} else {
					F[li*m+lj] += v
				}
			}
			continue
		}
		// Rows ≥ j of a non-delayed column land at increasing positions
		// ≥ lj.
		if int(rows[len(rows)-1])-lj == len(rows)-1 {
			dst := F[lj*m+lj : lj*m+lj+len(col)]
			for t, v := range col {
				dst[t] += v
			}
			continue
		}
		dst := F[lj*m : (lj+1)*m]
		for t, v := range col {
			dst[rows[t]] += v
		}
	}
}

// Inertia reports the inertia of the last factorized matrix (zero value
// before the first successful Factorize).
func (s *Multifrontal) Inertia() Inertia { return s.inert }

// Solve overwrites x with the solution of A x = b for the last factorized A
// (with zero pivots regularized): L z = P b front by front, z ← D⁻¹ z with
// the 1×1 and 2×2 blocks, Lᵀ w = z in reverse, x = Pᵀ w. x and b may be the
// same slice. It does not allocate.
func (s *Multifrontal) Solve(x, b []float64) error {
	if !s.ok {
		return ErrNotFactorized
	}
	sym := s.sym
	n := sym.n
	if len(x) != n || len(b) != n {
		return fmt.Errorf("%w: len(x)=%d, len(b)=%d, want %d", ErrDimension, len(x), len(b), n)
	}
	w := s.w[:n]
	perm := sym.perm[:n]
	for k, i := range perm {
		w[k] = b[i]
	}
	k := 0
	for f := range sym.nf {
		m, e := int(s.fm[f]), int(s.fe[f])
		ix := s.li[s.ioff[f] : s.ioff[f]+m]
		wl := s.upd[:m]
		for i, v := range ix {
			wl[i] = w[v]
		}
		L := s.lx[s.loff[f]:]
		for t := range e {
			col := L[t*m+t+1 : (t+1)*m]
			wt := wl[t]
			if wt == 0 {
				continue
			}
			rest := wl[t+1 : m]
			rest = rest[:len(col)]
			for i, v := range col {
				rest[i] -= v * wt
			}
		}
		for t := 0; t < e; t++ {
			switch s.kind[k+t] {
			case 0:
				wl[t] *= s.dinv[k+t]
			case 1:
				x0, x1 := wl[t], wl[t+1]
				wl[t] = s.dinv[k+t]*x0 + s.doff[k+t]*x1
				wl[t+1] = s.doff[k+t]*x0 + s.dinv[k+t+1]*x1
				t++
			}
		}
		k += e
		for i, v := range ix {
			w[v] = wl[i]
		}
	}
	for f := sym.nf - 1; f >= 0; f-- {
		m, e := int(s.fm[f]), int(s.fe[f])
		ix := s.li[s.ioff[f] : s.ioff[f]+m]
		wl := s.upd[:m]
		for i, v := range ix {
			wl[i] = w[v]
		}
		L := s.lx[s.loff[f]:]
		for t := e - 1; t >= 0; t-- {
			col := L[t*m+t+1 : (t+1)*m]
			rest := wl[t+1 : m]
			rest = rest[:len(col)]
			sum := wl[t]
			for i, v := range col {
				sum -= v * rest[i]
			}
			wl[t] = sum
		}
		for i, v := range ix[:e] {
			w[v] = wl[i]
		}
	}
	for k, i := range perm {
		x[i] = w[k]
	}
	return nil
}

// RefinedSolve solves A x = b with the factorization and then applies up to
// maxSteps steps of iterative refinement against a (see
// RefinedSolver). x and b may be the same slice. It does not allocate.
func (s *Multifrontal) RefinedSolve(a *SymCSC, x, b []float64, maxSteps int, tol float64) (Refinement, error) {
	if !s.ok {
		return Refinement{}, ErrNotFactorized
	}
	return refine(s, &s.ref, a, x, b, maxSteps, tol)
}
