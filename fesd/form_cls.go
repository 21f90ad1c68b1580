package fesd

import (
	"errors"
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
)

// clsEps is nosnoc's eps_cls (+nosnoc/Options.m): the row
// f_c(q⁺ + h ε v⁺) ≥ 0 at the start of every element forbids a
// post-impact velocity that points into the obstacle, which would let a
// finite contact force stop the body within the element instead of an
// impulse at its start.
const clsEps = 1e-3

// clsSystem is a dcs.CLS copied into the graph of a transcription: the
// symbols the expressions use (q, v, u, p) and the expressions of the
// mass matrix, the forces and the contacts.
type clsSystem struct {
	g          *ad.Graph
	q, v, u, p ad.Vec
	M          ad.Vec // row-major n_q × n_q
	fv         ad.Vec
	gap        ad.Vec
	normal     []ad.Vec
	e          []float64
	nq, nc     int
	// tangent are the tangential Jacobians (zero for a frictionless
	// contact) and mu the friction coefficients (0 there); friction is
	// set when some μ > 0
	tangent  []ad.Vec
	mu       []float64
	friction bool
	// cp copies expressions of the body's graph into g (an OCP's costs
	// and constraints)
	cp *ad.Copier
}

// newCLSSystem copies c into a new graph (the body's graph is only read).
func newCLSSystem(c *dcs.CLS) (*clsSystem, error) {
	rb := &c.Body
	cp := ad.NewCopier(rb.Graph)
	s := &clsSystem{g: cp.Graph(), q: cp.Vec(rb.Q), v: cp.Vec(rb.V), u: cp.Vec(rb.U), p: cp.Vec(rb.P),
		M: cp.Vec(rb.M.E), fv: cp.Vec(rb.FV), gap: cp.Vec(c.Gap), e: append([]float64(nil), c.E...),
		nq: c.NQ, nc: len(c.Gap), cp: cp}
	for i, jn := range c.Normal {
		s.normal = append(s.normal, cp.Vec(jn))
		jt, mu := cp.Vec(c.Tangent[i]), c.Mu[i]
		if c.Tangent[i] == nil {
			jt, mu = s.g.ConstVec(make([]float64, s.nq)...), 0
		}
		s.tangent = append(s.tangent, jt)
		s.mu = append(s.mu, mu)
		s.friction = s.friction || mu > 0
	}
	if err := s.g.Err(); err != nil {
		return nil, fmt.Errorf("fesd: copying the contact system: %w", err)
	}
	return s, nil
}

// shell returns the dcs.DCS through which the shared builder reads the
// system's symbols: X = (q, v), U, P and a time symbol, without algebraic
// variables or complementarity pairs (the formulation declares its own).
func (s *clsSystem) shell() *dcs.DCS {
	return &dcs.DCS{Graph: s.g, X: ad.Concat(s.q, s.v), U: s.u, P: s.p, Time: s.g.Sym("t")}
}

// at returns the expressions e with (q, v, u, p) replaced.
func (s *clsSystem) at(e ad.Vec, q, v, u, p ad.Vec) (ad.Vec, error) {
	return ad.Substitute(e, ad.Concat(s.q, s.v, s.u, s.p), ad.Concat(q, v, u, p))
}

