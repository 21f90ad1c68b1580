package nlp

import (
	"math"

	"github.com/fesd-go/fesd/nlp/linalg"
)

// inertiaCorrector is the interchangeable part of the inertia correction
// (W&B06 §3.1, Algorithm IC): how a factorization's inertia is judged, with
// which perturbation δ_w an iteration starts and how it grows, and which
// test a direction of an accepted factorization must pass. Settings.Inertia
// chooses one implementation at the start of every solve:
//
//   - inertiaBased: Algorithm IC itself (InertiaDefault, InertiaStrict,
//     InertiaStrictDeltaC);
//   - inertiaCurvature: inertiaBased with the curvature test of an
//     inertia-free method as a safeguard (InertiaCurvature,
//     InertiaStrictCurvature);
//   - inertiaTracking: inertiaBased whose first δ_w follows the previous
//     iteration's (InertiaTracking).
//
// The shared driver, with the degeneracy state, is inertiaCorrection.
type inertiaCorrector interface {
	// accept judges the inertia in of a factorization of the KKT matrix of
	// order nw + m whose primal block has structZero structurally zero
	// diagonals: ok when it counts as the wanted (nw, m, 0), singular when
	// it had zero pivots.
	accept(in linalg.Inertia, nw, m, structZero int) (ok, singular bool)
	// alwaysDeltaC reports whether every factorization carries δ_c > 0.
	alwaysDeltaC() bool
	// firstDeltaW returns δ_w of an iteration's first trial (before the
	// degeneracy rules).
	firstDeltaW() float64
	// raiseDeltaW returns the δ_w that follows a rejected trial with
	// deltaW; last is the δ_w of the last iteration that needed one.
	raiseDeltaW(deltaW, last float64) float64
	// endIteration is told the final δ_w of an iteration.
	endIteration(deltaW float64)
	// directionOK is the test that the primal step dw of an accepted
	// factorization of k must pass.
	directionOK(k kktSystem, dw []float64) bool
}

var (
	_ inertiaCorrector = (*inertiaBased)(nil)
	_ inertiaCorrector = (*inertiaCurvature)(nil)
	_ inertiaCorrector = (*inertiaTracking)(nil)
)

// inertiaBased is W&B06 Algorithm IC: an iteration first factorizes the
// unperturbed matrix (δ_w = 0); while the inertia is wrong, δ_w starts at
// δ_w^0 = 1e-4 (or κ_w⁻·δ_w^last, κ_w⁻ = 1/3, after an iteration that needed
// one) and grows by κ_w⁺ = 8 (κ̄_w⁺ = 100 without a recent δ_w^last) up to
// δ_w^max = 1e20.
type inertiaBased struct {
	// strict: every zero pivot means a singular matrix (IPOPT's rule with
	// MUMPS). Otherwise zero pivots that a static-pivoting backend replaced
	// by ±RegDelta are accepted when there are at most as many as free
	// variables without a Hessian diagonal (a pivoting solver would move
	// those behind their constraints).
	strict bool
	// deltaC: δ_c = 1e-8·μ^{1/4} in every factorization (IPOPT's
	// perturb_always_cd).
	deltaC bool
}

func (c *inertiaBased) accept(in linalg.Inertia, nw, m, structZero int) (ok, singular bool) {
	if in.Zero > 0 {
		// A factorization with static pivots is that of a nearby matrix
		// with the wanted inertia when the counts leave room for exactly
		// the replaced pivots; iterative refinement against the true
		// system then decides: the direction must reach
		// residual_ratio_max (1e-10), not only residual_ratio_singular
		// (1e-5) as after an exact factorization, or δ_c and δ_w follow as
		// for a singular matrix (see searchDirection).
		if c.strict {
			return false, true
		}
		return in.Zero <= structZero && in.Pos <= nw && in.Neg <= m, true
	}
	return in.Pos == nw && in.Neg == m, false
}

