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

// TestIRMAReference: the exact ∂x(100)/∂x₀ of IRMA by central differences
// with δ = 1e-6 agrees with δ = 3e-7 to 1e-10 relative to its largest
// entry (measured 1.9e-11). With δ = 1e-5 the difference is 4.4e-9 and
// with 3e-5 4.0e-8, which is the O(δ²) truncation error; it puts that of
// δ = 1e-6 at about 4e-11 (see irmaProblem).
func TestIRMAReference(t *testing.T) {
	a, _, err := irmaExactSensitivity(reference.IRMAX0, 100, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := irmaExactSensitivity(reference.IRMAX0, 100, 3e-7)
	if err != nil {
		t.Fatal(err)
	}
	if e := relError(a, b); !(e < 1e-10) {
		t.Errorf("δ = 1e-6 and 3e-7 differ by %.2e relative", e)
	} else {
		t.Logf("δ = 1e-6 and 3e-7 differ by %.2e relative", e)
	}
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

// TestCrossingSweep (long): the default sweep of the crossing case (36
// simulations, about 2 s): the acceptance on it — every FESD slope
// within ±0.5 of the order (measured 0.93, 2.91, 5.19 for Radau IIA and
// 1.76, 3.58, 5.68 for Gauss–Legendre n_s = 1, 2, 3), and time stepping's
// slopes within ±0.5 of 0 with no error below 0.5 (measured: slope 0.00
// and errors 1.00…3.41 in every row); no simulation fails.
func TestCrossingSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("long: 36 simulations (run without -short)")
	}
	o := defaultOptions()
	o.Problems, o.Out, o.Quiet = []string{"crossing"}, "", true
	st, err := run(context.Background(), io.Discard, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Problems[0].Runs {
		name := fmt.Sprintf("%s n_s=%d %s", r.Scheme, r.NS, methodName(r.FESD))
		for _, p := range r.Points {
			switch {
			case p.Error == nil:
				t.Errorf("%s N_sim=%d: %s", name, p.NSim, p.Status)
			case !r.FESD && *p.Error < 0.5:
				t.Errorf("%s N_sim=%d: error %.2e < 0.5", name, p.NSim, *p.Error)
			}
		}
		want := float64(r.Order)
		if !r.FESD {
			want = 0
		}
		if r.Slope == nil || math.Abs(*r.Slope-want) > 0.5 {
			t.Errorf("%s: slope %v, want %g ± 0.5", name, r.Slope, want)
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
	for in, want := range map[string]string{"both": "irma,crossing", "irma": "irma", "crossing": "crossing"} {
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
