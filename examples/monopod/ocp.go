package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/monopod"
	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// config selects one OCP run.
type config struct {
	N int // control stages
	// T is the horizon (3) and Distance the target q_x (3).
	T, Distance float64
	Form        dcs.Formulation // Step (Heaviside) or Stewart
	NFE         int             // finite elements per stage (3)
	// GammaH is the step-size bound h ≤ (1 + γ_h)h₀ (0: 1, nosnoc's;
	// fesd.Options.GammaH).
	GammaH float64
	// NS is the number of Radau IIA stages (2, order 3, as in the paper).
	NS int
	// Cross is the cross-complementarity mode (paper era: FE_STAGE, mode 3).
	Cross fesd.CrossComp
	// SOTMin, SOTMax bound the speed of time per stage ([0.99, 10], paper era).
	SOTMin, SOTMax float64
	// CompTol is the complementarity tolerance (1e-5) and MaxSteps the
	// number of homotopy steps (N_homotopy; 0 = mpcc's default from σ₀, κ
	// and CompTol).
	CompTol  float64
	MaxSteps int
	Kappa    float64
	// Steering is the homotopy's steering (Direct, as in the paper; L1 is
	// the exact ℓ1 penalty that NOSBENCH recommends).
	Steering mpcc.Steering
	// Relaxation is the homotopy's relaxation (ScholtesIneq, nosnoc's;
	// the scalar ones need Cross = StageStage).
	Relaxation mpcc.Relaxation
	// Finish, if not Direct, continues an unfinished homotopy from its last
	// point with this steering, starting at σ = FinishSigma0 (0: the last σ
	// of the first homotopy). LInf (the default) is the elastic ℓ∞ mode:
	// one slack s ≥ 0 with G·H ≤ s and the objective f + s/σ, which keeps
	// a constraint qualification that the Scholtes constraints G·H ≤ σ lose
	// as σ → 0; L1 is the exact ℓ1 penalty f + Σ G·H/σ.
	Finish       mpcc.Steering
	FinishSigma0 float64
	// FinishKappa is the reduction factor of the finishing homotopy (0:
	// Kappa).
	FinishKappa float64
	// NLPTol is the inner solver tolerance (IPOPT tol = acceptable_tol =
	// 1e-5 in the experiment).
	NLPTol  float64
	MaxIter int
	// Log receives the homotopy log (nil: quiet); NLPLog the iteration log
	// of every inner NLP solve.
	Log, NLPLog io.Writer
	// Inner, if not nil, solves the homotopy's NLPs instead of package nlp
	// (e.g. IPOPT, for comparisons).
	Inner mpcc.InnerSolver
	// InitRef starts the states at the reference (nosnoc's
	// initialize_with_ref; off in the paper's experiment, on by default
	// here: from the forward simulation the σ = 1 step already fails at
	// N = 30).
	InitRef bool
	// InitX0 starts every state at x₀ (nosnoc's default initialization).
	// With neither InitRef nor InitX0 the start is the forward simulation
	// with u = 0 that fesd.OCP uses without XInit.
	InitX0 bool
	// ColdDuals restarts every homotopy step from the primal point only
	// (nosnoc's warm_start_duals = false).
	ColdDuals bool
	// Monotone switches the inner solver from the adaptive barrier update
	// (mpcc's default) to the monotone one (IPOPT's default, used by
	// nosnoc); Mu0, if positive, fixes the initial barrier parameter of
	// every warm-started homotopy step (nosnoc: IPOPT's mu_init = 0.1;
	// mpcc's default is max(1e-9, 0.1σ)).
	Monotone bool
	Mu0      float64
	// PolishSigma, if positive, polishes (mpcc.Settings.Polish) after every
	// homotopy step with σ ≤ PolishSigma that misses CompTol: the NLP with
	// the complementarity active set fixed and σ = 0 is solved from that
	// step's point, and an accepted polished point ends the homotopy.
	PolishSigma float64
	// XBoundsAt is where the state bounds hold (fesd.AtStageEnds by
	// default; nosnoc bounds every stage point).
	XBoundsAt fesd.Where
	// Watchdog is nlp.Settings.WatchdogTrigger (0: off; IPOPT uses 10).
	Watchdog int
	// Inertia is the inner solver's inertia-correction policy
	// (nlp.Settings.Inertia; default nlp.InertiaDefault).
	Inertia nlp.InertiaPolicy
	// LinearSolver is the inner KKT backend: nlp.PivotingLDL (default
	// here; it pivots like IPOPT's MA27/MA57), nlp.SparseLDL (pivot-free,
	// faster per iteration, needs Inertia = nlp.InertiaStrictDeltaC on
	// this problem) or nlp.DenseLDL (small N only).
	LinearSolver nlp.LinearSolverKind
	// Sigma0 is the first σ of the homotopy (1) and WarmPush the inner
	// solver's warm-start bound push κ₁ (0: nlp's default 1e-3).
	Sigma0, WarmPush float64
	// FootGround adds the path constraint p_foot,z(q) ≥ 0 at every stage
	// point (nosnoc defines −0.005 ≤ foot_z but leaves it inactive). The
	// continuous time-freezing system never goes below the ground (q is
	// frozen while J_nᵀv < 0 there), but the relaxed NLPs find spurious
	// solutions that do.
	FootGround bool
	// FootSlack loosens FootGround to p_foot,z(q) ≥ −FootSlack (≥ 0),
	// which leaves the relaxed NLPs room to land softly but still excludes
	// the spurious Step solutions that fall tens of centimetres through
	// the ground between two stage ends.
	FootSlack float64
	// TerminalTol, if positive, adds the terminal constraints
	// |q(T) − q_target| ≤ TerminalTol and |v(T)| ≤ TerminalTol
	// (componentwise) to the tracking cost. nosnoc has only the cost
	// (Q_T = 1e3 on q, 10 on v), which leaves ‖q(T) − q*‖ ≈ 5e-3 and
	// ‖v(T)‖ ≈ 1e-2 at N = 30.
	TerminalTol float64
	// TerminalVelTol, if positive, adds |v(T)| ≤ TerminalVelTol alone
	// (componentwise); the position part of TerminalTol conflicts with the
	// drift of the foot below the ground during contact.
	TerminalVelTol float64
	// TerminalBall, if positive, adds the terminal constraints
	// ‖q(T) − q_target‖ ≤ TerminalBall and ‖v(T)‖ ≤ TerminalBall
	// (Euclidean norms, as the acceptance measures them) in the form
	// ‖·‖² ≤ TerminalBall². The box TerminalTol = r/2 lies inside the
	// ball of radius r (its corners are at distance r), so the ball leaves
	// the NLP more room for the same guarantee.
	TerminalBall float64
	// RefineBaumgarte is the Baumgarte gain of the refinement recipe of
	// -sweep -refine (0: 10). The N = 30 passes of the package doc's
	// Status solved with 100 (10 and 30 stalled at residuals 4.8e-5 and
	// 1.6e-5).
	RefineBaumgarte float64
	// KeepLastSuccess is mpcc.Settings.KeepLastSuccess: a failed homotopy
	// step that did not lower the complementarity residual does not become
	// the start of the next one.
	KeepLastSuccess bool
	// Baumgarte is dcs.TimeFreezingOptions.Baumgarte: the normal switching
	// function J_nᵀv + k f_c, which pulls a foot that drifted below the
	// ground back to it while in contact (0: nosnoc's J_nᵀv).
	Baumgarte float64
	// FinishBaumgarte, if positive, switches the Baumgarte gain to this
	// value for the -finish homotopy only: the Scholtes steps solve
	// nosnoc's system (or the one with Baumgarte), and the finish starts
	// from their point on the system with J_nᵀv + FinishBaumgarte·f_c.
	// The finish then runs also when the Scholtes steps ended Solved.
	FinishBaumgarte float64
	// FinishTerminalTol, if positive, adds the terminal box of TerminalTol
	// with this tolerance for the -finish homotopy only (as
	// FinishBaumgarte, the finish then always runs).
	FinishTerminalTol float64
	// FinishFootGround adds the FootGround path constraint (foot height ≥
	// −FootSlack at every stage point) for the -finish homotopy only (as
	// FinishBaumgarte, the finish then always runs): the Scholtes steps
	// find the gait without it, the finish is to pull the landings back
	// above the ground.
	FinishFootGround bool
	// FinishPlainFirst, with FinishBaumgarte or FinishTerminalTol, runs
	// the finish in two phases: first on the OCP of the Scholtes steps
	// (nosnoc's finish), then one Scholtes step at σ = 10·FinishSecondSigma0
	// from its last point, then the finish on the OCP with the gain and the
	// box, starting at σ = FinishSecondSigma0 (0: 1e-6, ρ = 1e6). At N = 40 (Stewart) the gain and box finish fails from the
	// σ = 1e-4 Scholtes point but succeeds from nosnoc's finish (package
	// doc).
	FinishPlainFirst   bool
	FinishSecondSigma0 float64
	// Warm, if not nil, is a saved NLP solution (solution.json of an
	// earlier run with the same N, DCS, cross complementarity, N_FE and
	// n_s) that starts the homotopy instead of the initialization.
	Warm []float64
	// Evaluate, with Warm, writes the saved solution's result without
	// solving (fesd.OCPSolver.Evaluate; status NotSolved): the trajectory,
	// plots, residuals and elements.csv of a point of an earlier run.
	Evaluate bool
	// InitFrom, if not nil, is the result of an earlier run on any grid
	// (another N or DCS mode) that initializes this one (fesd.Start.InitFrom:
	// states interpolated in time, controls and speeds of time by stage).
	InitFrom *fesd.OCPResult
	// fromName names the source of InitFrom in the summary (init_from).
	fromName string
	// saveDir, if not empty, is the output folder, where run writes
	// start.json: the solution the finishing homotopy starts from.
	saveDir string
}

