package ad

import (
	"math"
	"slices"
)

// This file holds the machinery that makes derivative construction scale
// with the size of the derivative rather than with (size of the graph) ×
// (number of variables or outputs):
//
//   - idSet: a reusable node-id → int32 map over the graph's arena, emptied
//     in O(1) by a generation counter, pooled in the Graph, so that a
//     derivative request does not allocate or clear arrays the size of the
//     whole graph;
//   - dreq: one derivative request over the cone of some outputs, with the
//     cone's child and (on demand) parent adjacency built once, cached
//     partial derivatives, per-node dependency summaries (smallest variable
//     index, largest output row), and sweep state indexed by cone position;
//   - sweeps restricted to sub-cones: a forward sweep for variable xⱼ visits
//     only the nodes that depend on xⱼ, a reverse sweep for output i only the
//     nodes of the cone of output i that depend on a variable.
//
// A restricted sweep visits the nodes that carry a nonzero tangent or adjoint
// in the same (id) order as a sweep over the whole cone, so it builds exactly
// the same derivative expressions.

// idSet maps node ids to int32 values. Ids not set since the last reset are
// absent. Graphs keep a small pool of them (Graph.getSet / putSet).
type idSet struct {
	gen   uint32
	stamp []uint32
	val   []int32
}

// getSet returns an empty idSet covering the graph's current nodes.
func (g *Graph) getSet() *idSet {
	var s *idSet
	if k := len(g.sets); k > 0 {
		s = g.sets[k-1]
		g.sets = g.sets[:k-1]
	} else {
		s = &idSet{}
	}
	if n := len(g.nodes); len(s.stamp) < n {
		n += n / 4
		s.stamp = append(s.stamp, make([]uint32, n-len(s.stamp))...)
		s.val = append(s.val, make([]int32, n-len(s.val))...)
	}
	s.gen++
	if s.gen == 0 {
		clear(s.stamp)
		s.gen = 1
	}
	return s
}

// putSet returns s to the graph's pool.
func (g *Graph) putSet(s *idSet) { g.sets = append(g.sets, s) }

func (s *idSet) has(id int32) bool { return int(id) < len(s.stamp) && s.stamp[id] == s.gen }

// get returns the value of id, or −1 if it is absent.
func (s *idSet) get(id int32) int32 {
	if int(id) < len(s.stamp) && s.stamp[id] == s.gen {
		return s.val[id]
	}
	return -1
}

func (s *idSet) set(id, v int32) {
	if int(id) >= len(s.stamp) {
		n := int(id) + 1 + len(s.stamp)/4
		s.stamp = append(s.stamp, make([]uint32, n-len(s.stamp))...)
		s.val = append(s.val, make([]int32, n-len(s.val))...)
	}
	s.stamp[id] = s.gen
	s.val[id] = v
}

const noVar = math.MaxInt32 // minVar of a node that depends on no variable

// dreq is one derivative request: the cone of some root expressions (all
// nodes reachable from them, ascending ids), with adjacency, dependency
// summaries and sweep state indexed by cone position ("ci").
type dreq struct {
	g        *Graph
	cone     []int32    // node ids, ascending (a topological order)
	pos      *idSet     // node id → ci; returned to the pool by release
	kids     [][3]int32 // ci of the children (arity from the op table)
	strong   bool       // strong-zero chain products (see sweep.chain)
	hasSolve bool       // the cone holds results of recorded solves
	part     [][3]int32 // cached partial ids, 0 = not built yet
	val      []int32    // tangent/adjoint ids of the current sweep, 0 = none

	vis    []uint32 // visit stamps of the current sub-cone
	visGen uint32
	list   []int32 // current sub-cone (ci)
	stack  []int32

	// Filled by setVars / setRows / parents.
	col            []int32 // ci → variable index, −1 if not a variable
	minVar         []int32 // ci → smallest variable index it depends on (noVar)
	rowRoot        []int32 // output row → ci
	outPtr, outRow []int32 // CSR: ci → output rows (ascending)
	maxRow         []int32 // ci → largest output row whose cone holds it
	pPtr, pList    []int32 // CSR: ci → parents' ci

	// Recorded solves in the cone (prepSolves).
	solveRes  map[int32][]int32 // solve index → ci of its results in the cone
	trig      map[int32][]int32 // ci → solves whose M or b entries read it
	hidden    map[int32][]int32 // symbol id outside the cone → solves reading it
	solveSeen map[int32]uint32  // solve index → visit in which it was added
}

