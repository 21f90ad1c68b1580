package main

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/internal/reference"
)

// irmaModel is the IRMA gene network of internal/reference (004 §7.1 as
// nosnoc_py's examples/Acary2014/irma.py writes it, with SWITCH_ON = 1 and
// LIFTING = True: the user lifting β = α₁(1 − α₄)); its initial state is
// reference.IRMAX0.
func irmaModel() *dcs.Model {
	m, _ := reference.IRMAModel(true)
	return m
}

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
