package main

import (
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/cartpole"
	"github.com/fesd-go/fesd/internal/monopod"
)

// row is one OCP of the benchmark: the problem as its source states it
// (model, horizon, costs, constraints, discretization, the initial guess
// the source gives) and nothing else; the solver settings are fesd's
// defaults, except where the source fixes its homotopy (the monopod's
// paper settings, returned by internal/monopod with the OCP).
type row struct {
	name string
	// family groups rows for the Figure 10 plot (monopod rows: "Step",
	// "Stewart"); N is their number of stages.
	family string
	N      int
	// quick rows run with -quick.
	quick bool
	build func() (*fesd.OCP, fesd.Options, fesd.Start, error)
	// terminal returns the terminal error of a result (NaN: not
	// meaningful for the row).
	terminal func(r *fesd.OCPResult) float64
}

// rows lists the benchmark.
func rows() []row {
	out := []row{
		{name: "turbo car (time-optimal, N = 10, v ≤ 25)", quick: true, build: turboCar, terminal: func(r *fesd.OCPResult) float64 {
			x := r.Final()
			return math.Hypot(x[0]-200, x[1])
		}},
		{name: "sliding-mode OCP (N = 6, Stewart)", quick: true, build: slidingOCP, terminal: func(r *fesd.OCPResult) float64 {
			x := r.Final()
			return math.Max(math.Abs(x[0]+math.Pi/6), math.Abs(x[1]+math.Pi/4))
		}},
		{name: "cart-pole with friction (N = 20)", quick: true, build: cartPole, terminal: func(r *fesd.OCPResult) float64 {
			x := r.Final()
			e := 0.0
			for i := range x {
				e = math.Max(e, math.Abs(x[i]-cartpole.XRef[i]))
			}
			return e
		}},
	}
	for _, form := range []dcs.Formulation{dcs.Step, dcs.Stewart} {
		for n := 30; n <= 90; n += 10 {
			out = append(out, row{
				name: "monopod N = " + itoa(n) + " " + form.String(), family: form.String(), N: n,
				quick: n == 30 && form == dcs.Step,
				build: func() (*fesd.OCP, fesd.Options, fesd.Start, error) { return monopodOCP(n, form) },
				terminal: func(r *fesd.OCPResult) float64 {
					x := r.Final()
					q := monopod.PaperTask(n).XTarget()
					e := 0.0
					for i := 0; i < 8; i++ {
						e = math.Max(e, math.Abs(x[i]-q[i]))
					}
					return e
				},
			})
		}
	}
	return out
}

func itoa(n int) string {
	b := []byte{}
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	if len(b) == 0 {
		return "0"
	}
	return string(b)
}

// turboCar is nosnoc's time-optimal turbo car (examples/turbocar, fesd's
// ExampleOCP) with the speed limit v ≤ 25 at the stage ends and the
// tutorial's bang-bang initial control.
func turboCar() (*fesd.OCP, fesd.Options, fesd.Start, error) {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	u := g.SymVec("u", 1)
	m := dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[1].AddConst(-10)},
		S:   [][]int{{-1}, {1}},
		F:   []ad.Vec{{x[1], u[0]}, {x[1], u[0].Scale(3)}},
	})
	n := 10
	ui := make([][]float64, n)
	for k := range ui {
		switch {
		case 10*k < 3*n:
			ui[k] = []float64{5}
		case 10*k >= 7*n:
			ui[k] = []float64{-5}
		default:
			ui[k] = []float64{0}
		}
	}
	p := &fesd.OCP{
		Model: m, X0: []float64{0, 0}, N: n, T: 10, NFE: []int{3},
		TimeOptimal: true,
		UL:          []float64{-5}, UU: []float64{5},
		XL: []float64{math.Inf(-1), -25}, XU: []float64{math.Inf(1), 25},
		Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-200), x[1]}}},
	}
	return p, fesd.Options{DCS: dcs.Options{Formulation: dcs.Step}}, fesd.Start{UInit: ui}, nil
}

// slidingOCP is the sliding-mode OCP of 004 §7 / nosnoc's sliding-mode
// example (examples/slidingocp): two switching surfaces, a terminal
// state on their intersection, N = 6 stages of 6 elements.
func slidingOCP() (*fesd.OCP, fesd.Options, fesd.Start, error) {
	g := ad.NewGraph()
	x := g.SymVec("x", 4)
	u := g.SymVec("u", 2)
	m := dcs.NewModel(g, x, u, nil)
	one, zero := g.Const(1), g.Const(0)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0].Add(ad.Sq(x[1]).Scale(0.15))},
		S:   [][]int{{1}, {-1}},
		F:   []ad.Vec{{x[2].Sub(one), zero, u[0], u[1]}, {x[2].Add(one), zero, u[0], u[1]}},
	})
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[1].Sub(ad.PowInt(x[0], 3).Scale(0.05))},
		S:   [][]int{{1}, {-1}},
		F:   []ad.Vec{{zero, x[3].Sub(one), u[0], u[1]}, {zero, x[3].Add(one), u[0], u[1]}},
	})
	p := &fesd.OCP{
		Model: m, X0: []float64{2 * math.Pi / 3, math.Pi / 3, 0, 0},
		N: 6, T: 4, NFE: []int{6},
		UL: []float64{-10, -10}, UU: []float64{10, 10},
		Lagrange: ad.Sq(x[2]).Add(ad.Sq(x[3])),
		Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(math.Pi / 6), x[1].AddConst(math.Pi / 4)}}},
	}
	opts := fesd.Options{Stages: 2, DCS: dcs.Options{Formulation: dcs.Stewart}, CrossComp: fesd.FEFE}
	return p, opts, fesd.Start{}, nil
}

// cartPole is nosnoc_py's cart-pole swing-up with Coulomb friction on the
// cart (internal/cartpole), from the hanging pole at p = 1, with the
// straight-line state guess of the example.
func cartPole() (*fesd.OCP, fesd.Options, fesd.Start, error) {
	x0 := []float64{1, 0, 0, 0}
	p := cartpole.Problem(x0, 20, 2)
	return p, fesd.Options{DCS: dcs.Options{Formulation: dcs.Step}}, fesd.Start{XInit: cartpole.LinearGuess(x0, 20)}, nil
}

// monopodOCP is the monopod of 004 §7.2 with the paper's discretization
// and homotopy (internal/monopod Model.OCP) and the default start.
func monopodOCP(n int, form dcs.Formulation) (*fesd.OCP, fesd.Options, fesd.Start, error) {
	m, err := monopod.New(form, 0)
	if err != nil {
		return nil, fesd.Options{}, fesd.Start{}, err
	}
	p, opts, err := m.OCP(monopod.PaperTask(n), monopod.Discretization{})
	return p, opts, fesd.Start{}, err
}
