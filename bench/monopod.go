package main

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/interp"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/rk"
)

// This file is a compact copy of the monopod OCP of examples/monopod
// (model.go, ocp.go; 004 §7.2, nosnoc.md §3.1–3.4) with that program's
// default configuration: two-link robot with one frictional contact at the
// foot, inelastic time freezing (μ = 0.8, a_n = 200), T = 3, target q_x = 3,
// Radau IIA n_s = 2, N_FE = 3 per stage, FE_STAGE cross complementarity, one
// speed-of-time variable per stage in [0.99, 10], stage-wise clock
// constraint, the tracking cost of nosnoc's example, Scholtes σ₀ = 1,
// comp_tol 1e-5, inner tolerance 1e-5. The reference is MATLAB's
// not-a-knot spline through the five knots, here gonum's
// interp.NotAKnotCubic (the same interpolant for five knots).
//
// The full homotopy does not solve at N = 30 with either solver yet (see
// examples/monopod), so the bench only times the first relaxed NLP (σ = 1)
// up to an iteration cap: per-iteration cost only.

// Robot parameters (robot_model_parameters.m of nosnoc's
// time_freezing_monoped_ocp).
const (
	mpHip, mpThigh, mpShank = 3.975, 1.782, 0.548
	mpLThigh, mpLShank      = 0.2, 0.2
	mpSThigh, mpSShank      = 0.016, 0.1
	mpIThigh, mpIShank      = 0.001, 0.0032
	mpGravity               = 9.81
	mpMu, mpAN              = 0.8, 200.0
	mpT, mpDistance         = 3.0, 3.0
)

// monopodModel builds the time-freezing system of the monopod for form
// (examples/monopod newMonopod): M(q) = ∂²T/∂v², h = ∂L/∂q − (∂²L/∂v∂q) v,
// M v̇ = h + (0, 0, u_hip, u_knee), contact gap p_foot,z.
func monopodModel(form dcs.Formulation) (*dcs.TimeFreezing, error) {
	g := ad.NewGraph()
	q, v, u := g.SymVec("q", 4), g.SymVec("v", 4), g.SymVec("u", 2)
	// Points below the hip along −(sin φ_h, cos φ_h) and the shank
	// direction −(sin(φ_h+φ_k), cos(φ_h+φ_k)).
	sh, ch := ad.Sin(q[2]), ad.Cos(q[2])
	shk, chk := ad.Sin(q[2].Add(q[3])), ad.Cos(q[2].Add(q[3]))
	along := func(base ad.Vec, l float64, s, c ad.Expr) ad.Vec {
		return ad.Vec{base[0].Sub(s.Scale(l)), base[1].Sub(c.Scale(l))}
	}
	hip := ad.Vec{q[0], q[1]}
	knee := along(hip, mpLThigh, sh, ch)
	foot := along(knee, mpLShank, shk, chk)
	T, V := g.Const(0), g.Const(0)
	for _, b := range []struct {
		m float64
		p ad.Vec
	}{{mpHip, hip}, {mpThigh, along(hip, mpSThigh, sh, ch)}, {mpShank, along(knee, mpSShank, shk, chk)}} {
		pd, err := ad.JVP(b.p, q, v)
		if err != nil {
			return nil, err
		}
		T = T.Add(ad.Sq(pd[0]).Add(ad.Sq(pd[1])).Scale(b.m / 2))
		V = V.Add(b.p[1].Scale(b.m * mpGravity))
	}
	T = T.Add(ad.Sq(v[2]).Scale(mpIThigh / 2)).Add(ad.Sq(v[2].Add(v[3])).Scale(mpIShank / 2))
	L := T.Sub(V)
	M, err := ad.Hessian(T, v)
	if err != nil {
		return nil, err
	}
	dLdq, err := ad.Gradient(L, q)
	if err != nil {
		return nil, err
	}
	dLdv, err := ad.Gradient(L, v)
	if err != nil {
		return nil, err
	}
	cv, err := ad.JVP(dLdv, q, v)
	if err != nil {
		return nil, err
	}
	h, err := dLdq.Sub(cv)
	if err != nil {
		return nil, err
	}
	fv, err := h.Add(ad.Vec{g.Const(0), g.Const(0), u[0], u[1]})
	if err != nil {
		return nil, err
	}
	return dcs.NewTimeFreezing(dcs.RigidBody{
		Graph: g, Q: q, V: v, U: u, M: M, FV: fv,
		Contacts: []dcs.Contact{{Name: "foot", Gap: foot[1], TangentPos: foot[0], Mu: mpMu}},
	}, dcs.TimeFreezingOptions{Formulation: form, AN: mpAN})
}

// monopodReference is x_ref of examples/monopod: the not-a-knot spline
// through five knots (two hops to z = 0.6 at v_x = D/T) evaluated at
// linspace(0, 1, N), with the clock reference (k+1)·T/N appended.
func monopodReference(n int) ([][]float64, error) {
	d, vx := mpDistance, mpDistance/mpT
	knots := []float64{0, 0.25, 0.5, 0.75, 1}
	pts := [][]float64{
		{0, 0.4, 0, 0, 0, 0, 0, 0},
		{d / 4, 0.6, 0, 0, vx, 0, 0, 0},
		{d / 2, 0.4, 0, 0, vx, 0, 0, 0},
		{3 * d / 4, 0.6, 0, 0, vx, 0, 0, 0},
		{d, 0.4, 0, 0, 0, 0, 0, 0},
	}
	ref := make([][]float64, n)
	for k := range ref {
		ref[k] = make([]float64, 9)
		ref[k][8] = float64(k+1) * mpT / float64(n)
	}
	ys := make([]float64, len(knots))
	for j := range 8 {
		for i := range knots {
			ys[i] = pts[i][j]
		}
		var s interp.NotAKnotCubic
		if err := s.Fit(knots, ys); err != nil {
			return nil, err
		}
		for k := range ref {
			t := 1.0 // linspace(0, 1, 1) = [1]
			if n > 1 {
				t = float64(k) / float64(n-1)
			}
			ref[k][j] = s.Predict(t)
		}
	}
	return ref, nil
}

