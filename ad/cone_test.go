package ad

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// structured is a test problem: variables x, parameters p (symbols that are
// not differentiated), an objective f (possibly the zero Expr) and
// constraints c.
type structured struct {
	name string
	g    *Graph
	x, p Vec
	f    Expr
	c    Vec
}

// randExpr combines the operands into a random smooth or (with nonsmooth)
// selecting expression that is finite near the origin.
func randExpr(r *rand.Rand, g *Graph, nonsmooth bool, operands ...Expr) Expr {
	pick := func() Expr { return operands[r.IntN(len(operands))] }
	e := pick()
	for k := 0; k < 1+r.IntN(4); k++ {
		o := pick()
		nops := 11
		if nonsmooth {
			nops = 16
		}
		switch r.IntN(nops) {
		case 0:
			e = e.Add(o)
		case 1:
			e = e.Sub(o.Scale(randIn(r, -2, 2)))
		case 2:
			e = e.Mul(o)
		case 3:
			e = Sin(e).Add(o)
		case 4:
			e = e.Div(Sq(o).AddConst(1))
		case 5:
			e = Tanh(e.Mul(o))
		case 6:
			e = Exp(e.Scale(0.1)).Mul(o)
		case 7:
			e = Sq(e).Add(Cos(o))
		case 8:
			e = Atan(e).Sub(o)
		case 9:
			e = e.Mul(g.Const(randIn(r, -3, 3))).Add(o.Neg())
		case 10:
			e = Sqrt(Sq(e).Add(Sq(o)).AddConst(1))
		case 11:
			e = Abs(e).Add(o)
		case 12:
			e = Max(e, o)
		case 13:
			e = Min(e, o.AddConst(0.1))
		case 14:
			e = IfElse(Gt(e, o), Sq(e), o.Mul(e))
		case 15:
			e = IfElse(o, Sqrt(o), e)
		}
	}
	return e
}

