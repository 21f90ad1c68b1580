package dcs_test

import (
	"errors"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// irma builds the IRMA gene network (004 §7.1; nosnoc_py's
// examples/Acary2014/irma.py, get_irma_model with SWITCH_ON = 1 and
// LIFTING = True) in the general form f(x, α) with
// the user lifting β = α₁(1 − α₄):
//
//	f = −γ⊙x + κ₁⊙[1, 1, 1, α₁, 1] + κ₂⊙[α₅, α₀, α₂, β, α₃].
func irma() (*dcs.Model, ad.Vec) {
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
	return m, alpha
}

// irmaRHS is the right-hand side of irma.py written out (as in
// internal/reference/irma.go) with α from the thresholds.
func irmaRHS(x []float64) []float64 {
	h := func(v float64) float64 {
		if v > 0 {
			return 1
		}
		return 0
	}
	a := []float64{h(x[0] - 0.01), h(x[1] - 0.01), h(x[1] - 0.06), h(x[1] - 0.08), h(x[2] - 0.035), h(x[3] - 0.04), h(x[4] - 0.01)}
	return []float64{
		-0.05*x[0] + 1.1e-4 + 9e-4*a[5],
		-0.04*x[1] + 3e-4 + 0.15*a[0],
		-0.05*x[2] + 6e-4 + 0.018*a[2],
		-0.02*x[3] + 5e-4*a[1] + 0.03*a[1]*(1-a[4]),
		-0.6*x[4] + 7.5e-4 + 0.015*a[3],
	}
}

func TestIRMA(t *testing.T) {
	m, _ := irma()
	d := reformulate(t, m, dcs.Options{Formulation: dcs.Step})
	// n_x = 5, nψ = 7 (α, λᵖ, λⁿ each 7), one user β; pairs 2nψ = 14;
	// equations: 7 switching + 1 user.
	want := dcs.Dims{NX: 5, NPsi: 7, NAlpha: 7, NLambda: 14, NUser: 1, NZ: 22, NComp: 14, NEq: 8}
	if d.Dims != want {
		t.Errorf("Dims = %+v, want %+v", d.Dims, want)
	}
	// X0 of irma.py (all above threshold) and a point with mixed signs
	// where β = α₁(1 − α₄) = 1.
	for _, x := range [][]float64{{0.011, 0.09, 0.04, 0.05, 0.015}, {0.005, 0.07, 0.02, 0.03, 0.02}, {0.02, 0.03, 0.05, 0.01, 0.005}} {
		z0, err := d.InitialGuess(x, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := residuals(t, d, x, nil, nil, z0); r.Max() > 1e-15 {
			t.Errorf("x=%v: residuals %+v", x, r)
		}
		if diff := maxDiff(evalF(t, d, x, nil, nil, z0, 0), irmaRHS(x)); diff > 1e-15 {
			t.Errorf("x=%v: ẋ = %v, want %v", x, evalF(t, d, x, nil, nil, z0, 0), irmaRHS(x))
		}
	}
	if _, err := m.Reformulate(dcs.Options{Formulation: dcs.Stewart}); !errors.Is(err, dcs.ErrStewartGeneral) {
		t.Errorf("Stewart on IRMA: err = %v, want ErrStewartGeneral", err)
	}
}

// TestIRMANewtonUserInit: the user lifting variable starts at
// Algebraic.Init and is solved by Newton's method in InitialGuess.
func TestIRMANewtonUserInit(t *testing.T) {
	m, _ := irma()
	m.Algebraic.Init = []float64{7}
	d := reformulate(t, m, dcs.Options{Formulation: dcs.Step})
	x := []float64{0.005, 0.07, 0.02, 0.03, 0.02}
	z0, err := d.InitialGuess(x, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b := get(t, d, z0, dcs.User, -1)[0]; b != 1 {
		t.Errorf("β₀ = %g, want α₁(1 − α₄) = 1", b)
	}
	// A user equation without a real root (β² + 1 = 0) is reported.
	g := m.Graph
	b2 := g.Sym("b2")
	m.AddAlgebraic(ad.Vec{b2}, ad.Vec{ad.Sq(b2).AddConst(1)})
	d = reformulate(t, m, dcs.Options{Formulation: dcs.Step})
	if _, err := d.InitialGuess(x, nil, nil); !errors.Is(err, dcs.ErrInitialGuess) {
		t.Errorf("err = %v, want ErrInitialGuess", err)
	}
}
