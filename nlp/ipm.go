package nlp

import (
	"math"
	"time"
)

// evalFG evaluates f̃ and g̃ at w (x part); ok=false on NaN/Inf; err on a
// callback error.
func (ip *ipm) evalFG(w []float64, g []float64) (f float64, ok bool, err error) {
	t := time.Now()
	defer ip.addEvalTime(t)
	x := w[:ip.n]
	fu, err := ip.p.Objective(x)
	ip.counts.Objective++
	if err != nil {
		ip.noteErr(err)
		return 0, false, err
	}
	if nonFinite(fu) {
		return 0, false, nil
	}
	if err := ip.p.Constraints(x, g); err != nil {
		ip.noteErr(err)
		return 0, false, err
	}
	ip.counts.Constraints++
	for i, v := range g {
		if nonFinite(v) {
			return 0, false, nil
		}
		g[i] = v * ip.dc[i]
	}
	return ip.df * fu, true, nil
}

// noteErr records a callback error on the outermost solve (the
// restoration phase's problem passes the user's errors through).
func (ip *ipm) noteErr(err error) {
	r := ip
	if r.parent != nil {
		r = r.parent
	}
	r.userErr = err
}

// stop records a callback error and returns UserStop.
func (ip *ipm) stop(err error) Status {
	ip.noteErr(err)
	return UserStop
}

func (ip *ipm) addEvalTime(t time.Time) {
	r := ip
	if r.parent != nil {
		r = r.parent
	}
	r.timing.Evaluation += time.Since(t)
}

// evalDerivs evaluates ∇f̃ and J̃ at the current x; ok=false on NaN/Inf.
func (ip *ipm) evalDerivs() (ok bool, err error) {
	t := time.Now()
	defer ip.addEvalTime(t)
	x := ip.w[:ip.n]
	if err := ip.p.Gradient(x, ip.grad[:ip.n]); err != nil {
		ip.noteErr(err)
		return false, err
	}
	ip.counts.Gradient++
	for j := range ip.grad[:ip.n] {
		v := ip.grad[j]
		if nonFinite(v) {
			return false, nil
		}
		ip.grad[j] = v * ip.df
	}
	if err := ip.p.JacobianValues(x, ip.jVal); err != nil {
		ip.noteErr(err)
		return false, err
	}
	ip.counts.Jacobian++
	for k, v := range ip.jVal {
		if nonFinite(v) {
			return false, nil
		}
		ip.jVal[k] = v * ip.dc[ip.jRow[k]]
	}
	return true, nil
}

// evalHessian evaluates the Hessian of the scaled Lagrangian at (x, y).
func (ip *ipm) evalHessian() (ok bool, err error) {
	t := time.Now()
	defer ip.addEvalTime(t)
	for i := range ip.m {
		ip.lamTmp[i] = ip.y[i] * ip.dc[i]
	}
	if err := ip.p.HessianValues(ip.w[:ip.n], ip.df, ip.lamTmp, ip.hVal); err != nil {
		ip.noteErr(err)
		return false, err
	}
	ip.counts.Hessian++
	for _, v := range ip.hVal {
		if nonFinite(v) {
			return false, nil
		}
	}
	return true, nil
}

// computeErrors fills errDual, errPrimal, errCompl (with μ_target), sd, sc,
// e0 and returns E_μ for the given μ.
func (ip *ipm) computeErrors(mu float64) (eMu float64) {
	ip.dualResidual(ip.rd)
	ip.errDual = normInf(ip.rd)
	ip.errPrimal = normInf(ip.r)
	cT, cMu := 0.0, 0.0
	sumZ, sumY := 0.0, 0.0
	for j := range ip.nw {
		if ip.hasL[j] {
			p := ip.sL[j] * ip.zL[j]
			cT = fmax(cT, math.Abs(p-ip.prm.muTarget))
			cMu = fmax(cMu, math.Abs(p-mu))
			sumZ += math.Abs(ip.zL[j])
		}
		if ip.hasU[j] {
			p := ip.sU[j] * ip.zU[j]
			cT = fmax(cT, math.Abs(p-ip.prm.muTarget))
			cMu = fmax(cMu, math.Abs(p-mu))
			sumZ += math.Abs(ip.zU[j])
		}
	}
	for _, v := range ip.y {
		sumY += math.Abs(v)
	}
	ip.errCompl = cT
	ip.sd, ip.sc = 1, 1
	if nm := ip.m + ip.nBounds; nm > 0 {
		ip.sd = math.Max(sMax, (sumY+sumZ)/float64(nm)) / sMax
	}
	if ip.nBounds > 0 {
		ip.sc = math.Max(sMax, sumZ/float64(ip.nBounds)) / sMax
	}
	ip.e0 = math.Max(ip.errDual/ip.sd, math.Max(ip.errPrimal, cT/ip.sc))
	return math.Max(ip.errDual/ip.sd, math.Max(ip.errPrimal, cMu/ip.sc))
}

// unscaledErrors returns the unscaled dual infeasibility, constraint
// violation and complementarity (IPOPT's absolute termination measures).
func (ip *ipm) unscaledErrors() (dual, constr, compl float64) {
	adf := math.Abs(ip.df)
	for j := range ip.nw {
		v := ip.rd[j] / adf
		if j >= ip.n {
			// slack component: scale back with the constraint scale.
			v *= ip.slackScale(j)
		}
		dual = fmax(dual, math.Abs(v))
		if ip.hasL[j] {
			compl = fmax(compl, ip.sL[j]*ip.zL[j]/adf)
		}
		if ip.hasU[j] {
			compl = fmax(compl, ip.sU[j]*ip.zU[j]/adf)
		}
	}
	for i, v := range ip.r {
		constr = fmax(constr, math.Abs(v)/ip.dc[i])
	}
	return
}