// monopodOCP returns the OCP of examples/monopod's default configuration
// with N stages and form, with the homotopy cut to maxSteps relaxed NLPs
// and the inner iteration limit maxIter. inner solves the NLPs.
func monopodOCP(n int, form dcs.Formulation, maxSteps int, inner mpcc.InnerSolver) (*fesd.OCP, error) {
	tf, err := monopodModel(form)
	if err != nil {
		return nil, fmt.Errorf("monopod: time freezing: %w", err)
	}
	ref, err := monopodReference(n)
	if err != nil {
		return nil, err
	}
	inf := math.Inf(1)
	clock := tf.Clock
	return &fesd.OCP{
		Model:       tf.Model,
		X0:          []float64{0, 0.4, 0, 0, 0, 0, 0, 0, 0},
		N:           n,
		T:           mpT,
		NFE:         []int{3},
		SpeedOfTime: fesd.StageSpeedOfTime,
		SOTMin:      0.99, SOTMax: 10, SOTInit: 1,
		XL: []float64{-0.5, 0, -math.Pi, -math.Pi, -100, -100, -100, -100, -inf},
		XU: []float64{mpDistance + 0.5, 10, math.Pi, math.Pi, 100, 100, 100, 100, inf},
		UL: []float64{-100, -100},
		UU: []float64{100, 100},
		Tracking: &fesd.Tracking{
			XRef:  ref,
			Q:     fesd.Diag(1, 1, 10, 1, 1e-6, 1e-6, 1e-6, 1e-6, 0),
			R:     fesd.Diag(0.1, 0.1),
			XRefT: []float64{mpDistance, 0.4, 0, 0, 0, 0, 0, 0, mpT},
			QT:    fesd.Diag(1e3, 1e3, 1e3, 1e3, 10, 10, 10, 10, 0),
		},
		StageEnd: func(k int) []fesd.Constraint {
			return []fesd.Constraint{{G: ad.Vec{tf.Model.X[clock].AddConst(-float64(k+1) * mpT / float64(n))}}}
		},
		Options: fesd.Options{
			Scheme: rk.FamilyRadauIIA, Stages: 2, NFE: 3,
			CrossComp: fesd.FEStage,
			DCS:       tf.DCSOptions(),
			MPCC:      mpcc.Settings{Sigma0: 1, Kappa: 0.1, CompTol: 1e-5, MaxSteps: maxSteps},
			Inner:     inner,
		},
	}, nil
}

// monopodNLPSettings are examples/monopod's inner settings (tol =
// acceptable_tol = 1e-5, acceptable_iter 3) with the iteration limit
// maxIter.
func monopodNLPSettings(maxIter int) nlp.Settings {
	set := mpcc.DefaultNLPSettings()
	set.Tol, set.AcceptableTol, set.AcceptableIter, set.MaxIter = 1e-5, 1e-5, 3, maxIter
	return set
}

// switchInner forwards to cur: the OCP solver fixes its inner solver when
// it is built, the bench switches it between runs.
type switchInner struct{ cur mpcc.InnerSolver }

func (s *switchInner) SolveNLP(ctx context.Context, p nlp.Problem, start *mpcc.WarmStart) (*mpcc.InnerResult, error) {
	return s.cur.SolveNLP(ctx, p, start)
}

// monopodCase times the first maxSteps relaxed NLPs of the monopod
// homotopy (σ = 1, 0.1, …) with at most maxIter iterations each: a
// per-iteration comparison, not a solve. The OCP is built (tapes compiled)
// once, untimed, on the first run.
func monopodCase(n int, form dcs.Formulation, maxSteps, maxIter int) benchCase {
	sw := &switchInner{}
	var solver *fesd.OCPSolver
	c := benchCase{
		name: fmt.Sprintf("monopod N=%d %v, first relaxed NLP (σ=1), ≤%d it", n, form, maxIter),
		kind: "monopod", size: n, maxPairs: 1,
	}
	if maxSteps > 1 {
		c.name = fmt.Sprintf("monopod N=%d %v, first %d relaxed NLPs, ≤%d it each", n, form, maxSteps, maxIter)
	}
	c.prepare = func() (int, int, error) {
		p, err := monopodOCP(n, form, maxSteps, sw)
		if err != nil {
			return 0, 0, err
		}
		if solver, err = fesd.NewOCPSolver(p); err != nil {
			return 0, 0, fmt.Errorf("monopod: building the OCP: %w", err)
		}
		return solver.NumVariables(), solver.NumConstraints(), nil
	}
	c.release = func() { solver = nil }
	c.run = func(ctx context.Context, b backend) (sample, error) {
		if b == nil {
			b = native{}
		}
		in := &timedInner{b: b, set: monopodNLPSettings(maxIter)}
		sw.cur = in
		t0 := time.Now()
		r, err := solver.Solve(ctx)
		total := time.Since(t0)
		if err != nil {
			return sample{}, err
		}
		st := ""
		for i, h := range r.Homotopy {
			if i > 0 {
				st += ", "
			}
			st += fmt.Sprintf("σ=%.3g: %v (%d)", h.Sigma, h.Status, h.Iterations)
		}
		return sample{
			status: st, iters: in.iters, objective: r.Objective,
			total: total, setup: in.time.Setup,
			linalg: in.time.Factorization + in.time.Solve, eval: in.time.Evaluation,
		}, nil
	}
	return c
}
