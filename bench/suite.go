package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/reference"
	"github.com/fesd-go/fesd/internal/rusage"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/testprob"
)

// sample is one timed run.
type sample struct {
	status     string
	iters      int
	objective  float64
	total      time.Duration
	setup      time.Duration
	linalg     time.Duration
	eval       time.Duration // < 0: not measured
	allocBytes uint64
	cpu        time.Duration // process CPU time (user + system) of the run
	// facts is the number of KKT factorizations (0: not counted),
	// restoration and the initial least-squares multipliers included.
	facts int
}

// benchCase is one entry of the suite. run gets the backend (nil: native).
type benchCase struct {
	name, kind string
	size       int // N of the OCP, number of simulation steps
	vars, cons int
	run        func(ctx context.Context, b backend) (sample, error)
	// prepare, if not nil, is called once before the runs (untimed) and
	// returns the NLP dimensions.
	prepare func() (vars, cons int, err error)
	// release, if not nil, is called after the runs (frees what prepare
	// built).
	release func()
	// maxPairs, if > 0, limits the number of runs per solver (long entries).
	maxPairs int
	// noIPOPT, if not empty, says why the IPOPT side is not run.
	noIPOPT string
}

// suite returns the benchmark entries.
func suite(cfg config) []benchCase {
	ocpN := []int{200, 800, 3200}
	homN := []int{200, 800}
	// The simulations start every step from the event-driven prediction
	// and solve it on the predicted branch where that applies
	// (fesd.Simulate's default, as examples/irma and examples/friction use;
	// without FESD the branch fixes the mode of every stage point); the
	// comparison backend solves the same branch and relaxed NLPs.
	irma := fesd.SimOptions{TSim: 100, NSim: 50}
	masses := fesd.SimOptions{TSim: 10, NSim: 200}
	monoN, monoIter := []int{30, 60, 90}, 100
	switch {
	case cfg.tiny:
		ocpN, homN = []int{20}, []int{20}
		irma.TSim, irma.NSim = 4, 2
		masses.TSim, masses.NSim = 0.1, 2
		monoN, monoIter = []int{2}, 3
	case cfg.quick:
		ocpN, homN = []int{200, 800}, []int{200}
		irma.TSim, irma.NSim = 20, 10
		masses.TSim, masses.NSim = 1, 20
		monoN, monoIter = []int{30}, 20
	}
	var cs []benchCase
	for _, n := range ocpN {
		cs = append(cs, ocpCase(n))
	}
	for _, n := range homN {
		cs = append(cs, homotopyCase(n))
	}
	irmaOpt := fesd.Options{NFE: 3, Stages: 2, DCS: dcs.Options{Formulation: dcs.Step}, MPCC: mpcc.Settings{CompTol: 1e-5}}
	cs = append(cs, simCase(fmt.Sprintf("IRMA FESD (Step, T=%g, %d steps)", irma.TSim, irma.NSim), "fesd", irmaModel, reference.IRMAX0, irma, irmaOpt))
	// The settings of examples/friction: Step DCS, N_FE = 4, h = 0.05 (with
	// Stewart's DCS and N_FE = 2 fesd fails at t = 0.2).
	fesdOpt := fesd.Options{NFE: 4, Stages: 2, DCS: dcs.Options{Formulation: dcs.Step}}
	cs = append(cs, simCase(fmt.Sprintf("three masses FESD (Step, N_FE=4, T=%g, %d steps)", masses.TSim, masses.NSim), "fesd", threeMasses, reference.FrictionX0, masses, fesdOpt))
	tsOpt := fesd.Options{NFE: 2, Stages: 2, DisableFESD: true}
	cs = append(cs, simCase(fmt.Sprintf("three masses time-stepping (FESD off, T=%g, %d steps)", masses.TSim, masses.NSim), "fesd", threeMasses, reference.FrictionX0, masses, tsOpt))
	// The monopod OCP does not solve at N = 30 yet (examples/monopod): only
	// the first relaxed NLP, with an iteration cap, per-iteration cost.
	for _, n := range monoN {
		for _, f := range []dcs.Formulation{dcs.Step, dcs.Stewart} {
			cs = append(cs, monopodCase(n, f, 1, monoIter))
		}
	}
	return cs
}

// ocpCase solves the relaxed OCP NLP (σ = 1e-3) with default settings.
func ocpCase(n int) benchCase {
	p, _ := testprob.NewOCP(testprob.OCPOptions{N: n})
	nv, m := p.Dims()
	return benchCase{
		name: fmt.Sprintf("OCP NLP N=%d", n), kind: "ocp", size: n, vars: nv, cons: m,
		run: func(ctx context.Context, b backend) (sample, error) {
			if b == nil {
				b = native{}
			}
			res, err := b.solve(ctx, p, nlp.Settings{})
			if err != nil {
				return sample{}, err
			}
			return sample{
				status: res.Status.String(), iters: res.Iterations, objective: res.Objective,
				total: res.Time.Total, setup: res.Time.Setup,
				linalg: res.Time.Factorization + res.Time.Solve, eval: res.Time.Evaluation,
				facts: res.Counts.Factorizations,
			}, nil
		},
	}
}

