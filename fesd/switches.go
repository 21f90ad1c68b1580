package fesd

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// Side is the state of one switching function ψ_j on a finite element, read
// from the complementarity structure of the FESD solution.
type Side int8

const (
	// SideUnknown: the complementarity pairs do not decide the state
	// (all values below ActiveSetTol).
	SideUnknown Side = iota
	// SideNegative: ψ_j < 0 on the element (Step: λⁿ_j > 0, so α_j = 0;
	// Stewart: every active mode lies in ψ_j < 0).
	SideNegative
	// SidePositive: ψ_j > 0 (Step: λᵖ_j > 0, α_j = 1; Stewart: every
	// active mode lies in ψ_j > 0).
	SidePositive
	// SideSurface: on ψ_j = 0 (Step: λᵖ_j = λⁿ_j = 0, α_j ∈ [0, 1];
	// Stewart: active modes on both sides) — sliding.
	SideSurface
)

func (s Side) String() string {
	switch s {
	case SideNegative:
		return "ψ<0"
	case SidePositive:
		return "ψ>0"
	case SideSurface:
		return "ψ=0"
	}
	return "?"
}

// SwitchKind classifies a switch of one ψ_j (004 Table 2, Figure 2).
type SwitchKind int

const (
	// Crossing: from one side of ψ_j = 0 to the other.
	Crossing SwitchKind = iota
	// EnteringSliding: from one side onto the surface ψ_j = 0.
	EnteringSliding
	// LeavingSliding: from the (attractive) surface to one side, where the
	// field on the other side still points towards the surface.
	LeavingSliding
	// Spontaneous: from the surface to one side while the field on the
	// other side points away from it (a repulsive surface, where the
	// Filippov solution is not unique).
	Spontaneous
)

func (k SwitchKind) String() string {
	switch k {
	case Crossing:
		return "crossing"
	case EnteringSliding:
		return "entering sliding"
	case LeavingSliding:
		return "leaving sliding"
	case Spontaneous:
		return "spontaneous"
	}
	return fmt.Sprintf("SwitchKind(%d)", int(k))
}

// Switch is an active-set change of ψ_j at an element boundary.
type Switch struct {
	// Time is the element boundary t_n (numerical time) and Boundary its
	// index in Trajectory.T; Stage is the stage (simulation step or
	// control stage) of the element after it.
	Time     float64
	Boundary int
	Stage    int
	// Subsystem is the subsystem of ψ (−1: the general steps of
	// Model.Steps) and Psi the index j within it.
	Subsystem int
	Psi       int
	Kind      SwitchKind
	// Before and After are the sides of all switching functions of the
	// subsystem on the elements before and after t_n.
	Before, After []Side
	// X is the state at t_n and PsiValue = ψ_j(X).
	X        []float64
	PsiValue float64
}

// psiGroup is one subsystem (or the general steps) as seen by the switch
// detection.
type psiGroup struct {
	sub    int
	off    int // offset of its ψ in Model.EvalPsi
	npsi   int
	S      [][]int // Stewart: sign matrix (rows = base sets = θ pairs)
	theta  int     // Stewart: index into DCS.Comp of the λ ⊥ θ group
	nGrp   int     // Step: index into DCS.Comp of λⁿ ⊥ α
	pGrp   int     // Step: index of λᵖ ⊥ 1 − α
	lieOff int     // offset in the Lie-derivative output (−1: none)
	nBase  int
}

// switchInfo holds what the switch detection needs besides the solution.
type switchInfo struct {
	m      *dcs.Model
	d      *dcs.DCS
	o      *resolved
	groups []psiGroup
	read   sideReader   // the formulation's switch read-out
	lie    *ad.Function // ∇ψ_j · f_b for every subsystem with modes per base set
	lieWS  *ad.Workspace
	nLie   int
	bzPos  map[int]int
	// psiJ is ∂ψ/∂(x, u, p), compiled on first use (saltation.go).
	psiJ         *ad.Function
	psiJWS       *ad.Workspace
	psiJR, psiJC int
}

