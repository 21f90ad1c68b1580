package fesd_test

import (
	"context"
	"fmt"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// The simple switch of test-problems.md §A: ẋ = 3 for x < 0 and ẋ = 1 for
// x > 0 from x₀ = −1 reaches x = 0 at t = 1/3, so x(1) = 2/3.
func Example() {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0]},
		S:   [][]int{{1}, {-1}},
		F:   []ad.Vec{{g.Const(1)}, {g.Const(3)}},
	})
	res, err := fesd.Simulate(context.Background(), m, []float64{-1}, fesd.SimOptions{
		TSim: 1, NSim: 2,
		Options: fesd.Options{NFE: 2}, // Radau IIA n_s = 2, Stewart, FE_STAGE
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("x(1) = %.6f\n", res.Final()[0])
	for _, s := range res.Switches {
		fmt.Printf("switch of ψ%d at t = %.6f: %v (%v → %v)\n", s.Psi, s.Time, s.Kind, s.Before[0], s.After[0])
	}
	// Output:
	// x(1) = 0.666667
	// switch of ψ0 at t = 0.333333: crossing (ψ<0 → ψ>0)
}
