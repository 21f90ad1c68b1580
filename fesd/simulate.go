package fesd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
)

// Simulator integrates a model over control intervals of a fixed length T
// with the FESD transcription. The NLP is built and compiled once by
// NewSimulator; every Step only sets the parameters (x₀, u, p, t₀), the
// bounds of the start variables and the starting point.
//
// A Simulator is not safe for concurrent use.
type Simulator struct {
	model *dcs.Model
	d     *dcs.DCS
	o     *resolved
	tr    *transcription
	T     float64
	sw    *switchInfo

	prev []float64 // solution of the previous step (for the shifted start)
	// inner is the default inner NLP solver, kept across steps so that the
	// KKT pattern, ordering and symbolic factorization of the relaxed NLP
	// are analysed once per simulation, not once per step.
	inner *mpcc.NLPSolver
	// ColdStart makes every Step start from the model's consistent
	// algebraic values at x₀ instead of the previous step's solution.
	ColdStart bool
	// Predict starts every step from an event-driven explicit prediction
	// when it finds between 1 and N_FE − 1 well separated mode changes in
	// the step: the element boundaries are placed at the predicted switch
	// times and the stages take the predicted states and the algebraic
	// values of their element's mode (see predict.go). Otherwise the step
	// starts as without it.
	Predict bool
}

// StepRecord is the solver record of one simulation step.
type StepRecord struct {
	// Step is the index of the step, [T0, T1] its interval.
	Step   int
	T0, T1 float64
	// Status is the homotopy status (mpcc.Solved on success).
	Status mpcc.Status
	// Homotopy has one record per relaxed NLP (σ, residuals, NLP status,
	// iterations, time).
	Homotopy []mpcc.HomotopyStep
	// Iterations is the total number of NLP iterations over the homotopy.
	Iterations int
	// CompResidual and NaturalResidual are the final complementarity
	// residuals of mpcc.Problem.Residuals (the max of the summed terms,
	// so they depend on the cross-complementarity mode).
	CompResidual, NaturalResidual float64
	Elapsed                       time.Duration
}

// StepResult is the solution of one control interval.
type StepResult struct {
	Record StepRecord
	// T are the N_FE + 1 element boundaries, X the states there.
	T []float64
	X [][]float64
	// StageT, StageX, StageZ are the N_FE·n_s stage points, element by
	// element, with the states and the algebraic variables z (laid out as
	// DCS.Z) there.
	StageT []float64
	StageX [][]float64
	StageZ [][]float64
	// H are the N_FE step sizes.
	H []float64
	// BoundaryZ are the values of the boundary variables (laid out as
	// DCS.BoundaryZ: λ, μ for Stewart, λᵖ, λⁿ for Step) at the N_FE + 1
	// element boundaries: the fixed start values at t₀, then the last stage
	// (c_{n_s} = 1) or the boundary point (c_{n_s} ≠ 1) of every element;
	// nil where the transcription has no such point (Gauss–Legendre without
	// FESD).
	BoundaryZ [][]float64
	// Z0 are the consistent algebraic values at x₀ (004 eq. 17) that fix
	// the boundary variables at the start of the interval.
	Z0 []float64
}

// NewSimulator reformulates the model with opts.DCS, builds the FESD NLP of
// one control interval of length T and compiles it.
func NewSimulator(model *dcs.Model, opts Options, T float64) (*Simulator, error) {
	if model == nil {
		return nil, ErrNilModel
	}
	if !(T > 0) || math.IsInf(T, 0) {
		return nil, fmt.Errorf("%w: interval length T = %g must be positive and finite", ErrHorizon, T)
	}
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	d, err := model.Reformulate(o.DCS)
	if err != nil {
		return nil, err
	}
	tr, err := newTranscription(d, o)
	if err != nil {
		return nil, err
	}
	if err := tr.compile(); err != nil {
		return nil, err
	}
	sw, err := newSwitchInfo(model, d, o)
	if err != nil {
		return nil, err
	}
	return &Simulator{model: model, d: d, o: o, tr: tr, T: T, sw: sw}, nil
}

// DCS returns the complementarity system the simulator transcribes.
func (s *Simulator) DCS() *dcs.DCS { return s.d }

// NumVariables and NumConstraints give the size of the NLP of one
// interval; NumComplementarities the number of complementarity terms.
func (s *Simulator) NumVariables() int { return len(s.tr.w) }

// NumConstraints returns the number of constraints of the NLP.
func (s *Simulator) NumConstraints() int { return len(s.tr.c) }

