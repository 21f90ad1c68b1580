package ad

import (
	"fmt"
	"slices"
)

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
// into a new graph and returns it with the copies in the same layout (see
// Copier; all expressions are copied at once, so the copy numbers the nodes
// in the order of the original).
//
// All valid expressions of args must belong to g (checked by the caller);
// zero Exprs are kept as zero Exprs.
func copyArgs(g *Graph, args ...[]Arg) (*Graph, [][]Arg) {
	c := NewCopier(g)
	var all Vec
	for _, as := range args {
		for _, a := range as {
			all = append(all, a.V...)
		}
	}
	all = c.Vec(all)
	out := make([][]Arg, len(args))
	k := 0
	for i, as := range args {
		out[i] = make([]Arg, len(as))
		for j, a := range as {
			out[i][j] = Arg{Name: a.Name, V: all[k : k+len(a.V) : k+len(a.V)]}
			k += len(a.V)
		}
	}
	return c.Graph(), out
}

// Copier copies expressions of a source graph, with everything they depend
// on, into a new graph that it owns (Graph).
//
// The cone is copied node for node in id order with the children
// renumbered: no simplification is applied, so the copy has exactly the
// structure of the original and the functions compiled from it compute the
// same values. A symbol becomes a new symbol of the same name. Every source
// node is copied at most once, so expressions copied by separate calls
// share their common parts in the copy as in the source, and copying the
// same symbol twice gives the same new symbol. Linear solves recorded by
// Solve/SolveSym whose results are copied are recorded again in the copy
// (their matrix and right-hand side are copied with them), so forward mode
// differentiates them implicitly as in the original.
//
// The source graph is only read: several Copiers, also in several
// goroutines, may copy from one graph, as long as nobody adds nodes to it
// at the same time. The new graph belongs to the Copier's user; a Copier is
// not safe for concurrent use.
type Copier struct {
	src, dst *Graph
	idmap    []int32  // source id → copy id (0: not copied yet)
	stamp    []uint32 // source id → call that marked it (see Vec)
	gen      uint32
	solved   []bool // source solve records registered in the copy
}

// NewCopier returns a Copier from src into a new empty graph. A
// construction error of src (Graph.Err) is carried over to the new graph.
func NewCopier(src *Graph) *Copier {
	c := &Copier{src: src, dst: NewGraph()}
	if src != nil {
		c.dst.err = src.err
	}
	return c
}

// Source returns the graph the Copier copies from.
func (c *Copier) Source() *Graph { return c.src }

// Graph returns the graph the copies live in.
func (c *Copier) Graph() *Graph { return c.dst }

// Expr returns the copy of e. The zero Expr stays the zero Expr, an
// expression of the new graph is returned unchanged, and an invalid
// expression of the source graph gives an invalid expression of the new
// graph. An expression of any other graph gives an invalid expression and
// records ErrForeignGraph in the new graph (Graph().Err()).
func (c *Copier) Expr(e Expr) Expr { return c.Vec(Vec{e})[0] }

// Vec returns the copies of the expressions of v (see Expr), in a new
// slice.
func (c *Copier) Vec(v Vec) Vec {
	g, h := c.src, c.dst
	out := make(Vec, len(v))
	if g != nil && len(c.idmap) < len(g.nodes) {
		c.idmap = append(c.idmap, make([]int32, len(g.nodes)-len(c.idmap))...)
		c.stamp = append(c.stamp, make([]uint32, len(g.nodes)-len(c.stamp))...)
	}
	// Mark the source nodes to copy: the cones of v and of every recorded
	// solve whose result is reached, in rounds until no new solve is hit.
	// Marks are stamps of this call's generation.
	c.gen++
	if c.gen == 0 {
		clear(c.stamp)
		c.gen = 1
	}
	marked := func(id int32) bool { return c.stamp[id] == c.gen }
	var stack, ids []int32
	push := func(id int32) {
		if id > 0 && c.idmap[id] == 0 && !marked(id) {
			c.stamp[id] = c.gen
			stack = append(stack, id)
			ids = append(ids, id)
		}
	}
	closure := func() {
		for len(stack) > 0 {
			id := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			nd := g.nodes[id]
			for i := 0; i < ops[nd.op].arity; i++ {
				push(child(nd, i))
			}
		}
	}
	for i, e := range v {
		switch {
		case e.g == nil:
			out[i] = e
		case e.g == h:
			out[i] = e
		case e.g != g:
			if h.err == nil {
				h.err = fmt.Errorf("%w: copying %v", ErrForeignGraph, e)
			}
			out[i] = Expr{h, 0}
		default:
			push(e.id)
		}
	}
	closure()
	if g != nil && len(c.solved) < len(g.solves) {
		c.solved = append(c.solved, make([]bool, len(g.solves)-len(c.solved))...)
	}
	var newSolves []int
	for changed := len(ids) > 0; changed; {
		changed = false
		for r := range c.solved {
			if c.solved[r] {
				continue
			}
			rec := g.solves[r]
			hit := false
			for _, e := range rec.x {
				if marked(e.id) {
					hit = true
					break
				}
			}
			if !hit {
				continue
			}
			c.solved[r], changed = true, true
			newSolves = append(newSolves, r)
			for _, vs := range []Vec{rec.m.E, rec.b, rec.x} {
				for _, e := range vs {
					push(e.id)
				}
			}
			closure()
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		nd := g.nodes[id]
		switch nd.op {
		case opSym:
			c.idmap[id] = h.Sym(g.names[int(nd.k)]).id
		case opConst:
			c.idmap[id] = h.Const(nd.k).id
		default:
			cp := nd
			ar := ops[nd.op].arity
			if ar > 0 {
				cp.a = c.idmap[nd.a]
			}
			if ar > 1 {
				cp.b = c.idmap[nd.b]
			}
			if ar > 2 {
				cp.c = c.idmap[nd.c]
			}
			c.idmap[id] = h.add(cp).id
		}
	}
	conv := func(e Expr) Expr {
		if e.id == 0 {
			return Expr{h, 0}
		}
		return Expr{h, c.idmap[e.id]}
	}
	convVec := func(v Vec) Vec {
		out := make(Vec, len(v))
		for i, e := range v {
			out[i] = conv(e)
		}
		return out
	}
	for _, r := range newSolves {
		rec := g.solves[r]
		h.registerSolve(Mat{R: rec.m.R, C: rec.m.C, E: convVec(rec.m.E)}, convVec(rec.b), convVec(rec.x), rec.sym)
	}
	for i, e := range v {
		if e.g == g && g != nil {
			out[i] = conv(e)
		}
	}
	return out
}
