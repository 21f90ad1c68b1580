package ad

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// node is one immutable vertex of the expression DAG. Children always have
// smaller ids than their parents, so id order is a topological order.
type node struct {
	op      op
	a, b, c int32
	k       float64 // constant value, constant exponent, or symbol serial
}

// key is the hash-consing key of a node: structurally equal nodes share one id.
type key struct {
	op      op
	a, b, c int32
	bits    uint64
}

// Graph is an arena of hash-consed expression nodes. Build expressions with
// Sym, Const and the Expr methods and package functions; nodes are never
// modified or removed.
//
// Concurrency: building expressions (the constructors, derivatives,
// Substitute, Solve) adds nodes and is not safe for concurrent use. Reading
// a graph does not modify it: NewFunction, CopyArgs, a Copier copying from
// it, NewDerivatives (which works on a private copy) and the Expr queries
// (IsConst, IsSymbol, Name, String) may run in any number of goroutines at
// once, as long as no goroutine builds in the graph at the same time. The
// Functions compiled from a graph are independent of it and safe for
// concurrent use with separate workspaces.
//
// The methods of a nil *Graph return zero values (NumNodes 0, Err nil, the
// zero Expr, nil vectors); compiling a zero Expr is an error.
type Graph struct {
	nodes []node
	index map[key]int32
	names []string // symbol names by serial
	syms  []int32  // symbol node ids by serial
	err   error    // first construction error (mixing graphs)

	// Linear solves built by Solve/SolveSym, so that forward mode can
	// differentiate x = M⁻¹b implicitly: ẋ = M⁻¹(ḃ − Ṁx).
	solves  []solveRec
	solveOf map[int32][2]int32 // x node id → (solve index, component)

	zeroID, oneID int32    // cached constants 0 and 1 (0: not created yet)
	sets          []*idSet // pool of scratch node sets (see cone.go)
	work          int64    // nodes visited by derivative sweeps (a cost measure for tests)
}

// solveRec records x = M⁻¹b.
type solveRec struct {
	m   Mat
	b   Vec
	x   Vec
	sym bool // SolveSym (lower triangle of m), else Solve
}

// registerSolve records a solve unless one of its results is a constant,
// repeated, or already the result of another recorded solve.
func (g *Graph) registerSolve(m Mat, b, x Vec, sym bool) {
	seen := map[int32]bool{}
	for _, e := range x {
		if _, c := e.IsConst(); c || seen[e.id] {
			return
		}
		if _, dup := g.solveOf[e.id]; dup {
			return
		}
		seen[e.id] = true
	}
	if g.solveOf == nil {
		g.solveOf = make(map[int32][2]int32)
	}
	r := int32(len(g.solves))
	g.solves = append(g.solves, solveRec{
		m:   Mat{R: m.R, C: m.C, E: append([]Expr(nil), m.E...)},
		b:   append(Vec(nil), b...),
		x:   append(Vec(nil), x...),
		sym: sym,
	})
	for i, e := range x {
		g.solveOf[e.id] = [2]int32{r, int32(i)}
	}
}

// NewGraph returns an empty graph.
func NewGraph() *Graph {
	g := &Graph{index: make(map[key]int32)}
	g.nodes = append(g.nodes, node{op: opInvalid}) // id 0: poison
	return g
}

// Expr is a handle to a node of a Graph. The zero Expr is invalid. Exprs are
// small values and can be copied and compared with ==: two Exprs of the same
// graph are equal exactly when they are structurally equal after the
// construction-time simplifications.
type Expr struct {
	g  *Graph
	id int32
}

// Graph returns the graph e belongs to (nil for the zero Expr).
func (e Expr) Graph() *Graph { return e.g }

// Err returns the first construction error recorded by the graph, such as
// combining expressions from different graphs. Such operations return an
// invalid expression, and compiling or differentiating it fails with the same
// error.
func (g *Graph) Err() error {
	if g == nil {
		return nil
	}
	return g.err
}

