package ad

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// substCase builds an expression using every operation of the table over
// the symbols x (3 of them), so that Substitute is checked against each
// rebuild rule.
func substExprs(x Vec) Vec {
	g := x[0].g
	a, b, c := x[0], x[1], x[2]
	return Vec{
		a.Add(b), a.Sub(b), a.Mul(b), a.mulZ(c), a.Div(b.AddConst(3)), a.Neg(),
		Sq(a), Pow(b.AddConst(3), 1.7), PowExpr(b.AddConst(3), a), Sqrt(b.AddConst(3)),
		Exp(a), Log(c.AddConst(3)), Sin(a), Cos(b), Tan(c.Scale(0.3)), Atan(a),
		Atan2(a, b.AddConst(4)), Tanh(c), Abs(a), Sign(b), Min(a, b), Max(b, c),
		Gt(a, b), Ge(b, c), IfElse(a.Sub(c), Sq(b), Exp(c)),
		a.Mul(b).Add(Sin(c).Mul(a)).Div(g.Const(2)),
	}
}

func TestSubstituteCoversEveryOp(t *testing.T) {
	g := NewGraph()
	x := g.SymVec("x", 3)
	seen := map[op]bool{}
	for _, e := range substExprs(x) {
		s := newSweep(g, Vec{e})
		for _, id := range s.cone {
			seen[g.nodes[id].op] = true
		}
	}
	for o := opAdd; o < numOps; o++ {
		if !seen[o] {
			t.Errorf("operation %s not exercised by the substitution test", ops[o].name)
		}
	}
}

// TestSubstituteValues checks that f(x)|x←e(y) evaluated at y equals f
// evaluated at x = e(y) (reference: direct evaluation of the unsubstituted
// expression at the substituted values).
func TestSubstituteValues(t *testing.T) {
	g := NewGraph()
	x := g.SymVec("x", 3)
	y := g.SymVec("y", 2)
	f := substExprs(x)
	to := Vec{y[0].Mul(y[1]), Sin(y[0]).Add(y[1]), y[1].Scale(2).AddConst(0.5)}
	fs, err := Substitute(f, x, to)
	if err != nil {
		t.Fatal(err)
	}
	ff := mustFunc(t, x, A("f", f...))
	fy, err := NewFunction("fy", []Arg{{Name: "y", V: y}}, []Arg{A("f", fs...), A("to", to...)})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		yv := []float64{randIn(r, -1, 1), randIn(r, -1, 1)}
		got := eval1(t, fy, yv)
		want := eval1(t, ff, got[1])
		for i := range want[0] {
			if !closeTo(got[0][i], want[0][i], 1e-13) {
				t.Fatalf("trial %d output %d: substituted %v, direct %v", trial, i, got[0][i], want[0][i])
			}
		}
	}
}

// TestSubstituteDerivatives checks the chain rule through a substitution:
// the Jacobian of f(e(y)) w.r.t. y equals J_f(e(y))·J_e(y) (reference:
// product of the separately computed Jacobians) for the smooth outputs.
func TestSubstituteDerivatives(t *testing.T) {
	g := NewGraph()
	x := g.SymVec("x", 3)
	y := g.SymVec("y", 2)
	all := substExprs(x)
	// smooth outputs only (at generic points the nonsmooth ones have a
	// piecewise derivative that the same rule gives, but FD would not be
	// a clean reference across kinks)
	f := Vec{all[0], all[2], all[4], all[7], all[8], all[10], all[12], all[16], all[25]}
	to := Vec{y[0].Mul(y[1]), Sin(y[0]).Add(y[1]), y[1].Scale(2).AddConst(0.5)}
	fs, err := Substitute(f, x, to)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []Mode{Forward, Reverse} {
		jy, err := JacobianMode(fs, y, mode)
		if err != nil {
			t.Fatal(err)
		}
		jx, err := JacobianMode(f, x, mode)
		if err != nil {
			t.Fatal(err)
		}
		je, err := JacobianMode(to, y, mode)
		if err != nil {
			t.Fatal(err)
		}
		fy, err := NewFunction("jy", []Arg{{Name: "y", V: y}}, []Arg{A("jy", jy.E...), A("je", je.E...), A("to", to...)})
		if err != nil {
			t.Fatal(err)
		}
		fx := mustFunc(t, x, A("jx", jx.E...))
		r := rand.New(rand.NewPCG(3, 4))
		for trial := 0; trial < 20; trial++ {
			yv := []float64{randIn(r, -1, 1), randIn(r, 0.1, 1)}
			o := eval1(t, fy, yv)
			jxv := eval1(t, fx, o[2])[0]
			for i := range f {
				for k := range y {
					want := 0.0
					for j := range x {
						want += jxv[i*len(x)+j] * o[1][j*len(y)+k]
					}
					if got := o[0][i*len(y)+k]; !closeTo(got, want, 1e-11) {
						t.Fatalf("mode %d output %d wrt y%d: %v, chain rule %v", mode, i, k, got, want)
					}
				}
			}
		}
	}
}

