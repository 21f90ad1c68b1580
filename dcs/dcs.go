package dcs

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
)

// DCS is a model rewritten as a dynamic complementarity system (004 eq. 3)
//
//	ẋ = F(x, u, p, z, t),
//	0 = G(x, u, p, z),
//	ZLower ≤ z ≤ ZUpper,
//	0 ≤ a ⊥ b ≥ 0 for every Pair of every CompGroup,
//
// with all algebraic variables in one vector z = Z, laid out in named
// blocks (ZBlocks; the rows of G in GBlocks). Every expression lives in the
// DCS's own graph (Graph) and depends only on X, U, P, Z and Time, so a
// transcription compiles F and G once with the inputs of Args and evaluates
// them at every stage point.
//
// Reformulate copies the model's expressions into a new graph (ad.Copier)
// and builds the DCS there: X, U, P and Time are the copies of the model's
// symbols, Model returns the copied model, and Import translates further
// expressions of the model's graph (costs, constraints) into the DCS's
// graph. The model's graph is only read, so it does not grow, and one model
// may be reformulated by several goroutines at once.
//
// The fields and the evaluation methods (EvalF, EvalG, Residuals,
// InitialGuess) are safe for concurrent use. Building expressions in the
// DCS's graph (Import, derivatives, a transcription) is not: give every
// goroutine its own Reformulate.
type DCS struct {
	Formulation Formulation
	Options     Options
	Graph       *ad.Graph
	X, U, P     ad.Vec
	// Time is the model's time symbol, or a fresh symbol "t" for an
	// autonomous model, so that F always has the inputs of Args.
	Time ad.Expr
	// Z are the algebraic variables (symbols), with bounds ZLower, ZUpper
	// (±Inf where unbounded).
	Z              ad.Vec
	ZLower, ZUpper []float64
	ZBlocks        []VarBlock
	// F is the right-hand side f₀ + Σ_k F_k θ_k, of length n_x.
	F ad.Vec
	// G are the algebraic equations G = 0, in blocks GBlocks.
	G       ad.Vec
	GBlocks []EqBlock
	// Comp are the complementarity pairs, grouped per subsystem and kind.
	Comp []CompGroup
	// Equilibration lists the components of the step-equilibration
	// indicator η (004 eq. 39).
	Equilibration []EquilibrationTerm
	// BoundaryZ are the indices of the variables that are continuous in
	// time and exist at finite-element boundary points (Stewart: λ and μ;
	// Step: λᵖ and λⁿ): their value at the start of an element is the one
	// at the end of the previous element (004 eq. 36), and for the first
	// element it is given by Init at x₀ (eq. 17).
	BoundaryZ []int
	// BoundaryG are the rows of G that determine BoundaryZ from x alone
	// (Stewart: g(x) − λ + μe = 0; Step: ψ(x) − λᵖ + λⁿ = 0); a
	// transcription imposes them at boundary points that are not stage
	// points (Gauss–Legendre) to define λ there.
	BoundaryG []int
	// Init gives a consistent z for a given (x, u, p), as expressions: the
	// multipliers of eq. 17 (Step) or λ = g − min g, μ = −min g (Stewart),
	// the selections from the signs of ψ (α = 1/2 where ψ = 0) or the
	// active mode of Stewart's LP (θ split evenly between tied modes), θ
	// and β from α, and the constants Algebraic.Init for user variables
	// (which InitialGuess then refines by Newton's method).
	Init ad.Vec
	Dims Dims

	model  *Model     // the model, copied into Graph
	copier *ad.Copier // the model's graph → Graph
	fF     *ad.Function
	fG     *ad.Function
	fInit  *ad.Function
	fUser  *ad.Function // user equations and their Jacobian in user z
	userAt int          // start of the user block in Z
}

