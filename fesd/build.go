package fesd

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp/adnlp"
)

// symbolicBuild makes the transcription expand every element symbolically
// instead of evaluating the compiled element template at every element
// (tests compare the two NLPs).
var symbolicBuild = false

// transcription is the FESD NLP of a problem (004 eq. 44–45): N control
// stages of N_FE,k finite elements each, the elements numbered
// consecutively. A simulation step is the one-stage problem with a fixed
// control (the control is then a parameter of the NLP, like x₀, the model
// parameters, t₀ and the step-equilibration targets, so that every step
// only changes numbers).
//
// Its state is split by concern: the grid and the positions of every
// block in the NLP (layout), the formulation that contributes the
// system-specific variables and rows (formulation.go), the NLP in
// expressions while it is built (nlpExprs, rowTags), the expressions of
// the outputs (outExprs), the sensitivity NLP's maps (sensMaps) and the
// compiled NLP (compiled).
type transcription struct {
	*layout
	p     *OCP
	o     *resolved
	d     *dcs.DCS
	g     *ad.Graph
	fixed bool // fixed control (simulation)
	// form is the formulation of d and fv its variable blocks; own, if
	// set, makes it (a system that is not transcribed by its DCS class,
	// whose d is only the shell of its symbols X, U, P, Time; nil: the
	// registered formulation of d.Formulation).
	form formulation
	fv   formVars
	own  func(tr *transcription) formulation
	// sens compiles the sensitivity NLP instead (sensitivity.go): x₀, the
	// fixed control and the model parameters of stage 0 become variables
	// after w (qIdx maps them to their old parameter index), and no output
	// function is made.
	sens bool
	sensMaps
	// isGlob marks the model parameters that are global variables (OCP.V).
	isGlob map[ad.Expr]bool

	nlpExprs
	rowTags
	outExprs
	tmpl *template // the element template (nil: the symbolic build)
	compiled
}

// sensMaps are the parameter maps of the sensitivity NLP.
type sensMaps struct {
	qIdx []int
	pMap []int // old parameter index → index in the sensitivity NLP (−1: a variable)
}

// nlpExprs is the NLP in expressions (all but the variables and their
// bounds dropped after compile).
type nlpExprs struct {
	w      ad.Vec
	wl, wu []float64 // bounds of the variables (kept: the base of every solve's bounds)
	c      ad.Vec
	cl, cu []float64
	obj    ad.Expr
	params ad.Vec
	pvals  []float64 // default parameter values
}

// rowTags are what the builder records about the rows beside their
// expressions: the ConstraintGroup of every row (cgroup; grp that of the
// rows being added), its control stage (cstageK, −1: none; grpK that of
// the rows being added), the running stage number of the KKT ordering
// hint (cur), and the variables and rows put last in that ordering.
type rowTags struct {
	cur     int
	late    []int
	lateC   []int
	cgroup  []ConstraintGroup
	grp     ConstraintGroup
	cstageK []int
	grpK    int
}

// outExprs are the expressions of the outputs and of what the builder
// passes between stages (dropped after compile).
type outExprs struct {
	xbE    []ad.Vec // boundary states x_0 … x_NE
	stageX [][]ad.Vec
	tbE    []ad.Expr // element boundary times
	hE     []ad.Expr
	uE     []ad.Vec // per stage: control variables or parameters
	pk     []ad.Vec // per stage: the values substituted for the model's P
	sE     []ad.Expr
	tfE    ad.Expr
	href   ad.Vec
	equilE ad.Expr // the step-equilibration term of the objective
}

// compiled is the compiled NLP and output function.
type compiled struct {
	numW, numC int
	prob       *adnlp.Problem
	out        *ad.Function
	outW       *ad.Workspace
}

