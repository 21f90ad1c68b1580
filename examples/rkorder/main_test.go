package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunSmall runs the program at a small size (s ≤ 2, coarser floor) and
// checks the table, the observed orders (claimed ± 0.3) and summary.json.
func TestRunSmall(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	o := options{MaxStages: 2, Final: 2, Omega: 3, Floor: 1e-9, MaxSteps: 256, MaxStep: 1, OutDir: dir}
	res, err := run(&out, o)
	if err != nil {
		t.Fatal(err)
	}
	// 3 explicit + Radau IIA, Gauss, Radau IA (s = 1, 2) + Lobatto IIIA, IIIC (s = 2).
	if len(res.Rows) != 3+3*2+2 {
		t.Fatalf("%d rows", len(res.Rows))
	}
	for _, r := range res.Rows {
		if math.Abs(r.Observed-float64(r.Claimed)) > 0.3 {
			t.Errorf("%s s=%d: observed %.2f, claimed %d (errors %.3g)", r.Family, r.Stages, r.Observed, r.Claimed, r.Errors)
		}
	}
	if !strings.Contains(out.String(), "RadauIIA") || !strings.Contains(out.String(), "observed") {
		t.Errorf("table missing:\n%s", out.String())
	}
	buf, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var back result
	if err := json.Unmarshal(buf, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Rows) != len(res.Rows) || back.Rows[0].Claimed != 1 {
		t.Errorf("summary.json round trip: %d rows", len(back.Rows))
	}
}

func TestRunRejectsBadOptions(t *testing.T) {
	for _, o := range []options{
		{MaxStages: 0, Final: 2, Omega: 3, Floor: 1e-9, MaxSteps: 256, MaxStep: 1},
		{MaxStages: 2, Final: -1, Omega: 3, Floor: 1e-9, MaxSteps: 256, MaxStep: 1},
		{MaxStages: 2, Final: 2, Omega: 3, Floor: 0, MaxSteps: 256, MaxStep: 1},
	} {
		if _, err := run(&bytes.Buffer{}, o); err == nil {
			t.Errorf("run(%+v) succeeded", o)
		}
	}
}
