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
