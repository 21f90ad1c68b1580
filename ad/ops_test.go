package ad

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

// opCase is a scalar function of x ∈ R³ exercising one operation; points are
// drawn uniformly from [lo, hi]³ and rejected by ok (to stay away from
// nondifferentiable points and outside the domain).
type opCase struct {
	name   string
	f      func(g *Graph, x Vec) Expr
	lo, hi float64
	ok     func(x []float64) bool
}

func away(a, b float64) bool { return math.Abs(a-b) > 0.05 }

var opCases = []opCase{
	{"add", func(g *Graph, x Vec) Expr { return x[0].Add(x[1]).Mul(x[2]) }, -2, 2, nil},
	{"sub", func(g *Graph, x Vec) Expr { return x[0].Sub(x[1]).Mul(x[2].Sub(x[0])) }, -2, 2, nil},
	{"mul", func(g *Graph, x Vec) Expr { return x[0].Mul(x[1]).Mul(x[2]) }, -2, 2, nil},
	{"div", func(g *Graph, x Vec) Expr { return x[0].Div(x[1]).Add(x[2].Div(x[0].Mul(x[1]))) }, 0.5, 2, nil},
	{"neg", func(g *Graph, x Vec) Expr { return x[0].Mul(x[1]).Neg().Mul(x[2]) }, -2, 2, nil},
	{"sq", func(g *Graph, x Vec) Expr { return Sq(x[0].Mul(x[1])).Add(x[2]) }, -2, 2, nil},
	{"powc", func(g *Graph, x Vec) Expr { return Pow(x[0].Mul(x[1]), 3.5).Add(Pow(x[2], -1.5)) }, 0.3, 2, nil},
	{"powint", func(g *Graph, x Vec) Expr { return PowInt(x[0], 3).Mul(PowInt(x[1], -2)).Add(PowInt(x[2], -1)) }, 0.3, 2, nil},
	{"pow", func(g *Graph, x Vec) Expr { return PowExpr(x[0], x[1].Mul(x[2])) }, 0.3, 2, nil},
	{"sqrt", func(g *Graph, x Vec) Expr { return Sqrt(x[0].Mul(x[1]).Add(x[2])) }, 0.3, 2, nil},
	{"exp", func(g *Graph, x Vec) Expr { return Exp(x[0].Mul(x[1])).Mul(x[2]) }, -1.5, 1.5, nil},
	{"log", func(g *Graph, x Vec) Expr { return Log(x[0].Mul(x[1])).Mul(x[2]) }, 0.3, 2, nil},
	{"sin", func(g *Graph, x Vec) Expr { return Sin(x[0].Mul(x[1])).Mul(x[2]) }, -2, 2, nil},
	{"cos", func(g *Graph, x Vec) Expr { return Cos(x[0].Mul(x[1])).Mul(x[2]) }, -2, 2, nil},
	{"sincos", func(g *Graph, x Vec) Expr { return Sin(x[0].Mul(x[1])).Mul(Cos(x[0].Mul(x[1]))).Add(x[2]) }, -3, 3, nil},
	{"tan", func(g *Graph, x Vec) Expr { return Tan(x[0].Mul(x[1])).Mul(x[2]) }, -1, 1, nil},
	{"atan", func(g *Graph, x Vec) Expr { return Atan(x[0].Mul(x[1])).Mul(x[2]) }, -2, 2, nil},
	{"atan2", func(g *Graph, x Vec) Expr { return Atan2(x[0].Mul(x[2]), x[1]) }, -2, 2,
		func(x []float64) bool { return math.Abs(x[1]) > 0.2 }},
	{"tanh", func(g *Graph, x Vec) Expr { return Tanh(x[0].Mul(x[1])).Mul(x[2]) }, -2, 2, nil},
	{"abs", func(g *Graph, x Vec) Expr { return Abs(x[0].Sub(x[1])).Mul(Sq(x[2])) }, -2, 2,
		func(x []float64) bool { return away(x[0], x[1]) }},
	{"sign", func(g *Graph, x Vec) Expr { return Sign(x[0]).Mul(Sq(x[1])).Add(x[2]) }, -2, 2,
		func(x []float64) bool { return away(x[0], 0) }},
	{"min", func(g *Graph, x Vec) Expr { return Min(Sq(x[0]), x[1].Mul(x[2])) }, -2, 2,
		func(x []float64) bool { return away(x[0]*x[0], x[1]*x[2]) }},
	{"max", func(g *Graph, x Vec) Expr { return Max(Sq(x[0]), x[1].Mul(x[2])) }, -2, 2,
		func(x []float64) bool { return away(x[0]*x[0], x[1]*x[2]) }},
	{"gt-ge", func(g *Graph, x Vec) Expr {
		return Gt(x[0], x[1]).Mul(Sin(x[2])).Add(Le(x[0], x[1]).Mul(Sq(x[2])))
	}, -2, 2, func(x []float64) bool { return away(x[0], x[1]) }},
	{"ifelse", func(g *Graph, x Vec) Expr {
		return IfElse(x[0].Sub(x[1]), Sin(x[0]).Mul(x[2]), Sq(x[1]).Mul(Exp(x[2])))
	}, -2, 2, func(x []float64) bool { return away(x[0], x[1]) }},
	{"mixed", func(g *Graph, x Vec) Expr {
		r := Sqrt(Sq(x[0]).Add(Sq(x[1])).AddConst(1))
		return Log(r).Mul(Cos(x[2])).Add(Atan2(x[1], r).Div(x[2].AddConst(3)))
	}, -2, 2, nil},
}

