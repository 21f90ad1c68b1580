// Command order is the integration-order experiment of 004 §7.1 (Figure 6;
// nosnoc_py examples/Acary2014/irma_integration_order_experiment.py): it
// simulates a nonsmooth problem with FESD and with standard time stepping
// (FESD off) for Radau IIA and Gauss–Legendre schemes of n_s stages over a
// range of step counts N_sim, measures the error against an exact or
// high-accuracy reference (internal/reference) and fits the observed order.
//
// Default: IRMA over the first 100 minutes (two switches), Radau IIA and
// Gauss–Legendre with n_s = 1…4 (orders 1, 3, 5, 7 and 2, 4, 6, 8), N_FE = 3,
// N_sim ∈ {1, 2, 3, 4, 6, 9, 18, 50, 100, 300} (the paper's grid plus 2, 4
// and 6, see irmaProblem), FESD on and off: 160 simulations. FESD steps
// start from fesd's event-driven prediction (Simulator.NoPredict unset) and IRMA
// uses the relative switching functions x_i/θ_j − 1 (irma.py has x_i − θ_j:
// the same Filippov system and switch times; see examples/irma).
// Settings of every run (as in irma_integration_order_experiment.py): Step
// DCS, Scholtes homotopy with complementarity tolerance 1e-12,
// heuristic_mean step equilibration,
// integral representation — and, unlike nosnoc, κ = 0.01. Most FESD steps are solved on their predicted branch, with
// exact complementarity; a step that needs the homotopy keeps its point and
// is certified (fesd's simulation default). A step whose homotopy fails is retried from a
// cold start with κ = 0.1, 0.3 and the superlinear rule (standard time
// stepping: κ = 0.1 only); the status names the retried steps. A failed FESD
// step whose reference switches cannot be put on element boundaries (more
// stretches than elements of length ≤ 2T/N_FE) is labelled "inherent".
//
// The step size is the paper's h̄ = T_sim/(N_sim·N_FE). A run whose
// homotopy fails at some step has no error; its status names the step and
// the homotopy status, and it is listed in the table and in order.json.
//
// Slope (internal/convergence.Fit). The observed order is the
// least-squares slope of log(error) over log(h_max), h_max the longest
// finite element of the run, on the points of
// a run that succeeded and whose error is above the floor (1e-10 for IRMA,
// 1e-11 for the oscillator, 1e-10 for friction): below it
// the error is set by the complementarity and NLP tolerances and round-off,
// not by the discretization (for IRMA the errors level off at 2e-12…5e-12,
// see irmaProblem). At least two points are needed. h_max, not the nominal
// h̄ = T_sim/(N_sim·N_FE), because FESD's elements are not uniform: the
// switches fix element boundaries, and the global error of a one-step
// method on a nonuniform grid is bounded by C·h_max^p. On IRMA's coarse
// grids the two differ most: N_sim = 1 puts both switches (t = 25.5, 39.2)
// on element boundaries, leaving a 61-minute element where h̄ is 33;
// N_sim = 4 has its step boundary t = 25 0.54 min before the first
// switch, hence a 13.6-minute element where h̄ is 8.3. Pre-asymptotic
// points are not excluded. The slope over h̄ is reported too
// (slope_nominal, column "(h̄)").
//
// Measured (default sweep, results in examples/order/results): 10.7 s
// wall on an idle 2-core machine; 303 s before the steps were solved on
// their predicted branch (fesd.StepRecord.Branch; the results agree except
// below 1e-12). FESD slopes over h_max: Radau IIA 0.95, 2.94, 5.16, 7.04
// and Gauss–Legendre 1.95, 4.02, 6.40, 7.83 (n_s = 1…4; orders 1, 3, 5, 7
// and 2, 4, 6, 8): all eight within ±0.5. Over h̄ they are 1.03, 3.07,
// 5.49, 7.80 and 2.00, 4.31, 6.98, 8.37 (Radau n_s = 4 outside ±0.5,
// because of the two coarse grids above). Standard time stepping: slopes
// 0.56–1.47. 10 of 160 simulations fail (listed in the table and
// order.json), all with N_sim ≤ 4 and a step whose homotopy ends
// Infeasible (two relaxed NLPs locally infeasible): 8 of standard time
// stepping with N_sim ≤ 2, and two FESD runs (Radau n_s = 1 at N_sim = 4,
// step 1; Gauss n_s = 1 at N_sim = 1).
//
// Output in -out (default out/order): order.json
//
//	{"problem": …, "runs": [{"scheme": "radau_iia"|"gauss_legendre", "ns": …,
//	  "order": …, "fesd": true|false, "points": [{"nsim": …, "h": …,
//	  "h_max": …, "error": …, "status": "ok"|…}], "slope": …,
//	  "slope_nominal": …}], …}
//
// and order.png/.svg: error over h̄ on log-log axes, one panel per scheme
// family, FESD (solid) against standard time stepping (dashed), as 004
// Figure 6.
//
// The simulations run on -j workers (default runtime.NumCPU()), with a
// progress line when the standard output is a terminal.
//
// Usage:
//
//	go run ./examples/order [-problem irma|friction|oscillator] [-schemes radau,gauss]
//	    [-ns 1,2,3,4] [-nsim 1,2,3,4,6,9,18,50,100,300] [-fesd on|off|both] [-nfe N]
//	    [-comptol 1e-12] [-j N] [-out DIR]
//
// 004 is A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, "Finite Elements
// with Switch Detection for Numerical Optimal Control of Nonsmooth Dynamical
// Systems with Set-Valued Heaviside Step Functions", Nonlinear Analysis:
// Hybrid Systems, 2024 (the Papers section of the README lists all papers).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/fesd-go/fesd/internal/convergence"
	"github.com/fesd-go/fesd/rk"
)

