package fesd

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp/adnlp"
)

// Sensitivities of FESD solutions (004 §5, Theorem 18).
//
// A solved step w*(q) is a solution of the FESD NLP with the parameters
// q = (x₀, u, p). On the branch of its active set — the vanishing side of
// every complementarity pair fixed at zero, as in a branch solve
// (branch.go) — it is a KKT point of a smooth NLP, and if that point is
// regular (LICQ on the free variables, second-order sufficiency) the
// implicit function theorem gives its derivative from the linearized KKT
// conditions:
//
//	⎡ H_ww  J_wᵀ ⎤ ⎡ ∂w/∂q ⎤     ⎡ H_wq ⎤
//	⎣ J_w   0    ⎦ ⎣ ∂y/∂q ⎦ = − ⎣ J_q  ⎦
//
// with H the Hessian of the Lagrangian f + yᵀc and J the Jacobian of the
// constraints, w the free variables (not fixed by the branch, not at an
// active bound). Because the step sizes h_n are unknowns of FESD and the
// switch conditions hold exactly on the branch, ∂w/∂q includes how the
// switch times move with q; that is what makes the sensitivities converge
// with the order of the Runge–Kutta method (004 Theorem 18), where those of
// time stepping on a fixed grid do not. The rows of the end state x(t₀ + T)
// are the step's sensitivity; a simulation multiplies them along its steps.

// Sensitivity holds the derivatives of the state at the end of a step or
// a simulation with respect to the initial state x₀, the control u and the
// model parameters p: DX0[i][j] = ∂x_i/∂x₀_j, DU[i][j] = ∂x_i/∂u_j (of a
// control held constant over the simulation), DP[i][j] = ∂x_i/∂p_j.
type Sensitivity struct {
	DX0, DU, DP [][]float64
}

// compileSens compiles the sensitivity NLP: the parameters x₀, the fixed
// controls and the model parameters of every stage become variables after
// w, in this order (stage by stage).
func (tr *transcription) compileSens() error {
	var q []int
	for i := 0; i < tr.nx; i++ {
		q = append(q, tr.px0+i)
	}
	if tr.fixed {
		for k := 0; k < tr.N; k++ {
			for i := 0; i < tr.nu; i++ {
				q = append(q, tr.pu[k]+i)
			}
		}
	}
	for k := 0; k < tr.N; k++ {
		for _, j := range tr.pp[k] {
			if j >= 0 {
				q = append(q, j)
			}
		}
	}
	moved := map[int]int{}
	for k, j := range q {
		moved[j] = k
	}
	nw := len(tr.w)
	tr.pMap = make([]int, len(tr.params))
	var P ad.Vec
	var PV []float64
	for j, sym := range tr.params {
		if _, ok := moved[j]; ok {
			tr.pMap[j] = -1
			continue
		}
		tr.pMap[j] = len(P)
		P = append(P, sym)
		PV = append(PV, tr.pvals[j])
	}
	X := append(ad.Vec(nil), tr.w...)
	XL, XU := clone(tr.wl), clone(tr.wu)
	stage := append([]int(nil), tr.wstage...)
	for _, j := range q {
		X = append(X, tr.params[j])
		XL, XU = append(XL, math.Inf(-1)), append(XU, math.Inf(1))
		stage = append(stage, tr.cur+1)
	}
	spec := adnlp.Spec{
		X: X, XL: XL, XU: XU,
		F: tr.obj, G: tr.c, GL: tr.cl, GU: tr.cu,
		P: P, PV: PV,
		VarStage: stage, ConStage: tr.cstage,
		JacobianMode: ad.Reverse,
	}
	if tr.tmpl != nil {
		b := tr.tmpl.block
		ins := make([]adnlp.Instance, len(b.Instances))
		for k, in := range b.Instances {
			ins[k] = adnlp.Instance{Rows: in.Rows, In: make([]adnlp.Affine, len(in.In))}
			for i, a := range in.In {
				na := adnlp.Affine{Const: a.Const, Vars: append([]int(nil), a.Vars...), VarCoef: append([]float64(nil), a.VarCoef...)}
				for t, j := range a.Params {
					if k, ok := moved[j]; ok {
						na.Vars = append(na.Vars, nw+k)
						na.VarCoef = append(na.VarCoef, a.ParamCoef[t])
					} else {
						na.Params = append(na.Params, tr.pMap[j])
						na.ParamCoef = append(na.ParamCoef, a.ParamCoef[t])
					}
				}
				ins[k].In[i] = na
			}
		}
		b.Instances = ins
		spec.Blocks = []adnlp.Block{b}
	}
	prob, err := adnlp.New(spec)
	if err != nil {
		return fmt.Errorf("fesd: compiling the sensitivity NLP: %w", err)
	}
	tr.prob = prob
	tr.qIdx = q
	tr.numW, tr.numC = nw, len(tr.c)
	tr.c, tr.cl, tr.cu = nil, nil, nil
	tr.xbE, tr.stageX, tr.tbE, tr.hE, tr.uE, tr.pk, tr.sE = nil, nil, nil, nil, nil, nil, nil
	tr.obj, tr.equilE, tr.tmpl = ad.Expr{}, ad.Expr{}, nil
	return nil
}