// clsFormulation is FESD-J (A. Nurkanović, J. Frey, A. Pozharskiy,
// M. Diehl, "FESD-J: Finite Elements with Switch Detection for numerical
// optimal control of rigid bodies with impacts and Coulomb friction",
// Nonlinear Analysis: Hybrid Systems 52 (2024) 101460; nosnoc's
// +nosnoc/+dcs/Cls.m and +nosnoc/+discrete_time_problem/Cls.m) for a
// complementarity Lagrangian system (dcs.CLS) with the state x = (q, v)
// and planar contacts (one tangent direction each). Its variables are
//
//   - at every stage point: the normal contact forces λ_n ≥ 0, the gaps
//     y = f_c(q) ≥ 0 and the accelerations a with M(q) a = f_v + Σ J_n λ_n
//     (nosnoc's lift_velocity_state: no symbolic M⁻¹), so that
//     ẋ = (v, a);
//   - at the start of every element n (the first included: an impact at
//     the start of a simulation step): the post-impact velocity v⁺, the
//     normal impulses Λ_n ≥ 0, the gap Y = f_c(q_n) ≥ 0 and the two parts
//     P, N ≥ 0 of Newton's law, with the rows
//     M(q_n)(v⁺ − v⁻) = Σ J_n Λ_n, Y = f_c(q_n),
//     P − N = J_nᵀ(v⁺ + e v⁻) and f_c(q_n + h ε v⁺) ≥ 0 (clsEps), and
//     in an OCP S ≥ 0 with S ≥ J_nᵀv⁻ (impactLaw); the
//     element starts from (q_n, v⁺), where v⁻ is the end velocity of the
//     previous element (x₀'s for the first);
//   - at the end of every element when c_{n_s} ≠ 1 (Gauss–Legendre): the
//     gap y_b = f_c(q) there.
//
// The complementarities of element n are, per contact, the impulse pair
// Λ_n ⊥ Y + P + N (one summed term; + S in an OCP: an impulse only on an
// approaching contact) and P ⊥ N — an impulse only where the
// gap is closed, and then J_nᵀv⁺ = −e J_nᵀv⁻ — and the cross
// complementarity of the chosen mode between the contact forces λ_n at
// the stage points and the gaps at all points of the element (Y, y and
// y_b): a contact force anywhere in an element closes the gap everywhere
// in it, so a contact can only be made or broken at an element boundary,
// which is the switch detection on the gap.
//
// With friction (some μ > 0) every point also has the polyhedral Coulomb
// model of nosnoc's Cls.m with D = [J_t, −J_t] (friction): the tangential
// forces λ_d = (λ_t⁺, λ_t⁻) ≥ 0 entering M a (J_t(λ_t⁺ − λ_t⁻)), γ ≥ 0,
// β = μλ_n − λ_t⁺ − λ_t⁻ ≥ 0 and δ = (J_tᵀv + γ, −J_tᵀv + γ) ≥ 0, with
// λ_d ⊥ δ and γ ⊥ β; at the element start the same with the impulses
// (Λ_d, Γ, B, Δ at v⁺; pointwise pairs). Across an element γ ⊥ β are
// crossed at its stage points and λ_d ⊥ δ with δ at its stage points and
// its start (Δ; crossTangent): γ = |J_tᵀv| > 0 while sliding and β > 0
// while sticking, and an element that starts sliding keeps the friction
// force against the motion, so a slip–stick transition lies on an
// element boundary (the switch detection on the contact velocity). The
// indicator does not see friction yet.
type clsFormulation struct {
	tr  *transcription
	s   *clsSystem
	pos clsPos
	// stageCross leaves the element start's Δ out of the crossing of the
	// tangential forces (crossTangent): an OCP's transcription, see
	// newCLSOCPFormulation.
	stageCross bool
	// impactLaw adds the variable S ≥ 0 of every contact at every
	// element start with the row S ≥ J_nᵀv⁻ and the pair Λ_n ⊥ S: an
	// impulse only on a contact that approaches (J_nᵀv⁻ ≤ 0), as
	// Newton's impact law states it; an OCP's transcription, see
	// newCLSOCPFormulation.
	impactLaw bool
	// sIdx is the index of the block S among the element-start blocks
	// (impactLaw)
	sIdx int
}

var _ formulation = (*clsFormulation)(nil)

// clsPos are the first indices in w of the formulation's blocks.
type clsPos struct {
	start [][]int   // [n] v⁺, Λ, Y, P, N
	point [][][]int // [n][m] λ, y, a
	end   [][]int   // [n] y_b (empty without a boundary point)
}

// The blocks of clsFormulation, in the order of vars.
const (
	clsVP  = iota // v⁺
	clsLam        // Λ_n
	clsY          // Y
	clsP          // P
	clsN          // N
	// with friction (polyhedral, D = [J_t, −J_t]):
	clsLd  // Λ_d = (Λ_t⁺, Λ_t⁻) of every contact
	clsGam // Γ
	clsBet // B = μΛ_n − Λ_t⁺ − Λ_t⁻
	clsDel // Δ = Dᵀv⁺ + Γ
)

