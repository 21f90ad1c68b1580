package fesd

import (
	"context"
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/mpcc"
)

// Sensitivities of FESD-J simulations (SimulateCLS with
// SimOptions.Sensitivity).
//
// What the paper gives. FESD-J (Nurkanović, Frey, Pozharskiy, Diehl,
// Nonlinear Analysis: Hybrid Systems 52 (2024) 101460) proves no
// convergence of numerical sensitivities: its Section 6 leaves "the
// empirically observed high accuracy and convergence of numerical
// sensitivities" to be proven, expecting that for a fixed active set the
// FESD-J problem reduces to a well-defined square system and that the
// proof for Filippov systems (004 Theorem 18) carries over. What it does
// show (Section 3.3) is which switches the cross complementarity pins to
// an element boundary by an equation: a contact made with an impact,
// elastic or inelastic (f_c(q_n) = 0 at the boundary: Lemma 2 and the
// impulse row Y = f_c(q_n)), and a slip–stick transition (J_tᵀv_n = 0 at
// the boundary, eq. (21); in clsFormulation, which needs Radau IIA with
// friction, the biactive pair γ = β = 0 at the sliding element's last
// stage point, its end). On such a boundary the element length moves
// with x₀ through that equation, as the switch times do in FESD.
//
// What is computed. Every step solved by the homotopy and finished on
// its branch (the active-set finish, CLSFinish, accepted) is a KKT point of the branch NLP (the
// vanishing side of every complementarity pair fixed at zero); the
// implicit function theorem on it (kktSensitivity, as for Simulate) gives
// ∂x(t₀ + T)/∂(x₀, u, p) of the step including how its element boundaries —
// impact times and stops — move, and the steps are chained. On a
// transversal impact inside a step this is the saltation of the impact
// with Newton's law (TestCLSSensBall), on a stop the jump of the
// sticking motion (TestCLSSensBlockOnGround,
// TestCLSSensBlockLanding); with a smooth but not polynomial flow the
// error falls with the order 2n_s − 1 of Radau IIA (TestCLSSensOrder).
//
// Where there is none. SimulateCLS returns the trajectory without
// Sensitivity and an error wrapping ErrSensitivity where the flow has no
// derivative or FESD-J's branch does not determine it:
//
//   - a contact reached without an impact (J_nᵀv⁻ > −ImpactTol with the
//     gap closed after an open element, or an open element's stage point
//     or the cubic interpolant of its gap between its ends on the
//     obstacle, or an impact so slow that the motion without it would
//     turn within clsGapTol past the obstacle, grazeDepth): a grazing
//     contact, where the impact
//     time, and with it the state, moves like the square root of the
//     perturbation;
//   - an impact on a boundary between two simulation steps (its time
//     belongs to neither step's NLP, so the chain misses its motion), at
//     T0 (x₀ on the obstacle, approaching it), or pending at T0 + TSim
//     (the end state jumps with the perturbation);
//   - an impact with e > 0 after which the contact stays closed: the
//     unresolved tail of an accumulation of impacts (Zeno; SimulateCLS's
//     doc), where the contact force of an element replaces infinitely
//     many bounces;
//   - a frictional impulse with the tangential impulse on the friction
//     cone and no tangential velocity after it (the stick–slip limit of
//     the impact law);
//   - a lift-off or a stick-to-slip transition inside a step, and a
//     reversal of the sliding direction: no equation of clsFormulation
//     pins these boundaries (the normal force and the friction cone's
//     margin at the end of the element before are not constrained to
//     zero, nor is the tangential velocity between two sliding
//     elements — the paper's eq. (22) is not part of it), only
//     inequalities do, so the step's linearization does not say how they
//     move: a lift-off at 0.43 s is placed 1.9e-3 s early, and through a
//     reversal the branch gives ∂v_x/∂v_x0 = 1 where the closed form is
//     1/3 (TestCLSSensRefused). At a boundary between steps, where a
//     change of the control causes them, they are kept;
//   - a step not finished on a branch (its homotopy point has the
//     complementarity only to √σ), or whose branch NLP fails or moves
//     its trajectory by more than branchSensTol.
//
// A body at rest or sliding on an obstacle at x₀ (contact c closed,
// |J_nᵀv₀| ≤ ImpactTol) has no derivative in the directions that open
// the contact or push into it: a drop from the height δ lands with the
// normal velocity √(2gδ). For those contacts (SensitivityOnContact)
// Sensitivity.DX0 is D·Π, D the derivative of the persistent contact and
// Π the orthogonal projector onto the directions δx₀ = (δq, δv) that keep
// them closed to first order, ∇f_cᵀδq = 0 and ∂(J_nᵀv)/∂(q, v)·δx₀ = 0,
// and those sticking at x₀ (μ > 0, |J_tᵀv₀| ≤ 1e-7) sticking,
// ∂(J_tᵀv)/∂(q, v)·δx₀ = 0: DX0·δx₀ is the derivative along δx₀ for δx₀
// in the range of Π, and not one for another δx₀. (A tangential velocity
// given to a sticking contact is taken out by the friction within a time
// of its order, along the field of the sliding motion, not orthogonally;
// for the block on flat ground both give zero.)

