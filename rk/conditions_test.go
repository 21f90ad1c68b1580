package rk

import (
	"fmt"
	"math"
	"testing"
)

// simplifying lists the simplifying assumptions B(p), C(q), D(r) that imply the
// claimed order of each family (Hairer & Wanner II, §IV.5, Theorem 5.1 and the
// tables of that section; Butcher 1964): p ≤ min(q+r+1, 2q+2) gives order p.
func simplifying(f Family, s int) (p, q, r int) {
	switch f {
	case FamilyGaussLegendre:
		return 2 * s, s, s
	case FamilyRadauIIA:
		return 2*s - 1, s, s - 1
	case FamilyRadauIA:
		return 2*s - 1, s - 1, s
	case FamilyLobattoIIIA:
		return 2*s - 2, s, s - 2
	case FamilyLobattoIIIC:
		return 2*s - 2, s - 1, s - 1
	}
	panic("unreachable")
}

// TestSimplifyingAssumptions checks, for every implicit family and s up to
// MaxStages: A·1 = c, B(p), C(q), D(r) with the family's (p, q, r), that Order
// and StageOrder match p and q, that Validate passes, and that B(p+1) and
// C(q+1) FAIL, so neither the order nor the stage order is understated.
func TestSimplifyingAssumptions(t *testing.T) {
	const (
		tol     = 1e-12 // residual of B(p), C(q), D(r), A·1 = c (monomial form)
		failMin = 1e-4  // smallest defect accepted as "B(p+1) / C(q+1) fail"
	)
	minB, minC := math.Inf(1), math.Inf(1)
	defer func() { t.Logf("smallest B(p+1) defect %.2g, smallest C(q+1) defect %.2g", minB, minC) }()
	for _, f := range ImplicitFamilies() {
		for s := f.MinStages(); s <= MaxStages; s++ {
			name := fmt.Sprintf("%v s=%d", f, s)
			tab, err := New(f, s)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := tab.Validate(); err != nil {
				t.Errorf("%s: Validate: %v", name, err)
			}
			p, q, r := simplifying(f, s)
			if tab.Order != p || tab.StageOrder != q {
				t.Errorf("%s: Order %d StageOrder %d, want %d %d", name, tab.Order, tab.StageOrder, p, q)
			}
			// A·1 = c is C(1). Radau IA with s = 1 (c = 0, A = 1) is the one
			// published tableau without it (Hairer & Wanner II, Table 5.3).
			if !(f == FamilyRadauIA && s == 1) {
				for i, row := range tab.A {
					var sum float64
					for _, a := range row {
						sum += a
					}
					if d := math.Abs(sum - tab.C[i]); d > tol {
						t.Errorf("%s: (A·1)_%d − c_%d = %.2g", name, i, i, d)
					}
				}
			}
			if k, d := tab.QuadratureDefect(p); d > tol {
				t.Errorf("%s: B(%d) fails at k=%d by %.2g", name, p, k, d)
			}
			if k, d := tab.StageDefect(q); d > tol {
				t.Errorf("%s: C(%d) fails at k=%d by %.2g", name, q, k, d)
			}
			if k, d := tab.ColumnDefect(r); d > tol {
				t.Errorf("%s: D(%d) fails at k=%d by %.2g", name, r, k, d)
			}
			// B(p+1) given B(p) is exactness for one more polynomial of
			// degree p. The monomial τ^p is useless for this (its defect is
			// ≈ (s!)^4/((2s)!)^3 ≈ 1e-27 for Gauss s = 9, below round-off), so
			// use the shifted Legendre polynomial P_p(2τ − 1), whose integral
			// over [0, 1] is 0 and whose defect is O(1).
			var bdef float64
			for i, b := range tab.B {
				bdef += b * legendre(p, 2*tab.C[i]-1).p
			}
			minB = math.Min(minB, math.Abs(bdef))
			if math.Abs(bdef) < failMin {
				t.Errorf("%s: B(%d) holds (defect %.2g): order understated", name, p+1, bdef)
			}
			// C(q+1) likewise with P_q(2τ − 1), whose integral over [0, c] is
			// (P_{q+1}(x) − P_{q−1}(x))/(2(2q+1)), x = 2c − 1 (q ≥ 1).
			if q >= 1 {
				var cdef float64
				for i, row := range tab.A {
					var sum float64
					for j, a := range row {
						sum += a * legendre(q, 2*tab.C[j]-1).p
					}
					v := legendre(q+1, 2*tab.C[i]-1)
					exact := (v.p - legendre(q-1, 2*tab.C[i]-1).p) / float64(2*(2*q+1))
					cdef = math.Max(cdef, math.Abs(sum-exact))
				}
				minC = math.Min(minC, cdef)
				if cdef < failMin {
					t.Errorf("%s: C(%d) holds (defect %.2g): stage order understated", name, q+1, cdef)
				}
			}
		}
	}
}
