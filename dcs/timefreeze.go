package dcs

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
)

// This file builds the inelastic time-freezing reformulation of a planar
// rigid-body system with unilateral frictional contacts (004 §7.2 and
// Remark 2; A. Nurkanović, S. Albrecht, B. Brogliato, M. Diehl, "The
// time-freezing reformulation for numerical optimal control of
// complementarity Lagrangian systems with state jumps", Automatica 158,
// 2023; nosnoc's +nosnoc/+time_freezing/cls_inelastic_multicontact.m).
//
// The rigid body
//
//	q̇ = v,  M(q) v̇ = f_v(q, v, u) + Σ_i (J_n,i λ_n,i + J_t,i λ_t,i),  f_c,i(q) ≥ 0,
//
// with state jumps at impacts becomes a Filippov system in the numerical time
// τ with the clock state t (x = (q, v, t)): free flight
//
//	f_ode = (v, M⁻¹f_v, 1)
//
// outside the contact regions, and auxiliary dynamics that mimic the
// frictional impact of contact i while the physical time is frozen,
//
//	f_aux⁺_i = (0, M⁻¹(J_n,i − μ_i J_t,i) a_n, 0)   (v_t,i > 0),
//	f_aux⁻_i = (0, M⁻¹(J_n,i + μ_i J_t,i) a_n, 0)   (v_t,i < 0),
//
// in {f_c,i < 0, J_n,iᵀv < 0}. With the selections α_i = (α_fc, α_vn, α_vt) ∈
// γ(f_c,i) × γ(J_n,iᵀv) × γ(J_t,iᵀv) the right-hand side is
//
//	ẋ = θ_ode f_ode + Σ_i (θ⁺_i f_aux⁺_i + θ⁻_i f_aux⁻_i),
//	θ_ode = Π_i (α_fc + α_vn − α_fc α_vn),
//	θ⁺_i = (1 − α_fc)(1 − α_vn) α_vt,  θ⁻_i = (1 − α_fc)(1 − α_vn)(1 − α_vt),
//
// which for one contact is nosnoc's three-region PSS (R₁ = {f_c > 0} ∪
// {f_c < 0, v_n > 0}, R₂, R₃).

// SpeedOfTime selects how a speed-of-time variable s enters the
// time-freezing model.
type SpeedOfTime int

const (
	// SpeedOfTimeNone (the default) adds no variable: ẋ = F θ. A
	// transcription with speed-of-time variables (one s_k per control stage)
	// scales the whole right-hand side, auxiliary dynamics included, as
	// nosnoc MATLAB does (f_ijk = s_sot·f in
	// +nosnoc/+discrete_time_problem/Heaviside.m).
	SpeedOfTimeNone SpeedOfTime = iota
	// SpeedOfTimeAll appends a control s to U that scales the whole
	// right-hand side: ẋ = s·F θ (MATLAB's automatic time freezing, with s
	// as a control instead of a stage variable).
	SpeedOfTimeAll
	// SpeedOfTimeFreeFlight appends a control s to U that scales only the
	// free-flight mode: ẋ = s θ_ode f_ode + Σ θ_aux f_aux (the 2023
	// hand-made Stewart monoped of nosnoc, monoped_stewart_model.m). The
	// duration of the frozen phases in τ is then independent of s.
	SpeedOfTimeFreeFlight
)

// String returns the name of the mode.
func (s SpeedOfTime) String() string {
	switch s {
	case SpeedOfTimeNone:
		return "none"
	case SpeedOfTimeAll:
		return "all"
	case SpeedOfTimeFreeFlight:
		return "free-flight"
	}
	return fmt.Sprintf("SpeedOfTime(%d)", int(s))
}

// DefaultAN is the default gain a_n of the auxiliary normal dynamics
// (a_n = 100 in nosnoc's +nosnoc/Options.m; the monopod of 004 §7.2 uses
// 200).
const DefaultAN = 100

