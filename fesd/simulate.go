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

// Simulator integrates a model step by step, each step of a fixed length T
// with the FESD transcription: every step is the one-stage OCP with a
// fixed control, built and compiled once by NewSimulator (the same
// transcription as NewOCPSolver). Every Step only sets the parameters (x₀,
// u, p, t₀), the bounds of the start variables and the starting point.
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
	inner  *mpcc.NLPSolver
	ocp    *OCP           // the one-stage problem of a step
	sensTr *transcription // the sensitivity NLP (sensitivity.go), compiled on first use
	// lastBranch is the last successful branch solve (for its
	// sensitivities).
	lastBranch *branchSolution
	// finishedEnd is set when the previous step was finished (finish.go)
	// for a switch near its end or an end state near a surface: the next
	// step, which starts there, is finished too.
	finishedEnd bool
	// Sensitivity makes every successful Step compute the derivatives of
	// its end state with respect to x₀, u and p (StepResult.Sens).
	Sensitivity bool
	// branch solves the steps on their predicted branch (an NLP of another
	// structure than the relaxed ones, so it has its own workspace).
	branch *mpcc.NLPSolver
	// branchRetry solves a stuck branch once more (branchRetrySolver).
	branchRetry *mpcc.NLPSolver
	// refined are simulators of the same step with more finite elements,
	// by their number, for steps with more predicted switches than
	// N_FE − 1 (refinedStep).
	refined map[int]*Simulator
	opts    Options
	// ColdStart makes every Step start from the model's consistent
	// algebraic values at x₀ instead of the previous step's solution
	// (default false).
	ColdStart bool
	// NoPredict starts every step without the event-driven prediction
	// (default false: with it, for a Simulator as for Simulate): from the
	// previous step's solution, shifted, then from the cold start. A
	// homotopy point with a switch, or with its start or end state near a
	// switching surface, is then finished on its own branch, with its
	// element boundaries moved onto the switches (StepRecord.Finished; see
	// finish.go; not with Options.MPCC.Finish = CertifyOnly or
	// NoCertificate, which keep the homotopy point). Only a step whose
	// homotopies fail from both starts and whose finish fails too is
	// solved on its predicted branch (StepRecord.Rescued), so that
	// switching the prediction off cannot lose a step either. With it on,
	// every step is first solved on the branch of an event-driven explicit prediction
	// (see PredictEvents): the element boundaries at the predicted switch
	// times, the stage points at the predicted states with the algebraic
	// values of their element's mode, the vanishing side of every
	// complementarity pair fixed at zero. A branch that fails — a wrong
	// prediction, or none at all because the explicit integration is
	// unstable — leaves the step to the homotopy from the start NoPredict
	// uses (the previous step's solution, shifted, then the cold start),
	// and only when that fails too from the prediction: the prediction can
	// cost iterations but cannot lose a step that solves without it.
	NoPredict bool
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
	// Iterations is the total number of NLP iterations of the step: its
	// branch solve, homotopy steps, certificate and finish.
	Iterations int
	// CompResidual and NaturalResidual are the final complementarity
	// residuals of mpcc.Problem.Residuals (the max of the summed terms,
	// so they depend on the cross-complementarity mode).
	CompResidual, NaturalResidual float64
	Elapsed                       time.Duration
	// Stationarity is the certified class of a homotopy's point
	// (mpcc.Result.Stationarity; NotCertified for a step solved on its
	// branch, whose complementarity holds exactly by construction).
	Stationarity mpcc.Stationarity
	// Branch is set when the step was solved on the branch its prediction
	// gave (Simulator.NoPredict unset): one NLP with the vanishing side of every
	// complementarity pair fixed at zero, recorded as the homotopy step
	// σ = 0. A failed branch solve is the first record of a step solved by
	// the homotopy.
	Branch bool
	// Rescued is set when the homotopy without prediction failed from every
	// start (Simulator.NoPredict) and the step was solved on its predicted
	// branch; Homotopy then holds the failed homotopies' records first.
	Rescued bool
	// Finished is set when the step was solved by the homotopy
	// (Simulator.NoPredict) and then once more on the branch of the
	// homotopy's point, with its element boundaries moved onto the
	// switches (the active-set finish, finish.go); Homotopy then holds the
	// homotopy's records and the branch solve's last.
	Finished bool
	// ColdRetry is set when the homotopy from the step's first start (the
	// previous step's solution, shifted) failed and it was run again from
	// the next (the cold start, then the prediction's; see
	// Simulator.NoPredict); Homotopy then holds the records of all of
	// them.
	ColdRetry bool
	// Depth is 0 for a whole simulation step and d ≥ 1 for a piece of
	// length T/2^d: Simulate solves a step whose solve failed again as two
	// halves, recursively down to MaxSplitDepth, and splits a step with
	// more predicted switches than interior element boundaries before it
	// is tried (split.go). Every piece
	// has its own record, Step is the index of the step it belongs to, and
	// the pieces of a step follow each other in SimResult.Steps with
	// [T0, T1] covering the step.
	Depth int
	// Splits counts the failed solves folded into this record: the first
	// piece after a failed solve holds that solve's homotopy records first
	// in Homotopy, and its iterations and time in Iterations and Elapsed
	// (2 for the first piece of depth 2 when the step and its first half
	// failed).
	Splits int
	// SplitIterations are the NLP iterations of those failed solves
	// (included in Iterations).
	SplitIterations int
}

