package fesd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// OCPSolver holds the compiled FESD NLP of an OCP. NewOCPSolver builds and
// compiles it once; Solve runs the MPCC homotopy; SetX0 changes the initial
// state (a parameter of the NLP) for another solve, as in MPC.
//
// An OCPSolver is not safe for concurrent use.
type OCPSolver struct {
	p    OCP
	o    *resolved
	b    *ocpTranscription
	prob paramNLP
	x0   []float64
	from *initSource // interpolant of p.InitFrom during a cold start
	// BuildTime is the time NewOCPSolver took (transcription, derivatives
	// and compilation).
	BuildTime time.Duration
}

// OCPResult is the solution of an OCP.
type OCPResult struct {
	// Status is the homotopy status (mpcc.Solved on success).
	Status mpcc.Status
	// Objective is the OCP cost: running, terminal and tracking costs, T_f
	// for TimeOptimal and the speed-of-time regularization. NLPObjective
	// adds the step-equilibration term.
	Objective, NLPObjective float64
	// TFinal is the physical horizon T_f (T unless time is free or scaled).
	TFinal float64

	// Stage-level results: X are the N+1 states s_k at the stage boundaries,
	// U the N controls q_k, SOT the speed of time of every stage (1 without
	// speed-of-time variables; the time scaling s_T = T_f/T of a free-time
	// problem), V the global variables. TStage and TStagePhys are the
	// numerical and physical times of the stage boundaries.
	X          [][]float64
	U          [][]float64
	SOT        []float64
	V          []float64
	TStage     []float64
	TStagePhys []float64

	// Element-level results: T (numerical) and TPhys (physical time,
	// ∫ s dτ) at the element boundaries of all stages, XFE the states there,
	// H the step sizes (numerical), StageOf the control stage of every
	// element.
	T, TPhys []float64
	XFE      [][]float64
	H        []float64
	StageOf  []int
	// StageT, StageTPhys, StageX, StageZ are the RK stage points of all
	// elements in order, with the states and algebraic variables (laid out
	// as DCS.Z) there.
	StageT, StageTPhys []float64
	StageX, StageZ     [][]float64
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
	// Infeasibility is the largest violation of the NLP's other
	// constraints at the result's point: the RK equations, the step-size
	// and clock constraints, path and terminal constraints (g_L ≤ g(w) ≤
	// g_U) and the variable bounds of the transcription. With CompResidual
	// it certifies a point, for example a saved solution given to
	// Evaluate.
	Infeasibility float64
	Elapsed       time.Duration
	// NumVariables, NumConstraints and NumComplementarities give the size
	// of the MPCC.
	NumVariables, NumConstraints, NumComplementarities int

	// DCS is the complementarity system that was transcribed.
	DCS *dcs.DCS

	// LastSuccess is set when the homotopy ended on a failed step after an
	// earlier step had succeeded: the result at that earlier step's point
	// (as OCPSolver.Evaluate: Status mpcc.NotSolved; its Homotopy holds the
	// records up to and including that step). The result itself is the
	// failed step's point, where a continuation would start.
	LastSuccess *OCPResult

	w []float64 // NLP solution (warm start)
}

