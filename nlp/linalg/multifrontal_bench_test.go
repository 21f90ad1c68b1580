package linalg_test

import (
	"fmt"
	"testing"

	"github.com/fesd-go/fesd/nlp/linalg"
	"github.com/fesd-go/fesd/nlp/linalg/kktgen"
)

// benchMultifrontalKKT is benchKKT for Multifrontal: the solver.md §6.3
// OCP-shaped KKT of dimension 25N+16 (quasi-definite, so no delays are
// expected), stage order and AMD. Compare with BenchmarkFactorizeKKT and
// BenchmarkSolveKKT (Sparse).
func benchMultifrontalKKT(b *testing.B, factor bool) {
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
				s, err := linalg.NewMultifrontal(set)
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
				st := s.Stats()
				b.ReportMetric(float64(st.NnzL), "nnzL")
				b.ReportMetric(float64(st.Fronts), "fronts")
				b.ReportMetric(float64(st.MaxFront), "maxfront")
				b.ReportMetric(float64(st.Delayed), "delayed")
			})
		}
	}
}

func BenchmarkMultifrontalKKT(b *testing.B)      { benchMultifrontalKKT(b, true) }
func BenchmarkMultifrontalSolveKKT(b *testing.B) { benchMultifrontalKKT(b, false) }

func BenchmarkMultifrontalAnalyzeKKT800(b *testing.B) {
	g, _ := kktgen.New(800)
	for _, set := range []linalg.Settings{{Ordering: linalg.OrderGiven, Perm: g.StagePerm}, {}} {
		b.Run(set.Ordering.String(), func(b *testing.B) {
			s, _ := linalg.NewMultifrontal(set)
			for b.Loop() {
				if err := s.Analyze(g.A); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
