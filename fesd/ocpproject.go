package fesd

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// Relax and project (MPECopt's phase I: A. Nurkanović, S. Leyffer,
// "A Globally Convergent Method for Computing B-stationary Points of
// Mathematical Programs with Equilibrium Constraints", arXiv 2501.13835):
// from a point of the relaxed homotopy, fix the mode of every finite
// element and solve the branch NLP — the FESD equations with one side of
// every complementarity pair fixed at zero, so that the complementarity
// holds exactly and no relaxed force is left. The mode of a step
// selection α_j in element n follows the sign of its switching function
// ψ_j = λᵖ_j − λⁿ_j at the element's stage points: positive at all of
// them, α_j = 1 (λⁿ_j = 0 at the element's points); negative at all,
// α_j = 0 (λᵖ_j = 0); otherwise on the surface (λᵖ_j = λⁿ_j = 0, α_j
// free). For a time-freezing model a contact whose gap is negative in an
// element where its normal velocity is not (the clock advancing below the
// ground, drift) is put on the surface of its gap: f_c = 0 at the points.
// The step sizes stay free, so the switches can move to the element
// boundaries.

// projectTol is the size of ψ below which a stage point counts as on the
// switching surface in the mode choice of Project.
const projectTol = 1e-3

// projectMu is the initial barrier parameter of the branch NLP, started
// from the homotopy point (kept to the inner solver's warm bound push).
const projectMu = 1e-4

// projectFeasTol is the largest constraint violation at which a branch
// NLP that ended in a numerical error counts as solved.
const projectFeasTol = 1e-6

// Project solves the branch NLP of the result r's modes (see above) from
// r's point and returns its result (Status mpcc.Solved when the branch NLP
// converged, mpcc.NLPFailure otherwise; its Homotopy holds the one branch
// solve). It applies to the Step formulation only (ErrOptions otherwise)
// and needs a result of this solver with its NLP point.
func (s *OCPSolver) Project(ctx context.Context, r *OCPResult) (*OCPResult, error) {
	if s == nil || s.tr == nil {
		return nil, ErrNilSolver
	}
	tr, d := s.tr, s.tr.d
	if d.Formulation != dcs.Step {
		return nil, optErr("Project needs the Step formulation, not %v", d.Formulation)
	}
	if r == nil || len(r.w) != tr.numW {
		return nil, fmt.Errorf("%w: Project needs a result of this solver with its NLP point", ErrDimension)
	}
	t0 := time.Now()
	w := clone(r.w)
	zb0, err := s.startValues(Start{})
	if err != nil {
		return nil, err
	}
	xl, xu := clone(tr.wl), clone(tr.wu)
	tr.fixStart(d, xl, xu, zb0)
	bl, bu := s.projectBounds(w, xl, xu)
	freeStepSizes(tr, bl, bu, w)
	for k := range w {
		w[k] = math.Min(math.Max(w[k], bl[k]), bu[k])
	}
	if err := tr.prob.SetParams(s.params()); err != nil {
		return nil, err
	}
	if err := tr.prob.SetVarBounds(bl, bu); err != nil {
		return nil, err
	}
	if err := tr.prob.SetStart(w); err != nil {
		return nil, err
	}
	inner := s.solver().Inner
	ir, err := inner.SolveNLP(ctx, tr.prob, &mpcc.WarmStart{X: w, MuInit: projectMu})
	// the OCP's own bounds again for later solves
	if err2 := tr.prob.SetVarBounds(xl, xu); err == nil {
		err = err2
	}
	if err != nil && !stoppedByContext(ir, err) {
		return nil, fmt.Errorf("fesd: branch NLP of the projection: %w", err)
	}
	mp := mpcc.Problem{NLP: tr.prob, Comp: tr.comp}
	rec := mpcc.HomotopyStep{Status: ir.Status, Iterations: ir.Iterations, Elapsed: time.Since(t0)}
	rec.CompResidual, rec.NaturalResidual = mp.Residuals(ir.X, xl)
	if f, e := tr.prob.Objective(ir.X); e == nil {
		rec.Objective = f
	}
	out := &OCPResult{Status: mpcc.NLPFailure, Homotopy: []mpcc.HomotopyStep{rec}, Iterations: ir.Iterations,
		CompResidual: rec.CompResidual, NaturalResidual: rec.NaturalResidual, Elapsed: time.Since(t0)}
	if err := s.fill(out, ir.X, zb0); err != nil {
		return nil, err
	}
	if ir.Status.Success() || ir.Status == nlp.NumericalError && out.Infeasibility <= projectFeasTol {
		// a numerical end at a feasible point of the branch is its
		// solution to these tolerances (as mpcc's homotopy steps)
		out.Status = mpcc.Solved
	}
	out.CompResidual, out.NaturalResidual = rec.CompResidual, rec.NaturalResidual
	if out.Status == mpcc.Solved && out.Validity != nil && !out.Validity.Valid {
		out.Status = mpcc.Invalid
	}
	return out, err
}

