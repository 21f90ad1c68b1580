package ad

import (
	"testing"
)

// IRMA gene-regulatory network as nosnoc_py writes it
// (github.com/nosnoc/nosnoc_py, examples/Acary2014/irma.py, get_irma_model
// with SWITCH_ON = 1, not lifted); the dynamics are written out in package
// internal/reference (irma.go).
// Not reference.IRMAModel: reference imports ad (a cycle), and this test stays pure ad (no dcs).
var (
	irmaThresholds = [][]float64{{0.01}, {0.01, 0.06, 0.08}, {0.035}, {0.04}, {0.01}}
	irmaKappa      = [5][2]float64{{1.1e-4, 9e-4}, {3e-4, 0.15}, {6e-4, 0.018}, {5e-4, 0.03}, {7.5e-4, 0.015}}
	irmaGamma      = [5]float64{0.05, 0.04, 0.05, 0.02, 0.6}
)

// buildIRMA returns the IRMA model with its step-DCS conditions as one
// stage function: inputs x ∈ R⁵, α, λp, λn ∈ R⁷; outputs f_x, the
// switching equations c − λp + λn and the complementarity products
// (λn ⊙ α, λp ⊙ (1 − α)), compiled with Jacobian and Lagrangian Hessian.
func buildIRMA() (*Derivatives, error) {
	g := NewGraph()
	x := g.SymVec("x", 5)
	alpha := g.SymVec("alpha", 7)
	lp := g.SymVec("lambda_p", 7)
	ln := g.SymVec("lambda_n", 7)
	var c Vec
	for i, ths := range irmaThresholds {
		for _, th := range ths {
			c = append(c, x[i].AddConst(-th))
		}
	}
	one := g.Const(1)
	// s (5×2): column 1 = [1, 1, 1, α1, 1];
	// column 2 = [α5, α0, α2, α1(1−α4), α3] (switch_on = 1).
	s := [5][2]Expr{
		{one, alpha[5]},
		{one, alpha[0]},
		{one, alpha[2]},
		{alpha[1], alpha[1].Mul(one.Sub(alpha[4]))},
		{one, alpha[3]},
	}
	fx := make(Vec, 5)
	for i := range fx {
		fx[i] = x[i].Scale(-irmaGamma[i]).Add(s[i][0].Scale(irmaKappa[i][0])).Add(s[i][1].Scale(irmaKappa[i][1]))
	}
	gsw, err := c.Sub(lp)
	if err != nil {
		return nil, err
	}
	gsw, err = gsw.Add(ln)
	if err != nil {
		return nil, err
	}
	comp1, _ := ln.MulElem(alpha)
	comp2, _ := lp.MulElem(alpha.Map(func(a Expr) Expr { return one.Sub(a) }))
	return NewDerivatives("irma",
		[]Arg{A_("x", x), A_("alpha", alpha), A_("lambda_p", lp), A_("lambda_n", ln)},
		[]Arg{A_("f_x", fx), A_("g_switch", gsw), A_("comp", Concat(comp1, comp2))})
}

// TestIRMA checks f_x against the dynamics written out from irma.py
// (ẋ0 = −0.05x0 + 1.1e-4 + 9e-4·α5, …) at a point, and the Jacobian
// pattern size by hand: f_x has 5 (x) + 1+1+1+2+1 (α) = 11 nonzeros
// (ẋ3 depends on α1 and α4), g_switch 7·3 = 21, comp 14·2 = 28.
func TestIRMA(t *testing.T) {
	d, err := buildIRMA()
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.011, 0.09, 0.04, 0.05, 0.015} // X0 of irma.py
	a := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}
	z := make([]float64, 7)
	fx, gs, cp := make([]float64, 5), make([]float64, 7), make([]float64, 14)
	if err := d.F.Eval(NewWorkspace(), [][]float64{x, a, z, z}, [][]float64{fx, gs, cp}); err != nil {
		t.Fatal(err)
	}
	want := []float64{
		-0.05*x[0] + 1.1e-4 + 9e-4*a[5],
		-0.04*x[1] + 3e-4 + 0.15*a[0],
		-0.05*x[2] + 6e-4 + 0.018*a[2],
		-0.02*x[3] + 5e-4*a[1] + 0.03*a[1]*(1-a[4]),
		-0.6*x[4] + 7.5e-4 + 0.015*a[3],
	}
	for i := range want {
		if !closeTo(fx[i], want[i], 1e-15) {
			t.Errorf("ẋ%d = %v, want %v", i, fx[i], want[i])
		}
	}
	if n := d.JacPattern.NNZ(); n != 11+21+28 {
		t.Errorf("Jacobian nnz = %d, want 60", n)
	}
}

// BenchmarkBuildIRMA: graph construction, derivation and compilation of the
// IRMA stage function, its Jacobian and Lagrangian Hessian.
func BenchmarkBuildIRMA(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := buildIRMA(); err != nil {
			b.Fatal(err)
		}
	}
}
