// Package tutorial holds two models of nosnoc's OCP tutorials shared by the
// examples and the nonsmooth OCP benchmark (bench/ocp):
//
//   - TurboCar: the "turbo car" of nosnoc's
//     examples/pss_ocp_tutorial_example/pss_tutorial_turbo_car_ocp.m,
//     x = (q, v), q̇ = v, v̇ = u for v < 10 and v̇ = 3u for v > 10 (one
//     switching function ψ = v − 10, two modes);
//   - SlidingMode: the sliding-mode OCP of 004 §7 (nosnoc's
//     sliding_mode_ocp), x ∈ R⁴, u ∈ R², two switching surfaces
//     ψ₁ = x₁ + 0.15x₂² and ψ₂ = x₂ − 0.05x₁³, each with modes that push
//     towards it, so the solution slides on them; its target
//     SlidingModeTarget = (−π/6, −π/4) lies on their intersection.
//
// 004 is A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, "Finite Elements
// with Switch Detection for Numerical Optimal Control of Nonsmooth Dynamical
// Systems with Set-Valued Heaviside Step Functions".
package tutorial
