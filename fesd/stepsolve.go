package fesd

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/fesd-go/fesd/mpcc"
)

// stepState is one simulation step on its way through Simulator.Step: its
// inputs, the start values and bounds of its NLP, and the prediction.
type stepState struct {
	t0        float64
	x0, u, p  []float64
	z0, zb0   []float64 // consistent algebraic values at x₀; start boundary values
	pred      *prediction
	w0, href  []float64 // the prediction's homotopy start and grid (nil: none)
	pv        []float64 // the parameters (with href when predicted)
	xl, xu    []float64 // the variable bounds (start variables fixed)
	branchRec *mpcc.HomotopyStep
	s         *Simulator
	// hw and hpv are the homotopy's last point and its parameters (for
	// the finish, finish.go); deferSens leaves the homotopy point's
	// sensitivities to finishHomotopy; slidBefore: the previous step
	// ended sliding (Simulator.sliding before the step);
	// afterFinishedEnd: Simulator.finishedEnd before the step.
	hw, hpv                                 []float64
	deferSens, slidBefore, afterFinishedEnd bool
}

// newStep checks the inputs of a step and computes its start values.
func (s *Simulator) newStep(t0 float64, x0, u, p []float64) (*stepState, error) {
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
	z0, err := initialGuess(d, x0, u, p)
	if err != nil {
		return nil, err
	}
	return &stepState{t0: t0, x0: x0, u: u, p: p, z0: z0, zb0: s.tr.startValues(d, z0, s.o.switchTol), s: s}, nil
}

// setPrediction takes the prediction pr (nil: none) as the step's.
func (st *stepState) setPrediction(pr *prediction) {
	st.pred = pr
	if pr != nil && pr.elements == 0 {
		st.w0, st.href = pr.w0, pr.href
		st.s.tr.keepStartMultipliers(st.s.d, st.zb0, st.z0, pr)
	}
}

// bounds sets the step's parameters and variable bounds.
func (st *stepState) bounds() {
	s := st.s
	st.pv = s.params(st.t0, st.x0, st.u, st.p, st.href)
	st.xl, st.xu = clone(s.tr.wl), clone(s.tr.wu)
	s.tr.fixStart(s.d, st.xl, st.xu, st.zb0)
}

// branchStep solves the step on its predicted branch (or, without a
// prediction, on the branch that continues the previous step's last
// element). It returns the result when that succeeds, nil otherwise (the
// failed attempt's record is kept in st.branchRec for the homotopy's).
func (s *Simulator) branchStep(ctx context.Context, st *stepState) (*StepResult, error) {
	bp := st.pred
	if bp == nil && !s.ColdStart {
		bp = s.continued(st.zb0)
	}
	wb, pvb, rec, err := s.solveBranch(ctx, bp, st.u, st.p, st.pv, st.xl, st.xu)
	if err == nil && wb == nil && rec != nil {
		// time stepping: stage points at a mode change on their
		// switching surfaces
		for _, bs := range s.atSurfaces(bp) {
			var rs *mpcc.HomotopyStep
			wb, pvb, rs, err = s.solveBranch(ctx, bs, st.u, st.p, st.pv, st.xl, st.xu)
			if rs != nil {
				rs.Iterations += rec.Iterations
				rs.Elapsed += rec.Elapsed
				rec = rs
			}
			if err != nil || wb != nil {
				break
			}
		}
	}
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			// stopped in the branch solve, before the step had a point
			// of its homotopy
			s.prev = nil
			return nil, &StepError{T0: st.t0, Status: mpcc.Cancelled, Cause: cancelled(ctx)}
		}
		return nil, fmt.Errorf("fesd: step at t = %g, predicted branch: %w", st.t0, err)
	}
	if wb != nil {
		sr, err := s.branchResult(st.t0, wb, pvb, st.z0, st.zb0, rec)
		if err == nil && s.Sensitivity {
			sr.Sens, err = s.stepSensitivity(ctx, wb, st.u, st.p, pvb, st.xl, st.xu, s.lastBranch)
		}
		return sr, err
	}
	st.branchRec = rec
	return nil, nil
}

