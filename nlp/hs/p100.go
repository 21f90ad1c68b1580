package hs

import "math"

func hs100() *Problem {
	return build(spec{
		name: "hs100", num: 100, n: 7, kinds: "iiii",
		note:  polished,
		x0:    []float64{1, 2, 0, 4, 0, 1, 1},
		fstar: 680.6300573,
		xstar: []float64{2.33049937287957, 1.951372372896889, -0.4775413923888717, 4.36572623365581, -0.6244869705268175, 1.038131018607958, 1.594226711611868},
		f: func(x []float64) float64 {
			a, b, d := x[0]-10, x[1]-12, x[3]-11
			x3sq, x5sq, x7sq := x[2]*x[2], x[4]*x[4], x[6]*x[6]
			return a*a + 5*b*b + x3sq*x3sq + 3*d*d + 10*x5sq*x5sq*x5sq + 7*x[5]*x[5] +
				x7sq*x7sq - 4*x[5]*x[6] - 10*x[5] - 8*x[6]
		},
		df: func(x, g []float64) {
			x5sq := x[4] * x[4]
			g[0] = 2 * (x[0] - 10)
			g[1] = 10 * (x[1] - 12)
			g[2] = 4 * x[2] * x[2] * x[2]
			g[3] = 6 * (x[3] - 11)
			g[4] = 60 * x5sq * x5sq * x[4]
			g[5] = 14*x[5] - 4*x[6] - 10
			g[6] = 4*x[6]*x[6]*x[6] - 4*x[5] - 8
		},
		c: func(x, c []float64) {
			x2sq := x[1] * x[1]
			c[0] = 127 - 2*x[0]*x[0] - 3*x2sq*x2sq - x[2] - 4*x[3]*x[3] - 5*x[4]
			c[1] = 282 - 7*x[0] - 3*x[1] - 10*x[2]*x[2] - x[3] + x[4]
			c[2] = 196 - 23*x[0] - x2sq - 6*x[5]*x[5] + 8*x[6]
			c[3] = -4*x[0]*x[0] - x2sq + 3*x[0]*x[1] - 2*x[2]*x[2] - 5*x[5] + 11*x[6]
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, -4*x[0])
			j.set(0, 1, -12*x[1]*x[1]*x[1])
			j.set(0, 2, -1)
			j.set(0, 3, -8*x[3])
			j.set(0, 4, -5)
			j.set(1, 0, -7)
			j.set(1, 1, -3)
			j.set(1, 2, -20*x[2])
			j.set(1, 3, -1)
			j.set(1, 4, 1)
			j.set(2, 0, -23)
			j.set(2, 1, -2*x[1])
			j.set(2, 5, -12*x[5])
			j.set(2, 6, 8)
			j.set(3, 0, -8*x[0]+3*x[1])
			j.set(3, 1, -2*x[1]+3*x[0])
			j.set(3, 2, -4*x[2])
			j.set(3, 5, -5)
			j.set(3, 6, 11)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			x5sq := x[4] * x[4]
			h.add(0, 0, 2*s-4*l[0]-8*l[3])
			h.add(1, 1, 10*s-36*x[1]*x[1]*l[0]-2*l[2]-2*l[3])
			h.add(1, 0, 3*l[3])
			h.add(2, 2, 12*s*x[2]*x[2]-20*l[1]-4*l[3])
			h.add(3, 3, 6*s-8*l[0])
			h.add(4, 4, 300*s*x5sq*x5sq)
			h.add(5, 5, 14*s-12*l[2])
			h.add(6, 5, -4*s)
			h.add(6, 6, 12*s*x[6]*x[6])
		},
	})
}

