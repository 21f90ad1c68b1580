package monopod

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/rk"
)

// Task is the motion the robot is asked for: N control stages over the
// horizon T, from q₀ = (0, 0.4, 0, 0) at rest to (Distance, 0.4, 0, 0) at
// rest. The paper's task is T = 3 s and 3 m (PaperTask); shorter ones are
// for tests.
type Task struct {
	N           int
	T, Distance float64
}

// PaperTask returns the task of 004 §7.2 with n stages: 3 m in 3 s.
func PaperTask(n int) Task { return Task{N: n, T: 3, Distance: 3} }

// Validate reports an N < 1, a T that is not positive and finite, or a
// Distance that is not finite.
func (t Task) Validate() error {
	if t.N < 1 {
		return fmt.Errorf("monopod: N = %d stages, want ≥ 1", t.N)
	}
	if !(t.T > 0) || math.IsInf(t.T, 0) {
		return fmt.Errorf("monopod: horizon T = %v, want finite and > 0", t.T)
	}
	if math.IsNaN(t.Distance) || math.IsInf(t.Distance, 0) {
		return fmt.Errorf("monopod: Distance = %v, want finite", t.Distance)
	}
	return nil
}

// QTarget returns q* = (Distance, 0.4, 0, 0).
func (t Task) QTarget() []float64 { return []float64{t.Distance, 0.4, 0, 0} }

// X0 returns x₀ = (q₀, v = 0, t = 0).
func (t Task) X0() []float64 { return []float64{0, 0.4, 0, 0, 0, 0, 0, 0, 0} }

// XTarget returns the terminal reference (q*, v = 0, t = T).
func (t Task) XTarget() []float64 { return append(t.QTarget(), 0, 0, 0, 0, t.T) }

// Reference returns x_ref: MATLAB's interp1([0 .25 .5 .75 1], [x0 x_mid1
// x_mid2 x_mid3 x_target]', linspace(0, 1, N), 'spline') for the 8
// physical states (two hops to z = 0.6 with v_x = Distance/T, as in
// nosnoc's monoped_model.m), with the clock reference (k+1)·T/N appended
// (its weight is 0).
// Row k is the reference for the end state of stage k.
func (t Task) Reference() ([][]float64, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	d, vx := t.Distance, t.Distance/t.T
	knots := []float64{0, 0.25, 0.5, 0.75, 1}
	pts := [][]float64{
		{0, 0.4, 0, 0, 0, 0, 0, 0},
		{d / 4, 0.6, 0, 0, vx, 0, 0, 0},
		{d / 2, 0.4, 0, 0, vx, 0, 0, 0},
		{3 * d / 4, 0.6, 0, 0, vx, 0, 0, 0},
		{d, 0.4, 0, 0, 0, 0, 0, 0},
	}
	ref, err := InterpSpline(knots, pts, Linspace(0, 1, t.N))
	if err != nil {
		return nil, err
	}
	for k := range ref {
		ref[k] = append(ref[k], float64(k+1)*t.T/float64(t.N))
	}
	return ref, nil
}

// Discretization selects the FESD transcription of the OCP. The zero value
// is the paper's: Radau IIA n_s = 2, N_FE = 3 per stage, FE_STAGE cross
// complementarity (paper-era mode 3), speed of time in [0.99, 10].
type Discretization struct {
	// NFE is the number of finite elements per stage (0: 3) and NS the
	// number of Radau IIA stages (0: 2); negative values are rejected by
	// fesd when the OCP is built.
	NFE, NS int
	Cross   fesd.CrossComp
	// SOTMin, SOTMax bound the speed of time per stage (both 0: [0.99,
	// 10]).
	SOTMin, SOTMax float64
	// GammaH is fesd.Options.GammaH, the step-size bound
	// h ≤ (1 + γ_h)h₀ (0: fesd's default 1, nosnoc's).
	GammaH float64
}

func (d Discretization) withDefaults() Discretization {
	if d.NFE == 0 {
		d.NFE = 3
	}
	if d.NS == 0 {
		d.NS = 2
	}
	if d.SOTMin == 0 && d.SOTMax == 0 {
		d.SOTMin, d.SOTMax = 0.99, 10
	}
	return d
}

