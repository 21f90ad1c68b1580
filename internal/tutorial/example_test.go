package tutorial_test

import (
	"fmt"

	"github.com/fesd-go/fesd/internal/tutorial"
)

// Example evaluates the turbo car's switching function at v = 12: ψ = 2 >
// 0, so the turbo mode v̇ = 3u applies there.
func Example() {
	m, _, _ := tutorial.TurboCar()
	x, u := []float64{0, 12}, []float64{1}
	psi, err := m.EvalPsi(x, u, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("psi:", psi[0])
	// Output: psi: 2
}
