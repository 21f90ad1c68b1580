package reference

import (
	"math"
	"testing"

	"github.com/fesd-go/fesd/dcs"
)

// TestOscillatorExact: the closed form starts at x₀, is on the circle at
// the switch, and satisfies the model's ODE on both sides (central
// differences with step 1e-5, truncation ≈ 1e-9).
func TestOscillatorExact(t *testing.T) {
	if x := OscillatorExact(0); math.Abs(x[0]-OscillatorX0[0]) > 1e-16 || x[1] != 0 {
		t.Errorf("x(0) = %v, want %v", x, OscillatorX0)
	}
	if x := OscillatorExact(OscillatorSwitch); math.Abs(x[0]*x[0]+x[1]*x[1]-1) > 1e-15 {
		t.Errorf("ψ(x(1)) = %g", x[0]*x[0]+x[1]*x[1]-1)
	}
	d, err := OscillatorModel().Reformulate(dcs.Options{Formulation: dcs.Step})
	if err != nil {
		t.Fatal(err)
	}
	const h = 1e-5
	for _, tm := range []float64{0.1, 0.45, 0.9, 1.1, 1.5, 1.9} {
		x := OscillatorExact(tm)
		z, err := d.InitialGuess(x, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		f, err := d.EvalF(x, nil, nil, z, tm)
		if err != nil {
			t.Fatal(err)
		}
		xp, xm := OscillatorExact(tm+h), OscillatorExact(tm-h)
		for i := range f {
			if fd := (xp[i] - xm[i]) / (2 * h); math.Abs(fd-f[i]) > 1e-6*math.Max(1, math.Abs(f[i])) {
				t.Errorf("t = %g: ẋ%d = %g, closed form %g", tm, i, f[i], fd)
			}
		}
	}
}
