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

func exactTraj(c scalar, t float64) float64 {
	switch c.name {
	case "simple switch":
		if t < 1.0/3 {
			return -1 + 3*t
		}
		return t - 1.0/3
	case "sliding":
		return math.Min(-1+3*t, 0)
	case "sliding from -sqrt2":
		return math.Min(-math.Sqrt2+t, 0)
	case "leaving sliding":
		if t < 1 {
			return 0
		}
		return (t - 1) * (t - 1) / 2
	}
	return math.NaN()
}

func TestExploreOff(t *testing.T) {
	if os.Getenv("FESD_EXPLORE") == "" {
		t.Skip()
	}
	for _, c := range tutorialCases() {
		for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
			for _, fam := range []rk.Family{rk.FamilyRadauIIA, rk.FamilyGaussLegendre} {
				for ns := 1; ns <= 3; ns++ {
					o := Options{Scheme: fam, Stages: ns, NFE: c.nfe, DisableFESD: true, DCS: dcs.Options{Formulation: f}}
					r, err := Simulate(context.Background(), c.model(), []float64{c.x0}, SimOptions{TSim: c.tsim, NSim: c.nsim, Options: o})
					xe := math.NaN()
					me := 0.0
					if err == nil {
						xe = r.Final()[0] - c.xT(c.tsim)
						for i, tt := range r.T {
							me = math.Max(me, math.Abs(r.X[i][0]-exactTraj(c, tt)))
						}
					}
					fmt.Printf("%-20s %-7v %-14v ns=%d xerr=%9.2e maxerr=%9.2e sw=%d err=%v\n", c.name, f, fam, ns, xe, me, len(r.Switches), err)
				}
			}
		}
	}
}
