package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunSubset runs the program on the kth problems and checks its
// outputs: both files, one entry per problem with a run per side, and the
// summary counts.
func TestRunSubset(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	if err := run(context.Background(), &log, config{out: dir, only: "kth"}); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	md, err := os.ReadFile(filepath.Join(dir, "macmpec.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| kth3 |") {
		t.Errorf("macmpec.md lacks kth3:\n%s", md)
	}
	js, err := os.ReadFile(filepath.Join(dir, "macmpec.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(js, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Entries) != 3 {
		t.Fatalf("%d entries, want kth1, kth2, kth3", len(rep.Entries))
	}
	for _, e := range rep.Entries {
		for _, s := range rep.Sides {
			r := e.Runs[s]
			// kth1–3: MacMPEC's best values 0, 0, 0.5 (package macmpec).
			if r == nil || !r.Reached || r.Iterations == 0 {
				t.Errorf("%s %s: %+v", e.Name, s, r)
			}
		}
	}
	for _, s := range rep.Sides {
		if sum := rep.Summary[s]; sum.Problems != 3 || sum.Reached != 3 {
			t.Errorf("summary %s: %+v", s, sum)
		}
	}
	if err := run(context.Background(), &log, config{out: dir, only: "nonesuch"}); err == nil {
		t.Error("-only nonesuch: no error")
	}
}

// TestRunExplore: with -explore, ex9.2.5 (MacMPEC best 6; the default
// finish ends at the local solution f = 9) reaches the optimum 5 on every
// side, and the report records the setting.
func TestRunExplore(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	for _, explore := range []bool{false, true} {
		if err := run(context.Background(), &log, config{out: dir, only: "ex9.2.5", explore: explore}); err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		js, err := os.ReadFile(filepath.Join(dir, "macmpec.json"))
		if err != nil {
			t.Fatal(err)
		}
		var rep Report
		if err := json.Unmarshal(js, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Explore != explore || len(rep.Entries) != 1 {
			t.Fatalf("explore %v: report %v with %d entries", explore, rep.Explore, len(rep.Entries))
		}
		for _, s := range rep.Sides {
			if r := rep.Entries[0].Runs[s]; r == nil || r.Reached != explore {
				t.Errorf("explore %v, %s: %+v", explore, s, r)
			}
		}
	}
}
