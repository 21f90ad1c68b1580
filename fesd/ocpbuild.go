package fesd

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
)

// Variable kinds of the OCP beyond those of one interval.
const (
	vU   varKind = vAux + 1 + iota // control q_k (n = k, i)
	vSOT                           // speed of time (n = stage or −1 global)
	vV                             // global variable V_i
	vPC                            // lifted side of a path complementarity
)

// ocpTranscription is the FESD NLP of a whole OCP (004 eq. 45): the
// elements of all stages are numbered consecutively in one transcription
// (so the cross complementarity and the boundary multipliers are continuous
// across stage boundaries), every stage has its control and parameters.
type ocpTranscription struct {
	tr *transcription
	p  *OCP
	o  *resolved
	d  *dcs.DCS

	N         int
	nfe       []int     // per stage
	elemStart []int     // first element of stage k, len N+1
	stageOf   []int     // stage of every element
	h0        []float64 // nominal element length per stage
	tau       []float64 // numerical time at the stage boundaries

	x0s    ad.Vec   // parameter: initial state
	pk     []ad.Vec // per stage: the values substituted for the model's P
	params ad.Vec
	uIdx   []int
	uE     []ad.Vec
	sE     []ad.Expr // speed of time per stage (constant 1 without)
	sIdx   []int     // per stage (−1: none); global one in sGlob
	sGlob  int
	vIdx   int
	TfE    ad.Expr
	cost   ad.Expr // the user cost (without step equilibration)
	pvals  []float64
	isGlob map[ad.Expr]bool
	cur    int // running stage number for the KKT ordering hint
	late   []int
	lateC  []int
	pcPts  int // number of lifted path-complementarity variables

	out  *ad.Function
	outW *ad.Workspace
}

