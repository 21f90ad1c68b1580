// Package ad builds scalar expression graphs, differentiates them
// symbolically, and compiles them into flat, allocation-free evaluation
// tapes with sparse first and second derivatives.
//
// # Graph model
//
// A Graph is an arena of immutable nodes. Each node is an operation (see the
// table in ops.go) applied to up to three children, which always have smaller
// ids than the node, so id order is a topological order. Nodes are
// hash-consed: a node is looked up by the comparable key (op, child ids,
// constant bits) before it is created, so structurally equal subexpressions
// are one node and Exprs can be compared with ==. Construction simplifies
// locally: constants are folded with the operation's value rule; x+0, x−0,
// x·1, x/1 reduce to x; x·0, 0/x and x−x reduce to 0; −(−x) to x; x·x to x²;
// constant factors are collected (c₁·(c₂·x) = (c₁c₂)·x, c·(c₁x ± c₂y) =
// (cc₁)x ± (cc₂)y), like terms are combined (c₁·x ± c₂·x = (c₁±c₂)·x),
// negations are pulled out of products and absorbed by sums; operands of
// commutative operations are ordered by id. Constant folding and
// reassociation of constant factors can change results in the last bits
// relative to evaluating the expression as written, and x−x = 0, x·0 = 0
// hold even for x = ±Inf or NaN. Because structural cancellations are
// removed, a derivative that is structurally zero is the constant 0, and
// the sparsity patterns (Sparse, SparseLower, LagrangianHessian) contain no
// false nonzeros beyond what the structure implies.
//
// An Expr is a small value handle {graph, id}. Combining expressions of two
// graphs yields an invalid Expr and records ErrForeignGraph in the graph
// (Graph.Err); differentiating or compiling an invalid Expr returns the
// error. The zero Expr (Expr{}, and Sum of an empty Vec) belongs to no
// graph: an operation with it records ErrZeroExpr, and derivatives and
// functions of it return ErrZeroExpr.
//
// # Operations
//
// + − × ÷ and negation (methods Add, Sub, Mul, Div, Neg, Scale, AddConst),
// Sq, Pow (constant exponent), PowInt, PowExpr, Sqrt, Exp, Log, Sin, Cos, Tan,
// Atan, Atan2, Tanh, Abs, Sign, Min, Max, the comparisons Gt, Ge, Lt, Le
// (values 0 or 1) and IfElse(cond, a, b) (a where cond > 0, else b).
// Conventions at nondifferentiable points: Abs′(0) = Sign(0) = 0; Sign′ = 0;
// Min and Max select their first argument at a tie, so ∂/∂a = 1, ∂/∂b = 0
// there; comparisons have derivative 0; IfElse at cond = 0 takes b.
//
// # Derivatives
//
// Every operation's table entry gives its partial derivatives as
// expressions. Forward mode sweeps the cone of the outputs in topological
// order, accumulating tangents ẏ = Σᵢ ∂y/∂xᵢ · ẋᵢ; reverse mode sweeps it
// backwards, accumulating adjoints x̄ᵢ += ȳ · ∂y/∂xᵢ. Both produce new
// expressions in the same graph, so derivatives of derivatives work: Hessian
// is forward mode over the reverse-mode gradient. Jacobian (mode Auto) builds
// both the forward and the reverse Jacobian and keeps the one with fewer
// operations.
//
// Sweeps are restricted to the nodes that can carry a nonzero tangent or
// adjoint: a forward sweep seeded at xⱼ visits only the nodes of the cone
// that depend on xⱼ, a reverse sweep from output i only the nodes of its
// cone that depend on a variable. The cone's child and parent adjacency and
// the partial derivatives are built once per derivative request, the sweep
// state is sized to the cone, and scratch sets over the graph's arena are
// pooled in the Graph, so a request costs nothing proportional to the rest
// of the graph. A restricted sweep visits the same nodes in the same order as
// a sweep over the whole cone and builds the same expressions.
//
// The sparse constructions (JacobianSparse, JacobianSparseMode,
// LagrangianHessian, NewDerivatives) never form a dense matrix. Their cost
// is the total size of the swept sub-cones (one per variable column or per
// output row), which is linear in the problem size for problems with local
// structure such as discretized optimal control problems. In Auto mode
// JacobianSparseMode measures both totals structurally first; when they are
// within a factor of 4 it builds both and keeps the one with fewer
// operations, like Jacobian, otherwise only the cheaper one.
//
// A Graph never frees nodes, and derivative expressions are usually several
// times larger than the function. NewDerivatives therefore copies the cone of
// its inputs and outputs node for node into a private graph (recorded solves
// included), builds the Jacobian and Hessian there and drops that graph after
// compiling: the caller's graph is left unchanged, so compiling many NLPs
// from one model (rebuilding an OCP in a loop, as in MPC) does not grow it.
// The copy has the structure of the original, so the compiled derivatives
// are the same, bit for bit, as when built in the caller's graph.
// LagrangianHessian builds ∇ₓL by one reverse sweep and the lower triangle of
// its Jacobian column by column (forward over reverse), or row by row when
// that is estimated to be more than 4 times cheaper; each column j only
// visits nodes that feed a gradient component i ≥ j.
//
// Solve and SolveSym record their results; forward mode differentiates them
// implicitly, ẋ = M⁻¹(ḃ − Ṁx), which reuses the elimination (hash-consing
// makes the second solve share the factorization's nodes) instead of
// differentiating through it. Reverse mode differentiates through the
// elimination.
//
// When the differentiated expressions contain a selecting or nonsmooth
// operation (IfElse, Min, Max, comparisons, Abs, Sign), chain-rule products
// use a strong-zero multiplication (0·NaN = 0·Inf = 0). The partial of an
// inactive branch of IfElse is exactly 0, so NaN or Inf values or partials
// computed in that branch cannot leak into the derivative. (A side effect is
// that in such expressions a genuinely zero tangent also annihilates a
// genuinely infinite partial.)
//
// # Compiled tape
//
// NewFunction compiles named vector outputs as functions of named vector
// inputs into a flat []instr tape (opcode, three operand slots, result slot,
// inline constant), in four steps: fusion (a product used once by a sum or
// difference becomes one a·b ± c instruction, rounded as two operations;
// constant operands are inlined; sin x and cos x of the same x become one
// Sincos), scheduling into batches of one opcode (list scheduling on the
// DAG, the opcode with the most ready operations first), register
// allocation (inputs, then constants written once per workspace, then
// registers reused as soon as a value is dead), and output slots.
// Function.Eval copies the inputs, runs one tight loop per batch, and copies
// the outputs into caller-owned slices; it does not allocate. A Function is
// immutable; goroutines evaluate it concurrently with one Workspace each.
// The same graph and construction order always give the same tape and
// bit-identical results.
//
// NewDerivatives compiles a function together with its sparse Jacobian and
// the lower triangle of its Lagrangian Hessian Σᵢ λᵢ ∇²Fᵢ, whose values come
// out in the order of the patterns. Scatter and Function.EvalScatter evaluate
// one compiled function over many argument sets and add the outputs into a
// large value array through precomputed index maps.
//
// # Invariants
//
//   - Nodes are immutable; a child id is smaller than its parent's id.
//   - Structurally equal nodes share one id; structural zeros are the
//     constant 0 node.
//   - Sparsity patterns are CSC with ascending row indices; values of
//     SparseMat, compiled Jacobians and Hessians follow that order.
//   - Eval does not modify its inputs and writes every element of each
//     non-nil output.
package ad
