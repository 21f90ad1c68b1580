package hs

import (
	"fmt"
	"math"
	"strings"

	"github.com/fesd-go/fesd/ad"
)

// tpA lists problems of K. Schittkowski, More Test Examples for Nonlinear
// Programming Codes (1987), in order of their number.
//
// Problems 201–250 of the book, written with book (see book.go). Not
// included: 214, whose objective (10(x₁−x₂)² + (x₁−1)²)^¼ is not
// differentiable at its minimizer, and 247, whose objective needs the
// arctangent and a step function of x₁ (not expressible with book).
var tpA = []entry{
	{"hs201", hs201}, {"hs202", hs202}, {"hs203", hs203}, {"hs204", hs204}, {"hs205", hs205},
	{"hs206", hs206}, {"hs207", hs207}, {"hs208", hs208}, {"hs209", hs209}, {"hs210", hs210},
	{"hs211", hs211}, {"hs212", hs212}, {"hs213", hs213}, {"hs215", hs215}, {"hs216", hs216},
	{"hs217", hs217}, {"hs218", hs218}, {"hs219", hs219}, {"hs220", hs220}, {"hs221", hs221},
	{"hs222", hs222}, {"hs223", hs223}, {"hs224", hs224}, {"hs225", hs225}, {"hs226", hs226},
	{"hs227", hs227}, {"hs228", hs228}, {"hs229", hs229}, {"hs230", hs230}, {"hs231", hs231},
	{"hs232", hs232}, {"hs233", hs233}, {"hs234", hs234}, {"hs235", hs235}, {"hs236", hs236},
	{"hs237", hs237}, {"hs238", hs238}, {"hs239", hs239}, {"hs240", hs240}, {"hs241", hs241},
	{"hs242", hs242}, {"hs243", hs243}, {"hs244", hs244}, {"hs245", hs245}, {"hs246", hs246},
	{"hs248", hs248}, {"hs249", hs249}, {"hs250", hs250},
}

func hs201() *Problem {
	return build(spec{
		name: "hs201", num: 201, n: 2,
		x0:    []float64{8, 9},
		fstar: 0, xstar: []float64{5, 6},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("4*sq(x1 - 5) + sq(x2 - 6)"), nil
		},
	})
}

func hs202() *Problem {
	// Freudenstein and Roth: a second local minimizer (11.41…, −0.8968…)
	// has f = 48.98…
	return build(spec{
		name: "hs202", num: 202, n: 2,
		x0:    []float64{15, -2},
		fstar: 0, xstar: []float64{5, 4},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(-13 + x1 - 2*x2 + 5*sq(x2) - pow(x2, 3)) + sq(-29 + x1 - 14*x2 + sq(x2) + pow(x2, 3))"), nil
		},
	})
}

// tp203f is Beale's function, the objective of problems 203 and 205.
const tp203f = "sq(1.5 - x1*(1 - x2)) + sq(2.25 - x1*(1 - sq(x2))) + sq(2.625 - x1*(1 - pow(x2, 3)))"

func hs203() *Problem {
	return build(spec{
		name: "hs203", num: 203, n: 2,
		x0:    []float64{2, 0.2},
		fstar: 0, xstar: []float64{3, 0.5},
		model: func(b *book) (ad.Expr, ad.Vec) { return b.e(tp203f), nil },
	})
}

func hs204() *Problem {
	// f = Σₖ Fₖ², F = a + Hx + ½(xᵀBx)d. At x = 0 the gradient 2Hᵀa
	// vanishes to the precision of the data (10⁻⁷), and f(0) = Σ aₖ² is
	// the printed f*.
	return build(spec{
		name: "hs204", num: 204, n: 2,
		note:  "x* = 0, where the gradient vanishes to the precision of the six-digit data",
		x0:    []float64{0.1, 0.1},
		fstar: 0.183601, xstar: []float64{0, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", []float64{0.13294, -0.244378, 0.325895})
			b.vec("d", []float64{2.5074, -1.36401, 1.02282})
			b.mat("h", [][]float64{{-0.564255, 0.392417}, {-0.404979, 0.927589}, {-0.0735084, 0.535493}})
			b.mat("bb", [][]float64{{5.66598, 2.77141}, {2.77141, 2.12413}})
			b.let("q", "sum(i, 1, 2, sum(j, 1, 2, bb[i][j]*x[i]*x[j]))")
			return b.e("sum(k, 1, 3, sq(a[k] + sum(i, 1, 2, h[k][i]*x[i]) + 0.5*q*d[k]))"), nil
		},
	})
}

