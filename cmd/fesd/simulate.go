package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/modelfile"
)

// simSummary is summary.json of fesd simulate.
type simSummary struct {
	File   string `json:"file"`
	Name   string `json:"name"`
	Status string `json:"status"` // "completed" or "failed"
	Error  string `json:"error,omitempty"`
	// TEnd is the time reached, XFinal the state there.
	TEnd   float64   `json:"t_end"`
	XFinal []float64 `json:"x_final"`
	// States names the components of x.
	States   []string              `json:"states"`
	Switches []modelfile.SimSwitch `json:"switches"`
	// MaxCompResidual is the largest final complementarity residual of
	// the steps (0 for steps solved on their predicted branch).
	MaxCompResidual float64 `json:"max_comp_residual"`
	Iterations      int     `json:"nlp_iterations"`
	Steps           int     `json:"steps"`
	SplitSteps      []int   `json:"split_steps"`
	StepNLP         nlpSize `json:"step_nlp"`
	ParseSeconds    float64 `json:"parse_seconds"`
	ElapsedSeconds  float64 `json:"elapsed_seconds"`
}

func simulateCommand() *command {
	return &command{
		name: "simulate", args: "model.toml", short: "simulate the model as its [simulate] table says",
		long: `Simulate integrates the model from the states' x0 as the [simulate] table
says (TSim, NSim, the control U or UTable), prints every switch, and writes to
the output folder:

	trajectory.csv   t and the states at every finite-element boundary
	stages.csv       the same at every Runge–Kutta stage point as well
	controls.csv     the control of every step (models with controls)
	switches.csv     t, psi, kind of every detected switch
	summary.json     status, switches, residuals, NLP size and timings
	trajectory.png/.svg  the states over time, switches as vertical lines

A progress line is drawn on a terminal only. With -json the summary is
printed on standard output and the log goes to standard error.
`,
		setup: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			return runFlags(fs, simulateRun)
		},
	}
}

