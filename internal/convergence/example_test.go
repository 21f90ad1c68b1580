package convergence_test

import (
	"context"
	"fmt"
	"math"
	"os"

	"github.com/fesd-go/fesd/internal/convergence"
	"github.com/fesd-go/fesd/rk"
)

// sample is one simulation, as an example program stores it.
type sample struct {
	convergence.Point
	convergence.Outcome
}

// A made-up study: the "simulation" of each case returns the error
// 0.1·h^p of a method of order p, h = 1/N_sim, but not below 1e-12 (a
// stand-in for the solver tolerances); Radau IIA with n_s = 1 and 2
// (orders 1 and 3), FESD only. The fit over the points above the floor
// 1e-11 recovers the orders; n_s = 2 fits 3 of its 4 points.
func Example() {
	cases := convergence.Grid([]rk.Family{rk.FamilyRadauIIA}, []int{1, 2}, []bool{true}, []int{10, 20, 100, 10000})
	if err := convergence.Check(cases); err != nil {
		fmt.Println(err)
		return
	}
	simulate := func(_ context.Context, c convergence.Case) sample {
		tab, _ := rk.New(c.Family, c.Stages)
		h := 1 / float64(c.NSim)
		e := max(0.1*math.Pow(h, float64(tab.Order)), 1e-12)
		return sample{convergence.Point{NSim: c.NSim, H: h, HMax: h, Error: &e}, convergence.Outcome{Status: "ok"}}
	}
	pool := convergence.Pool[convergence.Case, sample]{Workers: 2}
	results, _, err := pool.Run(context.Background(), cases, simulate)
	if err != nil {
		fmt.Println(err)
		return
	}
	curves, points := convergence.Group(cases, results)
	var rows []convergence.Row[sample]
	for i, c := range curves {
		slope, n := convergence.Fit(points[i], 1e-11, convergence.Longest)
		rows = append(rows, convergence.Row[sample]{Curve: c, Method: "FESD", Slopes: []*float64{slope}, FitPoints: n, Points: points[i]})
	}
	convergence.WriteTable(os.Stdout, []string{"slope"}, rows)
	// Output:
	// scheme           ns order method    slope  fit      N=10      N=20     N=100   N=10000
	// radau_iia         1     1 FESD       1.00    4  1.00e-02  5.00e-03  1.00e-03  1.00e-05
	// radau_iia         2     3 FESD       3.00    3  1.00e-04  1.25e-05  1.00e-07  1.00e-12
	// 0 failed simulations
}
