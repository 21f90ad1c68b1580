package hs

import (
	"fmt"
	"math"
	"strings"

	"github.com/fesd-go/fesd/ad"
)

// Problems 251–320 of Schittkowski (1987), written with book (see book.go).
//
// The formulations, starting points and bounds are those of Schittkowski's
// PROB.FOR (the 2011 version that accompanies his report on 306 test
// problems with validated optimal solutions), from which FStar (FEX) and the
// printed optimal points (XEX) also come. Where that program differs from
// the transcriptions of the book in other collections (added bounds, a
// scaled objective), the Source note of the problem says so.
//
// Not included: problem 281, whose objective (Σ i³(xᵢ − 1)²)^(1/3) is not
// differentiable at its optimum, and problem 306, whose objective
// −exp(−x₁−x₂)(2x₁² + 3x₂²) is unbounded below (x₁ = 0, x₂ → −∞) and whose
// printed optimum (0, 1) is not a stationary point.

// tpB lists problems of K. Schittkowski, More Test Examples for Nonlinear
// Programming Codes (1987), in order of their number.
var tpB = []entry{
	{"hs251", hs251}, {"hs252", hs252}, {"hs253", hs253}, {"hs254", hs254}, {"hs255", hs255},
	{"hs256", hs256}, {"hs257", hs257}, {"hs258", hs258}, {"hs259", hs259}, {"hs260", hs260},
	{"hs261", hs261}, {"hs262", hs262}, {"hs263", hs263}, {"hs264", hs264}, {"hs265", hs265},
	{"hs266", hs266}, {"hs267", hs267}, {"hs268", hs268}, {"hs269", hs269}, {"hs270", hs270},
	{"hs271", hs271}, {"hs272", hs272}, {"hs273", hs273},
	{"hs274", func() *Problem { return hs274n(274, 2) }},
	{"hs275", func() *Problem { return hs274n(275, 4) }},
	{"hs276", func() *Problem { return hs274n(276, 6) }},
	{"hs277", func() *Problem { return hs277n(277, 4) }},
	{"hs278", func() *Problem { return hs277n(278, 6) }},
	{"hs279", func() *Problem { return hs277n(279, 8) }},
	{"hs280", func() *Problem { return hs277n(280, 10) }},
	{"hs282", hs282}, {"hs283", hs283}, {"hs284", hs284}, {"hs285", hs285}, {"hs286", hs286},
	{"hs287", hs287}, {"hs288", hs288}, {"hs289", hs289},
	{"hs290", func() *Problem { return hs290n(290, 2) }},
	{"hs291", func() *Problem { return hs290n(291, 10) }},
	{"hs292", func() *Problem { return hs290n(292, 30) }},
	{"hs293", func() *Problem { return hs290n(293, 50) }},
	{"hs294", func() *Problem { return hs294n(294, 6) }},
	{"hs295", func() *Problem { return hs294n(295, 10) }},
	{"hs296", func() *Problem { return hs294n(296, 16) }},
	{"hs297", func() *Problem { return hs294n(297, 30) }},
	{"hs298", func() *Problem { return hs294n(298, 50) }},
	{"hs299", func() *Problem { return hs294n(299, 100) }},
	{"hs300", func() *Problem { return hs300n(300, 20) }},
	{"hs301", func() *Problem { return hs300n(301, 50) }},
	{"hs302", func() *Problem { return hs300n(302, 100) }},
	{"hs303", func() *Problem { return hs303n(303, 20) }},
	{"hs304", func() *Problem { return hs303n(304, 50) }},
	{"hs305", func() *Problem { return hs303n(305, 100) }},
	{"hs307", hs307}, {"hs308", hs308}, {"hs309", hs309}, {"hs310", hs310}, {"hs311", hs311},
	{"hs312", hs312}, {"hs313", hs313}, {"hs314", hs314}, {"hs315", hs315},
	{"hs316", func() *Problem { return hs316n(316, 100, 334.31458, []float64{7.0710678, -7.0710678}, "") }},
	{"hs317", func() *Problem { return hs316n(317, 64, 372.46661, []float64{7.3519262, -5.422866}, "") }},
	{"hs318", func() *Problem { return hs316n(318, 36, 412.75005, []float64{7.8091266, -3.7478414}, "") }},
	{"hs319", func() *Problem { return hs316n(319, 16, 452.4044, []float64{8.4922857, -2.1121017}, "") }},
	{"hs320", func() *Problem {
		return hs316n(320, 4, 485.53146, []float64{9.395925013714521, -0.6845901879709866},
			polished+" (the printed x₁ = 9.39525 has lost a digit: 9.395925)")
	}},
}

