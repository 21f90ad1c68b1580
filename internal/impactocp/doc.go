// Package impactocp holds the two optimal control problems with impacts of
// A. Nurkanović, J. Frey, A. Pozharskiy, M. Diehl, "FESD-J: Finite
// Elements with Switch Detection for numerical optimal control of rigid
// bodies with impacts and Coulomb friction", Nonlinear Analysis: Hybrid
// Systems 52 (2024) 101460, §5.2 and §5.3, as fesd FESD-J OCPs (OCP.CLS):
//
//   - Discs (§5.2, manipulation with inelastic impacts): two discs in the
//     plane swap their positions around a round obstacle; only the first
//     is actuated, and it moves the second by frictionless inelastic
//     contact. T = 4, N = 25 stages, N_FE = 2, Radau IIA with n_s = 2.
//   - Boxes (§5.3, elastic and inelastic impacts): three square boxes on
//     the ground; only the middle one is pushed by a horizontal force, and
//     it pushes the other two to their targets through an inelastic
//     (e = 0) and a partially elastic (e = 0.5) impact, with Coulomb
//     friction at all five contacts. T = 6, N = 15 stages, N_FE = 2,
//     Radau IIA with n_s = 2.
//
// Both costs are least squares, ∫₀ᵀ ‖x − x_r‖²_Q + ‖u‖²_R dt + ‖x(T) −
// x_r‖²_{Q_T} with Q_T = 100 Q; the running cost is integrated with the
// Runge–Kutta quadrature of every finite element (OCP.Lagrange), the
// terminal one is OCP.Mayer. The options are the paper's discretization;
// the homotopy is fesd's default (the paper tuned nosnoc's per example).
//
// # Where the paper and its code differ
//
// The examples are examples/cls_tutorial_ocp/disc_around_obstacle.m and
// three_cart_ocp_2D.m of NOSNOC v0.4.0 (github.com/nosnoc/nosnoc, the
// release the paper cites). This package follows the paper's text and
// takes the file's value only where the text cannot be meant:
//
//   - Boxes: the text gives the initial heights q_{i,2}(0) = 0, which
//     violate the ground gaps q_{i,2} − a/2 ≥ 0 with a = 2; the file's
//     q_{i,2}(0) = 1 (resting on the ground) is used. The text's weight
//     "0.00" of q_{2,2} is the file's 0.001.
//   - Boxes: the text's target of the right box, q_{3,1} = 6, is used
//     (the file has 5).
//   - Discs: the text's velocity weights 0.01 are used (the file has 0),
//     and the obstacle constraints hold at every element boundary (the
//     text states them for all t; the file imposes them at the stage
//     ends).
//   - Boxes: the tangent of the contact between the middle and the right
//     box is their relative vertical direction q_{3,2} − q_{2,2} (the
//     file's J_tangent couples q_{1,2} and q_{3,2}). The boxes stay on
//     the ground, so both give zero tangential velocity.
//   - Boxes: the normal and tangent Jacobians are the gradients of the
//     gaps and of the relative tangential positions (norm √2 for the box
//     to box contacts); the file normalizes both to norm 1, which scales
//     the contact forces and impulses by √2 and leaves the motion and the
//     friction cone μλ_n ≥ |λ_t| unchanged.
//
// The air drag of the discs is the paper's c_f v_i/‖v_i + ε_f‖ with
// c_f = 2, ε_f = 0.1 added to each component of v_i.
//
// The paper reports no objective values; the tests check the physics of
// the solutions instead (see the test file).
package impactocp
