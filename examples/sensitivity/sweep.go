package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/convergence"
	"github.com/fesd-go/fesd/mpcc"
)

// study is the content of sensitivity.json.
type study struct {
	CompTol float64 `json:"comp_tol"`
	// Elapsed is the wall time of the sweep.
	Elapsed  float64      `json:"elapsed_seconds"`
	Problems []problemOut `json:"problems"`
}

// problemOut is the part of the study on one reference case.
type problemOut struct {
	Problem string  `json:"problem"`
	Metric  string  `json:"metric"`
	TSim    float64 `json:"tsim"`
	NFE     int     `json:"nfe"`
	// Floor is the error floor of the slope fit: points with an error at
	// or below it are not fitted.
	Floor float64 `json:"floor"`
	// Exact is the exact ∂x(T)/∂x₀.
	Exact [][]float64 `json:"exact"`
	Runs  []runOut    `json:"runs"`
}

// runOut is one (scheme, n_s, FESD) curve.
type runOut struct {
	convergence.Curve
	Points []point `json:"points"`
	// Slope is the least-squares slope of log(error) over log(h_max) on
	// the FitPoints points that succeeded and lie above the floor (null
	// with fewer than two).
	Slope     *float64 `json:"slope"`
	FitPoints int      `json:"fit_points"`
}

// point is one simulation. Its Error (convergence.Point) is
// max_ij |S_ij − S_exact,ij| / max_ij |S_exact,ij| for the computed
// S = ∂x(T)/∂x₀, null when the simulation failed.
type point struct {
	convergence.Point
	// StateError is max_i |x_i(T) − x_exact,i(T)|.
	StateError *float64 `json:"state_error"`
	// Sensitivity is the computed ∂x(T)/∂x₀.
	Sensitivity [][]float64 `json:"sensitivity,omitempty"`
	convergence.Outcome
}

// job is one simulation of the sweep.
type job struct {
	Problem int // index into the sweep's problems
	convergence.Case
}

// simOptions are the settings of one simulation: Step DCS, N_FE elements
// per step, complementarity tolerance 1e-12 (as fesd's
// TestSensitivityIRMA); everything else fesd's defaults.
func simOptions(p *problem, o options, c convergence.Case) fesd.Options {
	return fesd.Options{
		Scheme: c.Family, Stages: c.Stages, NFE: p.NFE, DisableFESD: !c.FESD,
		DCS:  dcs.Options{Formulation: dcs.Step},
		MPCC: mpcc.Settings{CompTol: o.CompTol},
	}
}

// simulate runs one job with fesd.Simulate (sensitivities on, steps started
// from the event-driven prediction) and measures it against the problem's
// exact values.
func simulate(ctx context.Context, p *problem, o options, c convergence.Case) (pt point) {
	pt.NSim, pt.H = c.NSim, p.TSim/float64(c.NSim*p.NFE)
	start := time.Now()
	defer func() { pt.Seconds = time.Since(start).Seconds() }()
	res, err := fesd.Simulate(ctx, p.Model(), p.X0, fesd.SimOptions{
		TSim: p.TSim, NSim: c.NSim, Options: simOptions(p, o, c),
		Sensitivity: true,
	})
	if res != nil {
		for _, st := range res.Steps {
			pt.Iterations += st.Iterations
		}
	}
	if err != nil {
		pt.Status = failure(err, res, c.NSim)
		return pt
	}
	for _, h := range res.H {
		pt.HMax = max(pt.HMax, h)
	}
	S := res.Sensitivity.DX0
	e := relError(S, p.SExact)
	xe := maxDiff(res.Final(), p.XT)
	if math.IsNaN(e) || math.IsInf(e, 0) {
		pt.Status = "non-finite sensitivity"
		return pt
	}
	pt.Error, pt.StateError, pt.Sensitivity, pt.Status = &e, &xe, S, "ok"
	return pt
}

// failure describes why a simulation failed: the step and the homotopy
// status for a *fesd.StepError, the error text otherwise (for example
// fesd.ErrSensitivity: the linearized KKT system of a step is singular).
func failure(err error, res *fesd.SimResult, nsim int) string {
	var se *fesd.StepError
	if errors.As(err, &se) {
		return fmt.Sprintf("step %d/%d (t = %.4g): %v, comp residual %.1e", se.Step, nsim, se.T0, se.Status, se.CompResidual)
	}
	if errors.Is(err, fesd.ErrSensitivity) && res != nil && len(res.Steps) > 0 {
		last := res.Steps[len(res.Steps)-1]
		return fmt.Sprintf("step %d/%d (t = %.4g): %v", last.Step, nsim, last.T0, err)
	}
	return err.Error()
}

