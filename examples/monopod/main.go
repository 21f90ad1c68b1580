package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

func main() {
	if err := runMain(context.Background(), os.Args[1:], os.Stdout); err != nil {
		if report.IsHelp(err) {
			return // -h: the usage is printed
		}
		// Errors from the OCP code already carry the program's name.
		fmt.Fprintln(os.Stderr, "monopod:", strings.TrimPrefix(err.Error(), "monopod: "))
		os.Exit(1)
	}
}

// finishFlag is the -finish steering: mpcc.L1, mpcc.LInf, or "none"
// (mpcc.Direct: no finishing homotopy).
type finishFlag mpcc.Steering

func (f finishFlag) String() string {
	if mpcc.Steering(f) == mpcc.Direct {
		return "none"
	}
	return strings.ToLower(mpcc.Steering(f).String())
}

func (f finishFlag) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

func (f *finishFlag) UnmarshalText(text []byte) error {
	if strings.EqualFold(string(text), "none") {
		*f = finishFlag(mpcc.Direct)
		return nil
	}
	var st mpcc.Steering
	if err := st.UnmarshalText(text); err != nil || st == mpcc.Direct {
		return fmt.Errorf("want linf, l1 or none, not %q", text)
	}
	*f = finishFlag(st)
	return nil
}

func parseSweep(s string) ([]int, error) {
	p := strings.Split(s, ":")
	if len(p) != 3 {
		return nil, fmt.Errorf("-sweep %q: want FROM:TO:STEP", s)
	}
	var v [3]int
	for i := range p {
		n, err := strconv.Atoi(p[i])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-sweep %q: %q is not a positive integer", s, p[i])
		}
		v[i] = n
	}
	var out []int
	for n := v[0]; n <= v[1]; n += v[2] {
		out = append(out, n)
	}
	return out, nil
}

