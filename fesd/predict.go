package fesd

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/rk"
)

// The event-driven predictor of simulation steps (on unless
// Simulator.NoPredict is set).
//
// It integrates the model over the step [t₀, t₀ + T] by explicit RK4 with
// the algebraic variables of dcs.DCS.InitialGuess at every evaluation (the
// mode of the region the point is in), watches the mode signature (which
// selection of every complementarity pair is positive), and locates every
// change of signature by bisection on the flow of the current mode
// extended across its boundary (so an RK4 step never mixes the fields of
// two modes; the event times are exact up to the RK4 error of the
// smooth flow). When it finds between 1 and N_FE − 1
// well separated events it places element boundaries at them, distributes
// the remaining elements over the pieces between events so that every step
// size respects the bounds (1 ± γ_h)h₀, and fills the NLP start with the
// predicted stage states and the algebraic values of each element's mode.
// Step uses the predicted grid also as the targets of the HeuristicMean
// step equilibration, which otherwise pulls the boundaries of the relaxed
// NLPs at large σ back to the uniform grid. The homotopy then starts with every switch already on an element
// boundary, which is where FESD puts it, instead of having to move the grid
// there through a sequence of relaxed NLPs (it is the move that fails: on
// IRMA at t ∈ [194, 196], with two switches 0.49 min apart, every relaxed
// NLP from σ = 1e-4 on converges to a point of local infeasibility from the
// uniform grid; see examples/irma).
//
// Sliding motions show up as chattering (more events than elements), and
// no event at all leaves nothing to gain; in both cases the predictor
// declines and the usual start is used.

const (
	predictSubsteps = 8    // RK4 substeps per finite element
	predictBisect   = 48   // bisection steps per event
	predictMinGap   = 0.05 // events closer than this·h₀ to each other are ignored
	// predictMaxGrowth bounds the growth of the state's largest entry
	// (at least 1) over one RK4 substep of the predictor.
	predictMaxGrowth = 1e3
	// boundarySnap: an event closer than boundarySnap·T to t₀ or t₀ + T
	// is on that step boundary (see "Switches at step boundaries" in the
	// package documentation).
	boundarySnap = 1e-11
	// slideSnap is boundarySnap for an entry into sliding: on an element
	// shorter than this·T the sliding motion's convex combination is not
	// determined to the complementarity tolerance (ψ changes by less over
	// it), so such an element is not made.
	slideSnap = 1e-8
)

// predictor holds the inputs of one predicted step.
type predictor struct {
	s     *Simulator
	u, p  []float64
	t0, T float64
	// frozen marks the pairs (in the order of the signature) of the
	// complementarity groups that slide: their selections keep the values
	// fz of the previous solution and their multipliers are zero, so the
	// predictor follows that sliding motion with a frozen convex
	// combination instead of chattering across the surface.
	frozen []bool
	fz     []float64
	// endSnapped is set when cuts put the last event on the step's end
	// (smallAtEnd).
	endSnapped bool
	// step is the RK4 stepper of rk4 (made on first use), stageMode the
	// mode its right-hand side (stageRHS) evaluates and stageFailed set
	// when an evaluation failed.
	step        *rk.ExplicitStepper
	stageMode   mode
	stageFailed bool
}

// mode is a region of the state space: the signature of its algebraic
// values (which selection of every complementarity pair is positive) and
// reference algebraic values z taken inside it; or a sliding motion.
type mode struct {
	sig []bool
	z   []float64
	// slide, if not nil, makes the mode a sliding motion on the surface
	// between two regions (its signature has the positive selections of
	// both, and no multiplier of those pairs).
	slide *slideMode
}

// slideMode is a sliding motion on the surface between the regions a
// (where it was entered) and b: the flow of each region points into the
// other. Its algebraic values are the convex combination (1 − w)·z_a +
// w·z_b, with w the share of time the chattering prediction spends in b
// (Filippov's convex combination, to first order in the substep).
type slideMode struct {
	a, b mode
	w    float64
}