// relError is max_ij |a_ij − b_ij| / max_ij |b_ij|.
func relError(a, b [][]float64) float64 {
	if len(a) != len(b) {
		return math.NaN()
	}
	num, den := 0.0, 0.0
	for i := range b {
		if len(a[i]) != len(b[i]) {
			return math.NaN()
		}
		num = math.Max(num, maxDiff(a[i], b[i]))
		for _, v := range b[i] {
			den = math.Max(den, math.Abs(v))
		}
	}
	return num / den
}

func maxDiff(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		d := math.Abs(a[i] - b[i])
		if math.IsNaN(d) {
			return d
		}
		m = math.Max(m, d)
	}
	return m
}

// jobs enumerates the sweep in a fixed order: problem, scheme, n_s, FESD,
// N_sim.
func jobs(o options, probs []*problem) []job {
	var out []job
	for pi, p := range probs {
		nsim := p.NSim
		if o.NSim != nil {
			nsim = o.NSim
		}
		for _, c := range convergence.Grid(o.Schemes, o.Stages, o.FESD, nsim) {
			out = append(out, job{Problem: pi, Case: c})
		}
	}
	return out
}

// sweep runs all jobs on o.Jobs workers, the most expensive first, and
// assembles the study. A progress line is written to w unless o.Quiet.
func sweep(ctx context.Context, w io.Writer, o options) (*study, error) {
	if !(o.CompTol > 0) || len(o.Problems) == 0 || len(o.Schemes) == 0 || len(o.Stages) == 0 || len(o.FESD) == 0 {
		return nil, fmt.Errorf("invalid options: comptol %g, %d problems, %d schemes, %d stage counts, %d methods",
			o.CompTol, len(o.Problems), len(o.Schemes), len(o.Stages), len(o.FESD))
	}
	var probs []*problem
	for _, name := range o.Problems {
		p, err := lookupProblem(name)
		if err != nil {
			return nil, err
		}
		probs = append(probs, p)
	}
	all := jobs(o, probs)
	cases := make([]convergence.Case, len(all))
	for i, j := range all {
		cases[i] = j.Case
	}
	if err := convergence.Check(cases); err != nil {
		return nil, err
	}
	workers := max(o.Jobs, 1)
	fmt.Fprintf(w, "%d simulations with sensitivities on %d workers, comp tol %.0e\n", len(all), workers, o.CompTol)
	pool := convergence.Pool[job, point]{
		Workers: workers,
		// Longest first (cost ~ N_sim·n_s·n_x), for a balanced pool.
		Cost: func(j job) int { return j.NSim * j.Stages * len(probs[j.Problem].X0) },
		Label: func(j job, pt point) string {
			return fmt.Sprintf("%-8s %s %s", probs[j.Problem].Name, j.Case, convergence.ErrorText(pt.Error))
		},
	}
	if !o.Quiet {
		pool.Progress = w
	}
	results, elapsed, err := pool.Run(ctx, all, func(ctx context.Context, j job) point { return simulate(ctx, probs[j.Problem], o, j.Case) })
	if err != nil {
		return nil, err
	}
	st := &study{CompTol: o.CompTol, Elapsed: elapsed.Seconds()}
	for k, p := range probs {
		po := problemOut{Problem: p.Name, Metric: p.Metric, TSim: p.TSim, NFE: p.NFE, Floor: p.Floor, Exact: p.SExact}
		var mine []convergence.Case
		var pts []point
		for i, j := range all {
			if j.Problem == k {
				mine, pts = append(mine, j.Case), append(pts, results[i])
			}
		}
		curves, points := convergence.Group(mine, pts)
		for i, c := range curves {
			r := runOut{Curve: c, Points: points[i]}
			convergence.SortByH(r.Points)
			r.Slope, r.FitPoints = convergence.Fit(r.Points, po.Floor, convergence.Longest)
			po.Runs = append(po.Runs, r)
		}
		st.Problems = append(st.Problems, po)
	}
	return st, nil
}
