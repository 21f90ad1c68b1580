package main

import (
	"fmt"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/monopod"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// newCLSSolver builds the OCP of c without time freezing (-dcs fesdj):
// the robot as a complementarity Lagrangian system (monopod.NewCLS) with
// the paper's cost and bounds on (q, v) (Model.CLSOCP), transcribed by
// FESD-J, and the settings of its homotopy: the Scholtes relaxation from
// σ₀ = 1 with κ = 0.1 (the paper's schedule) until the complementarity
// residual is at most 1e-5, then FESD-J's active-set finish
// (fesd.CLSFinish); every relaxed NLP solved by package nlp to 1e-5 with
// threshold pivoting, cold duals and at most clsMaxIter iterations. From
// FESD-J's own σ₀ = fesd.CLSSigma0 = 1e-3 the first relaxed NLP stays at
// the standing start (see the package doc). -foot-ground and
// -terminal-tol add the same constraints as with time freezing (there is
// no Baumgarte gain to set: FESD-J keeps f_c ≥ 0 at every stage point
// and element boundary by itself).
// clsMaxIter is the iteration limit of a relaxed NLP of the FESD-J OCP
// (nosnoc's FESD-J examples: IPOPT's max_iter 1 000). A relaxed NLP that
// reaches it ends the step with IterationLimit and the homotopy goes on.
const clsMaxIter = 1000

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
	c.addConstraints(p, m.Kin.Foot[1], m.CLS.X, c.Task.XTargetCLS())
	inner := monopod.NLPSettings(nlpTol, clsMaxIter)
	inner.LinearSolver = nlp.PivotingLDL
	set = mpcc.Settings{Sigma0: 1, Kappa: 0.1, CompTol: compTol, ColdDuals: true, InexactFactor: -1, NLP: &inner, Log: c.Log}
	opts.MPCC, opts.Inner = set, c.inner
	s, err := fesd.NewOCPSolver(p, opts)
	if err != nil {
		return nil, set, nil, fmt.Errorf("monopod: building the FESD-J OCP: %w", err)
	}
	return s, set, m, nil
}