// sensNLP returns the sensitivity NLP of the simulator's step (compiled on
// first use).
func (s *Simulator) sensNLP() (*transcription, error) {
	if s.sensTr == nil {
		tr, err := newSensTranscription(s.ocp, s.d, s.o, true)
		if err != nil {
			return nil, err
		}
		s.sensTr = tr
	}
	return s.sensTr, nil
}

// newSensTranscription builds and compiles the sensitivity NLP of p.
func newSensTranscription(p *OCP, d *dcs.DCS, o *resolved, fixed bool) (*transcription, error) {
	L := newLayout(d, o.Stages, p.N, p.T, func(k int) int { return p.nfe(k, o.NFE) })
	return buildTranscription(&transcription{layout: L, p: p, o: o, d: d, g: d.Graph, fixed: fixed, sens: true, isGlob: map[ad.Expr]bool{}})
}

// stepSensitivity returns the derivatives of the end state of the step
// solved at w (parameters pv, variable bounds xl, xu of the step) with
// respect to (x₀, u, p): the branch of w (the smaller side of every
// complementarity pair fixed at zero) is solved once more from w to get
// its multipliers, then the linearized KKT system is solved (dense LU).
func (s *Simulator) stepSensitivity(ctx context.Context, w, u, p, pv, xl, xu []float64, bs *branchSolution) (*Sensitivity, error) {
	tr := s.tr
	var ir *mpcc.InnerResult
	var bl, bu []float64
	if bs == nil {
		// solved by the homotopy: its point on the branch of the modes of
		// its elements (branchOf), solved as a predicted branch is —
		// which leaves a multiplier that is zero at the end of the step
		// free of its bound, where resolveBranch fixes both sides of
		// every biactive pair (a switch on the step's end, or within
		// the homotopy's tolerance of it, then pins the end state)
		last := s.lastBranch
		if wb, pvb, _, err := s.solveBranch(ctx, s.branchOf(w), u, p, pv, xl, xu); err == nil && wb != nil && maxDiff(wb, w) <= branchSensTol {
			bs, w, pv = s.lastBranch, wb, pvb
		}
		s.lastBranch = last
	}
	if bs != nil {
		// solved on its branch: that solve's bounds and multipliers
		ir, bl, bu = bs.ir, bs.bl, bs.bu
	} else {
		var err error
		if ir, bl, bu, err = s.resolveBranch(ctx, w, pv, xl, xu); err != nil {
			return nil, err
		}
	}
	st, err := s.sensNLP()
	if err != nil {
		return nil, err
	}
	pos, D, err := kktSensitivity(tr, st, ir, bl, bu, pv)
	if err != nil {
		return nil, err
	}
	out := &Sensitivity{}
	nx, nu := tr.nx, 0
	if tr.fixed {
		nu = tr.nu
	}
	nq := len(st.qIdx)
	for i := 0; i < nx; i++ {
		k := pos[tr.xb[tr.NE-1]+i]
		if k < 0 {
			return nil, fmt.Errorf("%w: the end state is fixed by the active set", ErrSensitivity)
		}
		row := make([]float64, nq)
		for j := range row {
			row[j] = D.At(k, j)
		}
		out.DX0 = append(out.DX0, row[:nx])
		out.DU = append(out.DU, row[nx:nx+nu])
		out.DP = append(out.DP, row[nx+nu:])
	}
	return out, nil
}

