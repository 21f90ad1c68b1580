package mpcc

import (
	"fmt"
	"io"
	"math"

	"github.com/fesd-go/fesd/nlp"
)

// UpdateRule selects how σ decreases between homotopy steps.
type UpdateRule int

const (
	// Linear: σ_{k+1} = max(σ_N, κ·σ_k) (nosnoc 'linear', the default).
	Linear UpdateRule = iota
	// Superlinear: σ_{k+1} = max(σ_N, min(κ·σ_k, σ_k^θ)) (nosnoc
	// 'superlinear', θ = Settings.Exponent).
	Superlinear
	numUpdateRules
)

func (u UpdateRule) String() string {
	switch u {
	case Linear:
		return "Linear"
	case Superlinear:
		return "Superlinear"
	}
	return fmt.Sprintf("UpdateRule(%d)", int(u))
}

// Default values of Settings (nosnoc MATLAB's reg_homotopy options).
const (
	DefaultSigma0       = 1.0
	DefaultKappa        = 0.1
	DefaultExponent     = 1.5
	DefaultSigmaN       = 1e-9 // then min(DefaultSigmaN, 0.1·CompTol)
	DefaultCompTol      = 1e-9
	DefaultWarmMuFactor = 0.1
	DefaultWarmMuMin    = 1e-9
	DefaultPolishTol    = 1e-6
	DefaultPolishFeas   = 1e-8
)

// Settings configures the homotopy. The zero value gives the nosnoc defaults:
// Scholtes inequality relaxation, direct steering, σ₀ = 1, κ = 0.1, linear
// update, σ_N = min(1e-9, 0.1·CompTol) = 1e-10, complementarity tolerance
// 1e-9, and ⌈log(σ_N/σ₀)/log κ⌉ + 1 = 11 steps, so that σ_N itself is
// solved. Every field's comment starts with what it is and its default (the
// meaning of its zero value).
type Settings struct {
	// Relaxation is the function that replaces the complementarity in the
	// relaxed NLPs (default ScholtesIneq, c(x) ≤ σ).
	Relaxation Relaxation
	// Steering is how the relaxation parameter is driven to zero (default
	// Direct: σ enters the constraints as a constant).
	Steering Steering
	// PenaltyScaling is how objective and elastic penalty are weighted with
	// L1 and LInf steering (default PenaltyOverSigma, f + P/σ; ignored with
	// Direct).
	PenaltyScaling PenaltyScaling

	// Sigma0 is the first relaxation parameter σ₀ (default 1).
	Sigma0 float64
	// Kappa is the update slope κ ∈ (0, 1) of σ_{k+1} = κ·σ_k (default 0.1).
	Kappa float64
	// Update is the σ update rule (default Linear).
	Update UpdateRule
	// Exponent is θ > 1 of the Superlinear rule σ_{k+1} = min(κσ_k, σ_k^θ)
	// (default 1.5).
	Exponent float64
	// SigmaN is the smallest σ, σ_N ≤ σ₀ (default min(1e-9, 0.1·CompTol),
	// nosnoc's clamp; an explicit value is used as given).
	SigmaN float64
	// MaxSteps bounds the number of relaxed NLP solves (default
	// ⌈log(σ_N/σ₀)/log κ⌉ + 1: σ₀, κσ₀, …, σ_N with the linear rule).
	MaxSteps int
	// CompTol is the complementarity tolerance on Result.CompResidual that
	// ends the homotopy as Solved (default 1e-9).
	CompTol float64

	// NLP is the configuration of the default inner solver, used when
	// Solver.Inner is nil (default nil: DefaultNLPSettings()). It is used
	// as given: keep bound relaxation off (NoBoundRelax), since a relaxed
	// bound moves the complementarity variables off their bounds.
	NLP *nlp.Settings

	// ColdDuals hands only the primal point from one step to the next
	// (default false: the constraint and bound multipliers of the previous
	// step are handed on too; nosnoc's warm_start_duals = false is
	// ColdDuals = true).
	ColdDuals bool
	// WarmMuFactor is f in the initial barrier parameter of every
	// warm-started step, μ₀ = max(WarmMuMin, f·σ_k) (default 0.1), so that
	// μ ≪ σ and the warm start is not re-centred. The first step uses the
	// NLP's MuInit.
	WarmMuFactor float64
	// WarmMuMin is the floor of that μ₀ (default 1e-9).
	WarmMuMin float64
	// KeepLastSuccess makes a failed step that did not lower the
	// complementarity residual below the last successful step's a dead end
	// (default false: as in nosnoc, every later step starts from the failed
	// step's point when it is finite). With it the next σ starts again from
	// the last successful step's point, and that point, not the failed
	// one, is the result (its residuals and objective; Status is still
	// NLPFailure when the final step failed). A failed step that did lower
	// the residual (an iteration limit close to the solution, say) is
	// handed on as by default, and so is a failure in the first step, which
	// has no earlier point. From a diverged point (residuals of order 1
	// after the iteration limit) the later steps rarely recover.
	KeepLastSuccess bool

	// Polish enables the polishing step after the homotopy (default false):
	// for every pair the variable with the smaller gap x_i − x_L,i is fixed
	// at its lower bound, and the MPCC's NLP without complementarity
	// constraints (σ = 0) is solved from the homotopy point. The result is
	// accepted if the solve succeeds, its bound and constraint violation is
	// at most PolishFeasTol, its complementarity residual is not larger, and
	// it is better: its objective is at most f_homotopy +
	// PolishTol·max(1, |f_homotopy|), or the homotopy point misses CompTol
	// while the polished point meets it.
	Polish bool
	// PolishTol is the relative objective slack of the polishing acceptance
	// test (default 1e-6).
	PolishTol float64
	// PolishFeasTol is the largest bound and constraint violation of an
	// accepted polished point (default 1e-8).
	PolishFeasTol float64
	// PolishSigma, with Polish, is the σ from which polishing is tried after
	// every step (default 0: only after the homotopy). After every
	// successful step with σ_k ≤ PolishSigma whose residual misses CompTol
	// the polishing NLP is solved from that step's point, and an accepted
	// polished point ends the homotopy (Solved); a rejected one lets the
	// homotopy go on (and polish again after the loop). With CompTol far
	// below PolishSigma this saves the steps between PolishSigma and σ_N
	// (on the FESD simulation of IRMA, examples/order: 2.6× fewer NLP
	// iterations with κ = 0.01 and PolishSigma = 1e-8 than with κ = 0.1 to
	// σ_N = 1e-13, same errors).
	PolishSigma float64
	// PolishAnyStatus accepts a polished point also when the polishing NLP
	// did not report convergence (default false). The point must be
	// feasible within PolishFeasTol, have complementarity residual ≤ CompTol
	// (it is exact by construction) and an objective within PolishTol of
	// the homotopy point's: then it is at least as good a point of the
	// MPCC, though its stationarity is not certified (the fixed-active-set
	// NLP of a FESD step is often degenerate and ends with NumericalError
	// at a feasible point).
	PolishAnyStatus bool

	// Log receives one line per homotopy step (default nil: quiet).
	Log io.Writer
}

