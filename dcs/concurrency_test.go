package dcs_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// twoSwitchModel has two switching functions, a general step and a user
// algebraic variable, so that Reformulate exercises every builder.
func twoSwitchModel() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	u := g.SymVec("u", 1)
	m := dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0], x[1].Sub(x[0])},
		F: []ad.Vec{
			{g.Const(1), u[0]}, {g.Const(-1), u[0]},
			{x[1], g.Const(2)}, {x[0].Neg(), ad.Sin(x[1])},
		},
	})
	return m
}

// TestReformulateConcurrent: goroutines reformulating one model build the
// same DCS (same sizes, same values of F and G at a point) and leave the
// model's graph unchanged (run with -race).
func TestReformulateConcurrent(t *testing.T) {
	m := twoSwitchModel()
	n0 := m.Graph.NumNodes()
	x, u, p := []float64{0.3, -0.2}, []float64{0.5}, []float64{}
	type out struct {
		dims dcs.Dims
		f, g []float64
	}
	eval := func(opt dcs.Options) (out, error) {
		d, err := m.Reformulate(opt)
		if err != nil {
			return out{}, err
		}
		z, err := d.InitialGuess(x, u, p)
		if err != nil {
			return out{}, err
		}
		f, err := d.EvalF(x, u, p, z, 0)
		if err != nil {
			return out{}, err
		}
		gv, err := d.EvalG(x, u, p, z)
		return out{d.Dims, f, gv}, err
	}
	for _, form := range formulations {
		opt := dcs.Options{Formulation: form}
		ref, err := eval(opt)
		require.NoError(t, err)
		res := make([]out, 8)
		errs := make([]error, 8)
		var wg sync.WaitGroup
		for i := range res {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res[i], errs[i] = eval(opt)
			}()
		}
		wg.Wait()
		for i := range res {
			require.NoError(t, errs[i])
			assert.Equal(t, ref, res[i], "%v, goroutine %d", form, i)
		}
	}
	assert.Equal(t, n0, m.Graph.NumNodes(), "the model's graph grew")
}

// TestReformulatePrivateGraph: the DCS lives in its own graph, its X, U
// are the copies of the model's symbols (same names), and Import
// translates other expressions of the model's graph into it.
func TestReformulatePrivateGraph(t *testing.T) {
	m := twoSwitchModel()
	d, err := m.Reformulate(dcs.Options{Formulation: dcs.Step})
	require.NoError(t, err)
	require.NotSame(t, m.Graph, d.Graph)
	for i, e := range d.X {
		assert.Equal(t, d.Graph, e.Graph())
		assert.Equal(t, m.X[i].Name(), e.Name())
	}
	assert.Equal(t, d.X, d.Model().X)
	// x₀·u as an expression of the model, imported: it uses d's symbols,
	// so it compiles against d.Args().
	e := d.ImportExpr(m.X[0].Mul(m.U[0]))
	fn, err := ad.NewFunction("e", d.Args(), []ad.Arg{ad.A("e", e)})
	require.NoError(t, err)
	z := make([]float64, d.Dims.NZ)
	v := make([]float64, 1)
	require.NoError(t, fn.Eval(nil, [][]float64{{2, 0}, {3}, {}, z, {0}}, [][]float64{v}))
	assert.Equal(t, 6.0, v[0])
	// The same symbol imported twice is the same symbol; an expression of
	// the DCS's graph passes unchanged; a foreign one is invalid and
	// recorded.
	assert.Equal(t, d.X[1], d.ImportExpr(m.X[1]))
	assert.Equal(t, d.Z[0], d.ImportExpr(d.Z[0]))
	other := ad.NewGraph().Sym("y")
	assert.False(t, d.ImportExpr(other).IsValid())
	assert.ErrorIs(t, d.Graph.Err(), ad.ErrForeignGraph)
}