func newOCPTranscription(p *OCP, d *dcs.DCS, o *resolved) (*ocpTranscription, error) {
	g := d.Graph
	tr := &transcription{
		o: o, d: d, g: g, ns: o.Stages,
		nx: len(d.X), nz: len(d.Z), nu: len(d.U), np: len(d.P),
		bzPos: map[int]int{}, slackPos: map[[2]int]int{},
		startIdx: -1,
	}
	b := &ocpTranscription{tr: tr, p: p, o: o, d: d, N: p.N, sGlob: -1, vIdx: -1, isGlob: map[ad.Expr]bool{}}
	fesd := !o.DisableFESD
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
	// stages and elements
	N := p.N
	b.nfe = make([]int, N)
	b.elemStart = make([]int, N+1)
	b.h0 = make([]float64, N)
	b.tau = make([]float64, N+1)
	for k := 0; k < N; k++ {
		b.nfe[k] = p.nfe(k, o.NFE)
		b.elemStart[k+1] = b.elemStart[k] + b.nfe[k]
		b.h0[k] = p.T / float64(N*b.nfe[k])
		b.tau[k] = p.T0 + p.T*float64(k)/float64(N)
		for n := 0; n < b.nfe[k]; n++ {
			b.stageOf = append(b.stageOf, k)
		}
	}
	b.tau[N] = p.T0 + p.T
	tr.N = b.elemStart[N]
	if err := b.build(); err != nil {
		return nil, err
	}
	if err := g.Err(); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *ocpTranscription) build() error {
	tr, p, d, o := b.tr, b.p, b.d, b.o
	g := tr.g
	nx, nz, nu, np, ns := tr.nx, tr.nz, tr.nu, tr.np, tr.ns
	N := b.N
	inf := math.Inf(1)
	fesd := !o.DisableFESD
	tab := o.tab

	// parameters and global variables
	b.x0s = g.SymVec("ocp_x0", nx)
	b.params = append(b.params, b.x0s...)
	for _, v := range p.V {
		b.isGlob[v] = true
	}
	b.pk = make([]ad.Vec, N)
	for k := 0; k < N; k++ {
		b.pk[k] = make(ad.Vec, np)
		pv := row(p.PStage, k)
		if pv == nil {
			pv = p.P
		}
		for i := 0; i < np; i++ {
			if b.isGlob[d.P[i]] {
				b.pk[k][i] = d.P[i]
				continue
			}
			s := g.Sym(fmt.Sprintf("ocp_p%d_%d", k, i))
			b.pk[k][i] = s
			b.params = append(b.params, s)
			b.pvals = append(b.pvals, pv[i])
		}
	}
	if len(p.V) > 0 {
		b.vIdx = len(tr.w)
		for i, v := range p.V {
			lo, hi := bnd(p.VL, p.VU, i)
			tr.w = append(tr.w, v)
			tr.wl = append(tr.wl, lo)
			tr.wu = append(tr.wu, hi)
			tr.winfo = append(tr.winfo, varInfo{vV, 0, 0, i})
			tr.wstage = append(tr.wstage, 0)
			b.late = append(b.late, len(tr.w)-1)
		}
	}
	// speed of time / time scaling
	free := p.FreeTime || p.TimeOptimal
	b.sE = make([]ad.Expr, N)
	b.sIdx = make([]int, N)
	for k := range b.sIdx {
		b.sIdx[k] = -1
		b.sE[k] = g.Const(1)
	}
	sotLo, sotHi := p.sotBounds()
	switch {
	case p.SpeedOfTime == GlobalSpeedOfTime || (free && p.SpeedOfTime == NoSpeedOfTime):
		lo, hi := sotLo, sotHi
		if free {
			lo, hi = p.TMin/p.T, inf
			if p.TMax > 0 {
				hi = p.TMax / p.T
			}
		}
		b.sGlob = len(tr.w)
		s := tr.newVar("ocp_sot", lo, hi, varInfo{vSOT, -1, 0, 0}, 0)
		b.late = append(b.late, b.sGlob)
		for k := range b.sE {
			b.sE[k] = s
		}
		b.TfE = s.Scale(p.T)
	case p.SpeedOfTime == StageSpeedOfTime:
		// one variable per stage (its ordering stage is set in the loop);
		// T_f = (T/N) Σ_k s_k
		sum := g.Const(0)
		for k := 0; k < N; k++ {
			b.sIdx[k] = len(tr.w)
			b.sE[k] = tr.newVar("ocp_sot", sotLo, sotHi, varInfo{vSOT, k, 0, 0}, 0)
			sum = sum.Add(b.sE[k])
		}
		b.TfE = sum.Scale(p.T / float64(N))
	default:
		b.TfE = g.Const(p.T)
	}
	if fesd && len(d.BoundaryZ) > 0 {
		tr.startIdx = len(tr.w)
		for i := range d.BoundaryZ {
			tr.newVar("fesd_z00", 0, 0, varInfo{vStart, 0, 0, i}, 0)
		}
	}
	NE := tr.N
	tr.hIdx = make([]int, NE)
	tr.xIdx = make([][]int, NE)
	tr.zIdx = make([][]int, NE)
	tr.slIdx = make([][]int, NE)
	tr.xbIdx = make([]int, NE)
	tr.zbIdx = make([]int, NE)
	tr.xbE = make([]ad.Vec, NE+1)
	tr.stageX = make([][]ad.Vec, NE)
	tr.stageT = make([][]ad.Expr, NE)
	tr.tbE = make([]ad.Expr, NE+1)
	tr.hE = make([]ad.Expr, NE)
	tr.xbE[0] = b.x0s
	tr.tbE[0] = g.Const(p.T0)
	b.uIdx = make([]int, N)
	b.uE = make([]ad.Vec, N)
	fromFG := ad.Concat(d.X, d.Z, ad.Vec{d.Time}, d.U, d.P)
	fg := ad.Concat(d.F, d.G)
	var lag ad.Expr
	if p.Lagrange.IsValid() {
		lag = p.Lagrange
	}
	if p.LagrangeFromDCS != nil {
		if l := p.LagrangeFromDCS(d); l.IsValid() {
			if lag.IsValid() {
				lag = lag.Add(l)
			} else {
				lag = l
			}
		}
	}
	cost := g.Const(0)
	b.cur = 1
	// path complementarities (expressions fixed once)
	type pcomp struct {
		G, H ad.Vec
		At   Where
	}
	var pcs []pcomp
	for i, c := range p.PathComps {
		G, H := c.G, c.H
		if c.FromDCS != nil {
			G, H = c.FromDCS(d)
			if len(G) != len(H) {
				return fmt.Errorf("%w: PathComps[%d].FromDCS gives %d G and %d H", ErrDimension, i, len(G), len(H))
			}
		}
		pcs = append(pcs, pcomp{G, H, c.At})
	}
	addPC := func(x ad.Vec, k int, z ad.Vec, t ad.Expr, st int, at Where) error {
		for _, c := range pcs {
			if c.At != at {
				continue
			}
			GH, err := b.subst(ad.Concat(c.G, c.H), x, k, z, t)
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
				b.pcPts++
			}
		}
		return nil
	}
	addPath := func(x ad.Vec, k int, z ad.Vec, t ad.Expr, st int, at Where) error {
		for _, c := range p.Path {
			if c.At != at {
				continue
			}
			if err := b.addConstraint(c, x, k, z, t, st); err != nil {
				return err
			}
		}
		return addPC(x, k, z, t, st, at)
	}

	for k := 0; k < N; k++ {
		// control and speed of time of the stage
		b.uIdx[k] = len(tr.w)
		b.uE[k] = make(ad.Vec, nu)
		for i := 0; i < nu; i++ {
			lo, hi := bnd(p.UL, p.UU, i)
			b.uE[k][i] = tr.newVar("ocp_u", lo, hi, varInfo{vU, k, 0, i}, b.cur)
		}
		if b.sIdx[k] >= 0 {
			tr.wstage[b.sIdx[k]] = b.cur
		}
		S := b.sE[k]
		tn := g.Const(b.tau[k])
		stageH := g.Const(0)
		for ln := 0; ln < b.nfe[k]; ln++ {
			n := b.elemStart[k] + ln
			base := b.cur
			var h ad.Expr
			if fesd {
				tr.hIdx[n] = len(tr.w)
				lo, hi := o.hBounds(b.h0[k])
				h = tr.newVar("fesd_h", lo, hi, varInfo{vH, n, 0, 0}, base)
			} else {
				tr.hIdx[n] = -1
				h = g.Const(b.h0[k])
			}
			tr.hE[n] = h
			stageH = stageH.Add(h)
			tr.tbE[n] = tn
			xn := tr.xbE[n]
			tr.xIdx[n] = make([]int, ns)
			tr.zIdx[n] = make([]int, ns)
			tr.slIdx[n] = make([]int, ns)
			Xv := make([]ad.Vec, ns)
			Zv := make([]ad.Vec, ns)
			for m := 0; m < ns; m++ {
				st := base + m
				tr.xIdx[n][m] = len(tr.w)
				Xv[m] = make(ad.Vec, nx)
				for i := 0; i < nx; i++ {
					lo, hi := math.Inf(-1), inf
					if p.XBoundsAt == AtStagePoints && o.Representation == Integral {
						lo, hi = bnd(p.XL, p.XU, i)
					}
					Xv[m][i] = tr.newVar("fesd_x", lo, hi, varInfo{vX, n, m, i}, st)
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
			xs, ts := stageStates(tab, o.Representation, xn, Xv, tn, h)
			tr.stageX[n] = xs
			tr.stageT[n] = ts
			lagSum := g.Const(0)
			for m := 0; m < ns; m++ {
				st := base + m
				to := ad.Concat(xs[m], Zv[m], ad.Vec{ts[m]}, b.uE[k], b.pk[k])
				sub, err := ad.Substitute(fg, fromFG, to)
				if err != nil {
					return fmt.Errorf("fesd: instantiating the DCS at stage %d, element %d, point %d: %w", k, ln, m, err)
				}
				f, gz := sub[:nx], sub[nx:]
				for i := 0; i < nx; i++ {
					sf := S.Mul(f[i])
					var r ad.Expr
					if o.Representation == Integral {
						r = h.Mul(sf).Sub(xn[i].Scale(o.integ.C[0][m]))
						for q := 0; q < ns; q++ {
							r = r.Sub(Xv[q][i].Scale(o.integ.C[q+1][m]))
						}
						tr.addEq(r, base+ns-1)
					} else {
						tr.addEq(Xv[m][i].Sub(sf), base+ns-1)
					}
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
				if lag.IsValid() {
					lv, err := b.subst(ad.Vec{lag}, xs[m], k, Zv[m], ts[m])
					if err != nil {
						return fmt.Errorf("fesd: running cost: %w", err)
					}
					if w := tab.B[m]; w != 0 {
						lagSum = lagSum.Add(lv[0].Scale(w))
					}
				}
				if p.XBoundsAt == AtStagePoints && o.Representation == Differential && (p.XL != nil || p.XU != nil) {
					for i := 0; i < nx; i++ {
						lo, hi := bnd(p.XL, p.XU, i)
						if !math.IsInf(lo, -1) || !math.IsInf(hi, 1) {
							tr.addCon(xs[m][i], lo, hi, st)
						}
					}
				}
				if err := addPath(xs[m], k, Zv[m], ts[m], st, AtStagePoints); err != nil {
					return err
				}
			}
			if lag.IsValid() {
				cost = cost.Add(h.Mul(S).Mul(lagSum))
			}
			// end of the element
			st := base + ns
			last := ln == b.nfe[k]-1
			tr.xbIdx[n] = len(tr.w)
			xe := make(ad.Vec, nx)
			for i := 0; i < nx; i++ {
				lo, hi := math.Inf(-1), inf
				if p.XBoundsAt != AtStageEnds || last {
					lo, hi = bnd(p.XL, p.XU, i)
				}
				xe[i] = tr.newVar("fesd_xb", lo, hi, varInfo{vXB, n, 0, i}, st)
			}
			for i := 0; i < nx; i++ {
				var r ad.Expr
				if o.Representation == Integral {
					r = xe[i].Sub(xn[i].Scale(o.integ.D[0]))
					for q := 0; q < ns; q++ {
						r = r.Sub(Xv[q][i].Scale(o.integ.D[q+1]))
					}
				} else {
					acc := g.Const(0)
					for m := 0; m < ns; m++ {
						if bw := tab.B[m]; bw != 0 {
							acc = acc.Add(Xv[m][i].Scale(bw))
						}
					}
					r = xe[i].Sub(xn[i]).Sub(h.Mul(acc))
				}
				tr.addEq(r, st)
			}
			tr.xbE[n+1] = xe
			tn = tn.Add(h)
			tr.tbE[n+1] = tn
			tr.zbIdx[n] = -1
			if nb := len(d.BoundaryZ); o.rbp && nb > 0 {
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
				sub, err := ad.Substitute(rows, ad.Concat(d.X, bzSyms, d.U, d.P), ad.Concat(xe, zb, b.uE[k], b.pk[k]))
				if err != nil {
					return fmt.Errorf("fesd: boundary equations of element %d: %w", n, err)
				}
				for _, e := range sub {
					tr.addEq(e, st)
				}
			}
			if !last {
				if err := addPath(xe, k, nil, tn, st, AtElementBoundaries); err != nil {
					return err
				}
			}
			b.cur = st + 1
		}
		st := b.cur - 1
		if fesd {
			tr.addEq(stageH.AddConst(-p.T/float64(N)), st)
		}
		// stage end
		xe := tr.xbE[b.elemStart[k+1]]
		te := g.Const(b.tau[k+1])
		for _, at := range []Where{AtStageEnds, AtElementBoundaries} {
			if err := addPath(xe, k, nil, te, st, at); err != nil {
				return err
			}
		}
		if p.StageEnd != nil {
			for _, c := range p.StageEnd(k) {
				if err := b.addConstraint(c, xe, k, nil, te, st); err != nil {
					return err
				}
			}
		}
		if t := p.Tracking; t != nil {
			w := p.T / float64(N)
			if t.Q != nil {
				cost = cost.Add(quad(g, xe, row(t.XRef, k), t.Q).Scale(w))
			}
			if t.R != nil {
				cost = cost.Add(quad(g, b.uE[k], row(t.URef, k), t.R).Scale(w))
			}
		}
	}
	// stage speed of time: T_f
	if p.SpeedOfTime == StageSpeedOfTime {
		if free {
			hi := inf
			if p.TMax > 0 {
				hi = p.TMax
			}
			if p.TMin > 0 || !math.IsInf(hi, 1) {
				tr.addCon(b.TfE, p.TMin, hi, 0)
				b.lateC = append(b.lateC, len(tr.c)-1)
			}
		}
	}
	// terminal cost and constraints
	xN := tr.xbE[tr.N]
	tN := g.Const(b.tau[N])
	if p.Mayer.IsValid() {
		r, err := b.subst(ad.Vec{p.Mayer}, xN, N-1, nil, tN)
		if err != nil {
			return fmt.Errorf("fesd: terminal cost: %w", err)
		}
		cost = cost.Add(r[0])
	}
	if t := p.Tracking; t != nil && t.QT != nil {
		ref := t.XRefT
		if ref == nil {
			ref = t.XRef[len(t.XRef)-1]
		}
		cost = cost.Add(quad(g, xN, ref, t.QT))
	}
	for _, c := range p.Terminal {
		n0 := len(tr.c)
		if err := b.addConstraint(c, xN, N-1, nil, tN, 0); err != nil {
			return err
		}
		for i := n0; i < len(tr.c); i++ {
			b.lateC = append(b.lateC, i)
		}
	}
	if p.TimeOptimal {
		cost = cost.Add(b.TfE)
	}
	if p.SOTRho > 0 {
		for k := 0; k < N; k++ {
			if b.sIdx[k] >= 0 {
				cost = cost.Add(ad.Sq(b.sE[k].AddConst(-1)).Scale(p.SOTRho))
			}
		}
		if b.sGlob >= 0 && p.SpeedOfTime == GlobalSpeedOfTime {
			cost = cost.Add(ad.Sq(tr.w[b.sGlob].AddConst(-1)).Scale(p.SOTRho))
		}
	}
	b.cost = cost
	tr.buildComplementarity()
	tr.obj = cost.Add(b.equilibration())
	// the global variables and the constraints on them come last in the
	// KKT ordering hint (an arrow structure: no fill when eliminated last)
	final := b.cur + 1
	for _, i := range b.late {
		tr.wstage[i] = final
	}
	for _, i := range b.lateC {
		tr.cstage[i] = final
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
func (b *ocpTranscription) subst(e ad.Vec, x ad.Vec, k int, z ad.Vec, t ad.Expr) (ad.Vec, error) {
	d := b.d
	from := ad.Concat(d.X, d.U, d.P, ad.Vec{d.Time})
	to := ad.Concat(x, b.uE[k], b.pk[k], ad.Vec{t})
	if z != nil {
		from = append(from, d.Z...)
		to = append(to, z...)
	}
	if b.p.HorizonSym.IsValid() {
		from = append(from, b.p.HorizonSym)
		to = append(to, b.TfE)
	}
	return ad.Substitute(e, from, to)
}

func (b *ocpTranscription) addConstraint(c Constraint, x ad.Vec, k int, z ad.Vec, t ad.Expr, st int) error {
	G, err := b.subst(c.G, x, k, z, t)
	if err != nil {
		return fmt.Errorf("fesd: constraint: %w", err)
	}
	for i, e := range G {
		lo, hi := 0.0, 0.0
		if c.L != nil {
			lo, hi = c.L[i], c.U[i]
		}
		b.tr.addCon(e, lo, hi, st)
	}
	return nil
}

// equilibration returns the step-equilibration objective and adds the
// constraints of Direct, within every stage (nosnoc.md §1.6).
func (b *ocpTranscription) equilibration() ad.Expr {
	tr := b.tr
	g := tr.g
	obj := g.Const(0)
	if b.o.DisableFESD {
		return obj
	}
	rho := b.o.RhoH
	inf := math.Inf(1)
	for n := 0; n < tr.N; n++ {
		k := b.stageOf[n]
		first := n == b.elemStart[k]
		h := tr.hE[n]
		switch b.o.StepEquilibration {
		case HeuristicMean:
			obj = obj.Add(ad.Sq(h.AddConst(-b.h0[k])).Scale(rho))
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
				w := ad.Tanh(tr.eta(n).Scale(1 / b.o.SigmaSE))
				obj = obj.Add(w.Mul(ad.Sq(h.Sub(tr.hE[n-1]))).Scale(rho))
			}
		case Direct:
			if !first {
				st := tr.wstage[tr.hIdx[n]]
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