// tpBName is the conventional name of problem num.
func tpBName(num int) string { return fmt.Sprintf("hs%03d", num) }

// tpBIndexed returns vᵢ = f(i) for i = 1, …, n.
func tpBIndexed(n int, f func(i int) float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = f(i + 1)
	}
	return v
}

func hs251() *Problem {
	return build(spec{
		name: "hs251", num: 251, n: 3, kinds: "i",
		x0:    vec(3, 10),
		xl:    vec(3, 0),
		xu:    vec(3, 42),
		fstar: -3456, xstar: []float64{24, 12, 12},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-x1*x2*x3"), b.es("72 - x1 - 2*x2 - 2*x3")
		},
	})
}

func hs252() *Problem {
	inf := math.Inf(1)
	return build(spec{
		name: "hs252", num: 252, n: 3, kinds: "e",
		note:  "the bound x₁ ≤ −1 as in PROB.FOR",
		x0:    []float64{-1, 2, 2},
		xu:    []float64{-1, inf, inf},
		fstar: 0.04, xstar: []float64{-1, 1, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("0.01*sq(x1 - 1) + sq(x2 - sq(x1))"), b.es("x1 + sq(x3) + 1")
		},
	})
}

func hs253() *Problem {
	// The eight corners of the cube [0, 10]³.
	a1 := []float64{0, 10, 10, 0, 0, 10, 10, 0}
	a2 := []float64{0, 0, 10, 10, 0, 0, 10, 10}
	a3 := []float64{0, 0, 0, 0, 10, 10, 10, 10}
	return build(spec{
		name: "hs253", num: 253, n: 3, kinds: "i",
		note:  "f* as FEX in PROB.FOR (8√75, at the centre of the cube; OptimizationProblems.jl lists 87.3794)",
		x0:    []float64{0, 2, 0},
		xl:    vec(3, 0),
		fstar: 69.282032, xstar: []float64{5, 5, 5},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a1", a1)
			b.vec("a2", a2)
			b.vec("a3", a3)
			return b.e("sum(j, 1, 8, sqrt(sq(a1[j] - x1) + sq(a2[j] - x2) + sq(a3[j] - x3)))"),
				b.es("30 - 3*x1 - 3*x3")
		},
	})
}

func hs254() *Problem {
	inf := math.Inf(1)
	return build(spec{
		name: "hs254", num: 254, n: 3, kinds: "ee",
		x0:    []float64{1, 1, 1},
		xl:    []float64{-inf, -inf, 1},
		fstar: -math.Sqrt(3), xstar: []float64{0, math.Sqrt(3), 1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("log(x3)/log(10) - x2"), b.es("sq(x2) + sq(x3) - 4", "x3 - 1 - sq(x1)")
		},
	})
}

func hs255() *Problem {
	return build(spec{
		name: "hs255", num: 255, n: 4,
		note: "as in PROB.FOR: half the square of the book's objective (which is unbounded below), " +
			"with bounds −10 ≤ xᵢ ≤ 10; the minimizers are not isolated",
		x0:    []float64{-3, 1, -3, 1},
		xl:    vec(4, -10),
		xu:    vec(4, 10),
		fstar: 0, xstar: vec(4, 1),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("0.5*sq(100*(x2 - sq(x1)) + sq(1 - x1) + 90*(x4 - sq(x3)) + sq(1 - x3)" +
				" + 10.1*(sq(x2 - 1) + sq(x4 - 1)) + 19.8*(x2 - 1)*(x4 - 1))"), nil
		},
	})
}

func hs256() *Problem {
	return build(spec{
		name: "hs256", num: 256, n: 4,
		x0:    []float64{3, -1, 0, 1},
		fstar: 0, xstar: vec(4, 0),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1 + 10*x2) + 5*sq(x3 - x4) + pow(x2 - 2*x3, 4) + 10*pow(x1 - x4, 4)"), nil
		},
	})
}

func hs257() *Problem {
	return build(spec{
		name: "hs257", num: 257, n: 4,
		note:  "start 0 and bounds xᵢ ≥ 0 as in PROB.FOR",
		x0:    vec(4, 0),
		xl:    vec(4, 0),
		fstar: 0, xstar: vec(4, 1),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("100*sq(sq(x1) - x2) + sq(x1 - 1) + 90*sq(sq(x3) - x4) + sq(x3 - 1)" +
				" + 10.1*(sq(x2 - 1) + sq(x4 - 1)) + 19.8*(x1 - 1)*(x4 - 1)"), nil
		},
	})
}

