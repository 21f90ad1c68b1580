package fesd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// Start is where a solve of an OCP begins (OCPSolver.Solve, SolveOCP): an
// initial guess, a warm start from a previous result, or the
// interpolation of a result on another grid. The zero Start is the
// default initial guess. The variables it does not set start from the
// DCS's consistent algebraic values at the guessed states and uniform
// step sizes; everything is projected into the bounds.
type Start struct {
	// XInit is the initial guess of the states: nil (a forward simulation
	// from x₀ with the initial controls by explicit RK4 on the uniform
	// grid, or x₀ everywhere if that simulation fails), one row (a
	// constant state; [][]float64{X0} is nosnoc's initialization) or N+1
	// rows at the stage boundaries (a reference trajectory, interpolated
	// linearly inside every stage).
	XInit [][]float64
	// UInit is the initial guess of the controls: nil (0 projected into
	// the bounds), one row for every stage, or N rows.
	UInit [][]float64
	// V0 is the start of the global variables OCP.V (nil: 0 projected into
	// the bounds).
	V0 []float64
	// SOTInit is the start of the speed-of-time variables (0: 1).
	SOTInit float64
	// Warm, if not nil, is a previous result of the same problem (same OCP
	// and Options) whose NLP solution is the start; it overrides every
	// other field (nil: no warm start). A result of Solve also carries the
	// primal-dual point of its homotopy's last relaxed NLP, at σ_r: a
	// continuation — a solver (from WithHomotopy) with σ₀ ≤ σ_r that
	// relaxes the complementarity as the one that produced the result
	// (relaxation and steering) — starts its first relaxed NLP from those
	// multipliers with a small barrier parameter, max(1e-9, 0.1·σ₀)
	// (mpcc.Solver.SolveFrom), where the homotopy stopped. Any other solve
	// starts from the primal point alone.
	// WarmFromNLPSolution makes a result from a saved solution, without
	// multipliers: its start is the primal point alone, with the
	// multipliers and barrier parameter of a cold start.
	Warm *OCPResult
	// InitFrom, if not nil, is a result of a problem with the same states
	// and controls on any grid (another N, N_FE, Runge–Kutta scheme or DCS
	// formulation, for example a coarser solve in a mesh-refinement
	// continuation); it replaces XInit and UInit (nil: none). The states
	// at the new stage points and element ends are interpolated linearly
	// in the fraction τ/T of the numerical horizon between its stage
	// points and element boundaries. Every stage takes the control, speed
	// of time and global variables of the old stage that contains its
	// midpoint; the step sizes start uniform and the algebraic variables
	// at the consistent values of the DCS at the interpolated states. The
	// result needs its trajectory (a Solve or Evaluate result, not
	// WarmFromNLPSolution).
	InitFrom *OCPResult

	// dual is a primal-dual point of the relaxed NLP (OCPSolver.Shift) for
	// the relaxation dualLayout; Solve starts its first relaxed NLP from
	// it when its own relaxation is the same.
	dual       *mpcc.WarmStart
	dualLayout relaxLayout
}

// validate checks the start against the problem's dimensions.
func (st *Start) validate(p *OCP) error {
	nx, nu := len(p.Model.X), len(p.Model.U)
	switch len(st.XInit) {
	case 0, 1, p.N + 1:
	default:
		return fmt.Errorf("%w: XInit has %d rows, want 1 or N+1 = %d", ErrDimension, len(st.XInit), p.N+1)
	}
	for k, r := range st.XInit {
		if err := checkVec(fmt.Sprintf("XInit[%d]", k), r, nx); err != nil {
			return err
		}
	}
	switch len(st.UInit) {
	case 0, 1, p.N:
	default:
		return fmt.Errorf("%w: UInit has %d rows, want 1 or N = %d", ErrDimension, len(st.UInit), p.N)
	}
	for k, r := range st.UInit {
		if err := checkVec(fmt.Sprintf("UInit[%d]", k), r, nu); err != nil {
			return err
		}
	}
	if st.V0 != nil {
		if err := checkVec("V0", st.V0, len(p.V)); err != nil {
			return err
		}
	}
	if math.IsNaN(st.SOTInit) || st.SOTInit < 0 || math.IsInf(st.SOTInit, 0) {
		return fmt.Errorf("%w: SOTInit = %g", ErrBounds, st.SOTInit)
	}
	if st.InitFrom != nil {
		if err := checkInitFrom(st.InitFrom, nx, nu); err != nil {
			return err
		}
	}
	return nil
}

