package nlp

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failingProb is a quadratic min (x−2)² whose Objective fails from its
// failAt-th call on (counting from 1), with errFail.
type failingProb struct {
	*quadProb
	calls, failAt int
}

var errFail = errors.New("objective unavailable")

func (p *failingProb) Objective(x []float64) (float64, error) {
	p.calls++
	if p.calls >= p.failAt {
		return 0, errFail
	}
	return p.quadProb.Objective(x)
}

func shiftedQuad() *quadProb {
	return &quadProb{
		n: 1, m: 0,
		xL: []float64{-inf}, xU: []float64{inf},
		x0: []float64{0},
		f:  func(x []float64) float64 { return (x[0] - 2) * (x[0] - 2) },
		df: func(x, g []float64) { g[0] = 2 * (x[0] - 2) },
		c:  func(x, c []float64) {},
		jv: func(x, v []float64) {},
		hr: []int{0}, hc: []int{0},
		hv: func(x []float64, s float64, l, v []float64) { v[0] = 2 * s },
	}
}

func TestMisuseNilProblem(t *testing.T) {
	ctx := context.Background()
	assert.NotPanics(t, func() {
		_, err := (&Solver{}).Solve(ctx, nil)
		require.ErrorIs(t, err, ErrNilProblem)
		_, err = (&Solver{}).SolveIn(ctx, &Workspace{}, nil)
		require.ErrorIs(t, err, ErrNilProblem)
	})
}

// TestCallbackError: a callback error ends the solve with status UserStop,
// the result at the last accepted point, and an error wrapping both
// ErrCallback and the callback's own error (the rule of the package doc).
func TestCallbackError(t *testing.T) {
	for _, failAt := range []int{1, 2} {
		p := &failingProb{quadProb: shiftedQuad(), failAt: failAt}
		res, err := (&Solver{}).Solve(context.Background(), p)
		require.ErrorIs(t, err, ErrCallback, "failAt %d", failAt)
		require.ErrorIs(t, err, errFail, "failAt %d", failAt)
		require.NotNil(t, res)
		assert.Equal(t, UserStop, res.Status)
		require.Len(t, res.X, 1)
		if failAt > 1 {
			// The objective was evaluated at the returned point: f(X)
			// in closed form.
			assert.InDelta(t, (res.X[0]-2)*(res.X[0]-2), res.Objective, 1e-12)
		} else {
			assert.True(t, math.IsNaN(res.Objective), "objective %g never evaluated", res.Objective)
		}
	}
}

// fixedViolated fixes x = 1 (x_L = x_U) with the constraint x ≥ 2.
func fixedViolated() *quadProb {
	return &quadProb{
		n: 1, m: 1,
		xL: []float64{1}, xU: []float64{1},
		gL: []float64{2}, gU: []float64{2},
		x0: []float64{1},
		f:  func(x []float64) float64 { return x[0] * x[0] },
		df: func(x, g []float64) { g[0] = 2 * x[0] },
		c:  func(x, c []float64) { c[0] = x[0] },
		jr: []int{0}, jc: []int{0},
		jv: func(x, v []float64) { v[0] = 1 },
		hr: []int{0}, hc: []int{0},
		hv: func(x []float64, s float64, l, v []float64) { v[0] = 2 * s },
	}
}

// TestAllFixedInfeasible: with every variable fixed and a violated
// constraint no step can help; the solve says Infeasible at once (before
// the fix it iterated into NumericalError).
func TestAllFixedInfeasible(t *testing.T) {
	for name, p := range map[string]*quadProb{
		"equality x = 2":   fixedViolated(),
		"inequality x ≥ 2": func() *quadProb { q := fixedViolated(); q.gU = []float64{inf}; return q }(),
	} {
		res, err := (&Solver{}).Solve(context.Background(), p)
		require.NoError(t, err, name)
		assert.Equal(t, Infeasible, res.Status, name)
		// x stays at its fixed value 1; g(x) = x = 1 misses g_L = 2 by 1.
		assert.InDelta(t, 1, res.X[0], 1e-15, name)
		assert.InDelta(t, 1, res.PrimalInfeasibility, 1e-12, name)
	}
	// A satisfied constraint with every variable fixed still solves.
	q := fixedViolated()
	q.gL, q.gU = []float64{0}, []float64{2}
	res, err := (&Solver{}).Solve(context.Background(), q)
	require.NoError(t, err)
	assert.True(t, res.Status.Success(), "status %v", res.Status)
}

// minusX is min −x subject to x ≥ 0: unbounded below along x → ∞.
func minusX() *quadProb {
	return &quadProb{
		n: 1, m: 0,
		xL: []float64{0}, xU: []float64{inf},
		x0: []float64{1},
		f:  func(x []float64) float64 { return -x[0] },
		df: func(x, g []float64) { g[0] = -1 },
		c:  func(x, c []float64) {},
		jv: func(x, v []float64) {},
		hv: func(x []float64, s float64, l, v []float64) {},
	}
}

