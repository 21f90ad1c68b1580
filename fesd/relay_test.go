package fesd_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// relay is the relay oscillator ẋ₁ = x₂, ẋ₂ = −sign x₁ (ψ = x₁; mode 1 on
// x₁ > 0 with ẋ₂ = −1, mode 2 on x₁ < 0 with ẋ₂ = +1).
func relay() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0]},
		S:   [][]int{{1}, {-1}},
		F:   []ad.Vec{{x[1], g.Const(-1)}, {x[1], g.Const(1)}},
	})
	return m
}

// relaySwitches are the closed-form switch times of the relay oscillator
// from (1, 0): on x₁ > 0, x₁ = 1 − t²/2 reaches 0 at t = √2 with
// x₂ = −√2; each half-wave on one side then takes 2√2 (x₁ = ∓√2·s ± s²/2
// returns to 0 at s = 2√2, the speed |x₂| = √2 conserved with the energy
// x₂²/2 + |x₁| = 1), so t_k = (2k − 1)√2 and the period is 4√2.
func relaySwitches(tmax float64) []float64 {
	var ts []float64
	for k := 1; float64(2*k-1)*math.Sqrt2 < tmax; k++ {
		ts = append(ts, float64(2*k-1)*math.Sqrt2)
	}
	return ts
}

// TestRelayOscillator: TSim 10, NSim 20, NFE 3, with the default
// prediction and without it (issue: without it the simulation failed at
// the second switch, t = 3√2 in step 8, with the last relaxed NLP ending
// NumericalError from the shifted warm start; the step is now retried
// from the cold start when that happens, see TestColdRetry). All four
// switches match the closed form to 1e-8 (the homotopy's complementarity
// tolerance 1e-9 limits the accuracy). Under -short without the
// prediction only.
func TestRelayOscillator(t *testing.T) {
	for _, noPredict := range []bool{false, true} {
		if testing.Short() && !noPredict {
			continue // -short: TestRelayLongAndStiffDecay runs the relay with the prediction
		}
		relayRun(t, noPredict)
	}
}

func relayRun(t *testing.T, noPredict bool) {
	r, err := fesd.Simulate(context.Background(), relay(), []float64{1, 0},
		fesd.SimOptions{TSim: 10, NSim: 20, Options: fesd.Options{NFE: 3}, NoPredict: noPredict})
	require.NoError(t, err)
	want := relaySwitches(10)
	require.Len(t, r.Switches, len(want))
	for i, s := range r.Switches {
		assert.InDelta(t, want[i], s.Time, 1e-8, "switch %d", i)
		assert.Equal(t, fesd.Crossing, s.Kind, "switch %d", i)
	}
	// x(10): the last switch, at 7√2, enters x₁ > 0 with x₂ = √2, so with
	// s = 10 − 7√2: x₁ = √2·s − s²/2 and x₂ = √2 − s.
	s := 10 - 7*math.Sqrt2
	xT := r.X[len(r.X)-1]
	assert.InDelta(t, math.Sqrt2*s-s*s/2, xT[0], 1e-7)
	assert.InDelta(t, math.Sqrt2-s, xT[1], 1e-7)
	retried := 0
	for _, st := range r.Steps {
		if st.ColdRetry {
			retried++
		}
	}
	t.Logf("%d steps retried from the cold start", retried)
	// With every relaxed NLP solved to the inner tolerance (no inexact
	// steps): the same switches.
	r, err = fesd.Simulate(context.Background(), relay(), []float64{1, 0},
		fesd.SimOptions{TSim: 10, NSim: 20, Options: fesd.Options{NFE: 3, MPCC: mpcc.Settings{InexactFactor: -1}}, NoPredict: noPredict})
	require.NoError(t, err)
	require.Len(t, r.Switches, len(want))
	for i, s := range r.Switches {
		assert.InDelta(t, want[i], s.Time, 1e-8, "exact relaxed NLPs, switch %d", i)
	}
}

// failingInner wraps the default inner solver and fails every NLP of the
// homotopy number failAt (1-based; a homotopy starts with a solve without
// a warm start), as a numerical failure at the start point.
type failingInner struct {
	mpcc.NLPSolver
	failAt, homotopies int
}

