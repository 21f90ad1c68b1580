package rk

import (
	"math"
	"testing"
)

// publishedCase is a tableau with entries in closed form from the literature.
type publishedCase struct {
	name string
	make func() (*Tableau, error)
	A    [][]float64
	b, c []float64
	tol  float64 // absolute tolerance per entry (a few ulps of 1)
}

func TestPublishedTableaus(t *testing.T) {
	r6, r3, r15 := math.Sqrt(6), math.Sqrt(3), math.Sqrt(15)
	cases := []publishedCase{
		// Hairer & Wanner II, §IV.5, Table 5.5 (Radau IIA, order 1): implicit Euler.
		{"RadauIIA s=1", func() (*Tableau, error) { return RadauIIA(1) },
			[][]float64{{1}}, []float64{1}, []float64{1}, 0},
		// Hairer & Wanner II, §IV.5, Table 5.5 (Radau IIA, order 3).
		{"RadauIIA s=2", func() (*Tableau, error) { return RadauIIA(2) },
			[][]float64{{5.0 / 12, -1.0 / 12}, {3.0 / 4, 1.0 / 4}},
			[]float64{3.0 / 4, 1.0 / 4}, []float64{1.0 / 3, 1}, 4e-16},
		// Hairer & Wanner II, §IV.5, Table 5.6 (Radau IIA, order 5).
		{"RadauIIA s=3", func() (*Tableau, error) { return RadauIIA(3) },
			[][]float64{
				{(88 - 7*r6) / 360, (296 - 169*r6) / 1800, (-2 + 3*r6) / 225},
				{(296 + 169*r6) / 1800, (88 + 7*r6) / 360, (-2 - 3*r6) / 225},
				{(16 - r6) / 36, (16 + r6) / 36, 1.0 / 9},
			},
			[]float64{(16 - r6) / 36, (16 + r6) / 36, 1.0 / 9},
			[]float64{(4 - r6) / 10, (4 + r6) / 10, 1}, 4e-16},
		// Hairer & Wanner II, §IV.5, Table 5.1 (Gauss, order 2): implicit midpoint rule.
		{"Gauss s=1", func() (*Tableau, error) { return GaussLegendre(1) },
			[][]float64{{0.5}}, []float64{1}, []float64{0.5}, 0},
		// Hairer & Wanner II, §IV.5, Table 5.1 (Gauss, order 4).
		{"Gauss s=2", func() (*Tableau, error) { return GaussLegendre(2) },
			[][]float64{{1.0 / 4, 1.0/4 - r3/6}, {1.0/4 + r3/6, 1.0 / 4}},
			[]float64{0.5, 0.5}, []float64{0.5 - r3/6, 0.5 + r3/6}, 4e-16},
		// Hairer & Wanner II, §IV.5, Table 5.2 (Gauss, order 6).
		{"Gauss s=3", func() (*Tableau, error) { return GaussLegendre(3) },
			[][]float64{
				{5.0 / 36, 2.0/9 - r15/15, 5.0/36 - r15/30},
				{5.0/36 + r15/24, 2.0 / 9, 5.0/36 - r15/24},
				{5.0/36 + r15/30, 2.0/9 + r15/15, 5.0 / 36},
			},
			[]float64{5.0 / 18, 4.0 / 9, 5.0 / 18},
			[]float64{0.5 - r15/10, 0.5, 0.5 + r15/10}, 4e-16},
		// Hairer & Wanner II, §IV.5, Table 5.3 (Radau IA, orders 1 and 3).
		{"RadauIA s=1", func() (*Tableau, error) { return RadauIA(1) },
			[][]float64{{1}}, []float64{1}, []float64{0}, 0},
		{"RadauIA s=2", func() (*Tableau, error) { return RadauIA(2) },
			[][]float64{{1.0 / 4, -1.0 / 4}, {1.0 / 4, 5.0 / 12}},
			[]float64{1.0 / 4, 3.0 / 4}, []float64{0, 2.0 / 3}, 4e-16},
		// Hairer & Wanner II, §IV.5, Table 5.4 (Radau IA, order 5).
		{"RadauIA s=3", func() (*Tableau, error) { return RadauIA(3) },
			[][]float64{
				{1.0 / 9, (-1 - r6) / 18, (-1 + r6) / 18},
				{1.0 / 9, (88 + 7*r6) / 360, (88 - 43*r6) / 360},
				{1.0 / 9, (88 + 43*r6) / 360, (88 - 7*r6) / 360},
			},
			[]float64{1.0 / 9, (16 + r6) / 36, (16 - r6) / 36},
			[]float64{0, (6 - r6) / 10, (6 + r6) / 10}, 6e-16},
		// Hairer & Wanner II, §IV.5, Table 5.7 (Lobatto IIIA, order 2): trapezoidal rule.
		{"LobattoIIIA s=2", func() (*Tableau, error) { return LobattoIIIA(2) },
			[][]float64{{0, 0}, {0.5, 0.5}}, []float64{0.5, 0.5}, []float64{0, 1}, 0},
		// Hairer & Wanner II, §IV.5, Table 5.7 (Lobatto IIIA, order 4).
		{"LobattoIIIA s=3", func() (*Tableau, error) { return LobattoIIIA(3) },
			[][]float64{{0, 0, 0}, {5.0 / 24, 1.0 / 3, -1.0 / 24}, {1.0 / 6, 2.0 / 3, 1.0 / 6}},
			[]float64{1.0 / 6, 2.0 / 3, 1.0 / 6}, []float64{0, 0.5, 1}, 4e-16},
		// Hairer & Wanner II, §IV.5, Table 5.9 (Lobatto IIIC, order 2).
		{"LobattoIIIC s=2", func() (*Tableau, error) { return LobattoIIIC(2) },
			[][]float64{{0.5, -0.5}, {0.5, 0.5}}, []float64{0.5, 0.5}, []float64{0, 1}, 0},
		// Hairer & Wanner II, §IV.5, Table 5.9 (Lobatto IIIC, order 4).
		{"LobattoIIIC s=3", func() (*Tableau, error) { return LobattoIIIC(3) },
			[][]float64{{1.0 / 6, -1.0 / 3, 1.0 / 6}, {1.0 / 6, 5.0 / 12, -1.0 / 12}, {1.0 / 6, 2.0 / 3, 1.0 / 6}},
			[]float64{1.0 / 6, 2.0 / 3, 1.0 / 6}, []float64{0, 0.5, 1}, 4e-16},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := tc.make()
			if err != nil {
				t.Fatal(err)
			}
			s := len(tc.b)
			if tab.Stages() != s || len(tab.A) != s || len(tab.C) != s {
				t.Fatalf("got %d stages, want %d", tab.Stages(), s)
			}
			var worst float64
			check := func(what string, i, j int, got, want float64) {
				d := math.Abs(got - want)
				worst = math.Max(worst, d)
				if d > tc.tol {
					t.Errorf("%s[%d][%d] = %.17g, want %.17g (|diff| %.2g > %.2g)", what, i, j, got, want, d, tc.tol)
				}
			}
			for i := 0; i < s; i++ {
				for j := 0; j < s; j++ {
					check("A", i, j, tab.A[i][j], tc.A[i][j])
				}
				check("b", i, 0, tab.B[i], tc.b[i])
				check("c", i, 0, tab.C[i], tc.c[i])
			}
			t.Logf("largest deviation %.2g", worst)
		})
	}
}

