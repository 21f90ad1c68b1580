package cartpole_test

import (
	"fmt"

	"github.com/fesd-go/fesd/internal/cartpole"
)

// The model has one switching function (the cart's velocity) and two
// modes; the swing-up problem has 20 stages.
func ExampleProblem() {
	p := cartpole.Problem([]float64{1, 0, 0, 0}, 20, 2)
	fmt.Println(len(p.Model.X), len(p.Model.U), len(p.Model.Subsystems[0].F), p.N, p.T)
	// Output:
	// 4 1 2 20 5
}
