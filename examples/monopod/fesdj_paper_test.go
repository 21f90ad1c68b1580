package main

import (
	"bytes"
	"context"
	"os"
	"testing"
)

// TestFESDJPaperN30 runs go run ./examples/monopod -N 30 -dcs fesdj, the
// task of 004 §7.2 without time freezing, and checks the monopod issue's
// acceptance of a result: Solved (complementarity ≤ 1e-5, the paper's
// tolerance) and physically valid (fesd.OCPResult.CLSValidity: the foot
// at most 1 mm below the ground, no force or impulse above 1e-3 at a gap
// of 1 mm or more, Newton's law at every impulse), at least two flight
// phases each ended by a landing, ‖q(T) − q*‖ ≤ 2e-2 and ‖v(T)‖ ≤ 0.1.
// Measured (package doc): ‖q(T) − q*‖ = 3.3e-3, ‖v(T)‖ = 0.051, 8
// flights, complementarity 2.4e-6, 142–146 s CPU. It does not pass: the
// leap's sticking element dips 3.0 cm into the ground between its stage
// points (CLSValidity.MaxPenetrationBetween) and gains 73.5 J of energy
// there (the discretization, package doc), so the result is Invalid. It
// runs only with FESD_PAPER_OCP=1 (as internal/impactocp's acceptance
// tests), until a FESD-J monopod passes.
func TestFESDJPaperN30(t *testing.T) {
	if os.Getenv("FESD_PAPER_OCP") == "" {
		t.Skip("the issue-47 acceptance of the FESD-J monopod, not met (see the comment); set FESD_PAPER_OCP=1 to run it (about 150 s CPU)")
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := runMain(context.Background(), []string{"-dcs", "fesdj", "-N", "30", "-out", dir}, &stdout, &stderr)
	t.Log(stdout.String())
	if err != nil {
		t.Fatal(err)
	}
	s := readSummary(t, dir)
	v := s.FESDJValidity
	if s.Status != "Solved" || !s.Valid || v == nil || s.CompResidual > compTol {
		t.Fatalf("status %s, valid %v, complementarity %g", s.Status, s.Valid, s.CompResidual)
	}
	if v.Flights < 2 || v.Landings < 2 {
		t.Errorf("%d flights, %d landings, want ≥ 2 each", v.Flights, v.Landings)
	}
	if s.TerminalPositionError > 2e-2 || s.TerminalVelocityNorm > 0.1 {
		t.Errorf("‖q(T) − q*‖ = %g (want ≤ 2e-2), ‖v(T)‖ = %g (want ≤ 0.1)", s.TerminalPositionError, s.TerminalVelocityNorm)
	}
}
