package main

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// Parameters of the hopper of nosnoc_py examples/hopper_robot/hopper_ocp.py:
// body and leg masses and inertias, friction coefficient, gravity and the
// gain a_n of the auxiliary (impact) dynamics.
const (
	mBody, mLeg = 1.0, 0.1
	iBody, iLeg = 0.25, 0.025
	mu          = 0.45
	gravity     = 9.81
	aN          = 100.0
)

// Indices of the state x = (q, v, t) and of the control u.
const (
	nq, nv = 4, 4
	nPhys  = nq + nv // the 8 physical states
	clock  = nPhys   // index of the clock state t
	nx     = nPhys + 1
	// u = (u₁ body torque, u₂ leg force, u₃ slack, s speed of time).
	iSOT = 3
	nu   = 4
)

// massDiag is the diagonal of M = diag(m_b + m_l, m_b + m_l, I_b + I_l, m_l).
var massDiag = [nq]float64{mBody + mLeg, mBody + mLeg, iBody + iLeg, mLeg}

// hopper is the hand-crafted time-freezing model of nosnoc_py
// hopper_ocp.py / hopper_ocp_step.py as a dcs.Model in one of the two
// formulations.
type hopper struct {
	form dcs.Formulation
	g    *ad.Graph
	// x = (q, v, t); u = (u₁, u₂, u₃, s); xref are the 8 parameters of the
	// tracking reference x_ref (one value per stage, nosnoc_py's
	// p_time_var).
	x, u, xref ad.Vec
	q, v       ad.Vec
	// fc is the foot height q₂ − q₄ cos q₃, vn = J_nᵀv, vt = J_tᵀv.
	fc, vn, vt ad.Expr
	// fODE = s·(v, M⁻¹f_v, 1), fPos/fNeg = (0, M⁻¹(J_n ∓ μJ_t)a_n, 0).
	fODE, fPos, fNeg ad.Vec
	model            *dcs.Model
	// beta is the lifted β = (1 − α₁)(1 − α₂) of the Step model.
	beta ad.Expr
}

// timeFreezingSigns is the sign matrix of the time-freezing PSS (S of
// hopper_ocp.py): rows are the 8 base sets, columns (f_c, v_n, v_t).
var timeFreezingSigns = [][]int{
	{1, 1, 1}, {1, 1, -1}, {1, -1, 1}, {1, -1, -1},
	{-1, 1, 1}, {-1, 1, -1}, {-1, -1, 1}, {-1, -1, -1},
}

// newHopper builds the model. Stewart: one subsystem with ψ = (f_c, v_n,
// v_t), the 8-row sign matrix and the modes (f_ode ×6, f_aux+, f_aux−).
// Step: general steps α ∈ Γ(ψ), the lifted algebraic β − (1 − α₁)(1 − α₂)
// = 0, and ẋ = (1 − β) f_ode + βα₃ f_aux+ + β(1 − α₃) f_aux−, the
// Heaviside form of the same PSS (see the package documentation for
// nosnoc_py's θ₁).
func newHopper(form dcs.Formulation) (*hopper, error) {
	if form != dcs.Stewart && form != dcs.Step {
		return nil, fmt.Errorf("hopper: unknown formulation %v", form)
	}
	g := ad.NewGraph()
	q, v, t := g.SymVec("q", nq), g.SymVec("v", nv), g.Sym("t")
	x := append(append(append(ad.Vec{}, q...), v...), t)
	u := g.SymVec("u", nu)
	xref := g.SymVec("xref", nPhys)
	h := &hopper{form: form, g: g, x: x, u: u, xref: xref, q: q, v: v}

	s3, c3 := ad.Sin(q[2]), ad.Cos(q[2])
	zero, one := g.Const(0), g.Const(1)
	// J_n = (0, 1, q₄ sin q₃, −cos q₃), J_t = (1, 0, q₄ cos q₃, sin q₃).
	Jn := ad.Vec{zero, one, q[3].Mul(s3), c3.Neg()}
	Jt := ad.Vec{one, zero, q[3].Mul(c3), s3}
	dot := func(a, b ad.Vec) ad.Expr {
		s := g.Const(0)
		for i := range a {
			s = s.Add(a[i].Mul(b[i]))
		}
		return s
	}
	h.vn, h.vt = dot(Jn, v), dot(Jt, v)
	h.fc = q[1].Sub(q[3].Mul(c3))
	// f_v = −C + B(q)·(u₁, u₂), C = (0, (m_b + m_l)g, 0, 0),
	// B = [[0, −sin q₃], [0, cos q₃], [1, 0], [0, 1]].
	fv := ad.Vec{
		u[1].Mul(s3).Neg(),
		u[1].Mul(c3).AddConst(-(mBody + mLeg) * gravity),
		u[0],
		u[1],
	}
	sot := u[iSOT]
	h.fODE = make(ad.Vec, nx)
	h.fPos = make(ad.Vec, nx)
	h.fNeg = make(ad.Vec, nx)
	for i := 0; i < nq; i++ {
		h.fODE[i] = sot.Mul(v[i])
		h.fODE[nq+i] = sot.Mul(fv[i]).Scale(1 / massDiag[i])
		h.fPos[i], h.fNeg[i] = zero, zero
		h.fPos[nq+i] = Jn[i].Sub(Jt[i].Scale(mu)).Scale(aN / massDiag[i])
		h.fNeg[nq+i] = Jn[i].Add(Jt[i].Scale(mu)).Scale(aN / massDiag[i])
	}
	h.fODE[clock], h.fPos[clock], h.fNeg[clock] = sot, zero, zero

	m := dcs.NewModel(g, x, u, xref)
	psi := ad.Vec{h.fc, h.vn, h.vt}
	switch form {
	case dcs.Stewart:
		F := []ad.Vec{h.fODE, h.fODE, h.fODE, h.fODE, h.fODE, h.fODE, h.fPos, h.fNeg}
		m.AddSubsystem(dcs.Subsystem{Name: "contact", Psi: psi, S: timeFreezingSigns, F: F})
	case dcs.Step:
		alpha := m.AddStep(psi)
		beta := g.Sym("beta")
		m.AddAlgebraic(ad.Vec{beta}, ad.Vec{beta.Sub(one.Sub(alpha[0]).Mul(one.Sub(alpha[1])))})
		th1 := one.Sub(beta)
		th2 := beta.Mul(alpha[2])
		th3 := beta.Mul(one.Sub(alpha[2]))
		m.F0 = make(ad.Vec, nx)
		for i := range m.F0 {
			m.F0[i] = th1.Mul(h.fODE[i]).Add(th2.Mul(h.fPos[i])).Add(th3.Mul(h.fNeg[i]))
		}
		h.beta = beta
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("hopper: %w", err)
	}
	h.model = m
	return h, g.Err()
}

