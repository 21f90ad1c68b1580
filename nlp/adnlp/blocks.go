package adnlp

import (
	"fmt"
	"math"
	"slices"

	"github.com/fesd-go/fesd/ad"
)

// Block is one function of local inputs, compiled once and evaluated at
// every Instance. Its objective term F is added to the NLP objective once
// per instance and its constraint outputs G are added to the NLP constraint
// rows that the instance names.
//
// A transcribed optimal control problem evaluates the same model functions
// (dynamics, path constraints, stage cost) at every stage point; as a Block
// they are differentiated and compiled once instead of once per stage point.
type Block struct {
	Name string  // used in error messages (may be empty)
	In   ad.Vec  // local inputs: distinct symbols of one graph, which may differ from the graph of Spec.X
	G    ad.Vec  // local constraint outputs (may be empty)
	F    ad.Expr // local objective term; the zero Expr{} means none

	Instances []Instance
}

// Instance gives the values of a block's inputs and where its constraint
// outputs go.
type Instance struct {
	// In holds one affine map per block input (len(Block.In)).
	In []Affine
	// Rows holds, for every block output G[i], the NLP constraint row the
	// value is added to, or −1 to drop the output (len(Block.G)).
	Rows []int
}

// Affine is the value of a block input as an affine function of the NLP
// variables x and parameters p:
//
//	Const + Σₜ VarCoef[t]·x[Vars[t]] + Σₜ ParamCoef[t]·p[Params[t]],
//
// with Vars indices into Spec.X and Params indices into Spec.P. A variable may
// occur several times (its coefficients add up); a zero VarCoef term is
// ignored (it adds no structural nonzero).
type Affine struct {
	Const     float64
	Vars      []int
	VarCoef   []float64
	Params    []int
	ParamCoef []float64
}

// Var returns the affine map 1·x[k].
func Var(k int) Affine { return Affine{Vars: []int{k}, VarCoef: []float64{1}} }

// Param returns the affine map 1·p[k].
func Param(k int) Affine { return Affine{Params: []int{k}, ParamCoef: []float64{1}} }

// Const returns the constant affine map c.
func Const(c float64) Affine { return Affine{Const: c} }

// block is a compiled Block with its instances flattened. Per (instance k,
// input j), q = k·nIn + j: the variable terms of input q are
// aVar/aCoef[aStart[q]:aStart[q+1]] and its constant part (Const plus the
// parameter terms at the current parameter values) is cEff[q]. The
// Jacobian terms of instance k are t ∈ [jStart[k], jStart[k+1]):
// vals[jDst[t]] += jW[t]·(local Jacobian)[jSrc[t]]; likewise for the
// Hessian.
type block struct {
	name      string
	nIn, nG   int
	nInst     int
	fun       *tapes
	wsObj     *ad.Workspace
	wsGrad    *ad.Workspace
	wsCon     *ad.Workspace
	wsJac     *ad.Workspace
	wsHes     *ad.Workspace
	aStart    []int32
	aVar      []int32
	aCoef     []float64
	cConst    []float64
	pStart    []int32
	pIdx      []int32
	pCoef     []float64
	cEff      []float64
	rows      []int32 // rows[k·nG + i], −1: dropped
	rowsAny   []bool  // instance k adds to at least one row
	jStart    []int32
	jSrc      []int32
	jDst      []int32
	jW        []float64
	hStart    []int32
	hSrc      []int32
	hDst      []int32
	hW        []float64
	jr, jc    []int32 // coordinates of the Jacobian terms until the pattern is merged
	hr, hc    []int32 // likewise for the Hessian (lower triangle)
	in        []float64
	fv, sigma [1]float64
	gl, gradl []float64
	jl, hl    []float64
	mu        []float64
	argIn     [][]float64 // {in}
	argHess   [][]float64 // {in, σ, μ}
	outF      [][]float64
	outGrad   [][]float64
	outG      [][]float64
	outJ      [][]float64
	outH      [][]float64
}

