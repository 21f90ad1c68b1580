package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestBunchKaufmanInertia checks the dense Bunch–Kaufman inertia against
// (a) a gonum eigenvalue count for random symmetric matrices, also with a
// zero diagonal (forcing 2×2 pivots), and (b) the inertia known by
// construction for A = B Bᵀ − C Cᵀ with B n×r₁, C n×r₂ random: (r₁, r₂,
// n−r₁−r₂) with probability one.
func TestBunchKaufmanInertia(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	eps := 0x1p-52
	for trial := range 60 {
		n := 1 + rng.IntN(40)
		s := mat.NewSymDense(n, nil)
		zeroDiag := trial%2 == 1
		for i := range n {
			for j := i; j < n; j++ {
				if i == j && zeroDiag {
					continue
				}
				s.SetSym(i, j, rng.NormFloat64())
			}
		}
		var e mat.EigenSym
		e.Factorize(s, false)
		var want Inertia
		for _, l := range e.Values(nil) {
			// Gaussian matrices have |λ_min| ≫ 1e-8 with overwhelming
			// probability; 1e-8 separates "zero" from roundoff safely.
			switch {
			case math.Abs(l) < 1e-8:
				want.Zero++
			case l > 0:
				want.Pos++
			default:
				want.Neg++
			}
		}
		work := make([]float64, n*n)
		maxAbs := 0.0
		for i := range n {
			for j := range n {
				work[i*n+j] = s.At(i, j)
				maxAbs = math.Max(maxAbs, math.Abs(s.At(i, j)))
			}
		}
		if got := bunchKaufmanInertia(n, work, float64(n)*eps*maxAbs); got != want {
			t.Errorf("trial %d n=%d zeroDiag=%v: BK %+v, eigen %+v", trial, n, zeroDiag, got, want)
		}
	}
	for trial := range 30 {
		n := 2 + rng.IntN(30)
		r1 := rng.IntN(n / 2)
		r2 := rng.IntN(n - r1)
		b := mat.NewDense(n, max(r1, 1), nil)
		c := mat.NewDense(n, max(r2, 1), nil)
		for i := range n {
			for j := range r1 {
				b.Set(i, j, rng.NormFloat64())
			}
			for j := range r2 {
				c.Set(i, j, rng.NormFloat64())
			}
		}
		var p, q mat.SymDense
		p.SymOuterK(1, b)
		q.SymOuterK(1, c)
		work := make([]float64, n*n)
		maxAbs := 0.0
		for i := range n {
			for j := range n {
				v := p.At(i, j) - q.At(i, j)
				work[i*n+j] = v
				maxAbs = math.Max(maxAbs, math.Abs(v))
			}
		}
		// Roundoff in the elimination of a rank-deficient matrix leaves
		// residual pivots of size ≈ n·ε·‖A‖ times a modest growth factor;
		// threshold 1e3·n·ε·max|a_ij|.
		want := Inertia{Pos: r1, Neg: r2, Zero: n - r1 - r2}
		if got := bunchKaufmanInertia(n, work, 1e3*float64(n)*eps*maxAbs); got != want {
			t.Errorf("trial %d n=%d: BK %+v, construction %+v", trial, n, got, want)
		}
	}
}