func hs106() *Problem {
	return build(spec{
		name: "hs106", num: 106, n: 8, kinds: "iiiiii",
		note:  "heat exchanger design; " + polished,
		x0:    []float64{5000, 5000, 5000, 200, 350, 150, 225, 425},
		xl:    []float64{100, 1000, 1000, 10, 10, 10, 10, 10},
		xu:    []float64{10000, 10000, 10000, 1000, 1000, 1000, 1000, 1000},
		fstar: 7049.248,
		xstar: []float64{579.306684425355, 1359.970668051655, 5109.970668051657, 182.0176995811199, 295.6011732779338, 217.9823004188801, 286.4165263031861, 395.6011732779338},
		f:     func(x []float64) float64 { return x[0] + x[1] + x[2] },
		df:    func(x, g []float64) { g[0], g[1], g[2] = 1, 1, 1 },
		c: func(x, c []float64) {
			c[0] = 1 - 0.0025*(x[3]+x[5])
			c[1] = 1 - 0.0025*(x[4]+x[6]-x[3])
			c[2] = 1 - 0.01*(x[7]-x[4])
			c[3] = x[0]*x[5] - 833.33252*x[3] - 100*x[0] + 83333.333
			c[4] = x[1]*x[6] - 1250*x[4] - x[1]*x[3] + 1250*x[3]
			c[5] = x[2]*x[7] - 1250000 - x[2]*x[4] + 2500*x[4]
		},
		dc: func(x []float64, j jac) {
			j.set(0, 3, -0.0025)
			j.set(0, 5, -0.0025)
			j.set(1, 3, 0.0025)
			j.set(1, 4, -0.0025)
			j.set(1, 6, -0.0025)
			j.set(2, 4, 0.01)
			j.set(2, 7, -0.01)
			j.set(3, 0, x[5]-100)
			j.set(3, 3, -833.33252)
			j.set(3, 5, x[0])
			j.set(4, 1, x[6]-x[3])
			j.set(4, 3, -x[1]+1250)
			j.set(4, 4, -1250)
			j.set(4, 6, x[1])
			j.set(5, 2, x[7]-x[4])
			j.set(5, 4, -x[2]+2500)
			j.set(5, 7, x[2])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(5, 0, l[3])
			h.add(6, 1, l[4])
			h.add(3, 1, -l[4])
			h.add(7, 2, l[5])
			h.add(4, 2, -l[5])
		},
	})
}

// pairs108 lists, for each of the first nine constraints of problem 108,
// 1 − Σ (x_a − x_b)² ≥ 0, the index pairs (a, b) with b < 0 meaning 0.
var pairs108 = [9][2][2]int{
	{{2, -1}, {3, -1}},
	{{8, -1}, {-1, -1}},
	{{4, -1}, {5, -1}},
	{{0, -1}, {1, 8}},
	{{0, 4}, {1, 5}},
	{{0, 6}, {1, 7}},
	{{2, 4}, {3, 5}},
	{{2, 6}, {3, 7}},
	{{6, -1}, {7, 8}},
}

func at(x []float64, i int) float64 {
	if i < 0 {
		return 0
	}
	return x[i]
}

