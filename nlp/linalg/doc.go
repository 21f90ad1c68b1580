// Package linalg is the sparse symmetric indefinite linear algebra under the
// interior-point solver of package nlp: a pivot-free sparse LDLᵀ with
// inertia, a multifrontal LDLᵀ with threshold pivoting, a fill-reducing
// ordering (approximate minimum degree), iterative refinement, and a dense
// gonum backend used as a test oracle.
//
// # Storage
//
// A symmetric n×n matrix is a SymCSC: its upper triangle (row ≤ column) in
// compressed sparse columns, rows strictly increasing, diagonal always
// stored. NewSymCSC builds one from triplets in either triangle, summing
// duplicates, and returns the map from each triplet to its slot in Val so
// that an IPM writes new values without searching. MulVecTo is y = A x from
// the upper triangle; SymDense converts to gonum for tests.
//
// # Factorization
//
// Sparse computes, for a symmetric permutation P,
//
//	P A Pᵀ = L D Lᵀ,   L unit lower triangular, D diagonal,
//
// without pivoting. By Sylvester's law of inertia A and D have the same
// numbers of positive, negative and zero eigenvalues, so the inertia is read
// from the signs of D. Without pivoting the factorization exists for every
// permutation when A is quasi-definite, A = [H Bᵀ; B −C] with H, C positive
// definite (Vanderbei, SIAM J. Optim. 5(1), 1995), and it is then stable
// enough for IPM use (Gill, Saunders, Shinnerl, SIMAX 17(1), 1996). The IPM
// makes its KKT matrix quasi-definite by its δ_w/δ_c regularization; when the
// inertia comes out wrong it raises δ_w and factorizes again.
//
// Phases:
//
//  1. Ordering (Analyze). AMD by default; the natural order; a permutation
//     supplied by the caller (e.g. the stage-interleaved order of an OCP
//     transcription); or OrderBest, which computes AMD and the caller's
//     order and keeps the one with the smaller nnz(L).
//
//  2. Symbolic analysis (Analyze), once per pattern. C = P A Pᵀ is formed
//     (with a map from A's entries to C's, so Factorize only scatters
//     values). The elimination tree has parent(j) = min{ i > j : L_ij ≠ 0 }
//     and is computed by Liu's algorithm with path compression (Liu, SIMAX
//     11(1), 1990). The nonzero pattern of row k of L is the reach in the
//     etree of the pattern of C[0:k, k]: walk from each i with C_ik ≠ 0
//     towards the root, stopping at nodes already visited for row k (Davis,
//     "Direct Methods for Sparse Linear Systems", SIAM 2006, §4). These walks
//     give the column counts, hence nnz(L) and the flop estimate, and the
//     row patterns, which are stored sorted by column together with the slot
//     of each L_ki in L's column storage. All numeric storage is allocated
//     here.
//
//  3. Numeric factorization (Factorize), up-looking (Davis, "Algorithm 849:
//     A concise sparse Cholesky factorization package", ACM TOMS 31(4),
//     2005), row by row: scatter C[0:k, k] into a dense work vector y, then
//     for each i in the pattern of row k in increasing order,
//
//     l_ki = y_i / d_i,   d_k ← d_k − l_ki·y_i,   y_r ← y_r − L_ri·y_i  (r < k),
//
//     i.e. a sparse triangular solve L[0:k,0:k] D ℓ = C[0:k,k]. The increasing
//     order is a topological order of the etree reach, and precomputing the
//     row patterns avoids walking the tree in every factorization. The work
//     is Σ_j c_j² (c_j = nnz of column j), reported by SparseStats.Flops.
//
//  4. Solve: L z = P b, z ← D⁻¹ z, Lᵀ w = z, x = Pᵀ w.
//
// Factorize, Solve and RefinedSolve do not allocate after Analyze.
//
// # Regularization and inertia
//
// Each computed pivot d_k is classified:
//
//   - |d_k| ≤ τ_k = ZeroPivotTol·min(1, s_k) (ZeroPivotTol default 1e-13;
//     s_k the larger of max_j |a_kj|, the pivot's row of A, and
//     |a_kk| + Σ_i |l_ki d_i l_ki|, the size of the terms whose difference
//     d_k is: the absolute threshold when either is ≥ 1, relative to them
//     below): counted as Zero and
//     replaced by σ_k·RegDelta (default 1e-8), σ_k the expected sign if
//     signs were given, else the sign of d_k (+ for 0), so that the
//     factorization continues (dynamic regularization);
//   - otherwise d_k is kept and counted as Pos or Neg by its actual sign,
//     also when it contradicts the expected sign (SparseStats.WrongSign).
//
// Inertia therefore reports the true inertia of A up to the zero threshold,
// and the IPM detects wrong inertia (Neg ≠ m, or Zero > 0) and corrects it
// itself, as IPOPT does (Wächter & Biegler, Math. Program. 106, 2006, §3.1).
// A wrong-sign pivot is not flipped: flipping would factor a different
// matrix and hide the information the IPM needs.
//
// A NaN or ±Inf in the values, or a non-finite pivot, makes Factorize return
// an error wrapping ErrNonFinite (a *NonFiniteError with the index); the
// factorization is then invalid and Solve returns ErrNotFactorized until the
// next successful Factorize.
//
// # Iterative refinement
//
// RefinedSolve solves with the factorization of the (possibly regularized)
// matrix and refines against a given matrix A, normally the unregularized
// KKT matrix: r = b − A x, solve for Δx, x ← x + Δx, until
// ‖r‖∞ ≤ tol·‖b‖∞, maxSteps steps, or a step that fails to reduce ‖r‖∞
// (undone). With a regularization of size δ the iteration contracts by about
// δ‖(A+δE)⁻¹‖ per step.
//
// # Ordering: approximate minimum degree
//
// AMD (Amestoy, Davis, Duff, SIMAX 17(4), 1996; Davis 2006 ch. 7) simulates
// symmetric elimination on the quotient graph, where eliminated pivots become
// elements (cliques stored by their variable lists) so that the graph never
// grows. Pivot p of least approximate external degree is eliminated; the new
// element L_p absorbs the elements adjacent to p. For i ∈ L_p the degree
// bound
//
//	d̄_i = min( n_left − |i|,  d̄_i^old + |L_p∖i|,  |A_i∖L_p| + |L_p∖i| + Σ_{e∈E_i∖p} |L_e∖L_p| )
//
// uses |L_e∖L_p| for all elements e at once, from one pass over L_p.
// Mass elimination removes variables adjacent to L_p only; supervariables
// (indistinguishable variables, detected by hashing their adjacency) are
// eliminated together; aggressive absorption drops elements with L_e ⊆ L_p;
// rows with more than max(16, α√n) entries are set aside and ordered last
// (α = Settings.DenseAlpha).
//
// # Invariants
//
//   - Inputs are not modified; Settings.Perm is copied.
//   - Factorize on the same values is bit-for-bit reproducible.
//   - Columns of L keep their rows increasing; nnz(L) reported by
//     SparseStats.NnzL excludes the unit diagonal.
//
// # Multifrontal LDLᵀ with threshold pivoting
//
// Multifrontal computes P A Pᵀ = L D Lᵀ with D block diagonal (1×1 and 2×2
// blocks) and P = the fill-reducing order modified by pivoting, by the
// multifrontal method (Duff & Reid, "The multifrontal solution of
// indefinite sparse symmetric linear equations", ACM TOMS 9(3), 1983; Liu,
// "The multifrontal method for sparse matrix solution", SIAM Review 34(1),
// 1992), the scheme of MA27 and MA57. It is the backend for matrices on
// which pivot-free LDLᵀ is unstable: zero or tiny diagonal entries next to
// large off-diagonal ones, as in unregularized or nearly singular KKT
// systems.
//
// Symbolic phase (Analyze). The ordering of Settings is postordered in its
// elimination tree (same fill); fundamental supernodes (chains j → j+1 with
// struct(j) = {j+1} ∪ struct(j+1)) are merged child into parent while the
// dense front keeps few explicit zeros (relaxed amalgamation, Ashcraft &
// Grimes 1989): < 50 % zeros up to 8 columns, < 10 % up to 48, < 5 % beyond.
// Each front f owns a set of columns and has the row structure of L below
// them; the fronts form the assembly tree and are renumbered in its
// postorder so that a stack holds the pending contribution blocks. Every
// entry of A is mapped to its front and position, so Factorize scatters
// values without searching.
//
// Numeric phase (Factorize), fronts in postorder. The front of f is the
// dense symmetric matrix on [own columns, columns delayed by its children,
// row structure]; it is assembled from A's entries and the children's
// contribution blocks (extend-add). The first two groups are fully summed
// and may be pivots. With u = Settings.PivotTol (default 1e-8, IPOPT's
// ma27_pivtol/ma57_pivtol), a fully summed column k is accepted as a 1×1
// pivot when
//
//	|a_kk| > τ_k  and  |a_kk| ≥ u · max_{i≠k} |a_ik|
//
// over the whole front column; otherwise, with r the fully summed row of
// largest |a_rk| and P = [a_kk a_kr; a_rk a_rr], the 2×2 pivot is accepted
// when (Duff & Reid 1983, §3; Duff, Gould, Reid, Scott, Turner, IMA J.
// Numer. Anal. 11, 1991)
//
//	|P⁻¹| · (γ_k, γ_r)ᵀ ≤ (1/u, 1/u)ᵀ,   γ_k = max_{i∉{k,r}} |a_ik|,
//
// det P has no catastrophic cancellation, and both eigenvalues of P exceed
// max(τ_k, τ_r) in magnitude (τ_k the zero-pivot threshold of column k,
// as in Sparse, with the row of A and the updates the column received in
// this and earlier fronts). A column whose entries are all ≤ τ_k is a
// zero pivot. Both tests bound the entries of L by 1/u, hence the growth
// of the remaining entries per pivot step by 1 + 1/u (1×1) or 1 + 2/u (2×2).
// Columns without an acceptable pivot
// are delayed: they join the parent's fully summed set (their rows are
// already in the child's contribution block, whose index set lies in the
// parent's columns and structure). A root front eliminates everything left,
// taking Bunch & Kaufman's 1×1/2×2 choice when the threshold test fails. The
// contribution block is the Schur complement F₂₂ − L₂₁ D L₂₁ᵀ, computed after
// the pivot search from the unscaled pivot columns (L₂₁D).
//
// Zero pivots and inertia as in Sparse: a 1×1 pivot or a 2×2 eigenvalue
// (only possible at a root) with magnitude ≤ τ_k (min(τ_k, τ_r) for a
// 2×2) is counted Zero
// and replaced by σ·RegDelta (σ the expected sign, else the computed sign,
// + for 0; for a 2×2 block along its eigenvector, so the block is changed
// by the least amount). The inertia is the sum of the signs of the 1×1
// pivots and of the eigenvalues of the 2×2 pivots (det < 0: one of each).
//
// Solve: forward substitution with L front by front in postorder, D⁻¹
// block by block, Lᵀ in reverse order; the pivot order recorded per front
// includes the delays and 2×2 swaps. Fronts are dense and stored
// column-major; storage for delays grows on demand, so Factorize, Solve and
// RefinedSolve do not allocate once the delays of a pattern have been seen.
// MultifrontalStats reports fronts, nnz(L), delays, 2×2 pivots and zero
// pivots.
//
// # Backends
//
// Sparse, Multifrontal and Dense implement LinearSolver and RefinedSolver
// and run the same conformance suite (runConformance in the tests). Dense computes the
// inertia by a dense Bunch–Kaufman LDLᵀ with 1×1/2×2 pivots (Bunch &
// Kaufman, Math. Comp. 31, 1977; gonum has no Dsytrf) and solves by gonum's
// LU; it allocates and is meant for tests and tiny problems. The tests check
// both against gonum eigenvalue counts. The sub-package kktgen generates the OCP-shaped
// KKT benchmark matrix (with reference timings of other solvers in its
// package doc).
package linalg
