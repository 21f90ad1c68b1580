package hopper

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// Parameters of hopper_ocp.py: body and leg masses and inertias, friction
// coefficient, gravity and the gain a_n of the auxiliary (impact)
// dynamics.
const (
	MassBody, MassLeg       = 1.0, 0.1
	InertiaBody, InertiaLeg = 0.25, 0.025
	Mu                      = 0.45
	Gravity                 = 9.81
	AN                      = 100.0
)

// Indices and sizes of the state x = (q, v, t) and of the control u =
// (u₁ body torque, u₂ leg force, u₃ slack, s speed of time).
const (
	NQ    = 4      // positions q = (x, y, θ, r)
	NPhys = 2 * NQ // the 8 physical states (q, v)
	Clock = NPhys  // index of the clock state t
	NX    = NPhys + 1
	SOT   = 3 // index of the speed of time in u
	NU    = 4
)

// massDiag is the diagonal of M = diag(m_b + m_l, m_b + m_l, I_b + I_l, m_l).
var massDiag = [NQ]float64{MassBody + MassLeg, MassBody + MassLeg, InertiaBody + InertiaLeg, MassLeg}

// X0 returns the initial physical state of hopper_ocp.py: body at (0.1,
// 0.5), upright, leg length 0.5 (so the foot touches the ground, f_c = 0),
// at rest.
func X0() []float64 { return []float64{0.1, 0.5, 0, 0.5, 0, 0, 0, 0} }

// Model is the time-freezing hopper as a dcs.Model in one of the two
// formulations (see the package documentation).
type Model struct {
	Form  dcs.Formulation
	Graph *ad.Graph
	// X = (q, v, t), U = (u₁, u₂, u₃, s); XRef are the 8 parameters of the
	// tracking reference x_ref (one value per stage, nosnoc_py's
	// p_time_var).
	X, U, XRef ad.Vec
	// FC is the foot height q₂ − q₄ cos q₃, VN = J_nᵀv, VT = J_tᵀv.
	FC, VN, VT ad.Expr
	// FODE = s·(v, M⁻¹f_v, 1), FPos/FNeg = (0, M⁻¹(J_n ∓ μJ_t)a_n, 0).
	FODE, FPos, FNeg ad.Vec
	// Sys is the nonsmooth system.
	Sys *dcs.Model
	// Beta is the lifted β = (1 − α₁)(1 − α₂) of the Step model (zero
	// Expr for Stewart): the weight of the frozen contact modes.
	Beta ad.Expr
}

// timeFreezingSigns is the sign matrix of the time-freezing PSS (S of
// hopper_ocp.py): rows are the 8 base sets, columns (f_c, v_n, v_t).
var timeFreezingSigns = [][]int{
	{1, 1, 1}, {1, 1, -1}, {1, -1, 1}, {1, -1, -1},
	{-1, 1, 1}, {-1, 1, -1}, {-1, -1, 1}, {-1, -1, -1},
}

