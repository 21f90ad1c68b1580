package hs

import "math"

func hs071() *Problem {
	return build(spec{
		name: "hs071", num: 71, n: 4, kinds: "ie",
		note:  polished,
		x0:    []float64{1, 5, 5, 1},
		xl:    vec(4, 1),
		xu:    vec(4, 5),
		fstar: 17.0140173,
		xstar: []float64{1, 4.742999637264417, 3.821149984184874, 1.379408293172673},
		f: func(x []float64) float64 {
			return x[0]*x[3]*(x[0]+x[1]+x[2]) + x[2]
		},
		df: func(x, g []float64) {
			s := x[0] + x[1] + x[2]
			g[0] = x[3] * (s + x[0])
			g[1] = x[0] * x[3]
			g[2] = x[0]*x[3] + 1
			g[3] = x[0] * s
		},
		c: func(x, c []float64) {
			c[0] = x[0]*x[1]*x[2]*x[3] - 25
			c[1] = x[0]*x[0] + x[1]*x[1] + x[2]*x[2] + x[3]*x[3] - 40
		},
		dc: func(x []float64, j jac) {
			for k := 0; k < 4; k++ {
				j.set(0, k, productExcept(x[:4], k, -1))
				j.set(1, k, 2*x[k])
			}
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 2*s*x[3])
			h.add(1, 0, s*x[3])
			h.add(2, 0, s*x[3])
			h.add(3, 0, s*(2*x[0]+x[1]+x[2]))
			h.add(3, 1, s*x[0])
			h.add(3, 2, s*x[0])
			for i := 1; i < 4; i++ {
				for k := 0; k < i; k++ {
					h.add(i, k, l[0]*productExcept(x[:4], i, k))
				}
			}
			for i := 0; i < 4; i++ {
				h.add(i, i, 2*l[1])
			}
		},
	})
}

func hs055() *Problem {
	c, dc := linear6([][6]float64{
		{1, 2, 0, 0, 5, 0},
		{1, 1, 1, 0, 0, 0},
		{0, 0, 0, 1, 1, 1},
		{1, 0, 0, 1, 0, 0},
		{0, 1, 0, 0, 1, 0},
		{0, 0, 1, 0, 0, 1},
	}, []float64{6, 3, 2, 1, 2, 2})
	return build(spec{
		name: "hs055", num: 55, n: 6, kinds: "eeeeee",
		x0:    []float64{1, 2, 0, 0, 0, 2},
		xl:    vec(6, 0),
		xu:    []float64{1, inf, inf, 1, inf, inf},
		fstar: 19.0 / 3, xstar: []float64{0, 4.0 / 3, 5.0 / 3, 1, 2.0 / 3, 1.0 / 3},
		f: func(x []float64) float64 {
			return x[0] + 2*x[1] + 4*x[4] + math.Exp(x[0]*x[3])
		},
		df: func(x, g []float64) {
			e := math.Exp(x[0] * x[3])
			g[0] = 1 + x[3]*e
			g[1] = 2
			g[3] = x[0] * e
			g[4] = 4
		},
		c: c, dc: dc,
		d2: func(x []float64, s float64, _ []float64, h hess) {
			e := s * math.Exp(x[0]*x[3])
			h.add(0, 0, x[3]*x[3]*e)
			h.add(3, 0, (1+x[0]*x[3])*e)
			h.add(3, 3, x[0]*x[0]*e)
		},
	})
}

