package hs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"strconv"

	"github.com/fesd-go/fesd/ad"
)

// book writes a problem in the notation of Hock and Schittkowski: formulas
// are strings in Go expression syntax over the variables x1, …, xn (1-based,
// as in the book), named constants and data vectors, and named intermediate
// quantities. The formulas become ad expressions, from which build derives
// exact first and second derivatives and structural sparsity patterns.
//
// Syntax: numbers, + − * / and parentheses; pow(a, b) for aᵇ (Go's ^ is
// not a power); sq, sqrt, exp, log, sin, cos, tan; x[i] for xᵢ; a[i] for the
// i-th entry (1-based) of a data vector, a[i][j] for entry (i, j) of a data matrix,
// with integer-valued index expressions; sum(i, lo, hi, term) for the sum
// of term over the integers i = lo, …, hi.
type book struct {
	g     *ad.Graph
	x     ad.Vec
	names map[string]val
	vecs  map[string][]float64
	mats  map[string][][]float64
}

// val is a parsed value: a number, folded at parse time, or an expression
// that depends on x.
type val struct {
	c float64
	e ad.Expr
}

func (v val) isConst() bool { return !v.e.IsValid() }

func newBook(n int) *book {
	b := &book{g: ad.NewGraph(), names: map[string]val{}, vecs: map[string][]float64{}, mats: map[string][][]float64{}}
	b.x = b.g.SymVec("x", n)
	return b
}

// set binds a name to a number.
func (b *book) set(name string, v float64) { b.names[name] = val{c: v} }

// vec binds a name to a data vector indexed from 1.
func (b *book) vec(name string, v []float64) { b.vecs[name] = v }

// mat binds a name to a data matrix indexed from 1 (rows of equal length).
func (b *book) mat(name string, m [][]float64) { b.mats[name] = m }

// let binds a name to the value of a formula.
func (b *book) let(name, src string) { b.names[name] = b.parse(src) }

// e returns the expression of a formula.
func (b *book) e(src string) ad.Expr { return b.expr(b.parse(src)) }

// es returns the expressions of several formulas.
func (b *book) es(srcs ...string) ad.Vec {
	v := make(ad.Vec, len(srcs))
	for i, s := range srcs {
		v[i] = b.e(s)
	}
	return v
}

func (b *book) expr(v val) ad.Expr {
	if v.isConst() {
		return b.g.Const(v.c)
	}
	return v.e
}

// parse evaluates a formula. A malformed formula is a bug in this package
// (all formulas are literals here) and panics; the tests build every
// problem.
func (b *book) parse(src string) val {
	node, err := parser.ParseExpr(src)
	if err != nil {
		panic(fmt.Sprintf("hs: formula %q: %v", src, err))
	}
	v, err := b.eval(node)
	if err != nil {
		panic(fmt.Sprintf("hs: formula %q: %v", src, err))
	}
	return v
}

func (b *book) eval(n ast.Expr) (val, error) {
	switch n := n.(type) {
	case *ast.BasicLit:
		if n.Kind != token.INT && n.Kind != token.FLOAT {
			return val{}, fmt.Errorf("literal %s", n.Value)
		}
		c, err := strconv.ParseFloat(n.Value, 64)
		return val{c: c}, err
	case *ast.Ident:
		if v, ok := b.names[n.Name]; ok {
			return v, nil
		}
		if len(n.Name) > 1 && n.Name[0] == 'x' {
			if i, err := strconv.Atoi(n.Name[1:]); err == nil && i >= 1 && i <= len(b.x) {
				return val{e: b.x[i-1]}, nil
			}
		}
		return val{}, fmt.Errorf("unknown name %s", n.Name)
	case *ast.ParenExpr:
		return b.eval(n.X)
	case *ast.UnaryExpr:
		v, err := b.eval(n.X)
		if err != nil {
			return val{}, err
		}
		switch n.Op {
		case token.ADD:
			return v, nil
		case token.SUB:
			if v.isConst() {
				return val{c: -v.c}, nil
			}
			return val{e: v.e.Neg()}, nil
		}
		return val{}, fmt.Errorf("operator %s", n.Op)
	case *ast.BinaryExpr:
		l, err := b.eval(n.X)
		if err != nil {
			return val{}, err
		}
		r, err := b.eval(n.Y)
		if err != nil {
			return val{}, err
		}
		return b.binary(n.Op, l, r)
	case *ast.IndexExpr:
		if inner, ok := n.X.(*ast.IndexExpr); ok {
			return b.index(inner.X, []ast.Expr{inner.Index, n.Index})
		}
		return b.index(n.X, []ast.Expr{n.Index})
	case *ast.CallExpr:
		return b.call(n)
	}
	return val{}, fmt.Errorf("unsupported syntax %T", n)
}