// StepResult is the solution of one control interval: its Trajectory has
// N_FE elements (all of stage 0) and no switches (Simulate detects them
// over the whole simulation).
type StepResult struct {
	Record StepRecord
	Trajectory
	// Sens are the derivatives of the end state with respect to x₀, u
	// and p (Simulator.Sensitivity; nil otherwise).
	Sens *Sensitivity
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
	if h := T / float64(o.NFE*o.Stages*predictSubsteps); h < minNormal {
		return nil, fmt.Errorf("%w: interval length T = %g is too short to resolve (its stage points would be %g apart)", ErrHorizon, T, h)
	}
	d, err := model.Reformulate(o.DCS)
	if err != nil {
		return nil, err
	}
	p := &OCP{Model: d.Model(), X0: make([]float64, len(model.X)), N: 1, T: T, NFE: []int{o.NFE}, P: make([]float64, len(model.P))}
	tr, err := newTranscription(p, d, o, true)
	if err != nil {
		return nil, err
	}
	sw, err := newSwitchInfo(d, o)
	if err != nil {
		return nil, err
	}
	return &Simulator{model: model, d: d, o: o, tr: tr, T: T, sw: sw, ocp: p, opts: opts}, nil
}

// minNormal is the smallest positive normal float64.
const minNormal = 0x1p-1022

// maxRefinedElements bounds the number of finite elements of a refined
// step (refinedStep).
const maxRefinedElements = 16

// refinedStep solves a step whose prediction has more switches than its
// N_FE − 1 interior element boundaries with a transcription of the same
// step with ne elements (compiled on first use and kept), so that every
// switch gets an element boundary: a step with one element and one switch
// inside it is solved with two. Its result has ne elements; the
// simulator's next step starts without a shifted start (the refined step's
// solution has another layout).
func (s *Simulator) refinedStep(ctx context.Context, ne int, t0 float64, x0, u, p []float64, noPredict bool) (*StepResult, error) {
	r, err := s.refinedSimulator(ne)
	if err != nil {
		return nil, err
	}
	r.Sensitivity, r.ColdStart, r.NoPredict = s.Sensitivity, s.ColdStart, noPredict
	r.prev, r.lastBranch = nil, nil
	sr, err := r.Step(ctx, t0, x0, u, p)
	s.prev, s.lastBranch = nil, nil
	return sr, err
}

// refinedSimulator returns the simulator of the same step with ne
// elements (at most maxRefinedElements), compiled on first use and kept.
func (s *Simulator) refinedSimulator(ne int) (*Simulator, error) {
	if ne > maxRefinedElements {
		ne = maxRefinedElements
	}
	r := s.refined[ne]
	if r == nil {
		o := s.opts
		o.NFE = ne
		var err error
		if r, err = NewSimulator(s.model, o, s.T); err != nil {
			return nil, err
		}
		if s.refined == nil {
			s.refined = map[int]*Simulator{}
		}
		s.refined[ne] = r
	}
	return r, nil
}

