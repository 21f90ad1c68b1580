package hs

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/fesd-go/fesd/ad"
)

// ErrUnknown is returned by ByName for a name that is not in the collection.
var ErrUnknown = errors.New("hs: unknown problem")

// Problem is one Hock–Schittkowski test problem. It implements the
// nlp.Problem interface of package github.com/fesd-go/fesd/nlp.
//
// The derivative methods write into internal scratch buffers, so a Problem
// must not be used by several goroutines at once; All and ByName return fresh
// instances.
type Problem struct {
	// Name is the conventional short name, e.g. "hs071".
	Name string
	// N is the number of variables and M the number of constraints.
	N, M int
	// FStar is the published optimal objective value.
	FStar float64
	// XStar is an optimal point (nil when none is recorded). See the
	// package documentation for how it relates to the published point.
	XStar []float64
	// Source is the literature reference for the formulation and optimum.
	Source string

	x0, xL, xU, gL, gU []float64

	f  func(x []float64) float64
	df func(x, g []float64)
	c  func(x, c []float64)
	dc func(x []float64, j jac)
	d2 func(x []float64, sigma float64, lambda []float64, h hess)

	jRows, jCols []int
	hRows, hCols []int
	jDense       []float64 // m×n row-major scratch for dc
	hDense       []float64 // n×n row-major scratch (lower triangle) for d2
}

// jac is a dense m×n row-major Jacobian being written by a problem.
type jac struct {
	v []float64
	n int
}

// set stores ∂gᵢ/∂xₖ (0-based i and k).
func (j jac) set(i, k int, v float64) { j.v[i*j.n+k] = v }

// hess is a dense n×n Hessian accumulator of which only the lower triangle
// is used.
type hess struct {
	v []float64
	n int
}

// add adds v to the entry (i, k) of the symmetric Hessian (0-based); the
// pair is mapped to the lower triangle, so each off-diagonal pair is added
// once.
func (h hess) add(i, k int, v float64) {
	if k > i {
		i, k = k, i
	}
	h.v[i*h.n+k] += v
}

// Dims returns the number of variables and constraints.
func (p *Problem) Dims() (n, m int) { return p.N, p.M }

// Bounds writes the variable and constraint bounds.
func (p *Problem) Bounds(xL, xU, gL, gU []float64) {
	copy(xL, p.xL)
	copy(xU, p.xU)
	copy(gL, p.gL)
	copy(gU, p.gU)
}

// Start writes the standard Hock–Schittkowski starting point (which may be
// infeasible).
func (p *Problem) Start(x0 []float64) { copy(x0, p.x0) }

// Objective returns f(x).
func (p *Problem) Objective(x []float64) (float64, error) { return p.f(x), nil }

// Gradient writes ∇f(x).
func (p *Problem) Gradient(x, grad []float64) error {
	clear(grad[:p.N])
	p.df(x, grad)
	return nil
}

// Constraints writes g(x).
func (p *Problem) Constraints(x, g []float64) error {
	if p.M > 0 {
		p.c(x, g)
	}
	return nil
}

// JacobianStructure returns the sparsity pattern of ∂g/∂x (a fresh copy).
func (p *Problem) JacobianStructure() (rows, cols []int) {
	return append([]int(nil), p.jRows...), append([]int(nil), p.jCols...)
}

// JacobianValues writes the Jacobian entries in the order of
// JacobianStructure.
func (p *Problem) JacobianValues(x, vals []float64) error {
	if p.M == 0 {
		return nil
	}
	clear(p.jDense)
	p.dc(x, jac{p.jDense, p.N})
	for k, i := range p.jRows {
		vals[k] = p.jDense[i*p.N+p.jCols[k]]
	}
	return nil
}

// HessianStructure returns the sparsity pattern of the lower triangle of the
// Hessian of the Lagrangian (a fresh copy).
func (p *Problem) HessianStructure() (rows, cols []int) {
	return append([]int(nil), p.hRows...), append([]int(nil), p.hCols...)
}

// HessianValues writes the lower-triangle entries of σ∇²f(x) + Σᵢ λᵢ∇²gᵢ(x)
// in the order of HessianStructure.
func (p *Problem) HessianValues(x []float64, sigma float64, lambda, vals []float64) error {
	clear(p.hDense)
	p.d2(x, sigma, lambda, hess{p.hDense, p.N})
	for k, i := range p.hRows {
		vals[k] = p.hDense[i*p.N+p.hCols[k]]
	}
	return nil
}

// spec is the static description of a problem from which build makes a
// Problem.
type spec struct {
	name   string
	num    int // problem number in Hock & Schittkowski (1981), or in Schittkowski (1987) above 119
	note   string
	n      int
	kinds  string // one byte per constraint: 'i' for g(x) ≥ 0, 'e' for g(x) = 0
	gl, gu []float64
	x0     []float64
	xl, xu []float64 // nil means unbounded
	fstar  float64
	xstar  []float64

	f  func(x []float64) float64
	df func(x, g []float64)
	c  func(x, c []float64)
	dc func(x []float64, j jac)
	d2 func(x []float64, sigma float64, lambda []float64, h hess)

	// model, when set, writes the problem with a book (see book.go) and
	// replaces f, df, c, dc and d2: the derivatives and sparsity patterns
	// then come from the expressions.
	model func(b *book) (f ad.Expr, g ad.Vec)
}

