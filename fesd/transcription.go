package fesd

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/rk"
)

// varKind tells what an NLP variable of the transcription stands for (used
// to build starting points).
type varKind uint8

const (
	vStart varKind = iota // λ-type boundary variable at the start (fixed by bounds)
	vH                    // step size h_n
	vX                    // integral: stage state x_{n,m}; differential: stage derivative v_{n,m}
	vZ                    // stage algebraic variable z_{n,m}
	vSlack                // 1 − α of a OneMinus pair at a stage
	vXB                   // boundary state x_{n+1}
	vZB                   // boundary variable (BoundaryZ) at the end of element n (c_{n_s} ≠ 1)
	vAux                  // auxiliary variable of the Direct step equilibration (start 0)
)

type varInfo struct {
	kind    varKind
	n, m, i int
}

// transcription is the FESD NLP of one control interval [t₀, t₀ + T] with
// N_FE finite elements (004 §4, eq. 40–43), built symbolically in the
// model's graph with parameters (x₀, u, p, t₀, T).
type transcription struct {
	o  *resolved
	d  *dcs.DCS
	g  *ad.Graph
	N  int
	ns int
	nx int
	nz int

	// NLP in expressions
	w      ad.Vec
	wl, wu []float64
	winfo  []varInfo
	wstage []int
	c      ad.Vec
	cl, cu []float64
	cstage []int
	obj    ad.Expr
	comp   []mpcc.Complementarity
	// compElem is the finite element of every term of comp (−1: terms
	// bound to no element, such as path complementarities).
	compElem []int

	// parameters
	x0s      ad.Vec
	t0s, Ts  ad.Expr
	params   ad.Vec
	hRef     ad.Vec // per-element targets of HeuristicMean (nil otherwise)
	nu, np   int
	bzPos    map[int]int // z index → position in BoundaryZ
	slackPos map[[2]int]int

	// index maps into w (−1 when absent)
	startIdx int     // first of len(BoundaryZ) start variables
	hIdx     []int   // per element
	xIdx     [][]int // [n][m]: first of nx stage variables (X or V)
	zIdx     [][]int // [n][m]: first of nz
	slIdx    [][]int // [n][m]: first of the slack variables
	xbIdx    []int   // [n]: first of nx variables x_{n+1}
	zbIdx    []int   // [n]: first of len(BoundaryZ) (rbp only)

	// expressions for the outputs
	xbE    []ad.Vec   // boundary states x_0 … x_N
	stageX [][]ad.Vec // [n][m]
	stageT [][]ad.Expr
	tbE    []ad.Expr // t_0 … t_N
	hE     []ad.Expr

	// compiled
	prob paramNLP
	out  *ad.Function
	outW *ad.Workspace
}

