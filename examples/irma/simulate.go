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
	"github.com/fesd-go/fesd/internal/report"
)

// maxSplit is the deepest halving of a failed simulation step: a step of
// length T whose homotopy fails is solved again as two steps of T/2, and so
// on down to T/2^maxSplit.
const maxSplit = 3

// stepper integrates with one fesd.Simulator per step length T/2^d.
type stepper struct {
	model *dcs.Model
	opts  fesd.Options
	T     float64
	// predict leaves fesd.Simulator.NoPredict unset.
	predict bool
	sims    []*fesd.Simulator
}

func (s *stepper) sim(depth int) (*fesd.Simulator, error) {
	for len(s.sims) <= depth {
		sim, err := fesd.NewSimulator(s.model, s.opts, s.T/math.Ldexp(1, len(s.sims)))
		if err != nil {
			return nil, err
		}
		sim.NoPredict = !s.predict
		s.sims = append(s.sims, sim)
	}
	return s.sims[depth], nil
}

// piece is one solved (sub)step.
type piece struct {
	res    *fesd.StepResult
	depth  int
	failed bool
}

// solve integrates [t0, t0 + T/2^depth] from x0. A failed homotopy is
// retried as two half steps; at the deepest level its (finite) solution is
// kept and marked failed, as nosnoc's simulation loop does.
func (s *stepper) solve(ctx context.Context, t0 float64, x0 []float64, depth int) ([]piece, error) {
	sim, err := s.sim(depth)
	if err != nil {
		return nil, err
	}
	if s.predict && depth < maxSplit && s.tooMany(sim, t0, x0) {
		return s.split(ctx, t0, x0, depth, sim.T/2)
	}
	st, err := sim.Step(ctx, t0, x0, nil, nil)
	var se *fesd.StepError
	if errors.As(err, &se) && ctx.Err() == nil {
		// Retry from the consistent cold start (the warm start shifted
		// from the previous step can lead the homotopy into a wrong
		// basin); the failed step has already dropped its solution.
		sim.Reset()
		if st2, err2 := sim.Step(ctx, t0, x0, nil, nil); err2 == nil {
			return []piece{{st2, depth, false}}, nil
		}
	}
	switch {
	case err == nil:
		return []piece{{st, depth, false}}, nil
	case !errors.As(err, &se) || st == nil:
		return nil, err
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case depth < maxSplit:
		return s.split(ctx, t0, x0, depth, sim.T/2)
	case !finite(st.X[len(st.X)-1]):
		return nil, err
	}
	return []piece{{st, depth, true}}, nil
}

// split solves [t0, t0 + 2h] as two steps of length h at depth + 1.
func (s *stepper) split(ctx context.Context, t0 float64, x0 []float64, depth int, h float64) ([]piece, error) {
	if sub, err := s.sim(depth + 1); err == nil {
		sub.Reset()
	}
	first, err := s.solve(ctx, t0, x0, depth+1)
	if err != nil {
		return nil, err
	}
	last := first[len(first)-1].res
	second, err := s.solve(ctx, t0+h, last.X[len(last.X)-1], depth+1)
	if err != nil {
		return nil, err
	}
	return append(first, second...), nil
}

// tooMany reports whether the event-driven prediction of the step
// (fesd.Simulator.PredictEvents) has more switches than the N_FE − 1
// interior element boundaries of a step can hold, counting events at
// least 5 % of an element away from the ends of the step and from each
// other (closer ones are solved inside an element by the homotopy). Such a
// step is split before it is tried.
func (s *stepper) tooMany(sim *fesd.Simulator, t0 float64, x0 []float64) bool {
	ev, ok, err := sim.PredictEvents(t0, x0, nil, nil)
	if err != nil || !ok {
		return false
	}
	nfe := s.opts.NFE
	gap := 0.05 * sim.T / float64(nfe)
	n, last := 0, t0
	for _, e := range ev {
		if e-last >= gap && t0+sim.T-e >= gap {
			n++
			last = e
		}
	}
	return n > nfe-1
}

// runInfo summarizes the solver side of a simulation.
type runInfo struct {
	Elapsed    time.Duration
	Iterations int
	Split      []int // steps that were split (too many predicted switches, or a failed homotopy)
	Failed     []int // steps with a piece kept after a failed homotopy
}

