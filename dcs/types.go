package dcs

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
)

// Formulation selects how a model is rewritten as a dynamic
// complementarity system.
type Formulation int

const (
	// Stewart is Stewart's representation (004 §2.6, eq. 28): per
	// subsystem θ, λ ∈ R^{n_base}, μ ∈ R with g(x) − λ + μe = 0, eᵀθ = 1 and
	// 0 ≤ λ ⊥ θ ≥ 0. It is the zero value (nosnoc's default).
	Stewart Formulation = iota
	// Step is the Heaviside step representation (004 §2.5, eq. 22): per
	// subsystem α, λᵖ, λⁿ ∈ R^{nψ} and θ ∈ R^{n_f} with ψ(x) − λᵖ + λⁿ = 0,
	// θ = θ(α) (eq. 21 or Table 3), 0 ≤ λⁿ ⊥ α ≥ 0, 0 ≤ λᵖ ⊥ 1 − α ≥ 0.
	Step
	numFormulations
)

var formulationNames = [...]string{Stewart: "Stewart", Step: "Step"}

// ParseFormulation returns the formulation named s, ignoring case:
// "stewart", or "step" (also "heaviside"), e.g. for command-line flags
// (Formulation.UnmarshalText, which flag.TextVar uses).
// An unknown name is an error wrapping ErrOptions.
func ParseFormulation(s string) (Formulation, error) {
	var f Formulation
	if err := f.UnmarshalText([]byte(s)); err != nil {
		return f, fmt.Errorf("%w: %w", ErrOptions, err)
	}
	return f, nil
}

func (f Formulation) String() string {
	if f < 0 || f >= numFormulations {
		return fmt.Sprintf("Formulation(%d)", int(f))
	}
	return formulationNames[f]
}

// Options selects the reformulation. The zero value is Stewart's
// formulation without lifting.
type Options struct {
	// Formulation is Stewart (default) or Step.
	Formulation Formulation
	// LiftDepth is n_d of the lifting Algorithm 1 of 004 (Step only): the
	// largest number of factors left in a multi-affine product; 2 gives
	// only bilinear terms. 0 means no lifting; values ≥ nψ of a subsystem
	// leave it unlifted (Table 4: n_β = 0 for n_d ≥ nψ).
	LiftDepth int
}

// Validate checks the options for invalid values and incompatible
// combinations.
func (o Options) Validate() error {
	if o.Formulation < 0 || o.Formulation >= numFormulations {
		return fmt.Errorf("%w: unknown formulation %d", ErrOptions, int(o.Formulation))
	}
	if o.LiftDepth < 0 {
		return fmt.Errorf("%w: LiftDepth %d < 0", ErrOptions, o.LiftDepth)
	}
	if o.Formulation == Stewart && o.LiftDepth != 0 {
		return fmt.Errorf("%w: LiftDepth applies to the Step formulation only", ErrOptions)
	}
	return nil
}

// VarKind names a block of algebraic variables.
type VarKind int

const (
	// Theta are Filippov's convex multipliers θ (Stewart: one per base set;
	// Step: one per mode).
	Theta VarKind = iota
	// Lambda are Stewart's multipliers λ ≥ 0 of θ ≥ 0.
	Lambda
	// Mu is Stewart's multiplier μ of eᵀθ = 1 (one per subsystem).
	Mu
	// Alpha are the step selections α ∈ [0, 1].
	Alpha
	// LambdaP are the multipliers λᵖ ≥ 0 of α ≤ 1.
	LambdaP
	// LambdaN are the multipliers λⁿ ≥ 0 of α ≥ 0.
	LambdaN
	// Beta are the lifting variables of Algorithm 1.
	Beta
	// User are the user algebraic variables (Model.Algebraic.Z).
	User
	numVarKinds
)

var varKindNames = [...]string{Theta: "θ", Lambda: "λ", Mu: "μ", Alpha: "α", LambdaP: "λᵖ", LambdaN: "λⁿ", Beta: "β", User: "z"}

func (k VarKind) String() string {
	if k < 0 || k >= numVarKinds {
		return fmt.Sprintf("VarKind(%d)", int(k))
	}
	return varKindNames[k]
}

// EqKind names a block of algebraic equations.
type EqKind int

const (
	// Stationarity rows are Stewart's g(x) − λ + μe = 0 (004 eq. 28b).
	Stationarity EqKind = iota
	// Convexity is Stewart's eᵀθ − 1 = 0 (eq. 28c).
	Convexity
	// Switching rows are ψ(x) − λᵖ + λⁿ = 0 (eq. 22c).
	Switching
	// ThetaDef rows are θ_i − θ_i(α, β) = 0 (eq. 22b, Table 3, Algorithm 1
	// line 8); row r of the block defines θ_r with coefficient 1.
	ThetaDef
	// LiftDef rows are β − (product) = 0 (Algorithm 1 line 16); row r of the
	// block defines β_r with coefficient 1 and uses only earlier β.
	LiftDef
	// UserEq rows are the user equations Model.Algebraic.G.
	UserEq
	numEqKinds
)

var eqKindNames = [...]string{Stationarity: "stationarity", Convexity: "convexity", Switching: "switching", ThetaDef: "θ-definition", LiftDef: "lifting", UserEq: "user"}

func (k EqKind) String() string {
	if k < 0 || k >= numEqKinds {
		return fmt.Sprintf("EqKind(%d)", int(k))
	}
	return eqKindNames[k]
}