const (
	clsLn  = iota // λ_n
	clsGap        // y
	clsAcc        // a
	// with friction, as at the element start:
	clsld  // λ_d
	clsgam // γ
	clsbet // β
	clsdel // δ
)

// newCLSFormulation returns the transcription hook of FESD-J for s.
func newCLSFormulation(s *clsSystem) func(tr *transcription) formulation {
	return newCLSHook(s, false)
}

// newCLSOCPFormulation returns the transcription hook of FESD-J for an
// OCP on s: the crossing of the tangential forces with δ at the stage
// points only, without the element start's Δ (crossTangent). With the
// start's Δ, the relaxed NLPs of a contact that sticks from the start of
// an element are degenerate (Δ⁺ = Δ⁻ = 0 and Γ = 0 fix J_tᵀv⁺ twice
// over when λ_t⁺ and λ_t⁻ are both positive, as on a block sticking on
// an incline in simulation): the monopod standing still (examples/monopod
// -dcs fesdj -N 2 -T 0.2 -distance 0) ended NLPFailure at complementarity
// 0.11 from σ₀ = 1, where it is Solved and valid with this crossing. The
// price: a slip–stick transition inside an OCP may be placed on the
// element boundary before it (what crossTangent fixes for SimulateCLS).
//
// An OCP's transcription also has Newton's impact law with its condition
// (impactLaw): an impulse Λ_n > 0 only where J_nᵀv⁻ ≤ 0, by a variable
// S ≥ max(J_nᵀv⁻, 0) at every element start and S in the impulse's
// complementarity (Λ_n ⊥ Y + P + N + S). Without it the impulse law
// P − N = J_nᵀ(v⁺ + e v⁻) holds for a separating contact too, and the
// optimizer used it as a brake: the monopod (examples/monopod -N 30
// -dcs fesdj) ended flight elements with the foot on the ground moving
// up (it passed below the ground between the stage points, where FESD-J
// does not see the gap) and an impulse there removed that velocity,
// 1.64 m/s off the impact law (CLSValidity's restitution item); with
// the condition the same run ends valid. Constraining the gap inside
// the elements as well (f_c ≥ 0 on the position polynomial between the
// nodes) made that run end NLPFailure, without or with this condition.
// SimulateCLS keeps the law without the condition: a simulation's
// element starts follow its own integration, not an optimizer's choice.
func newCLSOCPFormulation(s *clsSystem) func(tr *transcription) formulation {
	return newCLSHook(s, true)
}

func newCLSHook(s *clsSystem, stageCross bool) func(tr *transcription) formulation {
	return func(tr *transcription) formulation {
		f := &clsFormulation{tr: tr, s: s, stageCross: stageCross, impactLaw: stageCross}
		f.pos.start = make([][]int, tr.NE)
		f.pos.point = make([][][]int, tr.NE)
		f.pos.end = make([][]int, tr.NE)
		for n := range f.pos.point {
			f.pos.point[n] = make([][]int, tr.ns)
		}
		return f
	}
}

// errCLSNoFESD: FESD-J needs the step sizes as variables.
var errCLSNoFESD = errors.New("fesd: FESD-J needs FESD (DisableFESD is set)")

// errCLSFrictionBoundary: friction with a boundary point.
var errCLSFrictionBoundary = errors.New("fesd: FESD-J with friction needs c_{n_s} = 1 (Radau IIA): the friction variables are not at the boundary point")

// check: FESD-J needs FESD; with friction the end of an element must be a
// stage point. With Gauss–Legendre the friction model holds only at the
// stage points, and the end state, extrapolated from them, can stick with
// a tangential velocity (the sliding block: −0.015 m/s at the stop, which
// comes 5 ms late, and the next step infeasible); nosnoc writes the
// algebraic equations at the boundary point too.
func (f *clsFormulation) check() error {
	if f.tr.o.DisableFESD {
		return fmt.Errorf("%w: %w", ErrStructure, errCLSNoFESD)
	}
	if f.s.friction && f.tr.o.rbp {
		return fmt.Errorf("%w: %w", ErrStructure, errCLSFrictionBoundary)
	}
	return nil
}