// linear6 returns c(x) = A x − b for rows of width 6, with its Jacobian.
func linear6(a [][6]float64, b []float64) (func(x, c []float64), func(x []float64, j jac)) {
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

func hs056() *Problem {
	a := math.Asin(math.Sqrt(1 / 4.2))
	b := math.Asin(math.Sqrt(5 / 7.2))
	return build(spec{
		name: "hs056", num: 56, n: 7, kinds: "eeee",
		x0:    []float64{1, 1, 1, a, a, a, b},
		fstar: -3.456,
		xstar: []float64{2.4, 1.2, 1.2, math.Asin(math.Sqrt(4.0 / 7)), math.Asin(math.Sqrt(2.0 / 7)),
			math.Asin(math.Sqrt(2.0 / 7)), math.Pi / 2},
		f: negProduct3, df: negProduct3Grad,
		c: func(x, c []float64) {
			s4, s5, s6, s7 := math.Sin(x[3]), math.Sin(x[4]), math.Sin(x[5]), math.Sin(x[6])
			c[0] = x[0] - 4.2*s4*s4
			c[1] = x[1] - 4.2*s5*s5
			c[2] = x[2] - 4.2*s6*s6
			c[3] = x[0] + 2*x[1] + 2*x[2] - 7.2*s7*s7
		},
		dc: func(x []float64, j jac) {
			// d(sin²u)/du = sin 2u.
			j.set(0, 0, 1)
			j.set(0, 3, -4.2*math.Sin(2*x[3]))
			j.set(1, 1, 1)
			j.set(1, 4, -4.2*math.Sin(2*x[4]))
			j.set(2, 2, 1)
			j.set(2, 5, -4.2*math.Sin(2*x[5]))
			j.set(3, 0, 1)
			j.set(3, 1, 2)
			j.set(3, 2, 2)
			j.set(3, 6, -7.2*math.Sin(2*x[6]))
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			negProduct3Hess(x, s, h)
			h.add(3, 3, -8.4*math.Cos(2*x[3])*l[0])
			h.add(4, 4, -8.4*math.Cos(2*x[4])*l[1])
			h.add(5, 5, -8.4*math.Cos(2*x[5])*l[2])
			h.add(6, 6, -14.4*math.Cos(2*x[6])*l[3])
		},
	})
}

func hs060() *Problem {
	return build(spec{
		name: "hs060", num: 60, n: 3, kinds: "e",
		note:  polished,
		x0:    []float64{2, 2, 2},
		xl:    vec(3, -10),
		xu:    vec(3, 10),
		fstar: 0.0325682003,
		xstar: []float64{1.104859019733316, 1.196674182288257, 1.535262260325326},
		f: func(x []float64) float64 {
			a, b, c := x[0]-1, x[0]-x[1], x[1]-x[2]
			return a*a + b*b + c*c*c*c
		},
		df: func(x, g []float64) {
			a, b, c := x[0]-1, x[0]-x[1], x[1]-x[2]
			g[0] = 2*a + 2*b
			g[1] = -2*b + 4*c*c*c
			g[2] = -4 * c * c * c
		},
		c: func(x, c []float64) {
			x3sq := x[2] * x[2]
			c[0] = x[0]*(1+x[1]*x[1]) + x3sq*x3sq - 4 - 3*math.Sqrt2
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, 1+x[1]*x[1])
			j.set(0, 1, 2*x[0]*x[1])
			j.set(0, 2, 4*x[2]*x[2]*x[2])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			c := x[1] - x[2]
			h.add(0, 0, 4*s)
			h.add(1, 0, -2*s+2*x[1]*l[0])
			h.add(1, 1, s*(2+12*c*c)+2*x[0]*l[0])
			h.add(2, 1, -12*s*c*c)
			h.add(2, 2, 12*s*c*c+12*x[2]*x[2]*l[0])
		},
	})
}

func hs061() *Problem {
	return build(spec{
		name: "hs061", num: 61, n: 3, kinds: "ee",
		note:  polished,
		x0:    []float64{0, 0, 0},
		fstar: -143.6461422,
		xstar: []float64{5.326770135563928, -2.118998632218976, 3.210464225350551},
		f: func(x []float64) float64 {
			return 4*x[0]*x[0] + 2*x[1]*x[1] + 2*x[2]*x[2] - 33*x[0] + 16*x[1] - 24*x[2]
		},
		df: func(x, g []float64) {
			g[0], g[1], g[2] = 8*x[0]-33, 4*x[1]+16, 4*x[2]-24
		},
		c: func(x, c []float64) {
			c[0] = 3*x[0] - 2*x[1]*x[1] - 7
			c[1] = 4*x[0] - x[2]*x[2] - 11
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, 3)
			j.set(0, 1, -4*x[1])
			j.set(1, 0, 4)
			j.set(1, 2, -2*x[2])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, 8*s)
			h.add(1, 1, 4*s-4*l[0])
			h.add(2, 2, 4*s-2*l[1])
		},
	})
}