// newTranscription builds and compiles the NLP of p (validated) for the
// reformulated model d, in d's graph: p's expressions are translated there
// first (OCP.importInto; tr.p is the translated problem). With fixed the controls are parameters (a
// simulation step); p.UL, p.UU, costs on the control are then meaningless
// and must be absent.
func newTranscription(p *OCP, d *dcs.DCS, o *resolved, fixed bool) (*transcription, error) {
	p = p.importInto(d)
	L := newLayout(d, o.Stages, p.N, p.T, func(k int) int { return p.nfe(k, o.NFE) })
	return buildTranscription(&transcription{layout: L, p: p, o: o, d: d, g: d.Graph, fixed: fixed, isGlob: map[ad.Expr]bool{}})
}

// buildTranscription builds and compiles tr (its layout and inputs set)
// with the formulation of tr.d.
func buildTranscription(tr *transcription) (*transcription, error) {
	form, err := newFormulation(tr)
	if err != nil {
		return nil, err
	}
	if err := form.check(); err != nil {
		return nil, err
	}
	tr.form, tr.fv = form, form.vars()
	if err := tr.build(); err != nil {
		return nil, err
	}
	if err := tr.g.Err(); err != nil {
		return nil, err
	}
	if err := tr.compile(); err != nil {
		return nil, err
	}
	return tr, nil
}

func (tr *transcription) newVar(name string, lo, hi float64, info varInfo, stage int) ad.Expr {
	v := tr.g.Sym(name)
	tr.addVar(v, lo, hi, info, stage)
	return v
}

func (tr *transcription) addVar(v ad.Expr, lo, hi float64, info varInfo, stage int) {
	tr.w = append(tr.w, v)
	tr.wl = append(tr.wl, lo)
	tr.wu = append(tr.wu, hi)
	tr.winfo = append(tr.winfo, info)
	tr.wstage = append(tr.wstage, stage)
}

func (tr *transcription) addEq(e ad.Expr, stage int) { tr.addCon(e, 0, 0, stage) }

func (tr *transcription) addCon(e ad.Expr, lo, hi float64, stage int) {
	tr.c = append(tr.c, e)
	tr.cl = append(tr.cl, lo)
	tr.cu = append(tr.cu, hi)
	tr.cstage = append(tr.cstage, stage)
	tr.cgroup = append(tr.cgroup, tr.grp)
	tr.cstageK = append(tr.cstageK, tr.grpK)
}

// newParam adds a parameter symbol with default value v and returns it.
func (tr *transcription) newParam(name string, v float64) ad.Expr {
	s := tr.g.Sym(name)
	tr.params = append(tr.params, s)
	tr.pvals = append(tr.pvals, v)
	return s
}

// pathComp is a path complementarity with its expressions fixed.
type pathComp struct {
	G, H ad.Vec
	At   Where
}

// build makes the NLP in expressions (tr.w, tr.c, tr.obj and the
// outputs), step by step (buildsteps.go): the order of the steps is the
// order of the variables, of the rows and of the expressions' construction.
func (tr *transcription) build() error {
	bs := &buildState{}
	tr.buildParams(bs)
	tr.buildGlobals(bs)
	if err := tr.buildStart(bs); err != nil {
		return err
	}
	for k := 0; k < tr.N; k++ {
		if err := tr.buildStage(bs, k); err != nil {
			return err
		}
	}
	tr.buildHorizon(bs)
	defer func() { tr.grp = GroupDynamics }()
	if err := tr.buildTerminal(bs); err != nil {
		return err
	}
	tr.buildFinish(bs)
	return nil
}

// stageStates returns the states and times at the stage points of an
// element starting at t_n with state x_n and length h: the stage variables
// themselves in the integral representation, x_n + h Σ_r a_mr v_r in the
// differential one (Xv then holds the stage derivatives v_r).
func stageStates(c []float64, A [][]float64, rep Representation, xn ad.Vec, Xv []ad.Vec, tn, h ad.Expr) ([]ad.Vec, []ad.Expr) {
	ns := len(Xv)
	xs := make([]ad.Vec, ns)
	ts := make([]ad.Expr, ns)
	for m := 0; m < ns; m++ {
		ts[m] = tn.Add(h.Scale(c[m]))
		if rep == Integral {
			xs[m] = Xv[m]
			continue
		}
		xs[m] = make(ad.Vec, len(xn))
		for i := range xn {
			acc := h.Graph().Const(0)
			for r := 0; r < ns; r++ {
				if a := A[m][r]; a != 0 {
					acc = acc.Add(Xv[r][i].Scale(a))
				}
			}
			xs[m][i] = xn[i].Add(h.Mul(acc))
		}
	}
	return xs, ts
}