// printJSON writes v to standard output as indented JSON (-json).
func (e *env) printJSON(v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// runFlags defines the flags that simulate and ocp share (-out, -set,
// -json, -plot) on fs and returns the command's action, which calls run
// with the model file's path and their values.
func runFlags(fs *flag.FlagSet, run func(ctx context.Context, e *env, path string, set sets, out string, jsonOut, plot bool) error) func(context.Context, *env, []string) error {
	out := fs.String("out", "out/fesd", "output folder (\"\" writes nothing)")
	var set sets
	fs.Var(&set, "set", setUsage)
	jsonOut := fs.Bool("json", false, "print summary.json on standard output (the log goes to standard error)")
	plot := fs.Bool("plot", true, "write trajectory.png and trajectory.svg")
	return func(ctx context.Context, e *env, args []string) error {
		return run(ctx, e, args[0], set, *out, *jsonOut, *plot)
	}
}

func simulateRun(ctx context.Context, e *env, path string, set sets, out string, jsonOut, plot bool) error {
	start := time.Now()
	m, err := load(path, set)
	if err != nil {
		return err
	}
	if m.Sim == nil {
		return fmt.Errorf("%s: %w", path, modelfile.ErrNoSimulation)
	}
	parse := time.Since(start)
	s := m.Sim
	fmt.Fprintf(e.log, "%s: %s, %d states, %d controls; simulating [%g, %g] in %d steps\n",
		path, m.Name, len(m.X0), len(m.ControlNames), s.T0, s.T0+s.TSim, s.NSim)
	tty := report.IsTerminal(e.log)
	last := time.Now()
	progress := func(k, n int, t float64) {
		if now := time.Now(); tty && (now.Sub(last) > time.Second || k == n) {
			fmt.Fprintf(e.log, "\rstep %d/%d  t = %-12s %6.1f s", k, n, report.Time(t), now.Sub(start).Seconds())
			last = now
		}
	}
	run, simErr := m.Simulate(ctx, progress)
	if tty {
		fmt.Fprintln(e.log)
	}
	if run == nil || run.Result == nil || len(run.Result.T) == 0 {
		// no point at all (the first step failed): nothing to write
		if simErr == nil {
			simErr = errors.New("the simulation computed no point")
		}
		return simErr
	}
	res := run.Result
	sum := simSummary{
		File: path, Name: m.Name, Status: "completed", TEnd: res.T[len(res.T)-1], XFinal: res.Final(), States: m.StateNames,
		Switches: listOf(run.Switches), Iterations: run.Iterations, Steps: len(res.Steps),
		SplitSteps:   listOf(run.Split),
		StepNLP:      nlpSize{Variables: run.NumVariables, Constraints: run.NumConstraints, Complementarities: run.NumComplementarities},
		ParseSeconds: parse.Seconds(), ElapsedSeconds: run.Elapsed.Seconds(),
	}
	if simErr != nil {
		sum.Status, sum.Error = "failed", simErr.Error()
	}
	for _, st := range res.Steps {
		sum.MaxCompResidual = max(sum.MaxCompResidual, st.CompResidual)
	}
	fmt.Fprintf(e.log, "%d switches\n%12s %4s %s\n", len(sum.Switches), "t", "ψ", "kind")
	for _, sw := range sum.Switches {
		fmt.Fprintf(e.log, "%12s %4d %s\n", report.Time(sw.T), sw.Psi, sw.Kind)
	}
	fmt.Fprintf(e.log, "x(%s) = %.8g\n%d NLP iterations, %.2f s; steps: %s\n", report.Time(sum.TEnd), sum.XFinal, run.Iterations,
		run.Elapsed.Seconds(), report.StepClasses(res.Steps))
	if len(run.Split) > 0 {
		fmt.Fprintf(e.log, "steps split into halves: %v\n", run.Split)
	}
	if out != "" {
		if err := writeSim(out, m, run, sum, plot); err != nil {
			return err
		}
		fmt.Fprintf(e.log, "wrote %s\n", out)
	}
	if jsonOut {
		if err := e.printJSON(sum); err != nil {
			return err
		}
	}
	return simErr
}

func writeSim(out string, m *modelfile.Model, run *modelfile.SimRun, sum simSummary, plot bool) error {
	if _, err := report.MakeDir(out); err != nil {
		return err
	}
	res := run.Result
	if err := report.WriteTrajectoryCSV(filepath.Join(out, "trajectory.csv"), "t", m.StateNames, res.T, res.X); err != nil {
		return err
	}
	pt, px := report.SimPoints(res)
	if err := report.WriteTrajectoryCSV(filepath.Join(out, "stages.csv"), "t", m.StateNames, pt, px); err != nil {
		return err
	}
	if len(m.ControlNames) > 0 {
		var t []float64
		var u [][]float64
		for _, st := range res.Steps {
			t = append(t, st.T0)
			u = append(u, m.Sim.Control(st.T0))
		}
		if err := report.WriteTrajectoryCSV(filepath.Join(out, "controls.csv"), "t", m.ControlNames, t, u); err != nil {
			return err
		}
	}
	sw := make([]report.Switch, len(sum.Switches))
	for i, s := range sum.Switches {
		sw[i] = report.Switch{T: s.T, Psi: s.Psi, Kind: s.Kind}
	}
	if err := report.WriteSwitchesCSV(filepath.Join(out, "switches.csv"), sw); err != nil {
		return err
	}
	if err := report.WriteJSON(filepath.Join(out, "summary.json"), sum); err != nil {
		return err
	}
	if !plot {
		return nil
	}
	lp := report.LinePlot{Title: plotTitle(m), XLabel: "t", YLabel: "x", VLines: report.SwitchTimes(sw)}
	for i, name := range m.StateNames {
		lp.Series = append(lp.Series, report.Series{Name: name, X: pt, Y: report.Column(px, i)})
	}
	p, err := lp.Plot()
	if err != nil {
		return err
	}
	_, err = report.SavePlot(p, 0, 0, filepath.Join(out, "trajectory"))
	return err
}

func plotTitle(m *modelfile.Model) string {
	if m.Name != "" {
		return m.Name
	}
	return "fesd"
}
