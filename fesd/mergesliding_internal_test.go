package fesd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeShortSliding: an entry into sliding at boundary 2 and the
// departure to the other side at boundary 3, across an element of length
// 3e-10 (1e-9 of the mean), is one crossing; across a normal element, or
// back to the side it came from (a touch), the two switches stay.
func TestMergeShortSliding(t *testing.T) {
	mk := func(b int, k SwitchKind, before, after Side) Switch {
		return Switch{Boundary: b, Kind: k, Time: float64(b), Psi: 0,
			Before: []Side{before}, After: []Side{after}}
	}
	h := []float64{0.5, 0.5, 3e-10, 0.5}
	sw := []Switch{
		mk(2, EnteringSliding, SidePositive, SideSurface),
		mk(3, LeavingSliding, SideSurface, SideNegative),
	}
	got := mergeShortSliding(sw, h)
	require.Len(t, got, 1)
	assert.Equal(t, Crossing, got[0].Kind)
	assert.Equal(t, 2, got[0].Boundary)
	assert.Equal(t, []Side{SidePositive}, got[0].Before)
	assert.Equal(t, []Side{SideNegative}, got[0].After)

	h[2] = 0.5
	assert.Len(t, mergeShortSliding(sw, h), 2, "a real sliding segment")
	h[2] = 3e-10
	touch := []Switch{
		mk(2, EnteringSliding, SidePositive, SideSurface),
		mk(3, LeavingSliding, SideSurface, SidePositive),
	}
	assert.Len(t, mergeShortSliding(touch, h), 2, "back to the same side")
}