// addPathComps lifts the path complementarities at one point: new
// variables a = G, b = H with a, b ≥ 0 and the pair a ⊥ b.
func (tr *transcription) addPathComps(pcs []pathComp, x ad.Vec, k int, z ad.Vec, t ad.Expr, st int, at Where) error {
	inf := math.Inf(1)
	for _, c := range pcs {
		if c.At != at {
			continue
		}
		GH, err := tr.subst(ad.Concat(c.G, c.H), x, k, z, t)
		if err != nil {
			return err
		}
		nG := len(c.G)
		for i := 0; i < nG; i++ {
			ia := len(tr.w)
			a := tr.newVar("ocp_pcg", 0, inf, varInfo{vPC, 0, 0, 0}, st)
			hb := tr.newVar("ocp_pch", 0, inf, varInfo{vPC, 0, 0, 1}, st)
			tr.addEq(a.Sub(GH[i]), st)
			tr.addEq(hb.Sub(GH[nG+i]), st)
			tr.addComp(-1, mpcc.Pair(ia, ia+1))
		}
	}
	return nil
}

// bnd returns bound i of optional bound vectors.
func bnd(lo, hi []float64, i int) (float64, float64) {
	l, u := math.Inf(-1), math.Inf(1)
	if lo != nil {
		l = lo[i]
	}
	if hi != nil {
		u = hi[i]
	}
	return l, u
}

// quad returns (x − r)ᵀ Q (x − r) (r nil: zero).
func quad(g *ad.Graph, x ad.Vec, r []float64, Q [][]float64) ad.Expr {
	e := make(ad.Vec, len(x))
	for i := range x {
		e[i] = x[i]
		if r != nil {
			e[i] = x[i].AddConst(-r[i])
		}
	}
	s := g.Const(0)
	for i := range e {
		for j := range e {
			if q := Q[i][j]; q != 0 {
				if i == j {
					s = s.Add(ad.Sq(e[i]).Scale(q))
				} else {
					s = s.Add(e[i].Mul(e[j]).Scale(q))
				}
			}
		}
	}
	return s
}

// subst instantiates user expressions at a point: the states x, the
// control and parameters of stage k, the algebraic variables z (nil at
// element boundaries), the numerical time t and T_f.
func (tr *transcription) subst(e ad.Vec, x ad.Vec, k int, z ad.Vec, t ad.Expr) (ad.Vec, error) {
	return tr.substAt(e, x, tr.uE[k], tr.pk[k], z, t, tr.tfE)
}

// bounds returns the bounds of row i of c: L[i] ≤ G_i ≤ U[i], or G_i = 0
// without bounds.
func (c Constraint) bounds(i int) (lo, hi float64) {
	if c.L != nil {
		return c.L[i], c.U[i]
	}
	return 0, 0
}

func (tr *transcription) addConstraint(c Constraint, x ad.Vec, k int, z ad.Vec, t ad.Expr, st int) error {
	G, err := tr.subst(c.G, x, k, z, t)
	if err != nil {
		return fmt.Errorf("fesd: constraint: %w", err)
	}
	for i, e := range G {
		lo, hi := c.bounds(i)
		tr.addCon(e, lo, hi, st)
	}
	return nil
}

// eta returns the formulation's switch indicator η_n at the boundary
// between elements n−1 and n (004 §4.4).
func (tr *transcription) eta(n int) ad.Expr { return tr.form.indicator(n) }