func (b *book) binary(op token.Token, l, r val) (val, error) {
	if l.isConst() && r.isConst() {
		switch op {
		case token.ADD:
			return val{c: l.c + r.c}, nil
		case token.SUB:
			return val{c: l.c - r.c}, nil
		case token.MUL:
			return val{c: l.c * r.c}, nil
		case token.QUO:
			return val{c: l.c / r.c}, nil
		}
		return val{}, fmt.Errorf("operator %s", op)
	}
	x, y := b.expr(l), b.expr(r)
	switch op {
	case token.ADD:
		return val{e: x.Add(y)}, nil
	case token.SUB:
		return val{e: x.Sub(y)}, nil
	case token.MUL:
		return val{e: x.Mul(y)}, nil
	case token.QUO:
		return val{e: x.Div(y)}, nil
	}
	return val{}, fmt.Errorf("operator %s", op)
}

// integer evaluates an index or a summation bound.
func (b *book) integer(n ast.Expr) (int, error) {
	v, err := b.eval(n)
	if err != nil {
		return 0, err
	}
	if !v.isConst() || v.c != math.Trunc(v.c) {
		return 0, fmt.Errorf("index %v is not an integer constant", v.c)
	}
	return int(v.c), nil
}

func (b *book) index(x ast.Expr, idx []ast.Expr) (val, error) {
	id, ok := x.(*ast.Ident)
	if !ok {
		return val{}, fmt.Errorf("indexing %T", x)
	}
	ix := make([]int, len(idx))
	for k, e := range idx {
		i, err := b.integer(e)
		if err != nil {
			return val{}, err
		}
		ix[k] = i
	}
	switch len(ix) {
	case 1:
		if id.Name == "x" && ix[0] >= 1 && ix[0] <= len(b.x) {
			return val{e: b.x[ix[0]-1]}, nil
		}
		if v, ok := b.vecs[id.Name]; ok && ix[0] >= 1 && ix[0] <= len(v) {
			return val{c: v[ix[0]-1]}, nil
		}
	case 2:
		if m, ok := b.mats[id.Name]; ok && ix[0] >= 1 && ix[0] <= len(m) && ix[1] >= 1 && ix[1] <= len(m[ix[0]-1]) {
			return val{c: m[ix[0]-1][ix[1]-1]}, nil
		}
	}
	return val{}, fmt.Errorf("no data entry %s%v", id.Name, ix)
}

var unaryFuncs = map[string]struct {
	f func(float64) float64
	e func(ad.Expr) ad.Expr
}{
	"sq":   {func(a float64) float64 { return a * a }, ad.Sq},
	"sqrt": {math.Sqrt, ad.Sqrt},
	"exp":  {math.Exp, ad.Exp},
	"log":  {math.Log, ad.Log},
	"sin":  {math.Sin, ad.Sin},
	"cos":  {math.Cos, ad.Cos},
	"tan":  {math.Tan, ad.Tan},
}

func (b *book) call(n *ast.CallExpr) (val, error) {
	id, ok := n.Fun.(*ast.Ident)
	if !ok {
		return val{}, fmt.Errorf("call of %T", n.Fun)
	}
	if id.Name == "sum" {
		return b.sum(n.Args)
	}
	args := make([]val, len(n.Args))
	for k, a := range n.Args {
		v, err := b.eval(a)
		if err != nil {
			return val{}, err
		}
		args[k] = v
	}
	if f, ok := unaryFuncs[id.Name]; ok && len(args) == 1 {
		if args[0].isConst() {
			return val{c: f.f(args[0].c)}, nil
		}
		return val{e: f.e(args[0].e)}, nil
	}
	if id.Name == "pow" && len(args) == 2 {
		a, p := args[0], args[1]
		switch {
		case a.isConst() && p.isConst():
			return val{c: math.Pow(a.c, p.c)}, nil
		case p.isConst():
			return val{e: ad.Pow(a.e, p.c)}, nil
		}
		return val{e: ad.PowExpr(b.expr(a), p.e)}, nil
	}
	return val{}, fmt.Errorf("unknown function %s/%d", id.Name, len(args))
}

// sum evaluates sum(i, lo, hi, term).
func (b *book) sum(args []ast.Expr) (val, error) {
	if len(args) != 4 {
		return val{}, fmt.Errorf("sum needs (index, lo, hi, term)")
	}
	id, ok := args[0].(*ast.Ident)
	if !ok {
		return val{}, fmt.Errorf("sum index %T", args[0])
	}
	lo, err := b.integer(args[1])
	if err != nil {
		return val{}, err
	}
	hi, err := b.integer(args[2])
	if err != nil {
		return val{}, err
	}
	old, had := b.names[id.Name]
	defer func() {
		if had {
			b.names[id.Name] = old
		} else {
			delete(b.names, id.Name)
		}
	}()
	acc := val{}
	for i := lo; i <= hi; i++ {
		b.names[id.Name] = val{c: float64(i)}
		t, err := b.eval(args[3])
		if err != nil {
			return val{}, err
		}
		if acc, err = b.binary(token.ADD, acc, t); err != nil {
			return val{}, err
		}
	}
	return acc, nil
}

