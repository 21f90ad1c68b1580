package fesd

import (
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// scalar is a one-dimensional Filippov system ẋ = f₊(t) for x > 0 and
// f₋(t) for x < 0 (ψ = x, S = [1; −1]: θ₁ belongs to x > 0), the tutorial
// problems of 004 Example 3 and their variants (see "Reference problems" in
// the package documentation).
type scalar struct {
	name   string
	plus   func(g *ad.Graph, t ad.Expr) ad.Expr
	minus  func(g *ad.Graph, t ad.Expr) ad.Expr
	x0     float64
	tsim   float64
	nsim   int
	nfe    int
	ts     float64                 // reference switch time
	kind   SwitchKind              // its kind
	xT     func(T float64) float64 // reference x(T)
	linear bool                    // f± at most linear in t (RK with n_s ≥ 1 exact except implicit Euler)
}

func konst(c float64) func(*ad.Graph, ad.Expr) ad.Expr {
	return func(g *ad.Graph, _ ad.Expr) ad.Expr { return g.Const(c) }
}

func (c scalar) model() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	tm := g.Sym("t")
	m := dcs.NewModel(g, x, nil, nil)
	m.Time = tm
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0]},
		S:   [][]int{{1}, {-1}},
		F:   []ad.Vec{{c.plus(g, tm)}, {c.minus(g, tm)}},
	})
	return m
}

// enterTime solves x0 + t + 0.04(1 − cos 5t) = 0 (case (b) before the
// switch: ẋ = 1 + 0.2 sin 5t) by bisection to machine precision; the left
// side is increasing since 1 + 0.2 sin 5t > 0.
func enterTime(x0 float64) float64 {
	f := func(t float64) float64 { return x0 + t + 0.04*(1-math.Cos(5*t)) }
	lo, hi := 0.0, -x0+1
	for i := 0; i < 200; i++ {
		mid := (lo + hi) / 2
		if f(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// tutorialCases are closed-form cases of 004 Example 3: (a) crossing, two
// sliding variants of (b) with constant fields (as in nosnoc_py's
// examples/simplest) and (c) leaving sliding. Grids are
// chosen so that the switch is not on the uniform grid T/(NSim·NFE).
func tutorialCases() []scalar {
	return []scalar{
		{
			// ẋ = 3 (x<0), 1 (x>0), x0 = −1: x = −1 + 3t until t = 1/3,
			// then x = t − 1/3.
			name: "simple switch", plus: konst(1), minus: konst(3), x0: -1,
			tsim: 1, nsim: 2, nfe: 2, ts: 1.0 / 3, kind: Crossing,
			xT: func(T float64) float64 { return T - 1.0/3 }, linear: true,
		},
		{
			// ẋ = 3 (x<0), −1 (x>0), x0 = −1: reaches 0 at 1/3, then slides.
			name: "sliding", plus: konst(-1), minus: konst(3), x0: -1,
			tsim: 1, nsim: 2, nfe: 2, ts: 1.0 / 3, kind: EnteringSliding,
			xT: func(T float64) float64 { return 0 }, linear: true,
		},
		{
			// ẋ = 1 (x<0), −1 (x>0), x0 = −√2: reaches 0 at t = √2.
			name: "sliding from -sqrt2", plus: konst(-1), minus: konst(1), x0: -math.Sqrt2,
			tsim: 2, nsim: 2, nfe: 3, ts: math.Sqrt2, kind: EnteringSliding,
			xT: func(T float64) float64 { return 0 }, linear: true,
		},
		{
			// ẋ ∈ −sign(x) + t, x(0) = 0: slides until t = 1 (where
			// f₊ = t − 1 becomes tangent), then x = (t − 1)²/2.
			name:  "leaving sliding",
			plus:  func(g *ad.Graph, t ad.Expr) ad.Expr { return t.AddConst(-1) },
			minus: func(g *ad.Graph, t ad.Expr) ad.Expr { return t.AddConst(1) },
			x0:    0, tsim: 1.5, nsim: 2, nfe: 2, ts: 1, kind: LeavingSliding,
			xT: func(T float64) float64 { return (T - 1) * (T - 1) / 2 }, linear: true,
		},
	}
}
