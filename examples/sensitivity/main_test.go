package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/internal/reference"
	"github.com/fesd-go/fesd/rk"
)

// TestCrossingClosedForm checks the closed form of the crossing case
// against independent computations: the switch of crossX0 is at t = 1;
// composite Simpson quadrature of f₋ over [0, t_s] brings x₀ to 0 and of
// f₊ over [t_s, T] gives crossingExact (both to 1e-12, the quadrature error
// with 2000 intervals is below 1e-14); and crossingSensitivity equals the
// central difference quotient (δ = 1e-6) of crossingExact to 1e-8 (its
// truncation error is O(δ²), its rounding error about 1e-10).
func TestCrossingClosedForm(t *testing.T) {
	ts := crossingSwitch(crossX0)
	if math.Abs(ts-1) > 1e-14 {
		t.Errorf("t_s = %.17g, want 1", ts)
	}
	simpson := func(f func(float64) float64, a, b float64) float64 {
		const n = 2000
		h := (b - a) / n
		s := f(a) + f(b)
		for i := 1; i < n; i++ {
			w := 2.0
			if i%2 == 1 {
				w = 4
			}
			s += w * f(a+float64(i)*h)
		}
		return s * h / 3
	}
	fMinus := func(t float64) float64 { return 3 + crossA*math.Sin(crossW*t) }
	fPlus := func(t float64) float64 { return 1 + crossA*math.Sin(crossW*t) }
	if r := crossX0 + simpson(fMinus, 0, ts); math.Abs(r) > 1e-12 {
		t.Errorf("x(t_s) = %g by quadrature, want 0", r)
	}
	if q, c := simpson(fPlus, ts, crossT), crossingExact(crossX0, crossT); math.Abs(q-c) > 1e-12 {
		t.Errorf("x(T) = %.15g by quadrature, closed form %.15g", q, c)
	}
	const delta = 1e-6
	fd := (crossingExact(crossX0+delta, crossT) - crossingExact(crossX0-delta, crossT)) / (2 * delta)
	if s := crossingSensitivity(crossX0); math.Abs(fd-s) > 1e-8 {
		t.Errorf("∂x(T)/∂x₀ = %.12g, central difference %.12g", s, fd)
	}
}

// TestReferences: the exact ∂x(T)/∂x₀ of the irma, sliding and friction
// cases agree with central differences of their exact solutions (IRMAExact,
// slidingExact, reference.Friction with event brackets at machine
// precision), whose error is the O(δ²) truncation plus rounding:
// measured relative differences 4.8e-11 (irma, δ = 1e-6), … (sliding,
// δ = 1e-5) and 1.6e-9 (friction, δ = 3e-4; the friction solution carries
// noise of about 2e-13 from its event location and matrix exponential,
// which the quotient divides by δ).
func TestReferences(t *testing.T) {
	cases := []struct {
		name       string
		delta, tol float64
		solve      func(x0 []float64, T float64) ([]float64, int, error)
	}{
		{"irma", 1e-6, 2e-10, func(x0 []float64, T float64) ([]float64, int, error) {
			p, err := reference.IRMAExact(x0, T)
			if err != nil {
				return nil, 0, err
			}
			return p.At(T), len(p.Events), nil
		}},
		{"sliding", 1e-5, 1e-9, func(x0 []float64, T float64) ([]float64, int, error) {
			return slidingExact(x0, T), 1, nil
		}},
		{"friction", 3e-4, 1e-8, func(x0 []float64, T float64) ([]float64, int, error) {
			s, err := reference.Friction(x0, T, reference.FrictionOptions{RootTol: 1e-17})
			if err != nil {
				return nil, 0, err
			}
			return s.At(T), len(s.Events), nil
		}},
	}
	for _, c := range cases {
		p, err := lookupProblem(c.name)
		if err != nil {
			t.Fatal(err)
		}
		S, xT, err := centralDifferences(p.X0, c.delta, func(x []float64) ([]float64, int, error) { return c.solve(x, p.TSim) })
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if d := maxDiff(xT, p.XT); d > 1e-14 {
			t.Errorf("%s: x(T) differs by %.2e", c.name, d)
		}
		e := relError(S, p.SExact)
		t.Logf("%s: central differences (δ = %g) differ by %.2e relative", c.name, c.delta, e)
		if !(e < c.tol) {
			t.Errorf("%s: central differences (δ = %g) differ by %.2e relative, want < %.0e", c.name, c.delta, e, c.tol)
		}
	}
}

