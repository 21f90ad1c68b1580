package linalg_test

import (
	"fmt"
	"testing"

	"github.com/fesd-go/fesd/nlp/linalg"
	"github.com/fesd-go/fesd/nlp/linalg/kktgen"
)

// The kktgen benchmark: OCP-shaped KKT of dimension 25N+16. The Go
// prototype of kktgen's package doc: 0.50 / 1.95 / 7.8 ms factorization at
// N = 200 / 800 / 3200 and 0.41 / 1.7 ms solve at N = 800 / 3200 with the
// stage order (target ≤ 2.5 ms at N = 800).
//
// newSolver builds the backend; report, if not nil, adds its metrics.
func benchKKT(b *testing.B, factor bool, newSolver func(linalg.Settings) (linalg.LinearSolver, error), report func(*testing.B, linalg.LinearSolver)) {
	for _, n := range []int{200, 800, 3200} {
		g, err := kktgen.New(n)
		if err != nil {
			b.Fatal(err)
		}
		for _, ord := range []linalg.Ordering{linalg.OrderGiven, linalg.OrderAMD} {
			set := linalg.Settings{Ordering: ord}
			if ord == linalg.OrderGiven {
				set.Perm = g.StagePerm
			}
			name := fmt.Sprintf("N=%d/%v", n, map[linalg.Ordering]string{linalg.OrderGiven: "stage", linalg.OrderAMD: "AMD"}[ord])
			b.Run(name, func(b *testing.B) {
				s, err := newSolver(set)
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Analyze(g.A); err != nil {
					b.Fatal(err)
				}
				if err := s.Factorize(g.A, g.Signs); err != nil {
					b.Fatal(err)
				}
				if in := s.Inertia(); in != g.Inertia {
					b.Fatalf("inertia %+v, want %+v", in, g.Inertia)
				}
				rhs := make([]float64, g.Dim)
				for i := range rhs {
					rhs[i] = float64(i%7) - 3
				}
				x := make([]float64, g.Dim)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if factor {
						if err := s.Factorize(g.A, g.Signs); err != nil {
							b.Fatal(err)
						}
					} else if err := s.Solve(x, rhs); err != nil {
						b.Fatal(err)
					}
				}
				if report != nil {
					report(b, s)
				}
			})
		}
	}
}

func newSparse(set linalg.Settings) (linalg.LinearSolver, error) { return linalg.NewSparse(set) }

func reportSparse(b *testing.B, s linalg.LinearSolver) {
	b.ReportMetric(float64(s.(*linalg.Sparse).Stats().NnzL), "nnzL")
}

func BenchmarkFactorizeKKT(b *testing.B) { benchKKT(b, true, newSparse, reportSparse) }
func BenchmarkSolveKKT(b *testing.B)     { benchKKT(b, false, newSparse, reportSparse) }

func BenchmarkAnalyzeKKT800(b *testing.B) { benchAnalyzeKKT800(b, newSparse) }

// benchAnalyzeKKT800 times Analyze (ordering and symbolic phase) at N = 800.
func benchAnalyzeKKT800(b *testing.B, newSolver func(linalg.Settings) (linalg.LinearSolver, error)) {
	g, _ := kktgen.New(800)
	for _, set := range []linalg.Settings{{Ordering: linalg.OrderGiven, Perm: g.StagePerm}, {}} {
		b.Run(set.Ordering.String(), func(b *testing.B) {
			s, _ := newSolver(set)
			for b.Loop() {
				if err := s.Analyze(g.A); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
