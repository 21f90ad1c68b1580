// Command filippov simulates the four switching cases of 004 Example 3
// (Nurkanović et al., FESD with set-valued Heaviside step functions, §3.1,
// Figure 2) with FESD and compares them with their closed forms:
//
//	(a) crossing          ẋ ∈ 2 − sign(x),             x(0) = −1
//	(b) entering sliding  ẋ ∈ −sign(x) + 0.2 sin 5t,   x(0) = −0.5
//	(c) leaving sliding   ẋ ∈ −sign(x) + t,            x(0) = 0
//	(d) spontaneous       ẋ ∈ sign(x),                 x(0) = 0
//
// Each is a Filippov system with one switching function ψ = x and the modes
// f₊ (x > 0) and f₋ (x < 0); time enters (b) and (c) through the model's time
// symbol. The closed forms are derived in cases.go. Every case runs on
// [0, T] with T = 1.5 in N_sim steps of N_FE finite elements (defaults
// N_sim = 5, N_FE = 2, so h₀ = 0.15 and neither switch time 1/3 nor 1 is on
// the uniform grid), Radau IIA with n_s stages (default 2), and the step
// DCS, Stewart's DCS or both (default).
//
// The exit from sliding in (c) is where f₊ becomes tangent to the surface,
// and FESD does not pin it (package fesd, Known limitations): on some grids
// the discrete solution leaves early. Measured with n_s = 2 (both DCS):
// T = 1.5 with N_sim × N_FE = 1×2 exits at 0.900 (x(T) error 5.0e-3), 2×4
// at 0.970, 4×2 at 0.975, 5×4 at 0.988; T = 2 with 3×3 at 0.968 (error
// 5.2e-4), 1×3 at 0.903, and 5×3 fails with the step DCS (NLPFailure).
// The defaults (and 2×2, 5×2, 4×4) give the exit at 1 to 1e-6.
//
// Outputs in -out (default out/filippov): for every case and formulation
// traj_<case>_<dcs>.csv (element boundaries and stage points: t, x) and
// stages_<case>_<dcs>.csv (stage points with the DCS variables: α, λᵖ, λⁿ
// or θ, λ, μ), exact_<case>.csv (the closed form on a fine grid),
// switches_<case>_<dcs>.csv, cases.png/.svg (x(t) per case, one panel each,
// switches marked), figure2.png/.svg (as 004 Figure 2: x, α, λᵖ, λⁿ of the
// step DCS in rows, the cases in columns) and summary.json with every
// figure printed.
//
// Usage:
//
//	go run ./examples/filippov [-out DIR] [-dcs step|stewart|both] [-ns 2] [-nfe 2] [-nsim 5] [-T 1.5]
//
// 004 is A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, "Finite Elements
// with Switch Detection for Numerical Optimal Control of Nonsmooth Dynamical
// Systems with Set-Valued Heaviside Step Functions", Nonlinear Analysis:
// Hybrid Systems, 2024 (the Papers section of the README lists all papers).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/rk"
	"gonum.org/v1/plot/vg"
)

// options configures run.
type options struct {
	Out    string  // output folder (created)
	DCS    string  // "step", "stewart" or "both"
	Stages int     // n_s of Radau IIA
	NFE    int     // finite elements per step
	NSim   int     // simulation steps
	TF     float64 // horizon T of every case
}

func defaultOptions() options {
	return options{Out: "out/filippov", DCS: "both", Stages: 2, NFE: 2, NSim: 5, TF: 1.5}
}

// caseResult holds the figures of one case and one formulation.
type caseResult struct {
	Case        string          `json:"case"`
	Name        string          `json:"name"`
	DCS         string          `json:"dcs"`
	X0          float64         `json:"x0"`
	T           float64         `json:"T"`
	XT          float64         `json:"xT"`
	XTExact     float64         `json:"xT_closed_form"`
	Error       float64         `json:"error"`
	Switches    []report.Switch `json:"switches"`
	ExpectKind  string          `json:"expected_kind"`
	ExpectTime  *float64        `json:"expected_switch_time,omitempty"`
	SwitchError *float64        `json:"switch_time_error,omitempty"`
	Iterations  int             `json:"nlp_iterations"`
	Steps       int             `json:"steps"`
	Classes     string          `json:"step_classes"` // how the steps were solved (report.StepClasses)
	Failures    int             `json:"failures"`
	WallSeconds float64         `json:"wall_seconds"`
	Message     string          `json:"message,omitempty"`

	res *fesd.SimResult
}

