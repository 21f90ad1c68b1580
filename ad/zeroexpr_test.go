package ad_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
)

// TestZeroExprError: the zero Expr (Expr{}, and Sum of an empty Vec) used in
// an operation, a derivative or a function reports ErrZeroExpr with a
// message that names the problem, not "expression from a different graph:
// <nil>" (issue 44, item 9). The error still matches ErrForeignGraph, which
// reported it before.
func TestZeroExprError(t *testing.T) {
	assert.Equal(t, ad.Expr{}, ad.Sum(nil), "the sum of an empty Vec has no graph")

	cases := []struct {
		name string
		call func(g *ad.Graph, x ad.Vec) error
	}{
		{"Add Expr{}", func(g *ad.Graph, x ad.Vec) error {
			assert.False(t, x[0].Add(ad.Expr{}).IsValid())
			return g.Err()
		}},
		{"Mul Sum(nil)", func(g *ad.Graph, x ad.Vec) error {
			assert.False(t, ad.Sum(nil).Mul(x[1]).IsValid())
			return g.Err()
		}},
		{"Gradient of Sum(nil)", func(g *ad.Graph, x ad.Vec) error {
			_, err := ad.Gradient(ad.Sum(nil), x)
			return err
		}},
		{"Jacobian with a zero row", func(g *ad.Graph, x ad.Vec) error {
			_, err := ad.Jacobian(ad.Vec{x[0], {}}, x)
			return err
		}},
		{"Jacobian of zero Exprs only", func(g *ad.Graph, x ad.Vec) error {
			_, err := ad.Jacobian(ad.Vec{{}}, nil)
			return err
		}},
		{"NewFunction output Sum(nil)", func(g *ad.Graph, x ad.Vec) error {
			_, err := ad.NewFunction("f", []ad.Arg{ad.A("x", x...)}, []ad.Arg{ad.A("y", ad.Sum(nil))})
			return err
		}},
		{"Substitute by Expr{}", func(g *ad.Graph, x ad.Vec) error {
			_, err := ad.Substitute(ad.Vec{x[0].Mul(x[1])}, x[:1], ad.Vec{{}})
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := ad.NewGraph()
			x := g.SymVec("x", 2)
			err := c.call(g, x)
			require.Error(t, err)
			assert.ErrorIs(t, err, ad.ErrZeroExpr)
			assert.ErrorIs(t, err, ad.ErrForeignGraph, "kept for callers that test ErrForeignGraph")
			assert.Contains(t, err.Error(), "invalid (zero) expression")
			assert.NotContains(t, err.Error(), "different graph")
			assert.NotContains(t, err.Error(), "<nil>")
		})
	}
}

// TestForeignGraphIsNotZeroExpr: an expression of another graph still
// reports ErrForeignGraph alone.
func TestForeignGraphIsNotZeroExpr(t *testing.T) {
	g := ad.NewGraph()
	x := g.Sym("x")
	other := ad.NewGraph().Sym("z")
	assert.False(t, x.Add(other).IsValid())
	require.ErrorIs(t, g.Err(), ad.ErrForeignGraph)
	assert.NotErrorIs(t, g.Err(), ad.ErrZeroExpr)

	_, err := ad.Gradient(other, ad.Vec{x})
	require.ErrorIs(t, err, ad.ErrForeignGraph)
	assert.NotErrorIs(t, err, ad.ErrZeroExpr)
}
