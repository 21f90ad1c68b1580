package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/rk"
)

// study is the content of order.json.
type study struct {
	Problem string  `json:"problem"`
	Metric  string  `json:"metric"`
	TSim    float64 `json:"tsim"`
	NFE     int     `json:"nfe"`
	CompTol float64 `json:"comp_tol"`
	// Floor is the error floor of the slope fit: points with an error at
	// or below it are not fitted.
	Floor float64 `json:"floor"`
	// Shard is "i/n" for the output of one shard, empty otherwise.
	Shard string `json:"shard,omitempty"`
	// Elapsed is the wall time of the sweep (the sum over the shards
	// after a merge).
	Elapsed float64  `json:"elapsed_seconds"`
	Runs    []runOut `json:"runs"`
}

// runOut is one (scheme, n_s, FESD) curve.
type runOut struct {
	Scheme string  `json:"scheme"`
	NS     int     `json:"ns"`
	Order  int     `json:"order"`
	FESD   bool    `json:"fesd"`
	Points []point `json:"points"`
	// Slope is the least-squares slope of log error over log h_max (the
	// longest element of each run) on the FitPoints points that succeeded
	// and lie above the floor (null with fewer than two); SlopeNominal is
	// the same fit over the nominal h̄ = T_sim/(N_sim·N_FE).
	Slope        *float64 `json:"slope"`
	SlopeNominal *float64 `json:"slope_nominal"`
	FitPoints    int      `json:"fit_points"`
}

// point is one simulation.
type point struct {
	NSim int     `json:"nsim"`
	H    float64 `json:"h"`
	// HMax is the longest finite element of the run (FESD moves the
	// element boundaries; for standard time stepping HMax = H).
	HMax float64 `json:"h_max,omitempty"`
	// Error is null when the simulation failed.
	Error      *float64 `json:"error"`
	Status     string   `json:"status"`
	Seconds    float64  `json:"seconds"`
	Iterations int      `json:"nlp_iterations"`
}

// job is one simulation of the sweep; Index is its position in the full
// (unsharded) enumeration.
type job struct {
	Index  int
	Family rk.Family
	NS     int
	FESD   bool
	NSim   int
}

func schemeName(f rk.Family) string {
	switch f {
	case rk.FamilyRadauIIA:
		return "radau_iia"
	case rk.FamilyGaussLegendre:
		return "gauss_legendre"
	}
	return f.String()
}

// jobs enumerates the sweep in a fixed order: scheme, n_s, FESD, N_sim.
func jobs(o options, nsim []int) []job {
	var out []job
	for _, f := range o.Schemes {
		for _, ns := range o.Stages {
			for _, fe := range o.FESD {
				for _, n := range nsim {
					out = append(out, job{Index: len(out), Family: f, NS: ns, FESD: fe, NSim: n})
				}
			}
		}
	}
	return out
}

// simOptions are the FESD settings of one simulation (as in nosnoc_py's
// irma_integration_order_experiment.py, get_opts):
// complementarity tolerance = σ_N = CompTol.
func simOptions(o options, j job) fesd.Options {
	return fesd.Options{
		Scheme: j.Family, Stages: j.NS, NFE: o.NFE, DisableFESD: !j.FESD,
		StepEquilibration: fesd.HeuristicMean,
		DCS:               dcs.Options{Formulation: dcs.Step},
		MPCC: mpcc.Settings{
			CompTol: o.CompTol, Kappa: o.Kappa, SigmaN: o.SigmaN,
			Polish: o.Polish, PolishSigma: o.PolishSigma, PolishAnyStatus: o.Polish,
		},
	}
}

// fallbacks are the homotopy settings tried, in order, on a simulation step
// whose homotopy failed with the primary settings (κ = o.Kappa, early
// polishing): each from the consistent cold start of the step, with its own
// Simulator (built on first use). The FESD NLP of the step is the same, only
// the path of the homotopy differs. Measured on IRMA (N_sim = 1, 3: one
// 33- or 100-minute step with a switch): κ = 0.01 can run into locally
// infeasible relaxed NLPs at σ = 1e-4 where the finer κ = 0.1 path does not,
// and vice versa.
func fallbacks(o options) []func(*fesd.Options) {
	return []func(*fesd.Options){
		func(f *fesd.Options) { f.MPCC.Kappa, f.MPCC.PolishSigma = 0.1, 0 },
		func(f *fesd.Options) { f.MPCC.Kappa, f.MPCC.PolishSigma = 0.3, 0 },
		func(f *fesd.Options) { f.MPCC.Kappa, f.MPCC.PolishSigma, f.MPCC.Update = 0.1, 0, mpcc.Superlinear },
	}
}