// summary is what run returns and writes to summary.json.
type summary struct {
	Problem string       `json:"problem"`
	Scheme  string       `json:"scheme"`
	Stages  int          `json:"ns"`
	NFE     int          `json:"nfe"`
	NSim    int          `json:"nsim"`
	T       float64      `json:"T"`
	Cases   []caseResult `json:"cases"`
	MaxErr  float64      `json:"max_error"`
	Wall    float64      `json:"wall_seconds"`
	Files   []string     `json:"files"`
}

func main() {
	o := defaultOptions()
	flag.StringVar(&o.Out, "out", o.Out, "output directory")
	flag.StringVar(&o.DCS, "dcs", o.DCS, "DCS formulation: step, stewart or both")
	flag.IntVar(&o.Stages, "ns", o.Stages, "Radau IIA stages n_s")
	flag.IntVar(&o.NFE, "nfe", o.NFE, "finite elements per simulation step (≥ 2)")
	flag.IntVar(&o.NSim, "nsim", o.NSim, "simulation steps on [0, T]")
	flag.Float64Var(&o.TF, "T", o.TF, "horizon of every case")
	flag.Parse()
	if _, err := run(context.Background(), os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "filippov:", err)
		os.Exit(1)
	}
}

// formulations parses the -dcs flag: a formulation (dcs.Formulation's
// UnmarshalText) or "both".
func formulations(s string) ([]dcs.Formulation, error) {
	if strings.EqualFold(s, "both") {
		return []dcs.Formulation{dcs.Step, dcs.Stewart}, nil
	}
	var f dcs.Formulation
	if err := f.UnmarshalText([]byte(s)); err != nil {
		return nil, fmt.Errorf("-dcs: %w, or both", err)
	}
	return []dcs.Formulation{f}, nil
}

// dcsName is the lowercase name used in files and JSON.
func dcsName(f dcs.Formulation) string {
	if f == dcs.Step {
		return "step"
	}
	return "stewart"
}

// run simulates every case with every formulation, prints one line per
// case and writes the outputs. A failed simulation is recorded in its case
// and the others still run; the error then names the failed cases.
func run(ctx context.Context, w io.Writer, o options) (*summary, error) {
	forms, err := formulations(o.DCS)
	if err != nil {
		return nil, err
	}
	if o.Stages < 1 || o.NFE < 1 || o.NSim < 1 || !(o.TF > 0) {
		return nil, fmt.Errorf("invalid options: ns = %d, nfe = %d, nsim = %d, T = %v", o.Stages, o.NFE, o.NSim, o.TF)
	}
	if _, err := report.MakeDir(o.Out); err != nil {
		return nil, err
	}
	s := &summary{
		Problem: "004 Example 3: the four switching cases of a scalar Filippov system",
		Scheme:  rk.FamilyRadauIIA.String(),
		Stages:  o.Stages, NFE: o.NFE, NSim: o.NSim, T: o.TF,
	}
	fmt.Fprintf(w, "004 Example 3 on [0, %g]: Radau IIA n_s = %d, %d steps × %d elements (h₀ = %.4g)\n",
		o.TF, o.Stages, o.NSim, o.NFE, o.TF/float64(o.NSim*o.NFE))
	start := time.Now()
	var failed []error
	for _, c := range cases() {
		for _, f := range forms {
			r := simulateCase(ctx, c, f, o)
			s.Cases = append(s.Cases, r)
			if r.Failures > 0 {
				failed = append(failed, fmt.Errorf("case (%s) %s: %s", r.Case, r.DCS, r.Message))
			} else {
				s.MaxErr = math.Max(s.MaxErr, r.Error)
			}
			printCase(w, r)
		}
	}
	s.Wall = time.Since(start).Seconds()
	if err := writeOutputs(s, o); err != nil {
		return s, errors.Join(append(failed, err)...)
	}
	fmt.Fprintf(w, "largest |x(T) − closed form| %.2e, %.2f s; wrote %d files to %s\n", s.MaxErr, s.Wall, len(s.Files), o.Out)
	return s, errors.Join(failed...)
}

