package rk

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// linearStepDifferential takes one step of x' = Mx in the differential form:
// (I − h A⊗M) K = 1⊗(M x0), x1 = x0 + h Σ_j b_j K_j.
func linearStepDifferential(t *testing.T, tab *Tableau, M *mat.Dense, x0 []float64, h float64) []float64 {
	n, s := len(x0), tab.Stages()
	J := mat.NewDense(s*n, s*n, nil)
	rhs := mat.NewVecDense(s*n, nil)
	mx := mat.NewVecDense(n, nil)
	mx.MulVec(M, mat.NewVecDense(n, x0))
	for i := 0; i < s; i++ {
		for a := 0; a < n; a++ {
			rhs.SetVec(i*n+a, mx.AtVec(a))
			for j := 0; j < s; j++ {
				for b := 0; b < n; b++ {
					v := -h * tab.A[i][j] * M.At(a, b)
					if i == j && a == b {
						v++
					}
					J.Set(i*n+a, j*n+b, v)
				}
			}
		}
	}
	var K mat.VecDense
	if err := K.SolveVec(J, rhs); err != nil {
		t.Fatal(err)
	}
	x1 := append([]float64(nil), x0...)
	for j := 0; j < s; j++ {
		for a := 0; a < n; a++ {
			x1[a] += h * tab.B[j] * K.AtVec(j*n+a)
		}
	}
	return x1
}

// linearStepIntegral takes one step of x' = Mx in the integral form: for each
// stage j, Σ_{r≥1} C[r][j]·X_r − h M X_j = −C[0][j]·x0; x1 = Σ_r D[r]·x_r.
func linearStepIntegral(t *testing.T, in *Integral, M *mat.Dense, x0 []float64, h float64) []float64 {
	n, s := len(x0), len(in.B)
	J := mat.NewDense(s*n, s*n, nil)
	rhs := mat.NewVecDense(s*n, nil)
	for j := 0; j < s; j++ { // equation (stage) j
		for a := 0; a < n; a++ {
			rhs.SetVec(j*n+a, -in.C[0][j]*x0[a])
			for r := 1; r <= s; r++ { // unknown X_r
				for b := 0; b < n; b++ {
					var v float64
					if a == b {
						v = in.C[r][j]
					}
					if r-1 == j {
						v -= h * M.At(a, b)
					}
					J.Set(j*n+a, (r-1)*n+b, v)
				}
			}
		}
	}
	var X mat.VecDense
	if err := X.SolveVec(J, rhs); err != nil {
		t.Fatal(err)
	}
	x1 := make([]float64, n)
	for a := 0; a < n; a++ {
		x1[a] = in.D[0] * x0[a]
		for r := 1; r <= s; r++ {
			x1[a] += in.D[r] * X.AtVec((r-1)*n+a)
		}
	}
	return x1
}

// TestIntegralMatchesDifferential: both representations of a collocation
// method define the same step; on x' = Mx the two linear stage systems must
// give the same x_{n+1}.
func TestIntegralMatchesDifferential(t *testing.T) {
	const tol = 1e-13 // absolute, |x| = O(1)
	M := mat.NewDense(2, 2, []float64{-1, 2, -3, -0.5})
	x0 := []float64{1, -0.5}
	var worst float64
	for _, f := range []Family{FamilyRadauIIA, FamilyGaussLegendre} {
		for s := 1; s <= 9; s++ {
			for _, h := range []float64{0.1, 0.7} {
				tab, err := New(f, s)
				if err != nil {
					t.Fatal(err)
				}
				in, err := tab.Integral()
				if err != nil {
					t.Fatalf("%s: %v", tab.Name, err)
				}
				xd := linearStepDifferential(t, tab, M, x0, h)
				xi := linearStepIntegral(t, in, M, x0, h)
				for a := range xd {
					d := math.Abs(xd[a] - xi[a])
					worst = math.Max(worst, d)
					if d > tol {
						t.Errorf("%s h=%g: x1[%d] differential %.17g, integral %.17g (|diff| %.2g)", tab.Name, h, a, xd[a], xi[a], d)
					}
				}
			}
		}
	}
	t.Logf("largest difference %.2g", worst)
}

// TestIntegralStructure checks the defining properties of C, D, B: the
// derivative of the interpolant of 1 and of τ is 0 and 1 (Σ_r C[r][j] = 0,
// Σ_r C[r][j]·τ_r = 1 — exact for degree ≤ s, so also τ^k, k ≤ s), D reproduces
// polynomials of degree ≤ s at τ = 1, D = e_s for Radau IIA, and B = b.
func TestIntegralStructure(t *testing.T) {
	const tol = 1e-11 // absolute; entries of C grow like s², sums of O(s) of them
	for _, f := range []Family{FamilyRadauIIA, FamilyGaussLegendre} {
		for s := 1; s <= MaxStages; s++ {
			tab, _ := New(f, s)
			in, err := tab.Integral()
			if err != nil {
				t.Fatal(err)
			}
			if len(in.C) != s+1 || len(in.C[0]) != s || len(in.D) != s+1 || len(in.B) != s {
				t.Fatalf("%s: shapes C %dx%d, D %d, B %d", tab.Name, len(in.C), len(in.C[0]), len(in.D), len(in.B))
			}
			tau := append([]float64{0}, tab.C...)
			for k := 0; k <= s; k++ {
				for j := 0; j < s; j++ {
					var sum float64
					for r := 0; r <= s; r++ {
						sum += in.C[r][j] * math.Pow(tau[r], float64(k))
					}
					want := float64(k) * math.Pow(tab.C[j], float64(k-1)) // d/dτ τ^k at c_j
					if k == 0 {
						want = 0
					}
					if d := math.Abs(sum - want); d > tol*math.Max(1, float64(k*k)) {
						t.Errorf("%s: Σ_r C[r][%d] τ_r^%d = %.15g, want %.15g", tab.Name, j, k, sum, want)
					}
				}
				var dsum float64
				for r := 0; r <= s; r++ {
					dsum += in.D[r] * math.Pow(tau[r], float64(k))
				}
				if math.Abs(dsum-1) > tol {
					t.Errorf("%s: Σ_r D[r] τ_r^%d = %.15g, want 1", tab.Name, k, dsum)
				}
			}
			for j := range in.B {
				if in.B[j] != tab.B[j] {
					t.Errorf("%s: B[%d] = %g, want b = %g", tab.Name, j, in.B[j], tab.B[j])
				}
			}
			if f == FamilyRadauIIA {
				for r, d := range in.D {
					if want := map[bool]float64{true: 1, false: 0}[r == s]; d != want {
						t.Errorf("%s: D[%d] = %g, want exactly %g", tab.Name, r, d, want)
					}
				}
			}
		}
	}
}

