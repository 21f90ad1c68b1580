// Command hopper solves the hopping-robot OCP of nosnoc_py
// (examples/hopper_robot/hopper_ocp.py, Stewart, and hopper_ocp_step.py,
// Heaviside step; nosnoc.md §3.5): a planar body with a prismatic leg must
// hop from x = 0.1 to x_goal over ground with friction, impacts made
// continuous by hand-crafted inelastic time freezing.
//
// DOCUMENTATION PENDING (results).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

func main() {
	if err := runMain(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "hopper:", err)
		os.Exit(1)
	}
}

func parseDCS(s string) (dcs.Formulation, error) {
	switch strings.ToLower(s) {
	case "step", "heaviside":
		return dcs.Step, nil
	case "stewart":
		return dcs.Stewart, nil
	}
	return 0, fmt.Errorf("-dcs %q: want step or stewart", s)
}

func parseCross(s string) (fesd.CrossComp, error) {
	for _, c := range fesd.CrossComps() {
		if strings.EqualFold(c.String(), s) {
			return c, nil
		}
	}
	return 0, fmt.Errorf("-cross %q: want one of %v", s, fesd.CrossComps())
}

func runMain(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("hopper", flag.ContinueOnError)
	fs.SetOutput(stdout)
	c := defaultConfig()
	fs.IntVar(&c.N, "N", c.N, "number of control stages")
	fs.Float64Var(&c.T, "T", c.T, "horizon [s]")
	fs.Float64Var(&c.Goal, "goal", c.Goal, "final body position x_goal [m]")
	fs.IntVar(&c.Jumps, "jumps", c.Jumps, "hops of the reference (0: round(goal − 0.1), nosnoc_py's multijump rule)")
	fs.Float64Var(&c.Height, "height", c.Height, "body height of the reference at mid hop (HEIGHT)")
	fs.Float64Var(&c.MidLeg, "mid-leg", c.MidLeg, "leg length of the reference at mid hop")
	dcsFlag := fs.String("dcs", "step", "DCS formulation: step (Heaviside) or stewart")
	cross := fs.String("cross", c.Cross.String(), "cross complementarity: STAGE_FE (nosnoc_py's SUM_LAMBDAS_COMPLEMENT_WITH_EVERY_THETA), FE_FE, FE_STAGE, STAGE_STAGE")
	fs.IntVar(&c.NFE, "nfe", c.NFE, "finite elements per stage")
	fs.Float64Var(&c.CompTol, "comp-tol", c.CompTol, "complementarity tolerance")
	fs.IntVar(&c.MaxSteps, "max-steps", c.MaxSteps, "homotopy steps (0: down to the tolerance; nosnoc_py: 6)")
	fs.Float64Var(&c.NLPTol, "nlp-tol", c.NLPTol, "inner NLP tolerance (0: 0.01·comp-tol, nosnoc_py's rule)")
	fs.IntVar(&c.MaxIter, "max-iter", c.MaxIter, "NLP iteration limit per homotopy step")
	fs.BoolVar(&c.StrictPivots, "strict-pivots", c.StrictPivots, "inner NLP: every zero KKT pivot means singular (IPOPT's rule)")
	fs.IntVar(&c.Watchdog, "watchdog", c.Watchdog, "inner NLP watchdog trigger (0 = off, IPOPT: 10)")
	fs.BoolVar(&c.InitRef, "init-ref", c.InitRef, "initialize the states with the reference")
	timeout := fs.Duration("timeout", 0, "stop the solve after this long (0: no limit)")
	out := fs.String("out", "out/hopper", "output folder")
	verbose := fs.Bool("v", false, "print the homotopy log")
	nlpLog := fs.Bool("vv", false, "also print the inner NLP iteration logs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	var err error
	if c.Form, err = parseDCS(*dcsFlag); err != nil {
		return err
	}
	if c.Cross, err = parseCross(*cross); err != nil {
		return err
	}
	if *verbose || *nlpLog {
		c.Log = stdout
	}
	if *nlpLog {
		c.NLPLog = stdout
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	_, err = solveAndWrite(ctx, c, *out, stdout)
	return err
}

// solveAndWrite solves one OCP, writes its outputs into dir and prints a
// summary line. A homotopy that does not reach Solved is reported in the
// summary (status), not as an error.
func solveAndWrite(ctx context.Context, c config, dir string, stdout io.Writer) (summary, error) {
	if err := c.validate(); err != nil {
		return summary{}, err
	}
	fmt.Fprintf(stdout, "hopper: N=%d T=%g goal=%g dcs=%s cross=%s σ₀=%g κ=%g comp_tol=%g init_ref=%v\n",
		c.N, c.T, c.Goal, c.Form, c.Cross, c.Sigma0, c.Kappa, c.CompTol, c.InitRef)
	t0 := time.Now()
	r, h, err := run(ctx, c)
	wall := time.Since(t0)
	if r == nil {
		return summary{}, err
	}
	a := analyse(r)
	s := summarize(c, r, h, a, wall)
	if werr := writeRun(dir, c, r, a, s); werr != nil {
		return s, werr
	}
	fmt.Fprintf(stdout, "status=%s obj=%.6g iters=%d steps=%d wall=%.1fs |q(T)−q_end|=%.2e |v(T)|=%.2e flights=%d penetration=%.1e slip=%.1e comp=%.1e clock_err=%.1e\n",
		s.Status, s.Objective, s.NLPIterations, s.HomotopySteps, s.WallSeconds, s.TerminalPositionError, s.TerminalVelocityNorm,
		s.FlightPhases, s.MaxPenetration, s.MaxSlip, s.CompResidual, s.ClockError)
	fmt.Fprintf(stdout, "wrote %s\n", dir)
	return s, err
}