// projectBounds returns the variable bounds of the branch of w's modes
// (see Project) from the OCP's bounds xl, xu; a side that cannot be fixed
// at zero (a start value fixed elsewhere) is left as it is.
func (s *OCPSolver) projectBounds(w, xl, xu []float64) (bl, bu []float64) {
	tr, d := s.tr, s.tr.d
	bl, bu = clone(xl), clone(xu)
	fix := func(k int) {
		if bl[k] <= 0 && bu[k] >= 0 {
			bl[k], bu[k] = 0, 0
		}
	}
	// the two pairs (λⁿ ⊥ α, λᵖ ⊥ 1 − α) of every selection
	type sel struct{ gn, pn, gp, pp int }
	var sels []sel
	bySel := map[int]int{}
	for gi, g := range d.Comp {
		for pi, p := range g.Pairs {
			j, ok := bySel[p.Sel]
			if !ok {
				j = len(sels)
				bySel[p.Sel] = j
				sels = append(sels, sel{-1, -1, -1, -1})
			}
			if p.OneMinus {
				sels[j].gp, sels[j].pp = gi, pi
			} else {
				sels[j].gn, sels[j].pn = gi, pi
			}
		}
	}
	gapOf, vnOf := s.contactSelections(len(sels))
	for n := 0; n < tr.NE; n++ {
		// the sign of every ψ_j on the element: +1, −1 or 0 (surface)
		sign := make([]int, len(sels))
		for j, sl := range sels {
			if sl.gn < 0 || sl.gp < 0 {
				continue
			}
			lo, hi, end := math.Inf(1), math.Inf(-1), 0.0
			for m := 0; m < tr.ns; m++ {
				end = w[tr.z[n][m]+d.Comp[sl.gp].Pairs[sl.pp].Lambda] - w[tr.z[n][m]+d.Comp[sl.gn].Pairs[sl.pn].Lambda]
				lo, hi = math.Min(lo, end), math.Max(hi, end)
			}
			switch {
			case lo >= -projectTol && hi > projectTol:
				sign[j] = 1
			case hi <= projectTol && lo < -projectTol:
				sign[j] = -1
			case lo < -projectTol: // both signs: the mode at the element's end
				sign[j] = 1
				if end < 0 {
					sign[j] = -1
				}
			}
		}
		for c, g := range gapOf {
			// the gap's mode from the normal velocity: moving up, above
			// the ground (f_c ≥ 0); at rest, on the ground unless above
			// it (stance: f_c = 0); moving down, the impact below the
			// ground unless above it
			if vn := vnOf[c]; vn >= 0 {
				switch {
				case sign[vn] > 0 || sign[g] > 0:
					sign[g] = 1
				case sign[vn] == 0:
					sign[g] = 0
				default:
					sign[g] = -1
				}
			}
		}
		for j, sl := range sels {
			if sl.gn < 0 || sl.gp < 0 {
				continue
			}
			pn, pp := d.Comp[sl.gn].Pairs[sl.pn], d.Comp[sl.gp].Pairs[sl.pp]
			if sign[j] >= 0 { // λⁿ = 0
				for _, a := range tr.lamPoints(n, pn.Lambda) {
					fix(a)
				}
			} else { // α = 0
				for m := 0; m < tr.ns; m++ {
					fix(tr.selIdx(d, n, m, sl.gn, sl.pn))
				}
			}
			if sign[j] <= 0 { // λᵖ = 0
				for _, a := range tr.lamPoints(n, pp.Lambda) {
					fix(a)
				}
			} else { // 1 − α = 0
				for m := 0; m < tr.ns; m++ {
					fix(tr.selIdx(d, n, m, sl.gp, sl.pp))
				}
			}
		}
	}
	return bl, bu
}