// clsSensTol decides the branch of a finished step (clsSens.branch): a
// side of a complementarity pair at most this is zero. The active-set
// finish fixes the vanishing sides at exactly zero.
const clsSensTol = 1e-9

// clsSens holds what the sensitivities of a simulation share.
type clsSens struct {
	tr    map[*CLSSimulator]*transcription // the sensitivity NLPs, per step length
	inner mpcc.InnerSolver
}

// sensitivity fills res.Sensitivity for the simulation from x0 whose
// steps are steps, or returns an error wrapping ErrSensitivity.
func (cs *CLSSimulator) sensitivity(ctx context.Context, res *CLSResult, steps []*CLSStep, x0 []float64, opts SimOptions) error {
	if err := cs.sensDefined(res, steps, opts); err != nil {
		return err
	}
	closed, proj, err := cs.onContact(x0, uAt(opts, opts.T0), opts.P)
	if err != nil {
		return err
	}
	nx, nu, np := 2*cs.s.nq, len(cs.s.u), len(cs.s.p)
	tot := &Sensitivity{DX0: proj, DU: zeros(nx, nu), DP: zeros(nx, np)}
	sc := &clsSens{tr: map[*CLSSimulator]*transcription{}, inner: cs.o.Inner}
	if sc.inner == nil {
		sc.inner = &mpcc.NLPSolver{Settings: cs.o.nlpSettings()}
	}
	for _, st := range steps {
		d, err := sc.step(ctx, st)
		if err != nil {
			return fmt.Errorf("fesd: FESD-J step at t = %g: %w", st.Record.T0, err)
		}
		tot = tot.chain(d)
	}
	if opts.UFunc != nil {
		tot.DU = nil
	}
	res.Sensitivity, res.SensitivityOnContact = tot, closed
	return nil
}

func zeros(r, c int) [][]float64 {
	out := make([][]float64, r)
	for i := range out {
		out[i] = make([]float64, c)
	}
	return out
}

