package nlp

import (
	"math"
)

// computeResidual writes r = g̃ − s (inequalities) or g̃ − g_eq (equalities).
func (ip *ipm) computeResidual(w, g, r []float64) {
	for i := range ip.m {
		if k := ip.slackOf[i]; k >= 0 {
			r[i] = g[i] - w[k]
		} else {
			r[i] = g[i] - ip.gEq[i]
		}
	}
}

func (ip *ipm) norm1(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += math.Abs(x)
	}
	return s
}

// fmax is max for the hot loops; a NaN in b propagates (a NaN in a does
// not, so accumulate into a).
func fmax(a, b float64) float64 {
	if b > a || b != b {
		return b
	}
	return a
}

// normInf is the max-norm; a NaN entry gives NaN.
func normInf(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		if a := math.Abs(x); a > s {
			s = a
		} else if a != a {
			return math.NaN()
		}
	}
	return s
}

// barrier returns φ_μ(w) for objective value f (scaled), including the κ_d
// damping of one-sided bounds. It returns +Inf when w is not interior.
func (ip *ipm) barrier(w []float64, f float64) float64 {
	mu := ip.mu
	phi := f
	ok := true
	for j := range ip.nw {
		if ip.hasL[j] {
			if phi, ok = barrierTerm(phi, mu, w[j]-ip.wL[j], ip.onlyL[j]); !ok {
				return phi
			}
		}
		if ip.hasU[j] {
			if phi, ok = barrierTerm(phi, mu, ip.wU[j]-w[j], ip.onlyU[j]); !ok {
				return phi
			}
		}
	}
	return phi
}

// barrierCur returns φ_μ at the current iterate w, from its slacks s_L, s_U
// (which safeSlack may have replaced; otherwise the same as barrier(w, f)).
func (ip *ipm) barrierCur(f float64) float64 {
	mu := ip.mu
	phi := f
	ok := true
	for j := range ip.nw {
		if ip.hasL[j] {
			if phi, ok = barrierTerm(phi, mu, ip.sL[j], ip.onlyL[j]); !ok {
				return phi
			}
		}
		if ip.hasU[j] {
			if phi, ok = barrierTerm(phi, mu, ip.sU[j], ip.onlyU[j]); !ok {
				return phi
			}
		}
	}
	return phi
}

// barrierTerm adds the barrier term −μ ln s of one slack s to phi, and
// κ_d μ s for a one-sided bound (damped); it returns +Inf and false when s
// is not positive.
func barrierTerm(phi, mu, s float64, damped bool) (float64, bool) {
	if s <= 0 {
		return math.Inf(1), false
	}
	phi -= mu * math.Log(s)
	if damped {
		phi += kappaD * mu * s
	}
	return phi, true
}

// barrierDirDeriv returns ∇φ_μ(w)ᵀ dw.
func (ip *ipm) barrierDirDeriv(dw []float64) float64 {
	mu := ip.mu
	kd := kappaD * mu
	s := 0.0
	for j := range ip.nw {
		gj := ip.grad[j] - ip.mL[j]*mu/ip.sL[j] + ip.mU[j]*mu/ip.sU[j] + kd*ip.oLU[j]
		s += gj * dw[j]
	}
	return s
}

