package fesd

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
)

// buildState is what the steps of build pass on to each other besides the
// transcription's own fields: the parameter symbols of x₀ and t₀, whether
// the horizon is free, the path complementarities and the running cost in
// the DCS's graph, the objective being summed, and within a control stage
// the running element start time and stage length.
type buildState struct {
	x0s    ad.Vec
	t0s    ad.Expr
	free   bool // free end time (OCP.FreeTime or OCP.TimeOptimal)
	pcs    []pathComp
	lag    ad.Expr // running cost (the zero Expr: none)
	cost   ad.Expr
	tn     ad.Expr // start time of the next element of the stage
	stageH ad.Expr // Σ h of the stage's elements so far
}

// buildParams adds the parameters: x₀, per stage the fixed control and
// the model parameters, t₀, the equilibration targets.
func (tr *transcription) buildParams(bs *buildState) {
	p, d := tr.p, tr.d
	nu, np, N := tr.nu, tr.np, tr.N
	tr.px0 = len(tr.params)
	bs.x0s = make(ad.Vec, tr.nx)
	for i := range bs.x0s {
		bs.x0s[i] = tr.newParam("fesd_x0", p.X0[i])
	}
	for _, v := range p.V {
		tr.isGlob[v] = true
	}
	tr.uE = make([]ad.Vec, N)
	tr.pk = make([]ad.Vec, N)
	for k := 0; k < N; k++ {
		if tr.fixed {
			tr.pu[k] = len(tr.params)
			tr.uE[k] = make(ad.Vec, nu)
			for i := range tr.uE[k] {
				tr.uE[k][i] = tr.newParam("fesd_u", 0)
			}
		}
		tr.pk[k] = make(ad.Vec, np)
		tr.pp[k] = make([]int, np)
		pv := row(p.PStage, k)
		if pv == nil {
			pv = p.P
		}
		for i := 0; i < np; i++ {
			if tr.isGlob[d.P[i]] {
				tr.pk[k][i] = d.P[i]
				tr.pp[k][i] = -1
				continue
			}
			tr.pp[k][i] = len(tr.params)
			tr.pk[k][i] = tr.newParam("fesd_p", pv[i])
		}
	}
	tr.pt0 = len(tr.params)
	bs.t0s = tr.newParam("fesd_t0", p.T0)
	if !tr.o.DisableFESD && tr.o.StepEquilibration == HeuristicMean {
		tr.phref = len(tr.params)
		tr.href = make(ad.Vec, tr.NE)
		for n := range tr.href {
			tr.href[n] = tr.newParam("fesd_href", tr.h0[tr.stageOf[n]])
		}
	}
}

// buildGlobals adds the global variables and the speed of time (time
// scaling): s_k of every stage and T_f.
func (tr *transcription) buildGlobals(bs *buildState) {
	p, g, N := tr.p, tr.g, tr.N
	if len(p.V) > 0 {
		tr.v = len(tr.w)
		for i, v := range p.V {
			lo, hi := bnd(p.VL, p.VU, i)
			tr.addVar(v, lo, hi, varInfo{vV, 0, 0, i}, 0)
			tr.late = append(tr.late, len(tr.w)-1)
		}
	}
	bs.free = p.FreeTime || p.TimeOptimal
	tr.sE = make([]ad.Expr, N)
	for k := range tr.sE {
		tr.sE[k] = g.Const(1)
	}
	sotLo, sotHi := p.sotBounds()
	switch {
	case p.SpeedOfTime == GlobalSpeedOfTime || (bs.free && p.SpeedOfTime == NoSpeedOfTime):
		lo, hi := sotLo, sotHi
		if bs.free {
			lo, hi = p.TMin/p.T, math.Inf(1)
			if p.TMax > 0 {
				hi = p.TMax / p.T
			}
		}
		tr.sotG = len(tr.w)
		s := tr.newVar("ocp_sot", lo, hi, varInfo{vSOT, -1, 0, 0}, 0)
		tr.late = append(tr.late, tr.sotG)
		for k := range tr.sE {
			tr.sE[k] = s
		}
		tr.tfE = s.Scale(p.T)
	case p.SpeedOfTime == StageSpeedOfTime:
		// one variable per stage (its ordering stage is set in the loop);
		// T_f = (T/N) Σ_k s_k
		sum := g.Const(0)
		for k := 0; k < N; k++ {
			tr.sot[k] = len(tr.w)
			tr.sE[k] = tr.newVar("ocp_sot", sotLo, sotHi, varInfo{vSOT, k, 0, 0}, 0)
			sum = sum.Add(tr.sE[k])
		}
		tr.tfE = sum.Scale(p.T / float64(N))
	default:
		tr.tfE = g.Const(p.T)
	}
}