// TimeFreezingOptions configures NewTimeFreezing.
type TimeFreezingOptions struct {
	// Formulation is the DCS the model is built for. Step (Heaviside)
	// builds general step selections α (Model.AddStep) for the switching
	// functions and writes the right-hand side in α (with the tailored
	// lifting below); Stewart builds one subsystem whose 2^{3 n_c} base
	// sets carry the modes (for one contact the eight base sets of 004
	// §7.2: six free-flight modes, f_aux⁺ and f_aux⁻). The model must be
	// reformulated with the same formulation (TimeFreezing.DCSOptions).
	Formulation Formulation
	// noLift (Step only) leaves the products of the selections unlifted,
	// for the package's tests of the lifting. The Step formulation uses
	// the tailored lifting of nosnoc (option
	// time_freezing_Heaviside_lifting,
	// +nosnoc/+time_freezing/cls_inelastic_multicontact.m): per contact
	// the user algebraic variables β₁ = α_fc α_vn and
	// β₂ = (1 − α_fc)(1 − α_vn) (only β₂ for a frictionless contact), so
	// that θ_free = α_fc + α_vn − β₁,
	// θ⁺ = β₂ α_vt, θ⁻ = β₂(1 − α_vt) are bilinear; with several contacts
	// the running products of θ_free are lifted too (γ_i = γ_{i−1}·θ_free,i).
	noLift bool
	// AN is the auxiliary normal dynamics gain a_n > 0 (default DefaultAN).
	AN float64
	// SpeedOfTime selects the speed-of-time variable (default none: the
	// transcription scales the whole right-hand side).
	SpeedOfTime SpeedOfTime
	// Baumgarte, if positive, is a gain k (in 1/time) that stabilizes the
	// contact position: the normal switching function J_nᵀv becomes
	// J_nᵀv + k f_c. While a contact persists the system slides on that
	// surface, so ḟ_c = −k f_c and a gap that drifted below zero decays
	// back to it. The exact solution is unchanged (it keeps f_c = 0 in
	// contact, where both functions agree), but a discretization only
	// keeps J_nᵀv = 0 at its collocation points, and with k = 0 (the
	// default, nosnoc's model) the error of f_c then accumulates over a
	// stance phase (centimetres for the monopod of 004 §7.2 at N = 30).
	// This is Baumgarte's stabilization of a position constraint
	// (Baumgarte 1972), applied to the switching surface; it is not part
	// of nosnoc.
	Baumgarte float64
}

// TimeFreezing is the time-freezing model built by NewTimeFreezing, with
// handles to its parts.
type TimeFreezing struct {
	// Model is the Filippov system in the numerical time τ, with states
	// X = (q, v, t), controls U (plus s with a speed-of-time control) and
	// parameters P of the rigid body.
	Model *Model
	// Formulation is the DCS the model was built for.
	Formulation Formulation
	// NQ is n_q; q = X[0:NQ], v = X[NQ:2NQ].
	NQ int
	// Clock is the index of the clock state t in X (2 n_q) and ClockSym its
	// symbol.
	Clock    int
	ClockSym ad.Expr
	// Sot is the index of the speed-of-time control in U (−1 without one)
	// and SotSym its symbol.
	Sot    int
	SotSym ad.Expr
	// Psi are the switching functions (f_c, J_nᵀv, J_tᵀv) of every contact
	// (J_nᵀv + k f_c with TimeFreezingOptions.Baumgarte)
	// in order (J_tᵀv left out for frictionless contacts); PsiContact[j]
	// is the contact of Psi[j].
	Psi        ad.Vec
	PsiContact []int
	// Modes are f_ode, then for every contact f_aux⁺, f_aux⁻ (frictional)
	// or f_aux (frictionless), without the speed of time.
	Modes []ad.Vec
	// Alpha are the step selections of Psi (Step only; Model.Steps[0]).
	Alpha ad.Vec
	// Beta are the lifting variables (Step with lifting; the user
	// algebraic variables of Model): per contact β₁ (frictional only), β₂,
	// then the running products γ_i of θ_free for i ≥ 1.
	Beta ad.Vec
	// Theta are the weights of Modes as expressions in Alpha and Beta
	// (Step only): ẋ = Σ_i Theta[i]·Modes[i] (times s with a speed of
	// time).
	Theta ad.Vec
	// ThetaUnlifted are the same weights as products of the selections
	// alone (Step only), for checks.
	ThetaUnlifted ad.Vec
	// Signs is the sign matrix of the Stewart subsystem (Stewart only).
	Signs [][]int
	// BaseModes[i] lists the indices in Modes whose sum is the mode of base
	// set i (Stewart only): {0} (free flight), or the auxiliary modes of
	// the contacts that are in their auxiliary regions there.
	BaseModes [][]int
}

// DCSOptions returns the dcs.Options of the formulation the model was built
// for (no generic lifting: the Step model carries its own).
func (tf *TimeFreezing) DCSOptions() Options { return Options{Formulation: tf.Formulation} }

