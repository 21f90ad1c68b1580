//go:build ipopt

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/ipopt"
)

// ipoptInner routes the homotopy's NLPs through IPOPT (comparisons only;
// go test -tags ipopt).
type ipoptInner struct {
	set  nlp.Settings
	opts []ipopt.Option
	log  io.Writer
	// hist, if not nil, receives IPOPT's iteration history of every solve.
	hist io.Writer
}

func (s *ipoptInner) SolveNLP(ctx context.Context, p nlp.Problem, start *mpcc.WarmStart) (*mpcc.InnerResult, error) {
	solver := ipopt.Solver{Settings: s.set, Options: s.opts, NoTimingStatistics: true}
	start.Apply(&solver.Settings)
	res, err := solver.Solve(ctx, p)
	if err != nil {
		return nil, err
	}
	if s.log != nil {
		if s.hist != nil {
			for _, h := range res.History {
				mark := ' '
				if h.Restoration {
					mark = 'r'
				}
				rg := 0.0
				if h.DeltaW > 0 {
					rg = math.Log10(h.DeltaW)
				}
				fmt.Fprintf(s.hist, "%4d%c %13.7e %8.2e %8.2e %5.1f %8.2e %5.1f %8.2e %8.2e %3d\n", h.Iter, mark, h.Objective, h.InfPr, h.InfDu, math.Log10(h.Mu), h.StepNorm, rg, h.AlphaDu, h.AlphaPr, h.LSTrials)
			}
		}
		resto, short, maxDu := 0, 0, 0.0
		for _, h := range res.History {
			if h.Restoration {
				resto++
			}
			if h.AlphaPr < 1e-3 {
				short++
			}
			maxDu = max(maxDu, h.InfDu)
		}
		fmt.Fprintf(s.log, "ipopt: %v after %d iterations (%d restoration iterations, %d with α_pr < 1e-3, max inf_du %.2g)\n", res.Status, res.Iterations, resto, short, maxDu)
	}
	return &mpcc.InnerResult{Status: res.Status, X: res.X, Y: res.Y, ZL: res.ZL, ZU: res.ZU, Iterations: res.Iterations}, nil
}

// TestIPOPTInner runs the homotopy of TestRunSmall and a step of 0.1 m
// (N = 4, T = 0.4, FE_FE) with IPOPT as the inner solver (go test -tags
// ipopt -run IPOPT ./examples/monopod/ -v), for comparison with package
// nlp. Measured: holding the pose takes 356 IPOPT iterations (package nlp:
// 790); the step of 0.1 m needs 647 IPOPT iterations (Solved,
// objective 8.41135, the robot does not reach the target in 0.4 s); package
// nlp with the defaults ends in NLPFailure, with -inertia strict it is
// Solved after 2 610 iterations, with -inertia strictcurvature after 1 716
// (SparseLDL, before PivotingLDL became the default).
func TestIPOPTInner(t *testing.T) {
	for _, d := range []float64{0, 0.1} {
		c := defaultConfig()
		c.N, c.T, c.Distance, c.Cross, c.MaxIter = 4, 0.4, d, fesd.FEFE, 3000
		set := mpcc.DefaultNLPSettings()
		set.Tol, set.AcceptableTol, set.AcceptableIter, set.MaxIter = c.NLPTol, c.NLPTol, 3, c.MaxIter
		var log bytes.Buffer
		c.Inner = &ipoptInner{set: set, log: &log}
		var buf bytes.Buffer
		s, err := solveAndWrite(context.Background(), c, t.TempDir(), &buf)
		if err != nil {
			t.Fatal(err)
		}
		t.Log(strings.TrimSpace(log.String()))
		t.Log(strings.TrimSpace(buf.String()))
		if s.Status != "Solved" {
			t.Errorf("distance %v: status %s", d, s.Status)
		}
	}
}

// TestIPOPTPaper runs the paper's problem (N = 30, FE_STAGE) with the
// nosnoc-like restart (states from the reference, cold duals) and IPOPT
// (monotone μ, as nosnoc) as the inner solver for nosnoc's N_homotopy = 5
// steps (σ = 1 … 1e-4), and checks that every step converges, as it does
// with package nlp. It takes about 15 minutes: set FESD_LONG=1. Measured:
// 747, 1 197, 2 509, 713 and 884 IPOPT iterations (package nlp: 921,
// 1 243, 1 094, 151, 155); a sixth step σ = 1e-5 hits the 3 000 iteration
// limit with both solvers.
func TestIPOPTPaper(t *testing.T) {
	if os.Getenv("FESD_LONG") == "" {
		t.Skip("set FESD_LONG=1")
	}
	c := defaultConfig()
	c.N, c.MaxIter, c.InitRef, c.ColdDuals, c.MaxSteps = 30, 3000, true, true, 5
	c.Finish = mpcc.Direct // nosnoc's five steps only
	c.Log = os.Stdout
	set := mpcc.DefaultNLPSettings()
	set.Tol, set.AcceptableTol, set.AcceptableIter, set.MaxIter = c.NLPTol, c.NLPTol, 3, c.MaxIter
	set.MuStrategy = nlp.MuMonotone
	c.Inner = &ipoptInner{set: set, log: os.Stdout}
	r, _, err := run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	for k, h := range r.Homotopy {
		if !h.Status.Success() {
			t.Errorf("step %d (σ = %g): %v", k, h.Sigma, h.Status)
		}
	}
}
