// Command impacts shows FESD-J, fesd's direct transcription of rigid
// bodies with impacts and Coulomb friction (A. Nurkanović, J. Frey, A.
// Pozharskiy, M. Diehl, "FESD-J: Finite Elements with Switch Detection
// for numerical optimal control of rigid bodies with impacts and Coulomb
// friction", Nonlinear Analysis: Hybrid Systems 52 (2024) 101460), on
// three scenes with closed-form solutions:
//
//  1. A bouncing ball: unit mass dropped from rest at height 1 (g = 9.81),
//     restitution e = 0.9 (-e), simulated over 10 s (-T) with
//     fesd.SimulateCLS in steps of 0.1 s of two finite elements (Radau
//     IIA, n_s = 2). Newton's law v⁺ = −e v⁻ gives impact k at
//     t_k = √(2/g)(1 + 2e + … + 2e^{k−1}) with v⁻ = −e^{k−1}√(2g),
//     v⁺ = e^k √(2g) and the apex e^{2k} after it. The impacts accumulate
//     at the Zeno point t* = √(2/g)(1 + e)/(1 − e) = 8.5789 s, after which
//     the ball rests. The program prints every impact beside the closed
//     form and says what happens at t*.
//  2. A block thrown horizontally (v = (3, 0)) from height 1 that lands
//     inelastically and slides to a stop under Coulomb friction μ = 0.3
//     (-mu): the landing impulse √(2g) also takes μ√(2g) off the horizontal
//     velocity, then the block decelerates with μg and sticks.
//  3. A small FESD-J optimal control problem (fesd.OCP.CLS): the ball with
//     e = 0.5 and a vertical force u, held at zero on the first two of four
//     stages (the ball falls and bounces), must be at height 0.8 at
//     T = 1.2 with the least ∫u² dt; the optimal u is piecewise constant
//     in closed form (ocp.go). -noocp leaves it out.
//
// # Running it
//
//	go run ./examples/impacts                 # all three scenes, files in out/impacts
//	go run ./examples/impacts -e 0.5 -T 3 -noocp
//
// It takes about 1 s of CPU time (measured on a 2-core machine shared with
// other jobs, load ~20: 1.1 s user + 0.25 s sys for the built program, of
// which the ball 0.7 s, the block 0.2 s, the OCP 0.03 s; go run adds the
// build).
//
// # What it shows
//
// With the defaults (measured): FESD-J puts every impact on a finite
// element boundary. The ball's first 29 impacts (up to 8.15 s) match the
// closed form to 1.4e-11 in time, velocity and apex height (the bar of
// fesd's FESD-J tests is 1e-9). The later ones, from 8.2 s on (within
// 0.38 s of t*), come from steps whose active-set finish is rejected and
// that keep the homotopy's point, and match to 6.1e-7 in time and 2.6e-6
// in velocity. 55 impacts are resolved in all, the last at 8.5515 s. The
// rest of the Zeno sequence (0.027 s of
// bounces at most 9.3e-6 m high) is not resolved: on the element after the
// last impact, [8.5515, 8.6], the gap is closed at the stage points, and
// there the contact force, not an impulse, takes out the last velocity
// 0.0135 m/s. From t = 8.6 on (0.021 s after t*) the ball rests at every
// element boundary (|z|, |v| ≤ 7e-10). How early or late the rest begins
// depends on the grid: with e = 0.5 it rests from 1.35 s, 0.005 s before
// t*. Steps with more impacts than their inner element boundaries are
// halved (126 steps instead of 100); 4 791 NLP iterations in all.
//
// The block lands at √(2/g) with the impulse √(2g) and sticks at
// t₁ + v₁/(μg) = 1.0194 s at x = 1.8291, both events on element
// boundaries and within 2e-14 of the closed form (states at every
// boundary within 2.8e-12). The OCP ends Solved with complementarity 0
// at the closed-form objective 52.9310 (relative error 3e-16, controls
// 4e-14).
//
// main_test.go runs all of it (about 1 s of CPU time) and checks these
// numbers against the closed forms with stated tolerances.
//
// # Where FESD-J does not get there yet
//
// Other flags show the limits of this version (measured; the program
// prints the errors and, for a failed simulation, writes what it has and
// exits with status 1):
//
//   - The Zeno point is reached for e = 0.3, 0.5, 0.6, 0.7, 0.8, 0.85 and
//     0.9 (-T past t*), but not for e = 0.91 … 0.97: there the simulation
//     fails 0.05–0.15 s before t*, in a step halved to 1/8 or 1/16 of
//     0.1 s, whose homotopy ends Infeasible or SigmaLimit with an impulse
//     where the gap is still open by 2e-7 to 4e-5 m (e = 0.92, -T 12: at
//     t = 10.7875, t* = 10.8366; e = 0.95, -T 20: at t = 17.5,
//     t* = 17.6094).
//   - A slip–stick transition can land on the element boundary before it:
//     with -mu 0.6 the block sticks at t = 0.5 (a step boundary) instead
//     of 0.5097, with -mu 0.1 at 3.05 instead of 3.0581, 1e-2 s early and
//     3e-4 m (resp. 3e-5 m) short. On the element after that boundary the
//     stage points stick while the element starts with a tangential
//     velocity (0.057 and 0.008 m/s) that no stage point sees. With
//     μ = 0.3 (the default), μ = 1 (the landing stops the block) and for
//     the stop 0.0097 s into a step of 0.05 s the stop is exact.
//
// # Output
//
// The program prints the impacts, events and errors of each scene, what
// happened at the Zeno point, and the CPU time. Files in -out (default
// out/impacts):
//
//	ball_trajectory.csv   t, z, v at every element boundary before and after
//	                      its impulse, the closed form, the contact mode
//	ball_impacts.csv      every impact: time, v⁻, v⁺, impulse, apex, each
//	                      beside its closed form, and t* − t_k
//	block_trajectory.csv  t, x, z, v_x, v_z (before and after the impulses),
//	                      the closed form, the contact mode
//	block_events.csv      the contact events (impact, stick, …)
//	ocp_trajectory.csv    t, z, v of the OCP solution
//	ocp_controls.csv      the force u of every stage
//	summary.json          every number printed, per scene
//	ball.png/.svg         height and velocity over time, apex heights and
//	                      the errors per impact
//	ball_zeno.png/.svg    the last bounces before t*
//	block.png/.svg        x, z and v_x over time, the events marked
//	ocp.png/.svg          the OCP's height and force
//
// The plots draw the closed form as a gray line and FESD-J's element
// boundaries as blue dots. The program exits with status 1 if a scene
// fails (after writing the files of the others).
//
// # FESD-J or time freezing
//
// fesd also handles impacts by time freezing (dcs.NewTimeFreezing,
// examples/monopod). The package documentation of fesd (section "FESD-J
// or time freezing") says when to choose which.
package main
