package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/hopper"
	"github.com/fesd-go/fesd/mpcc"
)

// config selects one OCP run: the problem (hopper.Task), the formulation
// and the homotopy and inner-solver settings of this example.
type config struct {
	hopper.Task
	Form dcs.Formulation
	// Homotopy: σ₀ (100), κ (0.1), complementarity tolerance (1e-9),
	// MaxSteps (0: mpcc's default from σ₀, κ and CompTol; nosnoc_py's
	// max_iter_homotopy = 6).
	Sigma0, Kappa, CompTol float64
	MaxSteps               int
	// NLPTol is the inner tolerance (0: 0.01·CompTol, nosnoc_py's rule),
	// MaxIter the inner iteration limit per homotopy step (4000,
	// nosnoc_py's).
	NLPTol  float64
	MaxIter int
	// InitRef starts the states at the reference (stage_experiment.py:
	// ref_as_init = True).
	InitRef bool
	// Log receives the homotopy log.
	Log io.Writer
}

func defaultConfig() config {
	return config{Task: hopper.StageExperiment(60), Form: dcs.Step,
		Sigma0: 100, Kappa: 0.1, CompTol: 1e-9, MaxIter: 4000, InitRef: true}
}

// errConfig reports invalid settings of a run.
var errConfig = errors.New("hopper: invalid configuration")

func (c config) validate() error {
	if err := c.Task.Validate(); err != nil {
		return fmt.Errorf("%w: %w", errConfig, err)
	}
	return nil
}

// problem is an OCP with the solver options and the start it is solved
// with.
type problem struct {
	ocp   *fesd.OCP
	opts  fesd.Options
	start fesd.Start
}

// buildOCP returns the OCP of nosnoc_py's hopper (hopper.Model.OCP) on the
// model h with this example's homotopy and inner-solver settings.
func buildOCP(h *hopper.Model, c config) (*problem, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	p, opts, err := h.OCP(c.Task)
	if err != nil {
		return nil, err
	}
	opts.MPCC = mpcc.Settings{Sigma0: c.Sigma0, Kappa: c.Kappa, CompTol: c.CompTol, MaxSteps: c.MaxSteps, Log: c.Log}
	nlpSet := mpcc.DefaultNLPSettings()
	tol := c.NLPTol
	if tol == 0 {
		tol = 0.01 * c.CompTol
		if tol == 0 {
			tol = 1e-11
		}
	}
	nlpSet.Tol, nlpSet.DualInfTol, nlpSet.ComplInfTol = tol, tol, tol
	nlpSet.AcceptableTol = 1e-6
	if c.MaxIter > 0 {
		nlpSet.MaxIter = c.MaxIter
	}
	opts.MPCC.NLP = &nlpSet
	return &problem{ocp: p, opts: opts, start: c.Start(c.InitRef)}, nil
}

// run builds and solves one OCP. A homotopy that ends without Solved is
// not an error: the result carries the status.
func run(ctx context.Context, c config) (*fesd.OCPResult, *hopper.Model, error) {
	h, err := hopper.New(c.Form)
	if err != nil {
		return nil, nil, err
	}
	p, err := buildOCP(h, c)
	if err != nil {
		return nil, nil, err
	}
	s, err := fesd.NewOCPSolver(p.ocp, p.opts)
	if err != nil {
		return nil, nil, fmt.Errorf("hopper: building the OCP: %w", err)
	}
	r, err := s.Solve(ctx, p.start)
	if err != nil {
		return r, h, fmt.Errorf("hopper: solving the OCP: %w", err)
	}
	return r, h, nil
}
