package fesd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/mpcc"
)

// TestGuideSplit: the schedule σ = 1, 0.1, …, 1e-4 (five steps) split at
// σ_g = 1e-2 gives three guided steps ending at 1e-2 without a
// certificate and two more from 1e-3 whose schedule is the rest of the
// original; a σ_g above σ₀ or below the last σ leaves nothing to split.
func TestGuideSplit(t *testing.T) {
	set := mpcc.Settings{Sigma0: 1, Kappa: 0.1, CompTol: 1e-5, MaxSteps: 5}
	g, r, ok, err := guideSplit(set, 1e-2)
	require.NoError(t, err)
	require.True(t, ok)
	gs, err := g.Schedule()
	require.NoError(t, err)
	rs, err := r.Schedule()
	require.NoError(t, err)
	want := []float64{1, 0.1, 0.01, 1e-3, 1e-4}
	got := append(gs, rs...)
	require.Len(t, got, len(want), "guided %v, rest %v", gs, rs)
	for i := range want {
		assert.InDelta(t, want[i], got[i], 1e-12*want[i], "step %d", i)
	}
	assert.Len(t, gs, 3)
	assert.Equal(t, mpcc.NoCertificate, g.Finish)
	assert.Equal(t, set.Finish, r.Finish)
	for _, sg := range []float64{2, 1e-5} {
		_, _, ok, err := guideSplit(set, sg)
		require.NoError(t, err)
		assert.False(t, ok, "σ_g = %g", sg)
	}
	assert.Error(t, Options{Guide: &Guide{GapDepth: -1}}.Validate())
	assert.Error(t, Options{Guide: &Guide{Sigma: -1}}.Validate())
	assert.NoError(t, Options{Guide: &Guide{GapDepth: 0.005}}.Validate())
}