func (f *clsFormulation) vars() formVars {
	nq, nc := f.s.nq, f.s.nc
	free := func(n int) ([]float64, []float64) {
		lo, hi := make([]float64, n), make([]float64, n)
		for i := range lo {
			lo[i], hi[i] = math.Inf(-1), math.Inf(1)
		}
		return lo, hi
	}
	pos := func(n int) ([]float64, []float64) {
		lo, hi := make([]float64, n), make([]float64, n)
		for i := range hi {
			hi[i] = math.Inf(1)
		}
		return lo, hi
	}
	blk := func(name string, lo, hi []float64) varBlock {
		return varBlock{name: "fesdj_" + name, tmpl: "tmpl_fesdj_" + name, kind: vForm, lo: lo, hi: hi}
	}
	var v formVars
	vl, vu := free(nq)
	pl, pu := pos(nc)
	v.elemStart = []varBlock{blk("vp", vl, vu), blk("Lambda", pl, pu), blk("Y", pl, pu), blk("P", pl, pu), blk("N", pl, pu)}
	v.point = []varBlock{blk("lambda", pl, pu), blk("y", pl, pu), blk("a", vl, vu)}
	if f.s.friction {
		dl, du := pos(2 * nc)
		v.elemStart = append(v.elemStart, blk("LambdaD", dl, du), blk("Gamma", pl, pu), blk("Beta", pl, pu), blk("Delta", dl, du))
		v.point = append(v.point, blk("lambdaD", dl, du), blk("gamma", pl, pu), blk("beta", pl, pu), blk("delta", dl, du))
	}
	if f.impactLaw {
		f.sIdx = len(v.elemStart)
		v.elemStart = append(v.elemStart, blk("S", pl, pu))
	}
	if f.tr.o.rbp {
		v.elemEnd = []varBlock{blk("yb", pl, pu)}
	}
	return v
}

func (f *clsFormulation) placed(at varPlace, n, m int, first []int) {
	switch at {
	case atElemStart:
		f.pos.start[n] = clone2(first)
	case atStagePoint:
		f.pos.point[n][m] = clone2(first)
	case atElemEnd:
		f.pos.end[n] = clone2(first)
	}
}

// start: the position is continuous, the velocity is v⁺.
func (f *clsFormulation) start(ev *elemIn) ad.Vec {
	return ad.Concat(ev.xn[:f.s.nq], ev.start[clsVP])
}

// contact returns M, the gaps and the contact Jacobians at (q, v, u, p):
// M row-major, jn[c] and jt[c] of length n_q.
func (s *clsSystem) contact(q, v, u, p ad.Vec) (M, fv, gap ad.Vec, jn, jt []ad.Vec, err error) {
	exprs := ad.Concat(s.M, s.fv, s.gap)
	for c := 0; c < s.nc; c++ {
		exprs = append(append(exprs, s.normal[c]...), s.tangent[c]...)
	}
	sub, err := s.at(exprs, q, v, u, p)
	if err != nil {
		return nil, nil, nil, nil, nil, err
	}
	nq2 := s.nq * s.nq
	M, fv, gap = sub[:nq2], sub[nq2:nq2+s.nq], sub[nq2+s.nq:nq2+s.nq+s.nc]
	r := sub[nq2+s.nq+s.nc:]
	for c := 0; c < s.nc; c++ {
		jn = append(jn, r[2*c*s.nq:(2*c+1)*s.nq])
		jt = append(jt, r[(2*c+1)*s.nq:(2*c+2)*s.nq])
	}
	return M, fv, gap, jn, jt, nil
}

// momentum returns the rows M·dv − rhs − Σ_c (J_n,c ν_c + J_t,c (τ⁺_c −
// τ⁻_c)) = 0 (τ nil: no friction).
func (f *clsFormulation) momentum(M, rhs, dv ad.Vec, jn, jt []ad.Vec, nu, tau ad.Vec) []conRow {
	s := f.s
	var rows []conRow
	for i := 0; i < s.nq; i++ {
		r := f.tr.g.Const(0)
		if rhs != nil {
			r = rhs[i].Neg()
		}
		for j := 0; j < s.nq; j++ {
			r = r.Add(M[i*s.nq+j].Mul(dv[j]))
		}
		for c := 0; c < s.nc; c++ {
			r = r.Sub(jn[c][i].Mul(nu[c]))
			if tau != nil {
				r = r.Sub(jt[c][i].Mul(tau[2*c].Sub(tau[2*c+1])))
			}
		}
		rows = append(rows, conRow{e: r})
	}
	return rows
}