func hs258() *Problem {
	return build(spec{
		name: "hs258", num: 258, n: 4,
		x0:    []float64{-3, -1, -3, -1},
		fstar: 0, xstar: vec(4, 1),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("100*sq(x2 - sq(x1)) + sq(1 - x1) + 90*sq(x4 - sq(x3)) + sq(1 - x3)" +
				" + 10.1*(sq(x2 - 1) + sq(x4 - 1)) + 19.8*(x2 - 1)*(x4 - 1)"), nil
		},
	})
}

func hs259() *Problem {
	inf := math.Inf(1)
	return build(spec{
		name: "hs259", num: 259, n: 4,
		note: polished + " (the printed point (1.4358451, 2.0631635, 0.069002268, −0.099963939) " +
			"is off from the fifth digit on; f agrees to 2·10⁻⁹)",
		x0:    vec(4, 0),
		xu:    []float64{inf, inf, inf, 1},
		fstar: -8.5446210,
		xstar: []float64{1.435841909665921, 2.063159712036077, 0.06897451056564516, -0.09996821614788827},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("100*sq(x2 - sq(x1)) + sq(1 - x1) + 90*sq(x4 - sq(x3)) + pow(1 - x3, 3)" +
				" + 10.1*sq(x2 - 1) + sq(x4 - 1) + 19.8*(x2 - 1)*(x4 - 1)"), nil
		},
	})
}

func hs260() *Problem {
	return build(spec{
		name: "hs260", num: 260, n: 4,
		x0:    []float64{-3, -1, -3, -1},
		fstar: 0, xstar: vec(4, 1),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("100*sq(x2 - sq(x1)) + sq(1 - x1) + 90*sq(x4 - sq(x3)) + sq(1 - x3)" +
				" + 9.9*sq(x2 - 1 + x4 - 1) + 0.2*(sq(x2 - 1) + sq(x4 - 1))"), nil
		},
	})
}

func hs261() *Problem {
	return build(spec{
		name: "hs261", num: 261, n: 4,
		note:  "bounds 0 ≤ xᵢ ≤ 10 as in PROB.FOR",
		x0:    vec(4, 0),
		xl:    vec(4, 0),
		xu:    vec(4, 10),
		fstar: 0, xstar: []float64{0, 1, 1, 1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("pow(exp(x1) - x2, 4) + 100*pow(x2 - x3, 6) + pow(tan(x3 - x4), 4) + pow(x1, 8) + sq(x4 - 1)"), nil
		},
	})
}

func hs262() *Problem {
	return build(spec{
		name: "hs262", num: 262, n: 4, kinds: "iiie",
		x0:    vec(4, 1),
		xl:    vec(4, 0),
		fstar: -10, xstar: []float64{0, 26.0 / 3, 0, 4.0 / 3},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-0.5*x1 - x2 - 0.5*x3 - x4"),
				b.es("10 - x1 - x2 - x3 - x4",
					"10 - 0.2*x1 - 0.5*x2 - x3 - 2*x4",
					"10 - 2*x1 - x2 - 0.5*x3 - 0.2*x4",
					"x1 + x2 + x3 - 2*x4 - 6")
		},
	})
}

func hs263() *Problem {
	return build(spec{
		name: "hs263", num: 263, n: 4, kinds: "iiee",
		x0:    vec(4, 10),
		fstar: -1, xstar: []float64{1, 1, 0, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-x1"),
				b.es("x2 - pow(x1, 3)", "sq(x1) - x2", "x2 - pow(x1, 3) - sq(x3)", "sq(x1) - x2 - sq(x4)")
		},
	})
}

func hs264() *Problem {
	return build(spec{
		name: "hs264", num: 264, n: 4, kinds: "iii",
		x0:    vec(4, 0),
		fstar: -44, xstar: []float64{0, 1, 2, -1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1) + sq(x2) + 2*sq(x3) + sq(x4) - 5*x1 - 5*x2 - 21*x3 + 7*x4"),
				b.es("8 - sq(x1) - sq(x2) - sq(x3) - sq(x4) - x1 + x2 - x3 + x4",
					"9 - sq(x1) - 2*sq(x2) - sq(x3) - 2*sq(x4) + x1 + x4",
					"5 - 2*sq(x1) - sq(x2) - sq(x3) - 2*x1 + x2 + x4")
		},
	})
}