// newReq builds the request for the cone of the roots (valid expressions
// of g). release must be called when done.
func newReq(g *Graph, roots ...Vec) *dreq {
	pos := g.getSet()
	var ids, stack []int32
	for _, v := range roots {
		for _, e := range v {
			if !pos.has(e.id) {
				pos.set(e.id, 0)
				stack = append(stack, e.id)
			}
		}
	}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ids = append(ids, id)
		nd := g.nodes[id]
		for i := 0; i < ops[nd.op].arity; i++ {
			if c := child(nd, i); !pos.has(c) {
				pos.set(c, 0)
				stack = append(stack, c)
			}
		}
	}
	ids = sortIDs(ids, pos)
	d := &dreq{g: g, cone: ids, pos: pos, stack: stack[:0]}
	n := len(ids)
	for ci, id := range ids {
		pos.val[id] = int32(ci)
	}
	d.kids = make([][3]int32, n)
	for ci, id := range ids {
		nd := g.nodes[id]
		o := &ops[nd.op]
		if o.nonsm {
			d.strong = true
		}
		for i := 0; i < o.arity; i++ {
			d.kids[ci][i] = pos.val[child(nd, i)]
		}
	}
	if len(g.solves) > 0 {
		for _, id := range ids {
			if _, ok := g.solveOf[id]; ok {
				d.hasSolve = true
				break
			}
		}
	}
	g.work += int64(n)
	d.part = make([][3]int32, n)
	d.val = make([]int32, n)
	d.vis = make([]uint32, n)
	return d
}

// sortIDs sorts the ids of a set ascending: by scanning the set's stamps
// over the id range when the set is dense in it, else by sorting.
func sortIDs(ids []int32, s *idSet) []int32 {
	if len(ids) < 2 {
		return ids
	}
	lo, hi := ids[0], ids[0]
	for _, id := range ids {
		lo, hi = min(lo, id), max(hi, id)
	}
	if int(hi-lo) > 16*len(ids) {
		slices.Sort(ids)
		return ids
	}
	ids = ids[:0]
	for id := lo; id <= hi; id++ {
		if s.stamp[id] == s.gen {
			ids = append(ids, id)
		}
	}
	return ids
}

func (d *dreq) release() {
	if d.pos != nil {
		d.g.putSet(d.pos)
		d.pos = nil
	}
}

func (d *dreq) arity(ci int32) int { return ops[d.g.nodes[d.cone[ci]].op].arity }

// partial returns ∂(node ci)/∂(child i), built once per request.
func (d *dreq) partial(ci int32, i int) Expr {
	if p := d.part[ci][i]; p != 0 {
		return Expr{d.g, p}
	}
	y := Expr{d.g, d.cone[ci]}
	p := ops[d.g.nodes[y.id].op].partial(y, i)
	d.part[ci][i] = p.id
	return p
}

// chain returns seed·p (see sweep.chain).
func (d *dreq) chain(seed, p Expr) Expr {
	return chainProduct(d.strong, seed, p)
}

// setVars records the variables x (distinct symbols of the graph): the
// variable index of every cone node and the smallest variable index each
// cone node depends on.
func (d *dreq) setVars(x Vec) {
	n := len(d.cone)
	d.col = make([]int32, n)
	for i := range d.col {
		d.col[i] = -1
	}
	for j, e := range x {
		if ci := d.pos.get(e.id); ci >= 0 {
			d.col[ci] = int32(j)
		}
	}
	d.minVar = make([]int32, n)
	for ci := range d.cone {
		m := int32(noVar)
		if c := d.col[ci]; c >= 0 {
			m = c
		}
		for i := 0; i < d.arity(int32(ci)); i++ {
			m = min(m, d.minVar[d.kids[ci][i]])
		}
		d.minVar[ci] = m
	}
}

