package adnlp_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/adnlp"
)

// BenchmarkNew measures construction (derivatives and compilation) of the
// chain problem for both Jacobian modes; the graph is built outside the
// timer. n = 10 001 takes about a minute in Auto mode (see the package
// documentation), so it runs only without -short.
func BenchmarkNew(b *testing.B) {
	for _, mode := range []struct {
		name string
		m    ad.Mode
	}{{"auto", ad.Auto}, {"reverse", ad.Reverse}} {
		for _, N := range []int{500, 5000} {
			if testing.Short() && N > 500 {
				continue
			}
			b.Run(fmt.Sprintf("%s/n=%d", mode.name, 2*N+1), func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					s := chainSpec(N)
					s.JacobianMode = mode.m
					b.StartTimer()
					p, err := adnlp.New(s)
					if err != nil {
						b.Fatal(err)
					}
					st := p.Stats()
					b.ReportMetric(st.Gradient.Seconds(), "grad-s")
					b.ReportMetric(st.Jacobian.Seconds(), "jac-s")
					b.ReportMetric(st.Hessian.Seconds(), "hess-s")
					b.ReportMetric(st.Compile.Seconds(), "compile-s")
				}
			})
		}
	}
}

// BenchmarkGraph measures building the chain problem's expressions.
func BenchmarkGraph(b *testing.B) {
	for _, N := range []int{500, 5000, 25000} {
		b.Run(fmt.Sprintf("n=%d", 2*N+1), func(b *testing.B) {
			for b.Loop() {
				chainSpec(N)
			}
		})
	}
}

// BenchmarkEval measures the callbacks on the chain problem (built once per
// size in Reverse mode; n = 10 001 takes about 45 s to build and runs only
// without -short).
func BenchmarkEval(b *testing.B) {
	for _, N := range []int{500, 5000} {
		if testing.Short() && N > 500 {
			continue
		}
		s := chainSpec(N)
		s.JacobianMode = ad.Reverse
		p, err := adnlp.New(s)
		if err != nil {
			b.Fatal(err)
		}
		n, m := p.Dims()
		x, g, grad, lambda := make([]float64, n), make([]float64, m), make([]float64, n), make([]float64, m)
		for j := range x {
			x[j] = 0.1 * float64(j%7)
		}
		for i := range lambda {
			lambda[i] = 1
		}
		jr, _ := p.JacobianStructure()
		hr, _ := p.HessianStructure()
		jv, hv := make([]float64, len(jr)), make([]float64, len(hr))
		for _, c := range []struct {
			name string
			f    func() error
		}{
			{"Objective", func() error { _, err := p.Objective(x); return err }},
			{"Gradient", func() error { return p.Gradient(x, grad) }},
			{"Constraints", func() error { return p.Constraints(x, g) }},
			{"JacobianValues", func() error { return p.JacobianValues(x, jv) }},
			{"HessianValues", func() error { return p.HessianValues(x, 1, lambda, hv) }},
		} {
			b.Run(fmt.Sprintf("n=%d/%s", n, c.name), func(b *testing.B) {
				for b.Loop() {
					if err := c.f(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkNewBlocks compares the construction of the chain problem built
// with one block for its N stages (chainBlocksSpec) with the symbolic build
// of the same problem (chainSpec, Reverse mode, its fastest). The specs are
// built outside the timer; B/op counts only New's allocations. n = 10 001
// runs only without -short.
func BenchmarkNewBlocks(b *testing.B) {
	for _, N := range []int{500, 5000} {
		if testing.Short() && N > 500 {
			continue
		}
		for _, c := range []struct {
			name string
			spec func(int) adnlp.Spec
		}{
			{"symbolic", func(N int) adnlp.Spec { s := chainSpec(N); s.JacobianMode = ad.Reverse; return s }},
			{"blocks", chainBlocksSpec},
		} {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, 2*N+1), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					s := c.spec(N)
					b.StartTimer()
					if _, err := adnlp.New(s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEvalBlocks measures the callbacks of the chain problem built with
// a block (compare with BenchmarkEval).
func BenchmarkEvalBlocks(b *testing.B) {
	for _, N := range []int{500, 5000} {
		p, err := adnlp.New(chainBlocksSpec(N))
		if err != nil {
			b.Fatal(err)
		}
		n, m := p.Dims()
		x, g, grad, lambda := make([]float64, n), make([]float64, m), make([]float64, n), make([]float64, m)
		for j := range x {
			x[j] = 0.1 * float64(j%7)
		}
		for i := range lambda {
			lambda[i] = 1
		}
		jr, _ := p.JacobianStructure()
		hr, _ := p.HessianStructure()
		jv, hv := make([]float64, len(jr)), make([]float64, len(hr))
		for _, c := range []struct {
			name string
			f    func() error
		}{
			{"Objective", func() error { _, err := p.Objective(x); return err }},
			{"Gradient", func() error { return p.Gradient(x, grad) }},
			{"Constraints", func() error { return p.Constraints(x, g) }},
			{"JacobianValues", func() error { return p.JacobianValues(x, jv) }},
			{"HessianValues", func() error { return p.HessianValues(x, 1, lambda, hv) }},
		} {
			b.Run(fmt.Sprintf("n=%d/%s", n, c.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := c.f(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSolveBlocks solves the chain problem built symbolically and with
// a block (construction outside the timer): the cost of evaluating the
// block instance by instance within a whole interior-point solve.
func BenchmarkSolveBlocks(b *testing.B) {
	for _, N := range []int{500, 5000} {
		for _, c := range []struct {
			name string
			spec func(int) adnlp.Spec
		}{
			{"symbolic", func(N int) adnlp.Spec { s := chainSpec(N); s.JacobianMode = ad.Reverse; return s }},
			{"blocks", chainBlocksSpec},
		} {
			p, err := adnlp.New(c.spec(N))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/n=%d", c.name, 2*N+1), func(b *testing.B) {
				for b.Loop() {
					res, err := (&nlp.Solver{}).Solve(context.Background(), p)
					if err != nil || res.Status != nlp.Solved {
						b.Fatal(err, res.Status)
					}
				}
			})
		}
	}
}
