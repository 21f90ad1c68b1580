package linalg

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// testMatrix is a generated symmetric matrix with its reference inertia.
type testMatrix struct {
	name  string
	a     *SymCSC
	signs []int8   // expected pivot signs (nil: none)
	want  *Inertia // inertia known by construction (nil: use the eigenvalue count)
	// well says the matrix is well conditioned, so the solution can be
	// compared entrywise to the dense LU solution.
	well bool
}

// randQuasiDefinite returns K = [H Bᵀ; B −C] with H = SPD (sparse, strictly
// diagonally dominant), C = diag(c) with c in [cmin, 2cmin+1), and B random
// sparse. Vanderbei (SIAM J. Optim. 5(1), 1995): K is quasi-definite, so its
// inertia is (n1, n2, 0) and LDLᵀ exists for every symmetric permutation.
// The rows are shuffled so that primal and dual variables interleave.
func randQuasiDefinite(rng *rand.Rand, n1, n2 int, dens, cmin float64) (*SymCSC, []int8, Inertia) {
	n := n1 + n2
	idx := rng.Perm(n) // idx[i] = position of logical variable i
	var ri, cj []int
	var v []float64
	add := func(i, j int, x float64) {
		ri = append(ri, idx[i])
		cj = append(cj, idx[j])
		v = append(v, x)
	}
	rowsum := make([]float64, n1)
	for i := range n1 {
		for j := range i {
			if rng.Float64() < dens {
				x := rng.NormFloat64()
				add(i, j, x)
				rowsum[i] += math.Abs(x)
				rowsum[j] += math.Abs(x)
			}
		}
	}
	for i := range n1 {
		add(i, i, rowsum[i]+0.5+rng.Float64())
	}
	for i := range n2 {
		for j := range n1 {
			if rng.Float64() < dens {
				add(n1+i, j, rng.NormFloat64())
			}
		}
		add(n1+i, n1+i, -(cmin + rng.Float64()*(cmin+1)))
	}
	a, _, err := NewSymCSC(n, ri, cj, v)
	if err != nil {
		panic(err)
	}
	signs := make([]int8, n)
	for i := range n {
		signs[idx[i]] = 1
		if i >= n1 {
			signs[idx[i]] = -1
		}
	}
	return a, signs, Inertia{Pos: n1, Neg: n2}
}

// randDominant returns a random sparse symmetric strictly diagonally dominant
// matrix with diagonal entries of random sign. Gershgorin's theorem plus a
// continuity argument (scale the off-diagonal by t ∈ [0,1]) give its inertia:
// as many positive eigenvalues as positive diagonal entries. Every principal
// submatrix is again diagonally dominant, so pivot-free LDLᵀ is stable in
// any order.
func randDominant(rng *rand.Rand, n int, dens float64) (*SymCSC, []int8, Inertia) {
	var ri, cj []int
	var v []float64
	rowsum := make([]float64, n)
	for i := range n {
		for j := range i {
			if rng.Float64() < dens {
				x := rng.NormFloat64()
				ri, cj, v = append(ri, j), append(cj, i), append(v, x) // upper given
				rowsum[i] += math.Abs(x)
				rowsum[j] += math.Abs(x)
			}
		}
	}
	var in Inertia
	signs := make([]int8, n)
	for i := range n {
		d := rowsum[i] + 0.1 + rng.Float64()
		signs[i] = 1
		in.Pos++
		if rng.IntN(2) == 0 {
			d, signs[i] = -d, -1
			in.Pos--
			in.Neg++
		}
		ri, cj, v = append(ri, i), append(cj, i), append(v, d)
	}
	a, _, err := NewSymCSC(n, ri, cj, v)
	if err != nil {
		panic(err)
	}
	return a, signs, in
}