// equilibration returns the step-equilibration objective and adds the
// constraints of Direct, within every control stage (004 §4.4, eq. 39).
func (tr *transcription) equilibration() ad.Expr {
	g := tr.g
	obj := g.Const(0)
	if tr.o.DisableFESD {
		return obj
	}
	rho := tr.o.RhoH
	inf := math.Inf(1)
	for n := 0; n < tr.NE; n++ {
		k := tr.stageOf[n]
		first := n == tr.elemStart[k]
		h := tr.hE[n]
		switch tr.o.StepEquilibration {
		case HeuristicMean:
			obj = obj.Add(ad.Sq(h.Sub(tr.href[n])).Scale(rho))
		case HeuristicDiff:
			if !first {
				obj = obj.Add(ad.Sq(h.Sub(tr.hE[n-1])).Scale(rho))
			}
		case L2Relaxed:
			if !first {
				obj = obj.Add(tr.eta(n).Mul(ad.Sq(h.Sub(tr.hE[n-1]))).Scale(rho))
			}
		case L2RelaxedScaled:
			if !first {
				w := ad.Tanh(tr.eta(n).Scale(1 / tr.o.sigmaSE))
				obj = obj.Add(w.Mul(ad.Sq(h.Sub(tr.hE[n-1]))).Scale(rho))
			}
		case Direct:
			// η_n·Δh_n = 0 (004 eq. 39) as the complementarity
			// 0 ≤ η_n ⊥ (Δh⁺, Δh⁻) ≥ 0 with Δh = Δh⁺ − Δh⁻, relaxed by the
			// homotopy like the other complementarities: the plain
			// equality is infeasible for σ > 0, where η_n > 0 at a switch
			// too.
			if !first {
				st := tr.wstage[tr.h[n]]
				e := tr.newVar("fesd_eta", 0, inf, varInfo{vAux, n, 0, 0}, st)
				dp := tr.newVar("fesd_dhp", 0, inf, varInfo{vAux, n, 0, 1}, st)
				dm := tr.newVar("fesd_dhm", 0, inf, varInfo{vAux, n, 0, 2}, st)
				tr.addEq(e.Sub(tr.eta(n)), st)
				tr.addEq(dp.Sub(dm).Sub(h.Sub(tr.hE[n-1])), st)
				i := len(tr.w)
				tr.addComp(n, mpcc.Pair(i-3, i-2), mpcc.Pair(i-3, i-1))
			}
		}
	}
	return obj
}

// compile builds the NLP and the output function, then drops the
// expressions.
func (tr *transcription) compile() error {
	if tr.sens {
		return tr.compileSens()
	}
	spec := adnlp.Spec{
		X: tr.w, XL: tr.wl, XU: tr.wu,
		F: tr.obj, G: tr.c, GL: tr.cl, GU: tr.cu,
		P: tr.params, PV: tr.pvals,
		VarStage: tr.wstage, ConStage: tr.cstage,
		JacobianMode: ad.Reverse,
	}
	if tr.tmpl != nil {
		spec.Blocks = []adnlp.Block{tr.tmpl.block}
	}
	prob, err := adnlp.New(spec)
	if err != nil {
		return fmt.Errorf("fesd: compiling the FESD NLP (expressions may use only the model's X, U, P, Time, the OCP's V and HorizonSym, and Z at stage points): %w", err)
	}
	tr.prob = prob
	var xb, xs, tb ad.Vec
	for n := 0; n <= tr.NE; n++ {
		xb = append(xb, tr.xbE[n]...)
		tb = append(tb, tr.tbE[n])
	}
	for n := 0; n < tr.NE; n++ {
		for m := 0; m < tr.ns; m++ {
			xs = append(xs, tr.stageX[n][m]...)
		}
	}
	out, err := ad.NewFunction("fesd_out",
		[]ad.Arg{{Name: "w", V: tr.w}, {Name: "p", V: tr.params}},
		[]ad.Arg{{Name: "xb", V: xb}, {Name: "xs", V: xs}, {Name: "tb", V: tb}, {Name: "h", V: tr.hE},
			{Name: "equil", V: ad.Vec{tr.equilE}}, {Name: "tf", V: ad.Vec{tr.tfE}}, {Name: "s", V: tr.sE}})
	if err != nil {
		return fmt.Errorf("fesd: compiling the output function: %w", err)
	}
	tr.out = out
	tr.outW = out.NewWorkspace()
	tr.numW, tr.numC = len(tr.w), len(tr.c)
	tr.c, tr.cl, tr.cu = nil, nil, nil
	tr.xbE, tr.stageX, tr.tbE, tr.hE, tr.uE, tr.pk, tr.sE = nil, nil, nil, nil, nil, nil, nil
	tr.obj, tr.equilE, tr.tmpl = ad.Expr{}, ad.Expr{}, nil
	return nil
}