// step returns the sensitivity of the end state of the step st with
// respect to its x₀, u and p.
func (sc *clsSens) step(ctx context.Context, st *CLSStep) (*Sensitivity, error) {
	cs := st.sim
	tr := cs.tr
	if !st.finished {
		return nil, fmt.Errorf("%w: the step was not finished on a branch (its complementarity holds only to the homotopy's σ)", ErrSensitivity)
	}
	ir, bl, bu, err := sc.branch(ctx, st)
	if err != nil {
		return nil, err
	}
	// the branch must keep the step's trajectory: its boundary states and
	// element lengths (the multipliers of a sticking contact, λ_t⁺ = λ_t⁻
	// with any sum up to μλ_n, and Γ at a boundary without an impulse
	// are not unique)
	d := 0.0
	for n := 0; n < tr.NE; n++ {
		for i := 0; i < tr.nx; i++ {
			d = math.Max(d, math.Abs(ir.X[tr.xb[n]+i]-st.w[tr.xb[n]+i]))
		}
		if tr.h[n] >= 0 {
			d = math.Max(d, math.Abs(ir.X[tr.h[n]]-st.w[tr.h[n]]))
		}
	}
	if d > branchSensTol {
		return nil, fmt.Errorf("%w: the branch of the step's solution moves its trajectory by %.1e", ErrSensitivity, d)
	}
	if err := inactiveRows(tr, ir); err != nil {
		return nil, err
	}
	str, ok := sc.tr[cs]
	if !ok {
		L := newLayout(cs.d, cs.o.Stages, 1, cs.T, func(int) int { return cs.o.NFE })
		p := &OCP{X0: make([]float64, 2*cs.s.nq), N: 1, T: cs.T, P: make([]float64, len(cs.s.p))}
		str, err = buildTranscription(&transcription{layout: L, p: p, o: cs.o, d: cs.d, g: cs.d.Graph, fixed: true, sens: true,
			isGlob: map[ad.Expr]bool{}, own: newCLSFormulation(cs.s)})
		if err != nil {
			return nil, err
		}
		sc.tr[cs] = str
	}
	pos, D, err := kktSensitivity(tr, str, ir, bl, bu, st.pv)
	if err != nil {
		return nil, err
	}
	nx, nu := tr.nx, tr.nu
	out := &Sensitivity{}
	for i := 0; i < nx; i++ {
		k := pos[tr.xb[tr.NE-1]+i]
		if k < 0 {
			return nil, fmt.Errorf("%w: the end state is fixed by the active set", ErrSensitivity)
		}
		row := make([]float64, len(str.qIdx))
		for j := range row {
			row[j] = D.At(k, j)
		}
		out.DX0 = append(out.DX0, row[:nx])
		out.DU = append(out.DU, row[nx:nx+nu])
		out.DP = append(out.DP, row[nx+nu:])
	}
	return out, nil
}

