// Package convergence holds what the convergence-study examples of fesd share
// (examples/order: the error of the state; examples/sensitivity: the error
// of ∂x(T)/∂x₀): the grid of simulations, a worker pool that runs them,
// the fit of the observed order, the table and the log-log plots.
//
// A study simulates a problem for every Case: a scheme family (Radau IIA,
// Gauss–Legendre), a number of stages n_s, FESD on or off (standard time
// stepping) and a number of simulation steps N_sim, in the fixed order of
// Grid. Its cases with the same scheme, n_s and FESD form a Curve: the
// error over the step size, which converges like h^p for a method of
// order p where the method converges at all.
//
// Pool runs the cases on a number of workers, the most expensive first (a
// balanced pool), and can keep a progress line that rewrites itself; the
// commands show it only when their standard output is a terminal
// (IsTerminal). The pool stops handing out cases once its context is
// cancelled and then returns the context's error.
//
// One simulation is a Sample: a type that embeds Point (N_sim, the nominal
// element length h̄ = T_sim/(N_sim·N_FE), the longest element h_max, the
// error, nil when the simulation failed) and Outcome (status text, wall
// time, NLP iterations). Embedding keeps these fields, and their JSON keys,
// in the example's own output type, beside its own fields.
//
// Slope. The observed order of a curve is the least-squares slope
//
//	p = Σ (x_k − x̄)(y_k − ȳ) / Σ (x_k − x̄)²,  x_k = log h_k, y_k = log e_k,
//
// over the points k that succeeded (e_k not nil), whose error is above the
// floor (e_k > floor) and whose h_k is positive; x̄ and ȳ are the means over
// those points. h_k is h_max (Longest) or h̄ (Nominal); a point without
// h_max (h_max = 0, as in files written before it was recorded) uses h̄.
// Below the floor the error is set by the solver tolerances, round-off or
// the reference, not by the discretization. There is no slope with fewer
// than two such points or when all their h_k are equal. h_max rather than
// h̄, because FESD moves the element boundaries onto the switches: the
// elements are not uniform, and the global error of a one-step method of
// order p on a nonuniform grid is bounded by C·h_max^p. Pre-asymptotic
// points are not excluded.
//
// The package writes only to the writers and folders it is given.
package convergence
