package fesd

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
)

// TestDiagnosisUnconfirmed runs the infeasibility diagnosis on OCPs of
// ẋ = u (x < 1), ẋ = 2u (x > 1), |u| ≤ 1, x₀ = 0, T = 2, whose terminal
// state reaches at most x(2) = 3 (closed form): with x(T) = 2 the phase-1
// MPCC meets every group, so a homotopy that had ended Infeasible would not
// be confirmed (Unconfirmed, no group, the phase-1 point's residuals
// within the tolerances); with x(T) = 5 it names the terminal group, 2 out
// of reach.
func TestDiagnosisUnconfirmed(t *testing.T) {
	for _, c := range []struct {
		target      float64
		unconfirmed bool
	}{{2, true}, {5, false}} {
		g := ad.NewGraph()
		x := g.SymVec("x", 1)
		u := g.SymVec("u", 1)
		m := dcs.NewModel(g, x, u, nil)
		m.AddSubsystem(dcs.Subsystem{
			Psi: ad.Vec{x[0].AddConst(-1)},
			S:   [][]int{{-1}, {1}},
			F:   []ad.Vec{{u[0]}, {u[0].Scale(2)}},
		})
		p := &OCP{
			Model: m, X0: []float64{0}, N: 4, T: 2, NFE: []int{2},
			UL: []float64{-1}, UU: []float64{1},
			Lagrange: ad.Sq(x[0]),
			Terminal: []Constraint{{G: ad.Vec{x[0].AddConst(-c.target)}}},
		}
		s, err := NewOCPSolver(p, Options{})
		require.NoError(t, err)
		w0, xl, xu, _, err := s.start(Start{})
		require.NoError(t, err)
		require.NoError(t, s.setup(w0, xl, xu))
		inf, err := s.diagnoseInfeasible(context.Background(), w0, w0, 1)
		require.NoError(t, err)
		t.Logf("x(T) = %g: %v", c.target, inf)
		assert.Equal(t, c.unconfirmed, inf.Unconfirmed, "x(T) = %g", c.target)
		if c.unconfirmed {
			assert.Empty(t, inf.Groups)
			assert.Equal(t, mpcc.Solved, inf.Status)
			assert.Less(t, inf.Violation, 1e-6)
			assert.Contains(t, inf.String(), "not confirmed")
			continue
		}
		require.NotEmpty(t, inf.Groups)
		assert.Equal(t, GroupTerminal, inf.Groups[0].Group)
		assert.InDelta(t, 2, inf.Groups[0].Max, 1e-3, "5 − max x(T) = 5 − 3")
	}
}
