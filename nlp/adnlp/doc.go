// Package adnlp turns ad expressions into an nlp.Problem, so that a nonlinear
// program is a few lines of Go:
//
//	g := ad.NewGraph()
//	x := g.SymVec("x", 2)
//	p := g.Sym("p")
//	prob, err := adnlp.New(adnlp.Spec{
//		X: x, XL: []float64{0, 0},
//		F: ad.Sq(x[0].Sub(p)).Add(ad.Sq(x[1])),
//		G: ad.Vec{x[0].Add(x[1])}, GL: []float64{math.Inf(-1)}, GU: []float64{2},
//		P: ad.Vec{p}, PV: []float64{1},
//	})
//	res, err := (&nlp.Solver{}).Solve(ctx, prob)
//
// # Problem
//
// A Spec describes
//
//	min F(x; p)  s.t.  GL ≤ G(x; p) ≤ GU,  XL ≤ x ≤ XU,
//
// with decision variables x (distinct symbols of one graph) and parameters p
// (further symbols whose values are supplied at evaluation time). Nil bounds
// mean ±Inf for x and G = 0 for the constraints; a nil start means zeros
// projected into the bounds.
//
// # Construction
//
// New validates the spec, then builds, in the graph of the expressions,
//
//   - ∇F by one reverse sweep (ad.Gradient),
//   - the sparse Jacobian ∂G/∂x (ad.JacobianSparseMode with
//     Spec.JacobianMode; no dense m×n matrix is formed),
//   - the lower triangle of the Lagrangian Hessian
//     σ∇²F + Σᵢ λᵢ∇²Gᵢ (ad.LagrangianHessian, forward over reverse), with new
//     symbols σ and λ,
//
// and compiles five tapes with inputs (x, p) — plus (σ, λ) for the Hessian —
// once. The sparsity patterns are structural (no false nonzeros beyond what
// the expressions imply), column-major, lower-triangular and duplicate-free,
// as nlp.Problem requires. SetParams, SetStart, SetVarBounds and
// SetConstraintBounds change numbers only: nothing is rebuilt, so a
// parametric family of NLPs (a homotopy, a receding horizon) reuses one
// Problem.
//
// # Evaluation
//
// Every callback copies its inputs into a workspace owned by the Problem and
// runs one tape; no callback allocates. NaN or ±Inf results are written
// through (the solver's line search rejects such trial points); callbacks
// return an error only for wrong slice lengths. Because the workspaces are
// shared, a Problem must not be used by several solvers at once.
//
// # Stages
//
// Problem implements nlp.StageHinter. Spec.VarStage and Spec.ConStage give
// the stage of every variable and constraint of a transcribed optimal
// control problem; without them variable j is stage j and a constraint takes
// the largest stage of its variables, which is a banded order when the
// variables are numbered along the horizon. With nlp.OrderAuto the solver
// keeps this order only when it gives less fill than AMD.
//
// # Cost
//
// Evaluation is linear in the size of the expressions and allocation-free.
// Construction is dominated by package ad's sparse derivatives, whose sweeps
// visit only the nodes that can carry a nonzero (ad.JacobianSparseMode,
// ad.LagrangianHessian); for transcribed optimal control problems, where
// every constraint involves a few neighbouring variables, that is linear in
// the problem size. On the chain benchmark (xₖ₊₁ = xₖ + h(sin xₖ + uₖ),
// n = 2N+1, m = N; 2 cores; BenchmarkNew):
//
//	n        New (Auto)   one callback   IPOPT-type solve
//	1 001    0.05 s       4–13 µs        7 ms (14 iterations)
//	10 001   0.4 s        35–120 µs      45 ms (13 iterations)
//
// Derivatives that are dense by nature (a variable used by every
// constraint, say) still cost in proportion to their number of nonzeros.
package adnlp