// OCPSolver holds the compiled FESD NLP of an OCP. NewOCPSolver builds and
// compiles it once; Solve runs the MPCC homotopy from a Start, as often as
// needed; SetX0 changes the initial state (a parameter of the NLP) for
// another solve, as in model-predictive control; WithHomotopy gives a
// solver with other homotopy settings on the same NLP; Evaluate turns an
// NLP point into a result.
//
// An OCPSolver is not safe for concurrent use.
type OCPSolver struct {
	p     OCP
	o     *resolved
	tr    *transcription
	sw    *switchInfo
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
	// BuildTime is the time NewOCPSolver took (transcription, derivatives
	// and compilation).
	BuildTime time.Duration
}

// OCPResult is the solution of an OCP. Its Trajectory holds the element
// boundaries, stage points and detected switches; the fields below add
// the stage-level results, physical times and the solver record.
type OCPResult struct {
	Trajectory
	// Status is the homotopy status (mpcc.Solved on success).
	Status mpcc.Status
	// Objective is the OCP cost: running, terminal and tracking costs, T_f
	// for TimeOptimal and the speed-of-time regularization. NLPObjective
	// adds the step-equilibration term.
	Objective, NLPObjective float64
	// TFinal is the physical horizon T_f (T unless time is free or scaled).
	TFinal float64

	// StageT are the N+1 stage boundaries (numerical time), StageTPhys
	// their physical times, StageX the states there (StageX[0] = x₀);
	// U are the N controls q_k, SOT the speed of time of every stage (1
	// without speed-of-time variables; the time scaling s_T = T_f/T of a
	// free-time problem), V the global variables.
	StageT     []float64
	StageTPhys []float64
	StageX     [][]float64
	U          [][]float64
	SOT        []float64
	V          []float64
	// TPhys and PointTPhys are the physical times (∫ s dτ) of the element
	// boundaries T and of the stage points PointT.
	TPhys, PointTPhys []float64
	// ElementResidual is, for every finite element, the largest
	// complementarity term |c_k(w)| = |Σ G·H| of that element (its
	// cross-complementarity and step-equilibration terms; path
	// complementarities belong to no element and count only in
	// CompResidual): where a solution that misses the tolerance misses it.
	ElementResidual []float64

	// Solver record: the homotopy steps (σ, residuals, NLP status and
	// iterations), their total number of NLP iterations, the final
	// complementarity residuals and the solve time.
	Homotopy                      []mpcc.HomotopyStep
	Iterations                    int
	CompResidual, NaturalResidual float64
	// Stationarity is the certified class of the point (mpcc.Result's:
	// B or S is B-stationary), Certificate its certificate (index sets,
	// multipliers, LPEC) and Finish the record of the active-set finish
	// (mpcc.Settings.Finish); Iterations include the certificate's and
	// the finish's NLP iterations.
	Stationarity mpcc.Stationarity
	Certificate  *mpcc.Certificate
	Finish       *mpcc.FinishRecord
	// Infeasibility is the largest violation of the NLP's other
	// constraints at the result's point: the RK equations, the step-size
	// and clock constraints, path and terminal constraints (g_L ≤ g(w) ≤
	// g_U) and the variable bounds of the transcription. With CompResidual
	// it certifies a point, for example a saved solution given to
	// Evaluate.
	Infeasibility float64
	// Infeasible is the diagnosis of a homotopy that ended
	// mpcc.Infeasible (nil otherwise): the constraint groups that cannot
	// be met, found by a phase-1 MPCC with the OCP's own constraints
	// elastic (Infeasibility). If that MPCC meets every group
	// (Infeasibility.Unconfirmed), Status is mpcc.NLPFailure. It is nil
	// when the context ended before the diagnosis did (Solve then returns
	// the result with an error wrapping the context's).
	Infeasible *Infeasibility
	// Feasible is the point the diagnosis found when its phase-1 MPCC met
	// every constraint group (Infeasible.Unconfirmed without FromHomotopy),
	// as a result (as OCPSolver.Evaluate: Status mpcc.NotSolved, no
	// Homotopy): a trajectory that meets the OCP's constraints to its
	// Infeasibility and its complementarity to its CompResidual, chosen
	// without regard to the objective — a fallback or a start for another
	// solve, not an optimum (nil otherwise). On bench/ocp's monopod at
	// N = 30 it meets the dynamics to 2.3e-6 at complementarity 4.7e-8,
	// where the homotopy's point misses them by 1e-5.
	Feasible *OCPResult
	// Rerun records the other homotopy of a solve that ran two (nil if
	// there was one): with the default inner solver a homotopy that does
	// not solve is run once more from the same start, its relaxed NLPs
	// starting with the other inertia policy (OCPSolver.Solve), and the
	// result is the second run's (see Rerun for the exceptions). A first
	// run that ends mpcc.Infeasible is diagnosed at once, and run again
	// only when the diagnosis does not confirm it (Infeasible.Unconfirmed).
	// Iterations and Elapsed include both.
	Rerun   *Rerun
	Elapsed time.Duration
	// NumVariables, NumConstraints and NumComplementarities give the size
	// of the MPCC.
	NumVariables, NumConstraints, NumComplementarities int

	// LastSuccess is set when the homotopy ended on a failed step after an
	// earlier step had succeeded: the result at that earlier step's point
	// (as OCPSolver.Evaluate: Status mpcc.NotSolved; its Homotopy holds the
	// records up to and including that step). The result itself is the
	// failed step's point, where a continuation would start.
	LastSuccess *OCPResult

	w []float64 // NLP solution (warm start)
	// point is the primal-dual point of the homotopy's last relaxed NLP
	// and layout the relaxation that shaped it (for Shift and Start.Warm).
	point  *mpcc.WarmStart
	layout relaxLayout
	// sigma is the relaxation parameter of that relaxed NLP.
	sigma float64
}

