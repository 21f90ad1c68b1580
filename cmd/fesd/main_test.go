package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCmd runs the program with args and returns its exit status, standard
// output and standard error.
func runCmd(args ...string) (int, string, string) {
	var out, errOut strings.Builder
	code := run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestHelp: -h of the program and of every command exits 0 with the usage
// on standard output; bad usage exits 2.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"help"}, {"help", "simulate"}, {"help", "-h"}, {"check", "-h"}, {"simulate", "-h"}, {"ocp", "-h"}, {"ocp", "-help"}} {
		code, out, _ := runCmd(args...)
		if code != 0 || !strings.Contains(out, "Usage") {
			t.Errorf("%v: exit %d, output %q", args, code, out)
		}
	}
	for _, args := range [][]string{{}, {"solve"}, {"check"}, {"check", "-x", "f.toml"}, {"help", "solve"}, {"check", "a.toml", "b.toml"}} {
		if code, _, _ := runCmd(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestCheckModels checks every file of examples/models.
func TestCheckModels(t *testing.T) {
	files, err := filepath.Glob("../../examples/models/*.toml")
	if err != nil || len(files) < 2 {
		t.Fatalf("model files %v: %v", files, err)
	}
	for _, f := range files {
		code, out, errOut := runCmd("check", f)
		if code != 0 || !strings.Contains(out, "NLP") {
			t.Errorf("%s: exit %d\n%s%s", f, code, out, errOut)
		}
	}
}

// TestBadFile: a bad file exits 1 with file:line:column: message.
func TestBadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.toml")
	if err := os.WriteFile(path, []byte("[[state]]\nname = \"x\"\nx0 = 1\n[dynamics]\nf = \"y\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCmd("simulate", path)
	if want := path + ":5:6: undefined name \"y\" (defined here: x)\n"; code != 1 || errOut != want {
		t.Errorf("exit %d, stderr %q, want %q", code, errOut, want)
	}
}

// TestSimulateIRMA runs fesd simulate on examples/models/irma.toml: the
// README quick start's 36 switches of the exact solution in 1000 minutes
// (examples/irma), with x(1000) within 1e-6 of the exact state
// 0.020127013…, 3.6855008…, 0.36947237…, 0.072861151…, 0.02625 (the quick
// start measures 8.5e-7). With -short, the first 100 minutes of the same
// file in 25 steps: the two crossings of examples/irma's TestRunShort.
func TestSimulateIRMA(t *testing.T) {
	path := "../../examples/models/irma.toml"
	want := 36
	if testing.Short() {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.Replace(strings.Replace(string(src), "TSim = 1000", "TSim = 100", 1), "NSim = 500", "NSim = 25", 1)
		path = filepath.Join(t.TempDir(), "irma100.toml")
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		want = 2
	}
	dir := t.TempDir()
	code, out, errOut := runCmd("simulate", "-json", "-out", dir, path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var sum simSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Switches) != want || sum.Status != "completed" {
		t.Errorf("%d switches (want %d), status %s", len(sum.Switches), want, sum.Status)
	}
	for _, s := range sum.Switches {
		if s.Kind != "crossing" {
			t.Errorf("switch %+v, want crossings only", s)
		}
	}
	if !testing.Short() {
		exact := []float64{0.020127013040322196, 3.685500763031837, 0.3694723749517183, 0.07286115055888454, 0.026250000000000002} // reference.IRMAExact at 1000
		for i := range exact {
			if math.Abs(sum.XFinal[i]-exact[i]) > 1e-6 {
				t.Errorf("x(1000)[%d] = %.10g, exact %.10g", i, sum.XFinal[i], exact[i])
			}
		}
	}
	for _, f := range []string{"trajectory.csv", "stages.csv", "switches.csv", "summary.json", "trajectory.png", "trajectory.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestOCPTurboCar runs fesd ocp on examples/models/turbocar.toml: Solved
// at the discrete optimum T_f = (√58225 − 25)/18 of examples/turbocar
// (tolerance 1e-6, as its test).
func TestOCPTurboCar(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCmd("ocp", "-json", "-out", dir, "../../examples/models/turbocar.toml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var sum ocpSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if want := (math.Sqrt(58225) - 25) / 18; sum.Status != "Solved" || math.Abs(sum.TFinal-want) > 1e-6 {
		t.Errorf("status %s, T_f = %.10g, want Solved, %.10g", sum.Status, sum.TFinal, want)
	}
	for _, f := range []string{"trajectory.csv", "controls.csv", "homotopy.csv", "summary.json", "trajectory.png", "trajectory.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestSet: -set overrides an option through its text form; an unknown
// name or value exits 1 with the valid ones listed, a flag without = exits 2.
func TestSet(t *testing.T) {
	file := "../../examples/models/turbocar.toml"
	code, out, errOut := runCmd("check", "-set", "DCS.Formulation=stewart", file)
	if code != 0 || !strings.Contains(out, "DCS (Stewart)") {
		t.Errorf("exit %d, output %q %q", code, out, errOut)
	}
	code, _, errOut = runCmd("check", "-set", "CrossComp=fe-fe", file)
	if code != 1 || !strings.Contains(errOut, "want one of FE_STAGE, STAGE_STAGE, STAGE_FE, FE_FE") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if code, _, _ = runCmd("check", "-set", "NFE", file); code != 2 {
		t.Errorf("-set NFE: exit %d, want 2", code)
	}
}
