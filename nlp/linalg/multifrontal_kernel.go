package linalg

import "math"

// Pivot kinds returned by findPivot.
const (
	pivNone = iota // no acceptable pivot: delay the remaining columns
	piv1           // 1×1 pivot at column c
	piv2           // 2×2 pivot at columns c and r
	pivBad         // non-finite diagonal at column c
)

// detCancel bounds the cancellation accepted in the determinant of a 2×2
// pivot [a b; b c]: |ac − b²| must exceed detCancel·(|ac| + b²), so that the
// computed determinant has a few correct digits.
const detCancel = 1e-12

// The front F of order m is stored column-major with leading dimension m;
// only its lower triangle (i ≥ j) is referenced. at returns a_ij for any i, j.
func at(F []float64, m, i, j int) float64 {
	if i >= j {
		return F[j*m+i]
	}
	return F[i*m+j]
}

// mfSwap exchanges rows and columns e < c of the front (lower storage),
// including the rows of the already eliminated columns 0…e−1 (their L and
// W entries move with the variables), and the index list entries.
func mfSwap(F, W []float64, m int, idx []int32, e, c int) {
	if e == c {
		return
	}
	for t := range e {
		F[t*m+e], F[t*m+c] = F[t*m+c], F[t*m+e]
		W[t*m+e], W[t*m+c] = W[t*m+c], W[t*m+e]
	}
	F[e*m+e], F[c*m+c] = F[c*m+c], F[e*m+e]
	for i := e + 1; i < c; i++ {
		F[e*m+i], F[i*m+c] = F[i*m+c], F[e*m+i]
	}
	for i := c + 1; i < m; i++ {
		F[e*m+i], F[c*m+i] = F[c*m+i], F[e*m+i]
	}
	idx[e], idx[c] = idx[c], idx[e]
}

// eig2 returns the eigenvalues of the symmetric 2×2 matrix [a b; b c], the
// one of larger magnitude first; the smaller is computed as det/big to avoid
// cancellation.
func eig2(a, b, c float64) (big, small float64) {
	mean := 0.5 * (a + c)
	h := math.Hypot(0.5*(a-c), b)
	if mean >= 0 {
		big = mean + h
	} else {
		big = mean - h
	}
	if big == 0 {
		return 0, 0
	}
	return big, (a*c - b*b) / big
}

// factorFront eliminates pivots from the fully summed columns 0…q−1 of the
// front F of order m (index list idx, first pivot number k0) and applies the
// Schur update to the rows and columns q…m−1. It returns the number e of
// pivots; columns e…q−1 are delayed (none at a root). Unless at a root, it
// pushes the contribution block onto the stack at s.stk[stkTop:].
//
// The fully summed columns are updated left-looking: column e receives the
// updates of the pivots it lacks just before it is tested, as the natural
// 1×1 candidate, over its whole front column F[e:m, e]. Only when that test
// fails are all fully summed columns brought up to date and the full search
// of findPivot (other columns, 2×2 pivots, delays, the root's Bunch–Kaufman
// fallback) run on them. Invariant: columns e+1…q−1 lack exactly the
// updates of the pivots ap…e−1. Then the contribution block F[q:m, q:m]
// receives the updates of all e pivots, two columns at a time, written to
// the stack. The updates
// use W = L D, the unscaled pivot columns saved in s.wp, and skip the
// pivots t with W[j, t] = 0 for the updated column j (frequent in
// amalgamated fronts).
func (s *Multifrontal) factorFront(F []float64, m, q int, root bool, idx []int32, k0, stkTop int) (int, error) {
	u := s.set.PivotTol
	W := s.wp[:m*q]
	e, ap := 0, 0
	for e < q {
		if ap < e {
			s.updateCol(F, W, m, e, ap, e, F[e*m+e:(e+1)*m])
		}
		// The natural candidate: column e, whose front column is
		// F[e:m, e] (no fully summed row precedes it).
		d := F[e*m+e]
		colmax := 0.0
		for _, x := range F[e*m+e+1 : (e+1)*m] {
			if v := math.Abs(x); v > colmax {
				colmax = v
			}
		}
		ad := math.Abs(d)
		tol := s.zeroTol(F, W, m, e, e, idx)
		var kind, c, r int
		if ad <= tol && colmax <= tol || ad > tol && ad >= u*colmax && !math.IsInf(d, 0) {
			kind, c = piv1, e
		} else {
			for j := e + 1; ap < e && j < q; j++ {
				s.updateCol(F, W, m, j, ap, e, F[j*m+j:(j+1)*m])
			}
			ap = e
			kind, c, r = s.findPivot(F, W, m, q, e, idx, root)
		}
		if kind == pivNone {
			break
		}
		if kind == pivBad {
			return 0, &NonFiniteError{Where: "pivot", Index: s.sym.perm[idx[c]]}
		}
		mfSwap(F, W, m, idx, e, c)
		if kind == piv1 {
			if err := s.pivot1(F, W, m, e, idx, k0+e); err != nil {
				return 0, err
			}
			e++
			continue
		}
		if r == e {
			r = c
		}
		mfSwap(F, W, m, idx, e+1, r)
		if err := s.pivot2(F, W, m, e, idx, k0+e); err != nil {
			return 0, err
		}
		e += 2
	}
	// The sizes of this front's updates to the diagonals it passes on.
	for j := e; j < m; j++ {
		var sum float64
		for t := range e {
			sum += math.Abs(F[t*m+j] * W[t*m+j])
		}
		s.mag[idx[j]] += sum
	}
	if root {
		return e, nil
	}
	// Push the contribution block F[e:m, e:m] onto the stack, packed lower
	// by columns: the delayed columns e…q−1 as they are, the columns
	// q…m−1 as F[q:m, q:m] − L[q:m, 0:e] · W[q:m, 0:e]ᵀ.
	sz := m - e
	s.stk = grow(s.stk, stkTop+sz*(sz+1)/2)
	cb := s.stk[stkTop : stkTop+sz*(sz+1)/2]
	o := 0
	for j := e; j < q; j++ {
		o += copy(cb[o:], F[j*m+j:(j+1)*m])
	}
	j := q
	for ; j+1 < m; j += 2 {
		n0 := m - j
		s.updatePair(F, W, m, j, e, cb[o:o+n0], cb[o+n0:o+2*n0-1])
		o += 2*n0 - 1
	}
	if j < m {
		s.updateCol(F, W, m, j, 0, e, cb[o:o+1])
	}
	return e, nil
}

