package nlp

import "math"

// quadProb is a small generic test problem built from closures.
type quadProb struct {
	n, m       int
	xL, xU     []float64
	gL, gU     []float64
	x0         []float64
	f          func(x []float64) float64
	df         func(x, g []float64)
	c          func(x, c []float64)
	jr, jc     []int
	jv         func(x, v []float64)
	hr, hc     []int
	hv         func(x []float64, s float64, l, v []float64)
	evalCounts int
}

func (p *quadProb) Dims() (int, int) { return p.n, p.m }
func (p *quadProb) Bounds(xL, xU, gL, gU []float64) {
	copy(xL, p.xL)
	copy(xU, p.xU)
	copy(gL, p.gL)
	copy(gU, p.gU)
}
func (p *quadProb) Start(x []float64)                      { copy(x, p.x0) }
func (p *quadProb) Objective(x []float64) (float64, error) { return p.f(x), nil }
func (p *quadProb) Gradient(x, g []float64) error          { p.df(x, g); return nil }
func (p *quadProb) Constraints(x, c []float64) error       { p.c(x, c); return nil }
func (p *quadProb) JacobianStructure() ([]int, []int)      { return p.jr, p.jc }
func (p *quadProb) JacobianValues(x, v []float64) error    { p.jv(x, v); return nil }
func (p *quadProb) HessianStructure() ([]int, []int)       { return p.hr, p.hc }
func (p *quadProb) HessianValues(x []float64, s float64, l, v []float64) error {
	p.hv(x, s, l, v)
	return nil
}

var inf = math.Inf(1)

// infeasibleProb: min x1 + x2 s.t. x1² + x2² ≤ 1, x1 + x2 ≥ 3 (the disc
// and the half-plane are disjoint: distance (3 − √2)/√2 > 0).
func infeasibleProb() *quadProb {
	return &quadProb{
		n: 2, m: 2,
		xL: []float64{-inf, -inf}, xU: []float64{inf, inf},
		gL: []float64{-inf, 3}, gU: []float64{1, inf},
		x0: []float64{0.5, 0.5},
		f:  func(x []float64) float64 { return x[0] + x[1] },
		df: func(x, g []float64) { g[0], g[1] = 1, 1 },
		c: func(x, c []float64) {
			c[0] = x[0]*x[0] + x[1]*x[1]
			c[1] = x[0] + x[1]
		},
		jr: []int{0, 0, 1, 1}, jc: []int{0, 1, 0, 1},
		jv: func(x, v []float64) { v[0], v[1], v[2], v[3] = 2*x[0], 2*x[1], 1, 1 },
		hr: []int{0, 1}, hc: []int{0, 1},
		hv: func(x []float64, s float64, l, v []float64) { v[0], v[1] = 2*l[0], 2*l[0] },
	}
}

// unboundedProb: min −x1² − x2 s.t. x1 − x2 = 0, x1 ≥ 0 (f → −∞ along
// x1 = x2 → ∞).
func unboundedProb() *quadProb {
	return &quadProb{
		n: 2, m: 1,
		xL: []float64{0, -inf}, xU: []float64{inf, inf},
		gL: []float64{0}, gU: []float64{0},
		x0: []float64{1, 1},
		f:  func(x []float64) float64 { return -x[0]*x[0] - x[1] },
		df: func(x, g []float64) { g[0], g[1] = -2*x[0], -1 },
		c:  func(x, c []float64) { c[0] = x[0] - x[1] },
		jr: []int{0, 0}, jc: []int{0, 1},
		jv: func(x, v []float64) { v[0], v[1] = 1, -1 },
		hr: []int{0}, hc: []int{0},
		hv: func(x []float64, s float64, l, v []float64) { v[0] = -2 * s },
	}
}

// linearUnboundedProb: min −x1 − x2 s.t. x1 − x2 = 0, x1 ≥ 0: unbounded
// along a direction of zero curvature.
func linearUnboundedProb() *quadProb {
	return &quadProb{
		n: 2, m: 1,
		xL: []float64{0, -inf}, xU: []float64{inf, inf},
		gL: []float64{0}, gU: []float64{0},
		x0: []float64{1, 1},
		f:  func(x []float64) float64 { return -x[0] - x[1] },
		df: func(x, g []float64) { g[0], g[1] = -1, -1 },
		c:  func(x, c []float64) { c[0] = x[0] - x[1] },
		jr: []int{0, 0}, jc: []int{0, 1},
		jv: func(x, v []float64) { v[0], v[1] = 1, -1 },
		hr: nil, hc: nil,
		hv: func(x []float64, s float64, l, v []float64) {},
	}
}

