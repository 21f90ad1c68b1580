package linalg

import (
	"math/rand/v2"
	"testing"
)

// TestNoAllocs: Factorize, Solve and RefinedSolve do not allocate after
// Analyze (testing.AllocsPerRun must be exactly 0).
func TestNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	a, sg, _ := randQuasiDefinite(rng, 200, 100, 0.03, 1e-8)
	for _, ord := range []Ordering{OrderAMD, OrderNatural} {
		s, err := NewSparse(Settings{Ordering: ord})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Analyze(a); err != nil {
			t.Fatal(err)
		}
		b := randVec(rng, a.N)
		x := make([]float64, a.N)
		if n := testing.AllocsPerRun(10, func() {
			if err := s.Factorize(a, sg); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%v: Factorize allocates %v times", ord, n)
		}
		if n := testing.AllocsPerRun(10, func() {
			if err := s.Solve(x, b); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%v: Solve allocates %v times", ord, n)
		}
		if n := testing.AllocsPerRun(10, func() {
			if _, err := s.RefinedSolve(a, x, b, 5, 0); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%v: RefinedSolve allocates %v times", ord, n)
		}
		if n := testing.AllocsPerRun(10, func() { a.MulVecTo(x, b) }); n != 0 {
			t.Errorf("MulVecTo allocates %v times", n)
		}
	}
}
