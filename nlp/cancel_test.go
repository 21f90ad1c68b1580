package nlp

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cancelWriter is an iteration log that cancels its context once the log
// has reached the given number of bytes (a cancel from inside the solve,
// as a GUI's stop button would).
type cancelWriter struct {
	buf    bytes.Buffer
	after  int
	cancel context.CancelFunc
}

func (w *cancelWriter) Write(p []byte) (int, error) {
	n, err := w.buf.Write(p)
	if w.buf.Len() >= w.after {
		w.cancel()
	}
	return n, err
}

// TestCancelRule: a solve stopped by its context returns the partial result
// (Status Cancelled, the last accepted iterate) and an error wrapping
// ctx.Err() — issue 44 item 7, the rule of packages mpcc and fesd.
func TestCancelRule(t *testing.T) {
	t.Run("before start", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		p := rosenbrockChain(10)
		var ws Workspace
		for _, solve := range []func() (*Result, error){
			func() (*Result, error) { return (&Solver{}).Solve(ctx, p) },
			func() (*Result, error) { return (&Solver{}).SolveIn(ctx, &ws, p) },
		} {
			res, err := solve()
			require.Error(t, err)
			assert.ErrorIs(t, err, context.Canceled)
			assert.ErrorIs(t, err, ctx.Err())
			require.NotNil(t, res, "the partial result comes with the error")
			assert.Equal(t, Cancelled, res.Status)
			assert.Zero(t, res.Iterations)
			x0 := make([]float64, 10)
			p.Start(x0)
			// No step was taken: X is the starting point pushed into its
			// bounds (rosenbrockChain has none, so x0 itself).
			assert.Equal(t, x0, res.X)
		}
	})
	t.Run("from the log writer", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		// The header and about three iteration lines.
		w := &cancelWriter{after: 400, cancel: cancel}
		res, err := (&Solver{Settings: Settings{Log: w}}).Solve(ctx, rosenbrockChain(20))
		require.Error(t, err)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Contains(t, err.Error(), "nlp: solve cancelled after")
		require.NotNil(t, res)
		assert.Equal(t, Cancelled, res.Status)
		assert.Positive(t, res.Iterations, "stopped inside the solve")
		// rosenbrockChain(20) takes more than 20 iterations to solve.
		assert.Less(t, res.Iterations, 10, "stopped within an iteration of the cancel")
		assert.Len(t, res.X, 20)
		assert.Len(t, res.History, res.Iterations+1, "the history up to the stop")
	})
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
		defer cancel()
		<-ctx.Done()
		res, err := (&Solver{}).Solve(ctx, rosenbrockChain(10))
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		require.NotNil(t, res)
		assert.Equal(t, Cancelled, res.Status)
	})
	t.Run("other statuses keep a nil error", func(t *testing.T) {
		res, err := (&Solver{Settings: Settings{MaxIter: 2}}).Solve(context.Background(), rosenbrockChain(10))
		require.NoError(t, err)
		assert.Equal(t, IterationLimit, res.Status)
		assert.False(t, errors.Is(err, context.Canceled))
	})
}
