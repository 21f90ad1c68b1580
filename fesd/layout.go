package fesd

import (
	"math"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
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
	vU                    // control q_k (n = k, i)
	vSOT                  // speed of time (n = stage or −1 global)
	vV                    // global variable V_i
	vPC                   // lifted side of a path complementarity
	vForm                 // a formulation's own variable (its start values are the formulation's)
)

type varInfo struct {
	kind    varKind
	n, m, i int
}

// layout is the grid of one transcription — control stages, finite
// elements, Runge–Kutta stage points — and every map from it into the NLP:
// the position of each variable block in w, the position of each parameter
// block in the parameter vector, the stage hint of every variable and
// constraint, and the complementarity terms. Simulation uses the one-stage
// layout with a fixed control; an OCP has N stages with N_FE,k elements
// each, numbered consecutively (so the boundary multipliers and the cross
// complementarity are continuous across stage boundaries).
type layout struct {
	// grid
	N         int       // control stages
	NE        int       // finite elements of all stages
	ns        int       // Runge–Kutta stages per element
	nfe       []int     // elements per control stage
	elemStart []int     // first element of stage k (len N+1)
	stageOf   []int     // control stage of every element
	h0        []float64 // nominal element length per stage
	tau       []float64 // numerical time of the stage boundaries relative to t₀

	// dimensions of the DCS
	nx, nz, nu, np, nb int

	// variables: first index in w of each block (−1: absent); start, z,
	// sl and zb are the blocks of the DCS formulation, which sets them
	// (dcsFormulation.placed) and which the simulator's start values,
	// prediction and branch solves read
	start int     // the len(BoundaryZ) start variables λ₀₀ (fixed by bounds)
	h     []int   // [n] step size
	x     [][]int // [n][m] nx stage states (integral) or derivatives (differential)
	z     [][]int // [n][m] nz stage algebraic variables
	sl    [][]int // [n][m] slacks 1 − α of the OneMinus pairs
	xb    []int   // [n] nx state at the end of element n
	zb    []int   // [n] nb boundary variables at the end of element n (c_{n_s} ≠ 1)
	u     []int   // [k] nu controls of stage k (−1: fixed control, a parameter)
	sot   []int   // [k] stage speed of time (−1: none)
	sotG  int     // global speed of time or time scaling (−1: none)
	v     int     // first global variable V (−1: none)

	// parameters: offsets in the parameter vector (−1: absent)
	px0   int     // nx initial state
	pu    []int   // [k] nu controls of stage k (fixed control only)
	pp    [][]int // [k][i] model parameter i of stage k (−1: a global variable)
	pt0   int     // start time t₀
	phref int     // NE targets of the HeuristicMean step equilibration

	// bzPos maps a z index to its position in DCS.BoundaryZ; slackSel is
	// the z index of the α of every slack.
	bzPos    map[int]int
	slackPos map[[2]int]int
	slackSel []int

	winfo  []varInfo
	wstage []int
	cstage []int
	comp   []mpcc.Complementarity
	// compElem is the finite element of every term of comp (−1: terms
	// bound to no element, such as path complementarities).
	compElem []int
}

// newLayout sets up the grid of N stages over [t₀, t₀ + T] with nfe(k)
// elements in stage k, and the boundary-variable maps of d.
func newLayout(d *dcs.DCS, ns, N int, T float64, nfe func(k int) int) *layout {
	L := &layout{
		N: N, ns: ns,
		nx: len(d.X), nz: len(d.Z), nu: len(d.U), np: len(d.P), nb: len(d.BoundaryZ),
		start: -1, sotG: -1, v: -1, px0: -1, pt0: -1, phref: -1,
		bzPos: map[int]int{}, slackPos: map[[2]int]int{},
	}
	L.nfe = make([]int, N)
	L.elemStart = make([]int, N+1)
	L.h0 = make([]float64, N)
	L.tau = make([]float64, N+1)
	for k := 0; k < N; k++ {
		L.nfe[k] = nfe(k)
		L.elemStart[k+1] = L.elemStart[k] + L.nfe[k]
		L.h0[k] = T / float64(N*L.nfe[k])
		L.tau[k] = T * float64(k) / float64(N)
		for n := 0; n < L.nfe[k]; n++ {
			L.stageOf = append(L.stageOf, k)
		}
	}
	L.tau[N] = T
	L.NE = L.elemStart[N]
	for i, zi := range d.BoundaryZ {
		L.bzPos[zi] = i
	}
	for gi, grp := range d.Comp {
		for pi, pr := range grp.Pairs {
			if pr.OneMinus {
				L.slackPos[[2]int{gi, pi}] = len(L.slackSel)
				L.slackSel = append(L.slackSel, pr.Sel)
			}
		}
	}
	NE := L.NE
	L.h = make([]int, NE)
	L.x = make([][]int, NE)
	L.z = make([][]int, NE)
	L.sl = make([][]int, NE)
	L.xb = make([]int, NE)
	L.zb = make([]int, NE)
	L.u = make([]int, N)
	L.sot = make([]int, N)
	L.pu = make([]int, N)
	L.pp = make([][]int, N)
	for n := range L.z {
		L.z[n], L.sl[n] = make([]int, ns), make([]int, ns)
	}
	for k := range L.u {
		L.u[k], L.sot[k], L.pu[k] = -1, -1, -1
	}
	return L
}

