package fesd

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
)

// twoSpeedModel is ẋ = u for x < 1 and ẋ = 2u for x > 1 (the speedModel
// of the package's external tests).
func twoSpeedModel() (m *dcs.Model, x, u ad.Vec) {
	g := ad.NewGraph()
	x = g.SymVec("x", 1)
	u = g.SymVec("u", 1)
	m = dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0].AddConst(-1)},
		S:   [][]int{{-1}, {1}},
		F:   []ad.Vec{{u[0]}, {u[0].Scale(2)}},
	})
	return m, x, u
}

// TestDiagnosisUnconfirmed runs the infeasibility diagnosis on OCPs of
// ẋ = u (x < 1), ẋ = 2u (x > 1), |u| ≤ 1, x₀ = 0, T = 2, whose terminal
// state reaches at most x(2) = 3 (closed form): with x(T) = 2 the phase-1
// MPCC meets every group, so a homotopy that had ended Infeasible would not
// be confirmed (Unconfirmed, no group, the phase-1 point's residuals
// within the tolerances, and that point as OCPResult.Feasible with x(T) =
// 2); with x(T) = 5 it names the terminal group, 2 out of reach, and there
// is no Feasible.
func TestDiagnosisUnconfirmed(t *testing.T) {
	for _, c := range []struct {
		target      float64
		unconfirmed bool
	}{{2, true}, {5, false}} {
		m, x, _ := twoSpeedModel()
		p := &OCP{
			Model: m, X0: []float64{0}, N: 4, T: 2, NFE: []int{2},
			UL: []float64{-1}, UU: []float64{1},
			Lagrange: ad.Sq(x[0]),
			Terminal: []Constraint{{G: ad.Vec{x[0].AddConst(-c.target)}}},
		}
		s, err := NewOCPSolver(p, Options{})
		require.NoError(t, err)
		w0, xl, xu, zb0, err := s.start(Start{})
		require.NoError(t, err)
		require.NoError(t, s.setup(w0, xl, xu))
		inf, err := s.diagnoseInfeasible(context.Background(), w0, w0, 0, 1)
		require.NoError(t, err)
		t.Logf("x(T) = %g: %v", c.target, inf)
		assert.Equal(t, c.unconfirmed, inf.Unconfirmed, "x(T) = %g", c.target)
		// the same through the result: a failed homotopy that ended at w0
		r := &OCPResult{Status: mpcc.Infeasible}
		require.NoError(t, s.diagnose(context.Background(), r, nil, w0, &mpcc.Result{X: w0, Sigma: 1}, zb0))
		if c.unconfirmed {
			assert.Equal(t, mpcc.NLPFailure, r.Status)
			require.NotNil(t, r.Feasible, "the phase-1 point as a result")
			assert.Equal(t, mpcc.NotSolved, r.Feasible.Status)
			assert.InDelta(t, 2, r.Feasible.Final()[0], 1e-6, "x(T) = 2 holds at the phase-1 point")
			assert.Less(t, r.Feasible.Infeasibility, 1e-6)
			assert.Less(t, r.Feasible.CompResidual, 1e-6)
		} else {
			assert.Equal(t, mpcc.Infeasible, r.Status)
			assert.Nil(t, r.Feasible)
		}
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

// TestDiagnosisContradicted checks that a phase-1 claim contradicted by
// the homotopy's point is not confirmed, on the model of
// TestDiagnosisUnconfirmed with the terminal row f(x(T)) ≤ b, f(x) =
// (x² − 1)² + x/5. f has a local minimum near x = 1 with f ≈ 0.2 and the
// global one near x = −1 with f ≈ −0.2, both reachable (x(2) ∈ [−2, 3]).
// With b = 0, from states started at 0.5 the phase-1 MPCC runs into the
// local minimum and claims the terminal row violated by about 0.2 (checked
// first); a solution of the OCP, which meets every row, contradicts the
// claim, so the diagnosis is Unconfirmed with that point's residuals. With
// b = −1, out of reach, the phase-1 claims 1 + f ≈ 1.2 at the same local
// minimum (the global distance is 1 + min f ≈ 0.8: a claim is local), that
// point violates the terminal row by more than a hundredth of it, and the
// claim stands.
func TestDiagnosisContradicted(t *testing.T) {
	build := func(bound float64) (*OCPSolver, []float64) {
		m, x, u := twoSpeedModel()
		sq := x[0].Mul(x[0]).AddConst(-1)
		f := sq.Mul(sq).Add(x[0].Scale(0.2))
		p := &OCP{
			Model: m, X0: []float64{0}, N: 4, T: 2, NFE: []int{2},
			UL: []float64{-1}, UU: []float64{1},
			Lagrange: ad.Sq(u[0]),
			Terminal: []Constraint{{G: ad.Vec{f}, L: []float64{math.Inf(-1)}, U: []float64{bound}}},
		}
		s, err := NewOCPSolver(p, Options{})
		require.NoError(t, err)
		w0, xl, xu, _, err := s.start(Start{XInit: [][]float64{{0.5}}})
		require.NoError(t, err)
		require.NoError(t, s.setup(w0, xl, xu))
		return s, w0
	}
	ctx := context.Background()

	s, _ := build(0)
	sol, err := s.Solve(ctx, Start{XInit: [][]float64{{-1}}, UInit: [][]float64{{-0.5}}})
	require.NoError(t, err)
	require.True(t, sol.Status.Success(), "%v", sol.Status)
	require.Less(t, sol.Final()[0], 0.0, "the solution lies in the feasible set around x = −1")
	w := sol.NLPSolution()

	s, w0 := build(0)
	var soft []int
	for i, g := range s.tr.cgroup {
		if g != GroupDynamics {
			soft = append(soft, i)
		}
	}
	first, infeasible, err := s.phase1(ctx, soft, w0, 1)
	require.NoError(t, err)
	require.False(t, infeasible)
	require.NotEmpty(t, first.Groups, "the phase-1 from 0.5 should end in the local minimum near x = 1")
	assert.Equal(t, GroupTerminal, first.Groups[0].Group)
	assert.InDelta(t, 0.2, first.Groups[0].Max, 0.05, "f at its local minimum near x = 1")

	inf, err := s.diagnoseInfeasible(ctx, w0, w, sol.CompResidual, 1)
	require.NoError(t, err)
	t.Logf("b = 0: %v", inf)
	assert.True(t, inf.Unconfirmed, "%v", inf)
	assert.True(t, inf.FromHomotopy)
	assert.Empty(t, inf.Groups)
	assert.Equal(t, first.Groups[0].Max, inf.Claim)
	assert.Equal(t, first.Iterations, inf.Iterations)
	assert.Less(t, inf.Violation, 1e-6)
	assert.Contains(t, inf.String(), "homotopy's last point")

	s, w0 = build(-1)
	inf, err = s.diagnoseInfeasible(ctx, w0, w, sol.CompResidual, 1)
	require.NoError(t, err)
	t.Logf("b = −1: %v", inf)
	require.NotEmpty(t, inf.Groups)
	assert.Equal(t, GroupTerminal, inf.Groups[0].Group)
	assert.InDelta(t, 1.2, inf.Groups[0].Max, 0.05, "1 + f at the local minimum: the claim is a local one (1 + min f ≈ 0.8)")
	assert.False(t, inf.Unconfirmed)
}
