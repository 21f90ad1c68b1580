// Package linalg is the sparse symmetric indefinite linear algebra under the
// interior-point solver of package nlp: a pivot-free sparse LDLᵀ with
// inertia, a fill-reducing ordering (approximate minimum degree), iterative
// refinement, and a dense gonum backend used as a test oracle.
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
//   - |d_k| ≤ ZeroPivotTol (default 1e-13, absolute): counted as Zero and
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
// # Backends
//
// Sparse and Dense implement LinearSolver and RefinedSolver and run the same
// conformance suite (runConformance in the tests). Dense computes the
// inertia by a dense Bunch–Kaufman LDLᵀ with 1×1/2×2 pivots (Bunch &
// Kaufman, Math. Comp. 31, 1977; gonum has no Dsytrf) and solves by gonum's
// LU; it allocates and is meant for tests and tiny problems. The tests check
// both against gonum eigenvalue counts. The sub-package kktgen generates the OCP-shaped
// KKT benchmark matrix of the solver notes (§6.3).
package linalg
