package nlp

import (
	"math"
	"math/rand/v2"
	"slices"
)

// The derivative probe runs when a solve is about to end Solved or
// SolvedAcceptable. Whether a
// point satisfies the KKT conditions depends on ∇f and the Jacobian only,
// so those are what it checks: a Jacobian nonzero left out of
// JacobianStructure, or a wrong gradient or Jacobian value, makes the solver
// converge to a point that satisfies the conditions of another problem.
//
// At the final point x it compares the central difference of f and of
// every g_i along a pseudo-random direction D,
//
//	(v(x + hD) − v(x − hD)) / 2h,   h = 1e-6,
//	D_j = ±r_j·s_j,  r_j ∈ [0.5, 1],  s_j = min(max(1, |x_j|), 1e-3·d_j/h),
//
// with ∇f·D and J·D, where d_j is the distance of x_j to its nearer bound
// (to the relaxed bound when x_j lies in the solver's bound relaxation):
// the steps stay within 1e-3 of it, so a singularity at a bound such as
// log x_j or √x_j is not approached (and its slope is resolved to about
// 0.2 % by the smoothness test below); fixed variables, variables at a
// bound and those so close to one that the step would fall below
// 1e-10·|x_j| (where x_j ± step rounds) have D_j = 0. A row is flagged
// when the difference exceeds probeTol·max(|estimate|, Σ_j |J_ij D_j|, 1) plus the rounding error of
// the quotient, and the function is smooth along D on the scale of the
// step: the forward and backward quotients (v(x ± hD) − v(x))/±h differ by
// at most half the discrepancy. A discrepancy that comes from curvature or
// from a kink (max, abs, a complementarity function) within the step makes
// the one-sided quotients differ by at least as much, so it raises no
// alarm. Only a flagged row costs more: the entries of the flagged rows
// are then compared one by one with central differences along each
// coordinate (same steps and tests, 2n evaluations of f and g), and only
// an entry flagged there is reported. The probe costs one evaluation of
// f, g, ∇f and J at x and two of f and g; a callback error or a non-finite
// value during it abandons it without an alarm. Its evaluations are not in
// Result.Counts.

// Probe constants.
const (
	probeTol     = 1e-4  // relative tolerance, as DerivativeCheck.Tol (and floor 1, as DerivativeCheck.Floor)
	probeStep    = 1e-6  // relative step of the central differences (≈ ε^(1/3))
	probeSmooth  = 0.5   // the one-sided quotients must agree to this fraction of the discrepancy
	probeReach   = 1e-3  // the steps of x_j stay within this fraction of its distance to the bounds
	probeMinStep = 1e-10 // smallest step relative to |x_j|: x_j ± step is then exact to ~1e-6 of the step
	probeSeed    = 29    // seed of the probe direction
)

// probeValues are f and g at one point; ok is false after a callback error
// or a non-finite value.
type probeValues struct {
	f  float64
	g  []float64
	ok bool
}

// eval evaluates f and g at x into v.
func (v *probeValues) eval(p Problem, x []float64) {
	v.ok = false
	f, err := p.Objective(x)
	if err != nil || nonFinite(f) {
		return
	}
	if err := p.Constraints(x, v.g); err != nil {
		return
	}
	for _, gi := range v.g {
		if nonFinite(gi) {
			return
		}
	}
	v.f, v.ok = f, true
}

// at returns the value of row i (−1: f).
func (v *probeValues) at(i int) float64 {
	if i < 0 {
		return v.f
	}
	return v.g[i]
}

// probeJudge decides whether a difference quotient contradicts a given
// derivative: est is the central quotient, fwd and bwd the one-sided ones,
// vals the differenced values (for the rounding error over the step h).
func probeJudge(given, scale, est, fwd, bwd, h float64, vals ...float64) (flag bool, errRel float64) {
	diff := math.Abs(est - given)
	mx := 0.0
	for _, v := range vals {
		mx = math.Max(mx, math.Abs(v))
	}
	noise := 8 * epsilon * mx / h
	den := math.Max(math.Max(math.Abs(est), scale), 1)
	return diff > probeTol*den+noise && math.Abs(fwd-bwd) <= probeSmooth*diff, diff / den
}

