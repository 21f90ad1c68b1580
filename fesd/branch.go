package fesd

import (
	"context"
	"math"
	"time"

	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// Solving a simulation step on its predicted branch.
//
// When the predictor (predict.go) knows the mode of every finite element
// of a step, it knows which side of every complementarity pair vanishes on
// it: where a pair's selection (θ, α or 1 − α) is positive in the mode of
// element n, its multiplier (λ, λⁿ or λᵖ) is zero at every multiplier
// point of the element — the start point, shared with the previous element,
// its stage points and its boundary point — and otherwise the selection is
// zero at every stage point. With those variables fixed at zero every
// complementarity term is exactly zero, and what remains is a smooth NLP
// (the branch NLP, or BNLP, of the MPCC; Nurkanović and Leyffer): the FESD
// equations with the step equilibration as objective, nearly square. At a
// boundary where the mode changes, the multipliers of both modes vanish,
// which is the switch condition ψ(x_n) = 0 of 004 (Lemmata 9–10), so the
// solve moves the boundary to the switch. One interior-point solve from the
// predicted point replaces the homotopy: any point it finds satisfies the
// FESD equations and the complementarity exactly. If the predicted branch
// is wrong (a missed switch makes the fixed signs infeasible), the solve
// fails and the step falls back to the homotopy.
//
// A solve that succeeds is verified before it is taken: complementarity
// (exactly zero by the fixed sides, checked against CompTol), the FESD
// equations (to CompTol after an acceptable stop), and the Filippov sign
// conditions. At the multiplier points these hold by construction (the
// multipliers are the switching functions' parts and bounded below by
// zero, the fixed sides are zero); between the points they do not, and a
// branch whose switching function crosses zero inside an element — so that
// the switch is not on a boundary — is rejected (onBoundaries).

// branchBounds returns the variable bounds of the branch with the element
// signatures sigs, from the step's bounds xl, xu (start variables fixed),
// or ok = false when the branch contradicts the fixed start values.
func (s *Simulator) branchBounds(pr *prediction, xl, xu []float64) (bl, bu []float64, ok bool) {
	tr, d := s.tr, s.d
	bl, bu = clone(xl), clone(xu)
	fix := func(k int) bool {
		if bl[k] > 0 || bu[k] < 0 {
			return false // a start multiplier that is not zero
		}
		bl[k], bu[k] = 0, 0
		return true
	}
	if pr.psigs != nil {
		// time stepping: every stage point's pairs on their own
		for n := 0; n < tr.NE; n++ {
			for m := 0; m < tr.ns; m++ {
				k := 0
				for gi, grp := range d.Comp {
					for pi, p := range grp.Pairs {
						a := tr.z[n][m] + p.Lambda
						if !pr.psigs[n][m][k] {
							a = tr.selIdx(d, n, m, gi, pi)
						}
						if !fix(a) {
							return nil, nil, false
						}
						k++
					}
				}
			}
		}
		return bl, bu, true
	}
	sigs := pr.sigs
	for n := 0; n < tr.NE; n++ {
		k := 0
		for gi, grp := range d.Comp {
			for pi, pr := range grp.Pairs {
				if sigs[n][k] {
					for _, a := range tr.lamPoints(n, pr.Lambda) {
						if !fix(a) {
							return nil, nil, false
						}
					}
				} else {
					for m := 0; m < tr.ns; m++ {
						if !fix(tr.selIdx(d, n, m, gi, pi)) {
							return nil, nil, false
						}
					}
				}
				k++
			}
		}
	}
	return bl, bu, true
}

// branchPolishMu and branchPolishIter are the barrier parameter and the
// iteration limit of the solve that continues an acceptable stop of a
// branch solve.
const (
	branchPolishMu   = 1e-9
	branchPolishIter = 10
)

// solveBranch solves the step on the predicted branch. It returns the
// solution and the inner solve's record, or a nil solution when the branch
// does not apply or its solve fails (then the record, if any, holds what
// the attempt cost).
func (s *Simulator) solveBranch(ctx context.Context, pr *prediction, u, p, pv, xl, xu []float64) (w, pvb []float64, rec *mpcc.HomotopyStep, err error) {
	if pr == nil || (pr.sigs == nil && pr.psigs == nil) || s.o.StepEquilibration == Direct {
		return nil, nil, nil, nil
	}
	tr := s.tr
	bl, bu, ok := s.branchBounds(pr, xl, xu)
	if !ok {
		return nil, nil, nil, nil
	}
	var freed []int
	if pr.sigs != nil {
		freeStepSizes(tr, bl, bu, pr.bw0)
		freed = freeSmallSides(tr, bl, bu, pr.bw0, pr.endSnapped)
	}
	pvb = clone(pv)
	if tr.phref >= 0 {
		copy(pvb[tr.phref:], pr.bhref)
	}
	w0 := clone(pr.bw0)
	for k := range w0 {
		w0[k] = math.Min(math.Max(w0[k], bl[k]), bu[k])
	}
	if err := tr.prob.SetParams(pvb); err != nil {
		return nil, nil, nil, err
	}
	if err := tr.prob.SetVarBounds(bl, bu); err != nil {
		return nil, nil, nil, err
	}
	if err := tr.prob.SetStart(w0); err != nil {
		return nil, nil, nil, err
	}
	start := time.Now()
	ir, polished, err := s.branchNLP(ctx, pr, w0)
	if err != nil {
		return nil, nil, nil, err
	}
	mp := mpcc.Problem{NLP: tr.prob, Comp: tr.comp}
	rec = &mpcc.HomotopyStep{Status: ir.Status, Iterations: ir.Iterations, Elapsed: time.Since(start)}
	rec.CompResidual, rec.NaturalResidual = mp.Residuals(ir.X, xl)
	if f, err := tr.prob.Objective(ir.X); err == nil {
		rec.Objective = f
	}
	if ok, err := s.branchAccepted(ir, polished, rec, pr, freed, pvb, u, p, xl, xu); err != nil || !ok {
		return nil, nil, rec, err
	}
	s.lastBranch = &branchSolution{ir: ir, bl: bl, bu: bu, sigs: pr.sigs, psigs: pr.psigs}
	return ir.X, pvb, rec, nil
}

// compTol is the complementarity tolerance of the homotopy.
func (s *Simulator) compTol() float64 {
	if s.o.MPCC.CompTol == 0 {
		return mpcc.DefaultCompTol
	}
	return s.o.MPCC.CompTol
}

// branchNLP solves the branch NLP (parameters, bounds and start w0 set)
// and, where that stops short, finishes it; polished reports a finishing
// solve.
func (s *Simulator) branchNLP(ctx context.Context, pr *prediction, w0 []float64) (ir *mpcc.InnerResult, polished bool, err error) {
	tr := s.tr
	// When the predicted modes are those of the previous step's branch
	// solve (the same NLP structure, one step earlier), its multipliers
	// start this one: the least-squares multipliers and z = 1 of a cold
	// start are replaced by values close to the solution's. After a mode
	// change the old multipliers mislead (the time-freezing drop of
	// TestBranchSwitchInsideElement then misses its switch), so the solve
	// starts cold.
	var warm *mpcc.WarmStart
	if lb := s.lastBranch; lb != nil && sameModes(lb, pr) && len(lb.ir.Y) > 0 && len(lb.ir.ZL) == len(w0) && len(lb.ir.ZU) == len(w0) {
		warm = &mpcc.WarmStart{X: w0, Y: lb.ir.Y, ZL: lb.ir.ZL, ZU: lb.ir.ZU}
	}
	if ir, err = s.branchSolver().SolveNLP(ctx, tr.prob, warm); err != nil {
		return nil, false, err
	}
	compTol := s.compTol()
	if !(ir.Status == nlp.SolvedAcceptable || (ir.Status == nlp.NumericalError && len(ir.X) == len(w0) && violation(tr.prob, ir.X) <= compTol)) {
		return ir, false, nil
	}
	// An acceptable stop is often a failed line search of a degenerate
	// branch (a multiplier at its bound with a vanishing bound
	// multiplier, as on a sliding surface that ties two base sets of the
	// time-freezing model) a few Newton steps short of the FESD
	// equations: a few more iterations from that point, at a small
	// barrier parameter, finish it. The polished point replaces the
	// acceptable one unless it is farther from the FESD equations
	// (measured on examples/order's IRMA with n_s = 1: a polish that ends
	// at its iteration limit can move away). A NumericalError at a
	// feasible point — the line search of a branch with an element of
	// 1e-9 step lengths between a switch and the step's end — is polished
	// the same way, and a polish that succeeds replaces it.
	ws := &mpcc.WarmStart{X: ir.X, Y: ir.Y, ZL: ir.ZL, ZU: ir.ZU, MuInit: branchPolishMu, MaxIter: branchPolishIter}
	ir2, err := s.branchSolver().SolveNLP(ctx, tr.prob, ws)
	if err != nil {
		return nil, false, err
	}
	ir2.Iterations += ir.Iterations
	if ir2.Status == nlp.Solved || violation(tr.prob, ir2.X) <= violation(tr.prob, ir.X) || (!ir.Status.Success() && ir2.Status.Success()) {
		ir, polished = ir2, true
	} else {
		ir.Iterations = ir2.Iterations
	}
	if ir.Status.Success() || (polished && ir.Status == nlp.IterationLimit) {
		return ir, polished, nil
	}
	// Still stuck: the solve reached the FESD equations to rounding but
	// could not move its dual infeasibility of ~1e-10 down to the inner
	// tolerance 1e-12 (the filter rejects every step at the rounding
	// floor of the element next to the switch). Solve again from the
	// prediction with the complementarity tolerance as the optimality
	// tolerance, with the adaptive barrier update and then with the
	// monotone one (branchRetrySolver).
	for _, inner := range []mpcc.InnerSolver{s.branchSolver(), s.branchRetrySolver()} {
		ir3, err := inner.SolveNLP(ctx, tr.prob, &mpcc.WarmStart{X: w0, Tol: compTol})
		if err != nil {
			return nil, false, err
		}
		ir3.Iterations += ir.Iterations
		if ir3.Status.Success() {
			return ir3, true, nil
		}
		ir.Iterations = ir3.Iterations
	}
	return ir, polished, nil
}

// branchAccepted verifies a branch solve ir (its record rec) before it is
// taken: a successful status, complementarity and — after an acceptable
// stop or a polish — the FESD equations to the complementarity tolerance,
// the step sizes within their bounds, the freed sides nonnegative, and
// the Filippov sign conditions between the points (onBoundaries).
func (s *Simulator) branchAccepted(ir *mpcc.InnerResult, polished bool, rec *mpcc.HomotopyStep, pr *prediction, freed []int, pvb, u, p, xl, xu []float64) (bool, error) {
	tr, compTol := s.tr, s.compTol()
	if !(ir.Status.Success() || polished && ir.Status == nlp.IterationLimit) || rec.CompResidual > compTol {
		return false, nil
	}
	if ir.Status != nlp.Solved && violation(tr.prob, ir.X) > compTol {
		// An acceptable stop, or the end of the polish (the stationarity
		// of the step equilibration missed the tight tolerance), is taken
		// only if the FESD equations hold to the complementarity
		// tolerance.
		return false, nil
	}
	if pr.sigs == nil {
		return true, nil
	}
	if !stepSizesWithin(tr, ir.X, xl, xu) || !sidesNonnegative(ir.X, freed) {
		return false, nil
	}
	if ok, err := s.onBoundaries(pr.sigs, ir.X, pvb, u, p); err != nil || !ok {
		return false, nil
	}
	return true, nil
}

// violation is the constraint violation of p at x (+Inf when it cannot be
// evaluated).
func violation(p nlp.Problem, x []float64) float64 {
	v, err := nlp.Violation(p, x)
	if err != nil || math.IsNaN(v) {
		return math.Inf(1)
	}
	return v
}

// onBoundaries verifies the Filippov sign conditions of the branch solution
// w (parameters pv) with the element signatures sigs between the points of
// every element, where the branch NLP does not impose them: it evaluates
// the collocation polynomial of the states midway between consecutive
// points (the element start and the stage points) and the multipliers the
// model gives there (dcs.DCS.InitialGuess: the consistent multipliers of
// the state). A pair whose selection is positive in the element's mode must
// have a multiplier that stays at zero there too; one that grows to a tenth
// of the pair's largest multiplier over the step (at least ActiveSetTol)
// means that the state crossed a switching surface inside the element — a
// solution of the FESD equations that sample the mode change at its points
// only, with the switch away from the element boundaries (as at the end of
// the frozen phase of the time-freezing drop of package dcs). It returns
// false for such a solution.
func (s *Simulator) onBoundaries(sigs [][]bool, w, pv, u, p []float64) (bool, error) {
	tr, d := s.tr, s.d
	out, err := tr.outputs(w, pv)
	if err != nil {
		return false, err
	}
	// the largest multiplier of every pair over the step
	var scale []float64
	for _, grp := range d.Comp {
		for _, pr := range grp.Pairs {
			v := 0.0
			for n := 0; n < tr.NE; n++ {
				for _, a := range tr.lamPoints(n, pr.Lambda) {
					v = math.Max(v, math.Abs(w[a]))
				}
			}
			scale = append(scale, v)
		}
	}
	// interpolation nodes 0, c_1, …, c_{n_s} and the midpoints between them
	c := s.o.tab.C
	nodes := append([]float64{0}, c...)
	mids := make([]float64, len(c))
	for j := range mids {
		mids[j] = (nodes[j] + nodes[j+1]) / 2
	}
	nx := tr.nx
	x := make([]float64, nx)
	for n := 0; n < tr.NE; n++ {
		pts := make([][]float64, len(nodes))
		pts[0] = out.xb[n*nx : (n+1)*nx]
		for m := range c {
			pts[m+1] = out.xs[(n*tr.ns+m)*nx : (n*tr.ns+m+1)*nx]
		}
		for _, tau := range mids {
			for i := range x {
				x[i] = 0
			}
			for j, tj := range nodes {
				l := 1.0
				for k, tk := range nodes {
					if k != j {
						l *= (tau - tk) / (tj - tk)
					}
				}
				for i := range x {
					x[i] += l * pts[j][i]
				}
			}
			z, err := d.InitialGuess(x, u, p)
			if err != nil {
				return false, err
			}
			k := 0
			for _, grp := range d.Comp {
				for _, pr := range grp.Pairs {
					if sigs[n][k] && z[pr.Lambda] > math.Max(s.o.ActiveSetTol, 0.1*scale[k]) {
						return false, nil
					}
					k++
				}
			}
		}
	}
	return true, nil
}

// atSurfaces returns, for a time-stepping branch (one mode per stage
// point), the branches with stage points where the predicted mode changes
// — from the previous stage point, or for the first one from the last stage
// point of the previous step's solution — on the switching surface between
// the two modes: the selections positive in either mode free, their
// multipliers zero. The first has every such point on its surface; with
// two or three such points, the others follow with one of them on its
// surface each. It returns nil when the branch has no such point or is not
// a time-stepping branch.
//
// Without FESD no element boundary can move to a switch, and the discrete
// solution at the first stage point past it often lies on the surface
// with a convex combination of the two modes (measured on the three
// masses with Coulomb friction, Stewart's time stepping with N_FE = 2,
// n_s = 2: 5 of the 20 steps with a predicted mode change, one of them
// with one point on its surface and one not), where the predicted branch,
// with one mode per point, is infeasible.
func (s *Simulator) atSurfaces(pr *prediction) []*prediction {
	if pr == nil || pr.psigs == nil {
		return nil
	}
	var prev []bool
	if s.prev != nil {
		lam, sel := s.lastSides()
		prev = make([]bool, len(lam))
		for k := range prev {
			prev[k] = sel[k] > lam[k]
		}
	}
	type point struct {
		n, m int
		both []bool
	}
	var pts []point
	for n := range pr.psigs {
		for m, cur := range pr.psigs[n] {
			if prev != nil && !sameSig(cur, prev) {
				both := make([]bool, len(cur))
				for k := range both {
					both[k] = cur[k] || prev[k]
				}
				pts = append(pts, point{n, m, both})
			}
			prev = cur
		}
	}
	with := func(sel []point) *prediction {
		out := *pr
		out.psigs = make([][][]bool, len(pr.psigs))
		for n := range pr.psigs {
			out.psigs[n] = append([][]bool(nil), pr.psigs[n]...)
		}
		for _, p := range sel {
			out.psigs[p.n][p.m] = p.both
		}
		return &out
	}
	if len(pts) == 0 {
		return nil
	}
	alts := []*prediction{with(pts)}
	if len(pts) <= 3 && len(pts) > 1 {
		for i := range pts {
			alts = append(alts, with(pts[i:i+1]))
		}
	}
	return alts
}

// continued returns the branch that continues the previous step's last
// element over the whole step, for steps the predictor declines (a
// sliding motion shows up as chattering there): every element takes the
// active set of the previous solution's last element — a pair's selection
// is positive when its largest stage value exceeds the largest multiplier
// value of the element — and the start is the shifted previous solution.
// It returns nil without a previous solution.
func (s *Simulator) continued(zb0 []float64) *prediction {
	if s.prev == nil || len(s.d.Comp) == 0 {
		return nil
	}
	tr := s.tr
	lam, sel := s.lastSides()
	sig := make([]bool, len(lam))
	for k := range sig {
		sig[k] = sel[k] > lam[k]
	}
	pr := &prediction{bw0: make([]float64, tr.numW), bhref: make([]float64, tr.NE)}
	tr.shifted(pr.bw0, s.prev, zb0)
	for n := range pr.bhref {
		pr.bhref[n] = tr.h0[0]
	}
	if s.o.DisableFESD {
		// time stepping: every stage point
		pr.psigs = make([][][]bool, tr.NE)
		for n := range pr.psigs {
			pr.psigs[n] = make([][]bool, tr.ns)
			for m := range pr.psigs[n] {
				pr.psigs[n][m] = sig
			}
		}
		return pr
	}
	pr.sigs = make([][]bool, tr.NE)
	for n := range pr.sigs {
		pr.sigs[n] = sig
	}
	return pr
}

// lastSides returns, for every complementarity pair in the order of the
// mode signature, the largest multiplier and the largest selection value
// of the previous solution's last element (its multiplier points but the
// fixed start values, and its stage points); without FESD those of its
// last stage point.
func (s *Simulator) lastSides() (lam, sel []float64) {
	return s.elementSides(s.prev, s.tr.NE-1)
}

// elementSides returns, for every complementarity pair in the order of the
// mode signature, the largest multiplier and the largest selection value
// of element `last` of the solution w (see lastSides).
func (s *Simulator) elementSides(w []float64, last int) (lam, sel []float64) {
	tr, d := s.tr, s.d
	for gi, grp := range d.Comp {
		for pi, pr := range grp.Pairs {
			l, v := 0.0, 0.0
			if s.o.DisableFESD {
				l = w[tr.z[last][tr.ns-1]+pr.Lambda]
				v = w[tr.selIdx(d, last, tr.ns-1, gi, pi)]
			} else {
				for _, a := range tr.lamPoints(last, pr.Lambda) {
					if a != tr.start+tr.bzPos[pr.Lambda] || last > 0 {
						l = math.Max(l, w[a])
					}
				}
				for m := 0; m < tr.ns; m++ {
					v = math.Max(v, w[tr.selIdx(d, last, m, gi, pi)])
				}
			}
			lam, sel = append(lam, l), append(sel, v)
		}
	}
	return lam, sel
}

// sameModes reports whether the prediction pr has the mode sequence of
// the branch solution lb (every element, or every stage point without
// FESD).
func sameModes(lb *branchSolution, pr *prediction) bool {
	if len(lb.sigs) != len(pr.sigs) || len(lb.psigs) != len(pr.psigs) {
		return false
	}
	for n := range pr.sigs {
		if !sameSig(lb.sigs[n], pr.sigs[n]) {
			return false
		}
	}
	for n := range pr.psigs {
		if len(lb.psigs[n]) != len(pr.psigs[n]) {
			return false
		}
		for m := range pr.psigs[n] {
			if !sameSig(lb.psigs[n][m], pr.psigs[n][m]) {
				return false
			}
		}
	}
	return true
}

// freeStepSizes drops the bounds (1 ± γ_h)h₀ of the step sizes that the
// point w has strictly inside them but closer than 1e-3 of their range
// from the branch bounds bl, bu. On a
// branch the step sizes are fixed by the switch conditions and the step
// equilibration, and a bound matters only where it is reached; but the
// interior point keeps every variable μ/z away from its bounds, which on a
// step whose switch lies a few 1e-10 step lengths from its end (an element
// of that length next to the bound h ≥ 0, and its neighbour next to
// h ≤ 2h₀) moves the switch by as much as the element's length, and the
// sensitivities then see a bound as active that is not. The solution is
// checked against the bounds afterwards (stepSizesWithin).
func freeStepSizes(tr *transcription, bl, bu, w []float64) {
	for _, k := range tr.h {
		if k < 0 || bl[k] == bu[k] {
			continue
		}
		near := 1e-3 * (bu[k] - bl[k])
		if w[k] > bl[k] && w[k]-bl[k] < near {
			bl[k] = math.Inf(-1)
		}
		if w[k] < bu[k] && bu[k]-w[k] < near {
			bu[k] = math.Inf(1)
		}
	}
}

// stepSizesWithin reports whether the step sizes of w lie within their
// bounds xl, xu (to rounding: 1e-14 of the step length).
func stepSizesWithin(tr *transcription, w, xl, xu []float64) bool {
	tol := 0.0
	for _, k := range tr.h {
		if k >= 0 {
			tol += 1e-14 * math.Abs(w[k])
		}
	}
	for _, k := range tr.h {
		if k >= 0 && (w[k] < xl[k]-tol || w[k] > xu[k]+tol) {
			return false
		}
	}
	return true
}

// freeSideTol is the largest predicted value of a complementarity side
// whose bound 0 freeSmallSides drops: the multipliers of an element of
// length d next to a switch are about |∇ψ·f|·d, 1.3e-6 for d = 2.5e-7 and
// |∇ψ·f| = 5.25 (1e-6 missed it, and that branch failed).
const freeSideTol = 1e-4

// freeSmallSides drops the bound 0 of the complementarity sides that the
// branch leaves free (their every partner fixed at zero) and that the point
// w puts in (0, freeSideTol), and at 0 when the step ends within rounding
// of a switch (endSnapped), its mode continued to the end across the
// surface by up to psiSnap (cuts); the multipliers of the element
// between a switch and a step boundary 1e-8 step lengths away are of that
// size, and the interior point's barrier on them cuts its steps at a small
// barrier parameter until it loses itself in restoration. On the branch
// they are determined by the FESD equations; the solution is checked to
// keep them nonnegative (sidesNonnegative). It returns the freed indices.
func freeSmallSides(tr *transcription, bl, bu, w []float64, endSnapped bool) []int {
	fixed := branchPartnersFixed(tr.comp, len(bl), bl, bu)
	var out []int
	for k, f := range fixed {
		if f && bl[k] == 0 && bu[k] > 0 && (w[k] > 0 || endSnapped && w[k] == 0) && w[k] < freeSideTol {
			bl[k] = math.Inf(-1)
			out = append(out, k)
		}
	}
	return out
}

// sidesNonnegative reports whether the variables idx of w are nonnegative
// up to psiSnap: a step that ends within rounding of a switch (cuts) ends
// in its mode continued that far across the surface.
func sidesNonnegative(w []float64, idx []int) bool {
	for _, k := range idx {
		if w[k] < -psiSnap {
			return false
		}
	}
	return true
}

// branchOf returns the branch of the FESD solution w of a step (the mode
// of every element: a pair's selection is positive where its largest
// stage value exceeds the element's largest multiplier, as in lastSides),
// with w as its start and its step sizes as the step-equilibration
// targets; nil without FESD (time stepping has one mode per stage point,
// which continued and atSurfaces handle).
func (s *Simulator) branchOf(w []float64) *prediction {
	tr := s.tr
	if s.o.DisableFESD || len(s.d.Comp) == 0 {
		return nil
	}
	pr := &prediction{bw0: clone(w), bhref: make([]float64, tr.NE), sigs: make([][]bool, tr.NE)}
	for n := 0; n < tr.NE; n++ {
		pr.bhref[n] = w[tr.h[n]]
		lam, sel := s.elementSides(w, n)
		pr.sigs[n] = make([]bool, len(lam))
		for k := range lam {
			pr.sigs[n][k] = sel[k] > lam[k]
		}
	}
	return pr
}

// branchRetrySolver returns the inner solver of the second solve of a
// stuck branch: the branch solver's settings with the monotone barrier
// update (Fiacco–McCormick, W&B06 §2.1). The adaptive update that every
// other solve uses drops μ from 1e-5 to 1e-11 in one step once the FESD
// equations hold, and on a branch with an element of 1e-6 step lengths
// next to a switch the filter then rejects every step at the rounding
// floor; the monotone update decreases μ by factors of 5–10. Measured
// with it for all branch solves: IRMA 12 206 NLP iterations instead of
// 1 251, so it is the retry only.
func (s *Simulator) branchRetrySolver() mpcc.InnerSolver {
	if s.o.Inner != nil {
		return s.o.Inner
	}
	if s.branchRetry == nil {
		set := s.o.nlpSettings()
		set.MuStrategy = nlp.MuMonotone
		s.branchRetry = &mpcc.NLPSolver{Settings: set}
	}
	return s.branchRetry
}
