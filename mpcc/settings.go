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
	// 'superlinear', θ = DefaultExponent).
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

// Default values of Settings (nosnoc MATLAB's reg_homotopy options), and
// the fixed exponent θ of Superlinear, the multiplier tolerance of the
// certificate and the iteration limit of the finish's NLPs.
const (
	DefaultSigma0   = 1.0
	DefaultKappa    = 0.1
	DefaultExponent = 1.5
	DefaultSigmaN   = 1e-9 // then min(DefaultSigmaN, 0.1·CompTol)
	DefaultCompTol  = 1e-9
	// DefaultMultTol is the relative multiplier tolerance: |ν| ≤
	// DefaultMultTol·max(1, ‖∇f‖∞) counts as zero in the sign tests and in
	// the KKT residual of the tightened NLP.
	DefaultMultTol = 1e-6
	// DefaultActiveTolFactor is c in the default ActiveTol = c·√CompTol.
	DefaultActiveTolFactor = 10
	// DefaultFinishMaxIter is the iteration limit of every tightened and
	// branch NLP (or the inner solver's own limit if lower): from a
	// converged homotopy point they need a few iterations; the limit bounds
	// the cost of those that start from a failed homotopy.
	DefaultFinishMaxIter = 200
	// DefaultInexactFactor is c in the inexact tolerance c·σ_k of the
	// relaxed NLPs (Settings.InexactFactor).
	DefaultInexactFactor = 1e-2
	// DefaultFinishSigma is the σ from which the active-set finish is
	// tried after every successful step (Settings.FinishSigma); an early
	// attempt's branch NLPs get a quarter of DefaultFinishMaxIter.
	DefaultFinishSigma = 1e-4
)

// Fixed parameters of the homotopy and its finish (not settings).
const (
	// warmMuFactor is f in the initial barrier parameter of every
	// warm-started step, μ₀ = max(warmMuMin, f·σ_k), so that μ ≪ σ and the
	// warm start is not re-centred; warmMuMin is its floor.
	warmMuFactor = 0.1
	warmMuMin    = 1e-9
	// maxBranchChanges bounds the moves of the active-set finish from one
	// branch to another, and separately the improving moves of Explore.
	maxBranchChanges = 5
	// lpecMaxPairs is the largest number of movable biactive pairs in one
	// independent block of the LPEC for which it is solved (at most
	// 2¹³ − 1 LPs in the block's branch and bound); with more it ends
	// undetermined without solving.
	lpecMaxPairs = 12
	// lpecMaxLPs bounds the LPs of one LPEC; when they run out the LPEC
	// ends undetermined.
	lpecMaxLPs = 64
)

// FinishMode selects what follows the homotopy.
type FinishMode int

const (
	// FinishDefault is DefaultFinish.
	FinishDefault FinishMode = iota
	// ActiveSetFinish certifies the homotopy point and, unless it is
	// B-stationary, moves to the branch the LPEC (or the multiplier
	// signs) points to; a certified B-stationary point replaces the
	// homotopy point, otherwise the homotopy point is kept and
	// Result.Finish.Reason says why.
	ActiveSetFinish
	// CertifyOnly solves the tightened NLP at the homotopy point and
	// classifies it; the homotopy point stays the result.
	CertifyOnly
	// NoCertificate skips both: Result.Stationarity is NotCertified (for
	// hot loops that do not need the class).
	NoCertificate
	numFinishModes
)

// DefaultFinish is the FinishMode of a zero Settings.Finish.
const DefaultFinish = ActiveSetFinish