// newSwitchInfo prepares the switch detection of d; it builds the Lie
// derivatives in d's graph (from d's copy of the model).
func newSwitchInfo(d *dcs.DCS, o *resolved) (*switchInfo, error) {
	m := d.Model()
	read, err := newSideReader(d)
	if err != nil {
		return nil, err
	}
	si := &switchInfo{m: m, d: d, o: o, read: read, bzPos: map[int]int{}}
	for i, zi := range d.BoundaryZ {
		si.bzPos[zi] = i
	}
	off := 0
	var lieOut ad.Vec
	for k, s := range m.Subsystems {
		np := len(s.Psi)
		gr := psiGroup{sub: k, off: off, npsi: np, theta: -1, nGrp: -1, pGrp: -1, lieOff: -1}
		off += np
		if np == 0 {
			continue
		}
		gr.S = s.S
		if gr.S == nil {
			gr.S = dcs.DefaultSigns(np)
		}
		gr.nBase = len(gr.S)
		for gi, cg := range d.Comp {
			if cg.Subsystem != k {
				continue
			}
			switch cg.Kind {
			case dcs.LambdaTheta:
				gr.theta = gi
			case dcs.LambdaNAlpha:
				gr.nGrp = gi
			case dcs.LambdaPOneMinusAlpha:
				gr.pGrp = gi
			}
		}
		if s.Regions == nil && len(s.F) == gr.nBase {
			gr.lieOff = len(lieOut)
			for b := 0; b < gr.nBase; b++ {
				jv, err := ad.JVP(s.Psi, m.X, s.F[b])
				if err != nil {
					return nil, err
				}
				lieOut = append(lieOut, jv...) // [b][j]
			}
		}
		si.groups = append(si.groups, gr)
	}
	if len(m.Steps) > 0 {
		np := 0
		for _, st := range m.Steps {
			np += len(st.Psi)
		}
		gr := psiGroup{sub: -1, off: off, npsi: np, theta: -1, nGrp: -1, pGrp: -1, lieOff: -1}
		for gi, cg := range d.Comp {
			if cg.Subsystem != -1 {
				continue
			}
			switch cg.Kind {
			case dcs.LambdaNAlpha:
				gr.nGrp = gi
			case dcs.LambdaPOneMinusAlpha:
				gr.pGrp = gi
			}
		}
		si.groups = append(si.groups, gr)
	}
	if len(lieOut) > 0 {
		f, err := ad.NewFunction("fesd_lie",
			[]ad.Arg{{Name: "x", V: d.X}, {Name: "u", V: d.U}, {Name: "p", V: d.P}, {Name: "t", V: ad.Vec{d.Time}}},
			[]ad.Arg{{Name: "lie", V: lieOut}})
		if err != nil {
			return nil, fmt.Errorf("fesd: compiling the switch classification: %w", err)
		}
		si.lie, si.lieWS, si.nLie = f, f.NewWorkspace(), len(lieOut)
	}
	return si, nil
}

// pairState classifies one complementarity pair over a set of points.
type pairState int8

const (
	pairUndecided pairState = iota
	pairLambda              // multiplier positive: the selection side is 0
	pairSel                 // selection positive: the multiplier is 0
)

func (si *switchInfo) pairState(pts elemPoints, gi, pi int) pairState {
	pr := si.d.Comp[gi].Pairs[pi]
	var lmax, smax float64
	for _, z := range pts.stages {
		a, b := pr.Values(z)
		lmax = math.Max(lmax, a)
		smax = math.Max(smax, b)
	}
	if pos, ok := si.bzPos[pr.Lambda]; ok {
		for _, bz := range pts.bounds {
			if bz != nil {
				lmax = math.Max(lmax, bz[pos])
			}
		}
	}
	tau := si.o.ActiveSetTol
	switch {
	case lmax > tau && lmax > smax:
		return pairLambda
	case smax > tau && smax > lmax:
		return pairSel
	}
	return pairUndecided
}

// elemPoints are the values on one finite element: the algebraic variables
// at the stages and the boundary variables at its start and end (the
// multiplier points of the cross complementarity, so that a positive
// multiplier anywhere on the element means a zero selection on all of it).
type elemPoints struct {
	stages [][]float64
	bounds [][]float64
	// psi are all switching function values (Model.EvalPsi) at the start
	// and end of the element, or nil.
	psi [2][]float64
	// short marks an element shorter than shortElement of the mean: one
	// that FESD put between a switch and a step boundary next to it.
	short bool
}

// shortElement is the length, relative to the mean element, below which an
// element whose complementarity pairs do not decide a side takes the side
// of the sign of ψ at its ends (elemPoints.short): on an element that
// short, |ψ| stays far below SwitchTol off the surface too.
const shortElement = 1e-4

// sideReader is the switch read-out of a formulation: the side of every
// switching function of one group on the points of an element, from the
// complementarity values there (newSideReader selects it).
type sideReader interface {
	sides(si *switchInfo, gr *psiGroup, zs elemPoints) []Side
}

// sides returns the side of every ψ of group gr on the points zs.
func (si *switchInfo) sides(gr *psiGroup, zs elemPoints) []Side { return si.read.sides(si, gr, zs) }

