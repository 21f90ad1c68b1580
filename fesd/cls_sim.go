package fesd

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
)

// CLSSimulator simulates a complementarity Lagrangian system (dcs.CLS)
// with FESD-J (clsFormulation): every step of length T is the one-stage
// FESD-J NLP with N_FE finite elements and a fixed control, solved by the
// MPCC homotopy (package mpcc) from an event-driven guess of the step
// (clsGuess); the steps are chained by the end state. Impacts happen at element
// boundaries, the first element's start included, so an impact at the end
// of a step is the first event of the next.
//
// This first version has no event prediction, no branch solves and no
// sensitivities of Step (SimulateCLS computes them after the simulation,
// cls_sens.go), and reports impacts only (CLSResult.Impacts), not
// lift-off, stick and slip.
type CLSSimulator struct {
	// T is the step length.
	T     float64
	o     *resolved
	s     *clsSystem
	d     *dcs.DCS // the shell of the system's symbols
	tr    *transcription
	f     *clsFormulation
	kin   *ad.Function // (q, v, u, p) → (f_c, J_nᵀv)
	kw    *ad.Workspace
	in    mpcc.InnerSolver
	guess *clsGuess
	// halfSim is the simulator of half steps (span) and depth the number
	// of halvings of this one
	halfSim *CLSSimulator
	depth   int
	// retrySigma0, when positive, replaces CLSSigma0 as the default σ₀
	// (span's second homotopy of a failed step, clsRetrySigma0)
	retrySigma0 float64
}

// NewCLSSimulator builds the FESD-J step NLP of c for steps of length T
// with the options opts (Options.DCS is not used).
func NewCLSSimulator(c *dcs.CLS, opts Options, T float64) (*CLSSimulator, error) {
	if c == nil {
		return nil, ErrNilModel
	}
	if !(T > 0) || math.IsInf(T, 0) {
		return nil, fmt.Errorf("%w: step length %g", ErrHorizon, T)
	}
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	s, err := newCLSSystem(c)
	if err != nil {
		return nil, err
	}
	d := s.shell()
	tr, err := newCLSStep(s, d, o, T)
	if err != nil {
		return nil, err
	}
	kin, err := newCLSKinematics(s)
	if err != nil {
		return nil, err
	}
	guess, err := newCLSGuess(s)
	if err != nil {
		return nil, err
	}
	guess.restTime = T / float64(o.NFE)
	return &CLSSimulator{T: T, o: o, s: s, d: d, tr: tr, f: tr.form.(*clsFormulation), kin: kin, kw: kin.NewWorkspace(), guess: guess}, nil
}

// newCLSKinematics compiles (q, v, u, p) → (f_c, J_nᵀv) of s.
func newCLSKinematics(s *clsSystem) (*ad.Function, error) {
	kinOut := append(ad.Vec(nil), s.gap...)
	for _, jn := range s.normal {
		vn := s.g.Const(0)
		for j := range jn {
			vn = vn.Add(jn[j].Mul(s.v[j]))
		}
		kinOut = append(kinOut, vn)
	}
	kin, err := ad.NewFunction("fesdj_kin", []ad.Arg{ad.A("q", s.q...), ad.A("v", s.v...), ad.A("u", s.u...), ad.A("p", s.p...)},
		[]ad.Arg{ad.A("out", kinOut...)})
	if err != nil {
		return nil, fmt.Errorf("fesd: the contact kinematics: %w", err)
	}
	return kin, nil
}

// CLSSigma0 is σ₀ of a FESD-J step's homotopy when Options.MPCC.Sigma0
// is zero. The step starts from the guess (clsGuess), close to the
// solution; from σ₀ = 1 the relaxed NLPs may leave it for an impulse
// where the gap is open but small (Λ·Y ≤ σ): from 5.6 μm above the
// ground at 8.5 s (e = 0.9, 0.13 ms before its 34th impact) the homotopy
// of the step [8.5, 8.50625] then ends at σ_N with the complementarity
// violated, and from σ₀ = 1e-3 it solves.
const CLSSigma0 = 1e-3

