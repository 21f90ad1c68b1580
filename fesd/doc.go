// Package fesd simulates and optimally controls nonsmooth dynamical systems
// with FESD, finite elements with switch detection (004, see References). A
// model of package dcs (a Filippov system, a system with set-valued
// Heaviside step functions, a time-freezing system) is reformulated as a
// dynamic complementarity system (DCS); FESD discretizes it into an MPCC
// (package mpcc), which the Scholtes relaxation homotopy solves with the
// interior-point method of package nlp.
//
// There are two entry points:
//
//   - Simulate integrates a model from x₀ over [T0, T0 + TSim] in NSim
//     steps (SimOptions); a Simulator does the same one Step at a time.
//   - SolveOCP, or NewOCPSolver followed by Solve, solves an optimal control
//     problem. The problem is an OCP, the settings are Options and the
//     initial guess is a Start.
//
// Both use one transcription. An OCP with N control stages becomes one NLP;
// a simulation step is the same NLP for one stage with a fixed control, in
// which x₀, u, p and t₀ are parameters. The NLP is compiled once, and every
// further step or solve only changes numbers. Every result embeds a
// Trajectory (see "Results" below).
//
// # How to state an OCP
//
// The example is the time-optimal "turbo car" of nosnoc's tutorial
// (examples/pss_ocp_tutorial_example/pss_tutorial_turbo_car_ocp.m in
// github.com/nosnoc/nosnoc). The dynamics are q̇ = v, with v̇ = u for v < 10
// and v̇ = 3u for v > 10. The bound is |u| ≤ 5, and the car drives from rest
// at q = 0 to rest at q = 200 in minimal time. The optimum is bang-bang:
// full thrust up to v = √2800, then full braking, so
// T* = 4 + 2(√2800 − 10)/15 ≈ 9.72200. ExampleOCP solves it:
//
//	g := ad.NewGraph()
//	x, u := g.SymVec("x", 2), g.SymVec("u", 1) // x = (q, v)
//	m := dcs.NewModel(g, x, u, nil)
//	m.AddSubsystem(dcs.Subsystem{
//		Psi: ad.Vec{x[1].AddConst(-10)}, // ψ = v − 10
//		S:   [][]int{{-1}, {1}},         // mode 1 where ψ < 0, mode 2 where ψ > 0
//		F:   []ad.Vec{{x[1], u[0]}, {x[1], u[0].Scale(3)}},
//	})
//	problem := &fesd.OCP{ // the problem
//		Model: m, X0: []float64{0, 0},
//		N: 10, T: 10, NFE: []int{3}, // 10 control stages of 3 elements
//		TimeOptimal: true,           // minimize T_f; T is its initial guess
//		UL: []float64{-5}, UU: []float64{5},
//		Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-200), x[1]}}},
//	}
//	settings := fesd.Options{ // zero fields: nosnoc's defaults
//		DCS:               dcs.Options{Formulation: dcs.Step},
//		StepEquilibration: fesd.NoEquilibration,
//	}
//	start := fesd.Start{ // the initial guess: a bang-bang control
//		UInit: [][]float64{{5}, {5}, {5}, {0}, {0}, {0}, {0}, {-5}, {-5}, {-5}},
//	}
//	res, err := fesd.SolveOCP(ctx, problem, settings, start)
//	// err: the solve could not run; res.Status: mpcc.Solved or why not;
//	// res.TFinal ≈ 9.722, res.U the 10 controls, res.Trajectory the states.
//
// The problem (OCP) holds the model and x₀, the horizon (N stages of
// numerical length T/N, each with NFE finite elements), the costs
// (Lagrange, Mayer, Tracking, TimeOptimal) and the constraints (bounds XL,
// XU, UL, UU; Path, Terminal and StageEnd constraints; path
// complementarities PathComps). It also holds the parameter values (P,
// PStage), the global decision variables (V) and free time or speed of time
// (FreeTime, SpeedOfTime). A zero field means "none" or the documented
// default.
//
// The settings (Options) select the discretization and the solver: the
// Runge–Kutta scheme and its number of stages n_s, the representation, the
// number of elements N_FE per stage, FESD on or off, the step-size bound
// γ_h, the cross-complementarity and step-equilibration modes, the DCS
// reformulation (dcs.Options) and the homotopy (mpcc.Settings). The zero
// Options are nosnoc's defaults. Options.Validate reports invalid
// combinations (ErrOptions); nothing is changed silently.
//
// The start (Start) is where one solve begins. There are three kinds:
//
//   - Initial guess: the zero Start takes controls 0 (projected into the
//     bounds) or Start.UInit. The states come from an explicit RK4
//     simulation from x₀ with those controls, or from Start.XInit. The
//     algebraic variables take the DCS's consistent values at every point,
//     and the step sizes start uniform.
//   - Warm start: Start.Warm is a result of an earlier Solve of the same
//     problem, or WarmFromNLPSolution of a vector saved with
//     OCPResult.NLPSolution. A result also carries the multipliers of its
//     last relaxed NLP (at σ_r): a solver whose σ₀ ≤ σ_r continues the
//     homotopy from that primal-dual point (TestOCPContinue), where a
//     start from the primal point alone takes cold multipliers and a cold
//     barrier parameter and may wander far from it.
//   - Interpolation: Start.InitFrom is a result on another grid (another N,
//     N_FE, scheme or DCS formulation), interpolated onto this one (mesh
//     refinement).
//
// An OCPSolver is built and compiled once (NewOCPSolver) and can then solve
// many times:
//
//   - Solve(ctx, start) runs the homotopy from a Start.
//   - SetX0 changes x₀ for the next Solve (model-predictive control).
//   - WithHomotopy returns a solver on the same compiled NLP with other
//     mpcc.Settings, for example to continue from a Warm start at a
//     smaller σ₀ (from the result's primal-dual point).
//   - Evaluate turns an NLP point into an OCPResult without solving.
//
// A homotopy that fails is reported in OCPResult.Status, not as an error.
// Errors mean that the solve could not run: ErrDimension, ErrBounds,
// ErrOptions, ErrNonFinite, …. An OCP that cannot be met ends
// mpcc.Infeasible (two consecutive relaxed NLPs locally infeasible), and
// OCPResult.Infeasible names the constraint groups at fault: a phase-1
// MPCC keeps the dynamics and makes the path, stage-end, terminal and
// horizon rows elastic (one slack pair per row, Σ slacks minimized with a
// small proximal term, as in IPOPT's restoration phase), so an unreachable
// target reads "terminal constraints violated by 2 (row 0, stage 3)", the
// distance by which it is missed; when even the dynamics under the
// variable bounds cannot hold, the group is GroupDynamics. When the
// phase-1 MPCC meets every group, or when the violations of every row at
// the homotopy's last point sum to less than a hundredth of the violation
// the phase-1 point claims (the phase-1 MPCC is nonconvex too), the
// infeasibility is not confirmed (Infeasibility.Unconfirmed) and the
// status is mpcc.NLPFailure; a phase-1 point that meets every group is
// returned as OCPResult.Feasible, a trajectory within the constraints but
// not optimized, for a fallback or another start.
//
// # Simulation
//
//	res, err := fesd.Simulate(ctx, model, x0, fesd.SimOptions{
//		TSim: 1, NSim: 2, U: u, P: p, // 2 steps of length T = 1/2
//		Options: fesd.Options{NFE: 2},
//	})
//
// Each step [t₀, t₀ + T], T = TSim/NSim, is one control stage with a fixed
// control (SimOptions.U, or UFunc(t₀)) and N_FE = Options.NFE elements. It
// starts from the previous step's solution (see "Homotopy and simulation");
// if its homotopy fails from there, the step is solved once more from the
// cold start (StepRecord.ColdRetry). A step that still fails is solved
// again as two halves of the same control, each halved again if it fails,
// down to T/2^MaxSplitDepth = T/8 (split.go); with the prediction, a step
// whose predicted switches outnumber its N_FE − 1 interior element
// boundaries is split before it is tried. Every piece keeps its
// StepRecord (Step the index of its step, Depth d for the length T/2^d, the
// failed solve's records folded into the first piece's, Splits), its
// elements belong to its step's stage (StageOf), and the sensitivities are
// chained across the pieces as across steps. On examples/irma's 1000
// minutes six of 500 steps are split (one down to T/8), and their failed
// solves cost 1 631 NLP iterations of the run's 2 882. If a piece
// fails at the deepest level, Simulate returns what was computed up to it
// together with a *StepError (ErrStepFailed), which names the status of
// the last relaxed NLP and, with N_FE = 1 and a switch predicted inside the
// step, wraps ErrSwitchInStep (such a step is not split: the switch stays
// inside one of the halves). The switches are detected over the whole
// trajectory.
//
// # Sharing a model, cancellation
//
// A *dcs.Model may be shared: Simulate, NewSimulator, NewOCPSolver and
// SolveOCP only read it and its graph. Each of them reformulates the model
// into a graph of its own (dcs.Model.Reformulate copies the model's
// expressions) and translates the OCP's expressions (costs, constraints,
// V, HorizonSym) into that graph, where the transcription builds its NLP.
// So goroutines may simulate or solve OCPs of one model at once, with the
// results of sequential runs, and the model's graph does not grow however
// often it is used. Do not change the model or build expressions in its
// graph while such calls run. Callbacks that build expressions
// (PathComp.FromDCS, OCP.LagrangeFromDCS) receive the reformulated DCS:
// use its symbols (d.X, d.Var, …) or d.Import for expressions of the
// model. A Simulator or OCPSolver itself is not safe for concurrent use.
//
// Cancellation follows one rule: when the context is done,
// errors.Is(err, ctx.Err()) holds (context.Canceled or
// context.DeadlineExceeded) and whatever was computed comes back with the
// error. A context done before the call gives a nil result. Done during
// the run, Simulate returns the steps computed so far and a *StepError
// with Status mpcc.Cancelled (which wraps both ErrStepFailed and the
// context's error); OCPSolver.Solve and SolveOCP return the result at the
// homotopy's last point with Status mpcc.Cancelled (or nil if no NLP had
// produced a point yet).
//
// # Results: stages, elements, stage points
//
// SimResult, OCPResult and StepResult embed a Trajectory, the solution on
// the FESD grid. The grid has three levels:
//
//   - stage: a control stage k of an OCP (constant control q_k, numerical
//     length T/N) or one simulation step. StageOf gives the stage of every
//     element.
//   - element: a finite element n. Each stage has N_FE of them, and they
//     are numbered consecutively over all stages. T and X are the NE + 1
//     element boundaries and the states there, and H are the step sizes h_n.
//   - stage point: one of the n_s Runge–Kutta stage points t_n + c_m h_n of
//     an element. PointT, PointX and PointZ hold all of them, in order; the
//     DCS's algebraic variables live here (read them with Algebraic, Theta,
//     Alpha, Lambda).
//
// BoundaryZ holds the boundary multipliers at the element boundaries, and
// Switches the detected switches. OCPResult adds the stage level (StageT,
// StageX, U, SOT), the physical times (TPhys, PointTPhys, StageTPhys,
// TFinal), the objective, the residuals, the homotopy record and the
// largest complementarity term of every element (ElementResidual).
// SimResult adds one StepRecord per step. All times in a Trajectory are
// numerical times τ.
//
// # Physical validity of time-freezing results
//
// A complementarity residual within the tolerance does not make a
// time-freezing solution physical: a relaxed solution may apply the
// auxiliary (impact) dynamics with a weight of about σ/f_c where the gap
// f_c is open, and a discrete one may keep a contact point below the
// ground while the clock advances (in the region f_c < 0, J_nᵀv > 0 the
// model is in free flight). For a model of dcs.NewTimeFreezing an
// OCPSolver therefore checks every result (OCPResult.Validity: drift
// below the ground where the clock advances, phantom contact, the clock
// spanning T, flight phases and landings; tolerances OCP.Validity), and a
// homotopy that solved the MPCC at a point that fails the check ends with
// status mpcc.Invalid instead of mpcc.Solved. TimeFreezingValidity checks
// any trajectory, a simulation's for example.
//
// # Transcription of one control stage
//
// A stage [t₀, t₀ + T] with constant control u is split into N_FE finite
// elements of lengths h_n, n = 0…N_FE−1. Each element is integrated by an
// n_s-stage Runge–Kutta method (c, A, b). Let t_n = t₀ + Σ_{k<n} h_k, and
// let the stage points be t_{n,i} = t_n + c_i h_n (time-dependent models
// get t as an input of F).
//
// Differential representation (004 eq. 33), unknowns v_{n,i}:
//
//	v_{n,i} = F(x_{n,i}, u, p, z_{n,i}, t_{n,i}),  x_{n,i} = x_n + h_n Σ_j a_ij v_{n,j},
//	x_{n+1} = x_n + h_n Σ_i b_i v_{n,i}.
//
// Integral representation (the default, as in nosnoc; rk.Integral builds the
// collocation matrices C and D), unknowns x_{n,i}:
//
//	h_n F(x_{n,i}, …) = Σ_{r=0}^{n_s} C_ri x_{n,r},  x_{n+1} = Σ_r D_r x_{n,r},  x_{n,0} = x_n.
//
// At every stage point, the DCS's algebraic equations
// G(x_{n,i}, u, p, z_{n,i}) = 0 hold and z_{n,i} respects its bounds.
// The rows of one finite element — the equations above at its n_s stage
// points, the slacks, the path constraints and lifted path
// complementarities at stage points, the continuity and boundary
// equations — and its running cost are built once in local symbols (the
// element template) and compiled once by nlp/adnlp as an adnlp.Block. Every
// element is an instance of it whose inputs are affine in the NLP's
// variables and parameters: h_n, x_n, the stage variables, x_{n+1}, the
// stage's control and parameters, its speed of time, t_n = t₀ + τ_k plus
// the earlier step sizes of the stage, and T_f. Only the coupling between
// elements and stages (step sums, step equilibration, constraints and
// costs at stage ends and element boundaries) is built symbolically. So the
// build is linear in the number of elements with a small constant (the
// monopod of 004 §7.2 at N = 90: 0.075 s and 50 MiB instead of 3.7 s and
// 0.9 GiB for the fully symbolic expansion, which gives the same NLP up to
// rounding). The NLP's parameters are x₀, the fixed control (simulation
// only), the model parameters, t₀, and the targets of the heuristic_mean
// step equilibration.
//
// Complementarity. A DCS pair 0 ≤ λ ⊥ s ≥ 0 has s = θ (Stewart), α or
// 1 − α (Step); 1 − α becomes a slack variable. Without FESD the pair is
// imposed at every stage point. With FESD it becomes the cross
// complementarity of 004 eq. 37–38 and 43. In element n the multiplier
// points k are:
//
//   - k = 0: the end of element n − 1 (eq. 36), or for n = 0 the value λ₀₀
//     at x₀ (eq. 17), held by fixed bounds;
//   - the stage points;
//   - the boundary point, when c_{n_s} ≠ 1.
//
// The selection points m are the stage points. Options.CrossComp selects one
// of nosnoc's four patterns (src/CrossCompMode.m and
// +nosnoc/+discrete_time_problem/Stewart.m and Heaviside.m in
// github.com/nosnoc/nosnoc). All sums run over the points of one element and
// are taken componentwise, one term per DCS pair:
//
//	STAGE_STAGE  λ_k ⊥ s_m for every k, m
//	FE_STAGE     λ_k ⊥ Σ_m s_m              (default; nosnoc MATLAB's)
//	STAGE_FE     Σ_k λ_k ⊥ s_m
//	FE_FE        Σ_k λ_k ⊥ Σ_m s_m          (the rewritten nosnoc_py's default)
//
// Each sum of bilinear products is one mpcc.Complementarity term. All
// products are nonnegative, so the four patterns have the same exact
// solutions and differ only in how the homotopy relaxes them. 004 eq. 38
// sums even over two neighbouring elements, to obtain a square system for
// its analysis. By Lemmata 9–10 of 004, an active-set change in element n
// forces the boundary multipliers to vanish: λᵖ = λⁿ = 0 (Step), or the
// corresponding λ (Stewart). Hence ψ_j(x_n) = 0, and the switch lies exactly
// at t_n.
//
// Step sizes (FESD on). max(0, 1 − γ_h)·h₀ ≤ h_n ≤ (1 + γ_h)·h₀ with
// h₀ = T/N_FE, and Σ_n h_n = T (eq. 41). Without FESD h_n = h₀.
//
// Step equilibration (004 §4.4, eq. 39; nosnoc's step_equilibration modes,
// generate_step_equilibration_constraints in
// +nosnoc/+discrete_time_problem/Stewart.m). It acts between neighbouring
// elements n − 1 and n of one stage. Let Δh_n = h_n − h_{n−1}. Take the
// backward and forward sums σᴮ and σᶠ of a DCS variable over elements n − 1
// and n, each including the element's start point and, if present, its
// boundary point. For the components (A_m, B_m) of DCS.Equilibration
// (Stewart: λ_i and θ_i; Step: λⁿ_j and λᵖ_j), let
// ν_m = σᴮ(A_m)σᶠ(A_m) + σᴮ(B_m)σᶠ(B_m). Then η_n = Π_m ν_m is zero exactly
// at an active-set change at t_n. The modes (Options.StepEquilibration) are:
//
//	heuristic_mean     f += ρ_h Σ_n (h_n − h₀)²         (default)
//	heuristic_diff     f += ρ_h Σ_n Δh_n²
//	l2_relaxed         f += ρ_h Σ_n η_n Δh_n²
//	l2_relaxed_scaled  f += ρ_h Σ_n tanh(η_n/σ_se) Δh_n²
//	direct             η_n Δh_n = 0
//
// The defaults are ρ_h = 1 and σ_se = 0.1. Direct is imposed as the
// complementarity η_n ⊥ (Δh⁺, Δh⁻), which the homotopy relaxes. The plain
// equality would be infeasible while the complementarities are relaxed,
// because η_n > 0 then also at a switch.
//
// Boundary point (c_{n_s} ≠ 1, Gauss–Legendre; 004 eq. 42–43). Every
// element gets the variables DCS.BoundaryZ at its end. The rows
// DCS.BoundaryG define them from x_{n+1} (Stewart: g(x) − λ + μe = 0; Step:
// ψ(x) − λᵖ + λⁿ = 0). They are the multiplier point k = n_s + 1 of element n
// and k = 0 of element n + 1.
//
// Formulations. The builder writes what every FESD problem shares once:
// the grid of stages and elements, the step sizes and their sums, the
// Runge–Kutta equations and end states, the controls, parameters, speed of
// time and global variables, the OCP's costs and constraints, the step
// equilibration, the element template and the compiled NLP. What belongs
// to one class of system is a formulation, after nosnoc's one
// discrete-time problem class per system (Stewart, Heaviside, Cls in
// +nosnoc/+discrete_time_problem/). A formulation declares its variables
// at the start of the horizon, at the start and the end of every element
// and at every stage point; it gives the right-hand side of ẋ at a stage
// point (the builder writes the Runge–Kutta equations with it) and its
// rows there, the state an element starts from with the rows that
// determine it, its rows at the element end, its complementarity terms,
// the indicator η_n of its step equilibration and its switch read-out.
// Stewart and Step are one formulation, that of a dcs.DCS, with the
// rows and terms described above; FESD-J (Nurkanović, Frey, Pozharskiy,
// Diehl 2024, see References) fits the same frame with impulses, gap and
// velocity variables at the element boundaries, the impulse equations and
// Newton's restitution law as the rows that start an element, and switch
// detection on the gap (and, with friction, on the contact velocities).
// SimulateCLS and CLSSimulator simulate a dcs.CLS with it (form_cls.go,
// cls_sim.go; planar Coulomb friction in nosnoc's polyhedral form),
// reporting the contact modes of every element and the impacts,
// lift-offs, sticks and slips (CLSResult.Events). An OCP states a CLS in
// OCP.CLS instead of OCP.Model (OCPResult.Contacts has the same report);
// OCP sensitivities and Shift are not there yet.
//
// # FESD-J or time freezing
//
// A rigid body with unilateral contacts (dcs.RigidBody: M(q), f_v, gaps,
// contact Jacobians, μ, e) can be simulated and optimally controlled in
// two ways; both models are built from the same RigidBody.
//
// Time freezing (dcs.NewTimeFreezing; A. Nurkanović, S. Albrecht, B.
// Brogliato, M. Diehl, Automatica 158 (2023), and 004 §7.2;
// examples/monopod, examples/hopper) makes the impacts a Filippov system.
// A clock state t joins (q, v); in free flight it runs with the numerical
// time, and in the region {f_c < 0, J_nᵀv < 0} it stops while auxiliary
// dynamics (0, M⁻¹(J_n ∓ μJ_t) a_n, 0) with a large gain a_n
// (dcs.TimeFreezingOptions.AN, default dcs.DefaultAN = 100; the monopod
// uses 200) turn the normal velocity around. The result is a dcs.Model
// with two switching functions per contact (f_c, J_nᵀv) and a third with
// friction (J_tᵀv), transcribed by Stewart or Step with all of this
// package: Simulate's event-driven prediction and branch solves,
// SimOptions.Sensitivity and OCPSolver.Sensitivity, Shift and RunMPC, the
// model files of package modelfile and the fesd command ([time_freezing]),
// and the physical-validity check (OCPResult.Validity,
// TimeFreezingValidity). What it costs: impacts are inelastic only (a
// Contact.Restitution other than 0 is an error); an impact is a phase of
// numerical time in which the contact point dips below the obstacle and
// whose length and conditioning depend on a_n; the physical time is a
// state, so an OCP carries speed of time variables and a clock constraint
// per stage to span its physical horizon; and a relaxed solution may apply
// the auxiliary dynamics, with the weight of about σ/f_c amplified by a_n,
// where the gap is open, or keep a foot below the ground while the clock
// runs (the "floating" that Validity reports).
//
// FESD-J (dcs.NewCLS, SimulateCLS, OCP.CLS; examples/impacts) keeps the
// state (q, v) and the physical time. An impact is a jump at a finite
// element boundary: a normal impulse Λ_n with Newton's restitution law
// J_nᵀv⁺ = −e J_nᵀv⁻ for any e ∈ [0, 1], and with friction the Coulomb
// impulse |Λ_t| ≤ μΛ_n; between the impacts the contact forces act at the
// stage points, with switch detection on the gaps and the contact
// velocities. There is no clock, no auxiliary dynamics and no gain a_n: an
// impulse is direct, and a relaxed one where the gap is still open is
// bounded by its complementarity with the gap, Λ_n·f_c ≤ σ in the homotopy
// (see CLSSigma0). Impact times, velocities and stick times come out to
// the NLP's tolerance (measured, cls_sim_test.go, cls_fix_test.go,
// examples/impacts): the bouncing ball with e = 0.9 to 2.1e-12 over its
// first 32 impacts, the sliding block's landing to 7e-14 and its stop to
// 5.0e-10 s (μ = 0.3; 2.5e-10 with μ = 0.6, 9e-13 with μ = 0.1). The
// tangential forces at the stage points are crossed with the element
// start's Δ (as the normal forces with the gap there), so an element that
// starts sliding keeps the friction against the motion at all its stage
// points and the stop lies on the boundary where the velocity reaches
// zero, not on the one before it. OCPs on a CLS leave the start's Δ out
// of that crossing: with it, a contact that sticks from an element's
// start makes the relaxed NLPs degenerate (the standing monopod failed
// from σ₀ = 1), so in an OCP a stop may still be placed one boundary
// early. OCPs on a CLS also allow an impulse only on an approaching
// contact (J_nᵀv⁻ ≤ 0, newCLSOCPFormulation): without it the optimizer
// of the monopod let the foot pass below the ground between stage points
// and braked it with an impulse at the boundary where it came up. What it does not have yet: SimulateCLS
// starts every step from its own event-driven guess, solves a failed
// step again from another σ₀ and then as halves, and does not use
// SimOptions.NoPredict, ColdStart or Progress; with
// SimOptions.Sensitivity it gives ∂x(T)/∂(x₀, u, p) where FESD-J's branch
// determines them and refuses them (ErrSensitivity) at grazing contacts,
// impacts on step boundaries, Zeno tails, and lift-off, slip or a sliding
// reversal inside a step (cls_sens.go); OCPSolver.Sensitivity on an OCP
// with CLS is ErrStructure, and so are Shift of its result and RunMPC
// (close the loop with CLSSimulator.Step as the plant and
// OCPSolver.Solve); there is no model-file or fesd-command form; friction
// is planar (one tangent direction per contact) and needs a scheme whose
// last stage point is the element end, c_{n_s} = 1, such as Radau IIA
// (Gauss–Legendre with friction is ErrStructure, as is DisableFESD). At a
// Zeno point the impacts are resolved one by one until what is left of
// the sequence is shorter than about one element; then the contact force
// stops the body within an element (SimulateCLS). Measured on the
// bouncing ball in steps of 0.1 s (examples/impacts): the ball comes to
// rest for every e tried from 0.3 to 0.97, from within 0.06 s of the Zeno
// point for e up to 0.96, and 0.17 s before it for e = 0.97 (the 0.18 s
// of bounces left, at most 3.6e-5 m high, are not resolved).
//
// FESD-J results have a physical-validity check (cls_validity.go), the
// counterpart of Validity for time freezing: CheckCLSValidity measures
// the penetration at the element boundaries and stage points and, for a
// result with stage points (an OCP), along every element's collocation
// polynomial between them (FESD-J's gap rows hold at the nodes only, and
// a relaxed solution can dip into the obstacle and gain energy in
// between), normal forces and impulses where the gap is open (phantom
// contact), the
// impact law at every impulse, and counts flights, landings and impacts
// (CLSValidity, with CLSValidityTolerances). OCPResult.CLSValidity is
// filled for every OCP on a CLS, and a homotopy that solved the MPCC at a
// point that is not valid ends mpcc.Invalid instead of mpcc.Solved;
// CLSResult.Trace gives a simulation to CheckCLSValidity.
//
// So choose FESD-J for impacts with restitution e > 0, for exact impact,
// stick and slip times, and for a small model in physical time (no clock,
// no speed of time, no stage-wise clock constraints); choose time freezing
// for inelastic impacts when you need what only a dcs.Model has here
// today: OCP sensitivities, MPC (Shift, RunMPC), the fesd command, or
// Simulate's prediction and branch solves.
//
// # Homotopy and simulation
//
// Simulate (or a Simulator with Step) solves one step after the other with
// mpcc.Solver. By default (Options.MPCC) it uses Scholtes' relaxation with
// σ₀ = 1, κ = 0.1 and complementarity tolerance 1e-9. Each step starts from
// the previous solution, shifted by one step: every element takes the
// values of the previous last element, and h = h₀. With SimOptions.ColdStart
// it starts instead from the consistent algebraic values at x₀
// (DCS.InitialGuess). The start multipliers λ₀₀ are fixed at their values at
// x₀, and values within SwitchTol = max(10⁻⁶, 10³·CompTol) (the switch
// tolerance) of zero are set to zero. A state on a
// switching surface (the end of a step that ended at a switch) then does not
// pin the active set of the first element. Every step's homotopy point is
// certified (mpcc's stationarity certificate, StepRecord.Stationarity).
// mpcc's active-set finish, which OCPs use by default, is not applied to
// simulation steps unless Options.MPCC.Finish asks for it, since it may
// move to another solution of the step's MPCC; without prediction, a step
// whose point has a switch is instead finished on the branch of modes read
// from that point (see "Switches at step boundaries"), and kept only if
// its end state stays within 1e-3 of its size.
//
// Simulate adds an event-driven prediction before each step (on by
// default; SimOptions.NoPredict switches it off, and a Simulator has it
// unless Simulator.NoPredict is set):
//
//   - The step integrates the model explicitly: RK4 with 8 substeps per
//     element, with the algebraic values of the region each point lies in.
//   - It locates the changes of region by bisection on the flow of the
//     current region, extended across its boundary
//     (Simulator.PredictEvents).
//   - If it finds between 1 and N_FE − 1 switches that are at least 0.05·h₀
//     apart, it puts element boundaries at the switches, however close to
//     an end of the step (see "Switches at step boundaries" below). The
//     other elements split the longest pieces, within (1 ± γ_h)h₀.
//   - Every stage point then starts from the predicted state and the
//     algebraic values of its element's region. The predicted grid is also
//     used as the targets of heuristic_mean instead of h₀, so the relaxed
//     NLPs at large σ keep the boundaries near the switches instead of
//     pulling them back to the uniform grid. The homotopy then only has to
//     correct the grid.
//
// # Switches at step boundaries
//
// A switch is one event, found once, whichever side of a boundary between
// two simulation steps it falls on:
//
//   - Away from both ends of a step, the step that contains it finds it:
//     the prediction puts an element boundary at it, with an element as
//     short as the switch is close to the step's end (the step sizes next
//     to their bounds, and multipliers predicted below 1e-4, are free of
//     their bounds on the predicted branch, so the interior point's
//     barrier neither moves the switch nor stalls), and the start
//     multipliers λ₀₀ that keep the first element in the region x₀ lies
//     in are kept even when they are below SwitchTol (a zero one would let
//     the first element take the next region at once, moving a switch just
//     after t₀ onto t₀). A step with more switches than N_FE − 1 is solved
//     with as many elements as it needs (at most 16).
//   - Within rounding of a step boundary — 1e-11·T, or so close that the
//     element between it and the boundary would carry multipliers (the
//     size of ψ) below 2e-10, which the interior point does not resolve,
//     at a state error of |f⁺ − f⁻|·2e-10/|∇ψ·f⁻| — it belongs to the step
//     after the boundary: the step before ends in its old region on the
//     surface, the step after starts in the new region, and the switch
//     detection reports it at the boundary. An entry into sliding snaps
//     within 1e-8·T (on a shorter element the convex combination is not
//     determined).
//
// The sensitivities of SimResult.Sensitivity are exact across both: inside
// a step the branch NLP's linearization moves the element boundary with
// (x₀, u, p) (004 Theorem 18); at a step boundary, the steps' derivatives
// (the one before taken on its region continued past the surface, its
// multiplier's bound λ ≥ 0 not active) are chained with the saltation
// D⁺ = D⁻ + (f⁺ − f⁻)(∇ₓψ·D⁻ + ∂ψ/∂q)/(∇ₓψ·f⁻) of every crossing or entry
// into sliding detected there (saltation.go). At a switch exactly at the
// initial time the flow is not differentiable in x₀, and the derivative is
// that of the region the first step starts in.
//
// Without the prediction (NoPredict) a step is solved by the homotopy from
// the uniform grid. Its point rounds start multipliers below SwitchTol to
// zero, so a switch within about SwitchTol/|∇ψ·f| after a step boundary
// moves onto it, and it cannot move an element boundary arbitrarily close
// to the step's end. Where the point has a switch, or a start or end state
// within 1e-4 of a switching surface, it is finished on its own branch (the
// MPCC's active-set finish, finish.go): the mode of every element read from
// the point, a switch it left inside its first or last element (or moved
// onto t₀) located along the flow of its region from the point's state,
// and the step solved once more as a predicted branch is — the vanishing
// sides fixed, the step sizes free, an element added where the switch
// needs one, the same rules for a switch within rounding of a boundary and
// the same verification. The sensitivities of a finished step are those
// of its branch, exact as above (StepRecord.Finished). Options.MPCC.Finish
// = CertifyOnly or NoCertificate keep the homotopy's point, as they promise,
// and a finish that fails keeps it too; a step whose homotopies fail and whose
// finish fails is rescued on its predicted branch. Where a switch within
// 1e-6 step lengths of a boundary is next to a step that is neither
// finished nor solved on a branch, Simulate returns ErrSensitivity instead
// of the sensitivities.
//
// A switch into a sliding motion shows up as an event after which the flow
// of the region entered returns at once: the prediction then slides to the
// end of the step (the chattering flow, whose share of time in either
// region gives the convex combination of their algebraic values), with an
// element boundary at the switch. With no switch, more switches than
// interior boundaries, or chattering from the start, the step starts as
// without the prediction. On IRMA (examples/irma), the step [194, 196] has two switches
// 0.49 min apart. From the uniform start, every relaxed NLP from σ = 1e-4
// on converged to a point of local infeasibility, also with IPOPT as the
// inner solver. From the predicted start, the homotopy solves the step with
// at most 73 iterations per relaxed NLP.
//
// Steps on the predicted branch. When the prediction knows the mode of
// every element, it knows which side of every complementarity pair
// vanishes there, and the step is first solved as that branch's NLP: those
// variables fixed at zero by bounds, so every complementarity is exactly
// zero and the FESD equations with the step equilibration remain — one
// interior-point solve of a nearly square system from the predicted point
// instead of a homotopy. At a mode change both modes' multipliers vanish
// at the boundary, which is the switch condition, so the solve moves the
// boundary to the switch. Steps without a predicted event use the uniform
// grid and the initial mode; a step the predictor declines continues the
// active set of the previous step's last element; a surface that slid at
// the end of the previous step (chattering in the prediction) is followed
// with its frozen convex combination while the other surfaces are
// predicted. Without FESD (time stepping) the branch fixes the mode of
// every stage point. A branch solve that fails (a missed switch makes the
// fixed signs infeasible) falls back to the homotopy; StepRecord.Branch
// marks the steps solved on their branch. A branch solve that succeeds is
// verified: complementarity, the FESD equations, and the Filippov sign
// conditions between the points of every element (the consistent
// multipliers of the interpolated state; a switching function that crosses
// zero inside an element, so that the switch is not on a boundary, rejects
// the branch). When the predicted modes are the previous step's, the
// branch solve starts from that step's multipliers (a cold start after a
// mode change). Measured: IRMA over 1000 minutes in 1 251 NLP iterations
// instead of 69 113, the three masses in 792 instead of 25 534, with the
// same switches and errors (examples/irma, examples/friction).
//
// # Sensitivities
//
// SimOptions.Sensitivity gives SimResult.Sensitivity, the derivatives of
// the final state with respect to x₀, the model parameters and a constant
// control. Every solved step is a KKT point of the NLP on its branch (the
// smaller side of every complementarity pair fixed at zero); that NLP is
// solved once more from the step's solution for its multipliers, and the
// implicit function theorem on its KKT conditions,
//
//	[H_ww J_wᵀ; J_w 0] [∂w/∂q; ∂y/∂q] = −[H_wq; J_q],
//
// gives the derivative of the solution w with respect to q = (x₀, u, p)
// (H the Hessian of the Lagrangian, J the constraint Jacobian, w the free
// variables; q are variables of a second compilation of the step's NLP, so
// their derivatives are exact). The step sizes are unknowns and the switch
// conditions hold on the branch, so the derivative contains the motion of
// the switch times with q; this is why FESD's sensitivities converge with
// the order of the Runge–Kutta method (004 §5, Theorem 18) while those of
// time stepping on a fixed grid do not. The steps are chained by the chain
// rule. Checked: ∂x(T)/∂x₀ = 3 through a crossing from ẋ = 1 to ẋ = 3, and
// IRMA's ∂x(100)/∂x₀ within 2.6e-7 of the exact derivative with 50 steps.
// The linear algebra is dense (LU, or the minimum-norm SVD solution for a
// degenerate active set): about a millisecond for IRMA's 230-variable
// steps, more for large steps.
//
// OCPSolver.Sensitivity does the same for an OCP solution: the derivatives
// of the stage states and controls with respect to x₀ and the model
// parameters (sIPOPT's parametric sensitivity on the solution's branch;
// OCPSensitivity states the assumptions). Checked against the exact
// linearity of an LQ problem and against finite differences of
// warm-started solves of a tracking OCP whose solution crosses a switch
// (agreement to 1e-8).
//
// # Model-predictive control
//
// RunMPC closes the loop over an OCPSolver: at every step it solves the OCP
// from the measured state (SetX0), applies the first control to a plant
// Simulator for one stage, and warm-starts the next solve from the
// previous solution shifted by one stage (OCPSolver.Shift) with a short
// homotopy. examples/mpc runs it on the turbo car, whose plant crosses
// its switching surface v = 10 on step boundaries.
//
// # Optimal control problems
//
// OCP describes the problem of 004 eq. 44:
//
//	min ∫₀ᵀ L(x, u) dt + R(x(T))  s.t.  x(0) = s₀,  ẋ ∈ F(x, u, Γ(ψ(x))),
//	      G_path(x, u) ≤ 0,  G_terminal(x(T)) ≤ 0.
//
// NewOCPSolver transcribes it as the MPCC of 004 eq. 45. There are N control
// stages k of equal numerical length T/N with piecewise constant controls
// q_k. Each stage is discretized by the FESD equations above, with N_FE,k
// finite elements and Σ_n h_{k,n} = T/N:
//
//	min Σ_k L̂_k(s_k, x_k, q_k) + R(s_N)
//	s.t. s₀ = x̄₀,  s_{k+1} = F_fesd(x_k),  0 = G_fesd(x_k, Z_k, q_k),
//	     G_ineq(s_{k+1}, q_k) ≤ 0,  G_terminal(s_N) ≤ 0,
//
// where L̂_k = Σ_n h_n Σ_m b_m s_k L(x_{n,m}, q_k, …) is the Runge–Kutta
// quadrature of the running cost. The elements of all stages are numbered
// consecutively, so the boundary multipliers and the cross complementarity
// are continuous across stage boundaries. The start multipliers of element 0
// are fixed at their values at s₀, as in simulation. The step equilibration
// acts within every stage. Path constraints and state bounds hold at the
// stage ends (004 §4.6; the initial state is fixed), or, by choice (Where),
// at every element boundary or every stage point. User complementarities
// 0 ≤ G ⊥ H ≥ 0 are lifted into pairs of nonnegative variables, which the
// homotopy relaxes together with the DCS's.
//
// Time. With speed-of-time variables (nosnoc's use_speed_of_time_variables
// and local_speed_of_time_variable in +nosnoc/Options.m), the right-hand
// side and the running cost of stage k are multiplied by s_k > 0. The
// physical time then advances as dt = s_k dτ on the numerical grid τ. There
// is either one global s or one per stage. Time freezing (004 Remark 2 and
// §7.2) needs one per stage: a clock state then measures the physical time,
// and the stage-end constraints t(τ_{k+1}) = (k+1)T_f/N pin it. A free
// horizon T_f (FreeTime, TimeOptimal) is either a global time scaling
// s_T = T_f/T of the fixed numerical horizon T, or T_f = (T/N)Σ_k s_k with
// stage-wise speeds. Either way the element bounds (1 ± γ_h)h₀ stay simple
// bounds.
//
// The NLP's variables are numbered stage by stage, and they carry ordering
// numbers (one per Runge–Kutta stage point) for nlp.StageHinter. The global
// variables (time scaling, V) and the constraints on them come last, which
// gives an arrow structure without fill. The solver keeps this order or
// AMD, whichever fills less. x₀ is a parameter of the compiled NLP
// (OCPSolver.SetX0).
//
// Initialization (Start). Without Start.XInit the states start from an
// explicit RK4 integration of the model from x₀ with the initial controls.
// The algebraic variables at every point are set to the DCS's consistent
// values there (the mode of the region the point lies in). Starting every
// stage point at x₀ instead was measured to lead the homotopy into local
// infeasibility for switches late in a stage: an element that shrinks to
// h = 0 keeps the multipliers of x₀ and blocks the switch.
//
// Start.InitFrom interpolates the states in τ/T and takes the controls and
// speeds of time stage by stage. A refined problem whose homotopy starts at
// a small σ₀ (Options.MPCC.Sigma0) from a solved coarse one can avoid the
// C-stationary points described below (TestOCPInitFrom). A homotopy that
// ends on a failed step returns that step's
// point (where a continuation starts) and keeps the last successful step's
// point as OCPResult.LastSuccess. OCPResult.ElementResidual locates the
// elements where a point misses the tolerance.
//
// Inner solver of an OCP. Without Options.MPCC.NLP and Options.Inner the
// relaxed NLPs of an OCP start with nlp.InertiaStrict: a zero pivot of the
// KKT factorization counts as singular and is perturbed (δ_c, δ_w) instead
// of being replaced by the static pivoting of the sparse LDLᵀ
// (mpcc.NLPSolver still retries an IterationLimit with the other policy).
// On the quick rows of bench/ocp that halves the NLP iterations (1 286 →
// 680 on five rows: the motor 437 → 180, the car with gears 498 → 224, the
// sliding-mode OCP 176 → 103). A homotopy that does not solve is run once
// more from the same start with the relaxed NLPs starting with
// nlp.InertiaDefault, and the second run's result is returned
// (OCPResult.Rerun records the first, its end point in Rerun.Result):
// the Stewart cart-pole with a hard terminal constraint
// (examples/cartpole) solves only that way. A first run that ends
// mpcc.Infeasible is diagnosed first and is not run again when the
// diagnosis confirms the infeasibility. Simulation
// keeps mpcc.DefaultNLPSettings, whose branch systems are square: Strict
// first doubled the iterations of bench's time-stepping row.
//
// Measured on OCPs: FESD OCPs have C-stationary points at which a switch
// sits exactly on a stage boundary. Moving it into a stage needs a jump of
// the element lengths, which the homotopy does not make. The time-optimal
// turbo car stops at such a point (T_f = 10 instead of 9.722) with
// heuristic_mean equilibration (for every ρ_h tried, 1e-3 to 1) and with
// Stewart's DCS. The Step DCS without equilibration reaches the optimum
// (the settings of the example above). The objectives of nonconvex
// problems (cart-pole) differ between the DCS formulations, which converge
// to different local optima.
//
// # Switches
//
// The side of ψ_j on an element is read from the complementarity
// structure, not from θ. A pair is "multiplier positive" when the largest
// multiplier value over the element's points (stage points and start and
// boundary points) exceeds both ActiveSetTol τ (default 10·√CompTol) and
// the largest selection value; the selection then vanishes on the whole
// element (cross complementarity). "Selection positive" is the symmetric
// case.
//
// Step: λⁿ_j positive means ψ_j < 0 (α_j = 0), λᵖ_j positive means ψ_j > 0
// (α_j = 1), and neither means the state is on the surface (α_j ∈ [0, 1],
// sliding). The exception is α_j at a bound with |ψ_j| above SwitchTol at
// an end of the element; that end then gives the side. This happens on a
// short element next to a switch, where λ = |ψ_j| stays below τ (on the
// surface, ψ_j = 0 at both ends).
//
// Stewart: the active base sets are the selection-positive θ_i. ψ_j < 0 or
// ψ_j > 0 if all of them lie on one side of ψ_j (sign matrix S); on the
// surface if they lie on both sides.
//
// A switch of ψ_j is reported at t_n when its side differs between the
// elements n − 1 and n and |ψ_j(x_n)| ≤ SwitchTol. The kinds are:
//
//   - Crossing: from one side to the other side;
//   - EnteringSliding: from a side onto the surface;
//   - LeavingSliding: from the surface to a side;
//   - Spontaneous: from the surface to a side, when a mode on the opposite
//     side (compatible with the other ψ) points away from the surface
//     (∇ψ_j·f has the sign of that side). LeavingSliding and Spontaneous
//     have the same multiplier pattern in 004 Table 2.
//
// At the initial time only spontaneous departures count as switches.
// Without FESD, switches fall inside elements and are generally not
// reported.
//
// # Reference problems
//
// The tests check the package against problems with known solutions:
//
//   - The four switching cases of 004 Example 3, with ψ = x:
//     (a) crossing, ẋ ∈ 2 − sign(x), that is ẋ = 3 for x < 0 and 1 for
//     x > 0: from x₀ = −1 it switches at t = 1/3, and x(t) = t − 1/3 after;
//     (b) entering sliding, ẋ ∈ −sign(x) + 0.2 sin 5t;
//     (c) leaving sliding, ẋ ∈ −sign(x) + t from x₀ = 0: it slides until
//     t = 1, then x(t) = (t − 1)²/2;
//     (d) spontaneous switch, ẋ ∈ sign(x) from x₀ = 0, with infinitely many
//     Filippov solutions.
//   - Sliding variants like those of nosnoc_py's examples/simplest: ẋ = 3
//     for x < 0 and −1 for x > 0 from x₀ = −1 reaches x = 0 at t = 1/3 and
//     slides; ẋ = 1 for x < 0 and −1 for x > 0 from x₀ = −√2 reaches x = 0
//     at t = √2.
//   - The Filippov oscillator of nosnoc_py's examples/oscillator: ω = 2π,
//     ẋ = A₁x outside the unit circle and A₂x inside, with
//     A₁ = [[1, ω], [−ω, 1]], A₂ = [[1, −ω], [ω, 1]], ψ = x₁² + x₂² − 1 and
//     x₀ = (e⁻¹, 0). It switches at t = 1 at (1, 0); after that,
//     x(t) = e^{t−1}(cos 2π(t−1), −sin 2π(t−1)).
//   - Stewart's three masses (seed 000 §5, eq. 15): three masses coupled by
//     springs and dampers, with Coulomb friction 0.3·sgn on every velocity
//     and the forcing 10 cos πt on the third. The paper reports 22
//     switching points on [0, 10].
//   - The friction problems of Shiau and Glowinski with exact solutions
//     (seed 002 §6.1–6.2) and their three-mass problem (§6.3).
//   - The turbo car above, with T* from its bang-bang solution.
//
// # Known limitations
//
//   - FESD solutions are only locally unique. A switch inside a control
//     stage may land on different element boundaries depending on the
//     starting point; both are valid discretizations.
//   - Gauss–Legendre resolves a tangential exit from a sliding mode
//     (leaving sliding with a time-varying field) only up to the gap
//     (1 − c_{n_s})h between the last stage point and the element end. No
//     stage point sees the infeasible sliding selection there.
//   - The exit from a sliding mode where the field becomes tangent (004
//     Example 3c) is not pinned by ψ(x_n) = 0, because ψ vanishes on the
//     whole sliding arc. It is also ill-conditioned (x ~ (t − t_s)²/2 after
//     it). The discrete solution may exit early by up to a fraction of an
//     element, with the step equilibration choosing among the feasible
//     exits. Measured for ẋ ∈ −sign(x) + t with Radau IIA and h₀ = 0.1875:
//     exit at 0.975 (n_s = 2) and 0.9895 (n_s = 3) instead of 1.
//   - A switch inside a control stage needs N_FE ≥ 2 (a failed simulation
//     step with N_FE = 1 says so: ErrSwitchInStep).
//
// # References
//
//   - 004: A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, Finite elements
//     with switch detection for numerical optimal control of nonsmooth
//     dynamical systems with set-valued Heaviside step functions, Nonlinear
//     Analysis: Hybrid Systems, 2024, §3–5 (Example 3, eq. 33–45, Table 2).
//   - A. Nurkanović, M. Sperl, S. Albrecht, M. Diehl, Finite elements with
//     switch detection for direct optimal control of nonsmooth systems,
//     Numerische Mathematik, 2024 (FESD for Stewart's reformulation).
//   - A. Nurkanović, J. Frey, A. Pozharskiy, M. Diehl, FESD-J: Finite
//     elements with switch detection for numerical optimal control of
//     rigid bodies with impacts and Coulomb friction, Nonlinear Analysis:
//     Hybrid Systems 52 (2024) 101460 (the frame of a formulation with
//     impulses at element boundaries).
//   - Seed 000: D. E. Stewart, A numerical method for friction problems
//     with multiple contacts, J. Austral. Math. Soc. Ser. B 37 (1996)
//     288–308.
//   - Seed 002: L. Shiau, R. Glowinski, Operator splitting method for
//     friction constrained dynamical systems, Discrete and Continuous
//     Dynamical Systems, Supplement Volume 2005.
//   - nosnoc (MATLAB), github.com/nosnoc/nosnoc: +nosnoc/Options.m (the
//     defaults: n_s = 2, N_finite_elements = 2, rk_scheme, rk_representation,
//     cross_comp_mode, gamma_h = 1, rho_h = 1, step_equilibration,
//     step_equilibration_sigma = 0.1, s_sot_min = 1, s_sot_max = 25,
//     g_path_at_fe, x_box_at_stg), src/CrossCompMode.m,
//     src/StepEquilibrationMode.m, src/generate_butcher_tableu_integral.m,
//     +nosnoc/+discrete_time_problem/Stewart.m and Heaviside.m (the cross
//     complementarity and the step equilibration) and Cls.m (FESD-J),
//     examples/pss_ocp_tutorial_example/pss_tutorial_turbo_car_ocp.m.
//   - nosnoc_py, github.com/nosnoc/nosnoc_py: src/nosnoc/options.py (the
//     rewrite's defaults, FE_FE), nosnoc/problem.py (the legacy package),
//     examples/simplest/simplest_example.py,
//     examples/oscillator/oscillator_example.py.
package fesd