// buildStart adds the formulation's variables at the start of the horizon
// (the start values λ₀₀ of the boundary multipliers of a DCS),
// makes the element outputs, gathers the running cost and the path
// complementarities, and builds the element template (unless
// symbolicBuild).
func (tr *transcription) buildStart(bs *buildState) error {
	p, d, g := tr.p, tr.d, tr.g
	_, first := tr.blockVars(tr.fv.horizon, 0, 0, 0)
	tr.form.placed(atHorizon, 0, 0, first)
	NE := tr.NE
	tr.xbE = make([]ad.Vec, NE+1)
	tr.stageX = make([][]ad.Vec, NE)
	tr.tbE = make([]ad.Expr, NE+1)
	tr.hE = make([]ad.Expr, NE)
	tr.xbE[0] = bs.x0s
	if p.Lagrange.IsValid() {
		bs.lag = p.Lagrange
	}
	if p.LagrangeFromDCS != nil {
		if l := p.LagrangeFromDCS(d); l.IsValid() {
			if bs.lag.IsValid() {
				bs.lag = bs.lag.Add(l)
			} else {
				bs.lag = l
			}
		}
	}
	bs.cost = g.Const(0)
	tr.cur = 1
	for i, c := range p.PathComps {
		G, H := c.G, c.H
		if c.FromDCS != nil {
			G, H = c.FromDCS(d)
			if len(G) != len(H) {
				return fmt.Errorf("%w: PathComps[%d].FromDCS gives %d G and %d H", ErrDimension, i, len(G), len(H))
			}
		}
		bs.pcs = append(bs.pcs, pathComp{G, H, c.At})
	}
	if !symbolicBuild {
		t, err := tr.newTemplate(bs.pcs, bs.lag)
		if err != nil {
			return fmt.Errorf("fesd: the element template: %w", err)
		}
		tr.tmpl = t
	}
	return nil
}

// addPath adds the path constraints and the lifted path complementarities
// at one point of kind at, in the group GroupPath.
func (tr *transcription) addPath(pcs []pathComp, x ad.Vec, k int, z ad.Vec, t ad.Expr, st int, at Where) error {
	tr.grp = GroupPath
	defer func() { tr.grp = GroupDynamics }()
	for _, c := range tr.p.Path {
		if c.At == at {
			if err := tr.addConstraint(c, x, k, z, t, st); err != nil {
				return err
			}
		}
	}
	return tr.addPathComps(pcs, x, k, z, t, st, at)
}

// buildStage adds control stage k: its control variables, its elements,
// the stage-length constraint Σ h = T/N and the stage end.
func (tr *transcription) buildStage(bs *buildState, k int) error {
	p := tr.p
	tr.grpK = k
	// control and speed of time of the stage
	if !tr.fixed {
		tr.u[k] = len(tr.w)
		tr.uE[k] = make(ad.Vec, tr.nu)
		for i := 0; i < tr.nu; i++ {
			lo, hi := bnd(p.UL, p.UU, i)
			tr.uE[k][i] = tr.newVar("ocp_u", lo, hi, varInfo{vU, k, 0, i}, tr.cur)
		}
	}
	if tr.sot[k] >= 0 {
		tr.wstage[tr.sot[k]] = tr.cur
	}
	bs.tn = bs.t0s.AddConst(tr.tau[k])
	if k == 0 {
		bs.tn = bs.t0s
	}
	bs.stageH = tr.g.Const(0)
	for ln := 0; ln < tr.nfe[k]; ln++ {
		if err := tr.buildElement(bs, k, ln); err != nil {
			return err
		}
	}
	st := tr.cur - 1
	if !tr.o.DisableFESD {
		tr.addEq(bs.stageH.AddConst(-p.T/float64(tr.N)), st)
	}
	return tr.buildStageEnd(bs, k, st)
}

// buildElement adds element ln of stage k: its step size, variables and
// rows (symbolic, or an instance of the template), its stage states for
// the outputs, and the path constraints at its end unless it is the
// stage's last.
func (tr *transcription) buildElement(bs *buildState, k, ln int) error {
	o := tr.o
	n := tr.elemStart[k] + ln
	base := tr.cur
	last := ln == tr.nfe[k]-1
	var h ad.Expr
	if !o.DisableFESD {
		tr.h[n] = len(tr.w)
		lo, hi := o.hBounds(tr.h0[k])
		h = tr.newVar("fesd_h", lo, hi, varInfo{vH, n, 0, 0}, base)
	} else {
		tr.h[n] = -1
		h = tr.g.Const(tr.h0[k])
	}
	tr.hE[n] = h
	bs.stageH = bs.stageH.Add(h)
	tn := bs.tn
	tr.tbE[n] = tn
	ev := tr.elementVars(n, base, last, bs.pcs)
	ev.h, ev.xn, ev.u, ev.p, ev.s, ev.tn, ev.tf = h, tr.xbE[n], tr.uE[k], tr.pk[k], tr.sE[k], tn, tr.tfE
	if tr.tmpl == nil {
		lt, err := tr.elementRows(ev, bs.pcs, bs.lag, func(e ad.Expr, lo, hi float64, st int) { tr.addCon(e, lo, hi, base+st) })
		if err != nil {
			return fmt.Errorf("fesd: stage %d, element %d: %w", k, ln, err)
		}
		if lt.IsValid() {
			bs.cost = bs.cost.Add(lt)
		}
	} else {
		tr.instance(n, k, ln, base, ev)
	}
	tr.stageX[n], _ = stageStates(o.tab.C, o.tab.A, o.Representation, tr.form.start(&ev), ev.X, tn, h)
	tr.xbE[n+1] = ev.xe
	tn = tn.Add(h)
	bs.tn = tn
	tr.tbE[n+1] = tn
	st := base + tr.ns
	if !last {
		if err := tr.addPath(bs.pcs, ev.xe, k, nil, tn, st, AtElementBoundaries); err != nil {
			return err
		}
	}
	tr.cur = st + 1
	return nil
}

