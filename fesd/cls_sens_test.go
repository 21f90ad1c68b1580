package fesd

import (
	"context"
	"math"
	"testing"
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
// ψ = z, f^∓ = (v^∓, −g)). For e = 0 the ball rests after the impact and
// D = 0.
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
// saltation closed form ballSaltation, to 1e-9 (measured: 7e-15; FESD-J
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
