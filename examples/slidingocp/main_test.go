package main

import (
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// TestRun solves the sliding-mode OCP at a small size (N = 6, N_FE = 3,
// step DCS) and checks nosnoc's acceptance test: the target (x₁, x₂)(4) =
// (−π/6, −π/4) is hit to 1e-4 and the time grid ends at T = 4. Measured
// objective 5.6066 (N_FE = 3) and 5.5924 (N_FE = 6, both DCS).
func TestRun(t *testing.T) {
	for _, form := range []dcs.Formulation{dcs.Step, dcs.Stewart} {
		dcsName := form.String()
		o := defaultOptions()
		o.Out = t.TempDir()
		o.NFE = 3
		o.DCS = form
		if form == dcs.Stewart {
			o.Cross = fesd.FEStage
		}
		s, err := run(context.Background(), io.Discard, o)
		if err != nil {
			t.Fatal(dcsName, err)
		}
		if s.TerminalError > 1e-4 {
			t.Errorf("%s: target error %g", dcsName, s.TerminalError)
		}
		if math.Abs(s.TFinal-4) > 1e-12 {
			t.Errorf("%s: time grid ends at %g", dcsName, s.TFinal)
		}
		if s.Objective <= 0 || s.Objective > 10 {
			t.Errorf("%s: objective %g", dcsName, s.Objective)
		}
		for _, f := range []string{"summary.json", "trajectory.csv", "controls.csv", "homotopy.csv", "states.png", "phase.svg"} {
			if _, err := os.Stat(filepath.Join(o.Out, f)); err != nil {
				t.Error(err)
			}
		}
	}
}