func hs108() *Problem {
	return build(spec{
		name: "hs108", num: 108, n: 9, kinds: "iiiiiiiiiiiii",
		note:  "largest hexagon of unit diameter",
		x0:    vec(9, 1),
		xl:    []float64{-inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, 0},
		fstar: -0.8660254038,
		xstar: []float64{0.8841292, 0.4672425, 0.03742076, 0.9992996, 0.8841292, 0.4672425, 0.03742076, 0.9992996, 0},
		f: func(x []float64) float64 {
			return -0.5 * (x[0]*x[3] - x[1]*x[2] + x[2]*x[8] - x[4]*x[8] + x[4]*x[7] - x[5]*x[6])
		},
		df: func(x, g []float64) {
			g[0] = -0.5 * x[3]
			g[1] = 0.5 * x[2]
			g[2] = -0.5 * (x[8] - x[1])
			g[3] = -0.5 * x[0]
			g[4] = -0.5 * (x[7] - x[8])
			g[5] = 0.5 * x[6]
			g[6] = 0.5 * x[5]
			g[7] = -0.5 * x[4]
			g[8] = -0.5 * (x[2] - x[4])
		},
		c: func(x, c []float64) {
			for i, ps := range pairs108 {
				v := 1.0
				for _, p := range ps {
					d := at(x, p[0]) - at(x, p[1])
					v -= d * d
				}
				c[i] = v
			}
			c[9] = x[0]*x[3] - x[1]*x[2]
			c[10] = x[2] * x[8]
			c[11] = -x[4] * x[8]
			c[12] = x[4]*x[7] - x[5]*x[6]
		},
		dc: func(x []float64, j jac) {
			for i, ps := range pairs108 {
				for _, p := range ps {
					d := at(x, p[0]) - at(x, p[1])
					if p[0] >= 0 {
						j.set(i, p[0], -2*d)
					}
					if p[1] >= 0 {
						j.set(i, p[1], 2*d)
					}
				}
			}
			j.set(9, 0, x[3])
			j.set(9, 3, x[0])
			j.set(9, 1, -x[2])
			j.set(9, 2, -x[1])
			j.set(10, 2, x[8])
			j.set(10, 8, x[2])
			j.set(11, 4, -x[8])
			j.set(11, 8, -x[4])
			j.set(12, 4, x[7])
			j.set(12, 7, x[4])
			j.set(12, 5, -x[6])
			j.set(12, 6, -x[5])
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			h.add(3, 0, -0.5*s)
			h.add(2, 1, 0.5*s)
			h.add(8, 2, -0.5*s)
			h.add(8, 4, 0.5*s)
			h.add(7, 4, -0.5*s)
			h.add(6, 5, 0.5*s)
			for i, ps := range pairs108 {
				for _, p := range ps {
					a, b := p[0], p[1]
					if a >= 0 {
						h.add(a, a, -2*l[i])
					}
					if b >= 0 {
						h.add(b, b, -2*l[i])
					}
					if a >= 0 && b >= 0 {
						h.add(a, b, 2*l[i])
					}
				}
			}
			h.add(3, 0, l[9])
			h.add(2, 1, -l[9])
			h.add(8, 2, l[10])
			h.add(8, 4, -l[11])
			h.add(7, 4, l[12])
			h.add(6, 5, -l[12])
		},
	})
}

func hs110() *Problem {
	const n = 10
	return build(spec{
		name: "hs110", num: 110, n: n,
		note:  "XStar: the stationary point xᵢ = 9.3502658…, which the book prints as 9.35025655",
		x0:    vec(n, 9),
		xl:    vec(n, 2.001),
		xu:    vec(n, 9.999),
		fstar: -45.77846971,
		xstar: vec(n, 9.350265833069384),
		f: func(x []float64) float64 {
			var f float64
			p := 1.0
			for _, v := range x[:n] {
				a, b := math.Log(v-2), math.Log(10-v)
				f += a*a + b*b
				p *= v
			}
			return f - math.Pow(p, 0.2)
		},
		df: func(x, g []float64) {
			p := 1.0
			for _, v := range x[:n] {
				p *= v
			}
			q := math.Pow(p, 0.2)
			for i, v := range x[:n] {
				g[i] = 2*math.Log(v-2)/(v-2) - 2*math.Log(10-v)/(10-v) - 0.2*q/v
			}
		},
		d2: func(x []float64, s float64, _ []float64, h hess) {
			// With q = (Πx)^0.2: ∂²q/∂xᵢ∂xₖ = 0.04q/(xᵢxₖ) for i ≠ k and
			// −0.16q/xᵢ² for i = k.
			p := 1.0
			for _, v := range x[:n] {
				p *= v
			}
			q := math.Pow(p, 0.2)
			for i, v := range x[:n] {
				a, b := v-2, 10-v
				d := 2*(1-math.Log(a))/(a*a) + 2*(1-math.Log(b))/(b*b) + 0.16*q/(v*v)
				h.add(i, i, s*d)
				for k := 0; k < i; k++ {
					h.add(i, k, -s*0.04*q/(v*x[k]))
				}
			}
		},
	})
}

