package hs

import (
	"math"
	"strconv"

	"github.com/fesd-go/fesd/ad"
)

// tpC lists problems 321–395 of K. Schittkowski, More Test Examples for
// Nonlinear Programming Codes (1987), in order of their number (those of
// 348–393 are written in tp2d.go, tp2e.go and tp2f.go).
var tpC = []entry{
	{"hs321", hs321}, {"hs322", hs322}, {"hs323", hs323}, {"hs324", hs324}, {"hs325", hs325},
	{"hs326", hs326}, {"hs327", hs327}, {"hs328", hs328}, {"hs329", hs329}, {"hs330", hs330},
	{"hs331", hs331}, {"hs333", hs333}, {"hs334", hs334}, {"hs335", hs335}, {"hs336", hs336},
	{"hs337", hs337}, {"hs338", hs338}, {"hs339", hs339}, {"hs340", hs340}, {"hs341", hs341},
	{"hs343", hs343}, {"hs344", hs344}, {"hs345", hs345}, {"hs347", hs347}, {"hs348", hs348},
	{"hs350", hs350}, {"hs351", hs351}, {"hs352", hs352}, {"hs353", hs353}, {"hs354", hs354},
	{"hs355", hs355}, {"hs356", hs356}, {"hs360", hs360}, {"hs361", hs361}, {"hs365", hs365},
	{"hs366", hs366}, {"hs367", hs367}, {"hs368", hs368}, {"hs369", hs369}, {"hs370", hs370},
	{"hs371", hs371}, {"hs372", hs372}, {"hs373", hs373}, {"hs374", hs374}, {"hs375", hs375},
	{"hs378", hs378}, {"hs379", hs379}, {"hs380", hs380}, {"hs381", hs381}, {"hs382", hs382},
	{"hs384", hs384}, {"hs385", hs385}, {"hs386", hs386}, {"hs387", hs387}, {"hs388", hs388},
	{"hs389", hs389}, {"hs391", hs391}, {"hs392", hs392}, {"hs393", hs393}, {"hs394", hs394},
	{"hs395", hs395},
}

// hs321ellipse is problems 321 and 322 (the last two of the family
// 316–322): the point of the ellipse x₁²/100 + x₂²/d = 1 nearest to
// (20, −20).
func hs321ellipse(num int, d float64, x0 []float64, fstar float64, xstar []float64) *Problem {
	return build(spec{
		name: "hs" + strconv.Itoa(num), num: num, n: 2, kinds: "e",
		x0:    x0,
		fstar: fstar, xstar: xstar,
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.set("d", d)
			return b.e("sq(x1 - 20) + sq(x2 + 20)"), b.es("0.01*sq(x1) + sq(x2)/d - 1")
		},
	})
}

func hs321() *Problem {
	return hs321ellipse(321, 1, []float64{0, 0}, 496.11237, []float64{9.816029251396525, -0.1909337512261373})
}
func hs322() *Problem {
	return hs321ellipse(322, 0.01, []float64{0.0001, 0.0001}, 499.96001, []float64{9.998001797743356, -0.001999001058544279})
}

func hs323() *Problem {
	return build(spec{
		name: "hs323", num: 323, n: 2, kinds: "ii",
		x0:    []float64{0, 1},
		xl:    vec(2, 0),
		fstar: 3.7989446,
		xstar: []float64{0.5535737845058154, 1.306443924892139},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1) + sq(x2) - 4*x1 + 4"), b.es("x1 - x2 + 2", "-sq(x1) + x2 - 1")
		},
	})
}

func hs324() *Problem {
	return build(spec{
		name: "hs324", num: 324, n: 2, kinds: "ii",
		x0:    []float64{2, 2},
		xl:    []float64{2, math.Inf(-1)},
		fstar: 5,
		xstar: []float64{math.Sqrt(250), math.Sqrt(2.5)},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("0.01*sq(x1) + sq(x2)"), b.es("x1*x2 - 25", "sq(x1) + sq(x2) - 25")
		},
	})
}

func hs325() *Problem {
	return build(spec{
		name: "hs325", num: 325, n: 2, kinds: "iie",
		x0:    []float64{-3, 0},
		fstar: 3.7913414,
		xstar: []float64{-2.372281321528259, -1.836377230181244},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1) + x2"), b.es("1 - x1 - x2", "1 - x1 - sq(x2)", "sq(x1) + sq(x2) - 9")
		},
	})
}

