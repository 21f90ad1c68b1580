// Package monopod is the two-link hopping robot of 004 §7.2 (the Capler
// monopod of nosnoc's example folder
// examples/time_freezing/time_freezing_monoped_ocp), shared by
// examples/monopod and the benchmarks in bench.
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
// forms below. One frictional contact at the foot: gap f_c(q)
// = p_foot,z, J_n = ∇f_c, J_t = ∇p_foot,x, μ = 0.8. Impacts are made into
// a Filippov system by inelastic time freezing (dcs.NewTimeFreezing, a_n =
// 200): x = (q, v, t) with the clock t; free flight ẋ = (v, M⁻¹(h + Bu),
// 1), and in {f_c < 0, J_nᵀv < 0} the auxiliary dynamics ẋ = (0,
// M⁻¹(J_n ∓ μJ_t)a_n, 0).
//
// The parameters are those of nosnoc's robot_model_parameters.m (masses
// 3.975, 1.782, 0.548 kg; lengths 0.2 m; centres of mass 0.016 m below the
// hip and 0.1 m below the knee; inertias 0.001 and 0.0032 kg m²) and the
// kinematics those of robot_model_kinematics.m. nosnoc ships M(q) and h
// only as serialized CasADi functions (M_fun, h_forces_fun), so the tests
// check this package's M and h against the Euler–Lagrange equations of L
// written out by hand. With m = 6.305 the total mass, a = m_shank·l_thigh +
// m_thigh·s_thigh = 0.138112, b = m_shank·s_shank = 0.0548, s_h = sin φ_hip,
// s_hk = sin(φ_hip + φ_knee), s_k = sin φ_knee (c for cosines):
//
//	M11 = M22 = 6.305,  M12 = 0,
//	M13 = −a c_h − b c_hk,  M14 = −b c_hk,
//	M23 = a s_h + b s_hk,   M24 = b s_hk,
//	M33 = 0.032056192 + 0.02192 c_k,  M34 = 0.00868 + 0.01096 c_k,
//	M44 = 0.00868,
//
//	h1 = −a ω_h² s_h − b (ω_h + ω_k)² s_hk,
//	h2 = −a ω_h² c_h − b (ω_h + ω_k)² c_hk − 61.85205,
//	h3 = 0.01096 ω_k (2ω_h + ω_k) s_k − 1.35487872 s_h − 0.537588 s_hk,
//	h4 = −0.01096 ω_h² s_k − 0.537588 s_hk,
//
// where 61.85205 = m g, 1.35487872 = a g and 0.537588 = b g; at q₀ (all
// angles zero) M = [[6.305, 0, −0.192912, −0.0548], [0, 6.305, 0, 0],
// [−0.192912, 0, 0.053976192, 0.01964], [−0.0548, 0, 0.01964, 0.00868]].
//
// Problem (Task, Model.OCP). From q₀ = (0, 0.4, 0, 0) at rest to (D, 0.4,
// 0, 0) at rest in T (paper: 3 m in 3 s) with N piecewise-constant
// control stages, tracking the reference x_ref (MATLAB's not-a-knot spline
// through five points with two hops to z = 0.6; InterpSpline),
// one speed-of-time variable per stage and the stage-wise clock constraint
// t(end of stage k) = (k+1)·T/N, discretized by FESD with Radau IIA n_s =
// 2, N_FE = 3 (Discretization).
//
// Without time freezing (NewCLS, Model.CLSOCP). The same rigid body and
// foot contact, inelastic (e = 0), as a complementarity Lagrangian system
// (dcs.NewCLS) with x = (q, v), transcribed by FESD-J: impulses at the
// finite-element boundaries instead of auxiliary dynamics, no clock state,
// no speed of time and no clock constraint; the same tracking cost on the
// eight physical states and the same bounds.
//
// References:
//   - 004: A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, "Finite
//     Elements with Switch Detection for Numerical Optimal Control of
//     Nonsmooth Dynamical Systems with Set-Valued Heaviside Step
//     Functions", Nonlinear Analysis: Hybrid Systems, 2024; §7.2
//     (Figures 7–10).
//   - FESD-J: A. Nurkanović, J. Frey, A. Pozharskiy, M. Diehl, "FESD-J:
//     Finite Elements with Switch Detection for numerical optimal control
//     of rigid bodies with impacts and Coulomb friction", Nonlinear
//     Analysis: Hybrid Systems 52 (2024) 101460.
//   - nosnoc (github.com/nosnoc/nosnoc),
//     examples/time_freezing/time_freezing_monoped_ocp/monoped_model.m
//     (a_n = 200, μ = 0.8, weights, bounds, reference, homotopy settings)
//     and robot_model_files/robot_model_parameters.m,
//     robot_model_kinematics.m; time freezing in
//     +nosnoc/+time_freezing/cls_inelastic_multicontact.m.
package monopod