// updateSlacks recomputes s_L = w − w_L and s_U = w_U − w (1 where there is
// no bound) after w changed.
//
// Slack move (IPOPT's CalculateSafeSlack with slack_move, and the bound
// adjustment of IpoptAlgorithm::AcceptTrialPoint; W&B06 end of §3.5): a
// slack below s_min = ε·min(1, μ) at a bound b with ε·max(1, |b|) > μ is
// replaced by safeSlack and the bound moved to w ∓ s. Near such a bound the
// doubles are further apart than the barrier's slack μ/z, so w + α·dw
// rounds onto the bound (min −x, 0 ≤ x ≤ 1e9: s = 0, Σ = z/s = ∞ at
// μ = 2.5e-9, IterationLimit). The slack kept in s_L, s_U is then the one
// the iteration uses (fraction to the boundary, complementarity, barrier)
// even where w ∓ s rounds back to w. IPOPT moves every slack below s_min;
// here the second condition keeps the slack at its bound where rounding
// is not the cause: on hs237 (MuAdaptive, OracleProbing) x₁ reaches its
// bound 54 at μ = 2.6e-5 with z = 1.4e12, and the move instead of the
// restoration phase took 65 iterations instead of 45.
func (ip *ipm) updateSlacks() {
	sMin := epsMach * math.Min(1, ip.mu)
	for j := range ip.nw {
		ip.sL[j], ip.sU[j] = 1, 1
		if ip.hasL[j] {
			s := ip.w[j] - ip.wL[j]
			if s < sMin && ip.roundingBound(ip.wL[j]) {
				s = ip.safeSlack(s, sMin, ip.zL[j], ip.wL[j])
				ip.wL[j] = ip.w[j] - s
				ip.counts.SlackMoves++
			}
			ip.sL[j] = s
		}
		if ip.hasU[j] {
			s := ip.wU[j] - ip.w[j]
			if s < sMin && ip.roundingBound(ip.wU[j]) {
				s = ip.safeSlack(s, sMin, ip.zU[j], ip.wU[j])
				ip.wU[j] = ip.w[j] + s
				ip.counts.SlackMoves++
			}
			ip.sU[j] = s
		}
	}
}

// roundingBound reports whether the spacing of doubles near bound b,
// ε·max(1, |b|), exceeds μ (see updateSlacks).
func (ip *ipm) roundingBound(b float64) bool {
	return epsMach*math.Max(1, math.Abs(b)) > ip.mu
}

// slackMove is IPOPT's slack_move, ε^(3/4) = 2⁻³⁹: the largest move of a
// bound, relative to max(1, |b|), that safeSlack makes.
const slackMove = 1.8189894035458565e-12

// safeSlack is the slack that replaces s < s_min at bound b with multiplier
// z (IPOPT's CalculateSafeSlack): μ/z, at least s_min, and at most
// max(s, 0) + slack_move·max(1, |b|).
func (ip *ipm) safeSlack(s, sMin, z, b float64) float64 {
	t := sMin
	if v := ip.mu / z; v > t {
		// (z ≤ 0 or NaN leaves s_min; z = 0 gives +Inf, capped below.)
		t = v
	}
	return math.Min(t, math.Max(s, 0)+slackMove*math.Max(1, math.Abs(b)))
}

// avgCompl is the average complementarity product over all bounds.
func (ip *ipm) avgCompl() float64 {
	if ip.nBounds == 0 {
		return 0
	}
	s := 0.0
	for j := range ip.nw {
		if ip.hasL[j] {
			s += ip.sL[j] * ip.zL[j]
		}
		if ip.hasU[j] {
			s += ip.sU[j] * ip.zU[j]
		}
	}
	return s / float64(ip.nBounds)
}

// addAT adds Aᵀv to out (length nw), A = [J, −E] (slackOf: the slack of
// each constraint, or −1).
func (d *ipmDerivs) addAT(slackOf []int, v, out []float64) {
	for k, i := range d.jRow {
		if !d.jSkip[k] {
			out[d.jCol[k]] += d.jVal[k] * v[i]
		}
	}
	for i, k := range slackOf {
		if k >= 0 {
			out[k] -= v[i]
		}
	}
}

// addA adds A·v to out (length m).
func (d *ipmDerivs) addA(slackOf []int, v, out []float64) {
	for k, i := range d.jRow {
		if !d.jSkip[k] {
			out[i] += d.jVal[k] * v[d.jCol[k]]
		}
	}
	for i, k := range slackOf {
		if k >= 0 {
			out[i] -= v[k]
		}
	}
}

// addW adds W·v to out (x part only).
func (d *ipmDerivs) addW(v, out []float64) {
	for k, i := range d.hRow {
		if d.hSkip[k] {
			continue
		}
		j := d.hCol[k]
		h := d.hVal[k]
		out[i] += h * v[j]
		if i != j {
			out[j] += h * v[i]
		}
	}
}

// dualResidual writes rd = ∇f̃ + Aᵀy − z_L + z_U into out (fixed x: 0).
func (ip *ipm) dualResidual(out []float64) {
	copy(out, ip.grad)
	ip.ipmDerivs.addAT(ip.slackOf, ip.y, out)
	for j := range ip.nw {
		out[j] += ip.zU[j] - ip.zL[j]
	}
	for j := range ip.n {
		if ip.fixed[j] {
			out[j] = 0
		}
	}
}