// slackScale returns the constraint scale of slack index k (≥ n).
func (ip *ipm) slackScale(k int) float64 {
	// slacks are numbered in constraint order
	return ip.dcOfSlack(k)
}

func (ip *ipm) dcOfSlack(k int) float64 {
	return ip.dc[ip.slackCons[k-ip.n]]
}

// fractionToBoundary returns the largest α ∈ (0,1] with
// w + α dw ≥ (1−τ)(w − w_L) from the bounds (primal), and for z likewise.
func (ip *ipm) fractionToBoundary(dw []float64, tau float64) float64 {
	a := 1.0
	for j := range ip.nw {
		d := dw[j]
		if d < 0 && ip.hasL[j] {
			if t := -tau * ip.sL[j] / d; t < a {
				a = t
			}
		}
		if d > 0 && ip.hasU[j] {
			if t := tau * ip.sU[j] / d; t < a {
				a = t
			}
		}
	}
	return a
}

func (ip *ipm) fractionToBoundaryZ(dzL, dzU []float64, tau float64) float64 {
	a := 1.0
	for j := range ip.nw {
		if ip.hasL[j] && dzL[j] < 0 {
			if t := -tau * ip.zL[j] / dzL[j]; t < a {
				a = t
			}
		}
		if ip.hasU[j] && dzU[j] < 0 {
			if t := -tau * ip.zU[j] / dzU[j]; t < a {
				a = t
			}
		}
	}
	return a
}

// setRHS writes the Newton right-hand side for barrier parameter mu
// (mu < 0: affine step, no damping).
func (ip *ipm) setRHS(mu float64) {
	affine := mu < 0
	if affine {
		mu = 0
	}
	kd := kappaD * mu
	if affine {
		kd = 0
	}
	nw := ip.nw
	bw, bL, bU, rd := ip.rhs.w[:nw], ip.rhs.zL[:nw], ip.rhs.zU[:nw], ip.rd[:nw]
	sL, sU, zL, zU := ip.sL[:nw], ip.sU[:nw], ip.zL[:nw], ip.zU[:nw]
	mL, mU, oLU := ip.mL[:nw], ip.mU[:nw], ip.oLU[:nw]
	for j := range bw {
		bw[j] = -rd[j] - kd*oLU[j]
		bL[j] = mL[j] * (mu - sL[j]*zL[j])
		bU[j] = mU[j] * (mu - sU[j]*zU[j])
	}
	for i := range ip.m {
		ip.rhs.y[i] = -ip.r[i]
	}
}

// computeDirection computes the search direction for the current
// factorization (choosing μ first in free mode) and returns the residual
// ratio of the solve.
func (ip *ipm) computeDirection() float64 {
	if ip.freeMode {
		var mu float64
		var ok bool
		if ip.set.MuOracle == OracleProbing {
			mu, ok = ip.probeMu()
		} else {
			mu, ok = ip.qualityMu()
		}
		if ok {
			if mu != ip.mu {
				ip.mu = mu
				ip.tau = max(tauMin, 1-mu)
				ip.resetFilter()
			}
			if ip.set.MuOracle != OracleProbing {
				// The direction is already in step; set the
				// right-hand side for the second-order corrections.
				ip.setRHS(ip.mu)
				return ip.qfRatio
			}
		}
	}
	ip.setRHS(ip.mu)
	return ip.kkt.solve(ip.rhs, ip.step)
}

// qualityMu is the quality-function oracle (Nocedal, Wächter, Waltz 2009,
// §3): with the affine direction d_a (μ = 0) and the centering direction
// d_c (right-hand side μ_avg in the complementarity rows), d(σ) = d_a + σ d_c
// is the Newton step for μ = σ μ_avg. It picks σ ∈ [1e-6, 100] minimizing
//
//	q(σ) = (1−α_du)²‖r_d‖²/n_d + (1−α_pr)²‖r_p‖²/n_p + ‖(S + α_pr ΔS)(z + α_du Δz)‖²/n_c
//
// (α from the fraction-to-the-boundary rule) by golden-section search on
// log σ (8 steps, goldenSectionMin). On success the direction for the
// chosen σ is left in step.
func (ip *ipm) qualityMu() (float64, bool) {
	avg := ip.avgCompl()
	if avg <= 0 {
		return ip.prm.muMin, false
	}
	ip.setRHS(-1)
	r1 := ip.kkt.solve(ip.rhs, ip.step)
	// Centering right-hand side.
	for j := range ip.nw {
		ip.rhs.w[j] = -kappaD * avg * ip.oLU[j]
		ip.rhs.zL[j] = avg * ip.mL[j]
		ip.rhs.zU[j] = avg * ip.mU[j]
	}
	clear(ip.rhs.y)
	r2 := ip.kkt.solve(ip.rhs, ip.aux)
	ip.qfRatio = max(r1, r2)
	if !(ip.qfRatio <= resRatioSing) {
		return 0, false
	}
	nd := 0.0
	for _, v := range ip.rd {
		nd += v * v
	}
	np := 0.0
	for _, v := range ip.r {
		np += v * v
	}
	nd /= float64(max(ip.nw, 1))
	np /= float64(max(ip.m, 1))
	q := func(lsig float64) float64 {
		sig := math.Exp(lsig)
		ap := ip.ftbCombined(ip.step.w, ip.aux.w, sig)
		ad := ip.ftbZCombined(sig)
		c := 0.0
		for j := range ip.nw {
			d := ip.step.w[j] + sig*ip.aux.w[j]
			if ip.hasL[j] {
				v := (ip.sL[j] + ap*d) * (ip.zL[j] + ad*(ip.step.zL[j]+sig*ip.aux.zL[j]))
				c += v * v
			}
			if ip.hasU[j] {
				v := (ip.sU[j] - ap*d) * (ip.zU[j] + ad*(ip.step.zU[j]+sig*ip.aux.zU[j]))
				c += v * v
			}
		}
		return (1-ad)*(1-ad)*nd + (1-ap)*(1-ap)*np + c/float64(ip.nBounds)
	}
	sig := math.Exp(goldenSectionMin(q, math.Log(qfSigmaMin), math.Log(sigmaMaxAd), qfSectionSteps))
	mu := max(ip.prm.muMin, min(sig*avg, ip.muMax))
	sig = mu / avg
	for j := range ip.nw {
		ip.step.w[j] += sig * ip.aux.w[j]
		ip.step.zL[j] += sig * ip.aux.zL[j]
		ip.step.zU[j] += sig * ip.aux.zU[j]
	}
	for i := range ip.m {
		ip.step.y[i] += sig * ip.aux.y[i]
	}
	return mu, true
}