// CLSFinish is what follows a FESD-J step's homotopy when
// Options.MPCC.Finish is mpcc.FinishDefault: the active-set finish
// (Simulator keeps the homotopy's point instead). A body at rest on the
// obstacle makes the impulse pairs biactive (Λ_n = Y = P = N = 0), where
// the relaxed solutions keep every side of order √σ: impulses and
// post-impact velocities of about 2e-5 at every boundary, and with
// friction μΛ_n of tangential velocity lost at each, which the sliding
// block accumulates to 1.8e-8 in velocity over 0.5 s. The finish's
// branch NLP makes them exactly zero, in fewer iterations (a sliding
// step: 58 against 124).
const CLSFinish = mpcc.ActiveSetFinish

// CLSActiveTol is the activity tolerance of a FESD-J step's active-set
// finish when Options.MPCC.ActiveTol is zero (mpcc's default is
// 10·√CompTol ≈ 3.2e-4). With that default every gap below 3.2e-4 counts
// as zero, and so does the gap at the start of a step, fixed by x₀, when
// an impact lies within about 1e-4 s of the step's start: every branch
// NLP of the finish is then infeasible, and the step keeps the homotopy's
// point at σ_N, with the impact 1.4e-11 s early, its gap 5.6e-11 and
// complementarity 8e-10 (the two balls of the FESD-J paper, §5.1, with
// N_sim = 800, the step [0.40375, 0.405]: the error floor of that study
// at 3e-9). With 1e-8 the finish succeeds at σ = 1e-7 and puts the impact
// on its exact time.
const CLSActiveTol = 1e-8

// clsRetrySigma0 is σ₀ of the second homotopy of a step that failed
// from CLSSigma0 (span, when Options.MPCC.Sigma0 is zero), before it is
// tried as two halves. Near a Zeno point the bounces are small (gaps of
// 1e-5 m, impulses of 0.03 N s), and the relaxed NLPs of a homotopy
// from CLSSigma0 can leave the guess for an impulse at an open gap or
// contact forces in flight, which end Infeasible or at SigmaLimit
// (measured, the ball from rest at height 1 in 0.1 s steps to t* + 0.5 s:
// e = 0.93…0.97 failed 0.07–0.15 s before t*); another σ₀ follows
// another path. Chosen by that measurement, before openStart: with 1e-5
// every e in 0.90…0.96 came to rest, with 1e-6 e = 0.95 failed, with
// 1e-7 e = 0.96, with 1e-2 e = 0.93, and e = 0.97 with each. With
// openStart and this retry all of 0.90…0.97 come to rest; without the
// retry e = 0.94…0.97 still fail (Infeasible).
const clsRetrySigma0 = 1e-5

// clsMaxHalvings bounds the halvings of a step (span): steps down to
// T/64.
const clsMaxHalvings = 6

// half returns the simulator of steps of length T/2 (built once), which
// shares the system and the guess.
func (cs *CLSSimulator) half() (*CLSSimulator, error) {
	if cs.halfSim != nil {
		return cs.halfSim, nil
	}
	s, o := cs.s, cs.o
	tr, err := newCLSStep(s, cs.d, o, cs.T/2)
	if err != nil {
		return nil, err
	}
	cs.halfSim = &CLSSimulator{T: cs.T / 2, o: o, s: s, d: cs.d, tr: tr, f: tr.form.(*clsFormulation),
		kin: cs.kin, kw: cs.kw, in: cs.in, guess: cs.guess, depth: cs.depth + 1}
	return cs.halfSim, nil
}

// interior returns the number of impacts of the guess strictly inside the
// step [t0, t0 + T].
func (cs *CLSSimulator) interior(t0 float64, x0, u, p []float64) int {
	g := cs.guess
	g.u, g.p = u, p
	g.within(cs.o.tab, t0+cs.T)
	_, imps := g.run(x0, t0, []float64{t0 + cs.T}, cs.T/float64(cs.tr.NE)/20)
	k := 0
	for _, im := range imps {
		if im.t > t0+1e-9*cs.T && im.t < t0+cs.T*(1-1e-9) {
			k++
		}
	}
	return k
}