// factorize factorizes the KKT matrix at the current iterate with δ_w,
// δ_c and reports whether its inertia is the wanted (nw, m, 0), and whether
// the matrix counts as singular.
func (ip *ipm) factorize(deltaW, deltaC float64) (ok bool, singular bool) {
	in, err := ip.kkt.factorize(deltaW, deltaC)
	if err != nil {
		return false, true
	}
	if in.Zero > 0 {
		// The backend replaced tiny pivots by ±RegDelta with the expected
		// sign (static pivoting cannot move a zero diagonal of the primal
		// block, e.g. a free variable without curvature, behind its
		// constraint, as a pivoting solver like MUMPS would). If the counts
		// leave room for exactly those replacements, the factorization is
		// that of a nearby matrix with the wanted inertia: accept it;
		// iterative refinement against the true system then decides: the
		// direction must reach residual_ratio_max (1e-10), not only
		// residual_ratio_singular (1e-5) as after an exact factorization,
		// or δ_c and δ_w follow as for a singular matrix (see iterate).
		// Only done when the primal block has that many structurally zero
		// diagonals (free variables without a Hessian diagonal entry); other
		// zero pivots signal a (nearly) singular matrix.
		if ip.set.Inertia.strictPivots() {
			return false, true
		}
		ip.regularized = true
		return in.Zero <= ip.nStructZero && in.Pos <= ip.nw && in.Neg <= ip.m, true
	}
	ip.regularized = false
	return in.Pos == ip.nw && in.Neg == ip.m, false
}

// leastSquaresY computes y from min ‖∇f̃ + Aᵀy − z_L + z_U‖ (IPOPT's
// least_square_mults) and discards it when ‖y‖_∞ > ConstrMultInitMax.
func (ip *ipm) leastSquaresY() bool {
	y, ok := ip.kkt.leastSquaresY()
	if !ok {
		return false
	}
	ymax := normInf(y)
	if ymax > ip.prm.constrMultInitMax || math.IsNaN(ymax) {
		return false
	}
	copy(ip.y, y)
	return true
}

// factorizeInertia performs the inertia correction of W&B06 Algorithm IC
// for the matrix at the current iterate. It returns false when δ_w exceeds
// δ_w^max (the caller then enters the restoration phase).
func (ip *ipm) factorizeInertia(forceDeltaC bool) bool {
	if !forceDeltaC {
		ip.firstSingular = false // a new iteration
	}
	ip.deltaW = 0
	ip.deltaC = 0
	if ip.jacDegenerate || forceDeltaC || (ip.set.Inertia.alwaysDeltaC() && ip.m > 0) {
		ip.deltaC = deltaCBar * math.Pow(ip.mu, kappaC)
	}
	// A trial with δ_c = 0 that must meet more exactly zero pivots than
	// the factorization may regularize is singular whatever the values
	// (zeroDual): it is skipped, and the trial with δ_c that would
	// follow it is the first.
	structural := ip.deltaC == 0 && ip.m > 0 && ip.kkt.emptyDualRows() > ip.nStructZero
	if structural {
		ip.deltaC = deltaCBar * math.Pow(ip.mu, kappaC)
	}
	ip.deltaW = ip.firstDeltaW()
	if ip.hessDegenerate && ip.deltaW == 0 {
		// Settings.Degeneracy.Hessian (IPOPT's hess_degenerate state,
		// W&B06 §3.1): every first trial is perturbed, by δ_w^last/3
		// (δ_w^0 if there was none).
		ip.deltaW = deltaW0
		if ip.deltaWLast > 0 {
			ip.deltaW = math.Max(deltaWMin, kappaWMinus*ip.deltaWLast)
		}
	}
	ok, singular := ip.factorize(ip.deltaW, ip.deltaC)
	if structural {
		// the bookkeeping of the skipped singular trial and its retry
		// below
		ip.degenCount++
		if ip.degenCount >= degenItersMax {
			ip.jacDegenerate = true
		}
		if ok {
			return true
		}
		ip.firstSingular = ip.deltaW == 0
		return ip.increaseDeltaW()
	}
	if ok {
		if !singular {
			ip.degenCount = 0
		}
		if ip.hessDegenerate && ip.deltaW > 0 {
			// Degeneracy.Hessian's first trial
			ip.deltaWLast = ip.deltaW
			ip.counts.SingularHessian++
		}
		return true
	}
	ip.firstSingular = singular && ip.deltaW == 0
	if singular && ip.deltaC == 0 && ip.m > 0 {
		ip.deltaC = deltaCBar * math.Pow(ip.mu, kappaC)
		ip.degenCount++
		if ip.degenCount >= degenItersMax {
			ip.jacDegenerate = true
		}
		ok, singular = ip.factorize(ip.deltaW, ip.deltaC)
		if ok {
			return true
		}
	}
	return ip.increaseDeltaW()
}

