package hs

import "math"

var inf = math.Inf(1)

// rosen is the Rosenbrock function 100(x₂ − x₁²)² + (1 − x₁)² used by
// several problems.
func rosen(x []float64) float64 {
	a, b := x[1]-x[0]*x[0], 1-x[0]
	return 100*a*a + b*b
}

func rosenGrad(x, g []float64) {
	a := x[1] - x[0]*x[0]
	g[0] = -400*x[0]*a - 2*(1-x[0])
	g[1] = 200 * a
}

func rosenHess(x []float64, s float64, h hess) {
	h.add(0, 0, s*(1200*x[0]*x[0]-400*x[1]+2))
	h.add(1, 0, -400*s*x[0])
	h.add(1, 1, 200*s)
}

func rosenHessOnly(x []float64, s float64, _ []float64, h hess) { rosenHess(x, s, h) }

func hs001() *Problem {
	return build(spec{
		name: "hs001", num: 1, n: 2,
		x0:    []float64{-2, 1},
		xl:    []float64{-inf, -1.5},
		fstar: 0, xstar: []float64{1, 1},
		f: rosen, df: rosenGrad, d2: rosenHessOnly,
	})
}

func hs002() *Problem {
	// x₁* is the root of 200x³ − 299x − 1 = 0 (stationarity in x₁ with
	// x₂ = 1.5 active).
	return build(spec{
		name: "hs002", num: 2, n: 2,
		x0:    []float64{-2, 1},
		xl:    []float64{-inf, 1.5},
		fstar: 0.0504261879, xstar: []float64{1.2243707487363527, 1.5},
		f: rosen, df: rosenGrad, d2: rosenHessOnly,
	})
}

func hs003() *Problem {
	return build(spec{
		name: "hs003", num: 3, n: 2,
		x0:    []float64{10, 1},
		xl:    []float64{-inf, 0},
		fstar: 0, xstar: []float64{0, 0},
		f: func(x []float64) float64 {
			d := x[1] - x[0]
			return x[1] + 1e-5*d*d
		},
		df: func(x, g []float64) {
			d := x[1] - x[0]
			g[0] = -2e-5 * d
			g[1] = 1 + 2e-5*d
		},
		d2: func(x []float64, s float64, _ []float64, h hess) {
			h.add(0, 0, 2e-5*s)
			h.add(1, 0, -2e-5*s)
			h.add(1, 1, 2e-5*s)
		},
	})
}

func hs004() *Problem {
	return build(spec{
		name: "hs004", num: 4, n: 2,
		x0:    []float64{1.125, 0.125},
		xl:    []float64{1, 0},
		fstar: 8.0 / 3, xstar: []float64{1, 0},
		f: func(x []float64) float64 {
			a := x[0] + 1
			return a*a*a/3 + x[1]
		},
		df: func(x, g []float64) {
			a := x[0] + 1
			g[0] = a * a
			g[1] = 1
		},
		d2: func(x []float64, s float64, _ []float64, h hess) {
			h.add(0, 0, 2*s*(x[0]+1))
		},
	})
}

func hs005() *Problem {
	return build(spec{
		name: "hs005", num: 5, n: 2,
		x0:    []float64{0, 0},
		xl:    []float64{-1.5, -3},
		xu:    []float64{4, 3},
		fstar: -math.Sqrt(3)/2 - math.Pi/3,
		xstar: []float64{0.5 - math.Pi/3, -0.5 - math.Pi/3},
		f: func(x []float64) float64 {
			d := x[0] - x[1]
			return math.Sin(x[0]+x[1]) + d*d - 1.5*x[0] + 2.5*x[1] + 1
		},
		df: func(x, g []float64) {
			c := math.Cos(x[0] + x[1])
			d := x[0] - x[1]
			g[0] = c + 2*d - 1.5
			g[1] = c - 2*d + 2.5
		},
		d2: func(x []float64, s float64, _ []float64, h hess) {
			sn := math.Sin(x[0] + x[1])
			h.add(0, 0, s*(2-sn))
			h.add(1, 0, s*(-2-sn))
			h.add(1, 1, s*(2-sn))
		},
	})
}

func hs006() *Problem {
	return build(spec{
		name: "hs006", num: 6, n: 2, kinds: "e",
		x0:    []float64{-1.2, 1},
		fstar: 0, xstar: []float64{1, 1},
		f:  func(x []float64) float64 { d := 1 - x[0]; return d * d },
		df: func(x, g []float64) { g[0] = -2 * (1 - x[0]) },
		c:  func(x, c []float64) { c[0] = 10 * (x[1] - x[0]*x[0]) },
		dc: func(x []float64, j jac) {
			j.set(0, 0, -20*x[0])
			j.set(0, 1, 10)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 2*s-20*l[0])
		},
	})
}

