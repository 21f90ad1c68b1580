package mpcc

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/nlp"
)

// rosenbrock is min 100(x₂ − x₁²)² + (1 − x₁)² from (−1.2, 1): minimum at
// (1, 1), about 20–40 interior-point iterations.
func rosenbrock() *denseNLP {
	return &denseNLP{
		n: 2, m: 0,
		xL: []float64{-10, -10}, xU: []float64{10, 10},
		x0: []float64{-1.2, 1},
		f: func(x []float64) float64 {
			a, b := x[1]-x[0]*x[0], 1-x[0]
			return 100*a*a + b*b
		},
		grad: func(x, g []float64) {
			a := x[1] - x[0]*x[0]
			g[0] = -400*a*x[0] - 2*(1-x[0])
			g[1] = 200 * a
		},
		cons: func(x, g []float64) {},
		jac:  func(x []float64, j [][]float64) {},
		hess: func(x []float64, s float64, _ []float64, h [][]float64) {
			h[0][0] = s * (1200*x[0]*x[0] - 400*x[1] + 2)
			h[1][0] = s * (-400 * x[0])
			h[0][1] = h[1][0]
			h[1][1] = s * 200
		},
	}
}

// TestNLPSolverRetry: a solve that ends at the iteration limit is solved
// again with the other inertia policy and max(50, MaxIter/5) iterations;
// the iterations of both attempts are counted, and the next solves start
// with the policy that succeeded.
func TestNLPSolverRetry(t *testing.T) {
	set := DefaultNLPSettings()
	set.MaxIter = 3
	s := &NLPSolver{Settings: set}
	r, err := s.SolveNLP(context.Background(), rosenbrock(), nil)
	require.NoError(t, err)
	require.Equal(t, nlp.Solved, r.Status)
	assert.Greater(t, r.Iterations, 3, "both attempts counted")
	assert.LessOrEqual(t, r.Iterations, 3+50)
	assert.InDelta(t, 1, r.X[0], 1e-6)
	assert.InDelta(t, 1, r.X[1], 1e-6)
	assert.True(t, s.switched)
	assert.Equal(t, nlp.InertiaStrict, s.policy)

	// A status that is a verdict or a stop from outside is not retried.
	for _, st := range []nlp.Status{nlp.Solved, nlp.Infeasible, nlp.NumericalError, nlp.Cancelled, nlp.TimeLimit, nlp.UserStop, nlp.DerivativeMismatch} {
		assert.False(t, retryable(st), st)
	}
	assert.Equal(t, 100, retryMaxIter(500))
	assert.Equal(t, 600, retryMaxIter(0))
	assert.Equal(t, 50, retryMaxIter(100))
	_, ok := otherPolicy(nlp.InertiaTracking)
	assert.False(t, ok, "only Default and Strict alternate")
}
