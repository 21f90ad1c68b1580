// Package monopod is the two-link hopping robot of 004 §7.2 (the Capler
// monopod of nosnoc's time_freezing_monoped_ocp example, nosnoc.md
// §3.1–3.4), shared by examples/monopod and the benchmarks in bench.
//
// Model (New). q = (q_x, q_z, φ_hip, φ_knee), v = q̇, u = (u_hip,
// u_knee). Point masses at the hip and at the centres of mass of the thigh
// and the shank, with the thigh's and the shank's moments of inertia
// (rotation rates ω_hip and ω_hip + ω_knee), give the Lagrangian L = T − V;
// the Euler–Lagrange equations d/dt ∂L/∂v − ∂L/∂q = τ with ∂L/∂v = M(q) v
// give
//
//	M(q) v̇ = h(q, v) + (0, 0, u_hip, u_knee),
//	M = ∂²T/∂v²,  h = ∂L/∂q − (∂²L/∂v∂q) v,
//
// derived with package ad and checked in the tests against the closed
// forms of nosnoc.md §3.2. One frictional contact at the foot: gap f_c(q)
// = p_foot,z, J_n = ∇f_c, J_t = ∇p_foot,x, μ = 0.8. Impacts are made into
// a Filippov system by inelastic time freezing (dcs.NewTimeFreezing, a_n =
// 200): x = (q, v, t) with the clock t; free flight ẋ = (v, M⁻¹(h + Bu),
// 1), and in {f_c < 0, J_nᵀv < 0} the auxiliary dynamics ẋ = (0,
// M⁻¹(J_n ∓ μJ_t)a_n, 0).
//
// Problem (Task, Model.OCP). From q₀ = (0, 0.4, 0, 0) at rest to (D, 0.4,
// 0, 0) at rest in T (paper: 3 m in 3 s) with N piecewise-constant
// control stages, tracking the reference x_ref (MATLAB's not-a-knot spline
// through five points with two hops to z = 0.6; NotAKnot, InterpSpline),
// one speed-of-time variable per stage and the stage-wise clock constraint
// t(end of stage k) = (k+1)·T/N, discretized by FESD with Radau IIA n_s =
// 2, N_FE = 3 (Discretization).
//
// References: A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, "Finite
// Elements with Switch Detection for Numerical Optimal Control of
// Nonsmooth Dynamical Systems with Set-Valued Heaviside Step Functions"
// (paper 004 in ../shared/seeds), §7.2; nosnoc's example code as
// summarized in ../shared/notes/nosnoc.md §1.10 (time freezing) and §3.
package monopod
