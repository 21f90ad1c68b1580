package dcs_test

import (
	"fmt"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// A two-mode Filippov system ẋ ∈ 2 − sign(x) (004 Example 3a): ẋ = 1 for
// x > 0 and ẋ = 3 for x < 0, in both formulations.
func Example() {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0]},                         // ψ(x) = x
		S:   [][]int{{1}, {-1}},                   // R₁ = {ψ > 0}, R₂ = {ψ < 0}
		F:   []ad.Vec{{g.Const(1)}, {g.Const(3)}}, // f₁ = 1, f₂ = 3
	})
	for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
		d, err := m.Reformulate(dcs.Options{Formulation: f})
		if err != nil {
			fmt.Println(err)
			return
		}
		z0, _ := d.InitialGuess([]float64{-1}, nil, nil)
		xdot, _ := d.EvalF([]float64{-1}, nil, nil, z0, 0)
		fmt.Printf("%v: %+v\n  ẋ(−1) = %v\n", f, d.Dims, xdot)
	}
	// Output:
	// Stewart: {NX:1 NU:0 NP:0 NPsi:1 NF:2 NTheta:2 NAlpha:0 NBeta:0 NSlack:0 NLambda:2 NMu:1 NUser:0 NZ:5 NComp:2 NEq:3}
	//   ẋ(−1) = [3]
	// Step: {NX:1 NU:0 NP:0 NPsi:1 NF:2 NTheta:2 NAlpha:1 NBeta:0 NSlack:0 NLambda:2 NMu:0 NUser:0 NZ:5 NComp:2 NEq:3}
	//   ẋ(−1) = [3]
}