func TestSubstituteStructure(t *testing.T) {
	g := NewGraph()
	x := g.SymVec("x", 2)
	z := g.Sym("z")
	f := Vec{x[0].Mul(x[1]), Sin(z), x[0].Add(z)}
	// Substituting 0 simplifies; untouched nodes are reused.
	out, err := Substitute(f, Vec{x[0]}, Vec{g.Const(0)})
	if err != nil {
		t.Fatal(err)
	}
	if !out[0].IsZero() {
		t.Errorf("x0·x1 with x0 = 0: got %v, want 0", out[0])
	}
	if out[1] != f[1] {
		t.Errorf("sin z rebuilt although independent of x")
	}
	if out[2] != z {
		t.Errorf("0 + z = %v, want z", out[2])
	}
	// Simultaneous replacement (swap).
	sw, err := Substitute(Vec{x[0].Sub(x[1])}, x, Vec{x[1], x[0]})
	if err != nil {
		t.Fatal(err)
	}
	if sw[0] != x[1].Sub(x[0]) {
		t.Errorf("swap: got %v", sw[0])
	}
	// Hash-consing: substituting back gives the same node.
	w := g.Sym("w")
	h := Vec{Exp(x[0]).Mul(Cos(x[1]))}
	h2, _ := Substitute(h, Vec{x[0]}, Vec{w})
	h3, _ := Substitute(h2, Vec{w}, Vec{x[0]})
	if h3[0] != h[0] {
		t.Errorf("round trip gives a new node %v", h3[0])
	}
	// Inputs not modified.
	if f[0] != x[0].Mul(x[1]) {
		t.Errorf("input modified")
	}
}

func TestSubstituteErrors(t *testing.T) {
	g := NewGraph()
	x := g.SymVec("x", 2)
	other := NewGraph().Sym("o")
	f := Vec{x[0].Add(x[1])}
	cases := []struct {
		name     string
		from, to Vec
		exprs    Vec
		want     error
	}{
		{"length", x, Vec{x[0]}, f, ErrDimension},
		{"not a symbol", Vec{x[0].Add(x[1])}, Vec{x[0]}, f, ErrNotSymbol},
		{"duplicate", Vec{x[0], x[0]}, Vec{x[1], x[1]}, f, ErrDuplicateSymbol},
		{"foreign replacement", Vec{x[0]}, Vec{other}, f, ErrForeignGraph},
		{"foreign symbol", Vec{other}, Vec{x[0]}, f, ErrForeignGraph},
		{"zero expr", Vec{x[0]}, Vec{{}}, f, ErrForeignGraph},
	}
	for _, c := range cases {
		if _, err := Substitute(c.exprs, c.from, c.to); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
	if out, err := Substitute(nil, x, x); err != nil || len(out) != 0 {
		t.Errorf("empty exprs: %v %v", out, err)
	}
}

// TestSubstituteSolve checks values and forward derivatives of a
// substituted SolveSym result against finite differences.
func TestSubstituteSolve(t *testing.T) {
	g := NewGraph()
	q := g.Sym("q")
	p := g.Sym("p")
	m, _ := NewMat(2, 2, Cos(q).AddConst(3), Sin(q), Sin(q), g.Const(2))
	sol, err := SolveSym(m, Vec{q, g.Const(1)})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := Substitute(sol, Vec{q}, Vec{Sq(p)})
	if err != nil {
		t.Fatal(err)
	}
	d, err := JacobianMode(sub, Vec{p}, Forward)
	if err != nil {
		t.Fatal(err)
	}
	fn, err := NewFunction("s", []Arg{{Name: "p", V: Vec{p}}}, []Arg{A("x", sub...), A("d", d.E...)})
	if err != nil {
		t.Fatal(err)
	}
	ev := func(pv float64) [][]float64 { return eval1(t, fn, []float64{pv}) }
	pv := 0.7
	o := ev(pv)
	// reference: solve the 2×2 system by Cramer's rule at q = p².
	qv := pv * pv
	a11, a12, a22 := math.Cos(qv)+3, math.Sin(qv), 2.0
	det := a11*a22 - a12*a12
	x0 := (qv*a22 - a12*1) / det
	if !closeTo(o[0][0], x0, 1e-13) {
		t.Errorf("value %v, Cramer %v", o[0][0], x0)
	}
	const hfd = 1e-6
	for i := range sub {
		fd := (ev(pv + hfd)[0][i] - ev(pv - hfd)[0][i]) / (2 * hfd)
		if !closeTo(o[1][i], fd, 1e-7) {
			t.Errorf("d x%d/dp = %v, FD %v", i, o[1][i], fd)
		}
	}
}

func BenchmarkSubstitute(b *testing.B) {
	g := NewGraph()
	x := g.SymVec("x", 3)
	y := g.SymVec("y", 3)
	f := substExprs(x)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Substitute(f, x, y); err != nil {
			b.Fatal(err)
		}
	}
}