// homotopyStart is a start of a step's homotopy: the point and the
// parameters (their step-equilibration targets).
type homotopyStart struct {
	w, pv []float64
}

// homotopyStarts returns the starts of the step's homotopy, in order:
// those without prediction (the previous step's solution shifted, then the
// cold start), then the prediction's. The shifted start holds the states
// constant at the previous step's end; near a switch it can lead the
// relaxed NLPs astray where the cold start (states along f(x₀)) succeeds,
// as on the relay oscillator's second switch. The predicted start moves
// the element boundaries to the predicted switches before the first
// relaxed NLP, which solves steps that fail from the uniform grid
// (TestPredictIRMAStep); it comes last so that a misleading prediction (a
// stiff mode, a wrong branch) cannot lose a step that solves without it.
func (s *Simulator) homotopyStarts(st *stepState) ([]homotopyStart, error) {
	tr, d := s.tr, s.d
	pvu := st.pv // the uniform step-equilibration targets
	if st.href != nil {
		pvu = s.params(st.t0, st.x0, st.u, st.p, nil)
	}
	var starts []homotopyStart
	if s.prev != nil && !s.ColdStart {
		w := make([]float64, tr.numW)
		tr.shifted(w, s.prev, st.zb0)
		starts = append(starts, homotopyStart{w, pvu})
	}
	f0, err := d.EvalF(st.x0, st.u, st.p, st.z0, st.t0)
	if err != nil {
		return nil, err
	}
	wc := make([]float64, tr.numW)
	tr.fillStart(wc, tr.uniform(st.x0, st.z0, f0, st.zb0), s.o.Representation, d)
	starts = append(starts, homotopyStart{wc, pvu})
	if st.w0 != nil {
		starts = append(starts, homotopyStart{st.w0, st.pv})
	}
	return starts, nil
}

// homotopyStep solves the step by the MPCC homotopy from its starts (the
// first that succeeds) and returns its result, with a *StepError when none
// does.
func (s *Simulator) homotopyStep(ctx context.Context, st *stepState) (*StepResult, error) {
	tr := s.tr
	starts, err := s.homotopyStarts(st)
	if err != nil {
		return nil, err
	}
	var res *mpcc.Result
	var failed []*mpcc.Result
	pv := st.pv
	for i, hs := range starts {
		if err := tr.prob.SetParams(hs.pv); err != nil {
			return nil, err
		}
		if res != nil {
			failed = append(failed, res)
		}
		if res, err = s.homotopy(ctx, hs.w, st.xl, st.xu); err != nil && !stoppedByContext(res, err) {
			return nil, fmt.Errorf("fesd: step at t = %g, start %d of %d: %w", st.t0, i+1, len(starts), err)
		}
		pv = hs.pv
		if res.Status == mpcc.Solved || res.Status == mpcc.Cancelled {
			break
		}
	}
	if res.Status == mpcc.Cancelled && len(res.X) != tr.numW {
		s.prev = nil
		return nil, fmt.Errorf("fesd: step at t = %g stopped before its first point: %w", st.t0, cancelled(ctx))
	}
	if len(res.X) == tr.numW {
		st.hw, st.hpv = res.X, pv
	}
	rec := s.homotopyRecord(st, res, failed)
	sr := &StepResult{Record: rec}
	out, err := tr.outputs(res.X, pv)
	if err != nil {
		return nil, err
	}
	sr.Trajectory.fill(tr, res.X, out, st.zb0)
	sr.Z0 = st.z0
	if res.Status != mpcc.Solved {
		s.prev = nil
		return sr, s.stepError(ctx, st, res)
	}
	s.prev = res.X
	if s.Sensitivity && !st.deferSens {
		if sr.Sens, err = s.stepSensitivity(ctx, res.X, st.u, st.p, pv, st.xl, st.xu, nil); err != nil {
			return sr, err
		}
	}
	return sr, nil
}