// DCS returns the complementarity system the simulator transcribes (nil
// for a nil Simulator; the Num methods return 0 for a nil or zero one).
func (s *Simulator) DCS() *dcs.DCS {
	if s == nil {
		return nil
	}
	return s.d
}

// NumVariables returns the number of variables of the NLP of one interval.
func (s *Simulator) NumVariables() int {
	if s == nil || s.tr == nil {
		return 0
	}
	return s.tr.numW
}

// NumConstraints returns the number of constraints of the NLP.
func (s *Simulator) NumConstraints() int {
	if s == nil || s.tr == nil {
		return 0
	}
	return s.tr.numC
}

// NumComplementarities returns the number of complementarity terms.
func (s *Simulator) NumComplementarities() int {
	if s == nil || s.tr == nil {
		return 0
	}
	return len(s.tr.comp)
}

// Reset forgets the previous solution (the next Step starts cold).
func (s *Simulator) Reset() {
	if s != nil {
		s.prev, s.finishedEnd = nil, false
	}
}

// params returns the parameter vector of one step; href are the targets of
// the HeuristicMean step equilibration (nil: uniform).
func (s *Simulator) params(t0 float64, x0, u, p, href []float64) []float64 {
	tr := s.tr
	pv := clone(tr.pvals)
	copy(pv[tr.px0:], x0)
	copy(pv[tr.pu[0]:], u)
	for i, k := range tr.pp[0] {
		pv[k] = p[i]
	}
	pv[tr.pt0] = t0
	if tr.phref >= 0 && href != nil {
		copy(pv[tr.phref:], href)
	}
	return pv
}

// Step solves the control interval [t0, t0 + T] from x0 with the constant
// control u and the parameters p. A homotopy that does not reach
// mpcc.Solved gives the result together with a *StepError (wrapping
// ErrStepFailed); errors for bad inputs come with a nil result.
//
// Cancellation (see the package documentation): a context done before the
// call gives a nil result and an error wrapping ctx.Err(); a context done
// during the solve gives the result at the last point with a *StepError of
// Status mpcc.Cancelled that wraps ctx.Err(), or a nil result and such an
// error when the solve stopped before it had a point.
func (s *Simulator) Step(ctx context.Context, t0 float64, x0, u, p []float64) (*StepResult, error) {
	if s == nil || s.tr == nil {
		return nil, ErrNilSolver
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fesd: step at t = %g not started: %w", t0, err)
	}
	st, err := s.newStep(t0, x0, u, p)
	if err != nil {
		return nil, err
	}
	if !s.NoPredict {
		st.setPrediction(s.predictStart(t0, x0, u, p, st.zb0))
		if pr := st.pred; pr != nil && pr.elements > s.tr.NE && s.tr.NE < maxRefinedElements {
			return s.refinedStep(ctx, pr.elements, t0, x0, u, p, false)
		}
	}
	st.bounds()
	if !s.NoPredict {
		sr, err := s.branchStep(ctx, st)
		if sr != nil || err != nil {
			return sr, err
		}
	}
	st.deferSens = s.NoPredict
	if fr, _ := s.sliding(); fr != nil {
		st.slidBefore = true
	}
	st.afterFinishedEnd, s.finishedEnd = s.finishedEnd, false
	sr, err := s.homotopyStep(ctx, st)
	if s.NoPredict {
		sr, err = s.finishHomotopy(ctx, st, sr, err)
	}
	var se *StepError
	if s.NoPredict && errors.As(err, &se) && se.Status != mpcc.Cancelled && sr != nil {
		if rs, rerr := s.rescueStep(ctx, st, sr); rs != nil || rerr != nil {
			return rs, rerr
		}
	}
	return sr, err
}

