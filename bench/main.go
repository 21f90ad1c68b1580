// Command bench times the native interior-point solver of package nlp —
// against IPOPT 3.x + MUMPS when built with -tags ipopt — on a fixed suite:
// the OCP-shaped NLP of package nlp/testprob at N = 200,
// 800 and 3200, its MPCC form solved by the Scholtes homotopy of package mpcc
// (whole homotopy, both inner solvers), FESD simulations of the IRMA gene
// network and of Stewart's three masses (both solvers as the homotopy's
// inner solver through fesd.Options.Inner), and the per-iteration cost of
// the first relaxed NLP of the monopod OCP (examples/monopod) at N = 30, 60
// and 90 with an iteration cap (that OCP does not solve yet).
//
// Usage:
//
//	go run ./bench [-out out/bench] [-pairs 3] [-quick] [-inertia Tracking]
//	go run -tags ipopt ./bench
//	go run ./bench -from bench/results/bench.json -out bench/results
//
// Runs alternate between the solvers (native, IPOPT, native, IPOPT, …) and
// the medians are reported. It writes bench.json, bench.md and the plots
// periter, cpuperiter and total (.png and .svg) to the output folder. See
// bench/README.md for how to read them.
//
// 004 is A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, "Finite Elements
// with Switch Detection for Numerical Optimal Control of Nonsmooth Dynamical
// Systems with Set-Valued Heaviside Step Functions", Nonlinear Analysis:
// Hybrid Systems, 2024 (the Papers section of the README lists all papers).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/fesd-go/fesd/internal/rusage"
	"github.com/fesd-go/fesd/nlp"
)

func main() {
	out := flag.String("out", "out/bench", "output folder")
	pairs := flag.Int("pairs", 3, "number of runs per solver (alternating)")
	quick := flag.Bool("quick", false, "a subset that runs in under a minute")
	only := flag.String("only", "", "run only the entries whose name contains this")
	from := flag.String("from", "", "redraw bench.md and the plots from this bench.json instead of running")
	var inertia nlp.InertiaPolicy
	flag.TextVar(&inertia, "inertia", nlp.InertiaDefault, "inertia-correction policy of the native solver (nlp.InertiaPolicy: Default, Tracking, …)")
	flag.Parse()
	if *from != "" {
		if err := redraw(os.Stdout, *from, *out); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(context.Background(), os.Stdout, config{out: *out, pairs: *pairs, quick: *quick, only: *only, inertia: inertia}); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type config struct {
	out   string
	pairs int
	quick bool
	only  string
	tiny  bool // test mode: smallest sizes
	// inertia is the native solver's inertia policy (-inertia).
	inertia nlp.InertiaPolicy
}

func run(ctx context.Context, w io.Writer, cfg config) error {
	if cfg.pairs < 1 {
		return fmt.Errorf("-pairs %d: want ≥ 1", cfg.pairs)
	}
	cmp := comparison()
	if cmp == nil {
		fmt.Fprintln(w, "IPOPT comparison not built (run with -tags ipopt): native solver only.")
	}
	rep := &Report{
		Date:      time.Now().UTC().Format("2006-01-02 15:04 MST"),
		Machine:   machine(),
		GoVersion: runtime.Version(),
		Pairs:     cfg.pairs,
		Quick:     cfg.quick,
		IPOPT:     cmp != nil,
		Inertia:   cfg.inertia.String(),
	}
	if cmp != nil {
		rep.IPOPTVersion = ipoptVersion()
	}
	for _, c := range suite(cfg) {
		if cfg.only != "" && !strings.Contains(c.name, cfg.only) {
			continue
		}
		e, err := measure(ctx, w, c, native{inertia: cfg.inertia}, cmp, cfg.pairs)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		rep.Entries = append(rep.Entries, e)
	}
	rep.PeakRSSMiB = rusage.PeakRSS()
	return rep.write(w, cfg.out)
}

// redraw rewrites the outputs of a previous run from its bench.json.
func redraw(w io.Writer, from, out string) error {
	js, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	var rep Report
	if err := json.Unmarshal(js, &rep); err != nil {
		return fmt.Errorf("%s: %w", from, err)
	}
	return rep.write(w, out)
}