// TestDerivativesAgainstFiniteDifferences checks every operation's gradient
// and Hessian against central finite differences (gonum diff/fd, step 1e-6
// for gradients, 1e-5 for the Jacobian of the gradient): |Δ| ≤ 1e-6 resp.
// 1e-5 relative to max(1, |value|). It also checks forward vs reverse mode
// (1e-12), Hessian symmetry (1e-12) and Hessian = reverse-mode Jacobian of
// the gradient (1e-12), and that the tape reproduces the table's value rule
// bit for bit.
func TestDerivativesAgainstFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range opCases {
		t.Run(c.name, func(t *testing.T) {
			g := NewGraph()
			x := g.SymVec("x", 3)
			f := c.f(g, x)
			gradR, err := Gradient(f, x)
			if err != nil {
				t.Fatal(err)
			}
			jf, err := JacobianMode(Vec{f}, x, Forward)
			if err != nil {
				t.Fatal(err)
			}
			H, err := Hessian(f, x)
			if err != nil {
				t.Fatal(err)
			}
			HR, err := JacobianMode(gradR, x, Reverse)
			if err != nil {
				t.Fatal(err)
			}
			fn := mustFunc(t, x, A("f", f), A("gr", gradR...), A("gf", jf.E...), A("H", H.E...), A("HR", HR.E...))
			fval := func(p []float64) float64 { return eval1(t, fn, p)[0][0] }
			grad := func(y, p []float64) { copy(y, eval1(t, fn, p)[1]) }
			for trial := 0; trial < 8; trial++ {
				p := make([]float64, 3)
				for {
					for i := range p {
						p[i] = randIn(r, c.lo, c.hi)
					}
					if c.ok == nil || c.ok(p) {
						break
					}
				}
				out := eval1(t, fn, p)
				env := map[Expr]float64{x[0]: p[0], x[1]: p[1], x[2]: p[2]}
				if ref := refEval(f, env); math.Float64bits(ref) != math.Float64bits(out[0][0]) {
					t.Errorf("at %v: tape %v, table value rule %v", p, out[0][0], ref)
				}
				fdg := fd.Gradient(nil, fval, p, &fd.Settings{Formula: fd.Central, Step: 1e-6})
				for j := range p {
					if !closeTo(out[1][j], fdg[j], 1e-6) {
						t.Errorf("at %v: ∂f/∂x%d reverse %v, fd %v", p, j, out[1][j], fdg[j])
					}
					if !closeTo(out[1][j], out[2][j], 1e-12) {
						t.Errorf("at %v: ∂f/∂x%d reverse %v, forward %v", p, j, out[1][j], out[2][j])
					}
				}
				var fdH mat.Dense
				fdH.ReuseAs(3, 3)
				fd.Jacobian(&fdH, grad, p, &fd.JacobianSettings{Formula: fd.Central, Step: 1e-5})
				for i := 0; i < 3; i++ {
					for j := 0; j < 3; j++ {
						h := out[3][i*3+j]
						if !closeTo(h, fdH.At(i, j), 1e-5) {
							t.Errorf("at %v: H[%d][%d] = %v, fd %v", p, i, j, h, fdH.At(i, j))
						}
						if !closeTo(h, out[3][j*3+i], 1e-12) {
							t.Errorf("at %v: H not symmetric at (%d,%d): %v vs %v", p, i, j, h, out[3][j*3+i])
						}
						if !closeTo(h, out[4][i*3+j], 1e-12) {
							t.Errorf("at %v: H[%d][%d] forward-over-reverse %v, reverse-over-reverse %v", p, i, j, h, out[4][i*3+j])
						}
					}
				}
			}
		})
	}
}