func hs007() *Problem {
	return build(spec{
		name: "hs007", num: 7, n: 2, kinds: "e",
		x0:    []float64{2, 2},
		fstar: -math.Sqrt(3), xstar: []float64{0, math.Sqrt(3)},
		f: func(x []float64) float64 { return math.Log(1+x[0]*x[0]) - x[1] },
		df: func(x, g []float64) {
			g[0] = 2 * x[0] / (1 + x[0]*x[0])
			g[1] = -1
		},
		c: func(x, c []float64) {
			a := 1 + x[0]*x[0]
			c[0] = a*a + x[1]*x[1] - 4
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, 4*x[0]*(1+x[0]*x[0]))
			j.set(0, 1, 2*x[1])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			a := 1 + x[0]*x[0]
			h.add(0, 0, s*2*(1-x[0]*x[0])/(a*a)+l[0]*(4+12*x[0]*x[0]))
			h.add(1, 1, 2*l[0])
		},
	})
}

func hs008() *Problem {
	a := math.Sqrt((25 + math.Sqrt(301)) / 2)
	return build(spec{
		name: "hs008", num: 8, n: 2, kinds: "ee",
		x0:    []float64{2, 1},
		fstar: -1, xstar: []float64{a, 9 / a},
		f:  func(x []float64) float64 { return -1 },
		df: func(x, g []float64) {},
		c: func(x, c []float64) {
			c[0] = x[0]*x[0] + x[1]*x[1] - 25
			c[1] = x[0]*x[1] - 9
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, 2*x[0])
			j.set(0, 1, 2*x[1])
			j.set(1, 0, x[1])
			j.set(1, 1, x[0])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 2*l[0])
			h.add(1, 1, 2*l[0])
			h.add(1, 0, l[1])
		},
	})
}

func hs009() *Problem {
	const p, q = math.Pi / 12, math.Pi / 16
	return build(spec{
		name: "hs009", num: 9, n: 2, kinds: "e",
		note:  "optimum set x* = (12k − 3, 16k − 4), k integer; k = 0 recorded",
		x0:    []float64{0, 0},
		fstar: -0.5, xstar: []float64{-3, -4},
		f: func(x []float64) float64 { return math.Sin(p*x[0]) * math.Cos(q*x[1]) },
		df: func(x, g []float64) {
			g[0] = p * math.Cos(p*x[0]) * math.Cos(q*x[1])
			g[1] = -q * math.Sin(p*x[0]) * math.Sin(q*x[1])
		},
		c:  func(x, c []float64) { c[0] = 4*x[0] - 3*x[1] },
		dc: func(x []float64, j jac) { j.set(0, 0, 4); j.set(0, 1, -3) },
		d2: func(x []float64, s float64, l []float64, h hess) {
			sa, ca := math.Sincos(p * x[0])
			sb, cb := math.Sincos(q * x[1])
			h.add(0, 0, -s*p*p*sa*cb)
			h.add(1, 0, -s*p*q*ca*sb)
			h.add(1, 1, -s*q*q*sa*cb)
		},
	})
}

func hs010() *Problem {
	return build(spec{
		name: "hs010", num: 10, n: 2, kinds: "i",
		x0:    []float64{-10, 10},
		fstar: -1, xstar: []float64{0, 1},
		f:  func(x []float64) float64 { return x[0] - x[1] },
		df: func(x, g []float64) { g[0], g[1] = 1, -1 },
		c: func(x, c []float64) {
			c[0] = -3*x[0]*x[0] + 2*x[0]*x[1] - x[1]*x[1] + 1
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, -6*x[0]+2*x[1])
			j.set(0, 1, 2*x[0]-2*x[1])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, -6*l[0])
			h.add(1, 0, 2*l[0])
			h.add(1, 1, -2*l[0])
		},
	})
}

