package fesd

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/rk"
)

// Representation selects the unknowns of the Runge–Kutta equations.
type Representation int

const (
	// Integral (the default, nosnoc's rk_representation = integral): the
	// states x_{n,j} at the stage points are the unknowns, and the
	// collocation equations h·f(x_j) = Σ_r C_rj x_r, x_{n+1} = Σ_r D_r x_r
	// hold (rk.Integral). Only collocation tableaus with positive nodes
	// (Radau IIA, Gauss–Legendre) have it.
	Integral Representation = iota
	// Differential: the derivatives v_{n,j} at the stage points are the
	// unknowns, v_j = f(x_n + h Σ_k a_jk v_k), x_{n+1} = x_n + h Σ_j b_j v_j
	// (004 eq. 33). Any tableau.
	Differential
)

func (r Representation) String() string {
	switch r {
	case Integral:
		return "integral"
	case Differential:
		return "differential"
	}
	return fmt.Sprintf("Representation(%d)", int(r))
}

// CrossComp selects how the cross-complementarity conditions (004 eq. 37–38)
// are summed into complementarity terms; the four patterns are nosnoc's
// cross_comp_mode (src/CrossCompMode.m in github.com/nosnoc/nosnoc), and
// the package documentation writes them out. In element n, the multiplier
// points are k = 0 (the end of the previous element, or the initial value
// λ₀₀ for n = 0), the stage points 1…n_s, and the boundary point n_s+1 when
// c_{n_s} ≠ 1; the selection points are the stage points. All sums are
// componentwise (one term per complementarity pair of the DCS).
type CrossComp int

const (
	// FEStage (the default, nosnoc MATLAB's default): every multiplier
	// point ⊥ the sum of the selections over the element.
	FEStage CrossComp = iota
	// StageStage: every multiplier point ⊥ every selection point (scalar
	// pairs; the only mode usable with relaxations other than Scholtes).
	StageStage
	// StageFE: the sum of the multipliers over the element (including the
	// previous boundary) ⊥ every selection point.
	StageFE
	// FEFE: one term per element, Σ_k λ_k ⊥ Σ_m θ_m (the default of the
	// rewritten nosnoc_py, src/nosnoc/options.py; the legacy nosnoc_py
	// default SUM_LAMBDAS_COMPLEMENT_WITH_EVERY_THETA, nosnoc/problem.py,
	// is the StageFE formula).
	FEFE
)

func (c CrossComp) String() string {
	switch c {
	case FEStage:
		return "FE_STAGE"
	case StageStage:
		return "STAGE_STAGE"
	case StageFE:
		return "STAGE_FE"
	case FEFE:
		return "FE_FE"
	}
	return fmt.Sprintf("CrossComp(%d)", int(c))
}

// CrossComps lists the cross-complementarity modes.
func CrossComps() []CrossComp { return []CrossComp{FEStage, StageStage, StageFE, FEFE} }

// StepEquilibration selects how the step sizes are determined where no
// switch happens (004 §4.4; nosnoc's step_equilibration,
// src/StepEquilibrationMode.m in github.com/nosnoc/nosnoc). Δh_n = h_n −
// h_{n−1} for neighbouring elements of one stage, and η_n = Π_m ν_{n,m} is
// the switch indicator of eq. 39 (zero exactly at an active-set change at
// t_n; the package documentation defines ν).
type StepEquilibration int

const (
	// HeuristicMean (the default, nosnoc's): f += ρ_h Σ_n (h_n − h₀)².
	HeuristicMean StepEquilibration = iota
	// HeuristicDiff: f += ρ_h Σ_n Δh_n².
	HeuristicDiff
	// L2Relaxed: f += ρ_h Σ_n η_n Δh_n².
	L2Relaxed
	// L2RelaxedScaled: f += ρ_h Σ_n tanh(η_n/σ_se) Δh_n².
	L2RelaxedScaled
	// Direct: η_n Δh_n = 0 (004 eq. 39), imposed as the complementarity
	// 0 ≤ η_n ⊥ |Δh_n| ≥ 0 (with lifted η_n and Δh_n = Δh⁺ − Δh⁻) that
	// the MPCC homotopy relaxes like the others; the plain equality is
	// infeasible for relaxed complementarity (η_n > 0 for σ > 0).
	Direct
	// NoEquilibration: no condition (the step sizes are not unique where
	// nothing switches).
	NoEquilibration
)

