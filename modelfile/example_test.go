package modelfile_test

import (
	"context"
	"fmt"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/modelfile"
)

// Example reads the Filippov system of the README's tour, ẋ = 1 for x > 0
// and ẋ = 3 for x < 0, from x(0) = −1, and simulates it for one time unit:
// the switch is at t = 1/3 and x(1) = 2/3.
func Example() {
	src := `
[[state]]
name = "x"
x0 = -1

[[subsystem]]
psi = "x"
signs = [[1], [-1]]
modes = ["1", "3"]

[simulate]
TSim = 1
NSim = 2
`
	m, err := modelfile.Parse("example.toml", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := fesd.Simulate(context.Background(), m.Model, m.X0, fesd.SimOptions{
		TSim: m.Sim.TSim, NSim: m.Sim.NSim, Options: m.Options,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, sw := range res.Switches {
		fmt.Printf("switch of ψ%d at t = %.6f\n", sw.Psi, sw.Time)
	}
	fmt.Printf("x(1) = %.6f\n", res.Final()[0])

	// A mistake is reported where it is written.
	_, err = modelfile.Parse("bad.toml", []byte("[[state]]\nname = \"x\"\nx0 = -1\n\n[dynamics]\nf = \"2*y\"\n"))
	fmt.Println(err)
	// Output:
	// switch of ψ0 at t = 0.333333
	// x(1) = 0.666667
	// bad.toml:6:8: undefined name "y" (defined here: x)
}