// params are the resolved settings.
type params struct {
	sigma0, kappa, exponent, sigmaN, compTol float64
	maxSteps                                 int
	warmMuFactor, warmMuMin                  float64
	polishTol, polishFeas                    float64
}

func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// Validate reports whether the settings are usable. Zero fields mean the
// defaults; negative, NaN or infinite values, κ ∉ (0, 1), θ ≤ 1, σ_N > σ₀,
// unknown enum values and incompatible relaxation × steering are errors.
func (s *Settings) Validate() error {
	nonneg := []struct {
		name string
		v    float64
	}{
		{"Sigma0", s.Sigma0}, {"Kappa", s.Kappa}, {"Exponent", s.Exponent}, {"SigmaN", s.SigmaN},
		{"CompTol", s.CompTol}, {"WarmMuFactor", s.WarmMuFactor}, {"WarmMuMin", s.WarmMuMin},
		{"PolishTol", s.PolishTol}, {"PolishFeasTol", s.PolishFeasTol}, {"PolishSigma", s.PolishSigma},
	}
	for _, f := range nonneg {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%w: %s = %g must be finite and ≥ 0 (0 = default)", ErrSettings, f.name, f.v)
		}
	}
	if s.Kappa >= 1 {
		return fmt.Errorf("%w: Kappa = %g must be in (0, 1)", ErrSettings, s.Kappa)
	}
	if s.Exponent != 0 && s.Exponent <= 1 {
		return fmt.Errorf("%w: Exponent = %g must be > 1", ErrSettings, s.Exponent)
	}
	if s.MaxSteps < 0 {
		return fmt.Errorf("%w: MaxSteps = %d must be ≥ 0 (0 = default)", ErrSettings, s.MaxSteps)
	}
	if s.Update < 0 || s.Update >= numUpdateRules {
		return fmt.Errorf("%w: %v", ErrSettings, s.Update)
	}
	if s.PenaltyScaling < 0 || s.PenaltyScaling >= numPenaltyScalings {
		return fmt.Errorf("%w: %v", ErrSettings, s.PenaltyScaling)
	}
	if err := Compatible(s.Relaxation, s.Steering); err != nil {
		return err
	}
	p := s.resolve()
	if p.sigmaN > p.sigma0 {
		return fmt.Errorf("%w: SigmaN = %g exceeds Sigma0 = %g", ErrSettings, p.sigmaN, p.sigma0)
	}
	if s.NLP != nil {
		if err := s.NLP.Validate(); err != nil {
			return fmt.Errorf("%w: NLP: %w", ErrSettings, err)
		}
	}
	return nil
}