func (s StepEquilibration) String() string {
	switch s {
	case HeuristicMean:
		return "heuristic_mean"
	case HeuristicDiff:
		return "heuristic_diff"
	case L2Relaxed:
		return "l2_relaxed"
	case L2RelaxedScaled:
		return "l2_relaxed_scaled"
	case Direct:
		return "direct"
	case NoEquilibration:
		return "none"
	}
	return fmt.Sprintf("StepEquilibration(%d)", int(s))
}

// StepEquilibrations lists the step-equilibration modes.
func StepEquilibrations() []StepEquilibration {
	return []StepEquilibration{HeuristicMean, HeuristicDiff, L2Relaxed, L2RelaxedScaled, Direct, NoEquilibration}
}

// Defaults of Options: those of nosnoc MATLAB (+nosnoc/Options.m in
// github.com/nosnoc/nosnoc: n_s, N_finite_elements, gamma_h, rho_h,
// step_equilibration_sigma).
const (
	DefaultStages   = 2   // n_s
	DefaultNFE      = 2   // N_FE
	DefaultGammaH   = 1.0 // γ_h: h ∈ [0, 2h₀]
	DefaultRhoH     = 1.0 // ρ_h
	DefaultSigmaSE  = 0.1 // σ_se of L2RelaxedScaled (MATLAB step_equilibration_sigma)
	defaultCompTolF = mpcc.DefaultCompTol
)

// Options are the settings of the FESD transcription and of its solver,
// shared by simulation (SimOptions.Options, NewSimulator) and optimal
// control (NewOCPSolver, SolveOCP). The zero value gives nosnoc's
// defaults: Radau IIA with n_s = 2 in the integral representation, FESD on
// with N_FE = 2 and γ_h = 1, FE_STAGE cross complementarity,
// heuristic_mean step equilibration with ρ_h = 1, Stewart's reformulation,
// and the mpcc defaults (Scholtes relaxation, σ₀ = 1, κ = 0.1,
// complementarity tolerance 1e-9). Validate reports invalid values and
// incompatible combinations as ErrOptions.
type Options struct {
	// Scheme is the Runge–Kutta family (zero value: rk.FamilyRadauIIA).
	Scheme rk.Family
	// Stages is the number n_s of Runge–Kutta stages (0: DefaultStages = 2).
	Stages int
	// Representation is the form of the Runge–Kutta equations (zero value:
	// Integral).
	Representation Representation
	// DisableFESD turns FESD off (default false: FESD on): plain time
	// stepping with h = h₀, and the complementarity pairs imposed at every
	// stage point, without cross complementarity or step equilibration.
	DisableFESD bool
	// NFE is the number N_FE of finite elements per control stage (0:
	// DefaultNFE = 2); OCP.NFE overrides it for an OCP.
	NFE int
	// GammaH is γ_h > 0, the relative bound on the step sizes (0:
	// DefaultGammaH = 1, nosnoc's, which allows h ∈ [0, 2h₀]):
	// max(0, 1 − γ_h)·h₀ ≤ h_n ≤ (1 + γ_h)h₀ with h₀ = T/N_FE. With N_FE
	// elements and Σh = T per stage, γ_h ≥ N_FE − 1 leaves only h ≥ 0;
	// then a stage may put two switches close together and cover the rest
	// of it with one element, which h ≤ 2h₀ forbids.
	GammaH float64
	// CrossComp is the cross-complementarity mode (zero value: FEStage).
	CrossComp CrossComp
	// StepEquilibration is the step-equilibration mode (zero value:
	// HeuristicMean).
	StepEquilibration StepEquilibration
	// RhoH is the weight ρ_h of the step-equilibration cost (0:
	// DefaultRhoH = 1).
	RhoH float64
	// DCS selects the reformulation of the model into a DCS (zero value:
	// Stewart's; dcs.Step for the Heaviside step form).
	DCS dcs.Options
	// MPCC configures the relaxation homotopy (zero value: Scholtes,
	// σ₀ = 1, κ = 0.1, complementarity tolerance 1e-9, the default NLP
	// settings; see mpcc.Settings). Without MPCC.NLP and Inner, an OCP's
	// relaxed NLPs start with nlp.InertiaStrict and a failed OCP homotopy
	// is run once more starting with nlp.InertiaDefault
	// (OCPResult.Rerun); simulation uses mpcc.DefaultNLPSettings.
	MPCC mpcc.Settings
	// Inner, if not nil, solves the homotopy's relaxed NLPs and the branch
	// NLPs of predicted simulation steps instead of package nlp (nil: nlp
	// with MPCC.NLP), e.g. another NLP solver for comparisons
	// (mpcc.Solver.Inner).
	Inner mpcc.InnerSolver
	// ActiveSetTol is the threshold τ that decides the active set of a
	// finite element from the complementarity structure, for the switch
	// detection (0: 10·√CompTol, ≈ 3.2e-4 for CompTol = 1e-9). A pair is
	// "multiplier positive" (its selection is 0) when the largest
	// multiplier value at the element's points exceeds both τ and the
	// largest selection value, "selection positive" in the symmetric case,
	// and undecided otherwise.
	ActiveSetTol float64
	// Guide, if not nil, imposes guiding path constraints in the first
	// steps of an OCP's homotopy (see Guide; default nil: none). It applies
	// to OCPs on a Model (not OCP.CLS) and is not used by simulation.
	Guide *Guide
}