// homotopyCase solves the OCP as an MPCC (0 ≤ s_k ⊥ λ_k ≥ 0) by the
// default Scholtes homotopy of mpcc (σ₀ = 1, κ = 0.1, 11 NLPs) with the
// inner settings of mpcc.DefaultNLPSettings.
func homotopyCase(n int) benchCase {
	p, _ := testprob.NewOCP(testprob.OCPOptions{N: n, Complementarity: true})
	nv, m := p.Dims()
	var comp []mpcc.Complementarity
	for _, pr := range p.Pairs() {
		comp = append(comp, mpcc.Pair(pr[0], pr[1]))
	}
	return benchCase{
		name: fmt.Sprintf("OCP MPCC homotopy N=%d", n), kind: "homotopy", size: n, vars: nv, cons: m,
		run: func(ctx context.Context, b backend) (sample, error) {
			if b == nil {
				b = native{}
			}
			in := &timedInner{b: b, set: mpcc.DefaultNLPSettings()}
			t0 := time.Now()
			res, err := (&mpcc.Solver{Inner: in}).Solve(ctx, &mpcc.Problem{NLP: p, Comp: comp})
			total := time.Since(t0)
			if err != nil {
				return sample{}, err
			}
			st := fmt.Sprintf("%v (%d NLPs", res.Status, len(res.Steps))
			if in.fails > 0 {
				st += fmt.Sprintf(", %d failed", in.fails)
			}
			st += ")"
			return sample{
				status: st, iters: in.iters, objective: res.Objective,
				total: total, setup: in.time.Setup,
				linalg: in.time.Factorization + in.time.Solve, eval: in.time.Evaluation,
				facts: in.facts,
			}, nil
		},
	}
}

// simCase runs fesd.Simulate with the backend as the homotopy's inner
// solver (fesd.Options.Inner): a timedInner, which for the native backend
// behaves exactly as fesd's default inner solver (mpcc.NLPSolver, one
// nlp.Workspace for all steps). IPOPT runs without its timing statistics
// here (print_timing_statistics needs a temporary output file per NLP, an
// overhead of the measurement on the many small NLPs), so its lin. alg.
// column is n/a.
func simCase(name, kind string, model func() *dcs.Model, x0 []float64, so fesd.SimOptions, o fesd.Options) benchCase {
	return benchCase{
		name: name, kind: kind, size: so.NSim,
		run: func(ctx context.Context, b backend) (sample, error) {
			if b == nil {
				b = native{}
			}
			withLinAlg := true
			if q, ok := b.(untimedBackend); ok {
				b, withLinAlg = q.untimed(), false
			}
			set := mpcc.DefaultNLPSettings()
			if o.MPCC.NLP != nil {
				set = *o.MPCC.NLP
			}
			in := &timedInner{b: b, set: set}
			so := so
			so.Options = o
			so.Options.Inner = in
			t0 := time.Now()
			r, err := fesd.Simulate(ctx, model(), x0, so)
			total := time.Since(t0)
			var se *fesd.StepError
			if err != nil && !errors.As(err, &se) {
				return sample{}, err
			}
			s := sample{total: total, setup: in.time.Setup, linalg: in.time.Factorization + in.time.Solve, eval: in.time.Evaluation, facts: in.facts}
			if !withLinAlg {
				s.linalg = -1
			}
			for _, st := range r.Steps {
				s.iters += st.Iterations
			}
			s.status = fmt.Sprintf("ok, %d switches", len(r.Switches))
			if se != nil {
				s.status = fmt.Sprintf("failed at t=%.3g (%v)", se.T0, se.Status)
			}
			if in.fails > 0 {
				s.status += fmt.Sprintf(", %d failed NLPs", in.fails)
			}
			s.objective = math.NaN()
			return s, nil
		},
	}
}