func hs205() *Problem {
	return build(spec{
		name: "hs205", num: 205, n: 2,
		x0:    []float64{0, 0},
		fstar: 0, xstar: []float64{3, 0.5},
		model: func(b *book) (ad.Expr, ad.Vec) { return b.e(tp203f), nil },
	})
}

// tpARosen is problems 206–211, variations of Rosenbrock's function
// a(x₂ − x₁ᶜ)² + b(1 − x₁)² from (−1.2, 1), all with minimizer (1, 1).
func tpARosen(num int, f string) *Problem {
	return build(spec{
		name: fmt.Sprintf("hs%d", num), num: num, n: 2,
		x0:    []float64{-1.2, 1},
		fstar: 0, xstar: []float64{1, 1},
		model: func(b *book) (ad.Expr, ad.Vec) { return b.e(f), nil },
	})
}

func hs206() *Problem { return tpARosen(206, "sq(x2 - sq(x1)) + 100*sq(1 - x1)") }
func hs207() *Problem { return tpARosen(207, "sq(x2 - sq(x1)) + sq(1 - x1)") }
func hs208() *Problem { return tpARosen(208, "100*sq(x2 - sq(x1)) + sq(1 - x1)") }
func hs209() *Problem { return tpARosen(209, "10000*sq(x2 - sq(x1)) + sq(1 - x1)") }
func hs210() *Problem { return tpARosen(210, "1000000*sq(x2 - sq(x1)) + sq(1 - x1)") }
func hs211() *Problem { return tpARosen(211, "100*sq(x2 - pow(x1, 3)) + sq(1 - x1)") }

func hs212() *Problem {
	return build(spec{
		name: "hs212", num: 212, n: 2,
		x0:    []float64{2, 0},
		fstar: 0, xstar: []float64{0, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(4*(x1 + x2)) + sq(4*(x1 + x2) + (x1 - x2)*(sq(x1 - 2) + sq(x2) - 1))"), nil
		},
	})
}

func hs213() *Problem {
	return build(spec{
		name: "hs213", num: 213, n: 2,
		x0:    []float64{3, 1},
		fstar: 0, xstar: []float64{1, 1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("pow(10*sq(x1 - x2) + sq(x1 - 1), 4)"), nil
		},
	})
}

func hs215() *Problem {
	return build(spec{
		name: "hs215", num: 215, n: 2, kinds: "i",
		x0:    []float64{1, 1},
		xl:    []float64{0, -inf},
		fstar: 0, xstar: []float64{0, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("x2"), b.es("x2 - sq(x1)")
		},
	})
}

func hs216() *Problem {
	// On the constraint x₂ = (x₁² − 4x₁ + 12)/2 the objective is
	// 25(x₁ + 6)²(x₁ − 2)² + (x₁ − 1)², whose minimizer is just left of
	// x₁ = 2.
	return build(spec{
		name: "hs216", num: 216, n: 2, kinds: "e",
		note:  "x* = (2, 4), f = 1 is not stationary; FStar and XStar are the minimizer next to it (x₁ from Newton's method on the reduced objective)",
		x0:    []float64{-1.2, 1},
		fstar: 0.9993752928772062, xstar: []float64{1.999375244110081, 4.000000195159961},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("100*sq(sq(x1) - x2) + sq(x1 - 1)"), b.es("x1*(x1 - 4) - 2*x2 + 12")
		},
	})
}

func hs217() *Problem {
	return build(spec{
		name: "hs217", num: 217, n: 2, kinds: "ie",
		x0:    []float64{10, 10},
		xl:    []float64{0, -inf},
		fstar: -0.8, xstar: []float64{0.6, 0.8},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-x2"), b.es("1 + x1 - 2*x2", "sq(x1) + sq(x2) - 1")
		},
	})
}

