package fesd

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/rk"
)

func TestExplore(t *testing.T) {
	if os.Getenv("FESD_EXPLORE") == "" {
		t.Skip()
	}
	for _, c := range tutorialCases() {
		for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
			for _, fam := range []rk.Family{rk.FamilyRadauIIA, rk.FamilyGaussLegendre} {
				for ns := 1; ns <= 3; ns++ {
					for _, cc := range CrossComps() {
						o := Options{Scheme: fam, Stages: ns, NFE: c.nfe, CrossComp: cc, DCS: dcs.Options{Formulation: f}}
						r, err := Simulate(context.Background(), c.model(), []float64{c.x0}, SimOptions{TSim: c.tsim, NSim: c.nsim, Options: o})
						it := 0
						for _, s := range r.Steps {
							it += s.Iterations
						}
						ts := math.NaN()
						kind := ""
						for _, s := range r.Switches {
							ts = s.Time
							kind += s.Kind.String() + ";"
						}
						xe := math.NaN()
						if err == nil {
							xe = r.Final()[0] - c.xT(c.tsim)
						}
						fmt.Printf("%-20s %-7v %-14v ns=%d %-11v xerr=%9.2e terr=%9.2e it=%4d %s err=%v\n", c.name, f, fam, ns, cc, xe, ts-c.ts, it, kind, err)
					}
				}
			}
		}
	}
}
