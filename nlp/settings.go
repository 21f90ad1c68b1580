package nlp

import (
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/fesd-go/fesd/nlp/linalg"
)

// ErrSettings is wrapped by every error returned from Settings.Validate.
var ErrSettings = errors.New("nlp: invalid settings")

// MuStrategy selects the barrier-parameter update rule.
type MuStrategy int

const (
	// MuMonotone is the Fiacco–McCormick rule (IPOPT's default): μ stays
	// fixed until the barrier subproblem is solved to E_μ ≤ κ_ε·μ, then
	// μ ← max(μ_min, min(κ_μ·μ, μ^θ_μ)) (W&B06 eq. 7).
	MuMonotone MuStrategy = iota
	// MuAdaptive chooses μ anew in every iteration with the oracle of
	// Settings.MuOracle (Nocedal, Wächter, Waltz 2009). Globalization is the
	// KKT-error rule: when the scaled KKT error has not decreased by the
	// factor 0.9999 over 4 consecutive iterations, the solver falls back to
	// monotone mode with μ = 0.8·(average complementarity) until that barrier
	// subproblem is solved, and then returns to free mode.
	MuAdaptive
)

var muStrategyNames = [...]string{MuMonotone: "Monotone", MuAdaptive: "Adaptive"}

// String returns the name of the strategy.
func (s MuStrategy) String() string {
	if s < 0 || int(s) >= len(muStrategyNames) {
		return fmt.Sprintf("MuStrategy(%d)", int(s))
	}
	return muStrategyNames[s]
}

// MuOracle selects how MuAdaptive computes μ.
type MuOracle int

const (
	// OracleQualityFunction (IPOPT's default mu_oracle): minimize a
	// linear-model quality function of the centering parameter σ ∈
	// [1e-6, 100] by golden-section search; two solves per iteration.
	OracleQualityFunction MuOracle = iota
	// OracleProbing is Mehrotra's probing heuristic: σ = (μ_aff/μ_avg)³
	// from the affine-scaling step; two solves per iteration.
	OracleProbing
)

var muOracleNames = [...]string{OracleQualityFunction: "QualityFunction", OracleProbing: "Probing"}

// String returns the name of the oracle.
func (o MuOracle) String() string {
	if o < 0 || int(o) >= len(muOracleNames) {
		return fmt.Sprintf("MuOracle(%d)", int(o))
	}
	return muOracleNames[o]
}

// LinearSolverKind selects the backend that factorizes the KKT matrix.
type LinearSolverKind int

const (
	// SparseLDL is linalg.Sparse: sparse LDLᵀ with static pivoting, expected
	// pivot signs and an inertia count (the default).
	SparseLDL LinearSolverKind = iota
	// DenseLDL is a dense symmetric-indefinite factorization, O(N³); use it
	// for small problems and as a test oracle.
	DenseLDL
	// PivotingLDL is linalg.Multifrontal: sparse multifrontal LDLᵀ with
	// threshold pivoting (1×1 and 2×2 pivots, delayed pivots; u = 1e-8 as
	// IPOPT's ma27_pivtol), the same orderings as SparseLDL. It is slower
	// than SparseLDL but reports the inertia of nearly singular KKT
	// matrices reliably (relaxed MPCCs with time freezing).
	PivotingLDL
)

var linearSolverNames = [...]string{SparseLDL: "SparseLDL", DenseLDL: "DenseLDL", PivotingLDL: "PivotingLDL"}

// String returns the name of the backend.
func (k LinearSolverKind) String() string {
	if k < 0 || int(k) >= len(linearSolverNames) {
		return fmt.Sprintf("LinearSolverKind(%d)", int(k))
	}
	return linearSolverNames[k]
}

// Ordering selects the fill-reducing ordering of the KKT matrix for the
// SparseLDL backend.
type Ordering int

const (
	// OrderAuto uses AMD; when the problem implements StageHinter it also
	// builds the stage order and keeps whichever gives the smaller symbolic
	// nnz(L).
	OrderAuto Ordering = iota
	// OrderAMD uses approximate minimum degree only (a StageHinter is
	// ignored).
	OrderAMD
	// OrderStages uses the StageHinter order only; it is an error if the
	// problem does not implement StageHinter.
	OrderStages
	// OrderNatural keeps the KKT numbering (x, slacks, constraints).
	OrderNatural
)