// Rerun records the homotopy of a solve that ran two whose point is not
// the result (OCPResult.Rerun): its status and NLP iterations. The result
// is the second homotopy's, unless the context ended that one (then the result
// is the first's with Status mpcc.Cancelled, and Rerun holds the second's
// status, Cancelled, and iterations) or the first ended mpcc.Infeasible
// without its diagnosis confirming it and the second did not succeed: then
// the result is the first's, with that diagnosis (Status mpcc.NLPFailure),
// and Rerun holds the second's status and iterations. A first run whose
// infeasibility the diagnosis confirms is the result alone (bench/ocp's
// unreachable monopod: Infeasible at σ = 0.1, confirmed, no second run).
type Rerun struct {
	Status     mpcc.Status
	Iterations int
	// Result is the end point of the homotopy that Rerun records, as a
	// result (its status, homotopy records, iterations, trajectory and
	// residuals; nil after a cancellation), kept because the returned
	// run's point need not be the better one: on bench/ocp's monopod at N = 30 with ℓ∞
	// steering the first run ended at complementarity 1.0e-5 and objective
	// 202, the second at 1.3e-4 and 346. It is left out of JSON encodings
	// of Rerun (a summary's record of the first run stays small).
	Result *OCPResult `json:"-"`
}

// relaxLayout is what fixes the variables and rows of a relaxed NLP
// besides the MPCC: the relaxation and the steering.
type relaxLayout struct {
	r  mpcc.Relaxation
	st mpcc.Steering
}

func layoutOf(set mpcc.Settings) relaxLayout { return relaxLayout{set.Relaxation, set.Steering} }

