package ad

import (
	"fmt"
	"slices"
)

// Mode selects how Jacobians are built.
type Mode int

const (
	// Auto builds the Jacobian in both modes and keeps the one whose
	// expressions have fewer operations (forward on a tie). The discarded
	// expressions stay in the graph's arena but are never compiled.
	// JacobianSparseMode (and so JacobianSparse and NewDerivatives) first
	// compares the structural costs of the two modes and builds only the
	// cheaper one when they differ by more than a factor of 4.
	Auto Mode = iota
	// Forward builds the Jacobian column by column (one tangent sweep per
	// variable).
	Forward
	// Reverse builds the Jacobian row by row (one adjoint sweep per output).
	Reverse
)

// checkExprs verifies that all expressions are valid members of one graph
// and returns it (nil when there are no expressions). A zero Expr is
// ErrZeroExpr.
func checkExprs(es ...Vec) (*Graph, error) {
	var g *Graph
	for k, v := range es {
		for i, e := range v {
			if e.g == nil {
				return nil, fmt.Errorf("%w: element %d of argument %d", ErrZeroExpr, i, k)
			}
			if g == nil {
				g = e.g
			}
		}
	}
	if g == nil {
		return nil, nil
	}
	for _, v := range es {
		for _, e := range v {
			if e.g != g {
				return nil, fmt.Errorf("%w: %v", ErrForeignGraph, e)
			}
			if e.id == 0 {
				if g.err != nil {
					return nil, g.err
				}
				return nil, ErrForeignGraph
			}
		}
	}
	return g, nil
}

// checkSymbols verifies that x holds distinct symbols. It does not modify
// the graph (NewFunction may compile from a graph that is not being built).
func checkSymbols(x Vec) error {
	if len(x) == 0 {
		return nil
	}
	g := x[0].g
	oneGraph := true
	for i, e := range x {
		if !e.IsSymbol() {
			return checkSymbolsSlow(x[:i+1])
		}
		oneGraph = oneGraph && e.g == g
	}
	if !oneGraph {
		return checkSymbolsSlow(x)
	}
	ids := make([]int32, len(x))
	for i, e := range x {
		ids[i] = e.id
	}
	slices.Sort(ids)
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			return checkSymbolsSlow(x)
		}
	}
	return nil
}

// checkSymbolsSlow reports the first non-symbol or repeated symbol of x in
// order.
func checkSymbolsSlow(x Vec) error {
	seen := make(map[Expr]bool, len(x))
	for i, e := range x {
		if !e.IsSymbol() {
			return fmt.Errorf("%w: variable %d is %v", ErrNotSymbol, i, e)
		}
		if seen[e] {
			return fmt.Errorf("%w: %s", ErrDuplicateSymbol, e.Name())
		}
		seen[e] = true
	}
	return nil
}

// sweep holds the topologically sorted cone of some root expressions (with a
// node id → cone position map over the whole graph) and the cached partial
// derivatives of its nodes. Compilation and Substitute use it; derivatives
// are built by the cone-restricted sweeps of cone.go.
type sweep struct {
	g        *Graph
	cone     []int32   // node ids reachable from the roots, ascending
	pos      []int32   // node id → index in cone, −1 if absent
	partials [][3]Expr // cached ∂node/∂child, zero Expr = not yet built
	strong   bool      // use strong-zero products in the chain rule
}

func newSweep(g *Graph, roots ...Vec) *sweep {
	n := len(g.nodes)
	mark := make([]bool, n)
	var stack []int32
	for _, v := range roots {
		for _, e := range v {
			if !mark[e.id] {
				mark[e.id] = true
				stack = append(stack, e.id)
			}
		}
	}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := g.nodes[id]
		for i := 0; i < ops[nd.op].arity; i++ {
			c := child(nd, i)
			if !mark[c] {
				mark[c] = true
				stack = append(stack, c)
			}
		}
	}
	s := &sweep{g: g, pos: make([]int32, n)}
	for id := range mark {
		s.pos[id] = -1
		if mark[id] {
			s.pos[id] = int32(len(s.cone))
			s.cone = append(s.cone, int32(id))
			if ops[g.nodes[id].op].nonsm {
				s.strong = true
			}
		}
	}
	s.partials = make([][3]Expr, len(s.cone))
	return s
}