// goldenSectionMin returns the point of [lo, hi] with the smallest value
// of q among those of a golden-section search of the given number of steps
// and the two end points (the end points win only when strictly smaller).
func goldenSectionMin(q func(float64) float64, lo, hi float64, steps int) float64 {
	a, b := lo, hi
	const gr = 0.6180339887498949
	x1 := b - gr*(b-a)
	x2 := a + gr*(b-a)
	f1, f2 := q(x1), q(x2)
	for range steps {
		if f1 <= f2 {
			b, x2, f2 = x2, x1, f1
			x1 = b - gr*(b-a)
			f1 = q(x1)
		} else {
			a, x1, f1 = x1, x2, f2
			x2 = a + gr*(b-a)
			f2 = q(x2)
		}
	}
	best, fb := x1, f1
	if f2 < fb {
		best, fb = x2, f2
	}
	if fl := q(lo); fl < fb {
		best, fb = lo, fl
	}
	if fh := q(hi); fh < fb {
		best = hi
	}
	return best
}

// ftbCombined is the fraction-to-the-boundary step for d + σ e.
func (ip *ipm) ftbCombined(d, e []float64, sig float64) float64 {
	a := 1.0
	tau := ip.tau
	for j := range ip.nw {
		v := d[j] + sig*e[j]
		if v < 0 && ip.hasL[j] {
			if t := -tau * ip.sL[j] / v; t < a {
				a = t
			}
		}
		if v > 0 && ip.hasU[j] {
			if t := tau * ip.sU[j] / v; t < a {
				a = t
			}
		}
	}
	return a
}

func (ip *ipm) ftbZCombined(sig float64) float64 {
	a := 1.0
	tau := ip.tau
	for j := range ip.nw {
		if ip.hasL[j] {
			if v := ip.step.zL[j] + sig*ip.aux.zL[j]; v < 0 {
				if t := -tau * ip.zL[j] / v; t < a {
					a = t
				}
			}
		}
		if ip.hasU[j] {
			if v := ip.step.zU[j] + sig*ip.aux.zU[j]; v < 0 {
				if t := -tau * ip.zU[j] / v; t < a {
					a = t
				}
			}
		}
	}
	return a
}

// probeMu is the Mehrotra probing oracle: the affine step's complementarity
// gives σ = (μ_aff/μ_avg)³ and μ = σ·μ_avg.
func (ip *ipm) probeMu() (float64, bool) {
	avg := ip.avgCompl()
	if avg <= 0 {
		return ip.prm.muMin, true
	}
	ip.setRHS(-1)
	ratio := ip.kkt.solve(ip.rhs, ip.step)
	if ratio > resRatioSing {
		return 0, false
	}
	ap := ip.fractionToBoundary(ip.step.w, 1)
	ad := ip.fractionToBoundaryZ(ip.step.zL, ip.step.zU, 1)
	s := 0.0
	for j := range ip.nw {
		if ip.hasL[j] {
			s += (ip.sL[j] + ap*ip.step.w[j]) * (ip.zL[j] + ad*ip.step.zL[j])
		}
		if ip.hasU[j] {
			s += (ip.sU[j] - ap*ip.step.w[j]) * (ip.zU[j] + ad*ip.step.zU[j])
		}
	}
	muAff := s / float64(ip.nBounds)
	sigma := math.Pow(muAff/avg, 3)
	sigma = math.Min(sigma, sigmaMaxAd)
	mu := sigma * avg
	mu = math.Max(ip.prm.muMin, math.Min(mu, ip.muMax))
	return mu, true
}

// monotoneFloor is the smallest μ of the monotone rule.
func (ip *ipm) monotoneFloor() float64 {
	// compl_inf_tol is absolute (unscaled); in the scaled problem it is
	// ComplInfTol·|d_f|.
	return max(ip.prm.muMin, ip.prm.muTarget, min(ip.prm.tol, ip.prm.complInfTol*math.Abs(ip.df))/(kappaEps+1))
}

