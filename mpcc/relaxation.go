package mpcc

import (
	"fmt"
	"math"
)

// Relaxation selects the function ψ that replaces the complementarity
// c(x) = 0 in the relaxed NLP. The zero value is ScholtesIneq (the nosnoc
// default). See the package documentation for the formulas.
type Relaxation int

const (
	// ScholtesIneq: c(x) ≤ σ. Valid for summed terms.
	ScholtesIneq Relaxation = iota
	// ScholtesEq: c(x) = σ. Valid for summed terms.
	ScholtesEq
	// LinFukushima: a·b ≤ τ², (a + τ)(b + τ) ≥ τ², τ = σ, with the lower
	// bounds of a and b loosened to x_L − τ. Scalar pairs, direct steering.
	LinFukushima
	// KanzowSchwartz: φ_KS(a − τ, b − τ) ≤ 0, τ = σ. Scalar pairs.
	KanzowSchwartz
	// Kadrani: (a − τ)(b − τ) ≤ 0 with the lower bounds of a and b loosened
	// to x_L − τ, τ = σ. Scalar pairs, direct steering.
	Kadrani
	// FischerBurmeisterEq (smoothing): a + b − √(a² + b² + 2σ) = 0. Scalar pairs.
	FischerBurmeisterEq
	// FischerBurmeisterIneq: a + b − √(a² + b² + 2σ) ≤ 0. Scalar pairs.
	FischerBurmeisterIneq
	// NaturalResidualEq (smoothing): ½(a + b − √((a − b)² + 4σ)) = 0. Scalar pairs.
	NaturalResidualEq
	// NaturalResidualIneq: ½(a + b − √((a − b)² + 4σ)) ≤ 0. Scalar pairs.
	NaturalResidualIneq
	numRelaxations
)

var relaxationNames = [...]string{
	ScholtesIneq:          "ScholtesIneq",
	ScholtesEq:            "ScholtesEq",
	LinFukushima:          "LinFukushima",
	KanzowSchwartz:        "KanzowSchwartz",
	Kadrani:               "Kadrani",
	FischerBurmeisterEq:   "FischerBurmeisterEq",
	FischerBurmeisterIneq: "FischerBurmeisterIneq",
	NaturalResidualEq:     "NaturalResidualEq",
	NaturalResidualIneq:   "NaturalResidualIneq",
}

// Outer reports whether the relaxation's feasible set contains the
// MPCC's for every σ > 0 (with direct steering): ScholtesIneq,
// LinFukushima, KanzowSchwartz and the inequality forms of the
// Fischer–Burmeister and natural-residual relaxations. An infeasible
// relaxed NLP of such a relaxation proves the MPCC infeasible near that
// point; the equality (smoothing) forms and Kadrani's, which cuts the
// corner a = b = 0 off, do not contain it.
func (r Relaxation) Outer() bool {
	switch r {
	case ScholtesIneq, LinFukushima, KanzowSchwartz, FischerBurmeisterIneq, NaturalResidualIneq:
		return true
	}
	return false
}

// Relaxations lists every relaxation, for table tests and command-line tools.
func Relaxations() []Relaxation {
	r := make([]Relaxation, numRelaxations)
	for i := range r {
		r[i] = Relaxation(i)
	}
	return r
}

func (r Relaxation) String() string {
	if r < 0 || r >= numRelaxations {
		return fmt.Sprintf("Relaxation(%d)", int(r))
	}
	return relaxationNames[r]
}

// Valid reports whether r is a known relaxation.
func (r Relaxation) Valid() bool { return r >= 0 && r < numRelaxations }

// AllowsSums reports whether the relaxation is defined for terms with
// several pairs (only Scholtes: it needs c(x), not separate G and H).
func (r Relaxation) AllowsSums() bool { return r == ScholtesIneq || r == ScholtesEq }

// loosensBounds reports whether the relaxation moves the lower bounds of the
// complementarity variables to x_L − τ (the parameter then enters the
// bounds, which is why these relaxations support direct steering only).
func (r Relaxation) loosensBounds() bool { return r == LinFukushima || r == Kadrani }

// Tau returns the relaxation's own parameter τ(σ). fesd uses τ = σ for
// every method, so that every relaxed set lies within O(σ) of the
// complementarity set measured by the product residual for pairs whose
// larger factor is of order one: Scholtes, Fischer–Burmeister and natural
// residual allow a·b ≤ σ (= σ for the equality forms); Kanzow–Schwartz and
// Kadrani allow strips min(a, b) ≲ τ; Lin–Fukushima allows a·b ≤ τ² with a
// lower arm down to −τ.
//
// nosnoc's normalize_homotopy_update instead uses σ̃ = √σ for
// Lin–Fukushima, Kanzow–Schwartz and Kadrani, which matches the biactive
// corners ((√σ, √σ) has product σ) but leaves the strips √σ wide: with the
// product-residual stopping rule these methods then stall at residual
// ≈ √σ_N = 1e-5 (observed in the end-to-end tests), so fesd does not copy it.
func (r Relaxation) Tau(sigma float64) float64 {
	return sigma
}

// Steering selects how the relaxation parameter is driven to zero. The zero
// value is Direct.
type Steering int

const (
	// Direct: the relaxation parameter is the constant τ(σ) in ψ.
	Direct Steering = iota
	// L1 elastic mode: for Scholtes the objective becomes f + ρ Σ_k c_k
	// (exact ℓ1 penalty, no constraint); for the other relaxations a slack
	// s_k ≥ 0 per term replaces τ in ψ and f + ρ Σ_k s_k is minimized.
	// ρ = 1/σ.
	L1
	// LInf elastic mode: one slack s ≥ 0 replaces τ in every ψ (Scholtes:
	// c_k ≤ s, or = s) and f + ρ s is minimized, ρ = 1/σ.
	LInf
	numSteerings
)

