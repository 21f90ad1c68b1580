package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestRunTiny runs the whole program on the smallest sizes (one run per
// solver) and checks its outputs.
func TestRunTiny(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	if err := run(context.Background(), &log, config{out: dir, pairs: 1, tiny: true}); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	for _, f := range []string{"bench.json", "bench.md", "periter.png", "periter.svg", "total.png", "total.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	js, err := os.ReadFile(filepath.Join(dir, "bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(js, &rep); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, e := range rep.Entries {
		kinds[e.Kind]++
		if (e.Kind == "fesd" || e.Kind == "monopod") && e.Native.Iterations == 0 {
			t.Errorf("%s: %+v", e.Name, e.Native)
		}
		if e.Kind == "monopod" && (e.Vars == 0 || e.BuildMS <= 0) {
			t.Errorf("%s: n = %d, build %v ms", e.Name, e.Vars, e.BuildMS)
		}
		if rep.IPOPT && e.Kind != "ocp" && e.IPOPT == nil {
			t.Errorf("%s: no IPOPT result (%s)", e.Name, e.IPOPTNote)
		}
		if e.Kind == "ocp" && (e.Native.Status != "Solved" || e.Native.Iterations == 0) {
			t.Errorf("%s: %+v", e.Name, e.Native)
		}
		if rep.IPOPT && e.Kind == "ocp" && (e.IPOPT == nil || e.IPOPT.Status != "Solved") {
			t.Errorf("%s: IPOPT %+v", e.Name, e.IPOPT)
		}
	}
	for _, k := range []string{"ocp", "homotopy", "fesd", "monopod"} {
		if kinds[k] == 0 {
			t.Errorf("no %s entry", k)
		}
	}
}
