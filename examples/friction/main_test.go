package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// TestRun runs the example on [0, 4.5] with h = 0.1 (45 steps of 4
// elements) and checks the outputs and the physics:
//   - the switch sequence (which ψ_j, in which order) equals that of the
//     independent event-driven reference (internal/reference.Friction),
//     with switch times within 1e-5 and the samples within 2e-4 (measured:
//     2.6e-6 and 6.7e-5;
//     with h = 0.1 the samples between step ends come from the collocation
//     polynomial, less accurate inside an element than at its end);
//   - ψ_j = v_j vanishes at every reported switch (|v_j| ≤ 1e-6);
//   - mass 1 sticks from t ≈ 3.729 (reference event) to the end with
//     v₁ ≡ 0 (the stick margin is small there: a spurious slip is a bug),
//     and ψ₀ has no further switch.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	o := defaultOptions()
	o.Out, o.TF, o.H = dir, 4.5, 0.1
	s, err := run(context.Background(), io.Discard, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"trajectory.csv", "elements.csv", "switches.csv", "steps.csv", "summary.json", "friction.png", "friction.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}

	// summary.json has the shared switch shape.
	var js struct {
		Switches []struct {
			T    *float64 `json:"t"`
			Psi  *int     `json:"psi"`
			Kind string   `json:"kind"`
		} `json:"switches"`
		NumSwitches int `json:"num_switches"`
		Failures    int `json:"failures"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &js); err != nil {
		t.Fatal(err)
	}
	if js.NumSwitches != len(js.Switches) || js.NumSwitches == 0 || js.Failures != 0 {
		t.Errorf("summary: %d switches listed, num_switches %d, failures %d", len(js.Switches), js.NumSwitches, js.Failures)
	}
	for _, sw := range js.Switches {
		if sw.T == nil || sw.Psi == nil || sw.Kind == "" {
			t.Errorf("switch %+v lacks t, psi or kind", sw)
		}
	}

	// Samples at t = 0, 0.05, …, 4.5 in trajectory.csv.
	recs := readCSV(t, filepath.Join(dir, "trajectory.csv"))
	if len(recs) != 1+91 || len(recs[0]) != 7 {
		t.Fatalf("trajectory.csv: %d records of %d fields", len(recs), len(recs[0]))
	}
	if v, _ := strconv.ParseFloat(recs[len(recs)-1][0], 64); math.Abs(v-4.5) > 1e-12 {
		t.Errorf("last sample at %v", v)
	}
	if got := readCSV(t, filepath.Join(dir, "switches.csv")); len(got) != 1+len(s.Switches) {
		t.Errorf("switches.csv: %d records for %d switches", len(got), len(s.Switches))
	}

	// Against the reference.
	ref := s.Reference
	if !ref.SameSequence || ref.SwitchTimeMaxError > 1e-5 {
		t.Errorf("switches %+v, reference %+v (max time error %.2e)", s.Switches, ref.Switches, ref.SwitchTimeMaxError)
	}
	if ref.MaxError > 2e-4 {
		t.Errorf("max sample error %.2e against the reference", ref.MaxError)
	}

	// ψ_j = v_j at the reported switches.
	res := s.result
	for _, sw := range res.Switches {
		j := sw.Subsystem // one ψ per contact subsystem
		if v := res.X[sw.Boundary][3+j]; math.Abs(v) > 1e-6 || res.T[sw.Boundary] != sw.Time {
			t.Errorf("switch of v%d at t = %v: v = %.3g", j+1, sw.Time, v)
		}
	}

	// Mass 1 sticks from the reference time 3.7289936 to the end.
	const tStick = 3.7289936123477134 // reference event (internal/reference.Friction)
	if len(s.Sticking) != 1 || s.Sticking[0].Mass != 0 || math.Abs(s.Sticking[0].T0-tStick) > 1e-5 ||
		s.Sticking[0].T1 < 4.5-1e-9 || s.Sticking[0].MaxAbs > 1e-6 {
		t.Errorf("sticking %+v, want mass 1 on [%.6f, 4.5] with v1 ≡ 0", s.Sticking, tStick)
	}
	t.Logf("%d switches, max switch time error %.2e, max sample error %.2e, %d NLP iterations, %.1f s",
		s.NumSwitches, ref.SwitchTimeMaxError, ref.MaxError, s.Iterations, s.WallSeconds)
}

// TestRunStepFailure: implicit Euler with one element per step of 5 s
// cannot hold the switches of the step [5, 10], even in its pieces of
// 5/8 s (fesd.Simulate splits a failed step down to T/8; measured: the
// piece at t = 6.875 ends Infeasible); run must return the step error and
// still write its files with the failure recorded. With a first step that
// fails (-step 10 -nfe 2) the result has no point at all, which must not
// crash the program either.
func TestRunStepFailure(t *testing.T) {
	dir := t.TempDir()
	o := defaultOptions()
	o.Out, o.TF, o.NFE, o.H, o.Stages = dir, 10, 1, 5, 1
	s, err := run(context.Background(), io.Discard, o)
	var se *fesd.StepError
	if !errors.Is(err, fesd.ErrStepFailed) || !errors.As(err, &se) || se.Step != 1 {
		t.Fatalf("err = %v, want the failure of step 1", err)
	}
	if s == nil || s.Failures != 1 || s.FailedAt == nil || *s.FailedAt < 5 || *s.FailedAt >= 10 {
		t.Fatalf("summary %+v", s)
	}
	o2 := o
	o2.Out, o2.H, o2.NFE, o2.Stages = t.TempDir(), 10, 2, 2
	if _, err := run(context.Background(), io.Discard, o2); !errors.Is(err, fesd.ErrStepFailed) {
		t.Errorf("a failed first step: err = %v, want a step failure", err)
	}
	for _, f := range []string{"trajectory.csv", "summary.json", "friction.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []options{
		{Out: t.TempDir(), Stages: 2, NFE: 4, H: 0.05, TF: 1, DCS: dcs.Formulation(7)},
		{Out: t.TempDir(), Stages: 2, NFE: 4, H: 0.3, TF: 1, DCS: dcs.Step},
		{Out: t.TempDir(), Stages: 0, NFE: 4, H: 0.05, TF: 1, DCS: dcs.Step},
	} {
		if _, err := run(context.Background(), io.Discard, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
