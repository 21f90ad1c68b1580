package ad

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
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

// TestSolveDerivatives: forward mode differentiates x = M⁻¹b implicitly
// (ẋ = M⁻¹(ḃ − Ṁx)), reverse mode through the elimination; both must agree
// (1e-10) and match central finite differences (gonum diff/fd, 1e-6), and
// the Lagrangian Hessian of λᵀx must match finite differences of the
// gradient (1e-5).
func TestSolveDerivatives(t *testing.T) {
	for _, sym := range []bool{false, true} {
		g := NewGraph()
		const n = 3
		p := g.SymVec("p", n*n+n)
		lam := g.SymVec("l", n)
		// M = P + 4I (diagonally dominant for p ∈ [−1, 1]); SolveSym reads
		// the lower triangle, so use the symmetric part for it.
		M := g.ZeroMat(n, n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				e := p[i*n+j]
				if sym && i < j {
					e = p[j*n+i]
				}
				if i == j {
					e = e.AddConst(4)
				}
				M.Set(i, j, Sin(e).AddConst(0).Add(e)) // nonlinear entries
			}
		}
		b := Vec{p[n*n].Mul(p[0]), Exp(p[n*n+1]), p[n*n+2]}
		var x Vec
		var err error
		if sym {
			x, err = SolveSym(M, b)
		} else {
			x, err = Solve(M, b)
		}
		if err != nil {
			t.Fatal(err)
		}
		Jf, _ := JacobianMode(x, p, Forward)
		Jr, _ := JacobianMode(x, p, Reverse)
		H, err := LagrangianHessian(p, Expr{}, Expr{}, lam, x)
		if err != nil {
			t.Fatal(err)
		}
		grad, _ := VJP(x, p, lam)
		fn, err := NewFunction("s", []Arg{A_("p", p), A_("l", lam)},
			[]Arg{A_("x", x), A_("jf", Jf.E), A_("jr", Jr.E), A_("h", H.Values), A_("g", grad)})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(9, 10))
		pv, lv := make([]float64, n*n+n), []float64{0.7, -1.1, 0.4}
		for i := range pv {
			pv[i] = randIn(rng, -1, 1)
		}
		ws := fn.NewWorkspace()
		out := [][]float64{make([]float64, n), make([]float64, n*len(p)), make([]float64, n*len(p)), make([]float64, H.Pattern.NNZ()), make([]float64, len(p))}
		eval := func(pp []float64) {
			if err := fn.Eval(ws, [][]float64{pp, lv}, out); err != nil {
				t.Fatal(err)
			}
		}
		eval(pv)
		jf := append([]float64(nil), out[1]...)
		jr := append([]float64(nil), out[2]...)
		hv := append([]float64(nil), out[3]...)
		var fdJ, fdH mat.Dense
		fdJ.ReuseAs(n, len(p))
		fd.Jacobian(&fdJ, func(y, pp []float64) { eval(pp); copy(y, out[0]) }, pv, &fd.JacobianSettings{Formula: fd.Central, Step: 1e-6})
		fdH.ReuseAs(len(p), len(p))
		fd.Jacobian(&fdH, func(y, pp []float64) { eval(pp); copy(y, out[4]) }, pv, &fd.JacobianSettings{Formula: fd.Central, Step: 1e-5})
		for i := 0; i < n; i++ {
			for j := range p {
				k := i*len(p) + j
				if !closeTo(jf[k], jr[k], 1e-10) || !closeTo(jf[k], fdJ.At(i, j), 1e-6) {
					t.Errorf("sym=%v ∂x%d/∂p%d: forward %v reverse %v fd %v", sym, i, j, jf[k], jr[k], fdJ.At(i, j))
				}
			}
		}
		rr, cc := H.Pattern.Coords()
		for k := range hv {
			if !closeTo(hv[k], fdH.At(rr[k], cc[k]), 1e-5) {
				t.Errorf("sym=%v H(%d,%d) = %v, fd %v", sym, rr[k], cc[k], hv[k], fdH.At(rr[k], cc[k]))
			}
		}
	}
}
