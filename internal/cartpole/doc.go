// Package cartpole is the cart-pole with Coulomb friction on the cart used
// by examples/cartpole and examples/mpc (nosnoc_py
// examples/cart_pole_with_friction/cart_pole_with_friction.py, nosnoc
// MATLAB examples/cart_pole_with_friction).
//
// States x = (p, θ, v, ω): cart position, pole angle (0 down, π up), their
// velocities; the control u is the force on the cart. With m₁ = 1 (cart),
// m₂ = 0.1 (pole), l = 1, g = 9.81 and the friction force F = 2,
//
//	M(θ) = [[m₁ + m₂, m₂ l cos θ], [m₂ l cos θ, m₂ l²]],
//	f_all = (u + m₂ l ω² sin θ, −m₂ g l sin θ),
//	(p̈, θ̈) = M⁻¹(f_all ∓ (F, 0))  for v ≷ 0,
//
// one Filippov switching function ψ = v; sticking of the cart is sliding on
// v = 0.
package cartpole
