package adnlp_test

import (
	"context"
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/adnlp"
)

// Example solves
//
//	min (x₀ − p)² + (x₁ − 2)²  s.t.  x₀ + x₁ ≤ 2,  x ≥ 0
//
// for p = 1 and then p = 3 with the same compiled problem. The solutions are
// (0.5, 1.5) and (1.5, 0.5): the projection of (p, 2) onto x₀ + x₁ ≤ 2.
func Example() {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	p := g.Sym("p")
	prob, err := adnlp.New(adnlp.Spec{
		X:  x,
		XL: []float64{0, 0},
		F:  ad.Sq(x[0].Sub(p)).Add(ad.Sq(x[1].AddConst(-2))),
		G:  ad.Vec{x[0].Add(x[1])},
		GL: []float64{math.Inf(-1)}, GU: []float64{2},
		P: ad.Vec{p}, PV: []float64{1},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var solver nlp.Solver
	for _, pv := range []float64{1, 3} {
		if err := prob.SetParams([]float64{pv}); err != nil {
			fmt.Println(err)
			return
		}
		res, err := solver.Solve(context.Background(), prob)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("p = %g: %v x = (%.4f, %.4f) f = %.4f\n", pv, res.Status, res.X[0], res.X[1], res.Objective)
	}
	// Output:
	// p = 1: Solved x = (0.5000, 1.5000) f = 0.5000
	// p = 3: Solved x = (1.5000, 0.5000) f = 4.5000
}