// slideReturn bounds (relative to the step length T) the time after an
// event in which the flow of the region entered returns to the region left
// for the event to count as the start of a sliding motion: both flows
// point into the surface.
const slideReturn = 1e-6

// event is a predicted mode change at time t (relative to t₀) with the
// state there and the mode entered.
type event struct {
	t float64
	x []float64
	m mode
}

// guess returns dcs.DCS.InitialGuess at x and its signature.
func (pr *predictor) guess(x []float64) ([]float64, []bool, bool) {
	z, err := pr.s.d.InitialGuess(x, pr.u, pr.p)
	if err != nil {
		return nil, nil, false
	}
	if pr.frozen != nil {
		k := 0
		for _, g := range pr.s.d.Comp {
			for _, p := range g.Pairs {
				if pr.frozen[k] {
					z[p.Sel] = pr.fz[p.Sel]
					z[p.Lambda] = 0
				}
				k++
			}
		}
	}
	return z, pr.signature(nil, z), true
}

// modal returns the algebraic values of mode m at x: InitialGuess(x) where
// x lies in m's region; elsewhere (the extension of m's flow across its
// boundary, as in an event location) the selections and other algebraic
// variables of m.z, with the multipliers of InitialGuess(x) on the pairs
// whose selection side is positive in m set to zero.
func (pr *predictor) modal(x []float64, m mode) ([]float64, bool) {
	if sl := m.slide; sl != nil {
		za, ok := pr.modal(x, sl.a)
		if !ok {
			return nil, false
		}
		zb, ok := pr.modal(x, sl.b)
		if !ok {
			return nil, false
		}
		for i := range za {
			za[i] = (1-sl.w)*za[i] + sl.w*zb[i]
		}
		k := 0
		for _, g := range pr.s.d.Comp {
			for _, p := range g.Pairs {
				if m.sig[k] {
					za[p.Lambda] = 0
				}
				k++
			}
		}
		return za, true
	}
	z, sig, ok := pr.guess(x)
	if !ok {
		return nil, false
	}
	if sameSig(sig, m.sig) {
		return z, true
	}
	out := clone(m.z)
	k := 0
	for _, g := range pr.s.d.Comp {
		for _, p := range g.Pairs {
			if m.sig[k] {
				out[p.Lambda] = 0
			} else {
				out[p.Lambda] = z[p.Lambda]
			}
			k++
		}
	}
	return out, true
}

// rhs is ẋ of mode m at (x, t).
func (pr *predictor) rhs(x []float64, t float64, m mode) ([]float64, bool) {
	z, ok := pr.modal(x, m)
	if !ok {
		return nil, false
	}
	f, err := pr.s.d.EvalF(x, pr.u, pr.p, z, pr.t0+t)
	if err != nil {
		return nil, false
	}
	for _, v := range f {
		if bad(v) {
			return nil, false
		}
	}
	return f, true
}

// signature appends the mode signature of z to dst[:0].
func (pr *predictor) signature(dst []bool, z []float64) []bool {
	dst = dst[:0]
	for _, g := range pr.s.d.Comp {
		for _, p := range g.Pairs {
			_, b := p.Values(z)
			dst = append(dst, b > 0.5 || (pr.frozen != nil && pr.frozen[len(dst)]))
		}
	}
	return dst
}

