package fesd_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// sharedModel is ẋ = 3 + u for x < 0 and 1 + u for x > 0 (ψ = x), the
// crossing case of 004 Example 3 with an additive control. With u = 0 and
// x₀ = −1 it crosses at t = 1/3.
func sharedModel() (*dcs.Model, ad.Vec, ad.Vec) {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	u := g.SymVec("u", 1)
	m := dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0]},
		S:   [][]int{{1}, {-1}},
		F:   []ad.Vec{{u[0].AddConst(1)}, {u[0].AddConst(3)}},
	})
	return m, x, u
}

var sharedSim = fesd.SimOptions{TSim: 1, NSim: 2, U: []float64{0}, Options: fesd.Options{NFE: 2}}

// sharedOCP steers x from −1 to 1/2 at T = 1 with least control effort; the
// costs and constraints are expressions of the model's graph.
func sharedOCP(m *dcs.Model, x, u ad.Vec) *fesd.OCP {
	return &fesd.OCP{
		Model: m, X0: []float64{-1}, N: 2, T: 1,
		Lagrange: ad.Sq(u[0]),
		Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-0.5)}}},
	}
}

type runOut struct {
	sim *fesd.SimResult
	ocp *fesd.OCPResult
}

func runShared(t *testing.T, m *dcs.Model, x, u ad.Vec) runOut {
	ctx := context.Background()
	sim, err := fesd.Simulate(ctx, m, []float64{-1}, sharedSim)
	if err != nil {
		t.Error(err)
		return runOut{}
	}
	r, err := fesd.SolveOCP(ctx, sharedOCP(m, x, u), fesd.Options{NFE: 2}, fesd.Start{})
	if err != nil {
		t.Error(err)
		return runOut{}
	}
	return runOut{sim, r}
}

// TestConcurrentSharedModel: 8 goroutines simulating and solving an OCP on
// one *dcs.Model give the results of a sequential run, bit for bit (each
// run reformulates the model into its own graph; the model's graph is only
// read). Run it with -race.
func TestConcurrentSharedModel(t *testing.T) {
	m, x, u := sharedModel()
	ref := runShared(t, m, x, u)
	require.NotNil(t, ref.sim)
	// The crossing of ẋ = 3 at t = 1/3 (x(t) = −1 + 3t), found by the
	// switch detection of the sequential run: a sanity check of the
	// reference itself.
	require.Len(t, ref.sim.Switches, 1)
	assert.InDelta(t, 1.0/3, ref.sim.Switches[0].Time, 1e-9)

	const workers = 8
	outs := make([]runOut, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = runShared(t, m, x, u)
		}()
	}
	wg.Wait()
	for i, o := range outs {
		require.NotNil(t, o.sim, "worker %d", i)
		assert.Equal(t, ref.sim.X, o.sim.X, "worker %d: simulated states", i)
		assert.Equal(t, ref.sim.T, o.sim.T, "worker %d: simulated times", i)
		assert.Equal(t, ref.sim.Switches[0].Time, o.sim.Switches[0].Time, "worker %d: switch time", i)
		assert.Equal(t, ref.ocp.Status, o.ocp.Status, "worker %d: OCP status", i)
		assert.Equal(t, ref.ocp.X, o.ocp.X, "worker %d: OCP states", i)
		assert.Equal(t, ref.ocp.U, o.ocp.U, "worker %d: OCP controls", i)
		assert.Equal(t, ref.ocp.Objective, o.ocp.Objective, "worker %d: objective", i)
	}
}

// TestGraphSizeConstant: simulating and building OCP solvers from a model
// leave the model's graph unchanged (each Reformulate works on a private
// copy), so a parameter sweep or an MPC loop does not grow it.
func TestGraphSizeConstant(t *testing.T) {
	m, x, u := sharedModel()
	p := sharedOCP(m, x, u) // its expressions are the user's nodes
	g := m.Graph
	n0 := g.NumNodes()
	calls := 1000
	if testing.Short() {
		calls = 20
	}
	for range calls {
		_, err := fesd.Simulate(context.Background(), m, []float64{-1}, fesd.SimOptions{TSim: 0.5, NSim: 1, U: []float64{0}, Options: fesd.Options{NFE: 2}})
		require.NoError(t, err)
	}
	assert.Equal(t, n0, g.NumNodes(), "nodes after %d Simulate calls", calls)
	for range 5 {
		_, err := fesd.NewOCPSolver(p, fesd.Options{NFE: 2})
		require.NoError(t, err)
	}
	assert.Equal(t, n0, g.NumNodes(), "nodes after 5 NewOCPSolver calls")
	require.NoError(t, g.Err())
}