var steeringNames = [...]string{Direct: "Direct", L1: "L1", LInf: "LInf"}

// Steerings lists every steering strategy.
func Steerings() []Steering { return []Steering{Direct, L1, LInf} }

func (s Steering) String() string {
	if s < 0 || s >= numSteerings {
		return fmt.Sprintf("Steering(%d)", int(s))
	}
	return steeringNames[s]
}

// Valid reports whether s is a known steering.
func (s Steering) Valid() bool { return s >= 0 && s < numSteerings }

// Compatible reports whether the relaxation can be combined with the
// steering, and if not, why.
func Compatible(r Relaxation, s Steering) error {
	if !r.Valid() {
		return fmt.Errorf("%w: %d", ErrRelaxation, int(r))
	}
	if !s.Valid() {
		return fmt.Errorf("%w: %d", ErrSteering, int(s))
	}
	if s != Direct && r.loosensBounds() {
		return fmt.Errorf("%w: %v loosens the variable bounds by τ, which needs direct steering, not %v", ErrUnsupported, r, s)
	}
	return nil
}

// rowKind is one scalar constraint function of a relaxation.
type rowKind int

const (
	rowScholtes rowKind = iota // c(x) − t
	rowFB                      // a + b − √(a² + b² + 2t)
	rowNR                      // ½(a + b − √((a − b)² + 4t))
	rowKS                      // φ_KS(a − t, b − t)
	rowLFUpper                 // a·b − t²
	rowLFLower                 // (a + t)(b + t) − t² = a·b + t(a + b)
	rowKadrani                 // (a − t)(b − t)
)

// rowSpec is one constraint row ψ ∈ [lo, hi] of a relaxation.
type rowSpec struct {
	kind   rowKind
	lo, hi float64
}

// rows returns the constraint rows that relax one term.
func (r Relaxation) rows() []rowSpec {
	inf := math.Inf(1)
	switch r {
	case ScholtesIneq:
		return []rowSpec{{rowScholtes, -inf, 0}}
	case ScholtesEq:
		return []rowSpec{{rowScholtes, 0, 0}}
	case LinFukushima:
		return []rowSpec{{rowLFUpper, -inf, 0}, {rowLFLower, 0, inf}}
	case KanzowSchwartz:
		return []rowSpec{{rowKS, -inf, 0}}
	case Kadrani:
		return []rowSpec{{rowKadrani, -inf, 0}}
	case FischerBurmeisterEq:
		return []rowSpec{{rowFB, 0, 0}}
	case FischerBurmeisterIneq:
		return []rowSpec{{rowFB, -inf, 0}}
	case NaturalResidualEq:
		return []rowSpec{{rowNR, 0, 0}}
	case NaturalResidualIneq:
		return []rowSpec{{rowNR, -inf, 0}}
	}
	return nil
}

// psi3 evaluates a scalar-pair row ψ(a, b, t) with its gradient g and its
// Hessian h (row-major 3×3, order a, b, t).
func psi3(kind rowKind, a, b, t float64, g *[3]float64, h *[9]float64) float64 {
	*h = [9]float64{}
	var v float64
	switch kind {
	case rowFB:
		r := math.Sqrt(a*a + b*b + 2*t)
		r3 := r * r * r
		v = a + b - r
		*g = [3]float64{1 - a/r, 1 - b/r, -1 / r}
		// ψ'' = −r''.
		h[0] = -(b*b + 2*t) / r3
		h[4] = -(a*a + 2*t) / r3
		h[8] = 1 / r3
		h[1] = a * b / r3
		h[2] = a / r3
		h[5] = b / r3
	case rowNR:
		d := a - b
		r := math.Sqrt(d*d + 4*t)
		r3 := r * r * r
		v = 0.5 * (a + b - r)
		*g = [3]float64{0.5 * (1 - d/r), 0.5 * (1 + d/r), -1 / r}
		// ψ'' = −½ r''; r_aa = r_bb = 4t/r³, r_ab = −4t/r³,
		// r_at = −2d/r³, r_bt = 2d/r³, r_tt = −4/r³.
		h[0] = -2 * t / r3
		h[4] = -2 * t / r3
		h[1] = 2 * t / r3
		h[2] = d / r3
		h[5] = -d / r3
		h[8] = 2 / r3
	case rowKS:
		a1, b1 := a-t, b-t
		if a1+b1 >= 0 {
			v = a1 * b1
			*g = [3]float64{b1, a1, -(a1 + b1)}
			h[1], h[2], h[5], h[8] = 1, -1, -1, 2
		} else {
			v = -0.5 * (a1*a1 + b1*b1)
			*g = [3]float64{-a1, -b1, a1 + b1}
			h[0], h[4], h[2], h[5], h[8] = -1, -1, 1, 1, -2
		}
	case rowLFUpper:
		v = a*b - t*t
		*g = [3]float64{b, a, -2 * t}
		h[1], h[8] = 1, -2
	case rowLFLower:
		v = a*b + t*(a+b)
		*g = [3]float64{b + t, a + t, a + b}
		h[1], h[2], h[5] = 1, 1, 1
	case rowKadrani:
		v = (a - t) * (b - t)
		*g = [3]float64{b - t, a - t, -(a - t) - (b - t)}
		h[1], h[2], h[5], h[8] = 1, -1, -1, 2
	}
	// Symmetrize from the upper triangle.
	h[3], h[6], h[7] = h[1], h[2], h[5]
	return v
}
