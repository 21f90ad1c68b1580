package nlp

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// DerivativeTest selects the check of the Problem's derivatives that Solve
// runs at the starting point before the first iteration (IPOPT's
// derivative_test). A failed check stops the solve with a *DerivativeError.
type DerivativeTest int

const (
	// DerivativeTestNone runs no check (the default).
	DerivativeTestNone DerivativeTest = iota
	// DerivativeTestFirstOrder checks ∇f and the constraint Jacobian,
	// including the positions outside JacobianStructure.
	DerivativeTestFirstOrder
	// DerivativeTestSecondOrder also checks the Hessian of the Lagrangian
	// (lower triangle, including the positions outside HessianStructure).
	DerivativeTestSecondOrder
)

var derivativeTestNames = [...]string{
	DerivativeTestNone:        "None",
	DerivativeTestFirstOrder:  "FirstOrder",
	DerivativeTestSecondOrder: "SecondOrder",
}

// String returns the name of the test.
func (d DerivativeTest) String() string {
	if d < 0 || int(d) >= len(derivativeTestNames) {
		return fmt.Sprintf("DerivativeTest(%d)", int(d))
	}
	return derivativeTestNames[d]
}

// DerivativeKind names the derivative an entry of a DerivativeReport
// belongs to.
type DerivativeKind int

const (
	// GradientEntry is an entry ∂f/∂x_j of the objective gradient.
	GradientEntry DerivativeKind = iota
	// JacobianEntry is an entry ∂g_i/∂x_j of the constraint Jacobian.
	JacobianEntry
	// HessianEntry is an entry (i ≥ j) of the Hessian of the Lagrangian
	// σ∇²f + Σ λ_i ∇²g_i.
	HessianEntry
)

var derivativeKindNames = [...]string{GradientEntry: "gradient", JacobianEntry: "Jacobian", HessianEntry: "Hessian"}

// String returns the name of the kind.
func (k DerivativeKind) String() string {
	if k < 0 || int(k) >= len(derivativeKindNames) {
		return fmt.Sprintf("DerivativeKind(%d)", int(k))
	}
	return derivativeKindNames[k]
}

// DerivativeCheck configures CheckDerivatives. The zero value means the
// defaults, IPOPT's derivative test settings where it has them.
type DerivativeCheck struct {
	// FirstOrderOnly skips the Hessian (default false: ∇f, the Jacobian
	// and the Hessian of the Lagrangian are checked).
	FirstOrderOnly bool
	// Tol is the largest accepted error of an entry (default 1e-4,
	// derivative_test_tol); see Floor for how the error is measured.
	Tol float64
	// Floor is the magnitude below which errors are measured absolutely
	// (default 1): the error of an entry is |given − estimate| /
	// max(|given|, |estimate|, Floor). An entry outside the declared
	// structure is thus flagged when its estimate exceeds Tol·Floor in
	// magnitude. An entry is flagged only if |given − estimate| also
	// exceeds the rounding error of the difference quotient,
	// 8ε·max(|v₊|, |v₋|)/(h₊ + h₋) for the differenced values v± (large
	// function values would otherwise flag exact derivatives).
	Floor float64
	// Perturbation is the relative finite-difference step (default 1e-8,
	// derivative_test_perturbation): x_j moves by
	// h_j = Perturbation·max(1, |x_j|), both ways (central differences)
	// unless one side leaves the variable bounds.
	Perturbation float64
	// Sigma is the objective factor σ of the Lagrangian in the Hessian
	// check (default 1).
	Sigma float64
	// Lambda are the constraint multipliers λ of the Hessian check, length
	// m (default nil: pseudo-random in [−1, 1] from a fixed seed, so that
	// every constraint's Hessian contributes).
	Lambda []float64
	// MaxEntries is the number of flagged entries kept in
	// DerivativeReport.Worst and .MissingEntries (default 20).
	MaxEntries int
}

