package hs

import "math"

func hs026() *Problem {
	return build(spec{
		name: "hs026", num: 26, n: 3, kinds: "e",
		x0:    []float64{-2.6, 2, 2},
		fstar: 0, xstar: []float64{1, 1, 1},
		f: func(x []float64) float64 {
			a, b := x[0]-x[1], x[1]-x[2]
			return a*a + b*b*b*b
		},
		df: func(x, g []float64) {
			a, b := x[0]-x[1], x[1]-x[2]
			g[0] = 2 * a
			g[1] = -2*a + 4*b*b*b
			g[2] = -4 * b * b * b
		},
		c: func(x, c []float64) {
			c[0] = (1+x[1]*x[1])*x[0] + x[2]*x[2]*x[2]*x[2] - 3
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, 1+x[1]*x[1])
			j.set(0, 1, 2*x[0]*x[1])
			j.set(0, 2, 4*x[2]*x[2]*x[2])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			b := x[1] - x[2]
			h.add(0, 0, 2*s)
			h.add(1, 0, -2*s+2*x[1]*l[0])
			h.add(1, 1, s*(2+12*b*b)+2*x[0]*l[0])
			h.add(2, 1, -12*s*b*b)
			h.add(2, 2, 12*s*b*b+12*x[2]*x[2]*l[0])
		},
	})
}

func hs027() *Problem {
	return build(spec{
		name: "hs027", num: 27, n: 3, kinds: "e",
		x0:    []float64{2, 2, 2},
		fstar: 0.04, xstar: []float64{-1, 1, 0},
		f: func(x []float64) float64 {
			a, b := x[0]-1, x[1]-x[0]*x[0]
			return 0.01*a*a + b*b
		},
		df: func(x, g []float64) {
			b := x[1] - x[0]*x[0]
			g[0] = 0.02*(x[0]-1) - 4*x[0]*b
			g[1] = 2 * b
		},
		c:  func(x, c []float64) { c[0] = x[0] + x[2]*x[2] + 1 },
		dc: func(x []float64, j jac) { j.set(0, 0, 1); j.set(0, 2, 2*x[2]) },
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, s*(0.02-4*x[1]+12*x[0]*x[0]))
			h.add(1, 0, -4*s*x[0])
			h.add(1, 1, 2*s)
			h.add(2, 2, 2*l[0])
		},
	})
}

func hs028() *Problem {
	return build(spec{
		name: "hs028", num: 28, n: 3, kinds: "e",
		x0:    []float64{-4, 1, 1},
		fstar: 0, xstar: []float64{0.5, -0.5, 0.5},
		f: func(x []float64) float64 {
			a, b := x[0]+x[1], x[1]+x[2]
			return a*a + b*b
		},
		df: func(x, g []float64) {
			a, b := x[0]+x[1], x[1]+x[2]
			g[0], g[1], g[2] = 2*a, 2*a+2*b, 2*b
		},
		c: func(x, c []float64) { c[0] = x[0] + 2*x[1] + 3*x[2] - 1 },
		dc: func(x []float64, j jac) {
			j.set(0, 0, 1)
			j.set(0, 1, 2)
			j.set(0, 2, 3)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 2*s)
			h.add(1, 0, 2*s)
			h.add(1, 1, 4*s)
			h.add(2, 1, 2*s)
			h.add(2, 2, 2*s)
		},
	})
}

// product3 adds σ times the Hessian of −x₁x₂x₃ (0-based x[0..2]).
func negProduct3Hess(x []float64, s float64, h hess) {
	h.add(1, 0, -s*x[2])
	h.add(2, 0, -s*x[1])
	h.add(2, 1, -s*x[0])
}

func negProduct3(x []float64) float64 { return -x[0] * x[1] * x[2] }

func negProduct3Grad(x, g []float64) {
	g[0], g[1], g[2] = -x[1]*x[2], -x[0]*x[2], -x[0]*x[1]
}

func hs029() *Problem {
	return build(spec{
		name: "hs029", num: 29, n: 3, kinds: "i",
		x0:    []float64{1, 1, 1},
		fstar: -16 * math.Sqrt2, xstar: []float64{4, 2 * math.Sqrt2, 2},
		f: negProduct3, df: negProduct3Grad,
		c: func(x, c []float64) {
			c[0] = -x[0]*x[0] - 2*x[1]*x[1] - 4*x[2]*x[2] + 48
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, -2*x[0])
			j.set(0, 1, -4*x[1])
			j.set(0, 2, -8*x[2])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			negProduct3Hess(x, s, h)
			h.add(0, 0, -2*l[0])
			h.add(1, 1, -4*l[0])
			h.add(2, 2, -8*l[0])
		},
	})
}