// NewOCPSolver validates the problem, reformulates the model with
// p.Options.DCS, builds the NLP of all stages and compiles it. The OCP is
// copied (later changes to p have no effect).
func NewOCPSolver(p *OCP) (*OCPSolver, error) {
	start := time.Now()
	if err := p.validate(); err != nil {
		return nil, err
	}
	o, err := p.Options.resolve()
	if err != nil {
		return nil, err
	}
	d, err := p.Model.Reformulate(o.DCS)
	if err != nil {
		return nil, err
	}
	b, err := newOCPTranscription(p, d, o)
	if err != nil {
		return nil, err
	}
	s := &OCPSolver{p: *p, o: o, b: b, x0: clone(p.X0)}
	tr := b.tr
	pv := append(clone(p.X0), b.pvals...)
	spec := exprSpec{
		X: tr.w, XL: clone(tr.wl), XU: clone(tr.wu), X0: make([]float64, len(tr.w)),
		F: tr.obj, G: tr.c, GL: tr.cl, GU: tr.cu,
		P: b.params, PV: pv,
		XStage: tr.wstage, GStage: tr.cstage,
	}
	prob, err := newParamNLP(spec)
	if err != nil {
		return nil, fmt.Errorf("fesd: compiling the OCP NLP (expressions may use only the model's X, U, P, Time, V, HorizonSym, and Z at stage points): %w", err)
	}
	s.prob = prob
	var xb, xs, tb ad.Vec
	for n := 0; n <= tr.N; n++ {
		xb = append(xb, tr.xbE[n]...)
		tb = append(tb, tr.tbE[n])
	}
	for n := 0; n < tr.N; n++ {
		for m := 0; m < tr.ns; m++ {
			xs = append(xs, tr.stageX[n][m]...)
		}
	}
	out, err := ad.NewFunction("ocp_out",
		[]ad.Arg{{Name: "w", V: tr.w}, {Name: "p", V: b.params}},
		[]ad.Arg{{Name: "xb", V: xb}, {Name: "xs", V: xs}, {Name: "tb", V: tb}, {Name: "h", V: tr.hE},
			{Name: "cost", V: ad.Vec{b.cost}}, {Name: "obj", V: ad.Vec{tr.obj}}, {Name: "tf", V: ad.Vec{b.TfE}}, {Name: "s", V: b.sE}})
	if err != nil {
		return nil, fmt.Errorf("fesd: compiling the OCP output function: %w", err)
	}
	b.out = out
	b.outW = out.NewWorkspace()
	s.BuildTime = time.Since(start)
	return s, nil
}

// SolveOCP builds the problem and solves it once.
func SolveOCP(ctx context.Context, p *OCP) (*OCPResult, error) {
	s, err := NewOCPSolver(p)
	if err != nil {
		return nil, err
	}
	return s.Solve(ctx)
}

// DCS returns the complementarity system the solver transcribes.
func (s *OCPSolver) DCS() *dcs.DCS { return s.b.d }

// NumVariables returns the number of NLP variables.
func (s *OCPSolver) NumVariables() int { return len(s.b.tr.w) }

// NumConstraints returns the number of NLP constraints.
func (s *OCPSolver) NumConstraints() int { return len(s.b.tr.c) }

// NumComplementarities returns the number of complementarity terms.
func (s *OCPSolver) NumComplementarities() int { return len(s.b.tr.comp) }

// SetX0 changes the initial state for the next Solve.
func (s *OCPSolver) SetX0(x0 []float64) error {
	if err := checkVec("x0", x0, s.b.tr.nx); err != nil {
		return err
	}
	s.x0 = clone(x0)
	return nil
}

// SetWarm sets the result whose solution starts the next Solve (nil: the
// OCP's initialization).
func (s *OCPSolver) SetWarm(r *OCPResult) error {
	if r != nil {
		if err := checkWarm(r.w, len(s.b.tr.w)); err != nil {
			return err
		}
	}
	s.p.Warm = r
	return nil
}

// SetInitFrom sets the result whose trajectory initializes the next Solve
// on this grid (OCP.InitFrom; nil: the OCP's XInit and UInit).
func (s *OCPSolver) SetInitFrom(r *OCPResult) error {
	if r != nil {
		if err := checkInitFrom(r, s.b.tr.nx, s.b.tr.nu); err != nil {
			return err
		}
	}
	s.p.InitFrom = r
	return nil
}

// Evaluate returns the result at the NLP point w without solving (for
// example a solution saved with NLPSolution, to plot it or to initialize
// another grid through OCP.InitFrom): the trajectory, controls, times,
// algebraic variables, objective and the complementarity residuals at w.
// Its Status is mpcc.NotSolved and it has no homotopy record.
func (s *OCPSolver) Evaluate(w []float64) (*OCPResult, error) {
	b := s.b
	tr := b.tr
	if err := checkWarm(w, len(tr.w)); err != nil {
		return nil, err
	}
	pv := append(clone(s.x0), b.pvals...)
	r := &OCPResult{
		Status:       mpcc.NotSolved,
		NumVariables: len(tr.w), NumConstraints: len(tr.c), NumComplementarities: len(tr.comp),
		DCS: b.d, w: clone(w),
	}
	if err := s.fill(r, w, pv); err != nil {
		return nil, err
	}
	mp := mpcc.Problem{NLP: s.prob, Comp: tr.comp}
	r.CompResidual, r.NaturalResidual = mp.Residuals(w, tr.wl)
	var err error
	if r.Infeasibility, err = s.infeasibility(w, pv); err != nil {
		return nil, err
	}
	return r, nil
}

