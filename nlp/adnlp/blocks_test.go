package adnlp_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/adnlp"
)

// localFn is a block's function of its local inputs; it is called once with
// the block's own symbols and once with symbols of the NLP's graph for the
// symbolic twin.
type localFn struct {
	nIn int
	f   func(in ad.Vec) (G ad.Vec, F ad.Expr)
}

// localFns are smooth on all of Rⁿ, nonlinear in every input and with
// nonzero mixed second derivatives, so that no derivative entry of the
// symbolic twin cancels structurally.
var localFns = []localFn{
	{3, func(in ad.Vec) (ad.Vec, ad.Expr) {
		return ad.Vec{
				in[0].Mul(in[1]).Sub(ad.Sin(in[2])),
				ad.Exp(in[0].Scale(0.3)).Mul(in[2]).Add(ad.Sq(in[1])),
			},
			ad.Sq(in[0]).Mul(in[1]).Add(ad.Cos(in[2]))
	}},
	{2, func(in ad.Vec) (ad.Vec, ad.Expr) {
		return ad.Vec{ad.Tanh(in[0].Sub(ad.Sq(in[1])))}, ad.Expr{}
	}},
	{1, func(in ad.Vec) (ad.Vec, ad.Expr) {
		return nil, ad.Log(ad.Sq(in[0]).AddConst(1))
	}},
	{4, func(in ad.Vec) (ad.Vec, ad.Expr) {
		return ad.Vec{
				in[0].Mul(in[1]).Mul(in[2]).Add(ad.Sin(in[3])),
				ad.Sqrt(ad.Sq(in[3]).AddConst(1)).Mul(in[0]),
				in[2].Div(ad.Sq(in[1]).AddConst(2)),
			},
			in[0].Mul(ad.Sin(in[3])).Add(ad.Sq(in[1]).Mul(in[2]))
	}},
}

// blockCase selects the features of a random block NLP.
type blockCase struct {
	name      string
	seed      uint64
	multiVar  bool // inputs with several variables (random coefficients)
	zeroCoef  bool // with multiVar: a variable with coefficient 0 (no nonzero)
	dup       bool // one global variable in two inputs of an instance
	params    bool // parameter-only and parameter terms
	consts    bool // constant inputs and constant terms
	zeroRows  bool // rows of Spec.G that only blocks fill
	dropped   bool // block outputs dropped (Rows = −1)
	empty     bool // a block without instances
	noSpecF   bool // Spec.F is the zero Expr
	sameGraph bool // block symbols in the graph of Spec.X
}

