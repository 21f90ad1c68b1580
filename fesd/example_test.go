package fesd_test

import (
	"context"
	"fmt"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// The crossing of 004 Example 3 (a), ẋ ∈ 2 − sign(x): ẋ = 3 for x < 0 and
// ẋ = 1 for x > 0 from x₀ = −1 reaches x = 0 at t = 1/3, so x(1) = 2/3.
func Example() {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0]},
		S:   [][]int{{1}, {-1}},
		F:   []ad.Vec{{g.Const(1)}, {g.Const(3)}},
	})
	res, err := fesd.Simulate(context.Background(), m, []float64{-1}, fesd.SimOptions{
		TSim: 1, NSim: 2,
		Options: fesd.Options{NFE: 2}, // Radau IIA n_s = 2, Stewart, FE_STAGE
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("x(1) = %.6f\n", res.Final()[0])
	for _, s := range res.Switches {
		fmt.Printf("switch of ψ%d at t = %.6f: %v (%v → %v)\n", s.Psi, s.Time, s.Kind, s.Before[0], s.After[0])
	}
	// Output:
	// x(1) = 0.666667
	// switch of ψ0 at t = 0.333333: crossing (ψ<0 → ψ>0)
}

// The time-optimal turbo car of nosnoc's tutorial
// (examples/pss_ocp_tutorial_example/pss_tutorial_turbo_car_ocp.m in
// github.com/nosnoc/nosnoc): q̇ = v, v̇ = u below v = 10 and 3u above, from
// rest to rest at q = 200 with |u| ≤ 5. The bang-bang optimum is
// T* = 4 + 2(√2800 − 10)/15 = 9.72200. The OCP is the problem, Options the
// settings and Start the initial guess.
func ExampleOCP() {
	g := ad.NewGraph()
	x := g.SymVec("x", 2) // q, v
	u := g.SymVec("u", 1)
	m := dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[1].AddConst(-10)},
		S:   [][]int{{-1}, {1}},
		F:   []ad.Vec{{x[1], u[0]}, {x[1], u[0].Scale(3)}},
	})
	res, err := fesd.SolveOCP(context.Background(), &fesd.OCP{
		Model: m, X0: []float64{0, 0},
		N: 10, T: 10, NFE: []int{3}, // 10 stages of 3 elements; T: initial guess
		TimeOptimal: true,
		UL:          []float64{-5}, UU: []float64{5},
		Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-200), x[1]}}}, // x(T) = (200, 0)
	}, fesd.Options{ // settings
		DCS:               dcs.Options{Formulation: dcs.Step},
		StepEquilibration: fesd.NoEquilibration,
	}, fesd.Start{ // a bang-bang guess of the control
		UInit: [][]float64{{5}, {5}, {5}, {0}, {0}, {0}, {0}, {-5}, {-5}, {-5}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v: T_f = %.5f, u = %.0f … %.0f\n", res.Status, res.TFinal, res.U[0][0], res.U[9][0])
	// Output:
	// Solved: T_f = 9.72200, u = 5 … -5
}

// Sensitivities through a switch: ẋ = 1 for x < 0 and ẋ = 3 for x > 0 from
// x₀ = −0.4 switches at t = 0.4, so x(1) = 3(1 + x₀) and ∂x(1)/∂x₀ = 3.
// The steps are solved on the branch the event predictor finds.
func ExampleSimulate_sensitivity() {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0]},
		S:   [][]int{{1}, {-1}},
		F:   []ad.Vec{{g.Const(3)}, {g.Const(1)}},
	})
	res, err := fesd.Simulate(context.Background(), m, []float64{-0.4}, fesd.SimOptions{
		TSim: 1, NSim: 2, Sensitivity: true,
		Options: fesd.Options{NFE: 3},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("x(1) = %.6f, ∂x(1)/∂x₀ = %.6f, branch steps %v %v\n",
		res.Final()[0], res.Sensitivity.DX0[0][0], res.Steps[0].Branch, res.Steps[1].Branch)
	// Output:
	// x(1) = 1.800000, ∂x(1)/∂x₀ = 3.000000, branch steps true true
}