// NewOCPSolver validates the problem and the settings, reformulates the
// model with opts.DCS, builds the NLP of all stages and compiles it. The
// OCP is copied (later changes to p have no effect).
func NewOCPSolver(p *OCP, opts Options) (*OCPSolver, error) {
	start := time.Now()
	if err := p.validate(); err != nil {
		return nil, err
	}
	o, err := opts.resolve()
	if err != nil {
		return nil, err
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
	c.o = &ro
	c.inner, c.innerAlt = nil, nil
	c.x0 = clone(s.x0)
	return &c, nil
}

// DCS returns the complementarity system the solver transcribes (nil for a
// nil or zero-value solver).
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

// checkWarm checks a warm-start vector against an NLP with n variables.
func checkWarm(w []float64, n int) error {
	if len(w) != n {
		return fmt.Errorf("%w: warm start from a solution with %d variables, the NLP has %d", ErrDimension, len(w), n)
	}
	return checkFinite("warm start w", w)
}

// NLPSolution returns a copy of the NLP solution vector w of the result, in
// the solver's variable order (see NumVariables). Saved, it restarts a
// later solve of the same OCP through WarmFromNLPSolution, e.g. in another
// process. A nil result has none (nil).
func (r *OCPResult) NLPSolution() []float64 {
	if r == nil {
		return nil
	}
	return clone(r.w)
}

// WarmFromNLPSolution returns a result that carries only the NLP solution
// w (a copy), for Start.Warm: a start from a solution saved with
// NLPSolution. Its length is checked against the NLP when the solve starts
// (ErrDimension) and its entries must be finite (ErrNonFinite).
func WarmFromNLPSolution(w []float64) *OCPResult { return &OCPResult{w: clone(w)} }

// guess evaluates the initialization of one start: controls, parameters,
// global variables and states of every stage.
type guess struct {
	s    *OCPSolver
	st   *Start
	from *initSource // interpolant of st.InitFrom
}

// stageP returns the parameter values of stage k with global variables at
// their start values.
func (g *guess) stageP(k int) []float64 {
	p := &g.s.p
	np := g.s.tr.np
	v := row(p.PStage, k)
	if v == nil {
		v = p.P
	}
	out := make([]float64, np)
	copy(out, v)
	for j, e := range p.V {
		for i := 0; i < np; i++ {
			if g.s.tr.d.P[i] == e {
				out[i] = g.vStart(j)
			}
		}
	}
	return out
}

func (g *guess) vStart(j int) float64 {
	p := &g.s.p
	v := 0.0
	if g.st.V0 != nil {
		v = g.st.V0[j]
	}
	if r := g.st.InitFrom; r != nil && len(r.V) == len(p.V) {
		v = r.V[j]
	}
	lo, hi := bnd(p.VL, p.VU, j)
	return math.Min(math.Max(v, lo), hi)
}

func (g *guess) uStart(k int) []float64 {
	p := &g.s.p
	u := make([]float64, g.s.tr.nu)
	copy(u, row(g.st.UInit, k))
	if g.from != nil {
		copy(u, g.st.InitFrom.U[g.from.stage(g.s.tr.layout, k)])
	}
	for i := range u {
		lo, hi := bnd(p.UL, p.UU, i)
		u[i] = math.Min(math.Max(u[i], lo), hi)
	}
	return u
}

// xGuess returns the state guess at fraction f ∈ [0, 1] of stage k.
func (g *guess) xGuess(k int, f float64) []float64 {
	if g.from != nil {
		return g.from.at(horizonFrac(g.s.tr.layout, k, f))
	}
	xi := g.st.XInit
	switch len(xi) {
	case 0:
		return clone(g.s.x0)
	case 1:
		return clone(xi[0])
	}
	a, b := xi[k], xi[k+1]
	x := make([]float64, len(a))
	for i := range x {
		x[i] = (1-f)*a[i] + f*b[i]
	}
	return x
}

// initSource interpolates the trajectory of Start.InitFrom: its stage points
// and element boundaries in order of the fraction τ/T of its numerical
// horizon (points at the same τ once).
type initSource struct {
	f  []float64   // fractions, increasing
	x  [][]float64 // states there
	fs []float64   // fractions of the stage boundaries
}

func newInitSource(r *OCPResult) *initSource {
	t0, T := r.T[0], r.T[len(r.T)-1]-r.T[0]
	type pt struct {
		f float64
		x []float64
	}
	pts := make([]pt, 0, len(r.T)+len(r.PointT))
	for i, t := range r.T {
		pts = append(pts, pt{(t - t0) / T, r.X[i]})
	}
	for i, t := range r.PointT {
		pts = append(pts, pt{(t - t0) / T, r.PointX[i]})
	}
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].f < pts[j].f })
	src := &initSource{}
	for _, q := range pts {
		if n := len(src.f); n > 0 && q.f <= src.f[n-1] {
			continue
		}
		src.f = append(src.f, q.f)
		src.x = append(src.x, q.x)
	}
	for _, t := range r.StageT {
		src.fs = append(src.fs, (t-t0)/T)
	}
	return src
}

// at returns the state at fraction f, linear between the saved points and
// constant beyond them.
func (src *initSource) at(f float64) []float64 {
	n := len(src.f)
	i := sort.SearchFloat64s(src.f, f)
	switch {
	case i == 0:
		return clone(src.x[0])
	case i == n:
		return clone(src.x[n-1])
	}
	a, b := src.x[i-1], src.x[i]
	w := (f - src.f[i-1]) / (src.f[i] - src.f[i-1])
	x := make([]float64, len(a))
	for j := range x {
		x[j] = (1-w)*a[j] + w*b[j]
	}
	return x
}

