package fesd

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// ballSaltation is the closed form of ∂(z, v)(T)/∂(z₀, v₀) of the ball
// (unit mass, gravity g) from (z₀, v₀) with one impact at t_s before T:
// t_s = (v₀ + w)/g with w = √(v₀² + 2g z₀) the impact speed, and
//
//	D = Φ(T − t_s) S Φ(t_s),  Φ(τ) = [1 τ; 0 1],
//	S = [−e 0; (1 + e)g/w −e],
//
// S the saltation matrix of the impact with Newton's law v⁺ = −e v⁻
// (reset R(z, v) = (z, −ev), S = R_x + (f⁺ − R_x f⁻)∇ψᵀ/(∇ψ·f⁻) with
// ψ = z, f^∓ = (v^∓, −g)). For e = 0 the ball rests after the impact:
// with the field of the persistent contact, f⁺ = 0, and R_x = diag(1, 0)
// the saltation is S = 0, and D = 0.
func ballSaltation(e, z0, v0, T float64) [2][2]float64 {
	if e == 0 {
		return [2][2]float64{}
	}
	w := math.Sqrt(v0*v0 + 2*gBall*z0)
	ts := (v0 + w) / gBall
	mul := func(a, b [2][2]float64) [2][2]float64 {
		var c [2][2]float64
		for i := 0; i < 2; i++ {
			for j := 0; j < 2; j++ {
				c[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j]
			}
		}
		return c
	}
	phi := func(t float64) [2][2]float64 { return [2][2]float64{{1, t}, {0, 1}} }
	S := [2][2]float64{{-e, 0}, {(1 + e) * gBall / w, -e}}
	return mul(phi(T-ts), mul(S, phi(ts)))
}

// TestCLSSensBall: the ball dropped from rest at height 1 (e = 0, 0.5,
// 0.9), simulated over [0, 0.7] in 7 steps: one impact, at √(2/g) =
// 0.4515 inside the fifth step. ∂(z, v)(0.7)/∂(z₀, v₀) against the
// saltation closed form ballSaltation, to 1e-9 (measured: 2.0e-14; FESD-J
// integrates the free flight exactly and puts the impact on an element
// boundary, so the branch's derivative is exact up to rounding).
func TestCLSSensBall(t *testing.T) {
	for _, e := range []float64{0, 0.5, 0.9} {
		r, err := SimulateCLS(context.Background(), bouncingBall(t, e), []float64{1, 0}, SimOptions{TSim: 0.7, NSim: 7, Sensitivity: true})
		if err != nil {
			t.Fatalf("e = %g: %v", e, err)
		}
		if len(r.Impacts()) != 1 || r.SensitivityOnContact != nil {
			t.Fatalf("e = %g: impacts %+v, on contact %v; want one impact, none", e, r.Impacts(), r.SensitivityOnContact)
		}
		want := ballSaltation(e, 1, 0, 0.7)
		worst := 0.0
		for i := 0; i < 2; i++ {
			for j := 0; j < 2; j++ {
				worst = math.Max(worst, math.Abs(r.Sensitivity.DX0[i][j]-want[i][j]))
			}
		}
		if worst > 1e-9 {
			t.Errorf("e = %g: ∂x(T)/∂x₀ = %v, want %v (error %.1e)", e, r.Sensitivity.DX0, want, worst)
		}
		t.Logf("e = %g: ∂x(T)/∂x₀ = %.6g, error %.1e", e, r.Sensitivity.DX0, worst)
	}
}

// maxErr returns the largest |a − b| over the entries of two matrices
// (b with a's shape).
func maxErr(a, b [][]float64) float64 {
	m := 0.0
	for i := range a {
		for j := range a[i] {
			m = math.Max(m, math.Abs(a[i][j]-b[i][j]))
		}
	}
	return m
}