// checkRows validates the blocks (everything but their expressions' free
// symbols, which compilation reports) and the zero rows of G, and sets
// p.symRows when some row of G is the zero Expr.
func (p *Problem) checkRows(s Spec) error {
	filled := make([]bool, p.m)
	for bi := range s.Blocks {
		if err := checkBlock(&s.Blocks[bi], bi, p.n, p.m, len(s.P), filled); err != nil {
			return err
		}
	}
	zero := false
	for r, e := range s.G {
		if e == (ad.Expr{}) {
			zero = true
			if !filled[r] {
				return fmt.Errorf("%w: G[%d] is the zero Expr and no block instance adds to row %d", ErrGraph, r, r)
			}
		}
	}
	if zero {
		p.symRows = []int{}
		for r, e := range s.G {
			if e != (ad.Expr{}) {
				p.symRows = append(p.symRows, r)
			}
		}
	}
	return nil
}

// blockName names block bi in error messages.
func blockName(b *Block, bi int) string {
	if b.Name == "" {
		return fmt.Sprintf("block %d", bi)
	}
	return fmt.Sprintf("block %d (%q)", bi, b.Name)
}

// checkBlock validates block bi of an NLP with n variables, m constraints and
// np parameters, and marks the rows its instances fill.
func checkBlock(b *Block, bi, n, m, np int, filled []bool) error {
	name := blockName(b, bi)
	if len(b.In) == 0 {
		return fmt.Errorf("%w: %s has no inputs", ErrDimension, name)
	}
	g := b.In[0].Graph()
	if g == nil {
		return fmt.Errorf("%w: %s: In[0] is the zero Expr", ErrGraph, name)
	}
	check := func(what string, v ad.Vec) error {
		for i, e := range v {
			if e.Graph() != g {
				return fmt.Errorf("%w: %s: %s[%d] is the zero Expr or belongs to another graph than In[0]", ErrGraph, name, what, i)
			}
			if !e.IsValid() {
				return fmt.Errorf("%w: %s: %s[%d] is invalid: %w", ErrGraph, name, what, i, g.Err())
			}
		}
		return nil
	}
	if err := check("In", b.In); err != nil {
		return err
	}
	if err := check("G", b.G); err != nil {
		return err
	}
	if b.F != (ad.Expr{}) {
		if err := check("F", ad.Vec{b.F}); err != nil {
			return err
		}
	}
	seen := make(map[ad.Expr]struct{}, len(b.In))
	for j, e := range b.In {
		if !e.IsSymbol() {
			return fmt.Errorf("%w: %s: In[%d] = %v is not a symbol", ErrNotSymbol, name, j, e)
		}
		if _, dup := seen[e]; dup {
			return fmt.Errorf("%w: %s: In[%d] = %v occurs twice", ErrNotSymbol, name, j, e)
		}
		seen[e] = struct{}{}
	}
	for k, inst := range b.Instances {
		if len(inst.In) != len(b.In) {
			return fmt.Errorf("%w: %s instance %d: len(In) = %d, want %d", ErrDimension, name, k, len(inst.In), len(b.In))
		}
		if len(inst.Rows) != len(b.G) {
			return fmt.Errorf("%w: %s instance %d: len(Rows) = %d, want %d", ErrDimension, name, k, len(inst.Rows), len(b.G))
		}
		for i, r := range inst.Rows {
			if r < -1 || r >= m {
				return fmt.Errorf("%w: %s instance %d: Rows[%d] = %d, want −1 or a row in [0, %d)", ErrIndex, name, k, i, r, m)
			}
			if r >= 0 {
				filled[r] = true
			}
		}
		for j, a := range inst.In {
			if err := checkAffine(a, n, np); err != nil {
				return fmt.Errorf("%s instance %d input %d: %w", name, k, j, err)
			}
		}
	}
	return nil
}

