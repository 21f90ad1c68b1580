package hs

import (
	"fmt"
	"math"
	"strings"

	"github.com/fesd-go/fesd/ad"
)

// Problems 83–99 of the book, written with book (see book.go).

func hs083() *Problem {
	// The book's six inequalities are three range constraints.
	return build(spec{
		name: "hs083", num: 83, n: 5,
		note:  "the pairs of inequalities on one expression as range constraints",
		gl:    []float64{0, 90, 20},
		gu:    []float64{92, 110, 25},
		x0:    []float64{78, 33, 27, 27, 27},
		xl:    []float64{78, 33, 27, 27, 27},
		xu:    []float64{102, 45, 45, 45, 45},
		fstar: -30665.53867, xstar: []float64{78, 33, 29.99525602568159, 45, 36.77581290578823},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("5.3578547*sq(x3) + 0.8356891*x1*x5 + 37.293239*x1 - 40792.141"),
				b.es("85.334407 + 0.0056858*x2*x5 + 0.0006262*x1*x4 - 0.0022053*x3*x5",
					"80.51249 + 0.0071317*x2*x5 + 0.0029955*x1*x2 + 0.0021813*sq(x3)",
					"9.300961 + 0.0047026*x3*x5 + 0.0012547*x1*x3 + 0.0019085*x3*x4")
		},
	})
}

func hs084() *Problem {
	a := []float64{
		-24345, -8720288.849, 150512.5253, -156.6950325, 476470.3222, 729482.8271, -145421.402,
		2931.1506, -40.427932, 5106.192, 15711.36, -155011.1084, 4360.53352, 12.9492344,
		10236.884, 13176.786, -326669.5104, 7390.68412, -27.8986976, 16643.076, 30988.146,
	}
	return build(spec{
		name: "hs084", num: 84, n: 5,
		note:  "the pairs of inequalities on one expression as range constraints",
		gl:    []float64{0, 0, 0},
		gu:    []float64{294000, 294000, 277200},
		x0:    []float64{2.52, 2, 37.5, 9.25, 6.8},
		xl:    []float64{0, 1.2, 20, 9, 6.5},
		xu:    []float64{1000, 2.4, 60, 9.3, 7},
		fstar: -5280335.133, xstar: []float64{4.5374309746554, 2.4, 60, 9.3, 7},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", a)
			return b.e("-a[1] - a[2]*x1 - a[3]*x1*x2 - a[4]*x1*x3 - a[5]*x1*x4 - a[6]*x1*x5"),
				b.es("a[7]*x1 + a[8]*x1*x2 + a[9]*x1*x3 + a[10]*x1*x4 + a[11]*x1*x5",
					"a[12]*x1 + a[13]*x1*x2 + a[14]*x1*x3 + a[15]*x1*x4 + a[16]*x1*x5",
					"a[17]*x1 + a[18]*x1*x2 + a[19]*x1*x3 + a[20]*x1*x4 + a[21]*x1*x5")
		},
	})
}

