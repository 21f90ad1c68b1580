package ad

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
)

// patternSet returns the (row, col) pairs of a pattern.
func patternSet(s *Sparsity) map[[2]int]bool {
	r, c := s.Coords()
	m := map[[2]int]bool{}
	for k := range r {
		m[[2]int{r[k], c[k]}] = true
	}
	return m
}

func checkPattern(t *testing.T, name string, s *Sparsity, want map[[2]int]bool) {
	t.Helper()
	got := patternSet(s)
	if !reflect.DeepEqual(got, want) {
		var miss, extra [][2]int
		for k := range want {
			if !got[k] {
				miss = append(miss, k)
			}
		}
		for k := range got {
			if !want[k] {
				extra = append(extra, k)
			}
		}
		t.Errorf("%s: missing %v, false nonzeros %v\n%v", name, miss, extra, s)
	}
	// CSC invariants: rows ascending within columns.
	for j := 0; j < s.Cols; j++ {
		if !sort.IntsAreSorted(s.RowIdx[s.ColPtr[j]:s.ColPtr[j+1]]) {
			t.Errorf("%s: column %d rows not ascending", name, j)
		}
	}
	// CSR, Coords and Index agree.
	rowPtr, colIdx, perm := s.CSR()
	r, c := s.Coords()
	for i := 0; i < s.Rows; i++ {
		for p := rowPtr[i]; p < rowPtr[i+1]; p++ {
			k := perm[p]
			if r[k] != i || c[k] != colIdx[p] || s.Index(i, colIdx[p]) != k {
				t.Errorf("%s: CSR entry %d inconsistent", name, p)
			}
		}
	}
}

