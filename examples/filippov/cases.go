package main

import (
	"image/color"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/internal/report"
)

var colorGray = color.Gray{Y: 140}

// tutorialCase is one scalar Filippov system ẋ ∈ {f₊(t) for x > 0, f₋(t)
// for x < 0} (ψ = x, S = [1; −1]: the first mode belongs to x > 0) with its
// closed form.
type tutorialCase struct {
	id, name string
	plus     func(g *ad.Graph, t ad.Expr) ad.Expr
	minus    func(g *ad.Graph, t ad.Expr) ad.Expr
	x0       float64
	kind     string // expected switch kind (report.KindName)
	// exact returns the closed-form x(T); for the spontaneous case, whose
	// Filippov solution is not unique, it is the solution selected by the
	// reported switches.
	// side is the sign of the simulated x(T), which picks the branch of
	// case (d).
	exact func(T float64, sw []report.Switch, side float64) float64
	// switchTime returns the closed-form time of the switch of kind
	// `kind` (false if there is none to compare with).
	switchTime func(sw []report.Switch) (float64, bool)
}

// model builds the case in a fresh graph, with time symbol t.
func (c tutorialCase) model() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	tm := g.Sym("t")
	m := dcs.NewModel(g, x, nil, nil)
	m.Time = tm
	m.AddSubsystem(dcs.Subsystem{
		Name: c.name,
		Psi:  ad.Vec{x[0]},
		S:    [][]int{{1}, {-1}},
		F:    []ad.Vec{{c.plus(g, tm)}, {c.minus(g, tm)}},
	})
	return m
}

// curve evaluates the closed form on n points of [0, T].
func (c tutorialCase) curve(T float64, sw []report.Switch, side float64, n int) (ts, xs []float64) {
	for i := range n {
		t := T * float64(i) / float64(n-1)
		ts = append(ts, t)
		xs = append(xs, c.exact(t, sw, side))
	}
	return ts, xs
}

func konst(v float64) func(*ad.Graph, ad.Expr) ad.Expr {
	return func(g *ad.Graph, _ ad.Expr) ad.Expr { return g.Const(v) }
}

// Initial value of case (b).
const x0b = -0.5

// enterTime is the time at which case (b) reaches x = 0: the root of
// x0b + t + 0.04(1 − cos 5t) (increasing, since ẋ = 1 + 0.2 sin 5t ≥ 0.8),
// by bisection to machine precision.
func enterTime() float64 {
	f := func(t float64) float64 { return x0b + t + 0.04*(1-math.Cos(5*t)) }
	lo, hi := 0.0, -x0b/0.8 // f(hi) ≥ x0b + 0.8·hi = 0
	for range 200 {
		mid := (lo + hi) / 2
		if f(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// cases returns the four cases of 004 Example 3 with their closed forms.
func cases() []tutorialCase {
	ts := enterTime()
	return []tutorialCase{
		{
			// (a) ẋ ∈ 2 − sign(x): f₋ = 3, f₊ = 1. From x(0) = −1,
			// x = −1 + 3t reaches 0 at t = 1/3; there f₋ = 3 > 0 and
			// f₊ = 1 > 0 point the same way, so x crosses: x = t − 1/3.
			id: "a", name: "crossing", plus: konst(1), minus: konst(3), x0: -1, kind: "crossing",
			exact: func(T float64, _ []report.Switch, _ float64) float64 {
				if T <= 1.0/3 {
					return -1 + 3*T
				}
				return T - 1.0/3
			},
			switchTime: func([]report.Switch) (float64, bool) { return 1.0 / 3, true },
		},
		{
			// (b) ẋ ∈ −sign(x) + 0.2 sin 5t: f± = ∓1 + 0.2 sin 5t. From
			// x(0) = −0.5, ẋ = 1 + 0.2 sin 5t, so x = −0.5 + t +
			// 0.04(1 − cos 5t) until it reaches 0 at t_s ≈ 0.436955
			// (enterTime). Since |0.2 sin 5t| < 1, f₋ > 0 > f₊: the
			// surface attracts from both sides and x ≡ 0 (sliding) after.
			id: "b", name: "entering sliding",
			plus:  func(g *ad.Graph, t ad.Expr) ad.Expr { return ad.Sin(t.Scale(5)).Scale(0.2).AddConst(-1) },
			minus: func(g *ad.Graph, t ad.Expr) ad.Expr { return ad.Sin(t.Scale(5)).Scale(0.2).AddConst(1) },
			x0:    x0b, kind: "entering_sliding",
			exact: func(T float64, _ []report.Switch, _ float64) float64 {
				if T < ts {
					return x0b + T + 0.04*(1-math.Cos(5*T))
				}
				return 0
			},
			switchTime: func([]report.Switch) (float64, bool) { return ts, true },
		},
		{
			// (c) ẋ ∈ −sign(x) + t: f₊ = t − 1, f₋ = t + 1. At x = 0
			// for t < 1, f₋ > 0 > f₊: sliding with θ₊ = (1 + t)/2. At
			// t = 1, f₊ = 0 becomes tangent and then positive while f₋
			// still points to the surface: x leaves to x > 0 with
			// ẋ = t − 1, x = (t − 1)²/2. Unique solution.
			id: "c", name: "leaving sliding",
			plus:  func(g *ad.Graph, t ad.Expr) ad.Expr { return t.AddConst(-1) },
			minus: func(g *ad.Graph, t ad.Expr) ad.Expr { return t.AddConst(1) },
			x0:    0, kind: "leaving_sliding",
			exact: func(T float64, _ []report.Switch, _ float64) float64 {
				if T <= 1 {
					return 0
				}
				return (T - 1) * (T - 1) / 2
			},
			switchTime: func([]report.Switch) (float64, bool) { return 1, true },
		},
		{
			// (d) ẋ ∈ sign(x): f₊ = 1, f₋ = −1. At x = 0 both fields
			// point away from the surface, and every x ≡ 0 on [0, t_s]
			// followed by ±(t − t_s) is a Filippov solution (t_s ≥ 0,
			// also x ≡ 0 throughout, with θ₊ = 1/2). The closed form is
			// the one selected by the simulation: x(T) = ±(T − t_s) if a
			// spontaneous switch to ψ ≷ 0 is reported at t_s (the sign
			// is taken from the simulated x(T)), else 0.
			id: "d", name: "spontaneous", plus: konst(1), minus: konst(-1), x0: 0, kind: "spontaneous",
			exact: func(T float64, sw []report.Switch, side float64) float64 {
				for _, s := range sw {
					if s.Kind == "spontaneous" && T > s.T {
						return math.Copysign(T-s.T, side)
					}
				}
				return 0
			},
			switchTime: func(sw []report.Switch) (float64, bool) {
				for _, s := range sw {
					if s.Kind == "spontaneous" {
						return s.T, true // any t_s ≥ 0 is exact
					}
				}
				return 0, false
			},
		},
	}
}