func hs326() *Problem {
	return build(spec{
		name: "hs326", num: 326, n: 2, kinds: "ii",
		x0:    []float64{4, 3},
		xl:    vec(2, 0),
		fstar: -79.807821,
		xstar: []float64{5.239609117416578, 3.746037752796097},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1) + sq(x2) - 16*x1 - 10*x2"),
				b.es("11 - sq(x1) + 6*x1 - 4*x2", "x1*x2 - 3*x2 - exp(x1 - 3) + 1")
		},
	})
}

func hs327() *Problem {
	return build(spec{
		name: "hs327", num: 327, n: 2, kinds: "i",
		note:  "from the start, f decreases to 0.0306476 as x₂ → ∞; the optimum has the constraint active",
		x0:    []float64{0.42, 5},
		xl:    vec(2, 0.4),
		fstar: 0.028459670,
		xstar: []float64{0.4199526504435891, 1.2848451878614011},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("y", []float64{0.49, 0.49, 0.48, 0.47, 0.48, 0.47, 0.46, 0.46, 0.45, 0.43,
				0.45, 0.43, 0.43, 0.44, 0.43, 0.43, 0.46, 0.45, 0.42, 0.42,
				0.43, 0.41, 0.41, 0.40, 0.42, 0.40, 0.40, 0.41, 0.40, 0.41,
				0.41, 0.40, 0.40, 0.40, 0.38, 0.41, 0.40, 0.40, 0.41, 0.38,
				0.40, 0.40, 0.39, 0.39})
			b.vec("z", []float64{8, 8, 10, 10, 10, 10, 12, 12, 12, 12,
				14, 14, 14, 16, 16, 16, 18, 18, 20, 20,
				20, 22, 22, 22, 24, 24, 24, 26, 26, 26,
				28, 28, 30, 30, 30, 32, 32, 34, 36, 36,
				38, 38, 40, 42})
			return b.e("sum(i, 1, 44, sq(y[i] - x1 - (0.49 - x1)*exp(-x2*(z[i] - 8))))"),
				b.es("-0.09 - x1*x2 + 0.49*x2")
		},
	})
}

func hs328() *Problem {
	return build(spec{
		name: "hs328", num: 328, n: 2,
		note:  "bounds 0.1 ≤ xᵢ ≤ 3 (one translation of PROB.FOR has 1 ≤ xᵢ ≤ 3; inactive at the optimum either way)",
		x0:    []float64{0.5, 0.5},
		xl:    vec(2, 0.1),
		xu:    vec(2, 3),
		fstar: 1.7441520055,
		xstar: []float64{1.743452086940776, 2.029694709951311},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("0.1*(12 + sq(x1) + (1 + sq(x2))/sq(x1) + (sq(x1*x2) + 100)/pow(x1*x2, 4))"), nil
		},
	})
}

func hs329() *Problem {
	return build(spec{
		name: "hs329", num: 329, n: 2, kinds: "iii",
		x0:    []float64{14.35, 8.6},
		xl:    []float64{13, 0},
		xu:    []float64{16, 15},
		fstar: -6961.8139,
		xstar: []float64{14.095, 5 - math.Sqrt(100-9.095*9.095)},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("pow(x1 - 10, 3) + pow(x2 - 20, 3)"),
				b.es("sq(x1 - 5) + sq(x2 - 5) - 100", "sq(x1 - 6) + sq(x2 - 5)", "82.81 - sq(x1 - 6) - sq(x2 - 5)")
		},
	})
}

func hs330() *Problem {
	return build(spec{
		name: "hs330", num: 330, n: 2, kinds: "i",
		x0:    []float64{2.5, 2.5},
		xl:    vec(2, 0.0001),
		xu:    vec(2, 5),
		fstar: 1.6205833,
		xstar: []float64{1.286677507727257, 0.530461842255632},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("0.044*pow(x1, 3)/sq(x2) + 1/x1 + 0.0592*x1/pow(x2, 3)"),
				b.es("1 - 8.62*pow(x2, 3)/x1")
		},
	})
}