func hs218() *Problem {
	// At x* the constraint and the bound x₂ ≥ 0 have the same gradient.
	return build(spec{
		name: "hs218", num: 218, n: 2, kinds: "i",
		x0:    []float64{9, 100},
		xl:    []float64{-inf, 0},
		fstar: 0, xstar: []float64{0, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("x2"), b.es("x2 - sq(x1)")
		},
	})
}

func hs219() *Problem {
	return build(spec{
		name: "hs219", num: 219, n: 4, kinds: "ee",
		x0:    []float64{10, 10, 10, 10},
		fstar: -1, xstar: []float64{1, 1, 0, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-x1"), b.es("x2 - pow(x1, 3) - sq(x3)", "sq(x1) - x2 - sq(x4)")
		},
	})
}

func hs220() *Problem {
	return build(spec{
		name: "hs220", num: 220, n: 2, kinds: "e",
		x0:    []float64{25000, 25000},
		xl:    []float64{1, 0},
		fstar: 1, xstar: []float64{1, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("x1"), b.es("pow(x1 - 1, 3) - x2")
		},
	})
}

func hs221() *Problem {
	// Like problem 13: x* = (1, 0) is a cusp of the feasible set, where no
	// multipliers exist, so no XStar is recorded.
	return build(spec{
		name: "hs221", num: 221, n: 2, kinds: "i",
		note:  "x* = (1, 0) is a cusp of the feasible set (constraint qualification fails), not recorded as XStar",
		x0:    []float64{0.25, 0.25},
		xl:    []float64{0, 0},
		fstar: -1,
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-x1"), b.es("pow(1 - x1, 3) - x2")
		},
	})
}

func hs222() *Problem {
	return build(spec{
		name: "hs222", num: 222, n: 2, kinds: "i",
		x0:    []float64{1.3, 0.2},
		xl:    []float64{0, 0},
		fstar: -1.5, xstar: []float64{1.5, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-x1"), b.es("0.125 + pow(1 - x1, 3) - x2")
		},
	})
}

func hs223() *Problem {
	// The optimum is x₁ = ln ln 10, x₂ = 10.
	x1 := math.Log(math.Log(10))
	return build(spec{
		name: "hs223", num: 223, n: 2, kinds: "ii",
		note:  "x* = (ln ln 10, 10)",
		x0:    []float64{0.1, 3.3},
		xl:    []float64{0, 0},
		xu:    []float64{10, 10},
		fstar: -0.834032445, xstar: []float64{x1, 10},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-x1"), b.es("exp(exp(x1))", "x2 - exp(exp(x1))")
		},
	})
}

func hs224() *Problem {
	return build(spec{
		name: "hs224", num: 224, n: 2, kinds: "iiii",
		x0:    []float64{0.1, 0.1},
		xl:    []float64{0, 0},
		xu:    []float64{6, 6},
		fstar: -304, xstar: []float64{4, 4},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("2*sq(x1) + sq(x2) - 48*x1 - 40*x2"),
				b.es("x1 + 3*x2", "18 - x1 - 3*x2", "x1 + x2", "8 - x1 - x2")
		},
	})
}

func hs225() *Problem {
	return build(spec{
		name: "hs225", num: 225, n: 2, kinds: "iiiii",
		x0:    []float64{3, 1},
		fstar: 2, xstar: []float64{1, 1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1) + sq(x2)"),
				b.es("x1 + x2 - 1", "sq(x1) + sq(x2) - 1", "9*sq(x1) + sq(x2) - 9", "sq(x1) - x2", "sq(x2) - x1")
		},
	})
}

func hs226() *Problem {
	s := 1 / math.Sqrt2
	return build(spec{
		name: "hs226", num: 226, n: 2, kinds: "ii",
		x0:    []float64{0.8, 0.05},
		xl:    []float64{0, 0},
		fstar: -0.5, xstar: []float64{s, s},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-x1*x2"), b.es("sq(x1) + sq(x2)", "1 - sq(x1) - sq(x2)")
		},
	})
}

