package cartpole

import (
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// Physical constants: cart and pole masses, pole length, gravity and the
// cart's Coulomb friction force.
const (
	M1, M2, L, Grav, Friction = 1.0, 0.1, 1.0, 9.81, 2.0
)

// XRef is the upright rest state (p, θ, v, ω) = (0, π, 0, 0).
var XRef = []float64{0, math.Pi, 0, 0}

// Model returns the cart-pole with friction on the cart as a Filippov
// system with ψ = v, and its state and control symbols.
func Model() (*dcs.Model, ad.Vec, ad.Vec) { return model(Friction) }

// ModelWithFriction is Model with another friction force (a plant that
// differs from the controller's model).
func ModelWithFriction(fric float64) *dcs.Model {
	m, _, _ := model(fric)
	return m
}

func model(fric float64) (*dcs.Model, ad.Vec, ad.Vec) {
	g := ad.NewGraph()
	x := g.SymVec("x", 4)
	u := g.SymVec("u", 1)
	th, v, om := x[1], x[2], x[3]
	c, s := ad.Cos(th), ad.Sin(th)
	// M = [[a, b], [b, d]]
	a := g.Const(M1 + M2)
	b := c.Scale(M2 * L)
	d := g.Const(M2 * L * L)
	det := a.Mul(d).Sub(b.Mul(b))
	f1 := u[0].Add(s.Mul(ad.Sq(om)).Scale(M2 * L))
	f2 := s.Scale(-M2 * Grav * L)
	acc := func(fx ad.Expr) ad.Vec { // M⁻¹(fx, f2)
		return ad.Vec{d.Mul(fx).Sub(b.Mul(f2)).Div(det), a.Mul(f2).Sub(b.Mul(fx)).Div(det)}
	}
	pos := acc(f1.AddConst(-fric)) // v > 0
	neg := acc(f1.AddConst(fric))  // v < 0
	m := dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{v},
		S:   [][]int{{1}, {-1}},
		F:   []ad.Vec{{v, om, pos[0], pos[1]}, {v, om, neg[0], neg[1]}},
	})
	return m, x, u
}

// quadForm returns Σ_i w_i (x_i − ref_i)².
func quadForm(x ad.Vec, ref, w []float64) ad.Expr {
	s := x[0].Graph().Const(0)
	for i := range x {
		s = s.Add(ad.Sq(x[i].AddConst(-ref[i])).Scale(w[i]))
	}
	return s
}

// Problem returns nosnoc_py's swing-up OCP from x0 on N stages of nfe
// elements over T = 5: the tracking cost ∫ (x − x_ref)ᵀQ(x − x_ref) + R u²
// with Q = diag(10, 100, 1, 1), R = 1, the terminal cost with
// Q_T = diag(500, 100, 10, 10), |u| ≤ 30 and |p| ≤ 5 at the stage ends.
func Problem(x0 []float64, n, nfe int) *fesd.OCP {
	m, x, u := Model()
	return &fesd.OCP{
		Model: m, X0: x0, N: n, T: 5, NFE: []int{nfe},
		UL: []float64{-30}, UU: []float64{30},
		XL:       []float64{-5, math.Inf(-1), math.Inf(-1), math.Inf(-1)},
		XU:       []float64{5, math.Inf(1), math.Inf(1), math.Inf(1)},
		Lagrange: quadForm(x, XRef, []float64{10, 100, 1, 1}).Add(ad.Sq(u[0])),
		Mayer:    quadForm(x, XRef, []float64{500, 100, 10, 10}),
	}
}

// LinearGuess returns N + 1 states from x0 to XRef on a straight line, an
// initial guess for Problem (fesd.Start.XInit).
func LinearGuess(x0 []float64, n int) [][]float64 {
	out := make([][]float64, n+1)
	for k := range out {
		f := float64(k) / float64(n)
		out[k] = make([]float64, len(x0))
		for i := range x0 {
			out[k][i] = (1-f)*x0[i] + f*XRef[i]
		}
	}
	return out
}