func hs030() *Problem {
	return build(spec{
		name: "hs030", num: 30, n: 3, kinds: "i",
		x0:    []float64{1, 1, 1},
		xl:    []float64{1, -10, -10},
		xu:    []float64{10, 10, 10},
		fstar: 1, xstar: []float64{1, 0, 0},
		f:  func(x []float64) float64 { return x[0]*x[0] + x[1]*x[1] + x[2]*x[2] },
		df: func(x, g []float64) { g[0], g[1], g[2] = 2*x[0], 2*x[1], 2*x[2] },
		c:  func(x, c []float64) { c[0] = x[0]*x[0] + x[1]*x[1] - 1 },
		dc: func(x []float64, j jac) { j.set(0, 0, 2*x[0]); j.set(0, 1, 2*x[1]) },
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 2*s+2*l[0])
			h.add(1, 1, 2*s+2*l[0])
			h.add(2, 2, 2*s)
		},
	})
}

func hs031() *Problem {
	return build(spec{
		name: "hs031", num: 31, n: 3, kinds: "i",
		x0:    []float64{1, 1, 1},
		xl:    []float64{-10, 1, -10},
		xu:    []float64{10, 10, 1},
		fstar: 6, xstar: []float64{1 / math.Sqrt(3), math.Sqrt(3), 0},
		f:  func(x []float64) float64 { return 9*x[0]*x[0] + x[1]*x[1] + 9*x[2]*x[2] },
		df: func(x, g []float64) { g[0], g[1], g[2] = 18*x[0], 2*x[1], 18*x[2] },
		c:  func(x, c []float64) { c[0] = x[0]*x[1] - 1 },
		dc: func(x []float64, j jac) { j.set(0, 0, x[1]); j.set(0, 1, x[0]) },
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 18*s)
			h.add(1, 0, l[0])
			h.add(1, 1, 2*s)
			h.add(2, 2, 18*s)
		},
	})
}

func hs032() *Problem {
	return build(spec{
		name: "hs032", num: 32, n: 3, kinds: "ie",
		x0:    []float64{0.1, 0.7, 0.2},
		xl:    []float64{0, 0, 0},
		fstar: 1, xstar: []float64{0, 0, 1},
		f: func(x []float64) float64 {
			a, b := x[0]+3*x[1]+x[2], x[0]-x[1]
			return a*a + 4*b*b
		},
		df: func(x, g []float64) {
			a, b := x[0]+3*x[1]+x[2], x[0]-x[1]
			g[0], g[1], g[2] = 2*a+8*b, 6*a-8*b, 2*a
		},
		c: func(x, c []float64) {
			c[0] = 6*x[1] + 4*x[2] - x[0]*x[0]*x[0] - 3
			c[1] = 1 - x[0] - x[1] - x[2]
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, -3*x[0]*x[0])
			j.set(0, 1, 6)
			j.set(0, 2, 4)
			j.set(1, 0, -1)
			j.set(1, 1, -1)
			j.set(1, 2, -1)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 10*s-6*x[0]*l[0])
			h.add(1, 0, -2*s)
			h.add(1, 1, 26*s)
			h.add(2, 0, 2*s)
			h.add(2, 1, 6*s)
			h.add(2, 2, 2*s)
		},
	})
}

func hs033() *Problem {
	return build(spec{
		name: "hs033", num: 33, n: 3, kinds: "ii",
		x0:    []float64{0, 0, 3},
		xl:    []float64{0, 0, 0},
		xu:    []float64{inf, inf, 5},
		fstar: math.Sqrt2 - 6, xstar: []float64{0, math.Sqrt2, math.Sqrt2},
		f: func(x []float64) float64 {
			return (x[0]-1)*(x[0]-2)*(x[0]-3) + x[2]
		},
		df: func(x, g []float64) {
			g[0] = 3*x[0]*x[0] - 12*x[0] + 11
			g[2] = 1
		},
		c: func(x, c []float64) {
			c[0] = x[2]*x[2] - x[0]*x[0] - x[1]*x[1]
			c[1] = x[0]*x[0] + x[1]*x[1] + x[2]*x[2] - 4
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, -2*x[0])
			j.set(0, 1, -2*x[1])
			j.set(0, 2, 2*x[2])
			j.set(1, 0, 2*x[0])
			j.set(1, 1, 2*x[1])
			j.set(1, 2, 2*x[2])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, s*(6*x[0]-12)-2*l[0]+2*l[1])
			h.add(1, 1, -2*l[0]+2*l[1])
			h.add(2, 2, 2*l[0]+2*l[1])
		},
	})
}

// expChain is the constraint pair x₂ − exp(x₁) ≥ 0, x₃ − exp(x₂) ≥ 0 of
// problems 34 and 66.
func expChain(x, c []float64) {
	c[0] = x[1] - math.Exp(x[0])
	c[1] = x[2] - math.Exp(x[1])
}

func expChainJac(x []float64, j jac) {
	j.set(0, 0, -math.Exp(x[0]))
	j.set(0, 1, 1)
	j.set(1, 1, -math.Exp(x[1]))
	j.set(1, 2, 1)
}