// updateCol sets dst = F[j:m, j] − L[j:m, t0:t1] · W[j, t0:t1]ᵀ (dst may
// be F[j:m, j] itself): the updates of the pivots t0…t1−1 to column j.
func (s *Multifrontal) updateCol(F, W []float64, m, j, t0, t1 int, dst []float64) {
	tl, wl := s.tl, s.wl
	n := 0
	for t := t0; t < t1; t++ {
		// Branch-free compaction (zeros follow no predictable pattern).
		w := W[t*m+j]
		tl[n], wl[n] = int32(t), w
		n += nonzero(math.Float64bits(w))
	}
	c := F[j*m+j : (j+1)*m]
	dst = dst[:len(c)]
	if n == 0 {
		copy(dst, c)
		return
	}
	k := 0
	for ; k+3 < n; k += 4 {
		a, b, cc, d := int(tl[k])*m+j, int(tl[k+1])*m+j, int(tl[k+2])*m+j, int(tl[k+3])*m+j
		mfAxpy4(dst, c, F[a:a+len(c)], F[b:b+len(c)], F[cc:cc+len(c)], F[d:d+len(c)], wl[k], wl[k+1], wl[k+2], wl[k+3])
		c = dst
	}
	if k+1 < n {
		a, b := int(tl[k])*m+j, int(tl[k+1])*m+j
		mfAxpy2(dst, c, F[a:a+len(c)], F[b:b+len(c)], wl[k], wl[k+1])
		c = dst
		k += 2
	}
	if k < n {
		a := int(tl[k])*m + j
		mfAxpy1(dst, c, F[a:a+len(c)], wl[k])
	}
}

// nonzero returns 1 if the float64 bits b, sign bit ignored, are not those
// of ±0, else 0, without a branch.
func nonzero(b uint64) int {
	b <<= 1
	return int((b | -b) >> 63)
}