var orderingNames = [...]string{OrderAuto: "Auto", OrderAMD: "AMD", OrderStages: "Stages", OrderNatural: "Natural"}

// String returns the name of the ordering.
func (o Ordering) String() string {
	if o < 0 || int(o) >= len(orderingNames) {
		return fmt.Sprintf("Ordering(%d)", int(o))
	}
	return orderingNames[o]
}

// WarmStart supplies a starting primal-dual point (IPOPT's
// warm_start_init_point = yes). Y, ZL and ZU are optional (nil: computed as in
// a cold start: least-squares y, z = 1). Multipliers follow the sign
// convention of Result. The point is pushed into the interior by
// Settings.WarmStartBoundPush and the bound multipliers are raised to at
// least Settings.WarmStartMultPush. μ is not taken from the warm start: set
// Settings.MuInit (small) to keep the iterate near the given point.
type WarmStart struct {
	// X is the primal point, length n (default nil: Problem.Start).
	X []float64
	// Y are the constraint multipliers, length m (default nil: least
	// squares, as in a cold start).
	Y []float64
	// ZL are the lower-bound multipliers, length n (default nil: as in a
	// cold start).
	ZL []float64
	// ZU are the upper-bound multipliers, length n (default nil: as in a
	// cold start).
	ZU []float64
}

// Degeneracy describes a structurally singular KKT matrix, the state of
// IPOPT's degeneracy tests (W&B06 §3.1, hess_degenerate and
// jac_degenerate). With Jacobian set every factorization of the main phase
// carries the constraint regularization δ_c = 1e-8·μ^{1/4}; with Hessian
// set its first trial carries δ_w = δ_w^last/3 (δ_w^0 = 1e-4 without a
// previous one) instead of δ_w = 0. Either way a singular matrix is not
// first found by a factorization that is thrown away. Within a solve, 3
// consecutive iterations that needed δ_c make the Jacobian degenerate, as
// in IPOPT; Result.Degeneracy also reports either kind when at least half
// of the iterations needed its perturbation for a singular matrix. (IPOPT's
// test for the Hessian within a solve is not applied: see inertia.go.)
type Degeneracy struct {
	Jacobian, Hessian bool
}

// InertiaPolicy selects the safeguards of the inertia correction (W&B06
// Algorithm IC, see the package documentation) beyond the inertia count of
// the KKT factorization. The zero value is InertiaDefault.
type InertiaPolicy int

const (
	// InertiaDefault accepts zero pivots that a static-pivoting backend
	// regularized when there are at most as many as free variables without
	// a Hessian diagonal (a pivoting solver would handle those), and applies
	// the constraint regularization δ_c only to a singular matrix or after 3
	// consecutive iterations needing it.
	InertiaDefault InertiaPolicy = iota
	// InertiaStrict treats every zero pivot of the KKT factorization as a
	// singular matrix, so δ_c, then δ_w are raised (IPOPT's rule with
	// MUMPS). It avoids the near-singular systems that InertiaDefault
	// accepts, which on relaxed MPCCs at small σ can give directions along
	// which the line search creeps with tiny steps.
	InertiaStrict
	// InertiaStrictDeltaC is InertiaStrict with δ_c = 1e-8·μ^0.25 in every
	// factorization of the main phase (IPOPT's perturb_always_cd). The
	// lower-right block −δ_c I then makes the KKT matrix quasi-definite
	// together with a positive definite primal block, which is what the
	// pivot-free SparseLDL needs on rank-deficient constraint Jacobians.
	InertiaStrictDeltaC
	// InertiaCurvature is InertiaDefault with the curvature test of Chiang
	// and Zavala's inertia-free line search as a safeguard: a factorization
	// with the wanted inertia is accepted only if the primal step has
	// dwᵀ(W + Σ + δ_w I)dw ≥ 1e-8·dwᵀdw; otherwise δ_w is raised and the
	// step recomputed (Counts.CurvatureFixes). The restoration phase runs
	// without it.
	InertiaCurvature
	// InertiaStrictCurvature is InertiaStrict with the curvature test of
	// InertiaCurvature.
	InertiaStrictCurvature
	// InertiaTracking is InertiaDefault with fewer factorizations per
	// iteration: δ_c = 1e-8·μ^0.25 in every factorization (as
	// InertiaStrictDeltaC; no factorization is spent on finding a singular
	// Jacobian) and δ_w tracking: after an iteration that needed δ_w > 0 the
	// first trial is not the unperturbed matrix but δ_w^prev/3, or δ_w^prev
	// itself for a while after such a decrease failed, and δ_w = 0 is tried
	// again after two successful decreases in a row (see the package
	// documentation). It keeps δ_w > 0 in some iterations where Algorithm IC
	// would find δ_w = 0, so the iterates differ from InertiaDefault's.
	InertiaTracking
)

