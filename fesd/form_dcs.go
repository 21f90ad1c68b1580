package fesd

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
)

// dcsFormulation transcribes a dcs.DCS — Stewart's and the Step
// (Heaviside) formulation alike, since package dcs writes both as
// ẋ = F(x, u, p, z, t), G(x, u, p, z) = 0 with complementarity pairs (004
// eq. 3). Its variables are the algebraic variables z and the slacks
// 1 − α of the OneMinus pairs at every stage point, the boundary variables
// (DCS.BoundaryZ) at the end of every element when c_{n_s} ≠ 1, and their
// fixed start values λ₀₀; its rows are G = 0 and the slacks' definitions
// at the stage points and the boundary equations DCS.BoundaryG at the
// boundary points; its complementarity is the cross complementarity of
// the chosen mode; its indicator is 004 §4.4's η_n = Π ν over
// DCS.Equilibration.
type dcsFormulation struct {
	tr     *transcription
	d      *dcs.DCS
	fromFG ad.Vec // the DCS's symbols that a stage point substitutes
	fg     ad.Vec // the DCS's F and G
}

var _ formulation = (*dcsFormulation)(nil)

func newDCSFormulation(tr *transcription) formulation {
	d := tr.d
	return &dcsFormulation{tr: tr, d: d,
		fromFG: ad.Concat(d.X, d.Z, ad.Vec{d.Time}, d.U, d.P), fg: ad.Concat(d.F, d.G)}
}

// check: with FESD the multiplier of every pair must be a boundary
// variable (the cross complementarity reaches it at the element
// boundaries).
func (f *dcsFormulation) check() error {
	if f.tr.o.DisableFESD {
		return nil
	}
	for gi, grp := range f.d.Comp {
		for pi, pr := range grp.Pairs {
			if _, ok := f.tr.bzPos[pr.Lambda]; !ok {
				return fmt.Errorf("%w: multiplier z[%d] of pair %d of group %d is not a boundary variable", ErrStructure, pr.Lambda, pi, gi)
			}
		}
	}
	return nil
}

func (f *dcsFormulation) vars() formVars {
	tr, d := f.tr, f.d
	inf := math.Inf(1)
	var v formVars
	bzLo, bzHi := make([]float64, tr.nb), make([]float64, tr.nb)
	for i, zi := range d.BoundaryZ {
		bzLo[i], bzHi[i] = d.ZLower[zi], d.ZUpper[zi]
	}
	if !tr.o.DisableFESD && tr.nb > 0 {
		zero := make([]float64, tr.nb)
		v.horizon = []varBlock{{name: "fesd_z00", kind: vStart, lo: zero, hi: zero}}
	}
	slLo, slHi := make([]float64, len(tr.slackSel)), make([]float64, len(tr.slackSel))
	for q := range slHi {
		slHi[q] = inf
	}
	v.point = []varBlock{
		{name: "fesd_z", tmpl: "tmpl_z", kind: vZ, lo: d.ZLower, hi: d.ZUpper},
		{name: "fesd_s", tmpl: "tmpl_s", kind: vSlack, lo: slLo, hi: slHi},
	}
	if tr.o.rbp && tr.nb > 0 {
		v.elemEnd = []varBlock{{name: "fesd_zb", tmpl: "tmpl_zb", kind: vZB, lo: bzLo, hi: bzHi}}
	}
	return v
}

// placed keeps the positions in the layout (start, z, sl, zb), where the
// simulator's start values, prediction and branch solves find them.
func (f *dcsFormulation) placed(at varPlace, n, m int, first []int) {
	L := f.tr.layout
	switch at {
	case atHorizon:
		if len(first) > 0 {
			L.start = first[0]
		}
	case atStagePoint:
		L.z[n][m], L.sl[n][m] = first[0], first[1]
	case atElemEnd:
		L.zb[n] = -1
		if len(first) > 0 {
			L.zb[n] = first[0]
		}
	}
}

// start: the states of a Filippov system are continuous.
func (f *dcsFormulation) start(ev *elemIn) ad.Vec { return ev.xn }

// jump: no rows.
func (f *dcsFormulation) jump(*elemIn) ([]conRow, error) { return nil, nil }

// stage instantiates F and G at the stage point; the rows are G = 0 and
// the slacks' definitions s = 1 − α.
func (f *dcsFormulation) stage(pt *stagePoint) (ad.Vec, []conRow, error) {
	tr := f.tr
	z, sl := pt.v[0], pt.v[1]
	to := ad.Concat(pt.x, z, ad.Vec{pt.t}, pt.u, pt.p)
	sub, err := ad.Substitute(f.fg, f.fromFG, to)
	if err != nil {
		return nil, nil, fmt.Errorf("instantiating the DCS at stage point %d: %w", pt.m, err)
	}
	fx, gz := sub[:tr.nx], sub[tr.nx:]
	rows := eqRows(nil, gz)
	for q, sel := range tr.slackSel {
		rows = append(rows, conRow{e: sl[q].Add(z[sel]).AddConst(-1)})
	}
	return fx, rows, nil
}

