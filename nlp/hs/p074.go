package hs

import "math"

// hs074075 builds problems 74 and 75, which differ only in the constant a
// of the constraints |x₄ − x₃| ≤ a and the bounds |x₃|, |x₄| ≤ a.
func hs074075(name string, num int, a, fstar float64, xstar []float64) *Problem {
	return build(spec{
		name: name, num: num, n: 4, kinds: "iieee",
		note:  "electrical network (generator dispatch); " + polished,
		x0:    vec(4, 0),
		xl:    []float64{0, 0, -a, -a},
		xu:    []float64{1200, 1200, a, a},
		fstar: fstar, xstar: xstar,
		f: func(x []float64) float64 {
			return 3*x[0] + 1e-6*x[0]*x[0]*x[0] + 2*x[1] + 2e-6/3*x[1]*x[1]*x[1]
		},
		df: func(x, g []float64) {
			g[0] = 3 + 3e-6*x[0]*x[0]
			g[1] = 2 + 2e-6*x[1]*x[1]
		},
		c: func(x, c []float64) {
			c[0] = x[3] - x[2] + a
			c[1] = x[2] - x[3] + a
			c[2] = 1000*math.Sin(-x[2]-0.25) + 1000*math.Sin(-x[3]-0.25) + 894.8 - x[0]
			c[3] = 1000*math.Sin(x[2]-0.25) + 1000*math.Sin(x[2]-x[3]-0.25) + 894.8 - x[1]
			c[4] = 1000*math.Sin(x[3]-0.25) + 1000*math.Sin(x[3]-x[2]-0.25) + 1294.8
		},
		dc: func(x []float64, j jac) {
			c3, c4 := math.Cos(-x[2]-0.25), math.Cos(-x[3]-0.25)
			c34 := math.Cos(x[2] - x[3] - 0.25)
			c43 := math.Cos(x[3] - x[2] - 0.25)
			j.set(0, 2, -1)
			j.set(0, 3, 1)
			j.set(1, 2, 1)
			j.set(1, 3, -1)
			j.set(2, 0, -1)
			j.set(2, 2, -1000*c3)
			j.set(2, 3, -1000*c4)
			j.set(3, 1, -1)
			j.set(3, 2, 1000*math.Cos(x[2]-0.25)+1000*c34)
			j.set(3, 3, -1000*c34)
			j.set(4, 2, -1000*c43)
			j.set(4, 3, 1000*math.Cos(x[3]-0.25)+1000*c43)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			s3, s4 := math.Sin(-x[2]-0.25), math.Sin(-x[3]-0.25)
			s34 := math.Sin(x[2] - x[3] - 0.25)
			s43 := math.Sin(x[3] - x[2] - 0.25)
			h.add(0, 0, 6e-6*s*x[0])
			h.add(1, 1, 4e-6*s*x[1])
			// constraint 3 (index 2)
			h.add(2, 2, -1000*s3*l[2])
			h.add(3, 3, -1000*s4*l[2])
			// constraint 4 (index 3)
			h.add(2, 2, (-1000*math.Sin(x[2]-0.25)-1000*s34)*l[3])
			h.add(3, 2, 1000*s34*l[3])
			h.add(3, 3, -1000*s34*l[3])
			// constraint 5 (index 4)
			h.add(3, 3, (-1000*math.Sin(x[3]-0.25)-1000*s43)*l[4])
			h.add(3, 2, 1000*s43*l[4])
			h.add(2, 2, -1000*s43*l[4])
		},
	})
}

func hs074() *Problem {
	return hs074075("hs074", 74, 0.55, 5126.4981,
		[]float64{679.9453198512115, 1026.067132610465, 0.118876364493102, -0.3962335532032102})
}

// At the polished point f = 5174.41270, 4·10⁻⁸ relative below the printed
// f* = 5174.4129.
func hs075() *Problem {
	return hs074075("hs075", 75, 0.48, 5174.4129,
		[]float64{776.1590265860594, 925.1951384690917, 0.05110892853835126, -0.4288910714616487})
}

func hs076() *Problem {
	return build(spec{
		name: "hs076", num: 76, n: 4, kinds: "iii",
		x0:    vec(4, 0.5),
		xl:    vec(4, 0),
		fstar: -4.681818181, xstar: []float64{3.0 / 11, 23.0 / 11, 0, 6.0 / 11},
		f: func(x []float64) float64 {
			return x[0]*x[0] + 0.5*x[1]*x[1] + x[2]*x[2] + 0.5*x[3]*x[3] - x[0]*x[2] + x[2]*x[3] -
				x[0] - 3*x[1] + x[2] - x[3]
		},
		df: func(x, g []float64) {
			g[0] = 2*x[0] - x[2] - 1
			g[1] = x[1] - 3
			g[2] = 2*x[2] - x[0] + x[3] + 1
			g[3] = x[3] + x[2] - 1
		},
		c:  linearCons([][4]float64{{-1, -2, -1, -1}, {-3, -1, -2, 1}, {0, 1, 4, 0}}, []float64{5, 4, -1.5}),
		dc: linearJac([][4]float64{{-1, -2, -1, -1}, {-3, -1, -2, 1}, {0, 1, 4, 0}}),
		d2: func(x []float64, s float64, _ []float64, h hess) {
			h.add(0, 0, 2*s)
			h.add(1, 1, s)
			h.add(2, 2, 2*s)
			h.add(3, 3, s)
			h.add(2, 0, -s)
			h.add(3, 2, s)
		},
	})
}