func defaultConfig() config {
	return config{N: 60, T: 3, Distance: 3, Form: dcs.Step, NFE: 3, NS: 2, Cross: fesd.FEStage, SOTMin: 0.99, SOTMax: 10,
		CompTol: 1e-5, Kappa: 0.1, Sigma0: 1, NLPTol: 1e-5, MaxIter: 10000, LinearSolver: nlp.PivotingLDL,
		ColdDuals: true,
		// The homotopy that solves N = 30 in both modes (package doc, Status):
		// start at the reference, nosnoc's five Scholtes steps (σ = 1 …
		// 1e-4), then the ℓ∞ elastic mode from ρ = 1e5.
		InitRef: true, MaxSteps: 5, Finish: mpcc.LInf, FinishSigma0: 1e-5}
}

// finishRebuild reports whether the finishing homotopy solves an OCP of
// its own (FinishBaumgarte or FinishTerminalTol).
func (c config) finishRebuild() bool {
	return c.FinishBaumgarte > 0 || c.FinishTerminalTol > 0 || c.FinishFootGround
}

// finishConfig returns the configuration of the finishing OCP.
func (c config) finishConfig() config {
	if c.FinishBaumgarte > 0 {
		c.Baumgarte = c.FinishBaumgarte
	}
	if c.FinishTerminalTol > 0 {
		c.TerminalTol = c.FinishTerminalTol
	}
	if c.FinishFootGround {
		c.FootGround = true
	}
	return c
}

