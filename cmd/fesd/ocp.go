package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/modelfile"
	"github.com/fesd-go/fesd/mpcc"
)

// ocpSummary is summary.json of fesd ocp.
type ocpSummary struct {
	File         string    `json:"file"`
	Name         string    `json:"name"`
	Status       string    `json:"status"`
	Stationarity string    `json:"stationarity"`
	Objective    float64   `json:"objective"`
	TFinal       float64   `json:"t_final"`
	XFinal       []float64 `json:"x_final"`
	States       []string  `json:"states"`
	Controls     []string  `json:"controls"`
	// U are the controls of the N stages.
	U        [][]float64     `json:"u"`
	Switches []report.Switch `json:"switches"`
	// CompResidual is the final complementarity residual, Infeasibility
	// the largest violation of the other constraints.
	CompResidual  float64 `json:"comp_residual"`
	Infeasibility float64 `json:"infeasibility"`
	// Infeasible names the violated constraint groups of an infeasible
	// problem ("" otherwise).
	Infeasible     string  `json:"infeasible,omitempty"`
	Iterations     int     `json:"nlp_iterations"`
	HomotopySteps  int     `json:"homotopy_steps"`
	NLP            nlpSize `json:"nlp"`
	ParseSeconds   float64 `json:"parse_seconds"`
	BuildSeconds   float64 `json:"build_seconds"`
	ElapsedSeconds float64 `json:"solve_seconds"`
}

func ocpCommand() *command {
	return &command{
		name: "ocp", args: "model.toml", short: "solve the optimal control problem of the [ocp] table",
		long: `Ocp builds the FESD NLP of the [ocp] table, solves it with the MPCC
homotopy from the initial guess of [ocp.Start], prints the homotopy log and
writes to the output folder:

	trajectory.csv   physical time and the states at every element boundary
	controls.csv     the stage start times (physical) and the controls
	homotopy.csv     sigma, residuals, objective, NLP status and iterations
	summary.json     status, objective, T_f, residuals, switches, timings
	trajectory.png/.svg  the states and controls over physical time

With -json the summary is printed on standard output and the log goes to
standard error. A homotopy that does not end Solved exits with status 1
after writing its outputs.
`,
		setup: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			return runFlags(fs, ocpRun)
		},
	}
}

func ocpRun(ctx context.Context, e *env, path string, set sets, out string, jsonOut, plot bool) error {
	start := time.Now()
	m, err := load(path, set)
	if err != nil {
		return err
	}
	if m.OCP == nil {
		return fmt.Errorf("%s: %w", path, modelfile.ErrNoOCP)
	}
	parse := time.Since(start)
	opts := m.Options
	if report.IsTerminal(e.log) && opts.MPCC.Log == nil {
		opts.MPCC.Log = e.log // the homotopy's progress, one line per σ
	}
	s, err := fesd.NewOCPSolver(m.OCP.Problem, opts)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(e.log, "%s: %s, N = %d: NLP with %d variables, %d constraints, %d complementarities (built in %.2f s)\n",
		path, m.Name, m.OCP.Problem.N, s.NumVariables(), s.NumConstraints(), s.NumComplementarities(), s.BuildTime.Seconds())
	r, err := s.Solve(ctx, m.OCP.Start)
	if r == nil {
		return err
	}
	sum := ocpSummary{
		File: path, Name: m.Name, Status: r.Status.String(), Stationarity: r.Stationarity.String(),
		Objective: r.Objective, TFinal: r.TFinal, XFinal: r.Final(), States: m.StateNames, Controls: listOf(m.ControlNames),
		U: listOf(r.U), Switches: listOf(report.Switches(m.Model, r.Switches)),
		CompResidual: r.CompResidual, Infeasibility: r.Infeasibility,
		Iterations: r.Iterations, HomotopySteps: len(r.Homotopy),
		NLP:          nlpSize{Variables: r.NumVariables, Constraints: r.NumConstraints, Complementarities: r.NumComplementarities},
		ParseSeconds: parse.Seconds(), BuildSeconds: s.BuildTime.Seconds(), ElapsedSeconds: r.Elapsed.Seconds(),
	}
	if r.Infeasible != nil {
		sum.Infeasible = r.Infeasible.String()
	}
	fmt.Fprintf(e.log, "status %v (%v), objective %.10g, T_f = %.10g, complementarity %.2e, infeasibility %.2e, %d NLP iterations, %.2f s\n",
		r.Status, r.Stationarity, r.Objective, r.TFinal, r.CompResidual, r.Infeasibility, r.Iterations, r.Elapsed.Seconds())
	if sum.Infeasible != "" {
		fmt.Fprintf(e.log, "infeasible: %s\n", sum.Infeasible)
	}
	fmt.Fprintf(e.log, "x(T_f) = %.8g\n", sum.XFinal)
	if out != "" {
		if werr := writeOCP(out, m, r, sum, plot); werr != nil {
			return werr
		}
		fmt.Fprintf(e.log, "wrote %s\n", out)
	}
	if jsonOut {
		if jerr := e.printJSON(sum); jerr != nil {
			return jerr
		}
	}
	if err != nil {
		return err
	}
	if r.Status != mpcc.Solved {
		return fmt.Errorf("the homotopy ended with status %v", r.Status)
	}
	return nil
}

func writeOCP(out string, m *modelfile.Model, r *fesd.OCPResult, sum ocpSummary, plot bool) error {
	if _, err := report.MakeDir(out); err != nil {
		return err
	}
	if err := report.WriteTrajectoryCSV(filepath.Join(out, "trajectory.csv"), "t", m.StateNames, r.TPhys, r.X); err != nil {
		return err
	}
	if len(m.ControlNames) > 0 {
		if err := report.WriteTrajectoryCSV(filepath.Join(out, "controls.csv"), "t", m.ControlNames, r.StageTPhys[:len(r.U)], r.U); err != nil {
			return err
		}
	}
	rows := make([][]string, len(r.Homotopy))
	for i, h := range r.Homotopy {
		rows[i] = []string{report.FormatFloat(h.Sigma), report.FormatFloat(h.CompResidual), report.FormatFloat(h.Objective),
			h.Status.String(), fmt.Sprint(h.Iterations), report.FormatFloat(h.Elapsed.Seconds())}
	}
	if err := report.WriteTableCSV(filepath.Join(out, "homotopy.csv"), []string{"sigma", "comp_res", "objective", "nlp_status", "iterations", "seconds"}, rows); err != nil {
		return err
	}
	if err := report.WriteJSON(filepath.Join(out, "summary.json"), sum); err != nil {
		return err
	}
	if !plot {
		return nil
	}
	lp := report.LinePlot{Title: plotTitle(m), XLabel: "t (physical)", YLabel: "x, u", VLines: r.StageTPhys}
	for i, name := range m.StateNames {
		lp.Series = append(lp.Series, report.Series{Name: name, X: r.TPhys, Y: report.Column(r.X, i)})
	}
	for j, name := range m.ControlNames {
		var ut, uv []float64
		for k, u := range r.U {
			ut = append(ut, r.StageTPhys[k], r.StageTPhys[k+1])
			uv = append(uv, u[j], u[j])
		}
		lp.Series = append(lp.Series, report.Series{Name: name, X: ut, Y: uv, Dashed: true})
	}
	p, err := lp.Plot()
	if err != nil {
		return err
	}
	_, err = report.SavePlot(p, 0, 0, filepath.Join(out, "trajectory"))
	return err
}