// degenerateProb: min (x1−1)² + (x2−1)² s.t. x1·x2 = 0, x ≥ 0. LICQ fails
// at the solutions (1, 0) and (0, 1) (f* = 1) and at the origin (a
// stationary point with f = 2).
func degenerateProb() *quadProb {
	return &quadProb{
		n: 2, m: 1,
		xL: []float64{0, 0}, xU: []float64{inf, inf},
		gL: []float64{0}, gU: []float64{0},
		x0: []float64{0.9, 0.2},
		f: func(x []float64) float64 {
			return (x[0]-1)*(x[0]-1) + (x[1]-1)*(x[1]-1)
		},
		df: func(x, g []float64) { g[0], g[1] = 2*(x[0]-1), 2*(x[1]-1) },
		c:  func(x, c []float64) { c[0] = x[0] * x[1] },
		jr: []int{0, 0}, jc: []int{0, 1},
		jv: func(x, v []float64) { v[0], v[1] = x[1], x[0] },
		hr: []int{0, 1, 1}, hc: []int{0, 0, 1},
		hv: func(x []float64, s float64, l, v []float64) { v[0], v[1], v[2] = 2*s, l[0], 2*s },
	}
}

// rosenbrockChain is the chained Rosenbrock function in n variables with
// the equality constraints x_{i}² − x_{i+1}... no: it is unconstrained with
// bounds x ≥ −5 to exercise many iterations (f* = 0 at x = 1).
func rosenbrockChain(n int) *quadProb {
	xL := make([]float64, n)
	xU := make([]float64, n)
	x0 := make([]float64, n)
	for i := range n {
		xL[i], xU[i] = -5, inf
		x0[i] = -1.2
		if i%2 == 1 {
			x0[i] = 1
		}
	}
	var hr, hc []int
	for i := range n {
		hr, hc = append(hr, i), append(hc, i)
		if i+1 < n {
			hr, hc = append(hr, i+1), append(hc, i)
		}
	}
	return &quadProb{
		n: n, m: 0, xL: xL, xU: xU, x0: x0,
		f: func(x []float64) float64 {
			s := 0.0
			for i := 0; i+1 < n; i++ {
				a := x[i+1] - x[i]*x[i]
				b := 1 - x[i]
				s += 100*a*a + b*b
			}
			return s
		},
		df: func(x, g []float64) {
			clear(g)
			for i := 0; i+1 < n; i++ {
				a := x[i+1] - x[i]*x[i]
				g[i] += -400*a*x[i] - 2*(1-x[i])
				g[i+1] += 200 * a
			}
		},
		c:  func(x, c []float64) {},
		jv: func(x, v []float64) {},
		hr: hr, hc: hc,
		hv: func(x []float64, s float64, l, v []float64) {
			clear(v)
			k := 0
			for i := range n {
				d := 0.0
				if i+1 < n {
					d += -400*(x[i+1]-3*x[i]*x[i]) + 2
				}
				if i > 0 {
					d += 200
				}
				v[k] = s * d
				k++
				if i+1 < n {
					v[k] = s * (-400 * x[i])
					k++
				}
			}
		},
	}
}

// infeasibleEqProb: x1² + 1 = 0 has no solution; min |x1² + 1| is at x1 = 0
// (θ = 1). Second constraint x1 + x2 = 1 is feasible.
func infeasibleEqProb() *quadProb {
	return &quadProb{
		n: 2, m: 2,
		xL: []float64{-inf, -inf}, xU: []float64{inf, inf},
		gL: []float64{-1, 1}, gU: []float64{-1, 1},
		x0: []float64{3, 1},
		f:  func(x []float64) float64 { return x[0]*x[0] + x[1]*x[1] },
		df: func(x, g []float64) { g[0], g[1] = 2*x[0], 2*x[1] },
		c: func(x, c []float64) {
			c[0] = x[0] * x[0]
			c[1] = x[0] + x[1]
		},
		jr: []int{0, 1, 1}, jc: []int{0, 0, 1},
		jv: func(x, v []float64) { v[0], v[1], v[2] = 2*x[0], 1, 1 },
		hr: []int{0, 1}, hc: []int{0, 1},
		hv: func(x []float64, s float64, l, v []float64) { v[0], v[1] = 2*s+2*l[0], 2*s },
	}
}

// infeasibleBoxProb: 0 ≤ x ≤ 1 and g(x) = x1 + x2 ≥ 3.
func infeasibleBoxProb() *quadProb {
	return &quadProb{
		n: 2, m: 1,
		xL: []float64{0, 0}, xU: []float64{1, 1},
		gL: []float64{3}, gU: []float64{inf},
		x0: []float64{0.5, 0.5},
		f:  func(x []float64) float64 { return x[0] - x[1] },
		df: func(x, g []float64) { g[0], g[1] = 1, -1 },
		c:  func(x, c []float64) { c[0] = x[0] + x[1] },
		jr: []int{0, 0}, jc: []int{0, 1},
		jv: func(x, v []float64) { v[0], v[1] = 1, 1 },
		hv: func(x []float64, s float64, l, v []float64) {},
	}
}
