package nlp

import (
	"math"
	"testing"
)

// TestGoldenSectionMin: on q(x) = (x − 1)² over [−3, 4.6] a golden-section
// search of 8 steps brackets the minimizer in an interval of length
// 7.6·0.618⁸ ≈ 0.163 (closed form of the bracket's shrinkage), so the point
// it returns is within that of 1; for a decreasing q the upper end point,
// whose value is strictly smaller than any interior point's, wins, and for
// an increasing q the lower one.
func TestGoldenSectionMin(t *testing.T) {
	lo, hi := -3.0, 4.6
	bracket := (hi - lo) * math.Pow(0.6180339887498949, 8)
	if x := goldenSectionMin(func(x float64) float64 { return (x - 1) * (x - 1) }, lo, hi, 8); math.Abs(x-1) > bracket {
		t.Errorf("quadratic: %v, want within %.3g of 1", x, bracket)
	}
	if x := goldenSectionMin(func(x float64) float64 { return -x }, lo, hi, 8); x != hi {
		t.Errorf("decreasing: %v, want %v", x, hi)
	}
	if x := goldenSectionMin(func(x float64) float64 { return x }, lo, hi, 8); x != lo {
		t.Errorf("increasing: %v, want %v", x, lo)
	}
}
