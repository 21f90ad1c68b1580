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
//   - the sparse Jacobian ∂G/∂x (ad.JacobianSparse),
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
// Evaluation is linear in the size of the expressions. Construction is
// dominated by package ad's whole-graph derivatives: JacobianSparse builds
// the dense Jacobian in forward and reverse mode (one sweep over the graph per
// variable and per constraint) and the Hessian takes one forward sweep per
// variable, so construction time grows like n·|graph|, quadratically for
// transcribed optimal control problems. See the package benchmarks.
package adnlp
