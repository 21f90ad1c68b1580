package monopod

import (
	"fmt"

	"gonum.org/v1/gonum/interp"
)

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
// Y (rows are the knots) at query points inside [x₀, x_{n−1}]: the cubic
// spline with "not-a-knot" end conditions (the third derivative is
// continuous at the second and the second-to-last knot), gonum's
// interp.NotAKnotCubic. It returns one row per query point. It needs
// n ≥ 4 strictly increasing knots and does not extrapolate.
func InterpSpline(x []float64, Y [][]float64, xq []float64) ([][]float64, error) {
	n := len(x)
	if n < 4 || len(Y) != n {
		return nil, fmt.Errorf("spline: %d rows for %d knots, want ≥ 4 knots and one row each", len(Y), n)
	}
	for i := 1; i < n; i++ {
		if !(x[i] > x[i-1]) {
			return nil, fmt.Errorf("spline: knots must be strictly increasing (x[%d] = %v, x[%d] = %v)", i-1, x[i-1], i, x[i])
		}
	}
	for _, t := range xq {
		if !(t >= x[0] && t <= x[n-1]) {
			return nil, fmt.Errorf("spline: query point %v outside [%v, %v]", t, x[0], x[n-1])
		}
	}
	nc := len(Y[0])
	for i, row := range Y {
		if len(row) != nc {
			return nil, fmt.Errorf("spline: row %d has %d columns, row 0 %d", i, len(row), nc)
		}
	}
	out := make([][]float64, len(xq))
	for i := range out {
		out[i] = make([]float64, nc)
	}
	col := make([]float64, n)
	for j := 0; j < nc; j++ {
		for i, row := range Y {
			col[i] = row[j]
		}
		var s interp.NotAKnotCubic
		if err := s.Fit(x, col); err != nil {
			return nil, fmt.Errorf("spline: %w", err)
		}
		for i, t := range xq {
			out[i][j] = s.Predict(t)
		}
	}
	return out, nil
}