// outputs are the values of the output function at a solution.
type outputs struct {
	xb, xs, tb, h []float64
	cost, obj, tf float64
	s             []float64
}

func (tr *transcription) outputs(w, pv []float64) (*outputs, error) {
	o := &outputs{
		xb: make([]float64, (tr.NE+1)*tr.nx),
		xs: make([]float64, tr.NE*tr.ns*tr.nx),
		tb: make([]float64, tr.NE+1),
		h:  make([]float64, tr.NE),
		s:  make([]float64, tr.N),
	}
	eq, tf := make([]float64, 1), make([]float64, 1)
	if err := tr.out.Eval(tr.outW, [][]float64{w, pv}, [][]float64{o.xb, o.xs, o.tb, o.h, eq, tf, o.s}); err != nil {
		return nil, err
	}
	if err := tr.prob.SetParams(pv); err != nil {
		return nil, err
	}
	obj, err := tr.prob.Objective(w)
	if err != nil {
		return nil, err
	}
	o.obj, o.cost, o.tf = obj, obj-eq[0], tf[0]
	return o, nil
}

func clone(v []float64) []float64 { return append([]float64(nil), v...) }

func clone2(v []int) []int { return append([]int(nil), v...) }

// elemIn are the inputs of the rows of one finite element: expressions of
// the NLP (symbolic build) or the local symbols of the element template.
type elemIn struct {
	h, s, tn, tf ad.Expr
	xn, xe       ad.Vec
	u, p         ad.Vec
	X            []ad.Vec   // [m]
	start        []ad.Vec   // [b] the formulation's element-start blocks
	pt           [][]ad.Vec // [m][b] its stage-point blocks
	end          []ad.Vec   // [b] its element-end blocks
	pc           []ad.Vec   // [m]: the lifted path-complementarity variables a, b of every pair
	// the first index in w of every block (NLP variables only)
	startAt, endAt []int
	ptAt           [][]int
	pcAt           int
}

// z returns the values of the DCS's algebraic variables at stage point m:
// the formulation's first stage-point block (nil: none).
func (ev *elemIn) z(m int) ad.Vec {
	if len(ev.pt[m]) == 0 {
		return nil
	}
	return ev.pt[m][0]
}

// blockVars creates the variables of blocks at one place (element n, stage
// point m, stage hint st) and returns them with the first index of every
// block.
func (tr *transcription) blockVars(blocks []varBlock, n, m, st int) ([]ad.Vec, []int) {
	vs, first := make([]ad.Vec, len(blocks)), make([]int, len(blocks))
	for b, blk := range blocks {
		first[b] = len(tr.w)
		vs[b] = make(ad.Vec, len(blk.lo))
		for i := range vs[b] {
			vs[b][i] = tr.newVar(blk.name, blk.lo[i], blk.hi[i], varInfo{blk.kind, n, m, i}, st)
		}
	}
	return vs, first
}

