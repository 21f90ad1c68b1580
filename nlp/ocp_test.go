package nlp

import (
	"context"
	"math"
	"testing"
	"time"
)

// ocpChain is a transcribed optimal control problem with N stages:
//
//	min Σ_k h(x_k² + u_k²)  s.t.  x_{k+1} = x_k + h(−x_k³ + u_k), x_0 = 1,
//	−1 ≤ u_k ≤ 1, x_k ≤ 2 (inactive),
//
// variables (x_0, u_0, x_1, u_1, …, x_N). x_0 is a fixed variable. It has
// a block-banded KKT matrix and implements StageHinter.
type ocpChain struct{ N int }

func (p ocpChain) h() float64        { return 5.0 / float64(p.N) }
func (p ocpChain) Dims() (int, int)  { return 2*p.N + 1, p.N }
func (p ocpChain) Start(x []float64) { clear(x); x[0] = 1 }
func (p ocpChain) Bounds(xL, xU, gL, gU []float64) {
	for k := 0; k <= p.N; k++ {
		xL[2*k], xU[2*k] = math.Inf(-1), 2
		if k < p.N {
			xL[2*k+1], xU[2*k+1] = -1, 1
		}
	}
	xL[0], xU[0] = 1, 1
	clear(gL)
	clear(gU)
}
func (p ocpChain) Objective(x []float64) (float64, error) {
	s := 0.0
	for k := 0; k < p.N; k++ {
		s += x[2*k]*x[2*k] + x[2*k+1]*x[2*k+1]
	}
	return p.h() * s, nil
}
func (p ocpChain) Gradient(x, g []float64) error {
	h := p.h()
	clear(g)
	for k := 0; k < p.N; k++ {
		g[2*k] = 2 * h * x[2*k]
		g[2*k+1] = 2 * h * x[2*k+1]
	}
	return nil
}
func (p ocpChain) Constraints(x, c []float64) error {
	h := p.h()
	for k := 0; k < p.N; k++ {
		xk, uk := x[2*k], x[2*k+1]
		c[k] = x[2*k+2] - xk - h*(-xk*xk*xk+uk)
	}
	return nil
}
func (p ocpChain) JacobianStructure() (r, c []int) {
	for k := 0; k < p.N; k++ {
		r = append(r, k, k, k)
		c = append(c, 2*k, 2*k+1, 2*k+2)
	}
	return
}
func (p ocpChain) JacobianValues(x, v []float64) error {
	h := p.h()
	for k := 0; k < p.N; k++ {
		xk := x[2*k]
		v[3*k], v[3*k+1], v[3*k+2] = -1+3*h*xk*xk, -h, 1
	}
	return nil
}
func (p ocpChain) HessianStructure() (r, c []int) {
	for k := 0; k < p.N; k++ {
		r = append(r, 2*k, 2*k+1)
		c = append(c, 2*k, 2*k+1)
	}
	return
}
func (p ocpChain) HessianValues(x []float64, s float64, l, v []float64) error {
	h := p.h()
	for k := 0; k < p.N; k++ {
		v[2*k] = 2*h*s + l[k]*6*h*x[2*k]
		v[2*k+1] = 2 * h * s
	}
	return nil
}
func (p ocpChain) Stages(xs, gs []int) {
	for j := range xs {
		xs[j] = j / 2
	}
	for k := range gs {
		gs[k] = k
	}
}

func TestOCPChain(t *testing.T) {
	for _, N := range []int{100, 2000} {
		res, err := (&Solver{}).Solve(context.Background(), ocpChain{N})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Solved {
			t.Fatalf("N = %d: status %v", N, res.Status)
		}
		t.Logf("N = %d: %d iterations, f = %.10g, time %v (factorization %v, solve %v, evaluation %v)",
			N, res.Iterations, res.Objective, res.Time.Total, res.Time.Factorization, res.Time.Solve, res.Time.Evaluation)
	}
}

func BenchmarkOCPChain20000(b *testing.B) {
	p := ocpChain{20000}
	for b.Loop() {
		res, err := (&Solver{}).Solve(context.Background(), p)
		if err != nil || res.Status != Solved {
			b.Fatal(err, res.Status)
		}
		b.ReportMetric(float64(res.Iterations), "iters")
		per := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(res.Iterations) }
		b.ReportMetric(per(res.Time.Total-res.Time.Setup), "µs/iter")
		b.ReportMetric(per(res.Time.Factorization), "fact-µs/iter")
		b.ReportMetric(per(res.Time.Solve), "solve-µs/iter")
		b.ReportMetric(float64(res.Time.Setup.Microseconds()), "setup-µs")
	}
}

func BenchmarkOCPChain20000Workspace(b *testing.B) {
	p := ocpChain{20000}
	var ws Workspace
	s := Solver{}
	if _, err := s.SolveIn(context.Background(), &ws, p); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		res, err := s.SolveIn(context.Background(), &ws, p)
		if err != nil || res.Status != Solved {
			b.Fatal(err, res.Status)
		}
		b.ReportMetric(float64(res.Time.Setup.Microseconds()), "setup-µs")
	}
}