// infeasibility returns the largest violation at w of the NLP's
// constraints and variable bounds (OCPResult.Infeasibility) with the
// parameter values pv.
func (s *OCPSolver) infeasibility(w, pv []float64) (float64, error) {
	if err := s.prob.SetParams(pv); err != nil {
		return 0, err
	}
	return nlp.Violation(s.prob, w)
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
// process.
func (r *OCPResult) NLPSolution() []float64 { return clone(r.w) }

// WarmFromNLPSolution returns a result that carries only the NLP solution
// w (a copy), for OCP.Warm or OCPSolver.SetWarm: a start from a solution
// saved with NLPSolution. Its length is checked against the NLP when the
// solve starts (ErrDimension) and its entries must be finite
// (ErrNonFinite).
func WarmFromNLPSolution(w []float64) *OCPResult { return &OCPResult{w: clone(w)} }

// SetHomotopy replaces the homotopy settings of the next Solve. With
// SetWarm it continues a homotopy from a previous result in another way,
// for example a few more steps with a smaller σ₀, or the exact ℓ1 penalty
// (Steering = mpcc.L1) from a point the Scholtes relaxation reached. The
// relaxation must allow the OCP's cross complementarity form, as in
// Options.Validate.
func (s *OCPSolver) SetHomotopy(set mpcc.Settings) error {
	o := s.o.Options
	o.MPCC = set
	r, err := o.resolve()
	if err != nil {
		return err
	}
	s.o.MPCC = r.MPCC
	return nil
}

// stageP returns the parameter values of stage k with global variables at
// their start values.
func (s *OCPSolver) stageP(k int) []float64 {
	p := &s.p
	np := s.b.tr.np
	v := row(p.PStage, k)
	if v == nil {
		v = p.P
	}
	out := make([]float64, np)
	copy(out, v)
	for j, e := range p.V {
		for i := 0; i < np; i++ {
			if s.b.d.P[i] == e {
				out[i] = s.vStart(j)
			}
		}
	}
	return out
}

func (s *OCPSolver) vStart(j int) float64 {
	p := &s.p
	v := 0.0
	if p.V0 != nil {
		v = p.V0[j]
	}
	if r := p.InitFrom; r != nil && len(r.V) == len(p.V) {
		v = r.V[j]
	}
	lo, hi := bnd(p.VL, p.VU, j)
	return math.Min(math.Max(v, lo), hi)
}

func (s *OCPSolver) uStart(k int) []float64 {
	p := &s.p
	nu := s.b.tr.nu
	u := make([]float64, nu)
	copy(u, row(p.UInit, k))
	if s.from != nil {
		copy(u, p.InitFrom.U[s.from.stage(s.b, k)])
	}
	for i := range u {
		lo, hi := bnd(p.UL, p.UU, i)
		u[i] = math.Min(math.Max(u[i], lo), hi)
	}
	return u
}

// xGuess returns the state guess at fraction f ∈ [0, 1] of stage k.
func (s *OCPSolver) xGuess(k int, f float64) []float64 {
	p := &s.p
	if s.from != nil {
		return s.from.at(horizonFrac(s.b, k, f))
	}
	switch len(p.XInit) {
	case 0:
		return clone(s.x0)
	case 1:
		return clone(p.XInit[0])
	}
	a, b := p.XInit[k], p.XInit[k+1]
	x := make([]float64, len(a))
	for i := range x {
		x[i] = (1-f)*a[i] + f*b[i]
	}
	return x
}

// initSource interpolates the trajectory of OCP.InitFrom: its stage points
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
	pts := make([]pt, 0, len(r.T)+len(r.StageT))
	for i, t := range r.T {
		pts = append(pts, pt{(t - t0) / T, r.XFE[i]})
	}
	for i, t := range r.StageT {
		pts = append(pts, pt{(t - t0) / T, r.StageX[i]})
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
	for _, t := range r.TStage {
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
func horizonFrac(b *ocpTranscription, k int, f float64) float64 {
	return (b.tau[k] + f*(b.tau[k+1]-b.tau[k]) - b.tau[0]) / (b.tau[b.N] - b.tau[0])
}

// stage returns the stage of the source that contains the midpoint of
// stage k of the new grid.
func (src *initSource) stage(b *ocpTranscription, k int) int {
	j := sort.SearchFloat64s(src.fs, horizonFrac(b, k, 0.5)) - 1
	return min(max(j, 0), len(src.fs)-2)
}

func zeroSmall(d *dcs.DCS, tr *transcription, zb0 []float64, tol float64) {
	for _, grp := range d.Comp {
		for _, pr := range grp.Pairs {
			if pos, ok := tr.bzPos[pr.Lambda]; ok && zb0[pos] <= tol {
				zb0[pos] = 0
			}
		}
	}
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

// start builds the starting point and the bounds of the start variables.
func (s *OCPSolver) start() (w0, xl, xu []float64, err error) {
	b := s.b
	tr, d, p := b.tr, b.d, &s.p
	s.from = nil
	if p.Warm == nil && p.InitFrom != nil {
		s.from = newInitSource(p.InitFrom)
	}
	z0, err := initialGuess(d, s.x0, s.uStart(0), s.stageP(0))
	if err != nil {
		return nil, nil, nil, err
	}
	zb0 := make([]float64, len(d.BoundaryZ))
	for i, zi := range d.BoundaryZ {
		zb0[i] = z0[zi]
	}
	zeroSmall(d, tr, zb0, s.o.SwitchTol)
	xl, xu = clone(tr.wl), clone(tr.wu)
	if tr.startIdx >= 0 {
		for i := range zb0 {
			zi := d.BoundaryZ[i]
			v := math.Min(math.Max(zb0[i], d.ZLower[zi]), d.ZUpper[zi])
			xl[tr.startIdx+i], xu[tr.startIdx+i] = v, v
		}
	}
	if p.Warm != nil {
		if err := checkWarm(p.Warm.w, len(tr.w)); err != nil {
			return nil, nil, nil, err
		}
		w0 = clone(p.Warm.w)
	} else {
		w0, err = s.coldStart(zb0)
		if err != nil {
			return nil, nil, nil, err
		}
	}
	if tr.startIdx >= 0 {
		for i := range zb0 {
			w0[tr.startIdx+i] = xl[tr.startIdx+i]
		}
	}
	for k := range w0 {
		w0[k] = math.Min(math.Max(w0[k], xl[k]), xu[k])
	}
	return w0, xl, xu, nil
}

func (s *OCPSolver) coldStart(zb0 []float64) ([]float64, error) {
	b := s.b
	tr, d, p, tab := b.tr, b.d, &s.p, s.o.tab
	ns := tr.ns
	NE := tr.N
	// guesses per element: stage points and end
	xG := make([][][]float64, NE)
	zG := make([][][]float64, NE)
	fG := make([][][]float64, NE)
	xE := make([][]float64, NE)
	zE := make([][]float64, NE)
	sot := make([]float64, b.N)
	for k := range sot {
		sot[k] = 1
		if b.sIdx[k] >= 0 && p.SOTInit > 0 {
			sot[k] = p.SOTInit
		}
		if b.sGlob >= 0 && p.SpeedOfTime == GlobalSpeedOfTime && p.SOTInit > 0 {
			sot[k] = p.SOTInit
		}
	}
	if s.from != nil {
		for k := range sot {
			if b.sIdx[k] >= 0 || b.sGlob >= 0 {
				sot[k] = p.InitFrom.SOT[s.from.stage(b, k)]
			}
		}
	}
	var simX [][][]float64
	var simE [][]float64
	if len(p.XInit) == 0 && s.from == nil {
		simX, simE = s.forwardGuess(sot)
	}
	for n := 0; n < NE; n++ {
		k := b.stageOf[n]
		ln := n - b.elemStart[k]
		nf := float64(b.nfe[k])
		u, pv := s.uStart(k), s.stageP(k)
		xG[n] = make([][]float64, ns)
		zG[n] = make([][]float64, ns)
		fG[n] = make([][]float64, ns)
		for m := 0; m < ns; m++ {
			fr := (float64(ln) + tab.C[m]) / nf
			x := s.xGuess(k, fr)
			if simX != nil {
				x = simX[n][m]
			}
			z, err := initialGuess(d, x, u, pv)
			if err != nil {
				return nil, err
			}
			xG[n][m], zG[n][m] = x, z
			if s.o.Representation == Differential {
				t := b.tau[k] + fr*(b.tau[k+1]-b.tau[k])
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
		xE[n] = s.xGuess(k, float64(ln+1)/nf)
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
		hs[n] = b.h0[b.stageOf[n]]
	}
	w := make([]float64, len(tr.w))
	tr.fillStart(w, elementStart{h: hs, x: xG, f: fG, z: zG, xe: xE, ze: zE, startZB0: zb0})
	for i, inf := range tr.winfo {
		switch inf.kind {
		case vU:
			w[i] = s.uStart(inf.n)[inf.i]
		case vSOT:
			if inf.n >= 0 {
				w[i] = sot[inf.n]
			} else {
				w[i] = sot[0]
			}
		case vV:
			w[i] = s.vStart(inf.i)
		}
	}
	return w, nil
}

// forwardGuess integrates the model from x₀ with the initial controls by
// explicit RK4 on the uniform grid, with the algebraic variables of the
// DCS's initial guess at every point (the mode of the region the point is
// in), and returns the states at the stage points and element ends. It
// returns nil if an evaluation fails or the trajectory is not finite.
func (s *OCPSolver) forwardGuess(sot []float64) ([][][]float64, [][]float64) {
	b := s.b
	tr, d, tab := b.tr, b.d, s.o.tab
	ns := tr.ns
	f := func(x []float64, k int, t float64) ([]float64, bool) {
		u, pv := s.uStart(k), s.stageP(k)
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
	xs := make([][][]float64, tr.N)
	xe := make([][]float64, tr.N)
	x := clone(s.x0)
	for n := 0; n < tr.N; n++ {
		k := b.stageOf[n]
		h := b.h0[k]
		t := b.tau[k] + float64(n-b.elemStart[k])*h
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

// Solve runs the MPCC homotopy from the OCP's initialization (or the warm
// start). A homotopy that does not reach mpcc.Solved is reported in
// Result.Status, not as an error; the error is for problems that could not
// run (bad inputs, evaluation errors).
func (s *OCPSolver) Solve(ctx context.Context) (*OCPResult, error) {
	b := s.b
	tr := b.tr
	w0, xl, xu, err := s.start()
	if err != nil {
		return nil, err
	}
	pv := append(clone(s.x0), b.pvals...)
	if err := s.prob.SetParams(pv); err != nil {
		return nil, err
	}
	if err := s.prob.SetVarBounds(xl, xu); err != nil {
		return nil, err
	}
	if err := s.prob.SetStart(w0); err != nil {
		return nil, err
	}
	solver := mpcc.Solver{Settings: s.o.MPCC, Inner: s.o.Inner}
	res, err := solver.Solve(ctx, &mpcc.Problem{NLP: s.prob, Comp: tr.comp})
	if err != nil {
		return nil, fmt.Errorf("fesd: OCP homotopy: %w", err)
	}
	r := &OCPResult{
		Status: res.Status, Homotopy: res.Steps,
		CompResidual: res.CompResidual, NaturalResidual: res.NaturalResidual, Elapsed: res.Elapsed,
		NumVariables: len(tr.w), NumConstraints: len(tr.c), NumComplementarities: len(tr.comp),
		DCS: b.d, w: clone(res.X),
	}
	for _, st := range res.Steps {
		r.Iterations += st.Iterations
	}
	if err := s.fill(r, res.X, pv); err != nil {
		return nil, err
	}
	if r.Infeasibility, err = s.infeasibility(res.X, pv); err != nil {
		return nil, err
	}
	if ls := res.LastSuccess; ls != nil && ls.Step < len(res.Steps)-1 {
		if r.LastSuccess, err = s.Evaluate(ls.X); err != nil {
			return nil, err
		}
		r.LastSuccess.Homotopy = append([]mpcc.HomotopyStep(nil), res.Steps[:ls.Step+1]...)
		for _, st := range r.LastSuccess.Homotopy {
			r.LastSuccess.Iterations += st.Iterations
		}
	}
	return r, nil
}

func (s *OCPSolver) fill(r *OCPResult, w, pv []float64) error {
	b := s.b
	tr := b.tr
	nx, nz, ns, NE, N := tr.nx, tr.nz, tr.ns, tr.N, b.N
	xb := make([]float64, (NE+1)*nx)
	xs := make([]float64, NE*ns*nx)
	tb := make([]float64, NE+1)
	h := make([]float64, NE)
	cost, obj, tf := make([]float64, 1), make([]float64, 1), make([]float64, 1)
	sv := make([]float64, N)
	if err := b.out.Eval(b.outW, [][]float64{w, pv}, [][]float64{xb, xs, tb, h, cost, obj, tf, sv}); err != nil {
		return err
	}
	r.Objective, r.NLPObjective, r.TFinal = cost[0], obj[0], tf[0]
	r.SOT = sv
	r.T, r.H = tb, h
	r.StageOf = clone2(b.stageOf)
	r.TPhys = make([]float64, NE+1)
	r.TPhys[0] = s.p.T0
	for n := 0; n < NE; n++ {
		r.TPhys[n+1] = r.TPhys[n] + sv[b.stageOf[n]]*h[n]
	}
	for n := 0; n <= NE; n++ {
		r.XFE = append(r.XFE, clone(xb[n*nx:(n+1)*nx]))
	}
	tab := s.o.tab
	for n := 0; n < NE; n++ {
		k := b.stageOf[n]
		for m := 0; m < ns; m++ {
			q := n*ns + m
			r.StageX = append(r.StageX, clone(xs[q*nx:(q+1)*nx]))
			r.StageZ = append(r.StageZ, clone(w[tr.zIdx[n][m]:tr.zIdx[n][m]+nz]))
			r.StageT = append(r.StageT, tb[n]+tab.C[m]*h[n])
			r.StageTPhys = append(r.StageTPhys, r.TPhys[n]+sv[k]*tab.C[m]*h[n])
		}
	}
	for k := 0; k <= N; k++ {
		n := b.elemStart[k]
		r.X = append(r.X, r.XFE[n])
		r.TStage = append(r.TStage, tb[n])
		r.TStagePhys = append(r.TStagePhys, r.TPhys[n])
	}
	for k := 0; k < N; k++ {
		r.U = append(r.U, clone(w[b.uIdx[k]:b.uIdx[k]+tr.nu]))
	}
	if b.vIdx >= 0 {
		r.V = clone(w[b.vIdx : b.vIdx+len(s.p.V)])
	}
	r.ElementResidual = make([]float64, NE)
	for k, c := range tr.comp {
		if n := tr.compElem[k]; n >= 0 {
			r.ElementResidual[n] = math.Max(r.ElementResidual[n], math.Abs(c.Value(w)))
		}
	}
	return nil
}

// Final returns the terminal state s_N.
func (r *OCPResult) Final() []float64 { return r.X[len(r.X)-1] }

// Algebraic returns the stage values of the algebraic variables of one
// block (dcs.Theta, dcs.Alpha, dcs.Lambda, …) of subsystem sub, one slice
// per stage point (StageT), or nil if the DCS has no such block.
func (r *OCPResult) Algebraic(kind dcs.VarKind, sub int) [][]float64 {
	bl, ok := r.DCS.ZBlock(kind, sub)
	if !ok {
		return nil
	}
	out := make([][]float64, len(r.StageZ))
	for i, z := range r.StageZ {
		out[i] = clone(z[bl.Start : bl.Start+bl.Len])
	}
	return out
}

// Theta returns θ of subsystem sub at the stage points.
func (r *OCPResult) Theta(sub int) [][]float64 { return r.Algebraic(dcs.Theta, sub) }

// Alpha returns α of subsystem sub (−1: the general steps) at the stage
// points (Step reformulation).
func (r *OCPResult) Alpha(sub int) [][]float64 { return r.Algebraic(dcs.Alpha, sub) }

// Lambda returns Stewart's λ of subsystem sub at the stage points.
func (r *OCPResult) Lambda(sub int) [][]float64 { return r.Algebraic(dcs.Lambda, sub) }

// UAt returns the control of the element or stage point at numerical time
// t (piecewise constant, right-continuous).
func (r *OCPResult) UAt(t float64) []float64 {
	k := 0
	for k+1 < len(r.U) && t >= r.TStage[k+1] {
		k++
	}
	return r.U[k]
}