func TestIntegralUnsupported(t *testing.T) {
	cases := []func() (*Tableau, error){
		func() (*Tableau, error) { return RadauIA(3) },           // not collocation
		func() (*Tableau, error) { return LobattoIIIC(3) },       // not collocation
		func() (*Tableau, error) { return LobattoIIIA(3) },       // c_1 = 0 coincides with τ_0
		func() (*Tableau, error) { return RK4(), nil },           // explicit, C(4) fails
		func() (*Tableau, error) { return ExplicitEuler(), nil }, // c_1 = 0
		func() (*Tableau, error) { return RadauIA(1) },           // C(1) fails
	}
	for i, mk := range cases {
		tab, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tab.Integral(); !errors.Is(err, ErrNoIntegral) {
			t.Errorf("case %d (%s): err = %v, want ErrNoIntegral", i, tab.Name, err)
		}
	}
	// A corrupted collocation tableau is rejected by Validate first.
	bad, _ := GaussLegendre(2)
	bad.B = bad.B[:1]
	if _, err := bad.Integral(); !errors.Is(err, ErrInvalid) {
		t.Errorf("truncated B: err = %v, want ErrInvalid", err)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		f    Family
		s    int
		want error
	}{
		{FamilyRadauIIA, 0, ErrStages},
		{FamilyRadauIIA, -1, ErrStages},
		{FamilyRadauIIA, MaxStages + 1, ErrStages},
		{FamilyGaussLegendre, 0, ErrStages},
		{FamilyGaussLegendre, 1000, ErrStages},
		{FamilyRadauIA, -3, ErrStages},
		{FamilyRadauIA, MaxStages + 1, ErrStages},
		{FamilyLobattoIIIA, 1, ErrStages},
		{FamilyLobattoIIIC, 1, ErrStages},
		{FamilyLobattoIIIA, 0, ErrStages},
		{FamilyLobattoIIIC, MaxStages + 1, ErrStages},
		{FamilyExplicit, 3, ErrStages},
		{FamilyExplicit, 0, ErrStages},
		{Family(42), 2, ErrFamily},
		{Family(-1), 2, ErrFamily},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%v/%d", tc.f, tc.s), func(t *testing.T) {
			tab, err := New(tc.f, tc.s)
			if !errors.Is(err, tc.want) || tab != nil {
				t.Errorf("New(%v, %d) = %v, %v; want nil, %v", tc.f, tc.s, tab, err, tc.want)
			}
			if err != nil && err.Error()[:4] != "rk: " {
				t.Errorf("error %q lacks the \"rk: \" prefix", err)
			}
		})
	}
	// The named constructors report the same errors.
	for _, mk := range []func(int) (*Tableau, error){RadauIIA, GaussLegendre, RadauIA, LobattoIIIA, LobattoIIIC} {
		if _, err := mk(0); !errors.Is(err, ErrStages) {
			t.Errorf("constructor(0): err = %v", err)
		}
	}
	if _, err := LobattoIIIA(1); !errors.Is(err, ErrStages) {
		t.Errorf("LobattoIIIA(1): err = %v", err)
	}
	if _, err := Nodes(FamilyExplicit, 2); !errors.Is(err, ErrFamily) {
		t.Errorf("Nodes(Explicit): err = %v", err)
	}
}

func TestValidateRejects(t *testing.T) {
	mk := func(edit func(*Tableau)) *Tableau {
		tab, _ := RadauIIA(3)
		edit(tab)
		return tab
	}
	cases := map[string]*Tableau{
		"empty":         {},
		"short C":       mk(func(t *Tableau) { t.C = t.C[:2] }),
		"ragged A":      mk(func(t *Tableau) { t.A[1] = t.A[1][:2] }),
		"NaN":           mk(func(t *Tableau) { t.A[0][1] = math.NaN() }),
		"Inf b":         mk(func(t *Tableau) { t.B[0] = math.Inf(1) }),
		"order 0":       mk(func(t *Tableau) { t.Order = 0 }),
		"order too big": mk(func(t *Tableau) { t.Order = 6 }),      // B(6) fails for Radau IIA s=3
		"stage order":   mk(func(t *Tableau) { t.StageOrder = 4 }), // C(4) fails
		"perturbed b":   mk(func(t *Tableau) { t.B[0] += 1e-6 }),
	}
	for name, tab := range cases {
		if err := tab.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Validate = %v, want ErrInvalid", name, err)
		}
	}
}