// structuredProblems returns problems with chain, block, banded and dense
// structure, with and without objective, parameters and selecting
// operations, and some degenerate outputs (symbols, constants, parameters
// only, repeated outputs).
func structuredProblems(seed uint64) []structured {
	r := rand.New(rand.NewPCG(seed, 7))
	var out []structured
	for _, ns := range []bool{false, true} {
		sfx := ""
		if ns {
			sfx = "/nonsmooth"
		}
		// Chain: cₖ = x_{k+1} − x_k − h·φ(x_k, u_k, p), objective a sum.
		{
			g := NewGraph()
			N := 12
			p := g.SymVec("p", 2)
			xs, us := g.SymVec("x", N+1), g.SymVec("u", N)
			var x, c, terms Vec
			for k := 0; k <= N; k++ {
				x = append(x, xs[k])
				if k < N {
					x = append(x, us[k])
					phi := randExpr(r, g, ns, xs[k], us[k], p[r.IntN(2)])
					c = append(c, xs[k+1].Sub(xs[k]).Sub(phi.Scale(0.1)))
					terms = append(terms, Sq(xs[k]).Mul(p[0]), randExpr(r, g, ns, us[k], xs[k]))
				}
			}
			out = append(out, structured{"chain" + sfx, g, x, p, Sum(terms), c})
		}
		// Block diagonal: blocks of 3 variables, 2 constraints each.
		{
			g := NewGraph()
			p := g.SymVec("p", 1)
			x := g.SymVec("x", 15)
			var c, terms Vec
			for b := 0; b < 5; b++ {
				blk := append(Vec{}, x[3*b:3*b+3]...)
				for k := 0; k < 2; k++ {
					c = append(c, randExpr(r, g, ns, append(blk, p[0])...))
				}
				terms = append(terms, randExpr(r, g, ns, blk...))
			}
			out = append(out, structured{"block" + sfx, g, x, p, Sum(terms), c})
		}
		// Banded: constraint i depends on x_{i−2..i+2}.
		{
			g := NewGraph()
			x := g.SymVec("x", 14)
			var c Vec
			for i := 0; i < len(x); i++ {
				var band Vec
				for j := max(0, i-2); j <= min(len(x)-1, i+2); j++ {
					band = append(band, x[j])
				}
				c = append(c, randExpr(r, g, ns, band...))
			}
			out = append(out, structured{"banded" + sfx, g, x, nil, Expr{}, c})
		}
		// Dense small, with shared subexpressions.
		{
			g := NewGraph()
			x := g.SymVec("x", 5)
			p := g.SymVec("p", 1)
			s := randExpr(r, g, ns, x...)
			var c Vec
			for i := 0; i < 4; i++ {
				c = append(c, randExpr(r, g, ns, s, x[i], x[i+1], p[0]))
			}
			out = append(out, structured{"dense" + sfx, g, x, p, randExpr(r, g, ns, append(c, x...)...), c})
		}
	}
	// Chains through small linear solves (recorded, so that forward mode
	// differentiates them implicitly), with a constant pivot so that matrix
	// entries are absorbed by the elimination (2y/4 = 0.5y).
	for _, sym := range []bool{true, false} {
		g := NewGraph()
		N := 6
		xs, us := g.SymVec("x", N+1), g.SymVec("u", N)
		p := g.Sym("p")
		var x, c Vec
		for k := 0; k <= N; k++ {
			x = append(x, xs[k])
			if k == N {
				break
			}
			x = append(x, us[k])
			m21 := us[k].Scale(2)
			m12 := m21
			if !sym {
				m12 = Sin(us[k])
			}
			M, _ := NewMat(2, 2, g.Const(4), m12, m21, Sq(xs[k]).AddConst(5))
			b := Vec{Sin(xs[k]).Mul(p), us[k].Mul(xs[k])}
			var v Vec
			if sym {
				v, _ = SolveSym(M, b)
			} else {
				v, _ = Solve(M, b)
			}
			c = append(c, xs[k+1].Sub(xs[k]).Sub(v[0].Add(v[1]).Scale(0.1)))
		}
		out = append(out, structured{fmt.Sprintf("solve chain/sym=%v", sym), g, x, Vec{p}, Sq(xs[N]).Add(Sq(us[0])), c})
	}
	// Outputs sharing a deep subexpression of one variable: far cheaper
	// column by column (Auto builds only the forward Jacobian).
	{
		g := NewGraph()
		x := g.SymVec("x", 10)
		z := g.Sym("z")
		T := z
		for k := 0; k < 60; k++ {
			T = Sin(T).Add(z.Scale(float64(k)))
		}
		var c Vec
		for i := range x {
			c = append(c, x[i].Mul(T).Add(Sin(x[i])))
		}
		out = append(out, structured{"shared deep", g, append(x, z), nil, Expr{}, c})
	}
	// Degenerate outputs: symbols, a constant, a parameter-only expression,
	// repeated outputs, a variable that nothing depends on.
	{
		g := NewGraph()
		x := g.SymVec("x", 4)
		p := g.Sym("p")
		e := Sin(x[0]).Mul(x[1])
		c := Vec{x[2], g.Const(3), Exp(p), e, e, x[0].Mul(p), g.Const(0), x[2]}
		out = append(out, structured{"degenerate", g, x, Vec{p}, x[1].Mul(x[1].Add(x[0])), c})
	}
	return out
}

// outputs returns the objective (if any) followed by the constraints.
func (s structured) outputs() Vec {
	if s.f.g == nil {
		return append(Vec{}, s.c...)
	}
	return append(Vec{s.f}, s.c...)
}

// env returns a random evaluation point for the problem's symbols (and
// extra symbols).
func (s structured) env(r *rand.Rand, extra ...Vec) map[Expr]float64 {
	env := map[Expr]float64{}
	for _, v := range append([]Vec{s.x, s.p}, extra...) {
		for _, e := range v {
			env[e] = randIn(r, -1, 1)
		}
	}
	return env
}

// sameSparse checks that two sparse matrices have identical patterns and
// values: identical expressions when exact, else values that agree to tol at
// random points.
func sameSparse(t *testing.T, what string, got, want SparseMat, exact bool, envs []map[Expr]float64) {
	t.Helper()
	sameSparseTol(t, what, got, want, exact, envs, 1e-14)
}

