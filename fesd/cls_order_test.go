package fesd

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/rk"
)

// twoBalls is the system of the FESD-J paper's simulation study (§5.1,
// eqs. (34)–(37)): two unit masses at the heights q₁ < q₂ joined by a
// spring of stiffness 1e4 and rest length 1, the lower one bouncing on
// the ground with the gap q₁ − 0.2 and e = 0.8, under gravity g.
func twoBalls(t *testing.T) *dcs.CLS {
	t.Helper()
	g := ad.NewGraph()
	q, v := g.SymVec("q", 2), g.SymVec("v", 2)
	M, err := ad.NewMat(2, 2, g.Const(1), g.Const(0), g.Const(0), g.Const(1))
	if err != nil {
		t.Fatal(err)
	}
	spring := q[1].Sub(q[0]).Sub(g.Const(1)).Scale(1e4)
	c, err := dcs.NewCLS(dcs.RigidBody{Graph: g, Q: q, V: v, M: M,
		FV:       ad.Vec{g.Const(-gBall).Add(spring), g.Const(-gBall).Sub(spring)},
		Contacts: []dcs.Contact{{Gap: q[0].Sub(g.Const(0.2)), Restitution: 0.8}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCLSImpactNearStepStart: the step [0.40375, 0.405] of the two
// balls from x₀ = (1, 2, 0, 0) (the FESD-J paper's study with N_sim =
// 800), started from the exact state: until the first impact the spring
// keeps its rest length and both balls fall freely, q₁ = 1 − g t²/2, so
// the impact is at t₁ = √(1.6/g), 1.05e-4 s after the step's start
// where the gap is still 4.2e-4. Every Runge–Kutta scheme of order ≥ 2
// integrates the free fall exactly, so the element boundary must be at
// t₁ to rounding (1e-13), the gap there zero (1e-13) and the impulse
// 1.8·√(1.6 g) (Newton's law with e = 0.8) to 1e-9. With mpcc's default
// activity tolerance the finish fixed the gaps below 3.2e-4, the start
// gap among them, every branch NLP was infeasible, and the step kept the
// homotopy's point: the impact 1.4e-11 s early with a gap of 5.6e-11
// (CLSActiveTol).
func TestCLSImpactNearStepStart(t *testing.T) {
	c := twoBalls(t)
	t1 := math.Sqrt(1.6 / gBall)
	const t0, T = 0.40375, 1.0 / 800
	fall := 1 - gBall*t0*t0/2
	x0 := []float64{fall, fall + 1, -gBall * t0, -gBall * t0}
	for _, o := range []Options{{}, {Stages: 3}, {Scheme: rk.FamilyGaussLegendre}, {Scheme: rk.FamilyGaussLegendre, Stages: 3}} {
		cs, err := NewCLSSimulator(c, o, T)
		if err != nil {
			t.Fatal(err)
		}
		st, err := cs.Step(context.Background(), t0, x0, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		lam := 1.8 * math.Sqrt(1.6*gBall)
		dt, gap, dl := st.T[1]-t1, st.X[1][0]-0.2, st.Impulse[1][0]-lam
		t.Logf("%v n_s=%d: boundary − t₁ = %.2g, gap %.2g, impulse − 1.8√(1.6g) = %.2g, %d homotopy steps, %d iterations",
			cs.o.Scheme, cs.o.Stages, dt, gap, dl, len(st.Record.Homotopy), st.Record.Iterations)
		if math.Abs(dt) > 1e-13 || math.Abs(gap) > 1e-13 || math.Abs(dl) > 1e-9 {
			t.Errorf("%v n_s=%d: boundary %.17g (t₁ = %.17g), gap %.3g, impulse %.15g (want %.15g)",
				cs.o.Scheme, cs.o.Stages, st.T[1], t1, gap, st.Impulse[1][0], lam)
		}
	}
}