// TestCLSSensBlockOnGround: the block of pushedBlock (unit mass, μ = 0.3,
// e = 0) on the ground with the horizontal speed v₀ = 1 and the force
// u = (u_x, u_z) = 0, sliding with the deceleration d = μ(g − u_z) − u_x
// until t_s = v₀/d = 0.3398, over [0, 0.3] (before the stop) and [0, 0.6]
// (after it). Closed form, x(T) = x₀ + v₀T − dT²/2 and v_x = v₀ − dT
// before, x₀ + v₀²/(2d) and 0 after: the directions along the contact
// (δx₀, δv_x0) give ∂(x, v_x)/∂(x₀, v_x0) = [1 T; 0 1] before and
// [1 v₀/d; 0 0] after; the contact is closed at x₀, so Sensitivity.DX0
// is zero in the columns of z₀ and v_z0 (the projector Π removes them)
// and in the rows of z and v_z (the block stays on the ground); and
// ∂(x, v_x)/∂(u_x, u_z) = [T²/2 μT²/2; T μT] before, [v₀²/(2d²)
// μv₀²/(2d²); 0 0] after. All to 1e-9 (measured: 3.9e-13).
func TestCLSSensBlockOnGround(t *testing.T) {
	const mu, v0 = 0.3, 1.0
	d := mu * gBall
	for _, T := range []float64{0.3, 0.6} {
		r, err := SimulateCLS(context.Background(), pushedBlock(t, mu), []float64{0, 0, v0, 0},
			SimOptions{TSim: T, NSim: int(math.Round(T / 0.1)), U: []float64{0, 0}, Sensitivity: true})
		if err != nil {
			t.Fatalf("T = %g: %v", T, err)
		}
		wantX := [][]float64{{1, 0, T, 0}, {0, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 0}}
		wantU := [][]float64{{T * T / 2, mu * T * T / 2}, {0, 0}, {T, mu * T}, {0, 0}}
		if T > v0/d {
			wantX = [][]float64{{1, 0, v0 / d, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}
			wantU = [][]float64{{v0 * v0 / (2 * d * d), mu * v0 * v0 / (2 * d * d)}, {0, 0}, {0, 0}, {0, 0}}
		}
		if len(r.SensitivityOnContact) != 1 || r.SensitivityOnContact[0] != 0 {
			t.Errorf("T = %g: on contact %v, want [0]", T, r.SensitivityOnContact)
		}
		ex, eu := maxErr(r.Sensitivity.DX0, wantX), maxErr(r.Sensitivity.DU, wantU)
		if ex > 1e-9 || eu > 1e-9 {
			t.Errorf("T = %g: ∂x/∂x₀ = %v, want %v (error %.1e); ∂x/∂u = %v, want %v (error %.1e)", T, r.Sensitivity.DX0, wantX, ex, r.Sensitivity.DU, wantU, eu)
		}
		t.Logf("T = %g: errors ∂x/∂x₀ %.1e, ∂x/∂u %.1e", T, ex, eu)
	}
}

// landingBlock is the closed form of slidingBlock (unit mass, e = 0,
// friction μ) from x₀ = (x, z, v_x, v_z) in the air with v_x > μW: it
// lands at t₁ = (v_z + W)/g with the normal speed W = √(v_z² + 2gz), where
// the normal impulse W and the tangential one −μW leave v₁ = v_x − μW; it
// then slides with the deceleration μg and stops at t₁ + v₁/(μg). It
// returns x(T) for T > t₁ and its derivative D = ∂x(T)/∂x₀, by hand:
// ∂W = (g δz + v_z δv_z)/W, ∂t₁ = (δv_z + ∂W)/g, ∂v₁ = δv_x − μ∂W, and
// with τ = T − t₁ before the stop x = x + v_x t₁ + v₁τ − μgτ²/2,
// v_x = v₁ − μgτ; after it x = x + v_x t₁ + v₁²/(2μg), v_x = 0; z = v_z = 0.
func landingBlock(mu float64, x0 []float64, T float64) (x []float64, D [][]float64) {
	g := gBall
	W := math.Sqrt(x0[3]*x0[3] + 2*g*x0[1])
	t1 := (x0[3] + W) / g
	v1 := x0[2] - mu*W
	ts := t1 + v1/(mu*g)
	// derivatives of W, t₁, v₁ with respect to x₀
	dW := []float64{0, g / W, 0, x0[3] / W}
	dt1 := []float64{0, dW[1] / g, 0, (1 + dW[3]) / g}
	dv1 := []float64{0, -mu * dW[1], 1, -mu * dW[3]}
	D = zeros(4, 4)
	if T < ts {
		tau := T - t1
		x = []float64{x0[0] + x0[2]*t1 + v1*tau - mu*g*tau*tau/2, 0, v1 - mu*g*tau, 0}
		for j := 0; j < 4; j++ {
			dx0, dvx := 0.0, 0.0
			if j == 0 {
				dx0 = 1
			}
			if j == 2 {
				dvx = 1
			}
			// ∂τ = −∂t₁
			D[0][j] = dx0 + dvx*t1 + x0[2]*dt1[j] + dv1[j]*tau - (v1-mu*g*tau)*dt1[j]
			D[2][j] = dv1[j] + mu*g*dt1[j]
		}
		return x, D
	}
	x = []float64{x0[0] + x0[2]*t1 + v1*v1/(2*mu*g), 0, 0, 0}
	for j := 0; j < 4; j++ {
		dx0, dvx := 0.0, 0.0
		if j == 0 {
			dx0 = 1
		}
		if j == 2 {
			dvx = 1
		}
		D[0][j] = dx0 + dvx*t1 + x0[2]*dt1[j] + v1*dv1[j]/(mu*g)
	}
	return x, D
}

// TestCLSSensBlockLanding: the block of TestCLSSlidingBlock (μ = 0.3,
// e = 0, from x₀ = (0, 1, 3, 0)) lands at 0.4515 with a frictional
// impulse, slides, and stops at 1.0192; ∂x(T)/∂x₀ over [0, 0.8] (before
// the stop) and [0, 1.5] (after it), all 16 entries, against the closed
// form landingBlock to 1e-9 (measured: 1e-13). The hand derivative of
// landingBlock is checked first against central differences of its own
// x(T) (step 1e-6, to 1e-6).
func TestCLSSensBlockLanding(t *testing.T) {
	const mu = 0.3
	x0 := []float64{0, 1, 3, 0}
	for _, T := range []float64{0.8, 1.5} {
		if testing.Short() && T != 1.5 {
			continue // -short: landing and stop
		}
		_, want := landingBlock(mu, x0, T)
		for j := 0; j < 4; j++ {
			xp, xm := clone(x0), clone(x0)
			xp[j] += 1e-6
			xm[j] -= 1e-6
			fp, _ := landingBlock(mu, xp, T)
			fm, _ := landingBlock(mu, xm, T)
			for i := 0; i < 4; i++ {
				if fd := (fp[i] - fm[i]) / 2e-6; math.Abs(fd-want[i][j]) > 1e-6 {
					t.Fatalf("T = %g: closed form ∂x_%d/∂x₀_%d = %g, central difference %g", T, i, j, want[i][j], fd)
				}
			}
		}
		r, err := SimulateCLS(context.Background(), slidingBlock(t, mu), x0, SimOptions{TSim: T, NSim: int(math.Round(T / 0.1)), Sensitivity: true})
		if err != nil {
			t.Fatalf("T = %g: %v", T, err)
		}
		if r.SensitivityOnContact != nil {
			t.Errorf("T = %g: on contact %v, want none", T, r.SensitivityOnContact)
		}
		e := maxErr(r.Sensitivity.DX0, want)
		if e > 1e-9 {
			t.Errorf("T = %g: ∂x/∂x₀ = %v, want %v (error %.1e)", T, r.Sensitivity.DX0, want, e)
		}
		t.Logf("T = %g: ∂x/∂x₀ error %.1e; ∂x/∂x₀ = %.6g", T, e, r.Sensitivity.DX0)
	}
}

// bouncingBlock is slidingBlock with the restitution e and the gravity
// as the parameter p = (g).
func bouncingBlock(t *testing.T, e, mu float64) *dcs.CLS {
	t.Helper()
	g := ad.NewGraph()
	q, v, p := g.SymVec("q", 2), g.SymVec("v", 2), g.SymVec("g", 1)
	M, err := ad.NewMat(2, 2, g.Const(1), g.Const(0), g.Const(0), g.Const(1))
	if err != nil {
		t.Fatal(err)
	}
	c, err := dcs.NewCLS(dcs.RigidBody{Graph: g, Q: q, V: v, P: p, M: M, FV: ad.Vec{g.Const(0), p[0].Neg()},
		Contacts: []dcs.Contact{{Gap: q[1], TangentPos: q[0], Mu: mu, Restitution: e}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCLSSensTwoImpacts: bouncingBlock (e = 0.5, μ = 0.2, g = 9.81) from
// (0, 1, 3, 0) over [0, 1.05] in 10 steps: two impacts with frictional
// impulses (at 0.4515 and 0.9031), sliding after each. ∂x(T)/∂x₀ and
// ∂x(T)/∂g against central differences of SimulateCLS (step 1e-5; the
// difference's truncation error is O(1e-10), its rounding 1e-13/1e-5):
// to 1e-6 (measured: 3.0e-10). Under -short ∂x(T)/∂g only
// (TestCLSSensBlockLanding checks ∂x/∂x₀ through a frictional impact
// against its closed form).
func TestCLSSensTwoImpacts(t *testing.T) {
	const e, mu = 0.5, 0.2
	c := bouncingBlock(t, e, mu)
	x0, p := []float64{0, 1, 3, 0}, []float64{gBall}
	opts := SimOptions{TSim: 1.05, NSim: 10, P: p}
	sens := opts
	sens.Sensitivity = true
	r, err := SimulateCLS(context.Background(), c, x0, sens)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Impacts()) != 2 {
		t.Fatalf("impacts %+v, want two", r.Impacts())
	}
	end := func(x0, p []float64) []float64 {
		o := opts
		o.P = p
		r, err := SimulateCLS(context.Background(), c, x0, o)
		if err != nil {
			t.Fatal(err)
		}
		return r.X[len(r.X)-1]
	}
	const h = 1e-5
	worst := 0.0
	for j := 0; j < 5; j++ {
		if testing.Short() && j != 4 {
			continue // -short: the direction g
		}
		xp, xm, pp, pm := clone(x0), clone(x0), clone(p), clone(p)
		if j < 4 {
			xp[j] += h
			xm[j] -= h
		} else {
			pp[0] += h
			pm[0] -= h
		}
		fp, fm := end(xp, pp), end(xm, pm)
		for i := 0; i < 4; i++ {
			got := r.Sensitivity.DP[i][0]
			if j < 4 {
				got = r.Sensitivity.DX0[i][j]
			}
			fd := (fp[i] - fm[i]) / (2 * h)
			worst = math.Max(worst, math.Abs(got-fd))
			if math.Abs(got-fd) > 1e-6 {
				t.Errorf("∂x_%d/∂q_%d = %.12g, central difference %.12g", i, j, got, fd)
			}
		}
	}
	t.Logf("largest difference %.1e; ∂x/∂x₀ = %.6g, ∂x/∂g = %.6g", worst, r.Sensitivity.DX0, r.Sensitivity.DP)
}

// clockBlock is slidingBlock with a third coordinate s, free of forces
// and contacts (from v_s = 1 it is the time), and the force
// (k_x s, k_z s) on the block.
func clockBlock(t *testing.T, mu, kx, kz float64) *dcs.CLS {
	t.Helper()
	g := ad.NewGraph()
	q, v := g.SymVec("q", 3), g.SymVec("v", 3)
	one, zero := g.Const(1), g.Const(0)
	M, err := ad.NewMat(3, 3, one, zero, zero, zero, one, zero, zero, zero, one)
	if err != nil {
		t.Fatal(err)
	}
	c, err := dcs.NewCLS(dcs.RigidBody{Graph: g, Q: q, V: v, M: M,
		FV:       ad.Vec{q[2].Scale(kx), q[2].Scale(kz).AddConst(-gBall), zero},
		Contacts: []dcs.Contact{{Gap: q[1], TangentPos: q[0], Mu: mu}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// ceilingBall is the ball under gravity below a ceiling at height 1
// (gap 1 − z) with restitution e.
func ceilingBall(t *testing.T, e float64) *dcs.CLS {
	t.Helper()
	return ball1D(t, e, false, func(z ad.Expr) ad.Expr { return z.Neg().AddConst(1) })
}

// TestCLSSensRefused: where the flow has no derivative, or FESD-J's
// branch does not determine it, SimulateCLS returns the trajectory
// without Sensitivity and an error wrapping ErrSensitivity:
//   - the ball's impact exactly on a step boundary (dropped from
//     g·0.5²/2, impact at 0.5, steps of 0.1);
//   - an impact pending at the end time (TSim = √(2/g));
//   - x₀ on the ground approaching it (an impact at T0);
//   - a grazing contact: thrown up from z = 0 with √(2g) below a ceiling
//     at 1, its apex touches it at √(2/g) = 0.4515, inside a step (an
//     element may end on it with a small impulse, J_nᵀv⁻ = −3e-5: the
//     refusal then names the depth of the turn without it);
//   - the Zeno tail of the ball dropped from 0.01 with e = 0.5
//     (accumulation at t* = 0.135);
//   - a lift-off inside a step: clockBlock on the ground with the upward
//     force g s/0.43 (lift-off at 0.43);
//   - a stick-to-slip transition inside a step: clockBlock at rest with
//     the horizontal force μg s/0.43 (μ = 0.3, slip at 0.43);
//   - a reversal of the sliding direction: pushedBlock (μ = 0.3) on the
//     ground with v_x0 = −1 and the force 2μg, which turns at
//     t_r = 1/(3μg) = 0.1133 and slides on. Closed form ∂v_x(T)/∂v_x0 =
//     1/3 (the ratio of the decelerations), where the branch gives 1.0
//     (measured with the refusal switched off);
//   - a frictional impact at the stick–slip limit: slidingBlock (μ = 0.3)
//     landing with v_x = μ√(2g), which the impulse stops exactly.
//
// Under -short every other case.
func TestCLSSensRefused(t *testing.T) {
	t1 := math.Sqrt(2 / gBall)
	cases := []struct {
		name, why string
		c         *dcs.CLS
		x0        []float64
		opts      SimOptions
	}{
		{"impact on a step boundary", "between simulation steps", bouncingBall(t, 0.5), []float64{gBall * 0.125, 0}, SimOptions{TSim: 0.7, NSim: 7}},
		{"impact at the end", "pending at the end", bouncingBall(t, 0.5), []float64{1, 0}, SimOptions{TSim: t1, NSim: 4}},
		{"impact at T0", "(or at T0)", bouncingBall(t, 0.5), []float64{0, -1}, SimOptions{TSim: 0.2, NSim: 2}},
		{"grazing", "grazing contact", ceilingBall(t, 0.5), []float64{0, math.Sqrt(2 * gBall)}, SimOptions{TSim: 0.7, NSim: 7}},
		{"Zeno", "(Zeno)", bouncingBall(t, 0.5), []float64{0.01, 0}, SimOptions{TSim: 0.2, NSim: 2}},
		{"lift-off", "lift-off inside", clockBlock(t, 0, 0, gBall/0.43), []float64{0, 0, 0, 0, 0, 1}, SimOptions{TSim: 0.6, NSim: 6}},
		{"stick to slip", "slip inside", clockBlock(t, 0.3, 0.3*gBall/0.43, 0), []float64{0, 0, 0, 0, 0, 1}, SimOptions{TSim: 0.6, NSim: 6}},
		{"sliding reversal", "reverses", pushedBlock(t, 0.3), []float64{0, 0, -1, 0}, SimOptions{TSim: 0.3, NSim: 3, U: []float64{0.6 * gBall, 0}}},
		{"impact at the stick–slip limit", "stick–slip limit", slidingBlock(t, 0.3), []float64{0, 1, 0.3 * math.Sqrt(2*gBall), 0}, SimOptions{TSim: 0.7, NSim: 7}},
	}
	for i, tc := range cases {
		if testing.Short() && i%2 != 0 {
			continue // -short: every other case
		}
		tc.opts.Sensitivity = true
		r, err := SimulateCLS(context.Background(), tc.c, tc.x0, tc.opts)
		if !errors.Is(err, ErrSensitivity) || !strings.Contains(err.Error(), tc.why) || r == nil || r.Sensitivity != nil {
			var s *Sensitivity
			if r != nil {
				s = r.Sensitivity
			}
			t.Errorf("%s: %v, sensitivity %v; want ErrSensitivity (%q) and none", tc.name, err, s, tc.why)
			continue
		}
		t.Logf("%s: %v", tc.name, err)
	}
}

// springBall is the ball (unit mass) on a spring that pulls it towards
// z = −a below the ground, z̈ = −ω²(z + a), with restitution e.
func springBall(t *testing.T, e, w2, a float64) *dcs.CLS {
	t.Helper()
	g := ad.NewGraph()
	q, v := g.SymVec("z", 1), g.SymVec("v", 1)
	M, err := ad.NewMat(1, 1, g.Const(1))
	if err != nil {
		t.Fatal(err)
	}
	c, err := dcs.NewCLS(dcs.RigidBody{Graph: g, Q: q, V: v, M: M, FV: ad.Vec{q[0].AddConst(a).Scale(-w2)},
		Contacts: []dcs.Contact{{Gap: q[0], Restitution: e}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCLSSensOrder: springBall (ω = 3, a = 0.6, e = 0.5) from (1, 0)
// over [0, 0.75], one impact at t_s = arccos(a/(1 + a))/ω = 0.3955. Its
// trajectory is not polynomial, so FESD-J's sensitivities are not exact
// but converge: closed form D = Φ(T − t_s) S Φ(t_s) with the flow
// Φ(τ) = [cos ωτ, sin(ωτ)/ω; −ω sin ωτ, cos ωτ] and the saltation
// S = [−e 0; −(1 + e)ω²a/v⁻ −e] (as ballSaltation, with the acceleration
// −ω²a at the impact for −g), v⁻ = −(1 + a)ω sin ωt_s. With Radau IIA of
// n_s = 1, 2, 3 stages and 5, 10, 20 steps (two elements each) the
// largest error of the 2×2 matrix falls with the order 2n_s − 1 of the
// method: the slope from 5 to 20 steps within ±0.5 of it (measured:
// 0.89, 3.12, 5.36; errors at 20 steps 0.11, 1.5e-5, 6.9e-10). Under
// -short 5 and 20 steps only.
func TestCLSSensOrder(t *testing.T) {
	const e, w, a, T = 0.5, 3.0, 0.6, 0.75
	ts := math.Acos(a/(1+a)) / w
	vm := -(1 + a) * w * math.Sin(w*ts)
	phi := func(tau float64) [][]float64 {
		return [][]float64{{math.Cos(w * tau), math.Sin(w*tau) / w}, {-w * math.Sin(w*tau), math.Cos(w * tau)}}
	}
	mul := func(a, b [][]float64) [][]float64 {
		c := zeros(2, 2)
		for i := 0; i < 2; i++ {
			for j := 0; j < 2; j++ {
				c[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j]
			}
		}
		return c
	}
	S := [][]float64{{-e, 0}, {-(1 + e) * w * w * a / vm, -e}}
	want := mul(phi(T-ts), mul(S, phi(ts)))
	c := springBall(t, e, w*w, a)
	for ns := 1; ns <= 3; ns++ {
		var errs []float64
		for _, n := range []int{5, 10, 20} {
			if testing.Short() && n == 10 {
				errs = append(errs, math.NaN()) // -short: the slope needs 5 and 20
				continue
			}
			r, err := SimulateCLS(context.Background(), c, []float64{1, 0}, SimOptions{TSim: T, NSim: n, Sensitivity: true, Options: Options{Stages: ns}})
			if err != nil {
				t.Fatalf("n_s = %d, %d steps: %v", ns, n, err)
			}
			errs = append(errs, maxErr(r.Sensitivity.DX0, want))
		}
		order := math.Log2(errs[0]/errs[2]) / 2
		if want := float64(2*ns - 1); math.Abs(order-want) > 0.5 {
			t.Errorf("n_s = %d: errors %.2e, observed order %.2f, want %g ± 0.5", ns, errs, order, want)
		}
		t.Logf("Radau IIA n_s = %d: errors %.2e at 5, 10, 20 steps, order %.2f", ns, errs, order)
	}
}

// TestCLSSensManyImpacts: the ball of TestCLSBouncingBall (e = 0.9, from
// rest at height 1) over [0, 7.5] in 75 steps (20 impacts) and over
// [0, 8.1] in 81 (27 impacts; the steps with more impacts than inner
// element boundaries are halved), the impacts at t_1 = √(2/g),
// t_{k+1} = t_k + 2e^k t_1 with the speeds w_k = e^{k−1}√(2g). Closed
// form: D = Φ(T − t_K) S_K ⋯ Φ(t_2 − t_1) S_1 Φ(t_1) with the saltation
// matrices S_k = [−e 0; (1 + e)g/w_k −e] (ballSaltation). To
// 1e-9·max(1, max|D_ij|), relative to the largest entry (up to 40): the
// impact times are located to the NLP's tolerance and each saltation
// matrix amplifies their errors, so rounding-level changes of the
// guess move the T = 8.1 error between 5e-10 and 8.5e-9 (measured with
// inputs perturbed by 1e-12 … 1e-6), 1.5e-10 … 2.1e-10 relative.
func TestCLSSensManyImpacts(t *testing.T) {
	const e = 0.9
	mul := func(a, b [][]float64) [][]float64 {
		c := zeros(2, 2)
		for i := 0; i < 2; i++ {
			for j := 0; j < 2; j++ {
				c[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j]
			}
		}
		return c
	}
	phi := func(t float64) [][]float64 { return [][]float64{{1, t}, {0, 1}} }
	for _, T := range []float64{7.5, 8.1} {
		if testing.Short() && T != 8.1 {
			continue // -short: the run with the halved steps
		}
		r, err := SimulateCLS(context.Background(), bouncingBall(t, e), []float64{1, 0}, SimOptions{TSim: T, NSim: int(math.Round(10 * T)), Sensitivity: true})
		if err != nil {
			t.Fatal(err)
		}
		D := phi(0)
		t1, w := math.Sqrt(2/gBall), math.Sqrt(2*gBall)
		prev, n := 0.0, 0
		for tk := t1; tk < T; n++ {
			D = mul([][]float64{{-e, 0}, {(1 + e) * gBall / w, -e}}, mul(phi(tk-prev), D))
			prev, w = tk, w*e
			tk += 2 * math.Pow(e, float64(n+1)) * t1
		}
		D = mul(phi(T-prev), D)
		if len(r.Impacts()) != n {
			t.Fatalf("T = %g: %d impacts, want %d", T, len(r.Impacts()), n)
		}
		scale := 1.0
		for _, row := range D {
			for _, v := range row {
				scale = math.Max(scale, math.Abs(v))
			}
		}
		if d := maxErr(r.Sensitivity.DX0, D); d > 1e-9*scale {
			t.Errorf("T = %g: ∂x/∂x₀ = %v, want %v (error %.1e)", T, r.Sensitivity.DX0, D, d)
		} else {
			t.Logf("T = %g, %d impacts, %d steps: ∂x/∂x₀ = %.6g, error %.1e", T, n, len(r.Steps), r.Sensitivity.DX0, d)
		}
	}
}

// TestCLSSensBlockSticking: pushedBlock (μ = 0.3) at rest on the ground
// with the force u = (μg/2, 0) inside the friction cone stays where it is
// over [0, 0.3]: closed form x(T) = x₀ along the contact, so DX0 has 1 in
// the entry of x and zeros elsewhere — the columns of z₀, v_z0 and (the
// contact sticks at x₀) v_x0 are projected out — and ∂x(T)/∂u = 0 (the
// friction force follows the push). To 1e-9 (measured: 3.2e-14).
func TestCLSSensBlockSticking(t *testing.T) {
	const mu = 0.3
	r, err := SimulateCLS(context.Background(), pushedBlock(t, mu), []float64{0, 0, 0, 0},
		SimOptions{TSim: 0.3, NSim: 3, U: []float64{mu * gBall / 2, 0}, Sensitivity: true})
	if err != nil {
		t.Fatal(err)
	}
	wantX := zeros(4, 4)
	wantX[0][0] = 1
	ex, eu := maxErr(r.Sensitivity.DX0, wantX), maxErr(r.Sensitivity.DU, zeros(4, 2))
	if ex > 1e-9 || eu > 1e-9 || len(r.SensitivityOnContact) != 1 {
		t.Errorf("∂x/∂x₀ = %v (error %.1e), ∂x/∂u = %v (error %.1e), on contact %v; want e₁e₁ᵀ, 0, [0]", r.Sensitivity.DX0, ex, r.Sensitivity.DU, eu, r.SensitivityOnContact)
	}
	t.Logf("errors ∂x/∂x₀ %.1e, ∂x/∂u %.1e", ex, eu)
}