// friction returns the rows of the polyhedral Coulomb friction of every
// contact at one point with the velocity v, the normal force (impulse) nu
// and the friction variables (τ⁺, τ⁻), γ, β, δ: β = μ ν − τ⁺ − τ⁻ and
// δ = (J_tᵀv + γ, −J_tᵀv + γ) (nosnoc's Polyhedral model in
// +nosnoc/+dcs/Cls.m, with D = [J_t, −J_t]). With 0 ≤ τ ⊥ δ ≥ 0 and
// 0 ≤ γ ⊥ β ≥ 0 the force is −μν sign(J_tᵀv) while sliding and within
// ±μν while sticking.
func (f *clsFormulation) friction(v ad.Vec, jt []ad.Vec, nu, tau, gam, bet, del ad.Vec) []conRow {
	s := f.s
	var rows []conRow
	for c := 0; c < s.nc; c++ {
		vt := f.tr.g.Const(0)
		for j := 0; j < s.nq; j++ {
			vt = vt.Add(jt[c][j].Mul(v[j]))
		}
		rows = append(rows,
			conRow{e: bet[c].Sub(nu[c].Scale(s.mu[c])).Add(tau[2*c]).Add(tau[2*c+1])},
			conRow{e: del[2*c].Sub(vt).Sub(gam[c])},
			conRow{e: del[2*c+1].Add(vt).Sub(gam[c])})
	}
	return rows
}

// jump returns the impulse equations at the start of the element.
func (f *clsFormulation) jump(ev *elemIn) ([]conRow, error) {
	s := f.s
	q, vm := ev.xn[:s.nq], ev.xn[s.nq:]
	vp := ev.start[clsVP]
	Lam, Y, P, N := ev.start[clsLam], ev.start[clsY], ev.start[clsP], ev.start[clsN]
	M, _, gap, jn, jt, err := s.contact(q, vm, ev.u, ev.p)
	if err != nil {
		return nil, fmt.Errorf("impulse equations: %w", err)
	}
	dv := make(ad.Vec, s.nq)
	for j := range dv {
		dv[j] = vp[j].Sub(vm[j])
	}
	var tau ad.Vec
	if s.friction {
		tau = ev.start[clsLd]
	}
	rows := f.momentum(M, nil, dv, jn, jt, Lam, tau)
	for c := 0; c < s.nc; c++ {
		rows = append(rows, conRow{e: Y[c].Sub(gap[c])})
	}
	for c := 0; c < s.nc; c++ {
		r := P[c].Sub(N[c])
		for j := 0; j < s.nq; j++ {
			r = r.Sub(jn[c][j].Mul(vp[j].Add(vm[j].Scale(s.e[c]))))
		}
		rows = append(rows, conRow{e: r})
	}
	if s.friction {
		rows = append(rows, f.friction(vp, jt, Lam, tau, ev.start[clsGam], ev.start[clsBet], ev.start[clsDel])...)
	}
	// f_c(q + h ε v⁺) ≥ 0 (nosnoc's eps_cls, scaled by h)
	qe := make(ad.Vec, s.nq)
	for j := range qe {
		qe[j] = q[j].Add(ev.h.Mul(vp[j]).Scale(clsEps))
	}
	ge, err := s.at(s.gap, qe, vm, ev.u, ev.p)
	if err != nil {
		return nil, fmt.Errorf("impulse equations: %w", err)
	}
	for c := 0; c < s.nc; c++ {
		rows = append(rows, conRow{e: ge[c], lo: 0, hi: math.Inf(1)})
	}
	if f.impactLaw {
		// S − J_nᵀv⁻ ≥ 0: with Λ_n ⊥ S no impulse on a separating contact
		for c := 0; c < s.nc; c++ {
			r := ev.start[f.sIdx][c]
			for j := 0; j < s.nq; j++ {
				r = r.Sub(jn[c][j].Mul(vm[j]))
			}
			rows = append(rows, conRow{e: r, lo: 0, hi: math.Inf(1)})
		}
	}
	return rows, nil
}