func conformanceMatrices() []testMatrix {
	rng := rand.New(rand.NewPCG(1, 2))
	var ms []testMatrix
	for _, c := range []struct{ n1, n2 int }{{1, 0}, {5, 3}, {20, 10}, {60, 40}, {150, 50}} {
		a, sg, in := randQuasiDefinite(rng, c.n1, c.n2, 0.08, 0.5)
		ms = append(ms, testMatrix{fmt.Sprintf("qd%d_%d", c.n1, c.n2), a, sg, &in, true})
	}
	// KKT-like: dual block −1e-8 (regularized saddle point, as in an IPM).
	for _, c := range []struct{ n1, n2 int }{{30, 10}, {120, 40}} {
		a, sg, in := randQuasiDefinite(rng, c.n1, c.n2, 0.06, 1e-8)
		ms = append(ms, testMatrix{fmt.Sprintf("kkt%d_%d", c.n1, c.n2), a, sg, &in, false})
	}
	for _, n := range []int{2, 17, 80, 200} {
		a, sg, in := randDominant(rng, n, 0.05)
		ms = append(ms, testMatrix{fmt.Sprintf("dom%d", n), a, sg, &in, true})
	}
	return ms
}

func randVec(rng *rand.Rand, n int) []float64 {
	b := make([]float64, n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	return b
}

func relResidual(a *SymCSC, x, b []float64) float64 {
	r := make([]float64, len(b))
	return residual(a, x, b, r, normInf(b))
}

// eigInertia counts eigenvalue signs with gonum (reference).
func eigInertia(t *testing.T, a *SymCSC, tol float64) Inertia {
	t.Helper()
	var e mat.EigenSym
	if !e.Factorize(a.SymDense(), false) {
		t.Fatal("EigenSym failed")
	}
	var in Inertia
	for _, l := range e.Values(nil) {
		switch {
		case math.Abs(l) <= tol:
			in.Zero++
		case l > 0:
			in.Pos++
		default:
			in.Neg++
		}
	}
	return in
}

// runConformance is the suite every LinearSolver backend must pass.
func runConformance(t *testing.T, newSolver func() LinearSolver) {
	t.Run("solve-inertia", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 7))
		for _, tm := range conformanceMatrices() {
			t.Run(tm.name, func(t *testing.T) {
				s := newSolver()
				if err := s.Analyze(tm.a); err != nil {
					t.Fatal(err)
				}
				for _, signs := range [][]int8{nil, tm.signs} {
					if err := s.Factorize(tm.a, signs); err != nil {
						t.Fatal(err)
					}
					// Reference 1: inertia by construction (Vanderbei 1995
					// or Gershgorin, see generators); reference 2: gonum
					// eigenvalue count with zero threshold 1e-10.
					got := s.Inertia()
					if *tm.want != got {
						t.Errorf("signs=%v: inertia %+v, want %+v (construction)", signs != nil, got, *tm.want)
					}
					if ref := eigInertia(t, tm.a, 1e-10); ref != got {
						t.Errorf("inertia %+v, eigenvalue count %+v", got, ref)
					}
				}
				n := tm.a.N
				b := randVec(rng, n)
				x := make([]float64, n)
				if err := s.Solve(x, b); err != nil {
					t.Fatal(err)
				}
				// Reference: dense LU solve (gonum). Tolerance 1e-9 relative
				// for the well-conditioned generators (cond ≲ 1e3).
				var lu mat.LU
				lu.Factorize(tm.a.SymDense())
				xr := mat.NewVecDense(n, nil)
				if err := lu.SolveVecTo(xr, false, mat.NewVecDense(n, append([]float64(nil), b...))); err != nil && tm.well {
					t.Fatal(err)
				}
				if tm.well {
					xn := normInf(xr.RawVector().Data)
					for i := range x {
						if d := math.Abs(x[i] - xr.AtVec(i)); d > 1e-9*(1+xn) {
							t.Fatalf("x[%d]=%g, dense LU %g", i, x[i], xr.AtVec(i))
						}
					}
					if r := relResidual(tm.a, x, b); r > 1e-12 {
						t.Errorf("plain solve residual %g > 1e-12", r)
					}
				}
				rs, ok := s.(RefinedSolver)
				if !ok {
					t.Fatal("backend does not implement RefinedSolver")
				}
				ref, err := rs.RefinedSolve(tm.a, x, b, 10, 1e-14)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("refinement: initial %.2g, final %.2g after %d steps", ref.Initial, ref.Residual, ref.Steps)
				// Backward-stable solve + refinement: 1e-12 relative
				// residual (the package's accuracy target; about 1e4·ε).
				if r := relResidual(tm.a, x, b); r > 1e-12 || ref.Residual > 1e-12 {
					t.Errorf("refined residual %g (reported %g, %d steps, initial %g) > 1e-12", r, ref.Residual, ref.Steps, ref.Initial)
				}
				// Aliasing: x and b the same slice.
				xb := append([]float64(nil), b...)
				if _, err := rs.RefinedSolve(tm.a, xb, xb, 10, 1e-14); err != nil {
					t.Fatal(err)
				}
				if r := relResidual(tm.a, xb, b); r > 1e-12 {
					t.Errorf("aliased refined residual %g > 1e-12", r)
				}
				xb = append(xb[:0], b...)
				if err := s.Solve(xb, xb); err != nil {
					t.Fatal(err)
				}
				x2 := make([]float64, n)
				_ = s.Solve(x2, b)
				for i := range xb {
					if xb[i] != x2[i] {
						t.Fatalf("aliased Solve differs at %d: %g vs %g", i, xb[i], x2[i])
					}
				}
			})
		}
	})
	t.Run("refactorize", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		a, sg, in := randQuasiDefinite(rng, 40, 25, 0.1, 0.5)
		s := newSolver()
		if err := s.Analyze(a); err != nil {
			t.Fatal(err)
		}
		if err := s.Factorize(a, sg); err != nil {
			t.Fatal(err)
		}
		// New values on the same pattern: flip the sign of the whole matrix,
		// which swaps the inertia (exact), and perturb.
		a2 := a.Clone()
		for i := range a2.Val {
			a2.Val[i] = -a2.Val[i] * (1 + 0.01*rng.Float64())
		}
		neg := make([]int8, len(sg))
		for i := range sg {
			neg[i] = -sg[i]
		}
		if err := s.Factorize(a2, neg); err != nil {
			t.Fatal(err)
		}
		if got, want := s.Inertia(), (Inertia{Pos: in.Neg, Neg: in.Pos}); got != want {
			t.Errorf("refactorized inertia %+v, want %+v", got, want)
		}
		b := randVec(rng, a.N)
		x := make([]float64, a.N)
		if err := s.Solve(x, b); err != nil {
			t.Fatal(err)
		}
		if r := relResidual(a2, x, b); r > 1e-12 {
			t.Errorf("residual after refactorization %g > 1e-12", r)
		}
	})
	t.Run("refine-unregularized", func(t *testing.T) {
		// Factor K + δE (δ = 1e-6 added with the expected sign on every
		// diagonal, like an IPM's δ_w/δ_c) and refine against K. The
		// iteration contracts by ≈ δ‖K⁻¹‖ per step, so a few steps reach
		// the package's 1e-12 relative residual; the plain solve is off
		// by ≈ 1e-6 (checked, so the test exercises refinement).
		rng := rand.New(rand.NewPCG(13, 14))
		k, sg, _ := randQuasiDefinite(rng, 60, 30, 0.08, 0.5)
		kreg := k.Clone()
		for j := range k.N {
			p := kreg.ColPtr[j+1] - 1 // diagonal is last in its column
			kreg.Val[p] += 1e-6 * float64(sg[j])
		}
		s := newSolver().(RefinedSolver)
		if err := s.Analyze(k); err != nil {
			t.Fatal(err)
		}
		if err := s.Factorize(kreg, sg); err != nil {
			t.Fatal(err)
		}
		b := randVec(rng, k.N)
		x := make([]float64, k.N)
		ref, err := s.RefinedSolve(k, x, b, 10, 1e-14)
		if err != nil {
			t.Fatal(err)
		}
		if ref.Initial < 1e-9 || ref.Steps < 1 || ref.Residual > 1e-12 || relResidual(k, x, b) > 1e-12 {
			t.Errorf("refinement %+v, true residual %g", ref, relResidual(k, x, b))
		}
		// Stagnation: refining against −K diverges; the failing step is
		// undone and the residual never grows.
		y := make([]float64, k.N)
		neg := k.Clone()
		for i := range neg.Val {
			neg.Val[i] = -neg.Val[i]
		}
		ref, err = s.RefinedSolve(neg, y, b, 10, 1e-14)
		if err != nil {
			t.Fatal(err)
		}
		if ref.Residual > ref.Initial || ref.Steps != 0 {
			t.Errorf("diverging refinement not stopped: %+v", ref)
		}
		if _, err := s.RefinedSolve(k, x, b, -1, 0); !errors.Is(err, ErrSettings) {
			t.Errorf("negative maxSteps: %v", err)
		}
	})
	t.Run("singular", func(t *testing.T) {
		// Exact singular cases (closed form): a zero row/column, and the
		// rank-one block [1 1; 1 1] embedded in a diagonal matrix.
		cases := []struct {
			name       string
			rows, cols []int
			vals       []float64
			n          int
		}{
			{"zero-row", []int{0, 1, 2, 0}, []int{0, 1, 2, 2}, []float64{2, 0, 3, 1}, 3},
			{"rank-one", []int{0, 0, 1, 2, 3}, []int{0, 1, 1, 2, 3}, []float64{1, 1, 1, -4, 5}, 4},
		}
		for _, c := range cases {
			a, _, err := NewSymCSC(c.n, c.rows, c.cols, c.vals)
			if err != nil {
				t.Fatal(err)
			}
			s := newSolver()
			if err := s.Analyze(a); err != nil {
				t.Fatal(err)
			}
			if err := s.Factorize(a, nil); err != nil {
				t.Fatalf("%s: singular Factorize should succeed, got %v", c.name, err)
			}
			if in := s.Inertia(); in.Zero != 1 {
				t.Errorf("%s: inertia %+v, want exactly one Zero", c.name, in)
			}
		}
	})
	t.Run("errors", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 6))
		a, sg, _ := randQuasiDefinite(rng, 6, 4, 0.3, 1)
		s := newSolver()
		if err := s.Factorize(a, nil); !errors.Is(err, ErrNotAnalyzed) {
			t.Errorf("Factorize before Analyze: %v", err)
		}
		if err := s.Solve(make([]float64, a.N), make([]float64, a.N)); !errors.Is(err, ErrNotFactorized) {
			t.Errorf("Solve before Factorize: %v", err)
		}
		bad := a.Clone()
		bad.RowIdx[0], bad.RowIdx[1] = bad.RowIdx[1], bad.RowIdx[0]
		if err := s.Analyze(&SymCSC{N: 2, ColPtr: []int{0, 1, 3}, RowIdx: []int{0, 1, 0}, Val: []float64{1, 2, 3}}); !errors.Is(err, ErrPattern) {
			t.Errorf("unsorted column: %v", err)
		}
		if err := s.Analyze(&SymCSC{N: 2, ColPtr: []int{0, 2, 3}, RowIdx: []int{0, 1, 1}, Val: []float64{1, 2, 3}}); !errors.Is(err, ErrPattern) {
			t.Errorf("lower entry: %v", err)
		}
		if err := s.Analyze(&SymCSC{N: 2, ColPtr: []int{0, 1}, RowIdx: []int{0}, Val: []float64{1}}); !errors.Is(err, ErrDimension) {
			t.Errorf("short ColPtr: %v", err)
		}
		if err := s.Analyze(a); err != nil {
			t.Fatal(err)
		}
		// Pattern mismatch: a different matrix of the same order.
		other, _, _ := randQuasiDefinite(rng, 6, 4, 0.5, 1)
		if err := s.Factorize(other, nil); !errors.Is(err, ErrPattern) {
			t.Errorf("changed pattern: %v", err)
		}
		if err := s.Factorize(a, sg[:3]); !errors.Is(err, ErrSigns) {
			t.Errorf("short signs: %v", err)
		}
		nan := a.Clone()
		nan.Val[len(nan.Val)/2] = math.NaN()
		err := s.Factorize(nan, nil)
		var nf *NonFiniteError
		if !errors.Is(err, ErrNonFinite) || !errors.As(err, &nf) || nf.Index != len(nan.Val)/2 {
			t.Errorf("NaN value: %v", err)
		}
		if err := s.Solve(make([]float64, a.N), make([]float64, a.N)); !errors.Is(err, ErrNotFactorized) {
			t.Errorf("Solve after failed Factorize: %v", err)
		}
		if err := s.Factorize(a, sg); err != nil {
			t.Fatal(err)
		}
		if err := s.Solve(make([]float64, a.N), make([]float64, a.N-1)); !errors.Is(err, ErrDimension) {
			t.Errorf("short b: %v", err)
		}
		if err := s.Solve(make([]float64, a.N+1), make([]float64, a.N)); !errors.Is(err, ErrDimension) {
			t.Errorf("long x: %v", err)
		}
		if _, err := s.(RefinedSolver).RefinedSolve(a, make([]float64, a.N), make([]float64, a.N+1), 3, 0); !errors.Is(err, ErrDimension) {
			t.Errorf("RefinedSolve short b: %v", err)
		}
	})
}

