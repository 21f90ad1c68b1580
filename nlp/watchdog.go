package nlp

// watchdog is IPOPT's watchdog procedure (W&B06 §3.2; IPOPT's
// BacktrackingLineSearch, watchdog_shortened_iter_trigger = 10,
// watchdog_trial_iter_max = 3). After WatchdogTrigger consecutive
// iterations whose accepted step was shorter than the fraction-to-the-
// boundary step (the filter or Armijo blocked the full step, typically near
// a degenerate or badly scaled point, where the iteration creeps with tiny
// α), the current iterate and direction are stored and up to
// 3 (watchdogTrialMax) full steps are taken without a line search. If one of
// them is acceptable with respect to the stored point (filter, sufficient
// decrease or Armijo from the stored θ, φ_μ and ∇φ_μᵀd), the watchdog ends
// there; otherwise the solver returns to the stored point and does the
// ordinary backtracking line search along the stored direction, skipping
// the full step. The watchdog is abandoned when μ changes (φ_μ values are
// not comparable) and does not run in the restoration phase.
type watchdog struct {
	short  int  // consecutive shortened steps
	active bool // tentative full steps under way
	trial  int  // tentative steps taken
	alloc  bool

	mu, theta, phi, gphid, alpha, f float64
	w, g, r, y, zL, zU              []float64
	dw, dy, dzL, dzU                []float64
}

// countShortened updates the count of consecutive shortened steps.
func (wd *watchdog) countShortened(short bool) {
	if short {
		wd.short++
	} else {
		wd.short = 0
	}
}

func (wd *watchdog) reset() {
	wd.short, wd.active, wd.trial = 0, false, 0
}

// start stores the current iterate and direction.
func (ip *ipm) watchdogStart(alphaMax, gphid float64) {
	wd := &ip.wd
	if !wd.alloc {
		wd.alloc = true
		wd.w, wd.dw = make([]float64, ip.nw), make([]float64, ip.nw)
		wd.zL, wd.zU = make([]float64, ip.nw), make([]float64, ip.nw)
		wd.dzL, wd.dzU = make([]float64, ip.nw), make([]float64, ip.nw)
		wd.g, wd.r = make([]float64, len(ip.g)), make([]float64, len(ip.r))
		wd.y, wd.dy = make([]float64, len(ip.y)), make([]float64, len(ip.step.y))
	}
	copy(wd.w, ip.w)
	copy(wd.g, ip.g)
	copy(wd.r, ip.r)
	copy(wd.y, ip.y)
	copy(wd.zL, ip.zL)
	copy(wd.zU, ip.zU)
	copy(wd.dw, ip.step.w)
	copy(wd.dy, ip.step.y)
	copy(wd.dzL, ip.step.zL)
	copy(wd.dzU, ip.step.zU)
	wd.mu, wd.theta, wd.phi, wd.f = ip.mu, ip.theta, ip.phi, ip.f
	wd.gphid, wd.alpha = gphid, alphaMax
	wd.active, wd.trial, wd.short = true, 0, 0
}

// watchdogRestore returns to the stored point and direction (derivatives
// re-evaluated there). It returns lsFailed (go on with the line search) or
// lsUserStop.
func (ip *ipm) watchdogRestore() lsOutcome {
	wd := &ip.wd
	wd.active = false
	copy(ip.w, wd.w)
	copy(ip.g, wd.g)
	copy(ip.r, wd.r)
	copy(ip.y, wd.y)
	copy(ip.zL, wd.zL)
	copy(ip.zU, wd.zU)
	copy(ip.step.w, wd.dw)
	copy(ip.step.y, wd.dy)
	copy(ip.step.zL, wd.dzL)
	copy(ip.step.zU, wd.dzU)
	ip.f, ip.theta, ip.phi = wd.f, wd.theta, wd.phi
	ip.updateSlacks()
	ok, err := ip.evalDerivs()
	if err != nil || !ok {
		// The stored point was evaluated before; treat a failure like a
		// user stop only for errors.
		if err != nil {
			return lsUserStop
		}
	}
	return lsFailed
}

// watchdogStep runs the watchdog part of the line search. It returns
// lsAccepted (a step was taken: acceptable, or tentative), lsFailed (the
// watchdog returned to its stored point: line search without the full
// step), lsUserStop, or -1 (no watchdog: ordinary line search).
func (ip *ipm) watchdogStep() lsOutcome {
	wd := &ip.wd
	if wd.active && ip.mu != wd.mu {
		wd.active = false // μ changed: the stored φ_μ is stale
	}
	if !wd.active && wd.short < ip.prm.wdTrigger {
		return -1
	}
	alphaMax := ip.fractionToBoundary(ip.step.w, ip.tau)
	if !wd.active {
		// Do not start on a tiny step (it is taken in full anyway).
		tiny := true
		for j := range ip.nw {
			if abs(ip.step.w[j])/(1+abs(ip.w[j])) > tinyStepTol {
				tiny = false
				break
			}
		}
		if tiny {
			wd.short = 0
			return -1
		}
		ip.watchdogStart(alphaMax, ip.barrierDirDeriv(ip.step.w))
		ip.counts.Watchdogs++
	}
	ip.lsTrials = 1
	thetaT, phiT, ok, err := ip.trialAt(ip.step.w, alphaMax)
	if err != nil {
		return lsUserStop
	}
	if ok {
		// Acceptability with respect to the stored point.
		theta, phi := ip.theta, ip.phi
		ip.theta, ip.phi = wd.theta, wd.phi
		acc, fType := ip.acceptTrial(thetaT, phiT, wd.alpha, wd.gphid)
		ip.theta, ip.phi = theta, phi
		if acc {
			wd.active = false
			if !fType {
				ip.addFilter(wd.theta, wd.phi)
			}
			ip.alphaPr = alphaMax
			ip.alphaDu = ip.fractionToBoundaryZ(ip.step.zL, ip.step.zU, ip.tau)
			return lsAccepted
		}
	}
	wd.trial++
	if !ok || wd.trial > ip.prm.wdTrialMax {
		return ip.watchdogRestore()
	}
	// Tentative full step.
	ip.alphaPr = alphaMax
	ip.alphaDu = ip.fractionToBoundaryZ(ip.step.zL, ip.step.zU, ip.tau)
	return lsAccepted
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