func hs331() *Problem {
	return build(spec{
		name: "hs331", num: 331, n: 2, kinds: "i",
		note: "f = ln|2 ln x₂ / ln(x₁ + x₂)| / x₁, written without the absolute value (both logarithms are negative on the feasible set); " +
			"PROB.FOR gives f* = 4.258 (four digits), FStar is f(x*) of the formulation",
		x0:    []float64{0.5, 0.1},
		xl:    []float64{0.3, 0.1},
		xu:    []float64{0.7, 0.2},
		fstar: 4.2583846832,
		xstar: []float64{0.6189551507128735, 0.1035582207905952},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("log(2*log(x2)/log(x1 + x2))/x1"), b.es("1 - x1 - x2")
		},
	})
}

func hs333() *Problem {
	return build(spec{
		name: "hs333", num: 333, n: 3,
		note:  "PROB.FOR gives f* = 0.0432 (three digits), FStar is f(x*) of the formulation",
		x0:    []float64{30, 0.04, 3},
		fstar: 0.043270354037,
		xstar: []float64{89.90199291450052, 0.06699204350366296, 0.4780852008549674},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", []float64{4, 5.75, 7.5, 24, 32, 48, 72, 96})
			b.vec("y", []float64{72.1, 65.6, 55.9, 17.1, 9.8, 4.5, 1.3, 0.6})
			return b.e("sum(i, 1, 8, sq((y[i] - x1*exp(-x2*a[i]) - x3)/y[i]))"), nil
		},
	})
}

func hs334() *Problem {
	return build(spec{
		name: "hs334", num: 334, n: 3,
		x0:    []float64{1, 1, 1},
		fstar: 0.0082148773,
		xstar: []float64{0.08241055974977761, 1.133036092029212, 2.343695178643031},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("y", []float64{0.14, 0.18, 0.22, 0.25, 0.29, 0.32, 0.35, 0.39, 0.37, 0.58, 0.73, 0.96, 1.34, 2.10, 4.39})
			b.vec("w", []float64{1, 2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2, 1})
			return b.e("sum(i, 1, 15, sq(y[i] - x1 - i/(x2*(16 - i) + x3*w[i])))"), nil
		},
	})
}

func hs335() *Problem {
	return build(spec{
		name: "hs335", num: 335, n: 3, kinds: "ee",
		x0:    []float64{1, 1, 1},
		fstar: -0.0044721370,
		xstar: []float64{2.032788608440054e-06, 0.004472134938605406, 0.002000003223138993},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-(0.001*x1 + x2)"),
				b.es("1000*sq(x1) + 100*sq(x2) - x3", "100*sq(x1) + 400*sq(x2) + x3 - 0.01")
		},
	})
}

func hs336() *Problem {
	return build(spec{
		name: "hs336", num: 336, n: 3, kinds: "ee",
		x0:    []float64{0, 0, 0},
		fstar: -0.33789573,
		xstar: []float64{0.5345944366074574, 0.5339705085400277, -0.2190584247541916},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("7*x1 - 6*x2 + 4*x3"),
				b.es("5*x1 + 5*x2 - 3*x3 - 6", "sq(x1) + 2*sq(x2) + 3*sq(x3) - 1")
		},
	})
}

func hs337() *Problem {
	return build(spec{
		name: "hs337", num: 337, n: 3, kinds: "i",
		x0:    []float64{1, 1, 1},
		xl:    []float64{math.Inf(-1), 1, math.Inf(-1)},
		xu:    []float64{math.Inf(1), math.Inf(1), 1},
		fstar: 6,
		xstar: []float64{1 / math.Sqrt(3), math.Sqrt(3), 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("9*sq(x1) + sq(x2) + 9*sq(x3)"), b.es("x1*x2 - 1")
		},
	})
}

func hs338() *Problem {
	return build(spec{
		name: "hs338", num: 338, n: 3, kinds: "ee",
		x0:    []float64{0, 0, 0},
		fstar: -10.992806,
		xstar: []float64{-0.3665301177595682, -1.662075949869818, 2.845341008749602},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-(sq(x1) + sq(x2) + sq(x3))"),
				b.es("0.5*x1 + x2 + x3 - 1", "sq(x1) + 2*sq(x2)/3 + 0.25*sq(x3) - 4")
		},
	})
}

func hs339() *Problem {
	return build(spec{
		name: "hs339", num: 339, n: 3, kinds: "i",
		x0:    []float64{1, 1, 1},
		xl:    vec(3, 0.01),
		fstar: 3.3616797,
		xstar: []float64{2.379762720972033, 0.316227766016988, 1.942935923737518},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("0.2/(x1*x2*x3) + 4/x1 + 3/x3"), b.es("10 - 2*x1*x3 - x1*x2")
		},
	})
}

