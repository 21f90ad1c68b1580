package hs

func hs071() *Problem {
	return build(spec{
		name: "hs071", num: 71, n: 4, kinds: "ie",
		x0:    []float64{1, 5, 5, 1},
		xl:    vec(4, 1),
		xu:    vec(4, 5),
		fstar: 17.0140173,
		xstar: []float64{1, 4.742999643, 3.821149981, 1.379408293},
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