func hs011() *Problem {
	// On the active constraint x₂ = x₁², stationarity gives
	// 2x₁³ + x₁ − 5 = 0; x₁* is its real root.
	x1 := 1.234772825053297
	return build(spec{
		name: "hs011", num: 11, n: 2, kinds: "i",
		x0:    []float64{4.9, 0.1},
		fstar: -8.498464223, xstar: []float64{x1, x1 * x1},
		f: func(x []float64) float64 {
			d := x[0] - 5
			return d*d + x[1]*x[1] - 25
		},
		df: func(x, g []float64) { g[0], g[1] = 2*(x[0]-5), 2*x[1] },
		c:  func(x, c []float64) { c[0] = -x[0]*x[0] + x[1] },
		dc: func(x []float64, j jac) { j.set(0, 0, -2*x[0]); j.set(0, 1, 1) },
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 2*s-2*l[0])
			h.add(1, 1, 2*s)
		},
	})
}

func hs012() *Problem {
	return build(spec{
		name: "hs012", num: 12, n: 2, kinds: "i",
		x0:    []float64{0, 0},
		fstar: -30, xstar: []float64{2, 3},
		f: func(x []float64) float64 {
			return 0.5*x[0]*x[0] + x[1]*x[1] - x[0]*x[1] - 7*x[0] - 7*x[1]
		},
		df: func(x, g []float64) {
			g[0] = x[0] - x[1] - 7
			g[1] = 2*x[1] - x[0] - 7
		},
		c:  func(x, c []float64) { c[0] = 25 - 4*x[0]*x[0] - x[1]*x[1] },
		dc: func(x []float64, j jac) { j.set(0, 0, -8*x[0]); j.set(0, 1, -2*x[1]) },
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, s-8*l[0])
			h.add(1, 0, -s)
			h.add(1, 1, 2*s-2*l[0])
		},
	})
}

func hs013() *Problem {
	return build(spec{
		name: "hs013", num: 13, n: 2, kinds: "i",
		note:  "constraint qualification fails at x*",
		x0:    []float64{-2, -2},
		xl:    []float64{0, 0},
		fstar: 1, xstar: []float64{1, 0},
		f: func(x []float64) float64 {
			d := x[0] - 2
			return d*d + x[1]*x[1]
		},
		df: func(x, g []float64) { g[0], g[1] = 2*(x[0]-2), 2*x[1] },
		c: func(x, c []float64) {
			d := 1 - x[0]
			c[0] = d*d*d - x[1]
		},
		dc: func(x []float64, j jac) {
			d := 1 - x[0]
			j.set(0, 0, -3*d*d)
			j.set(0, 1, -1)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 2*s+6*(1-x[0])*l[0])
			h.add(1, 1, 2*s)
		},
	})
}

func hs014() *Problem {
	r7 := math.Sqrt(7)
	return build(spec{
		name: "hs014", num: 14, n: 2, kinds: "ie",
		x0:    []float64{2, 2},
		fstar: 9 - 23*r7/8, xstar: []float64{(r7 - 1) / 2, (r7 + 1) / 4},
		f: func(x []float64) float64 {
			a, b := x[0]-2, x[1]-1
			return a*a + b*b
		},
		df: func(x, g []float64) { g[0], g[1] = 2*(x[0]-2), 2*(x[1]-1) },
		c: func(x, c []float64) {
			c[0] = -x[0]*x[0]/4 - x[1]*x[1] + 1
			c[1] = x[0] - 2*x[1] + 1
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, -x[0]/2)
			j.set(0, 1, -2*x[1])
			j.set(1, 0, 1)
			j.set(1, 1, -2)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 2*s-0.5*l[0])
			h.add(1, 1, 2*s-2*l[0])
		},
	})
}

func hs015() *Problem {
	return build(spec{
		name: "hs015", num: 15, n: 2, kinds: "ii",
		x0:    []float64{-2, 1},
		xu:    []float64{0.5, inf},
		fstar: 306.5, xstar: []float64{0.5, 2},
		f: rosen, df: rosenGrad,
		c: func(x, c []float64) {
			c[0] = x[0]*x[1] - 1
			c[1] = x[0] + x[1]*x[1]
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, x[1])
			j.set(0, 1, x[0])
			j.set(1, 0, 1)
			j.set(1, 1, 2*x[1])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			rosenHess(x, s, h)
			h.add(1, 0, l[0])
			h.add(1, 1, 2*l[1])
		},
	})
}

