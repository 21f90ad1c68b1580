package adnlp

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/nlp"
)

// Spec describes
//
//	min F(x; p)  s.t.  GL ≤ G(x; p) ≤ GU,  XL ≤ x ≤ XU.
type Spec struct {
	X      ad.Vec    // decision variables: distinct symbols of one graph
	XL, XU []float64 // variable bounds, len(X) each; nil means unbounded (±Inf)
	X0     []float64 // initial point; nil means zeros (projected into the bounds)
	F      ad.Expr   // objective; the zero Expr{} means F ≡ 0
	G      ad.Vec    // constraints (may be empty); a zero Expr{} row is filled by Blocks only
	GL, GU []float64 // constraint bounds, len(G) each; nil GL and GU mean G = 0
	P      ad.Vec    // parameters: symbols whose values can change without recompiling (may be empty)
	PV     []float64 // parameter values, len(P)

	// VarStage and ConStage optionally give a stage number for every
	// variable (len(X)) and every constraint (len(G)) for nlp.StageHinter;
	// smaller numbers come first. A nil VarStage means stage j for variable
	// j; a nil ConStage means that constraint i gets the largest stage of the
	// variables it depends on (so it is eliminated right after its last
	// variable). ConStage without VarStage is an error.
	VarStage, ConStage []int

	// JacobianMode selects how ad builds ∂G/∂x (ad.JacobianMode); the zero
	// value ad.Auto builds both the forward and the reverse Jacobian and
	// keeps the one with fewer operations. ad.Reverse is much cheaper to
	// build for large problems whose constraints are local (one reverse
	// sweep per constraint instead of one forward sweep per variable on top);
	// ad.Forward reuses the elimination of ad.Solve/ad.SolveSym.
	JacobianMode ad.Mode

	// Blocks are functions compiled once and evaluated at many instances
	// whose inputs are affine in x and p (see Block). Their objective terms
	// are added to F and their constraint outputs to the rows of G they
	// name. A row G[r] that is the zero Expr{} is zero plus the block
	// outputs added to it; at least one block instance must fill it.
	Blocks []Block
}

// BuildStats describes the construction of a Problem.
type BuildStats struct {
	// Gradient, Jacobian and Hessian are the times spent building the
	// derivative expressions (∇F, the sparse ∂G/∂x, the lower triangle of the
	// Lagrangian Hessian); Compile is the time spent compiling the five
	// tapes.
	Gradient, Jacobian, Hessian, Compile time.Duration
	// Nodes is the number of nodes of the private graphs the derivatives
	// are built in: the cone of f and g copied from the caller's graph
	// plus the derivative expressions (the caller's graph is unchanged),
	// summed over the symbolic part and the blocks.
	Nodes int
	// JacobianNNZ and HessianNNZ are the structural nonzeros of the
	// Jacobian and of the lower triangle of the Lagrangian Hessian.
	JacobianNNZ, HessianNNZ int
	// Instructions is the total length of the compiled tapes: five for the
	// symbolic part and five per block (each counted once, however many
	// instances it has).
	Instructions int
	// Blocks and Instances count the compiled blocks and their instances.
	Blocks, Instances int
}

// Problem is an nlp.Problem compiled from a Spec. Its callbacks evaluate
// compiled ad tapes in workspaces held by the Problem and do not allocate.
//
// A Problem is not safe for concurrent use: one solver at a time (the
// workspaces are shared by all callbacks). Build one Problem per goroutine.
type Problem struct {
	n, m int

	xl, xu, gl, gu []float64
	x0             []float64 // nil: zeros projected into the bounds
	pv             []float64
	xStage, gStage []int

	obj, grad, con, jac, hess          *ad.Function // obj and grad nil when F ≡ 0
	wsObj, wsGrad, wsCon, wsJac, wsHes *ad.Workspace

	jRows, jCols, hRows, hCols []int

	in2   [][]float64 // {x, pv}
	in4   [][]float64 // {x, pv, σ, λ}
	out   [][]float64 // one output
	fval  [1]float64
	sigma [1]float64

	// With blocks, the symbolic tapes cover the rows symRows of G (nil:
	// all rows) and their Jacobian and Hessian values, computed into
	// jSym and hSym, go to the positions jSymPos and hSymPos of the merged
	// patterns; gSym and lamSym hold the compacted constraint values and
	// multipliers. blocks is nil without Spec.Blocks.
	symRows          []int
	gSym, lamSym     []float64
	jSym, hSym       []float64
	jSymPos, hSymPos []int32
	blocks           []*block

	stats BuildStats
}

