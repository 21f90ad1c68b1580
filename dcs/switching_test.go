package dcs_test

import (
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// scalarCase is a one-dimensional Filippov system ẋ = f₊(t) for x > 0 and
// f₋(t) for x < 0 (ψ = x, S = [1; −1], so θ₁ belongs to x > 0).
type scalarCase struct {
	name       string
	fPlus      func(g *ad.Graph, t ad.Expr) ad.Expr
	fMinus     func(g *ad.Graph, t ad.Expr) ad.Expr
	plus       func(t float64) float64 // numeric f₊
	minus      func(t float64) float64 // numeric f₋
	slideTimes []float64               // times at which x ≡ 0 is a (sliding) Filippov solution
}

func constant(c float64) (func(*ad.Graph, ad.Expr) ad.Expr, func(float64) float64) {
	return func(g *ad.Graph, _ ad.Expr) ad.Expr { return g.Const(c) }, func(float64) float64 { return c }
}

// scalarCases are 004 Example 3 (a)–(d) and the switch and sliding
// problems of nosnoc_py's examples/simplest/simplest_example.py (x₀ = −1,
// F = [3, ±1]) and nosnoc's test/test_sliding_mode.m (x₀ = −√2, F = [1,
// −1]). f₊, f₋ are read off the inclusions: e.g.
// ẋ ∈ 2 − sign(x) has f₊ = 1, f₋ = 3.
func scalarCases() []scalarCase {
	var cs []scalarCase
	add := func(name string, p, m float64, slide []float64) {
		pe, pn := constant(p)
		me, mn := constant(m)
		cs = append(cs, scalarCase{name, pe, me, pn, mn, slide})
	}
	add("004 Ex3a crossing 2−sign(x)", 1, 3, nil)
	cs = append(cs, scalarCase{
		name:   "004 Ex3b entering sliding −sign(x)+0.2sin5t",
		fPlus:  func(g *ad.Graph, t ad.Expr) ad.Expr { return ad.Sin(t.Scale(5)).Scale(0.2).AddConst(-1) },
		fMinus: func(g *ad.Graph, t ad.Expr) ad.Expr { return ad.Sin(t.Scale(5)).Scale(0.2).AddConst(1) },
		plus:   func(t float64) float64 { return -1 + 0.2*math.Sin(5*t) },
		minus:  func(t float64) float64 { return 1 + 0.2*math.Sin(5*t) },
		// |0.2 sin 5t| < 1, so x = 0 is attractive for all t.
		slideTimes: []float64{0, 0.37, 1.9},
	})
	cs = append(cs, scalarCase{
		name:   "004 Ex3c leaving sliding −sign(x)+t",
		fPlus:  func(g *ad.Graph, t ad.Expr) ad.Expr { return t.AddConst(-1) },
		fMinus: func(g *ad.Graph, t ad.Expr) ad.Expr { return t.AddConst(1) },
		plus:   func(t float64) float64 { return t - 1 },
		minus:  func(t float64) float64 { return t + 1 },
		// Sliding on x = 0 until t = 1 (004 Example 3c).
		slideTimes: []float64{0, 0.4, 0.999},
	})
	add("004 Ex3d spontaneous sign(x)", 1, -1, []float64{0, 2}) // x ≡ 0 is one of the Filippov solutions
	add("tutorial simple switch F=[3,1]", 1, 3, nil)
	add("tutorial sliding F=[3,−1]", -1, 3, []float64{0.5})
	add("tutorial sliding from −√2 F=[1,−1]", -1, 1, []float64{1.5})
	return cs
}

func (c scalarCase) model() (*dcs.Model, ad.Expr) {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	tm := g.Sym("t")
	m := dcs.NewModel(g, x, nil, nil)
	m.Time = tm
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0]},
		S:   [][]int{{1}, {-1}},
		F:   []ad.Vec{{c.fPlus(g, tm)}, {c.fMinus(g, tm)}},
	})
	return m, tm
}

// handZ builds z by hand for the scalar systems: θ₊ is Filippov's weight
// of f₊, x the state.
//
// Stewart (eq. 28): g = −Sψ = (−x, x); λ = g − min g, μ = −min g.
// Step (eq. 22, 17): α = θ₊, λᵖ = max(x, 0), λⁿ = max(−x, 0).
func handZ(t *testing.T, d *dcs.DCS, x, thetaPlus float64) []float64 {
	z := make([]float64, len(d.Z))
	put(t, d, z, dcs.Theta, 0, thetaPlus, 1-thetaPlus)
	switch d.Formulation {
	case dcs.Stewart:
		gmin := math.Min(-x, x)
		put(t, d, z, dcs.Lambda, 0, -x-gmin, x-gmin)
		put(t, d, z, dcs.Mu, 0, -gmin)
	case dcs.Step:
		put(t, d, z, dcs.Alpha, 0, thetaPlus)
		put(t, d, z, dcs.LambdaP, 0, math.Max(x, 0))
		put(t, d, z, dcs.LambdaN, 0, math.Max(-x, 0))
	}
	return z
}