// updateMuMonotone decreases μ while the barrier subproblem is solved.
func (ip *ipm) updateMuMonotone(eMu float64) {
	floor := ip.monotoneFloor()
	changed := false
	force := ip.tinyLast
	for (force || eMu <= kappaEps*ip.mu) && ip.mu > floor {
		force = false
		ip.mu = math.Max(floor, math.Min(kappaMu*ip.mu, math.Pow(ip.mu, thetaMu)))
		changed = true
		eMu = ip.computeErrors(ip.mu)
	}
	if changed {
		ip.tau = math.Max(tauMin, 1-ip.mu)
		ip.resetFilter()
	}
}

func (ip *ipm) resetFilter() {
	ip.filter = ip.filter[:0]
	ip.phi = ip.barrierCur(ip.f)
}

func (ip *ipm) filterAcceptable(theta, phi float64) bool {
	for _, e := range ip.filter {
		if theta >= e.theta && phi >= e.phi {
			return false
		}
	}
	return true
}

func (ip *ipm) addFilter(theta, phi float64) {
	e := filterEntry{(1 - gammaTheta) * theta, phi - gammaPhi*theta}
	// drop entries dominated by the new one
	k := 0
	for _, f := range ip.filter {
		if !(f.theta >= e.theta && f.phi >= e.phi) {
			ip.filter[k] = f
			k++
		}
	}
	ip.filter = ip.filter[:k]
	if len(ip.filter) < cap(ip.filter) {
		ip.filter = append(ip.filter, e)
	} else if k > 0 {
		ip.filter[k-1] = e
	}
}

// lsOutcome is the result of the line search.
type lsOutcome int

const (
	lsAccepted lsOutcome = iota
	lsFailed
	lsUserStop
)

// acceptTrial applies the filter acceptance tests to (θ_T, φ_T). It
// returns accept and whether the step was an f-type (Armijo) step.
func (ip *ipm) acceptTrial(thetaT, phiT, alpha, gphid float64) (bool, bool) {
	if !(thetaT <= ip.thetaMax) || math.IsNaN(phiT) || math.IsInf(phiT, 0) {
		return false, false
	}
	if phiT-ip.phi > math.Pow(10, objMaxInc)*math.Max(1, math.Abs(ip.phi)) {
		return false, false
	}
	if !ip.filterAcceptable(thetaT, phiT) {
		return false, false
	}
	fType := gphid < 0 && alpha*math.Pow(-gphid, sPhi) > deltaSw*math.Pow(ip.theta, sTheta)
	if fType && ip.theta <= ip.thetaMin {
		armijo := phiT-ip.phi <= etaPhi*alpha*gphid+10*epsMach*math.Abs(ip.phi)
		return armijo, armijo
	}
	if thetaT <= (1-gammaTheta)*ip.theta || phiT <= ip.phi-gammaPhi*ip.theta+10*epsMach*math.Abs(ip.phi) {
		return true, false
	}
	return false, false
}

const epsMach = 2.220446049250313e-16

// trialAt sets wT = w + α·d and evaluates it; ok=false for NaN/Inf.
func (ip *ipm) trialAt(d []float64, alpha float64) (thetaT, phiT float64, ok bool, err error) {
	for j := range ip.nw {
		ip.wT[j] = ip.w[j] + alpha*d[j]
	}
	f, ok, err := ip.evalFG(ip.wT, ip.gT)
	if err != nil || !ok {
		return 0, 0, false, err
	}
	ip.fT = f
	ip.computeResidual(ip.wT, ip.gT, ip.rT)
	thetaT = ip.norm1(ip.rT)
	phiT = ip.barrier(ip.wT, f)
	ip.phiT = phiT
	return thetaT, phiT, true, nil
}

// lineSearch runs the backtracking filter line search with second-order
// corrections (W&B06 Algorithm A, steps A-5). On acceptance the trial point
// is in wT/fT/gT/rT, the accepted direction in step and the step sizes in
// alphaPr/alphaDu.
func (ip *ipm) lineSearch() lsOutcome {
	skipFirst := false
	if ip.prm.wdTrigger > 0 && ip.parent == nil {
		switch out := ip.watchdogStep(); out {
		case lsAccepted, lsUserStop:
			return out
		case lsFailed:
			// The watchdog gave up: back at its reference point, search
			// along the stored direction without the full step.
			skipFirst = true
		}
	}
	alphaMax := ip.fractionToBoundary(ip.step.w, ip.tau)
	gphid := ip.barrierDirDeriv(ip.step.w)
	alphaMin := ip.minStepSize(gphid)
	// Tiny step (IPOPT's tiny_step_tol): a step this small is taken in
	// full and forces a barrier decrease; repeated at the smallest μ, the
	// solve stops.
	tiny := ip.tinyStep()
	if !tiny {
		ip.tinyCount = 0
	} else {
		ip.wd.short = 0
	}
	alpha := alphaMax
	if skipFirst {
		alpha *= alphaRed
	}
	ip.lsTrials = 0
	for {
		ip.lsTrials++
		if out := ip.tryStep(alpha, alphaMax, gphid, tiny, skipFirst); out != lsFailed {
			return out
		}
		alpha *= alphaRed
		if alpha < alphaMin {
			return lsFailed
		}
	}
}

