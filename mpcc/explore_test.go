package mpcc_test

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/mpcc/macmpec"
)

// TestExplore: Settings.Explore on two MacMPEC bilevel programs whose
// homotopy ends at a local solution. ex9.2.5: the lower level
// min (y − 5)² over y ≤ 1 + 2x, y ≥ (x − 2)/2, y ≤ (14 − x)/2 gives
// y = min(5, 1 + 2x, (14 − x)/2), and f = (x − 3)² + (y − 2)² has the
// local minimizer (3, 5) with f = 9 and the optimum (1, 3) with f = 5 on
// the branch y = 1 + 2x (closed form). bilevel1: the local solution
// x = (25, 30), y = (5, 10) with f = 5 and the optimum 0 at x = (0, 0),
// y = (−10, −10) (MacMPEC's table). Without Explore the finish certifies
// the local solution; with it one switched pair reaches the optimum,
// certified S-stationary with exact complementarity.
func TestExplore(t *testing.T) {
	for _, c := range []struct {
		name         string
		local, best  float64
		maxExplored  int
		improvements int
	}{
		{"ex9.2.5", 9, 5, 8, 1},
		{"bilevel1", 5, 0, 20, 1},
	} {
		p, err := macmpec.ByName(c.name)
		if err != nil {
			t.Fatal(err)
		}
		for _, explore := range []bool{false, true} {
			mp, err := p.New()
			if err != nil {
				t.Fatal(err)
			}
			res, err := (&mpcc.Solver{Settings: mpcc.Settings{Explore: explore}}).Solve(context.Background(), mp)
			if err != nil {
				t.Fatal(err)
			}
			want := c.local
			if explore {
				want = c.best
			}
			fin := res.Finish
			if res.Status != mpcc.Solved || !res.Stationarity.B() || res.CompResidual != 0 ||
				math.Abs(p.Value(res.Objective)-want) > 1e-7 || fin == nil || !fin.Accepted {
				t.Errorf("%s, explore %v: %v, f = %.10g (want %g), class %v, comp %g", c.name, explore,
					res.Status, p.Value(res.Objective), want, res.Stationarity, res.CompResidual)
				continue
			}
			switch {
			case !explore && (fin.Explored != 0 || fin.Improvements != 0):
				t.Errorf("%s: explored %d without Explore", c.name, fin.Explored)
			case explore && (fin.Improvements != c.improvements || fin.Explored == 0 || fin.Explored > c.maxExplored):
				t.Errorf("%s: %d branches explored, %d improvements", c.name, fin.Explored, fin.Improvements)
			}
			t.Logf("%s, explore %v: f = %g, %d branches explored, %d improvements, %d finish iterations",
				c.name, explore, p.Value(res.Objective), fin.Explored, fin.Improvements, fin.Iterations())
		}
	}
}
