package ad_test

import (
	"fmt"

	"github.com/fesd-go/fesd/ad"
)

// Example builds a small mechanical system v̇ = M(q)⁻¹ f(q, v, u), compiles
// it with its sparse Jacobian and Lagrangian Hessian, and evaluates it.
func Example() {
	g := ad.NewGraph()
	q := g.SymVec("q", 2)
	v := g.SymVec("v", 2)
	u := g.SymVec("u", 1)

	// Mass matrix and forces of a cart (q0) with a pendulum (q1).
	c := ad.Cos(q[1])
	M, _ := ad.NewMat(2, 2,
		g.Const(2), c,
		c, g.Const(1))
	f := ad.Vec{
		u[0].Add(ad.Sin(q[1]).Mul(ad.Sq(v[1]))),
		ad.Sin(q[1]).Scale(-9.81),
	}
	vdot, err := ad.SolveSym(M, f)
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := ad.NewDerivatives("cartpole",
		[]ad.Arg{ad.A("q", q...), ad.A("v", v...), ad.A("u", u...)},
		[]ad.Arg{ad.A("xdot", ad.Concat(v, vdot)...)},
		"q", "v", "u")
	if err != nil {
		fmt.Println(err)
		return
	}

	ws := ad.NewWorkspace() // one per goroutine; Eval does not allocate
	xdot := make([]float64, 4)
	in := [][]float64{{0, 0.5}, {0, 1}, {1}}
	if err := d.F.Eval(ws, in, [][]float64{xdot}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("xdot = %.4f\n", xdot)

	jac := make([]float64, d.JacPattern.NNZ())
	_ = d.Jac.Eval(ws, in, [][]float64{jac})
	fmt.Printf("Jacobian: %d×%d with %d nonzeros\n%v", d.JacPattern.Rows, d.JacPattern.Cols, d.JacPattern.NNZ(), d.JacPattern)
	fmt.Printf("Hessian lower triangle: %d nonzeros\n", d.HessPattern.NNZ())
	// (Check: det M = 2 − cos²0.5 = 1.22985, v̇₀ = (f₀ − cos0.5·f₁)/det = 4.5590.)

	// Output:
	// xdot = [0.0000 1.0000 4.5590 -8.7040]
	// Jacobian: 4×5 with 8 nonzeros
	// ..*..
	// ...*.
	// .*.**
	// .*.**
	// Hessian lower triangle: 4 nonzeros
}
