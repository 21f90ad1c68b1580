package linalg_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/nlp/linalg"
)

// TestMisuse: every backend and the matrix helpers reject bad input with
// their documented errors (errors.Is) and do not panic.
func TestMisuse(t *testing.T) {
	// a is [[2 1][1 −3]] (upper triangle stored), b a changed pattern.
	a, _, err := linalg.NewSymCSC(2, []int{0, 0, 1}, []int{0, 1, 1}, []float64{2, 1, -3})
	require.NoError(t, err)
	b, _, err := linalg.NewSymCSC(2, []int{0, 1}, []int{0, 1}, []float64{2, -3})
	require.NoError(t, err)
	nan := a.Clone()
	nan.Val[1] = math.NaN()
	broken := &linalg.SymCSC{N: 2, ColPtr: []int{0, 1, 1}, RowIdx: []int{0}, Val: []float64{1}} // column 1 has no diagonal

	backends := map[string]func() linalg.LinearSolver{
		"Dense": func() linalg.LinearSolver { return linalg.NewDense() },
		"Sparse": func() linalg.LinearSolver {
			s, err := linalg.NewSparse(linalg.Settings{})
			require.NoError(t, err)
			return s
		},
		"Multifrontal": func() linalg.LinearSolver {
			s, err := linalg.NewMultifrontal(linalg.Settings{})
			require.NoError(t, err)
			return s
		},
	}
	for name, mk := range backends {
		cases := []struct {
			name string
			call func(s linalg.LinearSolver) error
			want error
		}{
			{"Analyze nil", func(s linalg.LinearSolver) error { return s.Analyze(nil) }, linalg.ErrPattern},
			{"Analyze without diagonal", func(s linalg.LinearSolver) error { return s.Analyze(broken) }, linalg.ErrPattern},
			{"Factorize before Analyze", func(s linalg.LinearSolver) error { return s.Factorize(a, nil) }, linalg.ErrNotAnalyzed},
			{"Solve before Factorize", func(s linalg.LinearSolver) error {
				require.NoError(t, s.Analyze(a))
				return s.Solve(make([]float64, 2), make([]float64, 2))
			}, linalg.ErrNotFactorized},
			{"Factorize changed pattern", func(s linalg.LinearSolver) error {
				require.NoError(t, s.Analyze(a))
				return s.Factorize(b, nil)
			}, linalg.ErrPattern},
			{"Factorize nil", func(s linalg.LinearSolver) error {
				require.NoError(t, s.Analyze(a))
				return s.Factorize(nil, nil)
			}, linalg.ErrPattern},
			{"Factorize NaN", func(s linalg.LinearSolver) error {
				require.NoError(t, s.Analyze(a))
				return s.Factorize(nan, nil)
			}, linalg.ErrNonFinite},
			{"Factorize short signs", func(s linalg.LinearSolver) error {
				require.NoError(t, s.Analyze(a))
				return s.Factorize(a, []int8{1})
			}, linalg.ErrSigns},
			{"Factorize sign 0", func(s linalg.LinearSolver) error {
				require.NoError(t, s.Analyze(a))
				return s.Factorize(a, []int8{1, 0})
			}, linalg.ErrSigns},
			{"Solve short x", func(s linalg.LinearSolver) error {
				require.NoError(t, s.Analyze(a))
				require.NoError(t, s.Factorize(a, nil))
				return s.Solve(make([]float64, 1), make([]float64, 2))
			}, linalg.ErrDimension},
			{"Solve after a failed Factorize", func(s linalg.LinearSolver) error {
				require.NoError(t, s.Analyze(a))
				require.NoError(t, s.Factorize(a, nil))
				require.Error(t, s.Factorize(nan, nil))
				return s.Solve(make([]float64, 2), make([]float64, 2))
			}, linalg.ErrNotFactorized},
			{"RefinedSolve negative steps", func(s linalg.LinearSolver) error {
				r, ok := s.(linalg.RefinedSolver)
				require.True(t, ok)
				require.NoError(t, s.Analyze(a))
				require.NoError(t, s.Factorize(a, nil))
				_, err := r.RefinedSolve(a, make([]float64, 2), []float64{1, 1}, -1, 0)
				return err
			}, linalg.ErrSettings},
		}
		for _, c := range cases {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				var err error
				assert.NotPanics(t, func() { err = c.call(mk()) })
				require.ErrorIs(t, err, c.want)
			})
		}
	}

	other := []struct {
		name string
		call func() error
		want error
	}{
		{"NewSymCSC negative order", func() error { _, _, err := linalg.NewSymCSC(-1, nil, nil, nil); return err }, linalg.ErrDimension},
		{"NewSymCSC index out of range", func() error { _, _, err := linalg.NewSymCSC(2, []int{2}, []int{0}, nil); return err }, linalg.ErrDimension},
		{"NewSymCSC ragged triplets", func() error { _, _, err := linalg.NewSymCSC(2, []int{0}, nil, nil); return err }, linalg.ErrDimension},
		{"Validate nil", func() error { var m *linalg.SymCSC; return m.Validate() }, linalg.ErrPattern},
		{"Validate ColPtr length", func() error { return (&linalg.SymCSC{N: 3, ColPtr: []int{0}}).Validate() }, linalg.ErrDimension},
		{"Settings unknown ordering", func() error { _, err := linalg.NewSparse(linalg.Settings{Ordering: 99}); return err }, linalg.ErrSettings},
		{"Settings Perm without OrderGiven", func() error { _, err := linalg.NewSparse(linalg.Settings{Perm: []int{0}}); return err }, linalg.ErrSettings},
		{"Settings not a permutation", func() error {
			_, err := linalg.NewMultifrontal(linalg.Settings{Ordering: linalg.OrderGiven, Perm: []int{0, 0}})
			return err
		}, linalg.ErrPermutation},
		{"Settings PivotTol > 0.5", func() error { _, err := linalg.NewMultifrontal(linalg.Settings{PivotTol: 0.7}); return err }, linalg.ErrSettings},
		{"Settings NaN ZeroPivotTol", func() error { _, err := linalg.NewSparse(linalg.Settings{ZeroPivotTol: math.NaN()}); return err }, linalg.ErrSettings},
		{"given permutation of the wrong length", func() error {
			s, err := linalg.NewSparse(linalg.Settings{Ordering: linalg.OrderGiven, Perm: []int{0, 1, 2}})
			require.NoError(t, err)
			return s.Analyze(a)
		}, linalg.ErrPermutation},
	}
	for _, c := range other {
		t.Run(c.name, func(t *testing.T) {
			var err error
			assert.NotPanics(t, func() { err = c.call() })
			require.ErrorIs(t, err, c.want)
		})
	}
	assert.NotPanics(t, func() {
		assert.Nil(t, linalg.AMD(broken, linalg.AMDOptions{}))
		assert.Nil(t, (&linalg.SymCSC{ColPtr: []int{0}}).SymDense())
		var m *linalg.SymCSC
		assert.Nil(t, m.Clone())
	})
}