func hs016() *Problem {
	return build(spec{
		name: "hs016", num: 16, n: 2, kinds: "ii",
		x0:    []float64{-2, 1},
		xl:    []float64{-0.5, -inf},
		xu:    []float64{0.5, 1},
		fstar: 0.25, xstar: []float64{0.5, 0.25},
		f: rosen, df: rosenGrad,
		c: func(x, c []float64) {
			c[0] = x[0] + x[1]*x[1]
			c[1] = x[0]*x[0] + x[1]
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, 1)
			j.set(0, 1, 2*x[1])
			j.set(1, 0, 2*x[0])
			j.set(1, 1, 1)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			rosenHess(x, s, h)
			h.add(1, 1, 2*l[0])
			h.add(0, 0, 2*l[1])
		},
	})
}

func hs017() *Problem {
	return build(spec{
		name: "hs017", num: 17, n: 2, kinds: "ii",
		x0:    []float64{-2, 1},
		xl:    []float64{-0.5, -inf},
		xu:    []float64{0.5, 1},
		fstar: 1, xstar: []float64{0, 0},
		f: rosen, df: rosenGrad,
		c: func(x, c []float64) {
			c[0] = x[1]*x[1] - x[0]
			c[1] = x[0]*x[0] - x[1]
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, -1)
			j.set(0, 1, 2*x[1])
			j.set(1, 0, 2*x[0])
			j.set(1, 1, -1)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			rosenHess(x, s, h)
			h.add(1, 1, 2*l[0])
			h.add(0, 0, 2*l[1])
		},
	})
}

func hs018() *Problem {
	return build(spec{
		name: "hs018", num: 18, n: 2, kinds: "ii",
		x0:    []float64{2, 2},
		xl:    []float64{2, 0},
		xu:    []float64{50, 50},
		fstar: 5, xstar: []float64{math.Sqrt(250), math.Sqrt(2.5)},
		f:  func(x []float64) float64 { return 0.01*x[0]*x[0] + x[1]*x[1] },
		df: func(x, g []float64) { g[0], g[1] = 0.02*x[0], 2*x[1] },
		c: func(x, c []float64) {
			c[0] = x[0]*x[1] - 25
			c[1] = x[0]*x[0] + x[1]*x[1] - 25
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, x[1])
			j.set(0, 1, x[0])
			j.set(1, 0, 2*x[0])
			j.set(1, 1, 2*x[1])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 0.02*s+2*l[1])
			h.add(1, 0, l[0])
			h.add(1, 1, 2*s+2*l[1])
		},
	})
}

func hs019() *Problem {
	// Both constraints are active: x₁* = 14.095 exactly and
	// x₂* = 5 − √(100 − 9.095²).
	return build(spec{
		name: "hs019", num: 19, n: 2, kinds: "ii",
		x0:    []float64{20.1, 5.84},
		xl:    []float64{13, 0},
		xu:    []float64{100, 100},
		fstar: -6961.81381, xstar: []float64{14.095, 5 - math.Sqrt(100-9.095*9.095)},
		f: func(x []float64) float64 {
			a, b := x[0]-10, x[1]-20
			return a*a*a + b*b*b
		},
		df: func(x, g []float64) {
			a, b := x[0]-10, x[1]-20
			g[0], g[1] = 3*a*a, 3*b*b
		},
		c: func(x, c []float64) {
			a, b, d := x[0]-5, x[1]-5, x[0]-6
			c[0] = a*a + b*b - 100
			c[1] = -b*b - d*d + 82.81
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, 2*(x[0]-5))
			j.set(0, 1, 2*(x[1]-5))
			j.set(1, 0, -2*(x[0]-6))
			j.set(1, 1, -2*(x[1]-5))
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 6*s*(x[0]-10)+2*l[0]-2*l[1])
			h.add(1, 1, 6*s*(x[1]-20)+2*l[0]-2*l[1])
		},
	})
}

func hs020() *Problem {
	return build(spec{
		name: "hs020", num: 20, n: 2, kinds: "iii",
		x0:    []float64{-2, 1},
		xl:    []float64{-0.5, -inf},
		xu:    []float64{0.5, inf},
		fstar: 81.5 - 25*math.Sqrt(3), xstar: []float64{0.5, math.Sqrt(3) / 2},
		f: rosen, df: rosenGrad,
		c: func(x, c []float64) {
			c[0] = x[0] + x[1]*x[1]
			c[1] = x[0]*x[0] + x[1]
			c[2] = x[0]*x[0] + x[1]*x[1] - 1
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, 1)
			j.set(0, 1, 2*x[1])
			j.set(1, 0, 2*x[0])
			j.set(1, 1, 1)
			j.set(2, 0, 2*x[0])
			j.set(2, 1, 2*x[1])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			rosenHess(x, s, h)
			h.add(0, 0, 2*l[1]+2*l[2])
			h.add(1, 1, 2*l[0]+2*l[2])
		},
	})
}

