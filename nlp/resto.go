package nlp

import (
	"math"
)

// restoration is the feasibility restoration phase (W&B06 §3.3): a second
// instance of the interior-point method solves
//
//	min  ρ Σ(p + n) + ζ/2 ‖D_R (x − x_R)‖²
//	s.t. g̃(x) − p + n ∈ [g_L, g_U] (scaled, same slacks), x ∈ [x_L, x_U], p, n ≥ 0,
//
// with ρ = 1000, ζ = √μ, D_R = diag(min(1, 1/|x_R,j|)), started at the
// current iterate with p, n from W&B06 eq. (33). It returns to the original
// problem as soon as an iterate reduces θ to ≤ 0.9·θ_R and is acceptable to
// the original filter. If it converges without that, the point is a
// stationary point of the constraint violation: the problem is declared
// Infeasible. Simplifications w.r.t. IPOPT: no soft restoration, no
// restoration inside restoration, bound multipliers taken over from the
// restoration solver (reset to 1 above 1e3), y re-estimated by least squares.
type restoration struct {
	outer  *ipm
	inner  *ipm
	prob   *restoProblem
	thetaR float64
	done   bool
}

type restoProblem struct {
	o      *ipm
	xR, dR []float64
	zeta   float64
	muInit float64
}

func (rp *restoProblem) Dims() (int, int) { return rp.o.n + 2*rp.o.m, rp.o.m }

func (rp *restoProblem) Bounds(xL, xU, gL, gU []float64) {
	o := rp.o
	n, m := o.n, o.m
	inf := math.Inf(1)
	for j := range n {
		switch {
		case o.fixed[j]:
			xL[j], xU[j] = o.xLo[j], o.xLo[j]
		default:
			xL[j], xU[j] = -inf, inf
			if o.hasL[j] {
				xL[j] = o.wL[j]
			}
			if o.hasU[j] {
				xU[j] = o.wU[j]
			}
		}
	}
	for i := range 2 * m {
		xL[n+i], xU[n+i] = 0, inf
	}
	for i := range m {
		if k := o.slackOf[i]; k >= 0 {
			gL[i], gU[i] = -inf, inf
			if o.hasL[k] {
				gL[i] = o.wL[k]
			}
			if o.hasU[k] {
				gU[i] = o.wU[k]
			}
		} else {
			gL[i], gU[i] = o.gEq[i], o.gEq[i]
		}
	}
}

// Start writes x_k and p, n from W&B06 eq. (33) for c = r(x_k).
func (rp *restoProblem) Start(x0 []float64) {
	o := rp.o
	n, m := o.n, o.m
	copy(x0[:n], o.w[:n])
	mu := rp.muInit
	for i := range m {
		c := o.r[i]
		a := (mu - restoRho*c) / (2 * restoRho)
		nn := a + math.Sqrt(a*a+mu*c/(2*restoRho))
		if nn < 1e-16 || math.IsNaN(nn) {
			nn = math.Max(mu/restoRho, 1e-16)
		}
		pp := c + nn
		if pp < 1e-16 {
			pp = math.Max(mu/restoRho, 1e-16)
		}
		x0[n+i], x0[n+m+i] = pp, nn
	}
}

func (rp *restoProblem) Objective(x []float64) (float64, error) {
	o := rp.o
	n, m := o.n, o.m
	s := 0.0
	for i := range 2 * m {
		s += x[n+i]
	}
	q := 0.0
	for j := range n {
		d := rp.dR[j] * (x[j] - rp.xR[j])
		q += d * d
	}
	return restoRho*s + 0.5*rp.zeta*q, nil
}

func (rp *restoProblem) Gradient(x, grad []float64) error {
	o := rp.o
	n, m := o.n, o.m
	for j := range n {
		grad[j] = rp.zeta * rp.dR[j] * rp.dR[j] * (x[j] - rp.xR[j])
	}
	for i := range 2 * m {
		grad[n+i] = restoRho
	}
	return nil
}

func (rp *restoProblem) Constraints(x, g []float64) error {
	o := rp.o
	n, m := o.n, o.m
	if err := o.p.Constraints(x[:n], g); err != nil {
		return err
	}
	for i := range m {
		g[i] = g[i]*o.dc[i] - x[n+i] + x[n+m+i]
	}
	return nil
}