// inertiaTable is the single table behind InertiaPolicy: its name and
// the inertia corrector it stands for.
var inertiaTable = [...]struct {
	name      string
	corrector func() inertiaCorrector
}{
	InertiaDefault:         {"Default", func() inertiaCorrector { return &inertiaBased{} }},
	InertiaStrict:          {"Strict", func() inertiaCorrector { return &inertiaBased{strict: true} }},
	InertiaStrictDeltaC:    {"StrictDeltaC", func() inertiaCorrector { return &inertiaBased{strict: true, deltaC: true} }},
	InertiaCurvature:       {"Curvature", func() inertiaCorrector { return &inertiaCurvature{} }},
	InertiaStrictCurvature: {"StrictCurvature", func() inertiaCorrector { return &inertiaCurvature{inertiaBased{strict: true}} }},
	InertiaTracking:        {"Tracking", func() inertiaCorrector { return &inertiaTracking{inertiaBased: inertiaBased{deltaC: true}} }},
}

func (p InertiaPolicy) valid() bool { return p >= 0 && int(p) < len(inertiaTable) }

// String returns the name of the policy.
func (p InertiaPolicy) String() string {
	if !p.valid() {
		return fmt.Sprintf("InertiaPolicy(%d)", int(p))
	}
	return inertiaTable[p].name
}

// corrector returns a new inertia corrector of a valid policy.
func (p InertiaPolicy) corrector() inertiaCorrector { return inertiaTable[p].corrector() }

// restoration returns the policy of the restoration phase: the same pivot
// and δ_c rules (IPOPT passes them on), without the curvature test.
func (p InertiaPolicy) restoration() InertiaPolicy {
	switch p {
	case InertiaCurvature:
		return InertiaDefault
	case InertiaStrictCurvature:
		return InertiaStrict
	}
	return p
}

