package fesd

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/mpcc"
)

// TestCLSOCPImpactLaw: a FESD-J OCP has no impulse on a separating
// contact (impactLaw: S ≥ J_nᵀv⁻ with Λ_n ⊥ S). The ball of actuatedBall
// (e = 0) starts at z₀ = 0.05 with v₀ = −1.5; N = 2 stages of τ = 0.1
// with one element each, the force of the first fixed at u₀ = g + 20, the
// objective ∫u² dt and the terminal rest z(T) = v(T) = 0. Closed form:
// in the first stage z = 10(t − 0.05)(t − 0.1) (Radau IIA integrates it
// exactly), ≥ 0 at its stage points t = 1/30 and 0.1 but below the
// ground in between, so the element ends on the ground (z = 0) moving up
// (v = 0.5): the situation of the monopod's flight elements. An impulse
// there (Λ_n = 0.5, v⁺ = 0 by P − N = J_nᵀv⁺, allowed without the
// condition) would leave the ball at rest with u₁ = 0, objective
// τu₀² = 88.86361. Newton's law forbids it (J_nᵀv⁻ > 0): the ball flies
// on, z = 0.5s + (u₁ − g)s²/2, and the terminal rest needs the landing
// by T, g − u₁ ≥ 10, so u₁ = g − 10 and the objective τ(u₀² + u₁²) =
// 88.86722. Checked to 1e-6 with complementarity ≤ 1e-6 and no impulse
// at t = 0.1. The first stage's polynomial is 6.25 mm below the ground at
// t = 0.075, between its stage points, so the result is mpcc.Invalid with
// CLSValidity.MaxPenetrationBetween = 10·0.025² at t = 0.075 (a sample
// point: 24/32 of the element), to 1e-9. (The homotopy also finds this motion without the condition
// — the braked point is a cheaper feasible point it does not reach here —
// so the test checks the law's rows against the closed form, not their
// effect on the optimum.)
func TestCLSOCPImpactLaw(t *testing.T) {
	const (
		tau = 0.1
		tol = 1e-6
	)
	c := actuatedBall(t, 0)
	u, z, v := c.Body.U, c.Body.Q[0], c.Body.V[0]
	u0 := gBall + 20
	fix := func(k int) []Constraint {
		if k == 0 {
			return []Constraint{{G: u, L: []float64{u0}, U: []float64{u0}}}
		}
		return nil
	}
	p := &OCP{CLS: c, X0: []float64{0.05, -1.5}, N: 2, T: 2 * tau, NFE: []int{1}, Lagrange: u[0].Mul(u[0]), StageEnd: fix,
		Terminal: []Constraint{{G: ad.Vec{z, v}, L: []float64{0, 0}, U: []float64{0, 0}}}}
	s, err := NewOCPSolver(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Solve(context.Background(), Start{})
	if err != nil {
		t.Fatal(err)
	}
	u1 := gBall - 10
	obj := tau * (u0*u0 + u1*u1)
	imps := r.Contacts.Impacts()
	t.Logf("status %v, %d iterations, objective %.12g (closed form %.12g), u %v (closed form %g, %g), comp %.2g, x(τ) %v, impacts %+v",
		r.Status, r.Iterations, r.Objective, obj, r.U, u0, u1, r.CompResidual, r.StageX[1], imps)
	if r.Status != mpcc.Invalid || r.CompResidual > tol {
		t.Fatalf("status %v, complementarity %g", r.Status, r.CompResidual)
	}
	if v := r.CLSValidity; v == nil || len(v.Violations) != 1 || math.Abs(v.MaxPenetrationBetween-10*0.025*0.025) > 1e-9 || math.Abs(v.PenetrationBetweenTime-0.075) > 1e-12 {
		t.Errorf("validity %v, want only the penetration between nodes, 6.25e-3 at t = 0.075", v)
	}
	if x := r.StageX[1]; math.Abs(x[0]) > tol || math.Abs(x[1]-0.5) > tol {
		t.Errorf("x(τ) = %v, closed form (0, 0.5)", x)
	}
	for _, im := range imps {
		if math.Abs(im.Time-tau) < 1e-3 {
			t.Errorf("an impulse on the separating contact: %+v", im)
		}
	}
	if math.Abs(r.U[1][0]-u1) > tol || math.Abs(r.Objective-obj) > tol*obj {
		t.Errorf("u₁ = %.12g, objective %.12g; closed form %.12g, %.12g", r.U[1][0], r.Objective, u1, obj)
	}
}
