package monopod_test

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/internal/monopod"
)

// The robot at its start pose q₀ = (0, 0.4, 0, 0): the foot touches the
// ground (f_c = 0.4 − 0.2 − 0.2), M(q₀) has the entries listed in the
// package doc, and at rest h = (0, −m g, 0, 0).
func ExampleNew() {
	m, err := monopod.New(dcs.Step, 0)
	if err != nil {
		panic(err)
	}
	fn, err := ad.NewFunction("Mh", []ad.Arg{ad.A("q", m.Q...), ad.A("v", m.V...)},
		[]ad.Arg{ad.A("M", m.M.E...), ad.A("h", m.H...)})
	if err != nil {
		panic(err)
	}
	q0 := []float64{0, 0.4, 0, 0}
	M, h := make([]float64, 16), make([]float64, 4)
	if err := fn.Eval(fn.NewWorkspace(), [][]float64{q0, make([]float64, 4)}, [][]float64{M, h}); err != nil {
		panic(err)
	}
	fmt.Printf("foot height %.3f\n", monopod.FootHeight(q0))
	fmt.Printf("M11 = %.3f, M13 = %.6f, M33 = %.9f, h2 = %.5f\n", M[0], M[2], M[10], h[1])
	// Output:
	// foot height 0.000
	// M11 = 6.305, M13 = -0.192912, M33 = 0.053976192, h2 = -61.85205
}

// The paper's task with N = 30 stages: the reference for the end of the last
// stage is the target (3, 0.4, 0, 0) at rest at the clock time T = 3.
func ExamplePaperTask() {
	task := monopod.PaperTask(30)
	ref, err := task.Reference()
	if err != nil {
		panic(err)
	}
	r := func(v float64) float64 { return math.Round(v*100)/100 + 0 } // + 0 turns −0 into 0
	last := ref[len(ref)-1]
	fmt.Printf("%d reference points; last: q = (%.2f, %.2f, %.2f, %.2f), t = %.2f\n",
		len(ref), r(last[0]), r(last[1]), r(last[2]), r(last[3]), r(last[8]))
	// Output:
	// 30 reference points; last: q = (3.00, 0.40, 0.00, 0.00), t = 3.00
}
