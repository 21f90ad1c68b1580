package nlp

import "math"

// Problem is a nonlinear program
//
//	minimize f(x)  subject to  g_L ≤ g(x) ≤ g_U,  x_L ≤ x ≤ x_U,
//
// with x ∈ ℝⁿ and g: ℝⁿ → ℝᵐ. Bounds may be ±Inf; g_L[i] = g_U[i] makes
// constraint i an equality. The solver calls the methods with x of length n
// and output slices of the documented lengths; implementations write into the
// given slices and must not retain them. A method returns a non-nil error only
// when it cannot evaluate at all (the solve then stops with status UserStop
// and Solve returns an error wrapping ErrCallback and that error);
// a value that is NaN or ±Inf is reported through the output and handled by
// the solver (the line search cuts the step back).
type Problem interface {
	// Dims returns the number of variables n and of constraints m.
	Dims() (n, m int)
	// Bounds writes the variable bounds (length n) and constraint bounds
	// (length m).
	Bounds(xL, xU, gL, gU []float64)
	// Start writes the initial point (length n).
	Start(x0 []float64)
	// Objective returns f(x).
	Objective(x []float64) (float64, error)
	// Gradient writes ∇f(x) (length n).
	Gradient(x, grad []float64) error
	// Constraints writes g(x) (length m).
	Constraints(x, g []float64) error
	// JacobianStructure returns the fixed sparsity pattern of ∂g/∂x as
	// coordinate lists (row i < m, column j < n), without duplicates.
	// It is called once per solve.
	JacobianStructure() (rows, cols []int)
	// JacobianValues writes the Jacobian entries in the order of
	// JacobianStructure.
	JacobianValues(x, vals []float64) error
	// HessianStructure returns the fixed sparsity pattern of the lower
	// triangle (row ≥ column) of the Hessian of the Lagrangian, without
	// duplicates. It is called once per solve.
	HessianStructure() (rows, cols []int)
	// HessianValues writes the entries of
	//
	//	σ ∇²f(x) + Σᵢ λᵢ ∇²gᵢ(x)
	//
	// in the order of HessianStructure (lambda has length m).
	HessianValues(x []float64, sigma float64, lambda, vals []float64) error
}

// Violation returns the max-norm violation of the variable bounds and the
// constraint bounds of p at x (+Inf if a constraint value is NaN): the
// primal infeasibility of a point, unscaled.
func Violation(p Problem, x []float64) (float64, error) {
	v, _, err := Violations(p, x)
	return v, err
}

// Violations returns the largest and the summed (1-norm) violation of the
// variable bounds and the constraint bounds of p at x, unscaled (both +Inf
// if a constraint value is NaN). The sum bounds how far small violations
// of many rows can carry a point together.
func Violations(p Problem, x []float64) (largest, sum float64, err error) {
	n, m := p.Dims()
	xL, xU, gL, gU := make([]float64, n), make([]float64, n), make([]float64, m), make([]float64, m)
	p.Bounds(xL, xU, gL, gU)
	g := make([]float64, m)
	if err := p.Constraints(x, g); err != nil {
		return 0, 0, err
	}
	add := func(v float64) {
		largest = math.Max(largest, v)
		sum += math.Max(0, v)
	}
	for i := range x {
		add(math.Max(xL[i]-x[i], x[i]-xU[i]))
	}
	for i := range g {
		add(math.Max(gL[i]-g[i], g[i]-gU[i]))
	}
	if math.IsNaN(largest) || math.IsNaN(sum) {
		largest, sum = math.Inf(1), math.Inf(1)
	}
	return largest, sum, nil
}
