// Command fesdj is the simulation study of the FESD-J paper (A.
// Nurkanović, J. Frey, A. Pozharskiy, M. Diehl, "FESD-J: Finite Elements
// with Switch Detection for numerical optimal control of rigid bodies with
// impacts and Coulomb friction", Nonlinear Analysis: Hybrid Systems 52
// (2024) 101460, §5.1, Figs. 5 and 6; nosnoc's
// benchmarks/two_balls_cls/) for fesd.SimulateCLS: the integration order
// of FESD-J with Radau IIA and Gauss–Legendre schemes, and the share of
// runs that do not converge.
//
// The system is the paper's: two balls of unit mass on a vertical line,
// connected by a spring (k = 1e4, rest length l = 1), the lower one
// bouncing on the ground (gap q₁ − R, R = 0.2, e = 0.8), g = 9.81, from
// x₀ = (q₁, q₂, v₁, v₂) = (1, 2, 0, 0) over T = 1. Its exact solution is
// in closed form between impacts (the centre of mass falls freely, the
// stretch oscillates with ω = √(2k)), with the impacts found by bisection
// to adjacent floating-point numbers: two impacts in [0, 1], at 0.40386
// and 0.42332. Every run is fesd.SimulateCLS with N_FE = 2 (the paper's)
// and the other options at fesd's defaults; its error is
// max_i |x_i(T) − x_i,ref(T)| (nosnoc's eval_benchmark.m), over the
// nominal step h̄ = T/(N_sim·N_FE) (the paper's abscissa). The observed
// order is the least-squares slope of log error over log h̄
// (internal/convergence.Fit) on the points that converged with an error
// above 1e-10, where the NLP tolerances accumulated over the steps set a
// floor of 3e-12…1.5e-11 (reached by n_s = 4 on the paper's grid); the
// slope over the longest element h_max is shown too, and the slope over
// h̄ on the points with an error below 0.1 as well (the paper's grid,
// below).
//
// Default study (50 s of CPU, user + system; 83 s wall with -j 2 on a
// 2-core machine shared with other jobs): on the paper's system, Radau IIA
// with n_s = 2, 3 and Gauss–Legendre with n_s = 1, 2, 3, each over a range
// of N_sim (100 to 1200) where its error follows h^p. Implicit Euler
// (Radau IIA, n_s = 1) damps the spring's fast oscillation by about
// exp(−ω²h̄T/2) and has errors of order one until N_sim is in the tens
// of thousands: it is shown on the paper's system and measured on the
// same system with k = 100 (ω ≈ 14; three impacts in [0, 1]). Measured:
// slopes over h̄ of 2.85 and 4.76 (Radau IIA n_s = 2, 3; orders 3, 5),
// 1.96, 3.96 and 5.99 (Gauss–Legendre n_s = 1, 2, 3; orders 2, 4, 6) and
// 1.01 (implicit Euler with k = 100, N_sim = 100…1600): all within ±0.5 of the order; the
// smallest errors 4.9e-9 (Radau n_s = 3, N_sim = 1200) and 3.5e-9
// (Gauss–Legendre n_s = 3, N_sim = 600). Every run of order ≥ 2 reports
// the reference's two impacts, the first within 1.4e-13 of √(1.6/g).
//
// Runs not converged. The paper counts a run (a scheme, n_s and N_sim)
// as not converged when any of its N_sim steps did not converge, and
// excludes 4.17 % (Radau IIA) and 5.2 % (Gauss–Legendre) of its 96 runs
// per scheme (n_s = 1…4, 24 values of N_sim from 50 to 2000), after
// retrying failed steps with a guess with a positive impulse. Here a run
// fails when SimulateCLS returns an error, after its own retries (a
// failed step is solved again as two halves, down to 1/64). The program
// reports the share for the runs of the order study and for a randomized
// study (-random runs per scheme, Radau IIA and Gauss–Legendre with
// n_s = 2, N_sim = 100): x₀ with q₁(0) ∈ [0.5, 1.5], the spring
// stretched by up to ±0.02, v₁(0), v₂(0) ∈ [−1, 1], and e ∈ [0.5, 0.95].
// The paper varies only the scheme, n_s and N_sim; the randomized study
// adds other trajectories (its N_sim = 100 is coarse for them: errors
// 0.01 to 6.5, median 0.29). Default: 0 of 38 order runs and 0 of 24
// randomized runs failed.
//
// -full runs the paper's grid (both schemes, n_s = 1…4, the 24 values of
// N_sim: 192 runs; 235 s of CPU) instead of the default curves; results
// in results/paper-grid. Its coarse N_sim are pre-asymptotic (errors of
// order one: implicit Euler everywhere, Radau IIA n_s = 2 up to
// N_sim = 90, Gauss–Legendre n_s = 1 up to about 600), so there the
// slope over the errors below 0.1 is the one compared with the order.
// Measured: Radau IIA 2.82, 5.03, 7.37 (n_s = 2, 3, 4) and
// Gauss–Legendre 1.99, 4.01, 6.08, 8.18 (n_s = 1…4), all within ±0.5;
// implicit Euler has no point below 0.1. Not converged: 1 of 96 Radau
// IIA runs (1.04 %; implicit Euler at N_sim = 900, a step ending
// Infeasible) and 0 of 96 Gauss–Legendre runs, against the paper's
// 4.17 % and 5.2 %.
//
// Output, in -out (default out/fesdj; the default run's are in results):
// table.md (the tables printed on the standard output), runs.csv and
// random.csv (one line per run: system, scheme, n_s, order, N_sim, h̄,
// h_max, error, status, wall seconds, NLP iterations, steps solved,
// impacts reported and of the reference, the time of the first impact
// reported, the smallest gap at the element boundaries, and the initial
// state and e of a randomized run), and order.png/.svg (error over h̄ on
// log-log axes, one panel per scheme on the paper's system and one for
// implicit Euler with k = 100).
//
// Usage:
//
//	go run ./bench/fesdj [-full] [-random 12] [-random-nsim 100] [-seed 1] [-j N] [-out DIR] [-plot=false]
package main