// randomBlocks builds a random NLP with blocks and its symbolic twin, in
// which every instance's block expressions are substituted (ad.Substitute)
// with the affine input expressions and added into Spec.F and Spec.G.
func randomBlocks(t *testing.T, c blockCase) (blocks, twin adnlp.Spec) {
	t.Helper()
	rng := rand.New(rand.NewPCG(c.seed, 7))
	const n, m, np = 9, 6, 2
	gx := ad.NewGraph()
	x, par := gx.SymVec("x", n), gx.SymVec("p", np)
	coef := func() float64 { // ±[0.5, 1.5]: never ±1, so nothing cancels
		v := 0.5 + rng.Float64()
		if rng.IntN(2) == 0 {
			v = -v
		}
		return v
	}
	affine := func() adnlp.Affine {
		kind := rng.IntN(5)
		switch {
		case kind == 1 && c.multiVar:
			a := adnlp.Affine{}
			for range 2 + rng.IntN(2) {
				a.Vars, a.VarCoef = append(a.Vars, rng.IntN(n)), append(a.VarCoef, coef())
			}
			if c.zeroCoef {
				a.Vars, a.VarCoef = append(a.Vars, rng.IntN(n)), append(a.VarCoef, 0)
			}
			if c.consts {
				a.Const = coef()
			}
			return a
		case kind == 2 && c.params:
			a := adnlp.Param(rng.IntN(np))
			if c.consts {
				a.Const = coef()
			}
			return a
		case kind == 3 && c.consts:
			return adnlp.Const(coef())
		case kind == 4 && c.params && c.consts:
			a := adnlp.Var(rng.IntN(n))
			a.VarCoef[0] = coef()
			a.Params, a.ParamCoef, a.Const = []int{rng.IntN(np)}, []float64{coef()}, coef()
			return a
		}
		return adnlp.Var(rng.IntN(n))
	}
	affineExpr := func(a adnlp.Affine) ad.Expr {
		e := gx.Const(a.Const)
		for k, v := range a.Vars {
			e = e.Add(x[v].Scale(a.VarCoef[k]))
		}
		for k, v := range a.Params {
			e = e.Add(par[v].Scale(a.ParamCoef[k]))
		}
		return e
	}

	// Symbolic part: every other row of G, the objective unless noSpecF.
	specG := make(ad.Vec, m)
	for r := range m {
		if r%2 == 0 || !c.zeroRows {
			specG[r] = ad.Sin(x[r].Mul(x[(r+3)%n])).Add(par[r%np].Mul(x[(r+5)%n]))
		}
	}
	var specF ad.Expr
	if !c.noSpecF {
		specF = ad.Sq(x[0].Sub(par[0])).Add(ad.Exp(x[1].Scale(0.2)).Mul(x[2]))
	}
	twinG := slices.Clone(specG)
	twinF := specF
	add := func(sum *ad.Expr, e ad.Expr) {
		if *sum == (ad.Expr{}) {
			*sum = e
		} else {
			*sum = sum.Add(e)
		}
	}

	nb := len(localFns)
	var bs []adnlp.Block
	for bi := range nb + 1 {
		lf := localFns[bi%nb]
		g := ad.NewGraph()
		if c.sameGraph {
			g = gx
		}
		in := g.SymVec(fmt.Sprintf("in%d_", bi), lf.nIn)
		G, F := lf.f(in)
		b := adnlp.Block{Name: fmt.Sprintf("b%d", bi), In: in, G: G, F: F}
		nInst := 2 + rng.IntN(3)
		if c.empty && bi == 1 {
			nInst = 0
		}
		// The twin: the same function of symbols of gx.
		loc := gx.SymVec(fmt.Sprintf("loc%d_", bi), lf.nIn)
		tG, tF := lf.f(loc)
		for range nInst {
			inst := adnlp.Instance{In: make([]adnlp.Affine, lf.nIn), Rows: make([]int, len(G))}
			to := make(ad.Vec, lf.nIn)
			for j := range inst.In {
				inst.In[j] = affine()
				to[j] = affineExpr(inst.In[j])
			}
			if c.dup && lf.nIn > 1 {
				// The first variable of input 0 also in input 1.
				k := rng.IntN(n)
				inst.In[0].Vars, inst.In[0].VarCoef = append(inst.In[0].Vars, k), append(inst.In[0].VarCoef, coef())
				inst.In[1].Vars, inst.In[1].VarCoef = append(inst.In[1].Vars, k), append(inst.In[1].VarCoef, coef())
				to[0], to[1] = affineExpr(inst.In[0]), affineExpr(inst.In[1])
			}
			for i := range inst.Rows {
				inst.Rows[i] = rng.IntN(m)
				if c.dropped && rng.IntN(3) == 0 {
					inst.Rows[i] = -1
				}
			}
			b.Instances = append(b.Instances, inst)
			outs := slices.Clone(tG)
			if tF != (ad.Expr{}) {
				outs = append(outs, tF)
			}
			sub, err := ad.Substitute(outs, loc, to)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range inst.Rows {
				if r >= 0 {
					add(&twinG[r], sub[i])
				}
			}
			if tF != (ad.Expr{}) {
				add(&twinF, sub[len(tG)])
			}
		}
		bs = append(bs, b)
	}
	// Zero rows that no instance fills get a symbolic expression.
	for r := range m {
		if twinG[r] == (ad.Expr{}) {
			specG[r] = ad.Sq(x[r])
			twinG[r] = specG[r]
		}
	}
	pv := []float64{0.7, -1.1}
	blocks = adnlp.Spec{X: x, F: specF, G: specG, P: par, PV: pv, Blocks: bs}
	twin = adnlp.Spec{X: x, F: twinF, G: twinG, P: par, PV: pv}
	return blocks, twin
}

