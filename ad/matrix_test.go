package ad

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSolve compares Solve and SolveSym with gonum's LU solve (mat.Dense.Solve)
// on random matrices: general (with a structural zero forcing a row swap) and
// symmetric positive definite. Agreement 1e-10 relative.
func TestSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 3, 5} {
		g := NewGraph()
		m := g.SymVec("m", n*n)
		b := g.SymVec("b", n)
		M := Mat{R: n, C: n, E: append([]Expr(nil), m...)}
		M.E[0] = g.Const(0) // structural zero pivot: Solve must swap rows
		x, err := Solve(M, b)
		if n == 1 {
			if err == nil {
				t.Errorf("n=1: zero matrix solved")
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		xs, err := SolveSym(Mat{R: n, C: n, E: m}, b)
		if err != nil {
			t.Fatal(err)
		}
		fn, err := NewFunction("solve", []Arg{A("m", m...), A("b", b...)}, []Arg{A("x", x...), A("xs", xs...)})
		if err != nil {
			t.Fatal(err)
		}
		for trial := 0; trial < 5; trial++ {
			mv, bv := make([]float64, n*n), make([]float64, n)
			for i := range mv {
				mv[i] = randIn(rng, -1, 1)
			}
			for i := range bv {
				bv[i] = randIn(rng, -1, 1)
			}
			// SPD matrix S = RᵀR + I for the symmetric solve.
			R := mat.NewDense(n, n, append([]float64(nil), mv...))
			var S mat.Dense
			S.Mul(R.T(), R)
			for i := 0; i < n; i++ {
				S.Set(i, i, S.At(i, i)+1)
			}
			mv[0] = 0
			out := make([]float64, n)
			ws := fn.NewWorkspace()
			if err := fn.Eval(ws, [][]float64{mv, bv}, [][]float64{out, nil}); err != nil {
				t.Fatal(err)
			}
			var want mat.VecDense
			if err := want.SolveVec(mat.NewDense(n, n, mv), mat.NewVecDense(n, bv)); err != nil {
				t.Fatal(err)
			}
			for i := range out {
				if !closeTo(out[i], want.AtVec(i), 1e-10) {
					t.Errorf("n=%d Solve x[%d] = %v, want %v", n, i, out[i], want.AtVec(i))
				}
			}
			sv := append([]float64(nil), S.RawMatrix().Data...)
			if err := fn.Eval(ws, [][]float64{sv, bv}, [][]float64{nil, out}); err != nil {
				t.Fatal(err)
			}
			if err := want.SolveVec(&S, mat.NewVecDense(n, bv)); err != nil {
				t.Fatal(err)
			}
			for i := range out {
				if !closeTo(out[i], want.AtVec(i), 1e-10) {
					t.Errorf("n=%d SolveSym x[%d] = %v, want %v", n, i, out[i], want.AtVec(i))
				}
			}
		}
	}
}

// TestMatOps checks MatMul, MatVec, Transpose and Dot against gonum.
func TestMatOps(t *testing.T) {
	g := NewGraph()
	a := g.SymVec("a", 6) // 2×3
	b := g.SymVec("b", 6) // 3×2
	v := g.SymVec("v", 3)
	Am := Mat{R: 2, C: 3, E: a}
	B := Mat{R: 3, C: 2, E: b}
	AB, err := MatMul(Am, B)
	if err != nil {
		t.Fatal(err)
	}
	Av, err := MatVec(Am, v)
	if err != nil {
		t.Fatal(err)
	}
	BtT, err := MatMul(B.T(), Am.T()) // (AB)ᵀ
	if err != nil {
		t.Fatal(err)
	}
	d, err := Dot(Am.Row(0), v)
	if err != nil {
		t.Fatal(err)
	}
	fn, err := NewFunction("m", []Arg{A_("a", a), A_("b", b), A_("v", v)},
		[]Arg{A_("AB", AB.E), A_("Av", Av), A_("BtAt", BtT.E), A("d", d)})
	if err != nil {
		t.Fatal(err)
	}
	av := []float64{1, 2, 3, 4, 5, 6}
	bv := []float64{-1, 0.5, 2, 1, 0, 3}
	vv := []float64{0.5, -1, 2}
	out := [][]float64{make([]float64, 4), make([]float64, 2), make([]float64, 4), make([]float64, 1)}
	if err := fn.Eval(fn.NewWorkspace(), [][]float64{av, bv, vv}, out); err != nil {
		t.Fatal(err)
	}
	var ab, av2 mat.Dense
	ab.Mul(mat.NewDense(2, 3, av), mat.NewDense(3, 2, bv))
	av2.Mul(mat.NewDense(2, 3, av), mat.NewDense(3, 1, vv))
	for i := 0; i < 2; i++ {
		for j := 0; j < 2; j++ {
			if out[0][i*2+j] != ab.At(i, j) || out[2][j*2+i] != ab.At(i, j) {
				t.Errorf("AB[%d][%d] = %v / %v, want %v", i, j, out[0][i*2+j], out[2][j*2+i], ab.At(i, j))
			}
		}
		if out[1][i] != av2.At(i, 0) {
			t.Errorf("Av[%d] = %v, want %v", i, out[1][i], av2.At(i, 0))
		}
	}
	if out[3][0] != av2.At(0, 0) {
		t.Errorf("dot = %v, want %v", out[3][0], av2.At(0, 0))
	}
}

// A_ is A for a Vec argument.
func A_(name string, v Vec) Arg { return Arg{Name: name, V: v} }