var (
	_ nlp.Problem     = (*Problem)(nil)
	_ nlp.StageHinter = (*Problem)(nil)
)

// New validates the spec, compiles f, ∇f, g, the sparse Jacobian and the
// lower triangle of the Lagrangian Hessian σ∇²f + Σλᵢ∇²gᵢ once — for the
// symbolic part and once per block, however many instances it has — and
// returns a Problem implementing nlp.Problem.
//
// New adds no node to the caller's graphs: the derivatives and the
// multiplier symbols σ, λ are built in private copies (ad.CopyArgs). The
// spec's slices are copied.
func New(s Spec) (*Problem, error) {
	n, m := len(s.X), len(s.G)
	if n == 0 {
		return nil, fmt.Errorf("%w: no variables", ErrDimension)
	}
	p := &Problem{n: n, m: m}
	if err := checkLen("PV", len(s.PV), len(s.P), false); err != nil {
		return nil, err
	}
	if err := checkLen("X0", len(s.X0), n, s.X0 == nil); err != nil {
		return nil, err
	}
	if err := checkLen("VarStage", len(s.VarStage), n, s.VarStage == nil); err != nil {
		return nil, err
	}
	if err := checkLen("ConStage", len(s.ConStage), m, s.ConStage == nil); err != nil {
		return nil, err
	}
	if s.VarStage == nil && s.ConStage != nil {
		return nil, fmt.Errorf("%w: ConStage without VarStage", ErrDimension)
	}
	if err := checkGraph(s); err != nil {
		return nil, err
	}
	if err := checkSymbols(s.X, s.P); err != nil {
		return nil, err
	}
	if err := p.checkRows(s); err != nil {
		return nil, err
	}
	p.xl, p.xu = make([]float64, n), make([]float64, n)
	if err := p.SetVarBounds(s.XL, s.XU); err != nil {
		return nil, err
	}
	p.gl, p.gu = make([]float64, m), make([]float64, m)
	if err := p.SetConstraintBounds(s.GL, s.GU); err != nil {
		return nil, err
	}
	p.pv = make([]float64, len(s.P))
	if err := p.SetParams(s.PV); err != nil {
		return nil, err
	}
	if err := p.SetStart(s.X0); err != nil {
		return nil, err
	}
	if err := p.compile(s); err != nil {
		return nil, err
	}
	p.stages(s.VarStage, s.ConStage)
	return p, nil
}

// tapes are the five compiled functions of one objective F and constraint
// vector G of inputs in (in[0] holds the differentiation variables): F, ∇F,
// G, the sparse ∂G/∂x and the lower triangle of σ∇²F + Σλᵢ∇²Gᵢ, whose
// inputs are in followed by σ and λ.
type tapes struct {
	obj, grad, con, jac, hess *ad.Function // obj and grad nil when F ≡ 0
	jPat, hPat                *ad.Sparsity // nil for empty G or x

	// With deps, the multipliers each Hessian entry e depends on
	// structurally are depCol[depPtr[e]:depPtr[e+1]], 0 standing for σ
	// and 1+i for λᵢ.
	depPtr, depCol []int
}

