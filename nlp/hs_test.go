package nlp

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/nlp/hs"
)

// hsObjective is f at the solution projected onto the variable bounds: the
// solver relaxes the bounds by bound_relax_factor (10⁻⁸ relative), which on
// problems with small f* and many active bounds (95–98) moves f by more than
// 10⁻⁶; the projected point is the solution of the original problem.
func hsObjective(t *testing.T, p *hs.Problem, x []float64) float64 {
	t.Helper()
	n, m := p.Dims()
	xl, xu := make([]float64, n), make([]float64, n)
	p.Bounds(xl, xu, make([]float64, m), make([]float64, m))
	y := make([]float64, n)
	for i := range y {
		y[i] = math.Min(math.Max(x[i], xl[i]), xu[i])
	}
	f, err := p.Objective(y)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestHSSuite solves every Hock–Schittkowski problem of package hs and
// compares with the published optimum FStar (each problem's Source):
// |f − f*| ≤ 1e-6·max(1, |f*|), f at the solution projected onto the bounds
// (hsObjective).
func TestHSSuite(t *testing.T) {
	probs := HSSuite()
	if len(probs) < 40 {
		t.Logf("only %d HS problems available", len(probs))
	}
	type cfg struct {
		ms MuStrategy
		or MuOracle
	}
	for _, c := range []cfg{{MuMonotone, 0}, {MuAdaptive, OracleQualityFunction}, {MuAdaptive, OracleProbing}} {
		ms := c.ms.String()
		if c.ms == MuAdaptive {
			ms += "/" + c.or.String()
		}
		localOK := 0
		solved, total, soc, resto := 0, 0, 0, 0
		var failed, open []string
		for _, p := range probs {
			s := Solver{Settings: Settings{MuStrategy: c.ms, MuOracle: c.or}}
			res, err := s.Solve(context.Background(), p)
			if err != nil {
				t.Errorf("%s/%s: %v", p.Name, ms, err)
				continue
			}
			tol := 1e-6 * math.Max(1, math.Abs(p.FStar))
			f := hsObjective(t, p, res.X)
			ok := res.Status.Success() && math.Abs(f-p.FStar) <= tol
			total += res.Iterations
			soc += res.Counts.SecondOrderCorrections
			resto += res.Counts.RestorationPhases
			loc, isLocal := knownLocal[p.Name]
			switch {
			case ok:
				solved++
			case isLocal && res.Status.Success() && math.Abs(f-loc.f) <= 1e-6*math.Max(1, math.Abs(loc.f)):
				localOK++
				t.Logf("%s/%s: converged to the documented solution f = %.10g (%s)", p.Name, ms, f, loc.source)
			case p.Name == "hs221":
				// Problem 221 has problem 13's feasible set, (1−x₁)³ ≥ x₂ ≥ 0,
				// with f = −x₁: the optimum (1, 0) is the same cusp
				// without multipliers, and IPOPT 3.11.9 also ends
				// slightly infeasible below f* = −1 (f = −1.00271).
				// Reported, not counted.
				t.Logf("%s/%s: known degenerate problem: %v, f = %.10g (f* = −1)", p.Name, ms, res.Status, res.Objective)
			case p.Name == "hs013":
				// Degenerate (no constraint qualification at x* = (1, 0)):
				// with g(x) = (1−x1)³ − x2 ≥ 0 satisfied to 1e-8, x1 − 1 can
				// be ~(1e-8)^(1/3) ≈ 2e-3, so f cannot be resolved to 1e-6.
				// Reported, not counted as a failure.
				t.Logf("%s/%s: known degenerate problem: %v, f = %.10g (f* = 1)", p.Name, ms, res.Status, res.Objective)
			case knownFailures[p.Name] != "":
				open = append(open, p.Name)
				t.Logf("%s/%s: open failure (%s): %v after %d iterations, f = %.10g, f* = %.10g",
					p.Name, ms, knownFailures[p.Name], res.Status, res.Iterations, f, p.FStar)
			default:
				failed = append(failed, p.Name)
				t.Errorf("%s/%s: status %v after %d iterations, f = %.10g, f* = %.10g", p.Name, ms, res.Status, res.Iterations, res.Objective, p.FStar)
			}
			t.Logf("%s/%s: %v, %d iterations, f = %.10g (f* = %.10g)", p.Name, ms, res.Status, res.Iterations, res.Objective, p.FStar)
		}
		t.Logf("%s: solved %d of %d to f*, %d more to a documented local solution, %d iterations in total (%d SOC steps, %d restorations); failed: %v; open: %v",
			ms, solved, len(probs), localOK, total, soc, resto, failed, open)
	}
}

// knownFailures lists HS problems that IPOPT 3.11.9 solves from the
// published start and this package does not yet, with the diagnosis. They
// are logged, not counted as failures, until fixed. All three fail under
// an adaptive μ strategy only; the default (monotone) strategy solves
// them. (hs016, hs054, hs097 and hs109 were closed by the scaling at the
// user's start and the zero-pivot threshold relative to a pivot's terms.)
var knownFailures = map[string]string{
	// MuAdaptive/QualityFunction only (MuMonotone and Probing reach f* = 0,
	// as IPOPT does): it stops at f = 0.002819 after 31 iterations.
	"hs267": "adaptive quality-function μ stops early on the exponential fit",
	// MuAdaptive/QualityFunction only (MuMonotone and Probing reach f*, as
	// IPOPT does in 36 iterations): iteration limit at f ≈ 6.6e5.
	"hs355": "adaptive quality-function μ: iteration limit",
	// MuAdaptive/QualityFunction only (MuMonotone and Probing reach f*, as
	// IPOPT does in 32 iterations with the same μ strategy): it enters the
	// restoration phase at iteration 28 (three times in all) and stops with
	// a NumericalError after 178 iterations inside restoration, at
	// f = −2736.8, θ ≈ 470 and δ_w growing to 2.6·10⁶.
	"hs389": "adaptive quality-function μ: NumericalError in restoration",
}

// knownLocal lists HS problems whose published start leads a local method to
// a different KKT point than the global optimum FStar, and problems whose
// formulation here has an optimum that differs from the printed f* (both
// IPOPT 3.11.9 and this package reach the value recorded here).
var knownLocal = map[string]struct {
	f      float64
	source string
}{
	// x = (−1.2210, 1.5); APMonitor HS collection, hs002 "f_opt_local"; IPOPT
	// 3.11.9 (MUMPS, defaults) also ends here.
	"hs002": {4.9412293, "APMonitor HS002 local solution"},
	// x = (−0.5, √3/2): f = 100(√3/2 − 1/4)² + 9/4 (APMonitor HS020 "f_opt_local" 40.198727306534536).
	"hs020": {100*(math.Sqrt(3)/2-0.25)*(math.Sqrt(3)/2-0.25) + 2.25, "closed form at (−0.5, √3/2)"},
	// The feasible set is the segment x(t) = (t, (4+t)/3, 3−t−(4+t)/3, 1−t,
	// (2−t)/3, …), t ∈ [0, 1], with f(t) = 16/3 + t/3 + exp(t(1−t)); f′(1) =
	// −2/3 < 0, so the end t = 1 is a local minimum: f = 20/3 (closed form).
	"hs055": {20.0 / 3, "closed form at t = 1 of the feasible segment"},
	// The maximal area of a hexagon of unit diameter is 0.6749814429
	// (R. L. Graham, The largest small hexagon, J. Combin. Theory A 18:165–170,
	// 1975; the COPS "polygon" model with N = 6 quotes best value
	// 0.6749814429). The published HS value −√3/2 should be checked against
	// this formulation (reported to the nlp/hs author).
	"hs108": {-0.6749814429, "Graham's largest small hexagon"},
	// From (0.42, 5) both solvers end at x ≈ (0.42190, 8.1e4), where the
	// exponential terms vanish: f = Σ(bᵢ − x₁)² minimal at x₁ = mean(bᵢ) =
	// 0.4219048 (the constraint is inactive), f = 0.0306476190; IPOPT 3.11.9
	// with defaults also ends here.
	"hs057": {0.03064761905, "f = Σ(bᵢ − b̄)² at x₁ = b̄, x₂ → ∞ (IPOPT 3.11.9 also)"},
	// MuAdaptive/QualityFunction only: a local solution of the data fit.
	"hs070": {0.08216251147, "local solution of the data fit (MuAdaptive/QualityFunction)"},
	// Problems 88–92 as written here (the series of the book with the roots
	// of μ tan μ = 1 to machine precision) have the optimal value
	// 1.3626462 (IPOPT 3.11.9 and this package agree to 9 digits on all
	// five); the book prints 1.36265681, 7.8e-6 higher relatively.
	"hs088": {1.362646219, "optimum of this formulation (IPOPT 3.11.9 also)"},
	"hs089": {1.362646219, "optimum of this formulation (IPOPT 3.11.9 also)"},
	"hs090": {1.362646219, "optimum of this formulation (IPOPT 3.11.9 also)"},
	"hs091": {1.362646219, "optimum of this formulation (IPOPT 3.11.9 also)"},
	"hs092": {1.362646219, "optimum of this formulation (IPOPT 3.11.9 also)"},
	// x = (0, 0, 0.063322, 0, 0, 0.0134): a vertex with f = 63.3·0.0633217 +
	// 4.7·0.0134 = 4.0712408 and nonnegative multipliers. From the
	// published start both IPOPT 3.11.9 and this package (MuMonotone) end
	// here on problem 98 and reach f* on problem 97; with the adaptive μ
	// strategies the vertex is reached on 97 (Probing) or f* on 98
	// (QualityFunction).
	"hs097": {4.071240809, "vertex (0, 0, 0.0633217, 0, 0, 0.0134)"},
	"hs098": {4.071240809, "vertex (0, 0, 0.0633217, 0, 0, 0.0134)"},
	// IPOPT 3.11.9 and this package both end at f = 97.5874732 (feasible to
	// 1e-8); the printed x* violates constraints 3, 8 and 9 by up to 2e-5
	// and its f* = 97.588409 is 9.6e-6 higher relatively.
	"hs116": {97.58747316, "optimum of this formulation (IPOPT 3.11.9 also)"},
	// x = (3, 0, 4, 0): vertex (IPOPT 3.11.9 with defaults also ends here) with nonnegative multipliers, f = 3 − 4 − 12 = −13.
	"hs044": {-13, "closed form at vertex (3, 0, 4, 0)"},

	// Problems 201–395 (Schittkowski 1987). Every value below is where
	// IPOPT 3.11.9 with defaults also ends from the published start
	// (go test -tags ipopt ./nlp/ipopt -run TestHSTable), to 9 digits.
	//
	// Freudenstein–Roth: the local minimum x ≈ (11.41, −0.897), f =
	// 48.98425368 (Moré, Garbow & Hillstrom 1981, problem 2).
	"hs202": {48.98425368, "Freudenstein–Roth local minimum"},
	// f = (10(x₁−x₂)² + (x₁−1)²)⁴ is so flat near x* = (1, 1) that ∇f
	// meets the tolerance at f ≈ 6.2e-6: not a minimum, the stopping test.
	"hs213": {6.182665221e-6, "early stop on the flat quartic (IPOPT also)"},
	// Problems 236, 238 and 239 share one objective (with different
	// constraints); from their starts both solvers end at the same local
	// solution f = −8.19751669 (238 with MuAdaptive/Probing only).
	"hs236": {-8.197516687, "local solution of the shared objective of 236–239"},
	"hs238": {-8.197516687, "local solution of the shared objective of 236–239"},
	"hs239": {-8.197516687, "local solution of the shared objective of 236–239"},
	// The symmetric stationary point (½, ½, ½, ½) that the start x₀ = 0
	// keeps.
	"hs265": {1.903624776, "symmetric stationary point (½, ½, ½, ½)"},
	// The local minimum with x₅ = 0 (f* = −1 has x₅ = 2): f = 0.
	"hs270": {0, "local minimum at x₅ = 0"},
	// f = (Σ …)³ is flat near x*: the stopping test holds at f ≈ 1.2e-3.
	"hs283": {0.001171100973, "early stop on the flat cubic (IPOPT also)"},
	// The chained Rosenbrock function's local minimum near x₁ ≈ −1 (f ≈
	// 3.9866, here scaled by 1e-4 as in PROB.FOR).
	"hs294": {3.973940501e-4, "chained Rosenbrock local minimum near x₁ ≈ −1"},
	"hs295": {3.986579112e-4, "chained Rosenbrock local minimum near x₁ ≈ −1"},
	"hs296": {3.986623844e-4, "chained Rosenbrock local minimum near x₁ ≈ −1"},
	"hs297": {3.986623854e-4, "chained Rosenbrock local minimum near x₁ ≈ −1"},
	"hs298": {3.986623854e-4, "chained Rosenbrock local minimum near x₁ ≈ −1"},
	"hs299": {3.986623854e-4, "chained Rosenbrock local minimum near x₁ ≈ −1"},
	// The local minimum at x₁ ≈ 1.45.
	"hs309": {0.2891491746, "local minimum at x₁ ≈ 1.45"},
	// A local minimum with nonzero residual.
	"hs312": {5.922562761, "local minimum with nonzero residual"},
	// As problem 57 (the same data fit): x₂ → ∞ and f levels off at
	// Σ(bᵢ − b̄)².
	"hs327": {0.03064761905, "f = Σ(bᵢ − b̄)² at x₁ = b̄, x₂ → ∞ (IPOPT also)"},
	// The adaptive μ strategies only (MuMonotone reaches f*).
	"hs338": {-7.205698450, "local solution (MuAdaptive)"},
	// f = −S₂S₄ + S₃² on [0, 1]⁸ is homogeneous of degree 6; its KKT points
	// have k components 1 and m components 0.5, f = −km/16.
	// MuAdaptive/QualityFunction ends at k = 3, m = 5 (f = −15/16), below
	// the published value (k = 2, m = 6, f* = −0.75) that MuMonotone,
	// Probing and IPOPT 3.11.9 reach; the global minimum is −1 (k = m = 4).
	"hs368": {-0.9375, "KKT point with three components 1 and five 0.5, f = −15/16 (MuAdaptive/QualityFunction)"},
}

// ipoptIters are the iteration counts of IPOPT 3.11.9 (Debian
// coinor-libipopt-dev, MUMPS, all options at their defaults, exact
// derivatives from package hs) on the same problems and starting points,
// measured for this package through a cgo harness that is not part of the
// repository. IPOPT reached the same objective as MuMonotone on all of them
// except hs013 (degenerate; IPOPT 0.99458) and hs055,
// where IPOPT reports
// success after 3 iterations at x ≈ (0.9226, 1.6409, 0.4365, 0.0774, 0.3591,
// 1.5635), f = 6.714888769: on the feasible segment (see knownLocal) that is
// t ≈ 0.9226 with f′(t) ≈ −0.57, not a KKT point (the six equality
// constraints have rank 5; IPOPT's last log line still shows
// inf_du = 4e-4 at μ = 10^-1.7).
var ipoptIters = map[string]int{
	"hs001": 25, "hs002": 11, "hs003": 4, "hs004": 5, "hs005": 8, "hs006": 5, "hs007": 27, "hs008": 5,
	"hs009": 3, "hs010": 12, "hs011": 8, "hs012": 8, "hs013": 55, "hs014": 7, "hs015": 16, "hs016": 19,
	"hs017": 17, "hs018": 15, "hs019": 14, "hs020": 6, "hs021": 8, "hs022": 6, "hs023": 10, "hs024": 12,
	"hs026": 25, "hs027": 56, "hs028": 1, "hs029": 8, "hs030": 8, "hs031": 7, "hs032": 16, "hs033": 11,
	"hs034": 9, "hs035": 7, "hs036": 12, "hs037": 11, "hs038": 40, "hs039": 13, "hs040": 3, "hs041": 9,
	"hs042": 4, "hs043": 9, "hs044": 18, "hs045": 7, "hs046": 19, "hs047": 19, "hs048": 1, "hs049": 19,
	"hs050": 9, "hs051": 1, "hs052": 1, "hs053": 6, "hs055": 3, "hs056": 10, "hs060": 7, "hs061": 9,
	"hs062": 7, "hs063": 7, "hs064": 17, "hs065": 28, "hs066": 7, "hs071": 8, "hs072": 16, "hs073": 8,
	"hs074": 9, "hs075": 9, "hs076": 7, "hs077": 11, "hs078": 4, "hs079": 4, "hs080": 6, "hs081": 7,
	"hs100": 11, "hs106": 15, "hs108": 16, "hs110": 6, "hs113": 11, "hs118": 11,
}

// TestHSIterationsVsIPOPT compares the total MuMonotone iteration count with
// IPOPT's on the problems of ipoptIters: a regression guard allowing 25%
// more iterations in total.
func TestHSIterationsVsIPOPT(t *testing.T) {
	ours, theirs := 0, 0
	for _, p := range HSSuite() {
		ref, ok := ipoptIters[p.Name]
		if !ok {
			continue
		}
		res, err := (&Solver{}).Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		ours += res.Iterations
		theirs += ref
		if res.Iterations > 2*ref+10 {
			t.Logf("%s: %d iterations, IPOPT %d", p.Name, res.Iterations, ref)
		}
	}
	t.Logf("total iterations: %d (IPOPT 3.11.9: %d)", ours, theirs)
	if float64(ours) > 1.25*float64(theirs) {
		t.Errorf("total iterations %d exceed 1.25 × IPOPT's %d", ours, theirs)
	}
}

// TestHSSuitePivotingLDL runs the HS suite (MuMonotone) with the pivoting
// multifrontal backend next to the pivot-free default. Reference: the
// published optimal values f* of Hock & Schittkowski (1981) in package hs,
// or the documented local solutions of knownLocal. The pivoting backend
// must reach as many of them as the default, and its total iteration count
// may exceed the default's by at most 10% (both solve the same KKT
// systems; they differ in how singular and nearly singular ones are seen).
func TestHSSuitePivotingLDL(t *testing.T) {
	probs := HSSuite()
	reached := func(p *hs.Problem, res *Result) bool {
		if !res.Status.Success() {
			return false
		}
		if math.Abs(res.Objective-p.FStar) <= 1e-6*math.Max(1, math.Abs(p.FStar)) {
			return true
		}
		loc, ok := knownLocal[p.Name]
		return ok && math.Abs(res.Objective-loc.f) <= 1e-6*math.Max(1, math.Abs(loc.f))
	}
	var okPiv, okSparse, itPiv, itSparse int
	var lost []string
	for _, p := range probs {
		var res [2]*Result
		for i, kind := range []LinearSolverKind{SparseLDL, PivotingLDL} {
			r, err := (&Solver{Settings: Settings{LinearSolver: kind}}).Solve(context.Background(), p)
			if err != nil {
				t.Fatalf("%s/%v: %v", p.Name, kind, err)
			}
			res[i] = r
		}
		itSparse += res[0].Iterations
		itPiv += res[1].Iterations
		a, b := reached(p, res[0]), reached(p, res[1])
		if a {
			okSparse++
		}
		if b {
			okPiv++
		}
		if a && !b {
			lost = append(lost, p.Name)
		}
		if res[0].Iterations != res[1].Iterations {
			t.Logf("%s: SparseLDL %v in %d iterations, PivotingLDL %v in %d", p.Name, res[0].Status, res[0].Iterations, res[1].Status, res[1].Iterations)
		}
	}
	t.Logf("%d problems: SparseLDL reaches f* on %d in %d iterations, PivotingLDL on %d in %d; lost %v",
		len(probs), okSparse, itSparse, okPiv, itPiv, lost)
	if okPiv < okSparse {
		t.Errorf("PivotingLDL reaches f* on %d problems, SparseLDL on %d (lost %v)", okPiv, okSparse, lost)
	}
	if float64(itPiv) > 1.1*float64(itSparse) {
		t.Errorf("PivotingLDL needs %d iterations in total, SparseLDL %d", itPiv, itSparse)
	}
}
