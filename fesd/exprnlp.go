package fesd

import (
	"fmt"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/adnlp"
)

// exprSpec describes an NLP by ad expressions; it mirrors adnlp.Spec.
type exprSpec struct {
	X      ad.Vec
	XL, XU []float64
	X0     []float64
	F      ad.Expr
	G      ad.Vec
	GL, GU []float64
	P      ad.Vec
	PV     []float64
	// XStage and GStage are the stage numbers for nlp.StageHinter (nil:
	// no hint).
	XStage, GStage []int
}

// paramNLP is what the transcription needs from a compiled NLP with
// parameters: nlp.Problem plus the setters of adnlp.Problem.
type paramNLP interface {
	nlp.Problem
	SetStart(x0 []float64) error
	SetParams(pv []float64) error
	SetVarBounds(xl, xu []float64) error
}

// exprProblem compiles an exprSpec into an nlp.Problem: one tape for (f, g),
// one for the Jacobian of (f, g) (row 0 is ∇f) and one for the Lagrangian
// Hessian. It stands in for nlp/adnlp (same construction from a Spec, same
// setters) until that package is available.
type exprProblem struct {
	n, m           int
	d              *ad.Derivatives
	ws, wsJ, wsH   *ad.Workspace
	xl, xu, gl, gu []float64
	x0, pv         []float64
	xStage, gStage []int

	fg     []float64 // f, g
	jac    []float64 // nonzeros of ∂(f, g)/∂x
	gradAt []int     // positions in jac of ∇f entries, by column
	gradCo []int
	jrows  []int // constraint Jacobian structure
	jcols  []int
	jsrc   []int // position in jac
	hrows  []int
	hcols  []int
	lam    []float64 // (σ, λ)
	in     [][]float64
	inH    [][]float64
}

var _ nlp.Problem = (*exprProblem)(nil)
var _ nlp.StageHinter = (*exprProblem)(nil)

func newExprProblem(s exprSpec) (*exprProblem, error) {
	n, m := len(s.X), len(s.G)
	if len(s.XL) != n || len(s.XU) != n || len(s.X0) != n || len(s.GL) != m || len(s.GU) != m || len(s.PV) != len(s.P) {
		return nil, fmt.Errorf("fesd: internal NLP spec with inconsistent lengths")
	}
	f := s.F
	if !f.IsValid() {
		if len(s.X) == 0 {
			return nil, fmt.Errorf("fesd: internal NLP without variables")
		}
		f = s.X[0].Graph().Const(0)
	}
	d, err := ad.NewDerivatives("nlp",
		[]ad.Arg{{Name: "x", V: s.X}, {Name: "p", V: s.P}},
		[]ad.Arg{{Name: "f", V: ad.Vec{f}}, {Name: "g", V: s.G}}, "x")
	if err != nil {
		return nil, err
	}
	q := &exprProblem{
		n: n, m: m, d: d,
		ws: d.F.NewWorkspace(), wsJ: d.Jac.NewWorkspace(), wsH: d.Hess.NewWorkspace(),
		xl: clone(s.XL), xu: clone(s.XU), gl: clone(s.GL), gu: clone(s.GU),
		x0: clone(s.X0), pv: clone(s.PV),
		xStage: s.XStage, gStage: s.GStage,
		fg:  make([]float64, 1+m),
		jac: make([]float64, d.JacPattern.NNZ()),
		lam: make([]float64, 1+m),
	}
	rows, cols := d.JacPattern.Coords()
	for k := range rows {
		if rows[k] == 0 {
			q.gradAt = append(q.gradAt, k)
			q.gradCo = append(q.gradCo, cols[k])
		} else {
			q.jrows = append(q.jrows, rows[k]-1)
			q.jcols = append(q.jcols, cols[k])
			q.jsrc = append(q.jsrc, k)
		}
	}
	q.hrows, q.hcols = d.HessPattern.Coords()
	q.in = [][]float64{nil, q.pv}
	q.inH = [][]float64{nil, q.pv, q.lam}
	return q, nil
}

func clone(v []float64) []float64 { return append([]float64(nil), v...) }

