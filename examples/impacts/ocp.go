package main

import (
	"context"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
)

// The OCP scene: the ball with a vertical force u (ballModel with
// control, e = ocpE) dropped from rest at height 1 must be at height ocpZT
// at T = ocpT, with minimal ∫u² dt. The force is held at zero on the
// first ocpFixed of ocpN stages (ocpNFE finite elements each), in which the
// ball falls and bounces once.
const (
	ocpE     = 0.5
	ocpT     = 1.2
	ocpN     = 4
	ocpNFE   = 3
	ocpZT    = 0.8
	ocpFixed = 2
)

// ocpExact is the closed form of the OCP: the free fall hits the ground
// at t₁ = √(2/g) with v⁻ = −√(2g) (stage 1), leaves it with v⁺ = e√(2g)
// and flies to (z_a, v_a) at t = 2τ (τ = T/N). With constant forces u₂, u₃
// on the last two stages (the ball stays in the air for this target)
// z(T) = z_a + 2τv_a − 2gτ² + a·u with a = (3τ²/2, τ²/2), so the least
// ∫u² = τ|u|² that meets z(T) = z_T is u = b a/|a|² with
// b = z_T − z_a − 2τv_a + 2gτ², and the objective is τb²/|a|².
func ocpExact() (u [2]float64, obj, t1, vPlus float64) {
	tau := ocpT / ocpN
	t1 = math.Sqrt(2 / grav)
	vPlus = ocpE * math.Sqrt(2*grav)
	dt := 2*tau - t1
	za, va := vPlus*dt-grav*dt*dt/2, vPlus-grav*dt
	a := [2]float64{1.5 * tau * tau, 0.5 * tau * tau}
	b := ocpZT - za - 2*tau*va + 2*grav*tau*tau
	aa := a[0]*a[0] + a[1]*a[1]
	return [2]float64{b * a[0] / aa, b * a[1] / aa}, tau * b * b / aa, t1, vPlus
}

// ocpExactZ is the height of the closed-form solution at t ∈ [0, T]:
// free fall, the impact at t₁, the flight to 2τ, then the accelerations
// u₂ − g and u₃ − g on the last two stages.
func ocpExactZ(t float64) float64 {
	u, _, t1, vp := ocpExact()
	tau := ocpT / ocpN
	if t < t1 {
		return 1 - grav*t*t/2
	}
	z, v, t0 := 0.0, vp, t1
	for k, a := range []float64{-grav, u[0] - grav, u[1] - grav} {
		end := float64(k+2) * tau
		if t < end || k == 2 {
			s := t - t0
			return z + v*s + a*s*s/2
		}
		s := end - t0
		z, v, t0 = z+v*s+a*s*s/2, v+a*s, end
	}
	return math.NaN()
}

// ocpSummary is the OCP scene in summary.json.
type ocpSummary struct {
	Status        string     `json:"status"`
	Stationarity  string     `json:"stationarity"`
	Objective     float64    `json:"objective"`
	ObjExact      float64    `json:"objective_closed_form"`
	U             [2]float64 `json:"u"` // the forces of the last two stages
	UExact        [2]float64 `json:"u_closed_form"`
	ZT            float64    `json:"z_T"`
	Impacts       int        `json:"impacts"`
	ImpactT       float64    `json:"impact_t"`
	ImpactVPlus   float64    `json:"impact_v_after"`
	CompResidual  float64    `json:"complementarity_residual"`
	Infeasibility float64    `json:"infeasibility"`
	ObjErr        float64    `json:"objective_relative_error"`
	UErr          float64    `json:"u_error"`
	ImpactErr     float64    `json:"impact_error"` // max of the time and v⁺ errors
	effort
}

// ocpScene solves the OCP with fesd's defaults (Radau IIA n_s = 2, the
// MPCC homotopy of OCP.CLS) from the start u = (0, 0, 10, 10): with u = 0
// on the last stages the start bounces a second time and the homotopy
// ends in that local minimum (objective 121.8, TestCLSOCPBall).
func ocpScene(ctx context.Context) (*fesd.OCPResult, *ocpSummary, error) {
	c, err := ballModel(ocpE, true)
	if err != nil {
		return nil, nil, err
	}
	u, z := c.Body.U, c.Body.Q
	p := &fesd.OCP{CLS: c, X0: []float64{1, 0}, N: ocpN, T: ocpT, NFE: []int{ocpNFE},
		Lagrange: u[0].Mul(u[0]),
		StageEnd: func(k int) []fesd.Constraint {
			if k < ocpFixed {
				return []fesd.Constraint{{G: u, L: []float64{0}, U: []float64{0}}}
			}
			return nil
		},
		Terminal: []fesd.Constraint{{G: ad.Vec{z[0]}, L: []float64{ocpZT}, U: []float64{ocpZT}}}}
	s := &ocpSummary{}
	var r *fesd.OCPResult
	s.effort, err = timed(func() error {
		var err error
		r, err = fesd.SolveOCP(ctx, p, fesd.Options{}, fesd.Start{UInit: [][]float64{{0}, {0}, {10}, {10}}})
		return err
	})
	if r == nil {
		return nil, nil, err
	}
	uEx, obj, t1, vp := ocpExact()
	s.Status, s.Stationarity = r.Status.String(), r.Stationarity.String()
	s.Objective, s.ObjExact, s.UExact = r.Objective, obj, uEx
	s.U = [2]float64{r.U[2][0], r.U[3][0]}
	s.ZT = r.X[len(r.X)-1][0]
	s.CompResidual, s.Infeasibility = r.CompResidual, r.Infeasibility
	s.ObjErr = math.Abs(r.Objective-obj) / obj
	s.UErr = math.Max(math.Abs(s.U[0]-uEx[0]), math.Abs(s.U[1]-uEx[1]))
	for k := 0; k < ocpFixed; k++ {
		s.UErr = math.Max(s.UErr, math.Abs(r.U[k][0]))
	}
	s.Iterations, s.Steps = r.Iterations, len(r.Homotopy)
	if r.Status != mpcc.Solved {
		s.Failed = 1
	}
	if r.Contacts != nil {
		imps := r.Contacts.Impacts()
		s.Impacts = len(imps)
		if len(imps) > 0 {
			s.ImpactT, s.ImpactVPlus = imps[0].Time, imps[0].VnAfter
			s.ImpactErr = math.Max(math.Abs(s.ImpactT-t1), math.Abs(s.ImpactVPlus-vp))
		}
	}
	return r, s, err
}
