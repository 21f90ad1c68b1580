package ad_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
)

// TestMisuse calls the exported API with bad input: each case must return
// its documented error (errors.Is) and must not panic.
func TestMisuse(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	y := x[0].Mul(x[1])
	other := ad.NewGraph().Sym("z")
	fn, err := ad.NewFunction("f", []ad.Arg{ad.A("x", x...)}, []ad.Arg{ad.A("y", y)})
	require.NoError(t, err)
	sc, err := ad.NewScatter(1, [][]int{{0}})
	require.NoError(t, err)

	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"NewFunction free symbol", func() error {
			f, err := ad.NewFunction("f", []ad.Arg{ad.A("x", x[0])}, []ad.Arg{ad.A("y", y)})
			assert.Nil(t, f, "a failed NewFunction returns no function")
			return err
		}, ad.ErrFreeSymbol},
		{"NewFunction input not a symbol", func() error {
			_, err := ad.NewFunction("f", []ad.Arg{ad.A("x", y)}, []ad.Arg{ad.A("y", y)})
			return err
		}, ad.ErrNotSymbol},
		{"NewFunction repeated input", func() error {
			_, err := ad.NewFunction("f", []ad.Arg{ad.A("x", x[0], x[0])}, nil)
			return err
		}, ad.ErrDuplicateSymbol},
		{"NewFunction empty name", func() error {
			_, err := ad.NewFunction("f", []ad.Arg{ad.A("", x...)}, nil)
			return err
		}, ad.ErrBadName},
		{"NewFunction foreign graph", func() error {
			_, err := ad.NewFunction("f", []ad.Arg{ad.A("x", x...)}, []ad.Arg{ad.A("y", other)})
			return err
		}, ad.ErrForeignGraph},
		{"NewFunction zero Expr", func() error {
			_, err := ad.NewFunction("f", []ad.Arg{ad.A("x", x...)}, []ad.Arg{ad.A("y", ad.Expr{}, y)})
			return err
		}, ad.ErrForeignGraph},
		{"Eval on nil function", func() error {
			var f *ad.Function
			return f.Eval(nil, [][]float64{{1, 2}}, [][]float64{make([]float64, 1)})
		}, ad.ErrNilFunction},
		{"Eval wrong input count", func() error {
			return fn.Eval(nil, nil, [][]float64{make([]float64, 1)})
		}, ad.ErrDimension},
		{"Eval short input", func() error {
			return fn.Eval(fn.NewWorkspace(), [][]float64{{1}}, [][]float64{make([]float64, 1)})
		}, ad.ErrDimension},
		{"Eval long output", func() error {
			return fn.Eval(nil, [][]float64{{1, 2}}, [][]float64{make([]float64, 3)})
		}, ad.ErrDimension},
		{"Eval non-finite with CheckFinite", func() error {
			ws := fn.NewWorkspace()
			ws.CheckFinite = true
			return fn.Eval(ws, [][]float64{{math.Inf(1), 0}}, [][]float64{make([]float64, 1)})
		}, nil /* ErrNonFinite, a type: checked below */},
		{"EvalScatter nil scatter", func() error {
			return fn.EvalScatter(nil, nil, nil, nil)
		}, ad.ErrNilFunction},
		{"EvalScatter short value array", func() error {
			return fn.EvalScatter(nil, sc, [][][]float64{{{1, 2}}}, nil)
		}, ad.ErrScatter},
		{"NewScatter negative size", func() error {
			_, err := ad.NewScatter(-1, nil)
			return err
		}, ad.ErrScatter},
		{"NewScatter ragged", func() error {
			_, err := ad.NewScatter(2, [][]int{{0}})
			return err
		}, ad.ErrScatter},
		{"SymVec negative length", func() error {
			h := ad.NewGraph()
			assert.Nil(t, h.SymVec("v", -1))
			return h.Err()
		}, ad.ErrDimension},
		{"Zeros negative length", func() error {
			h := ad.NewGraph()
			assert.Nil(t, h.Zeros(-3))
			return h.Err()
		}, ad.ErrDimension},
		{"Eye negative size", func() error {
			h := ad.NewGraph()
			assert.Equal(t, ad.Mat{}, h.Eye(-2))
			return h.Err()
		}, ad.ErrDimension},
		{"combining graphs", func() error {
			h := ad.NewGraph()
			a := h.Sym("a")
			assert.False(t, a.Add(other).IsValid())
			return h.Err()
		}, ad.ErrForeignGraph},
		{"NewMat wrong entry count", func() error {
			_, err := ad.NewMat(2, 2, x...)
			return err
		}, ad.ErrDimension},
		{"MatVec mismatch", func() error {
			_, err := ad.MatVec(g.Eye(2), x[:1])
			return err
		}, ad.ErrDimension},
		{"MatMul inconsistent", func() error {
			_, err := ad.MatMul(ad.Mat{R: 2, C: 2, E: x}, g.Eye(2))
			return err
		}, ad.ErrDimension},
		{"Solve singular", func() error {
			_, err := ad.Solve(g.ZeroMat(2, 2), x)
			return err
		}, ad.ErrSingular},
		{"Solve non-square", func() error {
			_, err := ad.Solve(g.ZeroMat(2, 1), x)
			return err
		}, ad.ErrDimension},
		{"Dot empty", func() error {
			_, err := ad.Dot(nil, nil)
			return err
		}, ad.ErrDimension},
		{"Vec.Add lengths", func() error {
			_, err := x.Add(x[:1])
			return err
		}, ad.ErrDimension},
		{"Jacobian wrt non-symbol", func() error {
			_, err := ad.Jacobian(ad.Vec{y}, ad.Vec{y})
			return err
		}, ad.ErrNotSymbol},
		{"Gradient foreign graph", func() error {
			_, err := ad.Gradient(other, x)
			return err
		}, ad.ErrForeignGraph},
		{"JVP lengths", func() error {
			_, err := ad.JVP(ad.Vec{y}, x, x[:1])
			return err
		}, ad.ErrDimension},
		{"Substitute lengths", func() error {
			_, err := ad.Substitute(ad.Vec{y}, x, x[:1])
			return err
		}, ad.ErrDimension},
		{"Substitute non-symbol", func() error {
			_, err := ad.Substitute(ad.Vec{y}, ad.Vec{y}, ad.Vec{x[0]})
			return err
		}, ad.ErrNotSymbol},
		{"NewDerivatives unknown wrt", func() error {
			_, err := ad.NewDerivatives("f", []ad.Arg{ad.A("x", x...)}, []ad.Arg{ad.A("y", y)}, "nope")
			return err
		}, ad.ErrBadName},
		{"CopyArgs foreign graphs", func() error {
			_, err := ad.CopyArgs([]ad.Arg{ad.A("x", x...)}, []ad.Arg{ad.A("y", other)})
			return err
		}, ad.ErrForeignGraph},
		{"Copier foreign expression", func() error {
			c := ad.NewCopier(g)
			assert.False(t, c.Expr(other).IsValid())
			return c.Graph().Err()
		}, ad.ErrForeignGraph},
		{"Sparsity hand-made and broken", func() error {
			s := &ad.Sparsity{Rows: 2, Cols: 2, ColPtr: []int{0, 3, 1}, RowIdx: []int{5}}
			r, c := s.Coords()
			assert.Nil(t, r)
			assert.Nil(t, c)
			assert.Equal(t, -1, s.Index(0, 0))
			assert.Equal(t, "", s.String())
			return s.Validate()
		}, ad.ErrDimension},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			assert.NotPanics(t, func() { err = c.call() })
			if c.want == nil {
				var nf ad.ErrNonFinite
				require.ErrorAs(t, err, &nf)
				return
			}
			require.ErrorIs(t, err, c.want)
		})
	}

	// Accessors that cannot return an error return neutral values.
	assert.NotPanics(t, func() {
		var f *ad.Function
		assert.Equal(t, 0, f.NumIn())
		assert.Equal(t, "", fn.InName(7))
		assert.Equal(t, -1, fn.OutSize(-1))
		m := ad.Mat{R: 2, C: 2, E: x[:1]} // inconsistent
		assert.False(t, m.At(0, 0).IsValid())
		assert.False(t, m.Set(0, 0, y))
		assert.Nil(t, m.Row(0))
		assert.Equal(t, ad.Mat{}, m.T())
		var ng *ad.Graph
		assert.False(t, ng.Sym("s").IsValid())
		assert.Equal(t, 0, ng.NumNodes())
		assert.NoError(t, ng.Err())
	})
}