// newTranscription builds the NLP of one control interval for d.
func newTranscription(d *dcs.DCS, o *resolved) (*transcription, error) {
	tr := &transcription{
		o: o, d: d, g: d.Graph, N: o.NFE, ns: o.Stages,
		nx: len(d.X), nz: len(d.Z), nu: len(d.U), np: len(d.P),
		bzPos: map[int]int{}, slackPos: map[[2]int]int{},
		startIdx: -1,
	}
	g := tr.g
	fesd := !o.DisableFESD
	tr.x0s = g.SymVec("fesd_x0", tr.nx)
	tr.t0s = g.Sym("fesd_t0")
	tr.Ts = g.Sym("fesd_T")
	tr.params = ad.Concat(tr.x0s, d.U, d.P, ad.Vec{tr.t0s, tr.Ts})
	if fesd && o.StepEquilibration == HeuristicMean {
		// Targets of the heuristic-mean equilibration, h₀ = T/N_FE unless
		// a predicted grid replaces them (Simulator.Predict).
		tr.hRef = g.SymVec("fesd_href", tr.N)
		tr.params = append(tr.params, tr.hRef...)
	}

	for i, zi := range d.BoundaryZ {
		tr.bzPos[zi] = i
	}
	for gi, grp := range d.Comp {
		for pi, pr := range grp.Pairs {
			if _, ok := tr.bzPos[pr.Lambda]; !ok && fesd {
				return nil, fmt.Errorf("%w: multiplier z[%d] of pair %d of group %d is not a boundary variable", ErrStructure, pr.Lambda, pi, gi)
			}
			if pr.OneMinus {
				tr.slackPos[[2]int{gi, pi}] = len(tr.slackPos)
			}
		}
	}
	nb := len(d.BoundaryZ)
	inf := math.Inf(1)

	// Start variables: the boundary variables at t₀ (λ₀₀ of eq. 36), fixed
	// by bounds to their values at x₀ (eq. 17) before each solve.
	if fesd && nb > 0 {
		tr.startIdx = len(tr.w)
		for i := 0; i < nb; i++ {
			tr.newVar("fesd_z00", 0, 0, varInfo{vStart, 0, 0, i}, 0)
		}
	}
	N, ns, nx, nz := tr.N, tr.ns, tr.nx, tr.nz
	tr.hIdx = make([]int, N)
	tr.xIdx = make([][]int, N)
	tr.zIdx = make([][]int, N)
	tr.slIdx = make([][]int, N)
	tr.xbIdx = make([]int, N)
	tr.zbIdx = make([]int, N)
	tr.xbE = make([]ad.Vec, N+1)
	tr.stageX = make([][]ad.Vec, N)
	tr.stageT = make([][]ad.Expr, N)
	tr.tbE = make([]ad.Expr, N+1)
	tr.hE = make([]ad.Expr, N)
	tr.xbE[0] = tr.x0s
	tr.tbE[0] = tr.t0s
	h0 := tr.Ts.Scale(1 / float64(N))
	tab := o.tab
	from := ad.Concat(d.X, d.Z, ad.Vec{d.Time})
	fg := ad.Concat(d.F, d.G)

	for n := 0; n < N; n++ {
		st := n + 1
		// step size
		var h ad.Expr
		if fesd {
			tr.hIdx[n] = len(tr.w)
			h = tr.newVar("fesd_h", 0, inf, varInfo{vH, n, 0, 0}, st)
		} else {
			tr.hIdx[n] = -1
			h = h0
		}
		tr.hE[n] = h
		tn := tr.tbE[n]
		xn := tr.xbE[n]
		// stage unknowns
		tr.xIdx[n] = make([]int, ns)
		tr.zIdx[n] = make([]int, ns)
		tr.slIdx[n] = make([]int, ns)
		Xv := make([]ad.Vec, ns)
		Zv := make([]ad.Vec, ns)
		for m := 0; m < ns; m++ {
			tr.xIdx[n][m] = len(tr.w)
			Xv[m] = make(ad.Vec, nx)
			for i := 0; i < nx; i++ {
				Xv[m][i] = tr.newVar("fesd_x", -inf, inf, varInfo{vX, n, m, i}, st)
			}
			tr.zIdx[n][m] = len(tr.w)
			Zv[m] = make(ad.Vec, nz)
			for i := 0; i < nz; i++ {
				Zv[m][i] = tr.newVar("fesd_z", d.ZLower[i], d.ZUpper[i], varInfo{vZ, n, m, i}, st)
			}
			tr.slIdx[n][m] = len(tr.w)
			for q := 0; q < len(tr.slackPos); q++ {
				tr.newVar("fesd_s", 0, inf, varInfo{vSlack, n, m, q}, st)
			}
		}
		// stage states and times
		xs, ts := stageStates(tab, o.Representation, xn, Xv, tn, h)
		tr.stageX[n] = xs
		tr.stageT[n] = ts
		// RK and algebraic equations at every stage
		for m := 0; m < ns; m++ {
			to := ad.Concat(xs[m], Zv[m], ad.Vec{ts[m]})
			sub, err := ad.Substitute(fg, from, to)
			if err != nil {
				return nil, fmt.Errorf("fesd: instantiating the DCS at element %d stage %d: %w", n, m, err)
			}
			f, gz := sub[:nx], sub[nx:]
			for i := 0; i < nx; i++ {
				var row ad.Expr
				if o.Representation == Integral {
					// h f(x_m) − Σ_r C_rm x_r = 0, x_0 = x_n
					row = h.Mul(f[i]).Sub(xn[i].Scale(o.integ.C[0][m]))
					for r := 0; r < ns; r++ {
						row = row.Sub(Xv[r][i].Scale(o.integ.C[r+1][m]))
					}
				} else {
					row = Xv[m][i].Sub(f[i])
				}
				tr.addEq(row, st)
			}
			for _, e := range gz {
				tr.addEq(e, st)
			}
			for gi, grp := range d.Comp {
				for pi, pr := range grp.Pairs {
					if !pr.OneMinus {
						continue
					}
					q := tr.slackPos[[2]int{gi, pi}]
					s := tr.w[tr.slIdx[n][m]+q]
					tr.addEq(s.Add(Zv[m][pr.Sel]).AddConst(-1), st)
				}
			}
		}
		// end of the element
		tr.xbIdx[n] = len(tr.w)
		xe := make(ad.Vec, nx)
		for i := 0; i < nx; i++ {
			xe[i] = tr.newVar("fesd_xb", -inf, inf, varInfo{vXB, n, 0, i}, st)
		}
		for i := 0; i < nx; i++ {
			var row ad.Expr
			if o.Representation == Integral {
				row = xe[i].Sub(xn[i].Scale(o.integ.D[0]))
				for r := 0; r < ns; r++ {
					row = row.Sub(Xv[r][i].Scale(o.integ.D[r+1]))
				}
			} else {
				acc := g.Const(0)
				for m := 0; m < ns; m++ {
					if b := tab.B[m]; b != 0 {
						acc = acc.Add(Xv[m][i].Scale(b))
					}
				}
				row = xe[i].Sub(xn[i]).Sub(h.Mul(acc))
			}
			tr.addEq(row, st)
		}
		tr.xbE[n+1] = xe
		tr.tbE[n+1] = tn.Add(h)
		// boundary point (004 eq. 42–43) when the end is not a stage
		tr.zbIdx[n] = -1
		if o.rbp && nb > 0 {
			tr.zbIdx[n] = len(tr.w)
			zb := make(ad.Vec, nb)
			for i, zi := range d.BoundaryZ {
				zb[i] = tr.newVar("fesd_zb", d.ZLower[zi], d.ZUpper[zi], varInfo{vZB, n, 0, i}, st)
			}
			rows := make(ad.Vec, len(d.BoundaryG))
			for i, r := range d.BoundaryG {
				rows[i] = d.G[r]
			}
			bzSyms := make(ad.Vec, nb)
			for i, zi := range d.BoundaryZ {
				bzSyms[i] = d.Z[zi]
			}
			sub, err := ad.Substitute(rows, ad.Concat(d.X, bzSyms), ad.Concat(xe, zb))
			if err != nil {
				return nil, fmt.Errorf("fesd: boundary equations of element %d: %w", n, err)
			}
			for _, e := range sub {
				tr.addEq(e, st)
			}
		}
	}
	if fesd {
		// Σ h_n = T
		sum := g.Const(0)
		for _, h := range tr.hE {
			sum = sum.Add(h)
		}
		tr.addEq(sum.Sub(tr.Ts), N)
	}
	tr.buildComplementarity()
	if err := tr.buildEquilibration(); err != nil {
		return nil, err
	}
	if err := g.Err(); err != nil {
		return nil, err
	}
	return tr, nil
}