// resolved holds Options with defaults filled in.
type resolved struct {
	Options
	tab   *rk.Tableau
	integ *rk.Integral
	rbp   bool // boundary point needed (c_{n_s} ≠ 1 and FESD)
	// sigmaSE is σ_se of L2RelaxedScaled, tanh(η/σ_se) (DefaultSigmaSE).
	sigmaSE float64
	// switchTol is the bound on |ψ_j(x_n)| for reporting a switch of ψ_j
	// at the element boundary t_n, max(1e-6, 1e3·CompTol); start
	// multipliers within it of zero are set to zero.
	switchTol float64
}

// nlpSettings returns the inner NLP settings: MPCC.NLP, or mpcc's defaults.
func (o *resolved) nlpSettings() nlp.Settings {
	if o.MPCC.NLP != nil {
		return *o.MPCC.NLP
	}
	return mpcc.DefaultNLPSettings()
}

// ocpNLPSettings returns the inner settings of an OCP's homotopy:
// MPCC.NLP if set, otherwise mpcc.DefaultNLPSettings with the relaxed NLPs
// starting with nlp.InertiaStrict (zero pivots of the KKT factorization
// count as singular), mpcc.NLPSolver's retry policy; a failed homotopy is
// run once more starting with ocpFallbackPolicy (OCPSolver.Solve).
// Measured on the quick rows of bench/ocp (NLP iterations, Strict first
// against Default first): turbo car 43 / 45, sliding-mode OCP 103 / 176,
// cart-pole 130 / 130, motor 180 / 437, car with gears 224 / 498, same
// objectives. Simulation keeps mpcc.DefaultNLPSettings: with Strict
// first, bench's three-masses time-stepping row took 557 iterations
// instead of 272, the FESD row 1 049 instead of 939.
func (o *resolved) ocpNLPSettings() nlp.Settings {
	if o.MPCC.NLP != nil {
		return *o.MPCC.NLP
	}
	set := mpcc.DefaultNLPSettings()
	set.Inertia = nlp.InertiaStrict
	return set
}

// ocpFallbackPolicy is the inertia policy the second homotopy of a failed
// OCP solve starts with: the Stewart cart-pole of examples/cartpole with
// a hard terminal constraint from rest ends Infeasible with Strict first
// (3 434 iterations) and solves with Default first (573). Where both
// fail, the second run's result is the one Default first gave before
// this rule. A first run that ends Infeasible, confirmed by its
// diagnosis, is not run again (bench/ocp's unreachable monopod:
// Infeasible, naming the terminal box, in 51–54 s; 128 s with both runs).
const ocpFallbackPolicy = nlp.InertiaDefault

// hBounds returns the step-size bounds max(0, 1 − γ_h)·h₀ ≤ h ≤ (1 + γ_h)·h₀
// for the nominal step h0 (Options.GammaH).
func (o *resolved) hBounds(h0 float64) (lo, hi float64) {
	return math.Max(0, 1-o.GammaH) * h0, (1 + o.GammaH) * h0
}