// dcsOptions are the reformulation options of the model's formulation.
func (h *hopper) dcsOptions() dcs.Options { return dcs.Options{Formulation: h.form} }

// noSlip returns the sides of the no-slip path complementarity (nosnoc_py:
// g_path_comp = ((v_t, θ_c), (−v_t, θ_c)) with θ_c the weight of the
// frozen contact modes) in a form with nonnegative sides: G = |v_t| written
// with existing multipliers of the DCS and H = θ_c.
//
// Step: ψ₃ − λᵖ₃ + λⁿ₃ = 0 with λᵖ₃ ⊥ 1 − α₃, λⁿ₃ ⊥ α₃ gives λᵖ₃ = max(v_t, 0),
// λⁿ₃ = max(−v_t, 0), so G = λᵖ₃ + λⁿ₃ = |v_t| and H = β.
// Stewart: g = −Sψ − λ + μe = 0 gives λ₇ − λ₈ = g₇ − g₈ = −2v_t, and λ₇ = 0
// where θ₇ > 0, λ₈ = 0 where θ₈ > 0; so wherever θ₇ + θ₈ > 0,
// G = λ₇ + λ₈ = 2|v_t| and H = θ₇ + θ₈.
// In both cases G·H = 0 ⇔ v_t·θ_c = 0 at points that satisfy the DCS.
func (h *hopper) noSlip(d *dcs.DCS) (G, H ad.Vec) {
	switch h.form {
	case dcs.Step:
		lp, ln := d.Var(dcs.LambdaP, -1), d.Var(dcs.LambdaN, -1)
		return ad.Vec{lp[2].Add(ln[2])}, ad.Vec{d.ImportExpr(h.beta)}
	default:
		th, lam := d.Var(dcs.Theta, 0), d.Var(dcs.Lambda, 0)
		return ad.Vec{lam[6].Add(lam[7])}, ad.Vec{th[6].Add(th[7])}
	}
}

// Closed forms for tests and outputs (as in hopper_ocp.py).

// footHeight is f_c(q) = q₂ − q₄ cos q₃.
func footHeight(x []float64) float64 { return x[1] - x[3]*math.Cos(x[2]) }

// footPos is the foot position (q₁ − q₄ sin q₃, q₂ − q₄ cos q₃).
func footPos(x []float64) (float64, float64) {
	s, c := math.Sincos(x[2])
	return x[0] - x[3]*s, x[1] - x[3]*c
}

// contactVel returns v_n = J_nᵀv and v_t = J_tᵀv.
func contactVel(x []float64) (vn, vt float64) {
	s, c := math.Sincos(x[2])
	vn = x[5] + x[3]*s*x[6] - c*x[7]
	vt = x[4] + x[3]*c*x[6] + s*x[7]
	return vn, vt
}