// printCase prints the line of one case.
func printCase(w io.Writer, r caseResult) {
	fmt.Fprintf(w, "(%s) %-16s %-7s x(T) = %+.10f  closed form %+.10f  error %.2e  %d NLP iterations  %.2f s  steps: %s\n",
		r.Case, r.Name, r.DCS, r.XT, r.XTExact, r.Error, r.Iterations, r.WallSeconds, r.Classes)
	for _, sw := range r.Switches {
		fmt.Fprintf(w, "      switch of ψ%d at t = %.10f: %s\n", sw.Psi, sw.T, sw.Kind)
	}
	if len(r.Switches) == 0 && r.res != nil {
		fmt.Fprintf(w, "      no switch\n")
	}
	if r.SwitchError != nil {
		fmt.Fprintf(w, "      switch time error %.2e (closed form %.10f)\n", *r.SwitchError, *r.ExpectTime)
	}
	if r.Message != "" {
		fmt.Fprintf(w, "      %s\n", r.Message)
	}
}

// simulateCase runs one case with one formulation.
func simulateCase(ctx context.Context, c tutorialCase, f dcs.Formulation, o options) caseResult {
	r := caseResult{Case: c.id, Name: c.name, DCS: dcsName(f), X0: c.x0, T: o.TF, ExpectKind: c.kind}
	opts := fesd.Options{Scheme: rk.FamilyRadauIIA, Stages: o.Stages, NFE: o.NFE, DCS: dcs.Options{Formulation: f}}
	start := time.Now()
	res, err := fesd.Simulate(ctx, c.model(), []float64{c.x0}, fesd.SimOptions{TSim: o.TF, NSim: o.NSim, Options: opts})
	r.WallSeconds = time.Since(start).Seconds()
	if res == nil || len(res.T) == 0 { // no point at all: the first step failed
		r.Failures, r.Message = 1, err.Error()
		r.XT, r.XTExact, r.Error = 0, 0, 0
		r.Switches = []report.Switch{}
		return r
	}
	r.res = res
	if err != nil {
		r.Failures, r.Message = 1, err.Error()
	}
	r.Switches = report.Switches(nil, res.Switches)
	for _, st := range res.Steps {
		r.Iterations += st.Iterations
	}
	r.Steps = len(res.Steps)
	r.Classes = report.StepClasses(res.Steps)
	tEnd := res.T[len(res.T)-1]
	r.XT = res.Final()[0]
	r.XTExact = c.exact(tEnd, r.Switches, r.XT)
	r.Error = math.Abs(r.XT - r.XTExact)
	if ts, ok := c.switchTime(r.Switches); ok {
		r.ExpectTime = &ts
		for _, sw := range r.Switches {
			if sw.Kind == c.kind {
				e := math.Abs(sw.T - ts)
				r.SwitchError = &e
				break
			}
		}
	}
	return r
}