// minStepSize is α_min of W&B06 eq. (23) (with the factor alphaMinFrac)
// for the directional derivative gphid of the barrier function, at least
// minAlphaFloor.
func (ip *ipm) minStepSize(gphid float64) float64 {
	theta := ip.theta
	var alphaMin float64
	switch {
	case gphid < 0 && theta <= ip.thetaMin:
		alphaMin = math.Min(gammaTheta, math.Min(gammaPhi*theta/(-gphid),
			deltaSw*math.Pow(theta, sTheta)/math.Pow(-gphid, sPhi)))
	case gphid < 0:
		alphaMin = math.Min(gammaTheta, gammaPhi*theta/(-gphid))
	default:
		alphaMin = gammaTheta
	}
	alphaMin *= alphaMinFrac
	// Guard: α_min is 0 when θ = 0 and NaN for a non-finite direction.
	if !(alphaMin >= minAlphaFloor) {
		alphaMin = minAlphaFloor
	}
	return alphaMin
}

// tinyStep reports whether max |dw_j|/(1 + |w_j|) ≤ tinyStepTol.
func (ip *ipm) tinyStep() bool {
	for j := range ip.nw {
		if math.Abs(ip.step.w[j])/(1+math.Abs(ip.w[j])) > tinyStepTol {
			return false
		}
	}
	return true
}

// tryStep evaluates the trial point at step size alpha and applies the
// filter tests (a tiny step is accepted as it is), with second-order
// corrections after a rejected first trial that did not reduce θ. It
// returns lsFailed when the search goes on with a shorter step.
func (ip *ipm) tryStep(alpha, alphaMax, gphid float64, tiny, skipFirst bool) lsOutcome {
	thetaT, phiT, ok, err := ip.trialAt(ip.step.w, alpha)
	if err != nil {
		return lsUserStop
	}
	if !ok {
		return lsFailed
	}
	if tiny {
		ip.tinyCount++
		ip.alphaPr = alpha
		ip.alphaDu = ip.fractionToBoundaryZ(ip.step.zL, ip.step.zU, ip.tau)
		return lsAccepted
	}
	acc, fType := ip.acceptTrial(thetaT, phiT, alpha, gphid)
	if acc {
		if !fType {
			ip.addFilter(ip.theta, ip.phi)
		}
		ip.alphaPr = alpha
		ip.alphaDu = ip.fractionToBoundaryZ(ip.step.zL, ip.step.zU, ip.tau)
		ip.wd.countShortened(alpha < alphaMax)
		return lsAccepted
	}
	if ip.lsTrials == 1 && !skipFirst && thetaT >= ip.theta && ip.prm.maxSOC > 0 && ip.m > 0 {
		out := ip.secondOrderCorrection(alpha, thetaT, gphid)
		if out == lsAccepted {
			ip.wd.countShortened(ip.alphaPr < alphaMax)
		}
		return out
	}
	return lsFailed
}

// secondOrderCorrection tries up to 4 (max_soc) corrected steps (W&B06 to
// ) reusing the factorization.
func (ip *ipm) secondOrderCorrection(alpha, thetaT, gphid float64) lsOutcome {
	for i := range ip.m {
		ip.csoc[i] = alpha*ip.r[i] + ip.rT[i]
	}
	thetaOld := ip.theta
	thetaSoc := thetaT
	alphaSoc := alpha
	for p := 0; p < ip.prm.maxSOC; p++ {
		if p > 0 && thetaSoc > kappaSOC*thetaOld {
			break
		}
		thetaOld = thetaSoc
		// Same right-hand side except the constraint block.
		for i := range ip.m {
			ip.socY[i] = -ip.csoc[i]
		}
		ratio := ip.kkt.solve(kktVec{ip.rhs.w, ip.socY, ip.rhs.zL, ip.rhs.zU}, ip.aux)
		if ratio > resRatioSing {
			return lsFailed
		}
		alphaSoc = ip.fractionToBoundary(ip.aux.w, ip.tau)
		th, ph, ok, err := ip.trialAt(ip.aux.w, alphaSoc)
		ip.lsTrials++
		if err != nil {
			return lsUserStop
		}
		if !ok {
			return lsFailed
		}
		acc, fType := ip.acceptTrial(th, ph, alpha, gphid)
		if acc {
			if !fType {
				ip.addFilter(ip.theta, ip.phi)
			}
			ip.counts.SecondOrderCorrections++
			copy(ip.step.w, ip.aux.w)
			copy(ip.step.y, ip.aux.y)
			copy(ip.step.zL, ip.aux.zL)
			copy(ip.step.zU, ip.aux.zU)
			ip.alphaPr = alphaSoc
			ip.alphaDu = ip.fractionToBoundaryZ(ip.step.zL, ip.step.zU, ip.tau)
			return lsAccepted
		}
		for i := range ip.m {
			ip.csoc[i] = alphaSoc*ip.csoc[i] + ip.rT[i]
		}
		thetaSoc = th
	}
	return lsFailed
}

// acceptStep moves to the trial point and updates the multipliers with the
// κ_Σ safeguard.
func (ip *ipm) acceptStep() {
	ip.stepNorm = normInf(ip.step.w)
	copy(ip.w, ip.wT)
	copy(ip.g, ip.gT)
	copy(ip.r, ip.rT)
	ip.f = ip.fT
	ap, ad := ip.alphaPr, ip.alphaDu
	for i := range ip.m {
		ip.y[i] += ap * ip.step.y[i]
	}
	mu := ip.mu
	ip.updateSlacks()
	for j := range ip.nw {
		if ip.hasL[j] {
			z := ip.zL[j] + ad*ip.step.zL[j]
			s := ip.sL[j]
			ip.zL[j] = max(min(z, kappaSigma*mu/s), mu/(kappaSigma*s))
		}
		if ip.hasU[j] {
			z := ip.zU[j] + ad*ip.step.zU[j]
			s := ip.sU[j]
			ip.zU[j] = max(min(z, kappaSigma*mu/s), mu/(kappaSigma*s))
		}
	}
	ip.theta = ip.norm1(ip.r)
	ip.phi = ip.phiT
}

