package ad

import (
	"math"
	"math/rand/v2"
	"testing"
)

// privateModel builds y(x, p) with a recorded linear solve, a branch, a
// power and transcendental functions, after some unrelated nodes so that the
// cone's ids are not contiguous.
func privateModel(t *testing.T) (g *Graph, x, p, y Vec) {
	t.Helper()
	g = NewGraph()
	junk := g.SymVec("junk", 3)
	_ = Exp(junk[0].Mul(junk[1])).Add(Sin(junk[2]))
	x = g.SymVec("x", 3)
	p = g.SymVec("p", 1)
	_ = Cos(x[0].Mul(junk[1]))
	m, err := NewMat(2, 2, x[0].AddConst(3), Sin(x[1]), x[2].Mul(p[0]), Sq(x[1]).AddConst(4))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Solve(m, Vec{x[2], p[0].Mul(x[0])})
	if err != nil {
		t.Fatal(err)
	}
	y = Vec{
		s[0].Mul(s[1]).Add(Pow(x[0].AddConst(2), 2.5)),
		IfElse(Gt(x[1], g.Const(0)), Exp(x[2]).Mul(x[1]), Log(Sq(x[0]).AddConst(1))),
		Atan2(s[1], x[2].AddConst(2)).Add(Tanh(p[0].Mul(x[1]))),
	}
	return g, x, p, y
}

// TestNewDerivativesPrivateGraph: NewDerivatives builds the derivatives in a
// private copy of the cone, so it adds no node to the caller's graph, and
// the compiled Jacobian and Hessian have the pattern and (bit for bit) the
// values of the same derivatives built and compiled in the caller's graph.
func TestNewDerivativesPrivateGraph(t *testing.T) {
	g, x, p, y := privateModel(t)
	n0 := g.NumNodes()
	in := []Arg{A("x", x...), A("p", p...)}
	d, err := NewDerivatives("m", in, []Arg{A("y", y...)}, "x")
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes() != n0 {
		t.Errorf("NewDerivatives added %d nodes to the caller's graph", g.NumNodes()-n0)
	}
	// Reference: the same construction in the caller's graph.
	J, err := JacobianSparse(y, x)
	if err != nil {
		t.Fatal(err)
	}
	lam := g.SymVec("lambda", len(y))
	H, err := LagrangianHessian(x, Expr{}, Expr{}, lam, y)
	if err != nil {
		t.Fatal(err)
	}
	jf, err := NewFunction("jref", in, []Arg{A("jac", J.Values...)})
	if err != nil {
		t.Fatal(err)
	}
	hf, err := NewFunction("href", append(append([]Arg{}, in...), A("lambda", lam...)), []Arg{A("hess", H.Values...)})
	if err != nil {
		t.Fatal(err)
	}
	if d.JacPattern.String() != J.Pattern.String() || d.HessPattern.String() != H.Pattern.String() {
		t.Fatalf("patterns differ:\n%s vs\n%s\n%s vs\n%s", d.JacPattern, J.Pattern, d.HessPattern, H.Pattern)
	}
	r := rand.New(rand.NewPCG(1, 2))
	ws := NewWorkspace()
	for trial := range 5 {
		xv := []float64{randIn(r, -1, 1), randIn(r, -1, 1), randIn(r, -1, 1)}
		if trial%2 == 0 {
			xv[1] = -xv[1] // both branches of IfElse
		}
		pv := []float64{randIn(r, 0.5, 2)}
		lv := []float64{randIn(r, -2, 2), randIn(r, -2, 2), randIn(r, -2, 2)}
		j1, j2 := make([]float64, J.Pattern.NNZ()), make([]float64, J.Pattern.NNZ())
		h1, h2 := make([]float64, H.Pattern.NNZ()), make([]float64, H.Pattern.NNZ())
		for _, e := range []error{
			d.Jac.Eval(ws, [][]float64{xv, pv}, [][]float64{j1}),
			jf.Eval(ws, [][]float64{xv, pv}, [][]float64{j2}),
			d.Hess.Eval(ws, [][]float64{xv, pv, lv}, [][]float64{h1}),
			hf.Eval(ws, [][]float64{xv, pv, lv}, [][]float64{h2}),
		} {
			if e != nil {
				t.Fatal(e)
			}
		}
		for k := range j1 {
			if math.Float64bits(j1[k]) != math.Float64bits(j2[k]) {
				t.Errorf("x = %v: Jacobian entry %d: %v, in-graph %v", xv, k, j1[k], j2[k])
			}
		}
		for k := range h1 {
			if math.Float64bits(h1[k]) != math.Float64bits(h2[k]) {
				t.Errorf("x = %v: Hessian entry %d: %v, in-graph %v", xv, k, h1[k], h2[k])
			}
		}
	}
}

// TestCopyArgsSolve: the copy records the linear solve again, so forward
// mode differentiates it implicitly in the copy as in the original (the
// same Jacobian, bit for bit), and symbols keep their names.
func TestCopyArgsSolve(t *testing.T) {
	g, x, p, y := privateModel(t)
	if len(g.solves) != 1 {
		t.Fatalf("%d recorded solves, want 1", len(g.solves))
	}
	h, c := copyArgs(g, []Arg{A("x", x...), A("p", p...)}, []Arg{A("y", y...)})
	if len(h.solves) != 1 {
		t.Fatalf("copy has %d recorded solves, want 1", len(h.solves))
	}
	x2, p2, y2 := c[0][0].V, c[0][1].V, c[1][0].V
	for i := range x {
		if x2[i].Name() != x[i].Name() || x2[i].Graph() != h {
			t.Errorf("symbol %d: %q in %p, want %q in the copy", i, x2[i].Name(), x2[i].Graph(), x[i].Name())
		}
	}
	ja, err := JacobianSparseMode(y, x, Forward)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := JacobianSparseMode(y2, x2, Forward)
	if err != nil {
		t.Fatal(err)
	}
	fa, err := NewFunction("a", []Arg{A("x", x...), A("p", p...)}, []Arg{A("j", ja.Values...)})
	if err != nil {
		t.Fatal(err)
	}
	fb, err := NewFunction("b", []Arg{A("x", x2...), A("p", p2...)}, []Arg{A("j", jb.Values...)})
	if err != nil {
		t.Fatal(err)
	}
	if fa.NumInstr() != fb.NumInstr() {
		t.Errorf("forward Jacobian: %d instructions in the copy, %d in the original", fb.NumInstr(), fa.NumInstr())
	}
	in := [][]float64{{0.3, -0.7, 0.4}, {1.3}}
	va, vb := make([]float64, ja.Pattern.NNZ()), make([]float64, jb.Pattern.NNZ())
	if err := fa.Eval(NewWorkspace(), in, [][]float64{va}); err != nil {
		t.Fatal(err)
	}
	if err := fb.Eval(NewWorkspace(), in, [][]float64{vb}); err != nil {
		t.Fatal(err)
	}
	for k := range va {
		if math.Float64bits(va[k]) != math.Float64bits(vb[k]) {
			t.Errorf("entry %d: copy %v, original %v", k, vb[k], va[k])
		}
	}
}