// elementVars creates the variables of element n after its step size:
// the formulation's element-start blocks, at every stage point the stage
// state (or derivative) and the formulation's blocks, the lifted path
// complementarities at the stage points, the end state and the
// formulation's element-end blocks.
func (tr *transcription) elementVars(n, base int, last bool, pcs []pathComp) elemIn {
	p, o := tr.p, tr.o
	nx, ns := tr.nx, tr.ns
	inf := math.Inf(1)
	ev := elemIn{X: make([]ad.Vec, ns), pt: make([][]ad.Vec, ns), ptAt: make([][]int, ns), pc: make([]ad.Vec, ns)}
	ev.start, ev.startAt = tr.blockVars(tr.fv.elemStart, n, 0, base)
	tr.form.placed(atElemStart, n, 0, ev.startAt)
	tr.x[n] = make([]int, ns)
	for m := 0; m < ns; m++ {
		st := base + m
		tr.x[n][m] = len(tr.w)
		ev.X[m] = make(ad.Vec, nx)
		for i := 0; i < nx; i++ {
			lo, hi := math.Inf(-1), inf
			if p.XBoundsAt == AtStagePoints && o.Representation == Integral {
				lo, hi = bnd(p.XL, p.XU, i)
			}
			ev.X[m][i] = tr.newVar("fesd_x", lo, hi, varInfo{vX, n, m, i}, st)
		}
		ev.pt[m], ev.ptAt[m] = tr.blockVars(tr.fv.point, n, m, st)
		tr.form.placed(atStagePoint, n, m, ev.ptAt[m])
	}
	ev.pcAt = len(tr.w)
	for m := 0; m < ns; m++ {
		for _, c := range pcs {
			if c.At != AtStagePoints {
				continue
			}
			for range c.G {
				ia := len(tr.w)
				a := tr.newVar("ocp_pcg", 0, inf, varInfo{vPC, 0, 0, 0}, base+m)
				b := tr.newVar("ocp_pch", 0, inf, varInfo{vPC, 0, 0, 1}, base+m)
				ev.pc[m] = append(ev.pc[m], a, b)
				tr.addComp(-1, mpcc.Pair(ia, ia+1))
			}
		}
	}
	st := base + ns
	tr.xb[n] = len(tr.w)
	ev.xe = make(ad.Vec, nx)
	for i := 0; i < nx; i++ {
		lo, hi := math.Inf(-1), inf
		if p.XBoundsAt != AtStageEnds || last {
			lo, hi = bnd(p.XL, p.XU, i)
		}
		ev.xe[i] = tr.newVar("fesd_xb", lo, hi, varInfo{vXB, n, 0, i}, st)
	}
	ev.end, ev.endAt = tr.blockVars(tr.fv.elemEnd, n, 0, st)
	tr.form.placed(atElemEnd, n, 0, ev.endAt)
	return ev
}

// elementRows emits the rows of one element in the order of the NLP, with
// their stage hint relative to the element's first stage: the
// formulation's rows at the element's start (none for a DCS); at every
// stage point the Runge–Kutta equations (004 eq. 33, or the integral form)
// with the formulation's right-hand side, the formulation's rows there
// (the algebraic equations of the DCS, the slacks 1 − α), the state bounds
// of the differential representation, the path constraints and the lifted
// path complementarities at stage points; then the end state and the
// formulation's rows at the element's end (the boundary equations of 004
// eq. 42–43). It returns the running-cost term of the element,
// h·s·Σ_m b_m L(x_m, …) (the zero Expr: none).
func (tr *transcription) elementRows(ev elemIn, pcs []pathComp, lag ad.Expr, emit func(e ad.Expr, lo, hi float64, st int)) (ad.Expr, error) {
	o := tr.o
	er := &elemRows{tr: tr, ev: ev, pcs: pcs, lag: lag, emit: emit}
	rows, err := tr.form.jump(&ev)
	if err != nil {
		return ad.Expr{}, err
	}
	er.rows(rows, 0)
	xn := tr.form.start(&ev)
	er.ev.xn = xn
	er.xs, er.ts = stageStates(o.tab.C, o.tab.A, o.Representation, xn, ev.X, ev.tn, ev.h)
	er.lagSum = tr.g.Const(0)
	for m := 0; m < tr.ns; m++ {
		if err := er.stagePoint(m); err != nil {
			return ad.Expr{}, err
		}
	}
	er.endState()
	if rows, err = tr.form.end(&er.ev); err != nil {
		return ad.Expr{}, err
	}
	er.rows(rows, tr.ns)
	if !lag.IsValid() {
		return ad.Expr{}, nil
	}
	return ev.h.Mul(ev.s).Mul(er.lagSum), nil
}