// Settings configures a Solver. The zero value means the IPOPT 3.14 default
// for every field (W&B06; IPOPT option names in parentheses). Every field's
// comment starts with what it is and its default (the meaning of its zero
// value).
type Settings struct {
	// Tol is the tolerance on the scaled optimality error E_0 (default
	// 1e-8, tol).
	Tol float64
	// DualInfTol is the absolute (unscaled) dual infeasibility that must
	// also hold at convergence (default 1, dual_inf_tol).
	DualInfTol float64
	// ConstrViolTol is the absolute constraint violation that must also
	// hold at convergence (default 1e-4, constr_viol_tol).
	ConstrViolTol float64
	// ComplInfTol is the absolute complementarity that must also hold at
	// convergence (default 1e-4, compl_inf_tol).
	ComplInfTol float64
	// AcceptableTol is the scaled optimality error of an acceptable iterate
	// (default 1e-6, acceptable_tol); an acceptable iterate also has
	// constraint violation and complementarity at most 1e-2.
	AcceptableTol float64
	// AcceptableIter is the number of consecutive acceptable iterates after
	// which the solve stops with SolvedAcceptable (default 15,
	// acceptable_iter); a negative value disables acceptable termination.
	AcceptableIter int
	// MaxIter is the iteration limit, restoration iterations included
	// (default 3000, max_iter); a negative value means 0 iterations (only
	// the convergence test at the starting point).
	MaxIter int
	// MaxWallTime limits the solve's wall-clock time (default 0: no limit).
	MaxWallTime time.Duration

	// MuStrategy is the barrier-parameter update (default MuMonotone).
	MuStrategy MuStrategy
	// MuOracle is the μ oracle of MuAdaptive (default OracleQualityFunction).
	MuOracle MuOracle
	// MuInit is the initial barrier parameter (default 0.1, mu_init).
	// Warm-started homotopies should set it small.
	MuInit float64

	// NoBoundRelax disables bound relaxation, bound_relax_factor = 0
	// (default false; MPCC homotopies need it set).
	NoBoundRelax bool

	// LinearSolver is the KKT backend (default SparseLDL).
	LinearSolver LinearSolverKind
	// NewLinearSolver, if not nil, overrides LinearSolver (default nil): it
	// is called once per solve with the KKT order N and the suggested
	// fill-reducing permutation (nil for none).
	NewLinearSolver func(n int, perm []int) (linalg.LinearSolver, error)
	// Ordering is the sparse fill-reducing ordering (default OrderAuto).
	Ordering Ordering
	// Inertia is the inertia-correction policy (default InertiaDefault).
	Inertia InertiaPolicy
	// Degeneracy is the degeneracy of the KKT matrix assumed from the first
	// iteration on (default: none), typically an earlier solve's
	// Result.Degeneracy for an NLP of the same structure (package mpcc
	// passes it from one relaxed NLP to the next).
	Degeneracy Degeneracy

	// WarmStart is the starting point (default nil: Problem.Start and a
	// cold start of the multipliers).
	WarmStart *WarmStart
	// WarmStartBoundPush is κ₁ = κ₂ ≤ 0.5 for a warm start (default 1e-3,
	// warm_start_bound_push/frac).
	WarmStartBoundPush float64
	// WarmStartMultPush is the floor on warm-started bound multipliers
	// (default 1e-3, warm_start_mult_bound_push).
	WarmStartMultPush float64

	// WatchdogTrigger is the number of consecutive shortened steps (α_pr
	// below the fraction-to-the-boundary step) that starts the watchdog
	// (default 10, IPOPT's watchdog_shortened_iter_trigger; negative: off).
	// The watchdog then tries up to 3 full steps (IPOPT's
	// watchdog_trial_iter_max) before it returns to the stored iterate;
	// see the package documentation.
	WatchdogTrigger int

	// DerivativeTest checks the Problem's derivatives against finite
	// differences at the starting point before the first iteration
	// (default DerivativeTestNone; IPOPT's derivative_test): the point is
	// WarmStart.X or Problem.Start, projected onto the variable bounds, and
	// CheckDerivatives runs with its defaults. When an entry is flagged,
	// Solve returns a *DerivativeError (wrapping ErrDerivatives) with the
	// report; otherwise the report is in Result.Derivatives. The check
	// costs 2n evaluations of f and g (and of ∇f and J for the second
	// order), which are not in Result.Counts.
	DerivativeTest DerivativeTest

	// Log receives the iteration log (default nil: quiet).
	Log io.Writer

	// tune, if not nil, changes the resolved parameters (the IPOPT
	// constants that are not settings: μ bounds, initial push, scaling,
	// second-order corrections, the derivative probe); for the package's
	// own tests and the restoration phase.
	tune func(*params)
}

// params holds the resolved numeric settings and the IPOPT constants.
type params struct {
	wdTrigger, wdTrialMax                       int
	tol, dualInfTol, constrViolTol, complInfTol float64
	accTol, accConstrViolTol, accComplTol       float64
	accIter                                     int
	maxIter                                     int
	maxWall                                     time.Duration
	muStrategy                                  MuStrategy
	muInit, muMin, muTarget, muMax              float64
	boundRelax                                  float64
	boundPush, boundFrac                        float64
	constrMultInitMax, boundMultInit            float64
	scaling                                     bool
	scalingMaxGrad, objScaling                  float64
	wsBoundPush, wsMultPush                     float64
	maxSOC                                      int
	printLevel                                  int
	noProbe                                     bool
}

