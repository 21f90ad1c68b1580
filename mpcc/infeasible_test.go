package mpcc

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// discMPCC is min x + y over the disc (x−1)² + (y−1)² ≤ 1/4 with
// 0 ≤ x ⊥ y ≥ 0. On the disc x, y ≥ 1/2, so x·y ≥ 1/4: the MPCC is
// infeasible, and so is its Scholtes relaxation x·y ≤ σ for every
// σ < 1/4 (closed form), while σ = 1 is feasible.
func discMPCC() *Problem {
	inf := math.Inf(1)
	return &Problem{
		NLP: &denseNLP{
			n: 2, m: 1,
			xL: []float64{0, 0}, xU: []float64{inf, inf},
			gL: []float64{-inf}, gU: []float64{0.25},
			x0: []float64{1, 1},
			f:  func(x []float64) float64 { return x[0] + x[1] },
			grad: func(x, g []float64) {
				g[0], g[1] = 1, 1
			},
			cons: func(x, g []float64) { g[0] = (x[0]-1)*(x[0]-1) + (x[1]-1)*(x[1]-1) },
			jac: func(x []float64, j [][]float64) {
				j[0][0], j[0][1] = 2*(x[0]-1), 2*(x[1]-1)
			},
			hess: func(x []float64, sigma float64, l []float64, h [][]float64) {
				h[0][0], h[1][1] = 2*l[0], 2*l[0]
			},
		},
		Comp: []Complementarity{Pair(0, 1)},
	}
}

// TestInfeasibleMPCC: the homotopy stops with Infeasible after the
// second infeasible relaxed NLP (σ = 0.1 and 0.01, both below 1/4), not
// after σ_N, and carries no certificate class.
func TestInfeasibleMPCC(t *testing.T) {
	res, err := (&Solver{}).Solve(context.Background(), discMPCC())
	require.NoError(t, err)
	assert.Equal(t, Infeasible, res.Status)
	require.Len(t, res.Steps, 3, "σ = 1 feasible, σ = 0.1 and 0.01 infeasible")
	assert.InDelta(t, 0.01, res.Sigma, 1e-15)
	assert.Equal(t, NotCertified, res.Stationarity)
	assert.False(t, Infeasible.Success())
}

// TestInfeasibleNeedsOuterRelaxation: with the equality relaxation
// x·y = σ (not an outer relaxation) infeasible steps do not prove the
// MPCC infeasible, and the homotopy ends otherwise.
func TestInfeasibleNeedsOuterRelaxation(t *testing.T) {
	assert.True(t, ScholtesIneq.Outer())
	assert.False(t, ScholtesEq.Outer())
	assert.False(t, Kadrani.Outer())
	res, err := (&Solver{Settings: Settings{Relaxation: ScholtesEq}}).Solve(context.Background(), discMPCC())
	require.NoError(t, err)
	assert.NotEqual(t, Infeasible, res.Status)
	res, err = (&Solver{Settings: Settings{Steering: L1}}).Solve(context.Background(), discMPCC())
	require.NoError(t, err)
	assert.NotEqual(t, Infeasible, res.Status, "elastic steering: every relaxed NLP is feasible")
}