// simulate runs one job: N_sim steps with one Simulator (compiled once),
// each step warm-started from the previous one; a step whose homotopy fails
// is retried with the fallbacks. The status of a successful run counts the
// retried steps ("ok" when none).
func simulate(ctx context.Context, p *problem, o options, j job) point {
	pt := point{NSim: j.NSim, H: p.TSim / float64(j.NSim*o.NFE)}
	start := time.Now()
	defer func() { pt.Seconds = time.Since(start).Seconds() }()
	T := p.TSim / float64(j.NSim)
	model := p.Model()
	fb := fallbacks(o)
	if !j.FESD {
		// Standard time stepping: only κ = 0.1 (the failures at N_sim = 1,
		// 3 are not rescued by the others, measured; they cost ~1 min).
		fb = fb[:1]
	}
	sims := make([]*fesd.Simulator, 1+len(fb))
	get := func(a int) (*fesd.Simulator, error) {
		if sims[a] == nil {
			opt := simOptions(o, j)
			if a > 0 {
				fb[a-1](&opt)
			}
			s, err := fesd.NewSimulator(model, opt, T)
			if err != nil {
				return nil, err
			}
			s.Predict = !o.NoPredict
			sims[a] = s
		}
		return sims[a], nil
	}
	x := p.X0
	retried := 0
	// The parts of a SimResult that the error measures read.
	res := &fesd.SimResult{Trajectory: fesd.Trajectory{T: []float64{0}, X: [][]float64{append([]float64(nil), x...)}}}
	for k := 0; k < j.NSim; k++ {
		t0 := float64(k) * T
		var st *fesd.StepResult
		var firstErr error
		for a := 0; a < len(sims); a++ {
			sim, err := get(a)
			if err != nil {
				pt.Status = err.Error()
				return pt
			}
			if a > 0 {
				sim.Reset()
			}
			r, err := sim.Step(ctx, t0, x, nil, nil)
			if r != nil {
				pt.Iterations += r.Record.Iterations
			}
			var se *fesd.StepError
			if err == nil {
				st = r
				if a > 0 {
					retried++
				}
				break
			}
			if firstErr == nil {
				firstErr = err
				if errors.As(err, &se) {
					firstErr = fmt.Errorf("step %d/%d (t = %.4g): %v, comp residual %.1e", k, j.NSim, t0, se.Status, se.CompResidual)
				}
			}
			if !errors.As(err, &se) || ctx.Err() != nil {
				break
			}
		}
		if st == nil {
			pt.Status = firstErr.Error()
			if ctx.Err() != nil {
				pt.Status = ctx.Err().Error()
			} else if j.FESD {
				if why := p.tooManySwitches(t0, T, o.NFE); why != "" {
					pt.Status = "inherent (" + why + "): " + pt.Status
				}
			}
			return pt
		}
		x = st.X[len(st.X)-1]
		for _, h := range st.H {
			pt.HMax = max(pt.HMax, h)
		}
		res.T = append(res.T, st.T[1:]...)
		res.X = append(res.X, st.X[1:]...)
		rec := st.Record
		rec.Step = k
		res.Steps = append(res.Steps, rec)
	}
	e := p.Error(res)
	if math.IsNaN(e) || math.IsInf(e, 0) {
		pt.Status = "non-finite error"
		return pt
	}
	pt.Error, pt.Status = &e, "ok"
	if retried > 0 {
		pt.Status = fmt.Sprintf("ok (%d steps retried)", retried)
	}
	return pt
}