func hs113() *Problem {
	return build(spec{
		name: "hs113", num: 113, n: 10, kinds: "iiiiiiii",
		note:  "Wong problem 2; " + polished,
		x0:    []float64{2, 3, 5, 5, 1, 2, 7, 3, 6, 10},
		fstar: 24.3062091,
		xstar: []float64{2.171996371255456, 2.363682973697279, 8.77392573847685, 5.095984487948453, 0.9906547649638592, 1.430573978936316, 1.321644208161704, 9.82872580788632, 8.280091670098345, 8.375926663921323},
		f: func(x []float64) float64 {
			sq := func(v float64) float64 { return v * v }
			return x[0]*x[0] + x[1]*x[1] + x[0]*x[1] - 14*x[0] - 16*x[1] + sq(x[2]-10) +
				4*sq(x[3]-5) + sq(x[4]-3) + 2*sq(x[5]-1) + 5*x[6]*x[6] + 7*sq(x[7]-11) +
				2*sq(x[8]-10) + sq(x[9]-7) + 45
		},
		df: func(x, g []float64) {
			g[0] = 2*x[0] + x[1] - 14
			g[1] = 2*x[1] + x[0] - 16
			g[2] = 2 * (x[2] - 10)
			g[3] = 8 * (x[3] - 5)
			g[4] = 2 * (x[4] - 3)
			g[5] = 4 * (x[5] - 1)
			g[6] = 10 * x[6]
			g[7] = 14 * (x[7] - 11)
			g[8] = 4 * (x[8] - 10)
			g[9] = 2 * (x[9] - 7)
		},
		c: func(x, c []float64) {
			sq := func(v float64) float64 { return v * v }
			c[0] = 105 - 4*x[0] - 5*x[1] + 3*x[6] - 9*x[7]
			c[1] = -10*x[0] + 8*x[1] + 17*x[6] - 2*x[7]
			c[2] = 8*x[0] - 2*x[1] - 5*x[8] + 2*x[9] + 12
			c[3] = -3*sq(x[0]-2) - 4*sq(x[1]-3) - 2*x[2]*x[2] + 7*x[3] + 120
			c[4] = -5*x[0]*x[0] - 8*x[1] - sq(x[2]-6) + 2*x[3] + 40
			c[5] = -0.5*sq(x[0]-8) - 2*sq(x[1]-4) - 3*x[4]*x[4] + x[5] + 30
			c[6] = -x[0]*x[0] - 2*sq(x[1]-2) + 2*x[0]*x[1] - 14*x[4] + 6*x[5]
			c[7] = 3*x[0] - 6*x[1] - 12*sq(x[8]-8) + 7*x[9]
		},
		dc: func(x []float64, j jac) {
			j.set(0, 0, -4)
			j.set(0, 1, -5)
			j.set(0, 6, 3)
			j.set(0, 7, -9)
			j.set(1, 0, -10)
			j.set(1, 1, 8)
			j.set(1, 6, 17)
			j.set(1, 7, -2)
			j.set(2, 0, 8)
			j.set(2, 1, -2)
			j.set(2, 8, -5)
			j.set(2, 9, 2)
			j.set(3, 0, -6*(x[0]-2))
			j.set(3, 1, -8*(x[1]-3))
			j.set(3, 2, -4*x[2])
			j.set(3, 3, 7)
			j.set(4, 0, -10*x[0])
			j.set(4, 1, -8)
			j.set(4, 2, -2*(x[2]-6))
			j.set(4, 3, 2)
			j.set(5, 0, -(x[0] - 8))
			j.set(5, 1, -4*(x[1]-4))
			j.set(5, 4, -6*x[4])
			j.set(5, 5, 1)
			j.set(6, 0, -2*x[0]+2*x[1])
			j.set(6, 1, -4*(x[1]-2)+2*x[0])
			j.set(6, 4, -14)
			j.set(6, 5, 6)
			j.set(7, 0, 3)
			j.set(7, 1, -6)
			j.set(7, 8, -24*(x[8]-8))
			j.set(7, 9, 7)
		},
		d2: func(x []float64, s float64, l []float64, h hess) {
			for i, d := range [10]float64{2, 2, 2, 8, 2, 4, 10, 14, 4, 2} {
				h.add(i, i, s*d)
			}
			h.add(1, 0, s+2*l[6])
			h.add(0, 0, -6*l[3]-10*l[4]-l[5]-2*l[6])
			h.add(1, 1, -8*l[3]-4*l[5]-4*l[6])
			h.add(2, 2, -4*l[3]-2*l[4])
			h.add(4, 4, -6*l[5])
			h.add(8, 8, -24*l[7])
		},
	})
}

