package linalg

import "math"

// bunchKaufmanAlpha is (1+√17)/8, the Bunch–Kaufman constant that bounds
// element growth by 2.57 per step (Bunch & Kaufman, Math. Comp. 31, 1977).
var bunchKaufmanAlpha = (1 + math.Sqrt(17)) / 8

// bunchKaufmanInertia computes the inertia of the symmetric n×n matrix held
// in full (both triangles) in the row-major slice a, which it overwrites, by
// the symmetric indefinite factorization P A Pᵀ = L D Lᵀ with 1×1 and 2×2
// pivots chosen by Bunch–Kaufman partial pivoting (Bunch & Kaufman 1977;
// Golub & Van Loan, Matrix Computations, 4th ed., §4.4.4). By Sylvester's law
// the inertia of A is that of D: a 1×1 pivot counts by its sign (Zero when
// |d| ≤ tol), a 2×2 pivot [p q; q r] by its determinant (det < 0: one of
// each sign; det > 0: two of the sign of p; |det| tiny: Zero for the small
// eigenvalue).
func bunchKaufmanInertia(n int, a []float64, tol float64) Inertia {
	var in Inertia
	at := func(i, j int) float64 { return a[i*n+j] }
	swap := func(i, j int) { // symmetric interchange of rows/columns i and j
		if i == j {
			return
		}
		for c := range n {
			a[i*n+c], a[j*n+c] = a[j*n+c], a[i*n+c]
		}
		for r := range n {
			a[r*n+i], a[r*n+j] = a[r*n+j], a[r*n+i]
		}
	}
	count := func(d float64) {
		switch {
		case math.Abs(d) <= tol:
			in.Zero++
		case d > 0:
			in.Pos++
		default:
			in.Neg++
		}
	}
	for k := 0; k < n; {
		absakk := math.Abs(at(k, k))
		imax, colmax := k, 0.0
		for i := k + 1; i < n; i++ {
			if v := math.Abs(at(i, k)); v > colmax {
				imax, colmax = i, v
			}
		}
		if max(absakk, colmax) <= tol {
			// Column k is (numerically) zero: a zero pivot, nothing to
			// eliminate.
			in.Zero++
			k++
			continue
		}
		twoByTwo := false
		if absakk < bunchKaufmanAlpha*colmax {
			rowmax := 0.0
			for j := k; j < n; j++ {
				if j != imax {
					rowmax = max(rowmax, math.Abs(at(imax, j)))
				}
			}
			switch {
			case absakk >= bunchKaufmanAlpha*colmax*(colmax/rowmax):
				// keep the 1×1 pivot a_kk
			case math.Abs(at(imax, imax)) >= bunchKaufmanAlpha*rowmax:
				swap(k, imax)
			default:
				swap(k+1, imax)
				twoByTwo = true
			}
		}
		if !twoByTwo {
			d := at(k, k)
			count(d)
			for i := k + 1; i < n; i++ {
				lik := at(i, k) / d
				if lik == 0 {
					continue
				}
				for j := k + 1; j < n; j++ {
					a[i*n+j] -= lik * at(k, j)
				}
			}
			k++
			continue
		}
		p, q, r := at(k, k), at(k+1, k), at(k+1, k+1)
		det := p*r - q*q
		switch {
		case det < 0:
			in.Pos++
			in.Neg++
		case math.Abs(det) <= tol*max(math.Abs(p), math.Abs(r), math.Abs(q)):
			count(p + r)
			in.Zero++
		default: // det > 0: both eigenvalues have the sign of p
			count(p)
			count(p)
		}
		// Trailing update A₂₂ ← A₂₂ − C D⁻¹ Cᵀ with C = A[k+2:, k:k+2].
		for i := k + 2; i < n; i++ {
			ci0, ci1 := at(i, k), at(i, k+1)
			// w = D⁻¹ [ci0; ci1]
			w0 := (r*ci0 - q*ci1) / det
			w1 := (p*ci1 - q*ci0) / det
			for j := k + 2; j < n; j++ {
				a[i*n+j] -= w0*at(k, j) + w1*at(k+1, j)
			}
		}
		k += 2
	}
	return in
}