// homotopy runs the MPCC homotopy of the step's NLP (parameters set) from
// w0 within the bounds xl, xu.
func (s *Simulator) homotopy(ctx context.Context, w0, xl, xu []float64) (*mpcc.Result, error) {
	tr := s.tr
	if err := tr.prob.SetVarBounds(xl, xu); err != nil {
		return nil, err
	}
	w := clone(w0)
	for k := range w { // the start must respect the (new) bounds
		w[k] = math.Min(math.Max(w[k], xl[k]), xu[k])
	}
	if err := tr.prob.SetStart(w); err != nil {
		return nil, err
	}
	solver := mpcc.Solver{Settings: s.o.MPCC, Inner: s.o.Inner}
	if solver.Settings.Finish == mpcc.FinishDefault {
		// A simulation step keeps its homotopy point and only certifies
		// it: the active-set finish may move to another solution of the
		// step's MPCC (on the time-freezing drop of package dcs, one whose
		// impact is not on an element boundary, 5.4e-5 off the closed
		// form). Options.MPCC.Finish = ActiveSetFinish asks for it.
		solver.Settings.Finish = mpcc.CertifyOnly
	}
	if solver.Inner == nil {
		if s.inner == nil {
			s.inner = &mpcc.NLPSolver{Settings: s.o.nlpSettings()}
		}
		solver.Inner = s.inner
	}
	return solver.Solve(ctx, &mpcc.Problem{NLP: tr.prob, Comp: tr.comp})
}

// branchResult is the result of a step solved on its predicted branch.
func (s *Simulator) branchResult(t0 float64, w, pv, z0, zb0 []float64, br *mpcc.HomotopyStep) (*StepResult, error) {
	tr := s.tr
	rec := StepRecord{
		T0: t0, T1: t0 + s.T, Status: mpcc.Solved, Homotopy: []mpcc.HomotopyStep{*br},
		Iterations: br.Iterations, CompResidual: br.CompResidual, NaturalResidual: br.NaturalResidual,
		Elapsed: br.Elapsed, Branch: true,
	}
	sr := &StepResult{Record: rec}
	out, err := tr.outputs(w, pv)
	if err != nil {
		return nil, err
	}
	sr.Trajectory.fill(tr, w, out, zb0)
	sr.Z0 = z0
	s.prev = w
	return sr, nil
}

// SimOptions configures Simulate. TSim and NSim are required, and U (or
// UFunc) and P when the model has controls and parameters; the other zero
// fields mean their defaults.
type SimOptions struct {
	// Options are the settings of the transcription and of the homotopy
	// (zero value: nosnoc's defaults, see Options).
	Options Options
	// TSim is the length of the simulation (required, > 0).
	TSim float64
	// NSim is the number of simulation steps (required, ≥ 1). Each step is
	// one control stage of length T = TSim/NSim with Options.NFE finite
	// elements.
	NSim int
	// T0 is the start time (default 0).
	T0 float64
	// U is the constant control, of length n_u (nil for a model without
	// controls; ignored if UFunc is set).
	U []float64
	// UFunc, if not nil, gives the control of each step from the step's
	// start time (nil: U).
	UFunc func(t float64) []float64
	// P are the parameter values, of length n_p (nil for a model without
	// parameters).
	P []float64
	// ColdStart starts every step from the model's consistent algebraic
	// values at its x₀ (default false: from the previous step's solution,
	// shifted).
	ColdStart bool
	// Sensitivity computes the derivatives of the final state with
	// respect to x₀, p and the constant control U (SimResult.Sensitivity;
	// sensitivity.go describes the method). Where they would not be
	// reliable — with NoPredict, a switch within 1e-6 step lengths of a
	// step boundary next to a step that the homotopy solved and its finish
	// did not (StepRecord.Finished) — Simulate returns the trajectory
	// without them and an error wrapping ErrSensitivity.
	Sensitivity bool
	// Progress, if not nil, is called with the record of every step (or
	// piece of a split step) as soon as it is solved, from the goroutine
	// that runs Simulate: for a progress display.
	Progress func(StepRecord)
	// NoPredict switches off the event-driven prediction (default false:
	// on; see Simulator.NoPredict). With it on, every step is first solved on
	// the branch the predictor gives (the mode of every finite element,
	// the element boundaries at the predicted switches), which is verified
	// (complementarity, the Filippov sign conditions, the switches on
	// element boundaries) and falls back to the homotopy, started from the
	// prediction, when it fails.
	NoPredict bool
}