// NumNodes returns the number of nodes in the graph.
func (g *Graph) NumNodes() int {
	if g == nil {
		return 0
	}
	return len(g.nodes) - 1
}

// fail records err as the graph's construction error unless one is
// recorded already.
func (g *Graph) fail(err error) {
	if g.err == nil {
		g.err = err
	}
}

func (g *Graph) add(n node) Expr {
	kk := key{op: n.op, a: n.a, b: n.b, c: n.c, bits: math.Float64bits(n.k)}
	if id, ok := g.index[kk]; ok {
		return Expr{g, id}
	}
	id := int32(len(g.nodes))
	g.nodes = append(g.nodes, n)
	g.index[kk] = id
	return Expr{g, id}
}

// Const returns the constant v. −0 is stored as +0.
func (g *Graph) Const(v float64) Expr {
	if g == nil {
		return Expr{}
	}
	if v == 0 {
		v = 0
	}
	return g.add(node{op: opConst, k: v})
}

// zero and one return the constants 0 and 1 without a hash lookup.
func (g *Graph) zero() Expr {
	if g.zeroID == 0 {
		g.zeroID = g.Const(0).id
	}
	return Expr{g, g.zeroID}
}

func (g *Graph) one() Expr {
	if g.oneID == 0 {
		g.oneID = g.Const(1).id
	}
	return Expr{g, g.oneID}
}

// Sym returns a new scalar symbol (independent variable). Every call creates
// a distinct symbol, even with the same name.
func (g *Graph) Sym(name string) Expr {
	if g == nil {
		return Expr{}
	}
	serial := len(g.names)
	g.names = append(g.names, name)
	e := g.add(node{op: opSym, k: float64(serial)})
	g.syms = append(g.syms, e.id)
	return e
}

// SymVec returns n new symbols named name[0], …, name[n−1]. A negative n
// gives nil and records ErrDimension as the graph's construction error
// (Err; dcs.Model.Validate, for one, reports it).
func (g *Graph) SymVec(name string, n int) Vec {
	if g == nil || !g.checkLen("SymVec", n) {
		return nil
	}
	v := make(Vec, n)
	for i := range v {
		v[i] = g.Sym(name + "[" + strconv.Itoa(i) + "]")
	}
	return v
}

// checkLen records ErrDimension for a negative length n.
func (g *Graph) checkLen(what string, n int) bool {
	if n < 0 {
		g.fail(fmt.Errorf("%w: %s of negative length %d", ErrDimension, what, n))
		return false
	}
	return true
}

// Zeros returns a vector of n constant zeros (nil and ErrDimension recorded
// in the graph for a negative n, as SymVec).
func (g *Graph) Zeros(n int) Vec {
	if g == nil || !g.checkLen("Zeros", n) {
		return nil
	}
	v := make(Vec, n)
	for i := range v {
		v[i] = g.zero()
	}
	return v
}

// ConstVec returns the constants of x as a vector.
func (g *Graph) ConstVec(x ...float64) Vec {
	if g == nil {
		return nil
	}
	v := make(Vec, len(x))
	for i, xi := range x {
		v[i] = g.Const(xi)
	}
	return v
}

// IsValid reports whether e is a valid expression (non-zero handle, not the
// result of an erroneous construction).
func (e Expr) IsValid() bool { return e.g != nil && e.id > 0 }

// IsConst reports whether e is a constant, and its value.
func (e Expr) IsConst() (float64, bool) {
	if e.g == nil {
		return 0, false
	}
	n := e.g.nodes[e.id]
	return n.k, n.op == opConst
}

// IsZero reports whether e is the constant 0 (a structural zero).
func (e Expr) IsZero() bool {
	v, ok := e.IsConst()
	return ok && v == 0
}

func (e Expr) isConstVal(v float64) bool {
	c, ok := e.IsConst()
	return ok && c == v
}

