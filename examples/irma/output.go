package main

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"

	"github.com/fesd-go/fesd/internal/reference"
	"github.com/fesd-go/fesd/internal/report"
	"gonum.org/v1/plot/vg"
)

// matchSwitches pairs every detected switch with the nearest exact switch
// of the same ψ within window that is not taken yet (in time order). It
// returns the annotated switches, the largest time error among the pairs and
// the numbers of unmatched detected and missed exact switches.
func matchSwitches(det, exact []report.Switch, window float64) ([]switchOut, float64, int, int) {
	used := make([]bool, len(exact))
	out := make([]switchOut, len(det))
	maxErr := 0.0
	unmatched := 0
	for i, d := range det {
		out[i].Switch = d
		best := -1
		for k, e := range exact {
			if used[k] || e.Psi != d.Psi || math.Abs(e.T-d.T) > window {
				continue
			}
			if best < 0 || math.Abs(e.T-d.T) < math.Abs(exact[best].T-d.T) {
				best = k
			}
		}
		if best < 0 {
			unmatched++
			continue
		}
		used[best] = true
		rt, er := exact[best].T, d.T-exact[best].T
		out[i].RefT, out[i].Error = &rt, &er
		maxErr = math.Max(maxErr, math.Abs(er))
	}
	missed := 0
	for _, u := range used {
		if !u {
			missed++
		}
	}
	return out, maxErr, unmatched, missed
}

// write stores the CSV, JSON and plot outputs of r in o.Out.
func write(o options, r *result) error {
	dir, err := report.MakeDir(o.Out)
	if err != nil {
		return err
	}
	res := r.Sim
	if err := report.WriteTrajectoryCSV(filepath.Join(dir, "trajectory.csv"), "t", reference.IRMANames, res.T, res.X); err != nil {
		return err
	}
	if err := report.WriteTrajectoryCSV(filepath.Join(dir, "stages.csv"), "t", reference.IRMANames, res.PointT, res.PointX); err != nil {
		return err
	}
	sw := make([]report.Switch, len(r.Summary.Switches))
	for i, s := range r.Summary.Switches {
		sw[i] = s.Switch
	}
	if err := report.WriteSwitchesCSV(filepath.Join(dir, "switches.csv"), sw); err != nil {
		return err
	}
	if err := report.WriteSwitchesCSV(filepath.Join(dir, "reference.csv"), r.Summary.Reference); err != nil {
		return err
	}
	if err := report.WriteJSON(filepath.Join(dir, "summary.json"), r.Summary); err != nil {
		return err
	}
	if !o.Plot {
		return nil
	}
	return plotIRMA(filepath.Join(dir, "irma"), r)
}

// plotIRMA draws five panels x_i(t) as 004 Figure 5: the FESD trajectory
// at the element boundaries, the thresholds of x_i as horizontal lines and
// the detected switches as vertical lines.
func plotIRMA(base string, r *result) error {
	res := r.Sim
	vl := report.SwitchTimes(sw(r))
	sort.Float64s(vl)
	panels := make([]report.LinePlot, 5)
	for i := range panels {
		y := make([]float64, len(res.X))
		for k, x := range res.X {
			y[k] = x[i]
		}
		var hl []float64
		for _, th := range reference.IRMAThresholds {
			if th.State == i {
				hl = append(hl, th.Value)
			}
		}
		panels[i] = report.LinePlot{
			Title:  fmt.Sprintf("x%d (%s)", i+1, reference.IRMANames[i]),
			XLabel: "t [min]", YLabel: fmt.Sprintf("x%d", i+1),
			Series: []report.Series{{X: res.T, Y: y}},
			HLines: hl, VLines: vl, NoLegend: true,
		}
	}
	tp, err := report.Tiled(5, 1, panels...)
	if err != nil {
		return err
	}
	_, err = report.SavePlot(tp, 18*vg.Centimeter, 28*vg.Centimeter, base)
	return err
}

func sw(r *result) []report.Switch {
	out := make([]report.Switch, len(r.Summary.Switches))
	for i, s := range r.Summary.Switches {
		out[i] = s.Switch
	}
	return out
}