func expChainHess(x []float64, _ float64, l []float64, h hess) {
	h.add(0, 0, -l[0]*math.Exp(x[0]))
	h.add(1, 1, -l[1]*math.Exp(x[1]))
}

func hs034() *Problem {
	return build(spec{
		name: "hs034", num: 34, n: 3, kinds: "ii",
		x0:    []float64{0, 1.05, 2.9},
		xl:    []float64{0, 0, 0},
		xu:    []float64{100, 100, 10},
		fstar: -math.Log(math.Log(10)),
		xstar: []float64{math.Log(math.Log(10)), math.Log(10), 10},
		f:     func(x []float64) float64 { return -x[0] },
		df:    func(x, g []float64) { g[0] = -1 },
		c:     expChain, dc: expChainJac, d2: expChainHess,
	})
}

func hs035() *Problem {
	return build(spec{
		name: "hs035", num: 35, n: 3, kinds: "i",
		x0:    []float64{0.5, 0.5, 0.5},
		xl:    []float64{0, 0, 0},
		fstar: 1.0 / 9, xstar: []float64{4.0 / 3, 7.0 / 9, 4.0 / 9},
		f: func(x []float64) float64 {
			return 9 - 8*x[0] - 6*x[1] - 4*x[2] + 2*x[0]*x[0] + 2*x[1]*x[1] + x[2]*x[2] +
				2*x[0]*x[1] + 2*x[0]*x[2]
		},
		df: func(x, g []float64) {
			g[0] = -8 + 4*x[0] + 2*x[1] + 2*x[2]
			g[1] = -6 + 4*x[1] + 2*x[0]
			g[2] = -4 + 2*x[2] + 2*x[0]
		},
		c: func(x, c []float64) { c[0] = 3 - x[0] - x[1] - 2*x[2] },
		dc: func(x []float64, j jac) {
			j.set(0, 0, -1)
			j.set(0, 1, -1)
			j.set(0, 2, -2)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 4*s)
			h.add(1, 0, 2*s)
			h.add(1, 1, 4*s)
			h.add(2, 0, 2*s)
			h.add(2, 2, 2*s)
		},
	})
}

func hs036() *Problem {
	return build(spec{
		name: "hs036", num: 36, n: 3, kinds: "i",
		x0:    []float64{10, 10, 10},
		xl:    []float64{0, 0, 0},
		xu:    []float64{20, 11, 42},
		fstar: -3300, xstar: []float64{20, 11, 15},
		f: negProduct3, df: negProduct3Grad,
		c: func(x, c []float64) { c[0] = 72 - x[0] - 2*x[1] - 2*x[2] },
		dc: func(x []float64, j jac) {
			j.set(0, 0, -1)
			j.set(0, 1, -2)
			j.set(0, 2, -2)
		},
		d2: func(x []float64, s float64, _ []float64, h hess) { negProduct3Hess(x, s, h) },
	})
}

func hs037() *Problem {
	return build(spec{
		name: "hs037", num: 37, n: 3, kinds: "ii",
		x0:    []float64{10, 10, 10},
		xl:    []float64{0, 0, 0},
		xu:    []float64{42, 42, 42},
		fstar: -3456, xstar: []float64{24, 12, 12},
		f: negProduct3, df: negProduct3Grad,
		c: func(x, c []float64) {
			c[0] = 72 - x[0] - 2*x[1] - 2*x[2]
			c[1] = x[0] + 2*x[1] + 2*x[2]
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, -1)
			j.set(0, 1, -2)
			j.set(0, 2, -2)
			j.set(1, 0, 1)
			j.set(1, 1, 2)
			j.set(1, 2, 2)
		},
		d2: func(x []float64, s float64, _ []float64, h hess) { negProduct3Hess(x, s, h) },
	})
}

func hs038() *Problem {
	return build(spec{
		name: "hs038", num: 38, n: 4,
		note:  "Colville function 4",
		x0:    []float64{-3, -1, -3, -1},
		xl:    vec(4, -10),
		xu:    vec(4, 10),
		fstar: 0, xstar: []float64{1, 1, 1, 1},
		f: func(x []float64) float64 {
			a, b := x[1]-x[0]*x[0], 1-x[0]
			c, d := x[3]-x[2]*x[2], 1-x[2]
			e, k := x[1]-1, x[3]-1
			return 100*a*a + b*b + 90*c*c + d*d + 10.1*(e*e+k*k) + 19.8*e*k
		},
		df: func(x, g []float64) {
			a, c := x[1]-x[0]*x[0], x[3]-x[2]*x[2]
			e, k := x[1]-1, x[3]-1
			g[0] = -400*x[0]*a - 2*(1-x[0])
			g[1] = 200*a + 20.2*e + 19.8*k
			g[2] = -360*x[2]*c - 2*(1-x[2])
			g[3] = 180*c + 20.2*k + 19.8*e
		},
		d2: func(x []float64, s float64, _ []float64, h hess) {
			h.add(0, 0, s*(1200*x[0]*x[0]-400*x[1]+2))
			h.add(1, 0, -400*s*x[0])
			h.add(1, 1, 220.2*s)
			h.add(2, 2, s*(1080*x[2]*x[2]-360*x[3]+2))
			h.add(3, 2, -360*s*x[2])
			h.add(3, 3, 200.2*s)
			h.add(3, 1, 19.8*s)
		},
	})
}

