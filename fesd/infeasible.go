package fesd

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/fesd-go/fesd/internal/enumtext"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// ConstraintGroup names a group of the transcription's constraints, for
// the diagnosis of an infeasible OCP (OCPResult.Infeasible).
type ConstraintGroup int

const (
	// GroupDynamics: the FESD equations of the model (Runge–Kutta and DCS
	// equations, continuity, Σh = T/N, the cross complementarity and step
	// equilibration rows) under the variable bounds (states, controls,
	// speeds of time, step sizes).
	GroupDynamics ConstraintGroup = iota
	// GroupPath: OCP.Path.
	GroupPath
	// GroupStageEnd: OCP.StageEnd.
	GroupStageEnd
	// GroupTerminal: OCP.Terminal.
	GroupTerminal
	// GroupHorizon: the bounds TMin ≤ T_f ≤ TMax of a free horizon with a
	// speed of time per stage.
	GroupHorizon
	numConstraintGroups
)

var constraintGroupNames = [...]string{
	GroupDynamics: "dynamics", GroupPath: "path", GroupStageEnd: "stage-end",
	GroupTerminal: "terminal", GroupHorizon: "horizon",
}

func (g ConstraintGroup) String() string {
	if g < 0 || g >= numConstraintGroups {
		return fmt.Sprintf("ConstraintGroup(%d)", int(g))
	}
	return constraintGroupNames[g]
}

func constraintGroupValues() []ConstraintGroup {
	v := make([]ConstraintGroup, numConstraintGroups)
	for i := range v {
		v[i] = ConstraintGroup(i)
	}
	return v
}

// MarshalText returns the name of g; an unknown value is an error.
func (g ConstraintGroup) MarshalText() ([]byte, error) {
	return enumtext.Marshal("fesd", "ConstraintGroup", constraintGroupValues(), g)
}

// UnmarshalText sets g to the ConstraintGroup named by text, ignoring case.
func (g *ConstraintGroup) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("fesd", "ConstraintGroup", constraintGroupValues(), text)
	if err != nil {
		return err
	}
	*g = val
	return nil
}

// GroupViolation is the part of an infeasibility that one constraint group
// carries: the ℓ1 sum and the largest violation of its rows at the point
// of least violation, and the control stage (−1: none) and constraint row
// of that largest one (Row counts the group's rows in the order of the
// OCP's constraint list, stage by stage; for Terminal it is the index in
// the concatenated G of OCP.Terminal; −1 for the dynamics, which are
// diagnosed as a whole).
type GroupViolation struct {
	Group    ConstraintGroup
	Sum, Max float64
	Stage    int
	Row      int
}

func (v GroupViolation) String() string {
	s := fmt.Sprintf("%v constraints violated by %.3g", v.Group, v.Max)
	var at []string
	if v.Row >= 0 {
		at = append(at, fmt.Sprintf("row %d", v.Row))
	}
	if v.Stage >= 0 {
		at = append(at, fmt.Sprintf("stage %d", v.Stage))
	}
	if len(at) > 0 {
		s += " (" + strings.Join(at, ", ") + ")"
	}
	return s
}

// Infeasibility is the diagnosis of an OCP whose homotopy ended
// mpcc.Infeasible: the constraint groups that cannot be met, largest
// violation first. Groups lists the groups whose rows must be violated
// when every other group holds: it comes from a phase-1 MPCC in which the
// rows of the path, stage-end, terminal and horizon groups are elastic (a
// slack pair per row, the objective Σ slacks) and the dynamics are kept.
// If that problem is infeasible as well, the dynamics with the variable
// bounds cannot be met (x₀ outside the state bounds, for example) and
// Groups holds GroupDynamics with the violation of the infeasible point.
//
// When the phase-1 MPCC ends, not infeasible, at a point where every
// elastic row holds (its slacks within tolerance), the OCP has not been
// shown infeasible: the relaxed NLPs were locally infeasible along the
// homotopy's path, but that point meets every group but possibly the
// dynamics to the given Violation. Unconfirmed is then set, Groups is
// empty, and OCPResult.Status is mpcc.NLPFailure instead of Infeasible
// (measured on the monopod of bench/ocp at N = 30: the homotopy ends two
// relaxed NLPs locally infeasible at σ = 1e-5 and 1e-6, and the phase-1
// point meets the dynamics to 2.3e-6 at complementarity 4.7e-8, where the
// homotopy's last point missed them by 1.0e-5).
//
// The phase-1 MPCC is itself nonconvex: the groups it leaves violated are
// a local claim. When the violations of every row and variable bound at the
// homotopy's last point, the dynamics included, sum to less than a
// hundredth of the largest claimed violation, that point contradicts the
// claim (the sum, not the largest, so that small violations of many
// continuity rows cannot add up to the claimed distance): Unconfirmed and
// FromHomotopy are set, Groups is empty, Claim keeps the claimed
// violation, and Violation and CompResidual are the homotopy point's.
type Infeasibility struct {
	Groups []GroupViolation
	// Iterations of the phase-1 solve.
	Iterations int
	// Status is the phase-1 MPCC's status.
	Status mpcc.Status
	// Unconfirmed: a point meets every elastic group, the phase-1 point
	// or, with FromHomotopy, the homotopy's last point; Violation (all
	// rows and variable bounds, the elastic rows of the phase-1 problem
	// with their slacks) and CompResidual are that point's residuals.
	Unconfirmed  bool
	FromHomotopy bool
	Violation    float64
	CompResidual float64
	// Claim is the largest row violation the phase-1 point claimed, when
	// the homotopy's point contradicted it (FromHomotopy).
	Claim float64

	// point is the phase-1 point when it meets every group (the NLP
	// variables, OCPResult.Feasible).
	point []float64
}