func hs227() *Problem {
	return build(spec{
		name: "hs227", num: 227, n: 2, kinds: "ii",
		x0:    []float64{0.5, 0.5},
		fstar: 1, xstar: []float64{1, 1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1 - 2) + sq(x2 - 1)"), b.es("-sq(x1) + x2", "x1 - sq(x2)")
		},
	})
}

func hs228() *Problem {
	return build(spec{
		name: "hs228", num: 228, n: 2, kinds: "ii",
		x0:    []float64{0, 0},
		fstar: -3, xstar: []float64{0, -3},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1) + x2"), b.es("-x1 - x2 + 1", "-(sq(x1) + sq(x2)) + 9")
		},
	})
}

// tp229f is Rosenbrock's function, the objective of problems 229, 231 and
// 233.
const tp229f = "100*sq(x2 - sq(x1)) + sq(1 - x1)"

func hs229() *Problem {
	return build(spec{
		name: "hs229", num: 229, n: 2,
		x0:    []float64{-1.2, 1},
		xl:    []float64{-2, -2},
		xu:    []float64{2, 2},
		fstar: 0, xstar: []float64{1, 1},
		model: func(b *book) (ad.Expr, ad.Vec) { return b.e(tp229f), nil },
	})
}

func hs230() *Problem {
	return build(spec{
		name: "hs230", num: 230, n: 2, kinds: "ii",
		x0:    []float64{0, 0},
		fstar: 0.375, xstar: []float64{0.5, 0.375},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("x2"), b.es("-2*sq(x1) + pow(x1, 3) + x2", "-2*sq(1 - x1) + pow(1 - x1, 3) + x2")
		},
	})
}

func hs231() *Problem {
	return build(spec{
		name: "hs231", num: 231, n: 2, kinds: "ii",
		x0:    []float64{-1.2, 1},
		fstar: 0, xstar: []float64{1, 1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e(tp229f), b.es("x1/3 + x2 + 0.1", "-x1/3 + x2 + 0.1")
		},
	})
}

func hs232() *Problem {
	return build(spec{
		name: "hs232", num: 232, n: 2, kinds: "iii",
		x0:    []float64{2, 0.5},
		xl:    []float64{0, 0},
		fstar: -1, xstar: []float64{3, math.Sqrt(3)},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.set("s3", math.Sqrt(3))
			return b.e("-(9 - sq(x1 - 3))*pow(x2, 3)/(27*s3)"),
				b.es("x1/s3 - x2", "x1 + s3*x2", "6 - x1 - s3*x2")
		},
	})
}

func hs233() *Problem {
	return build(spec{
		name: "hs233", num: 233, n: 2, kinds: "i",
		x0:    []float64{1.2, 1},
		fstar: 0, xstar: []float64{1, 1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e(tp229f), b.es("sq(x1) + sq(x2) - 0.25")
		},
	})
}

func hs234() *Problem {
	// The start (0, 0) violates the bounds, as in the book.
	return build(spec{
		name: "hs234", num: 234, n: 2, kinds: "i",
		x0:    []float64{0, 0},
		xl:    []float64{0.2, 0.2},
		xu:    []float64{2, 2},
		fstar: -0.8, xstar: []float64{0.2, 0.2},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("pow(x2 - x1, 4) - (1 - x1)"), b.es("-sq(x1) - sq(x2) + 1")
		},
	})
}

func hs235() *Problem {
	return build(spec{
		name: "hs235", num: 235, n: 3, kinds: "e",
		x0:    []float64{-2, 3, 1},
		fstar: 0.04, xstar: []float64{-1, 1, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("0.01*sq(x1 - 1) + sq(x2 - sq(x1))"), b.es("x1 + sq(x3) + 1")
		},
	})
}

// tp236B are the coefficients of the objective of problems 236–239.
var tp236B = []float64{
	75.1963666677, -3.8112755343, 0.1269366345, -0.0020567665, 0.0000103450,
	-6.8306567613, 0.0302344793, -0.0012813448, 0.0000352559, -0.0000002266,
	0.2564581253, -0.0034604030, 0.0000135139, -28.1064434908, -0.0000052375,
	-0.0000000063, 0.0000000007, 0.0003405462, -0.0000016638, -2.8673112392,
}

