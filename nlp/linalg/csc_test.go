package linalg

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestNewSymCSC(t *testing.T) {
	// Triplets in both triangles, with duplicates: (0,1) and (1,0) sum into
	// the upper entry (0,1); (2,2) twice; column 1 has no diagonal triplet.
	rows := []int{0, 1, 0, 2, 2, 3, 1}
	cols := []int{0, 0, 1, 2, 2, 1, 3}
	vals := []float64{4, 1, 2, 5, 6, 7, 8}
	a, idx, err := NewSymCSC(4, rows, cols, vals)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	// Reference written out by hand: upper CSC of
	// [4 3 0 0; 3 0 0 15; 0 0 11 0; 0 15 0 0].
	want := &SymCSC{N: 4, ColPtr: []int{0, 1, 3, 4, 6}, RowIdx: []int{0, 0, 1, 2, 1, 3}, Val: []float64{4, 3, 0, 11, 15, 0}}
	if !slices.Equal(a.ColPtr, want.ColPtr) || !slices.Equal(a.RowIdx, want.RowIdx) || !slices.Equal(a.Val, want.Val) {
		t.Fatalf("got %+v, want %+v", a, want)
	}
	wantIdx := []int{0, 1, 1, 3, 3, 4, 4}
	if !slices.Equal(idx, wantIdx) {
		t.Errorf("index map %v, want %v", idx, wantIdx)
	}
	// Scatter through the index map reproduces the values.
	clear(a.Val)
	for t, v := range vals {
		a.Val[idx[t]] += v
	}
	if !slices.Equal(a.Val, want.Val) {
		t.Errorf("scatter via index map gave %v", a.Val)
	}
	// Errors.
	if _, _, err := NewSymCSC(2, []int{0, 2}, []int{0, 0}, nil); !errors.Is(err, ErrDimension) {
		t.Errorf("out of range: %v", err)
	}
	if _, _, err := NewSymCSC(2, []int{0}, []int{0, 1}, nil); !errors.Is(err, ErrDimension) {
		t.Errorf("length mismatch: %v", err)
	}
	// Empty matrix.
	if e, _, err := NewSymCSC(0, nil, nil, nil); err != nil || e.Validate() != nil {
		t.Errorf("empty: %v", err)
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		a    *SymCSC
		want error
	}{
		{"ok", &SymCSC{N: 2, ColPtr: []int{0, 1, 3}, RowIdx: []int{0, 0, 1}, Val: []float64{1, 2, 3}}, nil},
		{"nil", nil, ErrPattern},
		{"colptr-len", &SymCSC{N: 2, ColPtr: []int{0, 1}, RowIdx: []int{0}, Val: []float64{1}}, ErrDimension},
		{"colptr0", &SymCSC{N: 1, ColPtr: []int{1, 1}, RowIdx: []int{0}, Val: []float64{1}}, ErrPattern},
		{"val-len", &SymCSC{N: 1, ColPtr: []int{0, 1}, RowIdx: []int{0}, Val: nil}, ErrDimension},
		{"no-diag", &SymCSC{N: 2, ColPtr: []int{0, 1, 2}, RowIdx: []int{0, 0}, Val: []float64{1, 2}}, ErrPattern},
		{"lower", &SymCSC{N: 2, ColPtr: []int{0, 2, 3}, RowIdx: []int{0, 1, 1}, Val: []float64{1, 2, 3}}, ErrPattern},
		{"unsorted", &SymCSC{N: 2, ColPtr: []int{0, 1, 3}, RowIdx: []int{0, 1, 0}, Val: []float64{1, 2, 3}}, ErrPattern},
		{"duplicate", &SymCSC{N: 2, ColPtr: []int{0, 1, 4}, RowIdx: []int{0, 0, 0, 1}, Val: []float64{1, 2, 3, 4}}, ErrPattern},
		{"decreasing-colptr", &SymCSC{N: 2, ColPtr: []int{0, 2, 1}, RowIdx: []int{0}, Val: []float64{1}}, ErrPattern},
		{"negative-row", &SymCSC{N: 1, ColPtr: []int{0, 2}, RowIdx: []int{-1, 0}, Val: []float64{1, 2}}, ErrPattern},
	}
	for _, c := range cases {
		err := c.a.Validate()
		if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

// TestMulVecTo compares with gonum's dense symmetric product.
func TestMulVecTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, n := range []int{1, 7, 60} {
		a, _, _ := randDominant(rng, n, 0.2)
		orig := a.Clone()
		x := randVec(rng, n)
		y := make([]float64, n)
		for i := range y {
			y[i] = math.NaN() // must be fully overwritten
		}
		a.MulVecTo(y, x)
		var ref mat.VecDense
		ref.MulVec(a.SymDense(), mat.NewVecDense(n, x))
		for i := range y {
			// Reference: gonum dense product; tolerance: summation-order
			// rounding, 1e-13 relative.
			if math.Abs(y[i]-ref.AtVec(i)) > 1e-13*(1+math.Abs(ref.AtVec(i))) {
				t.Fatalf("n=%d y[%d]=%g, dense %g", n, i, y[i], ref.AtVec(i))
			}
		}
		if !slices.Equal(orig.Val, a.Val) || !slices.Equal(orig.RowIdx, a.RowIdx) {
			t.Error("MulVecTo modified the matrix")
		}
	}
}

func TestSettingsValidate(t *testing.T) {
	cases := []struct {
		name string
		s    Settings
		ok   bool
	}{
		{"zero", Settings{}, true},
		{"natural", Settings{Ordering: OrderNatural}, true},
		{"given", Settings{Ordering: OrderGiven, Perm: []int{1, 0, 2}}, true},
		{"best", Settings{Ordering: OrderBest, Perm: []int{0}}, true},
		{"given-no-perm", Settings{Ordering: OrderGiven}, false},
		{"amd-with-perm", Settings{Perm: []int{0}}, false},
		{"bad-perm", Settings{Ordering: OrderGiven, Perm: []int{0, 0}}, false},
		{"unknown", Settings{Ordering: Ordering(9)}, false},
		{"neg-tol", Settings{ZeroPivotTol: -1}, false},
		{"nan-delta", Settings{RegDelta: math.NaN()}, false},
		{"inf-alpha", Settings{DenseAlpha: math.Inf(1)}, false},
	}
	for _, c := range cases {
		err := c.s.Validate()
		if (err == nil) != c.ok {
			t.Errorf("%s: Validate() = %v", c.name, err)
		}
		if err != nil && !errors.Is(err, ErrSettings) && !errors.Is(err, ErrPermutation) {
			t.Errorf("%s: error %v does not wrap a sentinel", c.name, err)
		}
		if _, err2 := NewSparse(c.s); (err2 == nil) != c.ok {
			t.Errorf("%s: NewSparse error %v", c.name, err2)
		}
	}
	if got := OrderBest.String(); got != "Best" {
		t.Errorf("String() = %q", got)
	}
	if got := Ordering(42).String(); got != "Ordering(42)" {
		t.Errorf("String() = %q", got)
	}
}

// TestPivotClassification checks the documented treatment of tiny and
// wrong-sign pivots on 2×2 and 1×1 cases whose pivots are known in closed
// form (natural order: d₁ = a₁₁, d₂ = a₂₂ − a₁₂²/a₁₁).
func TestPivotClassification(t *testing.T) {
	cases := []struct {
		name       string
		vals       []float64 // a11, a12, a22
		signs      []int8
		want       Inertia
		reg, wrong int
		d2         float64 // expected second pivot after regularization
	}{
		// d₂ = 1 − 1 = 0 exactly: Zero, replaced by expected sign −1 · δ.
		{"zero-with-signs", []float64{1, 1, 1}, []int8{1, -1}, Inertia{Pos: 1, Zero: 1}, 1, 0, -DefaultRegDelta},
		// Without signs a zero pivot becomes +δ.
		{"zero-no-signs", []float64{1, 1, 1}, nil, Inertia{Pos: 1, Zero: 1}, 1, 0, DefaultRegDelta},
		// d₂ = 1 − 4 = −3 while + expected: kept, counted as Neg (true inertia
		// of [1 2; 2 1] is (1, 1, 0): eigenvalues 3 and −1).
		{"wrong-sign", []float64{1, 2, 1}, []int8{1, 1}, Inertia{Pos: 1, Neg: 1}, 0, 1, -3},
		// d₂ = −1e-8 − 0 (quasi-definite dual pivot of size δ_c) is above
		// the threshold 1e-13·min(1, 1e-8) and kept.
		{"small-dual", []float64{2, 0, -1e-8}, []int8{1, -1}, Inertia{Pos: 1, Neg: 1}, 0, 0, -1e-8},
		// d₂ = (1 + 2⁻⁴⁵) − 1 = 2.8e-14 ≤ 1e-13·min(1, s₂), s₂ ≈ 2 the size
		// of its terms (a cancellation), wrong sign: Zero, replaced by −δ.
		{"tiny", []float64{1, 1, 1 + 0x1p-45}, []int8{1, -1}, Inertia{Pos: 1, Zero: 1}, 1, 0, -DefaultRegDelta},
		// d₂ = 1e-14 with nothing subtracted (a variable with tiny curvature,
		// HS54's x₆): above 1e-13·min(1, 1e-14), kept; wrong sign, Pos.
		{"tiny-row", []float64{1, 0, 1e-14}, []int8{1, -1}, Inertia{Pos: 2}, 0, 1, 1e-14},
	}
	for _, c := range cases {
		a := &SymCSC{N: 2, ColPtr: []int{0, 1, 3}, RowIdx: []int{0, 0, 1}, Val: c.vals}
		s, _ := NewSparse(Settings{Ordering: OrderNatural})
		if err := s.Analyze(a); err != nil {
			t.Fatal(err)
		}
		if err := s.Factorize(a, c.signs); err != nil {
			t.Fatal(err)
		}
		st := s.Stats()
		if s.Inertia() != c.want || st.Regularized != c.reg || st.WrongSign != c.wrong {
			t.Errorf("%s: inertia %+v reg %d wrong %d, want %+v %d %d", c.name, s.Inertia(), st.Regularized, st.WrongSign, c.want, c.reg, c.wrong)
		}
		if s.d[1] != c.d2 {
			t.Errorf("%s: d₂ = %g, want %g", c.name, s.d[1], c.d2)
		}
	}
	// Settings override: ZeroPivotTol 1e-6 makes the pivot
	// d₂ = (0.5 − 1e-8) − 1/2 ≈ −1e-8 (terms of size 1) Zero.
	a := &SymCSC{N: 2, ColPtr: []int{0, 1, 3}, RowIdx: []int{0, 0, 1}, Val: []float64{2, 1, 0.5 - 1e-8}}
	s, _ := NewSparse(Settings{Ordering: OrderNatural, ZeroPivotTol: 1e-6, RegDelta: 1e-4})
	_ = s.Analyze(a)
	_ = s.Factorize(a, []int8{1, -1})
	if s.Inertia() != (Inertia{Pos: 1, Zero: 1}) || s.d[1] != -1e-4 {
		t.Errorf("custom tolerances: inertia %+v d₂ %g", s.Inertia(), s.d[1])
	}
	// Bad sign values.
	if err := s.Factorize(a, []int8{1, 0}); !errors.Is(err, ErrSigns) {
		t.Errorf("sign 0: %v", err)
	}
}

// TestInvariants: inputs unmodified, refactorization bit-identical, Solve
// output fully overwritten.
func TestInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	a, sg, _ := randQuasiDefinite(rng, 50, 30, 0.1, 1e-8)
	orig := a.Clone()
	sgOrig := slices.Clone(sg)
	perm := rng.Perm(a.N)
	permOrig := slices.Clone(perm)
	s, err := NewSparse(Settings{Ordering: OrderBest, Perm: perm})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Analyze(a); err != nil {
		t.Fatal(err)
	}
	if err := s.Factorize(a, sg); err != nil {
		t.Fatal(err)
	}
	lx1 := slices.Clone(s.lx)
	d1 := slices.Clone(s.d)
	if err := s.Factorize(a, sg); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lx1, s.lx) || !slices.Equal(d1, s.d) {
		t.Error("refactorization not bit-identical")
	}
	b := randVec(rng, a.N)
	bOrig := slices.Clone(b)
	x := make([]float64, a.N)
	for i := range x {
		x[i] = math.NaN()
	}
	if err := s.Solve(x, b); err != nil {
		t.Fatal(err)
	}
	for i, v := range x {
		if math.IsNaN(v) {
			t.Fatalf("x[%d] not written", i)
		}
	}
	if !slices.Equal(a.Val, orig.Val) || !slices.Equal(a.RowIdx, orig.RowIdx) || !slices.Equal(a.ColPtr, orig.ColPtr) ||
		!slices.Equal(sg, sgOrig) || !slices.Equal(b, bOrig) || !slices.Equal(perm, permOrig) {
		t.Error("an input was modified")
	}
	st := s.Stats()
	if st.NnzLAMD == 0 || st.NnzLGiven == 0 || st.NnzL != min(st.NnzLAMD, st.NnzLGiven) {
		t.Errorf("OrderBest stats %+v", st)
	}
	t.Logf("OrderBest on random KKT: AMD %d, given (random) %d → %v", st.NnzLAMD, st.NnzLGiven, st.Ordering)
}

