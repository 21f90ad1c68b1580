package fesd

import (
	"context"
	"errors"
	"math"

	"github.com/fesd-go/fesd/mpcc"
)

// MaxSplitDepth is the deepest halving of a failed simulation step in
// Simulate: a step of length T whose solve fails (after the Simulator's own
// retries: the shifted, cold and predicted starts, the refined
// transcription for more predicted switches than element boundaries) is
// solved again as two pieces of length T/2, each of which may be halved
// again, down to T/2^MaxSplitDepth. A piece that fails at the deepest
// level ends the simulation with a *StepError (its point is not kept), as
// does a step that fails with ErrSwitchInStep, which no split resolves.
const MaxSplitDepth = 3

// splitter solves the steps of Simulate, halving a step whose solve fails:
// one Simulator per step length T/2^d, compiled on first use.
type splitter struct {
	sims []*Simulator // sims[d] integrates steps of length T/2^d
	opts *SimOptions
}

// at returns the simulator of depth d (steps of length T/2^d).
func (sp *splitter) at(d int) (*Simulator, error) {
	for len(sp.sims) <= d {
		top := sp.sims[0]
		sim, err := NewSimulator(top.model, sp.opts.Options, top.T/math.Ldexp(1, len(sp.sims)))
		if err != nil {
			return nil, err
		}
		sim.ColdStart, sim.NoPredict, sim.Sensitivity = top.ColdStart, top.NoPredict, top.Sensitivity
		sp.sims = append(sp.sims, sim)
	}
	return sp.sims[d], nil
}

// solve integrates [t0, t0 + T/2^depth] from x0 with the control u of the
// simulation step the interval belongs to. It returns the solved pieces in
// time order (one, the whole interval, when its solve succeeds), each with
// Record.Depth set. When a piece fails at depth MaxSplitDepth, is
// cancelled or cannot run, it returns the pieces solved before it, the
// failed piece's result (nil if there is none) and the error.
func (sp *splitter) solve(ctx context.Context, t0 float64, x0, u []float64, depth int) (done []*StepResult, failed *StepResult, err error) {
	sim, err := sp.at(depth)
	if err != nil {
		return nil, nil, err
	}
	sr, err := sim.Step(ctx, t0, x0, u, sp.opts.P)
	if sr != nil {
		sr.Record.Depth = depth
	}
	if err == nil {
		return []*StepResult{sr}, nil, nil
	}
	var se *StepError
	// A switch inside a step of one element (ErrSwitchInStep) stays
	// inside one of the halves: splitting cannot help, and the error says
	// what does (N_FE ≥ 2).
	if sr == nil || !errors.As(err, &se) || se.Status == mpcc.Cancelled || errors.Is(err, ErrSwitchInStep) ||
		ctx.Err() != nil || depth >= MaxSplitDepth {
		return nil, sr, err
	}
	// The failed solve's state is dropped: the next step of this depth
	// starts from the last piece's end without a shifted start.
	sim.prev = nil
	sub, serr := sp.at(depth + 1)
	if serr != nil {
		return nil, sr, err
	}
	sub.Reset()
	first, f, err := sp.solve(ctx, t0, x0, u, depth+1)
	if len(first) > 0 {
		foldFailed(&first[0].Record, &sr.Record)
	} else if f != nil {
		foldFailed(&f.Record, &sr.Record)
	}
	if err != nil {
		return first, f, err
	}
	last := first[len(first)-1]
	second, f, err := sp.solve(ctx, t0+sub.T, last.X[len(last.X)-1], u, depth+1)
	sim.finishedEnd = sub.finishedEnd
	return append(first, second...), f, err
}

// foldFailed puts the record of a failed solve that was split into the
// record of its first piece: its homotopy records first, its iterations
// and time added, Splits counted.
func foldFailed(piece, failed *StepRecord) {
	piece.Homotopy = append(append([]mpcc.HomotopyStep(nil), failed.Homotopy...), piece.Homotopy...)
	piece.Iterations += failed.Iterations
	piece.Elapsed += failed.Elapsed
	piece.Splits++
}
