package fesd

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
)

// elemRows is what the steps of elementRows share: the element's inputs,
// the path complementarities, the running cost and the emitter, the
// states and times at the stage points and the running-cost sum
// Σ_m b_m L(x_m, …).
type elemRows struct {
	tr     *transcription
	ev     elemIn
	pcs    []pathComp
	lag    ad.Expr
	emit   func(e ad.Expr, lo, hi float64, st int)
	xs     []ad.Vec
	ts     []ad.Expr
	lagSum ad.Expr
}

// rows emits the rows rs with stage hint st.
func (er *elemRows) rows(rs []conRow, st int) {
	for _, r := range rs {
		er.emit(r.e, r.lo, r.hi, st)
	}
}

// stagePoint emits the rows of stage point m: the Runge–Kutta equations
// with the formulation's right-hand side, the formulation's rows, the
// state bounds of the differential representation and the path rows; it
// adds the point's running cost to lagSum.
func (er *elemRows) stagePoint(m int) error {
	tr, ev := er.tr, er.ev
	p, o := tr.p, tr.o
	nx := tr.nx
	f, rows, err := tr.form.stage(&stagePoint{m: m, x: er.xs[m], t: er.ts[m], u: ev.u, p: ev.p, v: ev.pt[m]})
	if err != nil {
		return err
	}
	er.collocation(m, f)
	er.rows(rows, m)
	if er.lag.IsValid() {
		lv, err := tr.substAt(ad.Vec{er.lag}, er.xs[m], ev.u, ev.p, ev.z(m), er.ts[m], ev.tf)
		if err != nil {
			return fmt.Errorf("running cost: %w", err)
		}
		if w := o.tab.B[m]; w != 0 {
			er.lagSum = er.lagSum.Add(lv[0].Scale(w))
		}
	}
	if p.XBoundsAt == AtStagePoints && o.Representation == Differential && (p.XL != nil || p.XU != nil) {
		for i := 0; i < nx; i++ {
			lo, hi := bnd(p.XL, p.XU, i)
			if !math.IsInf(lo, -1) || !math.IsInf(hi, 1) {
				er.emit(er.xs[m][i], lo, hi, m)
			}
		}
	}
	return er.stagePath(m)
}

// collocation emits the Runge–Kutta equations of stage point m with the
// right-hand side f there: h·s·f = Σ_q C_qm X_q (integral form, with
// X_0 = x_n) or v_m = s·f (differential).
func (er *elemRows) collocation(m int, f ad.Vec) {
	tr, ev := er.tr, er.ev
	o, ns := tr.o, tr.ns
	for i := 0; i < tr.nx; i++ {
		sf := ev.s.Mul(f[i])
		if o.Representation == Integral {
			r := ev.h.Mul(sf).Sub(ev.xn[i].Scale(o.integ.C[0][m]))
			for q := 0; q < ns; q++ {
				r = r.Sub(ev.X[q][i].Scale(o.integ.C[q+1][m]))
			}
			er.emit(r, 0, 0, ns-1)
		} else {
			er.emit(ev.X[m][i].Sub(sf), 0, 0, ns-1)
		}
	}
}

// stagePath emits the path constraints at stage point m and the equations
// a = G, b = H of its lifted path complementarities.
func (er *elemRows) stagePath(m int) error {
	tr, ev := er.tr, er.ev
	for _, c := range tr.p.Path {
		if c.At != AtStagePoints {
			continue
		}
		G, err := tr.substAt(c.G, er.xs[m], ev.u, ev.p, ev.z(m), er.ts[m], ev.tf)
		if err != nil {
			return fmt.Errorf("constraint: %w", err)
		}
		for i, e := range G {
			lo, hi := c.bounds(i)
			er.emit(e, lo, hi, m)
		}
	}
	j := 0
	for _, c := range er.pcs {
		if c.At != AtStagePoints {
			continue
		}
		GH, err := tr.substAt(ad.Concat(c.G, c.H), er.xs[m], ev.u, ev.p, ev.z(m), er.ts[m], ev.tf)
		if err != nil {
			return err
		}
		nG := len(c.G)
		for i := 0; i < nG; i++ {
			er.emit(ev.pc[m][j].Sub(GH[i]), 0, 0, m)
			er.emit(ev.pc[m][j+1].Sub(GH[nG+i]), 0, 0, m)
			j += 2
		}
	}
	return nil
}

// endState emits the equations of the end state x_e: x_e = Σ_q D_q X_q
// (integral form, X_0 = x_n) or x_e = x_n + h Σ_m b_m v_m (differential).
func (er *elemRows) endState() {
	tr, ev := er.tr, er.ev
	o, ns := tr.o, tr.ns
	for i := 0; i < tr.nx; i++ {
		var r ad.Expr
		if o.Representation == Integral {
			r = ev.xe[i].Sub(ev.xn[i].Scale(o.integ.D[0]))
			for q := 0; q < ns; q++ {
				r = r.Sub(ev.X[q][i].Scale(o.integ.D[q+1]))
			}
		} else {
			acc := tr.g.Const(0)
			for m := 0; m < ns; m++ {
				if bw := o.tab.B[m]; bw != 0 {
					acc = acc.Add(ev.X[m][i].Scale(bw))
				}
			}
			r = ev.xe[i].Sub(ev.xn[i]).Sub(ev.h.Mul(acc))
		}
		er.emit(r, 0, 0, ns)
	}
}