func sameSparseTol(t *testing.T, what string, got, want SparseMat, exact bool, envs []map[Expr]float64, tol float64) {
	t.Helper()
	if !reflect.DeepEqual(got.Pattern, want.Pattern) {
		t.Fatalf("%s: pattern\n%v\nwant\n%v", what, got.Pattern, want.Pattern)
	}
	if len(got.Values) != len(want.Values) {
		t.Fatalf("%s: %d values, want %d", what, len(got.Values), len(want.Values))
	}
	for k := range got.Values {
		if got.Values[k] == want.Values[k] {
			continue
		}
		if exact {
			t.Errorf("%s: value %d is %v, want the identical expression %v", what, k, got.Values[k], want.Values[k])
			continue
		}
		for _, env := range envs {
			a, b := refEval(got.Values[k], env), refEval(want.Values[k], env)
			if !closeTo(a, b, tol) && !(math.IsNaN(a) && math.IsNaN(b)) {
				t.Errorf("%s: value %d = %v, want %v", what, k, a, b)
			}
		}
	}
}

func sameVec(t *testing.T, what string, got, want Vec) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: length %d, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s[%d] = %v, want the identical expression %v", what, i, got[i], want[i])
		}
	}
}

// TestConeDerivativesMatchReference compares the cone-restricted
// construction with the original whole-graph sweeps (ref_test.go) on
// structured random problems: dense Jacobians in every mode, gradients,
// JVPs and VJPs must be the identical expressions; sparse Jacobians and
// Lagrangian Hessians must have identical patterns and values that are
// identical expressions when the same mode is used, and agree to 1e-14
// otherwise. Seeds 1–6; under -short 1–3.
func TestConeDerivativesMatchReference(t *testing.T) {
	seeds := uint64(6)
	if testing.Short() {
		seeds = 3
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		for _, s := range structuredProblems(seed) {
			t.Run(fmt.Sprintf("%s/%d", s.name, seed), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, 99))
				g := s.g
				y := s.outputs()
				sigma := g.Sym("sigma")
				lambda := g.SymVec("lambda", len(s.c))
				var envs []map[Expr]float64
				for k := 0; k < 3; k++ {
					envs = append(envs, s.env(r, Vec{sigma}, lambda))
				}
				for _, mode := range []Mode{Forward, Reverse, Auto} {
					got, err := JacobianMode(y, s.x, mode)
					if err != nil {
						t.Fatal(err)
					}
					want, err := refJacobianMode(y, s.x, mode)
					if err != nil {
						t.Fatal(err)
					}
					sameVec(t, fmt.Sprintf("JacobianMode(%d)", mode), got.E, want.E)
					sp, err := JacobianSparseMode(y, s.x, mode)
					if err != nil {
						t.Fatal(err)
					}
					// Forward and Reverse are the reference's modes exactly;
					// Auto may pick the other mode.
					sameSparse(t, fmt.Sprintf("JacobianSparseMode(%d)", mode), sp, Sparse(want), mode != Auto, envs)
				}
				sp, err := JacobianSparse(y, s.x)
				if err != nil {
					t.Fatal(err)
				}
				ref, _ := refJacobianSparse(y, s.x)
				sameSparse(t, "JacobianSparse", sp, ref, false, envs)

				if s.f.g != nil {
					gr, err := Gradient(s.f, s.x)
					if err != nil {
						t.Fatal(err)
					}
					sameVec(t, "Gradient", gr, refVJP(Vec{s.f}, s.x, Vec{g.Const(1)}))
				}
				w := append(Vec{}, lambda...)
				if s.f.g != nil {
					w = append(Vec{sigma}, w...)
				}
				v, err := VJP(y, s.x, w)
				if err != nil {
					t.Fatal(err)
				}
				sameVec(t, "VJP", v, refVJP(y, s.x, w))
				dir := make(Vec, len(s.x))
				for j := range dir {
					dir[j] = g.Const(float64(j%3) - 1) // includes zero seeds
				}
				jv, err := JVP(y, s.x, dir)
				if err != nil {
					t.Fatal(err)
				}
				sref := newSweep(g, y)
				tan := refForward(sref, refIDs(s.x), dir, nil)
				var jref Vec
				for _, e := range y {
					jref = append(jref, refPick(sref, tan, e.id))
				}
				sameVec(t, "JVP", jv, jref)

				H, err := LagrangianHessian(s.x, sigma, s.f, lambda, s.c)
				if err != nil {
					t.Fatal(err)
				}
				Href := refLagrangianHessian(s.x, sigma, s.f, lambda, s.c)
				sameSparse(t, "LagrangianHessian", H, Href, false, envs)
			})
		}
	}
}