func runMain(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("monopod", flag.ContinueOnError)
	c := defaultConfig()
	fs.IntVar(&c.N, "N", c.N, "number of control stages")
	fs.TextVar(&c.Form, "dcs", c.Form, "DCS formulation: step (Heaviside) or stewart")
	out := fs.String("out", "out/monopod", "output folder")
	sweep := fs.String("sweep", "", "FROM:TO:STEP: solve these N with both DCS modes (004 Figure 10)")
	groundPass := fs.Bool("ground-pass", false, "with -sweep -refine: follow every run by ground passes with the stage-point foot constraint (foot height ≥ −foot-slack), from the last solved ground pass of its mode at an earlier N, (Step) from the Stewart ground pass at the same N, then from the run itself, each with a restarted ℓ∞ finish if not Solved; then a descending chain retries every unsolved N from the solved passes at larger N (rows with foot_ground = true, folders N…_ground, _ground2, …)")
	refine := fs.Bool("refine", false, "with -sweep: mesh refinement chain (Stewart at the first N by the targets recipe or from -init-from, each later N from the previous Stewart solution, Step at each N from the Stewart solution at that N; the refinement recipe of the package doc)")
	fs.TextVar(&c.Cross, "cross", c.Cross, "cross complementarity: FE_STAGE (paper era), FE_FE (nosnoc HEAD), STAGE_STAGE, STAGE_FE")
	fs.IntVar(&c.NFE, "nfe", c.NFE, "finite elements per stage (0: 3)")
	fs.Float64Var(&c.GammaH, "gamma-h", c.GammaH, "step-size bound h ≤ (1+γ_h)·h₀ (0: 1, nosnoc's; ≥ N_FE−1: only Σh = T/N and h ≥ 0)")
	fs.IntVar(&c.NS, "ns", c.NS, "Radau IIA stages per finite element, order 2·ns − 1 (0: 2)")
	fs.Float64Var(&c.CompTol, "comp-tol", c.CompTol, "complementarity tolerance")
	fs.IntVar(&c.MaxIter, "max-iter", c.MaxIter, "NLP iteration limit per homotopy step")
	fs.Float64Var(&c.NLPTol, "nlp-tol", c.NLPTol, "inner NLP tolerance on the scaled optimality error (IPOPT tol = acceptable_tol; the paper's experiment: 1e-5)")
	fs.BoolVar(&c.InitRef, "init-ref", c.InitRef, "initialize the states with the reference")
	fs.BoolVar(&c.InitX0, "init-x0", c.InitX0, "initialize every state at x₀ (nosnoc) instead of the reference (-init-ref=false -init-x0=false: forward simulation with u = 0)")
	fs.BoolVar(&c.ColdDuals, "cold-duals", c.ColdDuals, "homotopy: restart every step from the primal point only (nosnoc)")
	fs.Float64Var(&c.PolishSigma, "polish", c.PolishSigma, "homotopy: polish (fix the active set, σ = 0) after every step with σ ≤ this value (0: off)")
	fs.BoolVar(&c.Monotone, "monotone", c.Monotone, "inner NLP: monotone barrier update (IPOPT's default, nosnoc) instead of the adaptive one")
	fs.Float64Var(&c.Mu0, "mu0", c.Mu0, "homotopy: initial barrier parameter of every warm-started step (0: max(1e-9, 0.1σ); nosnoc: 0.1)")
	fs.TextVar(&c.XBoundsAt, "xbounds", c.XBoundsAt, "where the state bounds hold: stage_ends, element_boundaries or stage_points (nosnoc)")
	fs.TextVar(&c.Inertia, "inertia", c.Inertia, "inner NLP inertia-correction policy: Default, Strict (every zero KKT pivot means singular, IPOPT's rule), StrictDeltaC (also δ_c in every factorization, IPOPT's perturb_always_cd), Curvature (Chiang–Zavala curvature test) or StrictCurvature")
	fs.IntVar(&c.Watchdog, "watchdog", c.Watchdog, "inner NLP watchdog trigger (shortened steps; 0 = off, IPOPT: 10)")
	fs.Float64Var(&c.T, "T", c.T, "horizon in seconds (physical time)")
	fs.Float64Var(&c.Distance, "distance", c.Distance, "target q_x in metres")
	fs.TextVar(&c.Relaxation, "relaxation", c.Relaxation, "homotopy relaxation: ScholtesIneq (nosnoc), ScholtesEq, or with -cross STAGE_STAGE a scalar one (KanzowSchwartz, FischerBurmeisterIneq, NaturalResidualIneq, …)")
	fs.TextVar(&c.Steering, "steering", c.Steering, "homotopy steering: direct, l1 (exact ℓ1 penalty) or linf")
	fs.TextVar((*finishFlag)(&c.Finish), "finish", finishFlag(c.Finish), "continue an unfinished homotopy with this steering: linf (elastic ℓ∞ mode), l1 (exact ℓ1 penalty) or none")
	fs.Float64Var(&c.FinishSigma0, "finish-sigma0", c.FinishSigma0, "first σ of the -finish homotopy (0: the last σ of the first)")
	fs.Float64Var(&c.FinishKappa, "finish-kappa", c.FinishKappa, "reduction factor κ of the -finish homotopy (0: -kappa)")
	fs.IntVar(&c.MaxSteps, "max-steps", c.MaxSteps, "number of homotopy steps (nosnoc's N_homotopy; 0: from σ₀, κ and -comp-tol)")
	fs.Float64Var(&c.SOTMax, "sot-max", c.SOTMax, "upper bound of the speed of time per stage")
	dense := fs.Bool("dense", false, "same as -linsolver DenseLDL (small N only; diagnostics)")
	fs.TextVar(&c.LinearSolver, "linsolver", c.LinearSolver, "inner NLP KKT backend: SparseLDL (pivot-free), PivotingLDL (threshold pivoting) or DenseLDL")
	fs.Float64Var(&c.Sigma0, "sigma0", c.Sigma0, "first relaxation parameter σ₀ of the homotopy")
	fs.Float64Var(&c.Kappa, "kappa", c.Kappa, "homotopy reduction factor κ (σ ← κσ)")
	fs.BoolVar(&c.FootGround, "foot-ground", c.FootGround, "path constraint: foot height ≥ −foot-slack at every stage point")
	fs.Float64Var(&c.FootSlack, "foot-slack", c.FootSlack, "with -foot-ground: allowed depth of the foot below the ground")
	fs.Float64Var(&c.TerminalTol, "terminal-tol", c.TerminalTol, "terminal constraints |q(T) − q*| ≤ tol and |v(T)| ≤ tol componentwise (0: the tracking cost only, nosnoc)")
	fs.Float64Var(&c.RefineBaumgarte, "refine-baumgarte", c.RefineBaumgarte, "with -refine: Baumgarte gain k of the refinement recipe and the ground passes (0: 10)")
	fs.Float64Var(&c.TerminalBall, "terminal-ball", c.TerminalBall, "terminal constraints ‖q(T) − q*‖ ≤ r and ‖v(T)‖ ≤ r (Euclidean; 0: off)")
	fs.Float64Var(&c.TerminalVelTol, "terminal-vel-tol", c.TerminalVelTol, "terminal constraint |v(T)| ≤ tol componentwise (0: off)")
	fs.BoolVar(&c.KeepLastSuccess, "keep-last-success", c.KeepLastSuccess, "homotopy: start the step after a failed one from the last successful point (nosnoc: from the failed point)")
	fs.Float64Var(&c.Baumgarte, "baumgarte", c.Baumgarte, "time freezing: normal switching function J_nᵀv + k·f_c with this k (0: nosnoc's J_nᵀv)")
	fs.Float64Var(&c.FinishBaumgarte, "finish-baumgarte", c.FinishBaumgarte, "time freezing: Baumgarte gain k of the -finish homotopy only (0: -baumgarte); the finish then always runs")
	fs.Float64Var(&c.WarmPush, "warm-push", c.WarmPush, "inner NLP warm-start bound push κ₁ (0: 1e-3, IPOPT's warm_start_bound_push)")
	fs.Float64Var(&c.FinishTerminalTol, "finish-terminal-tol", c.FinishTerminalTol, "terminal box |q(T) − q*|, |v(T)| ≤ tol for the -finish homotopy only (0: off); the finish then always runs")
	fs.BoolVar(&c.FinishFootGround, "finish-foot-ground", c.FinishFootGround, "path constraint foot height ≥ −foot-slack at every stage point for the -finish homotopy only; the finish then always runs")
	fs.BoolVar(&c.FinishPlainFirst, "finish-plain-first", c.FinishPlainFirst, "with -finish-baumgarte/-finish-terminal-tol: run nosnoc's finish first, then one Scholtes step at 10·(-finish-second-sigma0) and the gain/box finish from there")
	fs.Float64Var(&c.FinishSecondSigma0, "finish-second-sigma0", c.FinishSecondSigma0, "with -finish-plain-first: first σ of the gain/box finish (0: 1e-6)")
	fs.BoolVar(&c.Evaluate, "evaluate", c.Evaluate, "with -warm: write the saved solution's trajectory, plots, summary and elements.csv without solving (status NotSolved)")
	warm := fs.String("warm", "", "start from the solution.json of an earlier run (same N, -dcs, -cross, -nfe, -ns) instead of the initialization")
	initFrom := fs.String("init-from", "", "initialize from the solution.json of an earlier run on any grid (other N, -dcs, -cross, -nfe, -ns): states interpolated in time, controls by stage (mesh refinement)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile (go tool pprof) to this file")
	verbose := fs.Bool("v", false, "print the homotopy log")
	nlpVerbose := fs.Bool("vv", false, "also print the iteration log of every inner NLP")
	if err := fs.Parse(args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if c.InitX0 && c.InitRef {
		if set["init-ref"] {
			return fmt.Errorf("-init-x0 and -init-ref: choose one initialization")
		}
		c.InitRef = false // -init-x0 replaces the default
	}
	var err error
	if !(c.FinishKappa >= 0 && c.FinishKappa < 1) {
		return fmt.Errorf("-finish-kappa %v: want 0 ≤ κ < 1 (0: -kappa)", c.FinishKappa)
	}
	if *dense {
		c.LinearSolver = nlp.DenseLDL
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *verbose || *nlpVerbose {
		c.Log = stdout
	}
	if *nlpVerbose {
		c.NLPLog = stdout
	}
	if *warm != "" {
		if *sweep != "" {
			return fmt.Errorf("-warm and -sweep: a saved solution fits one N and DCS mode only")
		}
		if c.Warm, err = loadSolution(*warm, c); err != nil {
			return err
		}
	}
	if c.Evaluate && *warm == "" {
		return fmt.Errorf("-evaluate needs -warm (the solution to evaluate)")
	}
	if *refine && *sweep == "" {
		return fmt.Errorf("-refine needs -sweep")
	}
	if *groundPass && !*refine {
		return fmt.Errorf("-ground-pass needs -sweep and -refine")
	}
	if c.RefineBaumgarte != 0 && !*refine {
		return fmt.Errorf("-refine-baumgarte needs -sweep and -refine (elsewhere: -baumgarte)")
	}
	if *initFrom != "" {
		if (*sweep != "" && !*refine) || *warm != "" {
			return fmt.Errorf("-init-from with -warm, or with -sweep but not -refine: choose one start")
		}
		if c.InitFrom, err = loadInitFrom(*initFrom, c); err != nil {
			return err
		}
		c.fromName = *initFrom
	}
	if *sweep != "" {
		Ns, err := parseSweep(*sweep)
		if err != nil {
			return err
		}
		if *refine {
			for _, f := range refineFixed {
				if set[f] {
					return fmt.Errorf("-refine sets -%s itself (the recipes of the package doc)", f)
				}
			}
			if !set["max-iter"] {
				c.MaxIter = refineMaxIter
			}
			return refineSweep(ctx, c, Ns, *groundPass, *out, stdout)
		}
		var rows []summary
		for _, n := range Ns {
			for _, f := range []dcs.Formulation{dcs.Step, dcs.Stewart} {
				cc := c
				cc.N, cc.Form = n, f
				s, err := solveAndWrite(ctx, cc, filepath.Join(*out, runName(n, f)), stdout)
				if err != nil {
					return err
				}
				rows = append(rows, s)
				if err := writeSweep(*out, rows); err != nil {
					return err
				}
			}
		}
		return nil
	}
	_, err = solveAndWrite(ctx, c, *out, stdout)
	return err
}

// solveAndWrite solves one OCP, writes its outputs and prints a summary
// line. A homotopy that does not reach Solved is reported in the summary
// (status), not as an error.
func solveAndWrite(ctx context.Context, c config, dir string, stdout io.Writer) (summary, error) {
	s, _, err := solveWriteResult(ctx, c, dir, stdout)
	return s, err
}

// solveWriteResult is solveAndWrite that also returns the result (nil if
// the solve could not start).
func solveWriteResult(ctx context.Context, c config, dir string, stdout io.Writer) (summary, *fesd.OCPResult, error) {
	t0 := time.Now()
	c.saveDir = dir
	r, m, runErr := run(ctx, c)
	wall := time.Since(t0)
	if r == nil {
		return summary{}, nil, runErr
	}
	// A result with an error (the finishing homotopy failed to start or
	// stopped) is still written before the error is returned.
	a, err := analyse(r, m)
	if err != nil {
		return summary{}, r, err
	}
	s := summarize(c, r, m, a, wall)
	if err := writeRun(dir, c, r, m, a, s); err != nil {
		return s, r, err
	}
	fmt.Fprintf(stdout, "N=%d %-7s %-9s status=%s class=%s obj=%.6g iters=%d wall=%.1fs (%.2f ms/iter) |q(T)−q*|=%.2e |v(T)|=%.2e jumps=%d impacts=%d penetration=%.1e comp=%.1e\n",
		c.N, c.Form, c.Cross, s.Status, s.Stationarity, s.Objective, s.NLPIterations, s.WallSeconds, 1e3*s.SecondsPerIteration,
		s.TerminalPositionError, s.TerminalVelocityNorm, s.Jumps, s.Impacts, s.MaxPenetration, s.CompResidual)
	fmt.Fprintf(stdout, "wrote %s\n", dir)
	return s, r, runErr
}