// IPOPT constants (W&B06; IPOPT 3.14.15 defaults, see doc.go).
const (
	kappaEps       = 10.0    // barrier_tol_factor
	kappaMu        = 0.2     // mu_linear_decrease_factor
	thetaMu        = 1.5     // mu_superlinear_decrease_power
	tauMin         = 0.99    // tau_min
	kappaSigma     = 1e10    // kappa_sigma
	kappaD         = 1e-5    // kappa_d
	sMax           = 100.0   // s_max
	divergingTol   = 1e20    // diverging_iterates_tol
	rayTol         = 1e12    // ‖x‖∞ beyond which a monotone full-step run is divergence (not in IPOPT)
	rayIters       = 10      // length of that run
	rayDecrease    = 1e-3    // least relative decrease of f per step in that run
	thetaMaxFact   = 1e4     // theta_max_fact
	thetaMinFact   = 1e-4    // theta_min_fact
	etaPhi         = 1e-8    // eta_phi
	deltaSw        = 1.0     // delta
	sPhi           = 2.3     // s_phi
	sTheta         = 1.1     // s_theta
	gammaTheta     = 1e-5    // gamma_theta
	gammaPhi       = 1e-8    // gamma_phi
	alphaMinFrac   = 0.05    // alpha_min_frac
	alphaRed       = 0.5     // alpha_red_factor
	kappaSOC       = 0.99    // kappa_soc
	objMaxInc      = 5.0     // obj_max_inc
	deltaW0        = 1e-4    // first_hessian_perturbation
	deltaWMin      = 1e-20   // min_hessian_perturbation
	deltaWMax      = 1e20    // max_hessian_perturbation
	kappaWPlusBar  = 100.0   // perturb_inc_fact_first
	kappaWPlus     = 8.0     // perturb_inc_fact
	kappaWMinus    = 1.0 / 3 // perturb_dec_fact
	deltaCBar      = 1e-8    // jacobian_regularization_value
	kappaC         = 0.25    // jacobian_regularization_exponent
	degenItersMax  = 3       // degen_iters_max
	minRefine      = 1       // min_refinement_steps
	maxRefine      = 10      // max_refinement_steps
	resRatioMax    = 1e-10   // residual_ratio_max
	resRatioSquare = 1e-15   // residual_ratio_max on a square problem (ipm.resRatio)
	resRatioSing   = 1e-5    // residual_ratio_singular
	resImprove     = 0.999999999
	restoRho       = 1000.0 // resto_penalty_parameter
	restoReduction = 0.9    // required_infeasibility_reduction
	restoReentry   = 0.5    // θ_R factor of a repeated restoration phase (resto.go)
	boundMultReset = 1e3    // bound_mult_reset_threshold
	scalingMinVal  = 1e-8   // nlp_scaling_min_value
	sigmaMaxAd     = 100.0  // sigma_max (adaptive)
	qfSigmaMin     = 1e-6   // sigma_min (quality function)
	qfSectionSteps = 8      // quality_function_max_section_steps
	kktRedIters    = 4      // adaptive_mu_kkterror_red_iters
	kktRedFact     = 0.9999 // adaptive_mu_kkterror_red_fact
	monoInitFact   = 0.8    // adaptive_mu_monotone_init_factor
	muMaxFact      = 1e3    // mu_max_fact
	muMaxAbs       = 1e5    // mu_max
	tinyStepTol    = 10 * 2.220446049250313e-16
	minAlphaFloor  = 1e-15 // floor on α_min (not in IPOPT: guards θ = 0)
)

// watchdogTrialMax is the number of tentative full steps of the watchdog
// (watchdog_trial_iter_max).
const watchdogTrialMax = 3

func finitePos(v float64) bool { return v > 0 && !math.IsInf(v, 0) }

// Validate reports whether the settings are usable. Zero fields are valid
// (they mean the defaults); negative tolerances, NaNs and unknown enum values
// are errors.
func (s *Settings) Validate() error {
	if err := s.validateValues(); err != nil {
		return err
	}
	if err := s.validateChoices(); err != nil {
		return err
	}
	return s.validateCombinations()
}

// validateValues checks the numerical fields one by one.
func (s *Settings) validateValues() error {
	pos := []struct {
		name string
		v    float64
	}{
		{"Tol", s.Tol}, {"DualInfTol", s.DualInfTol}, {"ConstrViolTol", s.ConstrViolTol},
		{"ComplInfTol", s.ComplInfTol}, {"AcceptableTol", s.AcceptableTol}, {"MuInit", s.MuInit},
		{"WarmStartBoundPush", s.WarmStartBoundPush}, {"WarmStartMultPush", s.WarmStartMultPush},
	}
	for _, f := range pos {
		if f.v != 0 && !finitePos(f.v) {
			return fmt.Errorf("%w: %s = %g must be positive and finite (0 = default)", ErrSettings, f.name, f.v)
		}
	}
	if s.WarmStartBoundPush > 0.5 {
		return fmt.Errorf("%w: WarmStartBoundPush = %g must be ≤ 0.5", ErrSettings, s.WarmStartBoundPush)
	}
	if s.MaxWallTime < 0 {
		return fmt.Errorf("%w: MaxWallTime = %v is negative", ErrSettings, s.MaxWallTime)
	}
	return nil
}

