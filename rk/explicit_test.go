package rk

import (
	"errors"
	"math"
	"testing"
)

// TestExplicitStepperExp: one step of y' = y from y₀ = 1. An explicit method
// of order p with s = p stages (p ≤ 4) gives the Taylor polynomial
// Σ_{k≤p} h^k/k! (closed form), so the local error e^h − y₁ is
// h^{p+1}/(p+1)! + O(h^{p+2}): h⁵/120 for RK4.
func TestExplicitStepperExp(t *testing.T) {
	for _, c := range []struct {
		tab *Tableau
		p   int
		tol float64 // relative, against the Taylor polynomial: a few ulps
	}{
		{ExplicitEuler(), 1, 4.5e-16},
		{Heun(), 2, 4.5e-16},
		{RK4(), 4, 4.5e-16},
	} {
		st, err := NewExplicitStepper(c.tab, 1)
		if err != nil {
			t.Fatal(err)
		}
		f := func(_ float64, y, dy []float64) { dy[0] = y[0] }
		y := []float64{0}
		for _, h := range []float64{0.1, 0.05, 0.025} {
			st.StepTo(y, f, 0, []float64{1}, h)
			taylor, term := 1.0, 1.0
			for k := 1; k <= c.p; k++ {
				term *= h / float64(k)
				taylor += term
			}
			if math.Abs(y[0]-taylor) > c.tol*taylor {
				t.Errorf("%s, h = %g: y₁ = %.17g, Taylor polynomial %.17g", c.tab.Name, h, y[0], taylor)
			}
			// (e^h − y₁)/h^{p+1} → 1/(p+1)!, within 1 + h.
			lead := math.Pow(h, float64(c.p+1)) / math.Gamma(float64(c.p+2))
			if r := (math.Exp(h) - y[0]) / lead; c.p < 4 && (r < 1 || r > 1+h) {
				t.Errorf("%s, h = %g: local error / (h^%d/%d!) = %.4g", c.tab.Name, h, c.p+1, c.p+1, r)
			} else if c.p == 4 && math.Abs(r-1) > h {
				t.Errorf("RK4, h = %g: local error / (h⁵/120) = %.4g", h, r)
			}
		}
	}
}

// TestExplicitStepperNodes: y' = 4t³ (y(t) = t⁴) from t₀ = 1, y₀ = 1 in two
// dimensions. RK4's quadrature (Simpson's rule) is exact for cubics, so one
// step gives (1 + h)⁴; this checks that the stages see t₀ + c_i h. With
// dst = y0 the result is the same, and otherwise y0 is not modified.
func TestExplicitStepperNodes(t *testing.T) {
	st, err := NewExplicitStepper(RK4(), 2)
	if err != nil {
		t.Fatal(err)
	}
	f := func(t float64, _, dy []float64) { dy[0], dy[1] = 4*t*t*t, -4*t*t*t }
	const h = 0.3
	y0 := []float64{1, -1}
	dst := make([]float64, 2)
	st.StepTo(dst, f, 1, y0, h)
	want := math.Pow(1+h, 4)
	if math.Abs(dst[0]-want) > 1e-15*want || dst[1] != -dst[0] || y0[0] != 1 || y0[1] != -1 {
		t.Errorf("y₁ = %v, want ±%.17g; y₀ = %v", dst, want, y0)
	}
	st.StepTo(y0, f, 1, y0, h)
	if y0[0] != dst[0] || y0[1] != dst[1] {
		t.Errorf("in place: %v, into dst: %v", y0, dst)
	}
	if n := testing.AllocsPerRun(10, func() { st.StepTo(dst, f, 1, y0, h) }); n != 0 {
		t.Errorf("StepTo allocates %v times", n)
	}
}

func TestExplicitStepperInvalid(t *testing.T) {
	radau, err := RadauIIA(2)
	if err != nil {
		t.Fatal(err)
	}
	bad := RK4()
	bad.B = bad.B[:3]
	for _, c := range []struct {
		name string
		tab  *Tableau
		n    int
	}{
		{"implicit", radau, 1},
		{"malformed", bad, 1},
		{"nil", nil, 1},
		{"dimension 0", RK4(), 0},
	} {
		if _, err := NewExplicitStepper(c.tab, c.n); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", c.name, err)
		}
	}
	st, _ := NewExplicitStepper(Heun(), 2)
	defer func() {
		if recover() == nil {
			t.Error("StepTo with a short dst did not panic")
		}
	}()
	st.StepTo(make([]float64, 1), func(float64, []float64, []float64) {}, 0, make([]float64, 2), 1)
}
