package fesd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/rk"
)

// TestNLPBackends cross-checks the compiled transcription: adnlp (the
// backend) and the in-package exprProblem (built independently with
// ad.NewDerivatives) give the same objective, constraints, gradient and
// Jacobian at random points.
func TestNLPBackends(t *testing.T) {
	c := tutorialCases()[3] // time-dependent
	for _, o := range []Options{
		{NFE: 3, StepEquilibration: L2RelaxedScaled, DCS: dcs.Options{Formulation: dcs.Step}},
		{NFE: 3, Scheme: rk.FamilyGaussLegendre, Representation: Differential, StepEquilibration: Direct},
	} {
		s, err := NewSimulator(c.model(), o, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		tr := s.tr
		ref, err := newExprProblem(exprSpec{X: tr.w, XL: tr.wl, XU: tr.wu, X0: make([]float64, len(tr.w)),
			F: tr.obj, G: tr.c, GL: tr.cl, GU: tr.cu, P: tr.params, PV: make([]float64, len(tr.params))})
		if err != nil {
			t.Fatal(err)
		}
		pv := tr.paramValues([]float64{0.1}, nil, nil, 0.3, 0.5)
		if err := tr.prob.SetParams(pv); err != nil {
			t.Fatal(err)
		}
		_ = ref.SetParams(pv)
		n, m := tr.prob.Dims()
		r := rand.New(rand.NewPCG(5, 6))
		x := make([]float64, n)
		for i := range x {
			x[i] = 0.1 + r.Float64()
		}
		f1, _ := tr.prob.Objective(x)
		f2, _ := ref.Objective(x)
		if math.Abs(f1-f2) > 1e-12*math.Max(1, math.Abs(f1)) {
			t.Errorf("objective %v vs %v", f1, f2)
		}
		g1, g2 := make([]float64, m), make([]float64, m)
		_ = tr.prob.Constraints(x, g1)
		_ = ref.Constraints(x, g2)
		for i := range g1 {
			if math.Abs(g1[i]-g2[i]) > 1e-12*math.Max(1, math.Abs(g1[i])) {
				t.Fatalf("g[%d] %v vs %v", i, g1[i], g2[i])
			}
		}
		gr1, gr2 := make([]float64, n), make([]float64, n)
		_ = tr.prob.Gradient(x, gr1)
		_ = ref.Gradient(x, gr2)
		for i := range gr1 {
			if math.Abs(gr1[i]-gr2[i]) > 1e-10*math.Max(1, math.Abs(gr1[i])) {
				t.Fatalf("∇f[%d] %v vs %v", i, gr1[i], gr2[i])
			}
		}
		jac := func(p paramNLP) map[[2]int]float64 {
			rows, cols := p.JacobianStructure()
			v := make([]float64, len(rows))
			_ = p.JacobianValues(x, v)
			out := map[[2]int]float64{}
			for k := range rows {
				if v[k] != 0 {
					out[[2]int{rows[k], cols[k]}] = v[k]
				}
			}
			return out
		}
		j1, j2 := jac(tr.prob), jac(ref)
		if len(j1) != len(j2) {
			t.Errorf("Jacobian nonzeros %d vs %d", len(j1), len(j2))
		}
		for k, v := range j1 {
			if math.Abs(v-j2[k]) > 1e-10*math.Max(1, math.Abs(v)) {
				t.Fatalf("J%v %v vs %v", k, v, j2[k])
			}
		}
	}
}