// stageStates returns the states and times at the stage points of an
// element starting at t_n with state x_n and length h: the stage variables
// themselves in the integral representation, x_n + h Σ_r a_mr v_r in the
// differential one (Xv then holds the stage derivatives v_r).
func stageStates(tab *rk.Tableau, rep Representation, xn ad.Vec, Xv []ad.Vec, tn, h ad.Expr) ([]ad.Vec, []ad.Expr) {
	ns := len(Xv)
	xs := make([]ad.Vec, ns)
	ts := make([]ad.Expr, ns)
	for m := 0; m < ns; m++ {
		ts[m] = tn.Add(h.Scale(tab.C[m]))
		if rep == Integral {
			xs[m] = Xv[m]
			continue
		}
		xs[m] = make(ad.Vec, len(xn))
		for i := range xn {
			acc := h.Graph().Const(0)
			for r := 0; r < ns; r++ {
				if a := tab.A[m][r]; a != 0 {
					acc = acc.Add(Xv[r][i].Scale(a))
				}
			}
			xs[m][i] = xn[i].Add(h.Mul(acc))
		}
	}
	return xs, ts
}

func (tr *transcription) newVar(name string, lo, hi float64, info varInfo, stage int) ad.Expr {
	v := tr.g.Sym(name)
	tr.w = append(tr.w, v)
	tr.wl = append(tr.wl, lo)
	tr.wu = append(tr.wu, hi)
	tr.winfo = append(tr.winfo, info)
	tr.wstage = append(tr.wstage, stage)
	return v
}

