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

// solveBranch solves the step on the predicted branch. It returns the
// solution and the inner solve's record, or a nil solution when the branch
// does not apply or its solve fails (then the record, if any, holds what
// the attempt cost).
func (s *Simulator) solveBranch(ctx context.Context, pr *prediction, pv, xl, xu []float64) (w, pvb []float64, rec *mpcc.HomotopyStep, err error) {
	if pr == nil || (pr.sigs == nil && pr.psigs == nil) || s.o.StepEquilibration == Direct {
		return nil, nil, nil, nil
	}
	tr := s.tr
	bl, bu, ok := s.branchBounds(pr, xl, xu)
	if !ok {
		return nil, nil, nil, nil
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
	ir, err := s.branchSolver().SolveNLP(ctx, tr.prob, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	mp := mpcc.Problem{NLP: tr.prob, Comp: tr.comp}
	rec = &mpcc.HomotopyStep{Status: ir.Status, Iterations: ir.Iterations, Elapsed: time.Since(start)}
	rec.CompResidual, rec.NaturalResidual = mp.Residuals(ir.X, xl)
	if f, err := tr.prob.Objective(ir.X); err == nil {
		rec.Objective = f
	}
	compTol := s.o.MPCC.CompTol
	if compTol == 0 {
		compTol = mpcc.DefaultCompTol
	}
	if !ir.Status.Success() || rec.CompResidual > compTol {
		return nil, nil, rec, nil
	}
	if ir.Status != nlp.Solved {
		// An acceptable stop (the stationarity of the step equilibration
		// missed the tight tolerance) is taken only if the FESD equations
		// hold to the complementarity tolerance.
		if v, err := nlp.Violation(tr.prob, ir.X); err != nil || v > compTol {
			return nil, nil, rec, nil
		}
	}
	s.lastBranch = &branchSolution{ir: ir, bl: bl, bu: bu}
	return ir.X, pvb, rec, nil
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
	tr, d := s.tr, s.d
	last := tr.NE - 1
	for gi, grp := range d.Comp {
		for pi, pr := range grp.Pairs {
			l, v := 0.0, 0.0
			if s.o.DisableFESD {
				l = s.prev[tr.z[last][tr.ns-1]+pr.Lambda]
				v = s.prev[tr.selIdx(d, last, tr.ns-1, gi, pi)]
			} else {
				for _, a := range tr.lamPoints(last, pr.Lambda) {
					if a != tr.start+tr.bzPos[pr.Lambda] || last > 0 {
						l = math.Max(l, s.prev[a])
					}
				}
				for m := 0; m < tr.ns; m++ {
					v = math.Max(v, s.prev[tr.selIdx(d, last, m, gi, pi)])
				}
			}
			lam, sel = append(lam, l), append(sel, v)
		}
	}
	return lam, sel
}