func hs265() *Problem {
	return build(spec{
		name: "hs265", num: 265, n: 4, kinds: "ee",
		x0:    vec(4, 0),
		xl:    vec(4, 0),
		fstar: 0.97474658, xstar: []float64{1, 0, 1, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("2 - exp(-10*x1*exp(-x3)) - exp(-10*x2*exp(-x4))"),
				b.es("x1 + x2 - 1", "x3 + x4 - 1")
		},
	})
}

func hs266() *Problem {
	a := []float64{0.0426149, 0.0352053, 0.0878058, 0.0330812, 0.0580924, 0.649704, 0.344144,
		-0.627443, 0.001828, -0.224783}
	d := []float64{2.34659, 2.84048, 1.13888, 3.02286, 1.72139, 0.153917, 0.290577, -0.159378,
		54.6910, -0.444873}
	c := [][]float64{
		{-0.564255, 0.0392417, -0.404979, 0.927589, -0.0735083},
		{0.535493, 0.658799, -0.0636666, -0.681091, -0.869487},
		{0.586387, 0.289826, 0.854402, 0.789312, 0.949721},
		{0.608734, 0.984915, 0.375699, 0.239547, 0.463136},
		{0.774227, 0.325421, -0.151719, 0.448051, 0.149926},
		{-0.435033, -0.688583, 0.0222278, -0.524653, 0.413248},
		{0.759468, -0.627795, 0.0403142, 0.724666, -0.0182537},
		{-0.152448, -0.546437, 0.484134, 0.353951, 0.887866},
		{-0.821772, -0.53412, -0.798498, -0.658572, 0.662362},
		{0.819831, -0.910632, -0.480344, -0.871758, -0.978666},
	}
	bm := [][]float64{
		{0.354033, -0.0230349, -0.211938, -0.0554288, 0.220429},
		{-0.0230349, 0.29135, -0.00180333, -0.111141, 0.0485461},
		{-0.211938, -0.00180333, -0.815808, -0.133538, -0.38067},
		{-0.0554288, -0.111141, -0.133538, 0.389198, -0.131586},
		{0.220429, 0.0485461, -0.38067, -0.131586, 0.534706},
	}
	return build(spec{
		name: "hs266", num: 266, n: 5,
		note: "data and bounds xᵢ ≥ 0 as in PROB.FOR (NLSProblems.jl has d₃ = 1.12888, " +
			"c₁₂ = 0.392417, c₂₃ = −0.636666, c₆₃ = 0.222278 and b₃₃ = +0.815808, which do not give f*); " +
			polished + " (the printed x₃ = 0.029297857 is off in the fifth digit)",
		x0:    vec(5, 0.1),
		xl:    vec(5, 0),
		fstar: 0.99597447, xstar: []float64{0, 0, 0.02929670574586497, 0, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", a)
			b.vec("d", d)
			b.mat("c", c)
			b.mat("bm", bm)
			return b.e("sum(i, 1, 10, sq(a[i] + sum(k, 1, 5, x[k]*(c[i][k] + 0.5*d[i]*sum(l, 1, 5, bm[k][l]*x[l])))))"), nil
		},
	})
}

func hs267() *Problem {
	inf := math.Inf(1)
	return build(spec{
		name: "hs267", num: 267, n: 5,
		note:  "bounds as in PROB.FOR; a second optimum is (10, 1, −5, −1, 4)",
		x0:    vec(5, 2),
		xl:    []float64{0, 0, -inf, -inf, 0},
		xu:    vec(5, 15),
		fstar: 0, xstar: []float64{1, 10, 1, 5, 4},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sum(i, 1, 11, sq(x3*exp(-x1*i/10) - x4*exp(-x2*i/10) + 3*exp(-x5*i/10)" +
				" - exp(-i/10) + 5*exp(-i) - 3*exp(-4*i/10)))"), nil
		},
	})
}

func hs268() *Problem {
	dm := [][]float64{
		{-74, 80, 18, -11, -4},
		{14, -69, 21, 28, 0},
		{66, -72, -5, 7, 1},
		{-12, 66, -30, -23, 3},
		{3, 8, -7, -4, 1},
		{4, -12, 4, 4, 0},
	}
	dv := []float64{51, -61, -56, 69, 10, -12}
	return build(spec{
		name: "hs268", num: 268, n: 5, kinds: "iiiii",
		note:  "the objective as ‖Dx − d‖², which PROB.FOR expands as xᵀDᵀDx − 2dᵀDx + dᵀd",
		x0:    vec(5, 1),
		fstar: 0, xstar: []float64{1, 2, -1, 3, -4},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.mat("dm", dm)
			b.vec("dv", dv)
			return b.e("sum(i, 1, 6, sq(sum(j, 1, 5, dm[i][j]*x[j]) - dv[i]))"),
				b.es("5 - x1 - x2 - x3 - x4 - x5",
					"10*x1 + 10*x2 - 3*x3 + 5*x4 + 4*x5 - 20",
					"-8*x1 + x2 - 2*x3 - 5*x4 + 3*x5 + 40",
					"8*x1 - x2 + 2*x3 + 5*x4 - 3*x5 - 11",
					"-4*x1 - 2*x2 + 3*x3 - 5*x4 + x5 + 30")
		},
	})
}