func (tr *transcription) addEq(e ad.Expr, stage int) {
	tr.addCon(e, 0, 0, stage)
}

func (tr *transcription) addCon(e ad.Expr, lo, hi float64, stage int) {
	tr.c = append(tr.c, e)
	tr.cl = append(tr.cl, lo)
	tr.cu = append(tr.cu, hi)
	tr.cstage = append(tr.cstage, stage)
}

// lamPoints returns the NLP indices of boundary variable z[a] at the points
// k = 0 (start of element n), the stages and (rbp) the end point of
// element n.
func (tr *transcription) lamPoints(n, a int) []int {
	pos := tr.bzPos[a]
	pts := []int{tr.prevEnd(n, a, pos)}
	for m := 0; m < tr.ns; m++ {
		pts = append(pts, tr.zIdx[n][m]+a)
	}
	if tr.zbIdx[n] >= 0 {
		pts = append(pts, tr.zbIdx[n]+pos)
	}
	return pts
}

// prevEnd is the index of z[a] at the start of element n: the start
// variable for n = 0, else the end of element n−1 (its boundary point, or
// its last stage when c_{n_s} = 1).
func (tr *transcription) prevEnd(n, a, pos int) int {
	if n == 0 {
		return tr.startIdx + pos
	}
	if tr.zbIdx[n-1] >= 0 {
		return tr.zbIdx[n-1] + pos
	}
	return tr.zIdx[n-1][tr.ns-1] + a
}

// selIdx is the NLP index of the selection side of pair (gi, pi) at stage m
// of element n.
func (tr *transcription) selIdx(n, m, gi, pi int) int {
	pr := tr.d.Comp[gi].Pairs[pi]
	if pr.OneMinus {
		return tr.slIdx[n][m] + tr.slackPos[[2]int{gi, pi}]
	}
	return tr.zIdx[n][m] + pr.Sel
}

// addComp appends the terms ts of finite element n (−1: none) to comp.
func (tr *transcription) addComp(n int, ts ...mpcc.Complementarity) {
	for _, t := range ts {
		tr.comp = append(tr.comp, t)
		tr.compElem = append(tr.compElem, n)
	}
}

// buildComplementarity adds the complementarity terms: per stage without
// FESD, else the cross complementarity of the chosen mode (nosnoc.md §1.5,
// 004 eq. 37–38 and 43).
func (tr *transcription) buildComplementarity() {
	d := tr.d
	for n := 0; n < tr.N; n++ {
		for gi, grp := range d.Comp {
			for pi, pr := range grp.Pairs {
				sel := make([]int, tr.ns)
				for m := range sel {
					sel[m] = tr.selIdx(n, m, gi, pi)
				}
				if tr.o.DisableFESD {
					for m := range sel {
						tr.addComp(n, mpcc.Pair(tr.zIdx[n][m]+pr.Lambda, sel[m]))
					}
					continue
				}
				lam := tr.lamPoints(n, pr.Lambda)
				switch tr.o.CrossComp {
				case StageStage:
					for _, a := range lam {
						for _, b := range sel {
							tr.addComp(n, mpcc.Pair(a, b))
						}
					}
				case FEStage:
					for _, a := range lam {
						var t mpcc.Complementarity
						for _, b := range sel {
							t.Pairs = append(t.Pairs, [2]int{a, b})
						}
						tr.addComp(n, t)
					}
				case StageFE:
					for _, b := range sel {
						var t mpcc.Complementarity
						for _, a := range lam {
							t.Pairs = append(t.Pairs, [2]int{a, b})
						}
						tr.addComp(n, t)
					}
				case FEFE:
					var t mpcc.Complementarity
					for _, a := range lam {
						for _, b := range sel {
							t.Pairs = append(t.Pairs, [2]int{a, b})
						}
					}
					tr.addComp(n, t)
				}
			}
		}
	}
}

