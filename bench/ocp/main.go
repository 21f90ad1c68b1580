// Command ocp is the nonsmooth optimal-control benchmark: every row is an
// OCP as its source states it (model, horizon, costs, constraints,
// discretization, the initial guess the source gives), solved with fesd's
// default settings and no per-row tuning — the question is whether a user
// with that OCP gets a solution from the documented defaults. Built with
// -tags ipopt, every row runs a second time with IPOPT 3.x (MUMPS) inside
// the same homotopy (fesd.Options.Inner), side by side.
//
// Rows (rows.go): nosnoc's time-optimal turbo car with a speed limit; the
// sliding-mode OCP (two switching surfaces); nosnoc_py's cart-pole
// swing-up with Coulomb friction; nosnoc_py's linear motor with guide
// friction (motor_with_friction_ocp.py) and car with two gears and a
// brake (car_control_complementarity.py); nosnoc's three-cart
// manipulation with two time-frozen contacts (three_cart_ocp.m);
// nosnoc_py's hopping robot at full size (stage_experiment.py: N = 60,
// Step, internal/hopper); the monopod of 004 §7.2 (A.
// Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, "Finite Elements with
// Switch Detection for Numerical Optimal Control of Nonsmooth Dynamical
// Systems with Set-Valued Heaviside Step Functions") at N = 30, 40, …, 90
// in the Step and Stewart modes, with the paper's cost, bounds,
// discretization and homotopy (σ₀ = 1, κ = 0.1, complementarity
// tolerance 1e-5) from the default start.
//
// Per row: status, stationarity class, complementarity residual,
// constraint violation, objective, terminal error, NLP iterations, wall
// and CPU time, CPU time per iteration. It writes bench.json, bench.md and
// fig10.png/svg (the monopod rows: total CPU time and CPU time per NLP
// iteration against N, 004 Figure 10) into -out.
//
// Usage:
//
//	go run ./bench/ocp [-quick | -fig10 | -fold] [-rows SUBSTRING] [-timeout 10m] [-out out/bench-ocp] [-v]
//	go run -tags ipopt ./bench/ocp …   # with the IPOPT rows
//
// -fig10 runs the monopod rows only and writes, beside fig10.png/svg with
// the values read off the published Figure 10 as two more curves each,
// fig10.md: per N, mode and solver the status, the physical validity
// (fesd.Validity), the complementarity residual, NLP iterations, CPU time
// and CPU time per iteration, and the paper's CPU time and CPU time per
// iteration (hours of CPU in all; -timeout bounds each solve).
//
// -fold runs the candidates for passing the relaxation fold of the
// time-freezing monopod (fold.go: the baseline homotopy and the library
// settings that change it) at N = 30 in the Step and Stewart modes; -rows
// selects by "candidate DCS" (e.g. "R6 Step"). Each solve appends a JSON
// line with its status, residual, physical validity (drift, phantom
// contact, flights and landings), terminal errors, iterations and CPU time
// to fold.jsonl in -out and rewrites fold.md from all lines there, so
// that one process per candidate fills one table.
//
// -quick runs the turbo car, the sliding-mode OCP, the cart-pole, the
// motor, the car with gears and the monopod N = 30 Step (a few minutes);
// the whole table takes hours (each solve is stopped at -timeout, status
// Cancelled).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/internal/rusage"
	"github.com/fesd-go/fesd/mpcc"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		if report.IsHelp(err) {
			return
		}
		fmt.Fprintln(os.Stderr, "bench/ocp:", err)
		os.Exit(1)
	}
}

// Result is one solve of one row.
type Result struct {
	Row          string  `json:"row"`
	Family       string  `json:"family,omitempty"`
	N            int     `json:"n,omitempty"`
	Solver       string  `json:"solver"`
	Status       string  `json:"status"`
	Stationarity string  `json:"stationarity"`
	Infeasible   string  `json:"infeasible,omitempty"`
	CompResidual num     `json:"comp_residual"`
	Violation    num     `json:"violation"`
	Objective    num     `json:"objective"`
	Terminal     num     `json:"terminal_error"`
	Iterations   int     `json:"iterations"`
	Steps        int     `json:"homotopy_steps"`
	Wall         float64 `json:"wall_s"`
	CPU          float64 `json:"cpu_s"`
	CPUPerIter   float64 `json:"cpu_ms_per_iter"`
	NumVars      int     `json:"n_vars"`
	NumCons      int     `json:"n_cons"`
	// Validity is the physical-validity verdict of a time-freezing row
	// (fesd.Validity.String; empty for other models).
	Validity string `json:"validity,omitempty"`
	// Met: Solved (for a time-freezing row: solved and physically valid,
	// fesd.OCPResult.Validity), complementarity ≤ 1e-5 (1 % allowance, as
	// mpcc's CompTol test), violation ≤ 1e-6.
	Met   bool   `json:"met"`
	Error string `json:"error,omitempty"`
}

// num is a float64 that JSON writes as null when it is NaN or infinite
// (not meaningful or not measured), which encoding/json cannot write.
type num float64