func (c *inertiaBased) alwaysDeltaC() bool   { return c.deltaC }
func (c *inertiaBased) firstDeltaW() float64 { return 0 }
func (c *inertiaBased) endIteration(float64) {}

func (c *inertiaBased) raiseDeltaW(deltaW, last float64) float64 {
	switch {
	case deltaW == 0 && last == 0:
		return deltaW0
	case deltaW == 0:
		return math.Max(deltaWMin, kappaWMinus*last)
	case last == 0 || 1e5*last < deltaW:
		return deltaW * kappaWPlusBar
	}
	return deltaW * kappaWPlus
}

func (c *inertiaBased) directionOK(kktSystem, []float64) bool { return true }

// inertiaCurvature is inertiaBased with the curvature test of the
// inertia-free line search of Chiang and Zavala (Comput. Optim. Appl. 64,
// 2016) as a safeguard on top of the inertia check: the primal step of an
// accepted factorization must have dwᵀ(W + Σ + δ_w I)dw ≥ κ dwᵀdw
// (κ = 1e-8), or δ_w is raised and the step recomputed. A pivot-free LDLᵀ
// of a nearly singular KKT matrix can report the wanted inertia while the
// direction has negative or vanishing curvature; the line search then
// creeps with tiny steps.
type inertiaCurvature struct{ inertiaBased }

func (c *inertiaCurvature) directionOK(k kktSystem, dw []float64) bool {
	curv := k.curvature(dw)
	dd := 0.0
	for _, v := range dw {
		dd += v * v
	}
	return curv >= curvKappa*dd
}

const curvKappa = 1e-8

// inertiaTracking is inertiaBased (δ_c in every factorization) whose first
// δ_w follows the previous iteration's. After an iteration that needed
// δ_w > 0, Algorithm IC would factorize the next KKT matrix first
// unperturbed, then with δ_w^last/3, then ×8 until the inertia is right:
// two or more factorizations in every iteration of a stretch of nonconvex
// (or singular) iterates. The tracker starts instead from the previous
// iteration's δ_w:
//
//   - decrease: the first trial is δ_w^prev/3 (Algorithm IC's second trial);
//   - hold: after a decrease failed (the next trial is δ_w^prev itself, which
//     the previous matrix accepted), the next 1, 3, 7, … (at most
//     trackMaxHold) iterations start at δ_w^prev: the needed δ_w is steady;
//   - probe: after trackZeroProbe decreases in a row succeeded, the first
//     trial is δ_w = 0 again (on success the unperturbed rule of Algorithm
//     IC resumes); each failed probe doubles the number of successful
//     decreases required before the next one.
//
// A trial that fails is followed by the increases of Algorithm IC.
type inertiaTracking struct {
	inertiaBased
	prev       float64 // δ_w of the previous iteration (0: unperturbed)
	first      float64 // δ_w of this iteration's first trial
	kind       int     // trkZero, trkDecrease, trkHold or trkProbe
	decreases  int     // successful decreases in a row
	probeAfter int     // decreases needed before the next probe of δ_w = 0
	hold       int     // iterations left to start at prev
	backoff    int     // length of the last hold
}

const (
	trkZero = iota
	trkDecrease
	trkHold
	trkProbe
)

const (
	trackZeroProbe = 2  // successful decreases before probing δ_w = 0
	trackMaxHold   = 15 // longest hold at δ_w^prev
)

func (t *inertiaTracking) firstDeltaW() float64 {
	t.kind = trkZero
	if t.prev > 0 {
		switch {
		case t.decreases >= t.probeAfter:
			t.kind = trkProbe
		case t.hold > 0:
			t.hold--
			t.kind = trkHold
		default:
			t.kind = trkDecrease
		}
	}
	switch t.kind {
	case trkHold:
		t.first = t.prev
	case trkDecrease:
		t.first = math.Max(deltaWMin, kappaWMinus*t.prev)
	default:
		t.first = 0
	}
	return t.first
}