// updatePair is updateCol for the columns j and j+1 and all pivots 0…e−1
// at once, into dst0 (rows j…m−1) and dst1 (rows j+1…m−1).
func (s *Multifrontal) updatePair(F, W []float64, m, j, e int, dst0, dst1 []float64) {
	tl, wl, vl := s.tl, s.wl, s.wl2
	n := 0
	for t := range e {
		w, v := W[t*m+j], W[t*m+j+1]
		tl[n], wl[n], vl[n] = int32(t), w, v
		n += nonzero(math.Float64bits(w) | math.Float64bits(v))
	}
	c0 := F[j*m+j : (j+1)*m]
	c1 := F[(j+1)*m+j+1 : (j+2)*m]
	nr := len(c1)
	dst0 = dst0[:nr+1]
	dst1 = dst1[:nr]
	if n == 0 {
		copy(dst0, c0)
		copy(dst1, c1)
		return
	}
	r0, d0 := c0[1:], dst0[1:]
	x0 := c0[0]
	k := 0
	for ; k+3 < n; k += 4 {
		a, b, c, d := int(tl[k])*m+j, int(tl[k+1])*m+j, int(tl[k+2])*m+j, int(tl[k+3])*m+j
		w0, w1, w2, w3 := wl[k], wl[k+1], wl[k+2], wl[k+3]
		x0 -= (F[a]*w0 + F[b]*w1) + (F[c]*w2 + F[d]*w3)
		mfAxpy4x2(d0, r0, dst1, c1, F[a+1:a+1+nr], F[b+1:b+1+nr], F[c+1:c+1+nr], F[d+1:d+1+nr],
			w0, w1, w2, w3, vl[k], vl[k+1], vl[k+2], vl[k+3])
		r0, c1 = d0, dst1
	}
	if k+1 < n {
		a, b := int(tl[k])*m+j, int(tl[k+1])*m+j
		w0, w1 := wl[k], wl[k+1]
		x0 -= F[a]*w0 + F[b]*w1
		mfAxpy2x2(d0, r0, dst1, c1, F[a+1:a+1+nr], F[b+1:b+1+nr], w0, w1, vl[k], vl[k+1])
		r0, c1 = d0, dst1
		k += 2
	}
	if k < n {
		a := int(tl[k])*m + j
		w0 := wl[k]
		x0 -= F[a] * w0
		mfAxpy1x2(d0, r0, dst1, c1, F[a+1:a+1+nr], w0, vl[k])
	}
	dst0[0] = x0
}

// The update kernels: c = cs − Σ_k w_k·l_k (and d = ds − Σ_k v_k·l_k) for
// one, two or four columns l_k of length len(c) (= len(d)); c may be cs and
// d may be ds.

func mfAxpy1(c, cs, l0 []float64, w0 float64) {
	cs = cs[:len(c)]
	l0 = l0[:len(c)]
	for i, x := range l0 {
		c[i] = cs[i] - x*w0
	}
}

func mfAxpy2(c, cs, l0, l1 []float64, w0, w1 float64) {
	cs = cs[:len(c)]
	l0 = l0[:len(c)]
	l1 = l1[:len(c)]
	for i := range c {
		c[i] = cs[i] - (l0[i]*w0 + l1[i]*w1)
	}
}

func mfAxpy4(c, cs, l0, l1, l2, l3 []float64, w0, w1, w2, w3 float64) {
	cs = cs[:len(c)]
	l0 = l0[:len(c)]
	l1 = l1[:len(c)]
	l2 = l2[:len(c)]
	l3 = l3[:len(c)]
	for i := range c {
		c[i] = cs[i] - ((l0[i]*w0 + l1[i]*w1) + (l2[i]*w2 + l3[i]*w3))
	}
}

func mfAxpy1x2(c, cs, d, ds, l0 []float64, w0, v0 float64) {
	cs = cs[:len(c)]
	d = d[:len(c)]
	ds = ds[:len(c)]
	l0 = l0[:len(c)]
	for i, x := range l0 {
		c[i] = cs[i] - x*w0
		d[i] = ds[i] - x*v0
	}
}

func mfAxpy2x2(c, cs, d, ds, l0, l1 []float64, w0, w1, v0, v1 float64) {
	cs = cs[:len(c)]
	d = d[:len(c)]
	ds = ds[:len(c)]
	l0 = l0[:len(c)]
	l1 = l1[:len(c)]
	for i := range c {
		a0, a1 := l0[i], l1[i]
		c[i] = cs[i] - (a0*w0 + a1*w1)
		d[i] = ds[i] - (a0*v0 + a1*v1)
	}
}

func mfAxpy4x2(c, cs, d, ds, l0, l1, l2, l3 []float64, w0, w1, w2, w3, v0, v1, v2, v3 float64) {
	cs = cs[:len(c)]
	d = d[:len(c)]
	ds = ds[:len(c)]
	l0 = l0[:len(c)]
	l1 = l1[:len(c)]
	l2 = l2[:len(c)]
	l3 = l3[:len(c)]
	for i := range c {
		a0, a1, a2, a3 := l0[i], l1[i], l2[i], l3[i]
		c[i] = cs[i] - ((a0*w0 + a1*w1) + (a2*w2 + a3*w3))
		d[i] = ds[i] - ((a0*v0 + a1*v1) + (a2*v2 + a3*v3))
	}
}