// TestEmptyRows: in the KKT matrix [[2, 0, 1], [0, 2, 1], [1, 1, 0]] the
// constraint row 2 couples to both variables. Eliminated first (order 2,
// 0, 1) its row of L is empty and its pivot is its zero diagonal;
// eliminated last it is reached by both variables.
func TestEmptyRows(t *testing.T) {
	a := &linalg.SymCSC{N: 3, ColPtr: []int{0, 1, 2, 5}, RowIdx: []int{0, 1, 0, 1, 2}, Val: []float64{2, 2, 1, 1, 0}}
	for _, c := range []struct {
		perm []int
		want int
	}{{[]int{2, 0, 1}, 1}, {[]int{0, 2, 1}, 0}, {[]int{0, 1, 2}, 0}} {
		s, err := linalg.NewSparse(linalg.Settings{Ordering: linalg.OrderGiven, Perm: c.perm})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.EmptyRows(2); got != 0 {
			t.Fatalf("before Analyze: %d", got)
		}
		if err := s.Analyze(a); err != nil {
			t.Fatal(err)
		}
		if got := s.EmptyRows(2); got != c.want {
			t.Errorf("perm %v: EmptyRows(2) = %d, want %d", c.perm, got, c.want)
		}
		if err := s.Factorize(a, nil); err != nil {
			t.Fatal(err)
		}
		if in := s.Inertia(); (in.Zero > 0) != (c.want > 0) {
			t.Errorf("perm %v: inertia %+v", c.perm, in)
		}
	}
}