func child(n node, i int) int32 {
	switch i {
	case 0:
		return n.a
	case 1:
		return n.b
	}
	return n.c
}

func (s *sweep) partial(ci, i int) Expr {
	p := s.partials[ci][i]
	if p.g == nil {
		y := Expr{s.g, s.cone[ci]}
		p = ops[y.node().op].partial(y, i)
		s.partials[ci][i] = p
	}
	return p
}

// chain returns seed·p (see chainProduct).
func (s *sweep) chain(seed, p Expr) Expr { return chainProduct(s.strong, seed, p) }

// chainProduct returns seed·p, with the strong-zero product when strong
// (the differentiated expressions contain selecting operations, so that
// 0·NaN = 0 for inactive branches) and neither factor is a finite constant.
func chainProduct(strong bool, seed, p Expr) Expr {
	if !strong {
		return seed.Mul(p)
	}
	if v, ok := p.IsConst(); ok && !isInfOrNaN(v) {
		return seed.Mul(p)
	}
	if v, ok := seed.IsConst(); ok && !isInfOrNaN(v) && v != 0 {
		return seed.Mul(p)
	}
	return seed.mulZ(p)
}

func isInfOrNaN(v float64) bool { return v-v != 0 }

// prepare validates f and x for differentiation.
func prepare(f, x Vec, extra ...Vec) (*Graph, error) {
	all := append([]Vec{f, x}, extra...)
	g, err := checkExprs(all...)
	if err != nil {
		return nil, err
	}
	if err := checkSymbols(x); err != nil {
		return nil, err
	}
	return g, nil
}

// JacobianMode returns the dense Jacobian ∂f/∂x (len(f) × len(x)) as
// expressions, built in the given mode. x must be distinct symbols. Entries
// that are structurally zero are the constant 0 (see Sparse). In Auto mode
// both the forward and the reverse Jacobian are built and the one with fewer
// operations is kept (forward on a tie).
//
// The result is dense (len(f)·len(x) entries); for large problems use
// JacobianSparse or JacobianSparseMode, whose cost grows with the number of
// structural nonzeros and the sizes of the local cones instead.
func JacobianMode(f, x Vec, mode Mode) (Mat, error) {
	g, err := prepare(f, x)
	if err != nil {
		return Mat{}, err
	}
	J := Mat{R: len(f), C: len(x), E: make([]Expr, len(f)*len(x))}
	if g == nil {
		return J, nil // empty
	}
	fillExpr(J.E, g.zero())
	for _, e := range jacobianEntries(g, f, x, mode, false) {
		J.E[int(e.row)*J.C+int(e.col)] = Expr{g, e.v}
	}
	return J, nil
}

// JacobianSparse returns the structurally nonzero entries of ∂f/∂x, built
// in Auto mode (see JacobianSparseMode).
func JacobianSparse(f, x Vec) (SparseMat, error) { return JacobianSparseMode(f, x, Auto) }

// JacobianSparseMode returns the structurally nonzero entries of ∂f/∂x
// without forming the dense matrix. Forward builds it column by column, one
// tangent sweep per variable over the nodes that depend on it; Reverse row
// by row, one adjoint sweep per output over the nodes of its cone that
// depend on a variable. The work is the total size of these sub-cones, which
// is linear in the problem size for problems with local structure.
//
// Auto first measures both totals structurally. When they are within a
// factor of 4 of each other it builds both and keeps the one with fewer
// operations, as JacobianMode does (the result is then the same as
// Sparse(Jacobian(f, x))); otherwise it builds only the cheaper one. The
// values agree with the other mode's to rounding, and the pattern is the
// same (structural zeros are removed in either mode), except for outputs
// computed by Solve or SolveSym, whose implicit forward-mode derivatives can
// have fewer structural nonzeros than reverse mode's differentiation
// through the elimination.
func JacobianSparseMode(f, x Vec, mode Mode) (SparseMat, error) {
	g, err := prepare(f, x)
	if err != nil {
		return SparseMat{}, err
	}
	if g == nil {
		return sparseFromEntries(nil, len(f), len(x), nil), nil
	}
	return sparseFromEntries(g, len(f), len(x), jacobianEntries(g, f, x, mode, true)), nil
}