func TestExplicitTableaus(t *testing.T) {
	// Classical definitions (Hairer, Nørsett & Wanner I, §II.1).
	cases := []struct {
		tab        *Tableau
		order      int
		wantB      []float64
		wantC      []float64
		wantStages int
	}{
		{ExplicitEuler(), 1, []float64{1}, []float64{0}, 1},
		{Heun(), 2, []float64{0.5, 0.5}, []float64{0, 1}, 2},
		{RK4(), 4, []float64{1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}, []float64{0, 0.5, 0.5, 1}, 4},
	}
	for _, tc := range cases {
		if err := tc.tab.Validate(); err != nil {
			t.Errorf("%s: %v", tc.tab.Name, err)
		}
		if !tc.tab.Explicit() || tc.tab.Order != tc.order || tc.tab.Stages() != tc.wantStages {
			t.Errorf("%s: Explicit %v, Order %d, Stages %d", tc.tab.Name, tc.tab.Explicit(), tc.tab.Order, tc.tab.Stages())
		}
		for i := range tc.wantB {
			if tc.tab.B[i] != tc.wantB[i] || tc.tab.C[i] != tc.wantC[i] { // exact: same literals
				t.Errorf("%s: b/c entry %d differs", tc.tab.Name, i)
			}
		}
	}
	// Fresh values: mutating one result must not change the next.
	a := RK4()
	a.A[1][0] = 42
	a.B[0] = 42
	if b := RK4(); b.A[1][0] != 0.5 || b.B[0] != 1.0/6 {
		t.Error("RK4 returns shared state")
	}
	r, _ := RadauIIA(3)
	r.A[0][0] = 42
	if r2, _ := RadauIIA(3); r2.A[0][0] == 42 {
		t.Error("RadauIIA returns shared state")
	}
}