// sensDefined returns an error wrapping ErrSensitivity where the
// trajectory res has an event at which the sensitivities are not defined
// (see the comment at the top of this file).
func (cs *CLSSimulator) sensDefined(res *CLSResult, steps []*CLSStep, opts SimOptions) error {
	refuse := func(t float64, c int, format string, a ...any) error {
		return fmt.Errorf("%w: contact %d at t = %.17g: %s", ErrSensitivity, c, t, fmt.Sprintf(format, a...))
	}
	// the first boundary of every step, and the step of every element
	stepStart := map[int]bool{}
	var elemStep []*CLSStep
	var elemN []int
	for _, st := range steps {
		stepStart[len(elemStep)] = true
		for n := range st.H {
			elemStep = append(elemStep, st)
			elemN = append(elemN, n)
		}
	}
	impact := map[[2]int]bool{}
	for _, ev := range res.Events {
		b, c := ev.Boundary, ev.Contact
		switch ev.Kind {
		case ContactImpact:
			impact[[2]int{b, c}] = true
			if stepStart[b] {
				return refuse(ev.Time, c, "an impact on a boundary between simulation steps (or at T0)")
			}
			if ev.After.closed() && cs.s.e[c] > 0 {
				return refuse(ev.Time, c, "an impact with e = %g after which the contact stays closed: the unresolved tail of an accumulation of impacts (Zeno)", cs.s.e[c])
			}
			if depth, err := cs.grazeDepth(res, b, c, elemStep[b-1], opts); err != nil {
				return err
			} else if depth <= clsGapTol {
				return refuse(ev.Time, c, "an impact with J_nᵀv⁻ = %.3g, where the motion without it would turn %.3g past the obstacle: a grazing contact", ev.VnBefore, depth)
			}
			st, n := elemStep[b], elemN[b]
			if cs.s.mu[c] > 0 {
				sp := st.sim.f.pos.start[n]
				if st.w[sp[clsGam]+c] <= clsSensTol && st.w[sp[clsBet]+c] <= clsSensTol {
					return refuse(ev.Time, c, "a frictional impact at the stick–slip limit (tangential impulse on the friction cone, no tangential velocity after it)")
				}
			}
		case ContactLiftOff, ContactSlip:
			if !stepStart[b] {
				return refuse(ev.Time, c, "a %v inside a simulation step, whose time FESD-J does not pin by an equation", ev.Kind)
			}
		}
	}
	// grazing: a contact reached without an impact
	nb := len(res.T)
	for b := 1; b < nb; b++ {
		st := elemStep[b-1]
		u := uAt(opts, opts.T0+float64(st.Record.Step)*cs.T)
		gap, vn, err := cs.kinematics(res.X[b], u, opts.P)
		if err != nil {
			return err
		}
		for c := range gap {
			if gap[c] > clsGapTol || res.Modes[b-1][c] != ContactOpen || impact[[2]int{b, c}] {
				continue
			}
			if b == nb-1 && vn[c] < -ImpactTol {
				return refuse(res.T[b], c, "an impact pending at the end of the simulation (the end state jumps with x₀)")
			}
			return refuse(res.T[b], c, "the gap closes with J_nᵀv = %.3g: a grazing contact or a landing without an impact", vn[c])
		}
	}
	for i, st := range elemStep {
		if err := cs.grazesInside(res, i, st, opts); err != nil {
			return err
		}
		n, f := elemN[i], st.sim.f
		last := st.sim.tr.ns
		if !st.sim.o.rbp {
			last-- // the last stage point is the element's end, a boundary
		}
		for c := 0; c < cs.s.nc; c++ {
			if res.Modes[i][c] == ContactOpen {
				for m := 0; m < last; m++ {
					if st.w[f.pos.point[n][m][clsGap]+c] <= clsGapTol {
						return refuse(res.T[i], c, "the gap closes inside an open element (stage point %d): a grazing contact", m+1)
					}
				}
			}
			if i > 0 && res.Modes[i][c] == ContactSliding && res.Modes[i-1][c] == ContactSliding &&
				slideDir(elemStep[i-1], elemN[i-1], c)*slideDir(st, n, c) < 0 {
				return refuse(res.T[i], c, "the sliding direction reverses without a stop")
			}
		}
	}
	return nil
}

// grazesInside returns an error wrapping ErrSensitivity when a contact
// open on element i (of the step st) touches the obstacle between its
// points: where the normal velocity turns from approaching to receding
// inside the element, the minimum of the cubic Hermite interpolant of
// the gap between its ends (gap and J_nᵀv at both) is at most clsGapTol.
func (cs *CLSSimulator) grazesInside(res *CLSResult, i int, st *CLSStep, opts SimOptions) error {
	u := uAt(opts, opts.T0+float64(st.Record.Step)*cs.T)
	g0, v0, err := cs.kinematics(res.XStart[i], u, opts.P)
	if err != nil {
		return err
	}
	g1, v1, err := cs.kinematics(res.X[i+1], u, opts.P)
	if err != nil {
		return err
	}
	h := res.T[i+1] - res.T[i]
	for c := range g0 {
		if res.Modes[i][c] != ContactOpen || !(v0[c] < 0 && v1[c] > 0) {
			continue
		}
		lo := math.Min(g0[c], g1[c])
		for k := 1; k < 200; k++ {
			s := float64(k) / 200
			s2, s3 := s*s, s*s*s
			p := (2*s3-3*s2+1)*g0[c] + (s3-2*s2+s)*h*v0[c] + (-2*s3+3*s2)*g1[c] + (s3-s2)*h*v1[c]
			lo = math.Min(lo, p)
		}
		if lo <= clsGapTol {
			return fmt.Errorf("%w: contact %d at t = %.17g: the gap closes inside an open element (its interpolant reaches %.3g): a grazing contact", ErrSensitivity, c, res.T[i], lo)
		}
	}
	return nil
}