func sparseCtor(t *testing.T, set Settings) func() LinearSolver {
	return func() LinearSolver {
		s, err := NewSparse(set)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

func TestConformanceSparseNatural(t *testing.T) {
	runConformance(t, sparseCtor(t, Settings{Ordering: OrderNatural}))
}

func TestConformanceSparseAMD(t *testing.T) {
	runConformance(t, sparseCtor(t, Settings{}))
}

func TestConformanceSparseAMDNoAggressive(t *testing.T) {
	runConformance(t, sparseCtor(t, Settings{NoAggressiveAbsorption: true}))
}

func TestConformanceDense(t *testing.T) {
	runConformance(t, func() LinearSolver { return NewDense() })
}

// permSparse is a Sparse whose user permutation (reversal, a poor order, so
// that OrderBest must pick AMD) is made at Analyze, when n is known. It lets
// the conformance suite run OrderGiven and OrderBest.
type permSparse struct {
	*Sparse
	ord Ordering
	t   *testing.T
}

func (p *permSparse) Analyze(a *SymCSC) error {
	if a == nil {
		return p.Sparse.Analyze(a)
	}
	perm := make([]int, max(a.N, 0))
	for i := range perm {
		perm[i] = len(perm) - 1 - i
	}
	s, err := NewSparse(Settings{Ordering: p.ord, Perm: perm})
	if err != nil {
		p.t.Fatal(err)
	}
	p.Sparse = s
	return s.Analyze(a)
}

func TestConformanceSparseGiven(t *testing.T) {
	runConformance(t, func() LinearSolver {
		s, _ := NewSparse(Settings{})
		return &permSparse{Sparse: s, ord: OrderGiven, t: t}
	})
}

func TestConformanceSparseBest(t *testing.T) {
	runConformance(t, func() LinearSolver {
		s, _ := NewSparse(Settings{})
		return &permSparse{Sparse: s, ord: OrderBest, t: t}
	})
}