func hs340() *Problem {
	return build(spec{
		name: "hs340", num: 340, n: 3, kinds: "i",
		x0:    []float64{1, 1, 1},
		xl:    vec(3, 0),
		xu:    []float64{1, math.Inf(1), math.Inf(1)},
		fstar: -0.054,
		xstar: []float64{0.6, 0.3, 0.3},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-x1*x2*x3"), b.es("1.8 - x1 - 2*x2 - 2*x3")
		},
	})
}

func hs341() *Problem {
	return build(spec{
		name: "hs341", num: 341, n: 3, kinds: "i",
		x0:    []float64{1, 1, 1},
		xl:    vec(3, 0),
		fstar: -22.627417,
		xstar: []float64{4, 2 * math.Sqrt2, 2},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-x1*x2*x3"), b.es("48 - sq(x1) - 2*sq(x2) - 4*sq(x3)")
		},
	})
}

func hs343() *Problem {
	return build(spec{
		name: "hs343", num: 343, n: 3, kinds: "ii",
		x0:    []float64{22.3, 0.5, 125},
		xl:    vec(3, 0),
		xu:    []float64{36, 5, 125},
		fstar: -5.6847825,
		xstar: []float64{13.30883491723412, 3.810866162429306, 48.63702232818558},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-0.0201e-6*pow(x1, 4)*x2*sq(x3)"),
				b.es("675 - sq(x1)*x2", "0.419 - 1e-6*sq(x1)*sq(x3)")
		},
	})
}

// hs344p is problems 344 and 345, which differ in the starting point.
func hs344p(num int, x0 float64) *Problem {
	return build(spec{
		name: "hs" + strconv.Itoa(num), num: num, n: 3, kinds: "e",
		x0:    vec(3, x0),
		fstar: 0.032568200,
		xstar: []float64{1.104859019733317, 1.196674182288257, 1.535262260325326},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1 - 1) + sq(x1 - x2) + pow(x2 - x3, 4)"),
				b.es("x1*(1 + sq(x2)) + pow(x3, 4) - 4 - 3*sqrt(2)")
		},
	})
}

func hs344() *Problem { return hs344p(344, 2) }
func hs345() *Problem { return hs344p(345, 0) }

func hs347() *Problem {
	return build(spec{
		name: "hs347", num: 347, n: 3, kinds: "e",
		note:  "no XStar: the optimum x* = (0, 0, 1) is a vertex where the equality and the bounds x₁, x₂ ≥ 0, x₃ ≤ 1 are dependent",
		x0:    []float64{0.7, 0.2, 0.1},
		xl:    vec(3, 0),
		xu:    vec(3, 1),
		fstar: 17374.625,
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("8204.37*log((x1 + x2 + x3 + 0.03)/(0.09*x1 + x2 + x3 + 0.03))" +
					" + 9008.72*log((x2 + x3 + 0.03)/(0.07*x2 + x3 + 0.03))" +
					" + 9330.46*log((x3 + 0.03)/(0.13*x3 + 0.03))"),
				b.es("x1 + x2 + x3 - 1")
		},
	})
}

func hs350() *Problem {
	return build(spec{
		name: "hs350", num: 350, n: 4,
		x0:    []float64{0.25, 0.39, 0.415, 0.39},
		fstar: 0.30750561e-3,
		xstar: []float64{0.1928069345790381, 0.1912823287343591, 0.1230565069263181, 0.1360623306837916},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("y", []float64{0.1957, 0.1947, 0.1735, 0.1600, 0.0844, 0.0627, 0.0456, 0.0342, 0.0323, 0.0235, 0.0246})
			b.vec("u", []float64{4, 2, 1, 0.5, 0.25, 0.167, 0.125, 0.1, 0.0833, 0.0714, 0.0625})
			return b.e("sum(i, 1, 11, sq(y[i] - x1*(sq(u[i]) + x2*u[i])/(sq(u[i]) + x3*u[i] + x4)))"), nil
		},
	})
}

func hs351() *Problem {
	return build(spec{
		name: "hs351", num: 351, n: 4,
		x0:    []float64{2.7, 90, 1500, 10},
		fstar: 318.57175,
		xstar: []float64{2.714366059869293, 140.4358059703041, 1707.515616647087, 31.51286927231662},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", []float64{0, 0.000428, 0.001, 0.00161, 0.00209, 0.00348, 0.00525})
			b.vec("y", []float64{7.391, 11.18, 16.44, 16.20, 22.20, 24.02, 31.32})
			return b.e("sum(i, 1, 7, sq(100*((sq(x1) + a[i]*sq(x2) + sq(a[i])*sq(x3))/(1 + a[i]*sq(x4)) - y[i])/y[i]))"), nil
		},
	})
}

