package reference_test

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/internal/reference"
)

// The exact IRMA solution over the first 100 minutes has exactly two
// switches (004 §7.1): Cbf1 falls below 0.04 (ψ₅) and then Gal4 below 0.01
// (ψ₀).
func ExampleIRMAExact() {
	p, err := reference.IRMAExact(reference.IRMAX0, 100)
	if err != nil {
		panic(err)
	}
	for _, e := range p.Events {
		fmt.Printf("t = %.4f min: ψ%d %s, direction %+d\n", e.T, e.Psi, e.Kind, e.Dir)
	}
	// Output:
	// t = 25.5413 min: ψ5 crossing, direction -1
	// t = 39.1910 min: ψ0 crossing, direction -1
}

// The Filippov oscillator reaches the unit circle at t = 1 in (1, 0) and
// crosses it; outside, the radius grows like e^{t−1}.
func ExampleOscillatorExact() {
	round := func(v float64) float64 { return math.Round(v*1e6)/1e6 + 0 } // + 0 turns −0 into 0
	for _, t := range []float64{reference.OscillatorSwitch, 1.25} {
		x := reference.OscillatorExact(t)
		fmt.Printf("x(%v) = (%.6f, %.6f)\n", t, round(x[0]), round(x[1]))
	}
	// Output:
	// x(1) = (1.000000, 0.000000)
	// x(1.25) = (0.000000, -1.284025)
}

// Stewart's three masses on [0, 10] have 22 switching points (Stewart
// 1996, §5): velocity reversals and mass 1 sticking for the rest of the
// horizon.
func ExampleFriction() {
	s, err := reference.Friction(reference.FrictionX0, reference.FrictionTEnd, reference.FrictionOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(s.Events), "events")
	for _, e := range s.Events {
		if e.Kind == "stick" {
			fmt.Printf("mass %d sticks at t = %.3f\n", e.Psi+1, e.T)
		}
	}
	// Output:
	// 22 events
	// mass 1 sticks at t = 3.729
}