// Validate checks the options for invalid values and incompatible
// combinations. Every error wraps ErrOptions.
func (o Options) Validate() error {
	_, err := o.resolve()
	return err
}

func optErr(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrOptions}, a...)...)
}

func (o Options) resolve() (*resolved, error) {
	r := &resolved{Options: o}
	if o.Stages < 0 {
		return nil, optErr("Stages = %d < 0", o.Stages)
	}
	if r.Stages == 0 {
		r.Stages = DefaultStages
	}
	tab, err := rk.New(o.Scheme, r.Stages)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOptions, err)
	}
	r.tab = tab
	r.Stages = r.tab.Stages()
	switch o.Representation {
	case Integral:
		in, err := r.tab.Integral()
		if err != nil {
			return nil, fmt.Errorf("%w: integral representation needs a collocation tableau with positive nodes (%s): %w", ErrOptions, r.tab.Name, err)
		}
		r.integ = in
	case Differential:
	default:
		return nil, optErr("unknown representation %d", int(o.Representation))
	}
	if o.NFE < 0 {
		return nil, optErr("NFE = %d < 1", o.NFE)
	}
	if r.NFE == 0 {
		r.NFE = DefaultNFE
	}
	if bad(o.GammaH) || o.GammaH < 0 {
		return nil, optErr("GammaH = %g: want a finite γ_h > 0 (0: the default 1)", o.GammaH)
	}
	if r.GammaH == 0 {
		r.GammaH = DefaultGammaH
	}
	if bad(o.RhoH) || o.RhoH < 0 {
		return nil, optErr("RhoH = %g < 0", o.RhoH)
	}
	if r.RhoH == 0 {
		r.RhoH = DefaultRhoH
	}
	r.sigmaSE = DefaultSigmaSE
	if o.CrossComp < FEStage || o.CrossComp > FEFE {
		return nil, optErr("unknown cross-complementarity mode %d", int(o.CrossComp))
	}
	if err := o.validateModes(); err != nil {
		return nil, err
	}
	if err := r.resolveTolerances(); err != nil {
		return nil, err
	}
	if err := o.Guide.validate(); err != nil {
		return nil, err
	}
	r.rbp = !o.DisableFESD && !r.tab.EndpointIsNode()
	return r, nil
}

// validateModes checks the cross-complementarity and step-equilibration
// modes, the DCS and MPCC settings, and their combinations.
func (o Options) validateModes() error {
	if o.StepEquilibration < HeuristicMean || o.StepEquilibration > NoEquilibration {
		return optErr("unknown step equilibration %d", int(o.StepEquilibration))
	}
	if o.DisableFESD {
		if o.CrossComp != FEStage {
			return optErr("cross complementarity %v needs FESD (DisableFESD is set)", o.CrossComp)
		}
		if o.StepEquilibration != HeuristicMean && o.StepEquilibration != NoEquilibration {
			return optErr("step equilibration %v needs FESD (DisableFESD is set)", o.StepEquilibration)
		}
	}
	if err := o.DCS.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrOptions, err)
	}
	if err := o.MPCC.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrOptions, err)
	}
	sums := !o.DisableFESD && o.CrossComp != StageStage
	if sums && !o.MPCC.Relaxation.AllowsSums() {
		return optErr("relaxation %v needs scalar pairs: use CrossComp = StageStage or Scholtes", o.MPCC.Relaxation)
	}
	return nil
}

// resolveTolerances checks ActiveSetTol and fills in its default and the
// switch tolerance from the complementarity tolerance.
func (r *resolved) resolveTolerances() error {
	compTol := r.MPCC.CompTol
	if compTol == 0 {
		compTol = defaultCompTolF
	}
	if bad(r.ActiveSetTol) || r.ActiveSetTol < 0 {
		return optErr("ActiveSetTol = %g < 0", r.ActiveSetTol)
	}
	if r.ActiveSetTol == 0 {
		r.ActiveSetTol = 10 * math.Sqrt(compTol)
	}
	r.switchTol = math.Max(1e-6, 1e3*compTol)
	return nil
}

func bad(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