func hs085() *Problem {
	a := []float64{17.505, 11.275, 214.228, 7.458, 0.961, 1.612, 0.146, 107.99, 922.693, 926.832,
		18.766, 1072.163, 8961.448, 0.063, 71084.33, 2802713}
	bb := []float64{1053.6667, 35.03, 665.585, 584.463, 265.916, 7.046, 0.222, 273.366, 1286.105,
		1444.046, 537.141, 3247.039, 26844.086, 0.386, 140000, 12146108}
	return build(spec{
		name: "hs085", num: 85, n: 5, kinds: strings.Repeat("i", 38),
		x0:    []float64{900, 80, 115, 267, 27},
		xl:    []float64{704.4148, 68.6, 0, 193, 25},
		xu:    []float64{906.3855, 288.88, 134.75, 287.0966, 84.1988},
		note:  "f* as FEX in Schittkowski's PROB.FOR; no XStar: the printed point is not a stationary point of this formulation to 1e-6",
		fstar: -1.905155258,
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", a)
			b.vec("b", bb)
			for _, d := range [][2]string{
				{"y1", "x2 + x3 + 41.6"},
				{"c1", "0.024*x4 - 4.62"},
				{"y2", "12.5/c1 + 12"},
				{"c2", "0.0003535*sq(x1) + 0.5311*x1 + 0.08705*y2*x1"},
				{"c3", "0.052*x1 + 78 + 0.002377*y2*x1"},
				{"y3", "c2/c3"},
				{"y4", "19*y3"},
				{"c4", "0.04782*(x1 - y3) + 0.1956*sq(x1 - y3)/x2 + 0.6376*y4 + 1.594*y3"},
				{"c5", "100*x2"},
				{"c6", "x1 - y3 - y4"},
				{"c7", "0.950 - c4/c5"},
				{"y5", "c6*c7"},
				{"y6", "x1 - y5 - y4 - y3"},
				{"c8", "(y5 + y4)*0.995"},
				{"y7", "c8/y1"},
				{"y8", "c8/3798"},
				{"c9", "y7 - 0.0663*y7/y8 - 0.3153"},
				{"y9", "96.82/c9 + 0.321*y1"},
				{"y10", "1.29*y5 + 1.258*y4 + 2.29*y3 + 1.71*y6"},
				{"y11", "1.71*x1 - 0.452*y4 + 0.580*y3"},
				{"c10", "12.3/752.3"},
				{"c11", "1.75*y2*0.995*x1"},
				{"c12", "0.995*y10 + 1998"},
				{"y12", "c10*x1 + c11/c12"},
				{"y13", "c12 - 1.75*y2"},
				{"y14", "3623 + 64.4*x2 + 58.4*x3 + 146312/(y9 + x5)"},
				{"c13", "0.995*y10 + 60.8*x2 + 48*x4 - 0.1121*y14 - 5095"},
				{"y15", "y13/c13"},
				{"y16", "148000 - 331000*y15 + 40*y13 - 61*y15*y13"},
				{"c14", "2324*y10 - 28740000*y2"},
				{"y17", "14130000 - 1328*y10 - 531*y11 + c14/c12"},
				{"c15", "y13/y15 - y13/0.52"},
				{"c16", "1.104 - 0.72*y15"},
				{"c17", "y9 + x5"},
			} {
				b.let(d[0], d[1])
			}
			// yⱼ₊₁ between aⱼ and bⱼ, j = 1, …, 16, as in the book:
			// 16 lower, then 16 upper constraints.
			g := b.es("1.5*x2 - x3", "y1 - 213.1", "405.23 - y1")
			for j := 1; j <= 16; j++ {
				g = append(g, b.e(fmt.Sprintf("y%d - a[%d]", j+1, j)))
			}
			for j := 1; j <= 16; j++ {
				g = append(g, b.e(fmt.Sprintf("b[%d] - y%d", j, j+1)))
			}
			g = append(g, b.es("y4 - 0.28/0.72*y5", "21 - 3496*y2/c12", "62212/c17 - 110.6 - y1")...)
			return b.e("-5.843e-7*y17 + 1.17e-4*y14 + 2.358e-5*y13 + 1.502e-6*y16 + 0.0321*y12" +
				" + 0.004324*y5 + 1e-4*c15/c16 + 37.48*y2/c12 + 0.1365"), g
		},
	})
}

// hs086A, hs086B, hs086C, hs086D and hs086E are the data of problems 86
// and 117.
var (
	hs086A = [][]float64{
		{-16, 2, 0, 1, 0}, {0, -2, 0, 4, 2}, {-3.5, 0, 2, 0, 0}, {0, -2, 0, -4, -1}, {0, -9, -2, 1, -2.8},
		{2, 0, -4, 0, 0}, {-1, -1, -1, -1, -1}, {-1, -2, -3, -2, -1}, {1, 2, 3, 4, 5}, {1, 1, 1, 1, 1},
	}
	hs086B = []float64{-40, -2, -0.25, -4, -4, -1, -40, -60, 5, 1}
	hs086C = [][]float64{
		{30, -20, -10, 32, -10}, {-20, 39, -6, -31, 32}, {-10, -6, 10, -6, -10},
		{32, -31, -6, 39, -20}, {-10, 32, -10, -20, 30},
	}
	hs086D = []float64{4, 8, 10, 6, 2}
	hs086E = []float64{-15, -27, -36, -18, -12}
)

func hs086() *Problem {
	return build(spec{
		name: "hs086", num: 86, n: 5, kinds: strings.Repeat("i", 10),
		note:  polished,
		x0:    []float64{0, 0, 0, 0, 1},
		xl:    vec(5, 0),
		fstar: -32.34867897, xstar: []float64{0.3, 0.3334676065346071, 0.4, 0.4283101047816987, 0.2239648735607982},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.mat("a", hs086A)
			b.vec("b", hs086B)
			b.mat("c", hs086C)
			b.vec("d", hs086D)
			b.vec("e", hs086E)
			g := make(ad.Vec, 10)
			for i := range g {
				g[i] = b.e(fmt.Sprintf("sum(j, 1, 5, a[%d][j]*x[j]) - b[%d]", i+1, i+1))
			}
			return b.e("sum(j, 1, 5, e[j]*x[j] + sum(i, 1, 5, c[i][j]*x[i]*x[j]) + d[j]*pow(x[j], 3))"), g
		},
	})
}