// grazeDepth returns how far past the obstacle contact c would move
// without the impact at boundary b (b > 0): J_nᵀv⁻²/(2a_n) with a_n the
// mean normal acceleration of the element before it, (J_nᵀv⁻ −
// J_nᵀv_start)/h, and +Inf where that acceleration does not turn the
// approach. An impact at which this is below clsGapTol is a grazing
// contact that FESD-J put on an element boundary with a small impulse
// (the ball thrown up to a ceiling, its apex on it: an element ends 3 μs
// before the apex with J_nᵀv⁻ = −3.1e-5, depth 4.8e-11), where the
// saltation's 1/J_nᵀv⁻ grows without bound.
func (cs *CLSSimulator) grazeDepth(res *CLSResult, b, c int, st *CLSStep, opts SimOptions) (float64, error) {
	u := uAt(opts, opts.T0+float64(st.Record.Step)*cs.T)
	_, v0, err := cs.kinematics(res.XStart[b-1], u, opts.P)
	if err != nil {
		return 0, err
	}
	_, v1, err := cs.kinematics(res.X[b], u, opts.P)
	if err != nil {
		return 0, err
	}
	h := res.T[b] - res.T[b-1]
	a := (v1[c] - v0[c]) / h
	if !(v1[c] < 0 && a > 0) {
		return math.Inf(1), nil
	}
	return v1[c] * v1[c] / (2 * a), nil
}

// slideDir returns the sign of the tangential velocity of contact c on
// element n of st, from δ⁺ − δ⁻ = 2J_tᵀv summed over its stage points.
func slideDir(st *CLSStep, n, c int) float64 {
	f, d := st.sim.f, 0.0
	for m := range f.pos.point[n] {
		p := f.pos.point[n][m][clsdel] + 2*c
		d += st.w[p] - st.w[p+1]
	}
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}

// onContact returns the contacts closed at x0 with |J_nᵀv₀| ≤ ImpactTol
// and the projector Π onto the directions that keep them closed to first
// order (the identity when there are none); a closed contact approached
// faster is an impact at T0, an error wrapping ErrSensitivity.
func (cs *CLSSimulator) onContact(x0, u, p []float64) ([]int, [][]float64, error) {
	s := cs.s
	nx := 2 * s.nq
	gap, vn, err := cs.kinematics(x0, u, p)
	if err != nil {
		return nil, nil, err
	}
	var closed []int
	for c := range gap {
		if gap[c] > clsGapTol {
			continue
		}
		if vn[c] < -ImpactTol {
			return nil, nil, fmt.Errorf("%w: contact %d: an impact at T0 (x₀ on the obstacle with J_nᵀv₀ = %.3g)", ErrSensitivity, c, vn[c])
		}
		if vn[c] <= ImpactTol {
			closed = append(closed, c)
		}
	}
	proj := zeros(nx, nx)
	for i := range proj {
		proj[i][i] = 1
	}
	if len(closed) == 0 {
		return nil, proj, nil
	}
	// C: the Jacobians of f_c and J_nᵀv of the closed contacts with
	// respect to (q, v), its rows orthonormalized (Gram–Schmidt), and
	// Π = I − Σ r rᵀ
	kin := append(ad.Vec(nil), s.gap...)
	for _, jv := range [][]ad.Vec{s.normal, s.tangent} {
		for _, jn := range jv {
			e := s.g.Const(0)
			for j := range jn {
				e = e.Add(jn[j].Mul(s.v[j]))
			}
			kin = append(kin, e)
		}
	}
	J, err := ad.Jacobian(kin, ad.Concat(s.q, s.v))
	if err != nil {
		return nil, nil, fmt.Errorf("fesd: the contact constraints' Jacobian: %w", err)
	}
	fn, err := ad.NewFunction("fesdj_kin_jac", []ad.Arg{ad.A("q", s.q...), ad.A("v", s.v...), ad.A("u", s.u...), ad.A("p", s.p...)},
		[]ad.Arg{ad.A("J", J.E...)})
	if err != nil {
		return nil, nil, fmt.Errorf("fesd: the contact constraints' Jacobian: %w", err)
	}
	flat := make([]float64, J.R*J.C)
	if err := fn.Eval(fn.NewWorkspace(), [][]float64{x0[:s.nq], x0[s.nq:], u, p}, [][]float64{flat}); err != nil {
		return nil, nil, err
	}
	vt := make([]float64, s.nc) // J_tᵀv₀, from its gradient in v, J_t
	for c := range vt {
		for j := 0; j < s.nq; j++ {
			vt[c] += flat[(2*s.nc+c)*nx+s.nq+j] * x0[s.nq+j]
		}
	}
	var basis [][]float64
	for _, c := range closed {
		rows := []int{c, s.nc + c}
		if s.mu[c] > 0 && math.Abs(vt[c]) <= clsVelTol {
			rows = append(rows, 2*s.nc+c) // sticking
		}
		for _, r := range rows {
			row := clone(flat[r*nx : (r+1)*nx])
			for _, b := range basis {
				d := dot(row, b)
				for j := range row {
					row[j] -= d * b[j]
				}
			}
			if nr := math.Sqrt(dot(row, row)); nr > 1e-12 {
				for j := range row {
					row[j] /= nr
				}
				basis = append(basis, row)
			}
		}
	}
	for _, b := range basis {
		for i := range proj {
			for j := range proj[i] {
				proj[i][j] -= b[i] * b[j]
			}
		}
	}
	return closed, proj, nil
}

