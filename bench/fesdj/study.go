package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/convergence"
	"github.com/fesd-go/fesd/rk"
)

// nfe is N_FE, the paper's 2 finite elements per simulation step.
const nfe = 2

// problem is a system of the study with its exact solution.
type problem struct {
	Name string `json:"name"`
	balls
	ref *reference
}

func newProblem(name string, b balls) (*problem, error) {
	ref, err := b.solve()
	if err != nil {
		return nil, fmt.Errorf("%s: the reference: %w", name, err)
	}
	return &problem{Name: name, balls: b, ref: ref}, nil
}

// curveSpec is a curve of the study: a scheme with n_s stages on a
// problem, simulated at each N_sim.
type curveSpec struct {
	Problem string
	Family  rk.Family
	Stages  int
	NSim    []int
}

// job is one simulation of the study.
type job struct {
	p *problem
	c convergence.Case
}

// run is one simulation's outcome.
type run struct {
	Problem string `json:"problem"`
	Scheme  string `json:"scheme"`
	NS      int    `json:"ns"`
	Order   int    `json:"order"`
	convergence.Point
	convergence.Outcome
	// Steps are the steps solved (more than N_sim when steps were halved),
	// Impacts the impacts reported; RefImpacts those of the reference.
	Steps      int `json:"steps"`
	Impacts    int `json:"impacts"`
	RefImpacts int `json:"ref_impacts"`
	// FirstImpact is the time of the first impact reported (NaN: none).
	FirstImpact float64 `json:"first_impact"`
	// MinGap is the smallest gap q₁ − R at the element boundaries.
	MinGap float64 `json:"min_gap"`
	// X0 and E are the initial state and restitution of a run of the
	// randomized study (omitted otherwise).
	X0 []float64 `json:"x0,omitempty"`
	E  float64   `json:"e,omitempty"`
}

// failed reports a run that did not converge.
func (r run) failed() bool { return r.Error == nil }

// simulate runs SimulateCLS on p with the case's scheme and N_sim, N_FE =
// 2 and the other options at fesd's defaults, and measures the error
// max_i |x_i(T) − x_i,ref(T)| (nosnoc's benchmarks/two_balls_cls/
// eval_benchmark.m) against the closed-form solution.
func simulate(ctx context.Context, p *problem, c convergence.Case) (r run) {
	tab, err := rk.New(c.Family, c.Stages)
	r.Problem, r.Scheme, r.NS = p.Name, convergence.SchemeName(c.Family), c.Stages
	r.NSim, r.H = c.NSim, p.T/float64(c.NSim*nfe)
	r.RefImpacts, r.FirstImpact = len(p.ref.Impacts), math.NaN()
	if err != nil {
		r.Status = err.Error()
		return r
	}
	r.Order = tab.Order
	start := time.Now()
	defer func() { r.Seconds = time.Since(start).Seconds() }()
	sys, err := p.cls()
	if err != nil {
		r.Status = err.Error()
		return r
	}
	res, err := fesd.SimulateCLS(ctx, sys, p.X0[:], fesd.SimOptions{
		Options: fesd.Options{Scheme: c.Family, Stages: c.Stages, NFE: nfe}, TSim: p.T, NSim: c.NSim})
	if res != nil {
		for _, st := range res.Steps {
			r.Iterations += st.Iterations
		}
		r.Steps = len(res.Steps)
		imps := res.Impacts()
		r.Impacts = len(imps)
		r.MinGap = math.Inf(1)
		for _, x := range res.X {
			r.MinGap = math.Min(r.MinGap, x[0]-p.R)
		}
		if len(imps) > 0 {
			r.FirstImpact = imps[0].Time
		}
	}
	if err != nil {
		r.Status = err.Error()
		var se *fesd.StepError
		if errors.As(err, &se) {
			r.Status = fmt.Sprintf("step %d (t = %.4g): %v", se.Step, se.T0, se.Status)
		}
		return r
	}
	for i := 1; i < len(res.T); i++ {
		r.HMax = math.Max(r.HMax, res.T[i]-res.T[i-1])
	}
	x := res.X[len(res.X)-1]
	e := 0.0
	for i := range x {
		e = math.Max(e, math.Abs(x[i]-p.ref.XT[i]))
	}
	if math.IsNaN(e) {
		r.Status = "non-finite state"
		return r
	}
	r.Error, r.Status = &e, "ok"
	if r.Steps > c.NSim {
		r.Status = fmt.Sprintf("ok (%d steps halved)", r.Steps-c.NSim)
	}
	return r
}

// randomProblems returns n variants of the paper's system with random
// initial states and restitution coefficients (seeded): q₁(0) ∈ [0.5,
// 1.5], the spring stretched by δ(0) ∈ [−0.02, 0.02], v₁(0), v₂(0) ∈
// [−1, 1] and e ∈ [0.5, 0.95]. A draw whose reference is not defined (a
// grazing touch, the ball at rest) is drawn again.
func randomProblems(n int, seed uint64) ([]*problem, error) {
	rng := rand.New(rand.NewPCG(seed, 46))
	u := func(a, b float64) float64 { return a + (b-a)*rng.Float64() }
	var out []*problem
	for tries := 0; len(out) < n; tries++ {
		if tries > 10*n+10 {
			return nil, fmt.Errorf("no reference for %d of %d random draws", tries-len(out), tries)
		}
		b := paperBalls
		q1 := u(0.5, 1.5)
		b.X0 = [4]float64{q1, q1 + b.L + u(-0.02, 0.02), u(-1, 1), u(-1, 1)}
		b.E = u(0.5, 0.95)
		p, err := newProblem(fmt.Sprintf("random %d", len(out)), b)
		if err != nil {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}