// hs088Mu are the first 30 positive roots μⱼ of μ tan μ = 1, found by
// bisection on ((j−1)π, (j−1)π + π/2), where μ tan μ − 1 increases from
// −1 to +∞.
var hs088Mu = func() []float64 {
	mu := make([]float64, 30)
	for j := range mu {
		lo, hi := float64(j)*math.Pi, float64(j)*math.Pi+math.Pi/2
		for k := 0; k < 200 && hi-lo > 1e-15*hi; k++ {
			m := (lo + hi) / 2
			if m*math.Tan(m) < 1 {
				lo = m
			} else {
				hi = m
			}
		}
		mu[j] = (lo + hi) / 2
	}
	return mu
}()

// hs088 is problems 88–92: min Σᵢ xᵢ² subject to h(x) ≤ 10⁻⁴, where, with
// rᵢ = xᵢ² + … + xₙ² and the roots μⱼ of μ tan μ = 1,
//
//	ρⱼ(x) = −(e^{−μⱼ²r₁} + 2 Σᵢ₌₂ⁿ (−1)^{i−1} e^{−μⱼ²rᵢ} + (−1)ⁿ)/μⱼ²,
//	Aⱼ = 2 sin μⱼ/(μⱼ + sin μⱼ cos μⱼ),
//	h(x) = 2/15 + Σⱼ₌₁³⁰ (Aⱼ² μⱼ⁴ ρⱼ² (sin μⱼ cos μⱼ/(2μⱼ) + 1/2)
//	                  + 2Aⱼρⱼ (cos μⱼ − sin μⱼ/μⱼ)).
//
// The optimum is not unique (h depends on the xᵢ² only), so no XStar is
// recorded; f* is the same for all five.
func hs088(n int) *Problem {
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = 0.5
		if i%2 == 1 {
			x0[i] = -0.5
		}
	}
	mu := hs088Mu
	a, s2, c4 := make([]float64, 30), make([]float64, 30), make([]float64, 30)
	for j, m := range mu {
		sn, cs := math.Sin(m), math.Cos(m)
		a[j] = 2 * sn / (m + sn*cs)
		s2[j] = sn*cs/(2*m) + 0.5
		c4[j] = 2 * (cs - sn/m)
	}
	return build(spec{
		name: fmt.Sprintf("hs%03d", 86+n), num: 86 + n, n: n, kinds: "i",
		note:  "optimum not unique (h depends on the squares of the variables only)",
		x0:    x0,
		fstar: 1.36265681,
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("mu", mu)
			b.vec("A", a)
			b.vec("S", s2)
			b.vec("C", c4)
			// Eᵢⱼ = e^{−μⱼ² rᵢ} as products of e^{−μⱼ² xₖ²}.
			h := b.g.Const(2.0 / 15)
			for j := 1; j <= 30; j++ {
				b.set("j", float64(j))
				// rho·μ² accumulated from the last variable backwards.
				acc := b.g.Const(1)
				sum := b.g.Const(math.Pow(-1, float64(n)))
				for i := n; i >= 1; i-- {
					acc = acc.Mul(b.e(fmt.Sprintf("exp(-sq(mu[j]*x%d))", i)))
					w := 2 * math.Pow(-1, float64(i-1))
					if i == 1 {
						w = 1
					}
					sum = sum.Add(acc.Scale(w))
				}
				b.names["q"] = val{e: sum} // q = −μⱼ²ρⱼ
				h = h.Add(b.e("sq(A[j]*q)*S[j] - A[j]*q/sq(mu[j])*C[j]"))
			}
			return b.e(fmt.Sprintf("sum(i, 1, %d, sq(x[i]))", n)), ad.Vec{h.Neg().AddConst(1e-4)}
		},
	})
}

func hs088p() *Problem { return hs088(2) }
func hs089() *Problem  { return hs088(3) }
func hs090() *Problem  { return hs088(4) }
func hs091() *Problem  { return hs088(5) }
func hs092() *Problem  { return hs088(6) }

