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
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/rk"
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
	Scheme string  `json:"scheme"`
	NS     int     `json:"ns"`
	Order  int     `json:"order"`
	FESD   bool    `json:"fesd"`
	Points []point `json:"points"`
	// Slope is the least-squares slope of log(error) over log(h_max) on
	// the FitPoints points that succeeded and lie above the floor (null
	// with fewer than two).
	Slope     *float64 `json:"slope"`
	FitPoints int      `json:"fit_points"`
}

// point is one simulation.
type point struct {
	NSim int `json:"nsim"`
	// H is the nominal element length h̄ = T_sim/(N_sim·N_FE), HMax the
	// longest element of the run (FESD moves the element boundaries).
	H    float64 `json:"h"`
	HMax float64 `json:"h_max,omitempty"`
	// Error is max_ij |S_ij − S_exact,ij| / max_ij |S_exact,ij| for the
	// computed S = ∂x(T)/∂x₀; null when the simulation failed.
	Error *float64 `json:"error"`
	// StateError is max_i |x_i(T) − x_exact,i(T)|.
	StateError *float64 `json:"state_error"`
	// Sensitivity is the computed ∂x(T)/∂x₀.
	Sensitivity [][]float64 `json:"sensitivity,omitempty"`
	Status      string      `json:"status"`
	Seconds     float64     `json:"seconds"`
	Iterations  int         `json:"nlp_iterations"`
}

// job is one simulation of the sweep; Index is its position in the
// enumeration.
type job struct {
	Index   int
	Problem int // index into the sweep's problems
	Family  rk.Family
	NS      int
	FESD    bool
	NSim    int
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

// simOptions are the settings of one simulation: Step DCS, N_FE elements
// per step, complementarity tolerance 1e-12 (as fesd's
// TestSensitivityIRMA); everything else fesd's defaults.
func simOptions(p *problem, o options, j job) fesd.Options {
	return fesd.Options{
		Scheme: j.Family, Stages: j.NS, NFE: p.NFE, DisableFESD: !j.FESD,
		DCS:  dcs.Options{Formulation: dcs.Step},
		MPCC: mpcc.Settings{CompTol: o.CompTol},
	}
}

// simulate runs one job with fesd.Simulate (sensitivities on, steps started
// from the event-driven prediction) and measures it against the problem's
// exact values.
func simulate(ctx context.Context, p *problem, o options, j job) (pt point) {
	pt = point{NSim: j.NSim, H: p.TSim / float64(j.NSim*p.NFE)}
	start := time.Now()
	defer func() { pt.Seconds = time.Since(start).Seconds() }()
	res, err := fesd.Simulate(ctx, p.Model(), p.X0, fesd.SimOptions{
		TSim: p.TSim, NSim: j.NSim, Options: simOptions(p, o, j),
		Sensitivity: true, Predict: true,
	})
	if res != nil {
		for _, st := range res.Steps {
			pt.Iterations += st.Iterations
		}
	}
	if err != nil {
		pt.Status = failure(err, res, j.NSim)
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
		for _, f := range o.Schemes {
			for _, ns := range o.Stages {
				for _, fe := range o.FESD {
					for _, n := range nsim {
						out = append(out, job{Index: len(out), Problem: pi, Family: f, NS: ns, FESD: fe, NSim: n})
					}
				}
			}
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
	for _, j := range all {
		if _, err := rk.New(j.Family, j.NS); err != nil {
			return nil, err
		}
	}
	// Longest first (cost ~ N_sim·n_s·n_x), for a balanced pool.
	cost := func(j job) int { return j.NSim * j.NS * len(probs[j.Problem].X0) }
	order := append([]job(nil), all...)
	sort.SliceStable(order, func(a, b int) bool { return cost(order[a]) > cost(order[b]) })

	workers := max(o.Jobs, 1)
	fmt.Fprintf(w, "%d simulations with sensitivities on %d workers, comp tol %.0e\n", len(all), workers, o.CompTol)
	results := make([]point, len(all))
	var mu sync.Mutex
	queue := make(chan job)
	var wg sync.WaitGroup
	start := time.Now()
	done := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				pt := simulate(ctx, probs[j.Problem], o, j)
				mu.Lock()
				results[j.Index] = pt
				done++
				if !o.Quiet {
					e := "failed"
					if pt.Error != nil {
						e = fmt.Sprintf("%.2e", *pt.Error)
					}
					fmt.Fprintf(w, "\r[%3d/%3d] %5.0f s  last: %-8s %-14s n_s=%d fesd=%-5v N_sim=%-4d %s      ",
						done, len(all), time.Since(start).Seconds(), probs[j.Problem].Name, schemeName(j.Family), j.NS, j.FESD, j.NSim, e)
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
	if !o.Quiet {
		fmt.Fprintln(w)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st := &study{CompTol: o.CompTol, Elapsed: time.Since(start).Seconds()}
	for _, p := range probs {
		st.Problems = append(st.Problems, problemOut{
			Problem: p.Name, Metric: p.Metric, TSim: p.TSim, NFE: p.NFE, Floor: p.Floor, Exact: p.SExact,
		})
	}
	byKey := map[string]int{}
	for _, j := range all {
		po := &st.Problems[j.Problem]
		tab, _ := rk.New(j.Family, j.NS)
		key := fmt.Sprintf("%d/%s/%d/%v", j.Problem, schemeName(j.Family), j.NS, j.FESD)
		i, ok := byKey[key]
		if !ok {
			i = len(po.Runs)
			byKey[key] = i
			po.Runs = append(po.Runs, runOut{Scheme: schemeName(j.Family), NS: j.NS, Order: tab.Order, FESD: j.FESD})
		}
		po.Runs[i].Points = append(po.Runs[i].Points, results[j.Index])
	}
	for k := range st.Problems {
		po := &st.Problems[k]
		for i := range po.Runs {
			r := &po.Runs[i]
			sort.SliceStable(r.Points, func(a, b int) bool { return r.Points[a].H > r.Points[b].H })
			r.Slope, r.FitPoints = fitSlope(r.Points, po.Floor)
		}
	}
	return st, nil
}

// fitSlope returns the least-squares slope of log(error) over log(h_max)
// on the successful points with an error above floor, and their number.
func fitSlope(pts []point, floor float64) (*float64, int) {
	var xs, ys []float64
	for _, p := range pts {
		if p.Error == nil || !(*p.Error > floor) || !(p.HMax > 0) {
			continue
		}
		xs = append(xs, math.Log(p.HMax))
		ys = append(ys, math.Log(*p.Error))
	}
	if len(xs) < 2 {
		return nil, len(xs)
	}
	n := float64(len(xs))
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