// NewTimeFreezing builds the inelastic time-freezing system of a rigid body
// with unilateral frictional contacts (see the comment at the top of this
// file), in the Heaviside step form with nosnoc's tailored lifting or in
// Stewart's form with all base sets. The model's states are (q, v, t).
//
// For one contact the switching functions are ψ = (f_c, J_nᵀv, J_tᵀv) and
// the Stewart sign matrix is 004 eq. (9) (DefaultSigns(3)): rows
// (+,+,+) … (−,−,−), modes f_ode for the first six and f_aux⁺, f_aux⁻ for the
// last two. With n_c contacts, ψ lists the contacts in order and base set i
// gets the sum of the auxiliary modes of the contacts in their auxiliary
// regions, or f_ode if there is none (the vertex values of the step form).
func NewTimeFreezing(rb RigidBody, opt TimeFreezingOptions) (*TimeFreezing, error) {
	if err := rb.checkShape(); err != nil {
		return nil, err
	}
	an, err := opt.validate()
	if err != nil {
		return nil, err
	}
	if err := rb.checkForces(); err != nil {
		return nil, err
	}
	g, nq := rb.Graph, len(rb.Q)
	b := &tfBuilder{rb: &rb, opt: opt, an: an, g: g, nq: nq,
		tf: &TimeFreezing{Formulation: opt.Formulation, NQ: nq, Clock: 2 * nq, Sot: -1}}
	tf := b.tf
	tf.ClockSym = g.Sym("t")
	x := ad.Concat(rb.Q, rb.V, ad.Vec{tf.ClockSym})
	u := append(ad.Vec(nil), rb.U...)
	if opt.SpeedOfTime != SpeedOfTimeNone {
		tf.SotSym = g.Sym("s_sot")
		tf.Sot = len(u)
		u = append(u, tf.SotSym)
	}

	// Free flight f_ode = (v, M⁻¹f_v, 1).
	vdot, err := ad.SolveSym(rb.M, rb.FV)
	if err != nil {
		return nil, newErr(ErrInvalidExpr, -1, "M", -1, -1, "M⁻¹f_v: %v", err)
	}
	b.zq = g.Zeros(nq)
	fode := ad.Concat(rb.V, vdot, ad.Vec{g.Const(1)})
	tf.Modes = append(tf.Modes, fode)

	// Contacts: switching functions and auxiliary modes.
	b.cms = make([]contactModes, len(rb.Contacts))
	for ci := range rb.Contacts {
		if err := b.contact(ci); err != nil {
			return nil, err
		}
	}

	m := NewModel(g, x, u, rb.P)
	m.timeFreezing = tf
	tf.Model = m
	if opt.Formulation == Stewart {
		err = b.stewart(m)
	} else {
		err = b.step(m, len(x))
	}
	if err != nil {
		return nil, err
	}
	return tf, nil
}

// validate checks the options and returns the gain a_n (the default for
// zero).
func (opt TimeFreezingOptions) validate() (an float64, err error) {
	an = opt.AN
	if an == 0 {
		an = DefaultAN
	}
	if !(an > 0) || math.IsInf(an, 0) {
		return 0, newErr(ErrOptions, -1, "AN", -1, -1, "a_n = %v must be positive and finite", opt.AN)
	}
	switch opt.Formulation {
	case Step, Stewart:
	default:
		return 0, newErr(ErrOptions, -1, "Formulation", -1, -1, "%v", opt.Formulation)
	}
	if opt.noLift && opt.Formulation != Step {
		return 0, newErr(ErrOptions, -1, "noLift", -1, -1, "only for the Step formulation")
	}
	if !(opt.Baumgarte >= 0) || math.IsInf(opt.Baumgarte, 0) {
		return 0, newErr(ErrOptions, -1, "Baumgarte", -1, -1, "k = %v must be nonnegative and finite", opt.Baumgarte)
	}
	switch opt.SpeedOfTime {
	case SpeedOfTimeNone, SpeedOfTimeAll, SpeedOfTimeFreeFlight:
	default:
		return 0, newErr(ErrOptions, -1, "SpeedOfTime", -1, -1, "%v", opt.SpeedOfTime)
	}
	return an, nil
}

// contactModes are the switching functions and auxiliary modes of one
// contact in a TimeFreezing.
type contactModes struct {
	friction bool
	psi      []int // indices of (f_c, v_n[, v_t]) in Psi
	pos, neg int   // indices in Modes (neg = −1 frictionless; pos is f_aux then)
}