func (rp *restoProblem) JacobianStructure() (rows, cols []int) {
	o := rp.o
	n, m := o.n, o.m
	rows = append(append([]int(nil), o.jRow...), make([]int, 2*m)...)
	cols = append(append([]int(nil), o.jCol...), make([]int, 2*m)...)
	nj := len(o.jRow)
	for i := range m {
		rows[nj+2*i], cols[nj+2*i] = i, n+i
		rows[nj+2*i+1], cols[nj+2*i+1] = i, n+m+i
	}
	return rows, cols
}

func (rp *restoProblem) JacobianValues(x, vals []float64) error {
	o := rp.o
	nj := len(o.jRow)
	if err := o.p.JacobianValues(x[:o.n], vals[:nj]); err != nil {
		return err
	}
	for k := range nj {
		vals[k] *= o.dc[o.jRow[k]]
	}
	for i := range o.m {
		vals[nj+2*i], vals[nj+2*i+1] = -1, 1
	}
	return nil
}

func (rp *restoProblem) HessianStructure() (rows, cols []int) {
	o := rp.o
	rows = append(append([]int(nil), o.hRow...), make([]int, o.n)...)
	cols = append(append([]int(nil), o.hCol...), make([]int, o.n)...)
	nh := len(o.hRow)
	for j := range o.n {
		rows[nh+j], cols[nh+j] = j, j
	}
	return rows, cols
}

func (rp *restoProblem) HessianValues(x []float64, sigma float64, lambda, vals []float64) error {
	o := rp.o
	nh := len(o.hRow)
	for i := range o.m {
		o.lamTmp[i] = lambda[i] * o.dc[i]
	}
	if err := o.p.HessianValues(x[:o.n], 0, o.lamTmp, vals[:nh]); err != nil {
		return err
	}
	for j := range o.n {
		vals[nh+j] = sigma * rp.zeta * rp.dR[j] * rp.dR[j]
	}
	return nil
}

// initInner sets the bound multipliers of p and n to μ/p, μ/n.
func (r *restoration) initInner(in *ipm) {
	o := r.outer
	n, m := o.n, o.m
	for i := range 2 * m {
		v := in.w[n+i]
		in.zL[n+i] = math.Min(restoRho, in.mu/v)
	}
}

// check is called after every accepted restoration iterate: it tests
// whether the original problem can take over.
func (r *restoration) check(in *ipm) {
	o := r.outer
	n, m := o.n, o.m
	copy(o.wT[:n], in.w[:n])
	theta := 0.0
	for i := range m {
		gi := in.g[i] + in.w[n+i] - in.w[n+m+i]
		o.gT[i] = gi
		if k := o.slackOf[i]; k >= 0 {
			o.wT[k] = in.w[in.slackOf[i]]
		}
	}
	o.computeResidual(o.wT, o.gT, o.rT)
	theta = o.norm1(o.rT)
	if !(theta <= restoReduction*r.thetaR) {
		return
	}
	f, ok, err := o.evalFG(o.wT, o.gT)
	if err != nil || !ok {
		return
	}
	o.computeResidual(o.wT, o.gT, o.rT)
	theta = o.norm1(o.rT)
	phi := o.barrier(o.wT, f)
	if theta <= restoReduction*r.thetaR && !math.IsInf(phi, 0) && o.filterAcceptable(theta, phi) {
		o.fT = f
		r.done = true
	}
}

// restoParams derives the restoration solver's parameters.
func (ip *ipm) restoParams(muInit float64) params {
	prm := ip.prm
	prm.scaling = false
	prm.boundRelax = 0
	// The restoration phase of a square problem is the rest of the solve
	// (no objective to return to: it decides whether the system has a
	// solution in the bounds), so it runs with the main phase's μ
	// strategy, as IPOPT's restoration does by default. Elsewhere it is a
	// detour back to the filter and keeps the monotone rule: adaptive μ
	// there was measured worse (MacMPEC 5 659 -> 5 971 iterations, the
	// monopod showcase's short task no longer solved). The infeasible
	// time-stepping branch NLPs of bench's three masses (square) took 106
	// iterations with the monotone rule, 72 with the adaptive one (IPOPT
	// 83); TestSquareInfeasibleResto: 23 -> 13.
	if !ip.square {
		prm.muStrategy = MuMonotone
	}
	prm.objScaling = 1
	prm.muInit = muInit
	prm.muMin = min(prm.muMin, muInit)
	prm.muMax = muMaxAbs
	// The start (x_k, p, n) is already interior: no push (IPOPT's
	// restoration initializer sets p, n by eq. (33) without one).
	prm.boundPush, prm.boundFrac = 1e-14, 1e-14
	return prm
}