// TestUnboundedBounded: min −x, x ≥ 0 ends Diverging well before the
// iteration limit (it ran 3000 iterations into IterationLimit, x = 1.3e16,
// because the step is held near 1/δ_w once the barrier curvature falls
// below the zero-pivot threshold).
func TestUnboundedBounded(t *testing.T) {
	res, err := (&Solver{}).Solve(context.Background(), minusX())
	require.NoError(t, err)
	assert.Equal(t, Diverging, res.Status, "after %d iterations, x = %v", res.Iterations, res.X)
	assert.Less(t, res.Iterations, 100)
	assert.Greater(t, res.X[0], 1e12)
	t.Logf("%v after %d iterations, x = %g", res.Status, res.Iterations, res.X[0])
}

// TestLargeSolutionNotDiverging: problems whose solution lies far out
// (x* = 1e13, closed form) are solved, not mistaken for divergence.
func TestLargeSolutionNotDiverging(t *testing.T) {
	far := shiftedQuad()
	far.f = func(x []float64) float64 { return (x[0] - 1e13) * (x[0] - 1e13) }
	far.df = func(x, g []float64) { g[0] = 2 * (x[0] - 1e13) }
	far.xL = []float64{0}
	flat := minusX() // −x + x²/(2e13): curvature 1e-13, at the zero-pivot threshold
	flat.f = func(x []float64) float64 { return -x[0] + x[0]*x[0]/2e13 }
	flat.df = func(x, g []float64) { g[0] = -1 + x[0]/1e13 }
	flat.hr, flat.hc = []int{0}, []int{0}
	flat.hv = func(x []float64, s float64, l, v []float64) { v[0] = s / 1e13 }
	for name, p := range map[string]*quadProb{"min (x−1e13)², x ≥ 0": far, "min −x + x²/2e13, x ≥ 0": flat} {
		res, err := (&Solver{}).Solve(context.Background(), p)
		require.NoError(t, err, name)
		assert.True(t, res.Status.Success(), "%s: %v after %d iterations, x = %v", name, res.Status, res.Iterations, res.X)
		assert.InDelta(t, 1e13, res.X[0], 1e13*1e-6, name)
	}
}

// spoiledProb is min (x₁−2)² + (x₂−1)² with 0 ≤ x ≤ 10 that breaks down
// at the spoilAt-th call of Gradient: from then on the gradient is
// shifted by +1 (the iterate is no longer acceptable) and the objective
// is NaN (no trial point is accepted).
type spoiledProb struct {
	*quadProb
	calls, spoilAt int
}

func (p *spoiledProb) Objective(x []float64) (float64, error) {
	if p.calls >= p.spoilAt {
		return math.NaN(), nil
	}
	return p.quadProb.Objective(x)
}

func (p *spoiledProb) Gradient(x, g []float64) error {
	p.calls++
	p.quadProb.Gradient(x, g)
	if p.calls >= p.spoilAt {
		g[0]++
	}
	return nil
}

// TestNumericalErrorKeepsBestIterate: a solve that fails numerically after
// the iterates met the acceptable tolerances returns SolvedAcceptable at
// the best of those iterates (closed form: x* = (2, 1), f* = 0), with the
// objective and the dual infeasibility of that point, not the failure's.
func TestNumericalErrorKeepsBestIterate(t *testing.T) {
	quad := func() *quadProb {
		return &quadProb{
			n: 2, m: 0,
			xL: []float64{0, 0}, xU: []float64{10, 10},
			x0: []float64{9, 9},
			f:  func(x []float64) float64 { return (x[0]-2)*(x[0]-2) + (x[1]-1)*(x[1]-1) },
			df: func(x, g []float64) { g[0], g[1] = 2*(x[0]-2), 2*(x[1]-1) },
			c:  func(x, c []float64) {},
			jv: func(x, v []float64) {},
			hr: []int{0, 1}, hc: []int{0, 1},
			hv: func(x []float64, s float64, l, v []float64) { v[0], v[1] = 2*s, 2*s },
		}
	}
	// Unreachable tolerances keep the solve going after the point is
	// acceptable (AcceptableTol 1e-6); the problem breaks down once
	// the unspoiled solve's last gradient.
	set := Settings{Tol: 1e-30, DualInfTol: 1e-30, ComplInfTol: 1e-30, AcceptableIter: -1, MaxIter: 60}
	ref := &spoiledProb{quadProb: quad(), spoilAt: math.MaxInt}
	r0, err := (&Solver{Settings: set}).Solve(context.Background(), ref)
	require.NoError(t, err)
	require.Greater(t, ref.calls, 10)
	p := &spoiledProb{quadProb: quad(), spoilAt: ref.calls - 1}
	res, err := (&Solver{Settings: set}).Solve(context.Background(), p)
	require.NoError(t, err)
	t.Logf("unspoiled: %v after %d iterations, %d gradient calls; spoiled at call %d: %v after %d iterations, x = %v",
		r0.Status, r0.Iterations, ref.calls, p.spoilAt, res.Status, res.Iterations, res.X)
	assert.Equal(t, SolvedAcceptable, res.Status)
	assert.InDelta(t, 2, res.X[0], 1e-3)
	assert.InDelta(t, 1, res.X[1], 1e-3)
	assert.InDelta(t, (res.X[0]-2)*(res.X[0]-2)+(res.X[1]-1)*(res.X[1]-1), res.Objective, 1e-15)
	assert.Less(t, res.DualInfeasibility, 1e-6)
}