func hs021() *Problem {
	return build(spec{
		name: "hs021", num: 21, n: 2, kinds: "i",
		x0:    []float64{-1, -1},
		xl:    []float64{2, -50},
		xu:    []float64{50, 50},
		fstar: -99.96, xstar: []float64{2, 0},
		f:  func(x []float64) float64 { return 0.01*x[0]*x[0] + x[1]*x[1] - 100 },
		df: func(x, g []float64) { g[0], g[1] = 0.02*x[0], 2*x[1] },
		c:  func(x, c []float64) { c[0] = 10*x[0] - x[1] - 10 },
		dc: func(x []float64, j jac) { j.set(0, 0, 10); j.set(0, 1, -1) },
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 0.02*s)
			h.add(1, 1, 2*s)
		},
	})
}

func hs022() *Problem {
	return build(spec{
		name: "hs022", num: 22, n: 2, kinds: "ii",
		x0:    []float64{2, 2},
		fstar: 1, xstar: []float64{1, 1},
		f: func(x []float64) float64 {
			a, b := x[0]-2, x[1]-1
			return a*a + b*b
		},
		df: func(x, g []float64) { g[0], g[1] = 2*(x[0]-2), 2*(x[1]-1) },
		c: func(x, c []float64) {
			c[0] = -x[0] - x[1] + 2
			c[1] = -x[0]*x[0] + x[1]
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, -1)
			j.set(0, 1, -1)
			j.set(1, 0, -2*x[0])
			j.set(1, 1, 1)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 2*s-2*l[1])
			h.add(1, 1, 2*s)
		},
	})
}

func hs023() *Problem {
	return build(spec{
		name: "hs023", num: 23, n: 2, kinds: "iiiii",
		x0:    []float64{3, 1},
		xl:    []float64{-50, -50},
		xu:    []float64{50, 50},
		fstar: 2, xstar: []float64{1, 1},
		f:  func(x []float64) float64 { return x[0]*x[0] + x[1]*x[1] },
		df: func(x, g []float64) { g[0], g[1] = 2*x[0], 2*x[1] },
		c: func(x, c []float64) {
			c[0] = x[0] + x[1] - 1
			c[1] = x[0]*x[0] + x[1]*x[1] - 1
			c[2] = 9*x[0]*x[0] + x[1]*x[1] - 9
			c[3] = x[0]*x[0] - x[1]
			c[4] = x[1]*x[1] - x[0]
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, 1)
			j.set(0, 1, 1)
			j.set(1, 0, 2*x[0])
			j.set(1, 1, 2*x[1])
			j.set(2, 0, 18*x[0])
			j.set(2, 1, 2*x[1])
			j.set(3, 0, 2*x[0])
			j.set(3, 1, -1)
			j.set(4, 0, -1)
			j.set(4, 1, 2*x[1])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 2*s+2*l[1]+18*l[2]+2*l[3])
			h.add(1, 1, 2*s+2*l[1]+2*l[2]+2*l[4])
		},
	})
}

func hs024() *Problem {
	r3 := math.Sqrt(3)
	k := 1 / (27 * r3)
	return build(spec{
		name: "hs024", num: 24, n: 2, kinds: "iii",
		x0:    []float64{1, 0.5},
		xl:    []float64{0, 0},
		fstar: -1, xstar: []float64{3, r3},
		f: func(x []float64) float64 {
			a := x[0] - 3
			return k * (a*a - 9) * x[1] * x[1] * x[1]
		},
		df: func(x, g []float64) {
			a := x[0] - 3
			g[0] = 2 * k * a * x[1] * x[1] * x[1]
			g[1] = 3 * k * (a*a - 9) * x[1] * x[1]
		},
		c: func(x, c []float64) {
			c[0] = x[0]/r3 - x[1]
			c[1] = x[0] + r3*x[1]
			c[2] = -x[0] - r3*x[1] + 6
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, 1/r3)
			j.set(0, 1, -1)
			j.set(1, 0, 1)
			j.set(1, 1, r3)
			j.set(2, 0, -1)
			j.set(2, 1, -r3)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			a := x[0] - 3
			h.add(0, 0, 2*s*k*x[1]*x[1]*x[1])
			h.add(1, 0, 6*s*k*a*x[1]*x[1])
			h.add(1, 1, 6*s*k*(a*a-9)*x[1])
		},
	})
}