// tapes are the compiled functions of a problem written with book.
type tapes struct {
	obj, grad, con, jac, hess *ad.Function
	wObj, wGrad, wCon         *ad.Workspace
	wJac, wHess               *ad.Workspace
	jRows, jCols              []int
	hRows, hCols              []int
	in1, in3, out             [][]float64
	sigma, fval, jv, hv       []float64
}

// compile differentiates f and g with respect to x and compiles the five
// tapes (objective, gradient, constraints, sparse Jacobian, lower triangle
// of the Lagrangian Hessian). Errors are bugs in this package and panic.
func (b *book) compile(name string, f ad.Expr, g ad.Vec) *tapes {
	must := func(err error) {
		if err != nil {
			panic("hs: " + name + ": " + err.Error())
		}
	}
	n := len(b.x)
	in := []ad.Arg{ad.A("x", b.x...)}
	grad, err := ad.Gradient(f, b.x)
	must(err)
	t := &tapes{}
	t.obj, err = ad.NewFunction("f", in, []ad.Arg{ad.A("f", f)})
	must(err)
	t.grad, err = ad.NewFunction("grad", in, []ad.Arg{ad.A("grad", grad...)})
	must(err)
	if len(g) > 0 {
		t.con, err = ad.NewFunction("g", in, []ad.Arg{ad.A("g", g...)})
		must(err)
		J, err := ad.JacobianSparse(g, b.x)
		must(err)
		t.jac, err = ad.NewFunction("jac", in, []ad.Arg{ad.A("jac", J.Values...)})
		must(err)
		t.jRows, t.jCols = coords(J.Pattern)
		t.wCon, t.wJac = t.con.NewWorkspace(), t.jac.NewWorkspace()
	}
	sigma := b.g.Sym("sigma")
	lambda := b.g.SymVec("lambda", len(g))
	H, err := ad.LagrangianHessian(b.x, sigma, f, lambda, g)
	must(err)
	t.hess, err = ad.NewFunction("hess", append(in, ad.A("sigma", sigma), ad.A("lambda", lambda...)), []ad.Arg{ad.A("hess", H.Values...)})
	must(err)
	t.hRows, t.hCols = coords(H.Pattern)
	for k := range t.hRows {
		if t.hRows[k] < t.hCols[k] || t.hRows[k] >= n {
			panic("hs: " + name + ": Hessian pattern not lower triangular")
		}
	}
	t.wObj, t.wGrad, t.wHess = t.obj.NewWorkspace(), t.grad.NewWorkspace(), t.hess.NewWorkspace()
	t.in1, t.in3, t.out = make([][]float64, 1), make([][]float64, 3), make([][]float64, 1)
	t.sigma, t.fval = make([]float64, 1), make([]float64, 1)
	t.jv, t.hv = make([]float64, len(t.jRows)), make([]float64, len(t.hRows))
	return t
}

func coords(s *ad.Sparsity) (rows, cols []int) {
	if s == nil {
		return nil, nil
	}
	return s.Coords()
}

// run evaluates one tape into out. The inputs have the declared lengths by
// construction, so an error is a bug.
func (t *tapes) run(f *ad.Function, ws *ad.Workspace, in [][]float64, out []float64) {
	t.out[0] = out
	if err := f.Eval(ws, in, t.out); err != nil {
		panic("hs: " + err.Error())
	}
	t.out[0] = nil
}

func (t *tapes) objective(x []float64) float64 {
	t.in1[0] = x
	t.run(t.obj, t.wObj, t.in1, t.fval)
	t.in1[0] = nil
	return t.fval[0]
}

func (t *tapes) gradient(x, g []float64) {
	t.in1[0] = x
	t.run(t.grad, t.wGrad, t.in1, g)
	t.in1[0] = nil
}

func (t *tapes) constraints(x, c []float64) {
	t.in1[0] = x
	t.run(t.con, t.wCon, t.in1, c)
	t.in1[0] = nil
}

func (t *tapes) jacobian(x []float64, j jac) {
	t.in1[0] = x
	t.run(t.jac, t.wJac, t.in1, t.jv)
	t.in1[0] = nil
	for k, v := range t.jv {
		j.set(t.jRows[k], t.jCols[k], v)
	}
}

func (t *tapes) hessian(x []float64, sigma float64, lambda []float64, h hess) {
	t.sigma[0] = sigma
	t.in3[0], t.in3[1], t.in3[2] = x, t.sigma, lambda
	t.run(t.hess, t.wHess, t.in3, t.hv)
	t.in3[0], t.in3[2] = nil, nil
	for k, v := range t.hv {
		h.add(t.hRows[k], t.hCols[k], v)
	}
}