// logRatio is the term c·ln((a·x + α)/(b·x + β)) of problem 62.
type logRatio struct {
	c, alpha, beta float64
	a, b           [3]float64
}

func (t *logRatio) uv(x []float64) (u, v float64) {
	u, v = t.alpha, t.beta
	for i := 0; i < 3; i++ {
		u += t.a[i] * x[i]
		v += t.b[i] * x[i]
	}
	return u, v
}

var hs062Terms = [3]logRatio{
	{c: 255, alpha: 0.03, beta: 0.03, a: [3]float64{1, 1, 1}, b: [3]float64{0.09, 1, 1}},
	{c: 280, alpha: 0.03, beta: 0.03, a: [3]float64{0, 1, 1}, b: [3]float64{0, 0.07, 1}},
	{c: 290, alpha: 0.03, beta: 0.03, a: [3]float64{0, 0, 1}, b: [3]float64{0, 0, 0.13}},
}

func hs062() *Problem {
	const k = -32.174
	return build(spec{
		name: "hs062", num: 62, n: 3, kinds: "e",
		note:  polished,
		x0:    []float64{0.7, 0.2, 0.1},
		xl:    vec(3, 0),
		xu:    vec(3, 1),
		fstar: -26272.51448,
		xstar: []float64{0.6178126908126924, 0.3282022231196689, 0.05398508606763849},
		f: func(x []float64) float64 {
			var f float64
			for i := range hs062Terms {
				t := &hs062Terms[i]
				u, v := t.uv(x)
				f += t.c * math.Log(u/v)
			}
			return k * f
		},
		df: func(x, g []float64) {
			for i := range hs062Terms {
				t := &hs062Terms[i]
				u, v := t.uv(x)
				for j := 0; j < 3; j++ {
					g[j] += k * t.c * (t.a[j]/u - t.b[j]/v)
				}
			}
		},
		c: func(x, c []float64) { c[0] = x[0] + x[1] + x[2] - 1 },
		dc: func(x []float64, j jac) {
			j.set(0, 0, 1)
			j.set(0, 1, 1)
			j.set(0, 2, 1)
		},
		d2: func(x []float64, s float64, _ []float64, h hess) {
			for i := range hs062Terms {
				t := &hs062Terms[i]
				u, v := t.uv(x)
				w := s * k * t.c
				for p := 0; p < 3; p++ {
					for q := 0; q <= p; q++ {
						if d := -t.a[p]*t.a[q]/(u*u) + t.b[p]*t.b[q]/(v*v); d != 0 {
							h.add(p, q, w*d)
						}
					}
				}
			}
		},
	})
}

func hs063() *Problem {
	return build(spec{
		name: "hs063", num: 63, n: 3, kinds: "ee",
		note:  polished,
		x0:    []float64{2, 2, 2},
		xl:    vec(3, 0),
		fstar: 961.7151721,
		xstar: []float64{3.51212134187472, 0.2169879415152231, 3.552171154827017},
		f: func(x []float64) float64 {
			return 1000 - x[0]*x[0] - 2*x[1]*x[1] - x[2]*x[2] - x[0]*x[1] - x[0]*x[2]
		},
		df: func(x, g []float64) {
			g[0] = -2*x[0] - x[1] - x[2]
			g[1] = -4*x[1] - x[0]
			g[2] = -2*x[2] - x[0]
		},
		c: func(x, c []float64) {
			c[0] = 8*x[0] + 14*x[1] + 7*x[2] - 56
			c[1] = x[0]*x[0] + x[1]*x[1] + x[2]*x[2] - 25
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, 8)
			j.set(0, 1, 14)
			j.set(0, 2, 7)
			j.set(1, 0, 2*x[0])
			j.set(1, 1, 2*x[1])
			j.set(1, 2, 2*x[2])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, -2*s+2*l[1])
			h.add(1, 0, -s)
			h.add(1, 1, -4*s+2*l[1])
			h.add(2, 0, -s)
			h.add(2, 2, -2*s+2*l[1])
		},
	})
}

