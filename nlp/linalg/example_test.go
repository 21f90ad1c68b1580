package linalg_test

import (
	"fmt"

	"github.com/fesd-go/fesd/nlp/linalg"
)

// A 3×3 saddle-point (KKT) matrix [H Jᵀ; J −δ] with H = diag(2, 1), J = [1 1]
// and δ = 1e-8: one constraint, so the expected inertia is (2, 1, 0).
func Example() {
	// Triplets may be given in either triangle; duplicates are summed.
	rows := []int{0, 1, 2, 2, 2}
	cols := []int{0, 1, 0, 1, 2}
	vals := []float64{2, 1, 1, 1, -1e-8}
	a, idx, err := linalg.NewSymCSC(3, rows, cols, vals)
	if err != nil {
		panic(err)
	}
	s, err := linalg.NewSparse(linalg.Settings{}) // AMD ordering, default tolerances
	if err != nil {
		panic(err)
	}
	if err := s.Analyze(a); err != nil { // once per pattern
		panic(err)
	}
	signs := []int8{1, 1, -1} // primal +, dual −
	if err := s.Factorize(a, signs); err != nil {
		panic(err)
	}
	fmt.Printf("inertia %+v\n", s.Inertia())

	b := []float64{1, 2, 0}
	x := make([]float64, 3)
	ref, err := s.RefinedSolve(a, x, b, 3, 1e-15)
	if err != nil {
		panic(err)
	}
	fmt.Printf("x = [%.6f %.6f %.6f], residual ≤ 1e-15: %v\n", x[0], x[1], x[2], ref.Residual <= 1e-15)

	// New values on the same pattern: write through the index map.
	clear(a.Val)
	for t, v := range []float64{4, 1, 1, 1, -1e-8} {
		a.Val[idx[t]] += v
	}
	if err := s.Factorize(a, signs); err != nil {
		panic(err)
	}
	fmt.Printf("inertia %+v, nnz(L) = %d\n", s.Inertia(), s.Stats().NnzL)
	// Output:
	// inertia {Pos:2 Neg:1 Zero:0}
	// x = [-0.333333 0.333333 1.666667], residual ≤ 1e-15: true
	// inertia {Pos:2 Neg:1 Zero:0}, nnz(L) = 2
}
