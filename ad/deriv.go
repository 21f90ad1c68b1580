package ad

import "fmt"

// Mode selects how Jacobians are built.
type Mode int

const (
	// Auto builds the Jacobian in both modes and keeps the one whose
	// expressions have fewer operations (forward on a tie). The discarded
	// expressions stay in the graph's arena but are never compiled.
	Auto Mode = iota
	// Forward builds the Jacobian column by column (one tangent sweep per
	// variable).
	Forward
	// Reverse builds the Jacobian row by row (one adjoint sweep per output).
	Reverse
)

// checkExprs verifies that all expressions are valid members of one graph
// and returns it.
func checkExprs(es ...Vec) (*Graph, error) {
	var g *Graph
	for _, v := range es {
		for _, e := range v {
			if g == nil && e.g != nil {
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

// checkSymbols verifies that x holds distinct symbols.
func checkSymbols(x Vec) error {
	seen := make(map[int32]bool, len(x))
	for i, e := range x {
		if !e.IsSymbol() {
			return fmt.Errorf("%w: variable %d is %v", ErrNotSymbol, i, e)
		}
		if seen[e.id] {
			return fmt.Errorf("%w: %s", ErrDuplicateSymbol, e.Name())
		}
		seen[e.id] = true
	}
	return nil
}

// sweep holds the topologically sorted cone of some root expressions and the
// cached partial derivatives of its nodes; it performs forward (tangent) and
// reverse (adjoint) sweeps that build derivative expressions.
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

// chain returns seed·p, with the strong-zero product when the swept
// expressions contain selecting operations (so that 0·NaN = 0 for inactive
// branches) and neither factor is a finite constant.
func (s *sweep) chain(seed, p Expr) Expr {
	if !s.strong {
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

// forward propagates tangents from the symbol seeds (node id → tangent) and
// returns the tangent of every cone node (zero Expr = structurally zero).
func (s *sweep) forward(seedID []int32, seed Vec, tan []Expr) []Expr {
	if tan == nil {
		tan = make([]Expr, len(s.cone))
	} else {
		clear(tan)
	}
	for k, id := range seedID {
		if p := s.pos[id]; p >= 0 && !seed[k].IsZero() {
			tan[p] = seed[k]
		}
	}
	var groups map[int32]Vec // solve index → implicit tangent (nil: fall back)
	for ci, id := range s.cone {
		nd := s.g.nodes[id]
		if nd.op == opSym || nd.op == opConst {
			continue
		}
		if rc, ok := s.g.solveOf[id]; ok {
			if groups == nil {
				groups = map[int32]Vec{}
			}
			gt, done := groups[rc[0]]
			if !done {
				gt = s.solveTangent(rc[0], ci, seedID, seed, tan)
				groups[rc[0]] = gt
			}
			if gt != nil {
				if t := gt[rc[1]]; !t.IsZero() {
					tan[ci] = t
				}
				continue
			}
		}
		var acc Expr
		for i := 0; i < ops[nd.op].arity; i++ {
			t := tan[s.pos[child(nd, i)]]
			if t.g == nil {
				continue
			}
			p := s.partial(ci, i)
			if p.IsZero() {
				continue
			}
			term := s.chain(t, p)
			if acc.g == nil {
				acc = term
			} else {
				acc = acc.Add(term)
			}
		}
		if acc.g != nil && !acc.IsZero() {
			tan[ci] = acc
		}
	}
	return tan
}

// solveTangent returns the tangent of the results of recorded solve r,
// ẋ = M⁻¹(ḃ − Ṁx), from the tangents of the entries of M and b (which
// precede x in topological order). It returns nil, so that the caller
// differentiates through the elimination instead, if that order does not
// hold.
func (s *sweep) solveTangent(r int32, cur int, seedID []int32, seed Vec, tan []Expr) Vec {
	rec := s.g.solves[r]
	n := len(rec.b)
	zero := s.g.zero()
	ok := true
	// Entries of M and b may have been absorbed by simplification (for
	// example c·(c′·y) = (cc′)·y), so that they are not nodes of the swept
	// cone; their tangents are then built here from their children.
	memo := map[int32]Expr{}
	var tanID func(id int32) Expr
	tanID = func(id int32) Expr {
		if p := s.pos[id]; p >= 0 {
			if int(p) >= cur {
				ok = false // not yet swept (cannot happen for true solves)
				return zero
			}
			if t := tan[p]; t.g != nil {
				return t
			}
			return zero
		}
		if t, done := memo[id]; done {
			return t
		}
		nd := s.g.nodes[id]
		acc := zero
		switch nd.op {
		case opConst:
		case opSym:
			for k, sid := range seedID {
				if sid == id {
					acc = seed[k]
				}
			}
		default:
			y := Expr{s.g, id}
			for i := 0; i < ops[nd.op].arity; i++ {
				t := tanID(child(nd, i))
				if t.IsZero() {
					continue
				}
				if p := ops[nd.op].partial(y, i); !p.IsZero() {
					acc = acc.Add(s.chain(t, p))
				}
			}
		}
		memo[id] = acc
		return acc
	}
	tanOf := func(e Expr) Expr { return tanID(e.id) }
	mdot := func(i, j int) Expr {
		if rec.sym && i < j {
			i, j = j, i
		}
		return tanOf(rec.m.E[i*n+j])
	}
	rhs := make(Vec, n)
	any := false
	for i := 0; i < n; i++ {
		acc := tanOf(rec.b[i])
		for j := 0; j < n; j++ {
			if md := mdot(i, j); !md.IsZero() {
				acc = acc.Sub(s.chain(md, rec.x[j]))
			}
		}
		rhs[i] = acc
		any = any || !acc.IsZero()
	}
	if !ok {
		return nil
	}
	if !any {
		return s.g.Zeros(n)
	}
	var dx Vec
	var err error
	if rec.sym {
		dx, err = SolveSym(rec.m, rhs)
	} else {
		dx, err = Solve(rec.m, rhs)
	}
	if err != nil {
		return nil
	}
	return dx
}

// reverse propagates adjoints from the root seeds and returns the adjoint of
// every cone node (zero Expr = structurally zero).
func (s *sweep) reverse(rootID []int32, seed Vec, adj []Expr) []Expr {
	if adj == nil {
		adj = make([]Expr, len(s.cone))
	} else {
		clear(adj)
	}
	for k, id := range rootID {
		if seed[k].IsZero() {
			continue
		}
		p := s.pos[id]
		if adj[p].g == nil {
			adj[p] = seed[k]
		} else {
			adj[p] = adj[p].Add(seed[k])
		}
	}
	for ci := len(s.cone) - 1; ci >= 0; ci-- {
		a := adj[ci]
		if a.g == nil || a.IsZero() {
			continue
		}
		nd := s.g.nodes[s.cone[ci]]
		for i := 0; i < ops[nd.op].arity; i++ {
			p := s.partial(ci, i)
			if p.IsZero() {
				continue
			}
			c := s.pos[child(nd, i)]
			term := s.chain(a, p)
			if adj[c].g == nil {
				adj[c] = term
			} else {
				adj[c] = adj[c].Add(term)
			}
		}
	}
	return adj
}

func ids(v Vec) []int32 {
	out := make([]int32, len(v))
	for i, e := range v {
		out[i] = e.id
	}
	return out
}

func (s *sweep) pick(vals []Expr, id int32) Expr {
	if p := s.pos[id]; p >= 0 && vals[p].g != nil {
		return vals[p]
	}
	return s.g.zero()
}

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
// that are structurally zero are the constant 0 (see Sparse).
func JacobianMode(f, x Vec, mode Mode) (Mat, error) {
	g, err := prepare(f, x)
	if err != nil {
		return Mat{}, err
	}
	J := Mat{R: len(f), C: len(x), E: make([]Expr, len(f)*len(x))}
	if g == nil {
		return J, nil // empty
	}
	for i := range J.E {
		J.E[i] = g.zero()
	}
	if mode == Auto {
		Jf, err := JacobianMode(f, x, Forward)
		if err != nil {
			return Mat{}, err
		}
		Jr, err := JacobianMode(f, x, Reverse)
		if err != nil {
			return Mat{}, err
		}
		if numOpsIn(g, Jr.E) < numOpsIn(g, Jf.E) {
			return Jr, nil
		}
		return Jf, nil
	}
	s := newSweep(g, f)
	fid, xid := ids(f), ids(x)
	one := Vec{g.one()}
	var buf []Expr
	switch mode {
	case Forward:
		for j := range x {
			buf = s.forward(xid[j:j+1], one, buf)
			for i := range f {
				J.E[i*J.C+j] = s.pick(buf, fid[i])
			}
		}
	default:
		for i := range f {
			buf = s.reverse(fid[i:i+1], one, buf)
			for j := range x {
				J.E[i*J.C+j] = s.pick(buf, xid[j])
			}
		}
	}
	return J, nil
}

// numOpsIn returns the number of operation nodes in the cone of es.
func numOpsIn(g *Graph, es Vec) int {
	s := newSweep(g, es)
	n := 0
	for _, id := range s.cone {
		if o := g.nodes[id].op; o != opConst && o != opSym {
			n++
		}
	}
	return n
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
		return nil, fmt.Errorf("%w: zero expression", ErrForeignGraph)
	}
	s := newSweep(g, Vec{f})
	adj := s.reverse([]int32{f.id}, Vec{g.one()}, nil)
	out := make(Vec, len(x))
	for j, xj := range x {
		out[j] = s.pick(adj, xj.id)
	}
	return out, nil
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
	s := newSweep(g, f)
	tan := s.forward(ids(x), v, nil)
	for i, fi := range f {
		out[i] = s.pick(tan, fi.id)
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
	out := make(Vec, len(x))
	if g == nil {
		return out, nil
	}
	s := newSweep(g, f)
	adj := s.reverse(ids(f), w, nil)
	for j, xj := range x {
		out[j] = s.pick(adj, xj.id)
	}
	return out, nil
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
	grad, err := VJP(outs, x, seeds)
	if err != nil {
		return SparseMat{}, err
	}
	return lowerJacobian(grad, x)
}

// lowerJacobian returns the lower triangle of ∂grad/∂x in CSC order.
func lowerJacobian(grad, x Vec) (SparseMat, error) {
	g, err := prepare(grad, x)
	if err != nil {
		return SparseMat{}, err
	}
	n := len(x)
	cols := make([][]int, n)
	var vals Vec
	if g == nil {
		return SparseMat{Pattern: newSparsityFromColumns(n, n, cols), Values: Vec{}}, nil
	}
	s := newSweep(g, grad)
	xid, gid := ids(x), ids(grad)
	one := Vec{g.one()}
	var buf []Expr
	for j := 0; j < n; j++ {
		buf = s.forward(xid[j:j+1], one, buf)
		for i := j; i < len(grad); i++ {
			if v := s.pick(buf, gid[i]); !v.IsZero() {
				cols[j] = append(cols[j], i)
				vals = append(vals, v)
			}
		}
	}
	return SparseMat{Pattern: newSparsityFromColumns(len(grad), n, cols), Values: vals}, nil
}