// setRows records the outputs f (all in the cone): their cone positions,
// the CSR map from cone nodes to the rows they are the output of, and the
// largest row whose cone holds each node.
func (d *dreq) setRows(f Vec) {
	n := len(d.cone)
	d.rowRoot = make([]int32, len(f))
	d.outPtr = make([]int32, n+1)
	for i, e := range f {
		ci := d.pos.get(e.id)
		d.rowRoot[i] = ci
		d.outPtr[ci+1]++
	}
	for ci := 0; ci < n; ci++ {
		d.outPtr[ci+1] += d.outPtr[ci]
	}
	d.outRow = make([]int32, len(f))
	next := append([]int32(nil), d.outPtr[:n]...)
	for i, ci := range d.rowRoot {
		d.outRow[next[ci]] = int32(i)
		next[ci]++
	}
	d.maxRow = make([]int32, n)
	for i := range d.maxRow {
		d.maxRow[i] = -1
	}
	for i, ci := range d.rowRoot {
		d.maxRow[ci] = max(d.maxRow[ci], int32(i))
	}
	for ci := n - 1; ci >= 0; ci-- {
		m := d.maxRow[ci]
		for i := 0; i < d.arity(int32(ci)); i++ {
			k := d.kids[ci][i]
			d.maxRow[k] = max(d.maxRow[k], m)
		}
	}
}

// parents builds the parent adjacency of the cone (once).
func (d *dreq) parents() {
	if d.pPtr != nil {
		return
	}
	n := len(d.cone)
	d.pPtr = make([]int32, n+1)
	for ci := range d.cone {
		for i := 0; i < d.arity(int32(ci)); i++ {
			d.pPtr[d.kids[ci][i]+1]++
		}
	}
	for ci := 0; ci < n; ci++ {
		d.pPtr[ci+1] += d.pPtr[ci]
	}
	d.pList = make([]int32, d.pPtr[n])
	next := append([]int32(nil), d.pPtr[:n]...)
	for ci := range d.cone {
		for i := 0; i < d.arity(int32(ci)); i++ {
			k := d.kids[ci][i]
			d.pList[next[k]] = int32(ci)
			next[k]++
		}
	}
}

// newVisit starts a new sub-cone.
func (d *dreq) newVisit() {
	d.g.work += int64(len(d.list))
	d.visGen++
	if d.visGen == 0 {
		clear(d.vis)
		d.visGen = 1
	}
	d.list = d.list[:0]
}

func (d *dreq) visit(ci int32) {
	d.vis[ci] = d.visGen
	d.list = append(d.list, ci)
}

// down collects into d.list the nodes of the cone of root whose smallest
// variable index is at most lim (the nodes through which an adjoint seeded
// at root reaches a variable of index ≤ lim), unsorted. It stops early and
// returns false when more than limit nodes were collected (limit < 0: no
// limit).
func (d *dreq) down(root int32, lim int32, limit int) bool {
	d.newVisit()
	if root < 0 || d.minVar[root] > lim {
		return true
	}
	d.visit(root)
	st := append(d.stack[:0], root)
	for len(st) > 0 {
		ci := st[len(st)-1]
		st = st[:len(st)-1]
		for i := 0; i < d.arity(ci); i++ {
			k := d.kids[ci][i]
			if d.vis[k] == d.visGen || d.minVar[k] > lim {
				continue
			}
			d.visit(k)
			st = append(st, k)
			if limit >= 0 && len(d.list) > limit {
				d.stack = st
				return false
			}
		}
	}
	d.stack = st
	return true
}

// up collects into d.list the nodes of the cone whose tangent can be nonzero
// when the symbol xid is seeded: the nodes that depend on it, restricted to
// the cone of output rows ≥ lim (lim < 0: all rows), unsorted, with the
// same early stop as down. With recorded solves in the cone, reaching an
// entry of a solve's matrix or right-hand side (or one of its results) adds
// all the solve's results, whose implicit tangents ẋ = M⁻¹(ḃ − Ṁx) are
// built together; the row restriction is then not applied.
func (d *dreq) up(xid int32, lim int32, limit int) bool {
	d.newVisit()
	src := d.pos.get(xid)
	if d.hasSolve {
		d.prepSolves()
		lim = -1
	}
	if src >= 0 && lim >= 0 && d.maxRow[src] < lim {
		return true
	}
	d.parents()
	st := d.stack[:0]
	if src >= 0 {
		d.visit(src)
		st = append(st, src)
	}
	if d.hasSolve {
		for _, r := range d.hidden[xid] {
			st = d.addSolve(r, st)
		}
	}
	for len(st) > 0 {
		ci := st[len(st)-1]
		st = st[:len(st)-1]
		if d.hasSolve {
			if rc, ok := d.g.solveOf[d.cone[ci]]; ok {
				st = d.addSolve(rc[0], st)
			}
			for _, r := range d.trig[ci] {
				st = d.addSolve(r, st)
			}
		}
		for _, p := range d.pList[d.pPtr[ci]:d.pPtr[ci+1]] {
			if d.vis[p] == d.visGen || (lim >= 0 && d.maxRow[p] < lim) {
				continue
			}
			d.visit(p)
			st = append(st, p)
		}
		if limit >= 0 && len(d.list) > limit {
			d.stack = st
			return false
		}
	}
	d.stack = st
	return true
}

