package nlp_test

import (
	"context"
	"testing"

	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/testprob"
	"github.com/stretchr/testify/require"
)

// TestStructZeroDualSkipsSingularTrials: on the OCP NLPs of package
// testprob, AMD eliminates constraint rows before all their variables
// (bench/README), so every KKT factorization with δ_c = 0 meets exactly
// zero pivots. Skipping those factorizations (and the least-squares
// multipliers, which would fail on them) must leave the solve unchanged —
// the same iterates bit for bit — with fewer factorizations.
func TestStructZeroDualSkipsSingularTrials(t *testing.T) {
	for _, c := range []struct {
		name string
		opt  testprob.OCPOptions
	}{
		{"NLP", testprob.OCPOptions{N: 200}},
		{"relaxed MPCC", testprob.OCPOptions{N: 200, Complementarity: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			solve := func(skip bool) *nlp.Result {
				defer nlp.SkipStructZeroDual(skip)()
				p, err := testprob.NewOCP(c.opt)
				require.NoError(t, err)
				res, err := (&nlp.Solver{}).Solve(context.Background(), p)
				require.NoError(t, err)
				return res
			}
			old, res := solve(false), solve(true)
			require.Equal(t, old.Status, res.Status)
			require.Equal(t, old.Iterations, res.Iterations)
			require.Equal(t, old.X, res.X, "iterates differ")
			require.Equal(t, old.Y, res.Y)
			require.Equal(t, old.Counts.DeltaC, res.Counts.DeltaC)
			require.Equal(t, old.Degeneracy, res.Degeneracy)
			require.Less(t, res.Counts.Factorizations, old.Counts.Factorizations)
			t.Logf("%v in %d iterations, factorizations %d → %d",
				res.Status, res.Iterations, old.Counts.Factorizations, res.Counts.Factorizations)
		})
	}
}
