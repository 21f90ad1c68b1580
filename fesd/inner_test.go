package fesd_test

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// countingInner delegates to package nlp and counts the solves.
type countingInner struct {
	mpcc.NLPSolver
	calls int
}

func (c *countingInner) SolveNLP(ctx context.Context, p nlp.Problem, start *mpcc.WarmStart) (*mpcc.InnerResult, error) {
	c.calls++
	return c.NLPSolver.SolveNLP(ctx, p, start)
}

// TestOCPInnerSolver: Options.Inner solves the homotopy's NLPs (one call
// per homotopy step) and gives the same solution as the default.
func TestOCPInnerSolver(t *testing.T) {
	solve := func(inner mpcc.InnerSolver) *fesd.OCPResult {
		m, x, _ := doubleIntegrator()
		p := &fesd.OCP{
			Model: m, X0: []float64{0, 0}, N: 10, T: 1,
			TimeOptimal: true, TMin: 0.1, TMax: 10,
			UL: []float64{-1}, UU: []float64{1},
			Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-1), x[1]}}},
		}
		r, err := fesd.SolveOCP(context.Background(), p, fesd.Options{Inner: inner}, fesd.Start{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	ref := solve(nil)
	c := &countingInner{NLPSolver: mpcc.NLPSolver{Settings: mpcc.DefaultNLPSettings()}}
	r := solve(c)
	if c.calls == 0 || c.calls != len(r.Homotopy) {
		t.Errorf("inner solver called %d times for %d homotopy steps", c.calls, len(r.Homotopy))
	}
	if r.Status != ref.Status || math.Abs(r.TFinal-ref.TFinal) > 1e-8 {
		t.Errorf("with Inner: %v T_f = %v; default: %v T_f = %v", r.Status, r.TFinal, ref.Status, ref.TFinal)
	}
}
