package hs

import (
	"math"
	"strconv"

	"github.com/fesd-go/fesd/ad"
)

// hs374 is a filter design problem: the modulus of the transfer function
// Σₖ xₖ e^{ikz} must stay within 1 ± x₁₀ on the pass band z ∈ [0, 0.225π]
// (ten points) and below x₁₀ on the stop band z ∈ [0.3π, π] (fifteen
// points), with x₁₀ minimal.
func hs374() *Problem {
	return build(spec{
		name: "hs374", num: 374, n: 10, kinds: "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii",
		note: "f(x*) = 0.23326347, 5.3·10⁻⁷ below the printed 0.233264; the coefficients in reverse order, " +
			"(x₉, …, x₁, x₁₀), are a second optimum (PROB.FOR lists both; both solvers end there from the start); " + polished,
		x0:    vec(10, 0.1),
		fstar: 0.233264,
		xstar: []float64{0.2182114510836253, 0.2326398433992135, 0.2784576419949164, 0.2681253438395312, 0.2120096330520341,
			0.125917950158627, 0.03410177728508627, -0.02613577739336649, -0.1422331434116564, 0.2332634692288891},
		model: func(b *book) (ad.Expr, ad.Vec) {
			modulus := func(z float64) string {
				b.set("z", z)
				b.let("G", "sq(sum(k, 1, 9, x[k]*cos(k*z))) + sq(sum(k, 1, 9, x[k]*sin(k*z)))")
				return "G"
			}
			var g ad.Vec
			for i := 0; i < 10; i++ {
				g = append(g, b.e(modulus(math.Pi/4*0.1*float64(i))+" - sq(1 - x10)"))
			}
			for i := 0; i < 10; i++ {
				g = append(g, b.e("sq(1 + x10) - "+modulus(math.Pi/4*0.1*float64(i))))
			}
			for i := 0; i < 15; i++ {
				g = append(g, b.e("sq(x10) - "+modulus(math.Pi/4*(1.2+0.2*float64(i)))))
			}
			return b.e("x10"), g
		},
	})
}

func hs375() *Problem {
	return build(spec{
		name: "hs375", num: 375, n: 10, kinds: "eeeeeeeee",
		note:  "PROB.FOR gives f* = −15.161 (five digits), FStar is f(x*) of the formulation; " + polished,
		x0:    vec(10, 1),
		fstar: -15.1610438245605,
		xstar: append(vec(8, 0.1064819753249014), 2.84387127242346, -2.64248608736022),
		model: func(b *book) (ad.Expr, ad.Vec) {
			var g ad.Vec
			for j := 1; j <= 8; j++ {
				g = append(g, b.e("sum(i, 1, 10, x[i]) - x"+strconv.Itoa(j)+"/2 - 1"))
			}
			g = append(g, b.e("sum(i, 1, 10, sq(x[i])/(1 + (i - 1)/3)) - 4"))
			return b.e("-sum(i, 1, 10, sq(x[i]))"), g
		},
	})
}