func hs352() *Problem {
	return build(spec{
		name: "hs352", num: 352, n: 4,
		x0:    []float64{25, 5, -5, -1},
		fstar: 903.23433,
		xstar: []float64{-10.22357359983394, 11.90842868359842, -0.4580411953837462, 0.5803196957938905},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sum(i, 1, 20, sq(x1 + 0.2*i*x2 - exp(0.2*i)) + sq(x3 + x4*sin(0.2*i) - cos(0.2*i)))"), nil
		},
	})
}

func hs353() *Problem {
	return build(spec{
		name: "hs353", num: 353, n: 4, kinds: "iie",
		x0:    []float64{0, 0, 0.4, 0.6},
		xl:    vec(4, 0),
		fstar: -39.933673,
		xstar: []float64{0, 0, 0.3775510247959969, 0.6224489952039857},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-(24.55*x1 + 26.75*x2 + 39*x3 + 40.5*x4)"),
				b.es("2.3*x1 + 5.6*x2 + 11.1*x3 + 1.3*x4 - 5",
					"12*x1 + 11.9*x2 + 41.8*x3 + 52.1*x4 - 1.645*sqrt(sq(0.53*x1) + sq(0.44*x2) + sq(4.5*x3) + sq(0.79*x4)) - 12",
					"x1 + x2 + x3 + x4 - 1")
		},
	})
}

func hs354() *Problem {
	return build(spec{
		name: "hs354", num: 354, n: 4, kinds: "i",
		x0:    []float64{3, -1, 0, 1},
		xu:    vec(4, 20),
		fstar: 0.11378385,
		xstar: []float64{0.5033179286146275, -0.0455611669430692, 0.2358189823685942, 0.3064242459608189},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1 + 10*x2) + 5*sq(x3 - x4) + pow(x2 - 2*x3, 4) + 10*pow(x1 - x4, 4)"),
				b.es("x1 + x2 + x3 + x4 - 1")
		},
	})
}

func hs355() *Problem {
	return build(spec{
		name: "hs355", num: 355, n: 4, kinds: "e",
		x0:    []float64{0.1, 0.1, 0, 0},
		xl:    []float64{0.1, 0.1, 0, 0},
		fstar: 69.675463,
		xstar: []float64{1.916633042613333, 0.1, 0, 1.971811793946804},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.let("r1", "11 - x1*x4 - x2*x4 + x3*x4")
			b.let("r2", "x1 + 10*x2 - x3 + x4 + x2*x4*(x3 - x1)")
			b.let("r3", "11 - 4*x1*x4 - 4*x2*x4 + x3*x4")
			b.let("r4", "2*x1 + 20*x2 - 0.5*x3 + 2*x4 + 2*x2*x4*(x3 - 4*x1)")
			return b.e("sq(r1) + sq(r2)"), b.es("sq(r1) + sq(r2) - sq(r3) - sq(r4)")
		},
	})
}

// hs359a etc. are the data of problems 360 and 361 (and 359).
var (
	hs359a = []float64{-8720288.849, 150512.5253, -156.6950325, 476470.3222, 729482.8271}
	hs359b = []float64{-145421.402, 2931.1506, -40.427932, 5106.192, 15711.36}
	hs359c = []float64{-155011.1084, 4360.53352, 12.9492344, 10236.884, 13176.786}
	hs359d = []float64{-326669.5104, 7390.68412, -27.8986976, 16643.076, 30988.146}
)

func hs360() *Problem {
	return build(spec{
		name: "hs360", num: 360, n: 5, kinds: "ii",
		note:  "a₂ = 150512.5253 as in problem 361 (a translation of PROB.FOR has 150512.5233 here; f* changes by 4·10⁻⁹ relative)",
		x0:    []float64{2.52, 2, 37.5, 9.25, 6.8},
		xl:    []float64{0, 1.2, 20, 9, 6.5},
		xu:    []float64{math.Inf(1), 2.4, 60, 9.3, 7},
		fstar: -5280335.1,
		xstar: []float64{4.537430686656372, 2.4, 60, 9.300000000000001, 7},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", hs359a)
			b.vec("d", hs359d)
			b.let("h", "x1*(d[1] + sum(i, 2, 5, d[i]*x[i]))")
			return b.e("24345 - x1*(a[1] + sum(i, 2, 5, a[i]*x[i]))"), b.es("h", "277200 - h")
		},
	})
}