// template is the element function of the compiled build: the rows and
// the running cost of one element in local symbols (elemIn), compiled once
// by nlp/adnlp and evaluated at every element (adnlp.Block).
type template struct {
	in    elemIn
	syms  ad.Vec    // the local symbols, in the order of the block's inputs
	rows  []tmplRow // the element's rows
	block adnlp.Block
}

type tmplRow struct {
	lo, hi float64
	st     int // stage hint relative to the element's first stage
}

// newTemplate builds the element template in the DCS's graph.
func (tr *transcription) newTemplate(pcs []pathComp, lag ad.Expr) (*template, error) {
	g := tr.g
	nx, ns := tr.nx, tr.ns
	t := &template{}
	in := &t.in
	sym := func(name string) ad.Expr {
		s := g.Sym(name)
		t.syms = append(t.syms, s)
		return s
	}
	vec := func(name string, n int) ad.Vec {
		v := make(ad.Vec, n)
		for i := range v {
			v[i] = sym(name)
		}
		return v
	}
	npc := 0
	for _, c := range pcs {
		if c.At == AtStagePoints {
			npc += 2 * len(c.G)
		}
	}
	blocks := func(bs []varBlock) []ad.Vec {
		v := make([]ad.Vec, len(bs))
		for b, blk := range bs {
			v[b] = vec(blk.tmpl, len(blk.lo))
		}
		return v
	}
	in.h = sym("tmpl_h")
	in.xn = vec("tmpl_xn", nx)
	in.start = blocks(tr.fv.elemStart)
	in.X, in.pt, in.pc = make([]ad.Vec, ns), make([][]ad.Vec, ns), make([]ad.Vec, ns)
	for m := 0; m < ns; m++ {
		in.X[m] = vec("tmpl_x", nx)
		in.pt[m] = blocks(tr.fv.point)
		in.pc[m] = vec("tmpl_pc", npc)
	}
	in.xe = vec("tmpl_xe", nx)
	in.end = blocks(tr.fv.elemEnd)
	in.u = vec("tmpl_u", tr.nu)
	in.p = vec("tmpl_p", tr.np)
	in.s = sym("tmpl_s")
	in.tn = sym("tmpl_t")
	in.tf = sym("tmpl_tf")
	var G ad.Vec
	F, err := tr.elementRows(*in, pcs, lag, func(e ad.Expr, lo, hi float64, st int) {
		G = append(G, e)
		t.rows = append(t.rows, tmplRow{lo, hi, st})
	})
	if err != nil {
		return nil, err
	}
	t.block = adnlp.Block{Name: "fesd_element", In: t.syms, G: G, F: F}
	return t, nil
}

// instance adds element n of stage k (its ln-th) to the template's block:
// placeholder rows in the NLP and the affine maps of the template's inputs
// (the element's variables, then those of its stage).
func (tr *transcription) instance(n, k, ln, base int, ev elemIn) {
	t := tr.tmpl
	ins := tr.elementInputs(make([]adnlp.Affine, 0, len(t.syms)), n, k, ev)
	ins = tr.stageInputs(ins, n, k)
	rows := make([]int, len(t.rows))
	for i, r := range t.rows {
		rows[i] = len(tr.c)
		tr.addCon(ad.Expr{}, r.lo, r.hi, base+r.st)
	}
	t.block.Instances = append(t.block.Instances, adnlp.Instance{In: ins, Rows: rows})
}