func (f *Infeasibility) String() string {
	if f != nil && f.Unconfirmed && f.FromHomotopy {
		return fmt.Sprintf("infeasibility not confirmed: the phase-1 MPCC (%v) left a row violated by %.3g, but the homotopy's last point meets every row to %.3g, complementarity %.3g",
			f.Status, f.Claim, f.Violation, f.CompResidual)
	}
	if f != nil && f.Unconfirmed {
		return fmt.Sprintf("infeasibility not confirmed: a phase-1 point (%v) meets every constraint group, the dynamics to %.3g, complementarity %.3g",
			f.Status, f.Violation, f.CompResidual)
	}
	if f == nil || len(f.Groups) == 0 {
		return "infeasible"
	}
	parts := make([]string, len(f.Groups))
	for i, g := range f.Groups {
		parts[i] = g.String()
	}
	return "infeasible: " + strings.Join(parts, "; ")
}

// diagnoseInfeasible runs the phase-1 MPCC of Infeasibility from the
// solve's start w0 (whose dynamics rows hold when it comes from a forward
// simulation), beginning at the relaxation parameter sigma; w is the
// homotopy's last, infeasible point and comp its complementarity residual.
//
// The phase-1 MPCC is nonconvex, so the groups it leaves violated are a
// local claim. A claim that the homotopy's point w contradicts is not
// confirmed: when the violations of every row and variable bound at w, the
// dynamics included, sum to less than a hundredth of the largest claimed
// violation, the result is Unconfirmed with w's residuals (FromHomotopy).
// Measured on bench/ocp's hopper: the phase-1 left the last stage's clock
// row violated by 0.47 (run again from w instead of w0: 0.05), and the OCP
// was reported Infeasible, although w meets every row to 1.35e-5.
func (s *OCPSolver) diagnoseInfeasible(ctx context.Context, w0, w []float64, comp, sigma float64) (*Infeasibility, error) {
	tr := s.tr
	var soft []int
	for i, g := range tr.cgroup {
		if g != GroupDynamics {
			soft = append(soft, i)
		}
	}
	if len(soft) == 0 {
		return s.dynamicsInfeasible(w)
	}
	out, infeasible, err := s.phase1(ctx, soft, w0, sigma)
	if err != nil {
		return nil, err
	}
	if infeasible {
		dyn, err := s.dynamicsInfeasible(w)
		if err != nil {
			return nil, err
		}
		dyn.Iterations = out.Iterations
		return dyn, nil
	}
	if len(out.Groups) == 0 {
		return out, nil
	}
	claim := out.Groups[0].Max
	if v, sum, err := nlp.Violations(tr.prob, w); err == nil && sum < claim/100 {
		return &Infeasibility{Iterations: out.Iterations, Unconfirmed: true, FromHomotopy: true,
			Status: out.Status, Violation: v, CompResidual: comp, Claim: claim}, nil
	}
	return out, nil
}