// DerivativeEntry is one compared derivative entry.
type DerivativeEntry struct {
	Kind DerivativeKind
	// Row and Col locate the entry: the gradient has Row 0 and Col j, the
	// Jacobian Row = constraint i and Col = variable j, the Hessian
	// Row ≥ Col.
	Row, Col int
	// Given is the value from the Problem's callback (0 at a position
	// outside the declared structure).
	Given float64
	// Estimate is the finite-difference value.
	Estimate float64
	// Error is |Given − Estimate| / max(|Given|, |Estimate|, Floor); the
	// entry is flagged when it exceeds Tol (NaN in Given: +Inf).
	Error float64
	// Missing reports a position outside the declared sparsity structure.
	Missing bool
}

func (e DerivativeEntry) String() string {
	pos := fmt.Sprintf("%s[%d,%d]", e.Kind, e.Row, e.Col)
	if e.Kind == GradientEntry {
		pos = fmt.Sprintf("gradient[%d]", e.Col)
	}
	s := fmt.Sprintf("%s: given %.10g, finite difference %.10g, error %.3g", pos, e.Given, e.Estimate, e.Error)
	if e.Missing {
		s += " (not in the structure)"
	}
	return s
}

// DerivativeReport is the outcome of CheckDerivatives.
type DerivativeReport struct {
	// X is the point of the check; Sigma and Lambda are the factors of the
	// Lagrangian of the Hessian check (Lambda nil when it was skipped).
	X      []float64
	Sigma  float64
	Lambda []float64
	// SecondOrder reports whether the Hessian check was asked for;
	// HessianSkipped that it was not run because the first derivatives,
	// from which its reference is built, had flagged entries. Tol, Floor
	// and Perturbation are the resolved settings.
	SecondOrder, HessianSkipped bool
	Tol, Floor, Perturbation    float64
	// Checked is the number of compared entries: every gradient entry, all
	// m·n Jacobian positions and, when the Hessian was checked, all
	// n(n+1)/2 positions of its lower triangle.
	Checked int
	// Wrong counts the flagged entries inside the declared structures (the
	// gradient included), Missing the flagged positions outside them.
	Wrong, Missing int
	// Skipped counts the entries without an estimate: a perturbed
	// evaluation was NaN or ±Inf (or failed with an error, for the
	// first-derivative callbacks of the Hessian check).
	Skipped int
	// MaxError is the largest error of each kind (indexed by
	// DerivativeKind), flagged or not.
	MaxError [3]float64
	// Worst are the flagged entries with the largest errors, worst first,
	// at most DerivativeCheck.MaxEntries; MissingEntries likewise for the
	// flagged positions outside the structures.
	Worst, MissingEntries []DerivativeEntry
	// Probe reports that the report comes from the derivative probe at the
	// end of a solve (always on): only the gradient and
	// the Jacobian rows whose directional derivatives disagreed were
	// compared entry by entry, with the probe's steps (Perturbation 1e-6,
	// less near a bound).
	Probe bool
}

// epsilon is the unit roundoff of float64.
const epsilon = 0x1p-52

// OK reports whether no entry was flagged.
func (r *DerivativeReport) OK() bool { return r.Wrong == 0 && r.Missing == 0 }