// probeDerivatives runs the derivative probe at x (see above) with the
// Jacobian structure (jr, jc), the variable bounds [lo, hi] and the bound
// relaxation of the solve. It returns nil unless an entry is confirmed wrong or missing;
// then a report of the entry-by-entry comparison of the flagged rows.
func probeDerivatives(p Problem, x, lo, hi []float64, relax func(float64) float64, jr, jc []int) *DerivativeReport {
	n, m := p.Dims()
	if n == 0 || len(x) != n {
		return nil
	}
	grad := make([]float64, n)
	jac := make([]float64, len(jr))
	if p.Gradient(x, grad) != nil || p.JacobianValues(x, jac) != nil ||
		slices.ContainsFunc(grad, nonFinite) || slices.ContainsFunc(jac, nonFinite) {
		return nil
	}
	newValues := func() *probeValues { return &probeValues{g: make([]float64, m)} }
	v0, vP, vM := newValues(), newValues(), newValues()
	v0.eval(p, x)
	if !v0.ok {
		return nil
	}

	// Step scales and the direction.
	scale := make([]float64, n)
	rng := rand.New(rand.NewPCG(probeSeed, uint64(n)))
	D := make([]float64, n)
	for j, xj := range x {
		// Distance to the bounds, to the relaxed ones only where x_j is
		// in the relaxation band.
		l, u := lo[j], hi[j]
		if xj <= l {
			l -= relax(l)
		}
		if xj >= u {
			u += relax(u)
		}
		d := math.Min(xj-l, u-xj)
		if lo[j] < hi[j] && d > 0 {
			scale[j] = math.Min(math.Max(1, math.Abs(xj)), probeReach*d/probeStep)
		}
		if probeStep*scale[j] < probeMinStep*math.Abs(xj) {
			// x_j ± step would round (nearly) to x_j: its column is
			// not probed.
			scale[j] = 0
		}
		r := 0.5 + 0.5*rng.Float64()
		if rng.IntN(2) == 0 {
			r = -r
		}
		D[j] = r * scale[j]
	}
	xp := slices.Clone(x)
	step := func(dir []float64, t float64, v *probeValues) {
		for j := range xp {
			xp[j] = x[j] + t*dir[j]
		}
		v.eval(p, xp)
	}
	step(D, probeStep, vP)
	step(D, -probeStep, vM)
	if !vP.ok || !vM.ok {
		return nil
	}

	// Directional derivatives: given ∇f·D and J·D with the sums of the
	// absolute terms.
	givenD := make([]float64, m+1) // row i at i+1, f at 0
	sizeD := make([]float64, m+1)
	for j, d := range D {
		givenD[0] += grad[j] * d
		sizeD[0] += math.Abs(grad[j] * d)
	}
	for k, i := range jr {
		t := jac[k] * D[jc[k]]
		givenD[i+1] += t
		sizeD[i+1] += math.Abs(t)
	}
	flagged := make([]bool, m+1)
	anyFlag := false
	h := probeStep
	for i := -1; i < m; i++ {
		a, b, c := vP.at(i), vM.at(i), v0.at(i)
		flag, _ := probeJudge(givenD[i+1], sizeD[i+1], (a-b)/(2*h), (a-c)/h, (c-b)/h, 2*h, a, b, c)
		flagged[i+1] = flag
		anyFlag = anyFlag || flag
	}
	if !anyFlag {
		return nil
	}
	return probeEntries(p, x, scale, grad, jac, jr, jc, flagged, v0)
}

// probeEntries compares the entries of the flagged rows (flagged[0]: the
// gradient, flagged[i+1]: row i of the Jacobian) with central differences
// along each coordinate with the probe's step scales. It returns nil when
// no entry is flagged.
func probeEntries(p Problem, x, scale, grad, jac []float64, jr, jc []int, flagged []bool, v0 *probeValues) *DerivativeReport {
	n, m := p.Dims()
	rep := &DerivativeReport{X: slices.Clone(x), Tol: probeTol, Floor: 1, Perturbation: probeStep, Probe: true}
	var found []DerivativeEntry
	inCol := make([]int, m) // structure entry of (i, j) in the current column, −1 if none
	for i := range inCol {
		inCol[i] = -1
	}
	colRows := columnEntries(jr, jc, n)
	vP, vM := &probeValues{g: make([]float64, m)}, &probeValues{g: make([]float64, m)}
	xp := slices.Clone(x)
	for j := range n {
		if scale[j] == 0 {
			continue
		}
		h := probeStep * scale[j]
		xp[j] = x[j] + h
		vP.eval(p, xp)
		xp[j] = x[j] - h
		vM.eval(p, xp)
		xp[j] = x[j]
		if !vP.ok || !vM.ok {
			rep.Skipped++
			continue
		}
		for _, k := range colRows[j] {
			inCol[jr[k]] = k
		}
		for i := -1; i < m; i++ {
			if !flagged[i+1] {
				continue
			}
			e := DerivativeEntry{Kind: GradientEntry, Col: j}
			if i < 0 {
				e.Given = grad[j]
			} else {
				e.Kind, e.Row = JacobianEntry, i
				if k := inCol[i]; k >= 0 {
					e.Given = jac[k]
				} else {
					e.Missing = true
				}
			}
			a, b, c := vP.at(i), vM.at(i), v0.at(i)
			e.Estimate = (a - b) / (2 * h)
			var flag bool
			flag, e.Error = probeJudge(e.Given, math.Abs(e.Given), e.Estimate, (a-c)/h, (c-b)/h, 2*h, a, b, c)
			rep.Checked++
			rep.MaxError[e.Kind] = math.Max(rep.MaxError[e.Kind], e.Error)
			if !flag {
				continue
			}
			if e.Missing {
				rep.Missing++
			} else {
				rep.Wrong++
			}
			found = append(found, e)
		}
		for _, k := range colRows[j] {
			inCol[jr[k]] = -1
		}
	}
	if len(found) == 0 {
		return nil
	}
	slices.SortStableFunc(found, func(a, b DerivativeEntry) int { return -cmpFloat(a.Error, b.Error) })
	const keep = 20 // as DerivativeCheck.MaxEntries
	for _, e := range found {
		if len(rep.Worst) < keep {
			rep.Worst = append(rep.Worst, e)
		}
		if e.Missing && len(rep.MissingEntries) < keep {
			rep.MissingEntries = append(rep.MissingEntries, e)
		}
	}
	return rep
}