// restore runs the restoration phase from the current iterate.
func (ip *ipm) restore() (Status, bool) {
	// Augment the filter with the current iterate (W&B06 A-9).
	ip.addFilter(ip.theta, ip.phi)
	if ip.resto == nil {
		if err := ip.newRestoration(); err != nil {
			return NumericalError, true
		}
	}
	ip.counts.RestorationPhases++
	ip.wd.reset()
	r := ip.resto
	in := r.inner
	ip.startRestoration(r)
	st, err := in.initialize(nil)
	if err != nil {
		st = NumericalError
	}
	if st < 0 {
		st = in.run()
	}
	ip.counts.Constraints += in.counts.Constraints
	ip.counts.Jacobian += in.counts.Jacobian
	ip.counts.Hessian += in.counts.Hessian
	ip.counts.Factorizations += in.counts.Factorizations
	ip.counts.SecondOrderCorrections += in.counts.SecondOrderCorrections
	if r.done {
		return ip.leaveRestoration()
	}
	switch st {
	case Cancelled, TimeLimit, IterationLimit, UserStop:
		return st, true
	case Solved, SolvedAcceptable:
		// Converged to a stationary point of the infeasibility.
		_, constr, _ := in.restoOuterViolation(ip)
		if constr > ip.prm.constrViolTol {
			ip.adoptRestoPoint()
			return Infeasible, true
		}
		return NumericalError, true
	}
	// The restoration solver failed: infeasible if it is stuck far from
	// feasibility with a tiny step, otherwise a numerical failure.
	return NumericalError, true
}

// newRestoration creates the restoration phase's problem and solver (once
// per solver: its structure is that of the problem).
func (ip *ipm) newRestoration() error {
	rp := &restoProblem{o: ip, xR: make([]float64, ip.n), dR: make([]float64, ip.n)}
	set := Settings{
		tune:            func(p *params) { p.scaling = false },
		NoBoundRelax:    true,
		LinearSolver:    ip.set.LinearSolver,
		NewLinearSolver: ip.set.NewLinearSolver,
		Log:             ip.set.Log,
		// The KKT safeguards apply to the restoration phase's own
		// factorizations too (IPOPT passes them on).
		Inertia: ip.set.Inertia.restoration(),
	}
	if ip.set.Ordering == OrderNatural {
		set.Ordering = OrderNatural
	} else {
		set.Ordering = OrderAMD
	}
	inner, err := newIPM(rp, &set, ip.restoParams(ip.mu), ip)
	if err != nil {
		return err
	}
	ip.resto = &restoration{outer: ip, inner: inner, prob: rp}
	inner.rctx = ip.resto
	inner.ctx = ip.ctx
	inner.t0 = ip.t0
	return nil
}

// startRestoration sets the restoration problem's reference point x_R,
// D_R, ζ = √μ, its μ₀ and θ_R from the current iterate.
func (ip *ipm) startRestoration(r *restoration) {
	rp := r.prob
	copy(rp.xR, ip.w[:ip.n])
	for j, v := range rp.xR {
		rp.dR[j] = math.Min(1, 1/math.Max(math.Abs(v), 1e-300))
	}
	rp.zeta = math.Sqrt(ip.mu)
	rp.muInit = math.Max(ip.mu, normInf(ip.r))
	// θ_R is the violation the restoration phase must reduce by 10 % (IPOPT:
	// the current one). Here a restoration phase after an earlier one
	// starts from the θ that one returned with if the main phase has not
	// reduced θ below it since, and must halve it too. Otherwise a locally
	// infeasible problem cycles: the restoration phase returns as soon as
	// it is 10 % below its entry point, just above the minimum of the
	// violation, and the main phase climbs back and calls it again (the
	// infeasible time-stepping branch NLPs of bench's three masses: 127
	// iterations for six with IPOPT's rule, 102 with this one, IPOPT 85).
	r.thetaR = ip.theta
	if ip.restoTheta > 0 {
		r.thetaR = restoReentry * math.Min(ip.theta, ip.restoTheta)
	}
	r.done = false
	r.inner.prm = ip.restoParams(rp.muInit)
}

