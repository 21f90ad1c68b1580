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
// including the rows of the already eliminated columns 0…e−1 (their L
// entries move with the variables), and the index list entries.
func mfSwap(F []float64, m int, idx []int32, e, c int) {
	if e == c {
		return
	}
	for t := range e {
		F[t*m+e], F[t*m+c] = F[t*m+c], F[t*m+e]
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
// pivots; columns e…q−1 are delayed (none at a root).
//
// Phase A is right-looking on the fully summed columns only (all their rows
// are kept up to date, which the threshold test needs); phase B updates the
// contribution block at once from the unscaled pivot columns kept in wpan.
func (s *Multifrontal) factorFront(F []float64, m, q int, root bool, idx []int32, k0 int) (int, error) {
	e := 0
	for e < q {
		kind, c, r := s.findPivot(F, m, q, e, root)
		if kind == pivNone {
			break
		}
		if kind == pivBad {
			return 0, &NonFiniteError{Where: "pivot", Index: s.sym.perm[idx[c]]}
		}
		mfSwap(F, m, idx, e, c)
		if kind == piv1 {
			if err := s.pivot1(F, m, q, e, idx, k0+e); err != nil {
				return 0, err
			}
			e++
			continue
		}
		if r == e {
			r = c
		}
		mfSwap(F, m, idx, e+1, r)
		if err := s.pivot2(F, m, q, e, idx, k0+e); err != nil {
			return 0, err
		}
		e += 2
	}
	// Phase B: F[q:m, q:m] −= L[q:m, 0:e] · W[q:m, 0:e]ᵀ, W = L·D the
	// unscaled pivot columns.
	nr := m - q
	if nr == 0 || e == 0 {
		return e, nil
	}
	wp := s.wpan[:e*nr]
	for j := q; j < m; j++ {
		cj := F[j*m+j : (j+1)*m]
		jj := j - q
		t := 0
		for ; t+3 < e; t += 4 {
			w0, w1, w2, w3 := wp[t*nr+jj], wp[(t+1)*nr+jj], wp[(t+2)*nr+jj], wp[(t+3)*nr+jj]
			if w0 == 0 && w1 == 0 && w2 == 0 && w3 == 0 {
				continue
			}
			l0 := F[t*m+j : (t+1)*m]
			l1 := F[(t+1)*m+j : (t+2)*m]
			l2 := F[(t+2)*m+j : (t+3)*m]
			l3 := F[(t+3)*m+j : (t+4)*m]
			l0 = l0[:len(cj)]
			l1 = l1[:len(cj)]
			l2 = l2[:len(cj)]
			l3 = l3[:len(cj)]
			for i := range cj {
				cj[i] -= (l0[i]*w0 + l1[i]*w1) + (l2[i]*w2 + l3[i]*w3)
			}
		}
		for ; t < e; t++ {
			if w0 := wp[t*nr+jj]; w0 != 0 {
				l0 := F[t*m+j : (t+1)*m]
				l0 = l0[:len(cj)]
				for i := range cj {
					cj[i] -= l0[i] * w0
				}
			}
		}
	}
	return e, nil
}

// findPivot searches the fully summed columns e…q−1 for a pivot that passes
// the threshold test (see Factorize); at a root front it falls back to
// Bunch–Kaufman's choice on column e when none does.
func (s *Multifrontal) findPivot(F []float64, m, q, e int, root bool) (kind, c, r int) {
	u, tol := s.set.PivotTol, s.set.ZeroPivotTol
	for c := e; c < q; c++ {
		d := F[c*m+c]
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
		if _, small := eig2(d, arc, arr); !(math.Abs(small) > tol) {
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

// classify counts the pivot (or eigenvalue) d in the inertia and returns the
// value to use: d itself, or σ·RegDelta when |d| ≤ ZeroPivotTol, with σ the
// expected sign g if non-zero, else the sign of d (+ for 0).
func (s *Multifrontal) classify(d float64, g int8) float64 {
	switch {
	case math.Abs(d) <= s.set.ZeroPivotTol:
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

// pivot1 eliminates the 1×1 pivot at position e (pivot number k).
func (s *Multifrontal) pivot1(F []float64, m, q, e int, idx []int32, k int) error {
	d := s.classify(F[e*m+e], s.sgn[idx[e]])
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return &NonFiniteError{Where: "pivot", Index: s.sym.perm[idx[e]]}
	}
	F[e*m+e] = d
	inv := 1 / d
	col := F[e*m : (e+1)*m]
	up := s.upd[:m]
	for i := e + 1; i < m; i++ {
		up[i] = col[i]
		col[i] *= inv
	}
	j := e + 1
	for ; j+1 < q; j += 2 {
		// Columns j and j+1 together: one pass over the pivot column.
		u0, u1 := up[j], up[j+1]
		c0 := F[j*m+j : (j+1)*m]
		c1 := F[(j+1)*m+j+1 : (j+2)*m]
		lj := col[j+1 : m]
		c0[0] -= col[j] * u0
		rest := c0[1:]
		rest = rest[:len(c1)]
		lj = lj[:len(c1)]
		for i := range c1 {
			l := lj[i]
			rest[i] -= l * u0
			c1[i] -= l * u1
		}
	}
	if j < q {
		uj := up[j]
		cj := F[j*m+j : (j+1)*m]
		lj := col[j:m]
		lj = lj[:len(cj)]
		for i := range cj {
			cj[i] -= lj[i] * uj
		}
	}
	if nr := m - q; nr > 0 {
		copy(s.wpan[e*nr:(e+1)*nr], up[q:m])
	}
	s.kind[k] = 0
	s.dinv[k] = inv
	return nil
}

// pivot2 eliminates the 2×2 pivot at positions e, e+1 (pivot numbers k,
// k+1). A tiny eigenvalue (only from a root's Bunch–Kaufman fallback) is
// replaced by ±RegDelta along its eigenvector.
func (s *Multifrontal) pivot2(F []float64, m, q, e int, idx []int32, k int) error {
	a, b, c := F[e*m+e], F[e*m+e+1], F[(e+1)*m+e+1]
	if math.IsNaN(a+b+c) || math.IsInf(a+b+c, 0) {
		return &NonFiniteError{Where: "pivot", Index: s.sym.perm[idx[e]]}
	}
	big, small := eig2(a, b, c)
	bigR := s.classify(big, 0)
	if bigR != big {
		// Cannot happen: |big| ≥ |b| > ZeroPivotTol for any 2×2 pivot chosen.
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
	if smallR := s.classify(small, g); smallR != small {
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
	c0 := F[e*m : (e+1)*m]
	c1 := F[(e+1)*m : (e+2)*m]
	u0 := s.upd[:m]
	u1 := s.upd[m : 2*m]
	for i := e + 2; i < m; i++ {
		x0, x1 := c0[i], c1[i]
		u0[i], u1[i] = x0, x1
		c0[i] = ia*x0 + ib*x1
		c1[i] = ib*x0 + ic*x1
	}
	c0[e], c0[e+1], c1[e+1] = a, 0, c
	for j := e + 2; j < q; j++ {
		a0, a1 := u0[j], u1[j]
		if a0 == 0 && a1 == 0 {
			continue
		}
		cj := F[j*m+j : (j+1)*m]
		l0 := c0[j:m]
		l1 := c1[j:m]
		l0 = l0[:len(cj)]
		l1 = l1[:len(cj)]
		for i := range cj {
			cj[i] -= l0[i]*a0 + l1[i]*a1
		}
	}
	if nr := m - q; nr > 0 {
		copy(s.wpan[e*nr:(e+1)*nr], u0[q:m])
		copy(s.wpan[(e+1)*nr:(e+2)*nr], u1[q:m])
	}
	s.kind[k], s.kind[k+1] = 1, 2
	s.dinv[k], s.doff[k], s.dinv[k+1] = ia, ib, ic
	s.n2x2++
	return nil
}
