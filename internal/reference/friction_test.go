package reference

import (
	"math"
	"sync"
	"testing"
)

// frictionDefault is Friction(FrictionX0, FrictionTEnd, FrictionOptions{}),
// computed once for the tests of this binary that only read it.
var frictionDefault = sync.OnceValues(func() (*FrictionSolution, error) {
	return Friction(FrictionX0, FrictionTEnd, FrictionOptions{})
})

// frictionGridErr is the benchmark's metric: the largest Euclidean norm of
// the 6-vector difference over t = 0, 0.05, …, 10.
func frictionGridErr(a, b *FrictionSolution) float64 {
	worst := 0.0
	for k := 0; k <= 200; k++ {
		t := 0.05 * float64(k)
		xa, xb := a.At(t), b.At(t)
		s := 0.0
		for i := range xa {
			s += (xa[i] - xb[i]) * (xa[i] - xb[i])
		}
		worst = math.Max(worst, math.Sqrt(s))
	}
	return worst
}

// TestFrictionEvents: Stewart (1996, §5) reports 22 switching points
// on [0, 10]; mass 1 sticks for a long stretch with a small margin (a
// spurious slip there is a bug). The reference finds 22 events: 21 velocity
// reversals and mass 1 sticking at t ≈ 3.729 for the rest of the horizon.
func TestFrictionEvents(t *testing.T) {
	s, err := frictionDefault()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Events) != 22 {
		t.Fatalf("%d events, want 22", len(s.Events))
	}
	stick := 0
	for _, e := range s.Events {
		if e.Kind == "stick" {
			stick++
			if e.Psi != 0 || math.Abs(e.T-3.729) > 1e-3 {
				t.Errorf("stick %+v, want mass 1 at t ≈ 3.729", e)
			}
		}
	}
	if stick != 1 {
		t.Errorf("%d stick events, want 1", stick)
	}
	// Consistency of every segment on a grid: slipping masses keep the
	// sign of their velocity, stuck ones have v = 0 and |F| ≤ 0.3.
	minMargin := math.Inf(1)
	for k := range s.Start {
		end := s.End
		if k+1 < len(s.Start) {
			end = s.Start[k+1]
		}
		for tm := s.Start[k] + 1e-9; tm < end; tm += 1e-3 {
			x := s.At(tm)
			f := FrictionForce(x, tm)
			for j := 0; j < 3; j++ {
				switch m := s.Mode[k][j]; m {
				case 0:
					if x[3+j] != 0 || math.Abs(f[j]) > FrictionMu {
						t.Fatalf("t = %g: stuck mass %d has v = %g, F = %g", tm, j+1, x[3+j], f[j])
					}
					minMargin = math.Min(minMargin, FrictionMu-math.Abs(f[j]))
				default:
					if float64(m)*x[3+j] < 0 {
						t.Fatalf("t = %g: mass %d slips with sign %d but v = %g", tm, j+1, m, x[3+j])
					}
				}
			}
		}
	}
	t.Logf("smallest stick margin 0.3 − |F₁| = %.3g", minMargin)
}

// TestFrictionRK4Convergence: the same event logic with the classical RK4
// flow (steps h, and the event scan on the same grid) instead of the matrix
// exponential converges to the reference at fourth order and agrees to
// 1e-11 at h = 5e-4 (benchmark metric; measured 1.3e-9, 8.3e-11, 5.3e-12 for
// h = 2e-3, 1e-3, 5e-4). This checks the exponential flow and the event
// location (bisection on the RK4 flow finds the same events).
func TestFrictionRK4Convergence(t *testing.T) {
	ref, err := frictionDefault()
	if err != nil {
		t.Fatal(err)
	}
	var errs []float64
	hs := []float64{2e-3, 1e-3, 5e-4}
	for _, h := range hs {
		s, err := Friction(FrictionX0, FrictionTEnd, FrictionOptions{RK4Step: h, Sample: h})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Events) != len(ref.Events) {
			t.Fatalf("h = %g: %d events, want %d", h, len(s.Events), len(ref.Events))
		}
		errs = append(errs, frictionGridErr(s, ref))
	}
	for i := 1; i < len(errs); i++ {
		if p := math.Log2(errs[i-1] / errs[i]); p < 3.7 || p > 4.3 {
			t.Errorf("observed order %.2f between h = %g and %g, want 4", p, hs[i-1], hs[i])
		}
	}
	if errs[len(errs)-1] > 1e-11 {
		t.Errorf("RK4 h = 5e-4 differs by %.3g > 1e-11", errs[len(errs)-1])
	}
	t.Logf("RK4 errors %v", errs)
}