// CompKind names a group of complementarity pairs.
type CompKind int

const (
	// LambdaTheta pairs are Stewart's 0 ≤ λ_i ⊥ θ_i ≥ 0 (eq. 28d).
	LambdaTheta CompKind = iota
	// LambdaNAlpha pairs are 0 ≤ λⁿ_j ⊥ α_j ≥ 0 (eq. 22d).
	LambdaNAlpha
	// LambdaPOneMinusAlpha pairs are 0 ≤ λᵖ_j ⊥ 1 − α_j ≥ 0 (eq. 22e).
	LambdaPOneMinusAlpha
	numCompKinds
)

var compKindNames = [...]string{LambdaTheta: "λ⊥θ", LambdaNAlpha: "λⁿ⊥α", LambdaPOneMinusAlpha: "λᵖ⊥1−α"}

func (k CompKind) String() string {
	if k < 0 || k >= numCompKinds {
		return fmt.Sprintf("CompKind(%d)", int(k))
	}
	return compKindNames[k]
}

// VarBlock is a contiguous range Z[Start : Start+Len] of algebraic
// variables of one kind, belonging to subsystem Subsystem (−1 for the
// general steps of Model.Steps and for user variables).
type VarBlock struct {
	Kind       VarKind
	Subsystem  int
	Start, Len int
}

// EqBlock is a contiguous range G[Start : Start+Len] of algebraic
// equations of one kind, belonging to subsystem Subsystem (−1 for the
// general steps and the user equations).
type EqBlock struct {
	Kind       EqKind
	Subsystem  int
	Start, Len int
}

// Pair is one complementarity pair 0 ≤ a ⊥ b ≥ 0 within the algebraic
// variables z: a = z[Lambda] is the multiplier side (λ, λⁿ or λᵖ; a
// variable that also exists at finite-element boundary points), b is the
// selection side z[Sel] (θ or α), or 1 − z[Sel] when OneMinus is set.
type Pair struct {
	Lambda   int
	Sel      int
	OneMinus bool
}

// Values returns the two sides (a, b) of the pair at z (NaN, NaN when an
// index of the pair is outside z).
func (p Pair) Values(z []float64) (a, b float64) {
	if p.Lambda < 0 || p.Lambda >= len(z) || p.Sel < 0 || p.Sel >= len(z) {
		return math.NaN(), math.NaN()
	}
	b = z[p.Sel]
	if p.OneMinus {
		b = 1 - b
	}
	return z[p.Lambda], b
}

// Exprs returns the two sides of the pair as expressions of z (which may
// be the DCS's Z or any vector of stage variables laid out like it); zero
// (invalid) Exprs when an index of the pair is outside z.
func (p Pair) Exprs(z ad.Vec) (a, b ad.Expr) {
	if p.Lambda < 0 || p.Lambda >= len(z) || p.Sel < 0 || p.Sel >= len(z) {
		return ad.Expr{}, ad.Expr{}
	}
	b = z[p.Sel]
	if p.OneMinus {
		b = b.Graph().Const(1).Sub(b)
	}
	return z[p.Lambda], b
}

// CompGroup is a group of complementarity pairs of one kind and subsystem
// (−1: the general steps). Cross-complementarity sums (004 eq. 37–38, the
// FE_FE … STAGE_STAGE modes of nosnoc) are formed per group and
// componentwise over its pairs.
type CompGroup struct {
	Kind      CompKind
	Subsystem int
	Pairs     []Pair
}

// EquilibrationTerm is one component ν_m of the step-equilibration
// indicator (004 §4.4, eq. 39 and the sums defined after it; Stewart's
// version as in nosnoc's +nosnoc/+discrete_time_problem/Stewart.m,
// generate_step_equilibration_constraints):
//
//	ν_m = σᴮ(A)·σᶠ(A) + σᴮ(B)·σᶠ(B),   η = Π_m ν_m,
//
// where σᴮ, σᶠ are the backward and forward sums of the stage values of the
// variable z[A] (resp. z[B]) over the two finite elements adjacent to a
// grid point; variables listed in DCS.BoundaryZ also include their value
// at the element's start point. Stewart: A = λ_i, B = θ_i (per base set);
// Step: A = λⁿ_j, B = λᵖ_j (per switching function).
type EquilibrationTerm struct {
	Subsystem int
	A, B      int
}

// Dims counts the sizes of a DCS (compare 004 Table 4).
type Dims struct {
	NX, NU, NP int
	// NPsi is the number of switching functions (all subsystems and
	// general steps).
	NPsi int
	// NF is the number of user modes (Σ over subsystems of len(F)).
	NF int
	// NTheta is the number of θ variables (Stewart: base sets).
	NTheta int
	// NAlpha counts α, NBeta lifting β.
	NAlpha, NBeta int
	// NLambda counts multipliers: Stewart λ, Step λᵖ and λⁿ together.
	NLambda int
	// NMu counts Stewart's μ (one per subsystem).
	NMu int
	// NUser counts user algebraic variables.
	NUser int
	// NZ = len(Z) is the number of algebraic variables (Table 4 n_alg when
	// there are no user variables).
	NZ int
	// NComp is the number of complementarity pairs (Table 4 n_comp).
	NComp int
	// NEq = len(G) is the number of algebraic equations (Table 4 n_eq).
	NEq int
}