// addSolve visits the results of solve r in the cone (once per visit) and
// pushes them onto st.
func (d *dreq) addSolve(r int32, st []int32) []int32 {
	if d.solveSeen[r] == d.visGen {
		return st
	}
	d.solveSeen[r] = d.visGen
	for _, ci := range d.solveRes[r] {
		if d.vis[ci] != d.visGen {
			d.visit(ci)
			st = append(st, ci)
		}
	}
	return st
}

// prepSolves records, once per request, the results of every recorded solve
// in the cone and the nodes its tangent reads: the cone nodes reached from
// the entries of M (lower triangle for SolveSym) and b through nodes outside
// the cone (entries absorbed by simplification), and the symbols outside the
// cone reached that way.
func (d *dreq) prepSolves() {
	if d.solveRes != nil {
		return
	}
	g := d.g
	d.solveRes = map[int32][]int32{}
	d.trig = map[int32][]int32{}
	d.hidden = map[int32][]int32{}
	d.solveSeen = map[int32]uint32{}
	var order []int32
	for ci, id := range d.cone {
		if rc, ok := g.solveOf[id]; ok {
			if d.solveRes[rc[0]] == nil {
				order = append(order, rc[0])
			}
			d.solveRes[rc[0]] = append(d.solveRes[rc[0]], int32(ci))
		}
	}
	for _, r := range order {
		rec := g.solves[r]
		n := len(rec.b)
		seen := map[int32]bool{}
		var walk func(id int32)
		walk = func(id int32) {
			if seen[id] {
				return
			}
			seen[id] = true
			if ci := d.pos.get(id); ci >= 0 {
				d.trig[ci] = append(d.trig[ci], r)
				return
			}
			nd := g.nodes[id]
			if nd.op == opSym {
				d.hidden[id] = append(d.hidden[id], r)
				return
			}
			for i := 0; i < ops[nd.op].arity; i++ {
				walk(child(nd, i))
			}
		}
		for i := 0; i < n; i++ {
			walk(rec.b[i].id)
			for j := 0; j < n; j++ {
				if !rec.sym || i >= j {
					walk(rec.m.E[i*n+j].id)
				}
			}
		}
	}
}

// sortList sorts d.list ascending (by scanning the visit stamps when the
// sub-cone is a large part of the cone).
func (d *dreq) sortList() {
	l := d.list
	if len(l) < 2 {
		return
	}
	if 8*len(l) < len(d.cone) {
		slices.Sort(l)
		return
	}
	l = l[:0]
	for ci := range d.cone {
		if d.vis[ci] == d.visGen {
			l = append(l, int32(ci))
		}
	}
	d.list = l
}

// forward propagates tangents through list (ascending ci, a set closed
// under "depends on a seeded node" within the swept set) from the seeds
// already stored in d.val. seedID/seed describe the seeds for implicit
// solve tangents.
func (d *dreq) forward(list []int32, seedID []int32, seed Vec) {
	g := d.g
	g.work += int64(len(list))
	var groups map[int32]Vec // solve index → implicit tangent (nil: fall back)
	for _, ci := range list {
		id := d.cone[ci]
		nd := g.nodes[id]
		if nd.op == opSym || nd.op == opConst {
			continue
		}
		if d.hasSolve {
			if rc, ok := g.solveOf[id]; ok {
				if groups == nil {
					groups = map[int32]Vec{}
				}
				gt, done := groups[rc[0]]
				if !done {
					gt = d.solveTangent(rc[0], ci, seedID, seed)
					groups[rc[0]] = gt
				}
				if gt != nil {
					if t := gt[rc[1]]; !t.IsZero() {
						d.val[ci] = t.id
					}
					continue
				}
			}
		}
		var acc Expr
		for i := 0; i < ops[nd.op].arity; i++ {
			t := d.val[d.kids[ci][i]]
			if t == 0 {
				continue
			}
			p := d.partial(ci, i)
			if p.IsZero() {
				continue
			}
			term := d.chain(Expr{g, t}, p)
			if acc.g == nil {
				acc = term
			} else {
				acc = acc.Add(term)
			}
		}
		if acc.g != nil && !acc.IsZero() {
			d.val[ci] = acc.id
		}
	}
}