// contactSelections returns, for a time-freezing model whose switching
// functions are the selections 0 … nSel−1 in order (f_c, J_nᵀv, J_tᵀv per
// contact), the selection of every contact's gap and normal velocity
// (index by contact; nil for other models or another count).
func (s *OCPSolver) contactSelections(nSel int) (gap, vn []int) {
	if s.valid == nil || len(s.valid.tf.Psi) != nSel {
		return nil, nil
	}
	tf := s.valid.tf
	last := -1
	for j, c := range tf.PsiContact {
		if c != last {
			gap = append(gap, j)
			vn = append(vn, -1)
			if j+1 < len(tf.PsiContact) && tf.PsiContact[j+1] == c {
				vn[len(vn)-1] = j + 1
			}
			last = c
		}
	}
	return gap, vn
}

// SolveProjected runs the homotopy of s from start one σ at a time (each
// step a continuation of the previous one, as within one homotopy) and,
// after every step with σ ≤ fromSigma, projects its point onto the branch
// of its modes (Project). The first projection that is solved and
// physically valid (or solved, for a model without a validity check) is
// the result, with the records and iterations of every step and
// projection; otherwise the homotopy's last result is, with all records.
// This is MPECopt's relax-and-project phase I with the tightening of σ on
// failure.
func (s *OCPSolver) SolveProjected(ctx context.Context, start Start, fromSigma float64) (*OCPResult, error) {
	if s == nil || s.tr == nil {
		return nil, ErrNilSolver
	}
	t0 := time.Now()
	sched, err := s.o.MPCC.Schedule()
	if err != nil {
		return nil, err
	}
	var last *OCPResult
	var recs []mpcc.HomotopyStep
	its := 0
	done := func(r *OCPResult) *OCPResult {
		r.Homotopy, r.Iterations, r.Elapsed = recs, its, time.Since(t0)
		return r
	}
	for k, sigma := range sched {
		one := s.o.MPCC
		one.Sigma0, one.MaxSteps, one.SigmaN = sigma, 1, sigma
		if k < len(sched)-1 {
			one.Finish = mpcc.NoCertificate
		}
		sk, err := s.WithHomotopy(one)
		if err != nil {
			return nil, err
		}
		st := start
		if last != nil {
			st = Start{Warm: last}
		}
		r, err := sk.Solve(ctx, st)
		if r == nil {
			if last != nil {
				return done(last), err
			}
			return nil, err
		}
		recs = append(recs, r.Homotopy...)
		its += r.Iterations
		last = r
		if err != nil {
			return done(last), err
		}
		if sigma > fromSigma*(1+1e-9) {
			continue
		}
		pr, err := s.Project(ctx, r)
		if pr != nil {
			recs = append(recs, pr.Homotopy...)
			its += pr.Iterations
		}
		if err != nil {
			return done(last), err
		}
		if pr.Status == mpcc.Solved {
			return done(pr), nil
		}
	}
	return done(last), nil
}