// tp236f is the objective of problems 236–239.
const tp236f = "-(b[1] + b[2]*x1 + b[3]*sq(x1) + b[4]*pow(x1, 3) + b[5]*pow(x1, 4)" +
	" + b[6]*x2 + b[7]*x1*x2 + b[8]*sq(x1)*x2 + b[9]*pow(x1, 3)*x2 + b[10]*pow(x1, 4)*x2" +
	" + b[11]*sq(x2) + b[12]*pow(x2, 3) + b[13]*pow(x2, 4) + b[14]/(x2 + 1)" +
	" + b[15]*sq(x1)*sq(x2) + b[16]*pow(x1, 3)*sq(x2) + b[17]*pow(x1, 3)*pow(x2, 3)" +
	" + b[18]*x1*sq(x2) + b[19]*x1*pow(x2, 3) + b[20]*exp(0.0005*x1*x2))"

// tpAHimmel is problems 236–239: the objective with some of the constraints
// x₁x₂ ≥ 700, x₂ ≥ x₁²/125, (x₂ − 50)² ≥ 5(x₁ − 55), and bounds.
func tpAHimmel(num int, x0, xl, xu []float64, cons ...string) *Problem {
	return build(spec{
		name: fmt.Sprintf("hs%d", num), num: num, n: 2, kinds: strings.Repeat("i", len(cons)),
		x0: x0, xl: xl, xu: xu,
		fstar: -58.9034360, xstar: []float64{75, 65},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("b", tp236B)
			return b.e(tp236f), b.es(cons...)
		},
	})
}

const (
	tp236g1 = "x1*x2 - 700"
	tp236g2 = "x2 - 5*sq(x1/25)"
	tp236g3 = "sq(x2 - 50) - 5*(x1 - 55)"
)

func hs236() *Problem {
	return tpAHimmel(236, []float64{90, 10}, []float64{0, 0}, []float64{75, 65}, tp236g1, tp236g2)
}

func hs237() *Problem {
	return tpAHimmel(237, []float64{95, 10}, []float64{54, -inf}, []float64{75, 65}, tp236g1, tp236g2, tp236g3)
}

func hs238() *Problem {
	return tpAHimmel(238, []float64{95, 10}, nil, []float64{75, 65}, tp236g1, tp236g2, tp236g3)
}

func hs239() *Problem {
	return tpAHimmel(239, []float64{95, 10}, []float64{0, 0}, []float64{75, 65}, tp236g1)
}

func hs240() *Problem {
	return build(spec{
		name: "hs240", num: 240, n: 3,
		x0:    []float64{100, -1, 2.5},
		fstar: 0, xstar: []float64{0, 0, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1 - x2 + x3) + sq(-x1 + x2 + x3) + sq(x1 + x2 - x3)"), nil
		},
	})
}

func hs241() *Problem {
	return build(spec{
		name: "hs241", num: 241, n: 3,
		x0:    []float64{1, 2, 0},
		fstar: 0, xstar: []float64{0, 0, 1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(sq(x1) + sq(x2) + sq(x3) - 1) + sq(sq(x1) + sq(x2) + sq(x3 - 2) - 1)" +
				" + sq(x1 + x2 + x3 - 1) + sq(x1 + x2 - x3 + 1)" +
				" + sq(pow(x1, 3) + 3*sq(x2) + sq(5*x3 - x1 + 1) - 36)"), nil
		},
	})
}

func hs242() *Problem {
	return build(spec{
		name: "hs242", num: 242, n: 3,
		x0:    []float64{2.5, 10, 10},
		xl:    []float64{0, 0, 0},
		xu:    []float64{10, 10, 10},
		fstar: 0, xstar: []float64{1, 10, 1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sum(i, 1, 10, sq(exp(-x1*i/10) - exp(-x2*i/10) - x3*(exp(-i/10) - exp(-i))))"), nil
		},
	})
}

