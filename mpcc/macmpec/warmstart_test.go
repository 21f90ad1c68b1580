package macmpec_test

import (
	"context"
	"testing"

	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/mpcc/macmpec"
)

// TestWarmStartPush: mpcc.DefaultNLPSettings warm-starts the relaxed NLPs
// with a bound and multiplier push of 1e-6, not IPOPT's 1e-3 (nlp's
// default), which moves a variable at 0 of a complementarity pair to 1e-3
// and so re-centres the iterate away from a relaxed point with σ < 1e-3.
// On the MacMPEC set, the σ = 1e-4 relaxed NLP re-solved from its own
// solution's primal-dual point (mpcc.Solver.SolveFrom) stays solved with
// either push and takes fewer iterations in all with the default
// (measured: 121 against 198 over the 89 problems).
func TestWarmStartPush(t *testing.T) {
	ctx := context.Background()
	set := mpcc.Settings{Sigma0: 1e-4, MaxSteps: 1, Finish: mpcc.NoCertificate}
	total := map[float64]int{}
	solved := 0
	for _, p := range macmpec.All() {
		mp, err := p.New()
		if err != nil {
			t.Fatal(err)
		}
		cold, err := (&mpcc.Solver{Settings: set}).Solve(ctx, mp)
		if err != nil {
			t.Fatal(err)
		}
		if cold.Point == nil || !cold.Steps[0].Status.Success() {
			continue
		}
		solved++
		for _, push := range []float64{0, 1e-3} {
			ns := mpcc.DefaultNLPSettings()
			if push > 0 {
				ns.WarmStartBoundPush, ns.WarmStartMultPush = push, push
			}
			r, err := (&mpcc.Solver{Settings: set, Inner: &mpcc.NLPSolver{Settings: ns}}).SolveFrom(ctx, mp, cold.Point)
			if err != nil {
				t.Fatal(err)
			}
			if st := r.Steps[0].Status; !st.Success() {
				t.Errorf("%s, push %g: the re-solve ended %v", p.Name, push, st)
			}
			total[push] += r.Steps[0].Iterations
		}
	}
	t.Logf("%d problems: %d iterations with the default push, %d with 1e-3", solved, total[0], total[1e-3])
	if solved < len(macmpec.All())*9/10 || total[0] >= total[1e-3] {
		t.Errorf("%d of %d problems solved cold; re-solves %d iterations with the default push, %d with 1e-3",
			solved, len(macmpec.All()), total[0], total[1e-3])
	}
}