// TestSparsityStructured: exact Jacobian and Lagrangian-Hessian patterns of
// structured functions; the references are derived by hand in the comments.
func TestSparsityStructured(t *testing.T) {
	t.Run("x1*x2 Hessian has no diagonal", func(t *testing.T) {
		g := NewGraph()
		x := g.SymVec("x", 2)
		H, err := LagrangianHessian(x, g.Const(1), x[0].Mul(x[1]), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkPattern(t, "H", H.Pattern, map[[2]int]bool{{1, 0}: true})
	})
	t.Run("block diagonal", func(t *testing.T) {
		// f_i = sin(x_{2i})·x_{2i+1}: J has (i, 2i), (i, 2i+1);
		// ∇²f_i has (2i,2i) = −sin·x, (2i+1,2i) = cos, (2i+1,2i+1) = 0.
		const nb = 5
		g := NewGraph()
		x := g.SymVec("x", 2*nb)
		f := make(Vec, nb)
		lam := g.SymVec("l", nb)
		wantJ, wantH := map[[2]int]bool{}, map[[2]int]bool{}
		for i := range f {
			f[i] = Sin(x[2*i]).Mul(x[2*i+1])
			wantJ[[2]int{i, 2 * i}] = true
			wantJ[[2]int{i, 2*i + 1}] = true
			wantH[[2]int{2 * i, 2 * i}] = true
			wantH[[2]int{2*i + 1, 2 * i}] = true
		}
		for _, mode := range []Mode{Forward, Reverse} {
			J, err := JacobianMode(f, x, mode)
			if err != nil {
				t.Fatal(err)
			}
			checkPattern(t, fmt.Sprint("J mode ", mode), Sparse(J).Pattern, wantJ)
		}
		H, err := LagrangianHessian(x, Expr{}, Expr{}, lam, f)
		if err != nil {
			t.Fatal(err)
		}
		checkPattern(t, "H", H.Pattern, wantH)
	})
	t.Run("banded", func(t *testing.T) {
		// f_i = x_{i−1} − 2x_i + x_{i+1} + x_i³: tridiagonal J, diagonal ∇²(λᵀf).
		const n = 8
		g := NewGraph()
		x := g.SymVec("x", n)
		lam := g.SymVec("l", n)
		f := make(Vec, n)
		wantJ, wantH := map[[2]int]bool{}, map[[2]int]bool{}
		for i := range f {
			e := x[i].Scale(-2).Add(PowInt(x[i], 3))
			wantJ[[2]int{i, i}] = true
			wantH[[2]int{i, i}] = true
			if i > 0 {
				e = e.Add(x[i-1])
				wantJ[[2]int{i, i - 1}] = true
			}
			if i < n-1 {
				e = e.Add(x[i+1])
				wantJ[[2]int{i, i + 1}] = true
			}
			f[i] = e
		}
		J, _ := JacobianSparse(f, x)
		checkPattern(t, "J", J.Pattern, wantJ)
		H, _ := LagrangianHessian(x, Expr{}, Expr{}, lam, f)
		checkPattern(t, "H", H.Pattern, wantH)
	})
	t.Run("FESD stage block", func(t *testing.T) {
		// One finite element, Radau IIA with 2 stages (A = [5/12 −1/12;
		// 3/4 1/4], Hairer–Wanner II, Table 5.5), PSS dynamics
		// f(x, θ) = (x₁θ₀, −x₀ + θ₁). Stage residuals
		// r_k = X_k − x₀ − h Σ_j a_kj f(X_j, θ_j), variables
		// w = (x₀ (0–1), X₁ (2–3), X₂ (4–5), θ₁ (6–7), θ₂ (8–9), h (10)).
		g := NewGraph()
		w := g.SymVec("w", 11)
		x0, X, th, h := w[0:2], []Vec{w[2:4], w[4:6]}, []Vec{w[6:8], w[8:10]}, w[10]
		rk := [2][2]float64{{5.0 / 12, -1.0 / 12}, {3.0 / 4, 1.0 / 4}}
		f := func(x, t Vec) Vec { return Vec{x[1].Mul(t[0]), x[0].Neg().Add(t[1])} }
		var r Vec
		wantJ, wantH := map[[2]int]bool{}, map[[2]int]bool{}
		lower := func(i, j int) [2]int {
			if i < j {
				i, j = j, i
			}
			return [2]int{i, j}
		}
		for k := 0; k < 2; k++ {
			for c := 0; c < 2; c++ {
				s := X[k][c].Sub(x0[c])
				for j := 0; j < 2; j++ {
					s = s.Sub(h.Mul(f(X[j], th[j])[c].Scale(rk[k][j])))
				}
				r = append(r, s)
				row := 2*k + c
				wantJ[[2]int{row, c}] = true           // −x₀
				wantJ[[2]int{row, 2 + 2*k + c}] = true // X_k
				wantJ[[2]int{row, 10}] = true          // h
				for j := 0; j < 2; j++ {
					if c == 0 { // h a x_{j,1} θ_{j,0}
						wantJ[[2]int{row, 2 + 2*j + 1}] = true
						wantJ[[2]int{row, 6 + 2*j}] = true
					} else { // h a (−x_{j,0} + θ_{j,1})
						wantJ[[2]int{row, 2 + 2*j}] = true
						wantJ[[2]int{row, 6 + 2*j + 1}] = true
					}
				}
			}
		}
		for j := 0; j < 2; j++ {
			xj1, tj0 := 2+2*j+1, 6+2*j
			wantH[lower(xj1, tj0)] = true // x_{j,1}θ_{j,0}
			wantH[lower(10, xj1)] = true  // h·x_{j,1}θ_{j,0}
			wantH[lower(10, tj0)] = true
			wantH[lower(10, 2+2*j)] = true   // h·x_{j,0}
			wantH[lower(10, 6+2*j+1)] = true // h·θ_{j,1}
		}
		J, err := JacobianSparse(r, w)
		if err != nil {
			t.Fatal(err)
		}
		checkPattern(t, "J", J.Pattern, wantJ)
		lam := g.SymVec("l", len(r))
		H, err := LagrangianHessian(w, Expr{}, Expr{}, lam, r)
		if err != nil {
			t.Fatal(err)
		}
		checkPattern(t, "H", H.Pattern, wantH)
		// Values: compiled Hessian equals the lower triangle of the dense
		// Hessian of λᵀr (1e-14).
		L, _ := Dot(lam, r)
		Hd, _ := Hessian(L, w)
		fn, err := NewFunction("h", []Arg{A("w", w...), A("l", lam...)}, []Arg{A("sparse", H.Values...), A("dense", Hd.E...)})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, 8))
		wv, lv := make([]float64, 11), make([]float64, 4)
		for i := range wv {
			wv[i] = randIn(rng, -1, 1)
		}
		for i := range lv {
			lv[i] = randIn(rng, -1, 1)
		}
		sp, de := make([]float64, H.Pattern.NNZ()), make([]float64, 121)
		if err := fn.Eval(fn.NewWorkspace(), [][]float64{wv, lv}, [][]float64{sp, de}); err != nil {
			t.Fatal(err)
		}
		rr, cc := H.Pattern.Coords()
		for k := range sp {
			if !closeTo(sp[k], de[rr[k]*11+cc[k]], 1e-14) {
				t.Errorf("H(%d,%d) sparse %v dense %v", rr[k], cc[k], sp[k], de[rr[k]*11+cc[k]])
			}
		}
	})
}