func hs077() *Problem {
	return build(spec{
		name: "hs077", num: 77, n: 5, kinds: "ee",
		note:  polished,
		x0:    vec(5, 2),
		fstar: 0.24150513,
		xstar: []float64{1.166172189709298, 1.182111388802704, 1.38025704314546, 1.506036273623046, 0.6109201960430908},
		f: func(x []float64) float64 {
			a, b, c, d, e := x[0]-1, x[0]-x[1], x[2]-1, x[3]-1, x[4]-1
			d2, e2 := d*d, e*e
			return a*a + b*b + c*c + d2*d2 + e2*e2*e2
		},
		df: func(x, g []float64) {
			a, b, c, d, e := x[0]-1, x[0]-x[1], x[2]-1, x[3]-1, x[4]-1
			g[0] = 2*a + 2*b
			g[1] = -2 * b
			g[2] = 2 * c
			g[3] = 4 * d * d * d
			g[4] = 6 * e * e * e * e * e
		},
		c: c46(2*math.Sqrt2, 8+math.Sqrt2), dc: c46Jac,
		d2: func(x []float64, s float64, l []float64, h hess) {
			d, e := x[3]-1, x[4]-1
			h.add(0, 0, 4*s)
			h.add(1, 0, -2*s)
			h.add(1, 1, 2*s)
			h.add(2, 2, 2*s)
			h.add(3, 3, 12*s*d*d)
			h.add(4, 4, 30*s*e*e*e*e)
			c46Hess(x, l, h)
		},
	})
}

// Constraints of problems 78, 80 and 81: Σxᵢ² = 10, x₂x₃ − 5x₄x₅ = 0,
// x₁³ + x₂³ = −1.
func c78(x, c []float64) {
	c[0] = x[0]*x[0] + x[1]*x[1] + x[2]*x[2] + x[3]*x[3] + x[4]*x[4] - 10
	c[1] = x[1]*x[2] - 5*x[3]*x[4]
	c[2] = x[0]*x[0]*x[0] + x[1]*x[1]*x[1] + 1
}

func c78Jac(x []float64, j jac) {
	for k := 0; k < 5; k++ {
		j.set(0, k, 2*x[k])
	}
	j.set(1, 1, x[2])
	j.set(1, 2, x[1])
	j.set(1, 3, -5*x[4])
	j.set(1, 4, -5*x[3])
	j.set(2, 0, 3*x[0]*x[0])
	j.set(2, 1, 3*x[1]*x[1])
}

func c78Hess(x []float64, l []float64, h hess) {
	for k := 0; k < 5; k++ {
		h.add(k, k, 2*l[0])
	}
	h.add(2, 1, l[1])
	h.add(4, 3, -5*l[1])
	h.add(0, 0, 6*x[0]*l[2])
	h.add(1, 1, 6*x[1]*l[2])
}

func hs078() *Problem {
	return build(spec{
		name: "hs078", num: 78, n: 5, kinds: "eee",
		note:  polished,
		x0:    []float64{-2, 1.5, 2, -1, -1},
		fstar: -2.91970041,
		xstar: []float64{-1.717143570394382, 1.595709690183555, 1.827245752927195, -0.7636430781841305, -0.7636430781841304},
		f:     func(x []float64) float64 { return x[0] * x[1] * x[2] * x[3] * x[4] },
		df: func(x, g []float64) {
			for k := 0; k < 5; k++ {
				g[k] = productExcept(x[:5], k, -1)
			}
		},
		c: c78, dc: c78Jac,
		d2: func(x []float64, s float64, l []float64, h hess) {
			for i := 1; i < 5; i++ {
				for k := 0; k < i; k++ {
					h.add(i, k, s*productExcept(x[:5], i, k))
				}
			}
			c78Hess(x, l, h)
		},
	})
}