// WriteTo writes a human-readable summary: the counts, the largest error
// of each kind and the flagged entries.
func (r *DerivativeReport) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	order := "first-order"
	if r.SecondOrder {
		order = "second-order"
	}
	fmt.Fprintf(&b, "%s derivative test (tol %g, floor %g, perturbation %g): %d entries checked, %d wrong, %d missing from the structure, %d skipped\n",
		order, r.Tol, r.Floor, r.Perturbation, r.Checked, r.Wrong, r.Missing, r.Skipped)
	kinds := []DerivativeKind{GradientEntry, JacobianEntry}
	if r.SecondOrder && !r.HessianSkipped {
		kinds = append(kinds, HessianEntry)
	}
	for _, k := range kinds {
		fmt.Fprintf(&b, "largest %s error %.3g\n", k, r.MaxError[k])
	}
	if r.HessianSkipped {
		b.WriteString("Hessian not checked: its finite differences would use the flagged first derivatives\n")
	}
	for _, e := range r.Worst {
		fmt.Fprintf(&b, "  %v\n", e)
	}
	for _, e := range r.MissingEntries {
		if !slices.Contains(r.Worst, e) {
			fmt.Fprintf(&b, "  %v\n", e)
		}
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// ErrDerivatives is wrapped by the *DerivativeError of a failed
// Settings.DerivativeTest.
var ErrDerivatives = errors.New("nlp: derivative test failed")

// DerivativeError is returned by Solve when the derivative test of
// Settings.DerivativeTest flags an entry (the result is then nil), or when
// the derivative probe (always on) confirms a wrong or
// missing first derivative at the end of a solve (with the result, status
// DerivativeMismatch); Report has the details.
type DerivativeError struct {
	Report *DerivativeReport
}

func (e *DerivativeError) Error() string {
	r := e.Report
	where := "at the starting point"
	if r.Probe {
		where = "at the point the solve converged to"
	}
	s := fmt.Sprintf("%v %s: %d wrong entries, %d missing from the structure", ErrDerivatives, where, r.Wrong, r.Missing)
	if len(r.Worst) > 0 {
		s += "; worst " + r.Worst[0].String()
	}
	return s
}

// Is makes errors.Is(err, ErrDerivatives) true.
func (e *DerivativeError) Is(target error) bool { return target == ErrDerivatives }

// CheckDerivatives compares the derivatives of p at x with central finite
// differences of the Problem's own functions: ∇f and every position of the
// Jacobian (m·n of them, so that a nonzero missing from JacobianStructure
// is found) against differences of f and g, and, unless opt.FirstOrderOnly,
// every position of the lower triangle of the Hessian of the Lagrangian
// σ∇²f + Σ λ_i ∇²g_i against differences of σ∇f + Jᵀλ, built from the
// Problem's Gradient and JacobianValues (so the Hessian is checked only
// when no first-order entry was flagged; DerivativeReport.HessianSkipped
// says so otherwise). It costs 2n evaluations of f and g and, for the
// Hessian, 2n of ∇f and J.
//
// The error is non-nil when the check cannot run: x of the wrong length
// or not finite, invalid options, a structure out of range, a callback
// error or a non-finite value at x itself. Flagged entries are reported in
// the DerivativeReport, not as an error.
func CheckDerivatives(p Problem, x []float64, opt DerivativeCheck) (*DerivativeReport, error) {
	n, m := p.Dims()
	if n < 0 || m < 0 {
		return nil, fmt.Errorf("%w: Dims() = (%d, %d)", ErrDimension, n, m)
	}
	if len(x) != n {
		return nil, fmt.Errorf("%w: x has length %d, want %d", ErrDimension, len(x), n)
	}
	for j, v := range x {
		if nonFinite(v) {
			return nil, fmt.Errorf("%w: x[%d] = %g", ErrDimension, j, v)
		}
	}
	c, err := resolveCheck(opt, m)
	if err != nil {
		return nil, err
	}
	jr, jc := p.JacobianStructure()
	hr, hc := p.HessianStructure()
	if _, err := structureIndex(jr, jc, m, n, false, "Jacobian"); err != nil {
		return nil, err
	}
	var hesAt map[[2]int]int
	if !c.FirstOrderOnly {
		if hesAt, err = structureIndex(hr, hc, n, n, true, "Hessian"); err != nil {
			return nil, err
		}
	}
	xL, xU := make([]float64, n), make([]float64, n)
	p.Bounds(xL, xU, make([]float64, m), make([]float64, m))

	rep := &DerivativeReport{
		X: slices.Clone(x), SecondOrder: !c.FirstOrderOnly,
		Tol: c.Tol, Floor: c.Floor, Perturbation: c.Perturbation,
	}
	var flagged []DerivativeEntry
	// noise is the rounding error of the difference quotient: a few ulps
	// of the differenced values over the step (large function values,
	// such as HS 109's 2 250 000 − x₁² − x₈², make it visible).
	compare := func(kind DerivativeKind, row, col int, given, est, noise float64, missing bool) {
		rep.Checked++
		if math.IsNaN(est) {
			rep.Skipped++
			return
		}
		e := DerivativeEntry{Kind: kind, Row: row, Col: col, Given: given, Estimate: est, Missing: missing}
		if nonFinite(given) {
			e.Error = math.Inf(1)
		} else {
			e.Error = math.Abs(given-est) / math.Max(math.Max(math.Abs(given), math.Abs(est)), c.Floor)
		}
		rep.MaxError[kind] = math.Max(rep.MaxError[kind], e.Error)
		if e.Error > c.Tol && math.Abs(given-est) > c.Tol*math.Max(math.Max(math.Abs(given), math.Abs(est)), c.Floor)+noise {
			if missing {
				rep.Missing++
			} else {
				rep.Wrong++
			}
			flagged = append(flagged, e)
		}
	}

	// Values at x.
	grad := make([]float64, n)
	jac := make([]float64, len(jr))
	if err := p.Gradient(x, grad); err != nil {
		return nil, fmt.Errorf("nlp: derivative test: Gradient: %w", err)
	}
	if err := p.JacobianValues(x, jac); err != nil {
		return nil, fmt.Errorf("nlp: derivative test: JacobianValues: %w", err)
	}
	if f, err := p.Objective(x); err != nil {
		return nil, fmt.Errorf("nlp: derivative test: Objective: %w", err)
	} else if nonFinite(f) {
		return nil, &EvalError{Func: "Objective", Value: f}
	}

	if err := checkFirstOrder(p, x, xL, xU, &c, jr, jc, grad, jac, compare); err != nil {
		return nil, err
	}

	rep.HessianSkipped = !c.FirstOrderOnly && !rep.OK()
	if !c.FirstOrderOnly && !rep.HessianSkipped {
		if err := checkHessian(p, x, xL, xU, &c, hr, hesAt, jr, jc, rep, compare); err != nil {
			return nil, err
		}
	}

	slices.SortStableFunc(flagged, func(a, b DerivativeEntry) int {
		return -cmpFloat(a.Error, b.Error)
	})
	for _, e := range flagged {
		if len(rep.Worst) < c.MaxEntries {
			rep.Worst = append(rep.Worst, e)
		}
		if e.Missing && len(rep.MissingEntries) < c.MaxEntries {
			rep.MissingEntries = append(rep.MissingEntries, e)
		}
	}
	return rep, nil
}

// checkFirstOrder compares ∇f and all m·n Jacobian positions (structure
// entries of jr, jc with values jac, the others as missing ones) with
// central differences of f and g: column j and ∂f/∂x_j from f and g at
// x ± h e_j.
func checkFirstOrder(p Problem, x, xL, xU []float64, c *DerivativeCheck, jr, jc []int, grad, jac []float64,
	compare func(DerivativeKind, int, int, float64, float64, float64, bool)) error {
	n, m := p.Dims()
	xp := slices.Clone(x)
	gP, gM := make([]float64, m), make([]float64, m)
	colRows := columnEntries(jr, jc, n)
	inCol := make([]int, m) // structure entry of (i, j) for the current column, −1 if none
	for i := range inCol {
		inCol[i] = -1
	}
	for j := range n {
		hp, hm := c.steps(x[j], xL[j], xU[j])
		fP, okP, err := evalFGAt(p, xp, j, x[j]+hp, gP)
		if err != nil {
			return err
		}
		fM, okM, err := evalFGAt(p, xp, j, x[j]-hm, gM)
		if err != nil {
			return err
		}
		xp[j] = x[j]
		ok := okP && okM
		est := func(a, b float64) float64 {
			if !ok {
				return math.NaN()
			}
			return (a - b) / (hp + hm)
		}
		noise := func(a, b float64) float64 {
			return 8 * epsilon * math.Max(math.Abs(a), math.Abs(b)) / (hp + hm)
		}
		compare(GradientEntry, 0, j, grad[j], est(fP, fM), noise(fP, fM), false)
		for _, k := range colRows[j] {
			inCol[jr[k]] = k
		}
		for i := range m {
			if k := inCol[i]; k >= 0 {
				compare(JacobianEntry, i, j, jac[k], est(gP[i], gM[i]), noise(gP[i], gM[i]), false)
			} else {
				compare(JacobianEntry, i, j, 0, est(gP[i], gM[i]), noise(gP[i], gM[i]), true)
			}
		}
		for _, k := range colRows[j] {
			inCol[jr[k]] = -1
		}
	}
	return nil
}

// checkHessian compares the lower triangle of the Hessian of the
// Lagrangian with central differences of ∇L = σ∇f + Jᵀλ.
func checkHessian(p Problem, x, xL, xU []float64, c *DerivativeCheck, hr []int, hesAt map[[2]int]int, jr, jc []int, rep *DerivativeReport,
	compare func(DerivativeKind, int, int, float64, float64, float64, bool)) error {
	n, _ := p.Dims()
	rep.Sigma, rep.Lambda = c.Sigma, slices.Clone(c.Lambda)
	hes := make([]float64, len(hr))
	if err := p.HessianValues(x, c.Sigma, c.Lambda, hes); err != nil {
		return fmt.Errorf("nlp: derivative test: HessianValues: %w", err)
	}
	grad := make([]float64, n)
	jac := make([]float64, len(jr))
	xp := slices.Clone(x)
	lagGrad := func(dst []float64) (bool, error) {
		if err := p.Gradient(xp, grad); err != nil {
			return false, fmt.Errorf("nlp: derivative test: Gradient: %w", err)
		}
		if err := p.JacobianValues(xp, jac); err != nil {
			return false, fmt.Errorf("nlp: derivative test: JacobianValues: %w", err)
		}
		for j := range dst {
			dst[j] = c.Sigma * grad[j]
		}
		for k, i := range jr {
			dst[jc[k]] += c.Lambda[i] * jac[k]
		}
		for _, v := range dst {
			if nonFinite(v) {
				return false, nil
			}
		}
		return true, nil
	}
	lP, lM := make([]float64, n), make([]float64, n)
	for j := range n {
		hp, hm := c.steps(x[j], xL[j], xU[j])
		xp[j] = x[j] + hp
		okP, err := lagGrad(lP)
		if err != nil {
			return err
		}
		xp[j] = x[j] - hm
		okM, err := lagGrad(lM)
		if err != nil {
			return err
		}
		xp[j] = x[j]
		for i := j; i < n; i++ {
			est := math.NaN()
			if okP && okM {
				est = (lP[i] - lM[i]) / (hp + hm)
			}
			noise := 8 * epsilon * math.Max(math.Abs(lP[i]), math.Abs(lM[i])) / (hp + hm)
			if k, in := hesAt[[2]int{i, j}]; in {
				compare(HessianEntry, i, j, hes[k], est, noise, false)
			} else {
				compare(HessianEntry, i, j, 0, est, noise, true)
			}
		}
	}
	return nil
}

// evalFGAt evaluates f and g at xp with xp[j] = v; ok is false for a
// non-finite value.
func evalFGAt(p Problem, xp []float64, j int, v float64, g []float64) (f float64, ok bool, err error) {
	xp[j] = v
	if f, err = p.Objective(xp); err != nil {
		return 0, false, fmt.Errorf("nlp: derivative test: Objective: %w", err)
	}
	if err = p.Constraints(xp, g); err != nil {
		return 0, false, fmt.Errorf("nlp: derivative test: Constraints: %w", err)
	}
	ok = !nonFinite(f)
	for _, v := range g {
		ok = ok && !nonFinite(v)
	}
	return f, ok, nil
}

// steps returns the forward and backward steps of x_j: both
// Perturbation·max(1, |x_j|), except that a side that would leave [xL, xU]
// is 0 (one-sided difference) while the other side stays inside.
func (c *DerivativeCheck) steps(xj, lo, hi float64) (hp, hm float64) {
	h := c.Perturbation * math.Max(1, math.Abs(xj))
	hp, hm = h, h
	switch {
	case xj+h > hi && xj-h >= lo:
		hp = 0
	case xj-h < lo && xj+h <= hi:
		hm = 0
	}
	return hp, hm
}

// resolveCheck fills in the defaults and validates opt.
func resolveCheck(opt DerivativeCheck, m int) (DerivativeCheck, error) {
	for _, f := range []struct {
		name string
		v    float64
	}{{"Tol", opt.Tol}, {"Floor", opt.Floor}, {"Perturbation", opt.Perturbation}} {
		if f.v != 0 && !finitePos(f.v) {
			return opt, fmt.Errorf("%w: DerivativeCheck.%s = %g must be positive and finite (0 = default)", ErrSettings, f.name, f.v)
		}
	}
	if nonFinite(opt.Sigma) {
		return opt, fmt.Errorf("%w: DerivativeCheck.Sigma = %g", ErrSettings, opt.Sigma)
	}
	if opt.MaxEntries < 0 {
		return opt, fmt.Errorf("%w: DerivativeCheck.MaxEntries = %d is negative", ErrSettings, opt.MaxEntries)
	}
	opt.Tol = orDefault(opt.Tol, 1e-4)
	opt.Floor = orDefault(opt.Floor, 1)
	opt.Perturbation = orDefault(opt.Perturbation, 1e-8)
	opt.Sigma = orDefault(opt.Sigma, 1)
	if opt.MaxEntries == 0 {
		opt.MaxEntries = 20
	}
	if opt.FirstOrderOnly {
		return opt, nil
	}
	if opt.Lambda == nil {
		rng := rand.New(rand.NewPCG(27, 4))
		opt.Lambda = make([]float64, m)
		for i := range opt.Lambda {
			opt.Lambda[i] = 2*rng.Float64() - 1
		}
	} else if len(opt.Lambda) != m {
		return opt, fmt.Errorf("%w: DerivativeCheck.Lambda has length %d, want %d", ErrDimension, len(opt.Lambda), m)
	}
	for i, v := range opt.Lambda {
		if nonFinite(v) {
			return opt, fmt.Errorf("%w: DerivativeCheck.Lambda[%d] = %g", ErrSettings, i, v)
		}
	}
	return opt, nil
}

// structureIndex maps the positions of a coordinate structure to their
// entry numbers, checking ranges, duplicates and (lower) the lower
// triangle.
func structureIndex(rows, cols []int, nr, nc int, lower bool, name string) (map[[2]int]int, error) {
	if len(rows) != len(cols) {
		return nil, fmt.Errorf("%w: %s structure row/column lists of different lengths", ErrStructure, name)
	}
	at := make(map[[2]int]int, len(rows))
	for k, i := range rows {
		j := cols[k]
		if i < 0 || i >= nr || j < 0 || j >= nc || (lower && i < j) {
			return nil, fmt.Errorf("%w: %s entry %d at (%d, %d)", ErrStructure, name, k, i, j)
		}
		if _, dup := at[[2]int{i, j}]; dup {
			return nil, fmt.Errorf("%w: duplicate %s entry at (%d, %d)", ErrStructure, name, i, j)
		}
		at[[2]int{i, j}] = k
	}
	return at, nil
}

// columnEntries lists the structure entries of every column.
func columnEntries(rows, cols []int, n int) [][]int {
	out := make([][]int, n)
	for k := range rows {
		out[cols[k]] = append(out[cols[k]], k)
	}
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
