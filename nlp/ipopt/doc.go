// Package ipopt solves an nlp.Problem with IPOPT (Wächter & Biegler,
// Math. Program. 106, 2006) through its C interface (IpStdCInterface.h), so
// that the interior-point solver of package nlp can be compared with the
// reference implementation on the same problem, from the same starting point,
// with corresponding options.
//
// The package is an optional, build-tagged backend: everything except this
// file needs the build tag ipopt, cgo and an installed IPOPT with headers,
// for example Debian's coinor-libipopt-dev (IPOPT 3.11.9 with MUMPS), found
// with pkg-config:
//
//	apt-get install -y coinor-libipopt-dev
//	go test -tags ipopt ./nlp/ipopt/
//
// Without the tag the package is empty and the module needs neither cgo nor
// IPOPT. IPOPT is used for comparisons only, never as a dependency of the
// toolkit.
//
// # Mapping
//
// Solver.Solve takes the nlp.Settings of the native solver and sets the IPOPT
// options that correspond (tol, dual_inf_tol, constr_viol_tol, compl_inf_tol,
// acceptable_tol, acceptable_iter, max_iter, mu_strategy, mu_oracle, mu_init,
// mu_min, mu_target, bound_relax_factor (0 with NoBoundRelax), bound_push,
// bound_frac, constr_mult_init_max, bound_mult_init_val, nlp_scaling_method,
// nlp_scaling_max_gradient, obj_scaling_factor, warm_start_* , max_soc),
// always with linear_solver = mumps and exact Hessians. Settings without an
// IPOPT counterpart (LinearSolver, Ordering, NewLinearSolver) are ignored.
// MaxWallTime is enforced from the intermediate callback.
//
// The Problem callbacks are called from IPOPT through cgo; a callback that
// returns an error stops the solve with status nlp.UserStop, a cancelled
// context with nlp.Cancelled (and an error wrapping ctx.Err(), the rule of
// nlp.Solver.Solve).
//
// # Result
//
// The multiplier sign conventions of nlp.Result are IPOPT's, so Y, ZL and ZU
// are IPOPT's mult_g, mult_x_L and mult_x_U. Iterations, Mu and History come
// from the intermediate callback. Time.Total is the wall time of the solve,
// Time.Evaluation the time spent in the Problem callbacks (measured on the Go
// side, including the cgo transitions), Time.Setup the time until the first
// intermediate callback (IPOPT's initialization, including the least-squares
// multipliers, i.e. MUMPS's analysis and a first factorization), and
// Time.Factorization + Time.Solve is IPOPT's own StdAugSystemSolverMultiSolve
// wall time from print_timing_statistics (all augmented-system solves),
// Time.Solve its LinearSystemBackSolve part (IPOPT 3.11 books MUMPS's
// numerical factorization inside the solve calls, not under
// LinearSystemFactorization).
// Counts has the callback counts; Counts.Factorizations is counted from
// IPOPT's detailed output only with Solver.CountFactorizations.
// The final errors are computed on the Go side from the returned point with
// the same definitions as package nlp.
package ipopt