// hsSource is the reference string for problem number num.
func hsSource(num int, note string) string {
	s := "Hock & Schittkowski (1981), Test Examples for Nonlinear Programming Codes, " +
		"Lecture Notes in Economics and Mathematical Systems 187, Springer, problem " + strconv.Itoa(num)
	if num > 119 {
		s = "Schittkowski (1987), More Test Examples for Nonlinear Programming Codes, " +
			"Lecture Notes in Economics and Mathematical Systems 282, Springer, problem " + strconv.Itoa(num)
	}
	if note != "" {
		s += "; " + note
	}
	return s
}

// vec returns a slice of length n filled with v.
func vec(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// build turns a spec into a Problem: it fills default bounds, checks the
// lengths of the static data (a mismatch is a bug in this package and
// panics), and derives the sparsity patterns.
func build(s spec) *Problem {
	n := s.n
	m := len(s.kinds)
	if s.gl != nil {
		m = len(s.gl)
	}
	var t *tapes
	if s.model != nil {
		b := newBook(n)
		f, g := s.model(b)
		t = b.compile(s.name, f, g)
		s.f, s.df = t.objective, t.gradient
		switch {
		case len(g) == 0 && m > 0:
			// Objective from the book, constraints written out (with
			// functions the book cannot express): the patterns are
			// sampled as for the other problems.
			d2, obj := s.d2, t
			s.d2 = func(x []float64, sigma float64, lambda []float64, h hess) {
				obj.hessian(x, sigma, nil, h)
				d2(x, sigma, lambda, h)
			}
			t = nil
		default:
			if len(g) != m {
				panic(fmt.Sprintf("hs: %s: %d constraint formulas for %d constraints", s.name, len(g), m))
			}
			s.d2 = t.hessian
			if m > 0 {
				s.c, s.dc = t.constraints, t.jacobian
			}
		}
	}
	p := &Problem{
		Name:   s.name,
		N:      n,
		M:      m,
		FStar:  s.fstar,
		XStar:  s.xstar,
		Source: hsSource(s.num, s.note),
		x0:     s.x0,
		xL:     s.xl,
		xU:     s.xu,
		gL:     s.gl,
		gU:     s.gu,
		f:      s.f,
		df:     s.df,
		c:      s.c,
		dc:     s.dc,
		d2:     s.d2,
		jDense: make([]float64, m*n),
		hDense: make([]float64, n*n),
	}
	if p.xL == nil {
		p.xL = vec(n, math.Inf(-1))
	}
	if p.xU == nil {
		p.xU = vec(n, math.Inf(1))
	}
	if s.gl == nil {
		p.gL = make([]float64, m)
		p.gU = make([]float64, m)
		for i := 0; i < m; i++ {
			switch s.kinds[i] {
			case 'i':
				p.gU[i] = math.Inf(1)
			case 'e':
			default:
				panic("hs: " + s.name + ": bad constraint kind")
			}
		}
	}
	if len(p.x0) != n || len(p.xL) != n || len(p.xU) != n ||
		len(p.gL) != m || len(p.gU) != m || (p.XStar != nil && len(p.XStar) != n) ||
		(m > 0 && (p.c == nil || p.dc == nil)) {
		panic(fmt.Sprintf("hs: %s: inconsistent dimensions", s.name))
	}
	if t != nil {
		p.jRows, p.jCols, p.hRows, p.hCols = t.jRows, t.jCols, t.hRows, t.hCols
		return p
	}
	p.sparsity()
	return p
}

// sparsity derives the Jacobian and Hessian patterns as the union of the
// entries that are nonzero (or not a number) at the start point, at XStar
// and at a few fixed pseudo-random points near the start point. The
// objective and each constraint are sampled separately so that terms cannot
// cancel. The tests check by finite differences that no entry is missed.
func (p *Problem) sparsity() {
	n, m := p.N, p.M
	rng := rand.New(rand.NewPCG(1981, uint64(n*1000+m)))
	pts := [][]float64{p.x0}
	if p.XStar != nil {
		pts = append(pts, p.XStar)
	}
	for k := 0; k < 4; k++ {
		x := make([]float64, n)
		for i := range x {
			x[i] = p.x0[i] + 0.3*(1+math.Abs(p.x0[i]))*(2*rng.Float64()-1)
			x[i] = math.Min(math.Max(x[i], p.xL[i]), p.xU[i])
		}
		pts = append(pts, x)
	}
	jmask := make([]bool, m*n)
	hmask := make([]bool, n*n)
	lambda := make([]float64, m)
	for _, x := range pts {
		if m > 0 {
			clear(p.jDense)
			p.dc(x, jac{p.jDense, n})
			for k, v := range p.jDense {
				if v != 0 {
					jmask[k] = true
				}
			}
		}
		for i := -1; i < m; i++ {
			sigma := 0.0
			clear(lambda)
			if i < 0 {
				sigma = 1
			} else {
				lambda[i] = 1
			}
			clear(p.hDense)
			p.d2(x, sigma, lambda, hess{p.hDense, n})
			for k, v := range p.hDense {
				if v != 0 {
					hmask[k] = true
				}
			}
		}
	}
	p.jRows, p.jCols = nil, nil
	for i := 0; i < m; i++ {
		for k := 0; k < n; k++ {
			if jmask[i*n+k] {
				p.jRows = append(p.jRows, i)
				p.jCols = append(p.jCols, k)
			}
		}
	}
	p.hRows, p.hCols = nil, nil
	for i := 0; i < n; i++ {
		for k := 0; k <= i; k++ {
			if hmask[i*n+k] {
				p.hRows = append(p.hRows, i)
				p.hCols = append(p.hCols, k)
			}
		}
	}
}

// polished is the Source note of a problem whose XStar is the printed
// optimal point polished by Newton's method on the first-order optimality
// conditions (see the package documentation).
const polished = "XStar: the printed optimal point polished by Newton's method on the first-order conditions"