func TestStructuralFlags(t *testing.T) {
	cases := []struct {
		f                         Family
		s                         int
		endpoint, stiff, explicit bool
	}{
		{FamilyRadauIIA, 1, true, true, false},
		{FamilyRadauIIA, 5, true, true, false},
		{FamilyGaussLegendre, 3, false, false, false},
		{FamilyRadauIA, 3, false, false, false},
		{FamilyLobattoIIIA, 4, true, true, false},
		{FamilyLobattoIIIC, 4, true, true, false},
		{FamilyExplicit, 4, true, false, true},
	}
	for _, tc := range cases {
		tab, err := New(tc.f, tc.s)
		if err != nil {
			t.Fatal(err)
		}
		if tab.EndpointIsNode() != tc.endpoint || tab.StifflyAccurate() != tc.stiff || tab.Explicit() != tc.explicit {
			t.Errorf("%s: EndpointIsNode %v StifflyAccurate %v Explicit %v, want %v %v %v", tab.Name,
				tab.EndpointIsNode(), tab.StifflyAccurate(), tab.Explicit(), tc.endpoint, tc.stiff, tc.explicit)
		}
		if tab.Family != tc.f {
			t.Errorf("%s: Family %v, want %v", tab.Name, tab.Family, tc.f)
		}
	}
	// Lobatto IIIA: first row of A is exactly zero (c_1 = 0, collocation).
	la, _ := LobattoIIIA(5)
	for j, v := range la.A[0] {
		if v != 0 {
			t.Errorf("LobattoIIIA(5).A[0][%d] = %g, want 0", j, v)
		}
	}
	// Lobatto IIIC: a_i1 = b_1 exactly (its definition).
	lc, _ := LobattoIIIC(5)
	for i := range lc.A {
		if lc.A[i][0] != lc.B[0] {
			t.Errorf("LobattoIIIC(5).A[%d][0] = %g, want b_1 = %g", i, lc.A[i][0], lc.B[0])
		}
	}
}

func TestFamilyString(t *testing.T) {
	want := map[Family]string{
		FamilyRadauIIA: "RadauIIA", FamilyGaussLegendre: "GaussLegendre", FamilyRadauIA: "RadauIA",
		FamilyLobattoIIIA: "LobattoIIIA", FamilyLobattoIIIC: "LobattoIIIC", FamilyExplicit: "Explicit",
		Family(99): "Family(99)", Family(-1): "Family(-1)",
	}
	for f, w := range want {
		if f.String() != w {
			t.Errorf("Family(%d).String() = %q, want %q", int(f), f.String(), w)
		}
	}
}
