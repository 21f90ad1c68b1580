package main

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/monopod"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// newCLSSolver builds the OCP of c without time freezing (-dcs fesdj):
// the robot as a complementarity Lagrangian system (monopod.NewCLS) with
// the paper's cost and bounds on (q, v) (Model.CLSOCP), transcribed by
// FESD-J, and the settings of its homotopy. The inner solver is the one of
// the time-freezing runs (package nlp to 1e-5, threshold pivoting, at
// most 10 000 iterations per relaxed NLP, every relaxed NLP solved to the
// inner tolerance, cold duals); the homotopy is FESD-J's default
// (σ₀ = fesd.CLSSigma0, κ = 0.1, then the active-set finish
// fesd.CLSFinish) with the complementarity tolerance 1e-5. -foot-ground and
// -terminal-tol add the same constraints as with time freezing (there is
// no Baumgarte gain to set: FESD-J keeps f_c ≥ 0 at every stage point
// and element boundary by itself).
func newCLSSolver(c config) (*fesd.OCPSolver, mpcc.Settings, *monopod.Model, error) {
	var set mpcc.Settings
	m, err := monopod.NewCLS()
	if err != nil {
		return nil, set, nil, err
	}
	p, opts, err := m.CLSOCP(c.Task, monopod.Discretization{})
	if err != nil {
		return nil, set, nil, err
	}
	if c.FootGround {
		p.Path = append(p.Path, fesd.Constraint{G: ad.Vec{m.Kin.Foot[1]},
			L: []float64{-compTol}, U: []float64{math.Inf(1)}, At: fesd.AtStagePoints})
	}
	if tol := c.TerminalTol; tol > 0 {
		xT := c.Task.XTargetCLS()
		var lo, hi []float64
		for i := range xT {
			lo, hi = append(lo, xT[i]-tol), append(hi, xT[i]+tol)
		}
		p.Terminal = append(p.Terminal, fesd.Constraint{G: m.CLS.X, L: lo, U: hi})
	}
	inner := monopod.NLPSettings(nlpTol, maxIter)
	inner.LinearSolver = nlp.PivotingLDL
	set = mpcc.Settings{CompTol: compTol, ColdDuals: true, InexactFactor: -1, NLP: &inner, Log: c.Log}
	opts.MPCC, opts.Inner = set, c.inner
	s, err := fesd.NewOCPSolver(p, opts)
	if err != nil {
		return nil, set, nil, fmt.Errorf("monopod: building the FESD-J OCP: %w", err)
	}
	return s, set, m, nil
}
