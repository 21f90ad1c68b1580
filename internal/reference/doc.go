// Package reference holds the test problems of the fesd examples with exact
// or high-accuracy reference solutions, and their models for package dcs:
//
//   - IRMA, the five-gene network of 004 §7.1 (as nosnoc_py's irma.py
//     writes it): piecewise affine, solved exactly by closed-form event
//     location (IRMAExact);
//   - Stewart's three masses with Coulomb friction (Stewart 1996, §5,
//     eq. 15; 22 switching points on [0, 10]): solved mode by mode with the
//     matrix exponential of the augmented linear system, with stick/slip
//     logic and events located by safeguarded Newton iteration (Friction);
//   - the Filippov oscillator of nosnoc_py's examples/oscillator (ω = 2π,
//     one crossing of the unit circle at t = 1), in closed form
//     (Oscillator).
//
// IRMADX0 and FrictionSolution.DX0 give the exact sensitivity ∂x(t)/∂x₀
// of the IRMA and friction solutions (variational equation and saltation
// matrices at the events).
//
// The references are independent of the FESD transcription: they share only
// the problem data (parameters, thresholds) with the models.
//
// References:
//   - 004: A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, "Finite
//     Elements with Switch Detection for Numerical Optimal Control of
//     Nonsmooth Dynamical Systems with Set-Valued Heaviside Step
//     Functions", Nonlinear Analysis: Hybrid Systems, 2024.
//   - D. E. Stewart, "A numerical method for friction problems with
//     multiple contacts", J. Austral. Math. Soc. Ser. B 37 (1996) 288–308.
//   - nosnoc_py (github.com/nosnoc/nosnoc_py): examples/Acary2014/irma.py,
//     examples/oscillator/oscillator_example.py.
package reference
