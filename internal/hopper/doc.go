// Package hopper is the planar hopping robot of nosnoc_py
// (examples/hopper_robot/hopper_ocp.py, Stewart, "dense", and
// hopper_ocp_step.py, Heaviside step, "sparse", run by
// stage_experiment.py; github.com/nosnoc/nosnoc_py), shared by
// examples/hopper and the nonsmooth OCP benchmark bench/ocp: a body with
// a prismatic leg hops over ground with friction; impacts are made
// continuous by nosnoc_py's hand-crafted inelastic time freezing.
//
// # Model (New)
//
// x = (q, v, t) ∈ R⁹ with q = (x, y, θ, r) (body position, orientation,
// leg length) and the clock t; u = (u₁, u₂, u₃, s): body torque, leg force,
// a slack (only in the cost, as in nosnoc_py) and the speed of time s.
//
//	M = diag(m_b + m_l, m_b + m_l, I_b + I_l, m_l) = diag(1.1, 1.1, 0.275, 0.1)
//	f_v = −(0, 1.1·9.81, 0, 0) + B(q)(u₁, u₂),  B = [[0, −sin θ], [0, cos θ], [1, 0], [0, 1]]
//	f_c = y − r cos θ (foot height),  J_n = (0, 1, r sin θ, −cos θ),  J_t = (1, 0, r cos θ, sin θ)
//	f_ode = s·(v, M⁻¹f_v, 1),  f_aux± = (0, M⁻¹(J_n ∓ μJ_t)a_n, 0),  μ = 0.45, a_n = 100
//
// The PSS has ψ = (f_c, v_n, v_t) = (f_c, J_nᵀv, J_tᵀv) and the sign matrix
// S of hopper_ocp.py (8 base sets): f_ode on {f_c > 0} ∪ {f_c < 0, v_n >
// 0}, f_aux+ on {f_c < 0, v_n < 0, v_t > 0}, f_aux− on {f_c < 0, v_n < 0,
// v_t < 0}; there the clock stops (time freezing) while the auxiliary
// dynamics remove the normal velocity (an inelastic impact with Coulomb
// friction). Only f_ode is scaled by s (nosnoc_py; MATLAB scales all).
//
//   - dcs.Stewart: one dcs.Subsystem with the 8-row S and the modes
//     (f_ode ×6, f_aux+, f_aux−): θ, λ ∈ R⁸, μ ∈ R.
//   - dcs.Step: general steps α ∈ Γ(ψ) (dcs.Model.AddStep), the lifted
//     algebraic β − (1 − α₁)(1 − α₂) = 0 (dcs.Model.AddAlgebraic) and
//     ẋ = θ₁ f_ode + θ₂ f_aux+ + θ₃ f_aux− with θ = (1 − β, βα₃, β(1 − α₃)).
//
// nosnoc_py's hopper_ocp_step.py (its lifted g_z) writes θ₁ = α₁ + β.
// That is not the Heaviside form of its own S: at α = (0, 0, ·) (foot below
// the ground and moving down) it gives θ₁ = 1 and θ₂ + θ₃ = 1, free flight
// *plus* the impact dynamics, and at α = (0, 1, ·) (below the ground,
// moving up) θ = 0, no motion at all. This package uses θ₁ = 1 − β = α₁ +
// (1 − α₁)α₂ (the time-freezing θ of 004 §7.2 and of nosnoc's
// +nosnoc/+time_freezing/cls_inelastic_multicontact.m), so that the two
// formulations are the same PSS; TestRHSRegions checks both against the
// formulas above in every region.
//
// # OCP (Task, Model.OCP)
//
// x₀ = (0.1, 0.5, 0, 0.5, 0, 0, 0, 0, t = 0) (foot on the ground), x_end =
// (x_goal, 0.5, 0, 0.5, 0, …). Cost, integrated with the Radau quadrature
// of every finite element:
//
//	∫ s·((x − x_ref,k)ᵀQ(x − x_ref,k) + u₁₋₃ᵀRu₁₋₃) dτ + (x(T) − x_end)ᵀQ_T(x(T) − x_end)
//	Q = diag(100, 100, 20, 50, 0.1·I₄), Q_T = diag(300·I₄, 0.1·I₄), R = diag(0.01, 0.01, 1e-5)
//
// with x_ref,k a parameter per stage (nosnoc_py's p_time_var; OCP.PStage):
// the multijump reference of nosnoc_py, round(x_goal − 0.1) hops, each the
// scipy CubicSpline (for three points the parabola) through its start, a
// mid point (·, HEIGHT = 1.0, 0, leg 0.1, 0, …) and its end, sampled at
// ⌊N/hops⌋ stages. Bounds: x ∈ [0, x_goal + 0.1], y ∈ [0, 1.5], θ ∈ [−π, π],
// r ∈ [0.1, 0.5], |v_xy| ≤ 10, |ω|, |ṙ| ≤ 5 at every point of the grid;
// u₁, u₂ ∈ [−50, 50], u₃ ∈ [0, 100], s ∈ [0.1, 20]. Clock (nosnoc_py's
// time_freezing = True): |t(end of stage k) − (k+1)T/N| ≤ 1e-3. The start
// (Task.Start) puts the states at the reference (stage_experiment.py:
// ref_as_init = True) and u = (0, 0, 0, 1).
//
// No slip: nosnoc_py's g_path_comp = ((v_t, θ_c), (−v_t, θ_c)), θ_c the
// weight of the frozen modes (θ₇ + θ₈, or β), becomes the Scholtes pair
// |v_t θ_c| ≤ σ at every RK stage point. fesd.PathComp needs nonnegative
// sides, so |v_t| is written with multipliers the DCS already has: Step
// λᵖ₃ + λⁿ₃ (= max(v_t, 0) + max(−v_t, 0)), Stewart λ₇ + λ₈ (= 2|v_t|
// wherever θ₇ + θ₈ > 0, from λ₇ − λ₈ = −2v_t). The pair (that sum, θ_c) at
// every stage point has the same solutions at σ = 0 (TestNoSlipSides).
//
// Discretization and homotopy (nosnoc_py's options, Model.OCP): Radau IIA
// n_s = 2, N_FE = 3, FESD with heuristic_mean step equilibration (ρ_h = 1,
// γ_h = 1), cross complementarity STAGE_FE (nosnoc_py's default,
// SUM_LAMBDAS_COMPLEMENT_WITH_EVERY_THETA), Scholtes inequality relaxation
// σ₀ = 100, κ = 0.1, complementarity tolerance 1e-9. nosnoc_py stops after
// max_iter_homotopy = 6 relaxed NLPs (σ = 1e-3); Model.OCP leaves the
// number of steps to mpcc (down to the tolerance). The inner solver's
// settings (nosnoc_py: IPOPT tol 0.01·comp_tol, acceptable_tol 1e-6,
// max_iter 4000) are left to the caller.
//
// 004 is A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, "Finite Elements
// with Switch Detection for Numerical Optimal Control of Nonsmooth Dynamical
// Systems with Set-Valued Heaviside Step Functions", Nonlinear Analysis:
// Hybrid Systems, 2024.
package hopper