// buildTapes compiles the tapes of (F, G) with the derivative mode mode,
// adding the construction times and sizes to st; what prefixes the error
// messages. With deps it also finds which multipliers every Hessian entry
// depends on (the pattern of ∂H/∂(σ, λ), which is linear in them).
func buildTapes(what string, in []ad.Arg, F ad.Expr, G ad.Vec, mode ad.Mode, deps bool, st *BuildStats) (*tapes, error) {
	t := &tapes{}
	hasF := F != (ad.Expr{})
	t0 := time.Now()
	var err error
	// Values first: free symbols are reported before any differentiation.
	if hasF {
		if t.obj, err = ad.NewFunction("f", in, []ad.Arg{ad.A("f", F)}); err != nil {
			return nil, adError(what+"objective", err)
		}
	}
	if t.con, err = ad.NewFunction("g", in, []ad.Arg{ad.A("g", G...)}); err != nil {
		return nil, adError(what+"constraints", err)
	}
	tc := time.Since(t0)

	// The derivatives are built in a private copy of the cone of (F, G),
	// dropped after compilation, so that compiling NLPs from one model
	// (an OCP rebuilt in a loop) does not grow the caller's graph, which
	// never frees nodes (ad.CopyArgs).
	c, err := ad.CopyArgs(in, []ad.Arg{ad.A("f", F), ad.A("g", G...)})
	if err != nil {
		return nil, adError(what+"copy", err)
	}
	in = c[0]
	x, F, G := c[0][0].V, c[1][0].V[0], c[1][1].V
	g := x[0].Graph()

	t1 := time.Now()
	var grad ad.Vec
	if hasF {
		if grad, err = ad.Gradient(F, x); err != nil {
			return nil, adError(what+"gradient", err)
		}
	}
	t2 := time.Now()
	st.Gradient += t2.Sub(t1)
	J, err := ad.JacobianSparseMode(G, x, mode)
	if err != nil {
		return nil, adError(what+"Jacobian", err)
	}
	t3 := time.Now()
	st.Jacobian += t3.Sub(t2)
	sigma := g.Sym("sigma")
	lambda := g.SymVec("lambda", len(G))
	H, err := ad.LagrangianHessian(x, sigma, F, lambda, G)
	if err != nil {
		return nil, adError(what+"Hessian", err)
	}
	if deps && H.Pattern != nil {
		D, err := ad.JacobianSparse(H.Values, append(ad.Vec{sigma}, lambda...))
		if err != nil {
			return nil, adError(what+"Hessian", err)
		}
		t.depPtr, t.depCol, _ = D.Pattern.CSR()
	}
	t4 := time.Now()
	st.Hessian += t4.Sub(t3)

	if hasF {
		if t.grad, err = ad.NewFunction("grad", in, []ad.Arg{ad.A("grad", grad...)}); err != nil {
			return nil, adError(what+"gradient", err)
		}
	}
	if t.jac, err = ad.NewFunction("jac", in, []ad.Arg{ad.A("jac", J.Values...)}); err != nil {
		return nil, adError(what+"Jacobian", err)
	}
	hin := append(in, ad.A("sigma", sigma), ad.A("lambda", lambda...))
	if t.hess, err = ad.NewFunction("hess", hin, []ad.Arg{ad.A("hess", H.Values...)}); err != nil {
		return nil, adError(what+"Hessian", err)
	}
	st.Compile += tc + time.Since(t4)
	t.jPat, t.hPat = J.Pattern, H.Pattern
	st.Nodes += g.NumNodes()
	for _, f := range []*ad.Function{t.obj, t.grad, t.con, t.jac, t.hess} {
		if f != nil {
			st.Instructions += f.NumInstr()
		}
	}
	return t, nil
}

