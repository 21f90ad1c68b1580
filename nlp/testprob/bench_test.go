package testprob

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/fesd-go/fesd/nlp"
)

// solveIn runs one solve of p with at most maxIter iterations in ws.
func solveIn(tb testing.TB, ws *nlp.Workspace, p nlp.Problem, maxIter int) *nlp.Result {
	tb.Helper()
	res, err := (&nlp.Solver{Settings: nlp.Settings{MaxIter: maxIter}}).SolveIn(context.Background(), ws, p)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// allocsPerIteration returns the heap allocations of one IPM iteration on
// the OCP with N stages: the difference between solves capped at k2 and at
// k1 iterations in a set-up Workspace, divided by k2 − k1 (the per-solve
// allocations — the Result — cancel).
func allocsPerIteration(tb testing.TB, n, k1, k2 int) float64 {
	p, err := NewOCP(OCPOptions{N: n})
	if err != nil {
		tb.Fatal(err)
	}
	var ws nlp.Workspace
	if r := solveIn(tb, &ws, p, k2); r.Iterations != k2 {
		tb.Fatalf("only %d iterations (%v): choose k2 below the iteration count", r.Iterations, r.Status)
	}
	a1 := testing.AllocsPerRun(3, func() { solveIn(tb, &ws, p, k1) })
	a2 := testing.AllocsPerRun(3, func() { solveIn(tb, &ws, p, k2) })
	return (a2 - a1) / float64(k2-k1)
}

// TestIPMIterationAllocs: after the setup, an IPM iteration on the OCP does
// not allocate (nlp's documented invariant; iterations 5–25 at N = 200 span
// μ updates, second-order corrections and inertia corrections).
func TestIPMIterationAllocs(t *testing.T) {
	if a := allocsPerIteration(t, 200, 5, 25); a != 0 {
		t.Errorf("%.2f allocations per IPM iteration, want 0", a)
	}
}

// BenchmarkIPMIteration measures one IPM iteration of nlp.Solver on the OCP
// (N = 200, 800, 3200): the time of a solve capped at 20 iterations minus
// one capped at 5, per iteration, in a set-up Workspace (so neither the
// setup nor the result is included); it reports allocations per iteration
// and the heap in use by the Workspace (peak memory of the solver).
func BenchmarkIPMIteration(b *testing.B) {
	const k1, k2 = 5, 20
	for _, n := range []int{200, 800, 3200} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			p, err := NewOCP(OCPOptions{N: n})
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			var ws nlp.Workspace
			solveIn(b, &ws, p, k2)
			runtime.GC()
			runtime.ReadMemStats(&m1)
			wsMiB := float64(m1.HeapAlloc-m0.HeapAlloc) / (1 << 20)
			allocs := allocsPerIteration(b, n, k1, k2)
			b.ResetTimer()
			var short, long, fact, solve, eval float64
			for b.Loop() {
				r1 := solveIn(b, &ws, p, k1)
				r2 := solveIn(b, &ws, p, k2)
				d := func(f func(*nlp.Result) float64) float64 { return (f(r2) - f(r1)) / (k2 - k1) }
				short += float64(r1.Time.Total)
				long += float64(r2.Time.Total)
				fact += d(func(r *nlp.Result) float64 { return float64(r.Time.Factorization) })
				solve += d(func(r *nlp.Result) float64 { return float64(r.Time.Solve) })
				eval += d(func(r *nlp.Result) float64 { return float64(r.Time.Evaluation) })
			}
			per := float64(b.N)
			b.ReportMetric((long-short)/(k2-k1)/per/1e3, "µs/iter")
			b.ReportMetric(fact/per/1e3, "fact-µs/iter")
			b.ReportMetric(solve/per/1e3, "solve-µs/iter")
			b.ReportMetric(eval/per/1e3, "eval-µs/iter")
			b.ReportMetric(wsMiB, "ws-MiB")
			b.ReportMetric(allocs, "allocs/iter")
		})
	}
}

// BenchmarkSolve is a whole cold solve (setup included) of the OCP.
func BenchmarkSolve(b *testing.B) {
	for _, n := range []int{200, 800} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			p, err := NewOCP(OCPOptions{N: n})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				res, err := (&nlp.Solver{}).Solve(context.Background(), p)
				if err != nil || res.Status != nlp.Solved {
					b.Fatal(err, res.Status)
				}
				b.ReportMetric(float64(res.Iterations), "iters")
				b.ReportMetric(float64(res.Time.Setup.Microseconds()), "setup-µs")
			}
		})
	}
}

// BenchmarkEvaluation is one iteration's worth of callbacks (f, ∇f, g, J,
// ∇²L) at N = 800; none allocates.
func BenchmarkEvaluation(b *testing.B) {
	p, err := NewOCP(OCPOptions{N: 800})
	if err != nil {
		b.Fatal(err)
	}
	n, m := p.Dims()
	x, grad, g, lam := make([]float64, n), make([]float64, n), make([]float64, m), make([]float64, m)
	p.Start(x)
	jr, _ := p.JacobianStructure()
	hr, _ := p.HessianStructure()
	jv, hv := make([]float64, len(jr)), make([]float64, len(hr))
	b.ReportAllocs()
	for b.Loop() {
		_, _ = p.Objective(x)
		_ = p.Gradient(x, grad)
		_ = p.Constraints(x, g)
		_ = p.JacobianValues(x, jv)
		_ = p.HessianValues(x, 1, lam, hv)
	}
}
