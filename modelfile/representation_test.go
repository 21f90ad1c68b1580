package modelfile

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/fesd"
)

// TestRepresentation sets the differential form of the Runge–Kutta
// equations (004 eq. 33) from a model file and compares both forms with the
// closed form of ẋ = 3 for x < 0, ẋ = 1 for x > 0 from x₀ = −1: the switch
// at t* = 1/3 and x(1) = 2/3. Both forms are exact for piecewise-constant
// fields once the switch is detected (tolerance 1e-9).
func TestRepresentation(t *testing.T) {
	const src = `
[[state]]
name = "x"
x0 = -1
[[subsystem]]
psi = "x"
modes = ["1", "3"] # ψ > 0, ψ < 0
[simulate]
TSim = 1
NSim = 2
[options]
NFE = 3
Representation = "REP"
`
	for _, rep := range []string{"Integral", "Differential"} {
		m, err := Parse("rep.toml", []byte(strings.Replace(src, "REP", rep, 1)))
		if err != nil {
			t.Fatal(err)
		}
		want := fesd.Integral
		if rep == "Differential" {
			want = fesd.Differential
		}
		if m.Options.Representation != want {
			t.Fatalf("%s: Representation %v", rep, m.Options.Representation)
		}
		run, err := m.Simulate(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if x := run.Result.Final()[0]; math.Abs(x-2.0/3) > 1e-9 {
			t.Errorf("%s: x(1) = %.15g, want 2/3", rep, x)
		}
		if len(run.Switches) != 1 || math.Abs(run.Switches[0].T-1.0/3) > 1e-9 {
			t.Errorf("%s: switches %+v, want one at 1/3", rep, run.Switches)
		}
	}
}