// raiseDeltaW: a failed first trial below δ_w^prev is followed by δ_w^prev
// (from δ_w = 0: by δ_w^prev/3), then by Algorithm IC's increases.
func (t *inertiaTracking) raiseDeltaW(deltaW, last float64) float64 {
	switch {
	case t.prev > 0 && deltaW == 0:
		return math.Max(deltaWMin, kappaWMinus*t.prev)
	case deltaW < t.prev:
		return t.prev
	}
	return t.inertiaBased.raiseDeltaW(deltaW, last)
}

// endIteration updates the tracker once the iteration's δ_w is final.
func (t *inertiaTracking) endIteration(deltaW float64) {
	firstOK := deltaW == t.first
	switch t.kind {
	case trkDecrease:
		if firstOK {
			t.decreases++
		} else {
			t.decreases = 0
			t.backoff = min(2*t.backoff+1, trackMaxHold)
			t.hold = t.backoff
		}
	case trkProbe:
		t.decreases = 0
		if firstOK {
			t.probeAfter = trackZeroProbe
		} else {
			t.probeAfter *= 2
		}
	case trkHold:
		if !firstOK {
			t.decreases = 0
		}
	}
	if t.prev == 0 && deltaW > 0 {
		// A new stretch of perturbed iterations.
		*t = inertiaTracking{inertiaBased: t.inertiaBased, probeAfter: trackZeroProbe}
	}
	t.prev = deltaW
}

// inertiaCorrection is the state of the inertia correction of one solve
// and its driver, Algorithm IC with IPOPT's degeneracy rules, around the
// rule of Settings.Inertia.
type inertiaCorrection struct {
	rule        inertiaCorrector
	counts      *Counts // SingularHessian
	m, nw       int
	structZero  int  // free variables without a Hessian diagonal
	regularized bool // the last accepted factorization had zero pivots

	deltaW, deltaC float64 // the perturbations of the current factorization
	deltaWLast     float64 // δ_w of the last iteration that needed one
	// jacDegenerate: every factorization carries δ_c (Degeneracy.Jacobian,
	// or degenItersMax iterations in a row needed it); hessDegenerate:
	// every first trial has δ_w > 0 (Degeneracy.Hessian).
	jacDegenerate, hessDegenerate bool
	firstSingular                 bool // this iteration's first trial (δ_w = 0) was singular
	degenCount                    int  // iterations in a row that needed δ_c
}

// reset starts a solve with rule and the degeneracy of deg.
func (c *inertiaCorrection) reset(rule inertiaCorrector, counts *Counts, m, nw int, deg Degeneracy) {
	*c = inertiaCorrection{rule: rule, counts: counts, m: m, nw: nw,
		jacDegenerate: deg.Jacobian && m > 0, hessDegenerate: deg.Hessian}
}

// endIteration hands the iteration's final δ_w to the corrector.
func (c *inertiaCorrection) endIteration() { c.rule.endIteration(c.deltaW) }

// directionOK applies the corrector's test to the primal step dw.
func (c *inertiaCorrection) directionOK(k kktSystem, dw []float64) bool {
	return c.rule.directionOK(k, dw)
}

// try factorizes with the current δ_w, δ_c and judges the inertia.
func (c *inertiaCorrection) try(k kktSystem) (ok, singular bool) {
	in, err := k.factorize(c.deltaW, c.deltaC)
	if err != nil {
		return false, true
	}
	ok, singular = c.rule.accept(in, c.nw, c.m, c.structZero)
	if ok {
		c.regularized = in.Zero > 0
	}
	return ok, singular
}

// deltaCOf is the constraint regularization δ̄_c·μ^κ_c.
func deltaCOf(mu float64) float64 { return deltaCBar * math.Pow(mu, kappaC) }