var blockCases = []blockCase{
	{name: "single variables", seed: 1},
	{name: "several variables", seed: 2, multiVar: true},
	{name: "zero coefficients", seed: 15, multiVar: true, zeroCoef: true},
	{name: "shared variable", seed: 3, dup: true},
	{name: "shared and several", seed: 4, dup: true, multiVar: true},
	{name: "parameters", seed: 5, params: true},
	{name: "constants", seed: 6, consts: true},
	{name: "parameters and constants", seed: 7, params: true, consts: true, multiVar: true},
	{name: "zero rows", seed: 8, zeroRows: true, noSpecF: true},
	{name: "dropped rows", seed: 9, dropped: true},
	{name: "no instances", seed: 10, empty: true},
	{name: "graph of X", seed: 11, sameGraph: true, multiVar: true, dup: true},
	{name: "everything", seed: 12, multiVar: true, zeroCoef: true, dup: true, params: true, consts: true, zeroRows: true, dropped: true, empty: true},
	{name: "everything 2", seed: 13, multiVar: true, dup: true, params: true, consts: true, zeroRows: true, dropped: true, noSpecF: true},
	{name: "everything 3", seed: 14, multiVar: true, dup: true, params: true, consts: true, zeroRows: true, dropped: true, sameGraph: true},
}

// TestBlocksMatchSymbolic compares an NLP built with blocks with its fully
// symbolic twin (the reference): the merged patterns must be identical and
// f, g, ∇f, the Jacobian and the Hessian must agree to 1e-12·max(1, |ref|)
// (the two differ only in the order of floating-point sums) at random points,
// multipliers and parameter values.
func TestBlocksMatchSymbolic(t *testing.T) {
	const tol = 1e-12
	for _, c := range blockCases {
		t.Run(c.name, func(t *testing.T) {
			bs, ts := randomBlocks(t, c)
			pb, pt := mustNew(t, bs), mustNew(t, ts)
			checkStructure(t, pb)
			compareProblems(t, pb, pt, tol, c.seed)
			// New parameter values reach the blocks' inputs.
			for _, p := range []*adnlp.Problem{pb, pt} {
				if err := p.SetParams([]float64{-0.4, 1.9}); err != nil {
					t.Fatal(err)
				}
			}
			compareProblems(t, pb, pt, tol, c.seed+100)
		})
	}
}

