package monopod

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/rk"
)

// The monopod without time freezing: the same rigid body as New — M(q),
// h(q, v) + (0, 0, u_hip, u_knee), the foot contact with f_c = p_foot,z,
// J_n = ∇f_c, J_t = ∇p_foot,x and μ = 0.8 — as a complementarity
// Lagrangian system, transcribed by FESD-J (A. Nurkanović, J. Frey,
// A. Pozharskiy, M. Diehl, "FESD-J: Finite Elements with Switch Detection
// for numerical optimal control of rigid bodies with impacts and Coulomb
// friction", Nonlinear Analysis: Hybrid Systems 52 (2024) 101460). Impacts
// are inelastic (e = 0), as in time freezing, which admits no other e.

// NewCLS builds the monopod as a complementarity Lagrangian system
// (dcs.NewCLS) with the inelastic foot contact (e = 0, μ = Mu): the
// model's TF is nil and CLS holds the system, with x = (q, v).
func NewCLS() (*Model, error) {
	m, rb, err := newBody(0)
	if err != nil {
		return nil, err
	}
	c, err := dcs.NewCLS(rb)
	if err != nil {
		return nil, fmt.Errorf("monopod: contact system: %w", err)
	}
	m.CLS = c
	return m, nil
}

// X0CLS returns x₀ = (q₀, v = 0) of the CLS model, without the clock.
func (t Task) X0CLS() []float64 { return t.X0()[:8] }

// XTargetCLS returns the terminal reference (q*, v = 0) without the clock.
func (t Task) XTargetCLS() []float64 { return t.XTarget()[:8] }

// CLSOCP returns the OCP of 004 §7.2 (Model.OCP) on the model's CLS
// (NewCLS), transcribed by FESD-J: the same tracking cost on the eight
// physical states (Q = diag(1, 1, 10, 1, 1e-6·I₄), R = 0.1·I₂, Q_T =
// diag(1e3·I₄, 10·I₄) towards (q*, 0)) and the same bounds (q_x ∈ [−0.5,
// Distance + 0.5], q_z ∈ [0, 10], φ ∈ [−π, π], |v| ≤ 100 at the element
// boundaries, |u| ≤ 100), without the clock state, the speed of time and
// the clock constraint: the horizon T is physical time. The options are
// Radau IIA with the discretization's n_s and N_FE (d.NFE, d.NS; its
// Cross, SOTMin, SOTMax and GammaH do not apply) and fesd's FESD-J
// homotopy defaults (σ₀ = fesd.CLSOCPSigma0, κ = 0.1, the active-set finish
// fesd.CLSFinish). The default start of a CLS OCP is SimulateCLS's guess
// with the start's controls (the robot standing still with u = 0).
func (m *Model) CLSOCP(t Task, d Discretization) (*fesd.OCP, fesd.Options, error) {
	if m.CLS == nil {
		return nil, fesd.Options{}, fmt.Errorf("monopod: CLSOCP needs the model of NewCLS")
	}
	ref, err := t.Reference()
	if err != nil {
		return nil, fesd.Options{}, err
	}
	for k := range ref {
		ref[k] = ref[k][:8] // no clock
	}
	d = d.withDefaults()
	p := &fesd.OCP{
		CLS: m.CLS,
		X0:  t.X0CLS(),
		N:   t.N,
		T:   t.T,
		NFE: []int{d.NFE},
		XL:  []float64{-0.5, 0, -math.Pi, -math.Pi, -100, -100, -100, -100},
		XU:  []float64{t.Distance + 0.5, 10, math.Pi, math.Pi, 100, 100, 100, 100},
		UL:  []float64{-100, -100},
		UU:  []float64{100, 100},
		Tracking: &fesd.Tracking{
			XRef:  ref,
			Q:     fesd.Diag(1, 1, 10, 1, 1e-6, 1e-6, 1e-6, 1e-6),
			R:     fesd.Diag(0.1, 0.1),
			XRefT: t.XTargetCLS(),
			QT:    fesd.Diag(1e3, 1e3, 1e3, 1e3, 10, 10, 10, 10),
		},
	}
	opts := fesd.Options{Scheme: rk.FamilyRadauIIA, Stages: d.NS, NFE: d.NFE}
	return p, opts, nil
}
