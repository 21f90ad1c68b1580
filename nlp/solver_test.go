package nlp

import (
	"context"
	"math"
	"os"
	"testing"
)

func TestHS071(t *testing.T) {
	for _, kind := range []LinearSolverKind{SparseLDL, DenseLDL, PivotingLDL} {
		for _, ms := range []MuStrategy{MuMonotone, MuAdaptive} {
			s := Solver{Settings: Settings{LinearSolver: kind, MuStrategy: ms}}
			if testing.Verbose() {
				s.Settings.Log = os.Stdout
			}
			res, err := s.Solve(context.Background(), hs071{})
			if err != nil {
				t.Fatal(err)
			}
			// f* = 17.0140173 (Hock & Schittkowski 1981, problem 71).
			const fstar = 17.0140173
			if res.Status != Solved || math.Abs(res.Objective-fstar) > 1e-6*fstar {
				t.Errorf("%v/%v: status %v, f = %.10g, want %.10g", kind, ms, res.Status, res.Objective, fstar)
			}
			t.Logf("%v/%v: %d iterations, x = %v, y = %v", kind, ms, res.Iterations, res.X, res.Y)
		}
	}
}
