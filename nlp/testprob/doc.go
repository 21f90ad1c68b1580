// Package testprob holds benchmark nonlinear programs as nlp.Problem
// implementations with exact first and second derivatives.
//
// # The OCP-shaped oscillator NLP
//
// OCP is the synthetic optimal control NLP behind the KKT benchmark matrix of
// package nlp/linalg/kktgen, with the same model, variable layout and
// constraint order. Four coupled Duffing oscillators (n_x = 8: positions
// q₁…q₄, velocities v₁…v₄; n_u = 4 forces u₁…u₄) are discretized by explicit
// Euler over N stages with step h = 0.01. Oscillator 1 may touch a wall at
// q₁ = −1: per stage one contact pair (s_k, λ_k) with the gap s_k = q₁ₖ + 1
// and the contact force λ_k pushing on v₁, complementary in the relaxed
// (Scholtes) sense s_k·λ_k ≤ σ:
//
//	min  Σ_{k<N} h(‖q_k − r(t_k)‖² + w_v‖v_k‖² + w_u‖u_k‖²) + ‖q_N − r(t_N)‖² + w_v‖v_N‖²
//	s.t. x₀ = x̄                                         (8 equalities)
//	     x_{k+1} − x_k − h f(x_k, u_k, λ_k) = 0            (8 per stage)
//	     s_k − q₁ₖ − 1 = 0                                 (1 per stage)
//	     s_k·λ_k ≤ σ                                       (N inequalities, last)
//	     −u_max ≤ u ≤ u_max, −v_max ≤ v ≤ v_max, s ≥ 0, λ ≥ 0,
//	f: q̇ᵢ = vᵢ,  v̇ᵢ = −ωᵢ²qᵢ − c qᵢ³ − κ(2qᵢ − qᵢ₋₁ − qᵢ₊₁) + uᵢ + [i=1]λ,
//
// with ω = (1, 1.3, 1.7, 2.1), c = 0.2, κ = 0.5 (the missing neighbours of
// oscillators 1 and 4 are 0), the reference r₁(t) = −0.5 − sin 2t (which reaches into
// the wall, so that contact is active on part of every period) and rᵢ(t) =
// 0.5 sin(ωᵢt) for i > 1, w_v = 0.1, w_u = 0.01,
// u_max = 10, v_max = 4 and x̄ = (−0.5, 0, 0, 0, −2, 0, 0, 0) (on r₁).
//
// Variables (n = 14N + 8): per stage k < N the block (x_k, u_k, s_k, λ_k) of
// 14 entries, then x_N. Constraints (m = 10N + 8): the initial condition, per
// stage the 8 dynamics rows and the gap row, then the N inequalities. For
// N = 800: n = 11 208, m = 8 008 with 800 inequalities, and IPOPT's KKT
// matrix of dimension n + N + m = 20 016 is the kktgen matrix (with the
// values at the current iterate; kktgen's package doc has reference
// timings of IPOPT and MUMPS on it).
//
// OCP implements nlp.StageHinter (every variable and constraint of stage k
// gets stage k, x_N stage N). With Options.Complementarity the inequalities
// are left out (m = 9N + 8) and Pairs lists the (s_k, λ_k) index pairs, so
// that the MPCC can be handed to package mpcc, whose homotopy relaxes it.
//
// No method allocates; an *OCP may be shared by solvers that run one after
// the other, not at the same time (it keeps no per-solve state at all, so
// concurrent use is in fact safe).
package testprob