// IsSymbol reports whether e is a symbol.
func (e Expr) IsSymbol() bool { return e.g != nil && e.g.nodes[e.id].op == opSym }

// Name returns the name of a symbol ("" for other expressions).
func (e Expr) Name() string {
	if !e.IsSymbol() {
		return ""
	}
	return e.g.names[int(e.g.nodes[e.id].k)]
}

func (e Expr) node() node { return e.g.nodes[e.id] }

// arg returns child i of e.
func (e Expr) arg(i int) Expr {
	n := e.g.nodes[e.id]
	switch i {
	case 0:
		return Expr{e.g, n.a}
	case 1:
		return Expr{e.g, n.b}
	}
	return Expr{e.g, n.c}
}

// same returns the common graph of the operands, recording ErrForeignGraph
// when they differ and ErrZeroExpr when one is the zero Expr (and returning
// nil).
func same(es ...Expr) *Graph {
	var g *Graph
	for _, e := range es {
		if e.g != nil {
			g = e.g
			break
		}
	}
	if g == nil {
		return nil
	}
	for i, e := range es {
		if e.g == nil {
			if g.err == nil {
				g.err = fmt.Errorf("%w: operand %d of %d", ErrZeroExpr, i+1, len(es))
			}
			return nil
		}
		if e.g != g {
			if g.err == nil {
				g.err = fmt.Errorf("%w: combining %v", ErrForeignGraph, es)
			}
			return nil
		}
		if e.id == 0 {
			return nil
		}
	}
	return g
}

// invalid returns the poisoned expression of the first non-nil graph.
func invalid(es ...Expr) Expr {
	for _, e := range es {
		if e.g != nil {
			return Expr{e.g, 0}
		}
	}
	return Expr{}
}

// unary builds op(a) with constant folding.
func unary(o op, a Expr, k float64) Expr {
	g := same(a)
	if g == nil {
		return invalid(a)
	}
	if v, ok := a.IsConst(); ok {
		return g.Const(ops[o].eval(v, 0, 0, k))
	}
	return g.add(node{op: o, a: a.id, k: k})
}

// binary builds op(a, b) with constant folding; commutative ops order their
// operands by id so that a+b and b+a share a node.
func binary(o op, a, b Expr) Expr {
	g := same(a, b)
	if g == nil {
		return invalid(a, b)
	}
	va, ca := a.IsConst()
	vb, cb := b.IsConst()
	if ca && cb {
		return g.Const(ops[o].eval(va, vb, 0, 0))
	}
	switch o {
	case opAdd, opMul, opMulZ:
		if a.id > b.id {
			a, b = b, a
		}
	}
	return g.add(node{op: o, a: a.id, b: b.id})
}

// Add returns e + o.
func (e Expr) Add(o Expr) Expr {
	switch {
	case e.IsZero() && o.g == e.g:
		return o
	case o.IsZero() && o.g == e.g:
		return e
	}
	if e.g != nil && e.g == o.g && e.id != 0 && o.id != 0 {
		if c1, x1, c2, x2 := asTerm(e), asTermX(e), asTerm(o), asTermX(o); x1 == x2 && x1.id >= 0 {
			// c₁·x + c₂·x = (c₁+c₂)·x
			return x1.Scale(c1 + c2)
		}
		if e.node().op == opNeg { // (−a) + b = b − a
			return o.Sub(e.arg(0))
		}
		if o.node().op == opNeg { // a + (−b) = a − b
			return e.Sub(o.arg(0))
		}
	}
	return binary(opAdd, e, o)
}