// span solves the step [t0, t0 + T] from x0: by Step, or, when the
// guess has more impacts inside it than the N_FE − 1 inner element
// boundaries can hold (the impacts before a Zeno point), as two steps of
// half the length, recursively up to clsMaxHalvings times. It returns the
// steps solved, the last one failed with its error. A step that fails is
// solved again from σ₀ = clsRetrySigma0 (when Options.MPCC.Sigma0 is
// zero), then tried as two halves (up to the same depth); if that fails
// too, the first failed step is returned.
func (cs *CLSSimulator) span(ctx context.Context, t0 float64, x0, u, p []float64) ([]*CLSStep, error) {
	if err := cs.checkInputs(x0, u, p); err != nil {
		return nil, err
	}
	if cs.depth < clsMaxHalvings && cs.interior(t0, x0, u, p) > cs.tr.NE-1 {
		h, err := cs.half()
		if err != nil {
			return nil, err
		}
		a, err := h.span(ctx, t0, x0, u, p)
		if err != nil || len(a) == 0 {
			return a, err
		}
		last := a[len(a)-1]
		b, err := h.span(ctx, t0+h.T, last.X[len(last.X)-1], u, p)
		return append(a, b...), err
	}
	st, err := cs.Step(ctx, t0, x0, u, p)
	var se *StepError
	if errors.As(err, &se) && se.Status != mpcc.Cancelled && cs.o.MPCC.Sigma0 == 0 {
		// a failed step is solved again from clsRetrySigma0 first
		cs.retrySigma0 = clsRetrySigma0
		st2, err2 := cs.Step(ctx, t0, x0, u, p)
		cs.retrySigma0 = 0
		if err2 == nil {
			return []*CLSStep{st2}, nil
		}
	}
	if errors.As(err, &se) && se.Status != mpcc.Cancelled && cs.depth < clsMaxHalvings {
		// a failed step is tried again as two halves: an impact close
		// to a step boundary (0.12 ms before the end of a 25 ms step) is
		// then one in the middle of a shorter step
		h, herr := cs.half()
		if herr != nil {
			return nil, herr
		}
		a, aerr := h.span(ctx, t0, x0, u, p)
		if aerr == nil && len(a) > 0 {
			last := a[len(a)-1]
			b, berr := h.span(ctx, t0+h.T, last.X[len(last.X)-1], u, p)
			if berr == nil {
				return append(a, b...), nil
			}
		}
	}
	if st == nil {
		return nil, err
	}
	return []*CLSStep{st}, err
}

// newCLSStep builds the FESD-J NLP of a simulation step of length T: the
// one-stage problem with a fixed control, through the shared builder with
// the formulation of s (d is the shell of its symbols).
func newCLSStep(s *clsSystem, d *dcs.DCS, o *resolved, T float64) (*transcription, error) {
	p := &OCP{X0: make([]float64, 2*s.nq), N: 1, T: T, P: make([]float64, len(s.p))}
	L := newLayout(d, o.Stages, 1, T, func(int) int { return o.NFE })
	return buildTranscription(&transcription{layout: L, p: p, o: o, d: d, g: d.Graph, fixed: true,
		isGlob: map[ad.Expr]bool{}, own: newCLSFormulation(s)})
}

// kinematics returns the gaps f_c(q) and the normal velocities J_nᵀv at
// x = (q, v).
func (cs *CLSSimulator) kinematics(x, u, p []float64) (gap, vn []float64, err error) {
	out := make([]float64, 2*cs.s.nc)
	if err := cs.kin.Eval(cs.kw, [][]float64{x[:cs.s.nq], x[cs.s.nq:], u, p}, [][]float64{out}); err != nil {
		return nil, nil, err
	}
	return out[:cs.s.nc], out[cs.s.nc:], nil
}

// checkInputs reports inputs of the wrong length or not finite.
func (cs *CLSSimulator) checkInputs(x0, u, p []float64) error {
	s := cs.s
	if err := checkVec("x0", x0, 2*s.nq); err != nil {
		return err
	}
	if err := checkVec("u", u, len(s.u)); err != nil {
		return err
	}
	return checkVec("p", p, len(s.p))
}

// CLSStep is the solution of one step.
type CLSStep struct {
	Record StepRecord
	// T are the N_FE + 1 element boundaries, X the states there: x₀, then
	// the end state of every element (before an impulse at that boundary).
	T []float64
	X [][]float64
	// XStart are the states the N_FE elements start from (after the
	// impulses at their start): X[n] with the post-impact velocity v⁺.
	XStart [][]float64
	// Impulse are the normal impulses Λ_n of every contact at the start of
	// every element ([n][contact]).
	Impulse [][]float64
	// H are the element lengths.
	H []float64
	// Modes are the modes of every contact on every element ([n][c]).
	Modes [][]ContactMode
	// sim solved the step at w with the parameters pv, finished on its
	// branch by the active-set finish if finished (cls_sens.go)
	sim      *CLSSimulator
	w, pv    []float64
	finished bool
}

