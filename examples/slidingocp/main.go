// Command slidingocp solves the sliding-mode optimal control problem of
// nosnoc (nosnoc_py examples/sliding_mode_ocp, MATLAB
// examples/sliding_mode_ocp; Nurkanović et al., FESD for direct optimal
// control of nonsmooth systems, Numer. Math. 2024) with the OCP API of
// package fesd.
//
// The state x = (x₁, x₂, v₁, v₂) moves in the plane under two independent
// Filippov subsystems with the switching functions
//
//	ψ₁ = x₁ + 0.15 x₂²,   ψ₂ = x₂ − 0.05 x₁³,
//
// whose modes are f₁₁ = (−1 + v₁, 0, u₁, u₂) (ψ₁ > 0), f₁₂ = (1 + v₁, 0,
// u₁, u₂) (ψ₁ < 0), f₂₁ = (0, −1 + v₂, u₁, u₂) (ψ₂ > 0) and f₂₂ = (0, 1 +
// v₂, u₁, u₂) (ψ₂ < 0); ẋ = F₁θ₁ + F₂θ₂, so the controls act twice on v,
// exactly as in nosnoc. Without control both surfaces attract: the state
// slides along ψ₁ = 0 and ψ₂ = 0 toward the origin. The OCP is
//
//	min ∫₀⁴ v₁² + v₂² dt  s.t.  x(0) = (2π/3, π/3, 0, 0),  (x₁, x₂)(4) = (−π/6, −π/4),  |u| ≤ 10,
//
// on N = 6 control stages with N_FE = 6 elements each (nosnoc_py's
// setting; MATLAB uses 3), Radau IIA n_s = 2. The target lies beyond both
// surfaces, so the optimal trajectory slides, leaves the sliding modes and
// crosses them; nosnoc's test requires the target to 1e-4.
//
// Outputs in -out (default out/slidingocp): trajectory.csv (element
// boundaries: t, x₁, x₂, v₁, v₂), controls.csv (stage start times and u),
// steps.csv (element lengths), homotopy.csv (σ, residuals, objective,
// iterations per homotopy step), states.png/.svg, phase.png/.svg (x₂ over
// x₁ with the switching surfaces) and summary.json.
//
// Usage:
//
//	go run ./examples/slidingocp [-out DIR] [-N 6] [-nfe 6] [-ns 2] [-dcs stewart|step] [-cc fe_fe|fe_stage]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/internal/tutorial"
	"github.com/fesd-go/fesd/mpcc"
)

type options struct {
	Out    string
	N, NFE int
	Stages int
	DCS    dcs.Formulation
	Cross  fesd.CrossComp
}

func defaultOptions() options {
	return options{Out: "out/slidingocp", N: 6, NFE: 6, Stages: 2, DCS: dcs.Stewart, Cross: fesd.FEFE}
}

// summary is written to summary.json.
type summary struct {
	N, NFE, Stages       int
	DCS, CrossComp       string
	Status               string
	Stationarity         string // mpcc's certified class of the solution
	Objective            float64
	TerminalError        float64 // max |(x₁, x₂)(T) − target|
	XT                   []float64
	TFinal               float64
	Iterations           int
	HomotopySteps        int
	NumVariables         int
	NumConstraints       int
	NumComplementarities int
	BuildSeconds         float64
	SolveSeconds         float64
	CompResidual         float64
}

var target = tutorial.SlidingModeTarget

func run(ctx context.Context, w io.Writer, o options) (*summary, error) {
	if _, err := report.MakeDir(o.Out); err != nil {
		return nil, err
	}
	m, x := tutorial.SlidingMode()
	opts := fesd.Options{Stages: o.Stages, DCS: dcs.Options{Formulation: o.DCS}, CrossComp: o.Cross}
	dcsName, crossName := strings.ToLower(o.DCS.String()), strings.ToLower(o.Cross.String())
	p := &fesd.OCP{
		Model: m, X0: []float64{2 * math.Pi / 3, math.Pi / 3, 0, 0},
		N: o.N, T: 4, NFE: []int{o.NFE},
		UL: []float64{-10, -10}, UU: []float64{10, 10},
		Lagrange: ad.Sq(x[2]).Add(ad.Sq(x[3])),
		Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-target[0]), x[1].AddConst(-target[1])}}},
	}
	start := time.Now()
	s, err := fesd.NewOCPSolver(p, opts)
	if err != nil {
		return nil, err
	}
	build := time.Since(start)
	r, err := s.Solve(ctx, fesd.Start{})
	if err != nil {
		return nil, err
	}
	xT := r.Final()
	sum := &summary{
		N: o.N, NFE: o.NFE, Stages: o.Stages, DCS: dcsName, CrossComp: crossName,
		Status: r.Status.String(), Stationarity: r.Stationarity.String(), Objective: r.Objective,
		TerminalError: math.Max(math.Abs(xT[0]-target[0]), math.Abs(xT[1]-target[1])),
		XT:            xT, TFinal: r.StageT[len(r.StageT)-1],
		Iterations: r.Iterations, HomotopySteps: len(r.Homotopy),
		NumVariables: r.NumVariables, NumConstraints: r.NumConstraints, NumComplementarities: r.NumComplementarities,
		BuildSeconds: build.Seconds(), SolveSeconds: r.Elapsed.Seconds(), CompResidual: r.CompResidual,
	}
	fmt.Fprintf(w, "sliding-mode OCP: N = %d, N_FE = %d, n_s = %d, %s, %s: n = %d, m = %d, %d complementarities\n",
		o.N, o.NFE, o.Stages, dcsName, crossName, r.NumVariables, r.NumConstraints, r.NumComplementarities)
	fmt.Fprintf(w, "status %v (%v), objective %.8g, x(T) = (%.8f, %.8f), target error %.2e, %d iterations, build %.2fs, solve %.2fs\n",
		r.Status, r.Stationarity, r.Objective, xT[0], xT[1], sum.TerminalError, r.Iterations, build.Seconds(), r.Elapsed.Seconds())
	if err := writeOutputs(o.Out, r); err != nil {
		return nil, err
	}
	if err := report.WriteJSON(filepath.Join(o.Out, "summary.json"), sum); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "wrote %s\n", o.Out)
	if r.Status != mpcc.Solved {
		return sum, fmt.Errorf("homotopy ended with status %v", r.Status)
	}
	return sum, nil
}

