package fesd

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/rk"
)

// clsGuess is the start of a FESD-J step's homotopy: an event-driven
// integration of the contact system (explicit RK4 on small sub-steps;
// impacts located by bisection on the gap and resolved by Newton's law
// for all contacts closed at that time at once, with Coulomb's
// tangential impulses; resting contacts held by the normal forces that
// keep their normal accelerations at zero, with Coulomb friction; a
// sliding contact that stops located by bisection on its tangential
// velocity), with the element boundaries put on its events. From the cold start (every state at x₀) the homotopy of a step
// with an impact ends locally infeasible (a ball at 0.215 m falling at
// 3.9 m/s: the last element ends at the ground with Σh < T); from this
// start it converges to the impact on a boundary.
type clsGuess struct {
	s   *clsSystem
	f   *ad.Function // (q, v, u, p) → (M, f_v, f_c, J_n, J_t)
	ws  *ad.Workspace
	out []float64
	u   []float64
	p   []float64
	// restTime: an impact after which a Zeno sequence would end within
	// restTime leaves the guessed body at rest (impact)
	restTime float64
	// stageEnd is the end of the control stage the guess runs in and
	// kappa = max_m (A⁻¹1)_m of the Runge–Kutta matrix (within; 0: no
	// limit): a body is rested after an impact only if the stage has
	// kappa v_n⁺/|a_n| left, the shortest element in which the contact
	// forces can stop it (restStages)
	stageEnd, kappa float64
	ainv1           []float64 // A⁻¹1 (zeros if A is singular)
	// slip holds, within one rk4 sub-step, the sign of the tangential
	// velocity of every contact sliding at its start (0: not sliding),
	// which the friction of accel keeps for the sub-step's stages
	slip []float64
	// step is the RK4 stepper of rk4 (states (q, v)) and stageF its
	// right-hand side (stageRHS, bound once).
	step   *rk.ExplicitStepper
	stageF func(t float64, y, dy []float64)
}

// clsImpact is an event of the guess: an impact, or (lam nil) a contact
// that stops sliding.
type clsImpact struct {
	t           float64
	lam, lamT   []float64 // the normal and tangential impulses of every contact (nil: a stick event)
	pre, newton []float64 // the states before and after (Newton's law)
	// extra are, when the guess rests the body after the impact, the
	// normal impulses of Newton's law beyond those that stop it (nil
	// otherwise)
	extra []float64
}

func newCLSGuess(s *clsSystem) (*clsGuess, error) {
	out := ad.Concat(s.M, s.fv, s.gap)
	for c, jn := range s.normal {
		out = append(append(out, jn...), s.tangent[c]...)
	}
	f, err := ad.NewFunction("fesdj_guess", []ad.Arg{ad.A("q", s.q...), ad.A("v", s.v...), ad.A("u", s.u...), ad.A("p", s.p...)},
		[]ad.Arg{ad.A("out", out...)})
	if err != nil {
		return nil, fmt.Errorf("fesd: the FESD-J start: %w", err)
	}
	step, err := rk.NewExplicitStepper(rk.RK4(), 2*s.nq)
	if err != nil {
		return nil, fmt.Errorf("fesd: the FESD-J start: %w", err)
	}
	g := &clsGuess{s: s, f: f, ws: f.NewWorkspace(), out: make([]float64, len(out)), step: step}
	g.stageF = g.stageRHS
	return g, nil
}

// eval returns M, f_v, f_c, J_n and J_t (row c: contact c) at x.
func (g *clsGuess) eval(x []float64) (M, fv, gap []float64, jn, jt [][]float64) {
	s := g.s
	nq := s.nq
	if err := g.f.Eval(g.ws, [][]float64{x[:nq], x[nq:], g.u, g.p}, [][]float64{g.out}); err != nil {
		nan := math.NaN()
		g.out[0] = nan
	}
	o := g.out
	M, fv, gap = o[:nq*nq], o[nq*nq:nq*nq+nq], o[nq*nq+nq:nq*nq+nq+s.nc]
	r := o[nq*nq+nq+s.nc:]
	for c := 0; c < s.nc; c++ {
		jn = append(jn, r[2*c*nq:(2*c+1)*nq])
		jt = append(jt, r[(2*c+1)*nq:(2*c+2)*nq])
	}
	return
}