// NumComplementarities returns the number of complementarity terms.
func (s *Simulator) NumComplementarities() int { return len(s.tr.comp) }

// Reset forgets the previous solution (the next Step starts cold).
func (s *Simulator) Reset() { s.prev = nil }

func checkVec(name string, v []float64, n int) error {
	if len(v) != n {
		return fmt.Errorf("%w: %s has length %d, the model has %d", ErrDimension, name, len(v), n)
	}
	return checkFinite(name, v)
}

// checkFinite returns ErrNonFinite for the first NaN or Inf entry of v.
func checkFinite(name string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%w: %s[%d] = %g", ErrNonFinite, name, i, x)
		}
	}
	return nil
}

// Step solves the control interval [t0, t0 + T] from x0 with the constant
// control u and the parameters p. A homotopy that does not reach
// mpcc.Solved gives the result together with a *StepError (wrapping
// ErrStepFailed); errors for bad inputs come with a nil result.
func (s *Simulator) Step(ctx context.Context, t0 float64, x0, u, p []float64) (*StepResult, error) {
	d := s.d
	if err := checkVec("x0", x0, len(d.X)); err != nil {
		return nil, err
	}
	if err := checkVec("u", u, len(d.U)); err != nil {
		return nil, err
	}
	if err := checkVec("p", p, len(d.P)); err != nil {
		return nil, err
	}
	if math.IsNaN(t0) || math.IsInf(t0, 0) {
		return nil, fmt.Errorf("%w: start time %g", ErrHorizon, t0)
	}
	z0, err := d.InitialGuess(x0, u, p)
	if err != nil {
		var nf *dcs.NonFiniteError
		if errors.As(err, &nf) {
			return nil, fmt.Errorf("%w: %w", ErrNonFinite, err)
		}
		return nil, err
	}
	tr := s.tr
	zb0 := make([]float64, len(d.BoundaryZ))
	for i, zi := range d.BoundaryZ {
		zb0[i] = z0[zi]
	}
	// Start multipliers within SwitchTol of zero are set to zero: a state
	// on a switching surface up to the tolerance (such as the end of a
	// previous step that ended at a switch) must not pin the active set of
	// the first element (nosnoc issue #52).
	for _, grp := range d.Comp {
		for _, pr := range grp.Pairs {
			if pos, ok := tr.bzPos[pr.Lambda]; ok && zb0[pos] <= s.o.SwitchTol {
				zb0[pos] = 0
			}
		}
	}
	var w0, href []float64
	if s.Predict {
		w0, href = s.predictStart(t0, x0, u, p, zb0)
	}
	pv := tr.paramValuesRef(x0, u, p, t0, s.T, href)
	if err := tr.prob.SetParams(pv); err != nil {
		return nil, err
	}
	xl, xu := tr.bounds(s.T, zb0)
	if err := tr.prob.SetVarBounds(xl, xu); err != nil {
		return nil, err
	}
	switch {
	case w0 != nil:
		// predicted
	case s.prev != nil && !s.ColdStart:
		w0 = tr.startShifted(s.prev, zb0, s.T)
	default:
		f0, err := d.EvalF(x0, u, p, z0, t0)
		if err != nil {
			return nil, err
		}
		w0 = tr.startFresh(x0, z0, f0, s.T)
	}
	for k := range w0 { // the start must respect the (new) bounds
		w0[k] = math.Min(math.Max(w0[k], xl[k]), xu[k])
	}
	if err := tr.prob.SetStart(w0); err != nil {
		return nil, err
	}
	solver := mpcc.Solver{Settings: s.o.MPCC, Inner: s.o.Inner}
	if solver.Inner == nil {
		if s.inner == nil {
			ns := mpcc.DefaultNLPSettings()
			if s.o.MPCC.NLP != nil {
				ns = *s.o.MPCC.NLP
			}
			s.inner = &mpcc.NLPSolver{Settings: ns}
		}
		solver.Inner = s.inner
	}
	res, err := solver.Solve(ctx, &mpcc.Problem{NLP: tr.prob, Comp: tr.comp})
	if err != nil {
		return nil, fmt.Errorf("fesd: step at t = %g: %w", t0, err)
	}
	rec := StepRecord{
		T0: t0, T1: t0 + s.T, Status: res.Status, Homotopy: res.Steps,
		CompResidual: res.CompResidual, NaturalResidual: res.NaturalResidual, Elapsed: res.Elapsed,
	}
	for _, st := range res.Steps {
		rec.Iterations += st.Iterations
	}
	sr := &StepResult{Record: rec, Z0: z0}
	if err := s.fill(sr, res.X, pv); err != nil {
		return nil, err
	}
	if res.Status != mpcc.Solved {
		s.prev = nil
		return sr, &StepError{T0: t0, Status: res.Status, CompResidual: res.CompResidual}
	}
	s.prev = res.X
	return sr, nil
}

