package kktgen

import (
	"math"
	"testing"

	"github.com/fesd-go/fesd/nlp/linalg"
	"gonum.org/v1/gonum/mat"
)

// TestDimensions: the counts of the package doc for N = 800 (n = 11 208,
// m = 8 008, 800 inequalities, KKT dimension 20 016) and the general
// formulas.
func TestDimensions(t *testing.T) {
	g, err := New(800)
	if err != nil {
		t.Fatal(err)
	}
	if g.NVar != 11208 || g.NCon != 8008 || g.NIneq != 800 || g.Dim != 20016 {
		t.Errorf("n=%d m=%d ineq=%d dim=%d, want 11208 8008 800 20016", g.NVar, g.NCon, g.NIneq, g.Dim)
	}
	if g.Inertia != (linalg.Inertia{Pos: 12008, Neg: 8008}) {
		t.Errorf("expected inertia %+v", g.Inertia)
	}
	if err := g.A.Validate(); err != nil {
		t.Fatal(err)
	}
	seen := make([]bool, g.Dim)
	for _, i := range g.StagePerm {
		if seen[i] {
			t.Fatalf("StagePerm repeats %d", i)
		}
		seen[i] = true
	}
	if len(g.StagePerm) != g.Dim {
		t.Fatalf("len(StagePerm)=%d", len(g.StagePerm))
	}
}

// TestInertiaSparse: the factorized inertia equals 12 008 / 8 008 (n + N
// positive, m negative: the matrix is quasi-definite) with every ordering,
// with no tiny or wrong-sign pivot.
func TestInertiaSparse(t *testing.T) {
	g, err := New(800)
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []linalg.Settings{
		{Ordering: linalg.OrderGiven, Perm: g.StagePerm},
		{Ordering: linalg.OrderAMD},
		{Ordering: linalg.OrderBest, Perm: g.StagePerm},
	} {
		s, err := linalg.NewSparse(set)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Analyze(g.A); err != nil {
			t.Fatal(err)
		}
		if err := s.Factorize(g.A, g.Signs); err != nil {
			t.Fatal(err)
		}
		st := s.Stats()
		if in := s.Inertia(); in != g.Inertia || st.Regularized != 0 || st.WrongSign != 0 {
			t.Errorf("%v: inertia %+v (reg %d, wrong %d), want %+v", set.Ordering, in, st.Regularized, st.WrongSign, g.Inertia)
		}
		t.Logf("%v → %v: nnz(L) = %d, flops ≈ %.3g", set.Ordering, st.Ordering, st.NnzL, st.Flops)
	}
}

// TestInertiaEigen: for a small N the inertia claimed by construction agrees
// with a gonum eigenvalue count.
func TestInertiaEigen(t *testing.T) {
	g, err := New(6)
	if err != nil {
		t.Fatal(err)
	}
	var e mat.EigenSym
	if !e.Factorize(g.A.SymDense(), false) {
		t.Fatal("EigenSym failed")
	}
	var in linalg.Inertia
	for _, l := range e.Values(nil) {
		switch {
		case math.Abs(l) < 1e-12:
			in.Zero++
		case l > 0:
			in.Pos++
		default:
			in.Neg++
		}
	}
	if in != g.Inertia || in.Pos != 15*6+8 || in.Neg != 10*6+8 {
		t.Errorf("eigen inertia %+v, claimed %+v", in, g.Inertia)
	}
}
