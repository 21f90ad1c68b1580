package impactocp_test

import (
	"fmt"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/impactocp"
)

// The three-box OCP of §5.3: 12 states (positions and velocities of the
// boxes), one control (the force on the middle box), five contacts with
// their restitution coefficients, N = 15 stages over T = 6, discretized
// with the paper's options.
func ExampleBoxes() {
	p, err := impactocp.Boxes()
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := fesd.NewOCPSolver(p, impactocp.Options()); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(p.X0), len(p.UL), len(p.CLS.Gap), p.CLS.E, p.N, p.T)
	// Output:
	// 12 1 5 [0 0.5 0 0 0] 15 6
}