// branch solves the branch of the finished step st once more for its
// multipliers, as resolveBranch does (the smaller side of every
// complementarity pair fixed at zero, both sides where both are at most
// clsSensTol), with the variables that a zero normal force (impulse)
// leaves without a role taken out of the biactive pairs:
//
//   - with Λ_n = 0 fixed, P and N (P − N = J_nᵀ(v⁺ + e v⁻)) do not act on
//     anything else; where both are zero (J_nᵀv = 0 at a boundary in free
//     flight, or at rest on the obstacle) P is freed, or the row would pin
//     J_nᵀv at its value;
//   - with λ_n = 0 (Λ_n = 0) fixed, the friction variables of that point
//     do not act either (λ_d = 0 from β = μλ_n − λ_t⁺ − λ_t⁻ ≥ 0): γ is
//     fixed at its value and δ freed, or a zero tangential velocity in
//     flight would be pinned — except at an element start whose Δ_d is
//     crossed with a positive λ_d at the element's stage points
//     (crossTangent): that Δ_d stays at zero, J_tᵀv⁺ = ∓Γ, and Γ is
//     freed (held at its value it would pin the sliding velocity v⁺);
//   - sticking (β > 0) with no tangential force, λ_d = δ = 0: λ_t⁺ is
//     freed, so that the friction force can follow a perturbation of the
//     applied force in either direction.
func (sc *clsSens) branch(ctx context.Context, st *CLSStep) (*mpcc.InnerResult, []float64, []float64, error) {
	cs := st.sim
	tr, f, s, w := cs.tr, cs.f, cs.s, st.w
	bl, bu := branchBounds(tr, w, tr.wl, tr.wu, clsSensTol)
	fix := func(k int) { bl[k], bu[k] = 0, 0 }
	zero := func(k int) bool { return bl[k] == 0 && bu[k] == 0 }
	free := func(k int) { bl[k], bu[k] = tr.wl[k], tr.wu[k] }
	// friction of one point: the normal force at k, λ_d, γ, β, δ blocks
	fric := func(nk, ld, gam, bet, del, c int) {
		if zero(nk) {
			fix(ld + 2*c)
			fix(ld + 2*c + 1)
			bl[gam+c], bu[gam+c] = w[gam+c], w[gam+c]
			free(del + 2*c)
			free(del + 2*c + 1)
			return
		}
		if zero(gam+c) && !zero(bet+c) && zero(ld+2*c) && zero(ld+2*c+1) && zero(del+2*c) && zero(del+2*c+1) {
			free(ld + 2*c)
		}
	}
	// without an impulse the start's Δ_d is still crossed with λ_d at
	// the element's stage points (crossTangent): where some λ_d > 0 it
	// stays fixed at zero, J_tᵀv⁺ = ∓Γ, and Γ is what it determines
	// (freed) instead of being held at its value — held, the row would
	// pin J_tᵀv⁺ (the sliding block: ∂v_x/∂v_x0 = 0.125 for 1)
	crossedStart := func(n, c int) {
		sp := f.pos.start[n]
		crossed := false
		for d := 0; d < 2; d++ {
			for _, k := range f.pointIdx(n, clsld, 2*c+d) {
				if w[k] > clsSensTol {
					fix(sp[clsDel] + 2*c + d)
					crossed = true
					break
				}
			}
		}
		if crossed {
			free(sp[clsGam] + c)
		}
	}
	for n := 0; n < tr.NE; n++ {
		sp := f.pos.start[n]
		for c := 0; c < s.nc; c++ {
			if zero(sp[clsLam]+c) && zero(sp[clsP]+c) && zero(sp[clsN]+c) {
				free(sp[clsP] + c)
			}
			if !s.friction {
				continue
			}
			fric(sp[clsLam]+c, sp[clsLd], sp[clsGam], sp[clsBet], sp[clsDel], c)
			if zero(sp[clsLam] + c) {
				crossedStart(n, c)
			}
			for m := 0; m < tr.ns; m++ {
				pp := f.pos.point[n][m]
				fric(pp[clsLn]+c, pp[clsld], pp[clsgam], pp[clsbet], pp[clsdel], c)
			}
		}
	}
	freeStepSizes(tr, bl, bu, w)
	w0 := clone(w)
	for k := range w0 {
		w0[k] = math.Min(math.Max(w0[k], bl[k]), bu[k])
	}
	if err := tr.prob.SetParams(st.pv); err != nil {
		return nil, nil, nil, err
	}
	if err := tr.prob.SetVarBounds(bl, bu); err != nil {
		return nil, nil, nil, err
	}
	if err := tr.prob.SetStart(w0); err != nil {
		return nil, nil, nil, err
	}
	ir, err := sc.inner.SolveNLP(ctx, tr.prob, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	if !ir.Status.Success() {
		return nil, nil, nil, fmt.Errorf("%w: the branch of the step's solution ends %v", ErrSensitivity, ir.Status)
	}
	return ir, bl, bu, nil
}

// inactiveRows sets the multipliers of the inequality rows of tr's NLP
// that the branch solution ir holds more than 1e-8 inside their bounds to
// zero, their value at an exact KKT point. The interior point leaves
// μ/slack there, which kktSensitivity (taking a row with a multiplier
// above 1e-8 as active) would read as an active row: the row
// f_c(q_n + h ε v⁺) ≥ 0 after an impact 9.2e-3 s before a step's end
// holds with the slack 4.4e-6 and the multiplier 2e-8, and taken as
// active it over-determines the linearization (∂v/∂z of that step 34.6065
// against 34.6117 of the closed form and of central differences).
func inactiveRows(tr *transcription, ir *mpcc.InnerResult) error {
	n, m := tr.prob.Dims()
	cl, cu, g := make([]float64, m), make([]float64, m), make([]float64, m)
	tr.prob.Bounds(make([]float64, n), make([]float64, n), cl, cu)
	if err := tr.prob.Constraints(ir.X, g); err != nil {
		return err
	}
	for i := 0; i < m; i++ {
		if cl[i] != cu[i] && g[i]-cl[i] > 1e-8 && cu[i]-g[i] > 1e-8 {
			ir.Y[i] = 0
		}
	}
	return nil
}