func writeOutputs(dir string, r *fesd.OCPResult) error {
	names := []string{"x1", "x2", "v1", "v2"}
	if err := report.WriteTrajectoryCSV(filepath.Join(dir, "trajectory.csv"), "t", names, r.T, r.X); err != nil {
		return err
	}
	if err := report.WriteTrajectoryCSV(filepath.Join(dir, "controls.csv"), "t", []string{"u1", "u2"}, r.StageT[:len(r.U)], r.U); err != nil {
		return err
	}
	if err := report.WriteColumnsCSV(filepath.Join(dir, "steps.csv"), []string{"t", "h"}, r.T[:len(r.H)], r.H); err != nil {
		return err
	}
	if err := writeHomotopy(filepath.Join(dir, "homotopy.csv"), r.Homotopy); err != nil {
		return err
	}
	var series []report.Series
	for i, n := range names {
		series = append(series, report.Series{Name: n, X: r.T, Y: report.Column(r.X, i)})
	}
	ut, u1, u2 := stairs(r)
	series = append(series, report.Series{Name: "u1/10", X: ut, Y: scale(u1, 0.1), Dashed: true},
		report.Series{Name: "u2/10", X: ut, Y: scale(u2, 0.1), Dashed: true})
	lp := report.LinePlot{Title: "sliding-mode OCP", XLabel: "t", YLabel: "state, control/10", Series: series, VLines: r.StageT}
	pl, err := lp.Plot()
	if err != nil {
		return err
	}
	if _, err := report.SavePlot(pl, 0, 0, filepath.Join(dir, "states")); err != nil {
		return err
	}
	// phase plane with the surfaces
	var s1x, s1y, s2x, s2y []float64
	for i := 0; i <= 200; i++ {
		y := -1.5 + 3*float64(i)/200
		s1x, s1y = append(s1x, -0.15*y*y), append(s1y, y)
		xx := -1.5 + 3.7*float64(i)/200
		s2x, s2y = append(s2x, xx), append(s2y, 0.05*xx*xx*xx)
	}
	ph := report.LinePlot{Title: "phase plane", XLabel: "x1", YLabel: "x2", Series: []report.Series{
		{Name: "trajectory", X: report.Column(r.X, 0), Y: report.Column(r.X, 1), Points: true},
		{Name: "psi1 = 0", X: s1x, Y: s1y, Dashed: true},
		{Name: "psi2 = 0", X: s2x, Y: s2y, Dashed: true},
		{Name: "target", X: []float64{target[0]}, Y: []float64{target[1]}, Points: true, NoLine: true},
	}}
	pp, err := ph.Plot()
	if err != nil {
		return err
	}
	_, err = report.SavePlot(pp, 0, 0, filepath.Join(dir, "phase"))
	return err
}

// stairs returns the piecewise constant controls as a staircase.
func stairs(r *fesd.OCPResult) (t, u1, u2 []float64) {
	for k, u := range r.U {
		t = append(t, r.StageT[k], r.StageT[k+1])
		u1 = append(u1, u[0], u[0])
		u2 = append(u2, u[1], u[1])
	}
	return
}

func scale(v []float64, a float64) []float64 {
	o := make([]float64, len(v))
	for i := range v {
		o[i] = a * v[i]
	}
	return o
}

func writeHomotopy(path string, hs []mpcc.HomotopyStep) error {
	rows := make([][]string, len(hs))
	for i, h := range hs {
		rows[i] = []string{report.FormatFloat(h.Sigma), report.FormatFloat(h.CompResidual), report.FormatFloat(h.NaturalResidual),
			report.FormatFloat(h.Objective), h.Status.String(), fmt.Sprint(h.Iterations), report.FormatFloat(h.Elapsed.Seconds())}
	}
	return report.WriteTableCSV(path, []string{"sigma", "comp_res", "nat_res", "objective", "nlp_status", "iterations", "seconds"}, rows)
}

func main() {
	o := defaultOptions()
	flag.StringVar(&o.Out, "out", o.Out, "output folder")
	flag.IntVar(&o.N, "N", o.N, "control stages")
	flag.IntVar(&o.NFE, "nfe", o.NFE, "finite elements per stage")
	flag.IntVar(&o.Stages, "ns", o.Stages, "Radau IIA stages n_s")
	flag.TextVar(&o.DCS, "dcs", o.DCS, "stewart or step")
	flag.TextVar(&o.Cross, "cc", o.Cross, "cross complementarity: fe_fe or fe_stage (also stage_stage, stage_fe)")
	flag.Parse()
	if _, err := run(context.Background(), os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "slidingocp:", err)
		os.Exit(1)
	}
}