// Sub returns e − o. x − x simplifies to 0.
func (e Expr) Sub(o Expr) Expr {
	if e.g != nil && e.g == o.g && e.id != 0 {
		switch {
		case o.IsZero():
			return e
		case e.IsZero():
			return o.Neg()
		case e.id == o.id:
			return e.g.zero()
		case asTermX(e) == asTermX(o) && asTermX(e).id >= 0: // c₁·x − c₂·x = (c₁−c₂)·x
			return asTermX(e).Scale(asTerm(e) - asTerm(o))
		case o.node().op == opNeg: // a − (−b) = a + b
			return e.Add(o.arg(0))
		case e.node().op == opNeg: // (−a) − b = −(a + b)
			return e.arg(0).Add(o).Neg()
		}
	}
	return binary(opSub, e, o)
}

// asTerm and asTermX write a non-constant e as c·x (c = 1 if e is not a
// scaled expression).
func asTerm(e Expr) float64 {
	if _, ok := e.IsConst(); ok {
		return 0
	}
	if c, _, ok := scaled(e); ok {
		return c
	}
	return 1
}

func asTermX(e Expr) Expr {
	if _, ok := e.IsConst(); ok {
		return Expr{e.g, -1} // never equal to a real term
	}
	if _, x, ok := scaled(e); ok {
		return x
	}
	return e
}

func isScaledOrConst(e Expr) bool {
	if _, ok := e.IsConst(); ok {
		return true
	}
	_, _, ok := scaled(e)
	return ok
}

// scaled splits e into c·x when e is a product with a constant factor
// (c, x, true) or a negation (−1, x, true).
func scaled(e Expr) (float64, Expr, bool) {
	n := e.node()
	switch n.op {
	case opNeg:
		return -1, e.arg(0), true
	case opMul:
		if v, ok := e.arg(0).IsConst(); ok {
			return v, e.arg(1), true
		}
		if v, ok := e.arg(1).IsConst(); ok {
			return v, e.arg(0), true
		}
	}
	return 0, Expr{}, false
}

// Mul returns e · o. x·0 simplifies to 0, x·1 to x and x·(−1) to −x;
// constant factors are collected (c₁·(c₂·x) = (c₁c₂)·x) and negations are
// pulled out of products so that sums absorb them.
func (e Expr) Mul(o Expr) Expr {
	if e.g != nil && e.g == o.g && e.id != 0 && o.id != 0 {
		if _, ok := e.IsConst(); ok {
			e, o = o, e
		}
		if v, ok := o.IsConst(); ok {
			switch v {
			case 0:
				return o
			case 1:
				return e
			case -1:
				return e.Neg()
			}
			if _, ok := e.IsConst(); !ok {
				if c, x, ok := scaled(e); ok { // v·(c·x) = (v·c)·x
					return x.Mul(e.g.Const(v * c))
				}
				// v·(c₁·x ± c₂·y) = (vc₁)·x ± (vc₂)·y: no more products.
				if n := e.node(); n.op == opAdd || n.op == opSub {
					a, b := e.arg(0), e.arg(1)
					if isScaledOrConst(a) && isScaledOrConst(b) {
						if n.op == opAdd {
							return a.Scale(v).Add(b.Scale(v))
						}
						return a.Scale(v).Sub(b.Scale(v))
					}
				}
			}
			return binary(opMul, e, o)
		}
		if e.id == o.id {
			return Sq(e)
		}
		en, on := e.node().op == opNeg, o.node().op == opNeg
		switch {
		case en && on: // (−a)·(−b) = a·b
			return e.arg(0).Mul(o.arg(0))
		case en: // (−a)·b = −(a·b)
			return e.arg(0).Mul(o).Neg()
		case on:
			return e.Mul(o.arg(0)).Neg()
		}
		// (c·a)·b = c·(a·b)
		if c, x, ok := scaled(e); ok {
			return x.Mul(o).Scale(c)
		}
		if c, x, ok := scaled(o); ok {
			return e.Mul(x).Scale(c)
		}
	}
	return binary(opMul, e, o)
}