// TestEmpty: the 0×0 matrix is valid and every operation is a no-op.
func TestEmpty(t *testing.T) {
	a := &SymCSC{N: 0, ColPtr: []int{0}}
	for _, s := range []RefinedSolver{mustSparse(t, Settings{}), mustSparse(t, Settings{Ordering: OrderNatural}), NewDense()} {
		if err := s.Analyze(a); err != nil {
			t.Fatal(err)
		}
		if err := s.Factorize(a, nil); err != nil {
			t.Fatal(err)
		}
		if s.Inertia() != (Inertia{}) {
			t.Errorf("inertia %+v", s.Inertia())
		}
		if err := s.Solve(nil, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RefinedSolve(a, nil, nil, 2, 0); err != nil {
			t.Fatal(err)
		}
	}
}

func mustSparse(t *testing.T, set Settings) *Sparse {
	s, err := NewSparse(set)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestAnalyzePermLength: a caller permutation whose length differs from the
// matrix order is an error, not silently ignored.
func TestAnalyzePermLength(t *testing.T) {
	a := grid2D(3)
	for _, ord := range []Ordering{OrderGiven, OrderBest} {
		s := mustSparse(t, Settings{Ordering: ord, Perm: []int{2, 1, 0}})
		if err := s.Analyze(a); !errors.Is(err, ErrPermutation) {
			t.Errorf("%v: %v", ord, err)
		}
		if err := s.Factorize(a, nil); !errors.Is(err, ErrNotAnalyzed) {
			t.Errorf("%v: Factorize after failed Analyze: %v", ord, err)
		}
	}
}