// addComp appends the terms ts of finite element n (−1: none) to comp.
func (L *layout) addComp(n int, ts ...mpcc.Complementarity) {
	for _, t := range ts {
		L.comp = append(L.comp, t)
		L.compElem = append(L.compElem, n)
	}
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
// of the elements (start, h, stage x/v and z, slacks, boundary x and z);
// other kinds (controls, speed of time, global variables, path
// complementarities) are left as they are.
func (L *layout) fillStart(w []float64, e elementStart, rep Representation, d *dcs.DCS) {
	for k, inf := range L.winfo {
		switch inf.kind {
		case vStart:
			w[k] = e.startZB0[inf.i]
		case vH:
			w[k] = e.h[inf.n]
		case vX:
			if rep == Integral {
				w[k] = e.x[inf.n][inf.m][inf.i]
			} else {
				w[k] = e.f[inf.n][inf.m][inf.i]
			}
		case vZ:
			w[k] = e.z[inf.n][inf.m][inf.i]
		case vSlack:
			w[k] = 1 - e.z[inf.n][inf.m][L.slackSel[inf.i]]
		case vXB:
			w[k] = e.xe[inf.n][inf.i]
		case vZB:
			w[k] = e.ze[inf.n][d.BoundaryZ[inf.i]]
		}
	}
}

// uniform returns every element at (x0, z0) (f0: the stage derivatives of
// the differential representation) with nominal step sizes: the cold start
// of a simulation step.
func (L *layout) uniform(x0, z0, f0, zb0 []float64) elementStart {
	e := elementStart{startZB0: zb0}
	for n := 0; n < L.NE; n++ {
		e.h = append(e.h, L.h0[L.stageOf[n]])
		xs, fs, zs := make([][]float64, L.ns), make([][]float64, L.ns), make([][]float64, L.ns)
		for m := range xs {
			xs[m], fs[m], zs[m] = x0, f0, z0
		}
		e.x, e.f, e.z = append(e.x, xs), append(e.f, fs), append(e.z, zs)
		e.xe, e.ze = append(e.xe, x0), append(e.ze, z0)
	}
	return e
}

// shifted builds a start from the previous solution prev of the same
// layout: every element takes the values of the previous last element,
// nominal step sizes, the start variables their fixed values zb0 (the warm
// start of the next simulation step).
func (L *layout) shifted(w, prev, zb0 []float64) {
	last := L.NE - 1
	for k, inf := range L.winfo {
		switch inf.kind {
		case vStart:
			w[k] = zb0[inf.i]
		case vH:
			w[k] = L.h0[L.stageOf[inf.n]]
		case vX:
			w[k] = prev[L.x[last][inf.m]+inf.i]
		case vZ:
			w[k] = prev[L.z[last][inf.m]+inf.i]
		case vSlack:
			w[k] = prev[L.sl[last][inf.m]+inf.i]
		case vXB:
			w[k] = prev[L.xb[last]+inf.i]
		case vZB:
			w[k] = prev[L.zb[last]+inf.i]
		}
	}
}

// startValues returns the values of the boundary variables at x₀ from the
// consistent algebraic values z0, with the multipliers within tol of zero
// set to zero: a state on a switching surface up to the tolerance (such as
// the end of a previous step that ended at a switch) must not pin the
// active set of the first element (nosnoc issue #52).
func (L *layout) startValues(d *dcs.DCS, z0 []float64, tol float64) []float64 {
	zb0 := make([]float64, L.nb)
	for i, zi := range d.BoundaryZ {
		zb0[i] = z0[zi]
	}
	for _, grp := range d.Comp {
		for _, pr := range grp.Pairs {
			if pos, ok := L.bzPos[pr.Lambda]; ok && zb0[pos] <= tol {
				zb0[pos] = 0
			}
		}
	}
	return zb0
}

// fixStart fixes the start variables at zb0 (projected into the DCS's
// bounds) in the variable bounds xl, xu.
func (L *layout) fixStart(d *dcs.DCS, xl, xu, zb0 []float64) {
	if L.start < 0 {
		return
	}
	for i := range zb0 {
		zi := d.BoundaryZ[i]
		v := math.Min(math.Max(zb0[i], d.ZLower[zi]), d.ZUpper[zi])
		xl[L.start+i], xu[L.start+i] = v, v
	}
}

// boundaryZ returns the boundary variables at the NE+1 element boundaries
// of the solution w: the fixed start values zb0, then the boundary point
// (c_{n_s} ≠ 1) or the last stage (c_{n_s} = 1) of every element; nil
// where the transcription has no such point.
func (L *layout) boundaryZ(d *dcs.DCS, w, zb0 []float64, endpointIsNode bool) [][]float64 {
	out := [][]float64{clone(zb0)}
	for n := 0; n < L.NE; n++ {
		switch {
		case L.zb[n] >= 0:
			out = append(out, clone(w[L.zb[n]:L.zb[n]+L.nb]))
		case endpointIsNode:
			bz := make([]float64, L.nb)
			for i, zi := range d.BoundaryZ {
				bz[i] = w[L.z[n][L.ns-1]+zi]
			}
			out = append(out, bz)
		default:
			out = append(out, nil)
		}
	}
	return out
}