// compareProblems checks that a and ref have the same dimensions, patterns
// and values (within tol relative to max(1, |ref|)) at three random points.
func compareProblems(t *testing.T, a, ref *adnlp.Problem, tol float64, seed uint64) {
	t.Helper()
	n, m := ref.Dims()
	if na, ma := a.Dims(); na != n || ma != m {
		t.Fatalf("dims (%d, %d), want (%d, %d)", na, ma, n, m)
	}
	ajr, ajc := a.JacobianStructure()
	rjr, rjc := ref.JacobianStructure()
	if !slices.Equal(ajr, rjr) || !slices.Equal(ajc, rjc) {
		t.Fatalf("Jacobian structure\n rows %v\n cols %v\nwant\n rows %v\n cols %v", ajr, ajc, rjr, rjc)
	}
	ahr, ahc := a.HessianStructure()
	rhr, rhc := ref.HessianStructure()
	if !slices.Equal(ahr, rhr) || !slices.Equal(ahc, rhc) {
		t.Fatalf("Hessian structure\n rows %v\n cols %v\nwant\n rows %v\n cols %v", ahr, ahc, rhr, rhc)
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	check := func(what string, got, want []float64) {
		t.Helper()
		for k := range want {
			if d := math.Abs(got[k] - want[k]); !(d <= tol*math.Max(1, math.Abs(want[k]))) {
				t.Errorf("%s[%d] = %.17g, want %.17g", what, k, got[k], want[k])
			}
		}
	}
	eval := func(p *adnlp.Problem, x []float64, sigma float64, lambda []float64) [5][]float64 {
		f, err := p.Objective(x)
		if err != nil {
			t.Fatal(err)
		}
		grad, g := make([]float64, n), make([]float64, m)
		jv, hv := make([]float64, len(rjr)), make([]float64, len(rhr))
		for _, v := range [][]float64{grad, g, jv, hv} {
			for k := range v {
				v[k] = math.NaN() // every entry must be written
			}
		}
		if err := p.Gradient(x, grad); err != nil {
			t.Fatal(err)
		}
		if err := p.Constraints(x, g); err != nil {
			t.Fatal(err)
		}
		if err := p.JacobianValues(x, jv); err != nil {
			t.Fatal(err)
		}
		if err := p.HessianValues(x, sigma, lambda, hv); err != nil {
			t.Fatal(err)
		}
		return [5][]float64{{f}, grad, g, jv, hv}
	}
	for range 3 {
		x, lambda := make([]float64, n), make([]float64, m)
		for j := range x {
			x[j] = 2*rng.Float64() - 1
		}
		for i := range lambda {
			lambda[i] = 4*rng.Float64() - 2
		}
		sigma := 0.5 + rng.Float64()
		got, want := eval(a, x, sigma, lambda), eval(ref, x, sigma, lambda)
		for k, what := range []string{"f", "grad", "g", "jac", "hess"} {
			check(what, got[k], want[k])
		}
	}
}

// chainBlocksSpec is chainSpec(N) built with one block for the N stages
// (stage cost and dynamics) and the terminal cost x_N² in Spec.F; every row
// of Spec.G is filled by the block.
func chainBlocksSpec(N int) adnlp.Spec {
	var s adnlp.Spec
	g := ad.NewGraph()
	h := 1.0 / float64(N)
	n := 2*N + 1
	X := g.SymVec("w", n)
	xl, xu := make([]float64, n), make([]float64, n)
	for j := range n {
		xl[j], xu[j] = -2, 2
		if j%2 == 1 {
			xl[j], xu[j] = -1, 1
		}
	}
	xl[0], xu[0] = 1, 1
	bg := ad.NewGraph()
	in := bg.SymVec("z", 3) // xₖ, uₖ, xₖ₊₁
	step := adnlp.Block{
		Name: "step",
		In:   in,
		G:    ad.Vec{in[2].Sub(in[0]).Sub(ad.Sin(in[0]).Add(in[1]).Scale(h))},
		F:    ad.Sq(in[0]).Add(ad.Sq(in[1])).Scale(h),
	}
	for k := range N {
		step.Instances = append(step.Instances, adnlp.Instance{
			In:   []adnlp.Affine{adnlp.Var(2 * k), adnlp.Var(2*k + 1), adnlp.Var(2*k + 2)},
			Rows: []int{k},
		})
	}
	s.X, s.XL, s.XU = X, xl, xu
	s.F, s.G = ad.Sq(X[n-1]), make(ad.Vec, N)
	s.Blocks = []adnlp.Block{step}
	return s
}

// TestBlocksChain: the chain problem built with a block has the pattern
// and values of the symbolic build (the reference, to 1e-12), the same
// default stages, and the interior-point solver reaches the same solution
// (to 1e-8, well above the rounding differences of the two evaluations).
func TestBlocksChain(t *testing.T) {
	const N = 50
	pb, pt := mustNew(t, chainBlocksSpec(N)), mustNew(t, chainSpec(N))
	compareProblems(t, pb, pt, 1e-12, 1)
	n, m := pb.Dims()
	xb, gb, xt, gt := make([]int, n), make([]int, m), make([]int, n), make([]int, m)
	pb.Stages(xb, gb)
	pt.Stages(xt, gt)
	if !slices.Equal(xb, xt) || !slices.Equal(gb, gt) {
		t.Errorf("stages %v %v, want %v %v", xb, gb, xt, gt)
	}
	var res [2]*nlp.Result
	for k, p := range []*adnlp.Problem{pb, pt} {
		r, err := (&nlp.Solver{}).Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != nlp.Solved {
			t.Fatalf("problem %d: %v", k, r.Status)
		}
		res[k] = r
	}
	if d := math.Abs(res[0].Objective - res[1].Objective); d > 1e-8*math.Abs(res[1].Objective) {
		t.Errorf("objective %.12g with blocks, %.12g symbolic", res[0].Objective, res[1].Objective)
	}
	for j := range res[1].X {
		if d := math.Abs(res[0].X[j] - res[1].X[j]); d > 1e-8 {
			t.Errorf("x[%d] = %.12g with blocks, %.12g symbolic", j, res[0].X[j], res[1].X[j])
		}
	}
	if st := pb.Stats(); st.Blocks != 1 || st.Instances != N {
		t.Errorf("Stats: %d blocks, %d instances; want 1, %d", st.Blocks, st.Instances, N)
	}
}

// TestBlocksAllocs checks that no callback allocates with blocks.
func TestBlocksAllocs(t *testing.T) {
	bs, _ := randomBlocks(t, blockCases[len(blockCases)-3])
	for _, s := range []adnlp.Spec{bs, chainBlocksSpec(10)} {
		p := mustNew(t, s)
		n, m := p.Dims()
		x := make([]float64, n)
		p.Start(x)
		grad, g, lambda := make([]float64, n), make([]float64, m), make([]float64, m)
		jr, _ := p.JacobianStructure()
		hr, _ := p.HessianStructure()
		jv, hv := make([]float64, len(jr)), make([]float64, len(hr))
		for name, f := range map[string]func(){
			"Objective":      func() { _, _ = p.Objective(x) },
			"Gradient":       func() { _ = p.Gradient(x, grad) },
			"Constraints":    func() { _ = p.Constraints(x, g) },
			"JacobianValues": func() { _ = p.JacobianValues(x, jv) },
			"HessianValues":  func() { _ = p.HessianValues(x, 1, lambda, hv) },
			"SetParams":      func() { _ = p.SetParams(s.PV) },
		} {
			if a := testing.AllocsPerRun(20, f); a != 0 {
				t.Errorf("%s: %v allocations per call", name, a)
			}
		}
	}
}

// TestBlocksNonFinite: NaN and Inf of a block are written through, not
// errors, as for symbolic expressions.
func TestBlocksNonFinite(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	bg := ad.NewGraph()
	in := bg.SymVec("z", 1)
	p := mustNew(t, adnlp.Spec{X: x, G: make(ad.Vec, 1), Blocks: []adnlp.Block{{
		In: in, F: ad.Log(in[0]), G: ad.Vec{ad.Sq(in[0]).Div(in[0])},
		Instances: []adnlp.Instance{{In: []adnlp.Affine{adnlp.Var(1)}, Rows: []int{0}}},
	}}})
	xv := []float64{1, -1}
	if f, err := p.Objective(xv); err != nil || !math.IsNaN(f) {
		t.Errorf("Objective = %v, %v; want NaN, nil", f, err)
	}
	gv := []float64{0}
	if err := p.Constraints([]float64{1, 0}, gv); err != nil || !math.IsNaN(gv[0]) {
		t.Errorf("Constraints = %v, %v; want NaN (0/0), nil", gv, err)
	}
	grad := make([]float64, 2)
	if err := p.Gradient([]float64{1, 0}, grad); err != nil || !math.IsInf(grad[1], 1) {
		t.Errorf("Gradient = %v, %v; want [0 +Inf]", grad, err)
	}
}

// TestBlocksErrors: bad block specs are errors, not panics.
func TestBlocksErrors(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 3)
	par := g.Sym("p")
	bg := ad.NewGraph()
	in := bg.SymVec("z", 2)
	free := bg.Sym("free")
	other := ad.NewGraph().Sym("o")
	base := func() adnlp.Spec {
		return adnlp.Spec{
			X: x, G: ad.Vec{x[0], {}}, P: ad.Vec{par}, PV: []float64{1},
			Blocks: []adnlp.Block{{
				Name: "b", In: in, G: ad.Vec{in[0].Mul(in[1])}, F: ad.Sq(in[1]),
				Instances: []adnlp.Instance{
					{In: []adnlp.Affine{adnlp.Var(0), adnlp.Param(0)}, Rows: []int{1}},
				},
			}},
		}
	}
	inst := func(s *adnlp.Spec) *adnlp.Instance { return &s.Blocks[0].Instances[0] }
	nan := math.NaN()
	for _, c := range []struct {
		name string
		edit func(*adnlp.Spec)
		want error
	}{
		{"unfilled zero row", func(s *adnlp.Spec) { inst(s).Rows[0] = 0 }, adnlp.ErrGraph},
		{"unfilled zero row (dropped)", func(s *adnlp.Spec) { inst(s).Rows[0] = -1 }, adnlp.ErrGraph},
		{"no inputs", func(s *adnlp.Spec) { s.Blocks[0].In = nil }, adnlp.ErrDimension},
		{"input not a symbol", func(s *adnlp.Spec) { s.Blocks[0].In = ad.Vec{in[0], in[1].Neg()} }, adnlp.ErrNotSymbol},
		{"input twice", func(s *adnlp.Spec) { s.Blocks[0].In = ad.Vec{in[0], in[0]} }, adnlp.ErrNotSymbol},
		{"input zero Expr", func(s *adnlp.Spec) { s.Blocks[0].In = ad.Vec{in[0], {}} }, adnlp.ErrGraph},
		{"G of another graph", func(s *adnlp.Spec) { s.Blocks[0].G = ad.Vec{other} }, adnlp.ErrGraph},
		{"G zero Expr", func(s *adnlp.Spec) { s.Blocks[0].G = ad.Vec{{}} }, adnlp.ErrGraph},
		{"G invalid", func(s *adnlp.Spec) { s.Blocks[0].G = ad.Vec{in[0].Add(other)} }, adnlp.ErrGraph},
		{"F of another graph", func(s *adnlp.Spec) { s.Blocks[0].F = x[0] }, adnlp.ErrGraph},
		{"free symbol in G", func(s *adnlp.Spec) { s.Blocks[0].G = ad.Vec{in[0].Mul(free)} }, adnlp.ErrFreeSymbol},
		{"free symbol in F", func(s *adnlp.Spec) { s.Blocks[0].F = free }, ad.ErrFreeSymbol},
		{"instance inputs", func(s *adnlp.Spec) { inst(s).In = inst(s).In[:1] }, adnlp.ErrDimension},
		{"instance rows", func(s *adnlp.Spec) { inst(s).Rows = []int{1, 0} }, adnlp.ErrDimension},
		{"row too large", func(s *adnlp.Spec) { inst(s).Rows[0] = 2 }, adnlp.ErrIndex},
		{"row below −1", func(s *adnlp.Spec) { inst(s).Rows[0] = -2 }, adnlp.ErrIndex},
		{"variable out of range", func(s *adnlp.Spec) { inst(s).In[0] = adnlp.Var(3) }, adnlp.ErrIndex},
		{"negative variable", func(s *adnlp.Spec) { inst(s).In[0] = adnlp.Var(-1) }, adnlp.ErrIndex},
		{"parameter out of range", func(s *adnlp.Spec) { inst(s).In[1] = adnlp.Param(1) }, adnlp.ErrIndex},
		{"VarCoef length", func(s *adnlp.Spec) { inst(s).In[0].VarCoef = nil }, adnlp.ErrDimension},
		{"ParamCoef length", func(s *adnlp.Spec) { inst(s).In[1].ParamCoef = []float64{1, 2} }, adnlp.ErrDimension},
		{"Const NaN", func(s *adnlp.Spec) { inst(s).In[1].Const = nan }, adnlp.ErrNonFinite},
		{"VarCoef Inf", func(s *adnlp.Spec) { inst(s).In[0].VarCoef[0] = math.Inf(1) }, adnlp.ErrNonFinite},
		{"ParamCoef NaN", func(s *adnlp.Spec) { inst(s).In[1].ParamCoef[0] = nan }, adnlp.ErrNonFinite},
	} {
		s := base()
		c.edit(&s)
		p, err := adnlp.New(s)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
		if p != nil {
			t.Errorf("%s: non-nil Problem with an error", c.name)
		}
	}
	// The base spec is valid; wrong slice lengths in the callbacks are
	// errors.
	p := mustNew(t, base())
	if _, err := p.Objective(make([]float64, 2)); !errors.Is(err, adnlp.ErrDimension) {
		t.Errorf("Objective(short x) = %v", err)
	}
	if err := p.Constraints(make([]float64, 3), make([]float64, 1)); !errors.Is(err, adnlp.ErrDimension) {
		t.Errorf("Constraints(short g) = %v", err)
	}
	if err := p.HessianValues(make([]float64, 3), 1, make([]float64, 1), make([]float64, 1)); !errors.Is(err, adnlp.ErrDimension) {
		t.Errorf("HessianValues(short λ) = %v", err)
	}
}

