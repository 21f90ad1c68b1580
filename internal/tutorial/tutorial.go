package tutorial

import (
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// TurboCar returns the turbo-car model on a new graph with its states
// x = (q, v) and control u.
func TurboCar() (m *dcs.Model, x, u ad.Vec) {
	g := ad.NewGraph()
	x = g.SymVec("x", 2)
	u = g.SymVec("u", 1)
	m = dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[1].AddConst(-10)}, // ψ = v − 10
		S:   [][]int{{-1}, {1}},
		F:   []ad.Vec{{x[1], u[0]}, {x[1], u[0].Scale(3)}},
	})
	return m, x, u
}

// SlidingModeTarget is the terminal (x₁, x₂) of the sliding-mode OCP.
var SlidingModeTarget = []float64{-math.Pi / 6, -math.Pi / 4}

// SlidingMode returns the sliding-mode model on a new graph with its
// states x ∈ R⁴ (controls u ∈ R² drive x₃, x₄).
func SlidingMode() (*dcs.Model, ad.Vec) {
	g := ad.NewGraph()
	x := g.SymVec("x", 4)
	u := g.SymVec("u", 2)
	m := dcs.NewModel(g, x, u, nil)
	one := g.Const(1)
	zero := g.Const(0)
	m.AddSubsystem(dcs.Subsystem{
		Name: "psi1",
		Psi:  ad.Vec{x[0].Add(ad.Sq(x[1]).Scale(0.15))},
		S:    [][]int{{1}, {-1}},
		F:    []ad.Vec{{x[2].Sub(one), zero, u[0], u[1]}, {x[2].Add(one), zero, u[0], u[1]}},
	})
	m.AddSubsystem(dcs.Subsystem{
		Name: "psi2",
		Psi:  ad.Vec{x[1].Sub(ad.PowInt(x[0], 3).Scale(0.05))},
		S:    [][]int{{1}, {-1}},
		F:    []ad.Vec{{zero, x[3].Sub(one), u[0], u[1]}, {zero, x[3].Add(one), u[0], u[1]}},
	})
	return m, x
}