func hs039() *Problem {
	return build(spec{
		name: "hs039", num: 39, n: 4, kinds: "ee",
		x0:    []float64{2, 2, 2, 2},
		fstar: -1, xstar: []float64{1, 1, 0, 0},
		f:  func(x []float64) float64 { return -x[0] },
		df: func(x, g []float64) { g[0] = -1 },
		c: func(x, c []float64) {
			c[0] = x[1] - x[0]*x[0]*x[0] - x[2]*x[2]
			c[1] = x[0]*x[0] - x[1] - x[3]*x[3]
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, -3*x[0]*x[0])
			j.set(0, 1, 1)
			j.set(0, 2, -2*x[2])
			j.set(1, 0, 2*x[0])
			j.set(1, 1, -1)
			j.set(1, 3, -2*x[3])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, -6*x[0]*l[0]+2*l[1])
			h.add(2, 2, -2*l[0])
			h.add(3, 3, -2*l[1])
		},
	})
}

func hs040() *Problem {
	return build(spec{
		name: "hs040", num: 40, n: 4, kinds: "eee",
		x0:    []float64{0.8, 0.8, 0.8, 0.8},
		fstar: -0.25,
		xstar: []float64{math.Pow(2, -1.0/3), math.Pow(2, -0.5), math.Pow(2, -11.0/12), math.Pow(2, -0.25)},
		f:     func(x []float64) float64 { return -x[0] * x[1] * x[2] * x[3] },
		df: func(x, g []float64) {
			g[0] = -x[1] * x[2] * x[3]
			g[1] = -x[0] * x[2] * x[3]
			g[2] = -x[0] * x[1] * x[3]
			g[3] = -x[0] * x[1] * x[2]
		},
		c: func(x, c []float64) {
			c[0] = x[0]*x[0]*x[0] + x[1]*x[1] - 1
			c[1] = x[0]*x[0]*x[3] - x[2]
			c[2] = x[3]*x[3] - x[1]
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, 3*x[0]*x[0])
			j.set(0, 1, 2*x[1])
			j.set(1, 0, 2*x[0]*x[3])
			j.set(1, 2, -1)
			j.set(1, 3, x[0]*x[0])
			j.set(2, 1, -1)
			j.set(2, 3, 2*x[3])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(1, 0, -s*x[2]*x[3])
			h.add(2, 0, -s*x[1]*x[3])
			h.add(3, 0, -s*x[1]*x[2]+2*x[0]*l[1])
			h.add(2, 1, -s*x[0]*x[3])
			h.add(3, 1, -s*x[0]*x[2])
			h.add(3, 2, -s*x[0]*x[1])
			h.add(0, 0, 6*x[0]*l[0]+2*x[3]*l[1])
			h.add(1, 1, 2*l[0])
			h.add(3, 3, 2*l[2])
		},
	})
}

func hs041() *Problem {
	return build(spec{
		name: "hs041", num: 41, n: 4, kinds: "e",
		x0:    []float64{2, 2, 2, 2},
		xl:    []float64{0, 0, 0, 0},
		xu:    []float64{1, 1, 1, 2},
		fstar: 52.0 / 27, xstar: []float64{2.0 / 3, 1.0 / 3, 1.0 / 3, 2},
		f:  func(x []float64) float64 { return 2 - x[0]*x[1]*x[2] },
		df: negProduct3Grad,
		c:  func(x, c []float64) { c[0] = x[0] + 2*x[1] + 2*x[2] - x[3] },
		dc: func(x []float64, j jac) {
			j.set(0, 0, 1)
			j.set(0, 1, 2)
			j.set(0, 2, 2)
			j.set(0, 3, -1)
		},
		d2: func(x []float64, s float64, _ []float64, h hess) { negProduct3Hess(x, s, h) },
	})
}

func hs042() *Problem {
	return build(spec{
		name: "hs042", num: 42, n: 4, kinds: "ee",
		x0:    []float64{1, 1, 1, 1},
		fstar: 28 - 10*math.Sqrt2, xstar: []float64{2, 2, 0.6 * math.Sqrt2, 0.8 * math.Sqrt2},
		f: func(x []float64) float64 {
			var f float64
			for i, v := range x[:4] {
				d := v - float64(i+1)
				f += d * d
			}
			return f
		},
		df: func(x, g []float64) {
			for i, v := range x[:4] {
				g[i] = 2 * (v - float64(i+1))
			}
		},
		c: func(x, c []float64) {
			c[0] = x[0] - 2
			c[1] = x[2]*x[2] + x[3]*x[3] - 2
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, 1)
			j.set(1, 2, 2*x[2])
			j.set(1, 3, 2*x[3])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 2*s)
			h.add(1, 1, 2*s)
			h.add(2, 2, 2*s+2*l[1])
			h.add(3, 3, 2*s+2*l[1])
		},
	})
}