// kktSensitivity solves the linearized KKT system of the branch NLP of tr
// (bounds bl, bu; its solution and multipliers ir; parameters pv) for the
// derivatives of the free variables with respect to the parameters that
// are variables of st: D[pos[k]][j] = ∂w_k/∂q_j for every free w_k
// (pos[k] = −1 for the others, whose derivative is zero).
func kktSensitivity(tr, st *transcription, ir *mpcc.InnerResult, bl, bu, pv []float64) ([]int, *mat.Dense, error) {
	nw, nq := tr.numW, len(st.qIdx)
	spv := make([]float64, 0, len(pv))
	for j, v := range pv {
		if st.pMap[j] >= 0 {
			spv = append(spv, v)
		}
	}
	x := clone(ir.X)
	for _, j := range st.qIdx {
		x = append(x, pv[j])
	}
	if err := st.prob.SetParams(spv); err != nil {
		return nil, nil, err
	}
	_, m := st.prob.Dims()
	jr, jc := st.prob.JacobianStructure()
	jv := make([]float64, len(jr))
	if err := st.prob.JacobianValues(x, jv); err != nil {
		return nil, nil, err
	}
	hr, hc := st.prob.HessianStructure()
	hv := make([]float64, len(hr))
	if err := st.prob.HessianValues(x, 1, ir.Y, hv); err != nil {
		return nil, nil, err
	}
	// free variables and the rows of the linearized KKT system
	pos, nf := freeVariables(tr, ir, bl, bu)
	gl, gu := make([]float64, nw), make([]float64, nw)
	cl, cu := make([]float64, m), make([]float64, m)
	st.prob.Bounds(append(gl, make([]float64, nq)...), append(gu, make([]float64, nq)...), cl, cu)
	// Rows: the equality constraints and the active inequalities, without
	// those left with no free variable (redundant with an active bound,
	// as α_j ≤ 1 next to 1 − α_j = s_j = 0 in the step reformulation).
	hasFree := make([]bool, m)
	for t := range jr {
		if c := jc[t]; c < nw && pos[c] >= 0 && jv[t] != 0 {
			hasFree[jr[t]] = true
		}
	}
	rpos := make([]int, m)
	nr := 0
	for i := 0; i < m; i++ {
		rpos[i] = -1
		if hasFree[i] && (cl[i] == cu[i] || math.Abs(ir.Y[i]) > 1e-8) {
			rpos[i] = nf + nr
			nr++
		}
	}
	K := mat.NewDense(nf+nr, nf+nr, nil)
	R := mat.NewDense(nf+nr, nq, nil)
	for t := range hr {
		r, c, v := hr[t], hc[t], hv[t]
		switch {
		case r < nw && c < nw:
			if pr, pc := pos[r], pos[c]; pr >= 0 && pc >= 0 {
				K.Set(pr, pc, K.At(pr, pc)+v)
				if pr != pc {
					K.Set(pc, pr, K.At(pc, pr)+v)
				}
			}
		case r >= nw && c < nw:
			if pc := pos[c]; pc >= 0 {
				R.Set(pc, r-nw, R.At(pc, r-nw)-v)
			}
		case c >= nw && r < nw:
			if pr := pos[r]; pr >= 0 {
				R.Set(pr, c-nw, R.At(pr, c-nw)-v)
			}
		}
	}
	for t := range jr {
		i, c, v := jr[t], jc[t], jv[t]
		ri := rpos[i]
		if ri < 0 {
			continue
		}
		if c < nw {
			if pc := pos[c]; pc >= 0 {
				K.Set(ri, pc, v)
				K.Set(pc, ri, v)
			}
		} else {
			R.Set(ri, c-nw, R.At(ri, c-nw)-v)
		}
	}
	var D mat.Dense
	var lu mat.LU
	lu.Factorize(K)
	if err := lu.SolveTo(&D, false, R); err != nil {
		// a degenerate active set (linearly dependent constraints): the
		// minimum-norm solution, whose ∂w/∂q is unique under
		// second-order sufficiency on the free variables
		var svd mat.SVD
		if !svd.Factorize(K, mat.SVDThin) {
			return nil, nil, fmt.Errorf("%w: singular linearized KKT system (%d free variables, %d constraints)", ErrSensitivity, nf, nr)
		}
		rank := svd.Rank(1e-12)
		if rank == 0 {
			return nil, nil, fmt.Errorf("%w: zero linearized KKT system", ErrSensitivity)
		}
		svd.SolveTo(&D, R, rank)
	}
	return pos, &D, nil
}