// buildStageEnd adds the path constraints at the end of stage k, its
// StageEnd constraints and its tracking costs.
func (tr *transcription) buildStageEnd(bs *buildState, k, st int) error {
	p, g, N := tr.p, tr.g, tr.N
	xe := tr.xbE[tr.elemStart[k+1]]
	te := tr.tbE[tr.elemStart[k+1]]
	for _, at := range []Where{AtStageEnds, AtElementBoundaries} {
		if err := tr.addPath(bs.pcs, xe, k, nil, te, st, at); err != nil {
			return err
		}
	}
	if p.StageEnd != nil {
		tr.grp = GroupStageEnd
		for _, c := range p.StageEnd(k) {
			if err := tr.addConstraint(c, xe, k, nil, te, st); err != nil {
				return err
			}
		}
		tr.grp = GroupDynamics
	}
	if t := p.Tracking; t != nil {
		w := p.T / float64(N)
		if t.Q != nil {
			bs.cost = bs.cost.Add(quad(g, xe, row(t.XRef, k), t.Q).Scale(w))
		}
		if t.R != nil {
			bs.cost = bs.cost.Add(quad(g, tr.uE[k], row(t.URef, k), t.R).Scale(w))
		}
	}
	return nil
}

// buildHorizon adds T_min ≤ T_f ≤ T_max for a free horizon with a speed
// of time per stage (the global speed of time has these as its bounds).
func (tr *transcription) buildHorizon(bs *buildState) {
	p := tr.p
	if p.SpeedOfTime != StageSpeedOfTime || !bs.free {
		return
	}
	hi := math.Inf(1)
	if p.TMax > 0 {
		hi = p.TMax
	}
	if p.TMin > 0 || !math.IsInf(hi, 1) {
		tr.grp, tr.grpK = GroupHorizon, -1
		tr.addCon(tr.tfE, p.TMin, hi, 0)
		tr.grp = GroupDynamics
		tr.lateC = append(tr.lateC, len(tr.c)-1)
	}
}

// buildTerminal adds the terminal cost and constraints, the time-optimal
// cost and the speed-of-time regularisation. It leaves tr.grp at
// GroupTerminal and tr.grpK at N−1: build resets them only after
// buildFinish, whose rows (those of Direct step equilibration) are in
// that group too.
func (tr *transcription) buildTerminal(bs *buildState) error {
	p, g, N := tr.p, tr.g, tr.N
	xN := tr.xbE[tr.NE]
	tN := tr.tbE[tr.NE]
	if p.Mayer.IsValid() {
		r, err := tr.subst(ad.Vec{p.Mayer}, xN, N-1, nil, tN)
		if err != nil {
			return fmt.Errorf("fesd: terminal cost: %w", err)
		}
		bs.cost = bs.cost.Add(r[0])
	}
	if t := p.Tracking; t != nil && t.QT != nil {
		ref := t.XRefT
		if ref == nil {
			ref = t.XRef[len(t.XRef)-1]
		}
		bs.cost = bs.cost.Add(quad(g, xN, ref, t.QT))
	}
	tr.grp, tr.grpK = GroupTerminal, N-1
	for _, c := range p.Terminal {
		n0 := len(tr.c)
		if err := tr.addConstraint(c, xN, N-1, nil, tN, 0); err != nil {
			return err
		}
		for i := n0; i < len(tr.c); i++ {
			tr.lateC = append(tr.lateC, i)
		}
	}
	if p.TimeOptimal {
		bs.cost = bs.cost.Add(tr.tfE)
	}
	if p.SOTRho > 0 {
		for k := 0; k < N; k++ {
			if tr.sot[k] >= 0 {
				bs.cost = bs.cost.Add(ad.Sq(tr.sE[k].AddConst(-1)).Scale(p.SOTRho))
			}
		}
		if tr.sotG >= 0 && p.SpeedOfTime == GlobalSpeedOfTime {
			bs.cost = bs.cost.Add(ad.Sq(tr.w[tr.sotG].AddConst(-1)).Scale(p.SOTRho))
		}
	}
	return nil
}

// buildFinish adds the complementarities and the step equilibration, sets
// the objective and puts the global variables and the constraints on them
// last in the KKT ordering hint (an arrow structure: no fill when
// eliminated last).
func (tr *transcription) buildFinish(bs *buildState) {
	tr.form.complementarity()
	tr.equilE = tr.equilibration()
	tr.obj = bs.cost.Add(tr.equilE)
	final := tr.cur + 1
	for _, i := range tr.late {
		tr.wstage[i] = final
	}
	for _, i := range tr.lateC {
		tr.cstage[i] = final
	}
}