func hs043() *Problem {
	return build(spec{
		name: "hs043", num: 43, n: 4, kinds: "iii",
		note:  "Rosen–Suzuki problem",
		x0:    []float64{0, 0, 0, 0},
		fstar: -44, xstar: []float64{0, 1, 2, -1},
		f: func(x []float64) float64 {
			return x[0]*x[0] + x[1]*x[1] + 2*x[2]*x[2] + x[3]*x[3] -
				5*x[0] - 5*x[1] - 21*x[2] + 7*x[3]
		},
		df: func(x, g []float64) {
			g[0] = 2*x[0] - 5
			g[1] = 2*x[1] - 5
			g[2] = 4*x[2] - 21
			g[3] = 2*x[3] + 7
		},
		c: func(x, c []float64) {
			c[0] = 8 - x[0]*x[0] - x[1]*x[1] - x[2]*x[2] - x[3]*x[3] - x[0] + x[1] - x[2] + x[3]
			c[1] = 10 - x[0]*x[0] - 2*x[1]*x[1] - x[2]*x[2] - 2*x[3]*x[3] + x[0] + x[3]
			c[2] = 5 - 2*x[0]*x[0] - x[1]*x[1] - x[2]*x[2] - 2*x[0] + x[1] + x[3]
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, -2*x[0]-1)
			j.set(0, 1, -2*x[1]+1)
			j.set(0, 2, -2*x[2]-1)
			j.set(0, 3, -2*x[3]+1)
			j.set(1, 0, -2*x[0]+1)
			j.set(1, 1, -4*x[1])
			j.set(1, 2, -2*x[2])
			j.set(1, 3, -4*x[3]+1)
			j.set(2, 0, -4*x[0]-2)
			j.set(2, 1, -2*x[1]+1)
			j.set(2, 2, -2*x[2])
			j.set(2, 3, 1)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 2*s-2*l[0]-2*l[1]-4*l[2])
			h.add(1, 1, 2*s-2*l[0]-4*l[1]-2*l[2])
			h.add(2, 2, 4*s-2*l[0]-2*l[1]-2*l[2])
			h.add(3, 3, 2*s-2*l[0]-4*l[1])
		},
	})
}

func hs044() *Problem {
	a := [][4]float64{ // linear constraints bᵢ + aᵢ·x ≥ 0 as (aᵢ; bᵢ) rows below
		{-1, -2, 0, 0}, {-4, -1, 0, 0}, {-3, -4, 0, 0},
		{0, 0, -2, -1}, {0, 0, -1, -2}, {0, 0, -1, -1},
	}
	b := []float64{8, 12, 12, 8, 8, 5}
	return build(spec{
		name: "hs044", num: 44, n: 4, kinds: "iiiiii",
		x0:    []float64{0, 0, 0, 0},
		xl:    []float64{0, 0, 0, 0},
		fstar: -15, xstar: []float64{0, 3, 0, 4},
		f: func(x []float64) float64 {
			return x[0] - x[1] - x[2] - x[0]*x[2] + x[0]*x[3] + x[1]*x[2] - x[1]*x[3]
		},
		df: func(x, g []float64) {
			g[0] = 1 - x[2] + x[3]
			g[1] = -1 + x[2] - x[3]
			g[2] = -1 - x[0] + x[1]
			g[3] = x[0] - x[1]
		},
		c:  linearCons(a, b),
		dc: linearJac(a),
		d2: func(x []float64, s float64, _ []float64, h hess) {
			h.add(2, 0, -s)
			h.add(3, 0, s)
			h.add(2, 1, s)
			h.add(3, 1, -s)
		},
	})
}

// linearCons returns c(x) = b + A x for rows A of width 4.
func linearCons(a [][4]float64, b []float64) func(x, c []float64) {
	return func(x, c []float64) {
		for i, r := range a {
			c[i] = b[i] + r[0]*x[0] + r[1]*x[1] + r[2]*x[2] + r[3]*x[3]
		}
	}
}

func linearJac(a [][4]float64) func(x []float64, j jac) {
	return func(x []float64, j jac) {
		for i, r := range a {
			for k, v := range r {
				if v != 0 {
					j.set(i, k, v)
				}
			}
		}
	}
}