// checkStop checks the context, time and iteration limits.
func (ip *ipm) checkStop() (Status, bool) {
	root := ip
	if ip.parent != nil {
		root = ip.parent
	}
	if err := root.ctx.Err(); err != nil {
		return Cancelled, true
	}
	if root.prm.maxWall > 0 && time.Since(root.t0) >= root.prm.maxWall {
		return TimeLimit, true
	}
	if root.iter >= root.prm.maxIter {
		return IterationLimit, true
	}
	return 0, false
}

// diverging reports iterates beyond 1e20 (IPOPT's diverging_iterates_tol),
// objective below −1e20, or a run along a ray: ‖x‖∞ above rayTol after
// rayIters consecutive full steps (α_pr = 1) that each lengthened ‖x‖∞ and
// lowered f by at least rayDecrease·max(1, |f|) (a convergent run's
// decreases shrink to nothing relative to |f|). The ray test catches unbounded problems whose steps are
// limited by the Hessian regularization: far out, a variable with only a
// bound and no curvature has a barrier term z/x below the zero-pivot
// threshold, δ_w of that size keeps the step near 1/δ_w, and ‖x‖∞ grows
// linearly (min −x, x ≥ 0 reached 1.3e16 in 3000 iterations) instead of
// passing 1e20.
func (ip *ipm) diverging() bool {
	xn := normInf(ip.w[:ip.n])
	if xn > divergingTol {
		return true
	}
	if ip.parent != nil {
		return false
	}
	// The minimized objective (f, or −f when maximizing) below −1e20.
	f := ip.f / math.Abs(ip.df)
	if f < -divergingTol {
		return true
	}
	if ip.alphaPr >= 1 && xn > ip.rayX && ip.rayF-f >= rayDecrease*max(1, math.Abs(f)) {
		ip.rayCount++
	} else {
		ip.rayCount = 0
	}
	ip.rayX, ip.rayF = xn, f
	return xn > rayTol && ip.rayCount >= rayIters
}

// acceptableNow reports whether the current iterate meets the acceptable
// tolerances.
func (ip *ipm) acceptableNow() bool {
	_, constr, compl := ip.unscaledErrors()
	return ip.acceptable(constr, compl)
}

// boundViolation is the unscaled violation of the original bounds,
// max(x_L − x, x − x_U, g_L − g(x), g(x) − g_U, 0), each term less the
// rounding allowance 4ε·max(1, |b|) of its bound b: the relaxed bounds
// (bound_relax_factor, at most ConstrViolTol out) and the bounds moved by the
// slack move (updateSlacks) let the iterate leave the original ones, and a
// Solved point must satisfy them to ConstrViolTol as it must r(w) = 0. The
// allowance covers the rounding of b ± relaxation and of w ± s to the
// doubles near b (min −x, 0 ≤ x ≤ 1e9 ends at x = 1e9 + 1.0000166e-4, its
// relaxed bound 1e9 + 1e-4 rounded up by 1.66e-8).
func (ip *ipm) boundViolation() float64 {
	v := 0.0
	out := func(d, b float64) {
		v = fmax(v, d-4*epsMach*math.Max(1, math.Abs(b)))
	}
	for j := range ip.n {
		x := ip.w[j]
		out(ip.xLo[j]-x, ip.xLo[j])
		out(x-ip.xUp[j], ip.xUp[j])
	}
	for i := range ip.m {
		g := ip.g[i] / ip.dc[i]
		out(ip.gLo[i]-g, ip.gLo[i])
		out(g-ip.gUp[i], ip.gUp[i])
	}
	return v
}

func (ip *ipm) acceptable(constr, compl float64) bool {
	return ip.e0 <= ip.prm.accTol && constr <= ip.prm.accConstrViolTol && compl <= ip.prm.accComplTol
}

// squareSolved handles a square problem — as many free variables as
// equality constraints and no inequality constraints, so that the
// constraints alone determine the point and the objective plays no part —
// at a point that satisfies the constraints: it tries the multipliers of
// that feasibility problem, z = 0 and y by least squares (y = 0 without an
// objective gradient, with no factorization), as IPOPT does for square
// problems (IpoptAlgorithm::ComputeFeasibilityMultipliers). If the point
// then meets the convergence tolerances it keeps them and returns true;
// otherwise it restores the iterate's multipliers. Without it the barrier
// terms of the variables' bounds, which play no part at such a point, have
// to be driven to the tolerance by further iterations (measured: 3
// iterations instead of 1 for the steps of a time-stepping simulation
// solved on their predicted branch).
func (ip *ipm) squareSolved() bool {
	if !ip.square {
		return false
	}
	if ip.sqY == nil {
		ip.sqY, ip.sqZL, ip.sqZU = make([]float64, ip.m), make([]float64, ip.nw), make([]float64, ip.nw)
	}
	copy(ip.sqY, ip.y)
	copy(ip.sqZL, ip.zL)
	copy(ip.sqZU, ip.zU)
	for j := range ip.zL {
		ip.zL[j], ip.zU[j] = 0, 0
	}
	ok := true
	if normInf(ip.grad) == 0 {
		for i := range ip.y {
			ip.y[i] = 0
		}
	} else {
		ok = ip.leastSquaresY()
	}
	if ok {
		ip.computeErrors(ip.mu)
		dual, constr, compl := ip.unscaledErrors()
		if ip.e0 <= ip.prm.tol && dual <= ip.prm.dualInfTol && constr <= ip.prm.constrViolTol && compl <= ip.prm.complInfTol {
			return true
		}
	}
	copy(ip.y, ip.sqY)
	copy(ip.zL, ip.sqZL)
	copy(ip.zU, ip.sqZU)
	ip.computeErrors(ip.mu)
	return false
}

