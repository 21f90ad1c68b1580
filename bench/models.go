package main

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// irmaModel is the IRMA gene network (004 §7.1 as nosnoc_py's
// examples/Acary2014/irma.py writes it, with SWITCH_ON = 1 and
// LIFTING = True) in the general step form f(x, α) with
// the user lifting β = α₁(1 − α₄):
//
//	f = −γ⊙x + κ₁⊙[1, 1, 1, α₁, 1] + κ₂⊙[α₅, α₀, α₂, β, α₃],
//
// with the thresholds c = (x₀−0.01, x₁−0.01, x₁−0.06, x₁−0.08, x₂−0.035,
// x₃−0.04, x₄−0.01).
func irmaModel() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 5)
	m := dcs.NewModel(g, x, nil, nil)
	thr := []struct {
		state int
		value float64
	}{{0, 0.01}, {1, 0.01}, {1, 0.06}, {1, 0.08}, {2, 0.035}, {3, 0.04}, {4, 0.01}}
	c := make(ad.Vec, len(thr))
	for i, th := range thr {
		c[i] = x[th.state].AddConst(-th.value)
	}
	alpha := m.AddStep(c)
	beta := g.Sym("beta")
	one := g.Const(1)
	m.AddAlgebraic(ad.Vec{beta}, ad.Vec{beta.Sub(alpha[1].Mul(one.Sub(alpha[4])))})
	kappa := [5][2]float64{{1.1e-4, 9e-4}, {3e-4, 0.15}, {6e-4, 0.018}, {5e-4, 0.03}, {7.5e-4, 0.015}}
	gamma := []float64{0.05, 0.04, 0.05, 0.02, 0.6}
	s1 := ad.Vec{one, one, one, alpha[1], one}
	s2 := ad.Vec{alpha[5], alpha[0], alpha[2], beta, alpha[3]}
	m.F0 = make(ad.Vec, 5)
	for i := range m.F0 {
		m.F0[i] = x[i].Scale(-gamma[i]).Add(s1[i].Scale(kappa[i][0])).Add(s2[i].Scale(kappa[i][1]))
	}
	return m
}

// irmaX0 is X0 of irma.py.
var irmaX0 = []float64{0.011, 0.09, 0.04, 0.05, 0.015}

// threeMasses is Stewart's three masses with Coulomb friction
// (Stewart 1996, §5, eq. 15), x = (q, v), ψ_j = v_j, as three 2-mode
// subsystems (the paper's decomposition):
//
//	q̈₁ = −q₁ + (q₂ − q₁) − q̇₁ − 0.3 sgn(q̇₁)
//	q̈₂ = (q₁ − q₂) + (q₃ − q₂) − q̇₂ − 0.3 sgn(q̇₂)
//	q̈₃ = (q₂ − q₃) − q̇₃ − 0.3 sgn(q̇₃) + 10 cos(πt)
func threeMasses() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 6)
	tm := g.Sym("t")
	q, v := x[:3], x[3:]
	m := dcs.NewModel(g, x, nil, nil)
	m.Time = tm
	m.F0 = ad.Vec{v[0], v[1], v[2],
		q[0].Neg().Add(q[1].Sub(q[0])).Sub(v[0]),
		q[0].Sub(q[1]).Add(q[2].Sub(q[1])).Sub(v[1]),
		q[1].Sub(q[2]).Sub(v[2]).Add(ad.Cos(tm.Scale(math.Pi)).Scale(10)),
	}
	friction := func(sign float64, j int) ad.Vec {
		f := g.Zeros(6)
		f[3+j] = g.Const(-0.3 * sign)
		return f
	}
	for j := range 3 {
		m.AddSubsystem(dcs.Subsystem{
			Name: fmt.Sprintf("m%d", j+1),
			Psi:  ad.Vec{v[j]},
			S:    [][]int{{1}, {-1}},
			F:    []ad.Vec{friction(1, j), friction(-1, j)},
		})
	}
	return m
}

// massesX0 is the initial state of Stewart 1996, §5.
var massesX0 = []float64{-1, 1, -1, -1, 1, 1}