func hs269() *Problem {
	return build(spec{
		name: "hs269", num: 269, n: 5, kinds: "eee",
		x0:    vec(5, 2),
		fstar: 176.0 / 43, xstar: []float64{-33.0 / 43, 11.0 / 43, 27.0 / 43, -5.0 / 43, 11.0 / 43},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1 - x2) + sq(x2 + x3 - 2) + sq(x4 - 1) + sq(x5 - 1)"),
				b.es("x1 + 3*x2", "x3 + x4 - 2*x5", "x2 - x5")
		},
	})
}

func hs270() *Problem {
	inf := math.Inf(1)
	return build(spec{
		name: "hs270", num: 270, n: 5, kinds: "i",
		note:  "the polynomial in x₁, …, x₄ of PROB.FOR written as the product (x₁−1)(x₂−2)(x₃−3)(x₄−4)",
		x0:    []float64{1.1, 2.1, 3.1, 4.1, -1},
		xl:    []float64{1, 2, 3, 4, -inf},
		fstar: -1, xstar: []float64{1, 2, 3, 4, 2},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("(x1 - 1)*(x2 - 2)*(x3 - 3)*(x4 - 4) + 1.5*pow(x5, 4) - 5.75*pow(x5, 3) + 5.25*sq(x5)"),
				b.es("34 - sq(x1) - sq(x2) - sq(x3) - sq(x4) - sq(x5)")
		},
	})
}

func hs271() *Problem {
	return build(spec{
		name: "hs271", num: 271, n: 6,
		x0:    vec(6, 0),
		fstar: 0, xstar: vec(6, 1),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sum(i, 1, 6, 10*(16 - i)*sq(x[i] - 1))"), nil
		},
	})
}

func hs272() *Problem {
	return build(spec{
		name: "hs272", num: 272, n: 6,
		note:  "bounds xᵢ ≥ 0 as in PROB.FOR",
		x0:    []float64{1, 2, 1, 1, 1, 1},
		xl:    vec(6, 0),
		fstar: 0, xstar: []float64{1, 10, 4, 1, 5, 3},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sum(i, 1, 13, sq(x4*exp(-x1*i/10) - x5*exp(-x2*i/10) + x6*exp(-x3*i/10)" +
				" - exp(-i/10) + 5*exp(-i) - 3*exp(-4*i/10)))"), nil
		},
	})
}

func hs273() *Problem {
	return build(spec{
		name: "hs273", num: 273, n: 6,
		x0:    vec(6, 0),
		fstar: 0, xstar: vec(6, 1),
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.let("h", "sum(i, 1, 6, (16 - i)*sq(x[i] - 1))")
			return b.e("10*h*(1 + h)"), nil
		},
	})
}

// hs274n is problems 274–276: the quadratic form of the n×n Hilbert matrix.
func hs274n(num, n int) *Problem {
	return build(spec{
		name: tpBName(num), num: num, n: n,
		x0:    tpBIndexed(n, func(i int) float64 { return -4 / float64(i) }),
		fstar: 0, xstar: vec(n, 0),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e(fmt.Sprintf("sum(i, 1, %d, sum(j, 1, %d, x[i]*x[j]/(i + j - 1)))", n, n)), nil
		},
	})
}

// hs277n is problems 277–280: min 1ᵀHx subject to H(x − 1) ≥ 0, x ≥ 0,
// with H the n×n Hilbert matrix; f* = 1ᵀH1 at x = 1.
func hs277n(num, n int) *Problem {
	fstar := 0.0
	for i := 1; i <= n; i++ {
		for j := 1; j <= n; j++ {
			fstar += 1 / float64(i+j-1)
		}
	}
	return build(spec{
		name: tpBName(num), num: num, n: n, kinds: strings.Repeat("i", n),
		x0:    vec(n, 0),
		xl:    vec(n, 0),
		fstar: fstar, xstar: vec(n, 1),
		model: func(b *book) (ad.Expr, ad.Vec) {
			g := make(ad.Vec, n)
			for i := range g {
				g[i] = b.e(fmt.Sprintf("sum(j, 1, %d, (x[j] - 1)/(%d + j - 1))", n, i+1))
			}
			return b.e(fmt.Sprintf("sum(i, 1, %d, sum(j, 1, %d, 1/(i + j - 1))*x[i])", n, n)), g
		},
	})
}