// jacobianEntries builds the nonzeros of ∂f/∂x in CSC order. In Auto mode
// with cheap, it builds only the cheaper mode unless the two are comparable
// (see JacobianSparseMode); without cheap it always builds both.
func jacobianEntries(g *Graph, f, x Vec, mode Mode, cheap bool) []entry {
	d := newReq(g, f)
	defer d.release()
	d.setVars(x)
	d.setRows(f)
	switch mode {
	case Forward:
		return d.columns(x, false)
	case Auto:
		if cheap {
			rev, fwd := d.cost(x, false)
			switch {
			case rev >= 0 && fwd >= 0 && max(rev, fwd) <= 4*min(rev, fwd):
			case fwd < 0 || (rev >= 0 && rev < fwd):
				return d.rows(false)
			default:
				return d.columns(x, false)
			}
		}
		ef := d.columns(x, false)
		er := d.rows(false)
		if opsInEntries(g, er) < opsInEntries(g, ef) {
			return er
		}
		return ef
	default:
		return d.rows(false)
	}
}

// Jacobian returns ∂f/∂x in Auto mode (the cheaper of forward and reverse).
func Jacobian(f, x Vec) (Mat, error) { return JacobianMode(f, x, Auto) }

// Gradient returns ∇f with respect to x (one reverse sweep).
func Gradient(f Expr, x Vec) (Vec, error) {
	g, err := prepare(Vec{f}, x)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return nil, fmt.Errorf("%w: Gradient of the zero Expr", ErrZeroExpr)
	}
	return vjp(g, Vec{f}, x, Vec{g.one()}), nil
}

// JVP returns the Jacobian-vector product (∂f/∂x)·v as expressions, using one
// forward sweep. v may contain arbitrary expressions.
func JVP(f, x, v Vec) (Vec, error) {
	if len(v) != len(x) {
		return nil, fmt.Errorf("%w: JVP: len(v)=%d, len(x)=%d", ErrDimension, len(v), len(x))
	}
	g, err := prepare(f, x, v)
	if err != nil {
		return nil, err
	}
	out := make(Vec, len(f))
	if g == nil {
		return out, nil
	}
	d := newReq(g, f)
	defer d.release()
	xid := make([]int32, len(x))
	for k, xk := range x {
		xid[k] = xk.id
		if ci := d.pos.get(xk.id); ci >= 0 && !v[k].IsZero() {
			d.val[ci] = v[k].id
		}
	}
	d.newVisit()
	for ci := range d.cone {
		d.visit(int32(ci))
	}
	d.forward(d.list, xid, v)
	zero := g.zero()
	for i, fi := range f {
		out[i] = zero
		if t := d.val[d.pos.get(fi.id)]; t != 0 {
			out[i] = Expr{g, t}
		}
	}
	return out, nil
}

// VJP returns the vector-Jacobian product wᵀ(∂f/∂x) as expressions, using one
// reverse sweep. w may contain arbitrary expressions.
func VJP(f, x, w Vec) (Vec, error) {
	if len(w) != len(f) {
		return nil, fmt.Errorf("%w: VJP: len(w)=%d, len(f)=%d", ErrDimension, len(w), len(f))
	}
	g, err := prepare(f, x, w)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return make(Vec, len(x)), nil
	}
	return vjp(g, f, x, w), nil
}

