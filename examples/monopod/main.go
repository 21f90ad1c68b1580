// Command monopod solves the optimal control problem of 004 §7.2 (Figures
// 7–10): a planar two-link hopping robot (the Capler monopod, nosnoc's
// time_freezing_monoped_ocp) must move 3 m forward in T = 3 s and stop, over
// ground with a single frictional contact at the foot. Impacts (state jumps)
// are made into a Filippov system by inelastic time freezing
// (dcs.NewTimeFreezing): x = (q, v, t) with the clock t, free flight
// (v, M⁻¹f_v, 1) and, in {f_c < 0, J_nᵀv < 0}, the auxiliary dynamics
// (0, M⁻¹(J_n ∓ μJ_t)a_n, 0) with μ = 0.8, a_n = 200.
//
// Model (internal/monopod, nosnoc.md §3.1–3.3). q = (q_x, q_z, φ_hip,
// φ_knee), u = (u_hip, u_knee); M(q) and h(q, v) are derived with ad from the
// Lagrangian (point masses at the hip and the two centres of mass, thigh and
// shank inertias) and checked against the closed forms of nosnoc.md §3.2 in
// the tests. f_c = p_foot,z, J_n = ∇p_foot,z, J_t = ∇p_foot,x.
//
// OCP (internal/monopod Model.OCP, options in ocp.go; nosnoc.md §3.4).
// x₀ = (0, 0.4, 0, 0, 0, 0, 0, 0, 0), q_target = (3, 0.4, 0, 0), v_target
// = 0; least squares with the reference x_ref (MATLAB's not-a-knot spline
// through five points with two hops to z = 0.6, evaluated at N points;
// internal/monopod NotAKnot), Q = diag(1, 1, 10, 1, 1e-6·I₄, 0), Q_T =
// diag(1e3·I₄, 10·I₄, 0), R = 0.1·I₂ (the code; the paper says ρ_u =
// 0.01); bounds q_x ∈ [−0.5, 3.5], q_z ∈ [0, 10], φ ∈ [−π, π], |v| ≤ 100,
// |u| ≤ 100. Discretization: Radau IIA n_s = 2, N_FE = 3 per stage, FESD
// with heuristic_mean step equilibration; one speed-of-time variable s_k ∈
// [0.99, 10] per stage that scales the whole right-hand side (nosnoc MATLAB);
// the stage-wise clock constraint t(end of stage k) = k·T/N. Homotopy
// (paper era, feb8e46): Scholtes, σ₀ = 1, κ = 0.1, complementarity tolerance
// 1e-5, inner tolerance 1e-5 (IPOPT tol = acceptable_tol = 1e-5,
// acceptable_iter 3).
//
// Outputs in -out (default out/monopod): trajectory.csv (all grid points in
// physical time t = clock state, with τ and the foot position),
// controls.csv (u and s per stage), summary.json, frames.png (004 Figure 7),
// states.png (Figure 8: positions, velocities, foot height and clock),
// controls.png (Figure 9). With -sweep A:B:S it solves N = A, A+S, …, B with
// both DCS modes and writes sweep.csv, sweep.json and sweep.png (Figure 10:
// total time and time per NLP iteration), plus one folder per run.
//
// Meeting the targets (|q(T) − q*|, |v(T)| ≤ 1e-3). The defaults are
// nosnoc's recipe, which reproduces the paper's homotopy but misses the
// targets (the larger of the two errors is 8.5e-3, 5.6e-3 and 2.3e-2 at N
// = 30, 40, 50 in the sweep below). The recipe that meets them at N = 30, 40
// and 50 with Stewart (one run each, measurements below) is
//
//	go run ./examples/monopod -dcs stewart -N 40 -max-iter 3000 \
//	    -finish-plain-first -finish-baumgarte 10 -finish-terminal-tol 5e-4
//
// It does not yet work at N ≥ 60 or with -dcs step, and the landings
// still go up to 2.6 cm below the ground (explained below).
//
// Inner solver status (measured on a loaded 2-core machine; see the
// tests for the small case that is checked). The relaxed NLPs become very
// hard for package nlp once σ ≤ 1e-2: with the defaults, N = 4, T = 0.4,
// target 0.1 m (FE_FE) ends in NLPFailure after about 16 000 NLP
// iterations, the line search creeping with α_pr < 1e-3 in 2 561 of 2 940
// iterations of the σ = 1e-5 step (θ ≈ 1e-6, dual infeasibility stuck near
// 80–100, 59 short restoration phases, μ fixed at 1.6e-6 in monotone
// mode), while IPOPT 3.11.9 (MUMPS) as the inner solver (go test -tags
// ipopt) solves the same homotopy in 647 iterations, mostly with full steps
// and Hessian regularization δ_w ≈ 1e-3 to 1e4 where package nlp sees the
// right inertia at δ_w = 0 or 1e-10. -strict-pivots (IPOPT's rule: every
// zero pivot of the pivot-free LDLᵀ means singular) solves that case (2 610
// iterations, same objective as IPOPT); -watchdog 10 turns on IPOPT's
// watchdog. Neither makes the larger cases reliable (N = 6, T = 0.6,
// target 0.3 m: NLPFailure after 17 483 iterations with -strict-pivots,
// 18 734 with -strict-pivots -curvature). The full problem does not solve
// yet: N = 30, Step, FE_FE, -init-ref, -strict-pivots -watchdog 10 ends in
// NLPFailure after 10 homotopy steps and 22 916 iterations (1 201 s, 52
// ms/iteration with other jobs on the machine; seven steps at the 3 000
// iteration limit; |q(T) − q*| = 2.4e-2, foot penetration 4.2e-2); with
// -strict-pivots -curvature the steps from σ = 1e-2 hit the iteration
// limit or end Infeasible; Stewart's first step alone hit the limit (3 000
// iterations, 11 min). IPOPT as the inner solver is not fast here either
// (N = 30, Step, FE_FE, -init-ref): 646 iterations for σ = 1, the 3 000
// iteration limit for σ = 0.1 and 1 942 for σ = 0.01, so at this size the
// difficulty is not package nlp's alone.
//
// Later measurements (N = 4, T = 0.4, target 0.1 m, FE_FE; TestStepSmall):
// -strict-pivots -always-dc solves it in 2 026 iterations with IPOPT's
// objective 8.41135 (-strict-pivots alone: 2 610; -always-dc alone:
// NLPFailure after 12 897). -steering l1 (exact ℓ1 penalty, ρ = 1/σ) ends
// Solved but at other points: objective 9.21 after 10 523 iterations,
// with -strict-pivots 15.46 after 722. A dense eigenvalue check of the KKT
// matrices of the default run showed why: where the pivot-free LDLᵀ reports
// the wanted inertia, the smallest |eigenvalue| is 1e-9 to 1e-7 (at δ_w from
// 4e-4 to 1e4), i.e. the matrices are numerically singular with no zero
// pivot below the absolute threshold 1e-13; -strict-pivots and -always-dc
// make the solver treat them as singular (δ_c) as IPOPT with MUMPS does.
// At N = 30 (Step, FE_FE, -strict-pivots -always-dc, 3 000 iterations
// per step) it is still not enough: σ = 1, 0.1 and 0.01 end
// SolvedAcceptable after 1 542, 2 111 and 1 532 iterations (objective
// 0.30, 16.6, 20.8), then σ = 1e-3 and 1e-4 hit the iteration limit with
// the objective at 73 and 117 (stopped there; before the restoration
// phase inherited δ_c, σ = 1e-2 already hit the limit at objective 1.2e3). IPOPT with -steering l1 at N = 30 needs 1 254
// and 981 iterations for σ = 1 and 0.1.
//
// Pivoting LDLᵀ (later session; the default here since then). The inner
// KKT systems are factorized by nlp.PivotingLDL (linalg.Multifrontal,
// threshold pivoting u = 1e-8 as IPOPT's MA27/MA57). N = 4, T = 0.4,
// 0.1 m, FE_FE: Step Solved after 2 435 iterations with the default
// settings (objective 8.41135, IPOPT's), Stewart Solved after 500
// (objective 8.41082; SparseLDL: 2 448). N = 30, T = 3, 3 m (3 000
// iterations per step): Step FE_STAGE reaches σ = 0.1 after 424 + 1 720
// iterations (SparseLDL -strict-pivots -always-dc, FE_FE: 1 542 + 2 111),
// then σ = 1e-2 hits the iteration limit at objective 407; with
// -warm-push 1e-8 σ = 1e-2 and 1e-3 end SolvedAcceptable (1 430 and 662
// iterations, objective 22.9 and 34.7) and σ = 1e-4 ends Infeasible
// (objective 144); -init-ref -warm-push 1e-8 and -kappa 0.3 fail at σ ≈
// 1e-3 as well, -steering l1 stalls at a complementarity residual of 6e-3.
// Stewart (FE_STAGE) solves σ = 1 … 1e-3 (242, 905, 1 088, 1 097
// iterations) and fails at σ = 1e-4 (iteration limit, objective 232). In
// every variant the objective grows from about 10 to 100–1 000 as σ goes
// below 1e-2: the relaxed solutions at σ ≥ 1e-2 use partly frozen time
// away from the ground, and the inner solver does not find its way from
// there to a physical gait. About 30–45 ms per iteration at N = 30, 80 %
// of it in the factorization.
//
// nosnoc's restart (the default since; -cold-duals=false hands the duals
// on as before). Every homotopy step starts from the previous primal point
// only, the multipliers computed as in a cold start (nosnoc:
// warm_start_duals = false). N = 4 (0.1 m): Step 870 iterations instead of
// 2 435 (objective 8.41135, IPOPT's), holding the pose 353 instead of
// 1 642. N = 30, 3 m, FE_STAGE, 3 000 iterations per step (one run each,
// two at a time on 2 cores):
//
//	run                          σ = 1   0.1    1e-2   1e-3   1e-4   1e-5
//	Step -init-ref               921   1 243  1 094    151    155   limit (comp 1.1e-5)
//	Stewart -init-ref            158     654    447    767    337   limit (comp 9.9e-6)
//	Step -init-x0                798   1 146    504    307  limit    863 → Solved
//	Stewart -init-x0             246     474    740    257  limit (also with 10 000)
//	Step -init-ref, IPOPT inner  747   1 197  2 509    713    884   limit (comp 1.0e-5)
//
// So both modes now reach σ = 1e-4 (nosnoc's last step, N_homotopy = 5)
// with SolvedAcceptable in every step; the objective stays at 15–25
// (Stewart 15.0, Step 24.6 at σ = 1e-4) instead of climbing to 100–1 000.
// The σ = 1e-5 step that the complementarity tolerance 1e-5 requires hits
// the iteration limit, and IPOPT 3.11.9 (MUMPS, monotone μ, the same
// restart; TestIPOPTPaper, -tags ipopt, FESD_LONG=1) fails it the same
// way, with 70 % more iterations up to σ = 1e-4 (6 050 against 3 564) at
// about 3× the time per iteration here (110–160 ms against 40 ms). The only run that ended Solved
// (Step -init-x0: 6 618 iterations, 213 s, 32 ms/iteration, objective
// 33.6) found a poor gait: no flight phase above 1 mm, the foot up to 6 cm
// below the ground (time freezing lets it slide there in free flight with
// J_nᵀv ≥ 0), |q(T) − q*| = 4.8e-2, |v(T)| = 0.15. From the default
// forward-simulated start (u = 0) the σ = 1 step hits the iteration limit
// (objective 816; then 1 024 and 910 iterations for σ = 0.1 and 1e-2),
// so -init-ref or -init-x0 are the starts to use. What did not help: the monotone μ rule with μ₀ =
// 0.1 (-monotone -mu0 0.1, IPOPT's and nosnoc's: σ = 1e-2 hits the limit,
// σ = 1e-3 Infeasible), a cap μ ≤ f·σ (-mu-cap 1: σ = 1e-2 fails; 10:
// σ = 1e-3 fails), state bounds at every stage point (-xbounds
// stage_points, nosnoc's, with -init-x0: σ = 1e-4 Infeasible), polishing from σ = 1e-4
// (-polish 1e-3: the NLP with the active set fixed ends NumericalError,
// violation 2.7e-4), warm duals with -init-x0 (σ = 1e-3 limit).
//
// Finishing with the ℓ∞ elastic mode (-max-steps 5 -finish linf). The
// Scholtes steps below σ = 1e-4 stall (10 000 iterations on σ = 1e-5:
// iteration limit at residual 1.2e-5 for Step, 9.5e-6 for Stewart, the
// line search backtracking to α ≈ 5e-3 with δ_w ≈ 0.1 in every
// iteration). Continuing from the σ = 1e-4 point with one slack s ≥ 0,
// c_k ≤ s, and the objective f + s/σ (mpcc.LInf; fesd.OCPSolver.SetHomotopy
// and SetWarm) ends Solved. This is the default since (the reference as
// the start, five Scholtes steps, the finish from ρ = 1/σ = 1e5; -finish
// none -max-steps 0 -init-ref=false gives the paper's Scholtes-only
// homotopy from the forward simulation). N = 30, 3 m, FE_STAGE, 3 000
// iterations per step, one run each, two at a time on 2 cores:
//
//	run                                   iterations  wall   residual  objective  |q(T)−q*|  |v(T)|  hops  penetration
//	Stewart -init-ref, finish from ρ = 1e5     2 753    84 s  6.2e-7    16.37      5.2e-3     8.5e-3   4     1.6 cm
//	Stewart -init-ref, finish from ρ = 1e4     6 325   354 s  1.8e-7    20.08      3.6e-3     1.1e-2   4     3.1 cm
//	Step -init-ref, finish from ρ = 1e5        3 750   152 s  9.3e-6    25.38      3.9e-3     7.1e-2   0     38 cm
//	Step -init-x0 (4 steps), ρ = 1e5           4 274   115 s  2.1e-6    36.83      2.4e-2     0.21     0     6.7 cm
//
// The sweep with the defaults (one process per mode, N in turn, with a
// third job on the 2 cores for part of the time, so the times per
// iteration are only rough):
//
//	N   mode     status      iterations  wall    ms/it  residual  objective  |q(T)−q*|  |v(T)|   hops  penetration
//	30  Stewart  Solved        2 753       84 s   31    6.2e-7    16.37      5.2e-3     8.5e-3   4     1.6 cm
//	40  Stewart  Solved        6 758      330 s   49    1.9e-6    54.53      4.8e-4     5.6e-3   2     2.5 cm
//	50  Stewart  Solved        9 188    1 174 s  128    4.1e-7    17.01      5.7e-3     2.3e-2   6     0.9 cm
//	60  Stewart  NLPFailure   13 700    1 643 s  120    2.3       87.48      0.13       0.18     7     0.9 cm
//	70  Stewart  SigmaLimit   10 525    1 292 s  123    1.5e-5    56.33      7.1e-2     8.3e-2   7     0.4 cm
//	30  Step     Solved        3 750      122 s   32    9.3e-6    25.38      3.9e-3     7.1e-2   0     38 cm (spurious)
//	40  Step     SigmaLimit   12 704    1 091 s   86    4.2e-5    50.33      2.1e-2     7.3e-2   1     2.5 cm
//	50  Step     SigmaLimit   12 803      961 s   75    2.6e-4    59.56      4.6e-2     0.14     2     5.7 cm
//	60  Step     Solved        9 690      934 s   96    9.0e-6    57.24      3.0e-2     2.8e-2   4     1.3 cm
//	70  Step     SigmaLimit   10 657      982 s   92    4.6e-5    78.35      6.3e-3     3.1e-2   2     16 cm
//
// (N = 30 Step with -cross FE_FE: Solved, 4 712 iterations, residual
// 5.5e-6, objective 36.90, |q(T)−q*| = 2.8e-2, no hops, 9.3 cm below the
// ground.) At N = 60 Stewart's ℓ∞ finish diverges: σ = 1e-6 hits the
// iteration limit at residual 1.3 and the later steps start from there (the
// homotopy warm-starts from a failed step's point, as nosnoc does). N = 80
// and 90 were not run to the end in this session.
//
// Stewart's is the gait of 004 Figure 8: four hops (the foot up to 0.23 m
// with ρ = 1e4), the target within 4–5e-3. It still misses the issue's
// acceptance (1e-3): the foot slides 1.5–3 cm below the ground for t ≈
// 0.5–1.2 s, |v(T)| ≈ 1e-2, and the clock dips by 2e-5 and 4e-5 at two
// interior stage points (ρ = 1e4 run). Step's
// solution is spurious, and already the σ = 1e-4 Scholtes point is: between
// t = 1.9 and 2.0 s the robot falls through the ground within one stage
// (|ω| up to 925 rad/s, the hip at its bound z = 0). What did not help
// (Step -init-ref unless said): -centred-duals (σ = 1e-4 limit, then
// Infeasible), -warm-push-factor 0.1 (σ = 1e-5 limit), -watchdog 10 (σ =
// 1e-4 limit, 1e-5 Infeasible), -foot-ground (Step: σ = 1e-3 limit and the
// ℓ∞ finish stalls at residual 7e-4; Stewart: σ = 1e-2 limit), -finish l1
// (the ρ = 1e4 step hits the limit at residual 50), FE_FE (σ = 1e-5 and
// 1e-6 hit the limit at residuals 1.0e-5 and 8.7e-6).
//
// Why the foot is below the ground and the target is missed (later
// session). In the time-freezing system a persistent contact is a sliding
// mode on {J_nᵀv = 0} inside {f_c < 0}, which keeps f_c constant only in
// exact arithmetic: the Radau IIA collocation enforces J_nᵀv = 0 at its
// stage points, and the error of f_c accumulates while the foot is on the
// ground, most when it slips. In the N = 30 Stewart solution above the
// foot slides 28 cm along the ground for t ≈ 0.4–0.6 s and ends that phase
// 8 mm deep; the final stance, from t ≈ 2.3 s on, is 4.2 mm deep, so
// q_z(T) = 0.3958, which is 4.2e-3 of the terminal error 5.2e-3 (at N =
// 40 the final stance is 0.25 mm deep and the error 4.8e-4). The depth
// shrinks with the step size (1.6, 2.5, 0.9, 0.4 cm at N = 30, 40, 50, 70,
// Stewart), and the complementarity tolerance does not bound it. What was
// tried at N = 30 (one run each, two or three at a time on 2 cores):
//
//   - Baumgarte stabilization of the contact (-baumgarte k,
//     dcs.TimeFreezingOptions.Baumgarte: switching function J_nᵀv + k f_c,
//     so that ḟ_c = −k f_c while in contact; TestTimeFreezingBaumgarte
//     checks q(t) = −d e^{−kt} for a ball started below the ground). It
//     breaks the homotopy: Stewart k = 50 ends σ = 1e-2 and 1e-3
//     Infeasible (objective 306 and 328), k = 10 ends σ = 1e-4 Infeasible
//     (residual 1.4e-3) with the ℓ∞ finish stalling at 4.5e-4; Step k = 50
//     needs 9 192 iterations for σ = 1 alone.
//   - Terminal constraints |q(T) − q*|, |v(T)| ≤ 5e-4 (-terminal-tol):
//     Stewart σ = 1e-4 ends Infeasible after 6 338 iterations (objective
//     80.7) and the finish stalls at 2.3e-4; Step's σ = 1e-3 step needs
//     5 079 iterations. The position part conflicts with the drift above.
//     |v(T)| ≤ 5e-4 alone (-terminal-vel-tol): the Scholtes steps reach
//     σ = 1e-4 (objective 27.2), then the ℓ∞ finish from ρ = 1e5 hits the
//     iteration limit at residual 28.
//   - -foot-ground -foot-slack 0.05 (foot_z ≥ −5 cm at every stage point,
//     against Step's spurious fall through the ground): σ = 1e-3 hits the
//     10 000-iteration limit, σ = 1e-4 is Infeasible, the finish stalls at
//     1.7e-4, objective 319, the foot on its −5 cm bound.
//   - Radau IIA n_s = 3 (-ns 3, order 5): σ = 1, 0.1, 1e-2 in 618, 1 017
//     and 315 iterations, then σ = 1e-3 did not end within 20 minutes.
//
// At N = 60 Stewart, starting the step after a failed one from the last
// successful point (-keep-last-success, mpcc.Settings.KeepLastSuccess)
// does not rescue the ℓ∞ finish: σ = 1e-7 from the σ = 1e-5 point hits the
// iteration limit at residual 0.98, as σ = 1e-6 did (1.27). Neither does a
// gentler ρ schedule (-finish-kappa 0.3): ρ = 1e5 and 3.3e5 end
// SolvedAcceptable at residuals 5.1e-5 and 3.4e-5, and ρ = 1.1e6 hits the
// iteration limit at residual 3.9. N = 90 Stewart (3 000 iterations per
// step) hits the limit in σ = 1e-2, 1e-3 and 1e-4 (11, 12 and 8 minutes
// each, about 230 ms per iteration with a second job on the machine);
// the run was stopped in the finish. (It used the first version of
// -keep-last-success, which restarted each of those steps from the σ = 0.1
// point; since then a failed step that lowered the residual is handed on.)
// The sweep's N = 80 rows (default recipe, 3 000 iterations per step,
// -keep-last-success, the two runs side by side on 2 cores):
//
//	N   mode     status      iterations  wall    ms/it  residual  objective  |q(T)−q*|  |v(T)|   hops  penetration
//	80  Stewart  SigmaLimit   12 274    1 880 s  153    1.8e-5    44.25      3.4e-3     4.5e-2   9     0.8 cm
//	80  Step     Solved       10 794    1 551 s  144    7.3e-6    99.70      0.11       0.18     5     0.9 cm
//
// Stewart's finish stalls near 1.6–1.9e-5 from ρ = 1e6 on; its σ = 1e-8
// step diverged (residual 16) and, with -keep-last-success, σ = 1e-9
// restarted from the σ = 1e-7 point. Step's finish reaches 7.3e-6 at ρ =
// 1e8, but the objective has grown from 16 (σ = 1e-3) to 100, and the
// robot ends 11 cm from the target.
//
// Baumgarte and the terminal box in the finish only (-finish-baumgarte k,
// -finish-terminal-tol tol; later session). The Scholtes steps solve
// nosnoc's system; the ℓ∞ finish then starts from their σ = 1e-4 point on
// an OCP of its own with the same variables, whose normal switching
// function is J_nᵀv + k·f_c and which has the terminal box |q(T) − q*|,
// |v(T)| ≤ tol (componentwise). The finish then runs also when the
// Scholtes steps end Solved. N = 30, Stewart, 3 000 iterations per step
// (one run each, two at a time on 2 cores; nosnoc's recipe above for
// comparison):
//
//	finish                       status      iterations  residual  objective  |q(T)−q*|  |v(T)|   hops  penetration
//	nosnoc's (k = 0, no box)     Solved        2 753     6.2e-7    16.37      5.2e-3     8.5e-3   4     1.6 cm
//	k = 10                       Solved        3 248     2.1e-6    21.01      3.3e-3     1.7e-2   4     3.2 mm
//	k = 10, box 5e-4             Solved        2 995     6.7e-6    17.69      7.7e-4     7.5e-4   4     5.5 mm
//	k = 50                       SigmaLimit    6 821     1.4e-5   127.2       0.21       0.15     2     8.6 mm
//
// With k = 10 the stance phases return to the ground (the final stance
// ends 3 µm deep instead of 4.2 mm), so the terminal error is no longer
// the drift but the trade-off of the tracking cost, and the box can hold:
// the k = 10 run with the box meets the terminal targets (1e-3)
// at N = 30. What remains below the ground are the landings: the foot
// reaches 5.5 mm depth within the element of an impact (at t ≈ 2.27 s it
// slides 17 cm in 0.07 s, 5 mm deep) and the gain pulls it back in about
// 1/k = 0.1 s. A larger gain breaks the finish (k = 50 above). Step at
// N = 30 starts the finish from its spurious σ = 1e-4 point and ends
// SigmaLimit (residual 1.3e-3, the robot 25 cm below the ground). It does
// not carry over to larger N yet (both runs stopped in the finish):
// Stewart N = 40 (10 000 iterations per step) hits the limit in σ = 1e-4
// at objective 138, and the finish from there stalls at residual 1.6e-4;
// Step N = 60 (3 000) hits the limit in σ = 1e-4 at residual 1e-4, the
// finish stalls at 2.4e-4 (objective 50) and diverges at ρ = 1e7. In
// both the σ = 1e-4 Scholtes step already hits the iteration limit, so the
// finish starts from a worse point than at N = 30. (The N = 40 Stewart
// row of the sweep above went through the same σ = 1e-4 failure: its log
// shows the same 3 000-iteration limit at objective 95.139, bit for bit as
// the 3 000-iteration run here; its nosnoc finish, without gain or box,
// then recovered to Solved at objective 54.5 with two hops. An earlier note
// that it had passed σ = 1e-4 was wrong.) Every
// run writes start.json, the point its finish starts from; -warm
// DIR/start.json -sigma0 1e-4 -max-steps 1 with other -finish flags tries
// another finish without repeating the Scholtes steps (Step, N = 30: the
// σ = 1e-4 step from its own start.json takes 221 iterations, 11 s, and
// returns its objective 24.642 and residual 1.0e-4, against 3 564
// iterations and 134 s for the five Scholtes steps).
//
// Two-phase finish (-finish-plain-first; later session). At N = 40
// (Stewart, 3 000 iterations per step) every Scholtes path tried fails
// between σ = 1e-3 and 1e-4, where the objective leaves 12–20 for 76–360:
// nosnoc's five steps hit the limit at σ = 1e-4 (objective 95.1); nosnoc's
// later Stewart schedule, κ = 0.4 with 11 steps, passes σ = 1.6e-3 at
// objective 12.4 (1 489 iterations for eight steps) and then hits the
// limit at 6.6e-4 and ends Infeasible at 2.6e-4 and 1.0e-4. The gain and
// box finish from the σ = 1e-4 point stalls (residual 1.6–3e-4), and so
// does a finish from the σ = 1e-3 point (-max-steps 4 -finish-sigma0 1e-4:
// with k = 10 and the box, residuals 4.3e-4, 2.2e-4, then 3.4 at ρ = 1e6;
// nosnoc's finish alone, SigmaLimit at 7.0e-5). nosnoc's finish from the
// σ = 1e-4 point does end Solved (the sweep row above, reproduced bit for
// bit: 6 758 iterations, objective 54.53, |q(T)−q*| = 4.8e-4, |v(T)| =
// 5.6e-3), and from that solution the gain and box finish converges: with
// -warm …/solution.json -sigma0 1e-5 -max-steps 1 and the finish from ρ =
// 1e6, Solved after 1 262 more iterations (54 s; 503 of them in the
// σ = 1e-5 Scholtes step that -warm starts with), objective 33.37,
// |q(T)−q*| = 8.6e-4, |v(T)| = 7.6e-4, two hops, residual 5.2e-6; from
// ρ = 1e5 the first ℓ∞ step hits the limit, then ρ = 1e6 ends Solved at
// the same targets (4 180 more iterations). -finish-plain-first does both
// phases in one run: nosnoc's finish on the OCP of the Scholtes steps,
// one Scholtes step at σ = 10·s₂ from its last point, and the gain and
// box finish from σ = s₂ (-finish-second-sigma0, default 1e-6). Without
// the Scholtes step in between, the gain and box finish started from the
// ℓ∞ point itself stalls (N = 40: residuals 1.5e-4, 1.3e-4, 7.6e-5 at
// ρ = 1e6, 1e7, 1e8, objective growing to 96; stopped). The first N =
// 40 run of this three-phase form hit the 3 000-iteration limit in the
// Scholtes step (objective 45.56) where the -warm run took 503 iterations:
// it ran the step at 10·1e-6 = 9.999999999999999e-06, one ulp below the
// 1e-5 of -sigma0 1e-5, and from the same point a fresh solver takes 503
// iterations (Solved, objective 44.8134028391) at 1e-5 and 3 000
// (NLPFailure, objective 45.544) one ulp below. The bridge step now runs
// at the decimal (bridgeSigma), and the one-run form gives the two-run
// result bit for bit: N = 40 Stewart -finish-plain-first -finish-baumgarte
// 10 -finish-terminal-tol 5e-4 (3 000 iterations per step) ends Solved
// after 8 020 iterations (837 s with two other jobs on the 2 cores),
// objective 33.369422080866876, |q(T)−q*| = 8.6e-4, |v(T)| = 7.6e-4, two
// hops, residual 5.2e-6. That a single ulp of σ decides between 503
// iterations and the limit shows how fragile the individual steps are at
// this size: one run of a recipe is a sample, not a verdict. The landings still go 1–2.6 cm
// below the ground at N = 40 (t ≈ 0.81, 2.02 and 2.10 s). That is
// integration error the optimizer uses, not a missed switch: in the
// two-run solution the stage point before the dip at t = 2.02 has the foot
// on the ground at rest (f_c = 1.6e-6, J_n v ≈ 0, τ = 1.967) and the
// stage point at the end of that element lies on the gain's sliding
// surface J_n v + k f_c = 0 (f_c = −1.48 cm, J_n v = 0.148, τ = 2.0), so
// each stage point is consistent with its mode while the Radau step
// between them, with the knee turning at 30–50 rad/s, moves the foot 1.5
// cm down (at t = 2.10: 2.6 cm, knee 52 rad/s). The gain then lifts the
// foot back with time constant 1/k = 0.1 s. A foot-height bound at the
// stage points forbids the dip, but with nosnoc's bound foot_z ≥ −0.005
// (which nosnoc defines and leaves inactive) in the finish only, N = 30
// (-max-steps 4 -finish-sigma0 1e-4, k = 10 and the box, -finish-foot-ground
// -foot-slack 0.005) does not solve: the ℓ∞ steps stall at residuals
// 7.9e-4, 3.9e-4, 2.9e-4, then alternate between the iteration limit
// (residual 6.1, 2.3) and SolvedAcceptable (1.2e-4) while the objective
// climbs from 14 to 128 (NLPFailure, 10 128 iterations).
// N = 50, Stewart, -finish-plain-first in its first version (no Scholtes
// step between the phases; one run, two at a time on 2 cores): σ = 1e-4
// hits the limit (objective 16.4), nosnoc's finish ends Solved (objective
// 17.03, residual 4.1e-7, as in the sweep), and the gain and box finish
// from ρ = 1e6 ends Solved in one step of 799 iterations: 9 987
// iterations, 1 024 s in all, objective 28.23, residual 1.003e-5 (within
// mpcc's 1 % slack on the tolerance), |q(T)−q*| = 5.3e-4, |v(T)| = 8.7e-5,
// four hops, 3.7 mm below the ground at most.
// At N = 30, starting the gain and box finish one step earlier (-max-steps
// 4 -finish-sigma0 1e-4) also ends Solved: 4 127 iterations, objective
// 21.52, |q(T)−q*| = 8.7e-4, |v(T)| = 7.7e-4, two hops, 9 mm below the
// ground.
//
// Later session (one run each, up to three at a time on 2 cores). At N = 60
// (Stewart, -max-steps 4 -finish-sigma0 1e-4 with k = 10 and the box) the
// Scholtes steps reach σ = 1e-3 at objective 11.7 (3 298 iterations), but
// the finish does not converge: ρ = 1e4 and 1e6 end SolvedAcceptable at
// residuals 1.7e-4 and 5.0e-5, ρ = 1e5 and 1e7 hit the iteration limit at
// 0.52 and 0.13 (stopped). -finish-foot-ground (the path
// constraint foot height ≥ 0 at every stage point, in the finish only),
// N = 30, -warm from the 4-step k = 10 + box solution above, -sigma0 1e-5
// -max-steps 1, then k = 10, box 5e-4 and the foot constraint from ρ =
// 1e6: the σ = 1e-5 step hits the limit (residual 1.0e-5, objective
// 18.4) and the finish stalls at residual 1.4e-4 (objective 86 → 100;
// stopped), so the landings are not pulled above the ground this way.
// Step at N = 60: nosnoc's recipe ends Solved as in the sweep (9 690
// iterations, objective 57.24, bit for bit), and the two-run recipe of N =
// 40 from its solution (σ = 1e-5: 432 iterations, then k = 10 and the box
// from ρ = 1e6) diverges: the first ℓ∞ step hits the limit at residual
// 3.3 (stopped).
//
// Session of the σ fix (one run each, 2–4 jobs on 2 cores unless said,
// 3 000 iterations per step). Time per iteration, measured clean (N = 30,
// defaults, one run at a time on an otherwise idle machine): Stewart
// Solved, 2 753 iterations, 104.2 s, 37.9 ms per iteration; Step Solved
// (its spurious gait), 3 750, 141.1 s, 37.6 ms. Per iteration Step costs
// 0.99× Stewart here (the paper finds Step cheaper); in total Stewart is
// cheaper, as in the paper. Stewart N = 60 -finish-plain-first: the five
// Scholtes steps all end SolvedAcceptable down to σ = 1e-4 (4 026
// iterations, objective 13.43), and nosnoc's finish diverges from there as
// in the sweep (ρ = 1e6 at the limit, residual 1.27; stopped); from that
// σ = 1e-4 point (start.json, -sigma0 at its exact σ) the Scholtes step σ
// = 1e-5 hits the limit at objective 110, and the gain and box finish from
// ρ = 1e5 hits the limit at residual 2.5, recovers at ρ = 1e6
// (SolvedAcceptable, residual 1.58e-5, objective 19.75), and then ρ = 1e7,
// 1e8, 1e9 all hit the limit (residuals 5.8, 3.1, 0.14; NLPFailure after
// 13 206 iterations, objective 157). Stewart N = 30 -finish-plain-first
// ends Solved: 4 100 iterations (186 s), objective 17.44, |q(T)−q*| =
// 6.0e-4, |v(T)| = 7.7e-4, four hops, residual 2.3e-7, 3.3 mm below the
// ground at most. Stewart N = 50
// -finish-plain-first with the bridge step ends Solved: 10 360 iterations
// (1 210 s), objective 15.93, |q(T)−q*| = 4.9e-4, |v(T)| = 3.7e-4, five
// hops, residual 6.2e-7, 3.7 mm below the ground at most (σ = 1e-4 hits
// the limit at objective 16.4, nosnoc's finish ends Solved at 17.03, the
// bridge step takes 562 iterations, the gain and box finish 610). Step N = 40
// -finish-plain-first: σ = 0.1 and 1e-4 hit the limit (objective 409),
// nosnoc's finish ends SigmaLimit at 4.2e-5 as in the sweep, the bridge
// step hits the limit and the gain and box finish stalls (stopped).
//
// What the inner solver does when such a step fails (the N = 40 step one
// ulp below σ = 1e-5): it leaves the 503-iteration path in the 8th digit
// by iteration 9, is nearly converged at iteration 200 (inf_pr 1.5e-6,
// inf_du 7.8), and from about iteration 500 stays at μ = 1.15e-6 with
// inf_du ≈ 1e5, α_pr of 1e-6 to 1e-9 after 20–35 backtracks and
// restoration phases that return to the same place. The large residuals
// sit on active Scholtes constraints G·H ≤ σ whose factors are both small
// (slacks 1e-11, multipliers 1e5; G or H at its zero bound with bound
// multiplier 5e4): the constraint gradient (H, G) is O(√σ), so the
// multipliers grow like 1/√σ and the Newton steps degenerate. Stepping y
// with α_du instead of α_pr (IPOPT's alpha_for_y = bound-mult) did not
// help (limit again; the σ = 1e-5 step then fails after 643 iterations).
//
// Usage:
//
//	go run ./examples/monopod [-N 60] [-dcs step|stewart] [-out DIR] [-sweep 30:90:10]
//	                          [-cross fe_stage|fe_fe|stage_stage|stage_fe] [-init-ref=true] [-watchdog 10] [-strict-pivots] [-curvature]
//	                          [-always-dc] [-linsolver PivotingLDL|SparseLDL|DenseLDL] [-steering direct|l1|linf]
//	                          [-sigma0 1] [-kappa 0.1] [-warm-push 1e-3] [-T 3] [-distance 3] [-sot-max 10]
//	                          [-init-x0] [-cold-duals=true] [-monotone] [-mu0 0.1] [-mu-cap 10] [-polish 1e-3]
//	                          [-xbounds stage_ends|element_boundaries|stage_points] [-cpuprofile FILE] [-v] [-vv]
//	                          [-max-steps 5] [-finish linf|l1|none] [-finish-sigma0 1e-5] [-centred-duals]
//	                          [-warm-push-factor 0.1] [-foot-ground] [-foot-slack 0.05] [-ns 2]
//	                          [-terminal-tol 5e-4] [-terminal-vel-tol 5e-4] [-baumgarte 10]
//	                          [-keep-last-success] [-finish-kappa 0.3] [-finish-baumgarte 10] [-finish-terminal-tol 5e-4]
//	                          [-finish-plain-first] [-finish-second-sigma0 1e-6] [-finish-foot-ground]
//	                          [-warm DIR/solution.json]
//
// -T and -distance shorten the task for experiments (e.g. -N 4 -T 0.4
// -distance 0.1); -steering l1 uses the exact ℓ1 penalty instead of the
// Scholtes constraints; -always-dc is nlp.Settings.PerturbAlwaysCD;
// -linsolver picks the inner KKT backend (-dense is -linsolver DenseLDL,
// about 1.7 s per iteration at N = 4; diagnostics only); -warm-push is the
// inner solver's warm-start bound push; -vv prints every inner iteration.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