// stage returns ẋ = (v, a) with the rows M(q) a − f_v − Σ (J_n λ_n +
// J_t λ_t) = 0, y − f_c(q) = 0 and, with friction, those of the friction
// model.
func (f *clsFormulation) stage(pt *stagePoint) (ad.Vec, []conRow, error) {
	s := f.s
	q, v := pt.x[:s.nq], pt.x[s.nq:]
	lam, y, a := pt.v[clsLn], pt.v[clsGap], pt.v[clsAcc]
	M, fv, gap, jn, jt, err := s.contact(q, v, pt.u, pt.p)
	if err != nil {
		return nil, nil, fmt.Errorf("contact dynamics at stage point %d: %w", pt.m, err)
	}
	var tau ad.Vec
	if s.friction {
		tau = pt.v[clsld]
	}
	rows := f.momentum(M, fv, a, jn, jt, lam, tau)
	for c := 0; c < s.nc; c++ {
		rows = append(rows, conRow{e: y[c].Sub(gap[c])})
	}
	if s.friction {
		rows = append(rows, f.friction(v, jt, lam, tau, pt.v[clsgam], pt.v[clsbet], pt.v[clsdel])...)
	}
	return ad.Concat(v, a), rows, nil
}

// end returns y_b − f_c(q) = 0 at a boundary point (c_{n_s} ≠ 1).
func (f *clsFormulation) end(ev *elemIn) ([]conRow, error) {
	if len(ev.end) == 0 {
		return nil, nil
	}
	s := f.s
	gap, err := s.at(s.gap, ev.xe[:s.nq], ev.xe[s.nq:], ev.u, ev.p)
	if err != nil {
		return nil, fmt.Errorf("gap at the boundary point: %w", err)
	}
	var rows []conRow
	for c := 0; c < s.nc; c++ {
		rows = append(rows, conRow{e: ev.end[0][c].Sub(gap[c])})
	}
	return rows, nil
}

// complementarity adds, per element and contact, the impulse pairs and
// the cross complementarity of the contact forces with the gaps.
func (f *clsFormulation) complementarity() {
	tr, s := f.tr, f.s
	for n := 0; n < tr.NE; n++ {
		st := f.pos.start[n]
		for c := 0; c < s.nc; c++ {
			lam, Y, P, N := st[clsLam]+c, st[clsY]+c, st[clsP]+c, st[clsN]+c
			pairs := [][2]int{{lam, Y}, {lam, P}, {lam, N}}
			if f.impactLaw {
				pairs = append(pairs, [2]int{lam, st[f.sIdx] + c})
			}
			tr.addComp(n, mpcc.Complementarity{Pairs: pairs}, mpcc.Pair(P, N))
			tr.addComp(n, crossComp(tr.o.CrossComp, f.forces(n, c), f.gaps(n, c))...)
			if s.friction {
				// Λ_d ⊥ Δ, Γ ⊥ B at the start; across the element
				// λ_d ⊥ δ and β ⊥ γ (a slip–stick transition on a
				// boundary: γ > 0 while sliding, β > 0 while sticking),
				// with the start's Δ among the δ (crossTangent); the
				// quantity that jumps first, as λ_n ⊥ gaps, which
				// groups the terms of FEStage and StageFE
				for d := 0; d < 2; d++ {
					tr.addComp(n, mpcc.Pair(st[clsLd]+2*c+d, st[clsDel]+2*c+d))
					tr.addComp(n, crossComp(tr.o.CrossComp, f.pointIdx(n, clsld, 2*c+d), f.crossTangent(n, c, d))...)
				}
				tr.addComp(n, mpcc.Pair(st[clsGam]+c, st[clsBet]+c))
				tr.addComp(n, crossComp(tr.o.CrossComp, f.pointIdx(n, clsbet, c), f.pointIdx(n, clsgam, c))...)
			}
		}
	}
}