// elementSum returns Σ of z[a] over the points of element n: the stages,
// and for boundary variables also the start point and the boundary point
// (004 §4.4: σ = Σ_{m=0}^{n_s} λ_{n,m}).
func (tr *transcription) elementSum(n, a int) ad.Expr {
	s := tr.g.Const(0)
	if _, ok := tr.bzPos[a]; ok {
		for _, k := range tr.lamPoints(n, a) {
			s = s.Add(tr.w[k])
		}
		return s
	}
	for m := 0; m < tr.ns; m++ {
		s = s.Add(tr.w[tr.zIdx[n][m]+a])
	}
	return s
}

// eta returns the switch indicator η_n = Π_m ν_{n,m} of 004 §4.4 at the
// boundary between elements n−1 and n.
func (tr *transcription) eta(n int) ad.Expr {
	e := tr.g.Const(1)
	for _, t := range tr.d.Equilibration {
		nu := tr.elementSum(n-1, t.A).Mul(tr.elementSum(n, t.A)).
			Add(tr.elementSum(n-1, t.B).Mul(tr.elementSum(n, t.B)))
		e = e.Mul(nu)
	}
	return e
}

// buildEquilibration sets the objective and (Direct) the constraints of
// the step equilibration (nosnoc.md §1.6).
func (tr *transcription) buildEquilibration() error {
	g := tr.g
	obj := g.Const(0)
	if !tr.o.DisableFESD {
		rho := tr.o.RhoH
		for n := 0; n < tr.N; n++ {
			h := tr.hE[n]
			switch tr.o.StepEquilibration {
			case HeuristicMean:
				obj = obj.Add(ad.Sq(h.Sub(tr.hRef[n])).Scale(rho))
			case HeuristicDiff:
				if n > 0 {
					obj = obj.Add(ad.Sq(h.Sub(tr.hE[n-1])).Scale(rho))
				}
			case L2Relaxed:
				if n > 0 {
					obj = obj.Add(tr.eta(n).Mul(ad.Sq(h.Sub(tr.hE[n-1]))).Scale(rho))
				}
			case L2RelaxedScaled:
				if n > 0 {
					w := ad.Tanh(tr.eta(n).Scale(1 / tr.o.SigmaSE))
					obj = obj.Add(w.Mul(ad.Sq(h.Sub(tr.hE[n-1]))).Scale(rho))
				}
			case Direct:
				// η_n·Δh_n = 0 (004 eq. 39) as the complementarity
				// 0 ≤ η_n ⊥ (Δh⁺, Δh⁻) ≥ 0 with Δh = Δh⁺ − Δh⁻, relaxed by
				// the homotopy like the other complementarities: the plain
				// equality is infeasible for σ > 0, where η_n > 0 at a
				// switch too (nosnoc's direct_homotopy idea).
				if n > 0 {
					inf := math.Inf(1)
					e := tr.newVar("fesd_eta", 0, inf, varInfo{vAux, n, 0, 0}, n+1)
					dp := tr.newVar("fesd_dhp", 0, inf, varInfo{vAux, n, 0, 1}, n+1)
					dm := tr.newVar("fesd_dhm", 0, inf, varInfo{vAux, n, 0, 2}, n+1)
					tr.addEq(e.Sub(tr.eta(n)), n+1)
					tr.addEq(dp.Sub(dm).Sub(h.Sub(tr.hE[n-1])), n+1)
					k := len(tr.w)
					tr.addComp(n, mpcc.Pair(k-3, k-2), mpcc.Pair(k-3, k-1))
				}
			}
		}
	}
	tr.obj = obj
	return nil
}