func (s *Settings) resolve() params {
	p := params{
		sigma0:       orDefault(s.Sigma0, DefaultSigma0),
		kappa:        orDefault(s.Kappa, DefaultKappa),
		exponent:     orDefault(s.Exponent, DefaultExponent),
		compTol:      orDefault(s.CompTol, DefaultCompTol),
		warmMuFactor: orDefault(s.WarmMuFactor, DefaultWarmMuFactor),
		warmMuMin:    orDefault(s.WarmMuMin, DefaultWarmMuMin),
		polishTol:    orDefault(s.PolishTol, DefaultPolishTol),
		polishFeas:   orDefault(s.PolishFeasTol, DefaultPolishFeas),
		maxSteps:     s.MaxSteps,
	}
	p.sigmaN = s.SigmaN
	if p.sigmaN == 0 {
		p.sigmaN = math.Min(DefaultSigmaN, 0.1*p.compTol)
	}
	if p.maxSteps == 0 {
		p.maxSteps = 1
		if p.sigmaN < p.sigma0 {
			// Number of linear decreases from σ₀ to σ_N, with a little slack
			// against rounding (log(1e-10)/log(0.1) = 10.000000000000002).
			p.maxSteps += int(math.Ceil(math.Log(p.sigmaN/p.sigma0)/math.Log(p.kappa) - 1e-9))
		}
	}
	return p
}

// next returns σ_{k+1}.
func (s *Settings) next(p params, sigma float64) float64 {
	n := p.kappa * sigma
	if s.Update == Superlinear {
		n = math.Min(n, math.Pow(sigma, p.exponent))
	}
	// Snap to σ_N within rounding (0.1¹⁰ = 1.0000000000000006e-10 > 1e-10),
	// so that the σ ≤ σ_N stopping test fires.
	if n <= p.sigmaN*(1+1e-9) {
		return p.sigmaN
	}
	return n
}

// Schedule returns the σ values of at most the MaxSteps homotopy steps (the
// loop may stop earlier on the complementarity tolerance).
func (s *Settings) Schedule() ([]float64, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	p := s.resolve()
	sig := []float64{p.sigma0}
	for len(sig) < p.maxSteps && sig[len(sig)-1] > p.sigmaN {
		sig = append(sig, s.next(p, sig[len(sig)-1]))
	}
	return sig, nil
}

// compTolSlack is the relative excess of the complementarity residual over
// CompTol that is attributed to the inner solver's feasibility tolerance
// when σ_k ≤ CompTol: the relaxed NLP then imposes c_k(x) ≤ σ_k ≤ CompTol
// (Scholtes), which an interior-point solve satisfies only up to its
// constraint tolerance on the scaled rows, so with σ_N = CompTol the
// summed FE_STAGE residual can come out a hair above CompTol (seen as
// SigmaLimit with a residual of 1.0…1.01·CompTol).
const compTolSlack = 1e-2

// within reports whether the residual meets the complementarity tolerance
// at the homotopy parameter σ: r ≤ CompTol, or, once σ ≤ CompTol,
// r ≤ CompTol·(1 + compTolSlack).
func (p params) within(r, sigma float64) bool {
	return r <= p.compTol || (sigma <= p.compTol && r <= p.compTol*(1+compTolSlack))
}