// compile builds the derivative expressions and the five tapes of the
// symbolic part (Spec.F and the valid rows of Spec.G), then the blocks.
func (p *Problem) compile(s Spec) error {
	G := s.G
	if p.symRows != nil {
		G = make(ad.Vec, len(p.symRows))
		for i, r := range p.symRows {
			G[i] = s.G[r]
		}
	}
	in := []ad.Arg{ad.A("x", s.X...), ad.A("p", s.P...)}
	t, err := buildTapes("", in, s.F, G, s.JacobianMode, false, &p.stats)
	if err != nil {
		return err
	}
	p.obj, p.grad, p.con, p.jac, p.hess = t.obj, t.grad, t.con, t.jac, t.hess
	p.jRows, p.jCols = jacCoords(t.jPat, len(G), p.n)
	p.hRows, p.hCols = jacCoords(t.hPat, p.n, p.n)
	if p.symRows != nil {
		for k, i := range p.jRows {
			p.jRows[k] = p.symRows[i]
		}
	}
	p.wsCon, p.wsJac, p.wsHes = p.con.NewWorkspace(), p.jac.NewWorkspace(), p.hess.NewWorkspace()
	if p.obj != nil {
		p.wsObj, p.wsGrad = p.obj.NewWorkspace(), p.grad.NewWorkspace()
	}
	p.in2 = make([][]float64, 2)
	p.in4 = make([][]float64, 4)
	p.out = make([][]float64, 1)
	if err := p.compileBlocks(s); err != nil {
		return err
	}
	p.stats.JacobianNNZ, p.stats.HessianNNZ = len(p.jRows), len(p.hRows)
	return nil
}

// jacCoords returns the coordinates of a pattern (an empty pattern for a nil
// one, which ad returns for empty inputs).
func jacCoords(s *ad.Sparsity, rows, cols int) ([]int, []int) {
	if s == nil {
		return []int{}, []int{}
	}
	return s.Coords()
}

// adError maps an error of package ad to the package's sentinels, keeping
// the ad error in the chain.
func adError(what string, err error) error {
	switch {
	case errors.Is(err, ad.ErrFreeSymbol):
		return fmt.Errorf("%w: %s: %w", ErrFreeSymbol, what, err)
	case errors.Is(err, ad.ErrForeignGraph):
		return fmt.Errorf("%w: %s: %w", ErrGraph, what, err)
	}
	return fmt.Errorf("%w: %s: %w", ErrCompile, what, err)
}

// checkLen reports ErrDimension unless got == want (or nil is allowed and
// the slice is nil).
func checkLen(what string, got, want int, isNilOK bool) error {
	if isNilOK || got == want {
		return nil
	}
	return fmt.Errorf("%w: len(%s) = %d, want %d", ErrDimension, what, got, want)
}

// checkGraph verifies that all expressions are valid members of the graph of
// X[0] (rows of G may be the zero Expr, see checkRows).
func checkGraph(s Spec) error {
	g := s.X[0].Graph()
	if g == nil {
		return fmt.Errorf("%w: X[0] is the zero Expr", ErrGraph)
	}
	check := func(what string, v ad.Vec) error {
		for i, e := range v {
			if what == "G" && e == (ad.Expr{}) {
				continue
			}
			if e.Graph() != g {
				return fmt.Errorf("%w: %s[%d] belongs to another graph", ErrGraph, what, i)
			}
			if !e.IsValid() {
				return fmt.Errorf("%w: %s[%d] is invalid: %w", ErrGraph, what, i, g.Err())
			}
		}
		return nil
	}
	if err := check("X", s.X); err != nil {
		return err
	}
	if err := check("P", s.P); err != nil {
		return err
	}
	if err := check("G", s.G); err != nil {
		return err
	}
	if s.F != (ad.Expr{}) {
		if err := check("F", ad.Vec{s.F}); err != nil {
			return err
		}
	}
	return nil
}

