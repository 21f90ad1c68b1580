package nlp

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fesd-go/fesd/nlp/hs"
)

// shifted starts an HS problem from a perturbed point.
type shifted struct {
	*hs.Problem
	x0 []float64
}

func (s shifted) Start(x []float64) { copy(x, s.x0) }

// TestPerturbedStarts runs every HS problem from random starting points
// with several settings: the solver must return (no panic, no hang) with a
// valid status. Success is logged, not required.
func TestPerturbedStarts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	settings := []Settings{
		{MaxIter: 300},
		{MaxIter: 300, MuStrategy: MuAdaptive, NoBoundRelax: true},
		{MaxIter: 300, MuStrategy: MuAdaptive, MuOracle: OracleProbing, tune: noScaling},
	}
	solved, runs := 0, 0
	statuses := map[Status]int{}
	for _, p := range HSSuite() {
		n, _ := p.Dims()
		x0 := make([]float64, n)
		for trial := range 3 {
			p.Start(x0)
			for j := range x0 {
				x0[j] += rng.NormFloat64() * (1 + math.Abs(x0[j]))
			}
			st := settings[trial%len(settings)]
			res, err := (&Solver{Settings: st}).Solve(context.Background(), shifted{p, x0})
			if err != nil {
				// NaN at a random start is a legitimate setup error.
				t.Logf("%s trial %d: %v", p.Name, trial, err)
				continue
			}
			runs++
			statuses[res.Status]++
			if res.Status.Success() {
				solved++
			} else {
				t.Logf("%s trial %d: %v after %d iterations (θ = %.3g), x0 = %v, x = %v", p.Name, trial, res.Status, res.Iterations, res.PrimalInfeasibility, x0, res.X)
			}
			if res.Status.String() == "" || len(res.X) != n {
				t.Errorf("%s: bad result", p.Name)
			}
		}
	}
	t.Logf("perturbed starts: %d of %d runs successful; statuses %v", solved, runs, statuses)
}