// validateChoices checks the enumerations.
func (s *Settings) validateChoices() error {
	if s.MuStrategy < 0 || int(s.MuStrategy) >= len(muStrategyNames) {
		return fmt.Errorf("%w: unknown MuStrategy %d", ErrSettings, int(s.MuStrategy))
	}
	if s.MuOracle < 0 || int(s.MuOracle) >= len(muOracleNames) {
		return fmt.Errorf("%w: unknown MuOracle %d", ErrSettings, int(s.MuOracle))
	}
	if s.LinearSolver < 0 || int(s.LinearSolver) >= len(linearSolverNames) {
		return fmt.Errorf("%w: unknown LinearSolver %d", ErrSettings, int(s.LinearSolver))
	}
	if s.Ordering < 0 || int(s.Ordering) >= len(orderingNames) {
		return fmt.Errorf("%w: unknown Ordering %d", ErrSettings, int(s.Ordering))
	}
	if !s.Inertia.valid() {
		return fmt.Errorf("%w: unknown Inertia %d", ErrSettings, int(s.Inertia))
	}
	if s.DerivativeTest < 0 || int(s.DerivativeTest) >= len(derivativeTestNames) {
		return fmt.Errorf("%w: unknown DerivativeTest %d", ErrSettings, int(s.DerivativeTest))
	}
	return nil
}

// validateCombinations checks fields against each other and the warm
// start's values.
func (s *Settings) validateCombinations() error {
	if ws := s.WarmStart; ws != nil {
		for _, v := range [][]float64{ws.X, ws.Y, ws.ZL, ws.ZU} {
			for i, x := range v {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					return fmt.Errorf("%w: WarmStart entry %d is %g", ErrSettings, i, x)
				}
			}
		}
	}
	return nil
}

func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// resolve returns the numeric parameters with defaults filled in.
func (s *Settings) resolve() params {
	p := params{
		tol:               orDefault(s.Tol, 1e-8),
		dualInfTol:        orDefault(s.DualInfTol, 1),
		constrViolTol:     orDefault(s.ConstrViolTol, 1e-4),
		complInfTol:       orDefault(s.ComplInfTol, 1e-4),
		accTol:            orDefault(s.AcceptableTol, 1e-6),
		accConstrViolTol:  1e-2,
		accComplTol:       1e-2,
		accIter:           s.AcceptableIter,
		maxIter:           s.MaxIter,
		maxWall:           s.MaxWallTime,
		muStrategy:        s.MuStrategy,
		muInit:            orDefault(s.MuInit, 0.1),
		muMax:             muMaxAbs,
		boundRelax:        1e-8,
		boundPush:         0.01,
		boundFrac:         0.01,
		constrMultInitMax: 1e3,
		boundMultInit:     1,
		scaling:           true,
		scalingMaxGrad:    100,
		objScaling:        1,
		wsBoundPush:       orDefault(s.WarmStartBoundPush, 1e-3),
		wsMultPush:        orDefault(s.WarmStartMultPush, 1e-3),
		maxSOC:            4,
		wdTrigger:         s.WatchdogTrigger,
		wdTrialMax:        watchdogTrialMax,
	}
	if s.NoBoundRelax {
		p.boundRelax = 0
	}
	if s.AcceptableIter == 0 {
		p.accIter = 15
	}
	if s.MaxIter == 0 {
		p.maxIter = 3000
	} else if s.MaxIter < 0 {
		p.maxIter = 0
	}
	if s.WatchdogTrigger == 0 {
		p.wdTrigger = 10
	} else if s.WatchdogTrigger < 0 {
		p.wdTrigger = 0
	}
	p.muMin = math.Min(1e-11, math.Min(p.tol, p.complInfTol)/(kappaEps+1))
	if p.muMin > p.muInit {
		p.muMin = p.muInit
	}
	if s.Log != nil {
		p.printLevel = 1
	}
	if s.tune != nil {
		s.tune(&p)
	}
	return p
}
