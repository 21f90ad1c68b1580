package nlp

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// linearBound is min c·x with one variable bound b active at the optimum:
// c = −1 with 0 ≤ x ≤ b, or c = +1 with b ≤ x ≤ 0 (b < 0). With asRow the
// bound is the inequality constraint g(x) = x ≤ b (or ≥ b) on a free x, so
// that it is the slack of the constraint that reaches its bound.
func linearBound(b float64, asRow bool) *quadProb {
	c, lo, up := -1.0, 0.0, b
	if b < 0 {
		c, lo, up = 1, b, 0
	}
	p := &quadProb{
		n: 1, x0: []float64{0},
		xL: []float64{lo}, xU: []float64{up},
		f:  func(x []float64) float64 { return c * x[0] },
		df: func(x, g []float64) { g[0] = c },
		c:  func(x, g []float64) {},
		jv: func(x, v []float64) {},
		hv: func(x []float64, s float64, l, v []float64) {},
	}
	if asRow {
		p.m = 1
		p.xL, p.xU = []float64{-inf}, []float64{inf}
		p.gL, p.gU = []float64{lo}, []float64{up}
		p.c = func(x, g []float64) { g[0] = x[0] }
		p.jr, p.jc = []int{0}, []int{0}
		p.jv = func(x, v []float64) { v[0] = 1 }
	}
	return p
}

// TestSlackMoveHugeBounds: a bound of magnitude 1e9…1e15 active at the
// solution (1e11 for a constraint row). The doubles near b are ε·|b| = 2.2e-7…0.22 apart, more than the
// barrier's slack μ/z at μ ≤ 2.5e-9, so a step rounds onto the bound; before
// the slack move (updateSlacks, IPOPT's slack_move) the slack became 0 and
// every case ended IterationLimit at 3000 iterations. The optimum x* = b is
// exact (a linear objective with its bound active), so x is checked to
// relative 1e-8 as issue 44 asks (it ends within the bound relaxation,
// at most ConstrViolTol = 1e-4, of b: relative 1e-13 at b = 1e9).
func TestSlackMoveHugeBounds(t *testing.T) {
	for _, c := range []struct {
		b     float64
		asRow bool
		relax bool
	}{
		{1e9, false, true}, {1e13, false, true}, {-1e13, false, true}, {-1e9, false, true}, {1e15, false, true},
		{1e9, false, false}, {1e13, false, false}, {-1e13, false, false},
		// The bound as a constraint row: its slack reaches the bound. (At
		// |b| ≥ 1e12 the free x is taken for a ray by the divergence test,
		// rayTol = 1e12, and the solve ends Diverging.)
		{1e11, true, true}, {-1e11, true, true}, {1e11, true, false},
	} {
		t.Run(fmt.Sprintf("b=%g,row=%v,relax=%v", c.b, c.asRow, c.relax), func(t *testing.T) {
			res, err := (&Solver{Settings: Settings{NoBoundRelax: !c.relax}}).Solve(context.Background(), linearBound(c.b, c.asRow))
			require.NoError(t, err)
			assert.Equal(t, Solved, res.Status)
			assert.Positive(t, res.Counts.SlackMoves, "the slack move was not needed")
			assert.InDelta(t, c.b, res.X[0], 1e-8*math.Abs(c.b), "x* = b (closed form)")
			// Solved means within ConstrViolTol (default 1e-4) of the
			// original bounds, up to the rounding allowance of
			// boundViolation (4ε·|b| = 8.9e-7 at |b| = 1e9, 0.89 at 1e15).
			assert.LessOrEqual(t, res.PrimalInfeasibility, 1e-4+4*epsMach*math.Abs(c.b))
		})
	}
}

// TestSlackMoveNotOnModerateBounds: the same problems with |b| ≤ 1e6 never
// need the slack move (ε·|b| ≤ 2.2e-10 stays below μ until convergence), so
// their iterates are those of the solver without it.
func TestSlackMoveNotOnModerateBounds(t *testing.T) {
	for _, b := range []float64{1, 1e3, 1e6, -1e6} {
		res, err := (&Solver{}).Solve(context.Background(), linearBound(b, false))
		require.NoError(t, err)
		assert.Equal(t, Solved, res.Status, "b = %g", b)
		assert.Zero(t, res.Counts.SlackMoves, "b = %g", b)
		// x* = b (closed form); the relaxed bound is 1e-8·max(1, |b|)
		// out, so x ends within that of b.
		assert.InDelta(t, b, res.X[0], 1e-8*math.Max(1, math.Abs(b))+1e-12, "b = %g", b)
	}
}
