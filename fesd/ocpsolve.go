package fesd

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// OCPSolver holds the compiled FESD NLP of an OCP. NewOCPSolver builds and
// compiles it once; Solve runs the MPCC homotopy from a Start, as often as
// needed; SetX0 changes the initial state (a parameter of the NLP) for
// another solve, as in model-predictive control; WithHomotopy gives a
// solver with other homotopy settings on the same NLP; Evaluate turns an
// NLP point into a result.
//
// An OCPSolver is not safe for concurrent use.
type OCPSolver struct {
	p  OCP
	o  *resolved
	tr *transcription
	// sw reads the switches of the results (nil: a system without a
	// switch read-out, a CLS)
	sw *switchInfo
	// sys is the system's part of a solve (nil: the DCS's, dcsSystem)
	sys ocpSystem
	// valid checks the physical validity of the results of a
	// time-freezing model (nil for other models).
	valid *validator
	x0    []float64
	t0    float64
	inner *mpcc.NLPSolver // kept across solves (KKT analysis reused)
	// innerAlt runs the second homotopy of a failed solve with the
	// default inner settings (ocpFallbackPolicy), made on first use.
	innerAlt *mpcc.NLPSolver
	// sensTr and sensInner compute sensitivities (sensitivity.go), made on
	// first use.
	sensTr    *transcription
	sensInner *mpcc.NLPSolver
	// shiftCons and shiftTerms match the constraints and complementarity
	// terms with those one stage later (Shift), made on first use.
	shiftCons, shiftTerms []int
	// guided solves the guided steps of Options.Guide (nil without a
	// guide; ocpguide.go).
	guided *OCPSolver
	// BuildTime is the time NewOCPSolver took (transcription, derivatives
	// and compilation).
	BuildTime time.Duration
}

// NewOCPSolver validates the problem and the settings, reformulates the
// model with opts.DCS (for OCP.CLS: copies the system, opts.DCS is not
// used), builds the NLP of all stages and compiles it. The OCP is copied
// (later changes to p have no effect).
func NewOCPSolver(p *OCP, opts Options) (*OCPSolver, error) {
	start := time.Now()
	if err := p.validate(); err != nil {
		return nil, err
	}
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	if p.CLS != nil {
		s, err := newCLSOCPSolver(p, o)
		if err != nil {
			return nil, err
		}
		s.BuildTime = time.Since(start)
		return s, nil
	}
	d, err := p.Model.Reformulate(o.DCS)
	if err != nil {
		return nil, err
	}
	tr, err := newTranscription(p, d, o, false)
	if err != nil {
		return nil, err
	}
	sw, err := newSwitchInfo(d, o)
	if err != nil {
		return nil, err
	}
	s := &OCPSolver{p: *tr.p, o: o, tr: tr, sw: sw, x0: clone(p.X0), t0: p.T0}
	if tf := p.Model.TimeFreezing(); tf != nil {
		if s.valid, err = newValidator(tf); err != nil {
			return nil, err
		}
	}
	if opts.Guide != nil {
		if s.guided, err = newGuided(p, opts); err != nil {
			return nil, err
		}
	}
	s.BuildTime = time.Since(start)
	return s, nil
}

// SolveOCP builds the problem and solves it once from start (see
// OCPSolver.Solve for the results and errors, also on cancellation).
func SolveOCP(ctx context.Context, p *OCP, opts Options, start Start) (*OCPResult, error) {
	if ctx != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("fesd: OCP solve not started: %w", ctx.Err())
	}
	s, err := NewOCPSolver(p, opts)
	if err != nil {
		return nil, err
	}
	return s.Solve(ctx, start)
}

