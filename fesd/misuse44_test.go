package fesd_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
)

// TestMisuse44: nil and zero-value solvers, nil results and malformed steps
// (issue 44, item 6) give their sentinel errors (errors.Is) instead of
// panicking.
func TestMisuse44(t *testing.T) {
	ctx := context.Background()
	m, x, u := sharedModel()
	solver, err := fesd.NewOCPSolver(sharedOCP(m, x, u), fesd.Options{NFE: 2})
	require.NoError(t, err)
	sim, err := fesd.NewSimulator(m, fesd.Options{NFE: 2}, 0.5)
	require.NoError(t, err)
	step, err := sim.Step(ctx, 0, []float64{-1}, []float64{0}, nil)
	require.NoError(t, err)

	// A solve whose context is done before it starts returns exactly a nil
	// result (OCPSolver.Solve).
	done, cancel := context.WithCancel(ctx)
	cancel()
	notStarted, err := solver.Solve(done, fesd.Start{})
	require.ErrorIs(t, err, context.Canceled)
	require.Nil(t, notStarted)

	var nilSolver *fesd.OCPSolver
	zeroSolver := &fesd.OCPSolver{}
	solvers := []struct {
		name string
		s    *fesd.OCPSolver
	}{{"nil solver", nilSolver}, {"zero-value solver", zeroSolver}}

	// appendTo appends the steps at the stages ks to a new result, then sr
	// at stage k.
	appendTo := func(ks []int, sr *fesd.StepResult, k int) error {
		r := &fesd.SimResult{}
		for _, j := range ks {
			if err := r.AppendStep(step, j); err != nil {
				return err
			}
		}
		return r.AppendStep(sr, k)
	}
	short := *step
	short.H = short.H[:len(short.H)-1]

	type misuse struct {
		name string
		call func() error
		// want are the sentinels the error wraps; none: no error.
		want []error
	}
	cases := []misuse{
		{name: "Shift of nil result", call: func() error { _, err := solver.Shift(nil); return err }, want: []error{fesd.ErrDimension}},
		{name: "Shift of the result of a solve cancelled before it started", call: func() error {
			_, err := solver.Shift(notStarted)
			return err
		}, want: []error{fesd.ErrDimension}},
		{name: "RunMPC nil solver", call: func() error {
			_, err := fesd.RunMPC(ctx, nil, []float64{-1}, fesd.Start{}, fesd.MPCSettings{Steps: 1})
			return err
		}, want: []error{fesd.ErrNilSolver}},
		{name: "RunMPC zero-value solver", call: func() error {
			_, err := fesd.RunMPC(ctx, &fesd.OCPSolver{}, []float64{-1}, fesd.Start{}, fesd.MPCSettings{Steps: 1})
			return err
		}, want: []error{fesd.ErrNilSolver}},
		{name: "RunMPC nil context", call: func() error {
			var noCtx context.Context
			_, err := fesd.RunMPC(noCtx, solver, []float64{-1}, fesd.Start{}, fesd.MPCSettings{Steps: 1})
			return err
		}},
		{name: "AppendStep to nil result", call: func() error {
			var r *fesd.SimResult
			return r.AppendStep(step, 0)
		}, want: []error{fesd.ErrAppendStep}},
		{name: "AppendStep nil step", call: func() error { return appendTo(nil, nil, 0) }, want: []error{fesd.ErrAppendStep}},
		{name: "AppendStep empty step at stage 5", call: func() error { return appendTo(nil, &fesd.StepResult{}, 5) }, want: []error{fesd.ErrAppendStep, fesd.ErrDimension}},
		{name: "AppendStep step sizes of another length", call: func() error { return appendTo(nil, &short, 0) }, want: []error{fesd.ErrAppendStep, fesd.ErrDimension}},
		{name: "AppendStep first stage not 0", call: func() error { return appendTo(nil, step, 5) }, want: []error{fesd.ErrAppendStep}},
		{name: "AppendStep negative stage", call: func() error { return appendTo([]int{0}, step, -1) }, want: []error{fesd.ErrAppendStep}},
		{name: "AppendStep stage before the last", call: func() error { return appendTo([]int{0, 1, 2}, step, 1) }, want: []error{fesd.ErrAppendStep}},
		{name: "AppendStep next stage", call: func() error { return appendTo([]int{0, 1}, step, 2) }},
		{name: "AppendStep piece of a split step (last stage again)", call: func() error { return appendTo([]int{0, 1}, step, 1) }},
	}
	for _, sv := range solvers {
		s := sv.s
		cases = append(cases,
			misuse{name: "Shift on " + sv.name, call: func() error { _, err := s.Shift(nil); return err }, want: []error{fesd.ErrNilSolver}},
			misuse{name: "Sensitivity on " + sv.name, call: func() error { _, err := s.Sensitivity(ctx, nil); return err }, want: []error{fesd.ErrNilSolver}},
			misuse{name: "SetT0 on " + sv.name, call: func() error { return s.SetT0(0) }, want: []error{fesd.ErrNilSolver}},
			misuse{name: "SetX0 on " + sv.name, call: func() error { return s.SetX0([]float64{-1}) }, want: []error{fesd.ErrNilSolver}},
			misuse{name: "Evaluate on " + sv.name, call: func() error { _, err := s.Evaluate(nil); return err }, want: []error{fesd.ErrNilSolver}},
			misuse{name: "WithHomotopy on " + sv.name, call: func() error { _, err := s.WithHomotopy(mpcc.Settings{}); return err }, want: []error{fesd.ErrNilSolver}},
			misuse{name: "Solve on " + sv.name, call: func() error { _, err := s.Solve(ctx, fesd.Start{}); return err }, want: []error{fesd.ErrNilSolver}},
		)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { err = c.call() })
			if len(c.want) == 0 {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			for _, w := range c.want {
				assert.True(t, errors.Is(err, w), "%v does not wrap %v", err, w)
			}
		})
	}

	// The methods without an error: 0 and nil for a nil or zero-value
	// solver, nil for a nil trajectory or result.
	for _, sv := range solvers {
		s := sv.s
		t.Run("counts of "+sv.name, func(t *testing.T) {
			require.NotPanics(t, func() {
				assert.Zero(t, s.NumVariables())
				assert.Zero(t, s.NumConstraints())
				assert.Zero(t, s.NumComplementarities())
				assert.Nil(t, s.DCS())
			})
		})
	}
	t.Run("nil trajectory and result", func(t *testing.T) {
		require.NotPanics(t, func() {
			var tr *fesd.Trajectory
			assert.Nil(t, tr.Final())
			assert.Nil(t, tr.Algebraic(dcs.Theta, 0))
			assert.Nil(t, tr.Theta(0))
			var r *fesd.OCPResult
			assert.Nil(t, r.NLPSolution())
		})
	})

	// A step that fails to append leaves the result as it was; a split
	// step's pieces share their stage.
	t.Run("AppendStep leaves the result unchanged on error", func(t *testing.T) {
		r := &fesd.SimResult{}
		require.NoError(t, r.AppendStep(step, 0))
		require.NoError(t, r.AppendStep(step, 0))
		nT, nSteps := len(r.T), len(r.Steps)
		require.ErrorIs(t, r.AppendStep(&short, 1), fesd.ErrDimension)
		require.ErrorIs(t, r.AppendStep(nil, 1), fesd.ErrAppendStep)
		assert.Equal(t, nT, len(r.T))
		assert.Equal(t, nSteps, len(r.Steps))
		assert.Equal(t, []int{0, 0}, []int{r.Steps[0].Step, r.Steps[1].Step})
		assert.Equal(t, len(r.T), len(r.BoundaryZ))
		assert.Equal(t, len(r.T)-1, len(r.StageOf))
	})
}

