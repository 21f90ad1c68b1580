package mpcc

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/nlp/testprob"
)

// TestFinishBranchChange: a branch change of the active-set finish frees
// the variables the LPEC or the multipliers point to and fixes their
// partners, and nothing else. On the Scholtes-relaxed OCP of nlp/testprob
// (4 Duffing oscillators, one contact pair s·λ per stage) the finish from
// σ = 1e-4 first certifies class W and then moves; with the old rule (fix
// every variable at its bound at the new point) each branch was more
// constrained than the last, its objective rose at every change and no
// branch certified, so the homotopy ran on to σ = 1e-9 and ended
// NotCertified (N = 200: 93 iterations, six W branches from 0.75283 up to
// 0.75498). Now the finish's objectives do not rise after the first branch,
// and it ends at an S-stationary point with complementarity 0 and the
// objective of the homotopy's limit (the reference: the same homotopy
// without a finish, run to σ = 1e-9), at σ = 1e-4 (measured: two branch
// changes, 30 + 17 iterations). Under -short N = 100, the same checks
// (measured: four branch changes, 26 + 31 iterations, 0.16 s instead of
// 0.42 s).
func TestFinishBranchChange(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 100
	}
	p, err := testprob.NewOCP(testprob.OCPOptions{N: n, Complementarity: true})
	if err != nil {
		t.Fatal(err)
	}
	var comp []Complementarity
	for _, pr := range p.Pairs() {
		comp = append(comp, Pair(pr[0], pr[1]))
	}
	mp := &Problem{NLP: p, Comp: comp}
	ref, err := (&Solver{Settings: Settings{Finish: NoCertificate}}).Solve(context.Background(), mp)
	if err != nil || ref.Status != Solved {
		t.Fatalf("N = %d, reference: %v %v", n, err, ref.Status)
	}
	res, err := (&Solver{}).Solve(context.Background(), mp)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Finish
	if f == nil || len(f.Solves) == 0 {
		t.Fatalf("N = %d: no finish record", n)
	}
	its := 0
	for _, st := range res.Steps {
		its += st.Iterations
	}
	t.Logf("N = %d: %v, class %v, σ = %g, %d branch changes, objective %.8f (reference %.8f), %d + %d iterations",
		n, res.Status, res.Stationarity, res.Sigma, f.BranchChanges, res.Objective, ref.Objective, its, res.FinishIterations)
	if res.Status != Solved || !res.Stationarity.B() || res.CompResidual != 0 {
		t.Errorf("N = %d: status %v, class %v, complementarity %g; want Solved, B-stationary, 0", n, res.Status, res.Stationarity, res.CompResidual)
	}
	if math.Abs(res.Objective-ref.Objective) > 1e-6*math.Max(1, math.Abs(ref.Objective)) {
		t.Errorf("N = %d: objective %.10f, the homotopy's limit %.10f", n, res.Objective, ref.Objective)
	}
	for k := 2; k < len(f.Solves); k++ {
		if a, b := f.Solves[k-1].Objective, f.Solves[k].Objective; b > a+1e-9*math.Max(1, math.Abs(a)) {
			t.Errorf("N = %d: branch %d objective %.8f above branch %d's %.8f", n, k, b, k-1, a)
		}
	}
}