func (f *failingInner) SolveNLP(ctx context.Context, p nlp.Problem, start *mpcc.WarmStart) (*mpcc.InnerResult, error) {
	if start == nil || start.X == nil {
		// a cold start (with the inexact steps of mpcc the first solve
		// gets a WarmStart without a point, carrying its tolerance)
		f.homotopies++
	}
	if f.homotopies != f.failAt {
		return f.NLPSolver.SolveNLP(ctx, p, start)
	}
	n, m := p.Dims()
	x := make([]float64, n)
	p.Start(x)
	return &mpcc.InnerResult{Status: nlp.NumericalError, X: x, Y: make([]float64, m),
		ZL: make([]float64, n), ZU: make([]float64, n)}, nil
}

// TestColdRetry: a step whose homotopy from the shifted warm start fails
// is retried from the cold start. The relay oscillator as in
// TestRelayOscillator without the prediction (every step by the homotopy), with every relaxed NLP of the third homotopy (the
// warm-started one of step 2, t ∈ [1, 1.5], which holds the first switch
// at √2) failing: step 2 is marked ColdRetry, its record carries the
// failed homotopy first, and the switches still match the closed form to
// 1e-8.
func TestColdRetry(t *testing.T) {
	inner := &failingInner{NLPSolver: mpcc.NLPSolver{Settings: mpcc.DefaultNLPSettings()}, failAt: 3}
	r, err := fesd.Simulate(context.Background(), relay(), []float64{1, 0},
		fesd.SimOptions{TSim: 10, NSim: 20, Options: fesd.Options{NFE: 3, Inner: inner}, NoPredict: true})
	require.NoError(t, err)
	want := relaySwitches(10)
	require.Len(t, r.Switches, len(want))
	for i, s := range r.Switches {
		assert.InDelta(t, want[i], s.Time, 1e-8, "switch %d", i)
	}
	for i, st := range r.Steps {
		assert.Equal(t, i == 2, st.ColdRetry, "step %d", i)
	}
	st := r.Steps[2]
	require.NotEmpty(t, st.Homotopy)
	assert.Equal(t, nlp.NumericalError, st.Homotopy[0].Status, "the failed warm homotopy comes first")
	assert.Equal(t, mpcc.Solved, st.Status)
}

// TestRelayOneElement: with N_FE = 1 a switch inside a step cannot be
// placed on an element boundary. Each step that holds a switch is solved
// with two elements (Simulator.refinedStep): with the prediction (the
// default) at once, without it after the homotopy failed, by the finish on
// the branch of the homotopy's last point (StepRecord.Finished) or else on
// the predicted branch (StepRecord.Rescued). The switches match the closed form (relaySwitches)
// to 1e-8 as with N_FE = 3 (TestRelayOscillator). With an inner solver
// whose every solve fails nothing rescues the step [1, 1.5] (from
// x(1) = (1/2, −1)) that holds the first switch, and it says why
// (ErrSwitchInStep, with the predicted switch time √2).
func TestRelayOneElement(t *testing.T) {
	for _, noPredict := range []bool{false, true} {
		r, err := fesd.Simulate(context.Background(), relay(), []float64{1, 0},
			fesd.SimOptions{TSim: 10, NSim: 20, Options: fesd.Options{NFE: 1}, NoPredict: noPredict})
		require.NoError(t, err)
		want := relaySwitches(10)
		require.Len(t, r.Switches, len(want))
		elems := make([]int, 20)
		for _, k := range r.StageOf {
			elems[k]++
		}
		for i, s := range r.Switches {
			assert.InDelta(t, want[i], s.Time, 1e-8, "switch %d", i)
			assert.Equal(t, 2, elems[s.Stage], "step %d holds switch %d", s.Stage, i)
			rec := r.Steps[s.Stage]
			assert.Equal(t, noPredict, rec.Rescued || rec.Finished, "step %d", s.Stage)
			assert.False(t, rec.Rescued && rec.Finished, "step %d", s.Stage)
		}
	}

	fail := &failFrom{inner: &mpcc.NLPSolver{Settings: mpcc.DefaultNLPSettings()}}
	_, err := fesd.Simulate(context.Background(), relay(), []float64{0.5, -1},
		fesd.SimOptions{T0: 1, TSim: 0.5, NSim: 1, NoPredict: true,
			Options: fesd.Options{NFE: 1, Inner: fail}})
	require.ErrorIs(t, err, fesd.ErrStepFailed)
	require.ErrorIs(t, err, fesd.ErrSwitchInStep)
	var se *fesd.StepError
	require.True(t, errors.As(err, &se))
	assert.InDelta(t, math.Sqrt2, se.SwitchAt, 1e-6)
	assert.Contains(t, err.Error(), "N_FE ≥ 2")
}