// solveDense solves A x = b (n×n row-major) by gonum's LU factorization
// with partial pivoting; a singular A gives zeros.
func solveDense(A []float64, b []float64) []float64 {
	n := len(b)
	var x mat.VecDense
	err := x.SolveVec(mat.NewDense(n, n, append([]float64(nil), A...)), mat.NewVecDense(n, append([]float64(nil), b...)))
	var cond mat.Condition
	if err != nil && (!errors.As(err, &cond) || math.IsInf(float64(cond), 1)) {
		return make([]float64, n)
	}
	return x.RawVector().Data
}

const clsRestTol = 1e-7

// clsImpactTol is the gap within which a contact takes part in an impact
// located by bisection (simultaneous impacts).
const clsImpactTol = 1e-9

// clsGuessBudget bounds the sub-steps and events of one run of the guess.
const clsGuessBudget = 2000 // gap and normal velocity of a resting contact

// accel returns the acceleration at x and the normal and tangential
// contact forces of the resting contacts (gap and normal velocity within
// clsRestTol, pushed into the obstacle by the other forces): the normal
// forces that keep their normal accelerations at zero (solved together,
// contacts with a negative force dropped), then contact by contact
// Coulomb's friction −μλ_n sign(J_tᵀv) while sliding, or the force
// within ±μλ_n that keeps J_tᵀv at zero while sticking.
func (g *clsGuess) accel(x []float64) (a, lam, lamT []float64) {
	s := g.s
	nq := s.nq
	M, fv, gap, jn, jt := g.eval(x)
	a = solveDense(M, fv)
	lam, lamT = make([]float64, s.nc), make([]float64, s.nc)
	add := func(l float64, mj []float64) {
		for i := range a {
			a[i] += l * mj[i]
		}
	}
	// the resting contacts pushed into the obstacle, their normal forces
	// all at once (J_AᵀM⁻¹J_A λ_A = −J_Aᵀa), dropping negative ones
	var A []int
	for c := 0; c < s.nc; c++ {
		if gap[c] <= clsRestTol && math.Abs(dot(jn[c], x[nq:])) <= clsRestTol && dot(jn[c], a) < 0 {
			A = append(A, c)
		}
	}
	for len(A) > 0 {
		na := len(A)
		mj := make([][]float64, na)
		for i, c := range A {
			mj[i] = solveDense(M, jn[c])
		}
		W, rhs := make([]float64, na*na), make([]float64, na)
		for i, c := range A {
			for j := range A {
				W[i*na+j] = dot(jn[c], mj[j])
			}
			rhs[i] = -dot(jn[c], a)
		}
		l := solveDense(W, rhs)
		var keep []int
		for i, c := range A {
			if l[i] >= 0 {
				keep = append(keep, c)
			}
		}
		if len(keep) < na {
			A = keep
			continue
		}
		for i, c := range A {
			lam[c] = l[i]
			add(l[i], mj[i])
		}
		break
	}
	for _, c := range A {
		if s.mu[c] == 0 {
			continue
		}
		mt := solveDense(M, jt[c])
		if g.slip != nil && g.slip[c] != 0 {
			lamT[c] = -s.mu[c] * lam[c] * g.slip[c]
		} else if vt := dot(jt[c], x[nq:]); math.Abs(vt) > clsRestTol {
			lamT[c] = -s.mu[c] * lam[c] * math.Copysign(1, vt)
		} else {
			lim := s.mu[c] * lam[c]
			lamT[c] = math.Max(-lim, math.Min(lim, -dot(jt[c], a)/dot(jt[c], mt)))
		}
		add(lamT[c], mt)
	}
	return a, lam, lamT
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// rk4 advances x by one RK4 step (rk.RK4 with rk.ExplicitStepper) of
// length dt and returns the new state (x is not modified). A contact
// sliding at x keeps its friction direction over the sub-step (slip), so
// that a sliding contact that stops within it passes through zero
// tangential velocity, which stick detects: with the direction taken at
// every stage, the stages past the stop reverse the friction and the
// sub-step ends with the velocity it started with (the sliding block at
// 0.0006 m/s, never stopped).
func (g *clsGuess) rk4(x []float64, dt float64) []float64 {
	g.slip = g.slipSigns(x)
	y := make([]float64, len(x))
	g.step.StepTo(y, g.stageF, 0, x, dt)
	g.slip = nil
	return y
}

// stageRHS is the right-hand side of the stepper of rk4: (v, a(q, v))
// at y, with the friction directions of slip.
func (g *clsGuess) stageRHS(_ float64, y, dy []float64) {
	nq := g.s.nq
	a, _, _ := g.accel(y)
	copy(dy[:nq], y[nq:])
	copy(dy[nq:], a)
}

// slipSigns returns the sign of J_tᵀv of every resting frictional
// contact sliding at x (faster than clsRestTol), 0 for the others.
func (g *clsGuess) slipSigns(x []float64) []float64 {
	s := g.s
	nq := s.nq
	_, _, gap, jn, jt := g.eval(x)
	out := make([]float64, s.nc)
	for c := range out {
		if s.mu[c] == 0 || gap[c] > clsRestTol || math.Abs(dot(jn[c], x[nq:])) > clsRestTol {
			continue
		}
		if vt := dot(jt[c], x[nq:]); math.Abs(vt) > clsRestTol {
			out[c] = math.Copysign(1, vt)
		}
	}
	return out
}

// minGap returns the smallest gap at x and its contact.
func (g *clsGuess) minGap(x []float64) (float64, int) {
	_, _, gap, _, _ := g.eval(x)
	m, c := math.Inf(1), -1
	for i, v := range gap {
		if v < m {
			m, c = v, i
		}
	}
	return m, c
}

// impact applies Newton's law at x to the contacts whose gap is within
// tol of zero and that approach, all at once: the impulses Λ_A with
// J_AᵀM⁻¹J_A Λ_A = −(1 + e) J_Aᵀv (negative ones set to zero). It
// returns Newton's post-impact state newton with the impulses lam (the
// start values of v⁺ and Λ; hit: some contact approached) and the state
// post the guess continues from: newton, or the body at rest on the
// contacts when for every one of them what is left of a Zeno sequence of
// impacts, 2 v_n⁺ / (|a_n| (1 − e)) with the normal free acceleration
// a_n = J_nᵀM⁻¹f_v < 0, is shorter than restTime.
//
// With friction the tangential impulse of every contact is Coulomb's:
// the one that stops its tangential velocity if it lies within ±μΛ_n,
// else ∓μΛ_n (lamT), contact by contact.
func (g *clsGuess) impact(x []float64, tol float64) (newton, post, lam, lamT []float64, hit bool) {
	newton, post, lam, lamT, _, hit = g.impactRest(x, tol, math.Inf(-1))
	return newton, post, lam, lamT, hit
}

// impactRest is impact at the time t, with the normal impulses of
// Newton's law beyond those that stop the body (extra, nil unless post
// rests it).
func (g *clsGuess) impactRest(x []float64, tol, t float64) (newton, post, lam, lamT, extra []float64, hit bool) {
	s := g.s
	nq := s.nq
	M, fv, gap, jn, jt := g.eval(x)
	lam, lamT = make([]float64, s.nc), make([]float64, s.nc)
	newton = append([]float64(nil), x...)
	var A []int
	for c := range gap {
		if gap[c] <= tol && dot(jn[c], x[nq:]) < 0 {
			A = append(A, c)
		}
	}
	if len(A) == 0 {
		return newton, newton, lam, lamT, nil, false
	}
	na := len(A)
	mj := make([][]float64, na)
	for i, c := range A {
		mj[i] = solveDense(M, jn[c])
	}
	W, rhs := make([]float64, na*na), make([]float64, na)
	for i, c := range A {
		for j := range A {
			W[i*na+j] = dot(jn[c], mj[j])
		}
		rhs[i] = -(1 + s.e[c]) * dot(jn[c], x[nq:])
	}
	for i, l := range solveDense(W, rhs) {
		lam[A[i]] = math.Max(l, 0)
		for k := 0; k < nq; k++ {
			newton[nq+k] += lam[A[i]] * mj[i][k]
		}
	}
	post = newton
	a0 := solveDense(M, fv)
	rest := true
	for _, c := range A {
		vp, an, e := dot(jn[c], newton[nq:]), dot(jn[c], a0), s.e[c]
		if !(vp < 1e-6 || (e < 1 && an < 0 && 2*vp/(-an*(1-e)) < g.restTime)) {
			rest = false
		}
		// the contact forces stop the body within the element after the
		// impact only if it is long enough: the ball (e = 0.91) rested
		// 1.6 ms before the end of a step, where stopping it takes 4.2 ms,
		// made the step's NLP fail
		if vp >= 1e-6 && an < 0 && g.kappa > 0 && g.kappa*vp/(-an) > g.stageEnd-t {
			rest = false
		}
	}
	if rest {
		for i, c := range A {
			rhs[i] = -dot(jn[c], x[nq:])
		}
		post = append([]float64(nil), x...)
		extra = append([]float64(nil), lam...)
		for i, l := range solveDense(W, rhs) {
			extra[A[i]] -= l
			for k := 0; k < nq; k++ {
				post[nq+k] += l * mj[i][k]
			}
		}
	}
	for _, c := range A {
		if s.mu[c] == 0 {
			continue
		}
		mt := solveDense(M, jt[c])
		lim := s.mu[c] * lam[c]
		lamT[c] = math.Max(-lim, math.Min(lim, -dot(jt[c], newton[nq:])/dot(jt[c], mt)))
		for k := 0; k < nq; k++ {
			newton[nq+k] += lamT[c] * mt[k]
			if rest {
				post[nq+k] += lamT[c] * mt[k]
			}
		}
	}
	return newton, post, lam, lamT, extra, true
}

// stick returns the index of a resting frictional contact whose
// tangential velocity changes sign from x to y (−1: none).
func (g *clsGuess) stick(x, y []float64) int {
	s := g.s
	nq := s.nq
	_, _, gap, jn, jt := g.eval(x)
	for c := 0; c < s.nc; c++ {
		if s.mu[c] == 0 || gap[c] > clsRestTol || math.Abs(dot(jn[c], x[nq:])) > clsRestTol {
			continue
		}
		vx := dot(jt[c], x[nq:])
		if math.Abs(vx) <= clsRestTol {
			continue
		}
		_, _, _, _, jty := g.eval(y)
		if vy := dot(jty[c], y[nq:]); vy*vx <= 0 {
			return c
		}
	}
	return -1
}

// stopAt returns x with the tangential velocity of contact c set to zero.
func (g *clsGuess) stopAt(x []float64, c int) []float64 {
	nq := g.s.nq
	M, _, _, _, jt := g.eval(x)
	mt := solveDense(M, jt[c])
	vt := dot(jt[c], x[nq:]) / dot(jt[c], mt)
	y := append([]float64(nil), x...)
	for i := 0; i < nq; i++ {
		y[nq+i] -= vt * mt[i]
	}
	return y
}

// run integrates from x at t0 to each of the sorted times ts, returning
// the states there and the impacts on the way.
func (g *clsGuess) run(x []float64, t0 float64, ts []float64, dtMax float64) ([][]float64, []clsImpact) {
	var xs [][]float64
	var imps []clsImpact
	t := t0
	x = append([]float64(nil), x...)
	if newton, post, l, lt, ex, hit := g.impactRest(x, clsRestTol, t); hit {
		imps = append(imps, clsImpact{t: t, lam: l, lamT: lt, pre: x, newton: newton, extra: ex})
		x = post
	}
	budget := clsGuessBudget
	for _, te := range ts {
		for t < te-1e-15 {
			dt := math.Min(dtMax, te-t)
			if budget--; budget < 0 {
				// events without progress in time (impacts of several
				// contacts resolved one at a time that keep exciting each
				// other): take the rest of the way without events
				x, t = g.rk4(x, dt), t+dt
				continue
			}
			y := g.rk4(x, dt)
			if gp, _ := g.minGap(y); gp < -clsRestTol {
				// bisect for the time the gap closes
				lo, hi := 0.0, dt
				for it := 0; it < 60; it++ {
					mid := (lo + hi) / 2
					if gm, _ := g.minGap(g.rk4(x, mid)); gm < 0 {
						hi = mid
					} else {
						lo = mid
					}
				}
				pre := g.rk4(x, hi)
				newton, post, l, lt, ex, _ := g.impactRest(pre, clsImpactTol, t+hi)
				imps = append(imps, clsImpact{t: t + hi, lam: l, lamT: lt, pre: pre, newton: newton, extra: ex})
				x, t = post, t+hi
				continue
			}
			if c := g.stick(x, y); c >= 0 {
				// bisect for the time the sliding stops
				lo, hi := 0.0, dt
				_, _, _, _, jt := g.eval(x)
				v0 := dot(jt[c], x[g.s.nq:])
				for it := 0; it < 60; it++ {
					mid := (lo + hi) / 2
					z := g.rk4(x, mid)
					_, _, _, _, jz := g.eval(z)
					if dot(jz[c], z[g.s.nq:])*v0 <= 0 {
						hi = mid
					} else {
						lo = mid
					}
				}
				z := g.stopAt(g.rk4(x, hi), c)
				imps = append(imps, clsImpact{t: t + hi, pre: z, newton: z})
				x, t = z, t+hi
				continue
			}
			x, t = y, t+dt
		}
		xs = append(xs, append([]float64(nil), x...))
	}
	return xs, imps
}

// start returns the homotopy start of a step of the transcription tr of f
// from x0 at t0: element boundaries on the guess's impacts inside the step
// (at most N_FE − 1), the others spread evenly, and the guess's states,
// forces and impulses at every point.
func (g *clsGuess) start(f *clsFormulation, t0 float64, x0, u, p []float64) []float64 {
	g.u, g.p = u, p
	w := make([]float64, f.tr.numW)
	g.stage(f, w, 0, t0, x0)
	return w
}

// stage writes the guess of control stage k of f's transcription into w:
// the event-driven integration from x0 at t0 with the control g.u and
// the parameters g.p, with the stage's element boundaries on its impacts.
// It returns the stage's end state (before an impact there).
func (g *clsGuess) stage(f *clsFormulation, w []float64, k int, t0 float64, x0 []float64) []float64 {
	tr, s := f.tr, g.s
	T := tr.tau[k+1] - tr.tau[k]
	n0, NE := tr.elemStart[k], tr.nfe[k]
	g.within(tr.o.tab, t0+T)
	dtMax := T / float64(NE) / 20
	_, imps := g.run(x0, t0, []float64{t0 + T}, dtMax)
	// boundaries: the impacts strictly inside the step, then fill
	cuts := []float64{t0, t0 + T}
	for _, im := range imps {
		if im.t > t0+1e-9*T && im.t < t0+T*(1-1e-9) && len(cuts) < NE+1 {
			cuts = append(cuts, im.t)
		}
	}
	sort.Float64s(cuts)
	for len(cuts) < NE+1 {
		// split the longest segment
		l := 0
		for i := 1; i+1 < len(cuts); i++ {
			if cuts[i+1]-cuts[i] > cuts[l+1]-cuts[l] {
				l = i
			}
		}
		mid := (cuts[l] + cuts[l+1]) / 2
		cuts = append(cuts[:l+1], append([]float64{mid}, cuts[l+1:]...)...)
	}
	var ts []float64
	c := tr.o.tab.C
	for n := 0; n < NE; n++ {
		h := cuts[n+1] - cuts[n]
		for m := 0; m < tr.ns; m++ {
			ts = append(ts, cuts[n]+c[m]*h)
		}
		if tr.o.rbp {
			ts = append(ts, cuts[n+1])
		}
	}
	// the states at the element starts (pre and post impact) come from
	// integrating to every boundary separately
	bstates, bimps := g.run(x0, t0, cuts[1:NE], dtMax)
	xs, _ := g.run(x0, t0, ts, dtMax)
	var xe []float64
	j := 0
	for n := 0; n < NE; n++ {
		h := cuts[n+1] - cuts[n]
		w[tr.h[n0+n]] = h
		pre := x0
		if n > 0 {
			pre = bstates[n-1]
		}
		post := pre
		lam, lamT := make([]float64, s.nc), make([]float64, s.nc)
		var extra []float64
		for _, im := range append(bimps, imps...) {
			if math.Abs(im.t-cuts[n]) <= 1e-9*T+1e-12 {
				pre, post = im.pre, im.newton
				if im.lam != nil {
					lam, lamT = im.lam, im.lamT
				}
				extra = im.extra
				break
			}
		}
		da, dl := g.restStages(post, extra, h)
		_, _, gap, jn, _ := g.eval(post)
		b := f.pos.start[n0+n]
		if s.friction {
			g.frictionStart(w, post, lam, lamT, b[clsLd], b[clsGam], b[clsBet], b[clsDel])
		}
		copy(w[b[clsVP]:], post[s.nq:])
		for ci := 0; ci < s.nc; ci++ {
			w[b[clsLam]+ci] = lam[ci]
			w[b[clsY]+ci] = math.Max(gap[ci], 0)
			l := dot(jn[ci], post[s.nq:]) + s.e[ci]*dot(jn[ci], pre[s.nq:])
			if l > 0 {
				w[b[clsP]+ci] = l
			} else {
				w[b[clsN]+ci] = -l
			}
		}
		for m := 0; m < tr.ns; m++ {
			x := xs[j]
			j++
			a, lf, lt := g.accel(x)
			if da != nil {
				for i := range a {
					a[i] += da[m][i]
				}
				for ci := range lf {
					lf[ci] = math.Max(lf[ci]+dl[m][ci], 0)
				}
			}
			_, _, gap, _, _ := g.eval(x)
			pt := f.pos.point[n0+n][m]
			if s.friction {
				g.frictionStart(w, x, lf, lt, pt[clsld], pt[clsgam], pt[clsbet], pt[clsdel])
			}
			for i := range x {
				if tr.o.Representation == Integral {
					w[tr.x[n0+n][m]+i] = x[i]
				} else if i < s.nq {
					w[tr.x[n0+n][m]+i] = x[s.nq+i]
				} else {
					w[tr.x[n0+n][m]+i] = a[i-s.nq]
				}
			}
			for ci := 0; ci < s.nc; ci++ {
				w[pt[clsLn]+ci] = lf[ci]
				w[pt[clsGap]+ci] = math.Max(gap[ci], 0)
			}
			copy(w[pt[clsAcc]:], a)
			xe = x
		}
		if tr.o.rbp {
			xe = xs[j]
			j++
			_, _, gap, _, _ := g.eval(xe)
			for ci := 0; ci < s.nc; ci++ {
				w[f.pos.end[n0+n][0]+ci] = math.Max(gap[ci], 0)
			}
		}
		if n+1 < NE {
			xe = bstates[n]
		}
		copy(w[tr.xb[n0+n]:], xe)
	}
	return xe
}

// within sets the stage end and kappa (clsGuess) for the runs of a
// control stage ending at end with the Runge–Kutta tableau tab.
func (g *clsGuess) within(tab *rk.Tableau, end float64) {
	ns := len(tab.C)
	A := make([]float64, 0, ns*ns)
	for _, row := range tab.A {
		A = append(A, row...)
	}
	ones := make([]float64, ns)
	for i := range ones {
		ones[i] = 1
	}
	g.kappa, g.stageEnd, g.ainv1 = 0, end, solveDense(A, ones)
	for _, w := range g.ainv1 {
		g.kappa = math.Max(g.kappa, w)
	}
}

// restStages returns, for an element of length h that starts with
// Newton's post-impact state post while the guess rests the body after
// the impact (extra: the normal impulses beyond those that stop it, nil
// otherwise), what the contact forces and accelerations at the stage
// points need beyond those of the resting body so that the Runge–Kutta
// stage velocities, v⁺ + h Σ_k a_mk a_k, are the resting ones: the
// velocity −M⁻¹J_n Λ_extra taken out by the stage accelerations
// −(A⁻¹1)_m M⁻¹J_n Λ_extra / h, from the forces −(A⁻¹1)_m Λ_extra / h.
// The element's start is then consistent with the contact force that
// stops the body within the element (the solution the NLP takes after an
// impact near a Zeno point). With the resting body's stages and Newton's
// v⁺ the start is not: from it the homotopy of the ball (e = 0.92) on
// [10.7875, 10.8] left the impact for a boundary 1.8e-7 m above the
// ground without an impulse (the gap there h ε |v⁻|, the clsEps row at
// its bound), which ends Infeasible. Nil when there is nothing to add or
// the Runge–Kutta matrix is singular. It needs within.
func (g *clsGuess) restStages(post, extra []float64, h float64) (da, dl [][]float64) {
	if extra == nil || !(h > 0) || g.kappa == 0 {
		return nil, nil
	}
	s, w := g.s, g.ainv1
	M, _, _, jn, _ := g.eval(post)
	f0 := make([]float64, s.nq) // J_n Λ_extra
	for c := range extra {
		for k := range f0 {
			f0[k] += jn[c][k] * extra[c]
		}
	}
	dv := solveDense(M, f0)
	for m := range w {
		am, lm := make([]float64, s.nq), make([]float64, s.nc)
		for k := range am {
			am[k] = -w[m] * dv[k] / h
		}
		for c := range lm {
			lm[c] = -w[m] * extra[c] / h
		}
		da, dl = append(da, am), append(dl, lm)
	}
	return da, dl
}

// frictionStart writes the start values of the friction variables at a
// point with the state x, the normal forces (impulses) nu and the signed
// tangential ones tau into w at the blocks ld, gam, bet, del: τ± the
// parts of τ, γ = |J_tᵀv|, β = μν − τ⁺ − τ⁻ and δ = (J_tᵀv + γ, −J_tᵀv + γ).
func (g *clsGuess) frictionStart(w, x, nu, tau []float64, ld, gam, bet, del int) {
	s := g.s
	_, _, _, _, jt := g.eval(x)
	for c := 0; c < s.nc; c++ {
		vt := dot(jt[c], x[s.nq:])
		tp, tm := math.Max(tau[c], 0), math.Max(-tau[c], 0)
		w[ld+2*c], w[ld+2*c+1] = tp, tm
		w[gam+c] = math.Abs(vt)
		w[bet+c] = math.Max(s.mu[c]*nu[c]-tp-tm, 0)
		w[del+2*c], w[del+2*c+1] = vt+math.Abs(vt), -vt+math.Abs(vt)
	}
}