// TestScalarCasesExactSolution checks that the exact Filippov (x, z) of
// 004 Example 3 and the tutorial problems satisfy the DCS in each region
// and on the sliding surface, with the Filippov sliding velocity 0, and
// that wrong selections violate it.
func TestScalarCasesExactSolution(t *testing.T) {
	const tol = 1e-12
	for _, c := range scalarCases() {
		m, _ := c.model()
		for _, f := range formulations {
			d := reformulate(t, m, dcs.Options{Formulation: f})
			t.Run(c.name+"/"+f.String(), func(t *testing.T) {
				for _, tm := range []float64{0, 0.3, 1.7} {
					for _, x := range []float64{0.7, -0.4, 1e-3, -2.5} {
						th := 0.0
						want := c.minus(tm)
						if x > 0 {
							th, want = 1, c.plus(tm)
						}
						z := handZ(t, d, x, th)
						if r := residuals(t, d, []float64{x}, nil, nil, z); r.Max() > tol {
							t.Errorf("x=%g t=%g: residuals %+v > %g", x, tm, r, tol)
						}
						if got := evalF(t, d, []float64{x}, nil, nil, z, tm); math.Abs(got[0]-want) > tol {
							t.Errorf("x=%g t=%g: ẋ = %g, want %g", x, tm, got[0], want)
						}
						// Wrong selection: the other region's mode.
						zw := handZ(t, d, x, 1-th)
						if r := residuals(t, d, []float64{x}, nil, nil, zw); r.Comp < 1e-4 {
							t.Errorf("x=%g: wrong selection θ₊=%g accepted, residuals %+v", x, 1-th, r)
						}
						// Wrong selection in between (only Step can express
						// it through α; for Stewart it violates λ ⊥ θ too).
						zm := handZ(t, d, x, 0.5)
						if r := residuals(t, d, []float64{x}, nil, nil, zm); r.Comp < 1e-4 {
							t.Errorf("x=%g: θ₊=1/2 accepted off the surface, residuals %+v", x, r)
						}
					}
				}
				for _, tm := range c.slideTimes {
					// Filippov sliding: θ₊f₊ + (1 − θ₊)f₋ = 0.
					fp, fm := c.plus(tm), c.minus(tm)
					th := fm / (fm - fp)
					z := handZ(t, d, 0, th)
					if r := residuals(t, d, []float64{0}, nil, nil, z); r.Max() > tol {
						t.Errorf("sliding t=%g: residuals %+v", tm, r)
					}
					if got := evalF(t, d, []float64{0}, nil, nil, z, tm); math.Abs(got[0]) > tol {
						t.Errorf("sliding t=%g: ẋ = %g, want 0", tm, got[0])
					}
					// A different convex combination satisfies the algebraic
					// conditions on the surface but does not slide.
					zw := handZ(t, d, 0, math.Mod(th+0.25, 1))
					if got := evalF(t, d, []float64{0}, nil, nil, zw, tm); math.Abs(got[0]) < 1e-3 {
						t.Errorf("sliding t=%g: wrong θ gives ẋ = %g", tm, got[0])
					}
					// Nonzero multipliers on the surface violate ψ = λᵖ − λⁿ
					// (Step) or g − λ + μe = 0 (Stewart).
					zl := handZ(t, d, 0, th)
					if f == dcs.Step {
						put(t, d, zl, dcs.LambdaP, 0, 0.3)
					} else {
						put(t, d, zl, dcs.Lambda, 0, 0.3, 0)
					}
					if r := residuals(t, d, []float64{0}, nil, nil, zl); r.Eq < 0.1 {
						t.Errorf("sliding t=%g: wrong multipliers accepted, residuals %+v", tm, r)
					}
				}
			})
		}
	}
}

// TestScalarInitialGuess: in each region Init equals the hand-made z (eq.
// 17 for Step, λ = g − min g for Stewart) and solves the DCS.
func TestScalarInitialGuess(t *testing.T) {
	for _, c := range scalarCases() {
		m, _ := c.model()
		for _, f := range formulations {
			d := reformulate(t, m, dcs.Options{Formulation: f})
			for _, x := range []float64{0.7, -0.4} {
				th := 0.0
				if x > 0 {
					th = 1
				}
				z0, err := d.InitialGuess([]float64{x}, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				if diff := maxDiff(z0, handZ(t, d, x, th)); diff > 1e-15 {
					t.Errorf("%s/%v x=%g: z0 = %v, want %v", c.name, f, x, z0, handZ(t, d, x, th))
				}
			}
		}
	}
}