// task returns the motion of c.
func (c config) task() monopod.Task { return monopod.Task{N: c.N, T: c.T, Distance: c.Distance} }

// qTarget returns (Distance, 0.4, 0, 0).
func (c config) qTarget() []float64 { return c.task().QTarget() }

// reference returns x_ref (monopod.Task.Reference).
func (c config) reference() ([][]float64, error) { return c.task().Reference() }

// problem is an OCP with the solver options and the start of its solve.
type problem struct {
	ocp   *fesd.OCP
	opts  fesd.Options
	start fesd.Start
}

// buildOCP returns the discretized OCP of 004 §7.2 for the monopod model,
// with its options and start (the initialization of c; newSolver adds the
// warm start and InitFrom).
func buildOCP(m *monopod.Model, c config) (*problem, error) {
	for _, f := range []struct {
		name string
		v    float64
	}{{"TerminalTol", c.TerminalTol}, {"TerminalVelTol", c.TerminalVelTol}, {"TerminalBall", c.TerminalBall}, {"RefineBaumgarte", c.RefineBaumgarte}, {"FootSlack", c.FootSlack}, {"Baumgarte", c.Baumgarte}, {"FinishBaumgarte", c.FinishBaumgarte}, {"FinishTerminalTol", c.FinishTerminalTol}, {"FinishSecondSigma0", c.FinishSecondSigma0}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return nil, fmt.Errorf("monopod: %s = %v must be finite and ≥ 0", f.name, f.v)
		}
	}
	if c.finishRebuild() && c.Finish == mpcc.Direct {
		return nil, fmt.Errorf("monopod: FinishBaumgarte = %v, FinishTerminalTol = %v, FinishFootGround = %v need a finishing homotopy (Finish = l1 or linf)", c.FinishBaumgarte, c.FinishTerminalTol, c.FinishFootGround)
	}
	if (c.FinishPlainFirst || c.FinishSecondSigma0 > 0) && !c.finishRebuild() {
		return nil, fmt.Errorf("monopod: FinishPlainFirst and FinishSecondSigma0 need FinishBaumgarte, FinishTerminalTol or FinishFootGround (a second finishing OCP)")
	}
	// The OCP of 004 §7.2 (cost, bounds, speed of time, clock constraint;
	// monopod.Model.OCP) with this run's discretization and homotopy.
	task := c.task()
	p, opts, err := m.OCP(task, monopod.Discretization{NFE: c.NFE, NS: c.NS, GammaH: c.GammaH, Cross: c.Cross, SOTMin: c.SOTMin, SOTMax: c.SOTMax})
	if err != nil {
		return nil, err
	}
	pr := &problem{ocp: p, opts: opts}
	ref := p.Tracking.XRef
	x0, xT := p.X0, task.XTarget()
	inf := math.Inf(1)
	p.XBoundsAt = c.XBoundsAt
	// InexactFactor −1: every relaxed NLP to the inner tolerance, as in
	// the runs the package doc reports.
	pr.opts.MPCC = mpcc.Settings{Sigma0: c.Sigma0, Kappa: c.Kappa, CompTol: c.CompTol, MaxSteps: c.MaxSteps, Steering: c.Steering, Relaxation: c.Relaxation, InexactFactor: -1}
	nlpSet := monopod.NLPSettings(c.NLPTol, c.MaxIter)
	pr.opts.MPCC.NLP = &nlpSet
	nlpSet.Log = c.NLPLog
	nlpSet.WatchdogTrigger = c.Watchdog
	nlpSet.Inertia = c.Inertia
	nlpSet.WarmStartBoundPush = c.WarmPush
	nlpSet.LinearSolver = c.LinearSolver
	pr.opts.MPCC.Log = c.Log
	pr.opts.MPCC.ColdDuals = c.ColdDuals
	pr.opts.MPCC.KeepLastSuccess = c.KeepLastSuccess
	if c.Mu0 > 0 {
		// μ₀ = max(WarmMuMin, WarmMuFactor·σ) = Mu0 for σ ≤ 1.
		pr.opts.MPCC.WarmMuMin, pr.opts.MPCC.WarmMuFactor = c.Mu0, 1e-300
	}
	if c.Monotone {
		nlpSet.MuStrategy = nlp.MuMonotone
	}
	if c.PolishSigma > 0 {
		pr.opts.MPCC.FinishSigma = c.PolishSigma
	}
	pr.opts.Inner = c.Inner
	if c.FootGround {
		p.Path = append(p.Path, fesd.Constraint{G: ad.Vec{m.Kin.Foot[1]}, L: []float64{-c.FootSlack}, U: []float64{inf}, At: fesd.AtStagePoints})
	}
	// terminalBox constrains x_i(T) to [xT_i − tol, xT_i + tol] for i in
	// [from, to) (xT has v = 0).
	terminalBox := func(from, to int, tol float64) {
		var g ad.Vec
		var lo, hi []float64
		for i := from; i < to; i++ {
			g = append(g, m.TF.Model.X[i])
			lo, hi = append(lo, xT[i]-tol), append(hi, xT[i]+tol)
		}
		p.Terminal = append(p.Terminal, fesd.Constraint{G: g, L: lo, U: hi})
	}
	if c.TerminalTol > 0 {
		terminalBox(0, 8, c.TerminalTol)
	}
	if c.TerminalVelTol > 0 {
		terminalBox(4, 8, c.TerminalVelTol)
	}
	if r := c.TerminalBall; r > 0 {
		// squared distances of q(T) from q* and of v(T) from 0
		var dq, dv ad.Vec
		for i := 0; i < 8; i++ {
			d := ad.Sq(m.TF.Model.X[i].AddConst(-xT[i]))
			if i < 4 {
				dq = append(dq, d)
			} else {
				dv = append(dv, d)
			}
		}
		p.Terminal = append(p.Terminal, fesd.Constraint{G: ad.Vec{ad.Sum(dq), ad.Sum(dv)},
			L: []float64{-inf, -inf}, U: []float64{r * r, r * r}})
	}
	if c.InitX0 {
		pr.start.XInit = [][]float64{x0}
	}
	if c.InitRef {
		init := make([][]float64, c.N+1)
		init[0] = x0
		copy(init[1:], ref)
		pr.start.XInit = init
	}
	return pr, nil
}