// TestBlocksHandChecked checks one small case by hand: the block
// z₀·z₁ with inputs z₀ = 2x₀ + 3x₁ and z₁ = x₀ (a variable in both inputs)
// gives g = 2x₀² + 3x₀x₁, ∂g/∂x = (4x₀ + 3x₁, 3x₀) and the Hessian λ·[[4, 3],
// [3, 0]] (lower triangle (0,0), (1,0)): the local off-diagonal entry lands
// twice on the global diagonal. New adds no node to the block's graph.
func TestBlocksHandChecked(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	bg := ad.NewGraph()
	z := bg.SymVec("z", 2)
	nodes := bg.NumNodes() + 1 // z₀·z₁ below
	p := mustNew(t, adnlp.Spec{X: x, G: ad.Vec{{}}, Blocks: []adnlp.Block{{
		In: z, G: ad.Vec{z[0].Mul(z[1])},
		Instances: []adnlp.Instance{{
			In:   []adnlp.Affine{{Vars: []int{0, 1}, VarCoef: []float64{2, 3}}, adnlp.Var(0)},
			Rows: []int{0},
		}},
	}}})
	if bg.NumNodes() != nodes {
		t.Errorf("New added %d nodes to the block's graph", bg.NumNodes()-nodes)
	}
	xv := []float64{1.5, -0.5}
	gv := []float64{0}
	if err := p.Constraints(xv, gv); err != nil || gv[0] != 2*1.5*1.5+3*1.5*-0.5 {
		t.Errorf("g = %v, %v; want %v", gv, err, 2*1.5*1.5+3*1.5*-0.5)
	}
	jr, jc := p.JacobianStructure()
	jv := make([]float64, 2)
	if err := p.JacobianValues(xv, jv); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(jr, []int{0, 0}) || !slices.Equal(jc, []int{0, 1}) || jv[0] != 4*1.5+3*-0.5 || jv[1] != 3*1.5 {
		t.Errorf("Jacobian %v %v %v; want (0,0) (0,1) = [4.5 4.5]", jr, jc, jv)
	}
	hr, hc := p.HessianStructure()
	hv := make([]float64, 2)
	if err := p.HessianValues(xv, 1, []float64{0.5}, hv); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(hr, []int{0, 1}) || !slices.Equal(hc, []int{0, 0}) || hv[0] != 2 || hv[1] != 1.5 {
		t.Errorf("Hessian %v %v %v; want (0,0) (1,0) = [2 1.5]", hr, hc, hv)
	}
}