// compile builds the NLP and the output function.
func (tr *transcription) compile() error {
	nw := len(tr.w)
	x0 := make([]float64, nw)
	pv := make([]float64, len(tr.params))
	spec := exprSpec{
		X: tr.w, XL: clone(tr.wl), XU: clone(tr.wu), X0: x0,
		F: tr.obj, G: tr.c, GL: tr.cl, GU: tr.cu,
		P: tr.params, PV: pv,
		XStage: tr.wstage, GStage: tr.cstage,
	}
	p, err := newParamNLP(spec)
	if err != nil {
		return fmt.Errorf("fesd: compiling the FESD NLP: %w", err)
	}
	tr.prob = p
	var xbAll, xsAll, tsAll, tbAll ad.Vec
	for n := 0; n <= tr.N; n++ {
		xbAll = append(xbAll, tr.xbE[n]...)
		tbAll = append(tbAll, tr.tbE[n])
	}
	for n := 0; n < tr.N; n++ {
		for m := 0; m < tr.ns; m++ {
			xsAll = append(xsAll, tr.stageX[n][m]...)
			tsAll = append(tsAll, tr.stageT[n][m])
		}
	}
	out, err := ad.NewFunction("fesd_out",
		[]ad.Arg{{Name: "w", V: tr.w}, {Name: "p", V: tr.params}},
		[]ad.Arg{{Name: "xb", V: xbAll}, {Name: "xs", V: xsAll}, {Name: "tb", V: tbAll}, {Name: "ts", V: tsAll}, {Name: "h", V: tr.hE}})
	if err != nil {
		return fmt.Errorf("fesd: compiling the output function: %w", err)
	}
	tr.out = out
	tr.outW = out.NewWorkspace()
	return nil
}

// paramValues assembles the parameter vector (x₀, u, p, t₀, T) with the
// uniform equilibration targets h₀ = T/N_FE.
func (tr *transcription) paramValues(x0, u, p []float64, t0, T float64) []float64 {
	return tr.paramValuesRef(x0, u, p, t0, T, nil)
}

// paramValuesRef is paramValues with the equilibration targets href (nil:
// uniform).
func (tr *transcription) paramValuesRef(x0, u, p []float64, t0, T float64, href []float64) []float64 {
	pv := make([]float64, 0, len(tr.params))
	pv = append(pv, x0...)
	pv = append(pv, u...)
	pv = append(pv, p...)
	pv = append(pv, t0, T)
	for n := range tr.hRef {
		if href != nil {
			pv = append(pv, href[n])
		} else {
			pv = append(pv, T/float64(tr.N))
		}
	}
	return pv
}

// bounds returns the variable bounds for horizon T with the start
// variables fixed at zb0 (values of the BoundaryZ variables at x₀).
func (tr *transcription) bounds(T float64, zb0 []float64) (xl, xu []float64) {
	xl, xu = clone(tr.wl), clone(tr.wu)
	h0 := T / float64(tr.N)
	for _, k := range tr.hIdx {
		if k >= 0 {
			xl[k], xu[k] = tr.o.hBounds(h0)
		}
	}
	if tr.startIdx >= 0 {
		for i := range zb0 {
			zi := tr.d.BoundaryZ[i]
			v := math.Min(math.Max(zb0[i], tr.d.ZLower[zi]), tr.d.ZUpper[zi])
			xl[tr.startIdx+i], xu[tr.startIdx+i] = v, v
		}
	}
	return xl, xu
}

