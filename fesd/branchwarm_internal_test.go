package fesd

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/internal/reference"
)

// TestBranchWarmStart: a branch solve whose predicted modes are those of
// the previous step's starts from that step's multipliers. On Stewart's
// three masses (Step DCS, N_FE = 4, h = 0.05, the first 2 s: 40 steps,
// four switches) the warm-started run reaches the same states as the run
// with every branch solve cold (to 1e-8, the complementarity tolerance
// 1e-9 leaves more than that between two solutions of one step) with
// fewer NLP iterations (measured over the whole [0, 10], with IPOPT's
// warm-start push of 1e-3 then in mpcc.DefaultNLPSettings: 939 against
// 1 405; over this test's 40 steps now 135 against 359).
func TestBranchWarmStart(t *testing.T) {
	o := Options{NFE: 4, Stages: 2, DCS: dcs.Options{Formulation: dcs.Step}}
	const h, n = 0.05, 40
	run := func(cold bool) ([]float64, int) {
		sim, err := NewSimulator(reference.FrictionModel(reference.FrictionSplit), o, h)
		if err != nil {
			t.Fatal(err)
		}
		sim.NoPredict = false
		x := []float64{-1, 1, -1, -1, 1, 1}
		iters := 0
		for k := range n {
			if cold {
				sim.lastBranch = nil
			}
			sr, err := sim.Step(context.Background(), h*float64(k), x, nil, nil)
			if err != nil {
				t.Fatalf("cold %v, step %d: %v", cold, k, err)
			}
			iters += sr.Record.Iterations
			x = sr.Final()
		}
		return x, iters
	}
	xw, iw := run(false)
	xc, ic := run(true)
	for i := range xw {
		if math.Abs(xw[i]-xc[i]) > 1e-8 {
			t.Errorf("x_%d(2) = %.12g warm, %.12g cold", i, xw[i], xc[i])
		}
	}
	t.Logf("NLP iterations: %d warm, %d cold", iw, ic)
	if float64(iw) > 0.85*float64(ic) {
		t.Errorf("warm-started branch solves took %d iterations, cold %d", iw, ic)
	}
}