// Step solves the step [t0, t0 + T] from x0 with the control u and the
// parameters p (nil when the system has none). A homotopy that does not
// reach mpcc.Solved gives the result with a *StepError.
func (cs *CLSSimulator) Step(ctx context.Context, t0 float64, x0, u, p []float64) (*CLSStep, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	tr := cs.tr
	if err := cs.checkInputs(x0, u, p); err != nil {
		return nil, err
	}
	pv := clone(tr.pvals)
	copy(pv[tr.px0:], x0)
	copy(pv[tr.pu[0]:], u)
	for i, k := range tr.pp[0] {
		pv[k] = p[i]
	}
	pv[tr.pt0] = t0
	w := cs.guess.start(cs.f, t0, x0, u, p)
	wu, err := cs.openStart(x0, u, p)
	if err != nil {
		return nil, err
	}
	for k := range w { // the start must respect the bounds
		w[k] = math.Min(math.Max(w[k], tr.wl[k]), wu[k])
	}
	if tr.phref >= 0 {
		// the HeuristicMean targets are the guess's element lengths (as
		// Simulator takes its prediction's): with the nominal ones, the
		// relaxed NLP of σ₀ = 1 leaves the guess for a grid of equal
		// elements with an impulse where the gap is still open (Λ·Y ≤ σ),
		// a branch that ends infeasible (the ball at 6.9 s, 5.6 ms before
		// its 16th impact)
		for n := 0; n < tr.NE; n++ {
			pv[tr.phref+n] = w[tr.h[n]]
		}
	}
	if err := tr.prob.SetParams(pv); err != nil {
		return nil, err
	}
	if err := tr.prob.SetVarBounds(tr.wl, wu); err != nil {
		return nil, err
	}
	if err := tr.prob.SetStart(w); err != nil {
		return nil, err
	}
	solver := mpcc.Solver{Settings: cs.o.MPCC, Inner: cs.o.Inner}
	if solver.Settings.Sigma0 == 0 {
		solver.Settings.Sigma0 = CLSSigma0
		if cs.retrySigma0 > 0 {
			solver.Settings.Sigma0 = cs.retrySigma0
		}
	}
	if solver.Settings.Finish == mpcc.FinishDefault {
		solver.Settings.Finish = CLSFinish
	}
	if solver.Settings.ActiveTol == 0 {
		solver.Settings.ActiveTol = CLSActiveTol
	}
	if solver.Inner == nil {
		if cs.in == nil {
			cs.in = &mpcc.NLPSolver{Settings: cs.o.nlpSettings()}
		}
		solver.Inner = cs.in
	}
	res, err := solver.Solve(ctx, &mpcc.Problem{NLP: tr.prob, Comp: tr.comp})
	if err != nil && res == nil {
		return nil, fmt.Errorf("fesd: FESD-J step at t = %g: %w", t0, err)
	}
	rec := StepRecord{T0: t0, T1: t0 + cs.T, Status: res.Status, Homotopy: res.Steps,
		CompResidual: res.CompResidual, NaturalResidual: res.NaturalResidual, Elapsed: res.Elapsed,
		Stationarity: res.Stationarity, Iterations: res.FinishIterations}
	for _, h := range res.Steps {
		rec.Iterations += h.Iterations
	}
	st, oerr := cs.read(res.X, pv)
	if oerr != nil {
		return nil, oerr
	}
	st.Record = rec
	st.sim, st.w, st.pv = cs, res.X, pv
	st.finished = res.Finish != nil && res.Finish.Accepted
	if res.Status != mpcc.Solved {
		se := &StepError{T0: t0, Status: res.Status, CompResidual: res.CompResidual, Cause: err}
		if n := len(res.Steps); n > 0 {
			se.NLPStatus, se.Sigma = res.Steps[n-1].Status, res.Steps[n-1].Sigma
		}
		return st, se
	}
	return st, nil
}

