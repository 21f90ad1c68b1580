package main

import (
	"context"
	"os"
)

// Example checks the turbo car's model file: its dimensions, switching
// function, modes and the size of its OCP's NLP.
func Example() {
	run(context.Background(), []string{"check", "../../examples/models/turbocar.toml"}, os.Stdout, os.Stderr)
	// Output:
	// ../../examples/models/turbocar.toml: turbo car
	// states (2):   q, v
	// controls (1): u
	// subsystem 0: 1 switching functions, 2 modes
	//   ψ0 = v - 10
	//   mode 0: signs [-1]
	//   mode 1: signs [1]
	// DCS (Step): 5 algebraic variables (θ 2, α 1, λ 2, μ 0, β 0), 3 equations, 2 complementarity pairs
	// OCP NLP: 583 variables, 432 constraints, 180 complementarities
}