// bestIterate is the acceptable iterate with the smallest scaled
// optimality error of a solve (see keepBest).
type bestIterate struct {
	ok               bool
	e, mu, f         float64
	theta, phi       float64
	w, y, zL, zU     []float64
	g, r, grad, jVal []float64
}

// keepBest records the current iterate, which meets the acceptable
// tolerances, if its scaled optimality error is the smallest of the solve.
// A solve that then fails numerically returns it (fallBack).
func (ip *ipm) keepBest() {
	b := &ip.best
	if ip.parent != nil || (b.ok && ip.e0 >= b.e) {
		return
	}
	if b.w == nil {
		b.w, b.zL, b.zU = make([]float64, ip.nw), make([]float64, ip.nw), make([]float64, ip.nw)
		b.y, b.g, b.r = make([]float64, ip.m), make([]float64, ip.m), make([]float64, ip.m)
		b.grad, b.jVal = make([]float64, len(ip.grad)), make([]float64, len(ip.jVal))
	}
	b.ok, b.e, b.mu, b.f, b.theta, b.phi = true, ip.e0, ip.mu, ip.f, ip.theta, ip.phi
	copy(b.w, ip.w)
	copy(b.y, ip.y)
	copy(b.zL, ip.zL)
	copy(b.zU, ip.zU)
	copy(b.g, ip.g)
	copy(b.r, ip.r)
	copy(b.grad, ip.grad)
	copy(b.jVal, ip.jVal)
}

// fallBack turns a NumericalError into SolvedAcceptable at the best
// acceptable iterate of the solve, when there was one: the step
// computation can fail after the iterates have reached the tolerances'
// floor (an NLP solved to 1e-12 whose last directions, at μ = 1e-13, came
// from perturbed factorizations and undid it; measured on the branch
// re-solves of fesd's sensitivities), and that point is a result the
// failure must not discard.
func (ip *ipm) fallBack(st Status) Status {
	b := &ip.best
	if st != NumericalError || !b.ok || ip.parent != nil {
		return st
	}
	copy(ip.w, b.w)
	copy(ip.y, b.y)
	copy(ip.zL, b.zL)
	copy(ip.zU, b.zU)
	copy(ip.g, b.g)
	copy(ip.r, b.r)
	copy(ip.grad, b.grad)
	copy(ip.jVal, b.jVal)
	ip.f, ip.mu, ip.theta, ip.phi = b.f, b.mu, b.theta, b.phi
	ip.updateSlacks()
	ip.computeErrors(ip.mu)
	return SolvedAcceptable
}

// run is the main loop. It returns the final status.
func (ip *ipm) run() Status {
	for {
		eMu := ip.computeErrors(ip.mu)
		if st, stop := ip.checkTermination(); stop {
			return st
		}
		ip.updateBarrier(eMu)
		if st, done := ip.iterate(); done {
			return st
		}
	}
}

// checkTermination records the current iterate and runs the termination
// tests at it: convergence (the tolerances, or a solved square system),
// acceptable iterates (kept as the best; AcceptableIter in a row end the
// solve), divergence, limits and cancellation, the restoration phase's
// own test, and repeated tiny steps at the smallest μ. stop reports the
// end of the solve with status st.
func (ip *ipm) checkTermination() (st Status, stop bool) {
	dual, constr, compl := ip.unscaledErrors()
	ip.record(constr)
	if ip.e0 <= ip.prm.tol && dual <= ip.prm.dualInfTol && constr <= ip.prm.constrViolTol && compl <= ip.prm.complInfTol &&
		ip.boundViolation() <= ip.prm.constrViolTol {
		return Solved, true
	}
	if constr <= ip.prm.constrViolTol && ip.boundViolation() <= ip.prm.constrViolTol && ip.squareSolved() {
		return Solved, true
	}
	if ip.acceptable(constr, compl) {
		ip.keepBest()
		ip.accCount++
		if ip.prm.accIter > 0 && ip.accCount >= ip.prm.accIter {
			return SolvedAcceptable, true
		}
	} else {
		ip.accCount = 0
	}
	if ip.diverging() {
		return Diverging, true
	}
	if st, stop := ip.checkStop(); stop {
		return st, true
	}
	if ip.rctx != nil && ip.rctx.done {
		return Solved, true
	}
	ip.tinyLast = ip.tinyCount > 0
	if ip.tinyCount >= 2 && ip.mu <= ip.monotoneFloor() {
		// Repeated tiny steps at the smallest μ: no further progress.
		if ip.acceptable(constr, compl) {
			return SolvedAcceptable, true
		}
		return NumericalError, true
	}
	return 0, false
}

