package ad

// Reference implementations: the original whole-graph derivative sweeps
// (one forward sweep per variable or one reverse sweep per output over the
// cone of all outputs, dense m×n intermediate matrices). They are quadratic
// in the problem size and kept only as the slow reference the cone-restricted
// construction of deriv.go is tested against.

// refForward is the original forward sweep over the whole cone of s.
func refForward(s *sweep, seedID []int32, seed Vec, tan []Expr) []Expr {
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
	var groups map[int32]Vec
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
				gt = refSolveTangent(s, rc[0], ci, seedID, seed, tan)
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

func refSolveTangent(s *sweep, r int32, cur int, seedID []int32, seed Vec, tan []Expr) Vec {
	rec := s.g.solves[r]
	n := len(rec.b)
	zero := s.g.Const(0)
	ok := true
	memo := map[int32]Expr{}
	var tanID func(id int32) Expr
	tanID = func(id int32) Expr {
		if p := s.pos[id]; p >= 0 {
			if int(p) >= cur {
				ok = false
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

// refReverse is the original reverse sweep over the whole cone of s.
func refReverse(s *sweep, rootID []int32, seed Vec, adj []Expr) []Expr {
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

func refPick(s *sweep, vals []Expr, id int32) Expr {
	if p := s.pos[id]; p >= 0 && vals[p].g != nil {
		return vals[p]
	}
	return s.g.Const(0)
}

func refIDs(v Vec) []int32 {
	out := make([]int32, len(v))
	for i, e := range v {
		out[i] = e.id
	}
	return out
}

// refJacobianMode is the original dense JacobianMode.
func refJacobianMode(f, x Vec, mode Mode) (Mat, error) {
	g, err := prepare(f, x)
	if err != nil {
		return Mat{}, err
	}
	J := Mat{R: len(f), C: len(x), E: make([]Expr, len(f)*len(x))}
	if g == nil {
		return J, nil
	}
	for i := range J.E {
		J.E[i] = g.Const(0)
	}
	if mode == Auto {
		Jf, err := refJacobianMode(f, x, Forward)
		if err != nil {
			return Mat{}, err
		}
		Jr, err := refJacobianMode(f, x, Reverse)
		if err != nil {
			return Mat{}, err
		}
		if refNumOpsIn(g, Jr.E) < refNumOpsIn(g, Jf.E) {
			return Jr, nil
		}
		return Jf, nil
	}
	s := newSweep(g, f)
	fid, xid := refIDs(f), refIDs(x)
	one := Vec{g.Const(1)}
	var buf []Expr
	switch mode {
	case Forward:
		for j := range x {
			buf = refForward(s, xid[j:j+1], one, buf)
			for i := range f {
				J.E[i*J.C+j] = refPick(s, buf, fid[i])
			}
		}
	default:
		for i := range f {
			buf = refReverse(s, fid[i:i+1], one, buf)
			for j := range x {
				J.E[i*J.C+j] = refPick(s, buf, xid[j])
			}
		}
	}
	return J, nil
}

func refNumOpsIn(g *Graph, es Vec) int {
	s := newSweep(g, es)
	n := 0
	for _, id := range s.cone {
		if o := g.nodes[id].op; o != opConst && o != opSym {
			n++
		}
	}
	return n
}

// refVJP is the original VJP.
func refVJP(f, x, w Vec) Vec {
	g, err := prepare(f, x, w)
	if err != nil || g == nil {
		return make(Vec, len(x))
	}
	s := newSweep(g, f)
	adj := refReverse(s, refIDs(f), w, nil)
	out := make(Vec, len(x))
	for j, xj := range x {
		out[j] = refPick(s, adj, xj.id)
	}
	return out
}

// refLagrangianHessian is the original LagrangianHessian.
func refLagrangianHessian(x Vec, sigma, f Expr, lambda, gv Vec) SparseMat {
	outs, seeds := Vec{}, Vec{}
	if f.g != nil {
		outs, seeds = append(outs, f), append(seeds, sigma)
	}
	outs = append(outs, gv...)
	seeds = append(seeds, lambda...)
	g, _ := checkExprs(outs, x, seeds)
	n := len(x)
	cols := make([][]int, n)
	if g == nil {
		return SparseMat{Pattern: newSparsityFromColumns(n, n, cols), Values: Vec{}}
	}
	grad := refVJP(outs, x, seeds)
	var vals Vec
	s := newSweep(g, grad)
	xid, gid := refIDs(x), refIDs(grad)
	one := Vec{g.Const(1)}
	var buf []Expr
	for j := 0; j < n; j++ {
		buf = refForward(s, xid[j:j+1], one, buf)
		for i := j; i < len(grad); i++ {
			if v := refPick(s, buf, gid[i]); !v.IsZero() {
				cols[j] = append(cols[j], i)
				vals = append(vals, v)
			}
		}
	}
	return SparseMat{Pattern: newSparsityFromColumns(len(grad), n, cols), Values: vals}
}

// refJacobianSparse is the original JacobianSparse (dense Auto, then Sparse).
func refJacobianSparse(f, x Vec) (SparseMat, error) {
	J, err := refJacobianMode(f, x, Auto)
	if err != nil {
		return SparseMat{}, err
	}
	return Sparse(J), nil
}
