package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/mpcc"
)

func main() {
	if err := runMain(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if report.IsHelp(err) {
			return // -h: the usage is printed
		}
		// Errors from the OCP code already carry the program's name.
		fmt.Fprintln(os.Stderr, "monopod:", strings.TrimPrefix(err.Error(), "monopod: "))
		// 1 for every failure, an invalid result included (errInvalid).
		os.Exit(1)
	}
}

// runMain parses the flags, solves the OCP and writes the outputs; the
// summary goes to stdout, the usage and flag errors to stderr.
func runMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := defaultConfig()
	fs := flag.NewFlagSet("monopod", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: monopod [flags]\n\nSolves the monopod OCP of 004 §7.2 (see go doc ./examples/monopod).")
		fs.PrintDefaults()
	}
	fs.IntVar(&c.Task.N, "N", c.Task.N, "number of control stages")
	fs.Var(formFlag{&c}, "dcs", "formulation: step (Heaviside) or stewart with time freezing, or fesdj (no time freezing)")
	out := fs.String("out", "out/monopod", "output folder")
	fs.Float64Var(&c.TerminalTol, "terminal-tol", 0, "hard terminal box |q_i(T) − q*_i|, |v_i(T)| ≤ tol (0: the tracking cost only, as in the paper)")
	fs.BoolVar(&c.FootGround, "foot-ground", false, "foot not below the ground (by more than 1e-5) at every stage point")
	fs.Float64Var(&c.Task.T, "T", c.Task.T, "horizon in seconds")
	fs.Float64Var(&c.Task.Distance, "distance", c.Task.Distance, "target q_x in metres")
	verbose := fs.Bool("v", false, "print the homotopy log on stdout (on a terminal it goes to stderr without -v)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (all options are flags)", fs.Args())
	}
	if *verbose {
		c.Log = stdout
	} else if report.IsTerminal(stderr) {
		// progress on a terminal: a line per relaxed NLP (σ, residual,
		// objective, status, iterations, time)
		c.Log = stderr
	}
	_, err := solveAndWrite(ctx, c, *out, stdout)
	return err
}

// solveAndWrite solves the OCP of c, writes the outputs into dir and
// prints a summary line and where the files went. A homotopy that does not
// reach Solved, or is not physically valid, is written and reported in
// the summary; its error wraps errInvalid (exit status 1).
func solveAndWrite(ctx context.Context, c config, dir string, stdout io.Writer) (summary, error) {
	t0 := time.Now()
	r, m, runErr := solve(ctx, c)
	if r == nil {
		return summary{}, runErr
	}
	// A result with an error (the ℓ∞ homotopy failed to start or was
	// cancelled) is still written before the error is returned.
	a, err := analyse(r, m)
	if err != nil {
		return summary{}, err
	}
	s := summarize(c, r, m, a, time.Since(t0))
	if err := writeRun(dir, c, r, m, a, s); err != nil {
		return s, err
	}
	fmt.Fprintf(stdout, "N=%d %s: %s (%s), complementarity %.1e, constraint violation %.1e, objective %.6g\n",
		s.N, s.DCS, s.Status, s.Stationarity, s.CompResidual, s.ConstraintViolation, s.Objective)
	fmt.Fprintf(stdout, "‖q(T)−q*‖ = %.2e (q(T) − q* = %.4f), ‖v(T)‖ = %.2e, hops %d, foot at most %.1e m below the ground\n",
		s.TerminalPositionError, s.TerminalDelta, s.TerminalVelocityNorm, s.Hops, s.MaxPenetration)
	fmt.Fprintf(stdout, "%d NLP iterations in %d homotopy steps, %.1f s (%.1f ms per iteration), %.1f s CPU\n",
		s.NLPIterations, len(s.Homotopy), s.SolveSeconds, 1e3*s.SecondsPerIteration, s.CPUSeconds)
	if s.EnergyGain > 1e-6 || s.PenetrationBetween > 1e-6 { // above rounding and quadrature noise
		fmt.Fprintf(stdout, "energy: rises by up to %.3g J beyond the torques' work (from t = %.3f); foot at most %.1e m below the ground between the nodes (t = %.3f)\n",
			s.EnergyGain, s.EnergyGainTime, s.PenetrationBetween, s.PenetrationBetweenTime)
	}
	if r.Infeasible != nil {
		fmt.Fprintf(stdout, "diagnosis: %v\n", r.Infeasible)
	}
	verdict := fmt.Sprint(r.Validity)
	if r.CLSValidity != nil {
		verdict = r.CLSValidity.String()
	}
	fmt.Fprintf(stdout, "physical validity: %s\n", verdict)
	fmt.Fprintf(stdout, "wrote %s in %s\n", strings.Join(outputFiles, ", "), dir)
	if runErr == nil && (r.Status != mpcc.Solved || !s.Valid) {
		runErr = fmt.Errorf("%w: status %v, %s", errInvalid, r.Status, verdict)
	}
	return s, runErr
}

// errInvalid is the error of a run whose result is not a valid solution:
// not Solved, or not physically valid (its files are written; the program
// exits with status 1).
var errInvalid = errors.New("monopod: no valid solution")
