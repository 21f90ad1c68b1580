package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/fesd-go/fesd/dcs"
)

// TestRun swings the pole up (nosnoc_py's OCP, N = 20, N_FE = 2): with the
// step DCS and the soft terminal cost x(5) must be within 1e-2 of x_ref
// (measured 3.6e-3, objective 678.50); with Stewart's DCS and the hard
// terminal constraint (-hard, initialized at rest) within 1e-8 (measured
// 2e-23, objective 4356.1, a worse local optimum, reached by the second
// homotopy of fesd.OCPSolver.Solve: OCPResult.Rerun). Under -short the
// step DCS only.
func TestRun(t *testing.T) {
	for i, c := range []struct {
		dcs  dcs.Formulation
		init string
		hard bool
		tol  float64
	}{
		{dcs.Step, "linear", false, 1e-2},
		{dcs.Stewart, "rest", true, 1e-8},
	} {
		if testing.Short() && i > 0 {
			break
		}
		o := defaultOptions()
		o.Out = t.TempDir()
		o.DCS, o.Init, o.Hard = c.dcs, c.init, c.hard
		s, err := run(context.Background(), io.Discard, o)
		if err != nil {
			t.Fatal(c.dcs, err)
		}
		if c.hard && s.Rerun == nil {
			t.Errorf("%s hard: one homotopy, want the second's result", c.dcs)
		}
		if s.TerminalError > c.tol {
			t.Errorf("%s hard=%v: terminal error %g > %g", c.dcs, c.hard, s.TerminalError, c.tol)
		}
		for _, f := range []string{"summary.json", "trajectory.csv", "controls.csv", "homotopy.csv", "cartpole.png", "cartpole.svg"} {
			if _, err := os.Stat(filepath.Join(o.Out, f)); err != nil {
				t.Error(err)
			}
		}
	}
}