// TestForwardReverseJacobian compares forward- and reverse-mode Jacobians of
// a vector function with all operations (agreement 1e-12).
func TestForwardReverseJacobian(t *testing.T) {
	g := NewGraph()
	x := g.SymVec("x", 3)
	var f Vec
	for _, c := range opCases {
		if c.lo > 0 { // positive domains only; shift into them
			y := Vec{Sq(x[0]).AddConst(0.5), Sq(x[1]).AddConst(0.5), Sq(x[2]).AddConst(0.5)}
			f = append(f, c.f(g, y))
			continue
		}
		f = append(f, c.f(g, x))
	}
	jf, err := JacobianMode(f, x, Forward)
	if err != nil {
		t.Fatal(err)
	}
	jr, err := JacobianMode(f, x, Reverse)
	if err != nil {
		t.Fatal(err)
	}
	fn := mustFunc(t, x, A("jf", jf.E...), A("jr", jr.E...))
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20; trial++ {
		p := []float64{randIn(r, -0.9, 0.9), randIn(r, -0.9, 0.9), randIn(r, -0.9, 0.9)}
		out := eval1(t, fn, p)
		for k := range out[0] {
			a, b := out[0][k], out[1][k]
			if math.IsNaN(a) && math.IsNaN(b) {
				continue
			}
			if !closeTo(a, b, 1e-12) {
				t.Errorf("at %v: J[%d][%d] forward %v, reverse %v", p, k/3, k%3, a, b)
			}
		}
	}
}

// TestJVPVJP checks Jv and wᵀJ against the explicit Jacobian (1e-12).
func TestJVPVJP(t *testing.T) {
	g := NewGraph()
	x := g.SymVec("x", 3)
	v := g.SymVec("v", 3)
	w := g.SymVec("w", 2)
	f := Vec{Sin(x[0].Mul(x[1])).Add(x[2]), Exp(x[2]).Mul(x[0]).Sub(Sq(x[1]))}
	J, _ := Jacobian(f, x)
	jv, err := JVP(f, x, v)
	if err != nil {
		t.Fatal(err)
	}
	wj, err := VJP(f, x, w)
	if err != nil {
		t.Fatal(err)
	}
	fn, err := NewFunction("f", []Arg{A("x", x...), A("v", v...), A("w", w...)},
		[]Arg{A("J", J.E...), A("jv", jv...), A("wj", wj...)})
	if err != nil {
		t.Fatal(err)
	}
	xv, vv, wv := []float64{0.3, -0.7, 1.1}, []float64{1, 2, -0.5}, []float64{0.25, -3}
	Jo, jvo, wjo := make([]float64, 6), make([]float64, 2), make([]float64, 3)
	if err := fn.Eval(fn.NewWorkspace(), [][]float64{xv, vv, wv}, [][]float64{Jo, jvo, wjo}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		s := 0.0
		for j := 0; j < 3; j++ {
			s += Jo[i*3+j] * vv[j]
		}
		if !closeTo(s, jvo[i], 1e-12) {
			t.Errorf("Jv[%d] = %v, want %v", i, jvo[i], s)
		}
	}
	for j := 0; j < 3; j++ {
		s := 0.0
		for i := 0; i < 2; i++ {
			s += wv[i] * Jo[i*3+j]
		}
		if !closeTo(s, wjo[j], 1e-12) {
			t.Errorf("wᵀJ[%d] = %v, want %v", j, wjo[j], s)
		}
	}
}

// TestNondifferentiablePoints checks the documented conventions (doc.go):
// Abs′(0) = Sign(0) = 0, Sign′ = 0, Min/Max pick the first argument at a tie
// (∂/∂a = 1, ∂/∂b = 0), IfElse at cond = 0 takes the second branch.
func TestNondifferentiablePoints(t *testing.T) {
	g := NewGraph()
	x := g.SymVec("x", 2)
	cases := []struct {
		name     string
		f        Expr
		at       []float64
		val      float64
		gradient []float64
	}{
		{"abs(0)", Abs(x[0]), []float64{0, 1}, 0, []float64{0, 0}},
		{"sign(0)", Sign(x[0]), []float64{0, 1}, 0, []float64{0, 0}},
		{"sign(2)", Sign(x[0]), []float64{2, 1}, 1, []float64{0, 0}},
		{"min tie", Min(x[0], x[1]), []float64{1, 1}, 1, []float64{1, 0}},
		{"max tie", Max(x[0], x[1]), []float64{1, 1}, 1, []float64{1, 0}},
		{"min", Min(x[0], x[1]), []float64{2, 1}, 1, []float64{0, 1}},
		{"max", Max(x[0], x[1]), []float64{2, 1}, 2, []float64{1, 0}},
		{"ifelse(0)", IfElse(x[0], x[0].Scale(3), x[1].Scale(5)), []float64{0, 1}, 5, []float64{0, 5}},
		{"ifelse(+)", IfElse(x[0], x[0].Scale(3), x[1].Scale(5)), []float64{0.1, 1}, 0.30000000000000004, []float64{3, 0}},
		{"step ge(0)", Ge(x[0], g.Const(0)).Mul(x[1]), []float64{0, 2}, 2, []float64{0, 1}},
	}
	for _, c := range cases {
		gr, err := Gradient(c.f, x)
		if err != nil {
			t.Fatal(err)
		}
		out := eval1(t, mustFunc(t, x, A("f", c.f), A("g", gr...)), c.at)
		if out[0][0] != c.val {
			t.Errorf("%s: value %v, want %v", c.name, out[0][0], c.val)
		}
		for j := range c.gradient {
			if out[1][j] != c.gradient[j] {
				t.Errorf("%s: ∂/∂x%d = %v, want %v", c.name, j, out[1][j], c.gradient[j])
			}
		}
	}
}