// factorize performs the inertia correction of W&B06 Algorithm IC for the
// matrix at the current iterate; forceDeltaC asks for δ_c > 0 (a second
// attempt of the same iteration). It returns false when δ_w exceeds
// δ_w^max (the caller then enters the restoration phase).
func (c *inertiaCorrection) factorize(k kktSystem, mu float64, forceDeltaC bool) bool {
	if !forceDeltaC {
		c.firstSingular = false // a new iteration
	}
	structural := c.firstTrial(k, mu, forceDeltaC)
	ok, singular := c.try(k)
	if structural {
		// the bookkeeping of the skipped singular trial and its retry
		// below
		c.countDeltaC()
		if ok {
			return true
		}
		c.firstSingular = c.deltaW == 0
		return c.increaseDeltaW(k)
	}
	if ok {
		if !singular {
			c.degenCount = 0
		}
		if c.hessDegenerate && c.deltaW > 0 {
			// Degeneracy.Hessian's first trial
			c.deltaWLast = c.deltaW
			c.counts.SingularHessian++
		}
		return true
	}
	c.firstSingular = singular && c.deltaW == 0
	if singular && c.deltaC == 0 && c.m > 0 {
		c.deltaC = deltaCOf(mu)
		c.countDeltaC()
		if ok, _ = c.try(k); ok {
			return true
		}
	}
	return c.increaseDeltaW(k)
}

// firstTrial sets δ_w and δ_c of an iteration's first factorization. A
// trial with δ_c = 0 that must meet more exactly zero pivots than the
// factorization may regularize is singular whatever the values
// (kktSystem.emptyDualRows): it is skipped, and the trial with δ_c that
// would follow it is the first; structural reports that.
func (c *inertiaCorrection) firstTrial(k kktSystem, mu float64, forceDeltaC bool) (structural bool) {
	c.deltaW, c.deltaC = 0, 0
	if c.jacDegenerate || forceDeltaC || (c.rule.alwaysDeltaC() && c.m > 0) {
		c.deltaC = deltaCOf(mu)
	}
	structural = c.deltaC == 0 && c.m > 0 && k.emptyDualRows() > c.structZero
	if structural {
		c.deltaC = deltaCOf(mu)
	}
	c.deltaW = c.rule.firstDeltaW()
	if c.hessDegenerate && c.deltaW == 0 {
		// Settings.Degeneracy.Hessian (IPOPT's hess_degenerate state,
		// W&B06 §3.1): every first trial is perturbed, by δ_w^last/3
		// (δ_w^0 if there was none).
		c.deltaW = deltaW0
		if c.deltaWLast > 0 {
			c.deltaW = math.Max(deltaWMin, kappaWMinus*c.deltaWLast)
		}
	}
	return structural
}

// countDeltaC counts an iteration that needed δ_c: degenItersMax in a row
// make the Jacobian degenerate for the rest of the solve.
func (c *inertiaCorrection) countDeltaC() {
	c.degenCount++
	if c.degenCount >= degenItersMax {
		c.jacDegenerate = true
	}
}

// increaseDeltaW raises δ_w (W&B06 Algorithm IC, steps IC-3 to IC-6) until
// the inertia is right; false when δ_w > δ_w^max.
func (c *inertiaCorrection) increaseDeltaW(k kktSystem) bool {
	for {
		c.deltaW = c.rule.raiseDeltaW(c.deltaW, c.deltaWLast)
		if c.deltaW > deltaWMax {
			c.deltaW = 0
			return false
		}
		if ok, _ := c.try(k); ok {
			c.deltaWLast = c.deltaW
			if c.firstSingular {
				// The unperturbed matrix was singular and needed δ_w.
				// (IPOPT's test would make the Hessian degenerate for the
				// rest of the solve after 3 such iterations in a row; on
				// relaxed MPCCs, whose zero pivots are not MUMPS's, that
				// was measured worse: the monopod of bench/ocp at N = 30
				// ended farther from its target and its unreachable
				// variant took 60 s instead of 13 to be found Infeasible,
				// and the Stewart cart-pole of examples/cartpole failed.
				// Only Settings.Degeneracy starts a solve degenerate.)
				c.firstSingular = false
				c.counts.SingularHessian++
			}
			return true
		}
	}
}