// options configures run.
type options struct {
	Problem string
	Schemes []rk.Family
	Stages  []int
	NSim    []int // nil: the problem's default
	FESD    []bool
	NFE     int // 0: the problem's default (3; friction 6)
	CompTol float64
	Kappa   float64 // σ update factor of the homotopy (0.01; 0: mpcc's 0.1)
	SigmaN  float64 // smallest σ of the homotopy (0: mpcc's default 0.1·CompTol)
	Floor   float64 // 0: the problem's default
	Jobs    int
	Out     string // "" writes nothing
	Plot    bool
	Quiet   bool // no progress line
}

func defaultOptions() options {
	return options{
		Problem: "irma",
		Schemes: []rk.Family{rk.FamilyRadauIIA, rk.FamilyGaussLegendre},
		Stages:  []int{1, 2, 3, 4},
		FESD:    []bool{true, false},
		CompTol: 1e-12, Kappa: 0.01,
		Jobs: runtime.NumCPU(),
		Out:  "out/order", Plot: true,
	}
}

func main() {
	o := defaultOptions()
	var schemes, stages, nsim, fesdFlag string
	flag.StringVar(&o.Problem, "problem", o.Problem, "test problem: irma, friction or oscillator")
	flag.StringVar(&schemes, "schemes", "radau,gauss", "scheme families: radau, gauss")
	flag.StringVar(&stages, "ns", "1,2,3,4", "numbers of stages")
	flag.StringVar(&nsim, "nsim", "", "numbers of simulation steps (default per problem; irma: 1,2,3,4,6,9,18,50,100,300)")
	flag.StringVar(&fesdFlag, "fesd", "both", "FESD: on, off or both")
	flag.IntVar(&o.NFE, "nfe", 0, "finite elements per simulation step (0: problem default, 3; friction 6)")
	flag.Float64Var(&o.CompTol, "comptol", o.CompTol, "complementarity tolerance and σ_N of the homotopy")
	flag.IntVar(&o.Jobs, "j", o.Jobs, "parallel simulations")
	flag.StringVar(&o.Out, "out", o.Out, "output folder")
	flag.Parse()
	err := parseFlags(&o, schemes, stages, nsim, fesdFlag)
	if err == nil {
		err = convergence.Run(flag.Args(), func(ctx context.Context, terminal bool) error {
			o.Quiet = !terminal
			_, err := run(ctx, os.Stdout, o)
			return err
		})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "order:", err)
		os.Exit(1)
	}
}

// parseFlags fills the list-valued options from their flag strings.
func parseFlags(o *options, schemes, stages, nsim, fesdFlag string) error {
	o.Schemes = nil
	for _, s := range splitList(schemes) {
		switch s {
		case "radau", "radau_iia", "radauiia":
			o.Schemes = append(o.Schemes, rk.FamilyRadauIIA)
		case "gauss", "gauss_legendre", "gl":
			o.Schemes = append(o.Schemes, rk.FamilyGaussLegendre)
		default:
			return fmt.Errorf("unknown scheme %q (radau, gauss)", s)
		}
	}
	var err error
	if o.Stages, err = parseInts(stages); err != nil {
		return fmt.Errorf("-ns: %w", err)
	}
	if nsim != "" {
		if o.NSim, err = parseInts(nsim); err != nil {
			return fmt.Errorf("-nsim: %w", err)
		}
	}
	switch fesdFlag {
	case "on":
		o.FESD = []bool{true}
	case "off":
		o.FESD = []bool{false}
	case "both":
		o.FESD = []bool{true, false}
	default:
		return fmt.Errorf("-fesd %q: want on, off or both", fesdFlag)
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty list")
	}
	return out, nil
}

// run performs the sweep, prints the table to w and writes the outputs.
func run(ctx context.Context, w io.Writer, o options) (*study, error) {
	st, err := sweep(ctx, w, o)
	if err != nil {
		return st, err
	}
	return st, convergence.Report(w, o.Out, func(w io.Writer) { printTable(w, st) }, func(string) error { return writeOutputs(o, st) })
}
