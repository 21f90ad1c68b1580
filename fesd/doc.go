// Package fesd is the FESD transcription — finite elements with switch
// detection — of nonsmooth dynamical systems in dynamic complementarity form
// (package dcs), a simulator built on it, and optimal control problems
// (OCP): one control interval — or a whole horizon of control stages —
// becomes an MPCC (package mpcc) that the Scholtes relaxation homotopy
// solves with the interior-point method of package nlp.
//
// # Transcription of one control interval
//
// The interval [t₀, t₀ + T] with constant control u is split into N_FE
// finite elements of lengths h_n, n = 0…N_FE−1, each integrated by an n_s-stage
// Runge–Kutta method (c, A, b). With t_n = t₀ + Σ_{k<n} h_k and stage times
// t_{n,i} = t_n + c_i h_n (time-dependent models get t as an input of F):
//
// Differential representation (004 eq. 33), unknowns v_{n,i}:
//
//	v_{n,i} = F(x_{n,i}, u, p, z_{n,i}, t_{n,i}),  x_{n,i} = x_n + h_n Σ_j a_ij v_{n,j},
//	x_{n+1} = x_n + h_n Σ_i b_i v_{n,i}.
//
// Integral representation (nosnoc.md §1.3, rk.Integral), unknowns x_{n,i}:
//
//	h_n F(x_{n,i}, …) = Σ_{r=0}^{n_s} C_ri x_{n,r},  x_{n+1} = Σ_r D_r x_{n,r},  x_{n,0} = x_n.
//
// At every stage the algebraic equations G(x_{n,i}, u, p, z_{n,i}) = 0 of the
// DCS hold and z_{n,i} respects its bounds. F and G are instantiated at each
// stage by ad.Substitute in the model's graph; the whole NLP is one set of
// expressions compiled once by nlp/adnlp, with x₀, u, p, t₀ and T as
// parameters, so every simulation step only changes numbers.
//
// Complementarity. Each DCS pair 0 ≤ λ ⊥ s ≥ 0 (s = θ, α or 1 − α; 1 − α
// becomes a slack variable) is imposed without FESD at every stage, and with
// FESD as cross complementarity (004 eq. 37–38, 43): in element n the
// multiplier points are k = 0 — the end of element n − 1 (eq. 36), or for
// n = 0 the value λ₀₀ at x₀ (eq. 17), held by fixed bounds — the stages, and
// the boundary point when c_{n_s} ≠ 1; the selections are the stages. The
// mode (nosnoc.md §1.5) sums them componentwise:
//
//	STAGE_STAGE  λ_k ⊥ s_m for every k, m
//	FE_STAGE     λ_k ⊥ Σ_m s_m              (default)
//	STAGE_FE     Σ_k λ_k ⊥ s_m
//	FE_FE        Σ_k λ_k ⊥ Σ_m s_m
//
// Each sum of bilinear products is one mpcc.Complementarity term.
// Consequence (Lemmata 9–10 of 004): an active-set change in element n
// forces the boundary multipliers to vanish, λᵖ = λⁿ = 0 (Step) or the
// corresponding λ (Stewart), hence ψ_j(x_n) = 0: the switch is at t_n
// exactly.
//
// Step sizes (FESD on). (1 − γ_h) h₀ ≤ h_n ≤ (1 + γ_h) h₀, h₀ = T/N_FE, and
// Σ_n h_n = T (eq. 41). Without FESD h_n = h₀.
//
// Step equilibration (004 §4.4, eq. 39; nosnoc.md §1.6). With the backward
// and forward sums σᴮ, σᶠ of a DCS variable over the elements n − 1 and n
// (boundary variables including their start and boundary points) and
// ν_m = σᴮ(A_m)σᶠ(A_m) + σᴮ(B_m)σᶠ(B_m) for the components of
// DCS.Equilibration (Stewart: λ_i and θ_i; Step: λⁿ_j and λᵖ_j),
// η_n = Π_m ν_m is zero exactly at an active-set change. The modes are
// heuristic_mean ρ_h Σ(h_n − h₀)² (default), heuristic_diff ρ_h ΣΔh²,
// l2_relaxed ρ_h Σ η_n Δh², l2_relaxed_scaled ρ_h Σ tanh(η_n/σ_se) Δh², and
// direct η_n Δh_n = 0, imposed as the complementarity η_n ⊥ (Δh⁺, Δh⁻) that
// the homotopy relaxes (the plain equality is infeasible while the
// complementarities are relaxed, where η_n > 0 also at a switch).
//
// Boundary point (c_{n_s} ≠ 1, Gauss–Legendre; 004 eq. 42–43). Every element
// gets the variables DCS.BoundaryZ at its end, defined from x_{n+1} by the
// rows DCS.BoundaryG (Stewart: g(x) − λ + μe = 0; Step: ψ(x) − λᵖ + λⁿ = 0);
// they are the multiplier point k = n_s + 1 of element n and k = 0 of
// element n + 1.
//
// # Homotopy and simulation
//
// Simulate (or a Simulator with Step) solves control interval after
// control interval with mpcc.Solver (Options.MPCC: Scholtes, σ₀ = 1, κ =
// 0.1, complementarity tolerance 1e-9 by default). Each step starts from
// the previous solution shifted by one interval (every element takes the
// values of the previous last element, h = h₀), or with SimOptions.ColdStart
// from the consistent algebraic values at x₀ (DCS.InitialGuess). The start
// multipliers λ₀₀ are fixed at their values at x₀; values within SwitchTol
// of zero are set to zero, so that a state on a switching surface (the end of
// a step that ended at a switch) does not pin the first element's active set.
//
// With SimOptions.Predict (Simulator.Predict) a step first integrates the
// model explicitly (RK4, 8 substeps per element, the algebraic values of
// the region each point lies in) and locates the changes of region by
// bisection on the flow of the current region extended across its
// boundary (Simulator.PredictEvents). If it finds between 1 and N_FE − 1
// switches at least 0.05·h₀ apart and from the ends of the step, it puts
// element boundaries there (the other elements split the longest pieces,
// within (1 ± γ_h)h₀), starts every stage from the predicted state and the
// algebraic values of its element's region, and uses this grid as the
// targets of HeuristicMean instead of h₀, so the relaxed NLPs at large σ
// keep the boundaries near the switches instead of pulling them back to
// the uniform grid. The homotopy then only has to correct the grid. No
// switch, more switches than interior boundaries, or chattering (sliding
// shows up as a switch every substep) leave the step's start as without
// Predict. Measured on IRMA (examples/irma): from the uniform start every
// relaxed NLP of the step [194, 196] (two switches 0.49 min apart) from
// σ = 1e-4 on converged to a point of local infeasibility, also with IPOPT
// as the inner solver; from the predicted start the homotopy solves it
// with at most 73 iterations per relaxed NLP.
//
// # Optimal control problems
//
// OCP describes (004 eq. 44)
//
//	min ∫₀ᵀ L(x, u) dt + R(x(T))  s.t.  x(0) = s₀,  ẋ ∈ F(x, u, Γ(ψ(x))),
//	      G_path(x, u) ≤ 0,  G_terminal(x(T)) ≤ 0,
//
// and NewOCPSolver transcribes it as the MPCC of 004 eq. 45: N control
// stages k of equal numerical length T/N with piecewise constant controls
// q_k, each discretized by the FESD equations above with N_FE,k finite
// elements (Σ_n h_{k,n} = T/N per stage),
//
//	min Σ_k L̂_k(s_k, x_k, q_k) + R(s_N)
//	s.t. s₀ = x̄₀,  s_{k+1} = F_fesd(x_k),  0 = G_fesd(x_k, Z_k, q_k),
//	     G_ineq(s_{k+1}, q_k) ≤ 0,  G_terminal(s_N) ≤ 0,
//
// where L̂_k = Σ_n h_n Σ_m b_m s_k L(x_{n,m}, q_k, …) is the Runge–Kutta
// quadrature of the running cost. The elements of all stages are numbered
// consecutively, so the boundary multipliers and the cross
// complementarity are continuous across stage boundaries (the start
// multipliers of element 0 are fixed at their values at s₀, as in
// simulation); the step equilibration acts within every stage. Path
// constraints and state bounds hold at the stage ends (004 §4.6: the
// initial state is fixed) or, by choice (Where), at every element boundary
// or every stage point; user complementarities 0 ≤ G ⊥ H ≥ 0 are lifted
// into pairs of nonnegative variables that the homotopy relaxes with the
// DCS's.
//
// Time. With speed-of-time variables (nosnoc.md §1.10) the right-hand side
// and the running cost of stage k are multiplied by s_k > 0, so the
// physical time advances as dt = s_k dτ on the numerical grid τ: one global
// s, or one per stage (what time freezing needs, where a clock state then
// measures the physical time and the stage-end constraints
// t(τ_{k+1}) = (k+1)T_f/N pin it). A free horizon T_f (FreeTime,
// TimeOptimal) is a global time scaling s_T = T_f/T of the fixed
// numerical horizon T, or T_f = (T/N)Σ_k s_k with stage-wise speeds, so
// that the element bounds (1 ± γ_h)h₀ stay simple bounds.
//
// The NLP's variables are numbered stage by stage and carry fine-grained
// stage numbers (one per RK stage point) for nlp.StageHinter; the global
// variables (time scaling, V) and the constraints on them come last, an
// arrow structure without fill. The solver keeps this order or AMD,
// whichever fills less. x₀ is a parameter of the compiled NLP (SetX0).
//
// Initialization: without XInit the states start from an explicit RK4
// integration of the model from x₀ with the initial controls, with the
// algebraic variables at every point set to the DCS's consistent values
// there (the mode of the region the point lies in); starting every stage
// point at x₀ instead was measured to lead the homotopy into local
// infeasibility (an element shrinking to h = 0 keeps the multipliers of
// x₀ and blocks the switch) for switches late in an interval. Warm
// restarts from a solution of the same NLP; InitFrom initializes from a
// result on another grid or DCS formulation (mesh refinement: the states
// interpolated in τ/T, controls and speeds of time by stage), and
// OCPSolver.Evaluate turns a saved NLP solution back into a result. A
// refined problem whose homotopy starts at a small σ from a solved coarse
// one can avoid the C-stationary points below (TestOCPInitFrom) and, on
// the monopod (examples/monopod), solves sizes whose homotopy from the
// reference fails. A homotopy that ends on a failed step returns that
// step's point (where a continuation starts) and keeps the last successful
// step's as OCPResult.LastSuccess. OCPResult.ElementResidual gives the
// largest complementarity term of every finite element, to locate where a
// point misses the tolerance.
//
// OCP notes (measured): FESD OCPs have C-stationary points at which a
// switch sits exactly on a stage boundary; moving it into a stage needs a
// jump of the element lengths, which the homotopy does not make. The
// time-optimal turbo car stops at such a point (T_f = 10 instead of 9.722)
// with heuristic_mean equilibration (for every ρ_h tried, 1e-3 to 1) and
// with Stewart's DCS; the step DCS without equilibration reaches the
// optimum. Objectives of nonconvex problems (cart-pole) differ between
// the DCS formulations, which converge to different local optima.
//
// # Switches
//
// The side of ψ_j on an element is read from the complementarity structure,
// not from θ: a pair is "multiplier positive" when the largest multiplier
// value over the element's points (stages and start/boundary points)
// exceeds both ActiveSetTol τ (default 10·√CompTol) and the largest selection
// value — then the selection vanishes on the whole element (cross
// complementarity) — and "selection positive" in the symmetric case. Step:
// λⁿ_j positive ⇒ ψ_j < 0 (α_j = 0), λᵖ_j positive ⇒ ψ_j > 0 (α_j = 1),
// neither ⇒ on the surface (α_j ∈ [0, 1], sliding) — unless α_j is at a
// bound and |ψ_j| exceeds SwitchTol at an end of the element, which then
// gives the side (a short element next to a switch, where λ = |ψ_j| stays
// below τ; on the surface ψ_j = 0 at both ends). Stewart: the active
// base sets are the selection-positive θ_i; ψ_j < 0 or > 0 if all of them
// lie on one side of ψ_j (sign matrix S), on the surface if on both.
// A switch of ψ_j is reported at t_n when its side differs between the
// elements n − 1 and n and |ψ_j(x_n)| ≤ SwitchTol: side → other side is a
// Crossing, side → surface EnteringSliding, surface → side LeavingSliding,
// or Spontaneous when a mode on the opposite side (compatible with the other
// ψ) points away from the surface (∇ψ_j·f has the sign of that side; the two
// cases have the same multiplier pattern in 004 Table 2). At the initial
// time only spontaneous departures are switches. Without FESD switches fall
// inside elements and are generally not reported.
//
// # Known limitations
//
//   - FESD solutions are only locally unique: a switch inside a control
//     interval may be placed at different element boundaries depending on
//     the starting point (both are valid discretizations).
//   - Gauss–Legendre resolves a tangential exit from a sliding mode (leaving
//     sliding with a time-varying field) only up to the gap (1 − c_{n_s})h
//     between the last stage and the element end: no stage sees the
//     infeasible sliding selection there.
//   - The exit from a sliding mode where the field becomes tangent (004
//     Example 3c) is not pinned by ψ(x_n) = 0 (ψ vanishes on the whole
//     sliding arc) and is ill-conditioned (x ~ (t − t_s)²/2 after it): the
//     discrete solution may exit early by up to a fraction of an element,
//     the step equilibration choosing the exit among the feasible ones.
//     Measured for ẋ ∈ −sign(x) + t with Radau IIA, h₀ = 0.1875: exit at
//     0.975 (n_s = 2) and 0.9895 (n_s = 3) instead of 1.
//   - A switch inside an interval needs N_FE ≥ 2.
//
// # References
//
//   - A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, Finite elements with
//     switch detection for numerical optimal control of nonsmooth dynamical
//     systems with set-valued Heaviside step functions, Nonlinear Analysis:
//     Hybrid Systems, 2024 (cited as 004), §3–5.
//   - A. Nurkanović, M. Sperl, S. Albrecht, M. Diehl, Finite elements with
//     switch detection for direct optimal control of nonsmooth systems,
//     Numerische Mathematik, 2024 (FESD for Stewart's reformulation).
//   - nosnoc (MATLAB/Python), options and formulas as summarized in
//     /work/shared/notes/nosnoc.md §1.3–1.11.
package fesd
