package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
)

// TestRefineChainOrder checks the order of refineChain's runs and ground
// passes, upward and on the descending chain, with a stand-in for the
// solver whose ground passes end Solved only from the sources listed (the
// unconstrained runs all end Solved). The runs of the sweep 4:12:4 must
// be exactly the list below; its comments give the rule each follows.
func TestRefineChainOrder(t *testing.T) {
	// solves[{run, source}]: the ground pass of run from source ends
	// Solved. A restart's source is the pass it restarts.
	solves := map[[2]string]bool{
		{"N8_stewart", "N8_stewart"}:          true,
		{"N12_stewart", "N12_stewart_ground"}: true, // the restart
		{"N12_step", "N12_stewart_ground2"}:   true,
		{"N8_step", "N12_step_ground"}:        true,
		{"N4_stewart", "N8_stewart_ground"}:   true,
		{"N4_step", "N8_step_ground5"}:        true,
	}
	type call struct{ dir, from string }
	want := []call{
		{"N4_stewart", "targets recipe"},
		{"N4_stewart_ground", "N4_stewart"}, // no ground pass below: from the run
		{"N4_stewart_ground2", "N4_stewart_ground"},
		{"N4_step", "N4_stewart"},
		{"N4_step_ground", "N4_step"}, // no Stewart ground pass at N = 4
		{"N4_step_ground2", "N4_step_ground"},
		{"N8_stewart", "N4_stewart"},
		{"N8_stewart_ground", "N8_stewart"}, // solved
		{"N8_step", "N8_stewart"},
		{"N8_step_ground", "N8_stewart_ground"}, // Stewart at the same N first
		{"N8_step_ground2", "N8_step_ground"},
		{"N8_step_ground3", "N8_step"},
		{"N8_step_ground4", "N8_step_ground3"},
		{"N12_stewart", "N8_stewart"},
		{"N12_stewart_ground", "N8_stewart_ground"},   // the chain from below
		{"N12_stewart_ground2", "N12_stewart_ground"}, // the restart solves
		{"N12_step", "N12_stewart"},
		{"N12_step_ground", "N12_stewart_ground2"}, // solved
		// The descending chain: N = 12 is solved in both modes; Step 8 has
		// tried Stewart 8, so from Step 12.
		{"N8_step_ground5", "N12_step_ground"},
		{"N4_stewart_ground3", "N8_stewart_ground"},
		{"N4_step_ground3", "N4_stewart_ground3"}, // Stewart at the same N first
		{"N4_step_ground4", "N4_step_ground3"},
		{"N4_step_ground5", "N8_step_ground5"},
	}
	var got []call
	run := func(cfg config, dir string) (*fesd.OCPResult, error) {
		got = append(got, call{dir, cfg.fromName})
		name := runName(cfg.N, cfg.Form)
		if cfg.FootGround != strings.HasPrefix(dir, name+"_ground") || !strings.HasPrefix(dir, name) {
			t.Errorf("%s: N = %d %s, foot constraint %t", dir, cfg.N, cfg.Form, cfg.FootGround)
		}
		restart := strings.HasPrefix(cfg.fromName, name+"_ground")
		if restart != (cfg.Steering == mpcc.LInf && cfg.InitFrom == nil) && cfg.FootGround {
			t.Errorf("%s from %s: steering %v, init from a result %t", dir, cfg.fromName, cfg.Steering, cfg.InitFrom != nil)
		}
		st := mpcc.Solved
		if cfg.FootGround && !solves[[2]string{name, cfg.fromName}] {
			st = mpcc.SigmaLimit
		}
		return &fesd.OCPResult{Status: st}, nil
	}
	c := defaultConfig()
	if err := refineChain(context.Background(), c, []int{4, 8, 12}, true, run); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("runs:\n%v\nwant\n%v", got, want)
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Errorf("first difference at run %d: %v, want %v", i, got[i], want[i])
				break
			}
		}
	}

	// Without ground passes: the chain only, no descending chain.
	got = nil
	if err := refineChain(context.Background(), c, []int{4, 8}, false, run); err != nil {
		t.Fatal(err)
	}
	if w := []call{{"N4_stewart", "targets recipe"}, {"N4_step", "N4_stewart"}, {"N8_stewart", "N4_stewart"}, {"N8_step", "N8_stewart"}}; fmt.Sprint(got) != fmt.Sprint(w) {
		t.Errorf("without ground passes: %v, want %v", got, w)
	}

	// A cancelled context stops the chain with its error.
	ctx, cancel := context.WithCancel(context.Background())
	got = nil
	stop := func(cfg config, dir string) (*fesd.OCPResult, error) {
		if dir == "N4_stewart_ground" {
			cancel()
		}
		return run(cfg, dir)
	}
	if err := refineChain(ctx, c, []int{4, 8}, true, stop); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v", err)
	}
	if n := len(got); n > 3 {
		t.Errorf("cancelled after the first ground pass: %d runs (%v)", n, got)
	}
}