func (v num) MarshalJSON() ([]byte, error) {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

func (v *num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*v = num(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*v = num(f)
	return nil
}

// Report is bench.json.
type Report struct {
	Date    string   `json:"date"`
	Machine string   `json:"machine"`
	IPOPT   string   `json:"ipopt,omitempty"`
	Results []Result `json:"results"`
}

func run(ctx context.Context, args []string, w io.Writer) error {
	fs := flag.NewFlagSet("ocp", flag.ContinueOnError)
	fs.SetOutput(w)
	quick := fs.Bool("quick", false, "run the quick rows only")
	only := fs.String("rows", "", "run the rows whose name contains this text")
	timeout := fs.Duration("timeout", 10*time.Minute, "stop a solve after this time (status Cancelled)")
	out := fs.String("out", "out/bench-ocp", "output folder")
	verbose := fs.Bool("v", false, "print the homotopy log of every solve")
	fig10 := fs.Bool("fig10", false, "run the monopod rows only (N = 30 … 90, Step and Stewart) and write Figure 10 with the paper's values beside")
	fold := fs.Bool("fold", false, "run the fold candidates on the monopod at N = 30 (Step and Stewart; -rows selects by \"candidate DCS\") and append to fold.jsonl, fold.md")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	dir, err := report.MakeDir(*out)
	if err != nil {
		return err
	}
	if *fold {
		return runFold(ctx, *only, dir, *timeout, *verbose, w)
	}
	rep := &Report{Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), IPOPT: ipoptVersion(),
		Machine: fmt.Sprintf("%s/%s, %d logical CPUs, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())}
	if rep.IPOPT == "" {
		fmt.Fprintln(w, "bench/ocp: built without -tags ipopt: native rows only")
	}
	for _, r := range rows() {
		if (*quick && !r.quick) || !strings.Contains(r.name, *only) || (*fig10 && r.family == "") {
			continue
		}
		for _, solver := range []string{"native", "ipopt"} {
			if solver == "ipopt" && rep.IPOPT == "" {
				continue
			}
			res := solve(ctx, r, solver, *timeout, *verbose, w)
			rep.Results = append(rep.Results, res)
			fmt.Fprintf(w, "%-44s %-6s %-12s %-14s comp %.1e viol %.1e obj %.6g term %.1e its %6d wall %7.1fs cpu %7.1fs %6.2f ms/it%s\n",
				r.name, solver, res.Status, res.Stationarity, res.CompResidual, res.Violation, res.Objective, res.Terminal,
				res.Iterations, res.Wall, res.CPU, res.CPUPerIter, errSuffix(res))
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	if err := report.WriteJSON(filepath.Join(dir, "bench.json"), rep); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "bench.md"), []byte(rep.markdown()), 0o644); err != nil {
		return err
	}
	files, err := rep.figure10(filepath.Join(dir, "fig10"))
	if err != nil {
		return err
	}
	if len(files) > 0 {
		name := filepath.Join(dir, "fig10.md")
		if err := os.WriteFile(name, []byte(rep.figure10Table()), 0o644); err != nil {
			return err
		}
		files = append(files, name)
	}
	fmt.Fprintf(w, "bench/ocp: wrote %s, %s %s\n", filepath.Join(dir, "bench.json"), filepath.Join(dir, "bench.md"), strings.Join(files, " "))
	return nil
}

func errSuffix(r Result) string {
	s := ""
	if r.Infeasible != "" {
		s += " — " + r.Infeasible
	}
	if r.Error != "" {
		s += " — error: " + r.Error
	}
	return s
}

// solve runs one row with one inner solver.
func solve(ctx context.Context, r row, solver string, timeout time.Duration, verbose bool, w io.Writer) Result {
	res := Result{Row: r.name, Family: r.family, N: r.N, Solver: solver, Terminal: num(math.NaN()), Objective: num(math.NaN()),
		CompResidual: num(math.NaN()), Violation: num(math.NaN())}
	p, opts, start, err := r.build()
	if err != nil {
		res.Status, res.Error = "BuildError", err.Error()
		return res
	}
	if solver == "ipopt" {
		set := mpcc.DefaultNLPSettings()
		if opts.MPCC.NLP != nil {
			set = *opts.MPCC.NLP
		}
		opts.Inner = ipoptSolver(set)
	}
	if verbose {
		opts.MPCC.Log = w
	}
	s, err := fesd.NewOCPSolver(p, opts)
	if err != nil {
		res.Status, res.Error = "BuildError", err.Error()
		return res
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	t0, c0 := time.Now(), rusage.CPUTime()
	o, err := s.Solve(cctx, start)
	res.Wall, res.CPU = time.Since(t0).Seconds(), (rusage.CPUTime() - c0).Seconds()
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		res.Error = err.Error()
	}
	if o == nil {
		res.Status = "NoResult"
		return res
	}
	res.Status, res.Stationarity = o.Status.String(), o.Stationarity.String()
	if o.Infeasible != nil {
		res.Infeasible = o.Infeasible.String()
	}
	if o.Validity != nil {
		res.Validity = o.Validity.String()
	}
	res.CompResidual, res.Violation, res.Objective = num(o.CompResidual), num(o.Infeasibility), num(o.Objective)
	res.Iterations, res.Steps = o.Iterations, len(o.Homotopy)
	res.NumVars, res.NumCons = o.NumVariables, o.NumConstraints
	if len(o.X) > 0 {
		res.Terminal = num(r.terminal(o))
	}
	if res.Iterations > 0 {
		res.CPUPerIter = 1e3 * res.CPU / float64(res.Iterations)
	}
	res.Met = o.Status == mpcc.Solved && o.CompResidual <= 1.01e-5 && o.Infeasibility <= 1e-6
	if r.infeasible != nil {
		// a row that cannot be met: Infeasible, naming its group first
		res.Met = o.Status == mpcc.Infeasible && o.Infeasible != nil && len(o.Infeasible.Groups) > 0 &&
			o.Infeasible.Groups[0].Group == *r.infeasible
	}
	return res
}