func hs282() *Problem {
	x0 := vec(10, 0)
	x0[0] = -1.2
	return build(spec{
		name: "hs282", num: 282, n: 10,
		x0:    x0,
		fstar: 0, xstar: vec(10, 1),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1 - 1) + sq(x10 - 1) + sum(i, 1, 9, 10*(10 - i)*sq(sq(x[i]) - x[i + 1]))"), nil
		},
	})
}

func hs283() *Problem {
	return build(spec{
		name: "hs283", num: 283, n: 10,
		x0:    vec(10, 0),
		fstar: 0, xstar: vec(10, 1),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("pow(sum(i, 1, 10, i*i*i*sq(x[i] - 1)), 3)"), nil
		},
	})
}

// hs284A and hs284B are the constraint data of problems 284 and 285:
// bᵢ − Σⱼ aᵢⱼxⱼ² ≥ 0, with bᵢ = Σⱼ aᵢⱼ (all constraints active at x = 1).
var (
	hs284A = [][]float64{
		{100, 100, 10, 5, 10, 0, 0, 25, 0, 10, 55, 5, 45, 20, 0},
		{90, 100, 10, 35, 20, 5, 0, 35, 55, 25, 20, 0, 40, 25, 10},
		{70, 50, 0, 55, 25, 100, 40, 50, 0, 30, 60, 10, 30, 0, 40},
		{50, 0, 0, 65, 35, 100, 35, 60, 0, 15, 0, 75, 35, 30, 65},
		{50, 10, 70, 60, 45, 45, 0, 35, 65, 5, 75, 100, 75, 10, 0},
		{40, 0, 50, 95, 50, 35, 10, 60, 0, 45, 15, 20, 0, 5, 5},
		{30, 60, 30, 90, 0, 30, 5, 25, 0, 70, 20, 25, 70, 15, 15},
		{20, 30, 40, 25, 40, 25, 15, 10, 80, 20, 30, 30, 5, 65, 20},
		{10, 70, 10, 35, 25, 65, 0, 30, 0, 0, 25, 0, 15, 50, 55},
		{5, 10, 100, 5, 20, 5, 10, 35, 95, 70, 20, 10, 35, 10, 30},
	}
	hs284B = []float64{385, 470, 560, 565, 645, 430, 485, 455, 390, 460}
)

// hs284n is problems 284 and 285, which differ in the objective −cᵀx.
func hs284n(num int, c []float64) *Problem {
	fstar := 0.0
	for _, v := range c {
		fstar -= v
	}
	return build(spec{
		name: tpBName(num), num: num, n: 15, kinds: strings.Repeat("i", 10),
		x0:    vec(15, 0),
		fstar: fstar, xstar: vec(15, 1),
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("c", c)
			b.mat("a", hs284A)
			b.vec("b", hs284B)
			g := make(ad.Vec, 10)
			for i := range g {
				g[i] = b.e(fmt.Sprintf("b[%d] - sum(j, 1, 15, a[%d][j]*sq(x[j]))", i+1, i+1))
			}
			return b.e("-sum(i, 1, 15, c[i]*x[i])"), g
		},
	})
}

func hs284() *Problem {
	return hs284n(284, []float64{20, 40, 400, 20, 80, 20, 40, 140, 380, 280, 80, 40, 140, 40, 120})
}

func hs285() *Problem {
	return hs284n(285, []float64{486, 640, 758, 776, 477, 707, 175, 619, 627, 614, 475, 377, 524, 468, 529})
}

func hs286() *Problem {
	x0 := append(vec(10, -1.2), vec(10, 1)...)
	return build(spec{
		name: "hs286", num: 286, n: 20,
		x0:    x0,
		fstar: 0, xstar: vec(20, 1),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sum(i, 1, 10, sq(x[i] - 1) + 100*sq(sq(x[i]) - x[i + 10]))"), nil
		},
	})
}

