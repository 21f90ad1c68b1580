package main

import (
	"math"
	"testing"

	"github.com/fesd-go/fesd/fesd"
)

// TestPenetrationBetween: one element on [0, 1] with the leg straight
// (f_c = q_z − 0.4) and q_z = 0.4 at the start and the end but 0.4 − 2a/9
// at the Radau IIA stage point τ = 1/3: the collocation polynomial is
// q_z(τ) = 0.4 − a·τ(1 − τ), 0.4 − a/4 at τ = 1/2 (closed form), a depth
// the nodes do not show (2a/9 < a/4).
func TestPenetrationBetween(t *testing.T) {
	const a = 0.1
	x := func(z float64) []float64 { return []float64{0, z, 0, 0, 0, 0, 0, 0} }
	var r fesd.OCPResult
	r.T, r.X, r.H = []float64{0, 1}, [][]float64{x(0.4), x(0.4)}, []float64{1}
	r.PointT, r.PointX = []float64{1.0 / 3, 1}, [][]float64{x(0.4 - 2*a/9), x(0.4)}
	d, at := penetrationBetween(&r)
	if math.Abs(d-a/4) > 1e-12 || at != 0.5 {
		t.Errorf("depth %v at t = %v, want %v at 0.5", d, at, a/4)
	}
}
