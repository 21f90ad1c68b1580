package main

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestFESDJHoldPose: -dcs fesdj on the standing task (distance 0, N = 2,
// T = 0.2 s). At q₀ with the leg straight the gravity torques vanish
// (h₃ = h₄ = 0 at φ = 0, the package doc of internal/monopod), so
// standing still with u = 0 and the ground carrying the weight is a
// solution of zero cost: the run must end Solved and physically valid
// (fesd.OCPResult.CLSValidity) with objective ≤ 1e-8, ‖q(T) − q*‖ and
// ‖v(T)‖ ≤ 1e-6, no hop, no penetration beyond 1e-6, and the files in
// physical time (no clock: controls.csv's stages end at (k+1)·T/N).
// Measured: objective 8.7e-14, ‖q(T) − q*‖ 9.3e-9, 1 922 NLP iterations,
// 2.9 s CPU.
func TestFESDJHoldPose(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"-dcs", "fesdj", "-N", "2", "-T", "0.2", "-distance", "0", "-out", dir}
	if err := runMain(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	t.Log(strings.TrimSpace(stdout.String()))
	s := readSummary(t, dir)
	if s.DCS != "fesdj" || s.Status != "Solved" || !s.Valid || s.FESDJValidity == nil || s.Validity != nil {
		t.Fatalf("dcs %s, status %s, valid %v, FESD-J validity %v, time-freezing validity %v", s.DCS, s.Status, s.Valid, s.FESDJValidity, s.Validity)
	}
	if s.Objective > 1e-8 || s.TerminalPositionError > 1e-6 || s.TerminalVelocityNorm > 1e-6 || s.Hops != 0 || s.MaxPenetration > 1e-6 {
		t.Errorf("objective %g, ‖q(T)−q*‖ %g, ‖v(T)‖ %g, %d hops, penetration %g", s.Objective, s.TerminalPositionError, s.TerminalVelocityNorm, s.Hops, s.MaxPenetration)
	}
	// at rest the energy is constant and the foot stays on the ground
	// between the nodes too
	if s.EnergyGain > 1e-6 || s.PenetrationBetween > 1e-6 {
		t.Errorf("energy rises by %g J beyond the torques' work at t = %g; foot %g m below the ground between the nodes", s.EnergyGain, s.EnergyGainTime, s.PenetrationBetween)
	}
	if s.CompResidual > 1.01*compTol || s.ConstraintViolation > nlpTol {
		t.Errorf("complementarity %g, constraint violation %g", s.CompResidual, s.ConstraintViolation)
	}
	ctl := readCSV(t, filepath.Join(dir, "controls.csv"))
	if len(ctl) != 2 {
		t.Fatalf("controls.csv: %d rows", len(ctl))
	}
	for k, c := range ctl {
		if want := float64(k+1) * 0.1; math.Abs(c["t_end"]-want) > 1e-12 || c["speed_of_time"] != 1 {
			t.Errorf("stage %d: ends at %v (want %v), speed of time %v (want 1)", k, c["t_end"], want, c["speed_of_time"])
		}
	}
	if elems := readCSV(t, filepath.Join(dir, "elements.csv")); len(elems) != 6 {
		t.Errorf("elements.csv: %d rows, want N·N_FE = 6", len(elems))
	}
}

// TestFESDJFlag: -dcs takes fesdj in any case beside step and stewart.
func TestFESDJFlag(t *testing.T) {
	for _, v := range []string{"fesdj", "FESDJ", "fesd-j"} {
		c := defaultConfig()
		if err := (formFlag{&c}).Set(v); err != nil || !c.FESDJ || c.dcsName() != "fesdj" {
			t.Errorf("-dcs %s: %v, FESDJ %v", v, err, c.FESDJ)
		}
	}
	c := defaultConfig()
	c.FESDJ = true
	if err := (formFlag{&c}).Set("stewart"); err != nil || c.FESDJ || c.dcsName() != "Stewart" {
		t.Errorf("-dcs stewart after fesdj: %v, FESDJ %v, %s", err, c.FESDJ, c.dcsName())
	}
}
