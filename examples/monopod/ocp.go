package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/monopod"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// config is one run of the program: the task, the DCS formulation and the
// two optional physical constraints.
type config struct {
	Task monopod.Task
	Form dcs.Formulation // Step (Heaviside) or Stewart (time freezing)
	// FESDJ solves the OCP without time freezing: the robot as a
	// complementarity Lagrangian system transcribed by FESD-J
	// (monopod.NewCLS, Model.CLSOCP); Form is then not used.
	FESDJ bool
	// TerminalTol, if positive, adds the terminal box |q_i(T) − q*_i| ≤
	// TerminalTol and |v_i(T)| ≤ TerminalTol (every component) to the
	// tracking cost; 0 is the paper's OCP (the terminal cost only).
	TerminalTol float64
	// FootGround adds the path constraint p_foot,z(q) ≥ −compTol at every
	// stage point: the foot not below the ground by more than the
	// complementarity tolerance.
	FootGround bool
	// Log receives the homotopy log (nil: quiet).
	Log io.Writer
	// inner, if not nil, solves the relaxed NLPs instead of package nlp
	// (the IPOPT comparison of ipopt_test.go).
	inner mpcc.InnerSolver
}

// Settings of the one solver configuration (solve).
const (
	compTol = 1e-5  // complementarity tolerance of 004 §7.2
	nlpTol  = 1e-5  // inner tolerance (IPOPT tol = acceptable_tol in 004 §7.2)
	maxIter = 10000 // iteration limit of every relaxed NLP
	// scholtesSteps is nosnoc's N_homotopy of the paper: σ = 1, 0.1, …, 1e-4.
	scholtesSteps = 5
	// linfSigma0 is the first σ of the ℓ∞ elastic homotopy (penalty ρ = 1/σ = 1e5).
	linfSigma0 = 1e-5
	// baumgarte is the gain k of the normal switching function J_nᵀv + k·f_c
	// used with TerminalTol or FootGround (see constrained).
	baumgarte = 10
)

// constrained reports whether c adds a terminal box or the foot
// constraint to the paper's OCP. Both then use the Baumgarte gain k = 10:
// with nosnoc's normal switching function J_nᵀv a foot that drifted below
// the ground during contact stays there, and the gain pulls it back to
// f_c = 0, which the terminal height q_z(T) = 0.4 and the foot constraint
// need.
func (c config) constrained() bool { return c.TerminalTol > 0 || c.FootGround }

func defaultConfig() config {
	return config{Task: monopod.PaperTask(60), Form: dcs.Step}
}

// dcsName is the formulation's name as the -dcs flag spells it.
func (c config) dcsName() string {
	if c.FESDJ {
		return "fesdj"
	}
	return c.Form.String()
}

// formFlag is the -dcs flag: step or stewart (time freezing), or fesdj.
type formFlag struct{ c *config }

func (f formFlag) String() string {
	if f.c == nil {
		return ""
	}
	return f.c.dcsName()
}

func (f formFlag) Set(s string) error {
	if strings.EqualFold(s, "fesdj") || strings.EqualFold(s, "fesd-j") {
		f.c.FESDJ = true
		return nil
	}
	f.c.FESDJ = false
	return f.c.Form.UnmarshalText([]byte(s))
}

// validate reports settings that cannot be solved.
func (c config) validate() error {
	if err := c.Task.Validate(); err != nil {
		return err
	}
	if !(c.TerminalTol >= 0) || math.IsInf(c.TerminalTol, 0) {
		return fmt.Errorf("monopod: terminal tolerance %v, want finite and ≥ 0", c.TerminalTol)
	}
	return nil
}

// newSolver builds the model and the OCP of c with the settings of the
// first homotopy (solve), which it also returns.
// addConstraints adds the constraints of -foot-ground (the foot height
// foot ≥ −compTol at the stage points) and -terminal-tol (|x(T) − xT| ≤
// tol for the states x) to p.
func (c config) addConstraints(p *fesd.OCP, foot ad.Expr, x ad.Vec, xT []float64) {
	if c.FootGround {
		p.Path = append(p.Path, fesd.Constraint{G: ad.Vec{foot},
			L: []float64{-compTol}, U: []float64{math.Inf(1)}, At: fesd.AtStagePoints})
	}
	if tol := c.TerminalTol; tol > 0 {
		lo, hi := make([]float64, len(x)), make([]float64, len(x))
		for i := range x {
			lo[i], hi[i] = xT[i]-tol, xT[i]+tol
		}
		p.Terminal = append(p.Terminal, fesd.Constraint{G: x, L: lo, U: hi})
	}
}

