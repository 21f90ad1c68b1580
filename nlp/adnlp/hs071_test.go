package adnlp_test

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/adnlp"
)

// hs071 is Hock–Schittkowski problem 71 (Hock, Schittkowski 1981, p. 92):
//
//	min x₁x₄(x₁+x₂+x₃) + x₃  s.t.  x₁x₂x₃x₄ ≥ 25,  Σxᵢ² = 40,  1 ≤ x ≤ 5,
//
// started at (1, 5, 5, 1); f* = 17.0140173 at
// x* = (1, 4.7429994, 3.8211503, 1.3794082).
func hs071(t testing.TB) *adnlp.Problem {
	t.Helper()
	g := ad.NewGraph()
	x := g.SymVec("x", 4)
	f := x[0].Mul(x[3]).Mul(ad.Sum(x[:3])).Add(x[2])
	c1 := x[0].Mul(x[1]).Mul(x[2]).Mul(x[3])
	c2 := ad.Sum(x.Map(ad.Sq))
	p, err := adnlp.New(adnlp.Spec{
		X:  x,
		XL: []float64{1, 1, 1, 1}, XU: []float64{5, 5, 5, 5},
		X0: []float64{1, 5, 5, 1},
		F:  f,
		G:  ad.Vec{c1, c2},
		GL: []float64{25, 40}, GU: []float64{math.Inf(1), 40},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHS071(t *testing.T) {
	const (
		fStar = 17.0140173 // Hock, Schittkowski 1981, #71
		tol   = 1e-6       // relative, on f and x
	)
	xStar := []float64{1, 4.7429994, 3.8211503, 1.3794082} // ibid., 7 digits
	for _, kind := range []nlp.LinearSolverKind{nlp.SparseLDL, nlp.DenseLDL} {
		p := hs071(t)
		s := nlp.Solver{Settings: nlp.Settings{LinearSolver: kind}}
		res, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != nlp.Solved {
			t.Fatalf("%v: status %v", kind, res.Status)
		}
		if d := math.Abs(res.Objective-fStar) / fStar; d > tol {
			t.Errorf("%v: f = %.10g, want %.10g (rel. error %.2g)", kind, res.Objective, fStar, d)
		}
		for j, xs := range xStar {
			if d := math.Abs(res.X[j]-xs) / xs; d > tol {
				t.Errorf("%v: x[%d] = %.10g, want %.10g", kind, j, res.X[j], xs)
			}
		}
	}
}
