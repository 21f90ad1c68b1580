// Package rk provides Butcher tableaus of implicit and explicit Runge–Kutta
// methods for FESD: Radau IIA (the default), Gauss–Legendre, Radau IA,
// Lobatto IIIA, Lobatto IIIC, and the explicit Euler, Heun and RK4 methods,
// together with the integral (collocation) representation used by FESD.
//
// The implicit tableaus are computed, not typed in: the nodes are found by
// Newton's method on Legendre polynomials and the coefficients by exact
// Gauss–Legendre quadrature of Lagrange polynomials, for any number of stages
// s ≤ MaxStages. The package prints nothing and has no state; every
// constructor returns a fresh value.
//
// # Butcher tableau
//
// An s-stage Runge–Kutta method for y' = f(t, y) with step h is
//
//	k_i     = f(t_n + c_i h, y_n + h Σ_j a_ij k_j),   i = 1, …, s,
//	y_{n+1} = y_n + h Σ_i b_i k_i,
//
// written as the tableau  c | A  over  | bᵀ. It is explicit if a_ij = 0 for
// j ≥ i, stiffly accurate if the last row of A equals bᵀ (then y_{n+1} is the
// last stage value), and has c_s = 1 when the end of the step is a node.
// ExplicitStepper takes steps of an explicit tableau (for reference
// solutions and tests; FESD itself uses the implicit ones through Integral).
//
// # Simplifying assumptions
//
//	B(p):  Σ_i b_i c_i^{k−1} = 1/k,                       k = 1, …, p
//	C(q):  Σ_j a_ij c_j^{k−1} = c_i^k / k,                i = 1, …, s,  k = 1, …, q
//	D(r):  Σ_i b_i c_i^{k−1} a_ij = b_j (1 − c_j^k)/k,    j = 1, …, s,  k = 1, …, r
//
// B(p) says the quadrature (b, c) is exact for polynomials of degree < p,
// C(q) that each row of A integrates degree < q exactly over [0, c_i]. By
// Butcher's theorem (Hairer & Wanner II, Thm IV.5.1), B(p), C(q), D(r) with
// p ≤ q + r + 1 and p ≤ 2q + 2 imply order p. Stage order is the largest q with
// C(q). C(1) is A·1 = c.
//
// # The families
//
//	family          nodes c_1 < … < c_s on [0, 1]         A from            order  stage order  assumptions
//	Gauss–Legendre  zeros of P_s(2τ−1)                     collocation       2s     s            B(2s),   C(s),   D(s)
//	Radau IIA       zeros of (P_s − P_{s−1})(2τ−1), c_s=1  collocation       2s−1   s            B(2s−1), C(s),   D(s−1)
//	Radau IA        zeros of (P_s + P_{s−1})(2τ−1), c_1=0  D(s)              2s−1   s−1          B(2s−1), C(s−1), D(s)
//	Lobatto IIIA    0, 1 and zeros of P'_{s−1}(2τ−1)       collocation       2s−2   s            B(2s−2), C(s),   D(s−2)
//	Lobatto IIIC    0, 1 and zeros of P'_{s−1}(2τ−1)       a_i1=b_1, C(s−1)  2s−2   s−1          B(2s−2), C(s−1), D(s−1)
//
// Supported stages: 1 ≤ s ≤ MaxStages, and s ≥ 2 for the Lobatto families.
//
// P_n is the Legendre polynomial on [−1, 1]; the zeros of P_s − P_{s−1} other
// than +1 are those of the Jacobi polynomial P^{(1,0)}_{s−1}. In all families
// b_j = ∫_0^1 ℓ_j(τ) dτ, the interpolatory quadrature weights, where ℓ_j is the
// Lagrange polynomial of the nodes (ℓ_j(c_k) = δ_jk, degree s − 1).
//
// Collocation (Gauss, Radau IIA, Lobatto IIIA): the polynomial u of degree s
// with u(t_n) = y_n and u'(t_n + c_i h) = f(t_n + c_i h, u(t_n + c_i h)) gives
// a_ij = ∫_0^{c_i} ℓ_j(τ) dτ, which is exactly C(s). These integrals are
// evaluated with an s-point Gauss–Legendre rule mapped to [0, c_i], exact for
// degree 2s − 1 ≥ s − 1; no Vandermonde matrix is inverted.
//
// Radau IA: D(s) tested against ℓ_k instead of τ^{k−1} reads
// b_k a_kj = b_j ∫_{c_j}^1 ℓ_k, so a_kj = (b_j/b_k) ∫_{c_j}^1 ℓ_k(τ) dτ.
// For s = 1 this is c = 0, A = 1, b = 1, which does not satisfy A·1 = c.
//
// Lobatto IIIC: with a_i1 = b_1, C(s−1) tested against the Lagrange
// polynomials L_k of the s − 1 nodes c_2, …, c_s gives
// a_ik = ∫_0^{c_i} L_k(τ) dτ − b_1 L_k(0), k = 2, …, s.
//
// # Integral representation
//
// For a collocation method whose nodes are distinct from 0 (Radau IIA and
// Gauss), take the s + 1 points τ_0 = 0, τ_j = c_j and their Lagrange
// polynomials L_0, …, L_s (degree s). The collocation polynomial interpolates
// x_0 = x_n and the stage states x_j = u(t_n + c_j h):
//
//	u(t_n + τh) = Σ_{r=0}^{s} L_r(τ) x_r.
//
// The collocation conditions h·u'(t_n + c_j h) = h·f(x_j) and the end value
// u(t_n + h) give
//
//	h f(x_j) = Σ_r C_rj x_r,   C_rj = L_r'(c_j)      (j = 1, …, s)
//	x_{n+1}  = Σ_r D_r x_r,    D_r  = L_r(1)
//	∫_{t_n}^{t_n+h} q dt ≈ h Σ_j b_j q(x_j).
//
// L_r'(τ_m) is computed from the barycentric weights ω_r = 1/Π_{k≠r}(τ_r − τ_k)
// as (ω_r/ω_m)/(τ_m − τ_r) for r ≠ m, and the diagonal from Σ_r L_r' = 0.
// For Radau IIA, c_s = 1 and D = e_s: the end value is the last stage. The
// integral and differential forms define the same step (checked in the tests to
// 1e-13 on linear systems); they differ in which unknowns an optimiser sees.
//
// # Invariants (tested)
//
//   - Nodes agree with 256-bit Newton references to 1e-15; end points 0 and 1
//     are exact. Published tableaus are reproduced to a few ulps.
//   - For s ≤ MaxStages: B(p), C(q), D(r) of the table above hold to 1e-12,
//     B(p+1) and C(q+1) fail (Order and StageOrder are not understated).
//   - The observed order on a smooth nonlinear problem equals Order ± 0.3 for
//     s ≤ 5.
//   - Radau IIA, Lobatto IIIA and IIIC are stiffly accurate with exact equality.
//
// # References
//
//   - E. Hairer, G. Wanner, Solving Ordinary Differential Equations II, 2nd ed.,
//     Springer 1996, §IV.5 (implicit RK methods based on quadrature, Tables 5.1–5.9).
//   - E. Hairer, S. P. Nørsett, G. Wanner, Solving Ordinary Differential
//     Equations I, 2nd ed., Springer 1993, §II.7 (implicit RK, collocation).
//   - J. C. Butcher, Numerical Methods for Ordinary Differential Equations,
//     3rd ed., Wiley 2016, chapter 3 (order conditions, simplifying assumptions).
//   - A. Nurkanović, M. Diehl, "NOSNOC: A software package for numerical optimal
//     control of nonsmooth systems", IEEE Control Systems Letters 6 (2022), for
//     the integral representation used in FESD.
package rk