// solveTangent returns the tangent of the results of recorded solve r,
// ẋ = M⁻¹(ḃ − Ṁx), from the tangents of the entries of M and b (which
// precede x in topological order). It returns nil, so that the caller
// differentiates through the elimination instead, if that order does not
// hold.
func (d *dreq) solveTangent(r int32, cur int32, seedID []int32, seed Vec) Vec {
	g := d.g
	rec := g.solves[r]
	n := len(rec.b)
	zero := g.zero()
	ok := true
	// Entries of M and b may have been absorbed by simplification (for
	// example c·(c′·y) = (cc′)·y), so that they are not nodes of the swept
	// cone; their tangents are then built here from their children.
	memo := map[int32]Expr{}
	var tanID func(id int32) Expr
	tanID = func(id int32) Expr {
		if p := d.pos.get(id); p >= 0 {
			if p >= cur {
				ok = false // not yet swept (cannot happen for true solves)
				return zero
			}
			if t := d.val[p]; t != 0 {
				return Expr{g, t}
			}
			return zero
		}
		if t, done := memo[id]; done {
			return t
		}
		nd := g.nodes[id]
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
			y := Expr{g, id}
			for i := 0; i < ops[nd.op].arity; i++ {
				t := tanID(child(nd, i))
				if t.IsZero() {
					continue
				}
				if p := ops[nd.op].partial(y, i); !p.IsZero() {
					acc = acc.Add(d.chain(t, p))
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
				acc = acc.Sub(d.chain(md, rec.x[j]))
			}
		}
		rhs[i] = acc
		any = any || !acc.IsZero()
	}
	if !ok {
		return nil
	}
	if !any {
		return g.Zeros(n)
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

// reverse propagates adjoints through list (ascending ci, visited in the
// current visit, closed under parents within the swept set) from the seeds
// already stored in d.val, from the last node to the first. Adjoints are
// not propagated into nodes outside the current visit.
func (d *dreq) reverse(list []int32) {
	g := d.g
	g.work += int64(len(list))
	for k := len(list) - 1; k >= 0; k-- {
		ci := list[k]
		aid := d.val[ci]
		if aid == 0 {
			continue
		}
		a := Expr{g, aid}
		if a.IsZero() {
			continue
		}
		for i := 0; i < d.arity(ci); i++ {
			c := d.kids[ci][i]
			if d.vis[c] != d.visGen {
				continue
			}
			p := d.partial(ci, i)
			if p.IsZero() {
				continue
			}
			term := d.chain(a, p)
			if t := d.val[c]; t == 0 {
				d.val[c] = term.id
			} else {
				d.val[c] = Expr{g, t}.Add(term).id
			}
		}
	}
}

// clearList resets the sweep values of the nodes of list.
func (d *dreq) clearList(list []int32) {
	for _, ci := range list {
		d.val[ci] = 0
	}
}

// entry is one structural nonzero of a derivative matrix.
type entry struct {
	row, col int32
	v        int32 // expression id
}

// columns builds the Jacobian of the request's rows (setRows) with respect
// to its variables (setVars) column by column: one forward sweep per
// variable over the nodes that depend on it. With lower, only rows i ≥ j of
// column j are built. Entries come out in CSC order.
func (d *dreq) columns(x Vec, lower bool) []entry {
	var out []entry
	one := d.g.one()
	seedID := make([]int32, 1)
	seed := Vec{one}
	var col []entry
	for j, xj := range x {
		src := d.pos.get(xj.id)
		lim := int32(-1)
		if lower {
			lim = int32(j)
		}
		d.up(xj.id, lim, -1)
		if len(d.list) == 0 {
			continue
		}
		d.sortList()
		if src >= 0 {
			d.val[src] = one.id
		}
		seedID[0] = xj.id
		d.forward(d.list, seedID, seed)
		col = col[:0]
		for _, ci := range d.list {
			t := d.val[ci]
			if t == 0 || d.outPtr[ci] == d.outPtr[ci+1] {
				continue
			}
			for _, r := range d.outRow[d.outPtr[ci]:d.outPtr[ci+1]] {
				if r >= lim {
					col = append(col, entry{row: r, col: int32(j), v: t})
				}
			}
		}
		slices.SortFunc(col, func(a, b entry) int { return int(a.row - b.row) })
		out = append(out, col...)
		d.clearList(d.list)
	}
	return out
}

// rows builds the same Jacobian row by row: one reverse sweep per output
// over the nodes of its cone that depend on a variable. With lower, only
// columns j ≤ i of row i are built. Entries come out in CSC order.
func (d *dreq) rows(lower bool) []entry {
	var out []entry
	one := d.g.one()
	for i, root := range d.rowRoot {
		lim := int32(noVar - 1)
		if lower {
			lim = int32(i)
		}
		d.down(root, lim, -1)
		if len(d.list) == 0 {
			continue
		}
		d.sortList()
		d.val[root] = one.id
		d.reverse(d.list)
		for _, ci := range d.list {
			if c := d.col[ci]; c >= 0 && c <= lim {
				if t := d.val[ci]; t != 0 && !(Expr{d.g, t}).IsZero() {
					out = append(out, entry{row: int32(i), col: c, v: t})
				}
			}
		}
		d.clearList(d.list)
	}
	// Row-major → CSC (stable: rows stay ascending within columns).
	slices.SortStableFunc(out, func(a, b entry) int { return int(a.col - b.col) })
	return out
}

// cost estimates the work of building the request's Jacobian row by row
// (reverse) and column by column (forward) as the total size of the swept
// sub-cones. Both are computed with a common budget that grows until one of
// them fits; a total that does not fit is returned as −1.
func (d *dreq) cost(x Vec, lower bool) (rev, fwd int) {
	budget := 4*len(d.cone) + 1024
	for {
		rev, fwd = d.rowTotal(lower, budget), d.colTotal(x, lower, budget)
		if rev >= 0 || fwd >= 0 {
			return rev, fwd
		}
		budget *= 4
	}
}

func (d *dreq) rowTotal(lower bool, budget int) int {
	tot := 0
	for i, root := range d.rowRoot {
		lim := int32(noVar - 1)
		if lower {
			lim = int32(i)
		}
		if !d.down(root, lim, budget-tot) {
			return -1
		}
		tot += len(d.list)
		if tot > budget {
			return -1
		}
	}
	return tot
}

func (d *dreq) colTotal(x Vec, lower bool, budget int) int {
	tot := 0
	for j, xj := range x {
		lim := int32(-1)
		if lower {
			lim = int32(j)
		}
		if !d.up(xj.id, lim, budget-tot) {
			return -1
		}
		tot += len(d.list)
		if tot > budget {
			return -1
		}
	}
	return tot
}

// sparseFromEntries assembles CSC-ordered entries into a SparseMat.
func sparseFromEntries(g *Graph, rows, cols int, es []entry) SparseMat {
	p := &Sparsity{Rows: rows, Cols: cols, ColPtr: make([]int, cols+1), RowIdx: make([]int, len(es))}
	vals := make(Vec, len(es))
	for k, e := range es {
		p.ColPtr[e.col+1]++
		p.RowIdx[k] = int(e.row)
		vals[k] = Expr{g, e.v}
	}
	for j := 0; j < cols; j++ {
		p.ColPtr[j+1] += p.ColPtr[j]
	}
	return SparseMat{Pattern: p, Values: vals}
}

// opsInEntries returns the number of operation nodes in the cone of the entries.
func opsInEntries(g *Graph, es []entry) int {
	s := g.getSet()
	defer g.putSet(s)
	var stack []int32
	n := 0
	for _, e := range es {
		if !s.has(e.v) {
			s.set(e.v, 0)
			stack = append(stack, e.v)
		}
	}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := g.nodes[id]
		if nd.op != opConst && nd.op != opSym {
			n++
		}
		for i := 0; i < ops[nd.op].arity; i++ {
			if c := child(nd, i); !s.has(c) {
				s.set(c, 0)
				stack = append(stack, c)
			}
		}
	}
	return n
}