// end returns the boundary equations of the DCS at the end state with the
// boundary variables (none without them).
func (f *dcsFormulation) end(ev *elemIn) ([]conRow, error) {
	tr, d := f.tr, f.d
	if len(ev.end) == 0 {
		return nil, nil
	}
	zb := ev.end[0]
	rows := make(ad.Vec, len(d.BoundaryG))
	for i, r := range d.BoundaryG {
		rows[i] = d.G[r]
	}
	bzSyms := make(ad.Vec, tr.nb)
	for i, zi := range d.BoundaryZ {
		bzSyms[i] = d.Z[zi]
	}
	sub, err := ad.Substitute(rows, ad.Concat(d.X, bzSyms, d.U, d.P), ad.Concat(ev.xe, zb, ev.u, ev.p))
	if err != nil {
		return nil, fmt.Errorf("boundary equations: %w", err)
	}
	return eqRows(nil, sub), nil
}

// complementarity adds the complementarity terms: per stage point
// without FESD, else the cross complementarity of the chosen mode (004 eq.
// 37–38 and 43; the sums of each mode are in the package documentation).
func (f *dcsFormulation) complementarity() {
	tr, d := f.tr, f.d
	for n := 0; n < tr.NE; n++ {
		for gi, grp := range d.Comp {
			for pi, pr := range grp.Pairs {
				sel := make([]int, tr.ns)
				for m := range sel {
					sel[m] = tr.selIdx(d, n, m, gi, pi)
				}
				if tr.o.DisableFESD {
					for m := range sel {
						tr.addComp(n, mpcc.Pair(tr.z[n][m]+pr.Lambda, sel[m]))
					}
					continue
				}
				tr.addComp(n, crossComp(tr.o.CrossComp, tr.lamPoints(n, pr.Lambda), sel)...)
			}
		}
	}
}

// crossComp returns the terms of the cross complementarity of mode between
// the multiplier points lam and the selection points sel of one pair in
// one element.
func crossComp(mode CrossComp, lam, sel []int) []mpcc.Complementarity {
	var out []mpcc.Complementarity
	switch mode {
	case StageStage:
		for _, a := range lam {
			for _, b := range sel {
				out = append(out, mpcc.Pair(a, b))
			}
		}
	case FEStage:
		for _, a := range lam {
			var t mpcc.Complementarity
			for _, b := range sel {
				t.Pairs = append(t.Pairs, [2]int{a, b})
			}
			out = append(out, t)
		}
	case StageFE:
		for _, b := range sel {
			var t mpcc.Complementarity
			for _, a := range lam {
				t.Pairs = append(t.Pairs, [2]int{a, b})
			}
			out = append(out, t)
		}
	case FEFE:
		var t mpcc.Complementarity
		for _, a := range lam {
			for _, b := range sel {
				t.Pairs = append(t.Pairs, [2]int{a, b})
			}
		}
		out = append(out, t)
	}
	return out
}

// elementSum returns Σ of z[a] over the points of element n: the stages,
// and for boundary variables also the start point and the boundary point
// (004 §4.4: σ = Σ_{m=0}^{n_s} λ_{n,m}).
func (f *dcsFormulation) elementSum(n, a int) ad.Expr {
	tr := f.tr
	s := tr.g.Const(0)
	if _, ok := tr.bzPos[a]; ok {
		for _, k := range tr.lamPoints(n, a) {
			s = s.Add(tr.w[k])
		}
		return s
	}
	for m := 0; m < tr.ns; m++ {
		s = s.Add(tr.w[tr.z[n][m]+a])
	}
	return s
}

// indicator returns η_n = Π_m ν_{n,m} of 004 §4.4 at the boundary between
// elements n−1 and n.
func (f *dcsFormulation) indicator(n int) ad.Expr {
	e := f.tr.g.Const(1)
	for _, t := range f.d.Equilibration {
		nu := f.elementSum(n-1, t.A).Mul(f.elementSum(n, t.A)).
			Add(f.elementSum(n-1, t.B).Mul(f.elementSum(n, t.B)))
		e = e.Mul(nu)
	}
	return e
}

// lamPoints returns the NLP indices of boundary variable z[a] at the points
// k = 0 (start of element n), the stages and (boundary point) the end of
// element n.
func (L *layout) lamPoints(n, a int) []int {
	pos := L.bzPos[a]
	pts := []int{L.prevEnd(n, a, pos)}
	for m := 0; m < L.ns; m++ {
		pts = append(pts, L.z[n][m]+a)
	}
	if L.zb[n] >= 0 {
		pts = append(pts, L.zb[n]+pos)
	}
	return pts
}

// prevEnd is the index of z[a] at the start of element n: the start
// variable for n = 0, else the end of element n−1 (its boundary point, or
// its last stage when c_{n_s} = 1).
func (L *layout) prevEnd(n, a, pos int) int {
	if n == 0 {
		return L.start + pos
	}
	if L.zb[n-1] >= 0 {
		return L.zb[n-1] + pos
	}
	return L.z[n-1][L.ns-1] + a
}

// selIdx is the NLP index of the selection side of pair (gi, pi) at stage m
// of element n.
func (L *layout) selIdx(d *dcs.DCS, n, m, gi, pi int) int {
	pr := d.Comp[gi].Pairs[pi]
	if pr.OneMinus {
		return L.sl[n][m] + L.slackPos[[2]int{gi, pi}]
	}
	return L.z[n][m] + pr.Sel
}
