// Package mpcc solves mathematical programs with complementarity
// constraints (MPCCs) by a relaxation homotopy, as the FESD transcription of
// nonsmooth dynamical systems requires (Nurkanović et al.; see References):
// a sequence of relaxed NLPs, each solved by an interior-point method
// (package nlp) warm-started from the previous one.
//
// # Problem
//
// An MPCC is an nlp.Problem plus complementarity terms over its variables:
//
//	minimize f(x)  s.t.  g_L ≤ g(x) ≤ g_U,  x_L ≤ x ≤ x_U,
//	                     c_k(x) = Σ_{(a,b) ∈ P_k} x_a·x_b = 0,   k = 1…K,
//
// where every variable of a pair has a finite lower bound x_L ≥ 0, so all
// products are nonnegative and c_k = 0 forces each of them to vanish. A term
// with one pair is the scalar complementarity 0 ≤ G ⊥ H ≥ 0 with G = x_a,
// H = x_b; FESD's cross-complementarity produces summed terms such as
// Σ_j λ_{n,j}·θ_{m,j} (004 §4.3, eq. 37–38; nosnoc's cross_comp_mode in
// +nosnoc/+discrete_time_problem/Stewart.m). Complementarities of general
// functions G(x), H(x) are lifted by the caller: new variables s_G ≥ 0,
// s_H ≥ 0 with constraints s_G = G(x), s_H = H(x).
//
// # Relaxations
//
// Each relaxation replaces c_k = 0 by constraints in a parameter τ ≥ 0 that
// recover the MPCC as τ → 0. With a = x_a, b = x_b for scalar pairs:
//
//	ScholtesIneq           c_k(x) − τ ≤ 0                    (Scholtes 2001)
//	ScholtesEq             c_k(x) − τ = 0
//	LinFukushima           a·b − τ² ≤ 0,  (a + τ)(b + τ) − τ² ≥ 0,
//	                       a, b ≥ x_L − τ                     (Lin & Fukushima 2005)
//	KanzowSchwartz         φ(a − τ, b − τ) ≤ 0,  φ(u, v) = u·v if u + v ≥ 0,
//	                       −½(u² + v²) otherwise (C¹, piecewise quadratic)
//	                                                          (Kanzow & Schwartz 2013)
//	Kadrani                (a − τ)(b − τ) ≤ 0,  a, b ≥ x_L − τ
//	                                                          (Kadrani, Dussault, Benchakroun 2009)
//	FischerBurmeisterEq    a + b − √(a² + b² + 2τ) = 0        (smoothing; Fischer 1992)
//	FischerBurmeisterIneq  a + b − √(a² + b² + 2τ) ≤ 0
//	NaturalResidualEq      ½(a + b − √((a − b)² + 4τ)) = 0    (smoothed min(a, b))
//	NaturalResidualIneq    ½(a + b − √((a − b)² + 4τ)) ≤ 0
//
// The Fischer–Burmeister and natural-residual functions are normalized as in
// nosnoc (σ̃² = 2σ resp. 4σ): on a, b ≥ 0 their zero set is exactly
// a·b = τ, the Scholtes equality. Only Scholtes works on a summed term: the
// others need separate G and H, and a summed term is an
// ErrScalarPairRequired error naming the term. Lin–Fukushima and Kadrani
// loosen the lower bounds of the pair's variables to x_L − τ (their sets
// contain slightly negative points), so τ enters the variable bounds;
// the nlp solver re-reads bounds at every solve.
//
// Normalization. τ = σ for every method. nosnoc uses σ̃ = √σ for
// Lin–Fukushima, Kanzow–Schwartz and Kadrani (normalize_homotopy_update),
// which makes their biactive corner (√σ, √σ) comparable to Scholtes but
// leaves strips of width √σ, so that the product residual stalls at √σ_N;
// with τ = σ every relaxed solution with an order-one partner has product
// O(σ), consistent with the stopping rule below. See Relaxation.Tau.
//
// # Steering
//
// Direct: τ = σ is a constant of the relaxed NLP (nosnoc's default).
//
// L1 (elastic ℓ₁ mode): for Scholtes, the objective becomes
// f(x) + ρ Σ_k c_k(x) with ρ = 1/σ and no complementarity constraint (the
// exact ℓ₁ penalty; the equality variant is the same since c_k ≥ 0). For the
// other relaxations each term gets a slack s_k ≥ 0 that takes τ's place in
// its constraints, and f + ρ Σ_k s_k is minimized.
//
// LInf (elastic ℓ∞ mode): one slack s ≥ 0 takes τ's place in every term
// (Scholtes: c_k(x) ≤ s, or = s) and f + ρ s is minimized.
//
// An elastic mode can also finish a Direct homotopy: the Scholtes
// constraints c_k ≤ σ lose every constraint qualification as σ → 0 (their
// multipliers grow like 1/√σ at biactive pairs), while with the ℓ∞ slack
// the relaxed NLP keeps one, and for ρ above the MPCC multipliers the
// penalty is exact, so the slack goes to zero at a finite ρ.
// fesd.OCPSolver.WithHomotopy with a Warm start runs such a continuation
// from the point of an earlier homotopy (examples/monopod does: five
// Scholtes steps, then the ℓ∞ mode from σ = 1e-5).
//
// With PenaltyScaling = ObjectiveTimesSigma the objective is σ f + P
// instead of f + P/σ (nosnoc's objective_scaling_direct = 0). Lin–Fukushima
// and Kadrani support Direct steering only, because their τ enters the
// variable bounds (ErrUnsupported otherwise).
//
// The relaxed NLP (type Relaxed) appends the slacks to x and the relaxation
// rows to g, provides exact first and second derivatives, builds its
// Jacobian and Hessian patterns once, and changes only values in SetSigma.
//
// # Homotopy
//
// Solver.Solve runs, for σ₀ > σ₁ > … ≥ σ_N,
//
//	σ_{k+1} = max(σ_N, κ σ_k)                  (Linear)
//	σ_{k+1} = max(σ_N, min(κ σ_k, σ_k^θ))      (Superlinear)
//
// with defaults σ₀ = 1, κ = 0.1, θ = 1.5, σ_N = min(1e-9, 0.1·CompTol) =
// 1e-10, CompTol = 1e-9 and at most ⌈log(σ_N/σ₀)/log κ⌉ + 1 = 11 steps
// (the defaults of nosnoc's +nosnoc/+reg_homotopy/Options.m; nosnoc counts
// without the +1, so with its defaults the last σ it solves is 1e-9). Every
// step after the first starts from the previous primal solution and, unless
// Settings.ColdDuals, its constraint and bound multipliers, with the
// initial barrier parameter μ₀ = max(1e-9, 0.1σ_k) ≪ σ_k so that the warm
// start is not re-centred: with μ₀ ≳ σ (IPOPT's default mu_init = 0.1) the
// barrier pulls a pair with a·b ≤ σ back towards a ≈ b ≈ √σ and the warm
// start is lost, while the relaxed set has little interior left as σ → 0.
// For the same reason DefaultNLPSettings pushes the warm point only 1e-6
// into the interior of its bounds and raises the bound multipliers to at
// least 1e-6 (nlp.Settings.WarmStartBoundPush, WarmStartMultPush), not
// IPOPT's 1e-3, which would move the variable at 0 of every pair to 1e-3
// (TestWarmStartPush in macmpec: 121 against 198 iterations).
// Each relaxed NLP is solved only as accurately as its σ warrants:
// Settings.InexactFactor c (default 1e-2) sets the inner tolerance of step
// k to max(tol, c·σ_k), on the optimality error and the dual,
// complementarity and constraint residuals (inexact continuation, as in the
// convergence analyses of Scholtes' relaxation with ε_k → 0). The step
// that meets CompTol is solved once more at its σ to the full tolerance
// before the homotopy ends; if that re-solve fails the inexact point is
// kept. On the OCPs of bench/ocp this cut the NLP iterations 2.2–4.6×
// (sliding-mode OCP 1 193 → 257) at the same solutions; c = 0.1 already
// moved the turbo car to another local solution. The loop stops when the NLP
// succeeded and the complementarity residual is at most CompTol (Solved),
// when σ_k ≤ σ_N (SigmaLimit), or after MaxSteps solves (MaxSteps); a
// failed NLP does not stop it, but a failure in the last step gives
// NLPFailure. Two consecutive relaxed NLPs that end nlp.Infeasible stop it
// with Infeasible when the relaxation contains the MPCC's feasible set
// (Relaxation.Outer, direct steering): a relaxed set that is locally
// infeasible has no feasible MPCC point nearby, for any smaller σ either
// (the first σ may be infeasible by chance of the start; the second
// confirms it). The step after a failed one starts from the failed point
// when it is finite, as in nosnoc. Each
// step is recorded as a HomotopyStep. The result's point is the last
// step's, failed or not (where a continuation starts); Result.LastSuccess
// keeps the point of the last step whose NLP succeeded, so that a failure
// at the end does not lose it.
//
// The complementarity residual (Problem.Residuals) is nosnoc's max_k c_k(x)
// (so it measures the sums of summed terms), taken in absolute value and
// extended by the violation of the pair variables' lower bounds, which only
// loosened-bound relaxations or inexact solves produce. The natural residual
// max |min(x_a − x_L,a, x_b − x_L,b)| over all pairs is reported alongside.
//
// # Certificate
//
// A homotopy point only meets the complementarity to CompTol, and its
// limit is in general only C-stationary (Scholtes 2001); a limit of the
// relaxations can be a point from which some branch of the complementarity
// set descends. Every Result therefore carries a class (Result.Stationarity)
// and the certificate it comes from (Result.Certificate).
//
// Index sets. A pair variable is zero when x_i − x_L,i ≤ ActiveTol (default
// 10·√CompTol: a Scholtes biactive pair at σ ≤ CompTol has both sides of
// order √σ, a nondegenerate one has its small side of order σ). A zero
// variable is locked when it has a partner above the tolerance in some
// pair (then every nearby feasible point keeps it at zero) and movable
// otherwise. Pairs are G-active (x_a zero, x_b not), H-active, or biactive
// (both zero).
//
// Tightened NLP. With every zero pair variable fixed at its bound (and,
// for a pair with neither side zero, the smaller one), the MPCC's NLP
// without complementarity constraints is solved from the homotopy point
// (with its multipliers and the inner solver's initial barrier parameter;
// by NLPSolver with the pivoting factorization nlp.PivotingLDL). Its free
// variable bounds are loosened by 1e-9 relative so that it keeps an
// interior when fixed variables and equality constraints pin a variable to
// a bound; its solution is projected back onto the bounds unless that
// violates the rows more than the loosening does (a row's coefficients
// times the move). Its solution X satisfies the complementarity exactly.
// Its bound multipliers are read from the Lagrangian gradient,
//
//	ν = ∇f(X) + J(X)ᵀy        (ν_i ≥ 0: x_i wants to stay at its bound),
//
// independently of how the inner solver treats fixed variables. X is a KKT
// point of the tightened NLP when the KKT residual without the biactive
// signs (|ν_i| of free variables, the signs of other active bounds and
// inequality rows) is at most DefaultMultTol·max(1, ‖∇f(X)‖∞) (1e-6);
// X must also be feasible to 1e-8. The inner solver's status does not
// enter: a solve that ends with NumericalError at a KKT point certifies,
// one that ends Solved at a non-stationary point does not.
//
// Classes (Scheel & Scholtes 2000), over the biactive pairs with ν_G =
// ν_a, ν_H = ν_b (a locked side counts as 0, and so does |ν| at most
// DefaultMultTol·max(1, ‖∇f‖∞)):
//
//	S  ν_G ≥ 0 and ν_H ≥ 0                  (strongly stationary)
//	M  ν_G > 0 and ν_H > 0, or ν_G·ν_H = 0   (Mordukhovich)
//	C  ν_G·ν_H ≥ 0                          (Clarke)
//	W  no sign condition                     (weakly stationary)
//
// and the class of the point is the weakest over its pairs; without
// biactive pairs it is S. S implies B-stationarity (no feasible
// first-order descent direction); under MPEC-LICQ the multipliers are
// unique and B is S, but without it B can hold with other signs.
//
// LPEC. When the signs do not give S, B-stationarity is decided by the LPEC
// at X over the movable biactive pairs (Nurkanović & Leyffer; Kirches,
// Larson, Leyffer & Manns): is there d with ‖d‖∞ ≤ 1 in the linearized
// cone (active rows, active bounds, the other zero variables fixed) with
// d_a ≥ 0, d_b ≥ 0, d_a·d_b = 0 on every movable pair and ∇fᵀd < 0? The
// LPEC separates into independent blocks, the components of its free
// variables linked by the nonzero entries of active rows (the box and the
// objective are separable): its value is the sum of theirs, and one
// block's descent direction, zero elsewhere, descends for the whole. Each
// block with a movable pair is decided on its own, the blocks without one
// by a single LP. In a block, a depth-first branch and bound answers it
// exactly: a node's LP relaxes the undecided pairs to d_a, d_b ≥ 0; a
// value ≥ −tol prunes the node (no cone below it descends), a
// complementary solution with value < −tol is a descent branch, otherwise
// the pair with the largest min(d_a, d_b) is split into d_a = 0 and
// d_b = 0. The LPs are solved by package nlp. If every block's root LP
// already has value ≥ −tol, S-multipliers exist by LP duality (the inner
// solver returned other ones) and the class is S; if the search ends
// without descent, the class is B; with descent the class stays M, C or W
// and the LPEC names the variables the descent moves. The search is exact
// for at most 12 movable biactive pairs in a block and
// 64 LPs in all (so its time is bounded by 64 small LPs);
// beyond either it ends undetermined and the class stays the sign-based
// one. The descent threshold is tol = DefaultMultTol·max(1, ‖∇f‖∞) + ‖r‖₁ +
// 1e-8‖∇f‖₁ (r the KKT residual on the free variables; the LPs' bounds are
// loosened by 1e-8), applied to each block.
//
// The certificate of the homotopy point describes the nearby exactly
// complementary point X; Result.Stationarity takes its class when X is
// within ActiveTol·max(1, ‖x‖∞) of the homotopy point and is NotCertified
// otherwise. It costs one tightened NLP solve from a converged point
// (0–3 inner iterations on the package's test problems, 3–16 on the
// monopod OCPs) and, rarely, an LPEC; every tightened solve is limited to
// DefaultFinishMaxIter = 200 iterations (50 in an early attempt, see FinishSigma
// below), which bounds the cost after a failed homotopy; their iterations
// are Result.FinishIterations. Settings.Finish = NoCertificate skips it.
//
// # Active-set finish
//
// With Settings.Finish = ActiveSetFinish (the default) the certificate
// becomes the first step of an active-set method in the spirit of
// MPECopt's second phase (Nurkanović & Leyffer) and of the SQP/LPEC
// methods of Fletcher & Leyffer and Kirches et al.: the tightened NLP is
// the branch NLP (BNLP) of the identified active set; if its point
// certifies B-stationarity it replaces the homotopy point (complementarity
// exactly 0, Status Solved). Otherwise the finish moves to the branch the
// LPEC's descent direction points to (its variables with d_i > 0 are
// freed) or, when the LPEC is undetermined, frees the movable variables
// with ν_i < 0 (most negative first, at most one per biactive pair); the
// partners of the freed variables are fixed, every other variable keeps
// its state (a variable that reached its bound in the last branch NLP is
// not fixed: its bound holds it), and that branch NLP is solved from the
// current point; at most 5 moves, never to a branch
// visited before. When nothing certifies, the homotopy point stays the
// result and Result.Finish.Reason says why (a failed or non-stationary
// branch NLP, no branch to move to, the move limit, a cycle). With
// FinishSigma (default 1e-4; negative: only after the homotopy) the finish
// is tried already after every successful step with σ_k ≤ FinishSigma that
// misses CompTol, and a certified point ends the homotopy: once σ is small
// enough for the active set to be identified, the branch NLP replaces the
// remaining steps (on the MacMPEC set, 2 418 NLP iterations instead of
// 5 659 for the same results, measured before the warm-start push of
// DefaultNLPSettings; 2 182 since).
//
// The finish replaces the former polishing (fix the smaller side of every
// pair, accept by objective comparison): its branch NLP is the same for
// nondegenerate pairs, but acceptance is by certificate.
//
// # Exploration
//
// B-stationarity is local: a bilevel program's homotopy can end at a
// local solution whose neighbouring branches hold a better one. With
// Settings.Explore the finish, once it accepts a point, switches every
// pair with one side at zero and the other positive to the other side,
// one pair at a time (the positive side fixed at zero, the zero side
// freed, provided its other partners stay fixed), solves each such branch
// NLP from the accepted point and moves to the best that certifies
// B-stationarity with exact complementarity and an objective lower by
// more than 1e-6·max(1, |f|); then it searches the neighbours of that
// point, at most 5 moves, each branch solved once
// (Result.Finish.Explored and Improvements count them). A move can cross a
// region where the linearization says nothing (a pair switched far from
// biactive), so it is a search, not a local method. It costs up to one
// branch NLP per pair and move (on the MacMPEC set of package
// mpcc/macmpec twice the NLP iterations of the default) and is off by
// default; on that set it leaves the local solutions of bilevel1,
// bilevel1m and ex9.2.5 for their optima (88 of 89 reach the best value
// instead of 85).
//
// Stopping tolerance. Once σ_k ≤ CompTol the relaxed NLP itself imposes c_k ≤
// σ_k ≤ CompTol, which the inner interior-point solve meets only up to its
// (scaled) constraint tolerance; a residual up to 1 % above CompTol then counts
// as converged, so that σ_N = CompTol does not end in SigmaLimit with a
// residual of 1.00x·CompTol.
//
// # Cancellation
//
// A context cancelled (or past its deadline) before or during Solve stops
// the homotopy within one inner iteration: Solve returns the partial
// Result, Status Cancelled (X the last point, or the start if no NLP ran;
// Steps up to the stopped one), together with an error wrapping ctx.Err()
// ("mpcc: homotopy cancelled after k steps: context canceled"), so that
// errors.Is(err, context.Canceled) holds — the rule of nlp.Solver.Solve
// and package fesd. A homotopy that ended but whose certificate or finish
// NLP was stopped is Cancelled too. NLPSolver.SolveNLP follows the rule
// for its NLP (InnerResult with Status nlp.Cancelled, error wrapping
// ctx.Err()); an InnerSolver that reports Cancelled with a nil error is
// accepted as well.
//
// # Known limitations
//
// Scholtes limits are only guaranteed C-stationary (Scholtes 2001); the
// certificate and finish above detect and leave non-B points when the
// branch NLPs converge, but the LPEC is exact only up to its size limits,
// and the finish is a local method: it certifies B-stationarity, not
// global optimality (Explore only searches the next branches). Relaxations with a smooth τ-dependence in
// the elastic modes (Fischer–Burmeister, natural residual) are nonsmooth at
// a = b = τ = 0, so elastic steering converges slowly toward biactive
// solutions. Hoheisel, Kanzow and Schwartz (2013) and nosbench (Nurkanović
// et al. 2024) found Scholtes the most reliable in practice; it is the
// default.
//
// # References
//
//   - S. Scholtes, Convergence properties of a regularization scheme for
//     mathematical programs with complementarity constraints, SIAM J. Optim.
//     11(4):918–936, 2001.
//   - G.-H. Lin, M. Fukushima, A modified relaxation scheme for mathematical
//     programs with complementarity constraints, Ann. Oper. Res.
//     133:63–84, 2005.
//   - C. Kanzow, A. Schwartz, A new regularization method for mathematical
//     programs with complementarity constraints with strong convergence
//     properties, SIAM J. Optim. 23(2):770–798, 2013.
//   - A. Kadrani, J.-P. Dussault, A. Benchakroun, A new regularization scheme
//     for mathematical programs with complementarity constraints, SIAM J.
//     Optim. 20(1):78–103, 2009.
//   - A. Fischer, A special Newton-type optimization method, Optimization
//     24(3–4):269–284, 1992.
//   - T. Hoheisel, C. Kanzow, A. Schwartz, Theoretical and numerical
//     comparison of relaxation methods for mathematical programs with
//     complementarity constraints, Math. Program. 137:257–288, 2013.
//   - A. Nurkanović, M. Sperl, S. Albrecht, M. Diehl, Finite elements with
//     switch detection for direct optimal control of nonsmooth systems,
//     Numer. Math., 2024 — the FESD method.
//   - A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, Finite elements with
//     switch detection for numerical optimal control of nonsmooth dynamical
//     systems with set-valued Heaviside step functions, Nonlinear Analysis:
//     Hybrid Systems, 2024 (cited as 004): §4.6 solves the FESD MPCCs by
//     Scholtes' relaxation homotopy with IPOPT.
//   - H. Scheel, S. Scholtes, Mathematical programs with complementarity
//     constraints: stationarity, optimality, and sensitivity, Math. Oper.
//     Res. 25(1):1–22, 2000 — the classes S, M, C, W and B.
//   - A. Nurkanović, S. Leyffer, A globally convergent method for computing
//     B-stationary points of mathematical programs with equilibrium
//     constraints, arXiv:2501.13835 (MPECopt) — BNLPs and LPECs.
//   - C. Kirches, J. Larson, S. Leyffer, P. Manns, Sequential linearization
//     method for bound-constrained mathematical programs with
//     complementarity constraints, SIAM J. Optim. 32(1), 2022 — LPEC steps.
//   - R. Fletcher, S. Leyffer, Solving mathematical programs with
//     complementarity constraints as nonlinear programs, Optim. Methods
//     Softw. 19(1):15–40, 2004.
//   - nosnoc, github.com/nosnoc/nosnoc: +nosnoc/+reg_homotopy/Options.m
//     (homotopy and IPOPT defaults), +nosnoc/+reg_homotopy/Solver.m (the
//     loop and its residual max G·H).
//   - A. Nurkanović, A. Pozharskiy, M. Diehl, Solving mathematical programs
//     with complementarity constraints arising in nonsmooth optimal control,
//     Vietnam J. Math. 2024 (arXiv:2312.11022) — nosbench.
package mpcc
