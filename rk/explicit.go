package rk

import "fmt"

// ExplicitStepper steps y' = f(t, y) with an explicit tableau (Explicit
// reports true: a_ij = 0 for j ≥ i), so that every stage value is known
// before its stage is evaluated:
//
//	k_i     = f(t₀ + c_i h, y₀ + h Σ_{j<i} a_ij k_j),   i = 1, …, s,
//	y₁      = y₀ + h Σ_i b_i k_i.
//
// It owns the stage work space for states of one dimension; Step does not
// allocate. A stepper is not safe for concurrent use.
type ExplicitStepper struct {
	tab *Tableau
	k   [][]float64 // stage derivatives k_i
	y   []float64   // stage value
}

// NewExplicitStepper returns a stepper of the explicit tableau tab for
// states of dimension n ≥ 1. The tableau is copied. Errors wrap ErrInvalid
// (tab fails Validate or is not explicit, or n < 1).
func NewExplicitStepper(tab *Tableau, n int) (*ExplicitStepper, error) {
	if err := tab.Validate(); err != nil {
		return nil, err
	}
	if !tab.Explicit() {
		return nil, fmt.Errorf("%w: %s is not explicit", ErrInvalid, tab.Name)
	}
	if n < 1 {
		return nil, fmt.Errorf("%w: state dimension %d", ErrInvalid, n)
	}
	s := tab.Stages()
	st := &ExplicitStepper{tab: tab.Clone(), k: make([][]float64, s), y: make([]float64, n)}
	for i := range st.k {
		st.k[i] = make([]float64, n)
	}
	return st, nil
}

// Dim returns the state dimension n of the stepper.
func (st *ExplicitStepper) Dim() int { return len(st.y) }

// StepTo advances y₀ at t₀ by one step h and writes y₁ into dst. f writes
// f(t, y) into dy and must not keep y or dy. dst may be y0 itself; y0 is
// otherwise not modified. It panics if len(dst) or len(y0) is not Dim().
func (st *ExplicitStepper) StepTo(dst []float64, f func(t float64, y, dy []float64), t0 float64, y0 []float64, h float64) {
	n := len(st.y)
	if len(dst) != n || len(y0) != n {
		panic(fmt.Sprintf("rk: ExplicitStepper.StepTo: len(dst) = %d, len(y0) = %d, want %d", len(dst), len(y0), n))
	}
	a, c := st.tab.A, st.tab.C
	for i, ki := range st.k {
		copy(st.y, y0)
		for j := 0; j < i; j++ {
			if a[i][j] == 0 {
				continue
			}
			for r := range st.y {
				st.y[r] += h * a[i][j] * st.k[j][r]
			}
		}
		f(t0+c[i]*h, st.y, ki)
	}
	for r := range dst {
		var sum float64
		for i, b := range st.tab.B {
			sum += b * st.k[i][r]
		}
		dst[r] = y0[r] + h*sum
	}
}