// centralDifferences returns the central difference quotient (column j
// from x₀ ± δe_j) of the map solve and its value at x₀. solve also returns
// the number of events on the way; the perturbed solutions must have as
// many (a change of the event sequence makes the quotient meaningless).
func centralDifferences(x0 []float64, delta float64, solve func([]float64) ([]float64, int, error)) ([][]float64, []float64, error) {
	xT, nev, err := solve(x0)
	if err != nil {
		return nil, nil, err
	}
	n := len(x0)
	S := make([][]float64, len(xT))
	for i := range S {
		S[i] = make([]float64, n)
	}
	for j := range x0 {
		xp := append([]float64(nil), x0...)
		xm := append([]float64(nil), x0...)
		xp[j] += delta
		xm[j] -= delta
		a, np, err := solve(xp)
		if err != nil {
			return nil, nil, err
		}
		b, nm, err := solve(xm)
		if err != nil {
			return nil, nil, err
		}
		if np != nev || nm != nev {
			return nil, nil, fmt.Errorf("x₀ ± δe_%d changes the number of events (%d, %d, %d)", j, nm, nev, np)
		}
		for i := range a {
			S[i][j] = (a[i] - b[i]) / (2 * delta)
		}
	}
	return S, xT, nil
}

// TestTinySweep runs the -tiny sweep (the crossing case, Radau IIA n_s = 2,
// N_sim = 3, 9, 27, FESD and time stepping) and checks the outputs, that
// the FESD sensitivities converge with order 3 ± 0.5 and that those of time
// stepping do not converge (measured: FESD slope 2.85, errors 9.2e-5 …
// 1.6e-7; time stepping ∂x(T)/∂x₀ = 1 at every N_sim, relative error 1.41).
func TestTinySweep(t *testing.T) {
	dir := t.TempDir()
	o := tinyOptions(defaultOptions())
	o.Out, o.Quiet = dir, true
	st, err := run(context.Background(), io.Discard, o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "sensitivity.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The file holds the study that run returned (encoding/json writes
	// float64 values that parse back exactly).
	var js study
	if err := json.Unmarshal(b, &js); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&js, st) {
		t.Fatalf("sensitivity.json differs from the study: %s", b)
	}
	if len(js.Problems) != 1 || js.Problems[0].Problem != "crossing" || len(js.Problems[0].Runs) != 2 || js.Problems[0].Runs[0].FESD == js.Problems[0].Runs[1].FESD {
		t.Fatalf("sensitivity.json: %s", b)
	}
	for _, r := range js.Problems[0].Runs {
		if r.Scheme != "radau_iia" || r.NS != 2 || r.Order != 3 || len(r.Points) != 3 {
			t.Fatalf("run %+v", r)
		}
		var errs []float64
		for _, p := range r.Points {
			if p.Error == nil || p.Status != "ok" || !(p.HMax > 0) {
				t.Fatalf("fesd %v: point %+v", r.FESD, p)
			}
			errs = append(errs, *p.Error)
		}
		if r.Slope == nil {
			t.Fatalf("fesd %v: no slope", r.FESD)
		}
		if r.FESD {
			if s := *r.Slope; math.Abs(s-3) > 0.5 {
				t.Errorf("FESD slope %.2f, want 3 ± 0.5 (errors %.2e)", s, errs)
			}
		} else {
			// Not converging: no error below 0.1, and no decrease like h^p.
			for _, e := range errs {
				if e < 0.1 {
					t.Errorf("time stepping error %.2e < 0.1 (errors %.2e)", e, errs)
				}
			}
			if *r.Slope > 0.5 {
				t.Errorf("time stepping slope %.2f > 0.5 (errors %.2e)", *r.Slope, errs)
			}
		}
	}
	for _, f := range []string{"sensitivity.csv", "table.txt", "sensitivity.png", "sensitivity.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	t.Logf("%.2f s", st.Elapsed)
}

// TestSweeps (long): the default sweeps of the crossing, sliding and
// friction cases (180 simulations, about 20 s of CPU): every FESD slope
// within ±0.5 of the order (measured: crossing 0.93, 2.91, 5.19, 1.76,
// 3.73, 5.68; sliding 0.97, 3.43, 4.86, 1.64, 3.70, 5.88; friction 0.96,
// 3.01, 5.03, 1.92, 3.95, 5.97 for Radau IIA and Gauss–Legendre n_s = 1,
// 2, 3), at most one failed FESD simulation per case (measured: none, none,
// one). Time stepping: through crossings (crossing, friction) slope within
// ±0.5 of 0 and no error below 0.05 (measured: slopes −0.49…0.30, errors
// ≥ 0.077); into the sliding mode with Radau IIA order 1 ± 0.5 (measured
// 0.98, 1.05, 1.15), with Gauss–Legendre n_s = 2, 3 no error below 1
// (measured 2.72…3.11).
func TestSweeps(t *testing.T) {
	if testing.Short() {
		t.Skip("long: 180 simulations (run without -short)")
	}
	o := defaultOptions()
	o.Problems, o.Out, o.Quiet = []string{"crossing", "sliding", "friction"}, "", true
	st, err := run(context.Background(), io.Discard, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, po := range st.Problems {
		failed := 0
		for _, r := range po.Runs {
			name := fmt.Sprintf("%s %s n_s=%d %s", po.Problem, r.Scheme, r.NS, methodName(r.FESD))
			minErr := math.Inf(1)
			for _, p := range r.Points {
				if p.Error == nil {
					if r.FESD {
						failed++
					}
					continue
				}
				minErr = math.Min(minErr, *p.Error)
			}
			want, tol := float64(r.Order), 0.5
			switch {
			case r.FESD:
			case po.Problem == "sliding" && r.Scheme == "radau_iia":
				want = 1
			case po.Problem == "sliding":
				want = math.NaN() // checked by the error alone
				if r.NS > 1 && minErr < 1 {
					t.Errorf("%s: error %.2e < 1", name, minErr)
				}
			default:
				want = 0
				if minErr < 0.05 {
					t.Errorf("%s: error %.2e < 0.05", name, minErr)
				}
			}
			if !math.IsNaN(want) && (r.Slope == nil || math.Abs(*r.Slope-want) > tol) {
				t.Errorf("%s: slope %v, want %g ± %g", name, r.Slope, want, tol)
			}
		}
		if failed > 1 {
			t.Errorf("%s: %d FESD simulations failed", po.Problem, failed)
		}
	}
}

// TestNewCasesShort: short sweeps of the sliding and friction cases, FESD
// and time stepping. Sliding, Radau IIA n_s = 2 at N_sim = 9, 27, 81: FESD
// slope 3 ± 0.5 (measured 3.1; errors 8.6e-5, 1.2e-6, 9.6e-8 against the
// closed form), time stepping 1 ± 0.5 (measured 1.0; errors 3.8e-2 …
// 4.1e-3). Friction, Radau IIA n_s = 2 at N_sim = 10, 20, 40: FESD slope
// 3 ± 0.5 (measured 2.9; errors 3.0e-4, 4.9e-5, 6.9e-6 against the exact
// derivative of the event-driven reference), time stepping no error below
// 0.05 (measured 0.41, 0.80, 0.080). Under -short friction at N_sim = 10,
// 20 only (FESD slope 2.97, time stepping errors 0.41, 0.80).
func TestNewCasesShort(t *testing.T) {
	for _, c := range []struct {
		problem  string
		nsim     []int
		stepping float64 // the slope time stepping must have; NaN: none, only errors ≥ 0.05
	}{
		{"sliding", []int{9, 27, 81}, 1},
		{"friction", []int{10, 20, 40}, math.NaN()},
	} {
		if testing.Short() && c.problem == "friction" {
			c.nsim = c.nsim[:2] // -short: 10 and 20 steps (measured slope 2.97)
		}
		o := defaultOptions()
		o.Problems, o.Schemes, o.Stages, o.NSim, o.Out, o.Quiet = []string{c.problem}, []rk.Family{rk.FamilyRadauIIA}, []int{2}, c.nsim, "", true
		st, err := run(context.Background(), io.Discard, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range st.Problems[0].Runs {
			var errs []float64
			for _, p := range r.Points {
				if p.Error == nil {
					t.Fatalf("%s fesd %v N_sim %d: %s", c.problem, r.FESD, p.NSim, p.Status)
				}
				errs = append(errs, *p.Error)
			}
			if r.Slope == nil {
				t.Fatalf("%s fesd %v: no slope", c.problem, r.FESD)
			}
			t.Logf("%s fesd %v: slope %.2f, errors %.2e", c.problem, r.FESD, *r.Slope, errs)
			switch {
			case r.FESD:
				if math.Abs(*r.Slope-3) > 0.5 {
					t.Errorf("%s FESD: slope %.2f, want 3 ± 0.5 (errors %.2e)", c.problem, *r.Slope, errs)
				}
			case math.IsNaN(c.stepping):
				for _, e := range errs {
					if e < 0.05 {
						t.Errorf("%s time stepping: error %.2e < 0.05 (errors %.2e)", c.problem, e, errs)
					}
				}
			default:
				if math.Abs(*r.Slope-c.stepping) > 0.5 {
					t.Errorf("%s time stepping: slope %.2f, want %g ± 0.5 (errors %.2e)", c.problem, *r.Slope, c.stepping, errs)
				}
			}
		}
	}
}

// TestIRMARadau3 (long): IRMA with Radau IIA n_s = 3 over the default
// N_sim: FESD slope 5 ± 0.5 (measured 4.82 over 8 points; it was 4.45
// against central differences of the exact solution, which hid the
// N_sim = 50 point below their error) and the error at N_sim = 50 below
// 1e-10 (measured 1.35e-11).
func TestIRMARadau3(t *testing.T) {
	if testing.Short() {
		t.Skip("long: IRMA sweep (run without -short)")
	}
	o := defaultOptions()
	o.Problems, o.Schemes, o.Stages, o.FESD, o.Out, o.Quiet = []string{"irma"}, []rk.Family{rk.FamilyRadauIIA}, []int{3}, []bool{true}, "", true
	st, err := run(context.Background(), io.Discard, o)
	if err != nil {
		t.Fatal(err)
	}
	r := st.Problems[0].Runs[0]
	if r.Slope == nil || math.Abs(*r.Slope-5) > 0.5 {
		t.Errorf("slope %v, want 5 ± 0.5", r.Slope)
	}
	for _, p := range r.Points {
		if p.NSim == 50 && (p.Error == nil || *p.Error > 1e-10) {
			t.Errorf("N_sim = 50: error %v (%s), want < 1e-10", p.Error, p.Status)
		}
	}
}

// TestIRMASensitivity (long): IRMA with Radau IIA n_s = 2 at N_sim = 18
// and 50. The acceptance bound: FESD's ∂x(100)/∂x₀ within 1e-5
// of the exact one at N_sim = 50 (measured 2.6e-7), and time stepping's
// not within 0.5 at either N_sim (measured 1: it misses the entries
// that come from the switch times, ∂x₁/∂x₀₀ and ∂x₁/∂x₀₃, entirely).
func TestIRMASensitivity(t *testing.T) {
	if testing.Short() {
		t.Skip("long: IRMA sweep (run without -short)")
	}
	o := defaultOptions()
	o.Problems, o.Schemes, o.Stages, o.NSim, o.Out, o.Quiet = []string{"irma"}, []rk.Family{rk.FamilyRadauIIA}, []int{2}, []int{18, 50}, "", true
	st, err := run(context.Background(), io.Discard, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Problems[0].Runs {
		for _, p := range r.Points {
			if p.Error == nil {
				t.Errorf("fesd %v N_sim %d: %s", r.FESD, p.NSim, p.Status)
				continue
			}
			switch {
			case r.FESD && p.NSim == 50 && *p.Error > 1e-5:
				t.Errorf("FESD N_sim = 50: relative error %.2e > 1e-5", *p.Error)
			case !r.FESD && *p.Error < 0.5:
				t.Errorf("time stepping N_sim = %d: relative error %.2e < 0.5", p.NSim, *p.Error)
			}
		}
	}
}

// TestParseProblem: the -problem flag.
func TestParseProblem(t *testing.T) {
	for in, want := range map[string]string{"all": "irma,crossing,sliding,friction", "irma": "irma", "crossing": "crossing", "sliding": "sliding", "friction": "friction"} {
		o := defaultOptions()
		if err := parseProblem(&o, in); err != nil || strings.Join(o.Problems, ",") != want {
			t.Errorf("%q: %v, %v", in, o.Problems, err)
		}
	}
	o := defaultOptions()
	if err := parseProblem(&o, "oscillator"); err == nil {
		t.Error("no error for an unknown problem")
	}
}

// TestSlidingClosedForm checks the closed form of the sliding case against
// independent computations: x reaches 0 at t_s = 1 (the root equation,
// checked by Simpson quadrature of ẋ = −1 + a sin ωt over [0, t_s] to
// 1e-12), and y(T) equals the classical RK4 solution of ẏ = −y + 1 on
// [0, t_s] and ẏ = −y + a sin ωt on [t_s, T] (the sliding mode) with
// 20 000 steps, to 1e-12 (RK4's error there is below 1e-15).
func TestSlidingClosedForm(t *testing.T) {
	ts := slidingStart(slideX0[0])
	if math.Abs(ts-1) > 1e-14 {
		t.Errorf("t_s = %.17g, want 1", ts)
	}
	const n = 20000
	h := ts / n
	x := slideX0[0]
	xdot := func(t float64) float64 { return -1 + slideA*math.Sin(slideW*t) }
	for i := 0; i < n; i++ {
		t0 := float64(i) * h
		x += h / 6 * (xdot(t0) + 4*xdot(t0+h/2) + xdot(t0+h))
	}
	if math.Abs(x) > 1e-12 {
		t.Errorf("x(t_s) = %g by quadrature, want 0", x)
	}
	rk4 := func(y, t0, t1 float64, f func(t, y float64) float64) float64 {
		h := (t1 - t0) / n
		for i := 0; i < n; i++ {
			t := t0 + float64(i)*h
			k1 := f(t, y)
			k2 := f(t+h/2, y+h/2*k1)
			k3 := f(t+h/2, y+h/2*k2)
			k4 := f(t+h, y+h*k3)
			y += h / 6 * (k1 + 2*k2 + 2*k3 + k4)
		}
		return y
	}
	y := rk4(slideX0[1], 0, ts, func(_, y float64) float64 { return -y + 1 })
	y = rk4(y, ts, slideT, func(t, y float64) float64 { return -y + slideA*math.Sin(slideW*t) })
	if c := slidingExact(slideX0, slideT); math.Abs(c[1]-y) > 1e-12 || c[0] != 0 {
		t.Errorf("(x, y)(T) = %v in closed form, y = %.15g by RK4", c, y)
	}
}