// WithHomotopy returns a solver for the same compiled NLP with other
// homotopy settings, for example a few more steps with a smaller σ₀ from a
// previous result (Start.Warm), or the exact ℓ1 penalty from a point the
// Scholtes relaxation reached. The relaxation must allow the OCP's cross
// complementarity form (Options.Validate). The two solvers share the NLP:
// use them one at a time.
func (s *OCPSolver) WithHomotopy(set mpcc.Settings) (*OCPSolver, error) {
	if s == nil || s.tr == nil {
		return nil, ErrNilSolver
	}
	o := s.o.Options
	o.MPCC = set
	r, err := o.resolve()
	if err != nil {
		return nil, err
	}
	c := *s
	ro := *s.o
	ro.MPCC = r.MPCC
	s.system().homotopy(&ro.MPCC)
	c.o = &ro
	c.inner, c.innerAlt = nil, nil
	c.x0 = clone(s.x0)
	return &c, nil
}

// DCS returns the complementarity system the solver transcribes (nil for a
// nil or zero-value solver). For an OCP on a CLS it holds the symbols of
// the solver's copy of the system only (X = (q, v), U, P and a time
// symbol): FESD-J declares its own variables.
func (s *OCPSolver) DCS() *dcs.DCS {
	if s == nil || s.tr == nil {
		return nil
	}
	return s.tr.d
}

// NumVariables returns the number of NLP variables (0 for a nil or
// zero-value solver).
func (s *OCPSolver) NumVariables() int {
	if s == nil || s.tr == nil {
		return 0
	}
	return s.tr.numW
}

// NumConstraints returns the number of NLP constraints (0 for a nil or
// zero-value solver).
func (s *OCPSolver) NumConstraints() int {
	if s == nil || s.tr == nil {
		return 0
	}
	return s.tr.numC
}

// NumComplementarities returns the number of complementarity terms (0 for
// a nil or zero-value solver).
func (s *OCPSolver) NumComplementarities() int {
	if s == nil || s.tr == nil {
		return 0
	}
	return len(s.tr.comp)
}

// SetT0 changes the start time of the horizon for the next Solve (the
// OCP's T0; a receding horizon moves it). A nil or zero-value solver gives
// ErrNilSolver.
func (s *OCPSolver) SetT0(t0 float64) error {
	if s == nil || s.tr == nil {
		return ErrNilSolver
	}
	if math.IsNaN(t0) || math.IsInf(t0, 0) {
		return fmt.Errorf("%w: start time %g", ErrHorizon, t0)
	}
	s.t0 = t0
	return nil
}

// SetX0 changes the initial state for the next Solve.
func (s *OCPSolver) SetX0(x0 []float64) error {
	if s == nil || s.tr == nil {
		return ErrNilSolver
	}
	if err := checkVec("x0", x0, s.tr.nx); err != nil {
		return err
	}
	s.x0 = clone(x0)
	return nil
}

// params returns the parameter vector of the NLP: the OCP's values with
// the current x₀.
func (s *OCPSolver) params() []float64 {
	pv := clone(s.tr.pvals)
	copy(pv[s.tr.px0:], s.x0)
	pv[s.tr.pt0] = s.t0
	return pv
}

// Evaluate returns the result at the NLP point w without solving (for
// example a solution saved with NLPSolution, to plot it or to initialize
// another grid through Start.InitFrom): the trajectory, controls, times,
// algebraic variables, objective and the complementarity residuals at w.
// Its Status is mpcc.NotSolved and it has no homotopy record.
func (s *OCPSolver) Evaluate(w []float64) (*OCPResult, error) {
	if s == nil || s.tr == nil {
		return nil, ErrNilSolver
	}
	tr := s.tr
	if err := checkWarm(w, tr.numW); err != nil {
		return nil, err
	}
	zb0, err := s.startValues(Start{})
	if err != nil {
		return nil, err
	}
	r := &OCPResult{Status: mpcc.NotSolved}
	if err := s.fill(r, w, zb0); err != nil {
		return nil, err
	}
	return r, nil
}

// infeasibility returns the largest violation at w of the NLP's
// constraints and variable bounds (OCPResult.Infeasibility).
func (s *OCPSolver) infeasibility(w []float64) (float64, error) {
	return nlp.Violation(s.tr.prob, w)
}

// sigma0 is the first relaxation parameter of the solver's homotopy.
func (s *OCPSolver) sigma0() float64 {
	if s.o.MPCC.Sigma0 > 0 {
		return s.o.MPCC.Sigma0
	}
	return mpcc.DefaultSigma0
}