// checkAffine validates the lengths, indices and numbers of a.
func checkAffine(a Affine, n, np int) error {
	if len(a.Vars) != len(a.VarCoef) {
		return fmt.Errorf("%w: %d Vars and %d VarCoef", ErrDimension, len(a.Vars), len(a.VarCoef))
	}
	if len(a.Params) != len(a.ParamCoef) {
		return fmt.Errorf("%w: %d Params and %d ParamCoef", ErrDimension, len(a.Params), len(a.ParamCoef))
	}
	for t, v := range a.Vars {
		if v < 0 || v >= n {
			return fmt.Errorf("%w: Vars[%d] = %d, want [0, %d)", ErrIndex, t, v, n)
		}
	}
	for t, v := range a.Params {
		if v < 0 || v >= np {
			return fmt.Errorf("%w: Params[%d] = %d, want [0, %d)", ErrIndex, t, v, np)
		}
	}
	if !finite(a.Const) {
		return fmt.Errorf("%w: Const = %g", ErrNonFinite, a.Const)
	}
	if i := nonFinite(a.VarCoef); i >= 0 {
		return fmt.Errorf("%w: VarCoef[%d] = %g", ErrNonFinite, i, a.VarCoef[i])
	}
	if i := nonFinite(a.ParamCoef); i >= 0 {
		return fmt.Errorf("%w: ParamCoef[%d] = %g", ErrNonFinite, i, a.ParamCoef[i])
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// compileBlocks compiles every block once, flattens the instances, merges
// the patterns of the symbolic part and of the blocks and precomputes the
// scatter positions. The spec has been validated (checkRows).
func (p *Problem) compileBlocks(s Spec) error {
	if len(s.Blocks) == 0 {
		return nil
	}
	p.blocks = make([]*block, 0, len(s.Blocks))
	for bi := range s.Blocks {
		sb := &s.Blocks[bi]
		if len(sb.G) == 0 && sb.F == (ad.Expr{}) {
			continue // contributes nothing
		}
		drops := false
		for _, inst := range sb.Instances {
			drops = drops || slices.Contains(inst.Rows, -1)
		}
		t, err := buildTapes(blockName(sb, bi)+": ", []ad.Arg{ad.A("in", sb.In...)}, sb.F, sb.G, s.JacobianMode, drops, &p.stats)
		if err != nil {
			return err
		}
		b := newBlock(sb, t)
		b.terms()
		p.blocks = append(p.blocks, b)
		p.stats.Blocks++
		p.stats.Instances += b.nInst
	}
	p.refreshParams()

	// Jacobian: the symbolic entries first, then every block's terms.
	jr, jc := toInt32(p.jRows), toInt32(p.jCols)
	nj := len(jr)
	hr, hc := toInt32(p.hRows), toInt32(p.hCols)
	nh := len(hr)
	for _, b := range p.blocks {
		jr, jc = append(jr, b.jr...), append(jc, b.jc...)
		hr, hc = append(hr, b.hr...), append(hc, b.hc...)
	}
	if len(jr) > math.MaxInt32 || len(hr) > math.MaxInt32 {
		return fmt.Errorf("%w: more than 2³¹ Jacobian or Hessian terms", ErrDimension)
	}
	J := newPattern(p.n, jr, jc)
	H := newPattern(p.n, hr, hc)
	p.jSym, p.hSym = make([]float64, nj), make([]float64, nh)
	p.jSymPos, p.hSymPos = J.positions(jr[:nj], jc[:nj]), H.positions(hr[:nh], hc[:nh])
	jr, jc, hr, hc = jr[nj:], jc[nj:], hr[nh:], hc[nh:]
	for _, b := range p.blocks {
		nb := len(b.jr)
		b.jDst = J.positions(jr[:nb], jc[:nb])
		jr, jc = jr[nb:], jc[nb:]
		nb = len(b.hr)
		b.hDst = H.positions(hr[:nb], hc[:nb])
		hr, hc = hr[nb:], hc[nb:]
		b.jr, b.jc, b.hr, b.hc = nil, nil, nil, nil
	}
	p.jRows, p.jCols = J.coords()
	p.hRows, p.hCols = H.coords()
	p.gSym = make([]float64, len(p.symRows))
	p.lamSym = make([]float64, len(p.symRows))
	return nil
}

// newBlock flattens the instances of sb (compiled into t).
func newBlock(sb *Block, t *tapes) *block {
	nIn, nG, nInst := len(sb.In), len(sb.G), len(sb.Instances)
	b := &block{name: sb.Name, nIn: nIn, nG: nG, nInst: nInst, fun: t}
	nq := nInst * nIn
	b.aStart, b.pStart = make([]int32, 0, nq+1), make([]int32, 0, nq+1)
	b.cConst, b.cEff = make([]float64, 0, nq), make([]float64, nq)
	b.rows, b.rowsAny = make([]int32, 0, nInst*nG), make([]bool, nInst)
	for k, inst := range sb.Instances {
		for _, a := range inst.In {
			b.aStart = append(b.aStart, int32(len(b.aVar)))
			b.pStart = append(b.pStart, int32(len(b.pIdx)))
			b.cConst = append(b.cConst, a.Const)
			for t, v := range a.Vars {
				if c := a.VarCoef[t]; c != 0 {
					b.aVar, b.aCoef = append(b.aVar, int32(v)), append(b.aCoef, c)
				}
			}
			for t, v := range a.Params {
				b.pIdx, b.pCoef = append(b.pIdx, int32(v)), append(b.pCoef, a.ParamCoef[t])
			}
		}
		for _, r := range inst.Rows {
			b.rows = append(b.rows, int32(r))
			b.rowsAny[k] = b.rowsAny[k] || r >= 0
		}
	}
	b.aStart = append(b.aStart, int32(len(b.aVar)))
	b.pStart = append(b.pStart, int32(len(b.pIdx)))

	if t.obj != nil {
		b.wsObj, b.wsGrad = t.obj.NewWorkspace(), t.grad.NewWorkspace()
	}
	b.wsCon, b.wsJac, b.wsHes = t.con.NewWorkspace(), t.jac.NewWorkspace(), t.hess.NewWorkspace()
	b.in = make([]float64, nIn)
	b.gl, b.gradl, b.mu = make([]float64, nG), make([]float64, nIn), make([]float64, nG)
	b.jl = make([]float64, t.jac.NumOutputs())
	b.hl = make([]float64, t.hess.NumOutputs())
	b.argIn = [][]float64{b.in}
	b.argHess = [][]float64{b.in, b.sigma[:], b.mu}
	b.outF, b.outGrad, b.outG = [][]float64{b.fv[:]}, [][]float64{b.gradl}, [][]float64{b.gl}
	b.outJ, b.outH = [][]float64{b.jl}, [][]float64{b.hl}
	return b
}

// terms builds, for every instance, the contributions of the local Jacobian
// and Hessian entries to the global ones (J_glob += J_loc·A and
// H_glob += AᵀH_loc·A with A the matrix of the variable coefficients), with
// their global coordinates in b.jr, b.jc, b.hr, b.hc.
//
// Hessian: a local lower entry (a, b), a > b, stands for the two entries
// (a, b) and (b, a) of the symmetric local matrix. With input a holding
// cₛ·x[uₛ] and input b holding dₜ·x[vₜ], they contribute cₛdₜh to the
// global entries (uₛ, vₜ) and (vₜ, uₛ): once to the lower triangle when
// uₛ ≠ vₜ, twice to the diagonal when uₛ = vₜ. A local diagonal entry
// (a, a) contributes cₛcₜh to (uₛ, uₜ) for every ordered pair (s, t), which
// is, on the lower triangle, the pairs s < t (doubled when uₛ = uₜ) and the
// pairs s = t once.
//
// A local Hessian entry that only dropped outputs contribute to is
// structurally zero for that instance and is left out (t.depPtr).
func (b *block) terms() {
	var jCol, jRow, hCol, hRow []int
	if p := b.fun.jPat; p != nil {
		jRow, jCol = p.Coords()
	}
	if p := b.fun.hPat; p != nil {
		hRow, hCol = p.Coords()
	}
	b.jStart, b.hStart = make([]int32, 1, b.nInst+1), make([]int32, 1, b.nInst+1)
	addJ := func(src int, r, c int32, w float64) {
		b.jSrc, b.jW = append(b.jSrc, int32(src)), append(b.jW, w)
		b.jr, b.jc = append(b.jr, r), append(b.jc, c)
	}
	addH := func(src int, u, v int32, w float64) {
		if u < v {
			u, v = v, u
		}
		b.hSrc, b.hW = append(b.hSrc, int32(src)), append(b.hW, w)
		b.hr, b.hc = append(b.hr, u), append(b.hc, v)
	}
	for k := range b.nInst {
		q0 := k * b.nIn
		for e := range jRow {
			r := b.rows[k*b.nG+jRow[e]]
			if r < 0 {
				continue
			}
			q := q0 + jCol[e]
			for t := b.aStart[q]; t < b.aStart[q+1]; t++ {
				addJ(e, r, b.aVar[t], b.aCoef[t])
			}
		}
		for e := range hRow {
			if !b.hessActive(k, e) {
				continue
			}
			qa, qb := q0+hRow[e], q0+hCol[e]
			for s := b.aStart[qa]; s < b.aStart[qa+1]; s++ {
				t0 := b.aStart[qb]
				if qa == qb {
					t0 = s
				}
				for t := t0; t < b.aStart[qb+1]; t++ {
					u, v := b.aVar[s], b.aVar[t]
					w := b.aCoef[s] * b.aCoef[t]
					if u == v && (qa != qb || s != t) {
						w *= 2
					}
					addH(e, u, v, w)
				}
			}
		}
		b.jStart = append(b.jStart, int32(len(b.jSrc)))
		b.hStart = append(b.hStart, int32(len(b.hSrc)))
	}
}

// hessActive reports whether the local Hessian entry e gets a contribution
// from F or from an output of instance k that is not dropped.
func (b *block) hessActive(k, e int) bool {
	t := b.fun
	if t.depPtr == nil {
		return true
	}
	rows := b.rows[k*b.nG : (k+1)*b.nG]
	for _, c := range t.depCol[t.depPtr[e]:t.depPtr[e+1]] {
		if c == 0 || rows[c-1] >= 0 {
			return true
		}
	}
	return false
}

// refreshParams recomputes the constant parts of the block inputs at the
// current parameter values.
func (p *Problem) refreshParams() {
	for _, b := range p.blocks {
		for q := range b.cEff {
			v := b.cConst[q]
			for t := b.pStart[q]; t < b.pStart[q+1]; t++ {
				v += b.pCoef[t] * p.pv[b.pIdx[t]]
			}
			b.cEff[q] = v
		}
	}
}

// setInputs writes the inputs of instance k at x into b.in.
func (b *block) setInputs(k int, x []float64) {
	q0 := k * b.nIn
	for j := range b.in {
		q := q0 + j
		v := b.cEff[q]
		for t := b.aStart[q]; t < b.aStart[q+1]; t++ {
			v += b.aCoef[t] * x[b.aVar[t]]
		}
		b.in[j] = v
	}
}

// hasVars reports whether an input of instance k depends on x.
func (b *block) hasVars(k int) bool {
	return b.aStart[k*b.nIn] < b.aStart[(k+1)*b.nIn]
}

// The evaluation methods below add the block's contributions into the
// caller's arrays. The ad calls cannot fail (the argument slices are sized
// when the block is compiled); their errors are passed on all the same.

func (b *block) objective(x []float64) (float64, error) {
	if b.fun.obj == nil {
		return 0, nil
	}
	f := 0.0
	for k := range b.nInst {
		b.setInputs(k, x)
		if err := b.fun.obj.Eval(b.wsObj, b.argIn, b.outF); err != nil {
			return 0, err
		}
		f += b.fv[0]
	}
	return f, nil
}

func (b *block) gradient(x, grad []float64) error {
	if b.fun.grad == nil {
		return nil
	}
	for k := range b.nInst {
		if !b.hasVars(k) {
			continue
		}
		b.setInputs(k, x)
		if err := b.fun.grad.Eval(b.wsGrad, b.argIn, b.outGrad); err != nil {
			return err
		}
		q0 := k * b.nIn
		for j, d := range b.gradl {
			q := q0 + j
			for t := b.aStart[q]; t < b.aStart[q+1]; t++ {
				grad[b.aVar[t]] += b.aCoef[t] * d
			}
		}
	}
	return nil
}

func (b *block) constraints(x, g []float64) error {
	if b.nG == 0 {
		return nil
	}
	for k := range b.nInst {
		if !b.rowsAny[k] {
			continue
		}
		b.setInputs(k, x)
		if err := b.fun.con.Eval(b.wsCon, b.argIn, b.outG); err != nil {
			return err
		}
		for i, r := range b.rows[k*b.nG : (k+1)*b.nG] {
			if r >= 0 {
				g[r] += b.gl[i]
			}
		}
	}
	return nil
}

func (b *block) jacobian(x, vals []float64) error {
	for k := range b.nInst {
		lo, hi := b.jStart[k], b.jStart[k+1]
		if lo == hi {
			continue
		}
		b.setInputs(k, x)
		if err := b.fun.jac.Eval(b.wsJac, b.argIn, b.outJ); err != nil {
			return err
		}
		for t := lo; t < hi; t++ {
			vals[b.jDst[t]] += b.jW[t] * b.jl[b.jSrc[t]]
		}
	}
	return nil
}

func (b *block) hessian(x []float64, sigma float64, lambda, vals []float64) error {
	b.sigma[0] = sigma
	for k := range b.nInst {
		lo, hi := b.hStart[k], b.hStart[k+1]
		if lo == hi {
			continue
		}
		b.setInputs(k, x)
		for i, r := range b.rows[k*b.nG : (k+1)*b.nG] {
			b.mu[i] = 0
			if r >= 0 {
				b.mu[i] = lambda[r]
			}
		}
		if err := b.fun.hess.Eval(b.wsHes, b.argHess, b.outH); err != nil {
			return err
		}
		for t := lo; t < hi; t++ {
			vals[b.hDst[t]] += b.hW[t] * b.hl[b.hSrc[t]]
		}
	}
	return nil
}

// pattern is a duplicate-free sparsity pattern in compressed sparse column
// form (rows ascending within a column).
type pattern struct {
	colPtr []int
	rowIdx []int32
}

// newPattern returns the union of the coordinates (rows[k], cols[k]) of a
// matrix with ncols columns.
func newPattern(ncols int, rows, cols []int32) *pattern {
	p := &pattern{colPtr: make([]int, ncols+1)}
	for _, c := range cols {
		p.colPtr[c+1]++
	}
	for j := range ncols {
		p.colPtr[j+1] += p.colPtr[j]
	}
	next := slices.Clone(p.colPtr[:ncols])
	idx := make([]int32, len(rows))
	for k, c := range cols {
		idx[next[c]] = rows[k]
		next[c]++
	}
	// Sort and deduplicate each column in place, compacting to the left.
	// Column j's entries start at or after w, so the writes never overtake
	// the reads.
	w := 0
	for j := range ncols {
		col := idx[p.colPtr[j]:p.colPtr[j+1]]
		slices.Sort(col)
		p.colPtr[j] = w
		start := w
		for _, r := range col {
			if w == start || r != idx[w-1] {
				idx[w] = r
				w++
			}
		}
	}
	p.colPtr[ncols] = w
	p.rowIdx = idx[:w:w]
	return p
}

// positions returns the value-array positions of the coordinates (all of
// which are in the pattern).
func (p *pattern) positions(rows, cols []int32) []int32 {
	pos := make([]int32, len(rows))
	for k, r := range rows {
		lo, hi := p.colPtr[cols[k]], p.colPtr[cols[k]+1]
		i, _ := slices.BinarySearch(p.rowIdx[lo:hi], r)
		pos[k] = int32(lo + i)
	}
	return pos
}

// coords returns the coordinate lists in value order.
func (p *pattern) coords() (rows, cols []int) {
	rows = make([]int, len(p.rowIdx))
	cols = make([]int, len(p.rowIdx))
	for j := range len(p.colPtr) - 1 {
		for k := p.colPtr[j]; k < p.colPtr[j+1]; k++ {
			rows[k], cols[k] = int(p.rowIdx[k]), j
		}
	}
	return rows, cols
}

func toInt32(v []int) []int32 {
	w := make([]int32, len(v))
	for i, x := range v {
		w[i] = int32(x)
	}
	return w
}