// TestMisuseSimulatorAndHorizon: nil Simulators answer their size queries
// with 0 and nil instead of panicking, and a simulation whose steps are too
// short to resolve (TSim = 5e-324, the smallest float64: the predictor's
// substep underflowed to 0 and looped forever, past the context deadline)
// is an ErrHorizon at once.
func TestMisuseSimulatorAndHorizon(t *testing.T) {
	var nilSim *fesd.Simulator
	require.NotPanics(t, func() {
		assert.Zero(t, nilSim.NumVariables())
		assert.Zero(t, nilSim.NumConstraints())
		assert.Zero(t, nilSim.NumComplementarities())
		assert.Nil(t, nilSim.DCS())
		nilSim.Reset()
		(&fesd.Simulator{}).Reset()
		assert.Zero(t, (&fesd.Simulator{}).NumVariables())
	})
	_, err := nilSim.Step(context.Background(), 0, []float64{0}, nil, nil)
	assert.ErrorIs(t, err, fesd.ErrNilSolver)

	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[0]}, S: [][]int{{1}, {-1}}, F: []ad.Vec{{g.Const(3)}, {g.Const(1)}}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, c := range []struct {
		name   string
		T0, TS float64
	}{
		{"TSim 5e-324", 0, 5e-324},
		{"TSim 1e-310", 0, 1e-310},
		{"steps below the resolution of T0", 1e6, 1e-12},
	} {
		start := time.Now()
		_, err := fesd.Simulate(ctx, m, []float64{-1}, fesd.SimOptions{TSim: c.TS, T0: c.T0, NSim: 1})
		assert.ErrorIs(t, err, fesd.ErrHorizon, c.name)
		assert.Less(t, time.Since(start), 5*time.Second, c.name)
	}
	_, err = fesd.NewSimulator(m, fesd.Options{}, 5e-324)
	assert.ErrorIs(t, err, fesd.ErrHorizon)
}