// findPivot searches the fully summed columns e…q−1 for a pivot that passes
// the threshold test (see Factorize); at a root front it falls back to
// Bunch–Kaufman's choice on column e when none does.
func (s *Multifrontal) findPivot(F, W []float64, m, q, e int, idx []int32, root bool) (kind, c, r int) {
	u := s.set.PivotTol
	for c := e; c < q; c++ {
		d := F[c*m+c]
		tol := s.zeroTol(F, W, m, c, e, idx)
		if math.IsNaN(d) || math.IsInf(d, 0) {
			return pivBad, c, -1
		}
		// Largest and second largest |a_ic| over fully summed rows i ≠ c,
		// largest over the other rows.
		best, second, bi := 0.0, 0.0, -1
		for i := e; i < c; i++ {
			if v := math.Abs(F[i*m+c]); v > best {
				second, best, bi = best, v, i
			} else if v > second {
				second = v
			}
		}
		col := F[c*m : (c+1)*m]
		for i := c + 1; i < q; i++ {
			if v := math.Abs(col[i]); v > best {
				second, best, bi = best, v, i
			} else if v > second {
				second = v
			}
		}
		other := 0.0
		for _, x := range col[q:m] {
			if v := math.Abs(x); v > other {
				other = v
			}
		}
		colmax := max(best, other)
		ad := math.Abs(d)
		if ad <= tol && colmax <= tol {
			return piv1, c, -1 // zero column: a zero pivot
		}
		if ad > tol && ad >= u*colmax {
			return piv1, c, -1
		}
		if bi < 0 || best <= tol {
			continue
		}
		// Duff–Reid 2×2 test with the fully summed row r of largest |a_rc|.
		r := bi
		arr := F[r*m+r]
		arc := at(F, m, r, c)
		gc := max(second, other)
		gr := 0.0
		for i := e; i < m; i++ {
			if i == r || i == c {
				continue
			}
			if v := math.Abs(at(F, m, i, r)); v > gr {
				gr = v
			}
		}
		det := d*arr - arc*arc
		adet := math.Abs(det)
		if !(adet > detCancel*(math.Abs(d*arr)+arc*arc)) {
			continue
		}
		lim := adet / u
		if math.Abs(arr)*gc+best*gr > lim || best*gc+ad*gr > lim {
			continue
		}
		if _, small := eig2(d, arc, arr); !(math.Abs(small) > max(tol, s.zeroTol(F, W, m, r, e, idx))) {
			continue
		}
		return piv2, c, r
	}
	if !root {
		return pivNone, -1, -1
	}
	return bunchKaufmanChoice(F, m, e)
}

// bunchKaufmanChoice chooses a 1×1 or 2×2 pivot for column e of a root front
// (all rows fully summed) by the Bunch–Kaufman rule (Bunch & Kaufman 1977),
// which bounds element growth without a threshold.
func bunchKaufmanChoice(F []float64, m, e int) (kind, c, r int) {
	absakk := math.Abs(F[e*m+e])
	imax, colmax := -1, 0.0
	for i := e + 1; i < m; i++ {
		if v := math.Abs(F[e*m+i]); v > colmax {
			imax, colmax = i, v
		}
	}
	if imax < 0 || absakk >= bunchKaufmanAlpha*colmax {
		return piv1, e, -1
	}
	rowmax := 0.0
	for j := e; j < m; j++ {
		if j != imax {
			rowmax = max(rowmax, math.Abs(at(F, m, imax, j)))
		}
	}
	switch {
	case absakk*rowmax >= bunchKaufmanAlpha*colmax*colmax:
		return piv1, e, -1
	case math.Abs(F[imax*m+imax]) >= bunchKaufmanAlpha*rowmax:
		return piv1, imax, -1
	default:
		return piv2, e, imax
	}
}

// zeroTol returns the zero-pivot threshold of the diagonal at position j
// of the front, updated by the front's pivots 0…ap−1 (their unscaled columns
// in W, their L columns in F): ZeroPivotTol·min(1, s), s the size of the
// row of A (max_j |a_jk|) plus the updates from earlier fronts (s.mag)
// plus those of this front, Σ_t |L_jt·W_jt|: the absolute threshold for
// rows and terms of size ≥ 1, relative below.
func (s *Multifrontal) zeroTol(F, W []float64, m, j, ap int, idx []int32) float64 {
	sum := s.mag[idx[j]]
	for t := range ap {
		sum += math.Abs(F[t*m+j] * W[t*m+j])
	}
	return s.set.ZeroPivotTol * min(1, sum)
}