// homotopyRecord is the record of a step solved (or not) by the homotopy
// res after the failed ones and the failed branch solve of st.
func (s *Simulator) homotopyRecord(st *stepState, res *mpcc.Result, failed []*mpcc.Result) StepRecord {
	rec := StepRecord{
		T0: st.t0, T1: st.t0 + s.T, Status: res.Status, Homotopy: res.Steps,
		CompResidual: res.CompResidual, NaturalResidual: res.NaturalResidual, Elapsed: res.Elapsed,
	}
	rec.Stationarity = res.Stationarity
	// the certificate's (and any finish's) NLP iterations
	rec.Iterations += res.FinishIterations
	if len(failed) > 0 {
		// the failed homotopies first
		rec.ColdRetry = true
		var hs []mpcc.HomotopyStep
		for _, f := range failed {
			rec.Iterations += f.FinishIterations
			hs = append(hs, f.Steps...)
			rec.Elapsed += f.Elapsed
		}
		rec.Homotopy = append(hs, rec.Homotopy...)
	}
	if st.branchRec != nil {
		// the failed branch solve first: its iterations count
		rec.Homotopy = append([]mpcc.HomotopyStep{*st.branchRec}, rec.Homotopy...)
		rec.Elapsed += st.branchRec.Elapsed
	}
	for _, h := range rec.Homotopy {
		rec.Iterations += h.Iterations
	}
	return rec
}

// stepError is the error of a step whose homotopy res did not solve it.
func (s *Simulator) stepError(ctx context.Context, st *stepState, res *mpcc.Result) *StepError {
	se := &StepError{T0: st.t0, Status: res.Status, CompResidual: res.CompResidual}
	if n := len(res.Steps); n > 0 {
		se.NLPStatus, se.Sigma = res.Steps[n-1].Status, res.Steps[n-1].Sigma
	}
	if res.Status == mpcc.Cancelled {
		se.Cause = cancelled(ctx)
	} else if s.tr.NE == 1 {
		// One element cannot put a boundary at a switch inside the step
		// (004 §4: FESD moves the element boundaries onto the switches).
		// Say so when the predictor sees one.
		if ts, ok, err := s.PredictEvents(st.t0, st.x0, st.u, st.p); err == nil && ok && len(ts) > 0 {
			se.SwitchAt, se.Cause = ts[0], ErrSwitchInStep
		}
	}
	return se
}

// rescueStep solves a step whose homotopies failed without prediction
// (Simulator.NoPredict; its failed result is failed) on its predicted
// branch, with more elements when the prediction needs them. It returns
// nil when the prediction declines or its branch fails too.
func (s *Simulator) rescueStep(ctx context.Context, st *stepState, failed *StepResult) (*StepResult, error) {
	pr := s.predictStart(st.t0, st.x0, st.u, st.p, st.zb0)
	if pr == nil {
		return nil, nil
	}
	var sr *StepResult
	var err error
	if pr.elements > s.tr.NE {
		if s.tr.NE >= maxRefinedElements {
			return nil, nil
		}
		sr, err = s.refinedStep(ctx, pr.elements, st.t0, st.x0, st.u, st.p, false)
	} else {
		st.setPrediction(pr)
		st.bounds()
		st.branchRec = nil
		sr, err = s.branchStep(ctx, st)
	}
	if sr == nil || err != nil {
		var se *StepError
		if errors.As(err, &se) && se.Status == mpcc.Cancelled {
			return sr, err
		}
		return nil, nil
	}
	rec := &sr.Record
	rec.Rescued = true
	rec.Homotopy = append(append([]mpcc.HomotopyStep(nil), failed.Record.Homotopy...), rec.Homotopy...)
	rec.Iterations += failed.Record.Iterations
	rec.Elapsed += failed.Record.Elapsed
	return sr, nil
}