func hs118() *Problem {
	const n = 15
	x0 := []float64{20, 55, 15, 20, 60, 20, 20, 60, 20, 20, 60, 20, 20, 60, 20}
	xl := vec(n, 0)
	xu := make([]float64, n)
	xl[0], xl[1], xl[2] = 8, 43, 3
	xu[0], xu[1], xu[2] = 21, 57, 16
	for k := 1; k < 5; k++ {
		xu[3*k], xu[3*k+1], xu[3*k+2] = 90, 120, 60
	}
	// Constraints 0–11: the ramp limits 0 ≤ x_{3j+i} − x_{3(j−1)+i} + 7 ≤ uᵢ
	// for j = 1…4, i = 0, 1, 2 (as range constraints); 12–16: demand
	// x_{3k} + x_{3k+1} + x_{3k+2} ≥ dₖ.
	gl, gu := make([]float64, 17), make([]float64, 17)
	for j := 1; j < 5; j++ {
		for i, u := range [3]float64{13, 14, 13} {
			r := 3*(j-1) + i
			gl[r], gu[r] = 0, u
		}
	}
	for k := 0; k < 5; k++ {
		gu[12+k] = inf
	}
	demand := [5]float64{60, 50, 70, 85, 100}
	lin := [3]float64{2.3, 1.7, 2.2}
	quad := [3]float64{0.0001, 0.0001, 0.00015}
	return build(spec{
		name: "hs118", num: 118, n: n, gl: gl, gu: gu,
		note:  "the book's 24 one-sided ramp inequalities are 12 range constraints here",
		x0:    x0,
		xl:    xl,
		xu:    xu,
		fstar: 664.8204500,
		xstar: []float64{8, 49, 3, 1, 56, 0, 1, 63, 6, 3, 70, 12, 5, 77, 18},
		f: func(x []float64) float64 {
			var f float64
			for k, v := range x[:n] {
				f += lin[k%3]*v + quad[k%3]*v*v
			}
			return f
		},
		df: func(x, g []float64) {
			for k, v := range x[:n] {
				g[k] = lin[k%3] + 2*quad[k%3]*v
			}
		},
		c: func(x, c []float64) {
			for r := 0; r < 12; r++ {
				c[r] = x[r+3] - x[r] + 7
			}
			for k := 0; k < 5; k++ {
				c[12+k] = x[3*k] + x[3*k+1] + x[3*k+2] - demand[k]
			}
		},
		dc: func(x []float64, j jac) {
			for r := 0; r < 12; r++ {
				j.set(r, r+3, 1)
				j.set(r, r, -1)
			}
			for k := 0; k < 5; k++ {
				for i := 0; i < 3; i++ {
					j.set(12+k, 3*k+i, 1)
				}
			}
		},
		d2: func(x []float64, s float64, _ []float64, h hess) {
			for k := 0; k < n; k++ {
				h.add(k, k, 2*s*quad[k%3])
			}
		},
	})
}