func sameSig(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// rk4 advances x from t (relative to t₀) by one RK4 step (rk.RK4 with
// rk.ExplicitStepper) of length h of the flow of mode m; for a sliding
// mode, of the region x is in (so that successive steps chatter across the
// surface and follow the sliding motion to first order in h). It returns
// a new slice and does not modify x.
func (pr *predictor) rk4(x []float64, t, h float64, m mode) ([]float64, bool) {
	if m.slide != nil {
		var ok bool
		if m, ok = pr.side(x, m.slide); !ok {
			return nil, false
		}
	}
	if pr.step == nil || pr.step.Dim() != len(x) {
		st, err := rk.NewExplicitStepper(rk.RK4(), len(x))
		if err != nil {
			return nil, false
		}
		pr.step = st
	}
	pr.stageMode, pr.stageFailed = m, false
	o := make([]float64, len(x))
	pr.step.StepTo(o, pr.stageRHS, t, x, h)
	pr.stageMode = mode{}
	if pr.stageFailed {
		return nil, false
	}
	scale := 1.0
	for _, v := range x {
		scale = math.Max(scale, math.Abs(v))
	}
	for _, v := range o {
		// An explicit step outside its stability region (a stiff mode,
		// |λ|h beyond RK4's 2.78) grows the state by orders of magnitude
		// per substep; such a prediction would only start the solves far
		// from the solution (1e84 on a stiff decay), so the predictor
		// declines.
		if bad(v) || math.Abs(v) > predictMaxGrowth*scale {
			return nil, false
		}
	}
	return o, true
}

// stageRHS is the right-hand side of the stepper of rk4: ẋ of the mode
// stageMode at (y, t). A failed evaluation sets stageFailed (the stepper's
// right-hand side cannot return one) and skips the remaining stages.
func (pr *predictor) stageRHS(t float64, y, dy []float64) {
	if pr.stageFailed {
		return
	}
	f, ok := pr.rhs(y, t, pr.stageMode)
	if !ok {
		pr.stageFailed = true
		return
	}
	copy(dy, f)
}

// side returns the region of x during the sliding motion sl: a or b, or
// the region of InitialGuess(x) when x has left both.
func (pr *predictor) side(x []float64, sl *slideMode) (mode, bool) {
	z, sig, ok := pr.guess(x)
	if !ok {
		return mode{}, false
	}
	switch {
	case sameSig(sig, sl.a.sig):
		return sl.a, true
	case sameSig(sig, sl.b.sig):
		return sl.b, true
	}
	return mode{sig: sig, z: z}, true
}

// advance integrates the flow of m from (x, t) over dt in substeps of at
// most maxStep.
func (pr *predictor) advance(x []float64, t, dt, maxStep float64, m mode) ([]float64, bool) {
	if dt <= 0 {
		return clone(x), true
	}
	n := math.Ceil(dt/maxStep - 1e-9)
	if !(maxStep > 0) || !(n < 1e6) {
		return nil, false
	}
	k := max(1, int(n))
	h := dt / float64(k)
	for i := 0; i < k; i++ {
		var ok bool
		if x, ok = pr.rk4(x, t+float64(i)*h, h, m); !ok {
			return nil, false
		}
	}
	return x, true
}

// events integrates the step and returns the start (t = 0) and the
// predicted mode changes, or ok = false when the model cannot be evaluated
// or there are more than maxEvents changes. Between events the flow of the
// current mode is integrated; a substep whose end lies in another mode is
// bisected on its length with the current mode's flow extended across the
// boundary, so the event time and state are those of that flow.
//
// With slide, an event after which the flow of the region entered returns
// to the region left within slideReturn·T starts a sliding motion on the
// surface between them (Filippov: both flows point into it), which lasts
// to the end of the step: the last event's mode is then that sliding
// mode.
func (pr *predictor) events(x0 []float64, maxEvents int, slide bool) (ev []event, ok bool) {
	z, sig, ok := pr.guess(x0)
	if !ok {
		return nil, false
	}
	return pr.eventsFrom([]event{{0, clone(x0), mode{sig: sig, z: z}}}, pr.T, maxEvents, slide)
}

// eventsFrom continues the events ev from the last one (its time, state
// and mode) to the time until (relative to t₀) as events does, and returns
// ev with the mode changes found appended.
func (pr *predictor) eventsFrom(ev []event, until float64, maxEvents int, slide bool) ([]event, bool) {
	dt := pr.T / float64(pr.s.tr.NE*predictSubsteps)
	last := ev[len(ev)-1]
	cur := last.m
	x, t := clone(last.x), last.t
	for t < until-1e-12*pr.T {
		h := math.Min(dt, until-t)
		if !(h > 0) || t+h == t {
			return nil, false // a step too short to resolve
		}
		xn, ok := pr.rk4(x, t, h, cur)
		if !ok {
			return nil, false
		}
		_, sn, ok := pr.guess(xn)
		if !ok {
			return nil, false
		}
		if sameSig(sn, cur.sig) {
			x, t = xn, t+h
			continue
		}
		lo, hi, xhi := 0.0, h, xn
		for it := 0; it < predictBisect && hi-lo > 1e-14*pr.T; it++ {
			mid := (lo + hi) / 2
			xm, ok := pr.rk4(x, t, mid, cur)
			if !ok {
				return nil, false
			}
			_, sm, ok := pr.guess(xm)
			if !ok {
				return nil, false
			}
			if sameSig(sm, cur.sig) {
				lo = mid
			} else {
				hi, xhi = mid, xm
			}
		}
		zn, sn, ok := pr.guess(xhi)
		if !ok {
			return nil, false
		}
		cur = mode{sig: sn, z: zn}
		x, t = xhi, t+hi
		ev = append(ev, event{t, clone(x), cur})
		if k := len(ev); slide && k >= 3 && sameSig(sn, ev[k-3].m.sig) && t-ev[k-2].t < slideReturn*pr.T {
			return pr.slideOn(ev[:k-1])
		}
		if len(ev) > maxEvents+1 {
			return nil, false
		}
		if k := len(ev); slide && k >= 2 && pr.T-t < slideReturn*pr.T {
			// The step ends before the flow of the region entered can
			// show that it returns (an entry into sliding just before
			// t₀ + T): follow it past the end for slideReturn·T.
			xp, ok := pr.rk4(x, t, slideReturn*pr.T, cur)
			if !ok {
				return nil, false
			}
			if _, sp, ok := pr.guess(xp); ok && sameSig(sp, ev[k-2].m.sig) {
				return pr.slideOn(ev)
			}
		}
	}
	return ev, true
}

// slideOn makes the last event of ev the start of a sliding motion between
// the region before it and the region it entered, to the end of the step:
// it integrates the chattering flow from there (the region of every
// substep's start) to measure the share w of time in the region entered.
func (pr *predictor) slideOn(ev []event) ([]event, bool) {
	k := len(ev) - 1
	sl := &slideMode{a: ev[k-1].m, b: ev[k].m}
	sig := make([]bool, len(sl.a.sig))
	for i := range sig {
		sig[i] = sl.a.sig[i] || sl.b.sig[i]
	}
	dt := pr.T / float64(pr.s.tr.NE*predictSubsteps)
	x, t := clone(ev[k].x), ev[k].t
	inB, all := 0.0, 0.0
	for t < pr.T*(1-1e-12) {
		h := math.Min(dt, pr.T-t)
		if !(h > 0) || t+h == t {
			return nil, false
		}
		m, ok := pr.side(x, sl)
		if !ok {
			return nil, false
		}
		if sameSig(m.sig, sl.b.sig) {
			inB += h
		}
		all += h
		if x, ok = pr.rk4(x, t, h, m); !ok {
			return nil, false
		}
		t += h
	}
	if all > 0 {
		sl.w = inB / all
	}
	ev[k].m = mode{sig: sig, slide: sl}
	return ev, true
}

// at returns the predicted state and algebraic values at time τ (relative
// to t₀), integrating from the last event before τ − boundarySnap·T (so a
// point at an event time belongs to the mode that ends there).
func (pr *predictor) at(ev []event, tau, maxStep float64) (x, z []float64, ok bool) {
	k := 0
	for i := 1; i < len(ev); i++ {
		if ev[i].t < tau-boundarySnap*pr.T {
			k = i
		}
	}
	e := ev[k]
	if x, ok = pr.advance(e.x, e.t, tau-e.t, maxStep, e.m); !ok {
		return nil, nil, false
	}
	if z, ok = pr.modal(x, e.m); !ok {
		return nil, nil, false
	}
	return x, z, true
}

// cuts returns the times of the events of ev that need an element
// boundary: those farther than boundarySnap·T (slideSnap·T for an entry
// into sliding) from both ends of the step, not so close to an end that
// the element between would carry multipliers below psiSnap (smallSwitch,
// smallAtEnd), and at least predictMinGap·h₀ after the previous one.
func (pr *predictor) cuts(ev []event) []float64 {
	gap := predictMinGap * pr.T / float64(pr.s.tr.NE)
	var cuts []float64
	last := 0.0
	for i := 1; i < len(ev); i++ {
		e := ev[i]
		snap := boundarySnap * pr.T
		if e.m.slide != nil {
			snap = slideSnap * pr.T
		}
		if e.t < snap || pr.T-e.t < snap || (last > 0 && e.t-last < gap) {
			continue
		}
		if i == 1 && pr.smallSwitch(ev[0].m, e.m, ev[0].m.z) {
			continue
		}
		if i == len(ev)-1 && pr.smallAtEnd(ev) {
			pr.endSnapped = true
			continue
		}
		cuts = append(cuts, e.t)
		last = e.t
	}
	return cuts
}

// psiSnap bounds the multipliers (the size of ψ) an element between a
// switch and the step boundary next to it would carry: below it the
// element is not made and the switch is on the boundary (see cuts). The
// interior point does not resolve an element whose multipliers are below
// ~1e-10 (measured: a crossing at 1e-9 step lengths from the boundary
// approached at ∇ψ·f = 0.29 fails, at ∇ψ·f = 1 it solves); the state error
// of the snap is |f⁺ − f⁻|·psiSnap/|∇ψ·f⁻|.
const psiSnap = 2e-10

// smallSwitch reports whether the multipliers, in the algebraic values z,
// of the pairs whose selection the change from mode a to mode b switches
// on (positive in b, zero in a: their multiplier vanishes at the switch)
// are all below psiSnap.
func (pr *predictor) smallSwitch(a, b mode, z []float64) bool {
	k, any := 0, false
	for _, g := range pr.s.d.Comp {
		for _, p := range g.Pairs {
			if b.sig[k] && !a.sig[k] {
				if math.Abs(z[p.Lambda]) >= psiSnap {
					return false
				}
				any = true
			}
			k++
		}
	}
	return any
}

// smallAtEnd reports whether the last event of ev comes so close to the
// step's end that the mode before it, continued to the end, crosses the
// surface by less than psiSnap: the multipliers of the pairs the event
// switches off, consistent at that end point, are below psiSnap. The
// step then ends in that mode (its branch violates the surface by that
// much) and the switch is on the boundary.
func (pr *predictor) smallAtEnd(ev []event) bool {
	k := len(ev) - 1
	if ev[k-1].m.slide != nil {
		return false
	}
	x, ok := pr.advance(ev[k].x, ev[k].t, pr.T-ev[k].t, pr.T/float64(pr.s.tr.NE*predictSubsteps), ev[k-1].m)
	if !ok {
		return false
	}
	z, _, ok := pr.guess(x)
	if !ok {
		return false
	}
	return pr.smallSwitch(ev[k].m, ev[k-1].m, z)
}

// grid places element boundaries at the events and returns the step sizes,
// or nil if the events cannot be honoured within the step-size bounds.
func (pr *predictor) grid(ev []event) []float64 {
	tr := pr.s.tr
	N := tr.NE
	h0 := pr.T / float64(N)
	cuts := pr.cuts(ev)
	if len(cuts) > N-1 {
		return nil
	}
	seg := make([]float64, 0, len(cuts)+1)
	last := 0.0
	for _, c := range cuts {
		seg = append(seg, c-last)
		last = c
	}
	seg = append(seg, pr.T-last)
	cnt := make([]int, len(seg))
	for i := range cnt {
		cnt[i] = 1
	}
	for k := len(seg); k < N; k++ {
		best := 0
		for i := range seg {
			if seg[i]/float64(cnt[i]) > seg[best]/float64(cnt[best]) {
				best = i
			}
		}
		cnt[best]++
	}
	lo, up := pr.s.o.hBounds(h0)
	h := make([]float64, 0, N)
	for i := range seg {
		hi := seg[i] / float64(cnt[i])
		if hi < lo || hi > up {
			return nil
		}
		for range cnt[i] {
			h = append(h, hi)
		}
	}
	return h
}

// prediction is what the predictor gives one step: the start and the grid
// of the homotopy (nil when the homotopy starts as without prediction: no
// event, or the predictor declined) and of the solve on the predicted
// branch (nil when the predictor declined), with the mode signature of
// every element (which selection of every complementarity pair is
// positive).
type prediction struct {
	w0, href   []float64
	bw0, bhref []float64
	sigs       [][]bool   // [n] with FESD: one mode per element
	psigs      [][][]bool // [n][m] without FESD: one mode per stage point
	// endSnapped: the last predicted switch is on the step's end, and the
	// mode before it continues across the surface by up to psiSnap.
	endSnapped bool
	// elements, when it exceeds N_FE, is the number of elements the step
	// needs: it has more predicted switches than N_FE − 1 (nothing else
	// is set then; see Simulator.Step).
	elements int
}

// predictStart runs the predictor over the step (see the comment at the
// top of this file). With no event the branch start is the uniform grid
// with the predicted states and every element in the initial mode.
func (s *Simulator) predictStart(t0 float64, x0, u, p, zb0 []float64) *prediction {
	tr := s.tr
	if len(s.d.Comp) == 0 {
		return nil
	}
	pr := &predictor{s: s, u: u, p: p, t0: t0, T: s.T}
	// slidesAtStart reports a sliding motion that starts with the step:
	// within boundarySnap·T, or within predictMinGap·h₀ when the previous
	// step ended sliding (the state then lies on the surface up to the
	// solver's tolerance, and the motion continues the previous step's,
	// which the frozen convex combination of its last element follows
	// better than the chattering prediction) or x₀ lies on the surface
	// (a tangential start takes the chattering prediction a while to
	// leave). A sliding motion that starts later — even 1e-10 step lengths
	// after t₀, from a state off the surface — gets an element boundary at
	// its start.
	prevSlides := false
	if fr, _ := s.sliding(); fr != nil {
		prevSlides = true
	}
	slidesAtStart := func(ev []event) bool {
		e := ev[len(ev)-1]
		if e.m.slide == nil {
			return false
		}
		early := e.t < predictMinGap*s.T/float64(tr.NE)
		return e.t < slideSnap*s.T || early && (prevSlides || pr.onSurface(ev[0].m, e.m))
	}
	ev, ok := pr.events(x0, 4*tr.NE, true)
	if !ok || slidesAtStart(ev) {
		// a sliding motion chatters: follow the groups that slid at the
		// end of the previous step with their frozen convex combination
		if pr.frozen, pr.fz = s.sliding(); pr.frozen == nil {
			return nil
		}
		if ev, ok = pr.events(x0, 4*tr.NE, true); !ok || slidesAtStart(ev) {
			return nil
		}
	}
	return s.eventPrediction(pr, ev, zb0)
}

// eventPrediction is the prediction of the step of pr with the events ev
// (the first at t = 0 with x₀ and its mode): the element boundaries at the
// events (grid), the mode of every element, and the start with the states
// of the modes' flows from the events (predictor.at).
func (s *Simulator) eventPrediction(pr *predictor, ev []event, zb0 []float64) *prediction {
	tr := s.tr
	t0, u, p := pr.t0, pr.u, pr.p
	// modeAt is the mode signature at time τ (the mode that ends at an
	// event time).
	modeAt := func(tau float64) []bool {
		k := 0
		for i := 1; i < len(ev); i++ {
			if ev[i].t < tau-boundarySnap*pr.T {
				k = i
			}
		}
		return ev[k].m.sig
	}
	var h []float64
	if len(ev) > 1 && !s.o.DisableFESD {
		if h = pr.grid(ev); h == nil {
			if c := len(pr.cuts(ev)); c > tr.NE-1 {
				return &prediction{elements: c + 1}
			}
			return nil
		}
	} else {
		h = make([]float64, tr.NE)
		for n := range h {
			h[n] = tr.h0[0]
		}
	}
	ns := tr.ns
	c := s.o.tab.C
	maxStep := s.T / float64(tr.NE*predictSubsteps)
	// States and algebraic values at the stage points and element ends,
	// and the mode of every element (the one at its midpoint).
	xs := make([][][]float64, tr.NE)
	zs := make([][][]float64, tr.NE)
	fs := make([][][]float64, tr.NE)
	xe := make([][]float64, tr.NE)
	ze := make([][]float64, tr.NE)
	sigs := make([][]bool, tr.NE)
	psigs := make([][][]bool, tr.NE)
	t := 0.0
	for n := 0; n < tr.NE; n++ {
		mid := t + h[n]/2
		k := 0
		for i := 1; i < len(ev); i++ {
			if ev[i].t < mid {
				k = i
			}
		}
		sigs[n] = ev[k].m.sig
		psigs[n] = make([][]bool, ns)
		xs[n], zs[n], fs[n] = make([][]float64, ns), make([][]float64, ns), make([][]float64, ns)
		for m := 0; m < ns; m++ {
			psigs[n][m] = modeAt(t + c[m]*h[n])
			x, z, ok := pr.at(ev, t+c[m]*h[n], maxStep)
			if !ok {
				return nil
			}
			f, err := s.d.EvalF(x, u, p, z, t0+t+c[m]*h[n])
			if err != nil {
				return nil
			}
			xs[n][m], zs[n][m], fs[n][m] = x, z, f
		}
		t += h[n]
		var ok bool
		if xe[n], ze[n], ok = pr.at(ev, t, maxStep); !ok {
			return nil
		}
	}
	w := make([]float64, tr.numW)
	tr.fillStart(w, elementStart{h: h, x: xs, f: fs, z: zs, xe: xe, ze: ze, startZB0: zb0}, s.o.Representation, s.d)
	if s.o.DisableFESD {
		// time stepping: the branch of every stage point, nothing for
		// the homotopy (whose start and grid stay as without prediction)
		return &prediction{bw0: w, bhref: h, psigs: psigs}
	}
	out := &prediction{bw0: w, bhref: h, sigs: sigs, endSnapped: pr.endSnapped}
	if len(ev) > 1 {
		out.w0, out.href = w, h
	}
	return out
}

// PredictEvents integrates the interval [t0, t0 + T] from x0 with the
// event-driven predictor of Predict (explicit RK4 with N_FE·8 substeps,
// modes from the signs of the switching functions, events located by
// bisection) and returns the predicted times of the mode changes. It
// returns ok = false when the model cannot be evaluated along the
// prediction or the prediction chatters (more than 4·N_FE events, as in a
// sliding motion). Callers use it to choose step lengths, e.g. to split a
// step with more switches than its N_FE − 1 interior element boundaries.
func (s *Simulator) PredictEvents(t0 float64, x0, u, p []float64) (times []float64, ok bool, err error) {
	if s == nil || s.tr == nil {
		return nil, false, ErrNilSolver
	}
	d := s.d
	if err := checkVec("x0", x0, len(d.X)); err != nil {
		return nil, false, err
	}
	if err := checkVec("u", u, len(d.U)); err != nil {
		return nil, false, err
	}
	if err := checkVec("p", p, len(d.P)); err != nil {
		return nil, false, err
	}
	if math.IsNaN(t0) || math.IsInf(t0, 0) {
		return nil, false, fmt.Errorf("%w: start time %g", ErrHorizon, t0)
	}
	pr := &predictor{s: s, u: u, p: p, t0: t0, T: s.T}
	ev, ok := pr.events(x0, 4*s.tr.NE, false)
	if !ok {
		return nil, false, nil
	}
	for _, e := range ev[1:] {
		times = append(times, t0+e.t)
	}
	return times, true, nil
}

// sliding returns the pairs of the switching surfaces that slide in the
// last element of the previous solution, and the algebraic values of its
// last stage point, or nil. The pairs of one surface are those of one
// Stewart subsystem (λ ⊥ θ over its modes) or, for the step
// reformulation, the two pairs λⁿ_j ⊥ α_j and λᵖ_j ⊥ 1 − α_j of one α_j; a
// surface slides when at least two of its pairs have a positive selection
// that exceeds their multiplier.
func (s *Simulator) sliding() ([]bool, []float64) {
	if s.prev == nil {
		return nil, nil
	}
	tr, d := s.tr, s.d
	last := tr.NE - 1
	lam, sel := s.lastSides()
	type key struct{ sub, sel int }
	pos := map[key]int{}
	var keys []key
	for _, grp := range d.Comp {
		for _, pr := range grp.Pairs {
			k := key{grp.Subsystem, -1}
			if grp.Kind != dcs.LambdaTheta {
				k.sel = pr.Sel
			}
			if i := len(keys); sel[i] > lam[i] && sel[i] > s.o.ActiveSetTol {
				pos[k]++
			}
			keys = append(keys, k)
		}
	}
	frozen := make([]bool, len(keys))
	any := false
	for i, k := range keys {
		frozen[i] = pos[k] >= 2
		any = any || frozen[i]
	}
	if !any {
		return nil, nil
	}
	m := tr.ns - 1
	return frozen, clone(s.prev[tr.z[last][m] : tr.z[last][m]+tr.nz])
}

// keepStartMultipliers undoes the rounding of start multipliers to zero
// (startValues, |λ| ≤ SwitchTol) for the pairs whose selection the
// predicted first element keeps at zero: x₀ lies near their switching
// surface but on the side the step starts in, and the predicted switch
// (farther than boundarySnap·T from t₀) is inside the step. A zero start
// multiplier would let the first element take the mode across the surface
// at once, moving the switch to t₀ (an error of |f⁺ − f⁻|·(t_s − t₀) in
// the state); the exact one keeps the first element in its mode, and the
// element boundary goes to the switch. The start values written into the
// prediction's points are updated too.
func (L *layout) keepStartMultipliers(d *dcs.DCS, zb0, z0 []float64, pr *prediction) {
	if pr == nil || len(pr.sigs) == 0 || L.start < 0 {
		return
	}
	k := 0
	for _, grp := range d.Comp {
		for _, p := range grp.Pairs {
			if pos, ok := L.bzPos[p.Lambda]; ok && !pr.sigs[0][k] && zb0[pos] == 0 && z0[p.Lambda] > 0 {
				zb0[pos] = z0[p.Lambda]
				for _, w := range [][]float64{pr.w0, pr.bw0} {
					if w != nil {
						w[L.start+pos] = zb0[pos]
					}
				}
			}
			k++
		}
	}
}

// onSurface reports whether the state of mode start lies on the surface of
// the sliding mode sl: the multipliers (of start's algebraic values, those
// of x₀) of the pairs whose selection becomes positive in sl are zero to
// rounding.
func (pr *predictor) onSurface(start, sl mode) bool {
	k := 0
	for _, g := range pr.s.d.Comp {
		for _, p := range g.Pairs {
			if sl.sig[k] && !start.sig[k] && math.Abs(start.z[p.Lambda]) > 1e-12 {
				return false
			}
			k++
		}
	}
	return true
}
