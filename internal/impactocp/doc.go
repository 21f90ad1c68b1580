// Package impactocp holds the two optimal control problems with impacts of
// A. Nurkanović, J. Frey, A. Pozharskiy, M. Diehl, "FESD-J: Finite
// Elements with Switch Detection for numerical optimal control of rigid
// bodies with impacts and Coulomb friction", Nonlinear Analysis: Hybrid
// Systems 52 (2024) 101460, §5.2 and §5.3, as fesd FESD-J OCPs (OCP.CLS):
//
//   - Discs (§5.2, manipulation with inelastic impacts): two discs in the
//     plane swap their positions around a round obstacle; only the first
//     is actuated, and it moves the second by frictionless inelastic
//     contact. T = 4, N = 25 stages, N_FE = 2, Radau IIA with n_s = 2.
//   - Boxes (§5.3, elastic and inelastic impacts): three square boxes on
//     the ground; only the middle one is pushed by a horizontal force, and
//     it pushes the other two to their targets through an inelastic
//     (e = 0) and a partially elastic (e = 0.5) impact, with Coulomb
//     friction at all five contacts. T = 6, N = 15 stages, N_FE = 2,
//     Radau IIA with n_s = 2.
//
// Both costs are least squares, ∫₀ᵀ ‖x − x_r‖²_Q + ‖u‖²_R dt + ‖x(T) −
// x_r‖²_{Q_T} with Q_T = 100 Q; the running cost is integrated with the
// Runge–Kutta quadrature of every finite element (OCP.Lagrange), the
// terminal one is OCP.Mayer. The options are the paper's discretization;
// the homotopy is fesd's default (the paper tuned nosnoc's per example).
//
// # Where the paper and its code differ
//
// The examples are examples/cls_tutorial_ocp/disc_around_obstacle.m and
// three_cart_ocp_2D.m of NOSNOC v0.4.0 (github.com/nosnoc/nosnoc, the
// release the paper cites). This package follows the paper's text and
// takes the file's value only where the text cannot be meant:
//
//   - Boxes: the text gives the initial heights q_{i,2}(0) = 0, which
//     violate the ground gaps q_{i,2} − a/2 ≥ 0 with a = 2; the file's
//     q_{i,2}(0) = 1 (resting on the ground) is used. The text's weight
//     "0.00" of q_{2,2} is the file's 0.001.
//   - Boxes: the text's target of the right box, q_{3,1} = 6, is used
//     (the file has 5).
//   - Discs: the text's velocity weights 0.01 are used (the file has 0),
//     and the obstacle constraints hold at every element boundary (the
//     text states them for all t; the file imposes them at the stage
//     ends).
//   - Boxes: the tangent of the contact between the middle and the right
//     box is their relative vertical direction q_{3,2} − q_{2,2} (the
//     file's J_tangent couples q_{1,2} and q_{3,2}). The boxes stay on
//     the ground, so both give zero tangential velocity.
//   - Boxes: the normal and tangent Jacobians are the gradients of the
//     gaps and of the relative tangential positions (norm √2 for the box
//     to box contacts); the file normalizes both to norm 1, which scales
//     the contact forces and impulses by √2 and leaves the motion and the
//     friction cone μλ_n ≥ |λ_t| unchanged.
//
// The air drag of the discs is the paper's c_f v_i/‖v_i + ε_f‖ with
// c_f = 2, ε_f = 0.1 added to each component of v_i.
//
// The paper reports no objective values; the tests check the physics of
// the solutions instead (see the test file).
//
// # Status: neither OCP is solved from the defaults
//
// Issue 46 asks for both OCPs solved from fesd's defaults with
// complementarity ≤ 1e-6 and a stationarity class. Neither is, and no
// setting of the homotopy or change of the transcription tried reaches
// it; the acceptance tests (TestDiscsOCP, TestBoxesOCP) run only with
// FESD_PAPER_OCP=1.
//
// The current transcription (an OCP's FESD-J crosses the tangential
// forces with δ at the stage points only and has the impact-law
// condition S, see fesd's newCLSOCPFormulation), measured with
// fesd.SolveOCP(ctx, Boxes() or Discs(), Options() with only the named
// fields changed, fesd.Start{}), CPU under a machine load of 6–14 on 2
// cores; "(rerun)" is the second homotopy of fesd's OCP rerun. The
// defaults are σ₀ = fesd.CLSOCPSigma0 = 1 and κ = 0.1 (σ₀ = 1e-3, the
// simulation's fesd.CLSSigma0, was the OCP default before these
// measurements):
//
//	OCP, setting             status, stationarity       compl    infeas   objective  final positions                  iterations  CPU
//	boxes, σ₀ = 1e-3         Solved, NotCertified       8.9e-10  3.5e-10  26 500     −3.00, 0.00, 3.00 (at rest)      8 237        62 s
//	boxes, defaults (σ₀ = 1) Solved, W                  9.9e-10  3.7e-12  26 500     −3.00, 0.00, 3.00 (at rest)      4 552        35 s
//	boxes, σ₀ = 0.1          NLPFailure (rerun)         2.5e-6   3.9e-6   9 845      −7.00, 0.00, 3.00                9 389        65 s
//	discs, σ₀ = 1e-3         NLPFailure (rerun)         1.5e-7   6e-6     10 020     (0.83, 1.01), (0.36, 1.15)       7 906        25 s
//	discs, defaults (σ₀ = 1) Solved, S                  0        3e-8     8 923      (1.82, −0.06), (0.40, −1.48)     1 495       4.3 s
//	discs, σ₀ = 0.1          Solved, NotCertified       9.9e-10  9.6e-6   849        (1.99, 0.01), (−1.90, 0.16)      4 479        15 s
//
// Boxes: the final positions are q₁,₁, q₂,₁, q₃,₁ (targets −7, 0, 6);
// discs: q₁, q₂ (targets (2, 0), (−2, 0)). The boxes' u ≡ 0 (all boxes at
// rest, objective 26 500) is a local minimizer of the MPCC, not a
// failure of the finish: a force |u| below the middle box's static
// friction μ m g = 1.96 moves nothing and only adds R u², so a local
// method that ends there is right; the homotopy has to reach the paper's
// solution along the relaxed problems, and there the inner solver fails.
// The discs' S-stationary end from the defaults is such a local
// solution as well: the first disc pushes the second only part of the
// way. From the defaults TestBoxesOCP also finds impulses of the ground
// contacts of order 1e-5 that break Newton's law by 1.4e-5 (contact 4 at
// t = 0.4), and TestDiscsOCP the discs 0.18–2.4 off their targets.
//
// Trials on the transcription (changes of fesd's FESD-J OCP
// formulation, measured and not kept):
//
//   - One variable for the gap at an element boundary: with Radau IIA the
//     element-start gap Y_n = f_c(q_n) and the gap of the previous
//     element's last stage point are one quantity at one state; the
//     trial used the stage point's variable in element n's pairs and
//     indicator and left Y_n free and in no pair. The relaxed NLPs have
//     the same feasible sets with and without it (Y_n equals the stage
//     gap by the rows), only the barrier differs, so it cannot remove a
//     failure of the relaxed NLPs, and it did not: boxes from the
//     defaults Solved W at u ≡ 0 after 4 416 iterations (every relaxed
//     NLP failed; 8 237 iterations and NotCertified without it),
//     σ₀ = 1 Infeasible (compl 1.6e-2, objective 15 860, 5.6 s),
//     σ₀ = 0.1 Infeasible at σ = 1e-4, compl 2.9e-4, objective
//     1 857; discs from the defaults NLPFailure, compl 1e-4, objective
//     15 340, 6 s. In the simulation (SimulateCLS) it broke the Zeno
//     test: the bouncing ball with e = 0.96 had its impacts 1e-5 s off
//     the closed form and e = 0.97 failed at step 295.
//   - Without nosnoc's eps_cls row f_c(q_n + h ε v⁺) ≥ 0 (NOSNOC's
//     three_cart_ocp_2D.m sets eps_cls = 0): boxes σ₀ = 0.1 Solved but
//     NotCertified, compl 5.3e-10, objective 1 466, −7.00, 1.03, 5.81
//     (q₃,₁ 0.19 short), 5 203 iterations, 32 s, every relaxed NLP ended
//     IterationLimit or NumericalError; σ₀ = 1, κ = 0.2 Infeasible
//     (compl 3.2e-2); discs defaults Solved NotCertified at objective
//     9 867 (the discs not swapped), σ₀ = 0.1 NLPFailure (1e-6, 1 006),
//     σ₀ = 1, κ = 0.1 NLPFailure (6.9e-4, 611).
//   - Without the impact-law condition S: boxes σ₀ = 0.1 NLPFailure,
//     compl 5.5e-6, objective 490, −7.01, 0.01, 6.01, 66 s; both changes:
//     NLPFailure (1e-6, 1 466), and σ₀ = 1, κ = 0.2 Infeasible.
//   - The pair Δ⁺ ⊥ Δ⁻ at the element starts and δ⁺ ⊥ δ⁻ at the stage
//     points (with λ_n = 0 the polyhedral rows bound γ and Γ only from
//     below, γ ≥ |J_tᵀv|; the pair makes γ = |J_tᵀv|, as nosnoc's conic
//     model's P_vt ⊥ N_vt): boxes σ₀ = 0.1 NLPFailure (2.8e-5, 9 988,
//     the middle box pushes only the left one), σ₀ = 1, κ = 0.1
//     Infeasible (1e-4, 15 847).
//
// The paper's boxes solution is tracked by the homotopy when the inner
// solver has more room: σ₀ = 1, κ = 0.1 with the inner tolerances 1e-8
// and 3 000 iterations (Options.MPCC.NLP) end NLPFailure at
// complementarity 6.8e-9, infeasibility 3.9e-8, objective 1 117, the
// boxes at −6.99, 0.00, 6.00 (7 943 iterations, 43 s): the relaxed NLPs
// at σ = 1, 0.01 and 0.001 solve (σ = 0.1 ends IterationLimit after
// 3 600 iterations), every one from σ = 1e-4 on ends NumericalError
// (its dual infeasibility grows to 1e2–1e3 near a feasible point and it
// enters the restoration phase), and the active-set finish tried from
// σ = 1e-3 (FinishSigma 0.02, FinishMaxIter 1 000) fixes 2 068
// variables and its tightened NLP ends IterationLimit with a dual
// residual of 5.7e3: no multipliers at that point, so no stationarity
// class. With IPOPT's bound relaxation 1e-8 as well: NLPFailure at
// complementarity 1.1e-5, objective 763 (−7.00, 0.05, 5.95); with the
// Δ⁺ ⊥ Δ⁻ pairs: Infeasible at σ = 1e-3 (objective 457, −6.94, 0.00,
// 6.00); with the shared start gap: Infeasible at σ = 0.01; without the
// eps_cls row: NLPFailure, compl 1.1e-7, objective 9 704 (the middle box
// pushes only the left one), 23 272 iterations, 148 s; without the
// impact-law condition: Infeasible at σ = 1e-3 (objective 416, −7.02,
// 0.00, 6.00).
//
// Inner solver settings as NOSNOC's example (tolerances 1e-8, 1 000
// iterations; set through Options.MPCC.NLP): the first relaxed NLP
// solves (boxes σ₀ = 0.1 in 998 iterations, discs in 849; 745 with
// IPOPT's bound relaxation 1e-8), the next ones end NumericalError or
// Infeasible; boxes NLPFailure at compl 2e-8, objective 1 160, −6.92,
// 1.46, 5.93; discs NLPFailure at compl 1e-4 (3.9e-5 with the bound
// relaxation, objective 704, (1.99, 0.00), (−2.01, 0.02)). The log of
// the discs' first NLP (σ₀ = 0.1) shows the inner solver traversing
// from the discs at rest (objective 33 280) towards the swap with the
// barrier parameter at 10^−3.5, the Hessian regularization 10^−2 … 10^0
// on, steps 0.02–0.5 and directions up to 47: it is still descending
// (objective 866) at its iteration limit. NOSNOC's start (states x₀,
// every other variable 0, ground forces m g) is what fesd's cold start
// already is for both tasks (the event-driven guess with u ≡ 0 keeps
// the bodies at rest with the resting contacts' forces m g), and the
// relaxation of the impulse equations (relax_fesdj_impulse, off in
// NOSNOC's examples) was not tried: the failures above are of relaxed
// NLPs whose impulse rows are feasible (u ≡ 0 solves them).
//
// Measured before the two changes of the transcription named above
// (same call, machine load about 10). "NLP MaxIter 3000" and "NLP InertiaDefault" set
// Options.MPCC.NLP to mpcc.DefaultNLPSettings() with that change (and
// InertiaStrict for the first), which also turns off the OCP's rerun:
//
//	boxes, setting                      status (σ at the end)      compl    infeas   objective  q₁,₁(T), q₃,₁(T)  CPU
//	defaults (σ₀ = CLSSigma0 = 1e-3)    Solved, S-stationary       0        3e-13    26 500     −3.00, 3.00       1.8 s
//	σ₀ = 1, κ = 0.2, superlinear [a]    Infeasible (7.2e-4)        7.2e-4   1.8      2 873      −5.50, 5.65      10.7 s
//	σ₀ = 1, κ = 0.5                     Infeasible (6.3e-2)        6.3e-2   6.6e-2   14 173     −4.91, 3.03       6.1 s
//	σ₀ = 0.1                            Infeasible (1e-4)          1e-4     1.5e-4   643        −6.92, 6.00       9.0 s
//	σ₀ = 0.1, κ = 0.3                   Infeasible (2.7e-3)        2.7e-3   2.2e-4   655        −6.87, 6.00      11.2 s
//	σ₀ = 0.1, ColdDuals                 Infeasible (1e-6)          1e-6     1.3e-5   641        −6.92, 6.00      13.1 s
//	σ₀ = 0.1, NLP MaxIter 3000          Infeasible (1e-3)          1e-3     2.8e-4   668        −6.90, 6.00      11.4 s
//	σ₀ = 0.1, CrossComp StageStage      Infeasible (1e-4)          5.6e-2   0.21     3 525      −6.39, 4.43      11.5 s
//	σ₀ = 0.1, NLP InertiaDefault [b]    Infeasible (1e-6)          1e-6     7.2e-6   603        −6.92, 6.00      18.1 s
//	  the same and ColdDuals [b]        Infeasible (1e-5)          9.8e-6   2.8e-6   598        −6.96, 6.00      21.5 s
//
//	[a] the homotopy parameters of NOSNOC's three_cart_ocp_2D.m;
//	[b] with the trial finish after the Infeasible end described below.
//
//	discs, setting                      status                     compl    infeas   objective  CPU
//	defaults (σ₀ = 1e-3)                NLPFailure (rerun too)     1e-7     1.2e-5   1 490      20.9 s
//	σ₀ = 0.1, InertiaDefault,           NLPFailure [c]             1e-4     1.5e-4   959         6.4 s
//	  ColdDuals [b]
//
//	[c] the homotopy ends Infeasible at σ = 1e-4, the diagnosis does not
//	confirm it; q₁(T) = (2.01, −0.01), q₂(T) = (−2.04, 0.35).
//
// The homotopy parameters are not what fails: in the runs with σ₀ ≥ 0.1
// every relaxed NLP at σ ≤ 0.25 ends IterationLimit (600 iterations),
// NumericalError or Infeasible (with 3 000 iterations the σ = 0.1 one
// solves, in 569). Infeasible is a restoration failure: every relaxed NLP
// is feasible, since the MPCC is (u ≡ 0 is a solution of the dynamics).
// So each σ starts from a point that is not a solution of the previous
// one. With σ₀ = 0.1 the boxes' homotopy still
// tracks a point near the paper's solution (both outer boxes within 0.08
// of their targets, objective 603–643), and the discs' runs end with
// complementarity 1e-7 at a poor point (v₁(T) = (5, −5), at the bound).
// The inner solver's log of the boxes (σ₀ = 0.1, MaxIter 3000): the
// σ = 0.1 NLP takes 569 iterations, almost all at μ ≈ 1e-6 with search
// directions ‖d‖ up to 35, step sizes 0.01–0.5 and the Hessian
// regularization (1e-7 … 1e-4) on; the σ = 0.01 NLP starts at primal
// infeasibility 0.09 (the relaxations active at σ = 0.1 violated by
// (1 − κ)σ), its directions have ‖d‖ ≈ 1e3–1e4 and steps ≈ 1e-5, it
// enters the restoration phase, and after it the dual infeasibility is
// 1e5 with 10–12 backtracking steps per iteration until it ends
// Infeasible after 1 090 iterations.
//
// Diagnosis by changing the models (not the paper's problems):
//
//   - Boxes without friction (μ = 0 at all contacts), σ₀ = 0.1: every
//     relaxed NLP but one solves; Solved, complementarity 2.8e-10, the
//     outer boxes at −7.02 and 6.02, 4.3 s, but NotCertified (the
//     finish's tightened NLPs are W-stationary with a biactive multiplier
//     of −4.4; B-stationarity undetermined: 276 biactive pairs in one
//     block, more than the LPEC's 12).
//   - Boxes with friction at the ground only (μ = 0 between the boxes),
//     σ₀ = 0.1: the first homotopy ends NLPFailure, the rerun (inertia
//     policy Default) Solved, complementarity 1e-9, outer boxes at −7.00
//     and 6.03, 75 s, NotCertified (W, multiplier −2e3, 498 biactive
//     pairs).
//   - Discs without the obstacle constraints: NLPFailure, every relaxed
//     NLP fails as with them (compl 5.9e-8, 21.9 s). Discs without the
//     drag (c_f = 0): all 16 relaxed NLPs end IterationLimit with disc 1
//     pressed against the obstacle at (−1.3, 0): the start (the discs at
//     rest, u ≡ 0) lies on the symmetry axis q_{i,2} = 0, and the solver
//     does not leave it.
//
// So the boxes' relaxed NLPs fail through the polyhedral Coulomb rows
// (at a separated contact λ_n = 0 forces λ_t⁺ = λ_t⁻ = β = 0, a vertex of
// the friction cone with four active bounds on one equality, and γ is
// then bounded only by the relaxed γβ ≤ σ), and the modified boxes end,
// where the homotopy converges, at W-stationary points with hundreds of
// biactive pairs that the finish cannot classify further. The finish after an Infeasible
// end does not rescue them either: run from the last point of the
// σ₀ = 0.1 homotopies (a trial change of mpcc's certifyEnd, not kept),
// its branch NLP (2 056–2 060 variables fixed) ended IterationLimit with
// violation 4.9e-5 and dual residual 1.4e3 (ColdDuals: 5.8e-5, 1.8e3;
// inertia Default: NumericalError, 1.6e-7), so it was not accepted.
//
// An upper bound γ, Γ ≤ 100 on the friction variables (a trial change of
// the FESD-J variables, not kept; at an MPCC point γ = |J_tᵀv| ≤ 10√2
// under the bounds |v| ≤ 10) does
// not help either: with σ₀ = 0.1 the first homotopy ends NLPFailure
// (complementarity 3.5e-7, objective 705), the rerun SigmaLimit at
// complementarity 4.4e-9 with the middle box pushed to the left only
// (q₁,₁(T) = −6.70, q₂,₁(T) = −3.22, q₃,₁(T) = 3.00, objective 11 042),
// NotCertified, 67 s.
package impactocp
