package rk_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/rk"
)

// TestMisuse: constructors and tableau methods reject bad input with
// their documented errors (errors.Is) and do not panic, also for tableaus
// filled by hand with inconsistent shapes.
func TestMisuse(t *testing.T) {
	ragged := &rk.Tableau{Name: "ragged", A: [][]float64{{0.5}, {0.5, 0.5}}, B: []float64{0.5, 0.5}, C: []float64{0.5}, Order: 1}
	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"New unknown family", func() error { _, err := rk.New(rk.Family(99), 2); return err }, rk.ErrFamily},
		{"New explicit s = 3", func() error { _, err := rk.New(rk.FamilyExplicit, 3); return err }, rk.ErrStages},
		{"RadauIIA s = 0", func() error { _, err := rk.RadauIIA(0); return err }, rk.ErrStages},
		{"GaussLegendre s too large", func() error { _, err := rk.GaussLegendre(rk.MaxStages + 1); return err }, rk.ErrStages},
		{"LobattoIIIA s = 1", func() error { _, err := rk.LobattoIIIA(1); return err }, rk.ErrStages},
		{"Nodes of the explicit family", func() error { _, err := rk.Nodes(rk.FamilyExplicit, 2); return err }, rk.ErrFamily},
		{"Validate nil", func() error { var tb *rk.Tableau; return tb.Validate() }, rk.ErrInvalid},
		{"Validate ragged", func() error { return ragged.Validate() }, rk.ErrInvalid},
		{"Validate NaN", func() error {
			tb := rk.ExplicitEuler().Clone()
			tb.B[0] = math.NaN()
			return tb.Validate()
		}, rk.ErrInvalid},
		{"Validate wrong order", func() error {
			tb := rk.ExplicitEuler().Clone()
			tb.Order = 3
			return tb.Validate()
		}, rk.ErrInvalid},
		{"Integral of RK4", func() error { _, err := rk.RK4().Integral(); return err }, rk.ErrNoIntegral},
		{"Integral of a ragged tableau", func() error { _, err := ragged.Integral(); return err }, rk.ErrInvalid},
		{"Family text", func() error { var f rk.Family; return f.UnmarshalText([]byte("nope")) }, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			assert.NotPanics(t, func() { err = c.call() })
			if c.want == nil {
				require.Error(t, err)
				return
			}
			require.ErrorIs(t, err, c.want)
		})
	}
	// Queries without an error result answer neutrally for bad shapes.
	assert.NotPanics(t, func() {
		assert.False(t, ragged.EndpointIsNode())
		assert.False(t, ragged.StifflyAccurate())
		_, r := ragged.QuadratureDefect(2)
		assert.True(t, math.IsInf(r, 1))
		_, r = ragged.StageDefect(1)
		assert.True(t, math.IsInf(r, 1))
		_, r = ragged.ColumnDefect(1)
		assert.True(t, math.IsInf(r, 1))
		assert.Contains(t, ragged.String(), "invalid shape")
		var tb *rk.Tableau
		assert.Equal(t, 0, tb.Stages())
		assert.Nil(t, tb.Clone())
		assert.False(t, tb.Explicit())
	})
}
