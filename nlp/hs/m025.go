package hs

import (
	"math"

	"github.com/fesd-go/fesd/ad"
)

// Problems 25–70 of the book that are not in p001–p074, written with book
// (see book.go).

func hs025() *Problem {
	// uᵢ = 25 + (−50 ln(i/100))^(2/3), i = 1, …, 99.
	u := make([]float64, 99)
	for i := range u {
		u[i] = 25 + math.Pow(-50*math.Log(float64(i+1)/100), 2.0/3)
	}
	return build(spec{
		name: "hs025", num: 25, n: 3,
		x0:    []float64{100, 12.5, 3},
		xl:    []float64{0.1, 0, 0},
		xu:    []float64{100, 25.6, 5},
		fstar: 0, xstar: []float64{50, 25, 1.5},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("u", u)
			return b.e("sum(i, 1, 99, sq(-i/100 + exp(-pow(u[i] - x2, x3)/x1)))"), nil
		},
	})
}

func hs054() *Problem {
	return build(spec{
		name: "hs054", num: 54, n: 6, kinds: "e",
		x0:    []float64{6000, 1.5, 4e6, 2, 0.003, 5e7},
		xl:    []float64{0, -10, 0, 0, -1, 0},
		xu:    []float64{2e4, 10, 1e7, 20, 1, 2e8},
		fstar: -math.Exp(-27.0 / 280),
		xstar: []float64{91600.0 / 7, 79.0 / 70, 2e6, 10, 1e-3, 1e8},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.let("h", "(sq(x1 - 1e4)/6.4e7 + (x1 - 1e4)*(x2 - 1)/2e4 + sq(x2 - 1))/0.96"+
				" + sq(x3 - 2e6)/4.9e13 + sq(x4 - 10)/2500 + sq(x5 - 1e-3)/2.5e-3 + sq(x6 - 1e8)/2.5e17")
			return b.e("-exp(-h/2)"), b.es("x1 + 4000*x2 - 17600")
		},
	})
}

// hs057Data are the data (aᵢ, bᵢ), i = 1, …, 44, of problem 57.
var hs057A = []float64{
	8, 8, 10, 10, 10, 10, 12, 12, 12, 12, 14, 14, 14, 16, 16, 16, 18, 18, 20, 20, 20, 22,
	22, 22, 24, 24, 24, 26, 26, 26, 28, 28, 30, 30, 30, 32, 32, 34, 36, 36, 38, 38, 40, 42,
}

var hs057B = []float64{
	0.49, 0.49, 0.48, 0.47, 0.48, 0.47, 0.46, 0.46, 0.45, 0.43, 0.45, 0.43, 0.43, 0.44, 0.43,
	0.43, 0.46, 0.45, 0.42, 0.42, 0.43, 0.41, 0.41, 0.40, 0.42, 0.40, 0.40, 0.41, 0.40, 0.41,
	0.41, 0.40, 0.40, 0.40, 0.38, 0.41, 0.40, 0.40, 0.41, 0.38, 0.40, 0.40, 0.39, 0.39,
}

func hs057() *Problem {
	return build(spec{
		name: "hs057", num: 57, n: 2, kinds: "i",
		x0:    []float64{0.42, 5},
		xl:    []float64{0.4, -4},
		fstar: 0.02845966972, xstar: []float64{0.419952675, 1.284845629},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", hs057A)
			b.vec("b", hs057B)
			return b.e("sum(i, 1, 44, sq(b[i] - x1 - (0.49 - x1)*exp(-x2*(a[i] - 8))))"),
				b.es("0.49*x2 - x1*x2 - 0.09")
		},
	})
}

func hs058() *Problem {
	// x₁² = x₂ and x₁² + x₂² = 1 are active: x₂ = (√5 − 1)/2, x₁ = −√x₂.
	x2 := (math.Sqrt(5) - 1) / 2
	x1 := -math.Sqrt(x2)
	// f* = (1 − x₁)² = 3.1903367443 in closed form; the book prints
	// 3.19033354957, 1.0e-6 lower relatively.
	return build(spec{
		name: "hs058", num: 58, n: 2, kinds: "iii",
		note:  "f* = (1 − x₁*)² in closed form; the book prints 3.19033354957",
		x0:    []float64{-2, 1},
		xl:    []float64{-2, -inf},
		xu:    []float64{0.5, inf},
		fstar: (1 - x1) * (1 - x1), xstar: []float64{x1, x2},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("100*sq(x2 - sq(x1)) + sq(1 - x1)"),
				b.es("sq(x2) - x1", "sq(x1) - x2", "sq(x1) + sq(x2) - 1")
		},
	})
}

