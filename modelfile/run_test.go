package modelfile

import (
	"context"
	"math"
	"testing"
)

// TestControlTable simulates ẋ = u with the piecewise-constant control
// u = 1 on [0, 0.5), −1 on [0.5, 1] (UTable) in 4 steps: x(1) = x₀ = 0.25
// exactly up to rounding (the Radau IIA solution of ẋ = const is exact),
// tolerance 1e-12, and x(0.5) = 0.75. The switching function x − 10 is
// never reached: no switches.
func TestControlTable(t *testing.T) {
	src := `
[[state]]
name = "x"
x0 = 0.25
[[control]]
name = "u"
[[subsystem]]
psi = "x - 10"
modes = ["u", "u"]
[simulate]
TSim = 1
NSim = 4
UTable = [[0, 1], [0.5, -1]]
`
	m, err := Parse("table.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ t, u float64 }{{0, 1}, {0.25, 1}, {0.5, -1}, {0.75, -1}} {
		if u := m.Sim.Control(c.t); len(u) != 1 || u[0] != c.u {
			t.Errorf("Control(%g) = %v, want %g", c.t, u, c.u)
		}
	}
	run, err := m.Simulate(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := run.Result
	if x := r.Final()[0]; math.Abs(x-0.25) > 1e-12 {
		t.Errorf("x(1) = %.15g, want 0.25", x)
	}
	for i, tt := range r.T {
		if math.Abs(tt-0.5) < 1e-12 && math.Abs(r.X[i][0]-0.75) > 1e-12 {
			t.Errorf("x(0.5) = %.15g, want 0.75", r.X[i][0])
		}
	}
	if len(run.Switches) != 0 || len(run.Split) != 0 {
		t.Errorf("switches %+v, split %v", run.Switches, run.Split)
	}
}
