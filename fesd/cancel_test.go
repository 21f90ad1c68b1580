package fesd_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// cancelAfter is an inner solver that cancels the context after its n-th
// NLP solve (the homotopy then stops at its next check).
type cancelAfter struct {
	inner  mpcc.NLPSolver
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) SolveNLP(ctx context.Context, p nlp.Problem, start *mpcc.WarmStart) (*mpcc.InnerResult, error) {
	r, err := c.inner.SolveNLP(ctx, p, start)
	if c.n--; c.n == 0 {
		c.cancel()
	}
	return r, err
}

// TestCancelBeforeCall: a context cancelled before the call gives a nil
// result and an error wrapping context.Canceled (not a dimension error
// from evaluating an empty point).
func TestCancelBeforeCall(t *testing.T) {
	m, x, u := sharedModel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := fesd.Simulate(ctx, m, []float64{-1}, sharedSim)
	assert.Nil(t, r)
	require.ErrorIs(t, err, context.Canceled)
	assert.NotErrorIs(t, err, ad.ErrDimension)

	o, err := fesd.SolveOCP(ctx, sharedOCP(m, x, u), fesd.Options{NFE: 2}, fesd.Start{})
	assert.Nil(t, o)
	require.ErrorIs(t, err, context.Canceled)

	s, err := fesd.NewOCPSolver(sharedOCP(m, x, u), fesd.Options{NFE: 2})
	require.NoError(t, err)
	o, err = s.Solve(ctx, fesd.Start{})
	assert.Nil(t, o)
	require.ErrorIs(t, err, context.Canceled)

	deadline, stop := context.WithTimeout(context.Background(), 0)
	defer stop()
	_, err = fesd.Simulate(deadline, m, []float64{-1}, sharedSim)
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

// TestCancelMidRun: a context cancelled during the homotopy gives the
// partial result together with an error wrapping context.Canceled, for
// Simulate (the steps so far and the stopped step's record, a *StepError
// with Status Cancelled) and for SolveOCP (the result at the last point,
// Status Cancelled). The simulation runs without the prediction, so that
// every step is a homotopy.
func TestCancelMidRun(t *testing.T) {
	m, x, u := sharedModel()
	sharedSim := sharedSim
	sharedSim.NoPredict = true
	// the homotopy point kept (no finish on its branch, finish.go): step
	// 0's solves are its homotopy's and the certificate's
	sharedSim.Options.MPCC.Finish = mpcc.CertifyOnly

	// Cancel after the first NLP solve of step 1 (step 0 takes as many
	// solves as its homotopy steps in an uncancelled run, plus one for the
	// certificate's tightened NLP), so that step 0 comes back complete and
	// step 1 as the stopped one.
	full, err := fesd.Simulate(context.Background(), m, []float64{-1}, sharedSim)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := sharedSim
	n0 := len(full.Steps[0].Homotopy)
	opts.Options.Inner = &cancelAfter{inner: mpcc.NLPSolver{Settings: mpcc.DefaultNLPSettings()}, n: n0 + 2, cancel: cancel}
	r, err := fesd.Simulate(ctx, m, []float64{-1}, opts)
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, err, fesd.ErrStepFailed)
	var se *fesd.StepError
	require.True(t, errors.As(err, &se))
	assert.Equal(t, mpcc.Cancelled, se.Status)
	assert.Equal(t, 1, se.Step)
	require.NotNil(t, r)
	require.Len(t, r.Steps, 2)
	assert.Equal(t, mpcc.Solved, r.Steps[0].Status)
	assert.Equal(t, mpcc.Cancelled, r.Steps[1].Status)
	// The partial trajectory is step 0's, as in the uncancelled run.
	n := len(r.X)
	require.Equal(t, sharedSim.Options.NFE+1, n)
	assert.Equal(t, full.X[:n], r.X)

	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	o := fesd.Options{NFE: 2, Inner: &cancelAfter{inner: mpcc.NLPSolver{Settings: mpcc.DefaultNLPSettings()}, n: 1, cancel: cancel2}}
	res, err := fesd.SolveOCP(ctx2, sharedOCP(m, x, u), o, fesd.Start{})
	require.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, res)
	assert.Equal(t, mpcc.Cancelled, res.Status)
	assert.Len(t, res.Homotopy, 1)
	assert.NotEmpty(t, res.X, "the partial result carries the last point")
}