// mulZ returns the strong-zero product e ⊙ o (0 if either is 0).
func (e Expr) mulZ(o Expr) Expr {
	if e.g != nil && e.g == o.g && e.id != 0 && o.id != 0 {
		if _, ok := e.IsConst(); ok {
			e, o = o, e
		}
		if v, ok := o.IsConst(); ok {
			switch v {
			case 0:
				return o
			case 1:
				return e
			case -1:
				return e.Neg()
			}
		}
	}
	return binary(opMulZ, e, o)
}

// Div returns e / o. 0/x simplifies to 0 and x/1 to x.
func (e Expr) Div(o Expr) Expr {
	if e.g != nil && e.g == o.g && e.id != 0 && o.id != 0 {
		if v, ok := o.IsConst(); ok {
			switch v {
			case 1:
				return e
			case -1:
				return e.Neg()
			}
			if _, ok := e.IsConst(); !ok && v != 0 {
				// Exact reciprocal (power of two): multiply instead.
				if fr, _ := math.Frexp(v); fr == 0.5 || fr == -0.5 {
					return e.Scale(1 / v)
				}
			}
		}
		if e.IsZero() {
			return e
		}
		if e.node().op == opNeg {
			return e.arg(0).Div(o).Neg()
		}
	}
	return binary(opDiv, e, o)
}

// Neg returns −e.
func (e Expr) Neg() Expr {
	if e.g != nil && e.id != 0 {
		n := e.node()
		switch n.op {
		case opNeg:
			return e.arg(0)
		case opSub:
			return e.arg(1).Sub(e.arg(0))
		}
		if c, x, ok := scaled(e); ok { // −(c·x) = (−c)·x
			return x.Mul(e.g.Const(-c))
		}
	}
	return unary(opNeg, e, 0)
}

// Scale returns k · e.
func (e Expr) Scale(k float64) Expr {
	if e.g == nil {
		return e
	}
	return e.g.Const(k).Mul(e)
}

// AddConst returns e + k.
func (e Expr) AddConst(k float64) Expr {
	if e.g == nil {
		return e
	}
	return e.Add(e.g.Const(k))
}

// Sq returns x².
func Sq(x Expr) Expr { return unary(opSq, x, 0) }

// Pow returns x^p for a constant exponent p. Exponents 0, 1, 2, 3, 4, 0.5,
// −1 and −2 are expanded into 1, x, x², x·x², (x²)², √x, 1/x and 1/x²;
// other exponents use math.Pow.
func Pow(x Expr, p float64) Expr {
	if x.g == nil || x.id == 0 {
		return invalid(x)
	}
	switch p {
	case 0:
		return x.g.one()
	case 1:
		return x
	case 2:
		return Sq(x)
	case 0.5:
		return Sqrt(x)
	case -1:
		return x.g.one().Div(x)
	case 3:
		return x.Mul(Sq(x))
	case 4:
		return Sq(Sq(x))
	case -2:
		return x.g.one().Div(Sq(x))
	}
	return unary(opPowC, x, p)
}

// PowInt returns xⁿ.
func PowInt(x Expr, n int) Expr { return Pow(x, float64(n)) }

// PowExpr returns x^y; a constant y gives Pow(x, y).
func PowExpr(x, y Expr) Expr {
	if v, ok := y.IsConst(); ok && x.g == y.g {
		return Pow(x, v)
	}
	return binary(opPow, x, y)
}

// Sqrt returns √x.
func Sqrt(x Expr) Expr { return unary(opSqrt, x, 0) }

// Exp returns eˣ.
func Exp(x Expr) Expr { return unary(opExp, x, 0) }

// Log returns ln x.
func Log(x Expr) Expr { return unary(opLog, x, 0) }

// Sin returns sin x.
func Sin(x Expr) Expr { return unary(opSin, x, 0) }

// Cos returns cos x.
func Cos(x Expr) Expr { return unary(opCos, x, 0) }

// Tan returns tan x.
func Tan(x Expr) Expr { return unary(opTan, x, 0) }

