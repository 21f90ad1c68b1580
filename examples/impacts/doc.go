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
// other jobs: 1.1 s for the built program, of which the ball 0.82 s, the
// block 0.21 s, the OCP 0.03 s; go run adds the build).
//
// # What it shows
//
// With the defaults (measured): FESD-J puts every impact on a finite
// element boundary. The ball's first 32 impacts (up to 8.27 s) match the
// closed form to 2.1e-12 in time, velocity and apex height (the bar of
// fesd's FESD-J tests is 1e-9). The later ones, from 8.30 s on (within
// 0.28 s of t*), come from steps whose active-set finish is rejected and
// that keep the homotopy's point, and match to 5.1e-7 in time and 1.6e-6
// in velocity. 52 impacts are resolved in all, the last at 8.5413 s. The
// rest of the Zeno sequence (0.038 s of bounces at most 1.7e-5 m high) is
// not resolved: on the element after the last impact, [8.5413, 8.55], the
// gap is closed at the stage points, and there the contact force, not an
// impulse, takes out the last velocity 0.0185 m/s. From t = 8.55 on
// (0.029 s before t*) the ball rests at every element boundary (|z|, |v|
// ≤ 3e-9). How early or late the rest begins depends on the grid: with
// e = 0.5 it rests from 1.40 s, 0.045 s after t*. Steps with more impacts
// than their inner element boundaries are halved (123 steps instead of
// 100); 3 864 NLP iterations in all.
//
// The block lands at √(2/g) with the impulse √(2g) (time within 7e-14)
// and sticks at t₁ + v₁/(μg) = 1.0194 s at x = 1.8291 (time within
// 5.0e-10, x within 2e-14), both events on element boundaries (states at
// every boundary within 3.9e-12 of the closed form). The OCP ends Solved
// with complementarity 0 at the closed-form objective 52.9310 (relative
// error 3e-16, controls 4e-14).
//
// main_test.go runs all of it (about 1 s of CPU time) and checks these
// numbers against the closed forms with stated tolerances.
//
// # Limits
//
// Other flags, measured (the program prints the errors and, for a failed
// simulation, writes what it has and exits with status 1):
//
//   - The Zeno point is reached for every e tried from 0.3 to 0.97 (-T
//     past t*). For e = 0.91 … 0.96 the ball rests from within 0.06 s of
//     t* (e = 0.92, -T 11.3: from 10.8, t* = 10.8366; e = 0.95, -T 18.1:
//     from 17.5625, t* = 17.6094), after 58 to 146 resolved impacts. With
//     e = 0.97 (-T 30.2) the last of 168 impacts is at 29.4697 and the
//     ball rests from 29.4781, 0.17 s before t* = 29.6501: the 0.18 s of
//     bounces left (at most 3.6e-5 m high) are not resolved. Impacts
//     within 0.05–0.55 s of t* come from steps that keep the homotopy's
//     point (errors up to 2.5e-6 in time, 2.1e-6 in velocity); 0.8 s
//     (e = 0.91) to 2.2 s (e = 0.97) of CPU time.
//   - The stop of a slip–stick transition lies on its element boundary
//     for -mu 0.6 (0.5096839957, error 2.5e-10) and -mu 0.1
//     (3.0581039755, error 9e-13), as for μ = 0.3 and μ = 1 (the landing
//     stops the block). An element that starts sliding keeps the
//     friction against the motion at all its stage points (fesd's
//     FESD-J crosses the tangential forces with the element start), so
//     the stop is not placed on the boundary before it.
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