func hs093() *Problem {
	return build(spec{
		name: "hs093", num: 93, n: 6, kinds: "ii",
		note:  polished,
		x0:    []float64{5.54, 4.4, 12.02, 11.82, 0.702, 0.852},
		xl:    vec(6, 0),
		fstar: 135.075961, xstar: []float64{5.332666335528812, 4.656744059172022, 10.43299194046827, 12.08230634006369, 0.7526074362238323, 0.8786508746591394},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.let("s", "x1 + x2 + x3")
			b.let("t", "x1 + 1.57*x2 + x4")
			return b.e("0.0204*x1*x4*s + 0.0187*x2*x3*t + 0.0607*x1*x4*sq(x5)*s + 0.0437*x2*x3*sq(x6)*t"),
				b.es("0.001*x1*x2*x3*x4*x5*x6 - 2.07", "1 - 0.00062*x1*x4*sq(x5)*s - 0.00058*x2*x3*sq(x6)*t")
		},
	})
}

// hs095 is problems 95–98, which differ in the right-hand sides r of the
// four constraints.
func hs095(num int, r [4]float64, fstar float64, xstar []float64) *Problem {
	return build(spec{
		name: fmt.Sprintf("hs%03d", num), num: num, n: 6, kinds: "iiii",
		x0:    vec(6, 0),
		xl:    vec(6, 0),
		xu:    []float64{0.31, 0.046, 0.068, 0.042, 0.028, 0.0134},
		fstar: fstar, xstar: xstar,
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("r", r[:])
			return b.e("4.3*x1 + 31.8*x2 + 63.3*x3 + 15.8*x4 + 68.5*x5 + 4.7*x6"),
				b.es("17.1*x1 + 38.2*x2 + 204.2*x3 + 212.3*x4 + 623.4*x5 + 1495.5*x6 - 169*x1*x3"+
					" - 3580*x3*x5 - 3810*x4*x5 - 18500*x4*x6 - 24300*x5*x6 - r[1]",
					"17.9*x1 + 36.8*x2 + 113.9*x3 + 169.7*x4 + 337.8*x5 + 1385.2*x6 - 139*x1*x3"+
						" - 2450*x4*x5 - 16600*x4*x6 - 17200*x5*x6 - r[2]",
					"-273*x2 - 70*x4 - 819*x5 + 26000*x4*x5 - r[3]",
					"159.9*x1 - 311*x2 + 587*x4 + 391*x5 + 2198*x6 - 14000*x1*x6 - r[4]")
		},
	})
}

func hs095p() *Problem {
	return hs095(95, [4]float64{4.97, -1.88, -29.08, -78.02}, 0.015619514, []float64{0, 0, 0, 0, 0, 0.00332331})
}

func hs096() *Problem {
	return hs095(96, [4]float64{4.97, -1.88, -69.08, -118.02}, 0.015619514, []float64{0, 0, 0, 0, 0, 0.00332331})
}

func hs097() *Problem {
	return hs095(97, [4]float64{32.97, 25.12, -29.08, -78.02}, 3.1358091, []float64{0.2685649, 0, 0, 0, 0.028, 0.0134})
}

func hs098() *Problem {
	return hs095(98, [4]float64{32.97, 25.12, -124.08, -173.02}, 3.1358091, []float64{0.2685649, 0, 0, 0, 0.028, 0.0134})
}

func hs099() *Problem {
	a := []float64{0, 50, 50, 75, 75, 75, 100, 100}
	t := []float64{0, 25, 50, 100, 150, 200, 290, 380}
	return build(spec{
		name: "hs099", num: 99, n: 7, kinds: "ee",
		note:  polished,
		x0:    vec(7, 0.5),
		xl:    vec(7, 0),
		xu:    vec(7, 1.58),
		fstar: -0.831079892e9,
		xstar: []float64{0.5424678162123171, 0.5290214242019767, 0.5084491553164, 0.4802688509618159, 0.4512363497966468, 0.4091830824209854, 0.3527878917811228},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", a)
			b.vec("t", t)
			b.set("r1", 0)
			b.set("s1", 0)
			b.set("q1", 0)
			// rᵢ, sᵢ, qᵢ for i = 2, …, 8 from the recursions of the book.
			for i := 2; i <= 8; i++ {
				b.set("i", float64(i))
				b.let("dt", "t[i] - t[i-1]")
				b.let("u", fmt.Sprintf("a[i]*sin(x%d) - 32", i-1))
				b.let(fmt.Sprintf("r%d", i), fmt.Sprintf("a[i]*dt*cos(x%d) + r%d", i-1, i-1))
				b.let(fmt.Sprintf("q%d", i), fmt.Sprintf("0.5*sq(dt)*u + dt*s%d + q%d", i-1, i-1))
				b.let(fmt.Sprintf("s%d", i), fmt.Sprintf("dt*u + s%d", i-1))
			}
			return b.e("-sq(r8)"), b.es("q8 - 1e5", "s8 - 1e3")
		},
	})
}
