package report_test

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/report"
)

// Numbers go into CSV files with the fewest digits that parse back to the
// same float64; non-finite values have names strconv.ParseFloat reads.
func ExampleFormatFloat() {
	for _, v := range []float64{0.1, 1.0 / 3, 1e-12, math.Inf(1), math.NaN()} {
		fmt.Println(report.FormatFloat(v))
	}
	// Output:
	// 0.1
	// 0.3333333333333333
	// 1e-12
	// +Inf
	// NaN
}

// On a log y axis the points with y ≤ 0 or a non-finite coordinate cannot be
// drawn; FilterXY drops them (gonum/plot would panic on them).
func ExampleFilterXY() {
	x := []float64{1, 2, 3, 4, 5}
	y := []float64{1e-3, 0, -1, math.NaN(), 10}
	xs, ys, dropped := report.FilterXY(x, y, false, true)
	fmt.Println(xs, ys, dropped)
	// Output:
	// [1 5] [0.001 10] 3
}

// Switch kinds are written as lowercase words joined by underscores.
func ExampleKindName() {
	fmt.Println(report.KindName(fesd.EnteringSliding))
	// Output:
	// entering_sliding
}