// updateBarrier updates μ before a step: the monotone rule (also the fixed
// mode of MuAdaptive, which turns free once the barrier problem's error eMu
// is below κ_ε·μ), or in the free mode the KKT-error globalization, which
// returns to the fixed mode when the error has not fallen by kktRedFact
// over the last kktRedIters iterations.
func (ip *ipm) updateBarrier(eMu float64) {
	if !ip.freeMode {
		ip.updateMuMonotone(eMu)
		if ip.prm.muStrategy == MuAdaptive && eMu <= kappaEps*ip.mu {
			ip.freeMode = true
			ip.kktRefN = 0
		}
		return
	}
	worst := 0.0
	for k := 0; k < ip.kktRefN; k++ {
		worst = math.Max(worst, ip.kktRefs[k])
	}
	if ip.kktRefN == kktRedIters && ip.e0 > kktRedFact*worst {
		ip.freeMode = false
		ip.mu = math.Max(ip.monotoneFloor(), math.Min(ip.muMax, monoInitFact*ip.avgCompl()))
		ip.tau = math.Max(tauMin, 1-ip.mu)
		ip.resetFilter()
		return
	}
	if ip.kktRefN < kktRedIters {
		ip.kktRefs[ip.kktRefN] = ip.e0
		ip.kktRefN++
	} else {
		copy(ip.kktRefs[:], ip.kktRefs[1:])
		ip.kktRefs[kktRedIters-1] = ip.e0
	}
}

// iterate computes one step (with restoration on failure). done reports
// the end of the solve.
func (ip *ipm) iterate() (Status, bool) {
	if ok, err := ip.evalHessian(); err != nil {
		return UserStop, true
	} else if !ok {
		return ip.failStep()
	}
	if !ip.searchDirection() {
		return ip.failStep()
	}
	ip.ic.endIteration()
	if ip.ic.deltaC > 0 {
		ip.counts.DeltaC++
	}
	switch ip.lineSearch() {
	case lsUserStop:
		return UserStop, true
	case lsFailed:
		return ip.failStep()
	}
	ip.lastDeltaW, ip.lastDeltaC = ip.ic.deltaW, ip.ic.deltaC
	ip.acceptStep()
	if ok, err := ip.evalDerivs(); err != nil {
		return UserStop, true
	} else if !ok {
		return NumericalError, true
	}
	ip.countIter()
	if ip.rctx != nil {
		ip.rctx.check(ip)
	}
	return 0, false
}

// searchDirection factorizes the KKT matrix with inertia correction and
// computes the step, perturbing δ_c and then δ_w while the direction's
// residual ratio stays too large, and until the inertia corrector accepts
// the direction (fixCurvature). It reports false when no usable direction
// was found.
func (ip *ipm) searchDirection() bool {
	if !ip.ic.factorize(ip.kkt, ip.mu, false) {
		return false
	}
	forceDC := false
	for attempt := 0; ; attempt++ {
		ratio := ip.computeDirection()
		// Treat as singular, perturbing δ_c and then δ_w, a direction
		// whose residual ratio stays above residual_ratio_singular
		// (IPOPT's rule) or, when the factorization replaced zero pivots
		// (static pivoting, see inertiaBased.accept), above residual_ratio_max: the
		// refinement then solves a nearby matrix's system, and directions
		// it leaves at ratios of 1e-9…1e-6 stalled the relaxed NLPs of
		// bench/ocp's motor from σ = 1e-5 on (α halved, inf_du ≈ 10,
		// NumericalError; 1 099 iterations in all instead of 437). A square
		// problem keeps the first rule (its refinement target is tighter
		// already, augmentedKKT.resRatio).
		lim := resRatioSing
		if ip.ic.regularized && !ip.square {
			lim = resRatioMax
		}
		if ratio <= lim {
			break
		}
		if attempt >= 3 {
			if ratio > 1e-2 || math.IsNaN(ratio) {
				return false
			}
			break
		}
		if !forceDC && ip.m > 0 && ip.ic.deltaC == 0 {
			forceDC = true
			if !ip.ic.factorize(ip.kkt, ip.mu, true) {
				return false
			}
			continue
		}
		if !ip.ic.increaseDeltaW(ip.kkt) {
			return false
		}
	}
	return ip.fixCurvature()
}

// fixCurvature increases δ_w (at most 20 times) until the direction passes
// the test of the inertia corrector (inertiaCurvature's curvature test; the
// others accept every direction). It reports false when that fails.
func (ip *ipm) fixCurvature() bool {
	for tries := 0; !ip.ic.directionOK(ip.kkt, ip.step.w); tries++ {
		ip.counts.CurvatureFixes++
		if tries >= 20 || !ip.ic.increaseDeltaW(ip.kkt) {
			return false
		}
		if ratio := ip.computeDirection(); ratio > 1e-2 || ratio != ratio {
			return false
		}
	}
	return true
}

// countIter advances the (shared) iteration counter.
func (ip *ipm) countIter() {
	ip.iter++
	if ip.parent != nil {
		ip.parent.iter++
	}
}

// failStep handles a failed step computation or line search: acceptable
// termination if possible, an emergency step at (nearly) feasible points,
// otherwise the restoration phase.
func (ip *ipm) failStep() (Status, bool) {
	if ip.acceptableNow() {
		return SolvedAcceptable, true
	}
	if ip.parent != nil {
		// No restoration inside restoration.
		return NumericalError, true
	}
	return ip.restore()
}
