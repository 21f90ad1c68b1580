// Command monopod solves the hopping-robot optimal control problem of 004
// §7.2 (A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, "Finite Elements
// with Switch Detection for Numerical Optimal Control of Nonsmooth
// Dynamical Systems with Set-Valued Heaviside Step Functions", Nonlinear
// Analysis: Hybrid Systems, 2024) and draws its Figures 7–9.
//
// # The problem
//
// A planar two-link robot (the Capler monopod: a hip, a thigh and a shank
// with torques u = (u_hip, u_knee) at the hip and the knee) starts at rest
// at q₀ = (q_x, q_z, φ_hip, φ_knee) = (0, 0.4, 0, 0) and is to stand at
// rest at q* = (3, 0.4, 0, 0) after T = 3 s. It moves by hopping: its
// foot touches the ground at one frictional contact (μ = 0.8), and
// every landing is an inelastic impact, a jump in the velocity. Time
// freezing (dcs.NewTimeFreezing) turns these jumps into a Filippov system
// with the clock t as a ninth state: in free flight ẋ = (v, M(q)⁻¹f_v(q,
// u), 1); with the foot below the ground and moving down the clock stops
// and auxiliary dynamics (0, M(q)⁻¹(J_n ∓ μJ_t)·200, 0) reverse the normal
// velocity and brake the tangential one. The model (masses, lengths,
// inertias, M(q) derived from the Lagrangian) is internal/monopod's.
//
// The OCP is the paper's: a least-squares cost that tracks a reference with
// two hops (Q = diag(1, 1, 10, 1, 1e-6·I₄, 0), R = 0.1·I₂, terminal weight
// diag(1e3·I₄, 10·I₄, 0) on the target), bounds |u| ≤ 100, |v| ≤ 100, q_x ∈
// [−0.5, 3.5], q_z ≥ 0, N piecewise-constant controls, one speed of time
// per stage in [0.99, 10] and the clock constraint t = k·T/N at the end of
// stage k. It is discretized by FESD with Radau IIA (n_s = 2, order 3) and
// N_FE = 3 finite elements per stage, in the step (Heaviside, 3 switching
// functions) or Stewart (8 regions) reformulation, and solved by one
// homotopy (solve in ocp.go): the states start at the reference; five
// Scholtes steps σ = 1, 0.1, …, 1e-4 as in the paper; then, while the
// complementarity residual is above 1e-5, the ℓ∞ elastic homotopy from σ =
// 1e-5 on the same NLP. Every relaxed NLP is solved by package nlp to
// 1e-5.
//
// # Running it
//
//	go run ./examples/monopod                  # N = 60, step reformulation
//	go run ./examples/monopod -N 30 -dcs stewart -v
//	go run ./examples/monopod -terminal-tol 5e-4 -foot-ground
//	go run ./examples/monopod -N 30 -dcs fesdj  # without time freezing
//
// Flags:
//
//	-N 60            control stages (the paper: 30 … 90)
//	-dcs step        step or stewart (time freezing), or fesdj (FESD-J,
//	                 no time freezing: see below)
//	-out out/monopod output folder
//	-terminal-tol 0  hard terminal box |q_i(T) − q*_i|, |v_i(T)| ≤ tol
//	                 (0: the paper's OCP, the terminal cost only)
//	-foot-ground     the foot not below the ground, by more than the
//	                 complementarity tolerance 1e-5, at every stage point
//	-T 3             horizon in seconds
//	-distance 3      target q*_x in metres
//	-v               print the homotopy log on stdout (on a terminal it
//	                 goes to stderr without -v: a line per relaxed NLP)
//
// -T and -distance give shorter tasks; the tests run -N 4 -T 0.4 with
// -distance 0.2 and 0 (standing still) in a few seconds.
//
// -terminal-tol and -foot-ground also change the normal switching function
// of time freezing from J_nᵀv (the paper's) to J_nᵀv + 10·f_c, a fixed
// Baumgarte gain: in contact it pulls a foot that drifted below the ground
// during a stance back to f_c = 0, which the terminal height q_z(T) = 0.4
// and the foot constraint need. A box of 5e-4 keeps the Euclidean norms
// ‖q(T) − q*‖ and ‖v(T)‖ that summary.json reports below 1e-3.
//
// # Output
//
// The program prints the status, the diagnosis of an infeasible-looking
// homotopy (fesd.Infeasibility), the physical validity of the result and
// where the files went. The validity is the library's check of a
// time-freezing result (fesd.Validity): the foot at most 1 mm below the
// ground where the clock advances, no auxiliary dynamics of weight above
// 1e-3 where the foot is 1 mm or more above the ground, the clock spanning
// T. A homotopy that solved the MPCC at a point that fails it ends with
// status Invalid, not Solved, and the program exits with status 1 after
// writing its files. In -out:
//
//   - trajectory.csv: every element boundary and stage point in order,
//     with the physical time t (the clock), the numerical time τ, q, v and
//     the foot position;
//   - controls.csv: u and the speed of time of every stage, with its
//     physical start and end;
//   - elements.csv: per finite element its stage, step h, physical times,
//     foot height at its end, complementarity residual and the mode at each
//     stage point (Stewart: the region of largest θ; Step: the rounded α;
//     "~" between modes);
//   - summary.json: status, validity, stationarity class, complementarity
//     residual, constraint violation, objective, ‖q(T) − q*‖, ‖v(T)‖, hops, impacts,
//     the deepest foot position below the ground, NLP iterations, times and
//     one record per homotopy step;
//   - frames.png (004 Figure 7), states.png (Figure 8: positions,
//     velocities, foot height, clock) and controls.png (Figure 9: torques
//     and speed of time), each also as .svg.
//
// With -dcs fesdj the validity is fesd.CLSValidity instead (see below),
// the physical time is the numerical one (there is no clock; the clock
// panel of states.png is the diagonal), the speed of time is 1 and the
// modes of elements.csv are the foot's contact modes (open, sticking,
// sliding).
//
// Figure 10 (time and time per iteration for N = 30 … 90 in both
// reformulations) is a benchmark: go run ./bench/ocp produces it.
//
// # How long it takes and what it reaches
//
// Measured once each with this configuration on a 2-core machine, two
// runs at a time (CPU time user + sys; 2026-11-26, after mpcc's warm
// starts began keeping their point to 1e-6); the step reformulation
// (default):
//
//	                       N = 30           N = 60           N = 30 with -terminal-tol 5e-4 -foot-ground
//	status                 Solved           SigmaLimit       SigmaLimit
//	complementarity        9.7e-7           1.2e-5           8.7e-4
//	constraint violation   8.0e-7           4.3e-5           2.0e-9
//	‖q(T) − q*‖, ‖v(T)‖    3.4e-2, 1.1e-1   6.5e-2, 5.3e-1   8.8e-4, 1.0e-3
//	hops                   0                3                10
//	foot below the ground  5.1 cm           1.3 cm           1.0e-5 m
//	NLP iterations         5 647            11 166           15 972
//	CPU time               125 s            353 s            276 s
//
// Rerun on 2026-11-28 (2 cores shared with other jobs, load 4–9), the same
// N = 30 step configuration ends otherwise: the Scholtes steps stop with
// NumericalError at σ = 1e-4 (residual 1.8e-4), the ℓ∞ homotopy ends
// NLPFailure at residual 6.7 after 23 776 NLP iterations in all (1 475 s
// wall), three hops, the foot 1.7 cm below the ground while the clock
// advances and auxiliary dynamics of weight 1.0 at a gap of 1.2 mm:
// not valid, exit status 1. The build before 929c446 (the reference
// spline from gonum instead of the hand-written one, equal to rounding)
// still gives the table's Solved at 9.7e-7 in 5 678 iterations — which
// the validity check now reports as Invalid (the foot 5.1 cm below the
// ground while the clock advances). This homotopy is that sensitive to
// its start; neither run is a hopping gait.
//
// So the defaults do not yet solve the paper's problem well. At N = 30 the
// homotopy ends Solved to the tolerances, but at a gait that does not hop:
// the robot reaches 3.4 cm from the target with its foot up to 5 cm below
// the ground, which the paper's OCP allows (it does not bound the foot
// height, and below the ground a foot moving upwards is in free flight).
// At N = 60 the residual stalls at 1.2e-5 with the constraints violated by
// 4.3e-5, three hops, 6.5 cm from the target. With -terminal-tol 5e-4
// -foot-ground the N = 30 gait meets the targets (‖q(T) − q*‖, ‖v(T)‖ ≤
// 1e-3) with ten hops and keeps the foot out of the ground, but the
// residual stalls at 8.7e-4, above the tolerance 1e-5. (Measured before
// that change: N = 30 SigmaLimit at residual 1.5e-4 with one hop, 9 293
// iterations; N = 60 Solved at residual 9.6e-6 with the constraints
// violated by 6e-6, five hops, 19 760 iterations; the hard variant
// SigmaLimit at 6.9e-4 with six hops, 10 435 iterations.)
// Only the foot has a contact: the knee may pass through the ground
// (states.png shows the foot height; frames.png the whole robot). Whatever
// the status, every file is written, so the plots show the gait the
// homotopy ended at.
//
// # Without time freezing: -dcs fesdj
//
// FESD-J (A. Nurkanović, J. Frey, A. Pozharskiy, M. Diehl, "FESD-J: Finite
// Elements with Switch Detection for numerical optimal control of rigid
// bodies with impacts and Coulomb friction", Nonlinear Analysis: Hybrid
// Systems 52 (2024) 101460) transcribes the same robot as a
// complementarity Lagrangian system (monopod.NewCLS: the same M(q), forces
// and foot contact, e = 0, μ = 0.8): impulses at the finite-element
// boundaries with Newton's law instead of auxiliary dynamics, so no clock
// state, no speed of time and no clock constraint; the same cost on the
// eight physical states, the same bounds, Radau IIA n_s = 2 and N_FE = 3
// (monopod's Model.CLSOCP). Its start is fesd's FESD-J cold start, a
// simulation with u = 0 (the robot standing still): an OCP on a CLS does
// not take the reference as its start. The homotopy (newCLSSolver,
// continueCLS): the Scholtes relaxation from σ₀ = 1 with κ = 0.1, every
// relaxed NLP solved to 1e-5 in at most 1 000 iterations and started from
// the previous step's primal point with cold duals, for six steps (σ = 1
// … 1e-5) or until the residual is at most 1e-5; if it is not, the same
// homotopy goes on from σ = 1e-6, started from the primal-dual point of
// the first (its multipliers included); each ends with FESD-J's
// active-set finish.
//
// The library checks the result's physics (fesd.OCPResult.CLSValidity):
// the foot at most 1 mm below the ground at every element boundary and
// stage point, normal forces and impulses at most 1e-3 where the foot is
// 1 mm or more above the ground, and the impact law at every impulse
// within 1e-3 m/s (after an impulse on a foot moving down, J_nᵀv⁺ = 0;
// on one that is not, no jump).
//
// go run ./examples/monopod -N 30 -dcs fesdj (2026-11-28, 2 cores shared
// with other jobs, load 5–11; CPU time user + sys as the program reports
// it) ends Invalid, exit status 1: the gap between the nodes (below) is
// 3.0 cm deep; at the nodes every item holds: complementarity 2.4e-6,
// constraint violation 2.1e-5, objective 13.67, q(T) − q* = (−1.8e-3, 0,
// −2.5e-3, −1.1e-3), so ‖q(T) − q*‖ = 3.3e-3, ‖v(T)‖ = 0.051, 8 flights
// with 8 landings (the foot up to 0.14 m high; one leap of about 1.5 m
// from t ≈ 1.1 s, then shorter steps), 9 impacts, the foot at most 1.3e-6
// m below the ground, phantom force 3.8e-4 N, impact law error 9.9e-8
// m/s; 7 539 NLP iterations in 6 + 1 homotopy steps, 133–142 s CPU. The
// first homotopy's steps all end at their iteration limit (σ ≥ 1e-4) or
// in a numerical error; the active-set finish is rejected after both
// homotopies (its branch NLP stops at its iteration limit, 200, with a
// violation of 31 and 1.3e-3), so the result is the continuation's point.
//
// That gait is not physical, which fesd.CLSValidity reports since it
// checks the gap between the nodes too (MaxPenetrationBetween): at N = 30 the FESD-J discretization is coarse enough for the
// optimizer to gain energy from it. In the sticking element from t =
// 1.033 to 1.100 (h = 0.067 s, the bound (1 + γ_h)·T/(N·N_FE)) the knee
// bends by 1.0 rad and back by 1.4 rad, and the mechanical energy
// (monopod.Energy) goes from 23 J to 90 J while the torques (|u| ≤ 2.3
// Nm there) do less than 1 J of work: along the collocation polynomial of
// q the foot dips 3.0 cm into the ground between the stage points (at t =
// 1.089) and leaves it at 6.1 m/s at the element end, with the gap zero
// at all three nodes and a normal force there; the next open element
// takes it to 166 J before the landing at t = 1.132 takes 73 J out. That
// is the leap. The program prints the
// largest such rise and the deepest dip between the nodes (summary.json:
// energy_gain, 73.5 J from t = 1.100, and penetration_between, 3.0 cm,
// here). Every N = 30 run of the table below has it (17–74 J, dips of
// 1.1–3.0 cm), so none of them is valid under today's check (the table's
// "valid" column is the check at the nodes only, as they were measured);
// the N = 60 runs below at most 1.2 J and 3 mm.
//
// Why the continuation. One uninterrupted homotopy (the program before
// it) ends Solved and valid too, but 7.7 cm from the target: q(T) − q* =
// (−6.0e-2, −6e-4, 3.8e-2, 3.0e-2), the last landing 8 cm short of q*_x
// with the robot leaning towards it. That distance is neither the cost
// nor the resolution of N = 30: the OCP is the paper's (004 §7.2:
// terminal cost diag(1e3·I₄, 10·I₄) on (q − q*, v), no terminal
// constraint; nosnoc's monoped_model.m has its g_terminal commented out;
// the time-freezing OCP of this program uses the same Tracking), and at
// N = 30 the same homotopy's point at σ = 1e-4 is 2 mm from the target
// (objective 13.4), at σ = 1e-5 3 mm (objective 14.0, residual 1.16e-5).
// Those points are not valid yet (at σ = 1e-5 a normal force of 3.8e-3 N
// at a gap of 1.3 mm; at σ = 1e-4 4.3e-2 N at 1.0 mm and the impact law
// missed by 1.2 m/s), and the step σ = 1e-6, started from the σ = 1e-5
// point's primal part with cold duals and μ₀ = 1e-7, leaves the path:
// objective 94 at its iteration limit, 221 at σ = 1e-7 (Infeasible), 32.4
// at σ = 1e-8. Started from that point's multipliers too, the step solves
// in 626 iterations next to the point. Measured once each at N = 30 on
// 2026-11-28 (a FESD-J formulation that still has the element end's gap
// twice, at the last stage point and at the next element's start; CPU
// user + sys):
//
//	                      status       valid  compl.   ‖Δq‖    ‖v(T)‖  flights  iterations  CPU
//	one homotopy          Solved       yes    1.4e-6   7.7e-2  0.056   8        9 439       153 s
//	warm duals            Solved       yes    1.4e-7   5.8e-2  1.84    8        6 658       139 s
//	ColdRestart           Invalid      no     9.1e-6   7.7e-3  0.163   9        5 407       102 s
//	ColdRestart, 1e-6     NLPFailure   yes    3.1e-8   1.1e-2  0.527   11       7 256       145 s
//	σ = 1e-4, then ℓ∞     NLPFailure   no     0.52     0.57    3.22    –        10 700      204 s
//	continuation          Solved       yes    2.4e-6   3.3e-3  0.051   8        7 539       142 s
//
// "warm duals" hands the multipliers on from step to step (mpcc's default
// ColdDuals = false); its path differs from σ = 0.1 on. "ColdRestart"
// starts every step as IPOPT's cold start from the previous primal point,
// as nosnoc's homotopy does (barrier parameter 0.1, bound push 1e-2,
// mpcc.Settings.ColdRestart): it stops at σ = 1e-5, 7.7 mm from the
// target, with a phantom force of 4e-3 N at a gap of 1.13 mm; with the
// complementarity tolerance 1e-6 it goes on to σ = 1e-9, whose NLP ends
// Infeasible. "σ = 1e-4, then ℓ∞" is the time-freezing homotopy of this
// program (five Scholtes steps, then ℓ∞ from σ = 1e-5): the ℓ∞ steps drive
// the residual up, so FESD-J does not run them. The CPU of "one homotopy"
// is the earlier measurement (its rerun here gave the same figures).
//
// Before FESD-J OCPs applied Newton's impact law only to an approaching
// contact (an impulse needs J_nᵀv⁻ ≤ 0; fesd's newCLSOCPFormulation) the
// runs ended 5–7 mm from the target but not valid: an impulse at the end
// of a flight element with the foot on the ground moving up (it had gone
// below the ground between the stage points, where FESD-J does not
// constrain the gap) took out up to 5 m/s of sliding velocity, a brake
// the physics does not have (impact law missed by 1.2–1.6 m/s). With
// σ₀ = fesd.CLSSigma0 = 1e-3 (then FESD-J OCPs' default; it is
// fesd.CLSOCPSigma0 = 1 since) and the inner solver to 1e-12 the first relaxed NLP does not leave the standing start and the
// homotopy ends at a valid point that is no gait, the robot sunk into a
// crouch 2.8 m from the target.
//
// At N = 60 (go run ./examples/monopod -dcs fesdj, the program's default
// N; measured once, 2026-11-28, load 5–10) the same homotopy does not get
// there: the first homotopy's σ = 1e-5 step ends at its iteration limit
// (residual 3.1e-5, objective 33.0), and the continuation's σ = 1e-6
// step leaves the path all the same (objective 86, then 61.6 and 49.7 at
// σ = 1e-7 and 1e-8). Status Invalid: complementarity 3.3e-7, constraint
// violation 6.3e-6, objective 49.6, q(T) − q* = (−2.8e-2, −1.4e-3,
// −6.8e-2, −2.9e-2), ‖q(T) − q*‖ = 7.9e-2, ‖v(T)‖ = 0.353, 12 flights
// with 12 landings (the foot at most 2.8 cm high: shuffling steps, no
// leap), 21 impacts, the foot at most 2.1e-6 m below the ground at the
// nodes and 3.0 mm between them, phantom force 1.1e-5 N, the impact law
// missed by 1.31e-3 m/s at t = 0.7 (tolerance 1e-3), the energy rising by
// at most 1.2 J beyond the torques' work (from its trajectory.csv); 9 602
// NLP iterations in 6 + 3 homotopy steps, 393 s CPU. Before the
// continuation (the ℓ∞ homotopy after a failed Scholtes homotopy, as for
// time freezing) it ended worse: the Scholtes steps Infeasible at σ =
// 1e-9 (residual 1.1e-9, objective 55.2), the ℓ∞ homotopy from there
// NLPFailure at residual 1.2e-2, 2.63 from the target, not valid; 16 315
// NLP iterations, 674 s CPU (energy rise at most 0.6 J, 1.5 mm between
// the nodes).
//
// Earlier versions of this program carried flags and chains of runs
// (mesh refinement, restarts, saved solutions) that met the targets at
// more N; they are in the git history of this folder.
package main
