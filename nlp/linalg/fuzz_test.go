package linalg

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fuzzMatrix decodes a small symmetric matrix from fuzz bytes: data[0]
// gives the order n = 1 + data[0] mod 12, data[1] a diagonal shift, and
// every following triple (i, j, v) adds v/8 (v a signed byte) to entries
// (i mod n, j mod n) and (j mod n, i mod n). Entries are multiples of 1/8 so
// that the matrices have exact small values and exact zero pivots occur.
func fuzzMatrix(data []byte) *SymCSC {
	if len(data) < 2 {
		return nil
	}
	n := 1 + int(data[0])%12
	shift := float64(int8(data[1])) / 8
	var ri, cj []int
	var v []float64
	for i := range n {
		ri, cj, v = append(ri, i), append(cj, i), append(v, shift)
	}
	for p := 2; p+2 < len(data); p += 3 {
		i, j := int(data[p])%n, int(data[p+1])%n
		ri, cj, v = append(ri, i), append(cj, j), append(v, float64(int8(data[p+2]))/8)
	}
	a, _, err := NewSymCSC(n, ri, cj, v)
	if err != nil {
		return nil
	}
	return a
}

// quasiDefinite turns a into K = [H Bᵀ; B −C] by flipping the sign of the
// trailing block: the diagonal of the first n1 rows becomes
// Σ_j |a_ij| + 1/2 (strictly dominant, so H is positive definite) and that
// of the other rows −(Σ_j |a_ij| + 1/2), and the entries inside the
// trailing block are dropped (C diagonal). Vanderbei (SIAM J. Optim. 5(1),
// 1995): a quasi-definite K has inertia (n1, n − n1, 0) and a pivot-free
// LDLᵀ in every symmetric order, which is what Sparse computes.
func quasiDefinite(a *SymCSC, n1 int) (*SymCSC, Inertia) {
	q := a.Clone()
	n := q.N
	rowsum := make([]float64, n)
	for j := range n {
		for p := q.ColPtr[j]; p < q.ColPtr[j+1]; p++ {
			i := q.RowIdx[p]
			if i == j {
				continue
			}
			if i >= n1 && j >= n1 {
				q.Val[p] = 0
				continue
			}
			rowsum[i] += math.Abs(q.Val[p])
			rowsum[j] += math.Abs(q.Val[p])
		}
	}
	for j := range n {
		for p := q.ColPtr[j]; p < q.ColPtr[j+1]; p++ {
			if q.RowIdx[p] == j {
				d := rowsum[j] + 0.5
				if j >= n1 {
					d = -d
				}
				q.Val[p] = d
			}
		}
	}
	return q, Inertia{Pos: n1, Neg: n - n1}
}

// FuzzLDLT factors fuzzed symmetric matrices with Multifrontal (threshold
// pivoting, for every symmetric matrix) and their quasi-definite versions
// with Sparse (pivot-free), and checks against the dense oracle: no panic,
// the inertia of Dense (and of gonum's eigenvalues) when the matrix is well
// conditioned, and a small backward error of the solution.
func FuzzLDLT(f *testing.F) {
	f.Add([]byte{1, 0, 0, 1, 8})                                // [[0 1][1 0]]: needs a 2×2 pivot
	f.Add([]byte{3, 8, 0, 1, 16, 1, 2, 248, 2, 3, 8, 0, 3, 1})  // tridiagonal-ish, n = 4
	f.Add([]byte{5, 0, 0, 5, 8, 1, 4, 8, 2, 3, 8})              // zero diagonal, n = 6
	f.Add([]byte{11, 255, 0, 11, 127, 5, 6, 128, 3, 3, 64})     // n = 12
	f.Add([]byte{2, 16, 0, 0, 240, 1, 1, 240, 2, 2, 240, 0, 1}) // singular-ish diagonal
	f.Fuzz(func(t *testing.T, data []byte) {
		a := fuzzMatrix(data)
		if a == nil {
			return
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("fuzzMatrix built an invalid matrix: %v", err)
		}
		n := a.N
		b := make([]float64, n)
		for i := range b {
			b[i] = 1 + float64(i%3)
		}

		// Reference: gonum's symmetric eigenvalues. The inertia is
		// compared only when the matrix is well conditioned
		// (min |λ| ≥ 1e-6 max |λ|), where the sign of every eigenvalue is
		// decided far above rounding.
		var es mat.EigenSym
		if !es.Factorize(a.SymDense(), false) {
			t.Fatal("EigenSym failed")
		}
		lam := es.Values(nil)
		lmax, lmin := 0.0, math.Inf(1)
		var ref Inertia
		for _, l := range lam {
			lmax, lmin = math.Max(lmax, math.Abs(l)), math.Min(lmin, math.Abs(l))
			if l > 0 {
				ref.Pos++
			} else {
				ref.Neg++
			}
		}
		well := lmax > 0 && lmin >= 1e-6*lmax

		dense := NewDense()
		if err := dense.Analyze(a); err != nil {
			t.Fatal(err)
		}
		if err := dense.Factorize(a, nil); err != nil {
			t.Fatal(err)
		}
		if well && dense.Inertia() != ref {
			t.Fatalf("Dense inertia %+v, eigenvalues %+v (%v)", dense.Inertia(), ref, lam)
		}

		mf, err := NewMultifrontal(Settings{})
		if err != nil {
			t.Fatal(err)
		}
		if err := mf.Analyze(a); err != nil {
			t.Fatal(err)
		}
		if err := mf.Factorize(a, nil); err != nil {
			t.Fatal(err)
		}
		if well {
			if got := mf.Inertia(); got != dense.Inertia() {
				t.Fatalf("Multifrontal inertia %+v, Dense %+v (eigenvalues %v)", got, dense.Inertia(), lam)
			}
			x := make([]float64, n)
			// Refinement as the interior-point method uses it; the
			// backward error bound 1e-10 is far above ε·growth for these
			// orders (n ≤ 12) and far below what a wrong factor gives.
			if _, err := mf.RefinedSolve(a, x, b, 3, 1e-14); err != nil {
				t.Fatal(err)
			}
			if be := backwardError(a, x, b); !(be <= 1e-10) {
				t.Fatalf("Multifrontal backward error %g (eigenvalues %v)", be, lam)
			}
		}

		// Sparse on the quasi-definite version (pivot-free LDLᵀ exists).
		n1 := (n + 1) / 2
		if len(data) > 2 {
			n1 = int(data[2]) % (n + 1)
		}
		q, want := quasiDefinite(a, n1)
		sp, err := NewSparse(Settings{})
		if err != nil {
			t.Fatal(err)
		}
		if err := sp.Analyze(q); err != nil {
			t.Fatal(err)
		}
		if err := sp.Factorize(q, nil); err != nil {
			t.Fatal(err)
		}
		if got := sp.Inertia(); got != want {
			t.Fatalf("Sparse inertia %+v of a quasi-definite matrix, want %+v", got, want)
		}
		if err := dense.Analyze(q); err != nil {
			t.Fatal(err)
		}
		if err := dense.Factorize(q, nil); err != nil {
			t.Fatal(err)
		}
		if got := dense.Inertia(); got != want {
			t.Fatalf("Dense inertia %+v of a quasi-definite matrix, want %+v", got, want)
		}
		x := make([]float64, n)
		if err := sp.Solve(x, b); err != nil {
			t.Fatal(err)
		}
		if be := backwardError(q, x, b); !(be <= 1e-12) {
			t.Fatalf("Sparse backward error %g on a quasi-definite matrix", be)
		}
	})
}
