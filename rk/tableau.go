package rk

import (
	"fmt"
	"math"
	"strings"
)

// Tableau is the Butcher tableau of an s-stage Runge–Kutta method
//
//	c | A
//	--+---
//	  | bᵀ
//
// for y' = f(t, y): k_i = f(t_n + c_i h, y_n + h Σ_j a_ij k_j), y_{n+1} = y_n + h Σ_i b_i k_i.
// Values returned by the constructors are fresh; callers may modify them.
type Tableau struct {
	Name       string      // human-readable, e.g. "Radau IIA (s=2)"
	Family     Family      // family the tableau belongs to
	A          [][]float64 // s×s coefficient matrix, row-major
	B          []float64   // s weights b_i
	C          []float64   // s nodes c_i
	Order      int         // classical order p
	StageOrder int         // stage order q: C(q) holds
}

// Stages returns the number of stages s (0 for a nil tableau).
func (t *Tableau) Stages() int {
	if t == nil {
		return 0
	}
	return len(t.B)
}

// shapeOK reports whether t is not nil, A is s×s and C has length s.
// The queries below answer false, (0, +Inf) or a note for a tableau of
// another shape instead of indexing out of range; Validate says why.
func (t *Tableau) shapeOK() bool {
	if t == nil || len(t.C) != len(t.B) || len(t.A) != len(t.B) {
		return false
	}
	for _, row := range t.A {
		if len(row) != len(t.B) {
			return false
		}
	}
	return true
}

// EndpointIsNode reports whether the last node is exactly the right end of the
// step, c_s = 1, so that the last stage value is the value at t_n + h.
func (t *Tableau) EndpointIsNode() bool {
	s := t.Stages()
	return s > 0 && t.shapeOK() && t.C[s-1] == 1
}

// StifflyAccurate reports whether the last row of A equals bᵀ exactly, so that
// y_{n+1} equals the last stage value.
func (t *Tableau) StifflyAccurate() bool {
	s := t.Stages()
	if s == 0 || !t.shapeOK() {
		return false
	}
	for j := 0; j < s; j++ {
		if t.A[s-1][j] != t.B[j] {
			return false
		}
	}
	return true
}

// Explicit reports whether A is strictly lower triangular (a_ij = 0 for j ≥ i).
func (t *Tableau) Explicit() bool {
	if t == nil {
		return false
	}
	for i, row := range t.A {
		for j := i; j < len(row); j++ {
			if row[j] != 0 {
				return false
			}
		}
	}
	return true
}

// validateTol is the tolerance of the consistency checks in Validate.
const validateTol = 1e-10

// Validate checks that the tableau is well formed: s ≥ 1, A is s×s, B and C
// have length s, all entries are finite, 1 ≤ Order, 0 ≤ StageOrder ≤ Order, and
// the simplifying assumptions B(Order) (Σ_i b_i c_i^{k−1} = 1/k, k ≤ Order) and
// C(StageOrder) (Σ_j a_ij c_j^{k−1} = c_i^k/k, k ≤ StageOrder) hold to 1e-10.
// Errors wrap ErrInvalid.
func (t *Tableau) Validate() error {
	if t == nil {
		return fmt.Errorf("%w: nil tableau", ErrInvalid)
	}
	s := len(t.B)
	if s == 0 {
		return fmt.Errorf("%w: no stages", ErrInvalid)
	}
	if len(t.C) != s || len(t.A) != s {
		return fmt.Errorf("%w: len(B)=%d, len(C)=%d, len(A)=%d differ", ErrInvalid, s, len(t.C), len(t.A))
	}
	for i, row := range t.A {
		if len(row) != s {
			return fmt.Errorf("%w: row %d of A has length %d, want %d", ErrInvalid, i, len(row), s)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: A[%d][%d] = %v", ErrInvalid, i, j, v)
			}
		}
		if math.IsNaN(t.B[i]) || math.IsInf(t.B[i], 0) || math.IsNaN(t.C[i]) || math.IsInf(t.C[i], 0) {
			return fmt.Errorf("%w: B[%d] = %v, C[%d] = %v", ErrInvalid, i, t.B[i], i, t.C[i])
		}
	}
	if t.Order < 1 || t.StageOrder < 0 || t.StageOrder > t.Order {
		return fmt.Errorf("%w: Order %d, StageOrder %d", ErrInvalid, t.Order, t.StageOrder)
	}
	if k, r := t.QuadratureDefect(t.Order); r > validateTol {
		return fmt.Errorf("%w: B(%d) violated at k=%d by %.3g", ErrInvalid, t.Order, k, r)
	}
	if k, r := t.StageDefect(t.StageOrder); r > validateTol {
		return fmt.Errorf("%w: C(%d) violated at k=%d by %.3g", ErrInvalid, t.StageOrder, k, r)
	}
	return nil
}