// measure runs c alternately with the native solver nat0 and the
// comparison backend (if any and applicable), pairs times each.
func measure(ctx context.Context, w io.Writer, c benchCase, nat0 native, cmp backend, pairs int) (Entry, error) {
	e := Entry{Name: c.name, Kind: c.kind, Size: c.size, Vars: c.vars, Cons: c.cons, IPOPTNote: c.noIPOPT}
	if c.run == nil {
		e.Native.Status = "pending"
		fmt.Fprintf(w, "%-55s %s\n", c.name, c.noIPOPT)
		return e, nil
	}
	if c.prepare != nil {
		t0 := time.Now()
		var err error
		if e.Vars, e.Cons, err = c.prepare(); err != nil {
			return e, err
		}
		e.BuildMS = float64(time.Since(t0)) / 1e6
		e.PeakRSSBuildMiB = rusage.PeakRSS()
		fmt.Fprintf(w, "%-55s built in %.1f s (n = %d, m = %d), peak RSS so far %.0f MiB\n", c.name, e.BuildMS/1e3, e.Vars, e.Cons, e.PeakRSSBuildMiB)
	}
	if cmp == nil && c.noIPOPT == "" {
		e.IPOPTNote = "not built (-tags ipopt)"
	}
	useCmp := cmp != nil && c.noIPOPT == ""
	if c.release != nil {
		defer c.release()
	}
	if c.maxPairs > 0 {
		pairs = min(pairs, c.maxPairs)
	}
	var nat, ip []sample
	for range pairs {
		s, err := timed(ctx, c, nat0)
		if err != nil {
			return e, err
		}
		nat = append(nat, s)
		if useCmp {
			s, err := timed(ctx, c, cmp)
			if err != nil {
				return e, err
			}
			ip = append(ip, s)
		}
	}
	e.Native = summarize(nat)
	fmt.Fprintf(w, "%-55s native %4d it %9.1f ms %7.3f ms/it %5.2f fact/it  %s\n", c.name, e.Native.Iterations, e.Native.TotalMS, e.Native.PerIterMS, e.Native.FactPerIter, e.Native.Status)
	if useCmp {
		s := summarize(ip)
		e.IPOPT = &s
		e.RatioPerIter = ratio(e.Native.PerIterMS, s.PerIterMS)
		e.RatioTotal = ratio(e.Native.TotalMS, s.TotalMS)
		e.RatioIters = ratio(float64(e.Native.Iterations), float64(s.Iterations))
		e.RatioCPUPerIter = ratio(e.Native.CPUPerIterMS, s.CPUPerIterMS)
		fmt.Fprintf(w, "%-55s ipopt  %4d it %9.1f ms %7.3f ms/it  %s  (native/ipopt: %.2f per it, %.2f total, %.2f CPU per it)\n", "", s.Iterations, s.TotalMS, s.PerIterMS, s.Status, e.RatioPerIter, e.RatioTotal, e.RatioCPUPerIter)
	}
	e.PeakRSSMiB = rusage.PeakRSS()
	return e, nil
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// timed runs one sample after a garbage collection and records the bytes
// allocated on the Go heap.
func timed(ctx context.Context, c benchCase, b backend) (sample, error) {
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	c0 := rusage.CPUTime()
	s, err := c.run(ctx, b)
	s.cpu = rusage.CPUTime() - c0
	runtime.ReadMemStats(&m1)
	s.allocBytes = m1.TotalAlloc - m0.TotalAlloc
	return s, err
}

// summarize takes medians over the samples (iterations and status from the
// first: they are deterministic).
func summarize(ss []sample) Stats {
	med := func(f func(sample) float64) float64 {
		v := make([]float64, len(ss))
		for i, s := range ss {
			v[i] = f(s)
		}
		slices.Sort(v)
		if len(v)%2 == 1 {
			return v[len(v)/2]
		}
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	st := Stats{
		Status:         ss[0].status,
		Iterations:     ss[0].iters,
		Objective:      ss[0].objective,
		TotalMS:        med(func(s sample) float64 { return ms(s.total) }),
		SetupMS:        med(func(s sample) float64 { return ms(s.setup) }),
		LinAlgMS:       med(func(s sample) float64 { return ms(s.linalg) }),
		EvalMS:         med(func(s sample) float64 { return ms(s.eval) }),
		AllocMiB:       med(func(s sample) float64 { return float64(s.allocBytes) / (1 << 20) }),
		CPUMS:          med(func(s sample) float64 { return ms(s.cpu) }),
		Factorizations: ss[0].facts,
	}
	if ss[0].eval < 0 {
		st.EvalMS = -1
	}
	if ss[0].linalg < 0 {
		st.LinAlgMS = -1
	}
	if st.Iterations > 0 {
		st.PerIterMS = med(func(s sample) float64 { return ms(s.total) / float64(max(1, s.iters)) })
		st.CPUPerIterMS = med(func(s sample) float64 { return ms(s.cpu) / float64(max(1, s.iters)) })
		st.FactPerIter = float64(st.Factorizations) / float64(st.Iterations)
	}
	for _, s := range ss {
		st.RunsMS = append(st.RunsMS, ms(s.total))
	}
	return st
}