// TestFrictionSampleIndependent: the scan spacing only brackets events;
// a different spacing gives the same solution to round-off.
func TestFrictionSampleIndependent(t *testing.T) {
	a, err := frictionDefault()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Friction(FrictionX0, FrictionTEnd, FrictionOptions{Sample: 3.7e-3})
	if err != nil {
		t.Fatal(err)
	}
	if e := frictionGridErr(a, b); e > 1e-12 {
		t.Errorf("sample 1e-3 vs 3.7e-3: %.3g > 1e-12", e)
	}
	for i := range a.Events {
		if d := math.Abs(a.Events[i].T - b.Events[i].T); d > 1e-12 {
			t.Errorf("event %d: %.3g apart", i, d)
		}
	}
}

// TestFrictionDX0: the exact sensitivity by the variational equation and
// saltation matrices agrees with central differences of the solution. The
// quotient's error is its O(δ²) truncation plus the noise of the solution
// (about 2e-13, from the event location and the matrix exponential)
// divided by δ; measured on [0, 2] (four reversals) with δ = 1e-3, 3e-4,
// 1e-4 the relative differences are 9.9e-9, 1.6e-9, 4.2e-9 (the δ² law,
// then the noise); on [0, 5] (eleven reversals and mass 1 sticking at
// t ≈ 3.729, whose saltation matrix removes the v₁ component) 4.6e-9 with
// δ = 3e-4. Under -short [0, 5] only.
func TestFrictionDX0(t *testing.T) {
	for _, c := range []struct {
		T, delta, tol float64
	}{
		{2, 1e-3, 3e-8}, {2, 3e-4, 1e-8}, {2, 1e-4, 1e-8}, {5, 3e-4, 1e-8},
	} {
		if testing.Short() && c.T != 5 {
			continue // -short: [0, 5], with the sticking
		}
		s, err := Friction(FrictionX0, c.T, FrictionOptions{RootTol: 1e-17})
		if err != nil {
			t.Fatal(err)
		}
		S, err := s.DX0(c.T)
		if err != nil {
			t.Fatal(err)
		}
		scale, worst := 0.0, 0.0
		for j := range FrictionX0 {
			xp := append([]float64(nil), FrictionX0...)
			xm := append([]float64(nil), FrictionX0...)
			xp[j] += c.delta
			xm[j] -= c.delta
			sp, err := Friction(xp, c.T, FrictionOptions{RootTol: 1e-17})
			if err != nil {
				t.Fatal(err)
			}
			sm, err := Friction(xm, c.T, FrictionOptions{RootTol: 1e-17})
			if err != nil {
				t.Fatal(err)
			}
			if len(sp.Events) != len(s.Events) || len(sm.Events) != len(s.Events) {
				t.Fatalf("T = %g: x₀ ± δe_%d changes the events", c.T, j)
			}
			a, b := sp.At(c.T), sm.At(c.T)
			for i := range a {
				fd := (a[i] - b[i]) / (2 * c.delta)
				scale = math.Max(scale, math.Abs(S[i][j]))
				worst = math.Max(worst, math.Abs(fd-S[i][j]))
			}
		}
		t.Logf("T = %g (%d events), δ = %g: largest entry %.3g, difference %.2e relative", c.T, len(s.Events), c.delta, scale, worst/scale)
		if worst > c.tol*scale {
			t.Errorf("T = %g, δ = %g: DX0 differs from central differences by %.2e relative", c.T, c.delta, worst/scale)
		}
	}
}