// Reformulate validates the model and the options and returns the DCS in
// the chosen formulation, built in a new graph (see DCS): the model and its
// graph are only read, so several goroutines may reformulate (and simulate)
// one model at once, as long as nobody changes the model or builds in its
// graph meanwhile.
func (m *Model) Reformulate(opt Options) (*DCS, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	preps, err := m.prepare()
	if err != nil {
		return nil, err
	}
	c := ad.NewCopier(m.Graph)
	m = m.copyInto(c)
	if err := c.Graph().Err(); err != nil {
		return nil, newErr(ErrInvalidExpr, -1, "Graph", -1, -1, "copying the model: %v", err)
	}
	if opt.Formulation == Stewart && len(m.Steps) > 0 {
		return nil, newErr(ErrStewartGeneral, -1, "Steps", -1, -1, "use the Step formulation")
	}
	if opt.Formulation == Step {
		for k, ps := range preps {
			if ps.nPsi == 0 {
				return nil, newErr(ErrNoPsi, k, "Psi", -1, -1, "")
			}
		}
	}
	g := m.Graph
	d := &DCS{Formulation: opt.Formulation, Options: opt, Graph: g, X: m.X, U: m.U, P: m.P, Time: m.Time, model: m, copier: c}
	if d.Time == (ad.Expr{}) {
		d.Time = g.Sym("t")
	}
	b := &builder{g: g, d: d}
	nx := len(m.X)
	d.F = make(ad.Vec, nx)
	for i := range d.F {
		if m.F0 != nil {
			d.F[i] = m.F0[i]
		} else {
			d.F[i] = g.Const(0)
		}
	}
	for k := range m.Subsystems {
		if opt.Formulation == Stewart {
			b.stewart(k, &m.Subsystems[k], &preps[k])
		} else {
			b.step(k, &m.Subsystems[k], &preps[k], opt)
		}
	}
	if len(m.Steps) > 0 {
		var psi, alpha ad.Vec
		for _, st := range m.Steps {
			psi = append(psi, st.Psi...)
			alpha = append(alpha, st.Alpha...)
		}
		b.stepKKT(-1, psi, alpha, opt)
	}
	b.user(m.Algebraic)
	d.Dims = b.dims(preps)
	if err := d.compile(); err != nil {
		return nil, err
	}
	return d, nil
}

// copyInto returns the model with every expression copied by c (the same
// sign matrices, regions, bounds and starting values). All expressions are
// copied in one call, so the copies keep the relative order of the
// originals in the graph (which fixes the order in which derivatives
// accumulate, hence their rounding).
func (m *Model) copyInto(c *ad.Copier) *Model {
	var all ad.Vec
	var slots []*ad.Vec
	add := func(v *ad.Vec) {
		if *v != nil {
			all = append(all, *v...)
			slots = append(slots, v)
		}
	}
	out := &Model{Graph: c.Graph(), X: m.X, U: m.U, P: m.P, F0: m.F0, Algebraic: m.Algebraic}
	time := ad.Vec{m.Time}
	add(&out.X)
	add(&out.U)
	add(&out.P)
	add(&time)
	add(&out.F0)
	for _, s := range m.Subsystems {
		cs := s
		if s.F != nil {
			cs.F = append([]ad.Vec(nil), s.F...)
		}
		out.Subsystems = append(out.Subsystems, cs)
	}
	for k := range out.Subsystems {
		cs := &out.Subsystems[k]
		add(&cs.Psi)
		add(&cs.G)
		for i := range cs.F {
			add(&cs.F[i])
		}
	}
	out.Steps = append([]StepGroup(nil), m.Steps...)
	for k := range out.Steps {
		add(&out.Steps[k].Psi)
		add(&out.Steps[k].Alpha)
	}
	add(&out.Algebraic.Z)
	add(&out.Algebraic.G)
	all = c.Vec(all)
	k := 0
	for _, v := range slots {
		n := len(*v)
		*v = all[k : k+n : k+n]
		k += n
	}
	out.Time = time[0]
	return out
}

