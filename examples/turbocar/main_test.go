package main

import (
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestRun solves the turbo car without a speed limit, where the discrete
// optimum equals the continuous bang-bang T* = 4 + 2(√2800 − 10)/15
// (measured error 1e-8), and with nosnoc's v_max = 25, where the discrete
// optimum of the found control structure is (√58225 − 25)/18 = 12.01659
// (package comment; the continuous T* = 11.8 needs control switches off
// the stage grid). Both must reach (200, 0) to 1e-8.
func TestRun(t *testing.T) {
	for _, c := range []struct {
		vmax, want, tol float64
	}{
		{0, 4 + 2*(math.Sqrt(2800)-10)/15, 1e-6},
		{25, (math.Sqrt(58225) - 25) / 18, 1e-6},
	} {
		o := defaultOptions()
		o.Out = t.TempDir()
		o.VMax = c.vmax
		s, err := run(context.Background(), io.Discard, o)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(s.TFinal-c.want) > c.tol {
			t.Errorf("v_max %g: T_f = %.10f, want %.10f", c.vmax, s.TFinal, c.want)
		}
		if s.TFinal < s.TStar-1e-6 {
			t.Errorf("v_max %g: T_f = %g below the continuous optimum %g", c.vmax, s.TFinal, s.TStar)
		}
		if s.TerminalError > 1e-8 {
			t.Errorf("v_max %g: terminal error %g", c.vmax, s.TerminalError)
		}
		if c.vmax > 0 && s.MaxSpeed > c.vmax+1e-6 {
			t.Errorf("speed %g above v_max", s.MaxSpeed)
		}
		for _, f := range []string{"summary.json", "trajectory.csv", "controls.csv", "homotopy.csv", "turbocar.png", "turbocar.svg"} {
			if _, err := os.Stat(filepath.Join(o.Out, f)); err != nil {
				t.Error(err)
			}
		}
	}
}
