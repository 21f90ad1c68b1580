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

// Example_blocks solves
//
//	min Σₖ₌₀³ (xₖ₊₁ − xₖ)²  s.t.  x₄ = p,  x₀ = 0
//
// with two blocks instead of per-stage expressions: "step", compiled once and
// evaluated at the four stages, adds (b − a)² to the objective for the
// inputs (a, b) = (xₖ, xₖ₊₁); "end" fills the constraint row 0, left empty in
// Spec.G, with z − q for (z, q) = (x₄, p). The solution is the straight line
// xₖ = kp/4 with objective p²/4.
func Example_blocks() {
	g := ad.NewGraph()
	x := g.SymVec("x", 5) // the NLP variables; no expression of g uses them

	bg := ad.NewGraph() // the blocks' local graph
	ab := bg.SymVec("ab", 2)
	step := adnlp.Block{Name: "step", In: ab, F: ad.Sq(ab[1].Sub(ab[0]))}
	for k := range 4 {
		step.Instances = append(step.Instances, adnlp.Instance{
			In: []adnlp.Affine{adnlp.Var(k), adnlp.Var(k + 1)},
		})
	}
	zq := bg.SymVec("zq", 2)
	end := adnlp.Block{
		Name: "end", In: zq, G: ad.Vec{zq[0].Sub(zq[1])},
		Instances: []adnlp.Instance{{
			In:   []adnlp.Affine{adnlp.Var(4), adnlp.Param(0)},
			Rows: []int{0},
		}},
	}
	p := g.Sym("p")
	prob, err := adnlp.New(adnlp.Spec{
		X: x, XL: []float64{0, -9, -9, -9, -9}, XU: []float64{0, 9, 9, 9, 9},
		G:      make(ad.Vec, 1), // row 0: filled by the block "end"
		P:      ad.Vec{p},
		PV:     []float64{2},
		Blocks: []adnlp.Block{step, end},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var solver nlp.Solver
	for _, pv := range []float64{2, -1} {
		if err := prob.SetParams([]float64{pv}); err != nil {
			fmt.Println(err)
			return
		}
		res, err := solver.Solve(context.Background(), prob)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("p = %g: %v x₁…x₄ = %.4f f = %.4f\n", pv, res.Status, res.X[1:], res.Objective)
	}
	// Output:
	// p = 2: Solved x₁…x₄ = [0.5000 1.0000 1.5000 2.0000] f = 1.0000
	// p = -1: Solved x₁…x₄ = [-0.2500 -0.5000 -0.7500 -1.0000] f = 0.2500
}