func hs287() *Problem {
	x0 := make([]float64, 20)
	for i := 0; i < 5; i++ {
		x0[i], x0[i+5], x0[i+10], x0[i+15] = -3, -1, -3, -1
	}
	return build(spec{
		name: "hs287", num: 287, n: 20,
		note:  "the objective scaled by 10⁻⁵ as in PROB.FOR",
		x0:    x0,
		fstar: 0, xstar: vec(20, 1),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("1e-5*sum(i, 1, 5, 100*sq(sq(x[i]) - x[i + 5]) + sq(x[i] - 1)" +
				" + 90*sq(sq(x[i + 10]) - x[i + 15]) + sq(x[i + 10] - 1)" +
				" + 10.1*(sq(x[i + 5] - 1) + sq(x[i + 15] - 1)) + 19.8*(x[i + 5] - 1)*(x[i + 15] - 1))"), nil
		},
	})
}

func hs288() *Problem {
	x0 := make([]float64, 20)
	for i := 0; i < 5; i++ {
		x0[i], x0[i+5], x0[i+10], x0[i+15] = 3, -1, 0, 1
	}
	return build(spec{
		name: "hs288", num: 288, n: 20,
		x0:    x0,
		fstar: 0, xstar: vec(20, 0),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sum(i, 1, 5, sq(x[i] + 10*x[i + 5]) + 5*sq(x[i + 10] - x[i + 15])" +
				" + pow(x[i + 5] - 2*x[i + 10], 4) + 10*pow(x[i] - x[i + 15], 4))"), nil
		},
	})
}

func hs289() *Problem {
	return build(spec{
		name: "hs289", num: 289, n: 30,
		x0:    tpBIndexed(30, func(i int) float64 { return math.Pow(-1, float64(i)) * (1 + float64(i)/30) }),
		fstar: 0, xstar: vec(30, 0),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("1 - exp(-sum(i, 1, 30, sq(x[i]))/60)"), nil
		},
	})
}

// hs290n is problems 290–293: (Σ i xᵢ²)².
func hs290n(num, n int) *Problem {
	return build(spec{
		name: tpBName(num), num: num, n: n,
		x0:    vec(n, 1),
		fstar: 0, xstar: vec(n, 0),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e(fmt.Sprintf("sq(sum(i, 1, %d, i*sq(x[i])))", n)), nil
		},
	})
}

// hs294n is problems 294–299: the chained Rosenbrock function.
func hs294n(num, n int) *Problem {
	x0 := tpBIndexed(n, func(i int) float64 {
		if i%2 == 0 {
			return 1
		}
		return -1.2
	})
	return build(spec{
		name: tpBName(num), num: num, n: n,
		note:  "the objective scaled by 10⁻⁴ and the start as in PROB.FOR",
		x0:    x0,
		fstar: 0, xstar: vec(n, 1),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e(fmt.Sprintf("1e-4*sum(i, 1, %d, 100*sq(x[i + 1] - sq(x[i])) + sq(1 - x[i]))", n-1)), nil
		},
	})
}

// hs300n is problems 300–302: a tridiagonal quadratic with x*ᵢ = n − i + 1
// and f* = −n.
func hs300n(num, n int) *Problem {
	return build(spec{
		name: tpBName(num), num: num, n: n,
		x0:    vec(n, 0),
		fstar: -float64(n), xstar: tpBIndexed(n, func(i int) float64 { return float64(n - i + 1) }),
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e(fmt.Sprintf("sq(x1) - 2*x1 + sum(i, 2, %d, 2*sq(x[i]) - 2*x[i - 1]*x[i])", n)), nil
		},
	})
}

// hs303n is problems 303–305: Σ xᵢ² + p² + p⁴ with p = Σ i xᵢ/2.
func hs303n(num, n int) *Problem {
	return build(spec{
		name: tpBName(num), num: num, n: n,
		x0:    vec(n, 0.1),
		fstar: 0, xstar: vec(n, 0),
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.let("p", fmt.Sprintf("sum(i, 1, %d, 0.5*i*x[i])", n))
			return b.e(fmt.Sprintf("sum(i, 1, %d, sq(x[i])) + sq(p) + pow(p, 4)", n)), nil
		},
	})
}

func hs307() *Problem {
	return build(spec{
		name: "hs307", num: 307, n: 2,
		note: "bounds xᵢ ≥ 0 as in PROB.FOR (without its cut-off of exp(i·xⱼ) for i·xⱼ > 20, " +
			"far from the optimum); f* and XStar: the printed 124.36 at (0.25783, 0.25783) polished " +
			"by Newton's method on the first-order conditions",
		x0:    []float64{0.3, 0.4},
		xl:    vec(2, 0),
		fstar: 124.3621824, xstar: []float64{0.2578252136703641, 0.2578252136703641},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sum(i, 1, 10, sq(2 + 2*i - exp(i*x1) - exp(i*x2)))"), nil
		},
	})
}

