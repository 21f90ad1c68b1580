package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/report"
)

// runInfo summarizes the solver side of a simulation.
type runInfo struct {
	Elapsed    time.Duration
	Iterations int
	// Split lists the steps that fesd.Simulate split
	// (fesd.StepRecord.Depth); SplitIterations are the iterations of the
	// failed solves among them (included in Iterations).
	Split           []int
	SplitIterations int
}

// simulate integrates the IRMA model over [T0, T0 + TSim] in NSim steps
// with fesd.Simulate, showing a progress line on w.
func simulate(ctx context.Context, w io.Writer, model *dcs.Model, x0 []float64, o options) (*fesd.SimResult, runInfo, error) {
	var info runInfo
	T := o.TSim / float64(o.NSim)
	// The progress line is redrawn with '\r' on a terminal only.
	tty := report.IsTerminal(w)
	start := time.Now()
	last := start
	progress := func(rec fesd.StepRecord) {
		if now := time.Now(); tty && (now.Sub(last) > time.Second || rec.Step == o.NSim-1 && rec.T1 >= o.T0+o.TSim-T/16) {
			fmt.Fprintf(w, "\rstep %d/%d  t = %8.2f  %6.1f s", rec.Step+1, o.NSim, rec.T1, now.Sub(start).Seconds())
			last = now
		}
	}
	res, err := fesd.Simulate(ctx, model, x0, fesd.SimOptions{
		Options: simOptions(o), TSim: o.TSim, NSim: o.NSim, T0: o.T0, NoPredict: o.NoPredict, Progress: progress,
	})
	if tty {
		fmt.Fprintln(w)
	}
	info.Elapsed = time.Since(start)
	if res == nil {
		return &fesd.SimResult{}, info, err
	}
	for _, rec := range res.Steps {
		info.Iterations += rec.Iterations
		info.SplitIterations += rec.SplitIterations
		if rec.Depth > 0 && (len(info.Split) == 0 || info.Split[len(info.Split)-1] != rec.Step) {
			info.Split = append(info.Split, rec.Step)
		}
	}
	return res, info, err
}