// Model returns the model the DCS was built from, as copied into the DCS's
// graph: its X, U, P and Time are those of the DCS. It is shared with the
// DCS and must not be modified.
func (d *DCS) Model() *Model {
	if d == nil {
		return nil
	}
	return d.model
}

// Import returns the expressions of v translated into the DCS's graph:
// expressions of the model's graph are copied (with the model's symbols
// becoming d.X, d.U, d.P, d.Time and the other symbols new symbols of the
// same name, the same one each time), expressions of the DCS's graph are
// returned unchanged and zero Exprs stay zero Exprs. An expression of any
// other graph gives an invalid expression and records ad.ErrForeignGraph
// in the DCS's graph (d.Graph.Err). Import builds in the DCS's graph: it is
// not safe for concurrent use.
//
// For a DCS not made by Reformulate it returns zero Exprs.
func (d *DCS) Import(v ad.Vec) ad.Vec {
	if v == nil {
		return nil
	}
	if d == nil || d.copier == nil {
		return make(ad.Vec, len(v))
	}
	return d.copier.Vec(v)
}

// ImportExpr is Import for one expression.
func (d *DCS) ImportExpr(e ad.Expr) ad.Expr { return d.Import(ad.Vec{e})[0] }

// builder appends variables, equations and pairs to a DCS.
type builder struct {
	g *ad.Graph
	d *DCS
}

func (b *builder) vars(kind VarKind, sub int, v ad.Vec, lo, hi float64) int {
	d := b.d
	start := len(d.Z)
	d.Z = append(d.Z, v...)
	for range v {
		d.ZLower = append(d.ZLower, lo)
		d.ZUpper = append(d.ZUpper, hi)
	}
	d.ZBlocks = append(d.ZBlocks, VarBlock{Kind: kind, Subsystem: sub, Start: start, Len: len(v)})
	return start
}

func (b *builder) newVars(kind VarKind, sub int, name string, n int, lo, hi float64) (ad.Vec, int) {
	v := b.g.SymVec(name, n)
	return v, b.vars(kind, sub, v, lo, hi)
}

func (b *builder) eqs(kind EqKind, sub int, rows ad.Vec) int {
	d := b.d
	start := len(d.G)
	d.G = append(d.G, rows...)
	d.GBlocks = append(d.GBlocks, EqBlock{Kind: kind, Subsystem: sub, Start: start, Len: len(rows)})
	return start
}

func (b *builder) init(v ad.Vec) { b.d.Init = append(b.d.Init, v...) }

func span(start, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = start + i
	}
	return s
}

// addModes adds Σ_i cols[i]·θ_i to F.
func (b *builder) addModes(cols []ad.Vec, theta ad.Vec) {
	for i, col := range cols {
		for r, e := range col {
			b.d.F[r] = b.d.F[r].Add(e.Mul(theta[i]))
		}
	}
}

func subName(s *Subsystem, k int) string {
	if s.Name != "" {
		return s.Name
	}
	return fmt.Sprint(k)
}