// New builds the model in the formulation form (dcs.Stewart or
// dcs.Step).
func New(form dcs.Formulation) (*Model, error) {
	if form != dcs.Stewart && form != dcs.Step {
		return nil, fmt.Errorf("hopper: unknown formulation %v", form)
	}
	g := ad.NewGraph()
	q, v, t := g.SymVec("q", NQ), g.SymVec("v", NQ), g.Sym("t")
	x := append(append(append(ad.Vec{}, q...), v...), t)
	u := g.SymVec("u", NU)
	xref := g.SymVec("xref", NPhys)
	h := &Model{Form: form, Graph: g, X: x, U: u, XRef: xref}

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
	h.VN, h.VT = dot(Jn, v), dot(Jt, v)
	h.FC = q[1].Sub(q[3].Mul(c3))
	// f_v = −C + B(q)·(u₁, u₂), C = (0, (m_b + m_l)g, 0, 0),
	// B = [[0, −sin q₃], [0, cos q₃], [1, 0], [0, 1]].
	fv := ad.Vec{
		u[1].Mul(s3).Neg(),
		u[1].Mul(c3).AddConst(-(MassBody + MassLeg) * Gravity),
		u[0],
		u[1],
	}
	sot := u[SOT]
	h.FODE = make(ad.Vec, NX)
	h.FPos = make(ad.Vec, NX)
	h.FNeg = make(ad.Vec, NX)
	for i := 0; i < NQ; i++ {
		h.FODE[i] = sot.Mul(v[i])
		h.FODE[NQ+i] = sot.Mul(fv[i]).Scale(1 / massDiag[i])
		h.FPos[i], h.FNeg[i] = zero, zero
		h.FPos[NQ+i] = Jn[i].Sub(Jt[i].Scale(Mu)).Scale(AN / massDiag[i])
		h.FNeg[NQ+i] = Jn[i].Add(Jt[i].Scale(Mu)).Scale(AN / massDiag[i])
	}
	h.FODE[Clock], h.FPos[Clock], h.FNeg[Clock] = sot, zero, zero

	m := dcs.NewModel(g, x, u, xref)
	psi := ad.Vec{h.FC, h.VN, h.VT}
	switch form {
	case dcs.Stewart:
		F := []ad.Vec{h.FODE, h.FODE, h.FODE, h.FODE, h.FODE, h.FODE, h.FPos, h.FNeg}
		m.AddSubsystem(dcs.Subsystem{Name: "contact", Psi: psi, S: timeFreezingSigns, F: F})
	case dcs.Step:
		alpha := m.AddStep(psi)
		beta := g.Sym("beta")
		m.AddAlgebraic(ad.Vec{beta}, ad.Vec{beta.Sub(one.Sub(alpha[0]).Mul(one.Sub(alpha[1])))})
		th1 := one.Sub(beta)
		th2 := beta.Mul(alpha[2])
		th3 := beta.Mul(one.Sub(alpha[2]))
		m.F0 = make(ad.Vec, NX)
		for i := range m.F0 {
			m.F0[i] = th1.Mul(h.FODE[i]).Add(th2.Mul(h.FPos[i])).Add(th3.Mul(h.FNeg[i]))
		}
		h.Beta = beta
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("hopper: %w", err)
	}
	h.Sys = m
	return h, g.Err()
}

// DCSOptions are the reformulation options of the model's formulation.
func (h *Model) DCSOptions() dcs.Options { return dcs.Options{Formulation: h.Form} }

// NoSlip returns the sides of the no-slip path complementarity (nosnoc_py:
// g_path_comp = ((v_t, θ_c), (−v_t, θ_c)) with θ_c the weight of the
// frozen contact modes) in a form with nonnegative sides: G = |v_t| written
// with existing multipliers of the DCS d (the model's reformulation) and
// H = θ_c.
//
// Step: ψ₃ − λᵖ₃ + λⁿ₃ = 0 with λᵖ₃ ⊥ 1 − α₃, λⁿ₃ ⊥ α₃ gives λᵖ₃ = max(v_t, 0),
// λⁿ₃ = max(−v_t, 0), so G = λᵖ₃ + λⁿ₃ = |v_t| and H = β.
// Stewart: g = −Sψ − λ + μe = 0 gives λ₇ − λ₈ = g₇ − g₈ = −2v_t, and λ₇ = 0
// where θ₇ > 0, λ₈ = 0 where θ₈ > 0; so wherever θ₇ + θ₈ > 0,
// G = λ₇ + λ₈ = 2|v_t| and H = θ₇ + θ₈.
// In both cases G·H = 0 ⇔ v_t·θ_c = 0 at points that satisfy the DCS.
func (h *Model) NoSlip(d *dcs.DCS) (G, H ad.Vec) {
	switch h.Form {
	case dcs.Step:
		lp, ln := d.Var(dcs.LambdaP, -1), d.Var(dcs.LambdaN, -1)
		return ad.Vec{lp[2].Add(ln[2])}, ad.Vec{d.ImportExpr(h.Beta)}
	default:
		th, lam := d.Var(dcs.Theta, 0), d.Var(dcs.Lambda, 0)
		return ad.Vec{lam[6].Add(lam[7])}, ad.Vec{th[6].Add(th[7])}
	}
}

// Closed forms for tests and outputs (as in hopper_ocp.py).

// FootHeight is f_c(q) = q₂ − q₄ cos q₃.
func FootHeight(x []float64) float64 { return x[1] - x[3]*math.Cos(x[2]) }

// FootPos is the foot position (q₁ − q₄ sin q₃, q₂ − q₄ cos q₃).
func FootPos(x []float64) (float64, float64) {
	s, c := math.Sincos(x[2])
	return x[0] - x[3]*s, x[1] - x[3]*c
}

// ContactVel returns v_n = J_nᵀv and v_t = J_tᵀv.
func ContactVel(x []float64) (vn, vt float64) {
	s, c := math.Sincos(x[2])
	vn = x[5] + x[3]*s*x[6] - c*x[7]
	vt = x[4] + x[3]*c*x[6] + s*x[7]
	return vn, vt
}
