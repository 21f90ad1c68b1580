package ad

import "fmt"

// CopyArgs copies the expressions of the argument lists, with everything
// they depend on, into a new graph and returns the copies in the same
// layout. Derivatives built from the copies (with their own new symbols,
// such as multipliers) live in the new graph, which is garbage once the
// compiled Functions are made and the copies dropped: a Graph never frees
// nodes, so this keeps the caller's graph from growing with every NLP
// compiled from it (NewDerivatives and nlp/adnlp do this).
//
// Errors: expressions of different graphs or invalid expressions
// (ErrForeignGraph, or the graph's construction error). Zero Exprs are kept
// as zero Exprs; when no expression is valid the copies are in an empty new
// graph.
func CopyArgs(args ...[]Arg) ([][]Arg, error) {
	var vs []Vec
	for _, as := range args {
		for _, a := range as {
			var v Vec
			for _, e := range a.V {
				if e != (Expr{}) {
					v = append(v, e)
				}
			}
			vs = append(vs, v)
		}
	}
	g, err := checkExprs(vs...)
	if err != nil {
		return nil, fmt.Errorf("ad: CopyArgs: %w", err)
	}
	if g == nil {
		g = NewGraph()
	}
	_, out := copyArgs(g, args...)
	return out, nil
}

// copyArgs copies the expressions of args, with everything they depend on,
// into a new graph and returns it with the copies in the same layout.
//
// The cone is copied node for node in id order with the children renumbered:
// no simplification is applied, so the copy has exactly the structure of the
// original and the functions compiled from it compute the same values. A
// symbol becomes a new symbol of the same name. Linear solves recorded by
// Solve/SolveSym whose results are in the cone are recorded again in the copy
// (their matrix and right-hand side are copied with them), so forward mode
// differentiates them implicitly as in the original.
//
// All valid expressions of args must belong to g (checked by the caller);
// zero Exprs are kept as zero Exprs.
func copyArgs(g *Graph, args ...[]Arg) (*Graph, [][]Arg) {
	n := len(g.nodes)
	mark := make([]bool, n)
	var stack []int32
	push := func(e Expr) {
		if e.g != nil && e.id > 0 && !mark[e.id] {
			mark[e.id] = true
			stack = append(stack, e.id)
		}
	}
	closure := func() {
		for len(stack) > 0 {
			id := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			nd := g.nodes[id]
			for i := 0; i < ops[nd.op].arity; i++ {
				if c := child(nd, i); !mark[c] {
					mark[c] = true
					stack = append(stack, c)
				}
			}
		}
	}
	for _, as := range args {
		for _, a := range as {
			for _, e := range a.V {
				push(e)
			}
		}
	}
	closure()
	// Recorded solves with a result in the cone bring their matrix and
	// right-hand side along; repeat until no new solve is reached.
	inSolve := make([]bool, len(g.solves))
	for changed := true; changed; {
		changed = false
		for r, rec := range g.solves {
			if inSolve[r] {
				continue
			}
			hit := false
			for _, e := range rec.x {
				if mark[e.id] {
					hit = true
					break
				}
			}
			if !hit {
				continue
			}
			inSolve[r], changed = true, true
			for _, e := range rec.m.E {
				push(e)
			}
			for _, e := range rec.b {
				push(e)
			}
			for _, e := range rec.x {
				push(e)
			}
			closure()
		}
	}

	h := NewGraph()
	idmap := make([]int32, n)
	for id := 1; id < n; id++ {
		if !mark[id] {
			continue
		}
		nd := g.nodes[id]
		switch nd.op {
		case opSym:
			idmap[id] = h.Sym(g.names[int(nd.k)]).id
		case opConst:
			idmap[id] = h.Const(nd.k).id
		default:
			c := nd
			ar := ops[nd.op].arity
			if ar > 0 {
				c.a = idmap[nd.a]
			}
			if ar > 1 {
				c.b = idmap[nd.b]
			}
			if ar > 2 {
				c.c = idmap[nd.c]
			}
			idmap[id] = h.add(c).id
		}
	}
	conv := func(e Expr) Expr {
		if e.g == nil || e.id == 0 {
			return e
		}
		return Expr{h, idmap[e.id]}
	}
	convVec := func(v Vec) Vec {
		out := make(Vec, len(v))
		for i, e := range v {
			out[i] = conv(e)
		}
		return out
	}
	for r, rec := range g.solves {
		if inSolve[r] {
			h.registerSolve(Mat{R: rec.m.R, C: rec.m.C, E: convVec(rec.m.E)}, convVec(rec.b), convVec(rec.x), rec.sym)
		}
	}
	out := make([][]Arg, len(args))
	for i, as := range args {
		out[i] = make([]Arg, len(as))
		for j, a := range as {
			out[i][j] = Arg{Name: a.Name, V: convVec(a.V)}
		}
	}
	return h, out
}
