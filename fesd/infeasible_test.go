package fesd_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// speedModel is ẋ = u for x < 1 and ẋ = 2u for x > 1.
func speedModel() (*dcs.Model, ad.Vec) {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	u := g.SymVec("u", 1)
	m := dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0].AddConst(-1)},
		S:   [][]int{{-1}, {1}},
		F:   []ad.Vec{{u[0]}, {u[0].Scale(2)}},
	})
	return m, x
}

// unreachableOCP is TestInfeasibleTerminal's OCP: x(2) = 5 from x₀ = 0
// with |u| ≤ 1 on speedModel.
func unreachableOCP() *fesd.OCP {
	m, x := speedModel()
	return &fesd.OCP{
		Model: m, X0: []float64{0}, N: 4, T: 2, NFE: []int{2},
		UL: []float64{-1}, UU: []float64{1},
		Lagrange: ad.Sq(x[0]),
		Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-5)}}},
	}
}

// TestInfeasibleTerminal: from x₀ = 0 with |u| ≤ 1 the state reaches at
// most x(2) = 1 + 2·1 = 3 (x = 1 at t = 1, then ẋ = 2), so x(T) = 5 is
// out of reach by 2 (closed form). The OCP ends mpcc.Infeasible and the
// diagnosis names the terminal constraint, its stage and the distance.
func TestInfeasibleTerminal(t *testing.T) {
	p := unreachableOCP()
	r, err := fesd.SolveOCP(context.Background(), p, fesd.Options{}, fesd.Start{})
	require.NoError(t, err)
	require.Equal(t, mpcc.Infeasible, r.Status)
	require.NotNil(t, r.Infeasible)
	require.NotEmpty(t, r.Infeasible.Groups)
	g := r.Infeasible.Groups[0]
	assert.Equal(t, fesd.GroupTerminal, g.Group)
	assert.Equal(t, 3, g.Stage)
	assert.Equal(t, 0, g.Row)
	assert.InDelta(t, 2, g.Max, 1e-3, "5 − max x(T) = 5 − 3")
	assert.Len(t, r.Infeasible.Groups, 1, "only the terminal group is violated")
	assert.Contains(t, r.Infeasible.String(), "terminal constraints violated by 2")
}

// cutShort is unreachableOCP without its terminal constraint (a feasible
// OCP) with settings that stop its homotopy after one relaxed NLP, without
// the active-set finish: every run ends mpcc.MaxSteps.
func cutShort() (*fesd.OCP, fesd.Options) {
	p := unreachableOCP()
	p.Terminal = nil
	return p, fesd.Options{MPCC: mpcc.Settings{MaxSteps: 1, Finish: mpcc.NoCertificate}}
}

// TestRerun: a homotopy that fails with the default inner solver is run a
// second time from the same start (OCPResult.Rerun), and both runs count in
// Iterations; with the user's own NLP settings it is not, nor when the
// first run ends with a confirmed infeasibility.
func TestRerun(t *testing.T) {
	p, o := cutShort()
	r, err := fesd.SolveOCP(context.Background(), p, o, fesd.Start{})
	require.NoError(t, err)
	require.Equal(t, mpcc.MaxSteps, r.Status)
	require.NotNil(t, r.Rerun)
	assert.Equal(t, mpcc.MaxSteps, r.Rerun.Status, "the first run")
	assert.Greater(t, r.Rerun.Iterations, 0)
	own := 0
	for _, st := range r.Homotopy {
		own += st.Iterations
	}
	assert.Equal(t, r.Iterations, own+r.Rerun.Iterations, "both runs count")
	// the first run's end point is kept
	f := r.Rerun.Result
	require.NotNil(t, f)
	assert.Equal(t, r.Rerun.Status, f.Status)
	assert.Equal(t, r.Rerun.Iterations, f.Iterations)
	require.Len(t, f.Homotopy, 1)
	assert.Equal(t, f.Homotopy[0].Sigma, r.Homotopy[0].Sigma, "the same homotopy step")
	require.Len(t, f.Final(), len(p.X0))

	// A primal-dual start (OCPSolver.Shift) starts both runs.
	s, err := fesd.NewOCPSolver(p, o)
	require.NoError(t, err)
	r0, err := s.Solve(context.Background(), fesd.Start{})
	require.NoError(t, err)
	st, err := s.Shift(r0)
	require.NoError(t, err)
	rw, err := s.Solve(context.Background(), st)
	require.NoError(t, err)
	assert.Equal(t, mpcc.MaxSteps, rw.Status)
	assert.NotNil(t, rw.Rerun)

	set := mpcc.DefaultNLPSettings()
	o.MPCC.NLP = &set
	r, err = fesd.SolveOCP(context.Background(), p, o, fesd.Start{})
	require.NoError(t, err)
	require.Equal(t, mpcc.MaxSteps, r.Status)
	assert.Nil(t, r.Rerun, "the user's NLP settings: one run")

	// An unreachable target: the first run ends Infeasible, the
	// diagnosis confirms it, and the same homotopy is not run again.
	r, err = fesd.SolveOCP(context.Background(), unreachableOCP(), fesd.Options{}, fesd.Start{})
	require.NoError(t, err)
	require.Equal(t, mpcc.Infeasible, r.Status)
	require.NotNil(t, r.Infeasible)
	assert.False(t, r.Infeasible.Unconfirmed)
	assert.Nil(t, r.Rerun, "a confirmed infeasibility: one run")
}