// TestConeRowsColumnsAgree builds every problem's Jacobian and Lagrangian
// Hessian both row by row and column by column (the two strategies Auto
// and LagrangianHessian choose between) and checks identical patterns and
// values to 1e-14 against the reference.
func TestConeRowsColumnsAgree(t *testing.T) {
	probs := structuredProblems(42)
	mp, err := buildMonopod()
	if err != nil {
		t.Fatal(err)
	}
	probs = append(probs, structured{"monopod (SolveSym)", mp.g, Concat(mp.q, mp.v, mp.u), nil, Expr{}, Concat(mp.qdot, mp.vdot)})
	for _, s := range probs {
		t.Run(s.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, 4))
			g := s.g
			y := s.outputs()
			sigma := g.Sym("sigma")
			lambda := g.SymVec("lambda", len(s.c))
			var envs []map[Expr]float64
			for k := 0; k < 3; k++ {
				envs = append(envs, s.env(r, Vec{sigma}, lambda))
			}
			// Jacobian.
			d := newReq(g, y)
			d.setVars(s.x)
			d.setRows(y)
			cols := sparseFromEntries(g, len(y), len(s.x), d.columns(s.x, false))
			rows := sparseFromEntries(g, len(y), len(s.x), d.rows(false))
			want, _ := refJacobianMode(y, s.x, Forward)
			sameSparse(t, "Jacobian columns", cols, Sparse(want), true, envs)
			want, _ = refJacobianMode(y, s.x, Reverse)
			sameSparse(t, "Jacobian rows", rows, Sparse(want), true, envs)
			if !d.hasSolve {
				// Forward mode differentiates recorded solves implicitly and
				// can find fewer structural nonzeros than reverse mode, which
				// differentiates through the elimination.
				sameSparse(t, "Jacobian rows vs columns", rows, cols, false, envs)
			}
			d.release()
			// Lagrangian Hessian.
			outs, seeds := y, append(Vec{}, lambda...)
			if s.f.g != nil {
				seeds = append(Vec{sigma}, seeds...)
			}
			grad := vjp(g, outs, s.x, seeds)
			d = newReq(g, grad)
			d.setVars(s.x)
			d.setRows(grad)
			hc := sparseFromEntries(g, len(grad), len(s.x), d.columns(s.x, true))
			hr := sparseFromEntries(g, len(grad), len(s.x), d.rows(true))
			href := refLagrangianHessian(s.x, sigma, s.f, lambda, s.c)
			sameSparse(t, "Hessian columns", hc, href, true, envs)
			tol := 1e-14
			if d.hasSolve {
				// Reverse through the elimination against implicit forward
				// differentiation of the solve: different algorithms,
				// second derivatives of a 4×4 solve.
				tol = 1e-10
			}
			sameSparseTol(t, "Hessian rows", hr, href, false, envs, tol)
			d.release()
		})
	}
}

