package reference

import (
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// Filippov oscillator (nosnoc_py examples/oscillator/oscillator_example.py):
// ω = 2π, A₁ = [[1, ω], [−ω, 1]]
// outside the unit circle (ψ > 0), A₂ = [[1, −ω], [ω, 1]] inside,
// ψ = x₁² + x₂² − 1, x₀ = (e⁻¹, 0).
var OscillatorX0 = []float64{math.Exp(-1), 0}

// OscillatorModel builds the oscillator as one Filippov subsystem with the
// sign matrix [[1], [−1]] (mode 0 outside, mode 1 inside).
func OscillatorModel() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	w := 2 * math.Pi
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{ad.Sq(x[0]).Add(ad.Sq(x[1])).AddConst(-1)},
		S:   [][]int{{1}, {-1}},
		F: []ad.Vec{
			{x[0].Add(x[1].Scale(w)), x[0].Scale(-w).Add(x[1])},
			{x[0].Sub(x[1].Scale(w)), x[0].Scale(w).Add(x[1])},
		},
	})
	return m
}

// OscillatorExact is the closed-form solution from OscillatorX0: inside the
// circle x(t) = eᵗ⁻¹(cos ωt, sin ωt) (radius e^{t−1}), which reaches the
// circle at t = 1 at (1, 0); the field A₁x = (1, −ω) outside points out of
// the circle as well (∇ψ·f = 2 > 0 on both sides), so the solution crosses
// and continues as x(t) = e^{t−1}(cos ω(t−1), −sin ω(t−1)).
func OscillatorExact(t float64) []float64 {
	w := 2 * math.Pi
	r := math.Exp(t - 1)
	if t <= 1 {
		return []float64{r * math.Cos(w*t), r * math.Sin(w*t)}
	}
	return []float64{r * math.Cos(w*(t-1)), -r * math.Sin(w*(t-1))}
}

// OscillatorSwitch is the time of the only switch (a crossing of ψ₀).
const OscillatorSwitch = 1.0
