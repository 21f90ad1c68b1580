package adnlp_test

import (
	"fmt"
	"testing"

	"github.com/fesd-go/fesd/ad"
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