// newSolver builds the model, the OCP and its solver for c; the problem's
// start has c's warm start and InitFrom.
func newSolver(c config) (*fesd.OCPSolver, *problem, *monopod.Model, error) {
	m, err := monopod.New(c.Form, c.Baumgarte)
	if err != nil {
		return nil, nil, nil, err
	}
	p, err := buildOCP(m, c)
	if err != nil {
		return nil, nil, nil, err
	}
	if c.Warm != nil {
		p.start.Warm = fesd.WarmFromNLPSolution(c.Warm)
	}
	p.start.InitFrom = c.InitFrom
	s, err := fesd.NewOCPSolver(p.ocp, p.opts)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("monopod: building the OCP: %w", err)
	}
	return s, p, m, nil
}

// run solves one OCP and returns the result and the model.
func run(ctx context.Context, c config) (*fesd.OCPResult, *monopod.Model, error) {
	s, p, m, err := newSolver(c)
	if err != nil {
		return nil, nil, err
	}
	if c.Evaluate {
		r, err := s.Evaluate(c.Warm)
		if err != nil {
			return nil, nil, fmt.Errorf("monopod: evaluating the saved solution: %w", err)
		}
		return r, m, nil
	}
	r, err := s.Solve(ctx, p.start)
	if err != nil {
		return r, m, fmt.Errorf("monopod: solving the OCP: %w", err)
	}
	rebuild := c.finishRebuild()
	if c.Finish == mpcc.Direct || (r.Status == mpcc.Solved && !rebuild) || len(r.Homotopy) == 0 || ctx.Err() != nil {
		return r, m, nil
	}
	if c.saveDir != "" {
		// The point the finish starts from, to try other finishes from it
		// (-warm DIR/start.json -sigma0 σ -max-steps 1, σ its "sigma" field).
		if _, err := report.MakeDir(c.saveDir); err != nil {
			return r, m, err
		}
		if err := report.WriteJSON(filepath.Join(c.saveDir, "start.json"), newSavedSolution(c, r)); err != nil {
			return r, m, err
		}
	}
	set := p.opts.MPCC
	set.Steering, set.Sigma0, set.MaxSteps = c.Finish, c.FinishSigma0, 0
	if c.FinishKappa > 0 {
		set.Kappa = c.FinishKappa
	}
	if set.Sigma0 == 0 {
		set.Sigma0 = r.Homotopy[len(r.Homotopy)-1].Sigma
	}
	if rebuild && c.FinishPlainFirst {
		// Phase one: nosnoc's finish on the same OCP.
		if r, err = finish(ctx, s, set, r); err != nil || ctx.Err() != nil {
			return r, m, err
		}
		sigma2 := c.FinishSecondSigma0
		if sigma2 == 0 {
			sigma2 = 1e-6
		}
		// One Scholtes step at σ = 10·sigma2 from that point, which moves
		// the complementarity products off ≈ 0 into the relaxed set: the
		// gain and box finish from the ℓ∞ point itself stalls (package
		// doc).
		rc := p.opts.MPCC
		rc.Sigma0, rc.MaxSteps = bridgeSigma(sigma2), 1
		if r, err = finish(ctx, s, rc, r); err != nil || ctx.Err() != nil {
			return r, m, err
		}
		set.Sigma0 = sigma2
	}
	if rebuild {
		// The same NLP variables with the finishing Baumgarte gain (only
		// the normal switching function differs) and terminal box (only
		// constraints are added).
		s2, _, m2, err := newSolver(c.finishConfig())
		if err != nil {
			return r, m, fmt.Errorf("monopod: finishing homotopy: %w", err)
		}
		s, m = s2, m2
	}
	r, err = finish(ctx, s, set, r)
	return r, m, err
}