// openStart returns the upper bounds of the step's variables with the
// normal impulse at the step's start fixed at zero for every contact whose
// gap at x0 exceeds clsImpactGap: Λ ⊥ f_c(q₀) + P + N with f_c(q₀) > 0
// known. The relaxed NLPs otherwise may reverse the body there with an
// impulse of order σ/f_c (the ball, e = 0.97: 0.0064 N s at a gap of
// 1.5e-5 m at 29.534375 s, the step ending at SigmaLimit).
func (cs *CLSSimulator) openStart(x0, u, p []float64) ([]float64, error) {
	gap, _, err := cs.kinematics(x0, u, p)
	if err != nil {
		return nil, err
	}
	wu := cs.tr.wu
	for c, g := range gap {
		if g > clsImpactGap {
			if &wu[0] == &cs.tr.wu[0] {
				wu = clone(wu)
			}
			wu[cs.f.pos.start[0][clsLam]+c] = 0
		}
	}
	return wu, nil
}

// read returns the step's solution w.
func (cs *CLSSimulator) read(w, pv []float64) (*CLSStep, error) {
	tr, f, s := cs.tr, cs.f, cs.s
	out, err := tr.outputs(w, pv)
	if err != nil {
		return nil, err
	}
	nx := tr.nx
	st := &CLSStep{T: clone(out.tb), H: clone(out.h)}
	for n := 0; n <= tr.NE; n++ {
		st.X = append(st.X, clone(out.xb[n*nx:(n+1)*nx]))
	}
	for n := 0; n < tr.NE; n++ {
		xs := clone(st.X[n])
		b := f.pos.start[n]
		copy(xs[s.nq:], w[b[clsVP]:b[clsVP]+s.nq])
		st.XStart = append(st.XStart, xs)
		st.Impulse = append(st.Impulse, clone(w[b[clsLam]:b[clsLam]+s.nc]))
		st.Modes = append(st.Modes, cs.modes(w, n))
	}
	return st, nil
}

// Tolerances of the contact modes (modes).
const (
	clsGapTol = 1e-8 // a closed gap
	clsVelTol = 1e-7 // a sliding contact's |J_tᵀv|
)

// modes returns the mode of every contact on element n of the solution w:
// open if its gap exceeds clsGapTol at a stage point, else closed, and
// with friction sliding if γ = |J_tᵀv| exceeds clsVelTol at a stage
// point, else sticking.
func (cs *CLSSimulator) modes(w []float64, n int) []ContactMode {
	f, s := cs.f, cs.s
	out := make([]ContactMode, s.nc)
	for c := range out {
		gap, vt := 0.0, 0.0
		for m := 0; m < cs.tr.ns; m++ {
			p := f.pos.point[n][m]
			gap = math.Max(gap, w[p[clsGap]+c])
			if s.friction {
				vt = math.Max(vt, w[p[clsgam]+c])
			}
		}
		switch {
		case gap > clsGapTol:
			out[c] = ContactOpen
		case s.mu[c] == 0:
			out[c] = ContactClosed
		case vt > clsVelTol:
			out[c] = ContactSliding
		default:
			out[c] = ContactSticking
		}
	}
	return out
}

// ContactMode is the state of a contact on a finite element.
type ContactMode int8

const (
	// ContactOpen: the gap is open on the element (it may close at its
	// end).
	ContactOpen ContactMode = iota
	// ContactClosed: the gap is closed, a frictionless contact.
	ContactClosed
	// ContactSticking: closed with friction, the tangential velocity
	// zero.
	ContactSticking
	// ContactSliding: closed with friction, sliding.
	ContactSliding
)

func (m ContactMode) String() string {
	switch m {
	case ContactOpen:
		return "open"
	case ContactClosed:
		return "closed"
	case ContactSticking:
		return "sticking"
	case ContactSliding:
		return "sliding"
	}
	return fmt.Sprintf("ContactMode(%d)", int(m))
}

// closed reports a mode with the gap closed.
func (m ContactMode) closed() bool { return m != ContactOpen }

// ContactEventKind is the kind of a ContactEvent.
type ContactEventKind int8

const (
	// ContactImpact: a normal impulse above ImpactTol on an approaching
	// contact (J_nᵀv⁻ < −ImpactTol) with the gap closed (at most 1e-7).
	ContactImpact ContactEventKind = iota
	// ContactLiftOff: a closed contact opens, without an impact.
	ContactLiftOff
	// ContactStick: a sliding contact sticks.
	ContactStick
	// ContactSlip: a sticking contact starts to slide.
	ContactSlip
)

