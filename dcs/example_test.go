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
	// Stewart: {NX:1 NU:0 NP:0 NPsi:1 NF:2 NTheta:2 NAlpha:0 NBeta:0 NLambda:2 NMu:1 NUser:0 NZ:5 NComp:2 NEq:3}
	//   ẋ(−1) = [3]
	// Step: {NX:1 NU:0 NP:0 NPsi:1 NF:2 NTheta:2 NAlpha:1 NBeta:0 NLambda:2 NMu:0 NUser:0 NZ:5 NComp:2 NEq:3}
	//   ẋ(−1) = [3]
}

// Regions as unions of base sets (004 Example 4): R₁ = R̃₁ ∪ R̃₂ ∪ R̃₃ and
// R₂ = R̃₄, written with half-spaces, give θ₁ = α₁ + (1 − α₁)α₂ and
// θ₂ = (1 − α₁)(1 − α₂).
func ExampleRegion() {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{
		Name:    "s",
		Psi:     x,
		Regions: []dcs.Region{dcs.Union(dcs.Positive(0), dcs.Positive(1)), dcs.Intersection(dcs.Negative(0), dcs.Negative(1))},
		F:       []ad.Vec{{g.Const(1), g.Const(0)}, {g.Const(0), g.Const(1)}},
	})
	d, err := m.Reformulate(dcs.Options{Formulation: dcs.Step})
	if err != nil {
		fmt.Println(err)
		return
	}
	// θ at α = (0.25, 0.5) from the θ-definition rows θ − θ(α) = 0.
	z := make([]float64, len(d.Z))
	a, _ := d.ZBlock(dcs.Alpha, 0)
	z[a.Start], z[a.Start+1] = 0.25, 0.5
	res, _ := d.EvalG([]float64{0, 0}, nil, nil, z)
	bl, _ := d.GBlock(dcs.ThetaDef, 0)
	fmt.Printf("θ₁ = %.4f (α₁ + (1 − α₁)α₂ = %.4f)\n", -res[bl.Start], 0.25+0.75*0.5)
	fmt.Printf("θ₂ = %.4f ((1 − α₁)(1 − α₂) = %.4f)\n", -res[bl.Start+1], 0.75*0.5)
	// Output:
	// θ₁ = 0.6250 (α₁ + (1 − α₁)α₂ = 0.6250)
	// θ₂ = 0.3750 ((1 − α₁)(1 − α₂) = 0.3750)
}

// The IRMA gene network (004 §7.1) in the general form f(x, α) with a user
// lifting variable β = α₁(1 − α₄); only the step formulation applies.
func ExampleModel_AddStep() {
	g := ad.NewGraph()
	x := g.SymVec("x", 5)
	m := dcs.NewModel(g, x, nil, nil)
	c := ad.Vec{x[0].AddConst(-0.01), x[1].AddConst(-0.01), x[1].AddConst(-0.06), x[1].AddConst(-0.08),
		x[2].AddConst(-0.035), x[3].AddConst(-0.04), x[4].AddConst(-0.01)}
	a := m.AddStep(c) // α_j ∈ γ(c_j(x))
	beta := g.Sym("beta")
	m.AddAlgebraic(ad.Vec{beta}, ad.Vec{beta.Sub(a[1].Mul(g.Const(1).Sub(a[4])))})
	m.F0 = ad.Vec{
		x[0].Scale(-0.05).AddConst(1.1e-4).Add(a[5].Scale(9e-4)),
		x[1].Scale(-0.04).AddConst(3e-4).Add(a[0].Scale(0.15)),
		x[2].Scale(-0.05).AddConst(6e-4).Add(a[2].Scale(0.018)),
		x[3].Scale(-0.02).Add(a[1].Scale(5e-4)).Add(beta.Scale(0.03)),
		x[4].Scale(-0.6).AddConst(7.5e-4).Add(a[3].Scale(0.015)),
	}
	d, err := m.Reformulate(dcs.Options{Formulation: dcs.Step})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("n_z = %d, pairs = %d, equations = %d\n", d.Dims.NZ, d.Dims.NComp, d.Dims.NEq)
	_, err = m.Reformulate(dcs.Options{Formulation: dcs.Stewart})
	fmt.Println(err)
	// Output:
	// n_z = 22, pairs = 14, equations = 8
	// dcs: Stewart formulation cannot represent general step selections α: Steps: use the Step formulation
}
