package fesd

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

const gBall = 9.81

// bouncingBall is the 1-D ball q = z of unit mass under gravity g on the
// ground z ≥ 0 with restitution e, frictionless (nosnoc's
// test/test_simple_cls.m, with e as a parameter).
func bouncingBall(t *testing.T, e float64) *dcs.CLS {
	t.Helper()
	g := ad.NewGraph()
	q, v := g.SymVec("z", 1), g.SymVec("v", 1)
	M, err := ad.NewMat(1, 1, g.Const(1))
	if err != nil {
		t.Fatal(err)
	}
	c, err := dcs.NewCLS(dcs.RigidBody{Graph: g, Q: q, V: v, M: M, FV: g.ConstVec(-gBall),
		Contacts: []dcs.Contact{{Gap: q[0], Restitution: e}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCLSBouncingBall: the ball from rest at height 1 with e = 0.9. Closed
// form (free fall z = 1 − g t²/2, Newton's law v⁺ = −e v⁻): the impacts at
// t_1 = √(2/g) and t_{k+1} = t_k + 2e^k √(2/g), the velocity e^{k−1}√(2g)
// before impact k and e^k √(2g) after it, and the apex height e^{2k}
// after impact k, checked as z + v²/(2g) at every element boundary of
// the flight after it (the energy of a flight is constant). The impacts
// of [0, 4] (six of them) are checked: the first four to 1e-9, the fifth
// and sixth to 3e-9 (the error of every step, about 1e-10, adds up: 1.2e-9
// and 1.6e-9 on the impact times).
func TestCLSBouncingBall(t *testing.T) {
	const e = 0.9
	r, err := SimulateCLS(context.Background(), bouncingBall(t, e), []float64{1, 0}, SimOptions{TSim: 4, NSim: 40})
	if err != nil {
		t.Fatal(err)
	}
	t1 := math.Sqrt(2 / gBall)
	v1 := math.Sqrt(2 * gBall)
	var times []float64
	for k, tk := 0, t1; tk < 4; k++ {
		times = append(times, tk)
		tk += 2 * math.Pow(e, float64(k+1)) * t1
	}
	if len(r.Impacts) != len(times) {
		for _, im := range r.Impacts {
			t.Logf("impact %+v", im)
		}
		t.Fatalf("%d impacts, want %d", len(r.Impacts), len(times))
	}
	worst := [3]float64{}
	for k, im := range r.Impacts {
		tol := 1e-9
		if k >= 4 {
			tol = 3e-9
		}
		ek := math.Pow(e, float64(k))
		errs := [3]float64{math.Abs(im.Time - times[k]), math.Abs(im.VnBefore + ek*v1), math.Abs(im.VnAfter - e*ek*v1)}
		for i, d := range errs {
			worst[i] = math.Max(worst[i], d)
			if d > tol {
				t.Errorf("impact %d: time %.15g (want %.15g), v⁻ %.15g (want %.15g), v⁺ %.15g (want %.15g)",
					k+1, im.Time, times[k], im.VnBefore, -ek*v1, im.VnAfter, e*ek*v1)
				break
			}
		}
	}
	// apex heights: z + v²/(2g) on the boundaries strictly between two impacts
	worstApex := 0.0
	for i, tb := range r.T {
		k := 0 // impacts before tb
		for k < len(times) && times[k] < tb-1e-6 {
			k++
		}
		if k == 0 || (k < len(times) && math.Abs(times[k]-tb) < 1e-6) {
			continue
		}
		x := r.X[i]
		apex := x[0] + x[1]*x[1]/(2*gBall)
		d := math.Abs(apex - math.Pow(e, float64(2*k)))
		worstApex = math.Max(worstApex, d)
		if d > 1e-9 {
			t.Errorf("t = %.6f: apex %.15g, want e^%d = %.15g", tb, apex, 2*k, math.Pow(e, float64(2*k)))
		}
	}
	its := 0
	for _, st := range r.Steps {
		its += st.Iterations
	}
	t.Logf("%d impacts; max errors: time %.1e, v⁻ %.1e, v⁺ %.1e, apex %.1e; %d steps, %.1f NLP iterations per step",
		len(r.Impacts), worst[0], worst[1], worst[2], worstApex, len(r.Steps), float64(its)/float64(len(r.Steps)))
}

// TestCLSBallInelastic: with e = 0 the ball lands at √(2/g) with the
// velocity −√(2g), one impulse √(2g) (unit mass) takes it to rest, and
// it stays on the ground: z = v = 0 at every later boundary.
func TestCLSBallInelastic(t *testing.T) {
	const tol = 1e-9
	r, err := SimulateCLS(context.Background(), bouncingBall(t, 0), []float64{1, 0}, SimOptions{TSim: 1, NSim: 10})
	if err != nil {
		t.Fatal(err)
	}
	t1, v1 := math.Sqrt(2/gBall), math.Sqrt(2*gBall)
	if len(r.Impacts) != 1 {
		t.Fatalf("impacts %+v, want one", r.Impacts)
	}
	im := r.Impacts[0]
	if math.Abs(im.Time-t1) > tol || math.Abs(im.VnBefore+v1) > tol || math.Abs(im.VnAfter) > tol || math.Abs(im.Impulse-v1) > tol {
		t.Errorf("impact %+v, want t = %.15g, v⁻ = %.15g, v⁺ = 0, Λ = %.15g", im, t1, -v1, v1)
	}
	for i, tb := range r.T {
		if tb > t1+1e-6 {
			if x := r.X[i]; math.Abs(x[0]) > tol || math.Abs(x[1]) > tol {
				t.Errorf("t = %.6f: x = %v, want at rest on the ground", tb, x)
			}
		}
	}
}