// TestIfElseNoNaNLeak: NaN/Inf values and partials in the inactive branch
// must not reach the gradient or Hessian (closed-form references).
func TestIfElseNoNaNLeak(t *testing.T) {
	g := NewGraph()
	x := g.SymVec("x", 1)
	// f = x > 0 ? √x : −x³. At x = −1: √−1 is NaN, d√x = 0.5/NaN.
	f := IfElse(x[0], Sqrt(x[0]), PowInt(x[0], 3).Neg())
	// h = x < 0 ? 2x : log(x)·√x  (log and √ of negative → NaN)
	h := IfElse(Lt(x[0], g.Const(0)), x[0].Scale(2), Log(x[0]).Mul(Sqrt(x[0])))
	// m = min(1, x) + IfElse(x−1, 0, √(x−1))… exercises min within a branch.
	m := Min(g.Const(1), x[0]).Add(IfElse(x[0].AddConst(-1), Sqrt(x[0].AddConst(-1)), g.zero()))
	for _, c := range []struct {
		name      string
		e         Expr
		at        float64
		v, d1, d2 float64 // closed-form value, first and second derivative
	}{
		{"sqrt branch inactive", f, -1, 1, -3, 6},
		{"sqrt branch active", f, 4, 2, 0.25, -1.0 / 32},
		{"log branch inactive", h, -2, -4, 2, 0},
		{"min + inactive sqrt", m, 0.5, 0.5, 1, 0},
	} {
		gr, _ := Gradient(c.e, x)
		H, _ := Hessian(c.e, x)
		out := eval1(t, mustFunc(t, x, A("f", c.e), A("g", gr...), A("H", H.E...)), []float64{c.at})
		got := []float64{out[0][0], out[1][0], out[2][0]}
		want := []float64{c.v, c.d1, c.d2}
		for k := range got {
			if !closeTo(got[k], want[k], 1e-14) {
				t.Errorf("%s: derivative %d = %v, want %v", c.name, k, got[k], want[k])
			}
		}
	}
}

// TestDerivativeOfDerivative: third derivative of sin is −cos (closed form).
func TestDerivativeOfDerivative(t *testing.T) {
	g := NewGraph()
	x := g.SymVec("x", 1)
	d := Vec{Sin(x[0])}
	for k := 0; k < 3; k++ {
		J, err := Jacobian(d, x)
		if err != nil {
			t.Fatal(err)
		}
		d = J.E
	}
	out := eval1(t, mustFunc(t, x, A("d3", d...)), []float64{0.7})
	if !closeTo(out[0][0], -math.Cos(0.7), 1e-15) {
		t.Errorf("d³sin/dx³(0.7) = %v, want %v", out[0][0], -math.Cos(0.7))
	}
}

// TestSimplification checks the construction-time rewrites.
func TestSimplification(t *testing.T) {
	g := NewGraph()
	x, y := g.Sym("x"), g.Sym("y")
	zero, one := g.Const(0), g.Const(1)
	cases := []struct {
		name      string
		got, want Expr
	}{
		{"x+0", x.Add(zero), x},
		{"0+x", zero.Add(x), x},
		{"x*1", x.Mul(one), x},
		{"x*0", x.Mul(zero), zero},
		{"0/x", zero.Div(x), zero},
		{"x-x", x.Sub(x), zero},
		{"--x", x.Neg().Neg(), x},
		{"x*y=y*x", x.Mul(y), y.Mul(x)},
		{"x+y=y+x", x.Add(y), y.Add(x)},
		{"x*x", x.Mul(x), Sq(x)},
		{"fold", g.Const(2).Mul(g.Const(3)).Add(g.Const(1)), g.Const(7)},
		{"sin(0)", Sin(zero), zero},
		{"pow 1", Pow(x, 1), x},
		{"x/4", x.Div(g.Const(4)), x.Scale(0.25)},
		{"ifelse const", IfElse(one, x, y), x},
		{"hash-cons", Sin(x.Add(y)), Sin(y.Add(x))},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	if s := Sin(x.Mul(y)).Add(g.Const(2)).String(); s != "(sin((x * y)) + 2)" && s != "(2 + sin((x * y)))" {
		t.Errorf("String() = %q", s)
	}
}
