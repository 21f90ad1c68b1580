package mpcc

import (
	"context"
	"errors"

	"github.com/fesd-go/fesd/nlp"
)

// NLPSolver adapts nlp.Solver to InnerSolver. A warm start becomes
// Settings.WarmStart, and its MuInit (if > 0) replaces Settings.MuInit.
// The relaxed NLPs go through one nlp.Workspace, so their KKT pattern,
// ordering and symbolic factorization are analysed once per homotopy; the
// tightened and branch NLPs of the certificate and finish, which have
// another structure, go through a second one. An NLPSolver must not be
// used by several solves at once.
type NLPSolver struct {
	Settings nlp.Settings
	ws       nlp.Workspace
	wsTight  nlp.Workspace
}

var _ InnerSolver = (*NLPSolver)(nil)

// DefaultNLPSettings returns the inner-solver settings of nosnoc (the IPOPT
// options set in +nosnoc/+reg_homotopy/Options.m): tolerances 1e-12 (tol,
// dual_inf_tol, compl_inf_tol), acceptable
// tolerance 1e-6, adaptive μ, no bound relaxation, at most 500 iterations.
func DefaultNLPSettings() nlp.Settings {
	return nlp.Settings{
		Tol:           1e-12,
		DualInfTol:    1e-12,
		ComplInfTol:   1e-12,
		AcceptableTol: 1e-6,
		MuStrategy:    nlp.MuAdaptive,
		NoBoundRelax:  true,
		MaxIter:       500,
	}
}

// SolveNLP implements InnerSolver.
func (s *NLPSolver) SolveNLP(ctx context.Context, p nlp.Problem, start *WarmStart) (*InnerResult, error) {
	solver := nlp.Solver{Settings: s.Settings}
	start.Apply(&solver.Settings)
	ws := &s.ws
	if _, ok := p.(interface{ tightened() }); ok {
		ws = &s.wsTight
	}
	res, err := solver.SolveIn(ctx, ws, p)
	if err != nil && (res == nil || !(errors.Is(err, nlp.ErrCallback) || errors.Is(err, nlp.ErrDerivatives))) {
		return nil, err
	}
	// A callback error or a derivative mismatch comes with a result (status
	// UserStop or DerivativeMismatch): it goes up in InnerResult.Err.
	return &InnerResult{
		Status:     res.Status,
		X:          res.X,
		Y:          res.Y,
		ZL:         res.ZL,
		ZU:         res.ZU,
		Iterations: res.Iterations,
		Err:        err,
	}, nil
}
