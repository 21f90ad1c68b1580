package monopod

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// NotAKnot is a cubic spline interpolant with MATLAB's default
// "not-a-knot" end conditions (spline, interp1(…, 'spline')): the third
// derivative is continuous at the second and the second-to-last knot, so
// the first two and the last two pieces are one cubic each. With three
// knots it is the interpolating parabola, with two the line.
type NotAKnot struct {
	x, y []float64
	m    []float64 // second derivatives at the knots
}

// NewNotAKnot builds the spline through (x_i, y_i), x strictly increasing.
func NewNotAKnot(x, y []float64) (*NotAKnot, error) {
	n := len(x)
	if n < 2 || len(y) != n {
		return nil, fmt.Errorf("spline: need ≥ 2 points and len(y) = len(x) (got %d, %d)", n, len(y))
	}
	for i := 1; i < n; i++ {
		if !(x[i] > x[i-1]) {
			return nil, errors.New("spline: knots must be strictly increasing")
		}
	}
	s := &NotAKnot{x: append([]float64(nil), x...), y: append([]float64(nil), y...), m: make([]float64, n)}
	h := make([]float64, n-1)
	d := make([]float64, n-1) // divided differences
	for i := range h {
		h[i] = x[i+1] - x[i]
		d[i] = (y[i+1] - y[i]) / h[i]
	}
	switch n {
	case 2: // line: M = 0
		return s, nil
	case 3: // parabola: constant second derivative
		c := 2 * (d[1] - d[0]) / (h[0] + h[1])
		for i := range s.m {
			s.m[i] = c
		}
		return s, nil
	}
	// Linear system for M (n × n): not-a-knot rows at both ends, the
	// continuity of the first derivative inside:
	//   h_{i−1} M_{i−1} + 2(h_{i−1} + h_i) M_i + h_i M_{i+1} = 6(d_i − d_{i−1}),
	//   h_1 M_0 − (h_0 + h_1) M_1 + h_0 M_2 = 0 (M′′′ continuous at x_1),
	// and the mirrored condition at x_{n−2}.
	A := make([][]float64, n)
	b := make([]float64, n)
	for i := range A {
		A[i] = make([]float64, n)
	}
	A[0][0], A[0][1], A[0][2] = h[1], -(h[0] + h[1]), h[0]
	for i := 1; i < n-1; i++ {
		A[i][i-1], A[i][i], A[i][i+1] = h[i-1], 2*(h[i-1]+h[i]), h[i]
		b[i] = 6 * (d[i] - d[i-1])
	}
	A[n-1][n-3], A[n-1][n-2], A[n-1][n-1] = h[n-2], -(h[n-3] + h[n-2]), h[n-3]
	if err := gaussSolve(A, b); err != nil {
		return nil, err
	}
	copy(s.m, b)
	return s, nil
}

// gaussSolve solves A x = b in place (x in b) by Gaussian elimination with
// partial pivoting.
func gaussSolve(A [][]float64, b []float64) error {
	n := len(b)
	for k := 0; k < n; k++ {
		p := k
		for i := k + 1; i < n; i++ {
			if math.Abs(A[i][k]) > math.Abs(A[p][k]) {
				p = i
			}
		}
		if A[p][k] == 0 {
			return errors.New("spline: singular system")
		}
		A[k], A[p] = A[p], A[k]
		b[k], b[p] = b[p], b[k]
		for i := k + 1; i < n; i++ {
			f := A[i][k] / A[k][k]
			for j := k; j < n; j++ {
				A[i][j] -= f * A[k][j]
			}
			b[i] -= f * b[k]
		}
	}
	for i := n - 1; i >= 0; i-- {
		for j := i + 1; j < n; j++ {
			b[i] -= A[i][j] * b[j]
		}
		b[i] /= A[i][i]
	}
	return nil
}

// At evaluates the spline at t (extrapolating with the end pieces, as
// MATLAB's spline does).
func (s *NotAKnot) At(t float64) float64 {
	n := len(s.x)
	i := sort.SearchFloat64s(s.x, t) - 1 // x[i] < t ≤ x[i+1]
	i = max(0, min(i, n-2))
	h := s.x[i+1] - s.x[i]
	a, b := (s.x[i+1]-t)/h, (t-s.x[i])/h
	return a*s.y[i] + b*s.y[i+1] + ((a*a*a-a)*s.m[i]+(b*b*b-b)*s.m[i+1])*h*h/6
}

// Linspace returns n points from a to b (MATLAB Linspace; n = 1 gives b).
func Linspace(a, b float64, n int) []float64 {
	if n == 1 {
		return []float64{b}
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = a + (b-a)*float64(i)/float64(n-1)
	}
	out[n-1] = b
	return out
}

// InterpSpline is MATLAB's interp1(x, Y, xq, 'spline') for the columns of
// Y (rows are the knots): it returns one row per query point.
func InterpSpline(x []float64, Y [][]float64, xq []float64) ([][]float64, error) {
	if len(Y) != len(x) || len(Y) == 0 {
		return nil, fmt.Errorf("spline: %d rows for %d knots", len(Y), len(x))
	}
	nc := len(Y[0])
	out := make([][]float64, len(xq))
	for i := range out {
		out[i] = make([]float64, nc)
	}
	col := make([]float64, len(x))
	for j := 0; j < nc; j++ {
		for i := range x {
			col[i] = Y[i][j]
		}
		s, err := NewNotAKnot(x, col)
		if err != nil {
			return nil, err
		}
		for i, t := range xq {
			out[i][j] = s.At(t)
		}
	}
	return out, nil
}
