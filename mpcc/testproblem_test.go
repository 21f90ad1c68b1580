package mpcc

import (
	"math"

	"github.com/fesd-go/fesd/nlp"
)

// denseNLP is a small NLP for tests, given by closures with dense
// derivatives. The Hessian structure is the full lower triangle.
type denseNLP struct {
	n, m   int
	xL, xU []float64
	gL, gU []float64
	x0     []float64
	f      func(x []float64) float64
	grad   func(x, g []float64)
	cons   func(x, g []float64)
	jac    func(x []float64, j [][]float64) // m×n
	// hess writes σ∇²f + Σλ∇²g as a dense n×n matrix.
	hess func(x []float64, sigma float64, lambda []float64, h [][]float64)

	jm, hm [][]float64 // reused dense buffers (evaluations do not allocate)
}

// zeroed returns *m as a zeroed r×c matrix, allocating it on first use.
func zeroed(m *[][]float64, r, c int) [][]float64 {
	if *m == nil {
		*m = newMat(r, c)
	}
	for _, row := range *m {
		clear(row)
	}
	return *m
}

var _ nlp.Problem = (*denseNLP)(nil)

func (p *denseNLP) Dims() (int, int) { return p.n, p.m }
func (p *denseNLP) Bounds(xL, xU, gL, gU []float64) {
	copy(xL, p.xL)
	copy(xU, p.xU)
	copy(gL, p.gL)
	copy(gU, p.gU)
}
func (p *denseNLP) Start(x0 []float64)                     { copy(x0, p.x0) }
func (p *denseNLP) Objective(x []float64) (float64, error) { return p.f(x), nil }
func (p *denseNLP) Gradient(x, g []float64) error          { p.grad(x, g); return nil }
func (p *denseNLP) Constraints(x, g []float64) error       { p.cons(x, g); return nil }
func (p *denseNLP) JacobianStructure() (rows, cols []int) {
	for i := 0; i < p.m; i++ {
		for j := 0; j < p.n; j++ {
			rows, cols = append(rows, i), append(cols, j)
		}
	}
	return rows, cols
}
func (p *denseNLP) JacobianValues(x, vals []float64) error {
	j := zeroed(&p.jm, p.m, p.n)
	p.jac(x, j)
	k := 0
	for i := 0; i < p.m; i++ {
		for c := 0; c < p.n; c++ {
			vals[k] = j[i][c]
			k++
		}
	}
	return nil
}
func (p *denseNLP) HessianStructure() (rows, cols []int) {
	for i := 0; i < p.n; i++ {
		for j := 0; j <= i; j++ {
			rows, cols = append(rows, i), append(cols, j)
		}
	}
	return rows, cols
}
func (p *denseNLP) HessianValues(x []float64, sigma float64, lambda, vals []float64) error {
	h := zeroed(&p.hm, p.n, p.n)
	p.hess(x, sigma, lambda, h)
	k := 0
	for i := 0; i < p.n; i++ {
		for j := 0; j <= i; j++ {
			vals[k] = h[i][j]
			k++
		}
	}
	return nil
}

func newMat(r, c int) [][]float64 {
	m := make([][]float64, r)
	for i := range m {
		m[i] = make([]float64, c)
	}
	return m
}

func fill(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// nonlinearNLP has n = 5, m = 2, all x ≥ 0, and nonzero second derivatives
// everywhere, for the derivative checks:
//
//	f  = Σ (x_i − i/2)² + x₀x₁x₂ + sin(x₃)·x₄
//	g₀ = x₀² + x₁x₃ − x₄          ∈ [−1, 1]
//	g₁ = exp(0.1 x₂) + x₀x₄       ∈ [1, 1]
func nonlinearNLP() *denseNLP {
	inf := math.Inf(1)
	return &denseNLP{
		n: 5, m: 2,
		xL: fill(5, 0), xU: fill(5, inf),
		gL: []float64{-1, 1}, gU: []float64{1, 1},
		x0: []float64{1, 1, 1, 1, 1},
		f: func(x []float64) float64 {
			var s float64
			for i, v := range x {
				d := v - float64(i)/2
				s += d * d
			}
			return s + x[0]*x[1]*x[2] + math.Sin(x[3])*x[4]
		},
		grad: func(x, g []float64) {
			for i, v := range x {
				g[i] = 2 * (v - float64(i)/2)
			}
			g[0] += x[1] * x[2]
			g[1] += x[0] * x[2]
			g[2] += x[0] * x[1]
			g[3] += math.Cos(x[3]) * x[4]
			g[4] += math.Sin(x[3])
		},
		cons: func(x, g []float64) {
			g[0] = x[0]*x[0] + x[1]*x[3] - x[4]
			g[1] = math.Exp(0.1*x[2]) + x[0]*x[4]
		},
		jac: func(x []float64, j [][]float64) {
			j[0][0], j[0][1], j[0][3], j[0][4] = 2*x[0], x[3], x[1], -1
			j[1][2], j[1][0], j[1][4] = 0.1*math.Exp(0.1*x[2]), x[4], x[0]
		},
		hess: func(x []float64, s float64, l []float64, h [][]float64) {
			set := func(i, j int, v float64) {
				h[i][j] += v
				if i != j {
					h[j][i] += v
				}
			}
			for i := 0; i < 5; i++ {
				set(i, i, 2*s)
			}
			set(0, 1, s*x[2])
			set(0, 2, s*x[1])
			set(1, 2, s*x[0])
			set(3, 3, -s*math.Sin(x[3])*x[4])
			set(3, 4, s*math.Cos(x[3]))
			set(0, 0, 2*l[0])
			set(1, 3, l[0])
			set(2, 2, l[1]*0.01*math.Exp(0.1*x[2]))
			set(0, 4, l[1])
		},
	}
}