// elementInputs appends the template inputs of element n's own variables:
// h (a constant without FESD), x_n (the parameters x₀ for n = 0), the
// formulation's element-start blocks, at every stage point the stage
// state, the formulation's blocks and the lifted path complementarities,
// the end state and the formulation's element-end blocks.
func (tr *transcription) elementInputs(ins []adnlp.Affine, n, k int, ev elemIn) []adnlp.Affine {
	vars := func(first, cnt int) {
		for i := 0; i < cnt; i++ {
			ins = append(ins, adnlp.Var(first+i))
		}
	}
	if !tr.o.DisableFESD {
		ins = append(ins, adnlp.Var(tr.h[n]))
	} else {
		ins = append(ins, adnlp.Const(tr.h0[k]))
	}
	if n == 0 {
		for i := 0; i < tr.nx; i++ {
			ins = append(ins, adnlp.Param(tr.px0+i))
		}
	} else {
		vars(tr.xb[n-1], tr.nx)
	}
	for b, blk := range tr.fv.elemStart {
		vars(ev.startAt[b], len(blk.lo))
	}
	npc := len(ev.pc[0])
	for m := 0; m < tr.ns; m++ {
		vars(tr.x[n][m], tr.nx)
		for b, blk := range tr.fv.point {
			vars(ev.ptAt[m][b], len(blk.lo))
		}
		vars(ev.pcAt+m*npc, npc)
	}
	vars(tr.xb[n], tr.nx)
	for b, blk := range tr.fv.elemEnd {
		vars(ev.endAt[b], len(blk.lo))
	}
	return ins
}

// stageInputs appends the template inputs that element n takes from its
// stage k: the control (parameters of a simulation step), the model
// parameters (or the global variables that replace them), the speed of
// time, the start time t_n = t₀ + τ_k + Σ h of the stage's earlier
// elements, and T_f.
func (tr *transcription) stageInputs(ins []adnlp.Affine, n, k int) []adnlp.Affine {
	for i := 0; i < tr.nu; i++ {
		if tr.fixed {
			ins = append(ins, adnlp.Param(tr.pu[k]+i))
		} else {
			ins = append(ins, adnlp.Var(tr.u[k]+i))
		}
	}
	for i := 0; i < tr.np; i++ {
		if j := tr.pp[k][i]; j >= 0 {
			ins = append(ins, adnlp.Param(j))
			continue
		}
		for j, v := range tr.p.V {
			if v == tr.d.P[i] {
				ins = append(ins, adnlp.Var(tr.v+j))
			}
		}
	}
	switch {
	case tr.sot[k] >= 0:
		ins = append(ins, adnlp.Var(tr.sot[k]))
	case tr.sotG >= 0:
		ins = append(ins, adnlp.Var(tr.sotG))
	default:
		ins = append(ins, adnlp.Const(1))
	}
	tn := adnlp.Param(tr.pt0)
	if k > 0 {
		tn.Const = tr.tau[k]
	}
	for j := tr.elemStart[k]; j < n; j++ {
		if !tr.o.DisableFESD {
			tn.Vars = append(tn.Vars, tr.h[j])
			tn.VarCoef = append(tn.VarCoef, 1)
		} else {
			tn.Const += tr.h0[k]
		}
	}
	return append(ins, tn, tr.tfAffine())
}

// tfAffine returns T_f as an affine map of the speed-of-time variables.
func (tr *transcription) tfAffine() adnlp.Affine {
	T := tr.p.T
	switch {
	case tr.sotG >= 0:
		return adnlp.Affine{Vars: []int{tr.sotG}, VarCoef: []float64{T}}
	case tr.sot[0] >= 0:
		a := adnlp.Affine{}
		for k := range tr.sot {
			a.Vars = append(a.Vars, tr.sot[k])
			a.VarCoef = append(a.VarCoef, T/float64(tr.N))
		}
		return a
	}
	return adnlp.Const(T)
}

// substAt instantiates user expressions at a point: the states x, the
// control u and parameters p, the algebraic variables z (nil at element
// boundaries), the numerical time t and T_f.
func (tr *transcription) substAt(e, x, u, p, z ad.Vec, t, tf ad.Expr) (ad.Vec, error) {
	d := tr.d
	from := ad.Concat(d.X, d.U, d.P, ad.Vec{d.Time})
	to := ad.Concat(x, u, p, ad.Vec{t})
	if z != nil && len(d.Z) > 0 { // a formulation of its own (FESD-J) has no d.Z
		from = append(from, d.Z...)
		to = append(to, z...)
	}
	if tr.p.HorizonSym.IsValid() {
		from = append(from, tr.p.HorizonSym)
		to = append(to, tf)
	}
	return ad.Substitute(e, from, to)
}
