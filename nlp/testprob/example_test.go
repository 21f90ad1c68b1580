package testprob_test

import (
	"context"
	"fmt"

	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/testprob"
)

// The oscillator OCP with N = 20 stages: 14N + 8 variables and 10N + 8
// constraints, solved by package nlp with its default settings. The
// reference r₁ reaches into the wall, so some gaps s_k close.
func ExampleNewOCP() {
	p, err := testprob.NewOCP(testprob.OCPOptions{N: 20})
	if err != nil {
		panic(err)
	}
	n, m := p.Dims()
	fmt.Printf("n = %d, m = %d\n", n, m)

	res, err := (&nlp.Solver{}).Solve(context.Background(), p)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%v, f = %.4f, max violation < 1e-8: %v\n", res.Status, res.Objective, res.PrimalInfeasibility < 1e-8)
	// Output:
	// n = 288, m = 208
	// Solved, f = 0.2356, max violation < 1e-8: true
}