// fill writes the trajectory of the interval from the NLP solution w.
func (s *Simulator) fill(sr *StepResult, w, pv []float64) error {
	tr := s.tr
	out, err := tr.outputs(w, pv)
	if err != nil {
		return err
	}
	nx, nz := tr.nx, tr.nz
	sr.T = out.tb
	sr.H = out.h
	sr.StageT = out.ts
	for n := 0; n <= tr.N; n++ {
		sr.X = append(sr.X, clone(out.xb[n*nx:(n+1)*nx]))
	}
	for n := 0; n < tr.N; n++ {
		for m := 0; m < tr.ns; m++ {
			k := n*tr.ns + m
			sr.StageX = append(sr.StageX, clone(out.xs[k*nx:(k+1)*nx]))
			sr.StageZ = append(sr.StageZ, clone(w[tr.zIdx[n][m]:tr.zIdx[n][m]+nz]))
		}
	}
	nb := len(s.d.BoundaryZ)
	bz := make([]float64, nb)
	for i, zi := range s.d.BoundaryZ {
		bz[i] = sr.Z0[zi]
	}
	sr.BoundaryZ = append(sr.BoundaryZ, bz)
	for n := 0; n < tr.N; n++ {
		switch {
		case tr.zbIdx[n] >= 0:
			sr.BoundaryZ = append(sr.BoundaryZ, clone(w[tr.zbIdx[n]:tr.zbIdx[n]+nb]))
		case s.o.tab.EndpointIsNode():
			bz := make([]float64, nb)
			for i, zi := range s.d.BoundaryZ {
				bz[i] = w[tr.zIdx[n][tr.ns-1]+zi]
			}
			sr.BoundaryZ = append(sr.BoundaryZ, bz)
		default:
			sr.BoundaryZ = append(sr.BoundaryZ, nil)
		}
	}
	return nil
}

// SimOptions configures Simulate.
type SimOptions struct {
	// Options configures the transcription.
	Options Options
	// TSim is the length of the simulation and NSim the number of control
	// intervals (simulation steps), each of length T = TSim/NSim with
	// Options.NFE finite elements.
	TSim float64
	NSim int
	// T0 is the start time (default 0).
	T0 float64
	// U is the constant control (length n_u), or UFunc gives the control
	// of each step from its start time (UFunc wins when both are set).
	U     []float64
	UFunc func(t float64) []float64
	// P are the parameter values (length n_p).
	P []float64
	// ColdStart starts every step from the model's consistent algebraic
	// values at its x₀ instead of the previous step's solution.
	ColdStart bool
	// Predict sets Simulator.Predict: steps with between 1 and N_FE − 1
	// predicted switches start from the event-driven prediction.
	Predict bool
}

// SimResult is the outcome of Simulate.
type SimResult struct {
	// DCS is the complementarity system that was transcribed (its ZBlocks
	// lay out StageZ).
	DCS *dcs.DCS
	// T are the element boundaries of all steps (each stored once:
	// NSim·N_FE + 1 values) and X the states there.
	T []float64
	X [][]float64
	// StageT, StageX, StageZ are the RK stage points of all elements in
	// order, with the states and algebraic variables there.
	StageT []float64
	StageX [][]float64
	StageZ [][]float64
	// H are the step sizes of all elements.
	H []float64
	// BoundaryZ are the boundary variables at the element boundaries T
	// (see StepResult.BoundaryZ).
	BoundaryZ [][]float64
	// StepOf gives the simulation step of every element.
	StepOf []int
	// Steps has one solver record per simulation step (including a failed
	// last step).
	Steps []StepRecord
	// Switches lists the detected switches in time order.
	Switches []Switch
	// Z0 are the consistent algebraic values at the initial state.
	Z0 []float64
}

// Algebraic returns the stage values of the algebraic variables of one
// block (for example dcs.Theta of subsystem 0, dcs.Alpha, dcs.LambdaP, …),
// one slice per stage point, or nil if the DCS has no such block.
func (r *SimResult) Algebraic(kind dcs.VarKind, sub int) [][]float64 {
	b, ok := r.DCS.ZBlock(kind, sub)
	if !ok {
		return nil
	}
	out := make([][]float64, len(r.StageZ))
	for i, z := range r.StageZ {
		out[i] = clone(z[b.Start : b.Start+b.Len])
	}
	return out
}