// stewart adds Stewart's DCS (004 eq. 28) for subsystem k.
func (b *builder) stewart(k int, s *Subsystem, ps *prepSub) {
	g := b.g
	n := ps.nBase()
	name := subName(s, k)
	cols := make([]ad.Vec, n)
	for i := range cols {
		if ps.region != nil {
			cols[i] = s.F[ps.region[i]]
		} else {
			cols[i] = s.F[i]
		}
	}
	ind := s.G
	if ind == nil { // g = −Sψ (eq. 26)
		ind = make(ad.Vec, n)
		for i, row := range ps.S {
			e := g.Const(0)
			for j, sj := range row {
				if sj > 0 {
					e = e.Sub(s.Psi[j])
				} else {
					e = e.Add(s.Psi[j])
				}
			}
			ind[i] = e
		}
	}
	inf := math.Inf(1)
	theta, it := b.newVars(Theta, k, "theta_"+name, n, 0, inf)
	lambda, il := b.newVars(Lambda, k, "lambda_"+name, n, 0, inf)
	mu, im := b.newVars(Mu, k, "mu_"+name, 1, -inf, inf)
	stat := make(ad.Vec, n)
	for i := range stat {
		stat[i] = ind[i].Sub(lambda[i]).Add(mu[0])
	}
	gs := b.eqs(Stationarity, k, stat)
	b.eqs(Convexity, k, ad.Vec{ad.Sum(theta).AddConst(-1)})
	pairs := make([]Pair, n)
	for i := range pairs {
		pairs[i] = Pair{Lambda: il + i, Sel: it + i}
		b.d.Equilibration = append(b.d.Equilibration, EquilibrationTerm{Subsystem: k, A: il + i, B: it + i})
	}
	b.d.Comp = append(b.d.Comp, CompGroup{Kind: LambdaTheta, Subsystem: k, Pairs: pairs})
	b.d.BoundaryZ = append(b.d.BoundaryZ, span(il, n)...)
	b.d.BoundaryZ = append(b.d.BoundaryZ, im)
	b.d.BoundaryG = append(b.d.BoundaryG, span(gs, n)...)
	b.addModes(cols, theta)

	// Init: λ = g − min g, μ = −min g, θ spread over the minimizers.
	gmin := ind[0]
	for _, e := range ind[1:] {
		gmin = ad.Min(gmin, e)
	}
	active := make(ad.Vec, n)
	for i := range active {
		active[i] = ad.Le(ind[i], gmin)
	}
	cnt := ad.Sum(active)
	th0 := make(ad.Vec, n)
	l0 := make(ad.Vec, n)
	for i := range th0 {
		th0[i] = active[i].Div(cnt)
		l0[i] = ind[i].Sub(gmin)
	}
	b.init(th0)
	b.init(l0)
	b.init(ad.Vec{gmin.Neg()})
}

// stepOf returns α₀ = 1, 0 or 1/2 for ψ > 0, < 0 or = 0.
func stepOf(g *ad.Graph, psi ad.Expr) ad.Expr {
	zero := g.Const(0)
	return ad.IfElse(ad.Gt(psi, zero), g.Const(1), ad.IfElse(ad.Lt(psi, zero), zero, g.Const(0.5)))
}

// step adds the step DCS (004 eq. 22) for subsystem k, with θ from the
// products (21), from the regions (Table 3) and, if asked, lifted by
// Algorithm 1.
func (b *builder) step(k int, s *Subsystem, ps *prepSub, opt Options) {
	g := b.g
	name := subName(s, k)
	nf := ps.nModes
	inf := math.Inf(1)
	theta, _ := b.newVars(Theta, k, "theta_"+name, nf, -inf, inf)
	alpha := g.SymVec("alpha_"+name, ps.nPsi)
	// θ(α): products per base set, lifted when n_d < nψ.
	nd := opt.LiftDepth
	if nd >= ps.nPsi {
		nd = 0
	}
	var beta, betaDef ad.Vec
	lift := func(stage int, defs ad.Vec) ad.Vec {
		bj := g.SymVec(fmt.Sprintf("beta_%s_%d_", name, stage), len(defs))
		for i := range bj {
			betaDef = append(betaDef, bj[i].Sub(defs[i]))
		}
		beta = append(beta, bj...)
		return bj
	}
	thetaOf := func(alpha ad.Vec, lifted bool, lift func(int, ad.Vec) ad.Vec) ad.Vec {
		depth := 0
		if lifted {
			depth = nd
		}
		prods := liftProducts(g, ps.S, alpha, depth, lift)
		out := make(ad.Vec, nf)
		if ps.region == nil {
			copy(out, prods)
			return out
		}
		if !lifted || depth == 0 {
			for r := range out {
				out[r] = shannon(g, ps.tables[r], alpha)
			}
			return out
		}
		for r := range out {
			out[r] = g.Const(0)
		}
		for i, r := range ps.region {
			out[r] = out[r].Add(prods[i])
		}
		return out
	}
	expr := thetaOf(alpha, true, lift)
	def := make(ad.Vec, nf)
	for i := range def {
		def[i] = theta[i].Sub(expr[i])
	}
	// α, λᵖ, λⁿ (and ᾱ) with the switching rows, then the θ and β rows.
	b.stepKKT(k, s.Psi, alpha, opt)
	b.eqs(ThetaDef, k, def)
	if len(beta) > 0 {
		b.vars(Beta, k, beta, -inf, inf)
		b.eqs(LiftDef, k, betaDef)
	}
	b.addModes(s.F, theta)

	// Init for θ (right after its block, whose init is due first) and β.
	alpha0 := make(ad.Vec, ps.nPsi)
	for j := range alpha0 {
		alpha0[j] = stepOf(g, s.Psi[j])
	}
	var beta0 ad.Vec
	record := func(stage int, defs ad.Vec) ad.Vec {
		beta0 = append(beta0, defs...)
		return defs
	}
	th0 := thetaOf(alpha0, false, nil)
	liftProducts(g, ps.S, alpha0, nd, record)
	b.insertInit(b.thetaStart(k), th0)
	if len(beta) > 0 {
		b.init(beta0)
	}
}