// classify counts the pivot (or eigenvalue) d in the inertia and returns the
// value to use: d itself, or σ·RegDelta when |d| ≤ tol (the pivot's
// zero-pivot threshold), with σ the expected sign g if non-zero, else the
// sign of d (+ for 0).
func (s *Multifrontal) classify(d float64, g int8, tol float64) float64 {
	switch {
	case math.IsNaN(d) || math.IsInf(d, 0):
		return d // the caller reports it
	case math.Abs(d) <= tol:
		s.inert.Zero++
		s.nzero++
		switch {
		case g != 0:
			d = float64(g) * s.set.RegDelta
		case d < 0:
			d = -s.set.RegDelta
		default:
			d = s.set.RegDelta
		}
	case d > 0:
		s.inert.Pos++
	default:
		s.inert.Neg++
	}
	return d
}

// pivot1 eliminates the 1×1 pivot at position e (pivot number k): it saves
// column e in W and scales it into L (the other columns receive its update
// later, see factorFront).
func (s *Multifrontal) pivot1(F, W []float64, m, e int, idx []int32, k int) error {
	d := s.classify(F[e*m+e], s.sgn[idx[e]], s.zeroTol(F, W, m, e, e, idx))
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return &NonFiniteError{Where: "pivot", Index: s.sym.perm[idx[e]]}
	}
	F[e*m+e] = d
	inv := 1 / d
	col := F[e*m+e+1 : (e+1)*m]
	copy(W[e*m+e+1:(e+1)*m], col)
	for i := range col {
		col[i] *= inv
	}
	s.kind[k] = 0
	s.dinv[k] = inv
	return nil
}

// pivot2 eliminates the 2×2 pivot at positions e, e+1 (pivot numbers k,
// k+1), saving columns e and e+1 in W and scaling them into L. A tiny eigenvalue (only from a root's Bunch–Kaufman fallback) is
// replaced by ±RegDelta along its eigenvector.
func (s *Multifrontal) pivot2(F, W []float64, m, e int, idx []int32, k int) error {
	a, b, c := F[e*m+e], F[e*m+e+1], F[(e+1)*m+e+1]
	if math.IsNaN(a+b+c) || math.IsInf(a+b+c, 0) {
		return &NonFiniteError{Where: "pivot", Index: s.sym.perm[idx[e]]}
	}
	big, small := eig2(a, b, c)
	// The smaller threshold of the two columns: |big| ≥ |b| exceeds it for
	// any 2×2 pivot chosen (the search needs |b| above column e's).
	tol := min(s.zeroTol(F, W, m, e, e, idx), s.zeroTol(F, W, m, e+1, e, idx))
	bigR := s.classify(big, 0, tol)
	if bigR != big {
		// Cannot happen: |big| ≥ |b| > the threshold for any 2×2 pivot chosen.
		panic("linalg: multifrontal 2×2 pivot with two zero eigenvalues")
	}
	var g int8
	if g0, g1 := s.sgn[idx[e]], s.sgn[idx[e+1]]; g0 != 0 {
		// The expected sign left over after the large eigenvalue.
		switch {
		case float64(g0)*big > 0:
			g = g1
		default:
			g = g0
		}
	}
	if smallR := s.classify(small, g, tol); smallR != small {
		// P + (λ' − λ) v vᵀ, v the unit eigenvector of λ = small.
		v0, v1 := b, small-a
		if w0, w1 := small-c, b; math.Hypot(w0, w1) > math.Hypot(v0, v1) {
			v0, v1 = w0, w1
		}
		nv := math.Hypot(v0, v1)
		v0, v1 = v0/nv, v1/nv
		dl := smallR - small
		a += dl * v0 * v0
		b += dl * v0 * v1
		c += dl * v1 * v1
	}
	det := a*c - b*b
	if math.IsNaN(det) || math.IsInf(det, 0) || det == 0 {
		return &NonFiniteError{Where: "pivot", Index: s.sym.perm[idx[e]]}
	}
	ia, ib, ic := c/det, -b/det, a/det
	c0 := F[e*m+e+2 : (e+1)*m]
	c1 := F[(e+1)*m+e+2 : (e+2)*m]
	c1 = c1[:len(c0)]
	copy(W[e*m+e+2:(e+1)*m], c0)
	copy(W[(e+1)*m+e+2:(e+2)*m], c1)
	for i, x0 := range c0 {
		x1 := c1[i]
		c0[i] = ia*x0 + ib*x1
		c1[i] = ib*x0 + ic*x1
	}
	F[e*m+e], F[e*m+e+1], F[(e+1)*m+e+1] = a, 0, c
	s.kind[k], s.kind[k+1] = 1, 2
	s.dinv[k], s.doff[k], s.dinv[k+1] = ia, ib, ic
	s.n2x2++
	return nil
}
