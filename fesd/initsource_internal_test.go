package fesd

import (
	"math"
	"testing"
)

// TestInitSource: the InitFrom interpolant is exact at the saved points,
// linear between them (in the fraction of the numerical horizon, so a
// result on [2, 6] serves a grid on [0, 1]), constant beyond, and maps a
// new stage to the old stage that contains its midpoint.
func TestInitSource(t *testing.T) {
	r := &OCPResult{
		Trajectory: Trajectory{
			T:      []float64{2, 4, 6},
			X:      [][]float64{{0}, {2}, {6}},
			PointT: []float64{3, 4, 5, 6}, // Radau: the last stage point is the element end
			PointX: [][]float64{{1}, {2}, {4}, {6}},
		},
		StageT: []float64{2, 6},
		U:      [][]float64{{1}},
	}
	src := newInitSource(r)
	if len(src.f) != 5 {
		t.Fatalf("%d points, want 5 (duplicates once)", len(src.f))
	}
	for _, c := range []struct{ f, x float64 }{{0, 0}, {0.25, 1}, {0.125, 0.5}, {0.5, 2}, {0.625, 3}, {1, 6}, {-1, 0}, {2, 6}} {
		if got := src.at(c.f)[0]; math.Abs(got-c.x) > 1e-15 {
			t.Errorf("at(%g) = %g, want %g", c.f, got, c.x)
		}
	}
	r.StageT = []float64{2, 3, 6}
	r.U = [][]float64{{1}, {2}}
	src = newInitSource(r)
	b := &layout{N: 4, tau: []float64{0, 0.25, 0.5, 0.75, 1}}
	for k, want := range []int{0, 1, 1, 1} {
		if got := src.stage(b, k); got != want {
			t.Errorf("stage(%d) = %d, want %d", k, got, want)
		}
	}
}
