package macmpec

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp/adnlp"
)

var inf = math.Inf(1)

// builder collects the variables, objective, constraints and
// complementarities of one AMPL model and turns them into an mpcc.Problem.
// Complementarities of expressions are lifted (see perp and mixed).
type builder struct {
	g          *ad.Graph
	x          ad.Vec
	xl, xu, x0 []float64
	start      []bool // x0 given explicitly
	index      map[ad.Expr]int
	f          ad.Expr
	maximize   bool
	con        ad.Vec
	cl, cu     []float64
	pairs      [][2]int
	// lifts are the slack definitions s_k − e_k(x) = 0 (row, slack) whose
	// start value is e_k(x0); splits are the rows F(x) − F⁺ + F⁻ = 0 of
	// mixed complementarities, whose start is (max(F, 0), max(−F, 0)).
	lifts  [][2]int
	splits [][3]int
	err    error
}

func newBuilder() *builder {
	return &builder{g: ad.NewGraph(), index: map[ad.Expr]int{}}
}

// v adds a variable with bounds [lo, hi] and AMPL's default start 0
// (projected into the bounds when the model was built).
func (b *builder) v(name string, lo, hi float64) ad.Expr {
	s := b.g.Sym(name)
	b.index[s] = len(b.x)
	b.x = append(b.x, s)
	b.xl = append(b.xl, lo)
	b.xu = append(b.xu, hi)
	b.x0 = append(b.x0, 0)
	b.start = append(b.start, false)
	return s
}

// vs adds n variables name[1…n] with the same bounds.
func (b *builder) vs(name string, n int, lo, hi float64) ad.Vec {
	v := make(ad.Vec, n)
	for i := range v {
		v[i] = b.v(fmt.Sprintf("%s[%d]", name, i+1), lo, hi)
	}
	return v
}

// init sets the start value of variable x (AMPL's := or let).
func (b *builder) init(x ad.Expr, v float64) {
	i, ok := b.index[x]
	if !ok {
		b.fail(fmt.Errorf("init of a non-variable"))
		return
	}
	b.x0[i], b.start[i] = v, true
}

func (b *builder) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

func (b *builder) minimize(e ad.Expr) { b.f = e }

func (b *builder) maximizeObj(e ad.Expr) { b.f, b.maximize = e.Neg(), true }

// c adds the constraint lo ≤ e ≤ hi and returns its row.
func (b *builder) c(lo float64, e ad.Expr, hi float64) int {
	b.con = append(b.con, e)
	b.cl = append(b.cl, lo)
	b.cu = append(b.cu, hi)
	return len(b.con) - 1
}

func (b *builder) eq(e ad.Expr, rhs float64) { b.c(rhs, e, rhs) }
func (b *builder) le(e ad.Expr, rhs float64) { b.c(-inf, e, rhs) }
func (b *builder) ge(e ad.Expr, rhs float64) { b.c(rhs, e, inf) }

// side returns a variable index that equals e ≥ 0 at every feasible point.
// A variable with lower bound ≤ 0 is used itself (its lower bound becomes 0,
// which the complementarity implies); any other expression is lifted: a new
// slack s ≥ 0 with the constraint s − e = 0. avoid is an index the side
// must differ from (a variable complementary to itself is lifted once).
func (b *builder) side(e ad.Expr, avoid int) int {
	if i, ok := b.index[e]; ok && i != avoid && b.xl[i] <= 0 {
		b.xl[i] = 0
		return i
	}
	s := b.v(fmt.Sprintf("slack%d", len(b.x)), 0, inf)
	r := b.c(0, s.Sub(e), 0)
	b.lifts = append(b.lifts, [2]int{r, b.index[s]})
	return b.index[s]
}

// perp adds 0 ≤ G ⊥ H ≥ 0.
func (b *builder) perp(G, H ad.Expr) {
	a := b.side(G, -1)
	c := b.side(H, a)
	b.pairs = append(b.pairs, [2]int{a, c})
}