// increaseDeltaW raises δ_w (W&B06 Algorithm IC, steps IC-3 to IC-6) until
// the inertia is right; false when δ_w > δ_w^max. With δ_w tracking, a
// trial below the previous iteration's δ_w that failed is followed by that
// δ_w itself.
func (ip *ipm) increaseDeltaW() bool {
	for {
		switch {
		case ip.deltaW == 0 && ip.trk.prev > 0:
			ip.deltaW = math.Max(deltaWMin, kappaWMinus*ip.trk.prev)
		case ip.deltaW == 0:
			if ip.deltaWLast == 0 {
				ip.deltaW = deltaW0
			} else {
				ip.deltaW = math.Max(deltaWMin, kappaWMinus*ip.deltaWLast)
			}
		case ip.deltaW < ip.trk.prev:
			ip.deltaW = ip.trk.prev
		case ip.deltaWLast == 0 || 1e5*ip.deltaWLast < ip.deltaW:
			ip.deltaW *= kappaWPlusBar
		default:
			ip.deltaW *= kappaWPlus
		}
		if ip.deltaW > deltaWMax {
			ip.deltaW = 0
			return false
		}
		ok, _ := ip.factorize(ip.deltaW, ip.deltaC)
		if ok {
			ip.deltaWLast = ip.deltaW
			if ip.firstSingular {
				// The unperturbed matrix was singular and needed δ_w.
				// (IPOPT's test would make the Hessian degenerate for the
				// rest of the solve after 3 such iterations in a row; on
				// relaxed MPCCs, whose zero pivots are not MUMPS's, that
				// was measured worse: the monopod of bench/ocp at N = 30
				// ended farther from its target and its unreachable
				// variant took 60 s instead of 13 to be found Infeasible,
				// and the Stewart cart-pole of examples/cartpole failed.
				// Only Settings.Degeneracy starts a solve degenerate.)
				ip.firstSingular = false
				ip.counts.SingularHessian++
			}
			return true
		}
	}
}

// deltaWTracker is the state of the δ_w tracking of InertiaTracking. After
// an iteration that needed δ_w > 0, Algorithm IC would factorize the next
// KKT matrix first unperturbed, then with δ_w^last/3, then ×8 until the
// inertia is right: two or more factorizations in every iteration of a
// stretch of nonconvex (or singular) iterates. The tracker starts instead
// from the previous iteration's δ_w:
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
type deltaWTracker struct {
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

// firstDeltaW returns the δ_w of the iteration's first factorization: 0
// (Algorithm IC), or with InertiaTracking the tracker's choice.
func (ip *ipm) firstDeltaW() float64 {
	t := &ip.trk
	t.kind = trkZero
	if ip.set.Inertia.tracking() && t.prev > 0 {
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

// trackDeltaW updates the tracker once the iteration's δ_w is final.
func (ip *ipm) trackDeltaW() {
	if !ip.set.Inertia.tracking() {
		return
	}
	t := &ip.trk
	firstOK := ip.deltaW == t.first
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
	if t.prev == 0 && ip.deltaW > 0 {
		// A new stretch of perturbed iterations.
		*t = deltaWTracker{probeAfter: trackZeroProbe}
	}
	t.prev = ip.deltaW
}

// noStructZeroDual switches the use of zeroDual off (tests compare the
// solves).
var noStructZeroDual = false