// thetaStart returns the start of the θ block of subsystem k.
func (b *builder) thetaStart(k int) int {
	for _, bl := range b.d.ZBlocks {
		if bl.Kind == Theta && bl.Subsystem == k {
			return bl.Start
		}
	}
	return -1
}

// insertInit places v into Init at position at (Init is filled in Z order;
// θ's init is known only after α's).
func (b *builder) insertInit(at int, v ad.Vec) {
	init := b.d.Init
	out := make(ad.Vec, 0, len(init)+len(v))
	out = append(out, init[:at]...)
	out = append(out, v...)
	out = append(out, init[at:]...)
	b.d.Init = out
}

// stepKKT adds α (given symbols), λᵖ, λⁿ (and ᾱ) with ψ − λᵖ + λⁿ = 0 and
// the pairs λⁿ ⊥ α, λᵖ ⊥ 1 − α (004 eq. 16, 22c–e).
func (b *builder) stepKKT(k int, psi, alpha ad.Vec, opt Options) {
	g := b.g
	n := len(psi)
	inf := math.Inf(1)
	name := "g"
	if k >= 0 {
		name = subName(&b.d.model.Subsystems[k], k)
	}
	ia := b.vars(Alpha, k, alpha, 0, 1)
	lp, ip := b.newVars(LambdaP, k, "lambdap_"+name, n, 0, inf)
	ln, in := b.newVars(LambdaN, k, "lambdan_"+name, n, 0, inf)
	rows := make(ad.Vec, n)
	for j := range rows {
		rows[j] = psi[j].Sub(lp[j]).Add(ln[j])
	}
	gs := b.eqs(Switching, k, rows)
	pn := make([]Pair, n)
	pp := make([]Pair, n)
	for j := 0; j < n; j++ {
		pn[j] = Pair{Lambda: in + j, Sel: ia + j}
		pp[j] = Pair{Lambda: ip + j, Sel: ia + j, OneMinus: true}
		b.d.Equilibration = append(b.d.Equilibration, EquilibrationTerm{Subsystem: k, A: in + j, B: ip + j})
	}
	a0 := make(ad.Vec, n)
	lp0 := make(ad.Vec, n)
	ln0 := make(ad.Vec, n)
	zero := g.Const(0)
	for j := range a0 {
		a0[j] = stepOf(g, psi[j])
		lp0[j] = ad.Max(psi[j], zero)
		ln0[j] = ad.Max(psi[j].Neg(), zero)
	}
	b.init(a0)
	b.init(lp0)
	b.init(ln0)
	b.d.Comp = append(b.d.Comp,
		CompGroup{Kind: LambdaNAlpha, Subsystem: k, Pairs: pn},
		CompGroup{Kind: LambdaPOneMinusAlpha, Subsystem: k, Pairs: pp})
	b.d.BoundaryZ = append(b.d.BoundaryZ, span(ip, n)...)
	b.d.BoundaryZ = append(b.d.BoundaryZ, span(in, n)...)
	b.d.BoundaryG = append(b.d.BoundaryG, span(gs, n)...)
}