func (k ContactEventKind) String() string {
	switch k {
	case ContactImpact:
		return "impact"
	case ContactLiftOff:
		return "lift-off"
	case ContactStick:
		return "stick"
	case ContactSlip:
		return "slip"
	}
	return fmt.Sprintf("ContactEventKind(%d)", int(k))
}

// ContactEvent is an event of a contact at an element boundary: an
// impact, or a change of its mode between the elements before and after
// (Before, After; the modes of the first element of the simulation have
// no event).
type ContactEvent struct {
	Kind ContactEventKind
	// Time is the element boundary t_n, Boundary its index in
	// CLSResult.T and Step the simulation step of the element after it.
	Time     float64
	Boundary int
	Step     int
	// Contact is the index of the contact (dcs.CLS's order).
	Contact int
	// Impulse is the normal impulse Λ_n; VnBefore and VnAfter are the
	// normal velocities J_nᵀv before and after it (VnAfter = −e VnBefore
	// for an impact).
	Impulse           float64
	VnBefore, VnAfter float64
	Before, After     ContactMode
}

// CLSResult is a FESD-J simulation.
type CLSResult struct {
	// T are the element boundaries, X the states there: x₀, then the end
	// state of every element, before an impulse at that boundary (the
	// last one included: an impact at the end time is not applied).
	T []float64
	X [][]float64
	// XStart are the states the elements start from, after the impulses:
	// XStart[i] at T[i] (len(T) − 1 of them).
	XStart [][]float64
	// Events are the contact events, in the order of time and contact.
	// Impacts are the boundaries with a normal impulse above ImpactTol
	// that meet the contact approaching, J_nᵀv⁻ < −ImpactTol, with a gap
	// of at most 1e-7 there (an impulse at an open gap is one of a
	// relaxed solution, not an impact). The second condition leaves out the impulses of a body at rest on the obstacle
	// in a step that keeps its homotopy point (without the active-set
	// finish, CLSFinish, or where it is rejected): there the impulse
	// pairs are biactive and the relaxed solution keeps impulses and
	// post-impulse velocities of order √σ (about 2e-5), which the contact
	// force takes out within the element.
	Events []ContactEvent
	// Modes are the modes of every contact on every element ([i][c] on
	// the element starting at T[i]).
	Modes [][]ContactMode
	// Steps has one solver record per step (including a failed last one).
	Steps []StepRecord
	// Sensitivity holds ∂x(T0 + TSim)/∂(x₀, u, p) (SimOptions.Sensitivity;
	// DU only for a constant control U; nil otherwise), and
	// SensitivityOnContact the contacts closed at x₀: DX0 is a derivative
	// only along the directions that keep them closed (and sticking ones
	// sticking; the comment at the top of cls_sens.go).
	Sensitivity          *Sensitivity
	SensitivityOnContact []int
}

// ImpactTol is the impulse above which CLSResult reports an impact.
const ImpactTol = 1e-6

// clsImpactGap is the largest gap at which CLSResult reports an impact
// (CLSResult.Events). The impacts of steps that keep their homotopy
// point have gaps up to about 5e-9 m; near a Zeno point such steps also
// have impulses of 1e-6 at gaps of 1e-5 m, which change the velocity by
// as little (the ball with e = 0.95: v⁻ = −3.9e-4, v⁺ = −3.9e-4 at
// z = 1.02e-5, reported as impacts 113 and 116 of 117 before).
const clsImpactGap = 1e-7

