package nlp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dupRowProb: min (x₀−1)² + (x₁−2)² + x₂² s.t. x₀ + x₁ + x₂ = 1 and the same
// row doubled (a rank-deficient Jacobian). The solution is the projection
// of (1, 2, 0) on the plane: (1/3, 4/3, −2/3).
func dupRowProb() *quadProb {
	return &quadProb{
		n: 3, m: 2,
		xL: []float64{-inf, -inf, -inf}, xU: []float64{inf, inf, inf},
		gL: []float64{1, 2}, gU: []float64{1, 2},
		x0: []float64{0, 0, 0},
		f: func(x []float64) float64 {
			return (x[0]-1)*(x[0]-1) + (x[1]-2)*(x[1]-2) + x[2]*x[2]
		},
		df: func(x, g []float64) { g[0], g[1], g[2] = 2*(x[0]-1), 2*(x[1]-2), 2*x[2] },
		c: func(x, c []float64) {
			c[0] = x[0] + x[1] + x[2]
			c[1] = 2 * c[0]
		},
		jr: []int{0, 0, 0, 1, 1, 1}, jc: []int{0, 1, 2, 0, 1, 2},
		jv: func(x, v []float64) { v[0], v[1], v[2], v[3], v[4], v[5] = 1, 1, 1, 2, 2, 2 },
		hr: []int{0, 1, 2}, hc: []int{0, 1, 2},
		hv: func(x []float64, s float64, l, v []float64) { v[0], v[1], v[2] = 2*s, 2*s, 2*s },
	}
}

// flatProb: min (x₀−1)² s.t. x₁ + x₂ = 1, x₁, x₂ free: the Hessian is zero
// on the null space of the Jacobian (direction (0, 1, −1)), so every KKT
// matrix is singular without δ_w (InertiaStrict tries δ_c first, so both
// kinds are reported). f* = 0 at x₀ = 1.
func flatProb() *quadProb {
	return &quadProb{
		n: 3, m: 1,
		xL: []float64{-inf, -inf, -inf}, xU: []float64{inf, inf, inf},
		gL: []float64{1}, gU: []float64{1},
		x0: []float64{0, 0.3, 0.3},
		f:  func(x []float64) float64 { return (x[0] - 1) * (x[0] - 1) },
		df: func(x, g []float64) { g[0], g[1], g[2] = 2*(x[0]-1), 0, 0 },
		c:  func(x, c []float64) { c[0] = x[1] + x[2] },
		jr: []int{0, 0}, jc: []int{1, 2},
		jv: func(x, v []float64) { v[0], v[1] = 1, 1 },
		hr: []int{0}, hc: []int{0},
		hv: func(x []float64, s float64, l, v []float64) { v[0] = 2 * s },
	}
}

// TestDegeneracy: a solve reports the degeneracy of its KKT matrices in
// Result.Degeneracy, and a solve that starts from it (Settings.Degeneracy)
// reaches the same solution without the factorizations that found the
// singular matrices.
func TestDegeneracy(t *testing.T) {
	cases := []struct {
		name string
		p    func() *quadProb
		set  Settings
		want Degeneracy
		x    []float64 // expected solution (nil: only f* = 0 checked)
	}{
		{"duplicated row", dupRowProb, Settings{}, Degeneracy{Jacobian: true}, []float64{1.0 / 3, 4.0 / 3, -2.0 / 3}},
		{"flat null space", flatProb, Settings{Inertia: InertiaStrict}, Degeneracy{Jacobian: true, Hessian: true}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r0, err := (&Solver{Settings: c.set}).Solve(context.Background(), c.p())
			require.NoError(t, err)
			require.Equal(t, Solved, r0.Status)
			assert.Equal(t, c.want, r0.Degeneracy)
			set := c.set
			set.Degeneracy = r0.Degeneracy
			r1, err := (&Solver{Settings: set}).Solve(context.Background(), c.p())
			require.NoError(t, err)
			require.Equal(t, Solved, r1.Status)
			assert.Equal(t, c.want, r1.Degeneracy, "the state is kept")
			t.Logf("factorizations %d -> %d, iterations %d -> %d", r0.Counts.Factorizations, r1.Counts.Factorizations, r0.Iterations, r1.Iterations)
			assert.Less(t, float64(r1.Counts.Factorizations)/float64(r1.Iterations),
				float64(r0.Counts.Factorizations)/float64(r0.Iterations), "fewer factorizations per iteration")
			assert.InDelta(t, 0, r1.Objective-r0.Objective, 1e-9)
			for j, v := range c.x {
				assert.InDelta(t, v, r0.X[j], 1e-7)
				assert.InDelta(t, v, r1.X[j], 1e-7)
			}
		})
	}
}