// tfBuilder holds what NewTimeFreezing's steps share.
type tfBuilder struct {
	rb  *RigidBody
	opt TimeFreezingOptions
	an  float64
	g   *ad.Graph
	nq  int
	zq  ad.Vec // n_q zeros: q̇ of the auxiliary modes
	tf  *TimeFreezing
	cms []contactModes
}

// contact adds the switching functions (f_c, J_nᵀv[, J_tᵀv]) and the
// auxiliary modes of contact ci.
func (b *tfBuilder) contact(ci int) error {
	rb, tf := b.rb, b.tf
	c := &rb.Contacts[ci]
	if err := rb.checkContact(ci); err != nil {
		return err
	}
	if e := c.Restitution; e != 0 {
		return newErr(ErrOptions, -1, fmt.Sprintf("Contacts[%d].Restitution", ci), -1, -1, "e = %v: the time-freezing reformulation is inelastic (e = 0); a CLS (NewCLS) handles e > 0", e)
	}
	jn, err := rb.normalJacobian(ci)
	if err != nil {
		return err
	}
	cm := contactModes{friction: c.frictional(), neg: -1}
	vn, err := ad.Dot(jn, rb.V)
	if err != nil {
		return newErr(ErrInvalidExpr, -1, fmt.Sprintf("Contacts[%d].Normal", ci), -1, -1, "%v", err)
	}
	if b.opt.Baumgarte > 0 {
		vn = vn.Add(c.Gap.Scale(b.opt.Baumgarte))
	}
	cm.psi = []int{len(tf.Psi), len(tf.Psi) + 1}
	tf.Psi = append(tf.Psi, c.Gap, vn)
	tf.PsiContact = append(tf.PsiContact, ci, ci)
	if !cm.friction {
		fa, err := b.aux(jn)
		if err != nil {
			return newErr(ErrInvalidExpr, -1, "M", -1, -1, "M⁻¹J_n: %v", err)
		}
		cm.pos = len(tf.Modes)
		tf.Modes = append(tf.Modes, fa)
		b.cms[ci] = cm
		return nil
	}
	jt, err := rb.tangentJacobian(ci)
	if err != nil {
		return err
	}
	vt, err := ad.Dot(jt, rb.V)
	if err != nil {
		return newErr(ErrInvalidExpr, -1, fmt.Sprintf("Contacts[%d].Tangent", ci), -1, -1, "%v", err)
	}
	cm.psi = append(cm.psi, len(tf.Psi))
	tf.Psi = append(tf.Psi, vt)
	tf.PsiContact = append(tf.PsiContact, ci)
	dpos, dneg := make(ad.Vec, b.nq), make(ad.Vec, b.nq)
	for i := range dpos {
		dpos[i] = jn[i].Sub(jt[i].Scale(c.Mu))
		dneg[i] = jn[i].Add(jt[i].Scale(c.Mu))
	}
	fp, err := b.aux(dpos)
	if err != nil {
		return newErr(ErrInvalidExpr, -1, "M", -1, -1, "M⁻¹(J_n − μJ_t): %v", err)
	}
	fn, err := b.aux(dneg)
	if err != nil {
		return newErr(ErrInvalidExpr, -1, "M", -1, -1, "M⁻¹(J_n + μJ_t): %v", err)
	}
	cm.pos, cm.neg = len(tf.Modes), len(tf.Modes)+1
	tf.Modes = append(tf.Modes, fp, fn)
	b.cms[ci] = cm
	return nil
}

// aux is the auxiliary mode (0, M⁻¹ dir a_n, 0) along dir.
func (b *tfBuilder) aux(dir ad.Vec) (ad.Vec, error) {
	vd, err := ad.SolveSym(b.rb.M, dir.Map(func(e ad.Expr) ad.Expr { return e.Scale(b.an) }))
	if err != nil {
		return nil, err
	}
	return ad.Concat(b.zq, vd, ad.Vec{b.g.Const(0)}), nil
}

// scaled is mode k times its factor of the speed of time.
func (b *tfBuilder) scaled(k int) ad.Vec {
	switch sot := b.opt.SpeedOfTime; {
	case sot == SpeedOfTimeAll, sot == SpeedOfTimeFreeFlight && k == 0:
		return b.tf.Modes[k].Scale(b.tf.SotSym)
	}
	return b.tf.Modes[k].Scale(b.g.Const(1))
}