// startFresh builds a starting point from the consistent algebraic values
// z0 at x0: every stage at (x0, z0), h = T/N_FE.
func (tr *transcription) startFresh(x0, z0, f0 []float64, T float64) []float64 {
	w := make([]float64, len(tr.w))
	for k, inf := range tr.winfo {
		switch inf.kind {
		case vStart, vZB:
			w[k] = z0[tr.d.BoundaryZ[inf.i]]
		case vH:
			w[k] = T / float64(tr.N)
		case vX:
			if tr.o.Representation == Integral {
				w[k] = x0[inf.i]
			} else {
				w[k] = f0[inf.i]
			}
		case vZ:
			w[k] = z0[inf.i]
		case vSlack:
			w[k] = 1 - z0[tr.slackSel(inf.i)]
		case vXB:
			w[k] = x0[inf.i]
		}
	}
	return w
}

// elementStart holds start values per element n and stage m: step sizes
// h[n], stage states x[n][m] (integral representation) or derivatives
// f[n][m] (differential), stage algebraic values z[n][m], and the state
// xe[n] and algebraic values ze[n] at the element end.
type elementStart struct {
	h        []float64
	x, f, z  [][][]float64
	xe, ze   [][]float64
	startZB0 []float64 // fixed start values of the BoundaryZ variables
}

// fillStart writes the values of e into the start w for the variable kinds
// of the transcription (start, h, stage x/v and z, slacks, boundary x and
// z); other kinds (those of an OCP) are left as they are.
func (tr *transcription) fillStart(w []float64, e elementStart) {
	for k, inf := range tr.winfo {
		switch inf.kind {
		case vStart:
			w[k] = e.startZB0[inf.i]
		case vH:
			w[k] = e.h[inf.n]
		case vX:
			if tr.o.Representation == Integral {
				w[k] = e.x[inf.n][inf.m][inf.i]
			} else {
				w[k] = e.f[inf.n][inf.m][inf.i]
			}
		case vZ:
			w[k] = e.z[inf.n][inf.m][inf.i]
		case vSlack:
			w[k] = 1 - e.z[inf.n][inf.m][tr.slackSel(inf.i)]
		case vXB:
			w[k] = e.xe[inf.n][inf.i]
		case vZB:
			w[k] = e.ze[inf.n][tr.d.BoundaryZ[inf.i]]
		}
	}
}

// slackSel returns the z index of the α of slack q.
func (tr *transcription) slackSel(q int) int {
	for key, v := range tr.slackPos {
		if v == q {
			return tr.d.Comp[key[0]].Pairs[key[1]].Sel
		}
	}
	return 0
}

// startShifted builds a starting point from the previous interval's
// solution prev: every element takes the values of the previous last
// element, h = T/N_FE, the start variables their fixed values zb0.
func (tr *transcription) startShifted(prev, zb0 []float64, T float64) []float64 {
	w := make([]float64, len(tr.w))
	L := tr.N - 1
	for k, inf := range tr.winfo {
		switch inf.kind {
		case vStart:
			w[k] = zb0[inf.i]
		case vH:
			w[k] = T / float64(tr.N)
		case vX:
			w[k] = prev[tr.xIdx[L][inf.m]+inf.i]
		case vZ:
			w[k] = prev[tr.zIdx[L][inf.m]+inf.i]
		case vSlack:
			w[k] = prev[tr.slIdx[L][inf.m]+inf.i]
		case vXB:
			w[k] = prev[tr.xbIdx[L]+inf.i]
		case vZB:
			w[k] = prev[tr.zbIdx[L]+inf.i]
		}
	}
	return w
}

// outputs evaluates the output function at the solution w.
type intervalOut struct {
	xb, xs, tb, ts, h []float64
}

func (tr *transcription) outputs(w, pv []float64) (*intervalOut, error) {
	o := &intervalOut{
		xb: make([]float64, (tr.N+1)*tr.nx),
		xs: make([]float64, tr.N*tr.ns*tr.nx),
		tb: make([]float64, tr.N+1),
		ts: make([]float64, tr.N*tr.ns),
		h:  make([]float64, tr.N),
	}
	err := tr.out.Eval(tr.outW, [][]float64{w, pv}, [][]float64{o.xb, o.xs, o.tb, o.ts, o.h})
	return o, err
}