func hs059() *Problem {
	// The book prints f* = −7.804226324 at x* = (13.55010424,
	// 51.66018129), where its formula gives −7.80278; the stationary
	// point next to the printed one (polished) has f = −7.8027894715, the
	// value CUTEst's HS59 records.
	return build(spec{
		name: "hs059", num: 59, n: 2, kinds: "iii",
		note:  "f* and XStar: the stationary point next to the printed x*, whose printed f* −7.804226324 the formula does not reproduce",
		x0:    []float64{90, 10},
		xl:    []float64{0, 0},
		xu:    []float64{75, 65},
		fstar: -7.802789471538366, xstar: []float64{13.55014232375912, 51.65997398954286},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-75.196 + 3.8112*x1 - 0.12694*sq(x1) + 0.0020567*pow(x1, 3) - 1.0345e-5*pow(x1, 4)" +
					" + 6.8306*x2 - 0.030234*x1*x2 + 1.28134e-3*x2*sq(x1) + 2.266e-7*pow(x1, 4)*x2" +
					" - 0.25645*sq(x2) + 0.0034604*pow(x2, 3) - 1.3514e-5*pow(x2, 4) + 28.106/(x2 + 1)" +
					" + 5.2375e-6*sq(x1)*sq(x2) + 6.3e-8*pow(x1, 3)*sq(x2) - 7e-10*pow(x1, 3)*pow(x2, 3)" +
					" - 3.405e-4*x1*sq(x2) + 1.6638e-6*x1*pow(x2, 3) + 2.8673*exp(0.0005*x1*x2)" +
					" - 3.5256e-5*pow(x1, 3)*x2"),
				b.es("x1*x2 - 700", "x2 - sq(x1)/125", "sq(x2 - 50) - 5*(x1 - 55)")
		},
	})
}

// phi is the standard normal distribution function and dphi its density.
func phi(t float64) float64  { return 0.5 * math.Erfc(-t/math.Sqrt2) }
func dphi(t float64) float64 { return math.Exp(-t*t/2) / math.Sqrt(2*math.Pi) }

// hs068069 is problems 68 and 69 (the same model with constants a, b, d,
// n): the objective is written with book, the constraints, which need the
// normal distribution function Φ, by hand:
//
//	h₁ = x₃ − 2Φ(−x₂),  h₂ = x₄ − Φ(−x₂ + d√n) − Φ(−x₂ − d√n).
func hs068069(name string, num int, a, bb, d, n, fstar float64, xstar []float64, note string) *Problem {
	s := d * math.Sqrt(n)
	return build(spec{
		name: name, num: num, n: 4, kinds: "ee", note: note,
		x0:    []float64{1, 1, 1, 1},
		xl:    []float64{1e-4, 0, 0, 0},
		xu:    []float64{100, 100, 2, 2},
		fstar: fstar, xstar: xstar,
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.set("a", a)
			b.set("b", bb)
			b.set("n", n)
			return b.e("(a*n - (b*(exp(x1) - 1) - x3)*x4/(exp(x1) - 1 + x4))/x1"), nil
		},
		c: func(x, c []float64) {
			c[0] = x[2] - 2*phi(-x[1])
			c[1] = x[3] - phi(-x[1]+s) - phi(-x[1]-s)
		},
		dc: func(x []float64, j jac) {
			j.set(0, 1, 2*dphi(-x[1]))
			j.set(0, 2, 1)
			j.set(1, 1, dphi(-x[1]+s)+dphi(-x[1]-s))
			j.set(1, 3, 1)
		},
		d2: func(x []float64, _ float64, l []float64, h hess) {
			// d/dx₂ φ(−x₂ + c) = (−x₂ + c)φ(−x₂ + c).
			t0, tp, tm := -x[1], -x[1]+s, -x[1]-s
			h.add(1, 1, l[0]*2*t0*dphi(t0)+l[1]*(tp*dphi(tp)+tm*dphi(tm)))
		},
	})
}

func hs068() *Problem {
	return hs068069("hs068", 68, 1e-4, 1, 1, 24, -0.920425026,
		[]float64{0.06785874, 3.6461717, 0.00026617, 0.8948622}, "")
}

func hs069() *Problem {
	return hs068069("hs069", 69, 0.1, 1000, 1, 4, -956.71288,
		[]float64{0.02937141742170524, 1.190253450406918, 0.2339467906674164, 0.7916678112438019}, polished)
}

// hs070Y are the observations yᵢ, i = 1, …, 19, of problem 70.
var hs070Y = []float64{
	0.00189, 0.1038, 0.268, 0.506, 0.577, 0.604, 0.725, 0.898, 0.947, 0.845,
	0.702, 0.528, 0.385, 0.257, 0.159, 0.0869, 0.0453, 0.01509, 0.00189,
}

func hs070() *Problem {
	// cᵢ = 0.1 for i = 1, cᵢ = i − 1 otherwise.
	c := make([]float64, 19)
	for i := range c {
		c[i] = float64(i)
	}
	c[0] = 0.1
	return build(spec{
		name: "hs070", num: 70, n: 4, kinds: "i",
		x0:    []float64{2, 4, 0.04, 2},
		xl:    []float64{1e-5, 1e-5, 1e-5, 1e-5},
		xu:    []float64{100, 100, 1, 100},
		note:  polished + " (the data fit is flat: x₂ moves in its fifth digit)",
		fstar: 0.007498464, xstar: []float64{12.27697912762911, 4.631748162854866, 0.3128646302256912, 2.02928282534149},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("c", c)
			b.vec("y", hs070Y)
			b.let("b", "x3 + (1 - x3)*x4")
			b.let("p2", "x3*pow(b, x2)*sqrt(x2/6.2832)/(1 + 1/(12*x2))")
			b.let("p1", "(1 - x3)*pow(b/x4, x1)*sqrt(x1/6.2832)/(1 + 1/(12*x1))")
			return b.e("sum(i, 1, 19, sq(p2*pow(c[i]/7.658, x2 - 1)*exp(x2 - b*c[i]*x2/7.658)" +
					" + p1*pow(c[i]/7.658, x1 - 1)*exp(x1 - b*c[i]*x1/(7.658*x4)) - y[i]))"),
				b.es("x3 + (1 - x3)*x4")
		},
	})
}