// checkSymbols verifies that X and P together are distinct symbols.
func checkSymbols(x, par ad.Vec) error {
	seen := make(map[ad.Expr]struct{}, len(x)+len(par))
	for k, e := range append(append(ad.Vec{}, x...), par...) {
		what, i := "X", k
		if k >= len(x) {
			what, i = "P", k-len(x)
		}
		if !e.IsSymbol() {
			return fmt.Errorf("%w: %s[%d] = %v is not a symbol", ErrNotSymbol, what, i, e)
		}
		if _, dup := seen[e]; dup {
			return fmt.Errorf("%w: %s[%d] = %v occurs twice", ErrNotSymbol, what, i, e)
		}
		seen[e] = struct{}{}
	}
	return nil
}

// setBounds validates lo ≤ hi elementwise and copies them into dl, du; nil
// slices mean the defaults defL, defU.
func setBounds(what string, dl, du, lo, hi []float64, defL, defU float64) error {
	n := len(dl)
	if err := checkLen(what+"L", len(lo), n, lo == nil); err != nil {
		return err
	}
	if err := checkLen(what+"U", len(hi), n, hi == nil); err != nil {
		return err
	}
	for i := range n {
		l, u := defL, defU
		if lo != nil {
			l = lo[i]
		}
		if hi != nil {
			u = hi[i]
		}
		if math.IsNaN(l) || math.IsNaN(u) || l > u || math.IsInf(l, 1) || math.IsInf(u, -1) {
			return fmt.Errorf("%w: %s[%d]: [%g, %g]", ErrBounds, what, i, l, u)
		}
	}
	for i := range n {
		dl[i], du[i] = defL, defU
		if lo != nil {
			dl[i] = lo[i]
		}
		if hi != nil {
			du[i] = hi[i]
		}
	}
	return nil
}

// SetVarBounds replaces the variable bounds (nil: −Inf, +Inf). On error the
// bounds are unchanged.
func (p *Problem) SetVarBounds(xl, xu []float64) error {
	return setBounds("X", p.xl, p.xu, xl, xu, math.Inf(-1), math.Inf(1))
}

// SetConstraintBounds replaces the constraint bounds. gl and gu must be both
// nil (all constraints are equalities G = 0) or both of length
// NumConstraints. On error the bounds are unchanged.
func (p *Problem) SetConstraintBounds(gl, gu []float64) error {
	if (gl == nil) != (gu == nil) {
		return fmt.Errorf("%w: GL and GU must be both nil or both set", ErrDimension)
	}
	return setBounds("G", p.gl, p.gu, gl, gu, 0, 0)
}

// SetParams replaces the parameter values (len(P) of them, all finite). The
// next evaluation uses them; nothing is recompiled. On error the values are
// unchanged.
func (p *Problem) SetParams(pv []float64) error {
	if err := checkLen("PV", len(pv), len(p.pv), false); err != nil {
		return err
	}
	if i := nonFinite(pv); i >= 0 {
		return fmt.Errorf("%w: PV[%d] = %g", ErrNonFinite, i, pv[i])
	}
	copy(p.pv, pv)
	p.refreshParams()
	return nil
}

// SetStart replaces the initial point (len NumVars, finite); nil means zeros
// projected into the variable bounds current when the solver asks for the
// start. The point may lie outside the bounds (the solver pushes it inside).
// On error the start is unchanged.
func (p *Problem) SetStart(x0 []float64) error {
	if x0 == nil {
		p.x0 = nil
		return nil
	}
	if err := checkLen("X0", len(x0), p.n, false); err != nil {
		return err
	}
	if i := nonFinite(x0); i >= 0 {
		return fmt.Errorf("%w: X0[%d] = %g", ErrNonFinite, i, x0[i])
	}
	p.x0 = append(p.x0[:0], x0...)
	return nil
}

func nonFinite(v []float64) int {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return i
		}
	}
	return -1
}

// NumVars returns the number of variables n = len(X).
func (p *Problem) NumVars() int { return p.n }

// NumConstraints returns the number of constraints m = len(G).
func (p *Problem) NumConstraints() int { return p.m }