// stewartSides reads the sides off the active base sets of Stewart's
// λ ⊥ θ: a ψ_j is on the side of the sign S_bj of every active base set b,
// on the surface if active sets lie on both sides.
type stewartSides struct{}

func (stewartSides) sides(si *switchInfo, gr *psiGroup, zs elemPoints) []Side {
	out := make([]Side, gr.npsi)
	if gr.theta < 0 {
		return out
	}
	var active []int
	for b := 0; b < gr.nBase; b++ {
		if si.pairState(zs, gr.theta, b) == pairSel {
			active = append(active, b)
		}
	}
	if len(active) == 0 {
		return out
	}
	for j := range out {
		pos, neg := false, false
		for _, b := range active {
			if gr.S[b][j] > 0 {
				pos = true
			} else {
				neg = true
			}
		}
		switch {
		case pos && neg:
			out[j] = SideSurface
		case pos:
			out[j] = SidePositive
		default:
			out[j] = SideNegative
		}
	}
	return out
}

// stepSides reads the sides off the Step pairs λⁿ ⊥ α and λᵖ ⊥ 1 − α.
type stepSides struct{}

func (stepSides) sides(si *switchInfo, gr *psiGroup, zs elemPoints) []Side {
	out := make([]Side, gr.npsi)
	if gr.nGrp < 0 || gr.pGrp < 0 {
		return out
	}
	for j := range out {
		sn, sp := si.pairState(zs, gr.nGrp, j), si.pairState(zs, gr.pGrp, j)
		switch {
		case sn == pairLambda && sp != pairLambda:
			out[j] = SideNegative
		case sp == pairLambda && sn != pairLambda:
			out[j] = SidePositive
		case sn == pairSel && sp == pairSel:
			out[j] = SideSurface // 0 < α < 1
		case sn != pairLambda && sp != pairLambda:
			// α at a bound with the multiplier of that bound below τ: on
			// the surface (α ∈ {0, 1} there), or on a short element next
			// to a switch, where |ψ| = λ stays below τ. The surface has
			// ψ_j = 0 at both ends of the element.
			out[j] = SideSurface
			tol := si.o.switchTol
			if zs.short {
				tol = 0
			}
			if v := si.endPsi(zs, gr.off+j); math.Abs(v) > tol {
				out[j] = SideNegative
				if v > 0 {
					out[j] = SidePositive
				}
			}
		}
	}
	return out
}

// endPsi returns the value of ψ (index i of Model.EvalPsi) at the end of
// the element with the larger magnitude (0 without values).
func (si *switchInfo) endPsi(zs elemPoints, i int) float64 {
	var v float64
	for _, ps := range zs.psi {
		if ps != nil && math.Abs(ps[i]) > math.Abs(v) {
			v = ps[i]
		}
	}
	return v
}

// detect lists the switches of a simulation result: at every element
// boundary (and at the initial time, for spontaneous switches) where the
// side of some ψ_j changes between the neighbouring elements and
// |ψ_j(x_n)| ≤ SwitchTol.
// uAt and pAt give the control and the parameters of element n.
func (si *switchInfo) detect(r *Trajectory, uAt, pAt func(n int) []float64) ([]Switch, error) {
	ns := si.o.Stages
	ne := len(r.H)
	if ne == 0 {
		return nil, nil
	}
	elem := func(e int) elemPoints {
		p := elemPoints{stages: r.PointZ[e*ns : (e+1)*ns]}
		if !si.o.DisableFESD {
			p.bounds = r.BoundaryZ[e : e+2]
		}
		return p
	}
	// ψ at both ends of every element, with the element's control.
	endPsi := make([][2][]float64, ne)
	for e := range ne {
		u, p := uAt(e), pAt(e)
		for k := range 2 {
			v, err := si.m.EvalPsi(r.X[e+k], u, p)
			if err != nil {
				return nil, err
			}
			endPsi[e][k] = v
		}
	}
	mean := 0.0
	for _, h := range r.H {
		mean += h / float64(ne)
	}
	elemPsi := func(e int) elemPoints {
		pts := elem(e)
		pts.psi = endPsi[e]
		pts.short = r.H[e] < shortElement*mean
		return pts
	}
	var out []Switch
	for gi := range si.groups {
		gr := &si.groups[gi]
		prev := si.sides(gr, elemPoints{stages: [][]float64{r.Z0}})
		for e := 0; e < ne; e++ {
			cur := si.sides(gr, elemPsi(e))
			b := e // boundary t_e between element e−1 and e
			x := r.X[b]
			u, p := uAt(e), pAt(e)
			psi := endPsi[e][0]
			var lie []float64
			for j := 0; j < gr.npsi; j++ {
				before, after := prev[j], cur[j]
				if before == after || before == SideUnknown || after == SideUnknown {
					continue
				}
				pv := psi[gr.off+j]
				if math.Abs(pv) > si.o.switchTol {
					continue
				}
				var kind SwitchKind
				switch {
				case before != SideSurface && after != SideSurface:
					kind = Crossing
				case after == SideSurface:
					kind = EnteringSliding
				default:
					if lie == nil && si.lie != nil && gr.lieOff >= 0 {
						lie = make([]float64, si.nLie)
						if err := si.lie.Eval(si.lieWS, [][]float64{x, u, p, {r.T[b]}}, [][]float64{lie}); err != nil {
							return out, err
						}
					}
					kind = si.leaving(gr, lie, j, cur)
				}
				if e == 0 && kind != Spontaneous {
					// At the initial time the previous side comes from
					// x₀ alone; only a departure from a repulsive
					// surface is a switch there.
					continue
				}
				out = append(out, Switch{
					Time: r.T[b], Boundary: b, Stage: r.StageOf[e],
					Subsystem: gr.sub, Psi: j, Kind: kind,
					Before: clone8(prev), After: clone8(cur),
					X: clone(x), PsiValue: pv,
				})
			}
			prev = cur
		}
	}
	sortSwitches(out)
	return mergeShortSliding(out, r.H), nil
}