// writeOutputs writes the CSV files, the plots and summary.json.
func writeOutputs(s *summary, o options) error {
	add := func(name string) string {
		s.Files = append(s.Files, name)
		return filepath.Join(o.Out, name)
	}
	byCase := map[string][]caseResult{}
	for _, r := range s.Cases {
		byCase[r.Case] = append(byCase[r.Case], r)
	}
	var panels []report.LinePlot
	var fig2 [4][4]report.LinePlot // rows x, α, λᵖ, λⁿ; columns (a)–(d)
	haveStep := false
	for col, c := range cases() {
		// The closed form on a fine grid (for (d) the solution found by
		// the step formulation, or x ≡ 0).
		var sw []report.Switch
		side := 0.0
		if rs := byCase[c.id]; len(rs) > 0 {
			sw, side = rs[0].Switches, rs[0].XT
		}
		te, xe := c.curve(o.TF, sw, side, 401)
		if err := report.WriteColumnsCSV(add("exact_"+c.id+".csv"), []string{"t", "x"}, te, xe); err != nil {
			return err
		}
		p := report.LinePlot{
			Title:  fmt.Sprintf("(%s) %s", c.id, c.name),
			XLabel: "t", YLabel: "x",
			Series: []report.Series{{Name: "closed form", X: te, Y: xe, Color: colorGray}},
			HLines: []float64{0},
		}
		for _, r := range byCase[c.id] {
			if r.res == nil {
				continue
			}
			tag := c.id + "_" + r.DCS
			pt, px := report.SimPoints(r.res)
			if err := report.WriteTrajectoryCSV(add("traj_"+tag+".csv"), "t", []string{"x"}, pt, px); err != nil {
				return err
			}
			header, cols := stageColumns(r.res)
			if err := report.WriteColumnsCSV(add("stages_"+tag+".csv"), header, cols...); err != nil {
				return err
			}
			if err := report.WriteSwitchesCSV(add("switches_"+tag+".csv"), r.Switches); err != nil {
				return err
			}
			p.Series = append(p.Series, report.Series{Name: "FESD " + r.DCS, X: pt, Y: report.Column(px, 0), Points: true, Dashed: r.DCS == "stewart"})
			p.VLines = append(p.VLines, report.SwitchTimes(r.Switches)...)
			if r.DCS == "step" {
				haveStep = true
				sw := report.SwitchTimes(r.Switches)
				fig2[0][col] = report.LinePlot{Title: fmt.Sprintf("(%s) %s", c.id, c.name), YLabel: "x",
					Series: []report.Series{{X: pt, Y: report.Column(px, 0), Points: true}}, VLines: sw, NoLegend: true}
				for row, name := range []string{"α", "λᵖ", "λⁿ"} {
					fig2[1+row][col] = report.LinePlot{YLabel: name, Series: []report.Series{{X: cols[0], Y: cols[2+row], Points: true}}, VLines: sw, NoLegend: true}
				}
				fig2[3][col].XLabel = "t"
			}
		}
		panels = append(panels, p)
	}
	tp, err := report.Tiled(2, 2, panels...)
	if err != nil {
		return err
	}
	files, err := report.SavePlot(tp, 26*vg.Centimeter, 18*vg.Centimeter, filepath.Join(o.Out, "cases"))
	if err != nil {
		return err
	}
	for _, f := range files {
		s.Files = append(s.Files, filepath.Base(f))
	}
	if haveStep {
		var flat []report.LinePlot
		for _, row := range fig2 {
			flat = append(flat, row[:]...)
		}
		tp, err := report.Tiled(4, 4, flat...)
		if err != nil {
			return err
		}
		files, err := report.SavePlot(tp, 32*vg.Centimeter, 22*vg.Centimeter, filepath.Join(o.Out, "figure2"))
		if err != nil {
			return err
		}
		for _, f := range files {
			s.Files = append(s.Files, filepath.Base(f))
		}
	}
	s.Files = append(s.Files, "summary.json")
	return report.WriteJSON(filepath.Join(o.Out, "summary.json"), s)
}

// stageColumns returns the stage times, states and DCS variables of one
// subsystem: t, x, then α, λᵖ, λⁿ (step) or θ₀, θ₁, λ₀, λ₁, μ (Stewart).
func stageColumns(res *fesd.SimResult) ([]string, [][]float64) {
	header := []string{"t", "x"}
	cols := [][]float64{res.PointT, report.Column(res.PointX, 0)}
	blocks := []struct {
		kind dcs.VarKind
		name string
	}{{dcs.Alpha, "alpha"}, {dcs.LambdaP, "lambda_p"}, {dcs.LambdaN, "lambda_n"}}
	if res.DCS.Formulation == dcs.Stewart {
		blocks = []struct {
			kind dcs.VarKind
			name string
		}{{dcs.Theta, "theta"}, {dcs.Lambda, "lambda"}, {dcs.Mu, "mu"}}
	}
	for _, b := range blocks {
		v := res.Algebraic(b.kind, 0)
		if len(v) == 0 {
			continue
		}
		for j := range v[0] {
			name := b.name
			if len(v[0]) > 1 {
				name = fmt.Sprintf("%s%d", b.name, j)
			}
			header = append(header, name)
			cols = append(cols, report.Column(v, j))
		}
	}
	return header, cols
}
