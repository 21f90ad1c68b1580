package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/convergence"
	"github.com/fesd-go/fesd/mpcc"
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
	// Elapsed is the wall time of the sweep.
	Elapsed float64  `json:"elapsed_seconds"`
	Runs    []runOut `json:"runs"`
}

// runOut is one (scheme, n_s, FESD) curve.
type runOut struct {
	convergence.Curve
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
	convergence.Point
	convergence.Outcome
}

// simOptions are the FESD settings of one simulation (as in nosnoc_py's
// irma_integration_order_experiment.py, get_opts):
// complementarity tolerance = σ_N = CompTol.
func simOptions(o options, c convergence.Case) fesd.Options {
	return fesd.Options{
		Scheme: c.Family, Stages: c.Stages, NFE: o.NFE, DisableFESD: !c.FESD,
		StepEquilibration: fesd.HeuristicMean,
		DCS:               dcs.Options{Formulation: dcs.Step},
		MPCC: mpcc.Settings{
			CompTol: o.CompTol, Kappa: o.Kappa, SigmaN: o.SigmaN,
		},
	}
}

// fallbacks are the homotopy settings tried, in order, on a simulation step
// whose homotopy failed with the primary settings (κ = o.Kappa): each from the consistent cold start of the step, with its own
// Simulator (built on first use). The FESD NLP of the step is the same, only
// the path of the homotopy differs. Measured on IRMA (N_sim = 1, 3: one
// 33- or 100-minute step with a switch): κ = 0.01 can run into locally
// infeasible relaxed NLPs at σ = 1e-4 where the finer κ = 0.1 path does not,
// and vice versa.
func fallbacks(o options) []func(*fesd.Options) {
	return []func(*fesd.Options){
		func(f *fesd.Options) { f.MPCC.Kappa = 0.1 },
		func(f *fesd.Options) { f.MPCC.Kappa = 0.3 },
		func(f *fesd.Options) { f.MPCC.Kappa, f.MPCC.Update = 0.1, mpcc.Superlinear },
	}
}

// simulate runs one job: N_sim steps with one Simulator (compiled once),
// each step warm-started from the previous one; a step whose homotopy fails
// is retried with the fallbacks. The status of a successful run counts the
// retried steps ("ok" when none).
func simulate(ctx context.Context, p *problem, o options, c convergence.Case) (pt point) {
	pt.NSim, pt.H = c.NSim, p.TSim/float64(c.NSim*o.NFE)
	start := time.Now()
	defer func() { pt.Seconds = time.Since(start).Seconds() }() // pt is the named result
	T := p.TSim / float64(c.NSim)
	model := p.Model()
	fb := fallbacks(o)
	if !c.FESD {
		// Standard time stepping: only κ = 0.1 (the failures at N_sim = 1,
		// 3 are not rescued by the others, measured; they cost ~1 min).
		fb = fb[:1]
	}
	sims := make([]*fesd.Simulator, 1+len(fb))
	get := func(a int) (*fesd.Simulator, error) {
		if sims[a] == nil {
			opt := simOptions(o, c)
			if a > 0 {
				fb[a-1](&opt)
			}
			s, err := fesd.NewSimulator(model, opt, T)
			if err != nil {
				return nil, err
			}
			sims[a] = s
		}
		return sims[a], nil
	}
	x := p.X0
	retried := 0
	// The parts of a SimResult that the error measures read.
	res := &fesd.SimResult{Trajectory: fesd.Trajectory{T: []float64{0}, X: [][]float64{append([]float64(nil), x...)}}}
	for k := 0; k < c.NSim; k++ {
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
					firstErr = fmt.Errorf("step %d/%d (t = %.4g): %v, comp residual %.1e", k, c.NSim, t0, se.Status, se.CompResidual)
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
			} else if c.FESD {
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

// sweep runs the simulations on o.Jobs workers, the most expensive
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
	all := convergence.Grid(o.Schemes, o.Stages, o.FESD, nsim)
	if err := convergence.Check(all); err != nil {
		return nil, err
	}
	mine := all
	workers := max(o.Jobs, 1)
	fmt.Fprintf(w, "%s: %d simulations", p.Name, len(mine))
	fmt.Fprintf(w, " on %d workers, N_FE = %d, comp tol %.0e\n", workers, o.NFE, o.CompTol)

	pool := convergence.Pool[convergence.Case, point]{
		Workers: workers,
		// Longest first (cost ~ N_sim·n_s), for a balanced pool.
		Cost:  func(c convergence.Case) int { return c.NSim * c.Stages },
		Label: func(c convergence.Case, pt point) string { return c.String() + " " + convergence.ErrorText(pt.Error) },
	}
	if !o.Quiet {
		pool.Progress = w
	}
	results, elapsed, err := pool.Run(ctx, mine, func(ctx context.Context, c convergence.Case) point { return simulate(ctx, p, o, c) })
	if err != nil {
		return nil, err
	}
	st := &study{
		Problem: p.Name, Metric: p.Metric, TSim: p.TSim, NFE: o.NFE, CompTol: o.CompTol, Floor: o.Floor,
		Elapsed: elapsed.Seconds(),
	}
	curves, points := convergence.Group(mine, results)
	for i, c := range curves {
		st.Runs = append(st.Runs, runOut{Curve: c, Points: points[i]})
	}
	finish(st)
	return st, nil
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
		convergence.SortByH(r.Points)
		r.Slope, r.FitPoints = convergence.Fit(r.Points, st.Floor, convergence.Longest)
		r.SlopeNominal, _ = convergence.Fit(r.Points, st.Floor, convergence.Nominal)
	}
}