// branchSolution is a solve on a branch: its bounds and inner result.
type branchSolution struct {
	ir     *mpcc.InnerResult
	bl, bu []float64
	sigs   [][]bool   // the predicted modes it was solved for (prediction.sigs)
	psigs  [][][]bool // (prediction.psigs)
}

// branchBounds returns the variable bounds xl, xu of tr's NLP with the
// branch of w fixed: in every complementarity pair the smaller side is
// fixed at zero, and both sides where both are at most tol.
func branchBounds(tr *transcription, w, xl, xu []float64, tol float64) (bl, bu []float64) {
	bl, bu = clone(xl), clone(xu)
	fix := func(k int) { bl[k], bu[k] = 0, 0 }
	for _, c := range tr.comp {
		for _, pr := range c.Pairs {
			a, b := pr[0], pr[1]
			switch {
			case w[a] <= tol && w[b] <= tol:
				fix(a)
				fix(b)
			case w[a] <= w[b]:
				fix(a)
			default:
				fix(b)
			}
		}
	}
	return bl, bu
}

// resolveBranch solves the branch of the solution w of a step once more
// from w, for its multipliers: in every complementarity pair the smaller
// side is fixed at zero, and both sides when both are within ActiveSetTol
// of zero (a biactive pair, as at a switch).
func (s *Simulator) resolveBranch(ctx context.Context, w, pv, xl, xu []float64) (*mpcc.InnerResult, []float64, []float64, error) {
	return resolveBranch(ctx, s.tr, s.branchSolver(), s.o.ActiveSetTol, w, pv, xl, xu)
}