// SimResult is the outcome of Simulate: the trajectory of all steps (the
// stages of its grid are the simulation steps) with the detected switches,
// and one solver record per step.
type SimResult struct {
	Trajectory
	// Steps has one solver record per simulation step, or per piece of a
	// split step (StepRecord.Depth), including a failed last one.
	Steps []StepRecord
	// Sensitivity holds ∂x(T0 + TSim)/∂(x₀, u, p) (SimOptions.Sensitivity;
	// DU only for a constant control U).
	Sensitivity *Sensitivity
	// Validity is the physical validity of the trajectory of a
	// time-freezing model (dcs.NewTimeFreezing; nil for other models),
	// with the default ValidityTolerances and no clock item: drift below
	// the ground while the clock advances, phantom contact, flight phases
	// and landings. Simulate reports it and does not fail on it; check
	// Validity.Valid (or call TimeFreezingValidity with other tolerances).
	Validity *Validity
}

// Simulate integrates the model from x0 over [T0, T0 + TSim] in NSim steps
// of NFE finite elements each. A step whose solve fails, or (with the
// prediction) whose predicted switches outnumber its interior element
// boundaries, is solved as two halves, recursively down to
// T/2^MaxSplitDepth (StepRecord.Depth).
// On a piece that fails at that depth it returns what was computed up to
// it (with the failed piece's record) and a *StepError naming the step.
//
// A context done before the call gives a nil result and an error wrapping
// ctx.Err(); a context done during the simulation gives the steps computed
// so far and an error wrapping ctx.Err() (errors.Is(err,
// context.Canceled)). The model is only read: several goroutines may
// simulate one model at once.
func Simulate(ctx context.Context, model *dcs.Model, x0 []float64, opts SimOptions) (*SimResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fesd: simulation not started: %w", err)
	}
	if err := checkSimulation(model, x0, opts); err != nil {
		return nil, err
	}
	T := opts.TSim / float64(opts.NSim)
	sim, err := NewSimulator(model, opts.Options, T)
	if err != nil {
		return nil, err
	}
	sim.ColdStart = opts.ColdStart
	sim.NoPredict = opts.NoPredict
	sim.Sensitivity = opts.Sensitivity
	res := &SimResult{Trajectory: Trajectory{DCS: sim.d}}
	x := clone(x0)
	var us [][]float64 // the control of every step
	// the sensitivities, first elements and steps of the pieces
	var sens []*Sensitivity
	var first, pieceStep []int
	var stepErr error
	k := 0 // the step being solved
	sp := &splitter{sims: []*Simulator{sim}, opts: &opts, emit: func(sr *StepResult) {
		sr.Record.Step = k
		res.Steps = append(res.Steps, sr.Record)
		first = append(first, len(res.H))
		pieceStep = append(pieceStep, k)
		res.Trajectory.appendStep(&sr.Trajectory, k)
		if sr.Sens != nil {
			sens = append(sens, sr.Sens)
		}
		if opts.Progress != nil {
			opts.Progress(sr.Record)
		}
	}}
	for ; k < opts.NSim; k++ {
		t0 := opts.T0 + float64(k)*T
		u := uAt(opts, t0)
		us = append(us, u)
		x1, failed, err := sp.solve(ctx, t0, x, u, 0, nil)
		if err == nil {
			x = clone(x1)
			continue
		}
		if failed == nil {
			return res, fmt.Errorf("fesd: simulation step %d (t = %g): %w", k, t0, err)
		}
		failed.Record.Step = k
		res.Steps = append(res.Steps, failed.Record)
		var se *StepError
		if errors.As(err, &se) {
			se.Step = k
		}
		stepErr = err
		break
	}
	if len(res.X) > 0 {
		sw, err := sim.sw.detect(&res.Trajectory,
			func(n int) []float64 { return us[res.StageOf[n]] },
			func(int) []float64 { return opts.P })
		if err != nil && stepErr == nil {
			return res, err
		}
		res.Switches = sw
		if tf := model.TimeFreezing(); tf != nil {
			v, verr := TimeFreezingValidity(tf, &res.Trajectory, opts.P, ValidityTolerances{})
			if verr != nil && stepErr == nil {
				return res, verr
			}
			res.Validity = v
		}
		if len(sens) > 0 && len(sens) == len(first) && err == nil {
			tot, err := sim.sw.chainSimulation(&res.Trajectory, sens, first,
				func(i int) []float64 { return us[pieceStep[i]] }, func(int) []float64 { return opts.P })
			if err != nil && stepErr == nil {
				return res, err
			}
			res.Sensitivity = tot
			if opts.NoPredict && stepErr == nil {
				if t, ok := switchNearStepBoundary(res, T); ok {
					res.Sensitivity = nil
					return res, fmt.Errorf("%w: a switch at t = %.17g lies within 1e-6 step lengths of a step boundary next to a step solved by the homotopy without prediction (SimOptions.NoPredict), where the sensitivities are not reliable", ErrSensitivity, t)
				}
			}
		}
	}
	return res, stepErr
}