func (q *exprProblem) Dims() (int, int) { return q.n, q.m }

func (q *exprProblem) Bounds(xL, xU, gL, gU []float64) {
	copy(xL, q.xl)
	copy(xU, q.xu)
	copy(gL, q.gl)
	copy(gU, q.gu)
}

func (q *exprProblem) Start(x0 []float64) { copy(x0, q.x0) }

func (q *exprProblem) eval(x []float64) error {
	q.in[0] = x
	return q.d.F.Eval(q.ws, q.in, [][]float64{q.fg[:1], q.fg[1:]})
}

func (q *exprProblem) Objective(x []float64) (float64, error) {
	if err := q.eval(x); err != nil {
		return 0, err
	}
	return q.fg[0], nil
}

func (q *exprProblem) Constraints(x, g []float64) error {
	if err := q.eval(x); err != nil {
		return err
	}
	copy(g, q.fg[1:])
	return nil
}

func (q *exprProblem) evalJac(x []float64) error {
	q.in[0] = x
	return q.d.Jac.Eval(q.wsJ, q.in, [][]float64{q.jac})
}

func (q *exprProblem) Gradient(x, grad []float64) error {
	if err := q.evalJac(x); err != nil {
		return err
	}
	clear(grad)
	for k, p := range q.gradAt {
		grad[q.gradCo[k]] = q.jac[p]
	}
	return nil
}

func (q *exprProblem) JacobianStructure() ([]int, []int) {
	return clone2(q.jrows), clone2(q.jcols)
}

func clone2(v []int) []int { return append([]int(nil), v...) }

func (q *exprProblem) JacobianValues(x, vals []float64) error {
	if err := q.evalJac(x); err != nil {
		return err
	}
	for k, p := range q.jsrc {
		vals[k] = q.jac[p]
	}
	return nil
}

func (q *exprProblem) HessianStructure() ([]int, []int) {
	return clone2(q.hrows), clone2(q.hcols)
}

func (q *exprProblem) HessianValues(x []float64, sigma float64, lambda, vals []float64) error {
	q.lam[0] = sigma
	copy(q.lam[1:], lambda)
	q.inH[0] = x
	return q.d.Hess.Eval(q.wsH, q.inH, [][]float64{vals})
}

func (q *exprProblem) Stages(xStage, gStage []int) {
	copy(xStage, q.xStage)
	copy(gStage, q.gStage)
}

func (q *exprProblem) SetStart(x0 []float64) error {
	if len(x0) != q.n {
		return fmt.Errorf("fesd: start of length %d, want %d", len(x0), q.n)
	}
	copy(q.x0, x0)
	return nil
}

func (q *exprProblem) SetParams(pv []float64) error {
	if len(pv) != len(q.pv) {
		return fmt.Errorf("fesd: %d parameter values, want %d", len(pv), len(q.pv))
	}
	copy(q.pv, pv)
	return nil
}

func (q *exprProblem) SetVarBounds(xl, xu []float64) error {
	if len(xl) != q.n || len(xu) != q.n {
		return fmt.Errorf("fesd: variable bounds of length %d, %d, want %d", len(xl), len(xu), q.n)
	}
	copy(q.xl, xl)
	copy(q.xu, xu)
	return nil
}

// evalAt evaluates f and g at x (for tests and diagnostics).
func (q *exprProblem) evalAt(x []float64) (float64, []float64, error) {
	if err := q.eval(x); err != nil {
		return 0, nil, err
	}
	return q.fg[0], clone(q.fg[1:]), nil
}

// newParamNLP compiles the transcription's NLP with nlp/adnlp. The
// in-package exprProblem (the stand-in used before adnlp existed) is kept
// as an independent implementation for the cross-check test.
func newParamNLP(s exprSpec) (paramNLP, error) {
	return adnlp.New(adnlp.Spec{
		X: s.X, XL: s.XL, XU: s.XU, X0: s.X0,
		F: s.F, G: s.G, GL: s.GL, GU: s.GU,
		P: s.P, PV: s.PV,
		VarStage: s.XStage, ConStage: s.GStage,
		JacobianMode: ad.Reverse,
	})
}
