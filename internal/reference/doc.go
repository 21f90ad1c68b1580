// Package reference holds the test problems of the fesd examples with exact
// or high-accuracy reference solutions, and their models for package dcs:
//
//   - IRMA, the five-gene network of 004 §7.1 (nosnoc_py irma.py): piecewise
//     affine, solved exactly by closed-form event location (IRMAExact);
//   - Stewart's three masses with Coulomb friction (seed 000 §5,
//     test-problems.md §C): solved mode by mode with the matrix exponential
//     of the augmented linear system, with stick/slip logic and events
//     located by safeguarded Newton iteration (Friction);
//   - the Filippov oscillator of test-problems.md §B, in closed form
//     (Oscillator).
//
// The references are independent of the FESD transcription: they share only
// the problem data (parameters, thresholds) with the models.
package reference