func hs064() *Problem {
	return build(spec{
		name: "hs064", num: 64, n: 3, kinds: "i",
		note:  polished,
		x0:    []float64{1, 1, 1},
		xl:    vec(3, 1e-5),
		fstar: 6299.842428,
		xstar: []float64{108.7347049108989, 85.1262127908938, 204.3245966126056},
		f: func(x []float64) float64 {
			return 5*x[0] + 50000/x[0] + 20*x[1] + 72000/x[1] + 10*x[2] + 144000/x[2]
		},
		df: func(x, g []float64) {
			g[0] = 5 - 50000/(x[0]*x[0])
			g[1] = 20 - 72000/(x[1]*x[1])
			g[2] = 10 - 144000/(x[2]*x[2])
		},
		c: func(x, c []float64) { c[0] = 1 - 4/x[0] - 32/x[1] - 120/x[2] },
		dc: func(x []float64, j jac) {
			j.set(0, 0, 4/(x[0]*x[0]))
			j.set(0, 1, 32/(x[1]*x[1]))
			j.set(0, 2, 120/(x[2]*x[2]))
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			c0, c1, c2 := x[0]*x[0]*x[0], x[1]*x[1]*x[1], x[2]*x[2]*x[2]
			h.add(0, 0, 100000*s/c0-8*l[0]/c0)
			h.add(1, 1, 144000*s/c1-64*l[0]/c1)
			h.add(2, 2, 288000*s/c2-240*l[0]/c2)
		},
	})
}

func hs065() *Problem {
	return build(spec{
		name: "hs065", num: 65, n: 3, kinds: "i",
		note:  polished,
		x0:    []float64{-5, 5, 0},
		xl:    []float64{-4.5, -4.5, -5},
		xu:    []float64{4.5, 4.5, 5},
		fstar: 0.9535288567,
		xstar: []float64{3.650461725213037, 3.650461725213037, 4.620417555320009},
		f: func(x []float64) float64 {
			a, b, c := x[0]-x[1], x[0]+x[1]-10, x[2]-5
			return a*a + b*b/9 + c*c
		},
		df: func(x, g []float64) {
			a, b := x[0]-x[1], x[0]+x[1]-10
			g[0] = 2*a + 2*b/9
			g[1] = -2*a + 2*b/9
			g[2] = 2 * (x[2] - 5)
		},
		c: func(x, c []float64) { c[0] = 48 - x[0]*x[0] - x[1]*x[1] - x[2]*x[2] },
		dc: func(x []float64, j jac) {
			j.set(0, 0, -2*x[0])
			j.set(0, 1, -2*x[1])
			j.set(0, 2, -2*x[2])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(0, 0, s*(2+2.0/9)-2*l[0])
			h.add(1, 0, s*(-2+2.0/9))
			h.add(1, 1, s*(2+2.0/9)-2*l[0])
			h.add(2, 2, 2*s-2*l[0])
		},
	})
}

func hs066() *Problem {
	return build(spec{
		name: "hs066", num: 66, n: 3, kinds: "ii",
		note:  polished,
		x0:    []float64{0, 1.05, 2.9},
		xl:    []float64{0, 0, 0},
		xu:    []float64{100, 100, 10},
		fstar: 0.5181632741,
		xstar: []float64{0.1841264879228477, 1.202167873197043, 3.327322322599096},
		f:     func(x []float64) float64 { return 0.2*x[2] - 0.8*x[0] },
		df:    func(x, g []float64) { g[0], g[2] = -0.8, 0.2 },
		c:     expChain, dc: expChainJac, d2: expChainHess,
	})
}