func hs308() *Problem {
	return build(spec{
		name: "hs308", num: 308, n: 2,
		x0:    []float64{3, 0.1},
		fstar: 0.77319906, xstar: []float64{-0.15543724, 0.69456378},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(sq(x1) + sq(x2) + x1*x2) + sq(sin(x1)) + sq(cos(x2))"), nil
		},
	})
}

func hs309() *Problem {
	return build(spec{
		name: "hs309", num: 309, n: 2,
		note:  polished,
		x0:    []float64{0, 0},
		fstar: -3.9871708, xstar: []float64{3.482684305981152, 3.9},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("1.41*pow(x1, 4) - 12.76*pow(x1, 3) + 39.91*sq(x1) - 51.93*x1 + 24.37 + sq(x2 - 3.9)"), nil
		},
	})
}

func hs310() *Problem {
	return build(spec{
		name: "hs310", num: 310, n: 2,
		note:  "the minimizers are not isolated (f = 0 on the axes x₁ = 0 and x₂ = 0, among others)",
		x0:    []float64{-1.2, 1},
		fstar: 0, xstar: []float64{0, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(x1*x2)*sq(1 - x1)*sq(1 - x1 - x2*pow(1 - x1, 5))"), nil
		},
	})
}

func hs311() *Problem {
	return build(spec{
		name: "hs311", num: 311, n: 2,
		note:  "a second optimum is (3.58443, −1.84813)",
		x0:    []float64{1, 1},
		fstar: 0, xstar: []float64{3, 2},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(sq(x1) + x2 - 11) + sq(x1 + sq(x2) - 7)"), nil
		},
	})
}

func hs312() *Problem {
	return build(spec{
		name: "hs312", num: 312, n: 2,
		note:  polished,
		x0:    []float64{1, 1},
		fstar: 0, xstar: []float64{-21.0266522626692, -36.76000878126764},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("sq(sq(x1) + 12*x2 - 1) + sq(49*(sq(x1) + sq(x2)) + 84*x1 + 2324*x2 - 681)"), nil
		},
	})
}

func hs313() *Problem {
	d := -math.Log(20) / 20
	return build(spec{
		name: "hs313", num: 313, n: 2,
		note:  "f* and XStar in closed form: f* = (1 + ln 20)/20 (printed 0.199786), x* = (3, 3 − ln(20)/20)",
		x0:    []float64{0, -1},
		fstar: (1 + math.Log(20)) / 20, xstar: []float64{3, 3 + d},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("1e-4*sq(x1 - 3) - (x2 - x1) + exp(20*(x2 - x1))"), nil
		},
	})
}

func hs314() *Problem {
	return build(spec{
		name: "hs314", num: 314, n: 2,
		note: "bounds xᵢ ≥ 1 as in PROB.FOR; f* and XStar: the stationary point found by Newton's method " +
			"on the first-order conditions from the printed point (1.789039, 1.3740024), where f = 0.1691054; " +
			"its f agrees with the printed 0.16904",
		x0:    []float64{2, 2},
		xl:    vec(2, 1),
		fstar: 0.1690426792, xstar: []float64{1.795402849554812, 1.377859778052933},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.let("g", "1 - sq(x1)/4 - sq(x2)")
			b.let("h", "x1 - 2*x2 + 1")
			return b.e("sq(x1 - 2) + sq(x2 - 1) + 0.04/g + sq(h)/0.2"), nil
		},
	})
}

func hs315() *Problem {
	return build(spec{
		name: "hs315", num: 315, n: 2, kinds: "iii",
		x0:    []float64{-0.1, -0.9},
		fstar: -0.8, xstar: []float64{0.6, 0.8},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-x2"), b.es("1 - 2*x2 + x1", "sq(x1) + sq(x2)", "1 - sq(x1) - sq(x2)")
		},
	})
}

// hs316n is problems 316–320: the point of the ellipse x₁²/100 + x₂²/d = 1
// nearest to (20, −20).
func hs316n(num int, d, fstar float64, xstar []float64, note string) *Problem {
	return build(spec{
		name: tpBName(num), num: num, n: 2, kinds: "e",
		note:  note,
		x0:    []float64{0, 0},
		fstar: fstar, xstar: xstar,
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.set("d", d)
			return b.e("sq(x1 - 20) + sq(x2 + 20)"), b.es("sq(x1)/100 + sq(x2)/d - 1")
		},
	})
}