// sweep runs the jobs of this shard on o.Jobs workers, the most expensive
// first, and assembles the study.
func sweep(ctx context.Context, w io.Writer, o options) (*study, error) {
	p, err := lookupProblem(o.Problem, o)
	if err != nil {
		return nil, err
	}
	if o.NFE < 0 || !(o.CompTol > 0) || o.Floor < 0 || len(o.Schemes) == 0 || len(o.Stages) == 0 || len(o.FESD) == 0 {
		return nil, fmt.Errorf("invalid options: nfe %d, comptol %g, floor %g", o.NFE, o.CompTol, o.Floor)
	}
	nsim := o.NSim
	if nsim == nil {
		nsim = p.NSim
	}
	if o.Floor == 0 {
		o.Floor = p.Floor
	}
	if o.NFE == 0 {
		o.NFE = p.NFE
	}
	if o.Shards < 1 {
		o.Shards = 1
	}
	all := jobs(o, nsim)
	var mine []job
	for _, j := range all {
		if _, err := rk.New(j.Family, j.NS); err != nil {
			return nil, err
		}
		if j.Index%o.Shards == o.Shard {
			mine = append(mine, j)
		}
	}
	// Longest first (cost ~ N_sim·n_s), for a balanced pool.
	order := append([]job(nil), mine...)
	sort.SliceStable(order, func(a, b int) bool { return order[a].NSim*order[a].NS > order[b].NSim*order[b].NS })

	workers := o.Jobs
	if workers < 1 {
		workers = 1
	}
	fmt.Fprintf(w, "%s: %d simulations", p.Name, len(mine))
	if o.Shards > 1 {
		fmt.Fprintf(w, " (shard %d/%d of %d)", o.Shard, o.Shards, len(all))
	}
	fmt.Fprintf(w, " on %d workers, N_FE = %d, comp tol %.0e\n", workers, o.NFE, o.CompTol)

	results := make(map[int]point, len(mine))
	var mu sync.Mutex
	queue := make(chan job)
	var wg sync.WaitGroup
	// The progress line is redrawn with '\r' on a terminal only.
	tty := report.IsTerminal(w)
	start := time.Now()
	done := 0
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				pt := simulate(ctx, p, o, j)
				mu.Lock()
				results[j.Index] = pt
				done++
				if !o.Quiet && tty {
					e := "failed"
					if pt.Error != nil {
						e = fmt.Sprintf("%.2e", *pt.Error)
					}
					fmt.Fprintf(w, "\r[%3d/%3d] %6.0f s  last: %-14s n_s=%d fesd=%-5v N_sim=%-4d %s      ",
						done, len(mine), time.Since(start).Seconds(), schemeName(j.Family), j.NS, j.FESD, j.NSim, e)
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range order {
		if ctx.Err() != nil {
			break
		}
		queue <- j
	}
	close(queue)
	wg.Wait()
	if !o.Quiet && tty {
		fmt.Fprintln(w)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st := &study{
		Problem: p.Name, Metric: p.Metric, TSim: p.TSim, NFE: o.NFE, CompTol: o.CompTol, Floor: o.Floor,
		Elapsed: time.Since(start).Seconds(),
	}
	if o.Shards > 1 {
		st.Shard = fmt.Sprintf("%d/%d", o.Shard, o.Shards)
	}
	byKey := map[string]int{}
	for _, j := range mine {
		tab, _ := rk.New(j.Family, j.NS)
		key := runKey(schemeName(j.Family), j.NS, j.FESD)
		i, ok := byKey[key]
		if !ok {
			i = len(st.Runs)
			byKey[key] = i
			st.Runs = append(st.Runs, runOut{Scheme: schemeName(j.Family), NS: j.NS, Order: tab.Order, FESD: j.FESD})
		}
		st.Runs[i].Points = append(st.Runs[i].Points, results[j.Index])
	}
	finish(st)
	return st, nil
}

func runKey(scheme string, ns int, fesd bool) string {
	return fmt.Sprintf("%s/%d/%v", scheme, ns, fesd)
}

// finish sorts the runs and their points and fits the slopes.
func finish(st *study) {
	sort.SliceStable(st.Runs, func(a, b int) bool {
		ra, rb := st.Runs[a], st.Runs[b]
		if ra.Scheme != rb.Scheme {
			return ra.Scheme > rb.Scheme // radau_iia before gauss_legendre
		}
		if ra.NS != rb.NS {
			return ra.NS < rb.NS
		}
		return ra.FESD && !rb.FESD
	})
	for i := range st.Runs {
		r := &st.Runs[i]
		sort.SliceStable(r.Points, func(a, b int) bool { return r.Points[a].H > r.Points[b].H })
		r.Slope, r.FitPoints = fitSlope(r.Points, st.Floor, true)
		r.SlopeNominal, _ = fitSlope(r.Points, st.Floor, false)
	}
}

// fitSlope returns the least-squares slope of log(error) over log(h) on the
// successful points with an error above floor, and their number; h is the
// longest element h_max if useMax (h̄ for points without one, e.g. from
// older files), else the nominal h̄.
func fitSlope(pts []point, floor float64, useMax bool) (*float64, int) {
	var xs, ys []float64
	for _, p := range pts {
		h := p.H
		if useMax && p.HMax > 0 {
			h = p.HMax
		}
		if p.Error == nil || !(*p.Error > floor) || !(h > 0) {
			continue
		}
		xs = append(xs, math.Log(h))
		ys = append(ys, math.Log(*p.Error))
	}
	n := float64(len(xs))
	if len(xs) < 2 {
		return nil, len(xs)
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i] / n
		my += ys[i] / n
	}
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx == 0 {
		return nil, len(xs)
	}
	s := sxy / sxx
	return &s, len(xs)
}
