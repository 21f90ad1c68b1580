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
// runs one tape (plus one per block instance, see Blocks); no callback
// allocates. NaN or ±Inf results are written through (the solver's line
// search rejects such trial points); callbacks return an error only for
// wrong slice lengths. Because the workspaces are shared, a Problem must not
// be used by several solvers at once.
//
// # Blocks
//
// A transcribed optimal control problem evaluates the same model functions
// at every stage point. Written out symbolically, every stage point gets its
// own copy of the expressions, and differentiating and compiling the whole
// graph costs time and memory in proportion to the number of stage points
// times the size of the model. A Block instead holds the model once, as a
// function φ of local inputs z ∈ Rᵈ with outputs (F_b(z), G_b(z) ∈ Rᵉ),
// together with a list of instances. Instance k fixes the inputs as an
// affine function of the NLP's variables and parameters,
//
//	z = Aₖx + Bₖp + cₖ,
//
// (one Affine per input, Aₖ and Bₖ sparse with constant coefficients) and a
// destination row rₖ,ᵢ ∈ {0, …, m−1} for every output G_b,ᵢ, or −1 to drop
// it. The NLP becomes
//
//	f(x; p)  = F(x; p) + Σ_b Σₖ F_b(zₖ),
//	gᵣ(x; p) = Gᵣ(x; p) + Σ over (b, k, i) with rₖ,ᵢ = r of G_b,ᵢ(zₖ),
//
// where a row of Spec.G given as the zero Expr{} means Gᵣ ≡ 0 (the row must
// be filled by some instance). Since z is affine in x, the chain rule needs
// only the local derivatives of φ and the constant matrix Aₖ:
//
//	∇f  += Aₖᵀ ∇F_b(zₖ),
//	∂g/∂x (rows rₖ,·) += ∂G_b/∂z(zₖ) · Aₖ,
//	∇²L += Aₖᵀ (σ∇²F_b(zₖ) + Σᵢ μᵢ∇²G_b,ᵢ(zₖ)) Aₖ,   μᵢ = λ[rₖ,ᵢ] (0 if dropped),
//
// with no second-derivative term from Aₖ. New differentiates and compiles
// φ's five tapes (F_b, ∇F_b, G_b, the sparse ∂G_b/∂z and the lower triangle
// of the local Lagrangian Hessian) once per block, in a private copy of the
// block's graph, which may be a different graph from that of Spec.X.
//
// New then expands every instance's local nonzeros into global ones: local
// Jacobian entry (i, j) goes to (rₖ,ᵢ, u) with weight a for every term a·x[u]
// of input j; a local lower Hessian entry (i, j) goes to every pair (u, v)
// of variables of inputs i and j with weight a·a′, folded into the lower
// triangle. The full local matrix holds (i, j) and (j, i) for i ≠ j: both
// land on the same global entry, doubling the weight, when u = v — a global
// variable that feeds two local inputs. The union of these entries with
// the symbolic part's pattern, sorted column-major and deduplicated, is the
// Problem's pattern; every term records its position in the value array.
// The patterns are structural in the same sense as the symbolic ones,
// with two exceptions: a local Hessian entry that only dropped outputs
// contribute to is left out for that instance (as the symbolic build would
// have no such term), and contributions of two instances or inputs that
// cancel exactly keep their entry (with value 0), where the symbolic build
// may simplify it away. Zero VarCoef terms are ignored.
//
// A callback then, for every instance, forms zₖ (the parameter part bₖ =
// Bₖp + cₖ is recomputed by SetParams only), runs the block's tape once and
// adds the weighted local values into the caller's array through the
// precomputed positions. Instances that contribute nothing to the callback
// (all outputs dropped, no variable input) are skipped.
//
// Cost: with I instances of a block whose tapes have T instructions and
// each of whose instances expands to E global Jacobian and Hessian terms,
// New costs
// one symbolic differentiation of φ (independent of I) plus O(I·(d + E))
// for the expansion and a sort of the merged pattern's entries; memory is
// a few words per input term and per expanded entry. Each callback costs
// O(I·(T + d + E)). On the chain benchmark (n = 10 001, N = 5 000
// instances of one three-input block; 2 shared cores; BenchmarkNewBlocks)
// New takes 13–20 ms and 12.5 MB instead of 165–190 ms and 121 MB for the
// symbolic build (Reverse mode, graph already built). Evaluation instance
// by instance costs 20–100 ns per instance and callback for this tiny
// model, 3–18 times the one long symbolic tape, which runs the same
// operation of all stages in one tight loop; a whole solve took 37–44 ms
// instead of 25–38 ms (BenchmarkSolveBlocks, BenchmarkEvalBlocks). The
// per-instance overhead of a tape run matters less the larger the model.
//
// # Stages
//
// Problem implements nlp.StageHinter. Spec.VarStage and Spec.ConStage give
// the stage of every variable and constraint of a transcribed optimal
// control problem; without them variable j is stage j and a constraint takes
// the largest stage of its variables (in the merged Jacobian pattern, block
// entries included), which is a banded order when the
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