// leaveRestoration returns to the original problem at the accepted
// restoration point: derivatives there and least-squares y.
func (ip *ipm) leaveRestoration() (Status, bool) {
	ip.returnFromResto()
	if ok, err := ip.evalDerivs(); err != nil {
		return UserStop, true
	} else if !ok {
		return NumericalError, true
	}
	if ip.m > 0 && !ip.leastSquaresY() {
		clear(ip.y)
	}
	return 0, false
}

// restoOuterViolation returns the unscaled constraint violation of the
// original problem at the inner iterate.
func (in *ipm) restoOuterViolation(o *ipm) (float64, float64, float64) {
	v := 0.0
	n, m := o.n, o.m
	for i := range m {
		gi := in.g[i] + in.w[n+i] - in.w[n+m+i]
		var ri float64
		if k := o.slackOf[i]; k >= 0 {
			ri = 0
			if o.hasL[k] && gi < o.wL[k] {
				ri = o.wL[k] - gi
			}
			if o.hasU[k] && gi > o.wU[k] {
				ri = gi - o.wU[k]
			}
		} else {
			ri = gi - o.gEq[i]
		}
		v = math.Max(v, math.Abs(ri)/o.dc[i])
	}
	return 0, v, 0
}

// adoptRestoPoint copies the restoration iterate's x and slacks into the
// outer iterate (for reporting an infeasible end point).
func (ip *ipm) adoptRestoPoint() {
	in := ip.resto.inner
	n := ip.n
	copy(ip.w[:n], in.w[:n])
	for i := range ip.m {
		ip.g[i] = in.g[i] + in.w[n+i] - in.w[n+ip.m+i]
		if k := ip.slackOf[i]; k >= 0 {
			ip.w[k] = in.w[in.slackOf[i]]
		}
	}
	ip.computeResidual(ip.w, ip.g, ip.r)
	ip.updateSlacks()
	if f, ok, err := ip.evalFG(ip.w, ip.gT); err == nil && ok {
		ip.f = f
	}
}

// returnFromResto moves the outer iterate to the accepted restoration point
// (held in wT, gT, fT) and takes over its bound multipliers.
func (ip *ipm) returnFromResto() {
	in := ip.resto.inner
	n := ip.n
	copy(ip.w, ip.wT)
	copy(ip.g, ip.gT)
	ip.f = ip.fT
	ip.computeResidual(ip.w, ip.g, ip.r)
	ip.restoTheta = ip.norm1(ip.r)
	ip.updateSlacks()
	zmax := 0.0
	for j := range n {
		ip.zL[j], ip.zU[j] = in.zL[j], in.zU[j]
	}
	for i := range ip.m {
		if k := ip.slackOf[i]; k >= 0 {
			ik := in.slackOf[i]
			ip.zL[k], ip.zU[k] = in.zL[ik], in.zU[ik]
		}
	}
	for j := range ip.nw {
		if !ip.hasL[j] {
			ip.zL[j] = 0
		}
		if !ip.hasU[j] {
			ip.zU[j] = 0
		}
		zmax = math.Max(zmax, math.Max(ip.zL[j], ip.zU[j]))
	}
	if zmax > boundMultReset {
		for j := range ip.nw {
			if ip.hasL[j] {
				ip.zL[j] = 1
			}
			if ip.hasU[j] {
				ip.zU[j] = 1
			}
		}
	}
	ip.theta = ip.norm1(ip.r)
	ip.phi = ip.barrierCur(ip.f)
	ip.phiT = ip.phi
	ip.alphaPr, ip.alphaDu = 1, 1
	ip.lsTrials, ip.stepNorm = 0, 0
}