// user adds the user algebraic variables and equations.
func (b *builder) user(a Algebraic) {
	b.d.userAt = len(b.d.Z)
	if len(a.Z) == 0 {
		return
	}
	start := b.vars(User, -1, a.Z, math.Inf(-1), math.Inf(1))
	for i := range a.Z {
		if a.Lower != nil {
			b.d.ZLower[start+i] = a.Lower[i]
		}
		if a.Upper != nil {
			b.d.ZUpper[start+i] = a.Upper[i]
		}
		v := 0.0
		if a.Init != nil {
			v = a.Init[i]
		}
		b.d.Init = append(b.d.Init, b.g.Const(v))
	}
	b.eqs(UserEq, -1, a.G)
}

func (b *builder) dims(preps []prepSub) Dims {
	d := b.d
	m := d.model
	dm := Dims{NX: len(m.X), NU: len(m.U), NP: len(m.P), NZ: len(d.Z), NEq: len(d.G)}
	for _, ps := range preps {
		dm.NPsi += ps.nPsi
		dm.NF += ps.nModes
	}
	for _, st := range m.Steps {
		dm.NPsi += len(st.Psi)
	}
	for _, bl := range d.ZBlocks {
		switch bl.Kind {
		case Theta:
			dm.NTheta += bl.Len
		case Alpha:
			dm.NAlpha += bl.Len
		case Beta:
			dm.NBeta += bl.Len
		case Lambda, LambdaP, LambdaN:
			dm.NLambda += bl.Len
		case Mu:
			dm.NMu += bl.Len
		case User:
			dm.NUser += bl.Len
		}
	}
	for _, c := range d.Comp {
		dm.NComp += len(c.Pairs)
	}
	return dm
}

// Args returns the inputs x, u, p, z, t (named "x", "u", "p", "z", "t") in
// the order used by EvalF, EvalG and Residuals; F and G compile against
// them with ad.NewFunction or ad.NewDerivatives.
func (d *DCS) Args() []ad.Arg {
	if d == nil {
		return nil
	}
	return []ad.Arg{ad.A("x", d.X...), ad.A("u", d.U...), ad.A("p", d.P...), ad.A("z", d.Z...), ad.A("t", d.Time)}
}

// Var returns the variables of the given kind of subsystem sub (−1: the
// general steps or the user variables), or nil if there are none.
func (d *DCS) Var(kind VarKind, sub int) ad.Vec {
	bl, ok := d.ZBlock(kind, sub)
	if !ok || bl.Start < 0 || bl.Len < 0 || bl.Start+bl.Len > len(d.Z) {
		return nil
	}
	return d.Z[bl.Start : bl.Start+bl.Len]
}

// ZBlock returns the variable block of the given kind of subsystem sub.
func (d *DCS) ZBlock(kind VarKind, sub int) (VarBlock, bool) {
	if d == nil {
		return VarBlock{}, false
	}
	for _, bl := range d.ZBlocks {
		if bl.Kind == kind && bl.Subsystem == sub {
			return bl, true
		}
	}
	return VarBlock{}, false
}

// GBlock returns the equation block of the given kind of subsystem sub.
func (d *DCS) GBlock(kind EqKind, sub int) (EqBlock, bool) {
	if d == nil {
		return EqBlock{}, false
	}
	for _, bl := range d.GBlocks {
		if bl.Kind == kind && bl.Subsystem == sub {
			return bl, true
		}
	}
	return EqBlock{}, false
}