// vjp is VJP for validated arguments: one reverse sweep over the nodes of
// the cone of f that depend on a variable.
func vjp(g *Graph, f, x, w Vec) Vec {
	d := newReq(g, f)
	defer d.release()
	d.setVars(x)
	d.newVisit()
	for ci := range d.cone {
		if d.minVar[ci] != noVar {
			d.visit(int32(ci))
		}
	}
	for k, e := range f {
		if w[k].IsZero() {
			continue
		}
		ci := d.pos.get(e.id)
		if t := d.val[ci]; t == 0 {
			d.val[ci] = w[k].id
		} else {
			d.val[ci] = Expr{g, t}.Add(w[k]).id
		}
	}
	d.reverse(d.list)
	out := make(Vec, len(x))
	zero := g.zero()
	for j, xj := range x {
		out[j] = zero
		if ci := d.pos.get(xj.id); ci >= 0 {
			if t := d.val[ci]; t != 0 {
				out[j] = Expr{g, t}
			}
		}
	}
	return out
}

// Hessian returns the full Hessian ∇²f with respect to x, computed forward
// over reverse: the Jacobian (forward mode) of the reverse-mode gradient.
// The two triangles are built independently and agree to rounding.
func Hessian(f Expr, x Vec) (Mat, error) {
	grad, err := Gradient(f, x)
	if err != nil {
		return Mat{}, err
	}
	return JacobianMode(grad, x, Forward)
}

// LagrangianHessian returns the lower triangle (i ≥ j) of
// ∇²ₓ(σ·f + Σᵢ λᵢ·gᵢ) as a sparse matrix of expressions, without structural
// zeros. f may be the zero Expr (no objective; sigma is then ignored).
// sigma and lambda may be symbols or any expressions.
//
// It builds the gradient ∇ₓL by one reverse sweep and then the lower
// triangle of its Jacobian, by default column by column (forward over
// reverse; column j sweeps only the nodes that depend on xⱼ and feed a
// gradient component i ≥ j), or row by row (component i's reverse sweep
// over the nodes of its cone that depend on some xⱼ, j ≤ i) when the
// structural estimate of that is more than 4 times cheaper. The cost is the
// total size of these sub-cones, linear in the problem size for problems
// with local structure.
func LagrangianHessian(x Vec, sigma, f Expr, lambda, g Vec) (SparseMat, error) {
	if len(lambda) != len(g) {
		return SparseMat{}, fmt.Errorf("%w: LagrangianHessian: len(lambda)=%d, len(g)=%d", ErrDimension, len(lambda), len(g))
	}
	outs, seeds := Vec{}, Vec{}
	if f.g != nil {
		outs, seeds = append(outs, f), append(seeds, sigma)
	}
	outs = append(outs, g...)
	seeds = append(seeds, lambda...)
	gr, err := prepare(outs, x, seeds)
	if err != nil {
		return SparseMat{}, err
	}
	n := len(x)
	if gr == nil {
		return SparseMat{Pattern: newSparsityFromColumns(n, n, make([][]int, n)), Values: Vec{}}, nil
	}
	return lowerJacobian(gr, vjp(gr, outs, x, seeds), x), nil
}

// lowerJacobian returns the lower triangle of ∂grad/∂x in CSC order.
func lowerJacobian(g *Graph, grad, x Vec) SparseMat {
	d := newReq(g, grad)
	defer d.release()
	d.setVars(x)
	d.setRows(grad)
	var es []entry
	if rev, fwd := d.cost(x, true); fwd < 0 || (rev >= 0 && fwd > 4*rev) {
		es = d.rows(true)
	} else {
		es = d.columns(x, true)
	}
	return sparseFromEntries(g, len(grad), len(x), es)
}

// fillExpr sets every element of v to e, by doubling copies (bulk moves are
// much cheaper than element stores for large pointer-holding slices).
func fillExpr(v []Expr, e Expr) {
	if len(v) == 0 {
		return
	}
	v[0] = e
	for k := 1; k < len(v); k *= 2 {
		copy(v[k:], v[:k])
	}
}