// OCP returns the discretized optimal control problem of 004 §7.2 and
// nosnoc's monoped_model.m for the model m: the tracking cost with Q = diag(1, 1,
// 10, 1, 1e-6·I₄, 0), R = 0.1·I₂ (nosnoc's code; the paper says ρ_u =
// 0.01) and Q_T = diag(1e3·I₄, 10·I₄, 0); the bounds q_x ∈ [−0.5,
// Distance + 0.5], q_z ∈ [0, 10], φ ∈ [−π, π], |v| ≤ 100 (at stage ends),
// |u| ≤ 100; one speed-of-time variable per stage that scales the whole
// right-hand side (nosnoc MATLAB); the stage-wise clock constraint
// t(end of stage k) = (k+1)·T/N. The options are the discretization's
// with Scholtes σ₀ = 1, κ = 0.1, complementarity tolerance 1e-5. The
// caller adds the inner solver (NLPSettings), the start (the default
// fesd.Start starts the speeds of time at 1) and any further constraints.
func (m *Model) OCP(t Task, d Discretization) (*fesd.OCP, fesd.Options, error) {
	ref, err := t.Reference()
	if err != nil {
		return nil, fesd.Options{}, err
	}
	d = d.withDefaults()
	inf := math.Inf(1)
	clock := m.TF.Clock
	x := m.TF.Model.X
	p := &fesd.OCP{
		Model:       m.TF.Model,
		X0:          t.X0(),
		N:           t.N,
		T:           t.T,
		NFE:         []int{d.NFE},
		SpeedOfTime: fesd.StageSpeedOfTime,
		SOTMin:      d.SOTMin, SOTMax: d.SOTMax,
		// The clock is unbounded.
		XL: []float64{-0.5, 0, -math.Pi, -math.Pi, -100, -100, -100, -100, -inf},
		XU: []float64{t.Distance + 0.5, 10, math.Pi, math.Pi, 100, 100, 100, 100, inf},
		UL: []float64{-100, -100},
		UU: []float64{100, 100},
		Tracking: &fesd.Tracking{
			XRef:  ref,
			Q:     fesd.Diag(1, 1, 10, 1, 1e-6, 1e-6, 1e-6, 1e-6, 0),
			R:     fesd.Diag(0.1, 0.1),
			XRefT: t.XTarget(),
			QT:    fesd.Diag(1e3, 1e3, 1e3, 1e3, 10, 10, 10, 10, 0),
		},
		StageEnd: func(k int) []fesd.Constraint {
			return []fesd.Constraint{{G: ad.Vec{x[clock].AddConst(-float64(k+1) * t.T / float64(t.N))}}}
		},
	}
	opts := fesd.Options{
		Scheme: rk.FamilyRadauIIA, Stages: d.NS, NFE: d.NFE,
		CrossComp: d.Cross, GammaH: d.GammaH,
		DCS:  m.TF.DCSOptions(),
		MPCC: mpcc.Settings{Sigma0: 1, Kappa: 0.1, CompTol: 1e-5},
	}
	return p, opts, nil
}

// NLPSettings returns the inner solver settings of the paper-era
// experiment (IPOPT tol = acceptable_tol = tol, acceptable_iter 3; the
// experiment used 1e-5) with the iteration limit maxIter.
func NLPSettings(tol float64, maxIter int) nlp.Settings {
	set := mpcc.DefaultNLPSettings()
	set.Tol, set.AcceptableTol, set.AcceptableIter, set.MaxIter = tol, tol, 3, maxIter
	return set
}

// Guides returns the guiding constraints of the time-freezing paper for
// this robot (A. Nurkanović, J. Albrecht, B. Brogliato, M. Diehl, "The
// Time-Freezing Reformulation for Numerical Optimal Control of
// Complementarity Lagrangian Systems with State Jumps", Automatica 158
// (2023) 111295, §7: "guiding constraints during the early phases of the
// homotopy"), at every stage point: 0.2 ≤ q_z ≤ 0.55, |φ_hip| ≤ 3π/8,
// |φ_knee| ≤ π/2, a knee at least 0.05 above the ground, the foot at
// most 0.2 above it, and q_x, p_foot,x, p_knee,x ≥ −0.05. The foot's
// lower bound −0.005 is the contact gap's, fesd.Guide.GapDepth. They are
// meant for fesd.Options.Guide, not as constraints of the OCP.
func (m *Model) Guides() []fesd.Constraint {
	q, k := m.Q, m.Kin
	inf := math.Inf(1)
	return []fesd.Constraint{{
		G:  ad.Vec{q[1], q[2], q[3], k.Knee[1], k.Foot[1], q[0], k.Foot[0], k.Knee[0]},
		L:  []float64{0.2, -3 * math.Pi / 8, -math.Pi / 2, 0.05, -inf, -0.05, -0.05, -0.05},
		U:  []float64{0.55, 3 * math.Pi / 8, math.Pi / 2, inf, 0.2, inf, inf, inf},
		At: fesd.AtStagePoints,
	}}
}