// TestConeDerivativesCompiled checks NewDerivatives on the structured
// problems numerically against the reference expressions evaluated
// directly.
func TestConeDerivativesCompiled(t *testing.T) {
	for _, s := range structuredProblems(5) {
		t.Run(s.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(8, 9))
			y := s.outputs()
			in := []Arg{A("x", s.x...), A("p", s.p...)}
			d, err := NewDerivatives(s.name, in, []Arg{A("y", y...)}, "x")
			if err != nil {
				t.Fatal(err)
			}
			lambda := s.g.SymVec("l", len(y))
			Jref, _ := refJacobianSparse(y, s.x)
			Href := refLagrangianHessian(s.x, Expr{}, Expr{}, lambda, y)
			if !reflect.DeepEqual(d.JacPattern, Jref.Pattern) || !reflect.DeepEqual(d.HessPattern, Href.Pattern) {
				t.Fatalf("patterns differ:\n%v\n%v\n%v\n%v", d.JacPattern, Jref.Pattern, d.HessPattern, Href.Pattern)
			}
			env := s.env(r, lambda)
			xv, pv, lv := make([]float64, len(s.x)), make([]float64, len(s.p)), make([]float64, len(y))
			for j, e := range s.x {
				xv[j] = env[e]
			}
			for j, e := range s.p {
				pv[j] = env[e]
			}
			for j, e := range lambda {
				lv[j] = env[e]
			}
			jac := make([]float64, d.JacPattern.NNZ())
			hess := make([]float64, d.HessPattern.NNZ())
			if err := d.Jac.Eval(d.Jac.NewWorkspace(), [][]float64{xv, pv}, [][]float64{jac}); err != nil {
				t.Fatal(err)
			}
			if err := d.Hess.Eval(d.Hess.NewWorkspace(), [][]float64{xv, pv, lv}, [][]float64{hess}); err != nil {
				t.Fatal(err)
			}
			for k, e := range Jref.Values {
				if w := refEval(e, env); !closeTo(jac[k], w, 1e-13) {
					t.Errorf("jac[%d] = %v, want %v", k, jac[k], w)
				}
			}
			for k, e := range Href.Values {
				if w := refEval(e, env); !closeTo(hess[k], w, 1e-13) {
					t.Errorf("hess[%d] = %v, want %v", k, hess[k], w)
				}
			}
		})
	}
}

// TestConeDeterministic: building the same problem twice gives the same
// patterns, tapes and bit-identical derivative values.
func TestConeDeterministic(t *testing.T) {
	build := func() (*Derivatives, int) {
		s := structuredProblems(11)[1] // chain with selecting operations
		d, err := NewDerivatives("det", []Arg{A("x", s.x...), A("p", s.p...)}, []Arg{A("y", s.outputs()...)}, "x")
		if err != nil {
			t.Fatal(err)
		}
		return d, s.g.NumNodes()
	}
	d1, n1 := build()
	d2, n2 := build()
	if n1 != n2 || !reflect.DeepEqual(d1.JacPattern, d2.JacPattern) || !reflect.DeepEqual(d1.HessPattern, d2.HessPattern) ||
		d1.Jac.NumInstr() != d2.Jac.NumInstr() || d1.Hess.NumInstr() != d2.Hess.NumInstr() {
		t.Fatal("two builds of the same problem differ")
	}
	r := rand.New(rand.NewPCG(1, 2))
	nx, np, m := d1.F.InSize(0), d1.F.InSize(1), d1.F.NumOutputs()
	x, p, l := make([]float64, nx), make([]float64, np), make([]float64, m)
	for _, v := range [][]float64{x, p, l} {
		for i := range v {
			v[i] = randIn(r, -1, 1)
		}
	}
	for _, f := range [][2]*Function{{d1.Jac, d2.Jac}, {d1.Hess, d2.Hess}} {
		in := [][]float64{x, p}
		if f[0] == d1.Hess {
			in = append(in, l)
		}
		a, b := make([]float64, f[0].NumOutputs()), make([]float64, f[1].NumOutputs())
		if err := f[0].Eval(f[0].NewWorkspace(), in, [][]float64{a}); err != nil {
			t.Fatal(err)
		}
		if err := f[1].Eval(f[1].NewWorkspace(), in, [][]float64{b}); err != nil {
			t.Fatal(err)
		}
		for k := range a {
			if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
				t.Errorf("%s[%d]: %v vs %v", f[0].Name(), k, a[k], b[k])
			}
		}
	}
}