func (f FinishMode) String() string {
	switch f {
	case FinishDefault:
		return "Default"
	case ActiveSetFinish:
		return "ActiveSet"
	case CertifyOnly:
		return "CertifyOnly"
	case NoCertificate:
		return "None"
	}
	return fmt.Sprintf("FinishMode(%d)", int(f))
}

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
	// ColdRestart starts every relaxed NLP after the first as a cold start
	// of the inner solver from the previous step's primal point (default
	// false: a warm start that keeps the point, μ₀ = max(1e-9, 0.1·σ_k),
	// the warm bound push of the inner settings and, unless ColdDuals, the
	// multipliers). With it the point is pushed into the interior by the
	// inner solver's cold-start push (IPOPT's bound_push,
	// 1e-2), the multipliers start as in a cold start and the barrier
	// parameter at the inner solver's MuInit (IPOPT's 0.1): every step
	// re-centres instead of following the path closely. This is what
	// nosnoc's homotopy does with IPOPT, which it never gives
	// warm_start_init_point (nosnoc, src/NosnocSolver.m at commit
	// feb8e46, the 004 experiment). The certificate and the active-set
	// finish are not affected.
	ColdRestart bool
	// InexactFactor c solves the relaxed NLP of σ_k to the tolerance
	// max(NLP tolerance, c·σ_k) on the optimality error and on the dual,
	// complementarity and constraint residuals (default
	// DefaultInexactFactor = 1e-2; negative: every step to the inner
	// solver's own tolerance). The relaxed problems are only stations on
	// the way to σ → 0, so they need no more accuracy than their
	// distance to the MPCC (inexact continuation, as in Ralph & Wright's
	// and Scholtes' convergence analyses with ε_k → 0). A step that meets
	// CompTol after an inexact solve is solved again at its σ to the full
	// tolerance before the homotopy ends (one step more than MaxSteps if
	// need be).
	InexactFactor float64

	// Finish selects what follows the homotopy (default DefaultFinish):
	// the stationarity certificate of the homotopy point (a tightened NLP
	// solve), and with ActiveSetFinish the branch NLPs that replace the
	// homotopy point by an exactly complementary B-stationary one. See the
	// package documentation, "Certificate" and "Active-set finish".
	Finish FinishMode
	// FinishSigma, with ActiveSetFinish, is the σ from which the finish is
	// tried after every successful step that misses CompTol (default 0:
	// DefaultFinishSigma = 1e-4; negative: only after the homotopy). A
	// certified point ends the homotopy (Solved), saving the steps down to
	// σ_N; otherwise the homotopy goes on, and a step whose identified
	// active set equals that of the last failed attempt is not tried
	// again.
	FinishSigma float64
	// Explore, with ActiveSetFinish, searches the neighbouring branches of
	// the accepted point (default false): every pair with one side at zero
	// and the other positive is switched, one at a time, to the other side
	// (a branch NLP from the accepted point each), and the finish moves to
	// the best neighbour that is certified B-stationary, exactly
	// complementary and lower in objective by more than 1e-6·max(1, |f|),
	// then searches again, at most 5 times. It costs up to
	// one branch NLP per pair and move, and finds better local solutions
	// of small MPCCs (bilevel programs whose homotopy ends at a local
	// minimizer); see the package documentation, "Exploration".
	Explore bool
	// ActiveTol is the activity tolerance: a pair variable with gap
	// x_i − x_L,i ≤ ActiveTol counts as zero (default 10·√CompTol, since a
	// biactive pair of the Scholtes relaxation at σ ≤ CompTol has both
	// sides of order √σ). The certificate applies to the homotopy point
	// when the tightened point is within ActiveTol·max(1, ‖x‖∞) of it.
	ActiveTol float64

	// Log receives one line per homotopy step (default nil: quiet).
	Log io.Writer
}

// params are the resolved settings.
type params struct {
	sigma0, kappa, exponent, sigmaN, compTol float64
	inexact                                  float64
	maxSteps                                 int
	finish                                   FinishMode
	finishSigma                              float64 // 0: off
	activeTol, multTol                       float64
	explore                                  bool
	lpecMaxLPs                               int
	finishMaxIter                            int
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
		{"Sigma0", s.Sigma0}, {"Kappa", s.Kappa}, {"SigmaN", s.SigmaN},
		{"CompTol", s.CompTol},
		{"ActiveTol", s.ActiveTol},
	}
	for _, f := range nonneg {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%w: %s = %g must be finite and ≥ 0 (0 = default)", ErrSettings, f.name, f.v)
		}
	}
	if math.IsNaN(s.FinishSigma) || math.IsInf(s.FinishSigma, 0) {
		return fmt.Errorf("%w: FinishSigma = %g must be finite (negative: off)", ErrSettings, s.FinishSigma)
	}
	if math.IsNaN(s.InexactFactor) || math.IsInf(s.InexactFactor, 0) {
		return fmt.Errorf("%w: InexactFactor = %g must be finite (negative: off)", ErrSettings, s.InexactFactor)
	}
	if s.Kappa >= 1 {
		return fmt.Errorf("%w: Kappa = %g must be in (0, 1)", ErrSettings, s.Kappa)
	}
	if s.MaxSteps < 0 {
		return fmt.Errorf("%w: MaxSteps = %d must be ≥ 0 (0 = default)", ErrSettings, s.MaxSteps)
	}
	if s.Finish < 0 || s.Finish >= numFinishModes {
		return fmt.Errorf("%w: %v", ErrSettings, s.Finish)
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
		sigma0:   orDefault(s.Sigma0, DefaultSigma0),
		kappa:    orDefault(s.Kappa, DefaultKappa),
		exponent: DefaultExponent,
		compTol:  orDefault(s.CompTol, DefaultCompTol),
		multTol:  DefaultMultTol,
		maxSteps: s.MaxSteps,
		inexact:  orDefault(s.InexactFactor, DefaultInexactFactor),
		finish:   s.Finish,
	}
	if p.finish == FinishDefault {
		p.finish = DefaultFinish
	}
	p.finishSigma = math.Max(0, orDefault(s.FinishSigma, DefaultFinishSigma))
	p.activeTol = orDefault(s.ActiveTol, DefaultActiveTolFactor*math.Sqrt(p.compTol))
	p.explore = s.Explore
	p.lpecMaxLPs = lpecMaxLPs
	p.finishMaxIter = DefaultFinishMaxIter
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
