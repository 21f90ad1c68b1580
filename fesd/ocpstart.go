package fesd

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/rk"
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
	_, X, U, _ := p.symbols()
	nx, nu := len(X), len(U)
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

// relaxLayout is what fixes the variables and rows of a relaxed NLP
// besides the MPCC: the relaxation and the steering.
type relaxLayout struct {
	r  mpcc.Relaxation
	st mpcc.Steering
}

func layoutOf(set mpcc.Settings) relaxLayout { return relaxLayout{set.Relaxation, set.Steering} }

// checkWarm checks a warm-start vector against an NLP with n variables.
func checkWarm(w []float64, n int) error {
	if len(w) != n {
		return fmt.Errorf("%w: warm start from a solution with %d variables, the NLP has %d", ErrDimension, len(w), n)
	}
	return checkFinite("warm start w", w)
}

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

// ocpSystem is what a solve needs of its class of system besides the
// shared transcription: the consistent algebraic values of the DCS at a
// state (the fixed start values, OCPResult.Z0) and the cold start.
type ocpSystem interface {
	// algebraic returns the algebraic values at (x, u, p) (none for a
	// system whose formulation declares all its variables).
	algebraic(x, u, p []float64) ([]float64, error)
	// coldStart returns the start point of g, with the fixed start
	// values zb0.
	coldStart(g *guess, zb0 []float64) ([]float64, error)
	// result adds the system's parts of the result r at the solution w
	// (pk gives the parameters of stage k).
	result(s *OCPSolver, r *OCPResult, w []float64, pk func(k int) []float64) error
	// homotopy sets the system's defaults in the homotopy settings.
	homotopy(set *mpcc.Settings)
}

// dcsSystem is the ocpSystem of a model's reformulation.
type dcsSystem struct{ d *dcs.DCS }

func (ds dcsSystem) algebraic(x, u, p []float64) ([]float64, error) {
	return initialGuess(ds.d, x, u, p)
}

func (dcsSystem) coldStart(g *guess, zb0 []float64) ([]float64, error) { return g.coldStart(zb0) }

func (dcsSystem) result(*OCPSolver, *OCPResult, []float64, func(int) []float64) error { return nil }

func (dcsSystem) homotopy(*mpcc.Settings) {}

// system returns the solver's ocpSystem (a DCS's when none is set).
func (s *OCPSolver) system() ocpSystem {
	if s.sys != nil {
		return s.sys
	}
	return dcsSystem{s.tr.d}
}

// startValues returns the fixed values of the boundary variables at x₀:
// the consistent algebraic values there with the start's first control.
func (s *OCPSolver) startValues(st Start) ([]float64, error) {
	g := &guess{s: s, st: &st}
	if st.Warm == nil && st.InitFrom != nil {
		g.from = newInitSource(st.InitFrom)
	}
	z0, err := s.system().algebraic(s.x0, g.uStart(0), g.stageP(0))
	if err != nil {
		return nil, err
	}
	return s.tr.startValues(s.tr.d, z0, s.o.switchTol), nil
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
		if w0, err = s.system().coldStart(g, zb0); err != nil {
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
	g.setDecisions(w, sot)
	return w, nil
}

// setDecisions writes the start's controls, the speeds of time sot (per
// stage) and the global variables into w.
func (g *guess) setDecisions(w, sot []float64) {
	for i, inf := range g.s.tr.winfo {
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
}

// forwardGuess integrates the model from x₀ with the initial controls by
// explicit RK4 (rk.RK4) on the uniform grid, with the algebraic variables
// of the DCS's initial guess at every point (the mode of the region the
// point is in), and returns the states at the stage points and element
// ends. It returns nil if an evaluation fails or the trajectory is not
// finite.
func (g *guess) forwardGuess(sot []float64) ([][][]float64, [][]float64) {
	s := g.s
	tr, d, tab := s.tr, s.tr.d, s.o.tab
	ns := tr.ns
	step, err := rk.NewExplicitStepper(rk.RK4(), len(s.x0))
	if err != nil {
		return nil, nil
	}
	// f is the right-hand side on stage k; failed records an evaluation
	// that failed or was not finite (the stepper's f cannot return one).
	k, failed := 0, false
	f := func(t float64, x, dx []float64) {
		if failed {
			return
		}
		u, pv := g.uStart(k), g.stageP(k)
		z, err := d.InitialGuess(x, u, pv)
		if err != nil {
			failed = true
			return
		}
		v, err := d.EvalF(x, u, pv, z, t)
		if err != nil {
			failed = true
			return
		}
		for i := range v {
			dx[i] = v[i] * sot[k]
			if bad(dx[i]) {
				failed = true
			}
		}
	}
	xs := make([][][]float64, tr.NE)
	xe := make([][]float64, tr.NE)
	x := clone(s.x0)
	for n := 0; n < tr.NE; n++ {
		k = tr.stageOf[n]
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
				next := make([]float64, len(cur))
				step.StepTo(next, f, t+pos*h, cur, dt)
				if failed {
					return nil, nil
				}
				cur = next
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
