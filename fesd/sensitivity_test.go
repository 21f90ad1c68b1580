package fesd

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// crossing is ẋ = a for x < 0 and ẋ = b for x > 0 (a, b > 0).
func crossing(a, b float64) *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[0]}, S: [][]int{{1}, {-1}}, F: []ad.Vec{{g.Const(b)}, {g.Const(a)}}})
	return m
}

// TestSensitivityClosedForm: through a switch, FESD's sensitivity is the
// exact one. ẋ = 1 for x < 0, 3 for x > 0 from x₀ ∈ (−1, 0): the switch is
// at t_s = −x₀ and x(T) = 3(T + x₀), so ∂x(T)/∂x₀ = 3 (the case;
// ẋ = 3 then 1 gives 1/3). ẋ = 3 for x < 0 and −1 for x > 0 slides on x = 0
// after the switch, so ∂x(T)/∂x₀ = 0. Each for one and three steps (the
// chain rule over steps), both DCS formulations, with the homotopy and
// with the predicted branch (Stewart's homotopy fails on these steps, see
// the loop): to 1e-9. Time stepping (FESD off) on the same
// grid gives 1 for the first case (a fixed grid cannot move the switch).
func TestSensitivityClosedForm(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		m    *dcs.Model
		x0   float64
		want float64
	}{
		{"1 then 3", crossing(1, 3), -0.45, 3},
		{"3 then 1", crossing(3, 1), -1.1, 1.0 / 3},
		{"sliding", crossing(3, -1), -1.1, 0},
	}
	for _, c := range cases {
		for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
			for _, nsim := range []int{1, 3} {
				for _, pred := range []bool{false, true} {
					if f == dcs.Stewart && !pred {
						// the homotopy fails on Stewart's one-step
						// crossing here (NLPFailure at σ ≈ 1e-3; the
						// predicted branch solves it)
						continue
					}
					r, err := Simulate(ctx, c.m, []float64{c.x0}, SimOptions{
						TSim: 1, NSim: nsim, Sensitivity: true, Predict: pred,
						Options: Options{NFE: 3, DCS: dcs.Options{Formulation: f}},
					})
					if err != nil {
						t.Fatalf("%s %v N=%d predict=%v: %v", c.name, f, nsim, pred, err)
					}
					got := r.Sensitivity.DX0[0][0]
					if math.Abs(got-c.want) > 1e-9 {
						t.Errorf("%s %v N=%d predict=%v: ∂x(T)/∂x₀ = %.12g, want %g", c.name, f, nsim, pred, got, c.want)
					}
				}
			}
		}
	}
	r, err := Simulate(ctx, crossing(1, 3), []float64{-0.45}, SimOptions{
		TSim: 1, NSim: 1, Sensitivity: true, Options: Options{NFE: 3, DisableFESD: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Sensitivity.DX0[0][0]; math.Abs(got-3) < 0.5 {
		t.Errorf("time stepping: ∂x(T)/∂x₀ = %g, expected far from the exact 3", got)
	} else {
		t.Logf("time stepping: ∂x(T)/∂x₀ = %g (exact 3)", got)
	}
}