// mixed adds the mixed complementarity lo ≤ e ≤ hi ⊥ F of AMPL: e = lo
// gives F ≥ 0, e = hi gives F ≤ 0, lo < e < hi gives F = 0. F is split as
// F = F⁺ − F⁻ with 0 ≤ e − lo ⊥ F⁺ ≥ 0 and 0 ≤ hi − e ⊥ F⁻ ≥ 0; an
// infinite bound drops its pair and its part of F.
func (b *builder) mixed(lo float64, e ad.Expr, hi float64, F ad.Expr) {
	row := F
	plus, minus := -1, -1
	if !math.IsInf(lo, 0) {
		p := b.v(fmt.Sprintf("Fplus%d", len(b.x)), 0, inf)
		plus = b.index[p]
		row = row.Sub(p)
		b.pairs = append(b.pairs, [2]int{b.side(e.AddConst(-lo), -1), plus})
	}
	if !math.IsInf(hi, 0) {
		m := b.v(fmt.Sprintf("Fminus%d", len(b.x)), 0, inf)
		minus = b.index[m]
		row = row.Add(m)
		b.pairs = append(b.pairs, [2]int{b.side(e.Neg().AddConst(hi), -1), minus})
	}
	r := b.c(0, row, 0)
	b.splits = append(b.splits, [3]int{r, plus, minus})
}

// mcp adds the complementarity F(x) ⊥ x of a variable with its own bounds
// (AMPL's "0 = F complements x", which the .nl format reads as the mixed
// complementarity of F with the bounds of x).
func (b *builder) mcp(F, x ad.Expr) {
	i, ok := b.index[x]
	if !ok {
		b.fail(fmt.Errorf("mcp with a non-variable"))
		return
	}
	lo, hi := b.xl[i], b.xu[i]
	b.mixed(lo, x, hi, F)
}

// build compiles the model into an mpcc.Problem. The start point is x0
// projected into the bounds, with every lifted slack at the value of its
// expression there.
func (b *builder) build() (*mpcc.Problem, error) {
	if b.err != nil {
		return nil, b.err
	}
	if err := b.g.Err(); err != nil {
		return nil, err
	}
	x0 := make([]float64, len(b.x))
	for i := range x0 {
		x0[i] = b.x0[i]
		if !b.start[i] {
			x0[i] = min(max(x0[i], b.xl[i]), b.xu[i])
		}
	}
	p, err := adnlp.New(adnlp.Spec{
		X: b.x, XL: b.xl, XU: b.xu, X0: x0,
		F: b.f, G: b.con, GL: b.cl, GU: b.cu,
	})
	if err != nil {
		return nil, err
	}
	if len(b.lifts)+len(b.splits) > 0 {
		// With the slacks at 0 the row s − e(x) reads −e(x0) and the row
		// F − F⁺ + F⁻ reads F(x0).
		for _, l := range b.lifts {
			x0[l[1]] = 0
		}
		for _, s := range b.splits {
			for _, j := range s[1:] {
				if j >= 0 {
					x0[j] = 0
				}
			}
		}
		g := make([]float64, len(b.con))
		if err := p.Constraints(x0, g); err != nil {
			return nil, err
		}
		for _, l := range b.lifts {
			x0[l[1]] = -g[l[0]]
		}
		for _, s := range b.splits {
			if s[1] >= 0 {
				x0[s[1]] = max(g[s[0]], 0)
			}
			if s[2] >= 0 {
				x0[s[2]] = max(-g[s[0]], 0)
			}
		}
		if err := p.SetStart(x0); err != nil {
			return nil, err
		}
	}
	comp := make([]mpcc.Complementarity, len(b.pairs))
	for k, pr := range b.pairs {
		comp[k] = mpcc.Pair(pr[0], pr[1])
	}
	mp := &mpcc.Problem{NLP: p, Comp: comp}
	if err := mp.Validate(); err != nil {
		return nil, err
	}
	return mp, nil
}

// helpers for the models

// sum returns Σ e.
func sum(es ...ad.Expr) ad.Expr {
	s := es[0]
	for _, e := range es[1:] {
		s = s.Add(e)
	}
	return s
}

// lin returns c + Σ a_i x_i.
func lin(c float64, a []float64, x ad.Vec) ad.Expr {
	e := x[0].Graph().Const(c)
	for i, ai := range a {
		if ai != 0 {
			e = e.Add(x[i].Scale(ai))
		}
	}
	return e
}