// cancelOnLine cancels a context when the nth log line (1 if n is 0)
// that starts with prefix and contains text is written.
type cancelOnLine struct {
	cancel       context.CancelFunc
	prefix, text string
	n, seen      int
}

func (w *cancelOnLine) Write(b []byte) (int, error) {
	if l := string(b); strings.HasPrefix(l, w.prefix) && strings.Contains(l, w.text) {
		if w.seen++; w.seen == max(1, w.n) {
			w.cancel()
		}
	}
	return len(b), nil
}

// TestRerunCancelled: a context that ends during the second homotopy
// leaves the first run's point, with status Cancelled and an error
// wrapping context.Canceled (the package's cancellation rule).
func TestRerunCancelled(t *testing.T) {
	p, o := cutShort()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// cancelled at the second homotopy's log header ("mpcc: … relaxation")
	w := &cancelOnLine{cancel: cancel, prefix: "mpcc: ", text: "relaxation", n: 2}
	o.MPCC.Log = w
	r, err := fesd.SolveOCP(ctx, p, o, fesd.Start{})
	require.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, r)
	assert.Equal(t, mpcc.Cancelled, r.Status)
	require.NotNil(t, r.Rerun)
	assert.Equal(t, mpcc.Cancelled, r.Rerun.Status)
	// The first run alone: the OCP default's inner settings given
	// explicitly (no second run then).
	set := mpcc.DefaultNLPSettings()
	set.Inertia = nlp.InertiaStrict
	o.MPCC.Log = nil
	o.MPCC.NLP = &set
	r1, err := fesd.SolveOCP(context.Background(), p, o, fesd.Start{})
	require.NoError(t, err)
	require.Nil(t, r1.Rerun)
	assert.Equal(t, r1.X, r.X, "the first run's trajectory")
}

// TestInfeasibleDynamics: a lower state bound x ≥ 1 at every stage end
// cannot hold at t = 0.5 (x ≤ 0.5 there), whatever the other constraints:
// the diagnosis names the dynamics under the bounds.
func TestInfeasibleDynamics(t *testing.T) {
	m, _ := speedModel()
	p := &fesd.OCP{
		Model: m, X0: []float64{0}, N: 4, T: 2, NFE: []int{2},
		UL: []float64{-1}, UU: []float64{1},
		XL: []float64{1}, XU: []float64{math.Inf(1)},
		Terminal: []fesd.Constraint{{G: ad.Vec{m.X[0].AddConst(-2)}}},
	}
	r, err := fesd.SolveOCP(context.Background(), p, fesd.Options{}, fesd.Start{})
	require.NoError(t, err)
	require.Equal(t, mpcc.Infeasible, r.Status)
	require.NotNil(t, r.Infeasible)
	assert.Equal(t, fesd.GroupDynamics, r.Infeasible.Groups[0].Group)
}

// TestGroupViolationString: the diagnosis names the row and stage of the
// largest violation where there is one, and neither for the dynamics
// (diagnosed as a whole, Row = Stage = −1).
func TestGroupViolationString(t *testing.T) {
	for _, c := range []struct {
		v    fesd.GroupViolation
		want string
	}{
		{fesd.GroupViolation{Group: fesd.GroupDynamics, Max: 1.02e-5, Stage: -1, Row: -1}, "dynamics constraints violated by 1.02e-05"},
		{fesd.GroupViolation{Group: fesd.GroupTerminal, Max: 1000, Stage: -1, Row: 0}, "terminal constraints violated by 1e+03 (row 0)"},
		{fesd.GroupViolation{Group: fesd.GroupStageEnd, Max: 0.00857, Stage: 28, Row: 28}, "stage-end constraints violated by 0.00857 (row 28, stage 28)"},
	} {
		if got := c.v.String(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}

// TestInfeasibleDiagnosisCancelled: a context that ends after the
// homotopy ended Infeasible, before its diagnosis, leaves the homotopy's
// result (status Infeasible, no diagnosis, no second run) with an error
// wrapping context.Canceled.
func TestInfeasibleDiagnosisCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &cancelOnLine{cancel: cancel, prefix: "mpcc: Infeasible after"}
	r, err := fesd.SolveOCP(ctx, unreachableOCP(), fesd.Options{MPCC: mpcc.Settings{Log: w}}, fesd.Start{})
	require.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, r)
	assert.Equal(t, mpcc.Infeasible, r.Status)
	assert.Nil(t, r.Infeasible)
	assert.Nil(t, r.Rerun)
	require.Len(t, r.Final(), 1)
	assert.Greater(t, r.Infeasibility, 1e-2, "no point meets an unreachable target: the homotopy's violates some row")
}
