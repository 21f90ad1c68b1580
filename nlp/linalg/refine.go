package linalg

import (
	"fmt"
	"math"
)

// Refinement reports the outcome of RefinedSolve.
type Refinement struct {
	// Steps is the number of refinement steps kept (each costs one solve and
	// one product with A).
	Steps int
	// Initial and Residual are the relative residuals ‖b − A x‖∞ / ‖b‖∞ of
	// the plain solve and of the returned x (the plain ‖b − A x‖∞ when
	// b = 0).
	Initial, Residual float64
}

// RefinedSolver is a LinearSolver that also offers iterative refinement
// against a given matrix (usually the unregularized KKT matrix, while the
// factorization is of a regularized one).
type RefinedSolver interface {
	LinearSolver
	// RefinedSolve solves A x = b with the last factorization, then
	// refines x against a: r = b − a x, solve for Δx, x ← x + Δx. It
	// stops after maxSteps steps (maxSteps = 0: plain solve, negative is an
	// error), when the relative residual ‖r‖∞/‖b‖∞ ≤ tol, or when a step
	// does not reduce the residual (that step is undone). x and b may be
	// the same slice. It does not allocate.
	RefinedSolve(a *SymCSC, x, b []float64, maxSteps int, tol float64) (Refinement, error)
}

// refineWork is the workspace of refine, held by each solver.
type refineWork struct {
	b, r, dx []float64
}

func newRefineWork(n int) refineWork {
	return refineWork{b: make([]float64, n), r: make([]float64, n), dx: make([]float64, n)}
}

func normInf(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		if a := math.Abs(x); a > m || math.IsNaN(a) {
			m = a
		}
	}
	return m
}

// residual sets r = b − A x and returns the relative residual.
func residual(a *SymCSC, x, b, r []float64, bnorm float64) float64 {
	a.MulVecTo(r, x)
	for i := range r {
		r[i] = b[i] - r[i]
	}
	rn := normInf(r)
	if bnorm > 0 {
		return rn / bnorm
	}
	return rn
}

func refine(s LinearSolver, w *refineWork, a *SymCSC, x, b []float64, maxSteps int, tol float64) (Refinement, error) {
	n := len(w.b)
	if a == nil || a.N != n || len(x) != n || len(b) != n {
		return Refinement{}, fmt.Errorf("%w: RefinedSolve sizes do not match the factorization (n=%d)", ErrDimension, n)
	}
	if maxSteps < 0 {
		return Refinement{}, fmt.Errorf("%w: maxSteps=%d", ErrSettings, maxSteps)
	}
	bc, r, dx := w.b, w.r, w.dx
	copy(bc, b) // b may alias x
	if err := s.Solve(x, bc); err != nil {
		return Refinement{}, err
	}
	bnorm := normInf(bc)
	res := residual(a, x, bc, r, bnorm)
	out := Refinement{Initial: res, Residual: res}
	for out.Steps < maxSteps && res > tol {
		if err := s.Solve(dx, r); err != nil {
			return out, err
		}
		for i := range x {
			x[i] += dx[i]
		}
		nres := residual(a, x, bc, r, bnorm)
		if !(nres < res) {
			for i := range x {
				x[i] -= dx[i]
			}
			break
		}
		res = nres
		out.Steps++
		out.Residual = res
	}
	return out, nil
}
