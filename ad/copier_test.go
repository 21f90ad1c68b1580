package ad

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCopierIncremental: copying in several calls shares nodes and
// symbols as one call does, brings recorded solves along once, and gives
// functions with the values of the original (privateModel's y at a point).
func TestCopierIncremental(t *testing.T) {
	g, x, p, y := privateModel(t)
	c := NewCopier(g)
	x2 := c.Vec(x)
	y0 := c.Expr(y[0])
	y2 := c.Vec(y)
	p2 := c.Vec(p)
	require.NoError(t, c.Graph().Err())
	assert.Equal(t, y0, y2[0], "a node copied twice is one node")
	assert.Equal(t, x2, c.Vec(x), "a symbol copied twice is one symbol")
	assert.Equal(t, y2, c.Vec(y2), "expressions of the copy pass unchanged")
	assert.Len(t, c.Graph().solves, 1, "the solve is recorded once")
	n := c.Graph().NumNodes()
	_ = c.Vec(y)
	assert.Equal(t, n, c.Graph().NumNodes(), "copying again adds nothing")

	in := func(x, p Vec) []Arg { return []Arg{A("x", x...), A("p", p...)} }
	f1, err := NewFunction("y", in(x, p), []Arg{A("y", y...)})
	require.NoError(t, err)
	f2, err := NewFunction("y", in(x2, p2), []Arg{A("y", y2...)})
	require.NoError(t, err)
	args := [][]float64{{0.3, -0.7, 1.1}, {0.4}}
	v1, v2 := make([]float64, len(y)), make([]float64, len(y))
	require.NoError(t, f1.Eval(nil, args, [][]float64{v1}))
	require.NoError(t, f2.Eval(nil, args, [][]float64{v2}))
	assert.Equal(t, v1, v2, "the copy computes the same values, bit for bit")

	// Zero Exprs stay zero; invalid and foreign expressions become invalid
	// and record ErrForeignGraph in the copy.
	assert.Equal(t, Expr{}, c.Expr(Expr{}))
	assert.False(t, c.Expr(Expr{g, 0}).IsValid())
	require.NoError(t, c.Graph().Err())
	assert.False(t, c.Expr(NewGraph().Sym("z")).IsValid())
	assert.ErrorIs(t, c.Graph().Err(), ErrForeignGraph)
}

// TestConcurrentGraphReads: compiling from one graph and copying it in 8
// goroutines at once neither changes the graph nor races (run with
// -race); every goroutine gets the values of a sequential run.
func TestConcurrentGraphReads(t *testing.T) {
	g, x, p, y := privateModel(t)
	n0 := g.NumNodes()
	args := [][]float64{{0.3, -0.7, 1.1}, {0.4}}
	run := func() ([]float64, error) {
		f, err := NewFunction("y", []Arg{A("x", x...), A("p", p...)}, []Arg{A("y", y...)})
		if err != nil {
			return nil, err
		}
		if _, err := CopyArgs([]Arg{A("x", x...), A("p", p...)}, []Arg{A("y", y...)}); err != nil {
			return nil, err
		}
		if _, err := NewDerivatives("y", []Arg{A("x", x...), A("p", p...)}, []Arg{A("y", y...)}, "x"); err != nil {
			return nil, err
		}
		v := make([]float64, len(y))
		return v, f.Eval(f.NewWorkspace(), args, [][]float64{v})
	}
	ref, err := run()
	require.NoError(t, err)
	res := make([][]float64, 8)
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], errs[i] = run()
		}()
	}
	wg.Wait()
	for i := range res {
		require.NoError(t, errs[i])
		assert.Equal(t, ref, res[i])
	}
	assert.Equal(t, n0, g.NumNodes())
}