func hs361() *Problem {
	return build(spec{
		name: "hs361", num: 361, n: 5, kinds: "iiiiii",
		x0:    []float64{2.52, 2, 37.5, 9.25, 6.8},
		xl:    []float64{0, 1.2, 20, 9, math.Inf(-1)},
		xu:    []float64{math.Inf(1), 2.4, 60, 9.3, 7},
		fstar: -776412.12,
		xstar: []float64{0.6812860154005993, 2.4, 20, 9.300000000000001, 7},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", hs359a)
			b.vec("b", hs359b)
			b.vec("c", hs359c)
			b.vec("d", hs359d)
			b.let("hb", "x1*(b[1] + sum(i, 2, 5, b[i]*x[i]))")
			b.let("hc", "x1*(c[1] + sum(i, 2, 5, c[i]*x[i]))")
			b.let("hd", "x1*(d[1] + sum(i, 2, 5, d[i]*x[i]))")
			return b.e("24345 - x1*(a[1] + sum(i, 2, 5, a[i]*x[i]))"),
				b.es("hb", "hc", "hd", "29400 - hb", "29400 - hc", "277200 - hd")
		},
	})
}

// hs370p is Watson's function, problems 370 (n = 6) and 371 (n = 9).
func hs370p(num, n int, fstar float64, xstar []float64) *Problem {
	return build(spec{
		name: "hs" + strconv.Itoa(num), num: num, n: n,
		x0:    vec(n, 0),
		fstar: fstar, xstar: xstar,
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.set("n", float64(n))
			return b.e("sq(x1) + sq(x2 - sq(x1) - 1) + sum(i, 1, 29, sq(sum(j, 2, n, (j - 1)*x[j]*pow(i/29, j - 2))" +
				" - sq(sum(j, 1, n, x[j]*pow(i/29, j - 1))) - 1))"), nil
		},
	})
}

func hs370() *Problem {
	return hs370p(370, 6, 0.228767005e-2, []float64{-0.01572508640167906, 1.012434869369088, -0.2329916259565947,
		1.260430087798049, -1.513728922719893, 0.9929964324296643})
}
func hs371() *Problem {
	return hs370p(371, 9, 0.139976e-5, []float64{-1.530703652189105e-05, 0.9997897039319482, 0.01476396369356013,
		0.1463423282993225, 1.00082110300489, -2.617731140519437, 4.104403164479383, -3.143612278556779, 1.052626408010253})
}

// hs372p is problems 372 (inequalities) and 373 (equalities).
func hs372p(num int, eq bool, x0 []float64, fstar float64, xstar []float64) *Problem {
	kinds := "iiiiiiiiiiii"
	if eq {
		kinds = "eeeeee"
	}
	xl := []float64{math.Inf(-1), math.Inf(-1), math.Inf(-1), 0, 0, 0, 0, 0, 0}
	if eq {
		xl = nil
	}
	return build(spec{
		name: "hs" + strconv.Itoa(num), num: num, n: 9, kinds: kinds,
		x0:    x0,
		xl:    xl,
		fstar: fstar, xstar: xstar,
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("y", []float64{127, 151, 379, 421, 460, 426})
			var g ad.Vec
			for i := 1; i <= 6; i++ {
				r := "x1 + x2*exp(" + strconv.Itoa(2*i-7) + "*x3) - y[" + strconv.Itoa(i) + "]"
				s := "x" + strconv.Itoa(i+3)
				g = append(g, b.e(r+" + "+s))
			}
			if !eq {
				for i := 1; i <= 6; i++ {
					r := "x1 + x2*exp(" + strconv.Itoa(2*i-7) + "*x3) - y[" + strconv.Itoa(i) + "]"
					g = append(g, b.e("x"+strconv.Itoa(i+3)+" - ("+r+")"))
				}
			}
			return b.e("sum(i, 4, 9, sq(x[i]))"), g
		},
	})
}

func hs372() *Problem {
	return hs372p(372, false, []float64{300, -100, -0.1997, 127, 151, 379, 421, 460, 426}, 13390.093,
		[]float64{523.3055386243934, -156.9478435084101, -0.1996645690556501, 29.6080101209503, 86.61555475718119,
			47.32670014939369, 26.23559691917401, 22.91598460336824, 39.47073703570494})
}

