// Package nlp is a primal-dual interior-point solver for sparse nonlinear
// programs
//
//	minimize f(x)  subject to  g_L ≤ g(x) ≤ g_U,  x_L ≤ x ≤ x_U,
//
// following the filter line-search method of Wächter and Biegler as
// implemented in IPOPT 3.14 (constants: IPOPT's code defaults).
//
// # Formulation
//
// Every constraint with g_L,i < g_U,i gets a slack s_i, g_i(x) − s_i = 0 with
// g_L,i ≤ s_i ≤ g_U,i; equalities are kept as g_i(x) − g_L,i = 0. With
// w = (x, s) and A = [J, −E] the Jacobian of the residual r(w), the barrier
// problem for μ > 0 is
//
//	min φ_μ(w) = f(x) − μ Σ ln(w − w_L) − μ Σ ln(w_U − w) + κ_d μ Σ(one-sided slacks)
//	s.t. r(w) = 0,
//
// with κ_d = 1e-5. Fixed variables (x_L = x_U) are held at their value
// (their rows and columns of the KKT matrix are decoupled); their reported
// multipliers come from ∇f + Jᵀy.
// Finite bounds are first relaxed by min(ConstrViolTol, 10⁻⁸·max(1, |b|))
// (off with Settings.NoBoundRelax, as MPCC homotopies need).
// Slack move (IPOPT's slack_move = ε^(3/4), W&B06 end of §3.5): when a slack
// w − w_L or w_U − w of the accepted iterate falls below ε·min(1, μ) at a
// bound with ε·max(1, |b|) > μ — near |b| ≥ 1e9 the doubles are further
// apart than the barrier's slack μ/z, and steps round onto the bound — the
// slack is set to min(max(μ/z, ε·min(1, μ)), max(s, 0) + ε^(3/4)·max(1, |b|))
// and the bound moved to w ∓ s (Result.Counts.SlackMoves). IPOPT does this
// for every slack below ε·min(1, μ); on hs237 that replaced a restoration
// phase and changed the iterates, which the condition on |b| avoids. A
// solve ends Solved only when, besides the scaled and unscaled optimality
// tests, the point violates its original (unrelaxed, unmoved) bounds by at
// most ConstrViolTol, up to a rounding allowance of 4ε·max(1, |b|).
//
// Multiplier sign convention (IPOPT's): ∇f + Jᵀy − z_L + z_U = 0 with
// z_L, z_U ≥ 0 (Result.Y, Result.ZL, Result.ZU).
//
// # Components
//
// A solve is composed of parts that each own their state: the iterate
// (w, y, z_L, z_U with f̃, g̃, ∇f̃ and the trial point), the bounds and the
// scaling, the derivative values, the barrier update, the filter line
// search, the counters and history, and two components behind internal
// interfaces, after the design of MadNLP.jl (its AbstractKKTSystem,
// src/KKT/KKTsystem.jl, and AbstractInertiaCorrector,
// src/IPM/inertiacorrector.jl):
//
//   - the KKT system: it assembles the Newton matrix of the current
//     iterate for given perturbations (δ_w, δ_c), factorizes it and reports
//     the inertia, solves the unreduced system with iterative refinement,
//     computes the least-squares multipliers and the curvature
//     dwᵀ(W + Σ + δ_w I)dw of a step. The solver never sees the matrix, its
//     ordering or the backend. The one implementation is the augmented
//     system below on the backend of Settings.LinearSolver;
//   - the inertia corrector, chosen from Settings.Inertia at the start of
//     every solve: it judges the inertia of a factorization, chooses the δ_w
//     an iteration starts with and how δ_w grows after a rejected trial,
//     and tests the direction of an accepted factorization. Three
//     implementations: InertiaBased (W&B06 Algorithm IC, with or without
//     strict zero pivots and δ_c in every factorization: InertiaDefault,
//     InertiaStrict, InertiaStrictDeltaC), InertiaCurvature (InertiaBased
//     with a curvature test: InertiaCurvature, InertiaStrictCurvature) and
//     InertiaTracking (δ_w tracking). Algorithm IC itself, with IPOPT's
//     degeneracy rules, is the driver around them.
//
// The main loop is: error measures and termination tests at the iterate,
// barrier update, Hessian, search direction (inertia correction,
// factorization, refined solve), line search, step, derivatives.
//
// # KKT system
//
// Each iteration solves the Newton system of the perturbed KKT conditions.
// The bound multipliers are eliminated, giving the symmetric indefinite
// augmented system
//
//	[ W + Σ + δ_w I    Aᵀ   ] [Δw]     [ ∇φ_μ + Aᵀy ]
//	[ A              −δ_c I ] [Δy] = − [ r          ],   Σ = Z_L/(W−W_L) + Z_U/(W_U−W),
//
// with Δz_L = μ/(w−w_L) − z_L − Σ_L Δw and Δz_U = μ/(w_U−w) − z_U + Σ_U Δw.
// Its upper-triangular CSC pattern is built once, together with index maps
// from the Hessian and Jacobian entries into the value array; each iteration
// only writes values. The expected pivot signs (+ for w, − for y) are
// passed to the factorization. Iterative refinement (at most 10 steps, until
// the residual ratio is ≤ 1e-10 or stops improving) is done on the full,
// unreduced system; unlike IPOPT (min_refinement_steps = 1) a first solve
// that already meets 1e-10 is not refined. A final ratio above 1e-5 counts
// as singular (δ_c, then δ_w are raised); so does a final ratio above 1e-10
// when the factorization replaced zero pivots of free variables without
// curvature (static pivoting: the refinement then solves a nearby
// matrix's system, whose directions stalled relaxed MPCCs).
//
// Inertia correction (W&B06 Algorithm IC): the wanted inertia is (n_w, m, 0).
// A singular matrix first gets δ_c = 1e-8·μ^0.25; wrong inertia gets δ_w =
// 1e-4 (first time) or max(1e-20, δ_w^last/3), then ×100 (first time) or ×8
// until the inertia is right; δ_w > 1e20 sends the iteration to the
// restoration phase. After 3 consecutive iterations needing δ_c the Jacobian
// is treated as degenerate and δ_c is applied from the start;
// Settings.Inertia = InertiaStrictDeltaC (with IPOPT's perturb_always_cd)
// does so from the first iteration. With the pivot-free SparseLDL, a
// trial with δ_c = 0 is skipped when the elimination order makes it
// singular whatever the values: a constraint row eliminated before every
// variable it couples to has an empty row of L, so its pivot is −δ_c,
// exactly zero (AMD orders some rows of OCP NLPs so). The trial with δ_c
// that would follow it is made at once, with the same bookkeeping, and
// the least-squares multipliers, which such a factorization would refuse,
// are not computed: the iterates are unchanged, bit for bit, and the OCP
// NLP rows of bench/ save 4 factorizations per solve, every FESD step of a
// simulation up to as many. The inertia correctors (see Components) differ
// in three places: the zero-pivot rule (InertiaStrict: every zero pivot
// means a singular matrix, IPOPT's rule with MUMPS; otherwise zero pivots
// that a static-pivoting backend replaced are accepted when there are at
// most as many as free variables without a Hessian diagonal and the other
// counts fit, and the residual ratio of the refined solve then decides),
// the first δ_w of an iteration and its increase (δ_w tracking, below),
// and the test of a direction (the curvature test, below). The
// restoration phase uses the same corrector without the curvature test.
//
// Degeneracy across solves: Result.Degeneracy reports a Jacobian or
// Hessian that needed δ_c, or δ_w for a singular matrix, in at least half
// of the iterations (or, the Jacobian, in 3 consecutive ones);
// Settings.Degeneracy starts a solve in that state (δ_c in every
// factorization; the first trial at δ_w^last/3 or 1e-4 instead of 0), as
// IPOPT is after its degeneracy tests. A sequence of NLPs of one structure
// (package mpcc's relaxed and tightened NLPs) passes it on, so short
// solves do not each spend factorizations on finding the same singular
// matrices: on the bench, 1.59 → 1.23 factorizations per iteration on IRMA
// (before the warm-started branch solves of package fesd took it to 1.05)
// and 1.59 / 1.60 → 1.15 / 1.26 on the OCP MPCC homotopy, with about the
// same iterations.
//
// δ_w tracking (InertiaTracking, opt-in): Algorithm IC starts every
// iteration with the unperturbed matrix, so a stretch of iterates that need
// δ_w > 0 (nonconvex, or a primal block that is singular on the null space
// of the Jacobian, as in relaxed MPCCs and FESD) costs at least two
// factorizations per iteration — 2.2 to 2.6 on the monopod OCP. With
// tracking, δ_c is applied in every factorization, and after an iteration
// with δ_w > 0 the first trial is δ_w^prev/3; when that fails the next trial
// is δ_w^prev (accepted by the previous matrix) and the following 1, 3, 7,
// … (at most 15) iterations start at δ_w^prev; after two successful
// decreases in a row δ_w = 0 is tried first again (the number required
// doubles after each failed try). Failing trials are followed by the
// increases of Algorithm IC. On the bench rows this gives 1.09–1.29
// factorizations per iteration instead of 1.24–2.55 (Algorithm IC);
// because δ_w stays positive in some iterations where Algorithm IC would
// find 0, the iterates differ, and on a few path-sensitive test problems
// the solve ends at another stationary point (see InertiaTracking).
// Backends (Settings.LinearSolver): SparseLDL, the pivot-free sparse LDLᵀ
// of package linalg (default, fastest); PivotingLDL, linalg.Multifrontal,
// which pivots (threshold u = 1e-8 with 1×1 and 2×2 pivots, as MA27/MA57
// in IPOPT) and so reads the inertia of nearly singular KKT matrices
// correctly where the pivot-free factorization can report the wanted
// inertia for a numerically singular matrix (relaxed MPCCs with time
// freezing); DenseLDL for tests. On the Hock–Schittkowski set PivotingLDL
// takes 887 iterations against SparseLDL's 936, with the same problems
// solved (TestHSSuitePivotingLDL).
//
// # Barrier parameter
//
// MuMonotone (default): μ₀ = MuInit (0.1); when E_μ ≤ κ_ε μ (κ_ε = 10),
// μ ← max(μ_min, min(0.2 μ, μ^1.5)), possibly several times per iteration,
// with the floor min(Tol, ComplInfTol·d_f)/11 (d_f: objective scaling).
// MuAdaptive (free μ, Nocedal, Wächter, Waltz 2009) solves for the affine direction d_a (μ = 0) and the
// centering direction d_c with the same factorization; d_a + σ d_c is the
// Newton step for μ = σ μ_avg. OracleQualityFunction (default) picks
// σ ∈ [1e-6, 100] minimizing the linear-model quality function
// (1−α_du)²‖r_d‖²/n_d + (1−α_pr)²‖r_p‖²/n_p + ‖complementarity after the
// step‖²/n_c by an 8-step golden-section search on log σ; OracleProbing uses
// Mehrotra's σ = (μ_aff/μ_avg)³. μ is kept in [1e-11, min(1e5, 1e3·μ_avg₀)].
// Globalization is the KKT-error rule (reduction by 0.9999 over 4
// iterations, else monotone mode from μ = 0.8·μ_avg until that subproblem is
// solved), not IPOPT's default obj-constr-filter.
// The fraction to the boundary is τ = max(0.99, 1 − μ); y moves with the
// primal step, z with its own step; afterwards z is projected into
// [μ/(κ_Σ s), κ_Σ μ/s], κ_Σ = 1e10.
//
// # Line search
//
// Backtracking (factor 1/2) from the fraction-to-the-boundary step with the
// filter of W&B06 §2.3 on (θ, φ_μ), θ = ‖r‖₁: θ_max = 1e4·max(1, θ₀),
// θ_min = 1e-4·max(1, θ₀); switching condition α(−∇φᵀd)^2.3 > θ^1.1;
// Armijo with η_φ = 1e-8; sufficient decrease γ_θ = 1e-5, γ_φ = 1e-8; α_min
// from W&B06 eq. (23) with factor 0.05; up to 4 second-order corrections
// (κ_soc = 0.99) when the first trial increases θ. The filter is reset when μ
// changes. Trial points where a callback returns NaN/Inf are rejected (the
// step is cut back). A step with max |Δw_j|/(1+|w_j|) < 10ε is taken in full
// and forces a μ decrease; repeated at the smallest μ, the solve ends. When
// the step computation or the line search fails at a point that meets the
// acceptable tolerances, the status is SolvedAcceptable. A solve that ends
// NumericalError after an earlier iterate met them returns the best such
// iterate (smallest optimality error) as SolvedAcceptable instead: the last
// directions at μ's floor can undo a point solved to the tolerances.
//
// # Restoration phase
//
// When the line search fails (α < α_min) or δ_w exceeds its maximum, a
// second instance of the same method minimizes
// ρ Σ(p + n) + (√μ/2)‖D_R(x − x_R)‖² subject to r(x) − p + n = 0 (same
// bounds and slacks, p, n ≥ 0, ρ = 1000, D_R = diag(min(1, 1/|x_R|))),
// started from the current point with p, n from W&B06 eq. (33). It hands
// back as soon as θ ≤ 0.9·θ_R at a point acceptable to the filter; bound
// multipliers come from the restoration solver (reset to 1 if above 1e3), y
// from least squares. If it converges instead, the point is a stationary
// point of the infeasibility and the status is Infeasible. Simplifications
// with respect to IPOPT: no soft restoration, no filter reset heuristic, no
// restoration inside restoration.
//
// # Curvature test
//
// The test of the InertiaCurvature corrector (Settings.Inertia =
// InertiaCurvature or InertiaStrictCurvature; off by default). With it,
// a factorization with the wanted inertia is accepted only if the primal
// step has
// dwᵀ(W + Σ + δ_w I)dw ≥ 1e-8·dwᵀdw (the curvature test of Chiang and
// Zavala's inertia-free line search, Comput. Optim. Appl. 64, 2016, here a
// safeguard on top of the inertia check); otherwise δ_w is raised as in
// Algorithm IC and the step recomputed (Counts.CurvatureFixes). The
// pivot-free LDLᵀ can report the wanted inertia on nearly singular KKT
// matrices (relaxed MPCCs at small σ) while the step has no useful
// curvature, and the line search then creeps with α ~ 1e-6. On the
// Hock–Schittkowski set it takes 841 / 796 / 869 iterations (monotone /
// adaptive quality function / probing) instead of 936 / 836 / 893, all
// solved; it is off by default because with it package fesd's turbo-car
// OCP (TestOCPTurboCarFree, ExampleOCP) ends in NLPFailure at T_f = 10.
//
// # Derivative test
//
// CheckDerivatives compares a Problem's derivatives at a point with central
// finite differences of its own functions (step h_j = 1e-8·max(1, |x_j|),
// one-sided at a bound): ∇f and all m·n Jacobian positions against
// differences of f and g, so that a nonzero missing from JacobianStructure
// is found, and all n(n+1)/2 positions of the Hessian's lower triangle
// against differences of σ∇f + Jᵀλ (random λ by default; only when the
// first derivatives passed). An entry is flagged when |given − estimate| /
// max(|given|, |estimate|, 1) > 1e-4 (IPOPT's derivative_test_tol and
// derivative_test_perturbation). Settings.DerivativeTest runs it at the
// starting point and stops Solve with a *DerivativeError on a flagged
// entry.
//
// Whatever DerivativeTest says, a solve that is about to end Solved or
// SolvedAcceptable first runs a cheap derivative probe at its final point
// (two evaluations of f and g and one of each derivative): a KKT point is defined by ∇f and
// the Jacobian, so a nonzero left out of JacobianStructure would otherwise
// be reported as a solution of a problem it does not solve (min x₁² + x₂²
// subject to x₁ + x₂ = 2 with ∂g/∂x₂ left out ends at (2, 0), objective 4,
// against the optimum 2). The probe compares the central difference of f
// and every g_i along one pseudo-random direction with ∇f·D and J·D (two
// evaluations of f and g, one of each derivative), with steps within 1e-3
// of the distance to the bounds, and ignores a discrepancy that the
// function's curvature or a kink within the step could explain (the
// forward and backward quotients then differ by as much). Only rows that
// disagree are compared entry by entry (2n more evaluations); a confirmed
// entry ends the solve with status DerivativeMismatch and a
// *DerivativeError naming it. The probe only reads: the iterates and
// iteration counts are those of a solve without it. Its blind spots:
// columns of variables at a bound (their direction component is 0, or
// small near one), errors below the relative 1e-4, and the Hessian, which
// changes the path but not whether the final point is a KKT point.
//
// # Watchdog
//
// On by default with IPOPT's trigger (Settings.WatchdogTrigger = 10;
// negative: off; mpcc.DefaultNLPSettings turns it off). After k
// consecutive iterations whose accepted step was
// shorter than the fraction-to-the-boundary step, the iterate and its
// direction are stored and up to 3 full steps (watchdog_trial_iter_max) are taken
// without a line search (IPOPT's watchdog, W&B06 §3.2). The first one that
// is acceptable with respect to the stored point (filter, sufficient
// decrease or Armijo from its θ, φ_μ, ∇φ_μᵀd) ends the watchdog; otherwise
// the solver returns to the stored point and backtracks along the stored
// direction from α_max/2 (no second-order correction there). The watchdog
// is abandoned when μ changes and is not used in the restoration phase.
//
// # Termination and scaling
//
// The scaled optimality error E_0 (dual infeasibility divided by s_d,
// constraint violation, complementarity divided by s_c, s_max = 100) must be
// ≤ Tol (1e-8) with unscaled dual infeasibility ≤ 1, constraint violation ≤
// 1e-4 and complementarity ≤ 1e-4. Acceptable termination: 15 consecutive
// iterates with E_0 ≤ 1e-6 (constraint violation and complementarity ≤ 1e-2).
// Iterates beyond 1e20 or f < −1e20 end with Diverging, and so does a run of
// 10 full steps that each lengthened ‖x‖∞ and lowered f by at least
// 1e-3·max(1, |f|) once ‖x‖∞ > 1e12 (not in IPOPT: along a ray with no
// curvature the Hessian regularization holds the step near 1/δ_w, so ‖x‖∞
// grows only linearly and would not reach 1e20). A Problem method
// that returns an error ends the solve with UserStop; Solve then returns the
// result at the last accepted iterate together with an error wrapping
// ErrCallback and the method's error (one rule: an error always says why the
// run stopped early, the result says where). Gradient-based
// scaling multiplies f and each g_i by min(1, 100/‖∇·‖_∞) (at least 1e-8),
// with the derivatives taken at the user's starting point, before it is
// pushed into the bounds, as IPOPT does; from a WarmStart point (often on
// a bound, where smoothed complementarity functions are steep) they are
// taken after the push. Tol applies to the scaled problem.
//
// # Validation
//
// On the Hock–Schittkowski problems of package hs the default settings take
// about 940 iterations in total where IPOPT 3.11.9 (MUMPS, defaults) takes
// 909, and reach the same objective values except on two degenerate or
// flat problems (see hs_test.go). On all 291 problems (with problems
// 201–395 of Schittkowski's second collection) the defaults take 5 323
// iterations where IPOPT 3.11.9 takes 5 089 (nlp/ipopt's TestHSTable, its
// 3 000-iteration runs included), and reach the published f* on 260
// where IPOPT reaches it on 259: every problem IPOPT solves to f* is
// solved to f* here. On the OCP chain of ocp_test.go with N = 20000
// (a KKT matrix of order 100 000) both take 9 iterations to the same
// objective; this solver needs 0.23 s including setup, IPOPT 3.11.9 with
// MUMPS 3.7 s wall time on the same 2-core machine.
//
// # Errors and cancellation
//
// Solver.Solve returns a non-nil error with a nil result when the solve
// could not run (invalid settings, dimensions, bounds or structure,
// non-finite start). It returns the result together with an error in two
// cases: a Problem method failed (Status UserStop, the error wraps
// ErrCallback) or a confirmed derivative mismatch (DerivativeMismatch,
// *DerivativeError); and the context was cancelled or its deadline passed,
// noticed at the start of every iteration (restoration iterations
// included), so within one iteration's time: the result is the last
// accepted iterate with Status Cancelled and the error wraps ctx.Err()
// ("nlp: solve cancelled after k iterations: context canceled"), so that
// errors.Is(err, context.Canceled) or errors.Is(err, ctx.Err()) holds. This
// is the rule of packages mpcc and fesd as well. Every other outcome is a
// Status with a nil error.
//
// # Initial point
//
// x₀ is pushed into [x_L + p_L, x_U − p_U] with p = min(κ₁ max(1,|b|),
// κ₂ (x_U − x_L)), κ₁ = κ₂ = 0.01 (WarmStart: 1e-3 or WarmStartBoundPush),
// slacks likewise from g(x₀); z = 1; y by least squares, discarded if
// ‖y‖_∞ > 1e3.
//
// # Performance
//
// All workspace is allocated in the setup; the iteration loop does not
// allocate (the restoration solver is created once, on first use). The
// ordering of the sparse factorization is AMD, or the stage order of a
// StageHinter problem when it gives less fill. Solver.SolveIn with a
// Workspace keeps the setup (pattern, ordering, symbolic analysis) across
// solves of problems with the same structure, e.g. along a homotopy.
//
// # References
//
//   - A. Wächter, L. T. Biegler, On the implementation of an interior-point
//     filter line-search algorithm for large-scale nonlinear programming,
//     Math. Program. 106(1):25–57, 2006 (W&B06).
//   - J. Nocedal, A. Wächter, R. A. Waltz, Adaptive barrier update strategies
//     for nonlinear interior methods, SIAM J. Optim. 19(4):1674–1693, 2009.
//   - J. Nocedal, S. J. Wright, Numerical Optimization, 2nd ed., Springer,
//     2006, chapters 18–19.
//   - W. Hock, K. Schittkowski, Test Examples for Nonlinear Programming Codes,
//     Lecture Notes in Econom. and Math. Systems 187, Springer, 1981.
package nlp
