package nlp

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/nlp/hs"
)

// TestWatchdogHS027: on hs027 (Rosenbrock's valley with the equality
// x₁ + x₃² + 1 = 0, started at (2, 2, 2)) the filter shortens more than 10
// consecutive steps, the watchdog starts and its full steps save
// iterations (61 vs 63 with the watchdog off, monotone μ; WatchdogTrigger = 10). Both reach
// f* = 0.04.
func TestWatchdogHS027(t *testing.T) {
	var p *hs.Problem
	for _, q := range hs.All() {
		if q.Name == "hs027" {
			p = q
		}
	}
	if p == nil {
		t.Fatal("hs027 not found")
	}
	run := func(trigger int) *Result {
		s := Solver{Settings: Settings{WatchdogTrigger: trigger, MuStrategy: MuMonotone}}
		r, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != Solved || math.Abs(r.Objective-0.04) > 1e-8 {
			t.Errorf("trigger %d: %v, f = %v", trigger, r.Status, r.Objective)
		}
		return r
	}
	on, off := run(10), run(0)
	t.Logf("watchdog on: %d iterations (%d watchdogs, %d restorations); off: %d iterations (%d restorations)",
		on.Iterations, on.Counts.Watchdogs, on.Counts.RestorationPhases, off.Iterations, off.Counts.RestorationPhases)
	if off.Counts.Watchdogs != 0 {
		t.Errorf("watchdog off but %d starts", off.Counts.Watchdogs)
	}
	if on.Counts.Watchdogs == 0 || on.Iterations >= off.Iterations {
		t.Errorf("watchdog: %d starts, %d iterations vs %d without", on.Counts.Watchdogs, on.Iterations, off.Iterations)
	}
}
