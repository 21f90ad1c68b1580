package mpcc

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/nlp"
)

// cancelNLP is toyNLP that cancels its context on the k-th Objective call.
type cancelNLP struct {
	*denseNLP
	k      int
	calls  int
	cancel context.CancelFunc
}

func (p *cancelNLP) Objective(x []float64) (float64, error) {
	p.calls++
	if p.calls == p.k {
		p.cancel()
	}
	return p.denseNLP.Objective(x)
}

// TestCancelRule: a homotopy stopped by its context returns its partial
// result with Status Cancelled and an error wrapping ctx.Err(), and so does
// NLPSolver.SolveNLP for the NLP it was solving (issue 44 item 7; the rule
// of nlp.Solver.Solve and package fesd).
func TestCancelRule(t *testing.T) {
	p0 := &cancelNLP{denseNLP: toyNLP(), k: -1}
	full, err := (&Solver{}).Solve(context.Background(), &Problem{NLP: p0, Comp: []Complementarity{Pair(0, 1)}})
	require.NoError(t, err)
	require.Equal(t, Solved, full.Status)
	require.Greater(t, len(full.Steps), 2)

	t.Run("during a relaxed NLP", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		// Half the Objective calls of the full homotopy: inside a relaxed
		// NLP after the first.
		p := &cancelNLP{denseNLP: toyNLP(), k: p0.calls / 2, cancel: cancel}
		res, err := (&Solver{}).Solve(ctx, &Problem{NLP: p, Comp: []Complementarity{Pair(0, 1)}})
		require.ErrorIs(t, err, context.Canceled)
		require.ErrorIs(t, err, ctx.Err())
		assert.Contains(t, err.Error(), "mpcc: homotopy cancelled after")
		require.NotNil(t, res, "the partial result comes with the error")
		assert.Equal(t, Cancelled, res.Status)
		require.NotEmpty(t, res.Steps)
		assert.Less(t, len(res.Steps), len(full.Steps))
		assert.Equal(t, nlp.Cancelled, res.Steps[len(res.Steps)-1].Status, "the step that was stopped")
		assert.Len(t, res.X, 2, "the last point")
		require.NotNil(t, res.Point)
		require.NotNil(t, res.Certificate)
		assert.Contains(t, res.Certificate.Reason, "Cancelled")
	})

	t.Run("NLPSolver.SolveNLP", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		q, err := NewRelaxed(onePair(), ScholtesIneq, Direct, 1)
		require.NoError(t, err)
		r, err := (&NLPSolver{Settings: DefaultNLPSettings()}).SolveNLP(ctx, q.Problem(), nil)
		require.ErrorIs(t, err, context.Canceled)
		require.NotNil(t, r, "the partial result comes with the error")
		assert.Equal(t, nlp.Cancelled, r.Status)
		assert.Zero(t, r.Iterations)
		n, _ := q.Dims()
		assert.Len(t, r.X, n)
		assert.NoError(t, r.Err, "Err is for Problem errors")
	})
}