// Stats returns figures about the construction of p.
func (p *Problem) Stats() BuildStats { return p.stats }

// stages fills xStage and gStage from the spec or the defaults.
func (p *Problem) stages(vs, cs []int) {
	p.xStage = make([]int, p.n)
	if vs != nil {
		copy(p.xStage, vs)
	} else {
		for j := range p.xStage {
			p.xStage[j] = j
		}
	}
	p.gStage = make([]int, p.m)
	if cs != nil {
		copy(p.gStage, cs)
		return
	}
	lo := p.xStage[0]
	for _, s := range p.xStage {
		lo = min(lo, s)
	}
	for i := range p.gStage {
		p.gStage[i] = lo
	}
	for k, i := range p.jRows {
		p.gStage[i] = max(p.gStage[i], p.xStage[p.jCols[k]])
	}
}

// Dims returns n and m.
func (p *Problem) Dims() (n, m int) { return p.n, p.m }

// Bounds writes the variable and constraint bounds.
func (p *Problem) Bounds(xL, xU, gL, gU []float64) {
	copy(xL, p.xl)
	copy(xU, p.xu)
	copy(gL, p.gl)
	copy(gU, p.gu)
}

// Start writes the initial point: X0 or SetStart's point, else zeros
// projected into the bounds.
func (p *Problem) Start(x0 []float64) {
	if p.x0 != nil {
		copy(x0, p.x0)
		return
	}
	for j := range x0[:p.n] {
		x0[j] = min(max(0, p.xl[j]), p.xu[j])
	}
}

// Stages implements nlp.StageHinter with Spec.VarStage and Spec.ConStage
// (or their defaults, see Spec).
func (p *Problem) Stages(xStage, gStage []int) {
	copy(xStage, p.xStage)
	copy(gStage, p.gStage)
}

// eval runs f with inputs {x, pv} (and σ, λ when lambda is not nil) into
// out.
func (p *Problem) eval(f *ad.Function, ws *ad.Workspace, x []float64, lambda []float64, out []float64) error {
	in := p.in2
	if lambda != nil {
		in = p.in4
		in[2], in[3] = p.sigma[:], lambda
	}
	in[0], in[1] = x, p.pv
	p.out[0] = out
	err := f.Eval(ws, in, p.out)
	in[0], p.out[0] = nil, nil // do not retain the caller's slices
	if lambda != nil {
		in[3] = nil
	}
	return err
}

// Objective returns F(x; p) plus the blocks' objective terms.
func (p *Problem) Objective(x []float64) (float64, error) {
	if p.blocks != nil {
		if err := p.checkX(x); err != nil {
			return 0, err
		}
	}
	f := 0.0
	if p.obj != nil {
		if err := p.eval(p.obj, p.wsObj, x, nil, p.fval[:]); err != nil {
			return 0, err
		}
		f = p.fval[0]
	}
	for _, b := range p.blocks {
		fb, err := b.objective(x)
		if err != nil {
			return 0, err
		}
		f += fb
	}
	return f, nil
}

// Gradient writes ∇F(x; p) plus the blocks' objective gradients.
func (p *Problem) Gradient(x, grad []float64) error {
	if p.blocks != nil {
		if err := p.checkX(x); err != nil {
			return err
		}
		if err := checkOut("gradient", grad, p.n); err != nil {
			return err
		}
	}
	if p.grad == nil {
		clear(grad[:p.n])
	} else if err := p.eval(p.grad, p.wsGrad, x, nil, grad); err != nil {
		return err
	}
	for _, b := range p.blocks {
		if err := b.gradient(x, grad); err != nil {
			return err
		}
	}
	return nil
}

