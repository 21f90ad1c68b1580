package dcs_test

import (
	"errors"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/internal/reference"
)

// irmaRHS is the right-hand side of irma.py evaluated without the graph
// (reference.IRMARHS) with α_j = 1 above threshold j and 0 below.
func irmaRHS(x []float64) []float64 {
	a := make([]float64, len(reference.IRMAThresholds))
	for j, th := range reference.IRMAThresholds {
		if x[th.State] > th.Value {
			a[j] = 1
		}
	}
	return reference.IRMARHS(x, a)
}

// TestIRMA reformulates the IRMA gene network (reference.IRMAModel(true):
// 004 §7.1 as nosnoc_py's examples/Acary2014/irma.py writes it, with
// SWITCH_ON = 1 and LIFTING = True, the user lifting β = α₁(1 − α₄)) in
// the Step DCS: its dimensions, zero residuals and ẋ = irmaRHS at the
// initial guess, and Stewart's formulation refused.
func TestIRMA(t *testing.T) {
	m, _ := reference.IRMAModel(true)
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
	m, _ := reference.IRMAModel(true)
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
