package monopod

import (
	"fmt"
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// BenchmarkOCPBuild measures NewOCPSolver on the monopod OCP of 004 §7.2
// (the reformulation, the transcription, its derivatives and their
// compilation) at N = 30, 60, 90 in both DCS formulations.
func BenchmarkOCPBuild(b *testing.B) {
	for _, form := range []dcs.Formulation{dcs.Step, dcs.Stewart} {
		for _, n := range []int{30, 60, 90} {
			b.Run(fmt.Sprintf("%v/N=%d", form, n), func(b *testing.B) {
				m, err := New(form, 0)
				if err != nil {
					b.Fatal(err)
				}
				p, opts, err := m.OCP(PaperTask(n), Discretization{})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := fesd.NewOCPSolver(p, opts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