// horizonFrac returns the fraction of the numerical horizon at fraction f
// of stage k.
func horizonFrac(L *layout, k int, f float64) float64 {
	return (L.tau[k] + f*(L.tau[k+1]-L.tau[k]) - L.tau[0]) / (L.tau[L.N] - L.tau[0])
}

// stage returns the stage of the source that contains the midpoint of
// stage k of the new grid.
func (src *initSource) stage(L *layout, k int) int {
	j := sort.SearchFloat64s(src.fs, horizonFrac(L, k, 0.5)) - 1
	return min(max(j, 0), len(src.fs)-2)
}

func initialGuess(d *dcs.DCS, x, u, p []float64) ([]float64, error) {
	z, err := d.InitialGuess(x, u, p)
	if err != nil {
		var nf *dcs.NonFiniteError
		if errors.As(err, &nf) {
			return nil, fmt.Errorf("%w: %w", ErrNonFinite, err)
		}
		return nil, err
	}
	return z, nil
}

// startValues returns the fixed values of the boundary variables at x₀:
// the consistent algebraic values there with the start's first control.
func (s *OCPSolver) startValues(st Start) ([]float64, error) {
	g := &guess{s: s, st: &st}
	if st.Warm == nil && st.InitFrom != nil {
		g.from = newInitSource(st.InitFrom)
	}
	z0, err := initialGuess(s.tr.d, s.x0, g.uStart(0), g.stageP(0))
	if err != nil {
		return nil, err
	}
	return s.tr.startValues(s.tr.d, z0, s.o.SwitchTol), nil
}