// stewart adds the Stewart subsystem: every base set of the sign matrix
// gets the sum of the auxiliary modes of the contacts in their auxiliary
// regions there, or f_ode.
func (b *tfBuilder) stewart(m *Model) error {
	tf := b.tf
	np := len(tf.Psi)
	if np > MaxPsi {
		return newErr(ErrTooManyPsi, -1, "Contacts", -1, -1, "%d switching functions", np)
	}
	S := DefaultSigns(np)
	F := make([]ad.Vec, len(S))
	tf.BaseModes = make([][]int, len(S))
	for i, row := range S {
		var modes []int
		for _, cm := range b.cms {
			if row[cm.psi[0]] > 0 || row[cm.psi[1]] > 0 {
				continue // free in this contact
			}
			if !cm.friction || row[cm.psi[2]] > 0 {
				modes = append(modes, cm.pos)
			} else {
				modes = append(modes, cm.neg)
			}
		}
		if len(modes) == 0 {
			modes = []int{0}
		}
		tf.BaseModes[i] = modes
		f := b.scaled(modes[0])
		for _, k := range modes[1:] {
			var err error
			if f, err = f.Add(b.scaled(k)); err != nil {
				return newErr(ErrInvalidExpr, -1, "F", i, -1, "%v", err)
			}
		}
		F[i] = f
	}
	tf.Signs = S
	m.AddSubsystem(Subsystem{Name: "timefreeze", Psi: tf.Psi, S: S, F: F})
	return nil
}

// step adds the general step selections α of Psi and writes the
// right-hand side (of length nx) as Σ θ_k(α, β)·f_k, with nosnoc's
// tailored lifting β unless noLift.
func (b *tfBuilder) step(m *Model, nx int) error {
	tf, g := b.tf, b.g
	one := g.Const(1)
	tf.Alpha = m.AddStep(tf.Psi)
	a := tf.Alpha
	theta := make(ad.Vec, len(tf.Modes))
	unl := make(ad.Vec, len(tf.Modes))
	var betas, eqs ad.Vec
	newBeta := func(name string, def ad.Expr) ad.Expr {
		if b.opt.noLift {
			return def
		}
		v := g.Sym(name)
		betas = append(betas, v)
		eqs = append(eqs, v.Sub(def))
		return v
	}
	var thetaODE, unlODE ad.Expr
	for ci, cm := range b.cms {
		name := b.rb.Contacts[ci].Name
		if name == "" {
			name = fmt.Sprint(ci)
		}
		afc, avn := a[cm.psi[0]], a[cm.psi[1]]
		nfc, nvn := one.Sub(afc), one.Sub(avn)
		// θ_free,i = α_fc + α_vn − α_fc α_vn = 1 − (1 − α_fc)(1 − α_vn).
		var free ad.Expr
		unlFree := afc.Add(avn).Sub(afc.Mul(avn))
		if cm.friction {
			b1 := newBeta("beta1_"+name, afc.Mul(avn))
			free = afc.Add(avn).Sub(b1)
		}
		b2 := newBeta("beta2_"+name, nfc.Mul(nvn))
		if !cm.friction {
			// θ_free = 1 − β₂ needs no β₁.
			free = one.Sub(b2)
		}
		unlAux := nfc.Mul(nvn)
		if cm.friction {
			avt := a[cm.psi[2]]
			theta[cm.pos] = b2.Mul(avt)
			theta[cm.neg] = b2.Mul(one.Sub(avt))
			unl[cm.pos] = unlAux.Mul(avt)
			unl[cm.neg] = unlAux.Mul(one.Sub(avt))
		} else {
			theta[cm.pos] = b2
			unl[cm.pos] = unlAux
		}
		if ci == 0 {
			thetaODE, unlODE = free, unlFree
		} else {
			thetaODE = newBeta("gamma_"+name, thetaODE.Mul(free))
			unlODE = unlODE.Mul(unlFree)
		}
	}
	theta[0], unl[0] = thetaODE, unlODE
	tf.Theta, tf.ThetaUnlifted, tf.Beta = theta, unl, betas
	if len(betas) > 0 {
		m.AddAlgebraic(betas, eqs)
	}
	f := g.Zeros(nx)
	for k := range tf.Modes {
		var err error
		if f, err = f.Add(b.scaled(k).Scale(theta[k])); err != nil {
			return newErr(ErrInvalidExpr, -1, "F0", k, -1, "%v", err)
		}
	}
	m.F0 = f
	return nil
}
