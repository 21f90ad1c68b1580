package linalg

import (
	"fmt"
	"math"
)

// Ordering selects the fill-reducing symmetric permutation used by Sparse.
type Ordering int

const (
	// OrderAMD is approximate minimum degree (Amestoy, Davis, Duff 1996),
	// computed by this package. It is the default (the zero value).
	OrderAMD Ordering = iota
	// OrderNatural keeps the given numbering (no permutation).
	OrderNatural
	// OrderGiven uses Settings.Perm, e.g. the stage-interleaved order of an
	// optimal-control transcription.
	OrderGiven
	// OrderBest computes both AMD and Settings.Perm and keeps the one with
	// the smaller symbolic nnz(L) (ties go to Settings.Perm).
	OrderBest
)

var orderingNames = [...]string{
	OrderAMD:     "AMD",
	OrderNatural: "Natural",
	OrderGiven:   "Given",
	OrderBest:    "Best",
}

// String returns the name of the ordering.
func (o Ordering) String() string {
	if o < 0 || int(o) >= len(orderingNames) {
		return fmt.Sprintf("Ordering(%d)", int(o))
	}
	return orderingNames[o]
}

// Default values used when the corresponding Settings field is zero.
const (
	// DefaultZeroPivotTol is the zero-pivot threshold τ: a pivot
	// d_k = a_kk − Σ_i l_ki·d_i·l_ki counts as zero when
	// |d_k| ≤ τ·min(1, s_k), s_k the larger of max_j |a_kj| (its row of A)
	// and |a_kk| + Σ_i |l_ki·d_i·l_ki| (the size of the terms it is the
	// difference of). When either is ≥ 1 this is the absolute threshold τ,
	// not one relative to ‖A‖, because an IPM's KKT matrix legitimately
	// has pivots of size δ_c ≈ 1e-8 in the dual block while Σ = Z/X on the
	// primal diagonal grows to 1e10 and more near the solution, and a tiny
	// pivot in a row with entries of order 1 would make entries of L of
	// order 1/d_k. Below, it is relative to them, so that a variable whose
	// whole row is tiny keeps its pivot (x₆ of Hock–Schittkowski problem
	// 54: curvature 4e-18, off-diagonal Hessian entries as small).
	DefaultZeroPivotTol = 1e-13
	// DefaultRegDelta is the magnitude of the replacement pivot sign·δ used
	// for pivots with |d| ≤ ZeroPivotTol.
	DefaultRegDelta = 1e-8
	// DefaultDenseAlpha is the AMD dense-row parameter α: a row with more
	// than max(16, α·√n) off-diagonal entries is ordered last.
	DefaultDenseAlpha = 10.0
	// DefaultPivotTol is the threshold-pivoting parameter u of Multifrontal,
	// the default of IPOPT's ma27_pivtol and ma57_pivtol.
	DefaultPivotTol = 1e-8
)

// Settings configures a Sparse or Multifrontal solver. The zero value gives
// the documented defaults.
type Settings struct {
	// Ordering chooses the fill-reducing permutation (default OrderAMD).
	Ordering Ordering
	// Perm is the caller's permutation for OrderGiven and OrderBest
	// (default nil): Perm[k] is the original index of the k-th pivot. It
	// must be nil for the other orderings (an unused permutation is an
	// error, not ignored).
	Perm []int
	// ZeroPivotTol is the zero-pivot threshold τ (default
	// DefaultZeroPivotTol = 1e-13): a pivot d with |d| ≤ τ·min(1, s), s the
	// size of the terms d is computed from (see DefaultZeroPivotTol),
	// counts as Zero and is replaced by sign·RegDelta. A negative value is
	// an error.
	ZeroPivotTol float64
	// RegDelta is the magnitude of the replacement for tiny pivots
	// (default DefaultRegDelta = 1e-8); a negative value is an error.
	RegDelta float64
	// DenseAlpha is AMD's dense-row parameter α (default DefaultDenseAlpha
	// = 10); a negative value disables dense-row detection.
	DenseAlpha float64
	// NoAggressiveAbsorption turns off AMD's aggressive element absorption
	// (default false: on).
	NoAggressiveAbsorption bool
	// PivotTol is the threshold u ∈ [0, 0.5] of Multifrontal's pivot test
	// (default DefaultPivotTol = 1e-8): a 1×1 pivot a_kk is accepted if
	// |a_kk| ≥ u·max_{i≠k}|a_ik|. Sparse ignores it.
	PivotTol float64
}

// Validate reports whether the settings are usable. The length of Perm is
// checked by Analyze, where n is known.
func (s *Settings) Validate() error {
	switch s.Ordering {
	case OrderAMD, OrderNatural:
		if s.Perm != nil {
			return fmt.Errorf("%w: Perm given but Ordering is %v", ErrSettings, s.Ordering)
		}
	case OrderGiven, OrderBest:
		if s.Perm == nil {
			return fmt.Errorf("%w: Ordering %v needs Perm", ErrSettings, s.Ordering)
		}
		if err := checkPerm(s.Perm, len(s.Perm)); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%w: unknown Ordering %d", ErrSettings, int(s.Ordering))
	}
	if !(s.ZeroPivotTol >= 0) || math.IsInf(s.ZeroPivotTol, 0) {
		return fmt.Errorf("%w: ZeroPivotTol=%g", ErrSettings, s.ZeroPivotTol)
	}
	if !(s.RegDelta >= 0) || math.IsInf(s.RegDelta, 0) {
		return fmt.Errorf("%w: RegDelta=%g", ErrSettings, s.RegDelta)
	}
	if math.IsNaN(s.DenseAlpha) || math.IsInf(s.DenseAlpha, 0) {
		return fmt.Errorf("%w: DenseAlpha=%g", ErrSettings, s.DenseAlpha)
	}
	if !(s.PivotTol >= 0 && s.PivotTol <= 0.5) {
		return fmt.Errorf("%w: PivotTol=%g, want [0, 0.5]", ErrSettings, s.PivotTol)
	}
	return nil
}

// withDefaults returns a copy with zero fields replaced by defaults.
func (s Settings) withDefaults() Settings {
	if s.ZeroPivotTol == 0 {
		s.ZeroPivotTol = DefaultZeroPivotTol
	}
	if s.RegDelta == 0 {
		s.RegDelta = DefaultRegDelta
	}
	if s.DenseAlpha == 0 {
		s.DenseAlpha = DefaultDenseAlpha
	}
	if s.PivotTol == 0 {
		s.PivotTol = DefaultPivotTol
	}
	return s
}

// checkPerm reports whether p is a permutation of 0..n-1.
func checkPerm(p []int, n int) error {
	if len(p) != n {
		return fmt.Errorf("%w: length %d, want %d", ErrPermutation, len(p), n)
	}
	seen := make([]bool, n)
	for k, i := range p {
		if i < 0 || i >= n || seen[i] {
			return fmt.Errorf("%w: entry %d = %d repeated or out of range", ErrPermutation, k, i)
		}
		seen[i] = true
	}
	return nil
}