func main() {
	if err := runMain(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "monopod:", err)
		os.Exit(1)
	}
}

func parseSteering(s string) (mpcc.Steering, error) {
	for _, st := range mpcc.Steerings() {
		if strings.EqualFold(st.String(), s) {
			return st, nil
		}
	}
	return 0, fmt.Errorf("-steering %q: want one of %v", s, mpcc.Steerings())
}

func parseLinearSolver(s string) (nlp.LinearSolverKind, error) {
	for _, k := range []nlp.LinearSolverKind{nlp.SparseLDL, nlp.PivotingLDL, nlp.DenseLDL} {
		if strings.EqualFold(k.String(), s) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("-linsolver %q: want SparseLDL, PivotingLDL or DenseLDL", s)
}

func parseSweep(s string) ([]int, error) {
	p := strings.Split(s, ":")
	if len(p) != 3 {
		return nil, fmt.Errorf("-sweep %q: want FROM:TO:STEP", s)
	}
	var v [3]int
	for i := range p {
		n, err := strconv.Atoi(p[i])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-sweep %q: %q is not a positive integer", s, p[i])
		}
		v[i] = n
	}
	var out []int
	for n := v[0]; n <= v[1]; n += v[2] {
		out = append(out, n)
	}
	return out, nil
}

func runMain(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("monopod", flag.ContinueOnError)
	c := defaultConfig()
	fs.IntVar(&c.N, "N", c.N, "number of control stages")
	dcsFlag := fs.String("dcs", "step", "DCS formulation: step (Heaviside) or stewart")
	out := fs.String("out", "out/monopod", "output folder")
	sweep := fs.String("sweep", "", "FROM:TO:STEP: solve these N with both DCS modes (004 Figure 10)")
	cross := fs.String("cross", c.Cross.String(), "cross complementarity: FE_STAGE (paper era), FE_FE (nosnoc HEAD), STAGE_STAGE, STAGE_FE")
	fs.IntVar(&c.NFE, "nfe", c.NFE, "finite elements per stage (0: 3)")
	fs.IntVar(&c.NS, "ns", c.NS, "Radau IIA stages per finite element, order 2·ns − 1 (0: 2)")
	fs.Float64Var(&c.CompTol, "comp-tol", c.CompTol, "complementarity tolerance")
	fs.IntVar(&c.MaxIter, "max-iter", c.MaxIter, "NLP iteration limit per homotopy step")
	fs.BoolVar(&c.InitRef, "init-ref", c.InitRef, "initialize the states with the reference")
	fs.BoolVar(&c.InitX0, "init-x0", c.InitX0, "initialize every state at x₀ (nosnoc) instead of the reference (-init-ref=false -init-x0=false: forward simulation with u = 0)")
	fs.BoolVar(&c.ColdDuals, "cold-duals", c.ColdDuals, "homotopy: restart every step from the primal point only (nosnoc)")
	fs.BoolVar(&c.CentredDuals, "centred-duals", c.CentredDuals, "inner NLP: start the bound multipliers at z = μ₀/gap (IPOPT's bound_mult_init_method = mu-based) instead of 1")
	fs.Float64Var(&c.PolishSigma, "polish", c.PolishSigma, "homotopy: polish (fix the active set, σ = 0) after every step with σ ≤ this value (0: off)")
	fs.BoolVar(&c.Monotone, "monotone", c.Monotone, "inner NLP: monotone barrier update (IPOPT's default, nosnoc) instead of the adaptive one")
	fs.Float64Var(&c.Mu0, "mu0", c.Mu0, "homotopy: initial barrier parameter of every warm-started step (0: max(1e-9, 0.1σ); nosnoc: 0.1)")
	fs.Float64Var(&c.MuCap, "mu-cap", c.MuCap, "homotopy: bound the inner barrier parameter by this factor times σ in every warm-started step (0: no bound)")
	xb := fs.String("xbounds", c.XBoundsAt.String(), "where the state bounds hold: stage_ends, element_boundaries or stage_points (nosnoc)")
	fs.BoolVar(&c.StrictPivots, "strict-pivots", c.StrictPivots, "inner NLP: every zero KKT pivot means singular (IPOPT's rule)")
	fs.BoolVar(&c.Curvature, "curvature", c.Curvature, "inner NLP: curvature test on the inertia check (Chiang–Zavala)")
	fs.IntVar(&c.Watchdog, "watchdog", c.Watchdog, "inner NLP watchdog trigger (shortened steps; 0 = off, IPOPT: 10)")
	fs.Float64Var(&c.T, "T", c.T, "horizon in seconds (physical time)")
	fs.Float64Var(&c.Distance, "distance", c.Distance, "target q_x in metres")
	steer := fs.String("steering", c.Steering.String(), "homotopy steering: direct, l1 (exact ℓ1 penalty) or linf")
	finish := fs.String("finish", strings.ToLower(c.Finish.String()), "continue an unfinished homotopy with this steering: linf (elastic ℓ∞ mode), l1 (exact ℓ1 penalty) or none")
	fs.Float64Var(&c.FinishSigma0, "finish-sigma0", c.FinishSigma0, "first σ of the -finish homotopy (0: the last σ of the first)")
	fs.Float64Var(&c.FinishKappa, "finish-kappa", c.FinishKappa, "reduction factor κ of the -finish homotopy (0: -kappa)")
	fs.IntVar(&c.MaxSteps, "max-steps", c.MaxSteps, "number of homotopy steps (nosnoc's N_homotopy; 0: from σ₀, κ and -comp-tol)")
	fs.Float64Var(&c.SOTMax, "sot-max", c.SOTMax, "upper bound of the speed of time per stage")
	fs.BoolVar(&c.AlwaysDC, "always-dc", c.AlwaysDC, "inner NLP: constraint regularization δ_c in every KKT factorization (IPOPT's perturb_always_cd)")
	dense := fs.Bool("dense", false, "same as -linsolver DenseLDL (small N only; diagnostics)")
	linsolver := fs.String("linsolver", c.LinearSolver.String(), "inner NLP KKT backend: SparseLDL (pivot-free), PivotingLDL (threshold pivoting) or DenseLDL")
	fs.Float64Var(&c.Sigma0, "sigma0", c.Sigma0, "first relaxation parameter σ₀ of the homotopy")
	fs.Float64Var(&c.Kappa, "kappa", c.Kappa, "homotopy reduction factor κ (σ ← κσ)")
	fs.BoolVar(&c.FootGround, "foot-ground", c.FootGround, "path constraint: foot height ≥ −foot-slack at every stage point")
	fs.Float64Var(&c.FootSlack, "foot-slack", c.FootSlack, "with -foot-ground: allowed depth of the foot below the ground")
	fs.Float64Var(&c.TerminalTol, "terminal-tol", c.TerminalTol, "terminal constraints |q(T) − q*| ≤ tol and |v(T)| ≤ tol componentwise (0: the tracking cost only, nosnoc)")
	fs.Float64Var(&c.TerminalVelTol, "terminal-vel-tol", c.TerminalVelTol, "terminal constraint |v(T)| ≤ tol componentwise (0: off)")
	fs.BoolVar(&c.KeepLastSuccess, "keep-last-success", c.KeepLastSuccess, "homotopy: start the step after a failed one from the last successful point (nosnoc: from the failed point)")
	fs.Float64Var(&c.Baumgarte, "baumgarte", c.Baumgarte, "time freezing: normal switching function J_nᵀv + k·f_c with this k (0: nosnoc's J_nᵀv)")
	fs.Float64Var(&c.FinishBaumgarte, "finish-baumgarte", c.FinishBaumgarte, "time freezing: Baumgarte gain k of the -finish homotopy only (0: -baumgarte); the finish then always runs")
	fs.Float64Var(&c.WarmPushFactor, "warm-push-factor", c.WarmPushFactor, "homotopy: warm-start bound push min(1e-3, f·σ) in every step (0: off, -warm-push)")
	fs.Float64Var(&c.WarmPush, "warm-push", c.WarmPush, "inner NLP warm-start bound push κ₁ (0: 1e-3, IPOPT's warm_start_bound_push)")
	fs.Float64Var(&c.FinishTerminalTol, "finish-terminal-tol", c.FinishTerminalTol, "terminal box |q(T) − q*|, |v(T)| ≤ tol for the -finish homotopy only (0: off); the finish then always runs")
	fs.BoolVar(&c.FinishFootGround, "finish-foot-ground", c.FinishFootGround, "path constraint foot height ≥ −foot-slack at every stage point for the -finish homotopy only; the finish then always runs")
	fs.BoolVar(&c.FinishPlainFirst, "finish-plain-first", c.FinishPlainFirst, "with -finish-baumgarte/-finish-terminal-tol: run nosnoc's finish first, then one Scholtes step at 10·(-finish-second-sigma0) and the gain/box finish from there")
	fs.Float64Var(&c.FinishSecondSigma0, "finish-second-sigma0", c.FinishSecondSigma0, "with -finish-plain-first: first σ of the gain/box finish (0: 1e-6)")
	warm := fs.String("warm", "", "start from the solution.json of an earlier run (same N, -dcs, -cross, -nfe, -ns) instead of the initialization")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile (go tool pprof) to this file")
	verbose := fs.Bool("v", false, "print the homotopy log")
	nlpVerbose := fs.Bool("vv", false, "also print the iteration log of every inner NLP")
	if err := fs.Parse(args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if c.InitX0 && c.InitRef {
		if set["init-ref"] {
			return fmt.Errorf("-init-x0 and -init-ref: choose one initialization")
		}
		c.InitRef = false // -init-x0 replaces the default
	}
	var err error
	if c.Form, err = dcs.ParseFormulation(*dcsFlag); err != nil {
		return err
	}
	if c.Cross, err = fesd.ParseCrossComp(*cross); err != nil {
		return err
	}
	if c.Steering, err = parseSteering(*steer); err != nil {
		return err
	}
	switch {
	case strings.EqualFold(*finish, "none"):
		c.Finish = mpcc.Direct
	default:
		if c.Finish, err = parseSteering(*finish); err != nil {
			return err
		}
		if c.Finish == mpcc.Direct {
			return fmt.Errorf("-finish %q: want linf, l1 or none", *finish)
		}
	}
	if !(c.FinishKappa >= 0 && c.FinishKappa < 1) {
		return fmt.Errorf("-finish-kappa %v: want 0 ≤ κ < 1 (0: -kappa)", c.FinishKappa)
	}
	if c.XBoundsAt, err = fesd.ParseWhere(*xb); err != nil {
		return err
	}
	if c.LinearSolver, err = parseLinearSolver(*linsolver); err != nil {
		return err
	}
	if *dense {
		c.LinearSolver = nlp.DenseLDL
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *verbose || *nlpVerbose {
		c.Log = stdout
	}
	if *nlpVerbose {
		c.NLPLog = stdout
	}
	if *warm != "" {
		if *sweep != "" {
			return fmt.Errorf("-warm and -sweep: a saved solution fits one N and DCS mode only")
		}
		if c.Warm, err = loadSolution(*warm, c); err != nil {
			return err
		}
	}
	if *sweep != "" {
		Ns, err := parseSweep(*sweep)
		if err != nil {
			return err
		}
		var rows []summary
		for _, n := range Ns {
			for _, f := range []dcs.Formulation{dcs.Step, dcs.Stewart} {
				cc := c
				cc.N, cc.Form = n, f
				s, err := solveAndWrite(ctx, cc, filepath.Join(*out, fmt.Sprintf("N%d_%s", n, strings.ToLower(f.String()))), stdout)
				if err != nil {
					return err
				}
				rows = append(rows, s)
				if err := writeSweep(*out, rows); err != nil {
					return err
				}
			}
		}
		return nil
	}
	_, err = solveAndWrite(ctx, c, *out, stdout)
	return err
}

// solveAndWrite solves one OCP, writes its outputs and prints a summary
// line. A homotopy that does not reach Solved is reported in the summary
// (status), not as an error.
func solveAndWrite(ctx context.Context, c config, dir string, stdout io.Writer) (summary, error) {
	t0 := time.Now()
	c.saveDir = dir
	r, m, runErr := run(ctx, c)
	wall := time.Since(t0)
	if r == nil {
		return summary{}, runErr
	}
	// A result with an error (the finishing homotopy failed to start or
	// stopped) is still written before the error is returned.
	a, err := analyse(r, m)
	if err != nil {
		return summary{}, err
	}
	s := summarize(c, r, m, a, wall)
	if err := writeRun(dir, c, r, m, a, s); err != nil {
		return s, err
	}
	fmt.Fprintf(stdout, "N=%d %-7s %-9s status=%s obj=%.6g iters=%d wall=%.1fs (%.2f ms/iter) |q(T)−q*|=%.2e |v(T)|=%.2e jumps=%d impacts=%d penetration=%.1e comp=%.1e\n",
		c.N, c.Form, c.Cross, s.Status, s.Objective, s.NLPIterations, s.WallSeconds, 1e3*s.SecondsPerIteration,
		s.TerminalPositionError, s.TerminalVelocityNorm, s.Jumps, s.Impacts, s.MaxPenetration, s.CompResidual)
	return s, runErr
}