// start builds the starting point and the variable bounds of one solve.
func (s *OCPSolver) start(st Start) (w0, xl, xu, zb0 []float64, err error) {
	tr := s.tr
	zb0, err = s.startValues(st)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	xl, xu = clone(tr.wl), clone(tr.wu)
	tr.fixStart(tr.d, xl, xu, zb0)
	if st.Warm != nil {
		if err := checkWarm(st.Warm.w, tr.numW); err != nil {
			return nil, nil, nil, nil, err
		}
		w0 = clone(st.Warm.w)
	} else {
		g := &guess{s: s, st: &st}
		if st.InitFrom != nil {
			g.from = newInitSource(st.InitFrom)
		}
		if w0, err = g.coldStart(zb0); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	for k := range w0 {
		w0[k] = math.Min(math.Max(w0[k], xl[k]), xu[k])
	}
	return w0, xl, xu, zb0, nil
}

// coldStart builds a starting point from the initialization of the start:
// the guessed states at every stage point and element end, the consistent
// algebraic values of the DCS there, nominal step sizes, and the controls,
// speeds of time and global variables of the start.
func (g *guess) coldStart(zb0 []float64) ([]float64, error) {
	s := g.s
	tr, d, p, tab := s.tr, s.tr.d, &s.p, s.o.tab
	ns := tr.ns
	NE := tr.NE
	xG := make([][][]float64, NE)
	zG := make([][][]float64, NE)
	fG := make([][][]float64, NE)
	xE := make([][]float64, NE)
	zE := make([][]float64, NE)
	sot := make([]float64, tr.N)
	for k := range sot {
		sot[k] = 1
		if tr.sot[k] >= 0 && g.st.SOTInit > 0 {
			sot[k] = g.st.SOTInit
		}
		if tr.sotG >= 0 && p.SpeedOfTime == GlobalSpeedOfTime && g.st.SOTInit > 0 {
			sot[k] = g.st.SOTInit
		}
	}
	if g.from != nil {
		for k := range sot {
			if tr.sot[k] >= 0 || tr.sotG >= 0 {
				sot[k] = g.st.InitFrom.SOT[g.from.stage(tr.layout, k)]
			}
		}
	}
	var simX [][][]float64
	var simE [][]float64
	if len(g.st.XInit) == 0 && g.from == nil {
		simX, simE = g.forwardGuess(sot)
	}
	for n := 0; n < NE; n++ {
		k := tr.stageOf[n]
		ln := n - tr.elemStart[k]
		nf := float64(tr.nfe[k])
		u, pv := g.uStart(k), g.stageP(k)
		xG[n] = make([][]float64, ns)
		zG[n] = make([][]float64, ns)
		fG[n] = make([][]float64, ns)
		for m := 0; m < ns; m++ {
			fr := (float64(ln) + tab.C[m]) / nf
			x := g.xGuess(k, fr)
			if simX != nil {
				x = simX[n][m]
			}
			z, err := initialGuess(d, x, u, pv)
			if err != nil {
				return nil, err
			}
			xG[n][m], zG[n][m] = x, z
			if s.o.Representation == Differential {
				t := s.t0 + tr.tau[k] + fr*(tr.tau[k+1]-tr.tau[k])
				f, err := d.EvalF(x, u, pv, z, t)
				if err != nil {
					return nil, err
				}
				for i := range f {
					f[i] *= sot[k]
				}
				fG[n][m] = f
			}
		}
		xE[n] = g.xGuess(k, float64(ln+1)/nf)
		if simE != nil {
			xE[n] = simE[n]
		}
		z, err := initialGuess(d, xE[n], u, pv)
		if err != nil {
			return nil, err
		}
		zE[n] = z
	}
	hs := make([]float64, NE)
	for n := range hs {
		hs[n] = tr.h0[tr.stageOf[n]]
	}
	w := make([]float64, tr.numW)
	tr.fillStart(w, elementStart{h: hs, x: xG, f: fG, z: zG, xe: xE, ze: zE, startZB0: zb0}, s.o.Representation, d)
	for i, inf := range tr.winfo {
		switch inf.kind {
		case vU:
			w[i] = g.uStart(inf.n)[inf.i]
		case vSOT:
			if inf.n >= 0 {
				w[i] = sot[inf.n]
			} else {
				w[i] = sot[0]
			}
		case vV:
			w[i] = g.vStart(inf.i)
		}
	}
	return w, nil
}

// forwardGuess integrates the model from x₀ with the initial controls by
// explicit RK4 on the uniform grid, with the algebraic variables of the
// DCS's initial guess at every point (the mode of the region the point is
// in), and returns the states at the stage points and element ends. It
// returns nil if an evaluation fails or the trajectory is not finite.
func (g *guess) forwardGuess(sot []float64) ([][][]float64, [][]float64) {
	s := g.s
	tr, d, tab := s.tr, s.tr.d, s.o.tab
	ns := tr.ns
	f := func(x []float64, k int, t float64) ([]float64, bool) {
		u, pv := g.uStart(k), g.stageP(k)
		z, err := d.InitialGuess(x, u, pv)
		if err != nil {
			return nil, false
		}
		v, err := d.EvalF(x, u, pv, z, t)
		if err != nil {
			return nil, false
		}
		for i := range v {
			v[i] *= sot[k]
			if bad(v[i]) {
				return nil, false
			}
		}
		return v, true
	}
	rk4 := func(x []float64, k int, t, h float64) ([]float64, bool) {
		axpy := func(a float64, y []float64) []float64 {
			o := clone(x)
			for i := range o {
				o[i] += a * y[i]
			}
			return o
		}
		k1, ok1 := f(x, k, t)
		if !ok1 {
			return nil, false
		}
		k2, ok2 := f(axpy(h/2, k1), k, t+h/2)
		if !ok2 {
			return nil, false
		}
		k3, ok3 := f(axpy(h/2, k2), k, t+h/2)
		if !ok3 {
			return nil, false
		}
		k4, ok4 := f(axpy(h, k3), k, t+h)
		if !ok4 {
			return nil, false
		}
		o := clone(x)
		for i := range o {
			o[i] += h / 6 * (k1[i] + 2*k2[i] + 2*k3[i] + k4[i])
		}
		return o, true
	}
	xs := make([][][]float64, tr.NE)
	xe := make([][]float64, tr.NE)
	x := clone(s.x0)
	for n := 0; n < tr.NE; n++ {
		k := tr.stageOf[n]
		h := tr.h0[k]
		t := s.t0 + tr.tau[k] + float64(n-tr.elemStart[k])*h
		xs[n] = make([][]float64, ns)
		pos := 0.0
		cur := x
		for m := 0; m <= ns; m++ {
			c := 1.0
			if m < ns {
				c = tab.C[m]
			}
			if dt := (c - pos) * h; dt > 0 {
				var ok bool
				if cur, ok = rk4(cur, k, t+pos*h, dt); !ok {
					return nil, nil
				}
			}
			pos = c
			if m < ns {
				xs[n][m] = clone(cur)
			}
		}
		xe[n] = clone(cur)
		x = cur
	}
	return xs, xe
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

// fallbackSolver returns the MPCC solver of the second homotopy of a
// failed solve (see Solve), or false when the inner solver is not the
// default one: a user's NLP settings or inner solver are not second-guessed.
func (s *OCPSolver) fallbackSolver() (mpcc.Solver, bool) {
	if s.o.Inner != nil || s.o.MPCC.NLP != nil {
		return mpcc.Solver{}, false
	}
	if s.innerAlt == nil {
		set := mpcc.DefaultNLPSettings()
		set.Inertia = ocpFallbackPolicy
		s.innerAlt = &mpcc.NLPSolver{Settings: set}
	}
	return mpcc.Solver{Settings: s.o.MPCC, Inner: s.innerAlt}, true
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
	var res *mpcc.Result
	var ws *mpcc.WarmStart
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
		return nil, fmt.Errorf("fesd: OCP homotopy: %w", err)
	}
	var rerun *Rerun
	var first *mpcc.Result // the run that is not the result (Rerun.Result)
	var inf *Infeasibility // the diagnosis of a first run that ended Infeasible
	var diagErr error      // why that diagnosis stopped (cancellation)
	fb, again := s.fallbackSolver()
	again = again && !res.Status.Success() && res.Status != mpcc.Cancelled && ctx.Err() == nil
	if again && res.Status == mpcc.Infeasible {
		// A confirmed infeasibility is the answer: the phase-1 problem
		// (diagnoseInfeasible) found no point of smaller violation, so
		// a second run of the same homotopy is not started.
		inf, diagErr = s.diagnoseInfeasible(ctx, w0, res.X, res.CompResidual, res.Sigma)
		again = diagErr == nil && inf.Unconfirmed
	}
	if again {
		// A second homotopy from the same start, its relaxed NLPs
		// starting with the other inertia policy (ocpNLPSettings). Its
		// result replaces the first one, also when it fails too, unless
		// the first ended Infeasible (see Rerun); the iterations of both
		// count.
		if err := s.setup(w0, xl, xu); err != nil {
			return nil, err
		}
		var res2 *mpcc.Result
		if ws != nil {
			w := *ws // the same start, in slices of its own
			w.X, w.Y, w.ZL, w.ZU = clone(ws.X), clone(ws.Y), clone(ws.ZL), clone(ws.ZU)
			res2, err = fb.SolveFrom(ctx, mp, &w)
		} else {
			res2, err = fb.Solve(ctx, mp)
		}
		if err != nil && !stoppedByContext(res2, err) {
			return nil, fmt.Errorf("fesd: OCP homotopy (second run): %w", err)
		}
		if res2.Status == mpcc.Cancelled {
			// The second run stopped from outside: the first run's end
			// point is the result (the second's is partial).
			rerun = &Rerun{Status: mpcc.Cancelled, Iterations: iterations(res2)}
			res.Status = mpcc.Cancelled
		} else if res.Status == mpcc.Infeasible && !res2.Status.Success() {
			// Two locally infeasible relaxed NLPs of an outer relaxation
			// say more than a second run that failed otherwise: the first
			// run is the result, with its diagnosis.
			rerun = &Rerun{Status: res2.Status, Iterations: iterations(res2)}
			first = res2
		} else {
			rerun = &Rerun{Status: res.Status, Iterations: iterations(res)}
			first = res
			res = res2
		}
	}
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
	if r.Status == mpcc.Cancelled {
		return r, fmt.Errorf("fesd: OCP homotopy stopped after %d steps: %w", len(res.Steps), cancelled(ctx))
	}
	if r.Status == mpcc.Infeasible {
		if diagErr != nil {
			// the diagnosis stopped (cancelled): the result without it
			return r, diagErr
		}
		if err := s.diagnose(ctx, r, inf, w0, res, zb0); err != nil {
			return r, err
		}
		r.Elapsed = time.Since(t0)
	}
	return r, nil
}

// diagnose sets r.Infeasible, r.Feasible and, when the infeasibility is
// not confirmed, r.Status for the homotopy result res that ended
// mpcc.Infeasible from the start w0. inf is res's diagnosis if it was
// made already (nil otherwise).
func (s *OCPSolver) diagnose(ctx context.Context, r *OCPResult, inf *Infeasibility, w0 []float64, res *mpcc.Result, zb0 []float64) error {
	if inf == nil {
		var err error
		if inf, err = s.diagnoseInfeasible(ctx, w0, res.X, res.CompResidual, res.Sigma); err != nil {
			return err
		}
	}
	r.Infeasible = inf
	if inf.Unconfirmed {
		r.Status = mpcc.NLPFailure
	}
	if inf.point != nil {
		r.Feasible = &OCPResult{Status: mpcc.NotSolved}
		if err := s.fill(r.Feasible, inf.point, zb0); err != nil {
			return err
		}
	}
	return nil
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

// fill writes the result at the NLP point w: trajectory, switches,
// stage-level values, residuals and infeasibility.
func (s *OCPSolver) fill(r *OCPResult, w, zb0 []float64) error {
	tr := s.tr
	pv := s.params()
	if err := tr.prob.SetParams(pv); err != nil {
		return err
	}
	out, err := tr.outputs(w, pv)
	if err != nil {
		return err
	}
	NE, N := tr.NE, tr.N
	r.w = clone(w)
	r.NumVariables, r.NumConstraints, r.NumComplementarities = tr.numW, tr.numC, len(tr.comp)
	r.Trajectory.fill(tr, w, out, zb0)
	r.Objective, r.NLPObjective, r.TFinal = out.cost, out.obj, out.tf
	r.SOT = out.s
	r.TPhys = make([]float64, NE+1)
	r.TPhys[0] = s.t0
	for n := 0; n < NE; n++ {
		r.TPhys[n+1] = r.TPhys[n] + r.SOT[tr.stageOf[n]]*r.H[n]
	}
	c := s.o.tab.C
	for n := 0; n < NE; n++ {
		for m := 0; m < tr.ns; m++ {
			r.PointTPhys = append(r.PointTPhys, r.TPhys[n]+r.SOT[tr.stageOf[n]]*c[m]*r.H[n])
		}
	}
	for k := 0; k <= N; k++ {
		n := tr.elemStart[k]
		r.StageX = append(r.StageX, r.X[n])
		r.StageT = append(r.StageT, r.T[n])
		r.StageTPhys = append(r.StageTPhys, r.TPhys[n])
	}
	g := &guess{s: s, st: &Start{}}
	for k := 0; k < N; k++ {
		if tr.u[k] >= 0 {
			r.U = append(r.U, clone(w[tr.u[k]:tr.u[k]+tr.nu]))
		} else {
			r.U = append(r.U, make([]float64, tr.nu))
		}
	}
	if tr.v >= 0 {
		r.V = clone(w[tr.v : tr.v+len(s.p.V)])
	}
	r.ElementResidual = make([]float64, NE)
	for k, c := range tr.comp {
		if n := tr.compElem[k]; n >= 0 {
			r.ElementResidual[n] = math.Max(r.ElementResidual[n], math.Abs(c.Value(w)))
		}
	}
	mp := mpcc.Problem{NLP: tr.prob, Comp: tr.comp}
	r.CompResidual, r.NaturalResidual = mp.Residuals(w, tr.wl)
	if r.Infeasibility, err = s.infeasibility(w); err != nil {
		return err
	}
	// the consistent algebraic values at x₀ with the solution's first
	// control and parameters, for the switch detection
	pk := func(k int) []float64 {
		v := g.stageP(k)
		for j, e := range s.p.V {
			for i := range v {
				if tr.d.P[i] == e {
					v[i] = r.V[j]
				}
			}
		}
		return v
	}
	z0, err := initialGuess(tr.d, r.X[0], r.U[0], pk(0))
	if err != nil {
		return err
	}
	r.Z0 = z0
	sw, err := s.sw.detect(&r.Trajectory, func(n int) []float64 { return r.U[tr.stageOf[n]] }, func(n int) []float64 { return pk(tr.stageOf[n]) })
	if err != nil {
		return err
	}
	r.Switches = sw
	return nil
}

// UAt returns the control of the element or stage point at numerical time
// t (piecewise constant, right-continuous); nil for a result without
// controls.
func (r *OCPResult) UAt(t float64) []float64 {
	if r == nil || len(r.U) == 0 || len(r.StageT) < len(r.U) {
		return nil
	}
	k := 0
	for k+1 < len(r.U) && t >= r.StageT[k+1] {
		k++
	}
	return r.U[k]
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