func hs079() *Problem {
	return build(spec{
		name: "hs079", num: 79, n: 5, kinds: "eee",
		note:  polished,
		x0:    vec(5, 2),
		fstar: 0.0787768209,
		xstar: []float64{1.191127456311051, 1.362603164961742, 1.472817931512088, 1.635016619167993, 1.679081436166408},
		f: func(x []float64) float64 {
			a, b, c, d, e := x[0]-1, x[0]-x[1], x[1]-x[2], x[2]-x[3], x[3]-x[4]
			return a*a + b*b + c*c + d*d*d*d + e*e*e*e
		},
		df: func(x, g []float64) {
			a, b, c, d, e := x[0]-1, x[0]-x[1], x[1]-x[2], x[2]-x[3], x[3]-x[4]
			g[0] = 2*a + 2*b
			g[1] = -2*b + 2*c
			g[2] = -2*c + 4*d*d*d
			g[3] = -4*d*d*d + 4*e*e*e
			g[4] = -4 * e * e * e
		},
		c: c47(2+3*math.Sqrt2, -2+2*math.Sqrt2, 2), dc: c47Jac,
		d2: func(x []float64, s float64, l []float64, h hess) {
			d, e := x[2]-x[3], x[3]-x[4]
			h.add(0, 0, 4*s)
			h.add(1, 0, -2*s)
			h.add(1, 1, 4*s)
			h.add(2, 1, -2*s)
			h.add(2, 2, s*(2+12*d*d))
			h.add(3, 2, -12*s*d*d)
			h.add(3, 3, 12*s*(d*d+e*e))
			h.add(4, 3, -12*s*e*e)
			h.add(4, 4, 12*s*e*e)
			c47Hess(x, l, h)
		},
	})
}

// expProd adds σ times the Hessian of exp(x₁x₂x₃x₄x₅):
// ∂²/∂xᵢ∂xₖ = e·(pᵢpₖ + pᵢₖ) with pᵢ = ∂(Πx)/∂xᵢ, pᵢᵢ = 0.
func expProdHess(x []float64, s float64, h hess) {
	e := s * math.Exp(x[0]*x[1]*x[2]*x[3]*x[4])
	for i := 0; i < 5; i++ {
		pi := productExcept(x[:5], i, -1)
		for k := 0; k <= i; k++ {
			v := pi * productExcept(x[:5], k, -1)
			if k != i {
				v += productExcept(x[:5], i, k)
			}
			h.add(i, k, e*v)
		}
	}
}

func expProdGrad(x, g []float64) {
	e := math.Exp(x[0] * x[1] * x[2] * x[3] * x[4])
	for k := 0; k < 5; k++ {
		g[k] = e * productExcept(x[:5], k, -1)
	}
}

var (
	xl80 = []float64{-2.3, -2.3, -3.2, -3.2, -3.2}
	xu80 = []float64{2.3, 2.3, 3.2, 3.2, 3.2}
)

func hs080() *Problem {
	return build(spec{
		name: "hs080", num: 80, n: 5, kinds: "eee",
		note:  polished,
		x0:    []float64{-2, 2, 2, -1, -1},
		xl:    append([]float64(nil), xl80...),
		xu:    append([]float64(nil), xu80...),
		fstar: 0.0539498478,
		xstar: []float64{-1.717143570394382, 1.595709690183554, 1.827245752927195, -0.7636430781841304, -0.7636430781841304},
		f:     func(x []float64) float64 { return math.Exp(x[0] * x[1] * x[2] * x[3] * x[4]) },
		df:    expProdGrad,
		c:     c78, dc: c78Jac,
		d2: func(x []float64, s float64, l []float64, h hess) {
			expProdHess(x, s, h)
			c78Hess(x, l, h)
		},
	})
}

func hs081() *Problem {
	return build(spec{
		name: "hs081", num: 81, n: 5, kinds: "eee",
		note:  polished,
		x0:    []float64{-2, 2, 2, -1, -1},
		xl:    append([]float64(nil), xl80...),
		xu:    append([]float64(nil), xu80...),
		fstar: 0.0539498478,
		xstar: []float64{-1.717143570394382, 1.595709690183554, 1.827245752927195, -0.7636430781841304, -0.7636430781841304},
		f: func(x []float64) float64 {
			q := x[0]*x[0]*x[0] + x[1]*x[1]*x[1] + 1
			return math.Exp(x[0]*x[1]*x[2]*x[3]*x[4]) - 0.5*q*q
		},
		df: func(x, g []float64) {
			expProdGrad(x, g)
			q := x[0]*x[0]*x[0] + x[1]*x[1]*x[1] + 1
			g[0] -= 3 * q * x[0] * x[0]
			g[1] -= 3 * q * x[1] * x[1]
		},
		c: c78, dc: c78Jac,
		d2: func(x []float64, s float64, l []float64, h hess) {
			expProdHess(x, s, h)
			q := x[0]*x[0]*x[0] + x[1]*x[1]*x[1] + 1
			a, b := x[0]*x[0], x[1]*x[1]
			h.add(0, 0, -s*(9*a*a+6*q*x[0]))
			h.add(1, 1, -s*(9*b*b+6*q*x[1]))
			h.add(1, 0, -9*s*a*b)
			c78Hess(x, l, h)
		},
	})
}
