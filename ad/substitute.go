package ad

import "fmt"

// Substitute returns exprs with every occurrence of the symbol from[i]
// replaced by the expression to[i], in the same graph.
//
// The cone of exprs is rebuilt once in topological (id) order through the
// public constructors, so the usual construction-time simplifications apply
// to the result (substituting a constant 0 for x turns x·y into 0) and
// structurally equal results share nodes with existing ones. Nodes whose cone
// contains none of the symbols in from are reused unchanged. The replacement
// is simultaneous: a symbol of from that occurs in some to[j] is not replaced
// again.
//
// Forward-mode derivatives of expressions that went through Solve or
// SolveSym differentiate the substituted elimination explicitly (the
// implicit rule of recorded solves applies to the original results only);
// both give the same derivative.
//
// Errors: len(from) ≠ len(to) (ErrDimension), an element of from that is not
// a symbol (ErrNotSymbol) or repeated (ErrDuplicateSymbol), and expressions of
// different graphs or invalid expressions (ErrForeignGraph). An empty exprs
// gives an empty result.
func Substitute(exprs Vec, from, to Vec) (Vec, error) {
	if len(from) != len(to) {
		return nil, fmt.Errorf("%w: Substitute with %d symbols and %d replacements", ErrDimension, len(from), len(to))
	}
	g, err := checkExprs(exprs, from, to)
	if err != nil {
		return nil, err
	}
	if err := checkSymbols(from); err != nil {
		return nil, err
	}
	out := make(Vec, len(exprs))
	if g == nil || len(exprs) == 0 {
		copy(out, exprs)
		return out, nil
	}
	if len(from) == 0 {
		copy(out, exprs)
		return out, nil
	}
	// Cone of exprs in ascending id order (a topological order).
	s := newSweep(g, exprs)
	repl := make([]Expr, len(s.cone)) // zero Expr: node unchanged
	for i, e := range from {
		if p := s.pos[e.id]; p >= 0 {
			repl[p] = to[i]
		}
	}
	for ci, id := range s.cone {
		n := g.nodes[id]
		if n.op == opSym || n.op == opConst {
			continue
		}
		ar := ops[n.op].arity
		changed := false
		var kids [3]Expr
		for i := 0; i < ar; i++ {
			c := child(n, i)
			kids[i] = Expr{g, c}
			if r := repl[s.pos[c]]; r.g != nil {
				kids[i] = r
				changed = true
			}
		}
		if changed {
			repl[ci] = rebuild(n, kids)
		}
	}
	for i, e := range exprs {
		if r := repl[s.pos[e.id]]; r.g != nil {
			out[i] = r
		} else {
			out[i] = e
		}
	}
	if g.err != nil {
		return nil, g.err
	}
	for i, e := range out {
		if !e.IsValid() {
			return nil, fmt.Errorf("%w: Substitute produced an invalid expression for output %d", ErrForeignGraph, i)
		}
	}
	return out, nil
}

// rebuild applies the operation of n to new children through the public
// constructors (with their simplifications).
func rebuild(n node, k [3]Expr) Expr {
	a, b, c := k[0], k[1], k[2]
	switch n.op {
	case opAdd:
		return a.Add(b)
	case opSub:
		return a.Sub(b)
	case opMul:
		return a.Mul(b)
	case opMulZ:
		return a.mulZ(b)
	case opDiv:
		return a.Div(b)
	case opNeg:
		return a.Neg()
	case opSq:
		return Sq(a)
	case opPowC:
		return Pow(a, n.k)
	case opPow:
		return PowExpr(a, b)
	case opSqrt:
		return Sqrt(a)
	case opExp:
		return Exp(a)
	case opLog:
		return Log(a)
	case opSin:
		return Sin(a)
	case opCos:
		return Cos(a)
	case opTan:
		return Tan(a)
	case opAtan:
		return Atan(a)
	case opAtan2:
		return Atan2(a, b)
	case opTanh:
		return Tanh(a)
	case opAbs:
		return Abs(a)
	case opSign:
		return Sign(a)
	case opMin:
		return Min(a, b)
	case opMax:
		return Max(a, b)
	case opGt:
		return Gt(a, b)
	case opGe:
		return Ge(a, b)
	case opIfElse:
		return IfElse(a, b, c)
	}
	// Unknown operations cannot occur: the table above covers every op with
	// children. Return an invalid expression rather than panicking.
	return invalid(a)
}