func hs380() *Problem {
	return build(spec{
		name: "hs380", num: 380, n: 12, kinds: "iii",
		note: "the objective 10⁵∏xᵢ^aᵢ written as 10⁵exp(Σaᵢ ln xᵢ) (xᵢ ≥ 0.1); XStar is the stationary point that IPOPT " +
			"and nlp reach (polished), f = 3.16822146; the printed point (2.6631947, 4.5172778, …) is not stationary, f = 3.1685900 there",
		x0:    vec(12, 4),
		xl:    vec(12, 0.1),
		xu:    vec(12, 100),
		fstar: 3.1682215,
		xstar: []float64{2.516490955963448, 2.537238418947597, 7.657355442447367, 1.184887590996618, 7.700285572035552, 1.302058954121861,
			4.281943500482079, 2.787681002521559, 1.738918002759889, 1.973965395917441, 6.634680786001309, 6.510823198809727},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", []float64{-0.00133172, -0.002270927, -0.00248546, -4.67, -4.671973, -0.00814, -0.008092,
				-0.005, -0.000909, -0.00088, -0.00119})
			b.vec("c", []float64{5.367373e-2, 2.1863746e-2, 9.7733533e-2, 6.6940803e-3,
				1e-6, 1e-5, 1e-6, 1e-10, 1e-8, 1e-2, 1e-4, 1.0898645e-1, 1.6108052e-4, 1e-23, 1.9304541e-6, 1e-3,
				1e-6, 1e-5, 1e-6, 1e-9, 1e-9, 1e-3, 1e-3, 1.0898645e-1, 1.6108052e-5, 1e-23, 1.9304541e-8, 1e-5,
				1.1184059e-4, 1e-4})
			return b.e("1e5*exp(sum(i, 1, 11, a[i]*log(x[i])))"),
				b.es("1 - c[1]*x1 - c[2]*x2 - c[3]*x3 - c[4]*x4*x5",
					"1 - c[5]*x1 - c[6]*x2 - c[7]*x3 - c[8]*x4*x12 - c[9]*x5/x12 - c[10]*x6/x12 - c[11]*x7*x12"+
						" - c[12]*x4*x5 - c[13]*x2*x5/x12 - c[14]*x2*x4*x5 - c[15]*x2*x5/(x4*sq(x12)) - c[16]*x10/x12",
					"1 - c[17]*x1 - c[18]*x2 - c[19]*x3 - c[20]*x4 - c[21]*x5 - c[22]*x6 - c[23]*x8 - c[24]*x4*x5"+
						" - c[25]*x2*x5 - c[26]*x2*x4*x5 - c[27]*x2*x5/x4 - c[28]*x9 - c[29]*x1*x9 - c[30]*x11")
		},
	})
}

// hs381r etc. are the data of problems 381 and 382 (a feed mix).
var (
	hs381r = []float64{0.8, 1.1, 0.85, 3.45, 2, 2.1, 3, 0.8, 0.45, 0.72, 1.8, 3, 0.6}
	hs381s = []float64{11.6, 13.7, 9.5, 48.5, 31.9, 51.1, 65.5, 0, 0, 0, 21.8, 46.9, 0}
	hs381u = []float64{0.05, 0.07, 0, 0.33, 0, 1.27, 1.27, 23.35, 35.84, 0.81, 1.79, 7.34, 0}
	hs381v = []float64{0.35, 0.37, 0.1, 0.62, 0, 1.03, 1.69, 18.21, 0.01, 0.08, 0.31, 1.59, 22.45}
)

func hs381() *Problem {
	return build(spec{
		name: "hs381", num: 381, n: 13, kinds: "iiie",
		note: "a linear program; PROB.FOR gives f* = 1.0149 (five digits), FStar and XStar are its solution (a vertex); " +
			"the printed point (0.7864989, …, 0.019883712) is not feasible (the first constraint is −0.14)",
		x0:    vec(13, 0.1),
		xl:    vec(13, 0),
		fstar: 1.014897532512993,
		xstar: []float64{0.7855860047207746, 0, 0, 0, 0, 0.1739178541142664, 0, 0, 0.02064299735041414, 0, 0, 0, 0.01985314381454479},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("r", hs381r)
			b.vec("s", hs381s)
			b.vec("u", hs381u)
			b.vec("v", hs381v)
			return b.e("sum(i, 1, 13, r[i]*x[i])"),
				b.es("sum(i, 1, 13, s[i]*x[i]) - 18", "sum(i, 1, 13, u[i]*x[i]) - 1",
					"sum(i, 1, 13, v[i]*x[i]) - 0.9", "sum(i, 1, 13, x[i]) - 1")
		},
	})
}