// simulate integrates the IRMA model over [0, TSim] in NSim steps, showing
// a progress line on w, and assembles the pieces into a SimResult whose
// switches come from detectSwitches.
func simulate(ctx context.Context, w io.Writer, model *dcs.Model, x0 []float64, o options) (*fesd.SimResult, runInfo, error) {
	var info runInfo
	s := &stepper{model: model, opts: simOptions(o), T: o.TSim / float64(o.NSim), predict: !o.NoPredict}
	res := &fesd.SimResult{Trajectory: fesd.Trajectory{T: []float64{o.T0}, X: [][]float64{append([]float64(nil), x0...)}}}
	// The progress line is redrawn with '\r' on a terminal only.
	tty := report.IsTerminal(w)
	start := time.Now()
	last := start
	x := x0
	for k := 0; k < o.NSim; k++ {
		t0 := o.T0 + float64(k)*s.T
		ps, err := s.solve(ctx, t0, x, 0)
		if err != nil {
			fmt.Fprintln(w)
			return res, info, fmt.Errorf("step %d (t = %g): %w", k, t0, err)
		}
		if len(ps) > 1 {
			info.Split = append(info.Split, k)
		}
		for _, p := range ps {
			st := p.res
			if p.failed && (len(info.Failed) == 0 || info.Failed[len(info.Failed)-1] != k) {
				info.Failed = append(info.Failed, k)
			}
			if err := res.AppendStep(st, k); err != nil {
				fmt.Fprintln(w)
				return res, info, fmt.Errorf("step %d (t = %g): %w", k, t0, err)
			}
			info.Iterations += st.Record.Iterations
			x = st.X[len(st.X)-1]
		}
		if now := time.Now(); tty && (now.Sub(last) > time.Second || k == o.NSim-1) {
			fmt.Fprintf(w, "\rstep %d/%d  t = %8.2f  %6.1f s", k+1, o.NSim, t0+s.T, now.Sub(start).Seconds())
			last = now
		}
	}
	if tty {
		fmt.Fprintln(w)
	}
	info.Elapsed = time.Since(start)
	return res, info, nil
}

// sideTol decides the side of ψ_j on an element from its selections: α_j ≥
// 1 − sideTol at every stage is ψ_j > 0, α_j ≤ sideTol is ψ_j < 0, anything
// else is the surface ψ_j = 0 (sliding).
const sideTol = 0.05

// detectSwitches lists the switches of the general steps of the model from
// the stage selections α of a Step-DCS simulation: for every element the
// side of each ψ_j (sign(ψ_j) from α, see sideTol), and a switch at the
// boundary between two elements whose sides differ: crossing (− ↔ +),
// entering_sliding (± → surface), leaving_sliding (surface → ±). This is a
// local version of fesd's rule, which is not exported for results
// assembled from single steps.
func detectSwitches(res *fesd.SimResult) []report.Switch {
	bl, ok := res.DCS.ZBlock(dcs.Alpha, -1)
	if !ok || len(res.H) == 0 {
		return nil
	}
	ns := len(res.PointZ) / len(res.H)
	side := func(e, j int) int {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := e * ns; i < (e+1)*ns; i++ {
			a := res.PointZ[i][bl.Start+j]
			lo, hi = math.Min(lo, a), math.Max(hi, a)
		}
		switch {
		case lo >= 1-sideTol:
			return 1
		case hi <= sideTol:
			return -1
		}
		return 0
	}
	var out []report.Switch
	for j := 0; j < bl.Len; j++ {
		prev := side(0, j)
		for e := 1; e < len(res.H); e++ {
			cur := side(e, j)
			if cur == prev {
				continue
			}
			kind := "crossing"
			switch {
			case cur == 0:
				kind = "entering_sliding"
			case prev == 0:
				kind = "leaving_sliding"
			}
			out = append(out, report.Switch{T: res.T[e], Psi: j, Kind: kind})
			prev = cur
		}
	}
	sortSwitches(out)
	return out
}

func sortSwitches(s []report.Switch) {
	sort.SliceStable(s, func(a, b int) bool {
		if s[a].T != s[b].T {
			return s[a].T < s[b].T
		}
		return s[a].Psi < s[b].Psi
	})
}
