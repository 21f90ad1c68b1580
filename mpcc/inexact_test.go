package mpcc

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/nlp"
)

// TestInexactSteps: with the default InexactFactor c = 1e-2 the relaxed
// NLP of σ_k gets the tolerance c·σ_k, and the step that meets CompTol is
// solved once more at the same σ with the solver's own tolerance (Tol 0)
// before the homotopy ends Solved.
func TestInexactSteps(t *testing.T) {
	f := &fakeSolver{point: func(s float64) []float64 { return []float64{1, 0.99 * s} }}
	s := Solver{Settings: Settings{Finish: CertifyOnly}, Inner: f}
	res, err := s.Solve(context.Background(), onePair())
	require.NoError(t, err)
	require.Equal(t, Solved, res.Status)
	n := len(res.Steps)
	require.Equal(t, 11, n, "10 inexact steps down to σ = 1e-9, then the exact re-solve")
	for k, st := range res.Steps[:n-1] {
		assert.InDelta(t, 1e-2*st.Sigma, st.Tol, 1e-18, "step %d", k)
	}
	assert.Equal(t, 0.0, res.Steps[n-1].Tol)
	assert.Equal(t, res.Steps[n-2].Sigma, res.Steps[n-1].Sigma)
	// and off
	s.Settings.InexactFactor = -1
	res, err = s.Solve(context.Background(), onePair())
	require.NoError(t, err)
	assert.Len(t, res.Steps, 10)
	for _, st := range res.Steps {
		assert.Equal(t, 0.0, st.Tol)
	}
}

// TestInexactResolveFails: when the exact re-solve fails (its tolerance
// out of reach), the inexact step that met CompTol is the result, Solved.
func TestInexactResolveFails(t *testing.T) {
	f := &fakeSolver{point: func(s float64) []float64 { return []float64{1, 0.99 * s} },
		status: func(call int) nlp.Status {
			if call == 10 {
				return nlp.NumericalError
			}
			return nlp.Solved
		}}
	s := Solver{Settings: Settings{Finish: CertifyOnly}, Inner: f}
	res, err := s.Solve(context.Background(), onePair())
	require.NoError(t, err)
	assert.Equal(t, Solved, res.Status)
	require.Len(t, res.Steps, 11)
	assert.Equal(t, nlp.NumericalError, res.Steps[10].Status)
	assert.InDelta(t, 0.99e-9, res.CompResidual, 1e-15)
}