// phase1 solves the phase-1 MPCC of Infeasibility with the rows soft
// elastic, started at x, beginning at the relaxation parameter sigma.
// infeasible reports that the phase-1 MPCC itself ended Infeasible (out
// then holds only its iterations).
func (s *OCPSolver) phase1(ctx context.Context, soft []int, x []float64, sigma float64) (out *Infeasibility, infeasible bool, err error) {
	tr := s.tr
	e := newElastic(tr.prob, soft, x)
	set := s.o.MPCC
	set.Log = nil
	set.Sigma0 = math.Max(sigma, set.SigmaN)
	set.MaxSteps = 0
	set.Finish = mpcc.NoCertificate
	set.FinishSigma = -1
	sv := mpcc.Solver{Settings: set, Inner: &mpcc.NLPSolver{Settings: s.o.nlpSettings()}}
	res, err := sv.Solve(ctx, &mpcc.Problem{NLP: e, Comp: tr.comp})
	if err != nil && !stoppedByContext(res, err) {
		return nil, false, fmt.Errorf("fesd: diagnosing the infeasibility: %w", err)
	}
	if res.Status == mpcc.Cancelled {
		// no diagnosis: the start point's slacks would pass for one
		return nil, false, fmt.Errorf("fesd: diagnosing the infeasibility: %w", cancelled(ctx))
	}
	out = &Infeasibility{Status: res.Status}
	for _, st := range res.Steps {
		out.Iterations += st.Iterations
	}
	if res.Status == mpcc.Infeasible || len(res.X) != e.n+2*len(soft) {
		return out, true, nil
	}
	// the rows whose slacks are not zero at the phase-1 point
	tol := math.Max(1e-6, 10*s.o.nlpSettings().Tol)
	byGroup := map[ConstraintGroup]*GroupViolation{}
	rowOf := map[ConstraintGroup]int{}
	for j, i := range soft {
		g := tr.cgroup[i]
		r := rowOf[g]
		rowOf[g]++
		v := res.X[e.n+2*j] + res.X[e.n+2*j+1]
		if !(v > tol) {
			continue
		}
		gv := byGroup[g]
		if gv == nil {
			gv = &GroupViolation{Group: g, Stage: -1}
			byGroup[g] = gv
		}
		gv.Sum += v
		if v > gv.Max {
			gv.Max, gv.Stage, gv.Row = v, tr.cstageK[i], r
		}
	}
	for _, gv := range byGroup {
		out.Groups = append(out.Groups, *gv)
	}
	sort.Slice(out.Groups, func(a, b int) bool { return out.Groups[a].Max > out.Groups[b].Max })
	if len(out.Groups) > 0 {
		return out, false, nil
	}
	// Every elastic row holds at the phase-1 point: the OCP is not shown
	// infeasible.
	v, err := nlp.Violation(e, res.X)
	if err != nil {
		return nil, false, err
	}
	out.Unconfirmed, out.Violation, out.CompResidual = true, v, res.CompResidual
	out.point = clone(res.X[:e.n])
	return out, false, nil
}

// dynamicsInfeasible is the diagnosis when the dynamics under the variable
// bounds cannot be met: their violation at w.
func (s *OCPSolver) dynamicsInfeasible(w []float64) (*Infeasibility, error) {
	v, err := nlp.Violation(s.tr.prob, w)
	if err != nil {
		return nil, err
	}
	return &Infeasibility{Groups: []GroupViolation{{Group: GroupDynamics, Sum: v, Max: v, Stage: -1, Row: -1}}}, nil
}

// elastic is the phase-1 problem of an NLP: the soft rows get a slack pair
// p, q ≥ 0 (g_i(x) − p + q within the row's bounds) and the objective is
// Σ (p + q) + (ζ/2) Σ_j ((x_j − x̄_j)/max(1, |x̄_j|))², with the proximal
// term of IPOPT's restoration phase (Wächter & Biegler 2006, §3.3; here
// ζ = elasticProx) towards the start x̄, which makes the minimizer unique
// in the directions the slacks do not see; the other rows and the
// variable bounds are kept. The slacks
// follow the n variables of the NLP, so complementarity pairs keep their
// indices.
type elastic struct {
	p     nlp.Problem
	n, m  int
	soft  []int
	slack []int // slack pair of every row (−1: a hard row)
	x0    []float64
	g     []float64
	// hdiag is the position of (j, j) in the Hessian values of every x_j;
	// hrows, hcols the structure with the missing diagonal entries
	// appended.
	hdiag        []int
	hrows, hcols []int
	hOrig        int // entries of the original structure
}

// elasticProx is ζ of the proximal term of the phase-1 objective.
const elasticProx = 1e-6

// newElastic returns the phase-1 problem of p with the rows soft, started
// at x with each slack pair at the row's violation there.
func newElastic(p nlp.Problem, soft []int, x []float64) *elastic {
	n, m := p.Dims()
	e := &elastic{p: p, n: n, m: m, soft: soft, slack: make([]int, m), g: make([]float64, m)}
	for i := range e.slack {
		e.slack[i] = -1
	}
	for j, i := range soft {
		e.slack[i] = j
	}
	e.x0 = make([]float64, n+2*len(soft))
	copy(e.x0, x)
	gl, gu := make([]float64, m), make([]float64, m)
	p.Bounds(make([]float64, n), make([]float64, n), gl, gu)
	if err := p.Constraints(x, e.g); err != nil {
		// no violation known: the slacks start at the push below
		clear(e.g)
		copy(gl, e.g)
		copy(gu, e.g)
	}
	for j, i := range soft {
		const push = 1e-2
		e.x0[n+2*j] = math.Max(0, e.g[i]-gu[i]) + push
		e.x0[n+2*j+1] = math.Max(0, gl[i]-e.g[i]) + push
	}
	return e
}

