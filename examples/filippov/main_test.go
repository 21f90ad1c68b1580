package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestRun runs the example at its default size (T = 1.5, 5 steps of 2
// elements, n_s = 2, both DCS) and checks every case against its closed form
// (cases.go):
//
//	(a) x(T) = T − 1/3, one crossing at t = 1/3;
//	(b) x(T) = 0, one entering sliding at the root t_s ≈ 0.43696 of
//	    −0.5 + t + 0.04(1 − cos 5t);
//	(c) x(T) = (T − 1)²/2 = 1/8, one leaving sliding at t = 1;
//	(d) x ≡ 0 with no switch, or one spontaneous switch at t_s with
//	    |x(T)| = T − t_s (both are Filippov solutions).
//
// x(T) must be within 1e-6 of the closed form. The switch times of (a) and
// (c) are exact up to the complementarity tolerance (1e-6 here; measured
// 4e-10 and 8e-7); that of (b) carries the Radau IIA error of the smooth
// phase ẋ = 1 + 0.2 sin 5t (measured 5.6e-5 with n_s = 2, h₀ = 0.15), hence
// 1e-4.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	o := defaultOptions()
	o.Out = dir
	s, err := run(context.Background(), io.Discard, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Cases) != 8 {
		t.Fatalf("%d case results, want 4 cases × 2 DCS", len(s.Cases))
	}
	switchTol := map[string]float64{"a": 1e-6, "b": 1e-4, "c": 1e-6}
	for _, r := range s.Cases {
		name := r.Case + "/" + r.DCS
		if r.Failures != 0 {
			t.Errorf("%s: failed: %s", name, r.Message)
			continue
		}
		if r.Error > 1e-6 || math.Abs(r.XT-r.XTExact) > 1e-6 {
			t.Errorf("%s: x(T) = %.12g, closed form %.12g", name, r.XT, r.XTExact)
		}
		if r.Case == "d" {
			switch len(r.Switches) {
			case 0:
				if math.Abs(r.XT) > 1e-6 {
					t.Errorf("%s: no switch but x(T) = %g", name, r.XT)
				}
			case 1:
				sw := r.Switches[0]
				if sw.Kind != "spontaneous" || math.Abs(math.Abs(r.XT)-(o.TF-sw.T)) > 1e-6 {
					t.Errorf("%s: %+v with x(T) = %g is not a Filippov solution", name, sw, r.XT)
				}
			default:
				t.Errorf("%s: switches %+v", name, r.Switches)
			}
			continue
		}
		if len(r.Switches) != 1 || r.Switches[0].Kind != r.ExpectKind || r.Switches[0].Psi != 0 {
			t.Errorf("%s: switches %+v, want one %s", name, r.Switches, r.ExpectKind)
			continue
		}
		if r.SwitchError == nil || *r.SwitchError > switchTol[r.Case] {
			t.Errorf("%s: switch at %v, closed form %v", name, r.Switches[0].T, *r.ExpectTime)
		}
	}
	// Closed-form switch times used above.
	if ts := enterTime(); math.Abs(x0b+ts+0.04*(1-math.Cos(5*ts))) > 1e-15 || math.Abs(ts-0.43696) > 1e-5 {
		t.Errorf("enterTime = %v", ts)
	}

	// Files.
	for _, f := range s.Files {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, f := range []string{"summary.json", "cases.png", "cases.svg", "figure2.png", "figure2.svg",
		"traj_a_step.csv", "traj_c_stewart.csv", "stages_b_step.csv", "switches_a_step.csv", "exact_d.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	var js struct {
		Cases []struct {
			Case     string `json:"case"`
			Switches []struct {
				T    *float64 `json:"t"`
				Psi  *int     `json:"psi"`
				Kind string   `json:"kind"`
			} `json:"switches"`
		} `json:"cases"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Cases) != 8 || len(js.Cases[0].Switches) != 1 || js.Cases[0].Switches[0].Kind != "crossing" ||
		js.Cases[0].Switches[0].T == nil || js.Cases[0].Switches[0].Psi == nil {
		t.Errorf("summary.json cases: %+v", js.Cases)
	}
	// The trajectory CSV ends at T with x(T).
	f, err := os.Open(filepath.Join(dir, "traj_a_step.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	last := recs[len(recs)-1]
	tT, _ := strconv.ParseFloat(last[0], 64)
	xT, _ := strconv.ParseFloat(last[1], 64)
	if math.Abs(tT-o.TF) > 1e-12 || xT != s.Cases[0].XT {
		t.Errorf("traj_a_step.csv ends with %q, want T = %v, x = %v", last, o.TF, s.Cases[0].XT)
	}
}

func TestBadOptions(t *testing.T) {
	o := defaultOptions()
	o.Out, o.DCS = t.TempDir(), "nosuch"
	if _, err := run(context.Background(), io.Discard, o); err == nil {
		t.Error("unknown -dcs: no error")
	}
	o.DCS, o.NSim = "step", 0
	if _, err := run(context.Background(), io.Discard, o); err == nil {
		t.Error("nsim = 0: no error")
	}
}
