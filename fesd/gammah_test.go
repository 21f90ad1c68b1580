package fesd_test

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
)

// TestGammaHTwoSwitches: two switches close together in one control
// interval need GammaH > 1. ẋ = 1 from x₀ = 0 crosses ψ₁ = x − 0.05 at
// t = 0.05 and ψ₂ = x − 0.1 at t = 0.1, and ẏ is 0, 1, 3 before, between
// and after them, so y(1) = 0.05 + 3·0.9 = 2.75 (closed form). One
// simulation step of length 1 with N_FE = 3 (h₀ = 1/3): exact switch
// detection needs boundaries at 0.05 and 0.1, so the last element has
// h = 0.9, above nosnoc's bound 2h₀ = 0.667 (γ_h = 1). With γ_h = 2
// (h ≤ h₀·3, the whole interval) FESD places both switches and Radau IIA
// integrates the piecewise linear y exactly: |y(1) − 2.75| ≤ 1e-6 and the
// switches within 1e-6 of 0.05 and 0.1. With γ_h = 1 the whole step
// cannot (measured: NLPFailure, residual 1.7e-3), so Simulate splits it
// (StepRecord.Depth): [0, 0.5] fails too (h ≤ 1/3 < 0.4), its first half
// [0, 0.25] fits both switches (h ≤ 1/6, the last element 0.15) and the
// result is as exact. The test fails if the bound stops binding (no
// split) or the split loses accuracy.
func TestGammaHTwoSwitches(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 2) // x, y
	m := dcs.NewModel(g, x, nil, nil)
	one := g.Const(1)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0].AddConst(-0.05), x[0].AddConst(-0.1)},
		S:   [][]int{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}},
		F:   []ad.Vec{{one, g.Const(0)}, {one, one}, {one, g.Const(3)}, {one, g.Const(10)}},
	})
	for _, gamma := range []float64{1, 2} {
		res, err := fesd.Simulate(context.Background(), m, []float64{0, 0}, fesd.SimOptions{
			TSim: 1, NSim: 1,
			Options: fesd.Options{NFE: 3, GammaH: gamma, MPCC: mpcc.Settings{CompTol: 1e-9}},
		})
		if err != nil {
			t.Fatalf("γ_h = %g: %v", gamma, err)
		}
		st := res.Steps[0]
		yErr := math.Abs(res.Final()[1] - 2.75)
		t.Logf("γ_h = %g: %v, residual %.1e, h = %.4f, y(1) error %.1e, %d records", gamma, st.Status, st.CompResidual, res.H, yErr, len(res.Steps))
		if wantDepth := map[float64]int{1: 2, 2: 0}[gamma]; st.Depth != wantDepth {
			t.Errorf("γ_h = %g: the first record has depth %d, want %d", gamma, st.Depth, wantDepth)
		}
		if st.Status != mpcc.Solved || yErr > 1e-6 {
			t.Errorf("γ_h = %g: %v, y(1) error %.1e", gamma, st.Status, yErr)
		}
		want := []float64{0.05, 0.1}
		if len(res.Switches) != len(want) {
			t.Fatalf("γ_h = %g: %d switches, want 2", gamma, len(res.Switches))
		}
		for i, s := range res.Switches {
			if math.Abs(s.Time-want[i]) > 1e-6 {
				t.Errorf("γ_h = %g: switch %d at %.8f, want %g", gamma, i, s.Time, want[i])
			}
		}
	}
}