// SimulateCLS simulates c from x0 over [T0, T0 + TSim] in NSim FESD-J
// steps (CLSSimulator) with opts.U (or UFunc) and opts.P. ColdStart and
// NoPredict are not used (every step starts cold; there is no
// prediction); Sensitivity fills CLSResult.Sensitivity where it is
// defined and otherwise returns the trajectory with an error wrapping
// ErrSensitivity (cls_sens.go). On a failed step it returns what was
// computed up to it, with the failed step, and a *StepError.
//
// A step whose guess has more impacts inside it than the N_FE − 1 inner
// element boundaries is solved as two half steps (recursively, down to
// T/64); one that fails is solved again from another σ₀ (clsRetrySigma0,
// when Options.MPCC.Sigma0 is zero), then as two half steps. At an
// accumulation point of impacts (the
// Zeno point of a bouncing ball, t* = √(2/g)(1 + e)/(1 − e) from rest at
// height 1) the impacts are resolved one by one, each on an element
// boundary, until what is left of the sequence after an impact,
// 2v_n⁺/(|a_n|(1 − e)) with the normal free acceleration a_n, is shorter
// than about one nominal element T/N_FE: then the guess rests, and the
// NLP (which may still resolve a few bounces) takes the solution in
// which the contact force stops the body within the element after an
// impact. The body is then at rest on the obstacle from before t* on,
// at most about one element early, the unresolved bounces lower than
// (v_n⁺)²/(2|a_n|) (TestCLSBallZeno).
func SimulateCLS(ctx context.Context, c *dcs.CLS, x0 []float64, opts SimOptions) (*CLSResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fesd: simulation not started: %w", err)
	}
	if err := checkHorizon(opts); err != nil {
		return nil, err
	}
	T := opts.TSim / float64(opts.NSim)
	cs, err := NewCLSSimulator(c, opts.Options, T)
	if err != nil {
		return nil, err
	}
	res := &CLSResult{T: []float64{opts.T0}, X: [][]float64{clone(x0)}}
	x := clone(x0)
	var steps []*CLSStep
	for k := 0; k < opts.NSim; k++ {
		t0 := opts.T0 + float64(k)*T
		u := uAt(opts, t0)
		sts, err := cs.span(ctx, t0, x, u, opts.P)
		if opts.Sensitivity {
			steps = append(steps, sts...)
		}
		var se *StepError
		if errors.As(err, &se) {
			se.Step = k
		}
		if len(sts) == 0 {
			return res, fmt.Errorf("fesd: FESD-J step %d: %w", k, err)
		}
		for _, st := range sts {
			st.Record.Step = k
			res.Steps = append(res.Steps, st.Record)
			base := len(res.T) - 1
			for n := range st.XStart {
				res.XStart = append(res.XStart, st.XStart[n])
				if err := cs.events(res, st, n, base+n, k, u, opts.P); err != nil {
					return res, err
				}
				res.T = append(res.T, st.T[n+1])
				res.X = append(res.X, st.X[n+1])
			}
			x = clone(st.X[len(st.X)-1])
		}
		if err != nil {
			return res, fmt.Errorf("fesd: FESD-J step %d: %w", k, err)
		}
	}
	if opts.Sensitivity {
		return res, cs.sensitivity(ctx, res, steps, x0, opts)
	}
	return res, nil
}

// events appends the impacts at the start of element n of step st
// (boundary b of the result).
func (cs *CLSSimulator) events(res *CLSResult, st *CLSStep, n, b, k int, u, p []float64) error {
	var prev []ContactMode
	if len(res.Modes) > 0 {
		prev = res.Modes[len(res.Modes)-1]
	}
	res.Modes = append(res.Modes, st.Modes[n])
	gap, before, err := cs.kinematics(st.X[n], u, p)
	if err != nil {
		return err
	}
	_, after, err := cs.kinematics(st.XStart[n], u, p)
	if err != nil {
		return err
	}
	for c, lam := range st.Impulse[n] {
		ev := ContactEvent{Time: st.T[n], Boundary: b, Step: k, Contact: c,
			Impulse: lam, VnBefore: before[c], VnAfter: after[c], After: st.Modes[n][c]}
		if prev != nil {
			ev.Before = prev[c]
		}
		impact := lam > ImpactTol && before[c] < -ImpactTol && gap[c] <= clsImpactGap
		switch {
		case impact:
			ev.Kind = ContactImpact
		case prev == nil:
			continue
		case ev.Before.closed() && ev.After == ContactOpen:
			ev.Kind = ContactLiftOff
		case ev.Before == ContactSliding && ev.After == ContactSticking:
			ev.Kind = ContactStick
		case ev.Before == ContactSticking && ev.After == ContactSliding:
			ev.Kind = ContactSlip
		default:
			continue
		}
		res.Events = append(res.Events, ev)
	}
	return nil
}

// Impacts returns the events of kind ContactImpact.
func (r *CLSResult) Impacts() []ContactEvent {
	var out []ContactEvent
	for _, ev := range r.Events {
		if ev.Kind == ContactImpact {
			out = append(out, ev)
		}
	}
	return out
}
