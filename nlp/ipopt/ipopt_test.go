//go:build ipopt

package ipopt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/hs"
	"github.com/fesd-go/fesd/nlp/testprob"
)

// TestHS071: the example of IPOPT's documentation, f* = 17.0140173 (Hock &
// Schittkowski 1981, problem 71).
func TestHS071(t *testing.T) {
	p, err := hs.ByName("hs071")
	if err != nil {
		t.Fatal(err)
	}
	res, rs, err := (&Solver{}).SolveStatus(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if rs != SolveSucceeded || res.Status != nlp.Solved {
		t.Fatalf("status %v (%v)", rs, res.Status)
	}
	if math.Abs(res.Objective-17.0140173) > 1e-6 {
		t.Errorf("f = %.10g, want 17.0140173", res.Objective)
	}
	if res.Iterations == 0 || len(res.History) != res.Iterations+1 {
		t.Errorf("iterations %d, history %d", res.Iterations, len(res.History))
	}
	if res.DualInfeasibility > 1e-6 || res.PrimalInfeasibility > 1e-6 || res.Complementarity > 1e-6 {
		t.Errorf("final errors %g %g %g", res.PrimalInfeasibility, res.DualInfeasibility, res.Complementarity)
	}
	if res.Counts.Hessian == 0 || res.Time.Total <= 0 || res.Time.Evaluation <= 0 || res.Time.Evaluation > res.Time.Total {
		t.Errorf("counts %+v, time %+v", res.Counts, res.Time)
	}
	t.Logf("hs071: %d iterations, f = %.10g, time %+v", res.Iterations, res.Objective, res.Time)
}

// TestHSAgainstNative: IPOPT and nlp.Solver reach the same optimum (f to
// 1e-6 relative) on HS problems where both find the same KKT point, and the
// multipliers agree with nlp's sign convention.
func TestHSAgainstNative(t *testing.T) {
	names := []string{"hs001", "hs006", "hs010", "hs014", "hs021", "hs035", "hs043", "hs071", "hs074", "hs076", "hs100", "hs106", "hs118"}
	total := [2]int{}
	for _, name := range names {
		p, err := hs.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		ri, err := (&Solver{}).Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p, _ = hs.ByName(name)
		rn, err := (&nlp.Solver{}).Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !ri.Status.Success() || !rn.Status.Success() {
			t.Errorf("%s: status ipopt %v, native %v", name, ri.Status, rn.Status)
			continue
		}
		if d := math.Abs(ri.Objective - rn.Objective); d > 1e-6*math.Max(1, math.Abs(rn.Objective)) {
			t.Errorf("%s: f ipopt %.10g, native %.10g", name, ri.Objective, rn.Objective)
		}
		for j := range ri.X {
			if d := math.Abs(ri.X[j] - rn.X[j]); d > 1e-4*math.Max(1, math.Abs(rn.X[j])) {
				t.Errorf("%s: x[%d] ipopt %.8g, native %.8g", name, j, ri.X[j], rn.X[j])
			}
		}
		for i := range ri.Y {
			if d := math.Abs(ri.Y[i] - rn.Y[i]); d > 1e-4*math.Max(1, math.Abs(rn.Y[i])) {
				t.Errorf("%s: y[%d] ipopt %.8g, native %.8g", name, i, ri.Y[i], rn.Y[i])
			}
		}
		total[0] += ri.Iterations
		total[1] += rn.Iterations
		t.Logf("%s: f = %.10g; iterations ipopt %d, native %d", name, ri.Objective, ri.Iterations, rn.Iterations)
	}
	t.Logf("total iterations: ipopt %d, native %d", total[0], total[1])
}

// TestOCP: the synthetic OCP of package nlp/testprob at N = 50, same optimum, with
// the factorization and back-solve times parsed from IPOPT's statistics.
func TestOCP(t *testing.T) {
	p, err := testprob.NewOCP(testprob.OCPOptions{N: 50})
	if err != nil {
		t.Fatal(err)
	}
	ri, err := (&Solver{}).Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	rn, err := (&nlp.Solver{}).Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if ri.Status != nlp.Solved || rn.Status != nlp.Solved {
		t.Fatalf("status ipopt %v, native %v", ri.Status, rn.Status)
	}
	if d := math.Abs(ri.Objective - rn.Objective); d > 1e-6*math.Max(1, math.Abs(rn.Objective)) {
		t.Errorf("f ipopt %.10g, native %.10g", ri.Objective, rn.Objective)
	}
	if ri.Time.Factorization <= 0 || ri.Time.Solve <= 0 {
		t.Errorf("timing statistics not parsed: %+v", ri.Time)
	}
	t.Logf("ipopt %d iterations %v (fact %v, solve %v, eval %v); native %d iterations %v", ri.Iterations, ri.Time.Total,
		ri.Time.Factorization, ri.Time.Solve, ri.Time.Evaluation, rn.Iterations, rn.Time.Total)
}

// TestWarmStart: restarting from the solution with its multipliers, a small
// μ and adaptive μ takes few iterations and stays at the solution.
func TestWarmStart(t *testing.T) {
	p, _ := hs.ByName("hs071")
	r0, err := (&Solver{}).Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	s := Solver{Settings: nlp.Settings{MuInit: 1e-9, MuStrategy: nlp.MuAdaptive,
		WarmStart: &nlp.WarmStart{X: r0.X, Y: r0.Y, ZL: r0.ZL, ZU: r0.ZU}}}
	r1, err := s.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Status != nlp.Solved || r1.Iterations > r0.Iterations/2 || math.Abs(r1.Objective-r0.Objective) > 1e-8 {
		t.Errorf("warm start: %v after %d iterations (cold %d), f %.10g", r1.Status, r1.Iterations, r0.Iterations, r1.Objective)
	}
}

// TestWarmStartUnconstrained: a warm start with bound multipliers on a
// problem without constraints (m = 0; hs003, f* = 0 at (0, 0), Hock &
// Schittkowski 1981) runs: IPOPT's C interface needs a non-NULL constraint
// multiplier array even then (it ended Unrecoverable_Exception before).
func TestWarmStartUnconstrained(t *testing.T) {
	p, _ := hs.ByName("hs003")
	r0, err := (&Solver{}).Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(r0.Y) != 0 {
		t.Fatalf("hs003 has %d constraint multipliers, want 0", len(r0.Y))
	}
	s := Solver{Settings: nlp.Settings{WarmStart: &nlp.WarmStart{X: r0.X, Y: r0.Y, ZL: r0.ZL, ZU: r0.ZU}}}
	r1, err := s.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Status != nlp.Solved || math.Abs(r1.Objective) > 1e-6 {
		t.Errorf("warm start: %v, f = %g", r1.Status, r1.Objective)
	}
}

// TestOptionsAndLog: the iteration limit, the log writer and an invalid
// extra option.
func TestOptionsAndLog(t *testing.T) {
	p, _ := hs.ByName("hs071")
	var log bytes.Buffer
	res, err := (&Solver{Settings: nlp.Settings{MaxIter: 2, Log: &log}}).Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != nlp.IterationLimit || res.Iterations != 2 {
		t.Errorf("status %v after %d iterations, want IterationLimit after 2", res.Status, res.Iterations)
	}
	if !strings.Contains(log.String(), "iter") {
		t.Errorf("log has no iteration table:\n%s", log.String())
	}
	_, err = (&Solver{Options: []Option{{"no_such_option", 1.0}}}).Solve(context.Background(), p)
	if !errors.Is(err, ErrIPOPT) {
		t.Errorf("unknown option: err = %v, want ErrIPOPT", err)
	}
}

// stopper fails its Hessian after a few calls.
type stopper struct {
	*hs.Problem
	calls int
}

func (s *stopper) HessianValues(x []float64, sigma float64, lambda, vals []float64) error {
	s.calls++
	if s.calls > 2 {
		return errors.New("stop")
	}
	return s.Problem.HessianValues(x, sigma, lambda, vals)
}

// TestStops: a callback error gives UserStop, a cancelled context Cancelled,
// an expired wall time TimeLimit.
func TestStops(t *testing.T) {
	p, _ := hs.ByName("hs071")
	res, err := (&Solver{}).Solve(context.Background(), &stopper{Problem: p})
	if err != nil || res.Status != nlp.UserStop {
		t.Errorf("callback error: %v, %v", err, res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// the cancellation rule of nlp.Solver: the partial result and an error
	// wrapping the context's
	res, err = (&Solver{}).Solve(ctx, p)
	if !errors.Is(err, context.Canceled) || res == nil || res.Status != nlp.Cancelled {
		t.Errorf("cancelled: %v, %v", err, res)
	}
	res, err = (&Solver{Settings: nlp.Settings{MaxWallTime: time.Nanosecond}}).Solve(context.Background(), p)
	if err != nil || res.Status != nlp.TimeLimit {
		t.Errorf("wall time: %v, %v", err, res)
	}
}

// TestCountFactorizations: the factorization count read from the MUMPS
// interface's reports agrees with IPOPT's own per-iteration report
// ("Number of trial factorizations performed", PDFullSpaceSolver) plus the
// factorization of the least-squares multipliers, and is at least one per
// iteration. On the nonconvex OCP of nlp/testprob some iterations need an
// inertia correction, so the count exceeds iterations + 1.
func TestCountFactorizations(t *testing.T) {
	p, err := testprob.NewOCP(testprob.OCPOptions{N: 50})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	res, err := (&Solver{CountFactorizations: true, Settings: nlp.Settings{Log: &log}}).Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != nlp.Solved {
		t.Fatalf("status %v", res.Status)
	}
	trials := 0
	for _, line := range strings.Split(log.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "Number of trial factorizations performed:"); ok {
			var k int
			if _, err := fmt.Sscan(rest, &k); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			trials += k
		}
	}
	lsq := strings.Count(log.String(), "Least square estimates")
	if lsq != 1 {
		t.Fatalf("%d least-squares estimates in the log, want 1", lsq)
	}
	f := res.Counts.Factorizations
	if f != trials+lsq {
		t.Errorf("%d factorizations counted, IPOPT reports %d trials + %d least-squares", f, trials, lsq)
	}
	if f <= res.Iterations+1 {
		t.Errorf("%d factorizations in %d iterations: no inertia correction counted", f, res.Iterations)
	}
	t.Logf("%d iterations, %d factorizations (%.2f per iteration)", res.Iterations, f, float64(f)/float64(res.Iterations))
	// Without the setting the count stays 0.
	r0, err := (&Solver{}).Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if r0.Counts.Factorizations != 0 {
		t.Errorf("Factorizations = %d without CountFactorizations", r0.Counts.Factorizations)
	}
}
