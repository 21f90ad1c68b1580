package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/internal/hopper"
)

// TestBadInput: invalid settings are errors, not panics.
func TestBadInput(t *testing.T) {
	mod := func(f func(*config)) config { c := defaultConfig(); f(&c); return c }
	for name, c := range map[string]config{
		"N=0":       mod(func(c *config) { c.N = 0 }),
		"T<0":       mod(func(c *config) { c.T = -1 }),
		"T=NaN":     mod(func(c *config) { c.T = math.NaN() }),
		"goal<x0":   mod(func(c *config) { c.Goal = 0 }),
		"goal=Inf":  mod(func(c *config) { c.Goal = math.Inf(1) }),
		"height":    mod(func(c *config) { c.Height = 2 }),
		"leg":       mod(func(c *config) { c.MidLeg = 0.05 }),
		"nfe":       mod(func(c *config) { c.NFE = 0 }),
		"sot":       mod(func(c *config) { c.SOTMin = 3; c.SOTMax = 2 }),
		"jumps":     mod(func(c *config) { c.Jumps = -1 }),
		"clock tol": mod(func(c *config) { c.ClockTol = math.NaN() }),
	} {
		if err := c.validate(); !errors.Is(err, errConfig) {
			t.Errorf("%s: validate = %v, want errConfig", name, err)
		}
		h, _ := hopper.New(dcs.Step)
		if _, err := buildOCP(h, c); err == nil {
			t.Errorf("%s: buildOCP accepted", name)
		}
	}
	if _, err := hopper.New(dcs.Formulation(7)); err == nil {
		t.Error("unknown formulation accepted")
	}
	for _, args := range [][]string{
		{"-dcs", "pss"}, {"-comp-tol", "-1"}, {"-N", "0"}, {"-T", "-2"}, {"-goal", "-1"}, {"extra"}, {"-nosuchflag"},
	} {
		var buf bytes.Buffer
		if err := runMain(context.Background(), append(args, "-out", t.TempDir()), &buf); err == nil {
			t.Errorf("runMain(%q) accepted", args)
		}
	}
}

// TestStandSmall solves a small OCP with both formulations: N = 4 stages,
// T = 0.4, goal = start and a constant reference (mid point = x₀), i.e. the
// hopper must stand on its foot. Standing is a contact problem: gravity
// pushes the foot into the ground, so the solution slides along f_c = 0
// between free flight and the frozen auxiliary dynamics, with the clock
// rate compensated by the speed of time. Measured (idle 2-core machine):
// Step Solved in 91 NLP iterations, 0.1 s; Stewart Solved in 220
// iterations, 0.5 s; both objective 0.121381, complementarity 0 (the early
// active-set finish), penetration ≤ 4.0e-12, |q(T) − q_end| = 1.43e-3.
// Checks: Solved; complementarity ≤ CompTol; foot penetration ≤
// 2·CompTol (the relaxed complementarity lets the sliding point drift by
// O(σ) below f_c = 0; 1.0e-9 measured); the two formulations give the same
// objective (1e-6 relative; they discretize the same PSS); the clock
// constraint holds; the output files exist. Under -short the same 0.4 s
// are two stages (measured: 1.2 s instead of 2.9 s; both formulations
// Solved with objective 0.122564, |q(T) − q_end| = 7.9e-4), the same checks.
func TestStandSmall(t *testing.T) {
	var objs []float64
	for _, form := range []dcs.Formulation{dcs.Step, dcs.Stewart} {
		c := defaultConfig()
		c.N, c.T, c.Goal, c.Height, c.MidLeg, c.Form = 4, 0.4, hopper.X0()[0], 0.5, 0.5, form
		if testing.Short() {
			c.N = 2
		}
		dir := t.TempDir()
		var buf bytes.Buffer
		s, err := solveAndWrite(context.Background(), c, dir, &buf)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: %s", form, strings.TrimSpace(buf.String()))
		if s.Status != "Solved" {
			t.Fatalf("%v: status %s", form, s.Status)
		}
		if s.CompResidual > c.CompTol {
			t.Errorf("%v: complementarity %g > %g", form, s.CompResidual, c.CompTol)
		}
		if s.MaxPenetration > 2*c.CompTol {
			t.Errorf("%v: foot %g below the ground", form, s.MaxPenetration)
		}
		if s.ClockError > c.ClockTol+1e-9 || !s.ClockMonotone {
			t.Errorf("%v: clock error %g, monotone %v", form, s.ClockError, s.ClockMonotone)
		}
		if s.TerminalPositionError > 5e-3 {
			t.Errorf("%v: |q(T) − q_end| = %g", form, s.TerminalPositionError)
		}
		objs = append(objs, s.Objective)
		for _, f := range []string{"trajectory.csv", "controls.csv", "summary.json", "states.png", "controls.png", "frames.png"} {
			if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
				t.Errorf("%s missing or empty", f)
			}
		}
		var js map[string]any
		raw, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
		if err := json.Unmarshal(raw, &js); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"status", "objective", "nlp_iterations", "wall_seconds", "terminal_position_error", "max_penetration", "flight_phases"} {
			if _, ok := js[k]; !ok {
				t.Errorf("summary.json lacks %q", k)
			}
		}
	}
	if math.Abs(objs[0]-objs[1]) > 1e-6*math.Abs(objs[0]) {
		t.Errorf("objectives differ: Step %.10g, Stewart %.10g", objs[0], objs[1])
	}
}