func hs045() *Problem {
	return build(spec{
		name: "hs045", num: 45, n: 5,
		x0:    vec(5, 2),
		xl:    vec(5, 0),
		xu:    []float64{1, 2, 3, 4, 5},
		fstar: 1, xstar: []float64{1, 2, 3, 4, 5},
		f: func(x []float64) float64 {
			return 2 - x[0]*x[1]*x[2]*x[3]*x[4]/120
		},
		df: func(x, g []float64) {
			for i := 0; i < 5; i++ {
				g[i] = -productExcept(x[:5], i, -1) / 120
			}
		},
		d2: func(x []float64, s float64, _ []float64, h hess) {
			for i := 1; i < 5; i++ {
				for k := 0; k < i; k++ {
					h.add(i, k, -s*productExcept(x[:5], i, k)/120)
				}
			}
		},
	})
}

// productExcept returns the product of the entries of x other than those at
// indices i and k (k < 0 for none).
func productExcept(x []float64, i, k int) float64 {
	p := 1.0
	for j, v := range x {
		if j != i && j != k {
			p *= v
		}
	}
	return p
}

// Objective of problems 46 and 49:
// (x₁ − x₂)² + (x₃ − 1)² + (x₄ − 1)⁴ + (x₅ − 1)⁶.
func f46(x []float64) float64 {
	a, b, c, d := x[0]-x[1], x[2]-1, x[3]-1, x[4]-1
	c2, d2 := c*c, d*d
	return a*a + b*b + c2*c2 + d2*d2*d2
}

func f46Grad(x, g []float64) {
	a, b, c, d := x[0]-x[1], x[2]-1, x[3]-1, x[4]-1
	g[0], g[1], g[2] = 2*a, -2*a, 2*b
	g[3] = 4 * c * c * c
	g[4] = 6 * d * d * d * d * d
}

func f46Hess(x []float64, s float64, h hess) {
	c, d := x[3]-1, x[4]-1
	h.add(0, 0, 2*s)
	h.add(1, 0, -2*s)
	h.add(1, 1, 2*s)
	h.add(2, 2, 2*s)
	h.add(3, 3, 12*s*c*c)
	h.add(4, 4, 30*s*d*d*d*d)
}

// Constraints of problems 46 and 77 with right-hand sides r₁, r₂:
// x₁²x₄ + sin(x₄ − x₅) = r₁, x₂ + x₃⁴x₄² = r₂.
func c46(r1, r2 float64) func(x, c []float64) {
	return func(x, c []float64) {
		x3sq := x[2] * x[2]
		c[0] = x[0]*x[0]*x[3] + math.Sin(x[3]-x[4]) - r1
		c[1] = x[1] + x3sq*x3sq*x[3]*x[3] - r2
	}
}

func c46Jac(x []float64, j jac) {
	cs := math.Cos(x[3] - x[4])
	x3sq := x[2] * x[2]
	j.set(0, 0, 2*x[0]*x[3])
	j.set(0, 3, x[0]*x[0]+cs)
	j.set(0, 4, -cs)
	j.set(1, 1, 1)
	j.set(1, 2, 4*x3sq*x[2]*x[3]*x[3])
	j.set(1, 3, 2*x3sq*x3sq*x[3])
}

func c46Hess(x []float64, l []float64, h hess) {
	sn := math.Sin(x[3] - x[4])
	x3sq := x[2] * x[2]
	h.add(0, 0, 2*x[3]*l[0])
	h.add(3, 0, 2*x[0]*l[0])
	h.add(3, 3, -sn*l[0]+2*x3sq*x3sq*l[1])
	h.add(4, 3, sn*l[0])
	h.add(4, 4, -sn*l[0])
	h.add(2, 2, 12*x3sq*x[3]*x[3]*l[1])
	h.add(3, 2, 8*x3sq*x[2]*x[3]*l[1])
}

func hs046() *Problem {
	return build(spec{
		name: "hs046", num: 46, n: 5, kinds: "ee",
		x0:    []float64{0.5 * math.Sqrt2, 1.75, 0.5, 2, 2},
		fstar: 0, xstar: vec(5, 1),
		f: f46, df: f46Grad,
		c: c46(1, 2), dc: c46Jac,
		d2: func(x []float64, s float64, l []float64, h hess) {
			f46Hess(x, s, h)
			c46Hess(x, l, h)
		},
	})
}

// Objective of problem 47: (x₁−x₂)² + (x₂−x₃)³ + (x₃−x₄)⁴ + (x₄−x₅)⁴.
func f47(x []float64) float64 {
	a, b, c, d := x[0]-x[1], x[1]-x[2], x[2]-x[3], x[3]-x[4]
	return a*a + b*b*b + c*c*c*c + d*d*d*d
}

// Constraints of problems 47 and 79 with right-hand sides r:
// x₁ + x₂² + x₃³ = r₁, x₂ − x₃² + x₄ = r₂, x₁x₅ = r₃.
func c47(r1, r2, r3 float64) func(x, c []float64) {
	return func(x, c []float64) {
		c[0] = x[0] + x[1]*x[1] + x[2]*x[2]*x[2] - r1
		c[1] = x[1] - x[2]*x[2] + x[3] - r2
		c[2] = x[0]*x[4] - r3
	}
}

