package reference

import (
	"math"
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/rk"
)

// TestIRMAFirst100: the paper (004 §7.1) says the first 100 minutes contain
// exactly two switches; with the irma.py model they are Cbf1 falling below
// 0.04 (ψ₅) and then Gal4 below 0.01 (ψ₀).
func TestIRMAFirst100(t *testing.T) {
	p, err := IRMAExact(IRMAX0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Events) != 2 || p.Events[0].Psi != 5 || p.Events[1].Psi != 0 || p.Events[0].Dir != -1 || p.Events[1].Dir != -1 {
		t.Fatalf("events %+v, want ψ5↓ then ψ0↓", p.Events)
	}
	for _, e := range p.Events {
		th := IRMAThresholds[e.Psi]
		if e.X[th.State] != th.Value {
			t.Errorf("ψ%d at t = %g: x = %g, want the threshold %g", e.Psi, e.T, e.X[th.State], th.Value)
		}
		t.Logf("ψ%d crosses at t = %.15g", e.Psi, e.T)
	}
}

// rk4Affine integrates ẋ = −γx + c with n classical RK4 steps
// (rk.RK4 by rk.ExplicitStepper).
func rk4Affine(x0, c []float64, tau float64, n int) []float64 {
	st, err := rk.NewExplicitStepper(rk.RK4(), len(x0))
	if err != nil {
		panic(err)
	}
	f := func(_ float64, x, dx []float64) {
		for i := range x {
			dx[i] = -IRMAGamma[i]*x[i] + c[i]
		}
	}
	x := append([]float64(nil), x0...)
	h := tau / float64(n)
	for s := 0; s < n; s++ {
		st.StepTo(x, f, float64(s)*h, x, h)
	}
	return x
}

// TestIRMAAgainstRK4: on every segment of the exact solution over 1000
// minutes, RK4 with steps of ≤ 1e-2 min from the segment start with the
// segment's selections reaches the next segment start (where the closed
// form put x_i exactly on the threshold) to 5e-13: the truncation error
// (γh)⁴/120 per step ≤ 1e-12 relative for γ = 0.6 is damped by e^{−γt};
// what remains is the round-off of up to 15000 steps on |x| ≤ 3.8.
func TestIRMAAgainstRK4(t *testing.T) {
	p, err := IRMAExact(IRMAX0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for k := 0; k+1 < len(p.Start); k++ {
		tau := p.Start[k+1] - p.Start[k]
		x := rk4Affine(p.X[k], p.C[k], tau, int(math.Ceil(tau/1e-2)))
		for i := range x {
			worst = math.Max(worst, math.Abs(x[i]-p.X[k+1][i]))
		}
	}
	if worst > 5e-13 {
		t.Errorf("RK4 vs closed form at the events: %.3g > 5e-13", worst)
	}
	t.Logf("%d events in [0, 1000], max RK4 difference %.2e", len(p.Events), worst)
}

// TestIRMANoMissedEvents samples the exact solution every 0.01 minutes and
// checks that the sign of every ψ_j agrees with the selections of the
// segment (no threshold crossed between events), and that the right-hand
// side of the dcs model with those selections is the closed form's.
func TestIRMANoMissedEvents(t *testing.T) {
	p, err := IRMAExact(IRMAX0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for k := range p.Start {
		end := p.End
		if k+1 < len(p.Start) {
			end = p.Start[k+1]
		}
		for s := p.Start[k] + 1e-6; s < end-1e-6; s += 1e-2 {
			x := p.At(s)
			for j, th := range IRMAThresholds {
				if (x[th.State] > th.Value) != (p.Alpha[k][j] == 1) {
					t.Fatalf("t = %g: ψ%d = %g but α = %g", s, j, x[th.State]-th.Value, p.Alpha[k][j])
				}
			}
		}
	}
	// The model's F at a consistent z equals IRMARHS (both lifted and not,
	// raw and relative switching functions).
	for _, v := range []int{0, 1, 2, 3} {
		lift := v&1 == 1
		m, _ := IRMAModel(lift)
		if v >= 2 {
			m, _ = IRMARelativeModel(lift)
		}
		d, err := m.Reformulate(dcs.Options{Formulation: dcs.Step})
		if err != nil {
			t.Fatal(err)
		}
		for k := range p.Start {
			end := p.End
			if k+1 < len(p.Start) {
				end = p.Start[k+1]
			}
			tm := (p.Start[k] + end) / 2
			x := p.At(tm)
			z, err := d.InitialGuess(x, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			f, err := d.EvalF(x, nil, nil, z, 0)
			if err != nil {
				t.Fatal(err)
			}
			want := IRMARHS(x, p.Alpha[k])
			for i := range f {
				if math.Abs(f[i]-want[i]) > 1e-15 {
					t.Fatalf("lift %v, t = %g: F = %v, want %v", lift, tm, f, want)
				}
			}
		}
	}
}

// TestIRMAOnThreshold: a start on a threshold has no defined side.
func TestIRMAOnThreshold(t *testing.T) {
	x := append([]float64(nil), IRMAX0...)
	x[0] = 0.01
	if _, err := IRMAExact(x, 10); err == nil {
		t.Error("no error for x₀ on a threshold")
	}
}

// TestIRMADX0: the exact ∂x(100)/∂x₀ by the variational equation and
// saltation matrices agrees with central differences of IRMAExact. The
// quotient's error is O(δ²) plus rounding of about ε|x|/δ; measured, the
// relative differences are 4.4e-9, 4.8e-11 and 2.9e-11 for δ = 1e-5, 1e-6
// and 3e-7 (the δ² law down to 1e-6, then rounding).
func TestIRMADX0(t *testing.T) {
	const T = 100.0
	p, err := IRMAExact(IRMAX0, T)
	if err != nil {
		t.Fatal(err)
	}
	S, err := IRMADX0(p, T)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ delta, tol float64 }{{1e-5, 1e-8}, {1e-6, 2e-10}, {3e-7, 1e-10}} {
		scale, worst := 0.0, 0.0
		for j := range IRMAX0 {
			xp := append([]float64(nil), IRMAX0...)
			xm := append([]float64(nil), IRMAX0...)
			xp[j] += c.delta
			xm[j] -= c.delta
			ep, err := IRMAExact(xp, T)
			if err != nil {
				t.Fatal(err)
			}
			em, err := IRMAExact(xm, T)
			if err != nil {
				t.Fatal(err)
			}
			a, b := ep.At(T), em.At(T)
			for i := range a {
				fd := (a[i] - b[i]) / (2 * c.delta)
				scale = math.Max(scale, math.Abs(S[i][j]))
				worst = math.Max(worst, math.Abs(fd-S[i][j]))
			}
		}
		t.Logf("δ = %g: largest entry %.4g, difference %.2e relative", c.delta, scale, worst/scale)
		if worst > c.tol*scale {
			t.Errorf("δ = %g: IRMADX0 differs from central differences by %.2e relative", c.delta, worst/scale)
		}
	}
}
