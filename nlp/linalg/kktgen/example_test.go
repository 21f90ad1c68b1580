package kktgen_test

import (
	"fmt"

	"github.com/fesd-go/fesd/nlp/linalg"
	"github.com/fesd-go/fesd/nlp/linalg/kktgen"
)

// The KKT matrix for N = 800 stages has the sizes of the package doc; the
// sparse LDLᵀ with the stage-interleaved pivot order finds the inertia
// (n + N, m, 0) of the quasi-definite matrix.
func Example() {
	g, err := kktgen.New(800)
	if err != nil {
		panic(err)
	}
	fmt.Printf("n = %d, m = %d (%d inequalities), KKT dimension %d\n", g.NVar, g.NCon, g.NIneq, g.Dim)

	s, err := linalg.NewSparse(linalg.Settings{Ordering: linalg.OrderGiven, Perm: g.StagePerm})
	if err != nil {
		panic(err)
	}
	if err := s.Analyze(g.A); err != nil {
		panic(err)
	}
	if err := s.Factorize(g.A, g.Signs); err != nil {
		panic(err)
	}
	fmt.Printf("inertia %+v, as expected: %v\n", s.Inertia(), s.Inertia() == g.Inertia)
	// Output:
	// n = 11208, m = 8008 (800 inequalities), KKT dimension 20016
	// inertia {Pos:12008 Neg:8008 Zero:0}, as expected: true
}
