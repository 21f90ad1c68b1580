package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/fesd-go/fesd/internal/convergence"
	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/internal/rusage"
	"github.com/fesd-go/fesd/rk"
)

// options are the command line.
type options struct {
	Full       bool   // the paper's grid instead of the default one
	Random     int    // runs per scheme of the randomized study
	RandomNSim int    // N_sim of the randomized study
	Seed       uint64 // of the randomized study
	Jobs       int    // workers
	Out        string // output folder ("" : none)
	Plot       bool
}

func defaultOptions() options {
	return options{Random: 12, RandomNSim: 100, Seed: 1, Jobs: runtime.NumCPU(), Out: "out/fesdj", Plot: true}
}

// paperNSim are the N_sim of the paper's Fig. 6 (nosnoc's
// benchmarks/two_balls_cls/benchmark_globals.m, NSIM_VALUES).
var paperNSim = []int{50, 60, 65, 70, 80, 90, 100, 120, 125, 150, 175, 200, 225, 250, 300, 350, 420, 450, 520, 600, 750, 900, 1200, 2000}

// softK is the spring stiffness of the "soft" variant on which implicit
// Euler is measured (defaultCurves).
const softK = 100

// defaultCurves is the default order study: on the paper's system, each
// scheme over an N_sim range where its error is in the asymptotic regime
// h^p and above the floor, except implicit Euler (Radau IIA, n_s = 1),
// which damps the spring's oscillation (ω = √(2k) ≈ 141 rad/s) by a factor
// of about 1 − (ωh)²/2 per element, a total of exp(−ω²h̄T/2): its error is
// O(1) (the balls' trajectory after the first impact is qualitatively
// wrong) until N_sim is in the tens of thousands. Implicit Euler is shown
// on the paper's system and measured on the same system with a spring of
// k = 100 (ω ≈ 14), where its error is already proportional to h at
// N_sim = 100.
func defaultCurves() []curveSpec {
	return []curveSpec{
		{"paper", rk.FamilyRadauIIA, 1, []int{100, 200, 400}},
		{"paper", rk.FamilyRadauIIA, 2, []int{200, 300, 400, 600, 800}},
		{"paper", rk.FamilyRadauIIA, 3, []int{100, 150, 200, 300, 400, 600, 800, 1200}},
		{"paper", rk.FamilyGaussLegendre, 1, []int{400, 600, 800, 1200}},
		{"paper", rk.FamilyGaussLegendre, 2, []int{100, 150, 200, 300, 400}},
		{"paper", rk.FamilyGaussLegendre, 3, []int{100, 125, 150, 200, 250, 300, 400, 600}},
		{"soft", rk.FamilyRadauIIA, 1, []int{100, 200, 400, 800, 1600}},
	}
}

// paperCurves is the paper's grid: both schemes, n_s = 1…4, every N_sim
// of paperNSim on the paper's system.
func paperCurves() []curveSpec {
	var out []curveSpec
	for _, f := range []rk.Family{rk.FamilyRadauIIA, rk.FamilyGaussLegendre} {
		for ns := 1; ns <= 4; ns++ {
			out = append(out, curveSpec{"paper", f, ns, paperNSim})
		}
	}
	return out
}

func main() {
	o := defaultOptions()
	if err := parseFlags(&o, os.Args[1:]); err != nil {
		if report.IsHelp(err) {
			return
		}
		fmt.Fprintln(os.Stderr, "fesdj:", err)
		os.Exit(2)
	}
	err := convergence.Run(nil, func(ctx context.Context, terminal bool) error {
		var progress io.Writer
		if terminal {
			progress = os.Stderr
		}
		st, err := runStudy(ctx, o, progress)
		if err != nil {
			return err
		}
		return output(os.Stdout, o, st)
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fesdj:", err)
		os.Exit(1)
	}
}

func parseFlags(o *options, args []string) error {
	fs := flag.NewFlagSet("fesdj", flag.ContinueOnError)
	fs.BoolVar(&o.Full, "full", o.Full, "the paper's grid: Radau IIA and Gauss–Legendre, n_s = 1…4, its 24 values of N_sim (about 10 min CPU)")
	fs.IntVar(&o.Random, "random", o.Random, "runs per scheme of the randomized study (0: none)")
	fs.IntVar(&o.RandomNSim, "random-nsim", o.RandomNSim, "N_sim of the randomized study")
	fs.Uint64Var(&o.Seed, "seed", o.Seed, "seed of the randomized study")
	fs.IntVar(&o.Jobs, "j", o.Jobs, "parallel simulations")
	fs.StringVar(&o.Out, "out", o.Out, `output folder ("" for none)`)
	fs.BoolVar(&o.Plot, "plot", o.Plot, "write the log-log plot")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.Random < 0 || o.RandomNSim < 1 || o.Jobs < 1 {
		return fmt.Errorf("-random must be ≥ 0, -random-nsim and -j ≥ 1")
	}
	return nil
}

// study is what a run of the program measured.
type study struct {
	Curves []curveResult
	Runs   []run // of the order study, in the order of the curves
	Random []run // of the randomized study
	// CPU is the process's CPU time (user + system) and Wall the wall time.
	CPU, Wall time.Duration
	Full      bool
}

// runStudy simulates the curves (defaultCurves, or paperCurves with
// o.Full) and the randomized study on o.Jobs workers.
func runStudy(ctx context.Context, o options, progress io.Writer) (*study, error) {
	cpu0, t0 := rusage.CPUTime(), time.Now()
	probs := map[string]*problem{}
	for name, b := range map[string]balls{"paper": paperBalls, "soft": softBalls()} {
		p, err := newProblem(name, b)
		if err != nil {
			return nil, err
		}
		probs[name] = p
	}
	specs := defaultCurves()
	if o.Full {
		specs = paperCurves()
	}
	var jobs []job
	for _, cs := range specs {
		for _, n := range cs.NSim {
			jobs = append(jobs, job{probs[cs.Problem], convergence.Case{Family: cs.Family, Stages: cs.Stages, FESD: true, NSim: n}})
		}
	}
	nOrder := len(jobs)
	if o.Random > 0 {
		rps, err := randomProblems(o.Random, o.Seed)
		if err != nil {
			return nil, err
		}
		for _, f := range []rk.Family{rk.FamilyRadauIIA, rk.FamilyGaussLegendre} {
			for _, p := range rps {
				jobs = append(jobs, job{p, convergence.Case{Family: f, Stages: 2, FESD: true, NSim: o.RandomNSim}})
			}
		}
	}
	pool := convergence.Pool[job, run]{
		Workers:  o.Jobs,
		Cost:     func(j job) int { return j.c.NSim * (j.c.Stages + 1) },
		Progress: progress,
		Label: func(j job, r run) string {
			return fmt.Sprintf("%s %s: %s", j.p.Name, j.c, convergence.ErrorText(r.Error))
		},
	}
	runs, _, err := pool.Run(ctx, jobs, func(ctx context.Context, j job) run { return simulate(ctx, j.p, j.c) })
	if err != nil {
		return nil, err
	}
	st := &study{Runs: runs[:nOrder], Full: o.Full}
	for i, r := range runs[nOrder:] {
		p := jobs[nOrder+i].p
		r.X0, r.E = p.X0[:], p.E
		st.Random = append(st.Random, r)
	}
	st.Curves = fitCurves(specs, st.Runs, o.Full)
	st.CPU, st.Wall = rusage.CPUTime()-cpu0, time.Since(t0)
	return st, nil
}

// softBalls is the paper's system with the spring of stiffness softK.
func softBalls() balls {
	b := paperBalls
	b.K = softK
	return b
}