// solver returns the MPCC solver of one solve, with the inner NLP solver
// kept across solves (the KKT pattern, ordering and symbolic factorization
// of the relaxed NLP are analysed once).
func (s *OCPSolver) solver() mpcc.Solver {
	sv := mpcc.Solver{Settings: s.o.MPCC, Inner: s.o.Inner}
	if sv.Inner == nil {
		if s.inner == nil {
			s.inner = &mpcc.NLPSolver{Settings: s.o.ocpNLPSettings()}
		}
		sv.Inner = s.inner
	}
	return sv
}

// Solve runs the MPCC homotopy from start. A homotopy that does not reach
// mpcc.Solved is reported in Result.Status, not as an error; the error is
// for problems that could not run (bad inputs, evaluation errors) and for
// cancellation: a context done before the call gives a nil result and an
// error wrapping ctx.Err(); a context done during the solve gives the
// result at the last point, with Status mpcc.Cancelled, together with an
// error wrapping ctx.Err() (a nil result if no NLP had produced a point
// yet).
func (s *OCPSolver) Solve(ctx context.Context, start Start) (*OCPResult, error) {
	if s == nil || s.tr == nil {
		return nil, ErrNilSolver
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fesd: OCP solve not started: %w", err)
	}
	if err := start.validate(&s.p); err != nil {
		return nil, err
	}
	if s.guided != nil && start.Warm == nil && start.dual == nil {
		// Options.Guide: the guided steps, then the rest (ocpguide.go)
		if r, handled, err := s.solveGuided(ctx, start); handled {
			return r, err
		}
	}
	t0 := time.Now()
	tr := s.tr
	w0, xl, xu, zb0, err := s.start(start)
	if err != nil {
		return nil, err
	}
	if err := s.setup(w0, xl, xu); err != nil {
		return nil, err
	}
	sv := s.solver()
	mp := &mpcc.Problem{NLP: tr.prob, Comp: tr.comp}
	res, ws, err := s.firstRun(ctx, sv, mp, start, w0)
	if err != nil {
		return nil, err
	}
	runs, err := s.rerunPolicy(ctx, mp, res, ws, w0, xl, xu)
	if err != nil {
		return nil, err
	}
	r, err := s.newResult(ctx, runs, zb0, t0)
	if err != nil {
		return nil, err
	}
	res = runs.res
	if r.Status == mpcc.Solved && r.Validity != nil && !r.Validity.Valid {
		r.Status = mpcc.Invalid
	}
	if r.Status == mpcc.Cancelled {
		return r, fmt.Errorf("fesd: OCP homotopy stopped after %d steps: %w", len(res.Steps), cancelled(ctx))
	}
	if r.Status == mpcc.Infeasible {
		if runs.diagErr != nil {
			// the diagnosis stopped (cancelled): the result without it
			return r, runs.diagErr
		}
		if err := s.diagnose(ctx, r, runs.inf, w0, res, zb0); err != nil {
			return r, err
		}
		r.Elapsed = time.Since(t0)
	}
	return r, nil
}

// firstRun runs the first homotopy of Solve with sv from the start point
// w0: with the primal-dual point of the start (a point shifted by Shift,
// or a continuation's from Start.Warm) when it belongs to this solver's
// relaxation, from w0 alone otherwise. It returns the homotopy result and
// the primal-dual start it used (nil for a primal start), for a second
// run from the same start.
func (s *OCPSolver) firstRun(ctx context.Context, sv mpcc.Solver, mp *mpcc.Problem, start Start, w0 []float64) (*mpcc.Result, *mpcc.WarmStart, error) {
	tr := s.tr
	var res *mpcc.Result
	var ws *mpcc.WarmStart
	var err error
	d, layout := start.dual, start.dualLayout
	if w := start.Warm; d == nil && w != nil && w.point != nil && s.sigma0() <= w.sigma*(1+1e-9) {
		// a continuation: the duals belong to a σ no smaller than σ₀
		d, layout = w.point, w.layout
	}
	if d != nil && layout == layoutOf(s.o.MPCC) && len(d.X) >= tr.numW {
		// the primal-dual point of the last relaxed NLP (shifted by
		// Shift), with the primal part of the start (projected into this
		// solve's bounds)
		w := *d // in slices of its own: a result may start several solves
		w.X = append(clone(w0), d.X[tr.numW:]...)
		w.Y, w.ZL, w.ZU = clone(d.Y), clone(d.ZL), clone(d.ZU)
		ws = &w
		res, err = sv.SolveFrom(ctx, mp, ws)
	} else {
		res, err = sv.Solve(ctx, mp)
	}
	if err != nil && !stoppedByContext(res, err) {
		return nil, nil, fmt.Errorf("fesd: OCP homotopy: %w", err)
	}
	return res, ws, nil
}