// resolveBranch solves the branch of the solution w of tr's NLP once more
// (see Simulator.resolveBranch) with the inner solver inner.
func resolveBranch(ctx context.Context, tr *transcription, inner mpcc.InnerSolver, tol float64, w, pv, xl, xu []float64) (*mpcc.InnerResult, []float64, []float64, error) {
	bl, bu := branchBounds(tr, w, xl, xu, tol)
	freeStepSizes(tr, bl, bu, w)
	w0 := clone(w)
	for k := range w0 {
		w0[k] = math.Min(math.Max(w0[k], bl[k]), bu[k])
	}
	if err := tr.prob.SetParams(pv); err != nil {
		return nil, nil, nil, err
	}
	if err := tr.prob.SetVarBounds(bl, bu); err != nil {
		return nil, nil, nil, err
	}
	if err := tr.prob.SetStart(w0); err != nil {
		return nil, nil, nil, err
	}
	ir, err := inner.SolveNLP(ctx, tr.prob, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	if !ir.Status.Success() {
		return nil, nil, nil, fmt.Errorf("%w: the branch of the step's solution ends %v", ErrSensitivity, ir.Status)
	}
	return ir, bl, bu, nil
}

// branchSolver returns the inner solver of branch NLPs.
func (s *Simulator) branchSolver() mpcc.InnerSolver {
	if s.o.Inner != nil {
		return s.o.Inner
	}
	if s.branch == nil {
		s.branch = &mpcc.NLPSolver{Settings: s.o.nlpSettings()}
	}
	return s.branch
}

// chain returns the sensitivity of a simulation after one more step: with
// the step's A = ∂x⁺/∂x, B_u, B_p, the totals become A·S_x0, A·S_u + B_u,
// A·S_p + B_p.
func (tot *Sensitivity) chain(step *Sensitivity) *Sensitivity {
	mul := func(a, b [][]float64, add [][]float64) [][]float64 {
		out := make([][]float64, len(a))
		for i := range a {
			cols := 0
			if len(b) > 0 {
				cols = len(b[0])
			} else if add != nil {
				cols = len(add[i])
			}
			out[i] = make([]float64, cols)
			for j := 0; j < cols; j++ {
				v := 0.0
				if add != nil {
					v = add[i][j]
				}
				for k := range b {
					v += a[i][k] * b[k][j]
				}
				out[i][j] = v
			}
		}
		return out
	}
	return &Sensitivity{
		DX0: mul(step.DX0, tot.DX0, nil),
		DU:  mul(step.DX0, tot.DU, step.DU),
		DP:  mul(step.DX0, tot.DP, step.DP),
	}
}

// OCPSensitivity is the first-order sensitivity of an OCP solution with
// respect to the initial state x₀ and the model parameters P (held equal in
// every stage): StageX[k][i][j] = ∂s_{k,i}/∂q_j at the stage boundaries
// k = 0…N and U[k][i][j] = ∂q_{k,i}/∂q_j for the controls, with
// q = (x₀, P) — columns 0…n_x−1 for x₀, then one per model parameter
// (zero for parameters that are global decision variables).
//
// It is the parametric sensitivity of sIPOPT (Pirnay, López-Negrete,
// Biegler, "Optimal sensitivity based on IPOPT", Math. Prog. Comp. 4,
// 2012) applied to the branch NLP of the solution: it assumes that the
// solution is a regular KKT point of that NLP (LICQ on the free variables,
// strict complementarity of the active bounds and inequalities, second-
// order sufficiency) and that the active set — which side of every
// complementarity pair vanishes, which bounds are active — does not change
// for small changes of q. Across a change of the active set the solution
// is not differentiable, and the derivative describes one side.
type OCPSensitivity struct {
	StageX, U [][][]float64
}

// Sensitivity returns the sensitivity of the solution r (a result of this
// solver; its x₀ is the solver's current one) with respect to x₀ and the
// model parameters: the branch of r is solved once more from r for its
// multipliers, and the linearized KKT system gives the derivatives.
func (s *OCPSolver) Sensitivity(ctx context.Context, r *OCPResult) (*OCPSensitivity, error) {
	if s == nil || s.tr == nil {
		return nil, ErrNilSolver
	}
	tr := s.tr
	if r == nil || len(r.w) != tr.numW {
		return nil, fmt.Errorf("%w: sensitivity of a result that is not of this solver", ErrDimension)
	}
	if s.p.CLS != nil {
		return nil, fmt.Errorf("%w: no sensitivities of an OCP on a CLS yet", ErrStructure)
	}
	if s.sensTr == nil {
		st, err := newSensTranscription(&s.p, tr.d, s.o, false)
		if err != nil {
			return nil, err
		}
		s.sensTr = st
	}
	st := s.sensTr
	pv := s.params()
	xl, xu := clone(tr.wl), clone(tr.wu)
	if len(r.BoundaryZ) > 0 && r.BoundaryZ[0] != nil {
		tr.fixStart(tr.d, xl, xu, r.BoundaryZ[0])
	}
	if s.sensInner == nil {
		s.sensInner = &mpcc.NLPSolver{Settings: s.o.nlpSettings()}
	}
	var inner mpcc.InnerSolver = s.sensInner
	if s.o.Inner != nil {
		inner = s.o.Inner
	}
	ir, bl, bu, err := resolveBranch(ctx, tr, inner, s.o.ActiveSetTol, r.w, pv, xl, xu)
	if err != nil {
		return nil, err
	}
	pos, D, err := kktSensitivity(tr, st, ir, bl, bu, pv)
	if err != nil {
		return nil, err
	}
	// columns: x₀, then the parameters of every stage, summed per
	// model parameter
	nx, np := tr.nx, tr.np
	col := make([]int, len(st.qIdx))
	for c, j := range st.qIdx {
		col[c] = -1
		if j >= tr.px0 && j < tr.px0+nx {
			col[c] = j - tr.px0
			continue
		}
		for k := range tr.pp {
			for i, pj := range tr.pp[k] {
				if pj == j {
					col[c] = nx + i
				}
			}
		}
	}
	row := func(k int) []float64 {
		out := make([]float64, nx+np)
		if p := pos[k]; p >= 0 {
			for c, to := range col {
				if to >= 0 {
					out[to] += D.At(p, c)
				}
			}
		}
		return out
	}
	out := &OCPSensitivity{}
	for k := 0; k <= tr.N; k++ {
		rows := make([][]float64, nx)
		for i := range rows {
			if k == 0 {
				rows[i] = make([]float64, nx+np)
				rows[i][i] = 1
				continue
			}
			rows[i] = row(tr.xb[tr.elemStart[k]-1] + i)
		}
		out.StageX = append(out.StageX, rows)
	}
	for k := 0; k < tr.N; k++ {
		rows := make([][]float64, tr.nu)
		for i := range rows {
			if tr.u[k] >= 0 {
				rows[i] = row(tr.u[k] + i)
			} else {
				rows[i] = make([]float64, nx+np)
			}
		}
		out.U = append(out.U, rows)
	}
	return out, nil
}

// branchPartnersFixed marks the variables (of the first nw) that are a side
// of some complementarity pair and whose every partner the branch bounds
// bl, bu fix at zero. On its branch such a variable is free of the
// complementarity; its bound 0 can still be weakly active — a multiplier
// λ = 0 with its selection fixed at zero, as at the end of a step whose
// state reaches a switching surface exactly at t₀ + T — and the interior
// point's bound multiplier μ/λ then looks large although the exact one is
// zero. Taking that bound as active would pin ψ(x(t₀ + T)) = 0 and make
// the linearized KKT system singular; the sensitivity of the branch is the
// one-sided derivative of the mode continued past the surface, which the
// switch detection's saltation at the step boundary then corrects
// (Simulate).
func branchPartnersFixed(comp []mpcc.Complementarity, nw int, bl, bu []float64) []bool {
	side := make([]int8, nw) // 0: no pair, 1: all partners fixed, −1: some partner free
	mark := func(k, partner int) {
		if k >= nw || side[k] < 0 {
			return
		}
		if bl[partner] == 0 && bu[partner] == 0 {
			side[k] = 1
		} else {
			side[k] = -1
		}
	}
	for _, c := range comp {
		for _, pr := range c.Pairs {
			mark(pr[0], pr[1])
			mark(pr[1], pr[0])
		}
	}
	out := make([]bool, nw)
	for k, v := range side {
		out[k] = v > 0
	}
	return out
}

// branchSensTol bounds the distance (largest entry) between a homotopy's
// point and its branch's solution for the branch's sensitivities to be
// those of the point.
const branchSensTol = 1e-6

func maxDiff(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// freeVariables numbers the variables of tr's branch NLP (bounds bl, bu;
// solution ir) that are free in its linearization — not fixed, not at an
// active bound — and returns their positions (−1 for the others) and
// count.
func freeVariables(tr *transcription, ir *mpcc.InnerResult, bl, bu []float64) ([]int, int) {
	nw := tr.numW
	partnerFixed := branchPartnersFixed(tr.comp, nw, bl, bu)
	pos := make([]int, nw)
	nf := 0
	for k := 0; k < nw; k++ {
		pos[k] = -1
		if bl[k] == bu[k] {
			continue
		}
		lo := ir.X[k]-bl[k] < 1e-8 && ir.ZL[k] > 1e-8
		hi := bu[k]-ir.X[k] < 1e-8 && ir.ZU[k] > 1e-8
		if partnerFixed[k] {
			// the free side of a complementarity pair whose other side
			// the branch fixes at zero: its bound is not part of the
			// branch (see branchPartnersFixed)
			lo, hi = false, false
		}
		if !lo && !hi {
			pos[k] = nf
			nf++
		}
	}
	return pos, nf
}