// switchNearStepBoundary returns the time of the first switch of r within
// 1e-6 step lengths T of a boundary between two simulation steps (or
// pieces of a split step, StepRecord.Depth) of which one was solved by the homotopy and not on a branch,
// neither its predicted one (StepRecord.Branch) nor its point's
// (StepRecord.Finished). Such a step was solved with its start
// multipliers rounded to zero within SwitchTol and no element placed at
// the switch, and its sensitivity, chained with the saltation at the
// boundary, can be wrong (measured before the finish: in the matrix of
// TestSwitchAtStepBoundaries without prediction, 51 of 264 derivatives,
// all with a switch that close). With the finish no case of
// TestSwitchAtStepBoundariesNoPredict reaches it; it remains for a
// finish that fails.
func switchNearStepBoundary(r *SimResult, T float64) (float64, bool) {
	for _, sw := range r.Switches {
		// the boundaries between steps, and between the pieces of a
		// split step, are the starts of the records after the first
		for i := 1; i < len(r.Steps); i++ {
			if math.Abs(sw.Time-r.Steps[i].T0) <= 1e-6*T && (!r.Steps[i-1].exact() || !r.Steps[i].exact()) {
				return sw.Time, true
			}
		}
	}
	return 0, false
}

// exact reports whether the step was solved on a branch: its predicted one
// or, after its homotopy, its point's (Branch, Finished).
func (r StepRecord) exact() bool { return r.Branch || r.Finished }

// checkHorizon checks the horizon of a simulation: NSim ≥ 1 steps of
// TSim/NSim > 0 from a finite T0 that advance the time.
func checkHorizon(opts SimOptions) error {
	if opts.NSim < 1 {
		return fmt.Errorf("%w: NSim = %d < 1", ErrHorizon, opts.NSim)
	}
	if !(opts.TSim > 0) || math.IsInf(opts.TSim, 0) {
		return fmt.Errorf("%w: TSim = %g must be positive and finite", ErrHorizon, opts.TSim)
	}
	if math.IsNaN(opts.T0) || math.IsInf(opts.T0, 0) {
		return fmt.Errorf("%w: T0 = %g", ErrHorizon, opts.T0)
	}
	if T := opts.TSim / float64(opts.NSim); opts.T0+T == opts.T0 || opts.T0+opts.TSim == opts.T0 {
		return fmt.Errorf("%w: steps of %g from T0 = %g do not advance the time", ErrHorizon, T, opts.T0)
	}
	return nil
}

// checkSimulation checks the inputs of Simulate.
func checkSimulation(model *dcs.Model, x0 []float64, opts SimOptions) error {
	if model == nil {
		return ErrNilModel
	}
	if err := checkHorizon(opts); err != nil {
		return err
	}
	if err := checkVec("x0", x0, len(model.X)); err != nil {
		return err
	}
	if opts.UFunc == nil {
		if err := checkVec("u", opts.U, len(model.U)); err != nil {
			return err
		}
	}
	if err := checkVec("p", opts.P, len(model.P)); err != nil {
		return err
	}
	if err := opts.Options.Validate(); err != nil {
		return err
	}
	if _, err := model.EvalPsi(x0, uAt(opts, opts.T0), opts.P); err != nil {
		var nf *dcs.NonFiniteError
		if errors.As(err, &nf) {
			return fmt.Errorf("%w: %w", ErrNonFinite, err)
		}
		if len(model.Subsystems)+len(model.Steps) > 0 {
			return err
		}
	}
	return nil
}

func uAt(opts SimOptions, t float64) []float64 {
	if opts.UFunc != nil {
		return opts.UFunc(t)
	}
	return opts.U
}