// newResult builds the result of Solve from the homotopies runs (started
// at t0): the point, status and record of runs.res, the other run's
// record (Rerun) and the last successful step's point (LastSuccess). It
// returns an error wrapping the context's when the homotopy stopped
// before its first point.
func (s *OCPSolver) newResult(ctx context.Context, runs *ocpRuns, zb0 []float64, t0 time.Time) (*OCPResult, error) {
	tr := s.tr
	res, rerun, first := runs.res, runs.rerun, runs.first
	if res.Status == mpcc.Cancelled && len(res.X) != tr.numW {
		return nil, fmt.Errorf("fesd: OCP homotopy stopped before its first point: %w", cancelled(ctx))
	}
	r := &OCPResult{
		Status: res.Status, Homotopy: res.Steps,
		CompResidual: res.CompResidual, NaturalResidual: res.NaturalResidual, Elapsed: res.Elapsed,
	}
	r.Iterations = iterations(res)
	r.Stationarity, r.Certificate, r.Finish = res.Stationarity, res.Certificate, res.Finish
	r.point, r.layout, r.sigma = res.Point, layoutOf(s.o.MPCC), res.Sigma
	if rerun != nil {
		r.Rerun = rerun
		r.Iterations += rerun.Iterations
		r.Elapsed = time.Since(t0)
	}
	if err := s.fill(r, res.X, zb0); err != nil {
		return nil, err
	}
	r.CompResidual, r.NaturalResidual = res.CompResidual, res.NaturalResidual
	if first != nil && len(first.X) == tr.numW {
		f := &OCPResult{Status: first.Status, Homotopy: first.Steps, Iterations: iterations(first),
			Stationarity: first.Stationarity, Certificate: first.Certificate, Finish: first.Finish, Elapsed: first.Elapsed}
		if err := s.fill(f, first.X, zb0); err != nil {
			return nil, err
		}
		f.CompResidual, f.NaturalResidual = first.CompResidual, first.NaturalResidual
		rerun.Result = f
	}
	if ls := res.LastSuccess; ls != nil && ls.Step < len(res.Steps)-1 {
		r.LastSuccess = &OCPResult{Status: mpcc.NotSolved}
		if err := s.fill(r.LastSuccess, ls.X, zb0); err != nil {
			return nil, err
		}
		r.LastSuccess.Homotopy = append([]mpcc.HomotopyStep(nil), res.Steps[:ls.Step+1]...)
		for _, st := range r.LastSuccess.Homotopy {
			r.LastSuccess.Iterations += st.Iterations
		}
	}
	return r, nil
}

// setup sets the parameters, bounds and start of the compiled NLP.
func (s *OCPSolver) setup(w0, xl, xu []float64) error {
	tr := s.tr
	if err := tr.prob.SetParams(s.params()); err != nil {
		return err
	}
	if err := tr.prob.SetVarBounds(xl, xu); err != nil {
		return err
	}
	return tr.prob.SetStart(w0)
}

// iterations returns the NLP iterations of a homotopy result: its steps,
// certificate and finish.
func iterations(r *mpcc.Result) int {
	n := r.FinishIterations
	for _, st := range r.Steps {
		n += st.Iterations
	}
	return n
}
