package nlp

import (
	"context"
	"math"
	"testing"
)

// squareProb: x₀ + x₁ + x₂ = 3, x₀ − x₁ = 1 with x₂ fixed at 0.5 by its
// bounds and x₀, x₁ ≥ 0: two free variables, two equality constraints (a
// square problem). Closed form: x₀ = 1.75, x₁ = 0.75. The objective is
// 0 or, with quad, x₀² (then y solves the square system Jᵀy = −∇f:
// y = (−1.75, −1.75)).
func squareProb(quad bool) *quadProb {
	w := 0.0
	if quad {
		w = 1
	}
	return &quadProb{
		n: 3, m: 2,
		xL: []float64{0, 0, 0.5}, xU: []float64{inf, inf, 0.5},
		gL: []float64{3, 1}, gU: []float64{3, 1},
		x0: []float64{1, 1, 0.5},
		f:  func(x []float64) float64 { return w * x[0] * x[0] },
		df: func(x, g []float64) { g[0], g[1], g[2] = 2*w*x[0], 0, 0 },
		c:  func(x, c []float64) { c[0], c[1] = x[0]+x[1]+x[2], x[0]-x[1] },
		jr: []int{0, 0, 0, 1, 1}, jc: []int{0, 1, 2, 0, 1},
		jv: func(x, v []float64) { v[0], v[1], v[2], v[3], v[4] = 1, 1, 1, 1, -1 },
		hr: []int{0, 1}, hc: []int{0, 1},
		hv: func(x []float64, s float64, l, v []float64) { v[0], v[1] = 2*w*s, 0 },
	}
}

// TestSquareProblem: on a square problem with linear constraints the first
// Newton step lands on the solution, and the feasibility multipliers (z =
// 0, y by least squares; IPOPT's treatment of square problems) end the
// solve there: Solved after one iteration (IPOPT 3.11 reports one
// iteration for such problems), with the multipliers satisfying ∇f + Jᵀy
// − z_L + z_U = 0 to 1e-12. Without the square treatment the barrier terms
// of x₀, x₁ ≥ 0 took three more iterations to reach the tolerances. Dense
// LDLᵀ, so that the first step is exact (the sparse backend's static
// pivots on this tiny system lead to δ_c > 0 and a step 2e-9 short).
func TestSquareProblem(t *testing.T) {
	for _, quad := range []bool{false, true} {
		p := squareProb(quad)
		set := Settings{Tol: 1e-12, DualInfTol: 1e-12, ComplInfTol: 1e-12, NoBoundRelax: true, LinearSolver: DenseLDL}
		res, err := (&Solver{Settings: set}).Solve(context.Background(), p)
		if err != nil || res.Status != Solved {
			t.Fatalf("quad %v: %v %v", quad, err, res.Status)
		}
		if res.Iterations != 1 {
			t.Errorf("quad %v: %d iterations, want 1", quad, res.Iterations)
		}
		// No least-squares estimate of y at the start (x's Newton steps
		// do not depend on y when J is square): one factorization for
		// the step, and one more for the feasibility multipliers when
		// the objective has a gradient.
		wantF := 1
		if quad {
			wantF = 2
		}
		if res.Counts.Factorizations != wantF {
			t.Errorf("quad %v: %d factorizations, want %d", quad, res.Counts.Factorizations, wantF)
		}
		if math.Abs(res.X[0]-1.75) > 1e-12 || math.Abs(res.X[1]-0.75) > 1e-12 {
			t.Errorf("quad %v: x = %v, want (1.75, 0.75, 0.5)", quad, res.X)
		}
		wantY := 0.0
		if quad {
			wantY = -1.75 // ∇f = (3.5, 0): y₀ + y₁ = −3.5, y₀ − y₁ = 0
		}
		for i, y := range res.Y {
			if math.Abs(y-wantY) > 1e-12 {
				t.Errorf("quad %v: y[%d] = %v, want %v", quad, i, y, wantY)
			}
		}
		for j := 0; j < 2; j++ {
			if res.ZL[j] != 0 {
				t.Errorf("quad %v: z_L[%d] = %v, want 0", quad, j, res.ZL[j])
			}
		}
	}
}
