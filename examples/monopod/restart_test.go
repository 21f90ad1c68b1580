package main

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
)

// TestRestartInProcess: continuing with WithHomotopy and Start.Warm on the
// solver that just ran the ℓ∞ finish (as -finish-plain-first does) and
// restarting in a freshly built solver from the saved NLP solution (as
// -warm does) solve the same NLP from the same point, so they must take
// the same iterations to the same objective (N = 6, T = 0.6 s, 0.3 m,
// FE_FE; a Scholtes step at σ = 1e-5 after the ℓ∞ finish; measured: 61
// iterations in both, 2.5 s). Under -short the task is TestRunSmall's
// (N = 4, T = 0.4 s, hold the pose; measured: 14 iterations in both,
// 0.7 s), which goes through the same restart code.
func TestRestartInProcess(t *testing.T) {
	c := defaultConfig()
	c.N, c.T, c.Distance = 6, 0.6, 0.3
	if testing.Short() {
		c.N, c.T, c.Distance = 4, 0.4, 0
	}
	c.Cross = fesd.FEFE
	c.Finish = mpcc.Direct
	s, p, _, err := newSolver(c)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Solve(context.Background(), p.start)
	if err != nil {
		t.Fatal(err)
	}
	set := p.opts.MPCC
	set.Steering, set.Sigma0, set.MaxSteps = mpcc.LInf, 1e-5, 0
	r, err = finish(context.Background(), s, set, r)
	if err != nil {
		t.Fatal(err)
	}
	rc := p.opts.MPCC
	rc.Sigma0, rc.MaxSteps = 1e-5, 1
	ra, err := finish(context.Background(), s, rc, r)
	if err != nil {
		t.Fatal(err)
	}
	c2 := c
	c2.Sigma0, c2.MaxSteps = 1e-5, 1
	c2.Warm = r.NLPSolution()
	s2, p2, _, err := newSolver(c2)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := s2.Solve(context.Background(), p2.start)
	if err != nil {
		t.Fatal(err)
	}
	ha, hb := ra.Homotopy[len(ra.Homotopy)-1], rb.Homotopy[len(rb.Homotopy)-1]
	if ha.Status != hb.Status || ha.Iterations != hb.Iterations || math.Abs(ra.Objective-rb.Objective) > 1e-9*math.Abs(rb.Objective) {
		t.Errorf("in-process restart: %v, %d iterations, objective %.12g; fresh solver: %v, %d, %.12g",
			ha.Status, ha.Iterations, ra.Objective, hb.Status, hb.Iterations, rb.Objective)
	}
}

// TestBridgeSigma: the bridge step of -finish-plain-first runs at the
// decimal σ a user would pass to -sigma0, not at the rounded product
// (10·1e-6 is one ulp below 1e-5 in float64).
func TestBridgeSigma(t *testing.T) {
	one := 1e-6 // a variable: the constant product 10*1e-6 is exact
	if 10*one == 1e-5 {
		t.Fatal("the float64 product 10·1e-6 is 1e-5; this test no longer shows the rounding")
	}
	for _, c := range []struct{ in, want float64 }{{1e-6, 1e-5}, {3e-7, 3e-6}, {1e-7, 1e-6}, {2.5e-6, 2.5e-5}, {0.01, 0.1}} {
		if got := bridgeSigma(c.in); got != c.want {
			t.Errorf("bridgeSigma(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
