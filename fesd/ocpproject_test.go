package fesd_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/monopod"
	"github.com/fesd-go/fesd/mpcc"
)

// TestSolveProjectedSmallMonopod: a small monopod task (4 stages, 0.4 s,
// 0.1 m) relaxed one σ at a time and projected onto the branch of its
// modes after every step from σ = 1e-2 on. The branch NLP fixes one side
// of every complementarity pair, so every projection's point has residual
// 0 (≤ 1e-12, where the relaxed points have σ) whatever its status, the
// records alternate relaxed step and projection (σ recorded as 0) from
// σ = 1e-2 on, and a result that is no solved projection is the last
// relaxed step's. Measured here: the projections at σ = 1e-2 and 1e-3 end
// locally infeasible, the one at 1e-4 in a numerical error at objective
// 15.6 (the relaxed point: 1.74, not valid: 2.7 mm of drift), so the
// result is the σ = 1e-4 step's, SigmaLimit.
func TestSolveProjectedSmallMonopod(t *testing.T) {
	if testing.Short() {
		t.Skip("a small monopod homotopy and three branch NLPs, about 10 s of CPU")
	}
	m, err := monopod.New(dcs.Step, 0)
	require.NoError(t, err)
	task := monopod.Task{N: 4, T: 0.4, Distance: 0.1}
	p, opts, err := m.OCP(task, monopod.Discretization{})
	require.NoError(t, err)
	inner := monopod.NLPSettings(1e-8, 3000)
	opts.MPCC = mpcc.Settings{Sigma0: 1, Kappa: 0.1, CompTol: 1e-5, MaxSteps: 5, ColdDuals: true, InexactFactor: -1, NLP: &inner}
	s, err := fesd.NewOCPSolver(p, opts)
	require.NoError(t, err)
	r, err := s.SolveProjected(context.Background(), fesd.Start{XInit: [][]float64{task.X0()}}, 1e-2)
	require.NoError(t, err)
	var projections int
	for k, h := range r.Homotopy {
		t.Logf("σ = %.0e: %v, %d it, residual %.1e, objective %.5g", h.Sigma, h.Status, h.Iterations, h.CompResidual, h.Objective)
		if h.Sigma == 0 {
			projections++
			assert.LessOrEqual(t, h.CompResidual, 1e-12, "projection %d", k)
			require.Positive(t, k)
			assert.LessOrEqual(t, r.Homotopy[k-1].Sigma, 1e-2*(1+1e-9), "a projection after σ = %g", r.Homotopy[k-1].Sigma)
		}
	}
	t.Logf("%v, residual %.1e, objective %.5g, %v", r.Status, r.CompResidual, r.Objective, r.Validity)
	assert.Positive(t, projections)
	if r.Status != mpcc.Solved {
		last := r.Homotopy[len(r.Homotopy)-2] // the relaxed step before the last projection
		assert.InDelta(t, last.CompResidual, r.CompResidual, 1e-12*max(1, last.CompResidual), "the last relaxed step's point")
	} else {
		assert.LessOrEqual(t, r.CompResidual, 1e-12)
	}
}