func c47Jac(x []float64, j jac) {
	j.set(0, 0, 1)
	j.set(0, 1, 2*x[1])
	j.set(0, 2, 3*x[2]*x[2])
	j.set(1, 1, 1)
	j.set(1, 2, -2*x[2])
	j.set(1, 3, 1)
	j.set(2, 0, x[4])
	j.set(2, 4, x[0])
}

func c47Hess(x []float64, l []float64, h hess) {
	h.add(1, 1, 2*l[0])
	h.add(2, 2, 6*x[2]*l[0]-2*l[1])
	h.add(4, 0, l[2])
}

func hs047() *Problem {
	return build(spec{
		name: "hs047", num: 47, n: 5, kinds: "eee",
		x0:    []float64{2, math.Sqrt2, -1, 2 - math.Sqrt2, 0.5},
		fstar: 0, xstar: vec(5, 1),
		f: f47,
		df: func(x, g []float64) {
			a, b, c, d := x[0]-x[1], x[1]-x[2], x[2]-x[3], x[3]-x[4]
			g[0] = 2 * a
			g[1] = -2*a + 3*b*b
			g[2] = -3*b*b + 4*c*c*c
			g[3] = -4*c*c*c + 4*d*d*d
			g[4] = -4 * d * d * d
		},
		c: c47(3, 1, 1), dc: c47Jac,
		d2: func(x []float64, s float64, l []float64, h hess) {
			b, c, d := x[1]-x[2], x[2]-x[3], x[3]-x[4]
			h.add(0, 0, 2*s)
			h.add(1, 0, -2*s)
			h.add(1, 1, s*(2+6*b))
			h.add(2, 1, -6*s*b)
			h.add(2, 2, s*(6*b+12*c*c))
			h.add(3, 2, -12*s*c*c)
			h.add(3, 3, 12*s*(c*c+d*d))
			h.add(4, 3, -12*s*d*d)
			h.add(4, 4, 12*s*d*d)
			c47Hess(x, l, h)
		},
	})
}

// linear5 returns c(x) = A x − b for rows of width 5, with its Jacobian.
func linear5(a [][5]float64, b []float64) (func(x, c []float64), func(x []float64, j jac)) {
	return func(x, c []float64) {
			for i, r := range a {
				v := -b[i]
				for k, ak := range r {
					v += ak * x[k]
				}
				c[i] = v
			}
		}, func(x []float64, j jac) {
			for i, r := range a {
				for k, v := range r {
					if v != 0 {
						j.set(i, k, v)
					}
				}
			}
		}
}

func hs048() *Problem {
	c, dc := linear5([][5]float64{{1, 1, 1, 1, 1}, {0, 0, 1, -2, -2}}, []float64{5, -3})
	return build(spec{
		name: "hs048", num: 48, n: 5, kinds: "ee",
		x0:    []float64{3, 5, -3, 2, -2},
		fstar: 0, xstar: vec(5, 1),
		f: func(x []float64) float64 {
			a, b, d := x[0]-1, x[1]-x[2], x[3]-x[4]
			return a*a + b*b + d*d
		},
		df: func(x, g []float64) {
			a, b, d := x[0]-1, x[1]-x[2], x[3]-x[4]
			g[0], g[1], g[2], g[3], g[4] = 2*a, 2*b, -2*b, 2*d, -2*d
		},
		c: c, dc: dc,
		d2: func(x []float64, s float64, _ []float64, h hess) {
			h.add(0, 0, 2*s)
			h.add(1, 1, 2*s)
			h.add(2, 1, -2*s)
			h.add(2, 2, 2*s)
			h.add(3, 3, 2*s)
			h.add(4, 3, -2*s)
			h.add(4, 4, 2*s)
		},
	})
}

func hs049() *Problem {
	c, dc := linear5([][5]float64{{1, 1, 1, 4, 0}, {0, 0, 1, 0, 5}}, []float64{7, 6})
	return build(spec{
		name: "hs049", num: 49, n: 5, kinds: "ee",
		x0:    []float64{10, 7, 2, -3, 0.8},
		fstar: 0, xstar: vec(5, 1),
		f: f46, df: f46Grad,
		c: c, dc: dc,
		d2: func(x []float64, s float64, _ []float64, h hess) { f46Hess(x, s, h) },
	})
}