// mergeShortSliding replaces an entry into sliding on ψ_j at boundary b
// and the departure from it at b + 1 to the other side by one crossing
// when the element between them is negligibly short (h ≤ 1e-6 times the
// mean element length): a zero-length element on the surface, which the
// step-size bounds allow (h ≥ 0 for γ_h ≥ 1), is how a crossing can look
// at a degenerate solution of the FESD equations.
func mergeShortSliding(sw []Switch, h []float64) []Switch {
	if len(sw) < 2 || len(h) == 0 {
		return sw
	}
	mean := 0.0
	for _, v := range h {
		mean += v
	}
	short := 1e-6 * mean / float64(len(h))
	out := sw[:0:0]
	for i := 0; i < len(sw); i++ {
		a := sw[i]
		if a.Kind == EnteringSliding && a.Boundary < len(h) && h[a.Boundary] <= short {
			// the departure from the same surface one element later
			for j := i + 1; j < len(sw) && sw[j].Boundary <= a.Boundary+1; j++ {
				b := sw[j]
				if b.Boundary != a.Boundary+1 || b.Subsystem != a.Subsystem || b.Psi != a.Psi ||
					b.Kind != LeavingSliding || a.Before[a.Psi] == b.After[b.Psi] {
					continue
				}
				a.Kind, a.After = Crossing, b.After
				sw = append(sw[:j:j], sw[j+1:]...)
				break
			}
		}
		out = append(out, a)
	}
	return out
}

// leaving classifies a departure from the surface ψ_j = 0 towards the side
// after[j]: spontaneous if a mode on the other side (compatible with the
// other switching functions' sides) points away from the surface, leaving
// sliding otherwise (also when no Lie derivatives are available).
func (si *switchInfo) leaving(gr *psiGroup, lie []float64, j int, after []Side) SwitchKind {
	if lie == nil || gr.lieOff < 0 {
		return LeavingSliding
	}
	other := -1 // sign of S_bj of the modes on the other side
	if after[j] == SideNegative {
		other = 1
	}
	scale := 0.0
	for b := 0; b < gr.nBase; b++ {
		scale = math.Max(scale, math.Abs(lie[gr.lieOff+b*gr.npsi+j]))
	}
	tol := 1e-6 * math.Max(1, scale)
	for b := 0; b < gr.nBase; b++ {
		if gr.S[b][j] != other {
			continue
		}
		ok := true
		for l, s := range after {
			if l == j {
				continue
			}
			if (s == SidePositive && gr.S[b][l] < 0) || (s == SideNegative && gr.S[b][l] > 0) {
				ok = false
			}
		}
		if !ok {
			continue
		}
		v := lie[gr.lieOff+b*gr.npsi+j] // ∇ψ_j · f_b
		if float64(other)*v > tol {     // points away from the surface into its own side
			return Spontaneous
		}
	}
	return LeavingSliding
}

func clone8(s []Side) []Side { return append([]Side(nil), s...) }

func sortSwitches(s []Switch) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && (s[j].Time < s[j-1].Time || (s[j].Time == s[j-1].Time && s[j].Subsystem < s[j-1].Subsystem)); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