// QuadratureDefect measures the simplifying assumption
//
//	B(p): Σ_i b_i c_i^{k−1} = 1/k,  k = 1, …, p.
//
// It returns the k with the largest absolute residual and that residual
// (0, 0 for p < 1; 0, +Inf for a tableau of inconsistent shape).
func (t *Tableau) QuadratureDefect(p int) (k int, residual float64) {
	if !t.shapeOK() {
		return 0, math.Inf(1)
	}
	for q := 1; q <= p; q++ {
		var sum float64
		for i, b := range t.B {
			sum += b * math.Pow(t.C[i], float64(q-1))
		}
		if r := math.Abs(sum - 1/float64(q)); r > residual || k == 0 {
			k, residual = q, r
		}
	}
	return k, residual
}

// StageDefect measures the simplifying assumption
//
//	C(q): Σ_j a_ij c_j^{k−1} = c_i^k / k,  i = 1, …, s,  k = 1, …, q.
//
// It returns the k with the largest absolute residual and that residual
// (0, +Inf for a tableau of inconsistent shape).
func (t *Tableau) StageDefect(q int) (k int, residual float64) {
	if !t.shapeOK() {
		return 0, math.Inf(1)
	}
	for m := 1; m <= q; m++ {
		for i, row := range t.A {
			var sum float64
			for j, a := range row {
				sum += a * math.Pow(t.C[j], float64(m-1))
			}
			if r := math.Abs(sum - math.Pow(t.C[i], float64(m))/float64(m)); r > residual || k == 0 {
				k, residual = m, r
			}
		}
	}
	return k, residual
}

// ColumnDefect measures the simplifying assumption
//
//	D(r): Σ_i b_i c_i^{k−1} a_ij = b_j (1 − c_j^k)/k,  j = 1, …, s,  k = 1, …, r.
//
// It returns the k with the largest absolute residual and that residual
// (0, +Inf for a tableau of inconsistent shape).
func (t *Tableau) ColumnDefect(r int) (k int, residual float64) {
	if !t.shapeOK() {
		return 0, math.Inf(1)
	}
	s := t.Stages()
	for m := 1; m <= r; m++ {
		for j := 0; j < s; j++ {
			var sum float64
			for i := 0; i < s; i++ {
				sum += t.B[i] * math.Pow(t.C[i], float64(m-1)) * t.A[i][j]
			}
			want := t.B[j] * (1 - math.Pow(t.C[j], float64(m))) / float64(m)
			if d := math.Abs(sum - want); d > residual || k == 0 {
				k, residual = m, d
			}
		}
	}
	return k, residual
}

// Clone returns a deep copy of t (nil for nil).
func (t *Tableau) Clone() *Tableau {
	if t == nil {
		return nil
	}
	c := *t
	c.A = make([][]float64, len(t.A))
	for i, row := range t.A {
		c.A[i] = append([]float64(nil), row...)
	}
	c.B = append([]float64(nil), t.B...)
	c.C = append([]float64(nil), t.C...)
	return &c
}

// String formats the tableau as rows "c_i | a_i1 … a_is" followed by "| b_1 … b_s",
// with %.6f entries.
func (t *Tableau) String() string {
	if !t.shapeOK() {
		if t == nil {
			return "<nil tableau>"
		}
		return fmt.Sprintf("%s: invalid shape (len(A) = %d, len(B) = %d, len(C) = %d)", t.Name, len(t.A), len(t.B), len(t.C))
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: order %d, stage order %d\n", t.Name, t.Order, t.StageOrder)
	num := func(v float64) string {
		if v == 0 {
			v = 0 // print −0 as 0
		}
		return fmt.Sprintf("%10.6f", v)
	}
	for i, row := range t.A {
		sb.WriteString(num(t.C[i]))
		sb.WriteString(" |")
		for _, a := range row {
			sb.WriteString(" " + num(a))
		}
		sb.WriteByte('\n')
	}
	sb.WriteString(strings.Repeat(" ", 10) + " |")
	for _, b := range t.B {
		sb.WriteString(" " + num(b))
	}
	sb.WriteByte('\n')
	return sb.String()
}