func hs072() *Problem {
	return build(spec{
		name: "hs072", num: 72, n: 4, kinds: "ii",
		note:  polished,
		x0:    vec(4, 1),
		xl:    vec(4, 0.001),
		xu:    []float64{4e5, 3e5, 2e5, 1e5},
		fstar: 727.67937,
		xstar: []float64{193.4074272719463, 179.5470760322746, 185.0180633581515, 168.7067911272406},
		f:     func(x []float64) float64 { return 1 + x[0] + x[1] + x[2] + x[3] },
		df:    func(x, g []float64) { g[0], g[1], g[2], g[3] = 1, 1, 1, 1 },
		c: func(x, c []float64) {
			c[0] = 0.0401 - 4/x[0] - 2.25/x[1] - 1/x[2] - 0.25/x[3]
			c[1] = 0.010085 - 0.16/x[0] - 0.36/x[1] - 0.64/x[2] - 0.64/x[3]
		},
		dc: func(x []float64, j jac) {
			for k, a := range [4]float64{4, 2.25, 1, 0.25} {
				j.set(0, k, a/(x[k]*x[k]))
			}
			for k, a := range [4]float64{0.16, 0.36, 0.64, 0.64} {
				j.set(1, k, a/(x[k]*x[k]))
			}
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			a := [4]float64{4, 2.25, 1, 0.25}
			b := [4]float64{0.16, 0.36, 0.64, 0.64}
			for k := 0; k < 4; k++ {
				h.add(k, k, -2*(a[k]*l[0]+b[k]*l[1])/(x[k]*x[k]*x[k]))
			}
		},
	})
}

func hs073() *Problem {
	w := [4]float64{0.28, 0.19, 20.5, 0.62}
	q := func(x []float64) float64 {
		return w[0]*x[0]*x[0] + w[1]*x[1]*x[1] + w[2]*x[2]*x[2] + w[3]*x[3]*x[3]
	}
	return build(spec{
		name: "hs073", num: 73, n: 4, kinds: "iie",
		note:  "cattle-feed problem; " + polished,
		x0:    vec(4, 1),
		xl:    vec(4, 0),
		fstar: 29.894378,
		xstar: []float64{0.6355215686350698, 0, 0.3127018807515235, 0.05177655061340676},
		f: func(x []float64) float64 {
			return 24.55*x[0] + 26.75*x[1] + 39*x[2] + 40.5*x[3]
		},
		df: func(x, g []float64) { g[0], g[1], g[2], g[3] = 24.55, 26.75, 39, 40.5 },
		c: func(x, c []float64) {
			c[0] = 2.3*x[0] + 5.6*x[1] + 11.1*x[2] + 1.3*x[3] - 5
			c[1] = 12*x[0] + 11.9*x[1] + 41.8*x[2] + 52.1*x[3] - 21 - 1.645*math.Sqrt(q(x))
			c[2] = x[0] + x[1] + x[2] + x[3] - 1
		},
		dc: func(x []float64, j jac) {
			r := math.Sqrt(q(x))
			for k, v := range [4]float64{2.3, 5.6, 11.1, 1.3} {
				j.set(0, k, v)
			}
			for k, v := range [4]float64{12, 11.9, 41.8, 52.1} {
				j.set(1, k, v-1.645*w[k]*x[k]/r)
			}
			for k := 0; k < 4; k++ {
				j.set(2, k, 1)
			}
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			// ∂²√q/∂xᵢ∂xₖ = wᵢδᵢₖ/√q − wᵢxᵢwₖxₖ/q^{3/2}.
			r := math.Sqrt(q(x))
			c := -1.645 * l[1]
			for i := 0; i < 4; i++ {
				for k := 0; k <= i; k++ {
					v := -w[i] * x[i] * w[k] * x[k] / (r * r * r)
					if i == k {
						v += w[i] / r
					}
					h.add(i, k, c*v)
				}
			}
		},
	})
}
