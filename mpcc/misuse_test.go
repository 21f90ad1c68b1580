package mpcc

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/fesd-go/fesd/nlp"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShortX: Residuals and Value with x (or x_L) shorter than an index of
// a pair do not panic; Value is NaN and both residuals are +Inf (the
// documented values), and neither allocates.
func TestShortX(t *testing.T) {
	p := &Problem{NLP: toyNLP(), Comp: []Complementarity{Pair(0, 1)}}
	cases := []struct {
		name  string
		x, xL []float64
	}{
		{"x nil", nil, []float64{0, 0}},
		{"x short", []float64{1}, []float64{0, 0}},
		{"xL short", []float64{1, 2}, []float64{0}},
	}
	for _, c := range cases {
		assert.NotPanics(t, func() {
			comp, nat := p.Residuals(c.x, c.xL)
			assert.True(t, math.IsInf(comp, 1), "%s: comp %g", c.name, comp)
			assert.True(t, math.IsInf(nat, 1), "%s: natural %g", c.name, nat)
		}, c.name)
		assert.NotPanics(t, func() {
			v := p.Comp[0].Value(c.x)
			if len(c.x) < 2 {
				assert.True(t, math.IsNaN(v), "%s: value %g", c.name, v)
			} else {
				assert.InDelta(t, 2, v, 0, c.name) // 1·2
			}
		}, c.name)
	}
	assert.NotPanics(t, func() {
		assert.True(t, math.IsNaN(Pair(-1, 0).Value([]float64{1})))
	})
	x, xL := []float64{1}, []float64{0, 0}
	allocs := testing.AllocsPerRun(10, func() {
		p.Residuals(x, xL)
		p.Comp[0].Value(x)
	})
	assert.Zero(t, allocs)
}

// TestCancelledBeforeStart: a context cancelled before Solve gives status
// Cancelled and, as Result.X documents, the starting point (length n),
// together with an error wrapping ctx.Err() (the rule of nlp and fesd).
func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := onePair()
	res, err := (&Solver{}).Solve(ctx, p)
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, err, ctx.Err())
	require.NotNil(t, res)
	assert.Equal(t, Cancelled, res.Status)
	assert.Empty(t, res.Steps)
	require.Len(t, res.X, 2)
	// toyNLP starts at (0.5, 0.5): f = 2·0.25, c = 0.25, natural residual
	// min(0.5, 0.5) (closed form).
	assert.Equal(t, []float64{0.5, 0.5}, res.X)
	assert.InDelta(t, 0.5, res.Objective, 1e-15)
	assert.InDelta(t, 0.25, res.CompResidual, 1e-15)
	assert.InDelta(t, 0.5, res.NaturalResidual, 1e-15)
	require.NotNil(t, res.Certificate)
}

// failingNLP is toyNLP whose Objective fails from its failAt-th call on.
type failingNLP struct {
	*denseNLP
	calls, failAt int
}

var errObjective = errors.New("objective unavailable")

func (p *failingNLP) Objective(x []float64) (float64, error) {
	p.calls++
	if p.calls >= p.failAt {
		return 0, errObjective
	}
	return p.denseNLP.Objective(x)
}

// TestCallbackErrorInRelaxedStep: a callback error inside a relaxed NLP
// stops the homotopy at that step with status NLPFailure; the error comes
// with the result and wraps nlp.ErrCallback and the callback's own error
// (the rule of nlp.Solver.Solve), whether the first step fails (failAt 1:
// at the start) or a later one.
func TestCallbackErrorInRelaxedStep(t *testing.T) {
	// Objective calls of a full solve, to fail in its middle.
	// The finish after the homotopy only: the failing step is then always
	// a relaxed NLP, not an early finish.
	set := Settings{FinishSigma: -1}
	count := &failingNLP{denseNLP: toyNLP(), failAt: math.MaxInt}
	full, err := (&Solver{Settings: set}).Solve(context.Background(), &Problem{NLP: count, Comp: []Complementarity{Pair(0, 1)}})
	require.NoError(t, err)
	require.Greater(t, len(full.Steps), 2)
	for _, failAt := range []int{1, count.calls / 2} {
		p := &Problem{NLP: &failingNLP{denseNLP: toyNLP(), failAt: failAt}, Comp: []Complementarity{Pair(0, 1)}}
		var res *Result
		assert.NotPanics(t, func() { res, err = (&Solver{Settings: set}).Solve(context.Background(), p) })
		require.ErrorIs(t, err, nlp.ErrCallback, "failAt %d", failAt)
		require.ErrorIs(t, err, errObjective, "failAt %d", failAt)
		assert.Contains(t, err.Error(), "homotopy step")
		require.NotNil(t, res)
		assert.Equal(t, NLPFailure, res.Status)
		require.NotEmpty(t, res.Steps)
		assert.Equal(t, nlp.UserStop, res.Steps[len(res.Steps)-1].Status)
		assert.Less(t, len(res.Steps), len(full.Steps), "the homotopy stops at the failing step")
		require.Len(t, res.X, 2)
		require.NotNil(t, res.Certificate)
		assert.Contains(t, res.Certificate.Reason, errObjective.Error())
		t.Logf("failAt %d: %d steps, %v", failAt, len(res.Steps), err)
	}
}
