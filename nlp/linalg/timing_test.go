package linalg_test

import (
	"os"
	"testing"
	"time"

	"github.com/fesd-go/fesd/nlp/linalg"
	"github.com/fesd-go/fesd/nlp/linalg/kktgen"
)

// TestTimingKKT reports the minimum time over repeated factorizations and
// solves of the kktgen KKT (as for the reference timings in kktgen's package
// doc: minimum over repeated numeric factorizations after one symbolic
// phase). It is skipped unless
// LINALG_TIMING=1, as timings are machine dependent; it asserts nothing.
func TestTimingKKT(t *testing.T) {
	if os.Getenv("LINALG_TIMING") == "" {
		t.Skip("set LINALG_TIMING=1")
	}
	for _, n := range []int{200, 800, 3200} {
		g, err := kktgen.New(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, set := range []linalg.Settings{{Ordering: linalg.OrderGiven, Perm: g.StagePerm}, {Ordering: linalg.OrderAMD}} {
			s, _ := linalg.NewSparse(set)
			t0 := time.Now()
			if err := s.Analyze(g.A); err != nil {
				t.Fatal(err)
			}
			ta := time.Since(t0)
			rep := 30
			if n == 3200 {
				rep = 15
			}
			fmin, smin := time.Hour, time.Hour
			x := make([]float64, g.Dim)
			b := make([]float64, g.Dim)
			for i := range b {
				b[i] = float64(i%7) - 3
			}
			for range rep {
				t0 = time.Now()
				if err := s.Factorize(g.A, g.Signs); err != nil {
					t.Fatal(err)
				}
				fmin = min(fmin, time.Since(t0))
				t0 = time.Now()
				if err := s.Solve(x, b); err != nil {
					t.Fatal(err)
				}
				smin = min(smin, time.Since(t0))
			}
			st := s.Stats()
			t.Logf("N=%4d dim=%6d %-5v nnz(L)=%7d flops=%.3g analyze=%6.2fms factor=%6.3fms solve=%6.3fms inertia=%+v",
				n, g.Dim, st.Ordering, st.NnzL, st.Flops, ta.Seconds()*1e3, fmin.Seconds()*1e3, smin.Seconds()*1e3, s.Inertia())
		}
	}
}
