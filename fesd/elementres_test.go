package fesd_test

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
)

// TestOCPElementResidual: OCPResult.ElementResidual against an independent
// evaluation from the stage values. The turbo car with Stewart's DCS and
// FE_STAGE cross complementarity is stopped after its first relaxed step (σ =
// 1, status MaxSteps), so the products are not zero. For FE_STAGE every term is
// λ_{p,i}·Σ_m θ_{n,m,i} for region i and a λ point p of element n (the end
// of element n−1 and the stage points of n; Radau IIA's last stage is the
// element end), so ElementResidual[n] must be the largest of these (to
// 1e-12; element 0's start point is not a stage value, so there it is
// only bounded below). With no path complementarities or equilibration
// terms, max_n ElementResidual must be CompResidual (the iterate is
// interior, no lower bound is violated).
func TestOCPElementResidual(t *testing.T) {
	p, opts := turboOCP(6)
	opts.DCS = dcs.Options{Formulation: dcs.Stewart}
	opts.CrossComp = fesd.FEStage
	opts.MPCC = mpcc.Settings{Sigma0: 1, MaxSteps: 1, Finish: mpcc.CertifyOnly} // the relaxed point itself
	r, err := fesd.SolveOCP(context.Background(), p, opts, fesd.Start{UInit: [][]float64{{5}, {5}, {5}, {-5}, {-5}, {-5}}})
	if err != nil {
		t.Fatal(err)
	}
	th, lam := r.Theta(0), r.Lambda(0)
	ne, ns := len(r.H), len(th)/len(r.H)
	if len(r.ElementResidual) != ne {
		t.Fatalf("%d element residuals, %d elements", len(r.ElementResidual), ne)
	}
	var top float64
	for n := 0; n < ne; n++ {
		var want float64
		for i := range th[0] {
			var sum float64
			for m := 0; m < ns; m++ {
				sum += th[n*ns+m][i]
			}
			for q := n*ns - 1; q < (n+1)*ns; q++ {
				if q >= 0 {
					want = math.Max(want, lam[q][i]*sum)
				}
			}
		}
		got := r.ElementResidual[n]
		if n > 0 && math.Abs(got-want) > 1e-12 || got < want-1e-12 {
			t.Errorf("element %d: residual %.6e, from the stage values %.6e", n, got, want)
		}
		top = math.Max(top, got)
	}
	t.Logf("status %v, σ = 1: CompResidual %.3e, elements %.2e", r.Status, r.CompResidual, r.ElementResidual)
	if top == 0 || math.Abs(top-r.CompResidual) > 1e-12 {
		t.Errorf("max element residual %.6e, CompResidual %.6e", top, r.CompResidual)
	}
}