func hs382() *Problem {
	return build(spec{
		name: "hs382", num: 382, n: 13, kinds: "iiie",
		note: "a convex program; PROB.FOR gives f* = 1.03831 (six digits), FStar and XStar are its solution; " +
			"the printed point (0.769578, 0, …, 0.020990697) is not feasible (the first constraint is −0.31, Σxᵢ = 1.186)",
		x0:    vec(13, 0.1),
		xl:    vec(13, 0),
		fstar: 1.038311858810291,
		xstar: []float64{0.1320493384711231, 0, 0, 0, 0, 0.3262691213827502, 0, 0, 0.5166779397203933, 0, 0, 0, 0.02500360042573331},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("r", hs381r)
			b.vec("s", hs381s)
			b.vec("u", hs381u)
			b.vec("v", hs381v)
			b.vec("z1", []float64{0.4844, 0.3003, 0.1444, 0.0588, 4.9863, 0.0653, 21.0222, 0, 0, 0, 0.297, 9.2933, 0})
			b.vec("z2", []float64{0.0001, 0, 0, 0, 0, 0.004, 0.1404, 1.3631, 0.5138, 0.0289, 0.0097, 0.3893, 0})
			b.vec("z3", []float64{0.001, 0.0009, 0.0001, 0.0005, 0, 0.0021, 0.0825, 0.2073, 0, 0.0004, 0.0005, 0.0107, 1.0206})
			return b.e("sum(i, 1, 13, r[i]*x[i])"),
				b.es("sum(i, 1, 13, s[i]*x[i]) - 1.645*sqrt(sum(i, 1, 13, z1[i]*sq(x[i]))) - 18",
					"sum(i, 1, 13, u[i]*x[i]) - 1.645*sqrt(sum(i, 1, 13, z2[i]*sq(x[i]))) - 1",
					"sum(i, 1, 13, v[i]*x[i]) - 1.645*sqrt(sum(i, 1, 13, z3[i]*sq(x[i]))) - 0.9",
					"sum(i, 1, 13, x[i]) - 1")
		},
	})
}

func hs384() *Problem {
	return build(spec{
		name: "hs384", num: 384, n: 15, kinds: "iiiiiiiiii",
		note:  polished,
		x0:    vec(15, 0),
		fstar: -8310.2590,
		xstar: []float64{0.8609538285373568, 0.9173612853396917, 0.9197364432966137, 0.8960056326055621, 1.037294875057445,
			0.9730890057140676, 0.8224363201211746, 1.198721749594141, 1.156334975832488, 1.144386760852346,
			1.030568065547996, 0.9094946110800302, 1.082045208507155, 0.8468237668862618, 1.172372177496096},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("d", []float64{486, 640, 758, 776, 477, 707, 175, 619, 627, 614, 475, 377, 524, 468, 529})
			b.vec("bb", []float64{385, 470, 560, 565, 645, 430, 485, 455, 390, 860})
			b.mat("a", [][]float64{
				{100, 100, 10, 5, 10, 0, 0, 25, 0, 10, 55, 5, 45, 20, 0},
				{90, 100, 10, 35, 20, 5, 0, 35, 55, 25, 20, 0, 40, 25, 10},
				{70, 50, 0, 55, 25, 100, 40, 50, 0, 30, 60, 10, 30, 0, 40},
				{50, 0, 0, 65, 35, 100, 35, 60, 0, 15, 0, 75, 35, 30, 65},
				{50, 10, 70, 60, 45, 45, 0, 35, 65, 5, 75, 100, 75, 10, 0},
				{40, 0, 50, 95, 50, 35, 10, 60, 0, 45, 15, 20, 0, 5, 5},
				{30, 60, 30, 90, 0, 30, 5, 25, 0, 70, 20, 25, 70, 15, 15},
				{20, 30, 40, 25, 40, 25, 15, 10, 80, 20, 30, 30, 5, 65, 20},
				{10, 70, 10, 35, 25, 65, 0, 30, 0, 0, 25, 0, 15, 50, 55},
				{5, 10, 500, 5, 20, 5, 10, 35, 95, 70, 20, 10, 35, 10, 30},
			})
			var g ad.Vec
			for i := 1; i <= 10; i++ {
				b.set("i", float64(i))
				g = append(g, b.e("bb[i] - sum(j, 1, 15, a[i][j]*sq(x[j]))"))
			}
			return b.e("-sum(i, 1, 15, d[i]*x[i])"), g
		},
	})
}
