package fesd_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/monopod"
	"github.com/fesd-go/fesd/mpcc"
)

// TestGuideHeldThenReleased: a small monopod task (4 stages, 0.4 s, the
// target 0.2 m ahead) with the guide q_x ≤ 0.02 at every stage point for
// σ ≥ 1e-2. The guided steps must hold it: their relaxed optima cost more
// than the unguided homotopy's at the same σ (the guide cuts off the
// target, whose terminal weight is 1e3 per metre²), and the steps after
// them must drop it: the result's q_x(T) is beyond the guide by more than
// 5 mm (the last stage point is the end of the horizon, so a guided point
// has q_x(T) ≤ 0.02). The σ records are the whole schedule 1, 0.1, …, 1e-4
// in order. (Measured: 33.7 against 4.5 at σ = 1e-2; q_x(T) = 0.032
// guided, 0.128 unguided: the steps from σ = 1e-3 follow the path from the
// guided point to a nearby local solution.) About 20 s of CPU.
func TestGuideHeldThenReleased(t *testing.T) {
	if testing.Short() {
		t.Skip("two small monopod homotopies, about 20 s of CPU")
	}
	m, err := monopod.New(dcs.Step, 0)
	require.NoError(t, err)
	task := monopod.Task{N: 4, T: 0.4, Distance: 0.2}
	solve := func(guide *fesd.Guide) *fesd.OCPResult {
		p, opts, err := m.OCP(task, monopod.Discretization{})
		require.NoError(t, err)
		inner := monopod.NLPSettings(1e-6, 3000)
		opts.MPCC = mpcc.Settings{Sigma0: 1, Kappa: 0.1, CompTol: 1e-5, MaxSteps: 5, ColdDuals: true, InexactFactor: -1,
			NLP: &inner, Finish: mpcc.NoCertificate}
		opts.Guide = guide
		s, err := fesd.NewOCPSolver(p, opts)
		require.NoError(t, err)
		r, err := s.Solve(context.Background(), fesd.Start{XInit: [][]float64{task.X0()}})
		require.NoError(t, err)
		return r
	}
	inf := math.Inf(1)
	guide := &fesd.Guide{Sigma: 1e-2, Path: []fesd.Constraint{{G: ad.Vec{m.Q[0]}, L: []float64{-inf}, U: []float64{0.02}, At: fesd.AtStagePoints}}}
	free, guided := solve(nil), solve(guide)
	require.GreaterOrEqual(t, len(guided.Homotopy), 4)
	for k, want := range []float64{1, 0.1, 0.01, 1e-3} {
		assert.InDelta(t, want, guided.Homotopy[k].Sigma, 1e-12*want, "step %d", k)
	}
	for k := 0; k < 3; k++ {
		t.Logf("σ = %g: objective %.4g guided, %.4g free", guided.Homotopy[k].Sigma, guided.Homotopy[k].Objective, free.Homotopy[k].Objective)
		assert.Greater(t, guided.Homotopy[k].Objective, free.Homotopy[k].Objective+1e-3, "guided step %d", k)
	}
	xg, xf := guided.Final()[0], free.Final()[0]
	t.Logf("q_x(T): guided %.4f, free %.4f; %v / %v", xg, xf, guided.Status, free.Status)
	assert.Greater(t, xg, 0.025, "the guide q_x ≤ 0.02 released after σ = 1e-2")
}