// Final returns the state at the end of the simulation.
func (r *SimResult) Final() []float64 {
	if len(r.X) == 0 {
		return nil
	}
	return r.X[len(r.X)-1]
}

// Simulate integrates the model from x0 over [T0, T0 + TSim] in NSim steps
// of NFE finite elements each. On a failed step it returns what was
// computed up to that step (with the failed step's record) and a
// *StepError naming the step.
func Simulate(ctx context.Context, model *dcs.Model, x0 []float64, opts SimOptions) (*SimResult, error) {
	if model == nil {
		return nil, ErrNilModel
	}
	if opts.NSim < 1 {
		return nil, fmt.Errorf("%w: NSim = %d < 1", ErrHorizon, opts.NSim)
	}
	if !(opts.TSim > 0) || math.IsInf(opts.TSim, 0) {
		return nil, fmt.Errorf("%w: TSim = %g must be positive and finite", ErrHorizon, opts.TSim)
	}
	if math.IsNaN(opts.T0) || math.IsInf(opts.T0, 0) {
		return nil, fmt.Errorf("%w: T0 = %g", ErrHorizon, opts.T0)
	}
	if err := checkVec("x0", x0, len(model.X)); err != nil {
		return nil, err
	}
	if opts.UFunc == nil {
		if err := checkVec("u", opts.U, len(model.U)); err != nil {
			return nil, err
		}
	}
	if err := checkVec("p", opts.P, len(model.P)); err != nil {
		return nil, err
	}
	if err := opts.Options.Validate(); err != nil {
		return nil, err
	}
	if _, err := model.EvalPsi(x0, uAt(opts, opts.T0), opts.P); err != nil {
		var nf *dcs.NonFiniteError
		if errors.As(err, &nf) {
			return nil, fmt.Errorf("%w: %w", ErrNonFinite, err)
		}
		if len(model.Subsystems)+len(model.Steps) > 0 {
			return nil, err
		}
	}
	T := opts.TSim / float64(opts.NSim)
	sim, err := NewSimulator(model, opts.Options, T)
	if err != nil {
		return nil, err
	}
	sim.ColdStart = opts.ColdStart
	sim.Predict = opts.Predict
	res := &SimResult{DCS: sim.d}
	x := clone(x0)
	var stepErr error
	for k := 0; k < opts.NSim; k++ {
		t0 := opts.T0 + float64(k)*T
		u := uAt(opts, t0)
		sr, err := sim.Step(ctx, t0, x, u, opts.P)
		if sr == nil {
			if err == nil {
				err = fmt.Errorf("fesd: step %d returned no result", k)
			}
			return res, fmt.Errorf("fesd: simulation step %d (t = %g): %w", k, t0, err)
		}
		sr.Record.Step = k
		res.Steps = append(res.Steps, sr.Record)
		if err != nil {
			var se *StepError
			if errors.As(err, &se) {
				se.Step = k
			}
			stepErr = err
			break
		}
		if k == 0 {
			res.Z0 = sr.Z0
			res.T = append(res.T, sr.T[0])
			res.X = append(res.X, sr.X[0])
			res.BoundaryZ = append(res.BoundaryZ, sr.BoundaryZ[0])
		}
		res.BoundaryZ = append(res.BoundaryZ, sr.BoundaryZ[1:]...)
		res.T = append(res.T, sr.T[1:]...)
		res.X = append(res.X, sr.X[1:]...)
		res.StageT = append(res.StageT, sr.StageT...)
		res.StageX = append(res.StageX, sr.StageX...)
		res.StageZ = append(res.StageZ, sr.StageZ...)
		res.H = append(res.H, sr.H...)
		for range sr.H {
			res.StepOf = append(res.StepOf, k)
		}
		x = clone(sr.X[len(sr.X)-1])
	}
	if len(res.X) > 0 {
		sw, err := sim.sw.detect(res, opts.P, func(t float64) []float64 { return uAt(opts, t) })
		if err != nil && stepErr == nil {
			return res, err
		}
		res.Switches = sw
	}
	return res, stepErr
}

func uAt(opts SimOptions, t float64) []float64 {
	if opts.UFunc != nil {
		return opts.UFunc(t)
	}
	return opts.U
}