// TestRecipeConstraints: -terminal-ball replaces the terminal box and
// -refine-baumgarte the gain k = 10 in the refinement recipe (both
// ground passes and unconstrained runs), not in the targets recipe.
func TestRecipeConstraints(t *testing.T) {
	c := defaultConfig()
	g := refinementRecipe(c, nil, "x")
	if g.Baumgarte != 10 || g.TerminalTol != 5e-4 || g.TerminalBall != 0 {
		t.Errorf("default recipe: k %v, box %v, ball %v", g.Baumgarte, g.TerminalTol, g.TerminalBall)
	}
	c.TerminalBall, c.RefineBaumgarte = 9.5e-4, 100
	g = refinementRecipe(c, nil, "x")
	if g.Baumgarte != 100 || g.TerminalTol != 0 || g.TerminalBall != 9.5e-4 {
		t.Errorf("ball recipe: k %v, box %v, ball %v", g.Baumgarte, g.TerminalTol, g.TerminalBall)
	}
	if tr := targetsRecipe(c); tr.TerminalBall != 0 || tr.FinishTerminalTol != 5e-4 || tr.FinishBaumgarte != 10 {
		t.Errorf("targets recipe: ball %v, box %v, k %v", tr.TerminalBall, tr.FinishTerminalTol, tr.FinishBaumgarte)
	}
}

// TestRefineChainInitFrom: with -init-from, the given solution is the
// first source of the first N's ground passes in both modes (before the
// runs made from it), and no other pass uses it.
func TestRefineChainInitFrom(t *testing.T) {
	type call struct{ dir, from string }
	var got []call
	run := func(cfg config, dir string) (*fesd.OCPResult, error) {
		got = append(got, call{dir, cfg.fromName})
		st := mpcc.Solved
		if cfg.FootGround && cfg.fromName != "init.json" && cfg.fromName != "N4_stewart_ground" && cfg.fromName != "N8_stewart_ground" {
			st = mpcc.SigmaLimit
		}
		return &fesd.OCPResult{Status: st}, nil
	}
	c := defaultConfig()
	c.InitFrom, c.fromName = &fesd.OCPResult{}, "init.json"
	if err := refineChain(context.Background(), c, []int{4, 8}, true, run); err != nil {
		t.Fatal(err)
	}
	want := []call{
		{"N4_stewart", "init.json"},
		{"N4_stewart_ground", "init.json"}, // solved: the run is not needed
		{"N4_step", "N4_stewart"},
		{"N4_step_ground", "init.json"}, // solved
		{"N8_stewart", "N4_stewart"},
		{"N8_stewart_ground", "N4_stewart_ground"},
		{"N8_step", "N8_stewart"},
		{"N8_step_ground", "N4_step_ground"}, // the mode's own chain first, fails
		{"N8_step_ground2", "N8_step_ground"},
		{"N8_step_ground3", "N8_stewart_ground"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("runs:\n%v\nwant\n%v", got, want)
	}
}