// Constraints writes G(x; p), the symbolic rows plus the block outputs.
func (p *Problem) Constraints(x, g []float64) error {
	if p.blocks == nil {
		return p.eval(p.con, p.wsCon, x, nil, g)
	}
	if err := p.checkX(x); err != nil {
		return err
	}
	if err := checkOut("constraints", g, p.m); err != nil {
		return err
	}
	if p.symRows == nil {
		if err := p.eval(p.con, p.wsCon, x, nil, g); err != nil {
			return err
		}
	} else {
		clear(g)
		if len(p.symRows) > 0 {
			if err := p.eval(p.con, p.wsCon, x, nil, p.gSym); err != nil {
				return err
			}
			for i, r := range p.symRows {
				g[r] = p.gSym[i]
			}
		}
	}
	for _, b := range p.blocks {
		if err := b.constraints(x, g); err != nil {
			return err
		}
	}
	return nil
}

// JacobianStructure returns the coordinates of the structural nonzeros of
// ∂G/∂x (column-major order, rows ascending within a column).
func (p *Problem) JacobianStructure() (rows, cols []int) {
	return append([]int{}, p.jRows...), append([]int{}, p.jCols...)
}

// JacobianValues writes the Jacobian entries in the order of
// JacobianStructure.
func (p *Problem) JacobianValues(x, vals []float64) error {
	if p.blocks == nil {
		return p.eval(p.jac, p.wsJac, x, nil, vals)
	}
	if err := p.checkX(x); err != nil {
		return err
	}
	if err := checkOut("Jacobian values", vals, len(p.jRows)); err != nil {
		return err
	}
	clear(vals)
	if len(p.jSym) > 0 {
		if err := p.eval(p.jac, p.wsJac, x, nil, p.jSym); err != nil {
			return err
		}
		for k, d := range p.jSymPos {
			vals[d] = p.jSym[k]
		}
	}
	for _, b := range p.blocks {
		if err := b.jacobian(x, vals); err != nil {
			return err
		}
	}
	return nil
}

// HessianStructure returns the coordinates of the structural nonzeros of
// the lower triangle (row ≥ column) of the Lagrangian Hessian, column-major.
func (p *Problem) HessianStructure() (rows, cols []int) {
	return append([]int{}, p.hRows...), append([]int{}, p.hCols...)
}

// HessianValues writes σ∇²F + Σλᵢ∇²Gᵢ (F and G including the blocks) in the
// order of HessianStructure.
func (p *Problem) HessianValues(x []float64, sigma float64, lambda, vals []float64) error {
	p.sigma[0] = sigma
	if lambda == nil {
		lambda = []float64{} // m = 0; a nil λ would select the two-input call
	}
	if p.blocks == nil {
		return p.eval(p.hess, p.wsHes, x, lambda, vals)
	}
	if err := p.checkX(x); err != nil {
		return err
	}
	if err := checkOut("multipliers", lambda, p.m); err != nil {
		return err
	}
	if err := checkOut("Hessian values", vals, len(p.hRows)); err != nil {
		return err
	}
	clear(vals)
	if len(p.hSym) > 0 {
		lam := lambda
		if p.symRows != nil {
			for i, r := range p.symRows {
				p.lamSym[i] = lambda[r]
			}
			lam = p.lamSym
		}
		if err := p.eval(p.hess, p.wsHes, x, lam, p.hSym); err != nil {
			return err
		}
		for k, d := range p.hSymPos {
			vals[d] = p.hSym[k]
		}
	}
	for _, b := range p.blocks {
		if err := b.hessian(x, sigma, lambda, vals); err != nil {
			return err
		}
	}
	return nil
}

// checkX reports ErrDimension unless len(x) = n.
func (p *Problem) checkX(x []float64) error {
	return checkOut("x", x, p.n)
}

// checkOut reports ErrDimension unless len(v) = want.
func checkOut(what string, v []float64, want int) error {
	if len(v) != want {
		return fmt.Errorf("%w: len(%s) = %d, want %d", ErrDimension, what, len(v), want)
	}
	return nil
}