func (e *elastic) Dims() (int, int) { return e.n + 2*len(e.soft), e.m }

func (e *elastic) Bounds(xL, xU, gL, gU []float64) {
	e.p.Bounds(xL[:e.n], xU[:e.n], gL, gU)
	for j := e.n; j < len(xL); j++ {
		xL[j], xU[j] = 0, math.Inf(1)
	}
}

func (e *elastic) Start(x0 []float64) { copy(x0, e.x0) }

// proxScale is 1/max(1, |x̄_j|)².
func (e *elastic) proxScale(j int) float64 {
	d := math.Max(1, math.Abs(e.x0[j]))
	return 1 / (d * d)
}

func (e *elastic) Objective(x []float64) (float64, error) {
	f := 0.0
	for _, v := range x[e.n:] {
		f += v
	}
	for j := 0; j < e.n; j++ {
		d := x[j] - e.x0[j]
		f += 0.5 * elasticProx * e.proxScale(j) * d * d
	}
	return f, nil
}

func (e *elastic) Gradient(x, grad []float64) error {
	for j := 0; j < e.n; j++ {
		grad[j] = elasticProx * e.proxScale(j) * (x[j] - e.x0[j])
	}
	for j := e.n; j < len(grad); j++ {
		grad[j] = 1
	}
	return nil
}

func (e *elastic) Constraints(x, g []float64) error {
	if err := e.p.Constraints(x[:e.n], g); err != nil {
		return err
	}
	for j, i := range e.soft {
		g[i] += x[e.n+2*j+1] - x[e.n+2*j]
	}
	return nil
}

func (e *elastic) JacobianStructure() (rows, cols []int) {
	r, c := e.p.JacobianStructure()
	rows, cols = append([]int(nil), r...), append([]int(nil), c...)
	for j, i := range e.soft {
		rows = append(rows, i, i)
		cols = append(cols, e.n+2*j, e.n+2*j+1)
	}
	return rows, cols
}

func (e *elastic) JacobianValues(x, vals []float64) error {
	k := len(vals) - 2*len(e.soft)
	if err := e.p.JacobianValues(x[:e.n], vals[:k]); err != nil {
		return err
	}
	for j := range e.soft {
		vals[k+2*j], vals[k+2*j+1] = -1, 1
	}
	return nil
}

func (e *elastic) HessianStructure() (rows, cols []int) {
	if e.hdiag == nil {
		r, c := e.p.HessianStructure()
		e.hrows, e.hcols = append([]int(nil), r...), append([]int(nil), c...)
		e.hOrig = len(r)
		e.hdiag = make([]int, e.n)
		for j := range e.hdiag {
			e.hdiag[j] = -1
		}
		for k := range r {
			if r[k] == c[k] {
				e.hdiag[r[k]] = k
			}
		}
		for j := range e.hdiag {
			if e.hdiag[j] < 0 {
				e.hdiag[j] = len(e.hrows)
				e.hrows, e.hcols = append(e.hrows, j), append(e.hcols, j)
			}
		}
	}
	return e.hrows, e.hcols
}

// HessianValues: the constraint curvature Σ λ_i ∇²g_i of the original
// rows and σ times the diagonal of the proximal term (the slacks enter
// linearly).
func (e *elastic) HessianValues(x []float64, sigma float64, lambda, vals []float64) error {
	e.HessianStructure()
	k := e.hOrig
	if err := e.p.HessianValues(x[:e.n], 0, lambda, vals[:k]); err != nil {
		return err
	}
	clear(vals[k:])
	for j := 0; j < e.n; j++ {
		vals[e.hdiag[j]] += sigma * elasticProx * e.proxScale(j)
	}
	return nil
}

// Stages places each slack pair with its row (nlp.StageHinter).
func (e *elastic) Stages(xStage, gStage []int) {
	h, ok := e.p.(nlp.StageHinter)
	if !ok {
		clear(xStage)
		clear(gStage)
		return
	}
	h.Stages(xStage[:e.n], gStage)
	for j, i := range e.soft {
		xStage[e.n+2*j], xStage[e.n+2*j+1] = gStage[i], gStage[i]
	}
}
