package fesd

import (
	"context"
	"errors"
	"math"

	"github.com/fesd-go/fesd/mpcc"
)

// MaxSplitDepth is the deepest halving of a simulation step in Simulate:
// a step of length T whose solve fails (after the Simulator's own
// retries: the shifted, cold and predicted starts, the refined
// transcription for more predicted switches than element boundaries) is
// solved again as two pieces of length T/2, each of which may be halved
// again, down to T/2^MaxSplitDepth; so is, before it is tried, a step
// whose prediction has more switches than it has interior element
// boundaries (tooManyEvents). A piece that fails at the deepest
// level ends the simulation with a *StepError (its point is not kept), as
// does a step that fails with ErrSwitchInStep, which no split resolves.
// Measured: examples/irma's 1000 minutes split six of 500 steps, one
// (step 103) down to depth 3; the time-freezing ball of
// TestSimulateDropSplit at rest on the ground (v_x = 0, with the
// prediction) fails down to depth 8 in Stewart's formulation and solves at
// depth 5 in the Step formulation, after 4 491 iterations: a deeper split
// is no cure for a step that fails from its start state.
const MaxSplitDepth = 3

// splitter solves the steps of Simulate, halving a step whose solve fails:
// one Simulator per step length T/2^d, compiled on first use.
type splitter struct {
	sims []*Simulator // sims[d] integrates steps of length T/2^d
	opts *SimOptions
	// emit takes every solved piece, in time order, as soon as it is
	// solved.
	emit func(*StepResult)
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
// simulation step the interval belongs to and returns the end state. It
// emits the solved pieces (one, the whole interval, when its solve
// succeeds), each with Record.Depth set; the records of the failed solves
// that were split before (fold, in time order) go into the first piece's
// record. When a piece fails at depth MaxSplitDepth, is cancelled or
// cannot run, it returns the failed piece's result (nil if there is none)
// and the error.
func (sp *splitter) solve(ctx context.Context, t0 float64, x0, u []float64, depth int, fold []StepRecord) ([]float64, *StepResult, error) {
	sim, err := sp.at(depth)
	if err != nil {
		return nil, nil, err
	}
	if !sim.NoPredict && depth < MaxSplitDepth && tooManyEvents(sim, t0, x0, u, sp.opts.P) {
		return sp.halves(ctx, sim, t0, x0, u, depth, fold)
	}
	sr, err := sim.Step(ctx, t0, x0, u, sp.opts.P)
	if sr != nil {
		sr.Record.Depth = depth
		for i := len(fold) - 1; i >= 0; i-- {
			foldFailed(&sr.Record, &fold[i])
		}
	}
	if err == nil {
		sp.emit(sr)
		return sr.Final(), nil, nil
	}
	var se *StepError
	// A switch inside a step of one element (ErrSwitchInStep) stays
	// inside one of the halves: splitting cannot help, and the error says
	// what does (N_FE ≥ 2).
	if sr == nil || !errors.As(err, &se) || se.Status == mpcc.Cancelled || errors.Is(err, ErrSwitchInStep) ||
		ctx.Err() != nil || depth >= MaxSplitDepth {
		return nil, sr, err
	}
	return sp.halves(ctx, sim, t0, x0, u, depth, append(fold, sr.Record))
}

// halves solves the interval of sim (depth) from t0 as two pieces of
// depth + 1; fold are the records of the failed solves it replaces (none
// for a step split before it was tried), for its first piece.
func (sp *splitter) halves(ctx context.Context, sim *Simulator, t0 float64, x0, u []float64, depth int, fold []StepRecord) ([]float64, *StepResult, error) {
	sub, err := sp.at(depth + 1)
	if err != nil {
		return nil, nil, err
	}
	// The state of sim is dropped: its next step starts from the last
	// piece's end without a shifted start.
	sim.prev = nil
	sub.Reset()
	x1, f, err := sp.solve(ctx, t0, x0, u, depth+1, fold)
	if err != nil {
		return nil, f, err
	}
	x2, f, err := sp.solve(ctx, t0+sub.T, x1, u, depth+1, nil)
	sim.finishedEnd = sub.finishedEnd
	return x2, f, err
}

// foldFailed puts the record of a failed solve that was split into the
// record of its first piece: its homotopy records first, its iterations
// and time added, Splits and SplitIterations counted.
func foldFailed(piece, failed *StepRecord) {
	piece.Homotopy = append(append([]mpcc.HomotopyStep(nil), failed.Homotopy...), piece.Homotopy...)
	piece.Iterations += failed.Iterations
	piece.Elapsed += failed.Elapsed
	piece.Splits++
	piece.SplitIterations += failed.Iterations
}

// tooManyEvents reports whether the event-driven prediction of the step
// of sim from t0 (Simulator.PredictEvents) has more switches than the
// N_FE − 1 interior element boundaries of the step, counting the events
// at least 0.05·h₀ from the step's start, from its end and from each
// other (closer ones the step resolves by itself), and N_FE ≥ 2. Such a
// step is split before it is tried (StepRecord.Depth, with Splits = 0 on
// its first piece). Measured on examples/irma's 1000 minutes: without
// this rule (the Simulator then solves such steps with more elements,
// refinedStep) the run has the same 36 switches and x(1000) error, but
// 3 159 NLP iterations (1 915 in failed solves) instead of 2 882 (1 631),
// and the crossing of ψ₆ at 555.303 moves from 2.2e-5 to 9.4e-5 min off
// the exact time on the stretch [552, 558] of TestRunHardSteps; with it,
// the run reproduces examples/irma's former loop bit for bit.
func tooManyEvents(sim *Simulator, t0 float64, x0, u, p []float64) bool {
	ev, ok, err := sim.PredictEvents(t0, x0, u, p)
	if err != nil || !ok {
		return false
	}
	nfe := sim.tr.NE
	if nfe < 2 {
		// a switch stays inside one of the halves of a one-element step
		return false
	}
	gap := 0.05 * sim.T / float64(nfe)
	n, last := 0, t0
	for _, e := range ev {
		if e-last >= gap && t0+sim.T-e >= gap {
			n++
			last = e
		}
	}
	return n > nfe-1
}