// Atan returns atan x.
func Atan(x Expr) Expr { return unary(opAtan, x, 0) }

// Atan2 returns atan2(y, x), the angle of the point (x, y).
func Atan2(y, x Expr) Expr { return binary(opAtan2, y, x) }

// Tanh returns tanh x.
func Tanh(x Expr) Expr { return unary(opTanh, x, 0) }

// Abs returns |x|. Its derivative is Sign(x), which is 0 at x = 0.
func Abs(x Expr) Expr {
	if x.g != nil && x.id != 0 && x.node().op == opAbs {
		return x
	}
	return unary(opAbs, x, 0)
}

// Sign returns −1, 0 or 1 (Sign(0) = 0). Its derivative is 0 everywhere.
func Sign(x Expr) Expr { return unary(opSign, x, 0) }

// Min returns min(a, b). Ties select a: at a = b the partial derivatives are
// ∂/∂a = 1 and ∂/∂b = 0.
func Min(a, b Expr) Expr {
	if a == b {
		return a
	}
	return binary(opMin, a, b)
}

// Max returns max(a, b). Ties select a: at a = b the partial derivatives are
// ∂/∂a = 1 and ∂/∂b = 0.
func Max(a, b Expr) Expr {
	if a == b {
		return a
	}
	return binary(opMax, a, b)
}

// Gt returns 1 if a > b and 0 otherwise; its derivative is 0.
func Gt(a, b Expr) Expr { return binary(opGt, a, b) }

// Ge returns 1 if a ≥ b and 0 otherwise; its derivative is 0.
func Ge(a, b Expr) Expr { return binary(opGe, a, b) }

// Lt returns 1 if a < b and 0 otherwise; its derivative is 0.
func Lt(a, b Expr) Expr { return Gt(b, a) }

// Le returns 1 if a ≤ b and 0 otherwise; its derivative is 0.
func Le(a, b Expr) Expr { return Ge(b, a) }

// IfElse returns a where cond > 0 and b otherwise (also for cond NaN). Its
// derivative is the derivative of the taken branch; NaN or Inf in the other
// branch (values or derivatives) never reaches the result. cond may be a
// comparison (Gt, Ge, Lt, Le), which is 0 or 1.
func IfElse(cond, a, b Expr) Expr {
	g := same(cond, a, b)
	if g == nil {
		return invalid(cond, a, b)
	}
	if v, ok := cond.IsConst(); ok {
		if v > 0 {
			return a
		}
		return b
	}
	if a == b {
		return a
	}
	return g.add(node{op: opIfElse, a: cond.id, b: a.id, c: b.id})
}

// String returns the expression in infix notation (shared subexpressions
// are printed each time they occur).
func (e Expr) String() string {
	if e.g == nil {
		return "<nil>"
	}
	var sb strings.Builder
	e.write(&sb)
	return sb.String()
}

func (e Expr) write(sb *strings.Builder) {
	n := e.node()
	info := &ops[n.op]
	switch {
	case n.op == opInvalid:
		sb.WriteString("<invalid>")
	case n.op == opConst:
		sb.WriteString(strconv.FormatFloat(n.k, 'g', -1, 64))
	case n.op == opSym:
		sb.WriteString(e.Name())
	case n.op == opNeg:
		sb.WriteString("(-")
		e.arg(0).write(sb)
		sb.WriteString(")")
	case n.op == opPowC:
		sb.WriteString("pow(")
		e.arg(0).write(sb)
		sb.WriteString(", " + strconv.FormatFloat(n.k, 'g', -1, 64) + ")")
	case info.infix != "":
		sb.WriteString("(")
		e.arg(0).write(sb)
		sb.WriteString(" " + info.infix + " ")
		e.arg(1).write(sb)
		sb.WriteString(")")
	default:
		sb.WriteString(info.name + "(")
		for i := 0; i < info.arity; i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			e.arg(i).write(sb)
		}
		sb.WriteString(")")
	}
}