func hs050() *Problem {
	c, dc := linear5([][5]float64{{1, 2, 3, 0, 0}, {0, 1, 2, 3, 0}, {0, 0, 1, 2, 3}}, []float64{6, 6, 6})
	return build(spec{
		name: "hs050", num: 50, n: 5, kinds: "eee",
		x0:    []float64{35, -31, 11, 5, -5},
		fstar: 0, xstar: vec(5, 1),
		f: func(x []float64) float64 {
			a, b, c, d := x[0]-x[1], x[1]-x[2], x[2]-x[3], x[3]-x[4]
			return a*a + b*b + c*c*c*c + d*d
		},
		df: func(x, g []float64) {
			a, b, c, d := x[0]-x[1], x[1]-x[2], x[2]-x[3], x[3]-x[4]
			g[0] = 2 * a
			g[1] = -2*a + 2*b
			g[2] = -2*b + 4*c*c*c
			g[3] = -4*c*c*c + 2*d
			g[4] = -2 * d
		},
		c: c, dc: dc,
		d2: func(x []float64, s float64, _ []float64, h hess) {
			c := x[2] - x[3]
			h.add(0, 0, 2*s)
			h.add(1, 0, -2*s)
			h.add(1, 1, 4*s)
			h.add(2, 1, -2*s)
			h.add(2, 2, s*(2+12*c*c))
			h.add(3, 2, -12*s*c*c)
			h.add(3, 3, s*(12*c*c+2))
			h.add(4, 3, -2*s)
			h.add(4, 4, 2*s)
		},
	})
}

// Objective of problems 51 and 53:
// (x₁ − x₂)² + (x₂ + x₃ − 2)² + (x₄ − 1)² + (x₅ − 1)².
func f51(x []float64) float64 {
	a, b, c, d := x[0]-x[1], x[1]+x[2]-2, x[3]-1, x[4]-1
	return a*a + b*b + c*c + d*d
}

func f51Grad(x, g []float64) {
	a, b := x[0]-x[1], x[1]+x[2]-2
	g[0], g[1], g[2], g[3], g[4] = 2*a, -2*a+2*b, 2*b, 2*(x[3]-1), 2*(x[4]-1)
}

func f51Hess(_ []float64, s float64, _ []float64, h hess) {
	h.add(0, 0, 2*s)
	h.add(1, 0, -2*s)
	h.add(1, 1, 4*s)
	h.add(2, 1, 2*s)
	h.add(2, 2, 2*s)
	h.add(3, 3, 2*s)
	h.add(4, 4, 2*s)
}

func hs051() *Problem {
	c, dc := linear5([][5]float64{{1, 3, 0, 0, 0}, {0, 0, 1, 1, -2}, {0, 1, 0, 0, -1}}, []float64{4, 0, 0})
	return build(spec{
		name: "hs051", num: 51, n: 5, kinds: "eee",
		x0:    []float64{2.5, 0.5, 2, -1, 0.5},
		fstar: 0, xstar: vec(5, 1),
		f: f51, df: f51Grad,
		c: c, dc: dc, d2: f51Hess,
	})
}

// The constraints of problems 52 and 53: x₁ + 3x₂ = 0, x₃ + x₄ − 2x₅ = 0,
// x₂ − x₅ = 0.
var a52 = [][5]float64{{1, 3, 0, 0, 0}, {0, 0, 1, 1, -2}, {0, 1, 0, 0, -1}}

func hs052() *Problem {
	c, dc := linear5(a52, []float64{0, 0, 0})
	return build(spec{
		name: "hs052", num: 52, n: 5, kinds: "eee",
		x0:    vec(5, 2),
		fstar: 1859.0 / 349,
		xstar: []float64{-33.0 / 349, 11.0 / 349, 180.0 / 349, -158.0 / 349, 11.0 / 349},
		f: func(x []float64) float64 {
			a, b, c, d := 4*x[0]-x[1], x[1]+x[2]-2, x[3]-1, x[4]-1
			return a*a + b*b + c*c + d*d
		},
		df: func(x, g []float64) {
			a, b := 4*x[0]-x[1], x[1]+x[2]-2
			g[0], g[1], g[2], g[3], g[4] = 8*a, -2*a+2*b, 2*b, 2*(x[3]-1), 2*(x[4]-1)
		},
		c: c, dc: dc,
		d2: func(x []float64, s float64, _ []float64, h hess) {
			h.add(0, 0, 32*s)
			h.add(1, 0, -8*s)
			h.add(1, 1, 4*s)
			h.add(2, 1, 2*s)
			h.add(2, 2, 2*s)
			h.add(3, 3, 2*s)
			h.add(4, 4, 2*s)
		},
	})
}

func hs053() *Problem {
	c, dc := linear5(a52, []float64{0, 0, 0})
	return build(spec{
		name: "hs053", num: 53, n: 5, kinds: "eee",
		x0:    vec(5, 2),
		xl:    vec(5, -10),
		xu:    vec(5, 10),
		fstar: 176.0 / 43,
		xstar: []float64{-33.0 / 43, 11.0 / 43, 27.0 / 43, -5.0 / 43, 11.0 / 43},
		f:     f51, df: f51Grad,
		c: c, dc: dc, d2: f51Hess,
	})
}