func hs373() *Problem {
	return hs372p(373, true, []float64{300, -100, -0.1997, -127, -151, 379, 421, 460, 426}, 13390.093,
		[]float64{523.3055386212442, -156.9478435015168, -0.1996645690607455, 29.60801012624407, -86.6155547722126,
			47.32670015510269, 26.23559692602259, 22.91598461141254, -39.4707370465693})
}

func hs378() *Problem {
	return build(spec{
		name: "hs378", num: 378, n: 10, kinds: "eee",
		x0:    vec(10, -2.3),
		xl:    vec(10, -16),
		xu:    vec(10, -0.1),
		fstar: -47.761091,
		xstar: []float64{-3.202311588551688, -1.912366597080827, -0.2444267477504171, -6.561177271662501, -0.7230979632952893, -7.274232280192097, -3.597237422328006, -4.020316730691549, -3.288376881360034, -2.334371739220323},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", []float64{-6.089, -17.164, -34.054, -5.914, -24.721, -14.986, -24.1, -10.708, -26.662, -22.179})
			b.let("s", "log(sum(j, 1, 10, exp(x[j])))")
			return b.e("sum(i, 1, 10, exp(x[i])*(a[i] + x[i] - s))"),
				b.es("exp(x1) + 2*exp(x2) + 2*exp(x3) + exp(x6) + exp(x10) - 2",
					"exp(x4) + 2*exp(x5) + exp(x6) + exp(x7) - 1",
					"exp(x3) + exp(x7) + exp(x8) + 2*exp(x9) + exp(x10) - 1")
		},
	})
}

func hs379() *Problem {
	return build(spec{
		name: "hs379", num: 379, n: 11,
		x0:    []float64{1.3, 0.65, 0.65, 0.7, 0.6, 3, 5, 7, 2, 4.5, 5.5},
		fstar: 0.0401377,
		xstar: []float64{1.309977154627288, 0.4315537946029516, 0.6336616989607166, 0.5994305347858805, 0.7541832263279094, 0.9042885798598581, 1.365811835236799, 4.82369881722749, 2.398684866131767, 4.568874597667676, 5.675341470580654},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("y", []float64{1.366, 1.191, 1.112, 1.013, 0.991, 0.885, 0.831, 0.847, 0.786, 0.725,
				0.746, 0.679, 0.608, 0.655, 0.616, 0.606, 0.602, 0.626, 0.651, 0.724,
				0.649, 0.649, 0.694, 0.644, 0.624, 0.661, 0.612, 0.558, 0.533, 0.495,
				0.500, 0.423, 0.395, 0.375, 0.372, 0.391, 0.396, 0.405, 0.428, 0.429,
				0.523, 0.562, 0.607, 0.653, 0.672, 0.708, 0.633, 0.668, 0.645, 0.632,
				0.591, 0.559, 0.597, 0.625, 0.739, 0.710, 0.729, 0.720, 0.636, 0.581,
				0.428, 0.292, 0.162, 0.098, 0.054})
			return b.e("sum(i, 1, 65, sq(y[i] - x1*exp(-x5*0.1*(i - 1)) - x2*exp(-x6*sq(0.1*(i - 1) - x9))" +
				" - x3*exp(-x7*sq(0.1*(i - 1) - x10)) - x4*exp(-x8*sq(0.1*(i - 1) - x11))))"), nil
		},
	})
}

// hs394p is problems 394 (n = 20) and 395 (n = 50).
func hs394p(num, n int, fstar float64) *Problem {
	return build(spec{
		name: "hs" + strconv.Itoa(num), num: num, n: n, kinds: "e",
		note:  "x* = (√(5/6), √(1/6), 0, …, 0)",
		x0:    vec(n, 2),
		fstar: fstar, xstar: append([]float64{math.Sqrt(5.0 / 6), math.Sqrt(1.0 / 6)}, vec(n-2, 0)...),
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.set("n", float64(n))
			return b.e("sum(i, 1, n, i*(sq(x[i]) + pow(x[i], 4)))"), b.es("sum(i, 1, n, sq(x[i])) - 1")
		},
	})
}

func hs394() *Problem { return hs394p(394, 20, 1.9166667) }
func hs395() *Problem { return hs394p(395, 50, 1.9166668) }