func newSolver(c config) (*fesd.OCPSolver, mpcc.Settings, *monopod.Model, error) {
	var set mpcc.Settings
	if err := c.validate(); err != nil {
		return nil, set, nil, err
	}
	if c.FESDJ {
		return newCLSSolver(c)
	}
	k := 0.0
	if c.constrained() {
		k = baumgarte
	}
	m, err := monopod.New(c.Form, k)
	if err != nil {
		return nil, set, nil, err
	}
	// The OCP of 004 §7.2 with the paper's discretization (Radau IIA
	// n_s = 2, N_FE = 3, FE_STAGE cross complementarity, one speed of
	// time per stage in [0.99, 10]).
	p, opts, err := m.OCP(c.Task, monopod.Discretization{})
	if err != nil {
		return nil, set, nil, err
	}
	// q and v, not the clock
	c.addConstraints(p, m.Kin.Foot[1], m.TF.Model.X[:8], c.Task.XTarget()[:8])
	inner := monopod.NLPSettings(nlpTol, maxIter)
	inner.LinearSolver = nlp.PivotingLDL // threshold pivoting, as IPOPT's MA27/MA57
	set = mpcc.Settings{
		// Scholtes G·H ≤ σ (the zero Relaxation and Steering), σ ← 0.1σ.
		Sigma0: 1, Kappa: 0.1, CompTol: compTol, MaxSteps: scholtesSteps,
		// Every step restarts from the primal point only (nosnoc's
		// warm_start_duals = false).
		ColdDuals: true,
		// Every relaxed NLP to the inner tolerance, as measured in the
		// package doc (with mpcc's default inexact steps N = 30 Step ended
		// NLPFailure at residual 9.3e-5 after 21 495 iterations, one run).
		InexactFactor: -1,
		NLP:           &inner,
		Log:           c.Log,
	}
	opts.MPCC, opts.Inner = set, c.inner
	s, err := fesd.NewOCPSolver(p, opts)
	if err != nil {
		return nil, set, nil, fmt.Errorf("monopod: building the OCP: %w", err)
	}
	return s, set, m, nil
}

// solve runs the program's one solver configuration on the OCP of c:
//
//  1. the states start at the reference x_ref (nosnoc's
//     initialize_with_ref), the controls at 0, the speeds of time at 1;
//  2. nosnoc's homotopy of the paper: the Scholtes relaxation G·H ≤ σ
//     with σ = 1, 0.1, …, 1e-4, each relaxed NLP solved to 1e-5;
//  3. if the complementarity residual is still above 1e-5, the ℓ∞
//     elastic homotopy continues from that point on the same NLP: one
//     slack s ≥ 0 with G·H ≤ s and the objective f + s/σ, σ = 1e-5,
//     1e-6, …, which keeps a constraint qualification that the Scholtes
//     constraints lose as σ → 0 (time freezing; -dcs fesdj continues
//     its own homotopy instead, continueCLS).
//
// The result of step 3 carries the records, iterations and time of both
// homotopies. A result that is not Solved is not an error: its Status
// says what happened.
func solve(ctx context.Context, c config) (*fesd.OCPResult, *monopod.Model, error) {
	s, set, m, err := newSolver(c)
	if err != nil {
		return nil, nil, err
	}
	var start fesd.Start
	if !c.FESDJ { // FESD-J starts from SimulateCLS's guess (fesd.OCP.CLS)
		init, err := c.Task.Reference() // rows: the ends of stages 1 … N
		if err != nil {
			return nil, nil, err
		}
		start.XInit = append([][]float64{c.Task.X0()}, init...)
	}
	r, err := s.Solve(ctx, start)
	if err != nil {
		return r, m, fmt.Errorf("monopod: solving the OCP: %w", err)
	}
	// Invalid is solved too (complementarity within the tolerance): the ℓ∞
	// homotopy tightens complementarity, not physics (measured at N = 30
	// Step: from the Invalid point it ended NLPFailure at residual 6.7
	// after 23 776 iterations).
	if c.FESDJ {
		// No ℓ∞ homotopy for FESD-J: from its σ = 1e-4 point at N = 30 it
		// ended NLPFailure at residual 0.52, 0.57 from q* (one run).
		r2, err := continueCLS(ctx, s, set, r)
		return r2, m, err
	}
	if r.Status == mpcc.Solved || r.Status == mpcc.Invalid || len(r.Homotopy) == 0 || ctx.Err() != nil {
		return r, m, nil
	}
	set.Steering, set.Sigma0, set.MaxSteps = mpcc.LInf, linfSigma0, 0
	linf, err := s.WithHomotopy(set)
	if err != nil {
		return r, m, fmt.Errorf("monopod: ℓ∞ homotopy: %w", err)
	}
	r2, err := linf.Solve(ctx, fesd.Start{Warm: r})
	if err != nil {
		return r, m, fmt.Errorf("monopod: ℓ∞ homotopy: %w", err)
	}
	r2.Homotopy = append(append([]mpcc.HomotopyStep(nil), r.Homotopy...), r2.Homotopy...)
	r2.Iterations += r.Iterations
	r2.Elapsed += r.Elapsed
	return r2, m, nil
}
