// Package dcs is fesd's model layer: it describes nonsmooth dynamical
// systems with set-valued Heaviside step functions — Filippov piecewise
// smooth systems, sums of them, and general Aizerman–Pyatnitskii
// inclusions — as ad expressions, and rewrites them as dynamic
// complementarity systems (DCS) for the FESD transcription.
//
// # Models
//
// A Model has states x, controls u, parameters p (symbols of one
// ad.Graph), an optional time symbol, and the right-hand side
//
//	ẋ = f₀(x, u, p, t, α, z) + Σ_k F_k(x, u, p, t) θ_k.
//
// Each Subsystem k is a Filippov system (004 eq. 8–11) with switching
// functions ψ_k(x) ∈ R^{nψ}, a sign matrix S_k ∈ {−1, +1}^{2^nψ × nψ} whose
// rows define the base sets R̃_i = {x | S_ij ψ_j(x) > 0} (004 Definition 1,
// eq. 10), and modes F_k = [f₁ … f_nf]. Modes may instead live on Regions:
// unions, intersections, complements and differences of base sets and of
// the half-spaces {ψ_j > 0} (004 §6.1–6.2, Table 3, Example 4); the regions
// must partition the base sets. Summing independent subsystems is 004
// Remark 19. General step selections α ∈ Γ(ψ(x)) (Model.AddStep) may enter
// f₀ in any way (the Aizerman–Pyatnitskii DI, 004 eq. 13–14 and Remark 6,
// e.g. the IRMA gene network of §7.1); user algebraic variables z with
// equations G_z(x, u, p, α, z) = 0 serve for hand-made lifting.
//
// # Set-valued step functions
//
// γ(y) = {1} for y > 0, [0, 1] for y = 0, {0} for y < 0 (004 eq. 1) is the
// solution set of the LP  min −ψα  s.t. 0 ≤ α ≤ 1  (eq. 15), whose KKT
// conditions are (eq. 16)
//
//	ψ(x) = λᵖ − λⁿ,   0 ≤ λⁿ ⊥ α ≥ 0,   0 ≤ λᵖ ⊥ 1 − α ≥ 0,
//
// so that λᵖ = max(ψ, 0) and λⁿ = −min(ψ, 0) (eq. 17) are continuous in
// time. The Filippov multipliers of base set i are the multi-affine
// products (eq. 21)
//
//	θ_i = Π_j ((1 − S_ij)/2 + S_ij α_j),
//
// which are nonnegative and sum to one (Proposition 5). A region's θ is the
// multilinear extension of its indicator in α, built in the factored form
// θ = α_j θ|α_j=1 + (1 − α_j) θ|α_j=0 (Example 4: θ₁ = α₁ + (1 − α₁)α₂).
// This equals Table 3's α_A + α_B and α_A − α_B exactly when those are
// valid (A, B disjoint; B ⊂ A), and is correct for every partition.
//
// # Formulations
//
// Step (004 eq. 22): z = (θ, α, λᵖ, λⁿ, β) per subsystem with
//
//	ẋ = F θ,  θ − θ(α, β) = 0,  ψ(x) − λᵖ + λⁿ = 0,
//	0 ≤ λⁿ ⊥ α ≥ 0,  0 ≤ λᵖ ⊥ 1 − α ≥ 0.
//
// Stewart (004 §2.6, eq. 25–28): with indicator functions g(x) (default
// g = −Sψ, eq. 26) and z = (θ, λ, μ) per subsystem,
//
//	ẋ = F θ,  g(x) − λ + μe = 0,  eᵀθ − 1 = 0,  0 ≤ λ ⊥ θ ≥ 0.
//
// Stewart's θ has one entry per base set even when modes are regions (004
// §6.4); general steps cannot be written in Stewart's form.
//
// # Lifting
//
// Algorithm 1 of 004 (§6.3) with depth n_d (Options.LiftDepth) replaces the
// products of more than n_d factors by lifting variables β built from
// shared prefixes of the rows of S: β^j − θ̃_{I_red} = 0 for the stages
// j = n_d, …, nψ − 1, and θ_i − β·α_j-factor = 0 at the end. It introduces
// n_β = 2^nψ − 2^{n_d} variables and as many equations (Table 4), and for
// n_d = 2 all equations are bilinear; for 004 Example 5 it gives exactly
// G_β and G_θ of the paper. nosnoc never implemented this algorithm.
//
// # Time freezing
//
// NewTimeFreezing turns a rigid body with unilateral frictional contacts
// and inelastic impacts into a Filippov system in a numerical time τ with a
// clock state t (004 §7.2 and Remark 2; nosnoc's
// +nosnoc/+time_freezing/cls_inelastic_multicontact.m): free flight
// (v, M⁻¹f_v, 1) where f_c > 0 or J_nᵀv > 0, and auxiliary dynamics
// (0, M⁻¹(J_n ∓ μJ_t)a_n, 0) with the clock frozen where f_c < 0 and
// J_nᵀv < 0. A persistent contact is a sliding mode on {J_nᵀv = 0}, which
// keeps f_c constant only in exact arithmetic; TimeFreezingOptions.Baumgarte
// = k replaces the normal switching function by J_nᵀv + k f_c, so that the
// sliding mode gives ḟ_c = −k f_c in physical time and a gap that drifted
// below zero decays back (Baumgarte's stabilization, J. Baumgarte, Comput.
// Methods Appl. Mech. Engrg. 1, 1972; an addition of fesd, not of nosnoc).
// Time freezing is inelastic: a contact with Restitution e ≠ 0 is an
// error.
//
// # Complementarity Lagrangian systems
//
// NewCLS takes the same RigidBody as a complementarity Lagrangian system,
// the model of FESD-J (Nurkanović, Frey, Pozharskiy, Diehl 2024, see
// References; nosnoc's +nosnoc/+model/Cls.m), which keeps impacts as state
// jumps: M(q)v̇ = f_v + Σ_i (J_n,i λ_n,i + J_t,i λ_t,i), 0 ≤ λ_n,i ⊥ f_c,i ≥ 0,
// Coulomb friction with μ_i, and Newton's restitution law
// J_nᵀv⁺ = −e J_nᵀv⁻ with e ∈ [0, 1] at impacts. NewCLS checks the structure
// (sizes, e, μ, contact Jacobians of length n_q); CLS.CheckAt checks a state
// (M(q) symmetric positive definite, finite gaps and Jacobians), with
// ErrMassMatrix for the mass matrix.
//
// # Output for the transcription
//
// A DCS lists Z with bounds and named blocks, F, G with named row blocks,
// the complementarity pairs as index pairs into z grouped per subsystem and
// kind (the selection side may be 1 − z_k), the components of the step
// equilibration indicator (004 eq. 39), the boundary variables that carry
// over between finite elements (eq. 36) with the equations that define them
// from x, and Init, the consistent z₀(x₀) of eq. 17. Dims counts sizes as
// in 004 Table 4:
//
//	            n_θ        n_alg            n_comp   n_eq
//	Stewart     2^nψ       2·2^nψ + 1       2^nψ     2^nψ + 1
//	Step        n_f        n_f + 3nψ + n_β  2nψ      n_f + nψ + n_β
//
// # Invariants
//
//   - Every expression of a DCS belongs to the DCS's own graph (a copy of
//     the model's expressions plus the new variables) and depends only on
//     X, U, P, Z and Time (checked by compiling F and G).
//   - Row r of the θ-definition and lifting blocks of G has coefficient 1
//     on the r-th variable of the θ (resp. β) block and, for lifting rows,
//     uses only earlier β.
//   - In the interior of a region, Init solves the DCS exactly and both
//     formulations give the same ẋ.
//   - Errors wrap the sentinel errors of this package; nothing panics on
//     bad input.
//   - A Model is only read by Validate, EvalPsi and Reformulate: its graph
//     does not grow, and several goroutines may use one model at once
//     (nobody may change the model or build in its graph meanwhile).
//     Reformulate builds the DCS in a new graph, with copies of the model's
//     expressions (DCS.Model, DCS.Import).
//
// # References
//
//   - A. F. Filippov, Differential Equations with Discontinuous Righthand
//     Sides, Kluwer, 1988.
//   - D. E. Stewart, A high accuracy method for solving ODEs with
//     discontinuous right-hand side, Numerische Mathematik 58, 1990.
//   - M. A. Aizerman, E. S. Pyatnitskii, Foundations of a theory of
//     discontinuous systems I, Automation and Remote Control 35, 1974.
//   - A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, Finite elements with
//     switch detection for numerical optimal control of nonsmooth dynamical
//     systems with set-valued Heaviside step functions, Nonlinear Analysis:
//     Hybrid Systems, 2024 (cited as 004).
//   - A. Nurkanović, J. Frey, A. Pozharskiy, M. Diehl, FESD-J: Finite
//     elements with switch detection for numerical optimal control of
//     rigid bodies with impacts and Coulomb friction, Nonlinear Analysis:
//     Hybrid Systems 52 (2024) 101460.
//   - nosnoc, github.com/nosnoc/nosnoc (MATLAB): +nosnoc/Options.m (the
//     time-freezing defaults a_n = 100, time_freezing_Heaviside_lifting),
//     +nosnoc/+time_freezing/cls_inelastic_multicontact.m (the time-freezing
//     system and its tailored lifting), +nosnoc/+model/Cls.m (the CLS),
//     +nosnoc/+discrete_time_problem/Stewart.m and Heaviside.m
//     (generate_step_equilibration_constraints).
package dcs
