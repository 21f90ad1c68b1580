package macmpec_test

import (
	"context"
	"fmt"

	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/mpcc/macmpec"
)

// Example solves bard1 (Bard 1988: a convex quadratic bilevel program as
// an MPEC) with the default Scholtes homotopy and compares the objective
// with MacMPEC's best-known value.
func Example() {
	p, err := macmpec.ByName("bard1")
	if err != nil {
		fmt.Println(err)
		return
	}
	mp, err := p.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := (&mpcc.Solver{}).Solve(context.Background(), mp)
	if err != nil {
		fmt.Println(err)
		return
	}
	n, m := mp.NLP.Dims()
	f := p.Value(res.Objective)
	fmt.Printf("%s (%s): n = %d, m = %d, %d pairs\n", p.Name, p.Model, n, m, len(mp.Comp))
	fmt.Printf("%v: f = %.6f, best known %g, reached %v\n", res.Status, f, p.Best, p.Gap(f) <= 1e-5)
	// Output:
	// bard1 (bard1.mod): n = 8, m = 4, 3 pairs
	// Solved: f = 17.000000, best known 17, reached true
}
