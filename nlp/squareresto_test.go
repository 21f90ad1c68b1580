package nlp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSquareInfeasibleResto: a square system whose solution lies outside
// the bounds, x₀ + x₁ = 1, x₀ − x₁ = 3 with x ≥ 0 (the solution (2, −1)
// has x₁ < 0; the closest points in the ℓ1 violation have x₁ = 0). Its
// restoration phase is the whole solve and runs with the main phase's μ
// strategy (adaptive here, as package mpcc's inner solves): measured 13
// iterations, 23 with the monotone rule of other restoration phases.
func TestSquareInfeasibleResto(t *testing.T) {
	p := &quadProb{
		n: 2, m: 2,
		xL: []float64{0, 0}, xU: []float64{inf, inf},
		gL: []float64{1, 3}, gU: []float64{1, 3},
		x0: []float64{0.5, 0.5},
		f:  func(x []float64) float64 { return 0 },
		df: func(x, g []float64) { g[0], g[1] = 0, 0 },
		c: func(x, c []float64) {
			c[0] = x[0] + x[1]
			c[1] = x[0] - x[1]
		},
		jr: []int{0, 0, 1, 1}, jc: []int{0, 1, 0, 1},
		jv: func(x, v []float64) { v[0], v[1], v[2], v[3] = 1, 1, 1, -1 },
		hv: func(x []float64, s float64, l, v []float64) {},
	}
	r, err := (&Solver{Settings: Settings{MuStrategy: MuAdaptive, Tol: 1e-12}}).Solve(context.Background(), p)
	require.NoError(t, err)
	assert.Equal(t, Infeasible, r.Status)
	assert.InDelta(t, 0, r.X[1], 1e-6, "x₁ at its bound")
	assert.LessOrEqual(t, r.Iterations, 16)
}