// bridgeSigma returns 10·sigma2 rounded to 12 significant digits: the
// decimal a user passes as -sigma0 to repeat the step with -warm. The
// plain product is not that number (10·1e-6 = 9.999999999999999e-06, one
// ulp below 1e-5), and at N = 40 (Stewart) the step from nosnoc's finish
// takes 503 iterations to Solved at σ = 1e-5 but stops at the 3 000
// iteration limit one ulp below (one run each).
func bridgeSigma(sigma2 float64) float64 {
	// FormatFloat's output always parses (±Inf included).
	b, _ := strconv.ParseFloat(strconv.FormatFloat(10*sigma2, 'g', 12, 64), 64)
	return b
}

// finish solves the homotopy set with s's NLP from the point of r and
// returns the result with r's homotopy records, iterations and time
// prepended (r itself if the solve cannot start).
func finish(ctx context.Context, s *fesd.OCPSolver, set mpcc.Settings, r *fesd.OCPResult) (*fesd.OCPResult, error) {
	sf, err := s.WithHomotopy(set)
	if err != nil {
		return r, fmt.Errorf("monopod: finishing homotopy: %w", err)
	}
	r2, err := sf.Solve(ctx, fesd.Start{Warm: r})
	if err != nil {
		return r, fmt.Errorf("monopod: finishing homotopy: %w", err)
	}
	// The last successful step of the whole chain: r2's own (its records
	// behind r's), or, if no step of r2 succeeded, r's.
	ok := false
	for _, st := range r2.Homotopy {
		ok = ok || st.Status.Success()
	}
	switch ls := r2.LastSuccess; {
	case ls != nil:
		ls.Homotopy = append(append([]mpcc.HomotopyStep(nil), r.Homotopy...), ls.Homotopy...)
		ls.Iterations += r.Iterations
	case !ok:
		r2.LastSuccess = r.LastSuccess
		if n := len(r.Homotopy); n > 0 && r.Homotopy[n-1].Status.Success() {
			r2.LastSuccess = r
		}
	}
	r2.Homotopy = append(append([]mpcc.HomotopyStep(nil), r.Homotopy...), r2.Homotopy...)
	r2.Iterations += r.Iterations
	r2.Elapsed += r.Elapsed
	return r2, nil
}