func hs243() *Problem {
	// f = Σₖ Fₖ², F = a + Gx + ½(xᵀBx)d, with B as printed (not
	// symmetric in its last digits). The gradient 2Gᵀa at x = 0 is 10⁻⁶,
	// the precision of the data; the minimizer is next to 0.
	return build(spec{
		name: "hs243", num: 243, n: 3,
		note:  "f* = 0.7966 at x* = 0 as printed; XStar is the stationary point next to 0 (polished), FStar its value (f(0) = 0.79655523)",
		x0:    []float64{0.1, 0.1, 0.1},
		fstar: 0.7965552319, xstar: []float64{1.729306948138626e-07, -9.89331832907207e-08, 3.198159598627409e-08},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", []float64{0.14272, -0.184918, -0.521869, -0.685306})
			b.vec("d", []float64{1.75168, -1.35195, -0.479048, -0.3648})
			b.mat("g", [][]float64{
				{-0.564255, 0.392417, -0.404979},
				{0.927589, -0.0735084, 0.535493},
				{0.658799, -0.636666, -0.681091},
				{-0.869487, 0.586387, 0.289826},
			})
			b.mat("bb", [][]float64{
				{2.95137, 4.87407, -2.0506},
				{4.87407, 9.39321, -3.93181},
				{-2.0506, -3.93189, 2.64745},
			})
			b.let("q", "sum(i, 1, 3, sum(j, 1, 3, bb[i][j]*x[i]*x[j]))")
			return b.e("sum(k, 1, 4, sq(a[k] + sum(i, 1, 3, g[k][i]*x[i]) + 0.5*q*d[k]))"), nil
		},
	})
}

func hs244() *Problem {
	return build(spec{
		name: "hs244", num: 244, n: 3,
		x0:    []float64{1, 2, 1},
		xl:    []float64{0, 0, 0},
		xu:    []float64{10, 10, 10},
		fstar: 0, xstar: []float64{1, 10, 5},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sum(i, 1, 10, sq(exp(-x1*i/10) - x3*exp(-x2*i/10) - (exp(-i/10) - 5*exp(-i))))"), nil
		},
	})
}

func hs245() *Problem {
	return build(spec{
		name: "hs245", num: 245, n: 3,
		x0:    []float64{0, 10, 20},
		fstar: 0, xstar: []float64{1, 10, 1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sum(i, 1, 10, sq(exp(-i*x1/10) - exp(-i*x2/10) - x3*(exp(-i/10) - exp(-i))))"), nil
		},
	})
}

func hs246() *Problem {
	return build(spec{
		name: "hs246", num: 246, n: 3,
		x0:    []float64{-1.2, 2, 0},
		fstar: 0, xstar: []float64{1, 1, 1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("100*sq(x3 - sq((x1 + x2)/2)) + sq(1 - x1) + sq(1 - x2)"), nil
		},
	})
}

func hs248() *Problem {
	return build(spec{
		name: "hs248", num: 248, n: 3, kinds: "ie",
		x0:    []float64{-0.1, -1, 0.1},
		fstar: -0.8, xstar: []float64{0.6, 0.8, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-x2"), b.es("1 - 2*x2 + x1", "sq(x1) + sq(x2) + sq(x3) - 1")
		},
	})
}

func hs249() *Problem {
	return build(spec{
		name: "hs249", num: 249, n: 3, kinds: "i",
		x0:    []float64{1, 1, 1},
		xl:    []float64{1, -inf, -inf},
		fstar: 1, xstar: []float64{1, 0, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1) + sq(x2) + sq(x3)"), b.es("sq(x1) + sq(x2) - 1")
		},
	})
}

func hs250() *Problem {
	return build(spec{
		name: "hs250", num: 250, n: 3, kinds: "ii",
		x0:    []float64{10, 10, 10},
		xl:    []float64{0, 0, 0},
		xu:    []float64{20, 11, 42},
		fstar: -3300, xstar: []float64{20, 11, 15},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-x1*x2*x3"), b.es("x1 + 2*x2 + 2*x3", "72 - x1 - 2*x2 - 2*x3")
		},
	})
}