// crossTangent returns the indices of the part d of δ = (J_tᵀv + γ,
// −J_tᵀv + γ) of contact c at the points of element n that cross the
// tangential forces λ_d at its stage points: its start (Δ, at v⁺) and
// its stage points. δ is continuous in time while the contact is closed,
// λ_d is not; as the gap's start value Y in the normal cross
// complementarity (FESD-J, Nurkanović et al. 2024, §3.3, eq. (20) with
// j' = 0, and eqs. (21)–(22), which include the element's left boundary
// point), the start makes an element that begins sliding (Δ_d > 0 on
// the side of the motion) keep λ_d at zero on that side at all its
// stage points, so that it slides to the stop at its end instead of
// sticking at all of them with the stage velocities zero (the sliding
// block, μ = 0.6: v_x = 0.057 at the start of the element [0.5, 0.55],
// both stage points sticking, the stop at 0.5 instead of 0.509684).
//
// nosnoc's STAGE_STAGE mode in +nosnoc/+discrete_time_problem/Cls.m
// also crosses β at the stage points with Γ at the start (eq. (21) with
// j' = 0). Not here: in the polyhedral model a sticking point can have
// β = 0 (λ_t⁺ and λ_t⁻ both positive, their difference the sticking
// force), so that crossing alone leaves the spurious stick (the block
// stops 3.5e-6 m/s short of zero at an element boundary, with the stop
// reported 0.09 s late), and with the crossing of Δ it makes the
// relaxed NLPs of a block sticking on a 30° incline (μ = 0.7) fail
// from σ = 1e-7 on (Γ = Δ⁺ = Δ⁻ = 0 determine J_tᵀv⁺ twice over).
func (f *clsFormulation) crossTangent(n, c, d int) []int {
	if f.stageCross {
		return f.pointIdx(n, clsdel, 2*c+d)
	}
	return append([]int{f.pos.start[n][clsDel] + 2*c + d}, f.pointIdx(n, clsdel, 2*c+d)...)
}

// pointIdx returns the indices of entry i of stage-point block b at the
// stage points of element n.
func (f *clsFormulation) pointIdx(n, b, i int) []int {
	out := make([]int, f.tr.ns)
	for m := range out {
		out[m] = f.pos.point[n][m][b] + i
	}
	return out
}

// forces returns the indices of λ_n of contact c at the stage points of
// element n.
func (f *clsFormulation) forces(n, c int) []int {
	out := make([]int, f.tr.ns)
	for m := range out {
		out[m] = f.pos.point[n][m][clsLn] + c
	}
	return out
}

// gaps returns the indices of the gap of contact c at the points of
// element n: its start (Y), the stage points and the boundary point.
func (f *clsFormulation) gaps(n, c int) []int {
	out := []int{f.pos.start[n][clsY] + c}
	for m := 0; m < f.tr.ns; m++ {
		out = append(out, f.pos.point[n][m][clsGap]+c)
	}
	if len(f.pos.end[n]) > 0 {
		out = append(out, f.pos.end[n][0]+c)
	}
	return out
}

// indicator returns η_n = Π_c ν_c at the boundary between elements n − 1
// and n, with ν_c = Y_n σ_y,n−1 σ_y,n + σ_λ,n−1 σ_λ,n, σ_y the sum of the
// gaps of contact c over an element's points and σ_λ that of its contact
// forces. nosnoc's Cls.m uses σ_y,n−1 σ_y,n without the factor Y_n: that
// term is positive at an impact with e > 0 (the gap is positive on both
// sides), whereas an impact is a switch too; the gap Y_n at the boundary
// vanishes there. ν_c is zero at a contact made (Y_n = 0, no force
// before) or broken (Y_n = 0, no force after), positive in free flight
// (positive gaps) and in persistent contact (forces on both sides).
func (f *clsFormulation) indicator(n int) ad.Expr {
	tr := f.tr
	sum := func(idx []int) ad.Expr {
		e := tr.g.Const(0)
		for _, k := range idx {
			e = e.Add(tr.w[k])
		}
		return e
	}
	eta := tr.g.Const(1)
	for c := 0; c < f.s.nc; c++ {
		Y := tr.w[f.pos.start[n][clsY]+c]
		nu := Y.Mul(sum(f.gaps(n-1, c))).Mul(sum(f.gaps(n, c))).
			Add(sum(f.forces(n-1, c)).Mul(sum(f.forces(n, c))))
		eta = eta.Mul(nu)
	}
	return eta
}
