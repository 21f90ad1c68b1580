package hs

import (
	"fmt"
	"strings"

	"github.com/fesd-go/fesd/ad"
)

// Problems 101–119 of the book that are not in p100, written with book (see
// book.go).

// hs101 is problems 101–103, which differ in the exponent a of x₇ in the
// first term of the objective f. The book's pair 100 ≤ f(x) ≤ 3000 is one
// range constraint.
func hs101(num int, a, fstar float64, xstar []float64) *Problem {
	return build(spec{
		name: fmt.Sprintf("hs%03d", num), num: num, n: 7,
		note:  "the pair of inequalities on f as one range constraint; " + polished,
		gl:    []float64{0, 0, 0, 0, 100},
		gu:    []float64{inf, inf, inf, inf, 3000},
		x0:    vec(7, 6),
		xl:    []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.01},
		xu:    vec(7, 10),
		fstar: fstar, xstar: xstar,
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.set("a", a)
			f := "10*x1*sq(x4)*pow(x7, a)/(x2*pow(x6, 3)) + 15*x3*x4/(x1*sq(x2)*x5*pow(x7, 0.5))" +
				" + 20*x2*x6/(sq(x1)*x4*sq(x5)) + 25*sq(x1)*sq(x2)*pow(x5, 0.5)*x7/(x3*sq(x6))"
			return b.e(f), b.es(
				"1 - 0.5*pow(x1, 0.5)*x7/(x3*sq(x6)) - 0.7*pow(x1, 3)*x2*x6*pow(x7, 0.5)/sq(x3)"+
					" - 0.2*x3*pow(x6, 2.0/3)*pow(x7, 0.25)/(x2*pow(x4, 0.5))",
				"1 - 1.3*x2*x6/(pow(x1, 0.5)*x3*x5) - 0.8*x3*sq(x6)/(x4*x5)"+
					" - 3.1*pow(x2, 0.5)*pow(x6, 1.0/3)/(x1*sq(x4)*x5)",
				"1 - 2*x1*x5*pow(x7, 1.0/3)/(pow(x3, 1.5)*x6) - 0.1*x2*x5/(pow(x3, 0.5)*x6*pow(x7, 0.5))"+
					" - x2*pow(x3, 0.5)*x5/x1 - 0.65*x3*x5*x7/(sq(x2)*x6)",
				"1 - 0.2*x2*pow(x5, 0.5)*pow(x7, 1.0/3)/(sq(x1)*x4)"+
					" - 0.3*pow(x1, 0.5)*sq(x2)*x3*pow(x4, 1.0/3)*pow(x7, 0.25)/pow(x5, 2.0/3)"+
					" - 0.4*x3*x5*pow(x7, 0.75)/(pow(x1, 3)*sq(x2)) - 0.5*x4*pow(x7, 0.5)/sq(x3)",
				f)
		},
	})
}

func hs101p() *Problem {
	return hs101(101, -0.25, 1809.76476, []float64{2.856158555755148, 0.6108230308034505, 2.150812562164474, 4.712873709241234, 0.9994875408574649, 1.347507504828332, 0.03165276650277428})
}

func hs102() *Problem {
	return hs101(102, 0.125, 911.880571, []float64{3.89625319107028, 0.8093587601054144, 2.664385993775489, 4.300912874794019, 0.8535549352485835, 1.095287444576103, 0.02731045965771926})
}

func hs103() *Problem {
	return hs101(103, 0.5, 543.667958, []float64{4.394104510526406, 0.8544687387974246, 2.843230313950895, 3.39997866768656, 0.7229261330073027, 0.8704063818044576, 0.02463882632722851})
}

func hs104() *Problem {
	f := "0.4*pow(x1, 0.67)*pow(x7, -0.67) + 0.4*pow(x2, 0.67)*pow(x8, -0.67) + 10 - x1 - x2"
	return build(spec{
		name: "hs104", num: 104, n: 8,
		note:  "the pair of inequalities on f as one range constraint; " + polished,
		gl:    []float64{0, 0, 0, 0, 0.1},
		gu:    []float64{inf, inf, inf, inf, 4.2},
		x0:    []float64{6, 3, 0.4, 0.2, 6, 6, 1, 0.5},
		xl:    vec(8, 0.1),
		xu:    vec(8, 10),
		fstar: 3.9511634396,
		xstar: []float64{6.465114028369102, 2.232708647985227, 0.6673974912866294, 0.595756422900371, 5.932675677909848, 5.527234564976939, 1.013322008902561, 0.400668229125703},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e(f), b.es(
				"1 - 0.0588*x5*x7 - 0.1*x1",
				"1 - 0.0588*x6*x8 - 0.1*x1 - 0.1*x2",
				"1 - 4*x3/x5 - 2/(pow(x3, 0.71)*x5) - 0.0588*x7/pow(x3, 1.3)",
				"1 - 4*x4/x6 - 2/(pow(x4, 0.71)*x6) - 0.0588*x8/pow(x4, 1.3)",
				f)
		},
	})
}

// hs105Y are the observations yᵢ, i = 1, …, 235, of problem 105, as runs
// (value, count).
var hs105Y = func() []float64 {
	runs := [][2]float64{
		{95, 1}, {105, 1}, {110, 4}, {115, 4}, {120, 15}, {125, 15}, {130, 15}, {135, 13},
		{140, 21}, {145, 12}, {150, 17}, {155, 4}, {160, 20}, {165, 8}, {170, 17}, {175, 8},
		{180, 6}, {185, 6}, {190, 7}, {195, 4}, {200, 3}, {205, 3}, {210, 8}, {215, 1},
		{220, 6}, {230, 5}, {235, 1}, {240, 7}, {245, 1}, {250, 2},
	}
	var y []float64
	for _, r := range runs {
		for k := 0; k < int(r[1]); k++ {
			y = append(y, r[0])
		}
	}
	return y
}()

func hs105() *Problem {
	return build(spec{
		name: "hs105", num: 105, n: 8, kinds: "i",
		note:  polished + " (the book prints f* to six digits)",
		x0:    []float64{0.1, 0.2, 100, 125, 175, 11.2, 13.2, 15.8},
		xl:    []float64{0.001, 0.001, 100, 130, 170, 5, 5, 5},
		xu:    []float64{0.499, 0.449, 180, 210, 240, 25, 25, 25},
		fstar: 1136.36,
		xstar: []float64{0.3937486978723866, 0.449, 130.9837275049657, 164.6527050841848, 221.4712952182381, 12.24153425703554, 17.73675851107838, 17.03339360047834},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("y", hs105Y)
			return b.e("-sum(i, 1, 235, log((x1/x6*exp(-sq(y[i] - x3)/(2*sq(x6)))" +
					" + x2/x7*exp(-sq(y[i] - x4)/(2*sq(x7)))" +
					" + (1 - x2 - x1)/x8*exp(-sq(y[i] - x5)/(2*sq(x8))))/sqrt(2*3.141592653589793)))"),
				b.es("1 - x1 - x2")
		},
	})
}

func hs107() *Problem {
	return build(spec{
		name: "hs107", num: 107, n: 9, kinds: "eeeeee",
		x0:    []float64{0.8, 0.8, 0.2, 0.2, 1.0454, 1.0454, 0, 0, 0},
		xl:    []float64{0, 0, -inf, -inf, 0.90909, 0.90909, 0.90909, -inf, -inf},
		xu:    []float64{inf, inf, inf, inf, 1.0909, 1.0909, 1.0909, inf, inf},
		fstar: 5055.011803,
		xstar: []float64{0.6670127623153277, 1.022384717050832, 0.22828714466752, 0.1848217561297505, 1.0909, 1.0909, 1.069036003142822, 0.1066106224065641, -0.3387876190699065},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.let("c", "48.4/50.176*sin(0.25)")
			b.let("d", "48.4/50.176*cos(0.25)")
			b.let("y1", "sin(x8)")
			b.let("y2", "cos(x8)")
			b.let("y3", "sin(x9)")
			b.let("y4", "cos(x9)")
			b.let("y5", "sin(x8 - x9)")
			b.let("y6", "cos(x8 - x9)")
			return b.e("3000*x1 + 1000*pow(x1, 3) + 2000*x2 + 666.667*pow(x2, 3)"), b.es(
				"0.4 - x1 + 2*c*sq(x5) - x5*x6*(d*y1 + c*y2) - x5*x7*(d*y3 + c*y4)",
				"0.4 - x2 + 2*c*sq(x6) + x5*x6*(d*y1 - c*y2) + x6*x7*(d*y5 - c*y6)",
				"0.8 + 2*c*sq(x7) + x5*x7*(d*y3 - c*y4) - x6*x7*(d*y5 + c*y6)",
				"0.2 - x3 + 2*d*sq(x5) + x5*x6*(c*y1 - d*y2) + x5*x7*(c*y3 - d*y4)",
				"0.2 - x4 + 2*d*sq(x6) - x5*x6*(c*y1 + d*y2) - x6*x7*(c*y5 + d*y6)",
				"-0.337 + 2*d*sq(x7) - x5*x7*(c*y3 + d*y4) + x6*x7*(c*y5 - d*y6)")
		},
	})
}

func hs109() *Problem {
	return build(spec{
		name: "hs109", num: 109, n: 9, kinds: "iiiieeeeee",
		note:  polished,
		x0:    vec(9, 0),
		xl:    []float64{0, 0, -0.55, -0.55, 196, 196, 196, -400, -400},
		xu:    []float64{inf, inf, 0.55, 0.55, 252, 252, 252, 800, 800},
		fstar: 5362.06928,
		xstar: []float64{675.0253392597419, 1134.021089714841, 0.1334850509182755, -0.3711902626477799, 252, 252, 201.4658577338129, 426.6190056621176, 368.4881990875213},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.set("a", 50.176)
			b.let("b", "sin(0.25)")
			b.let("c", "cos(0.25)")
			return b.e("3*x1 + 1e-6*pow(x1, 3) + 2*x2 + 0.522074e-6*pow(x2, 3)"), b.es(
				"x4 - x3 + 0.55",
				"x3 - x4 + 0.55",
				"2250000 - sq(x1) - sq(x8)",
				"2250000 - sq(x2) - sq(x9)",
				"x5*x6*sin(-x3 - 0.25) + x5*x7*sin(-x4 - 0.25) + 2*b*sq(x5) - a*x1 + 400*a",
				"x5*x6*sin(x3 - 0.25) + x6*x7*sin(x3 - x4 - 0.25) + 2*b*sq(x6) - a*x2 + 400*a",
				"x5*x7*sin(x4 - 0.25) + x6*x7*sin(x4 - x3 - 0.25) + 2*b*sq(x7) + 881.779*a",
				"a*x8 + x5*x6*cos(-x3 - 0.25) + x5*x7*cos(-x4 - 0.25) - 200*a - 2*c*sq(x5) + 0.7533e-3*a*sq(x5)",
				"a*x9 + x5*x6*cos(x3 - 0.25) + x6*x7*cos(x3 - x4 - 0.25) - 2*c*sq(x6) + 0.7533e-3*a*sq(x6) - 200*a",
				"x5*x7*cos(x4 - 0.25) + x6*x7*cos(x4 - x3 - 0.25) - 2*c*sq(x7) - 22.938*a + 0.7533e-3*a*sq(x7)")
		},
	})
}

// hs111C are the constants cⱼ of problems 111 and 112.
var hs111C = []float64{-6.089, -17.164, -34.054, -5.914, -24.721, -14.986, -24.100, -10.708, -26.662, -22.179}

func hs111() *Problem {
	return build(spec{
		name: "hs111", num: 111, n: 10, kinds: "eee",
		note:  polished,
		x0:    vec(10, -2.3),
		xl:    vec(10, -100),
		xu:    vec(10, 100),
		fstar: -47.76109026,
		xstar: []float64{-3.202311588551214, -1.912366597080982, -0.2444267477503837, -6.561177271658289, -0.7230979632953048, -7.274232280188145, -3.597237422327776, -4.020316730690849, -3.288376881360255, -2.334371739220618},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("c", hs111C)
			b.let("S", "log(sum(k, 1, 10, exp(x[k])))")
			return b.e("sum(j, 1, 10, exp(x[j])*(c[j] + x[j] - S))"), b.es(
				"exp(x1) + 2*exp(x2) + 2*exp(x3) + exp(x6) + exp(x10) - 2",
				"exp(x4) + 2*exp(x5) + exp(x6) + exp(x7) - 1",
				"exp(x3) + exp(x7) + exp(x8) + 2*exp(x9) + exp(x10) - 1")
		},
	})
}

func hs112() *Problem {
	return build(spec{
		name: "hs112", num: 112, n: 10, kinds: "eee",
		note:  polished,
		x0:    vec(10, 0.1),
		xl:    vec(10, 1e-6),
		fstar: -47.76109026,
		xstar: []float64{0.04066808735569023, 0.1477303543408225, 0.7831533540092334, 0.001414219809030122, 0.4852466486992728, 0.0006931720784210661, 0.02739931071400333, 0.01794727958492541, 0.03731436591303034, 0.09687132386577715},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("c", hs111C)
			b.let("S", "sum(k, 1, 10, x[k])")
			return b.e("sum(j, 1, 10, x[j]*(c[j] + log(x[j]/S)))"), b.es(
				"x1 + 2*x2 + 2*x3 + x6 + x10 - 2",
				"x4 + 2*x5 + x6 + x7 - 1",
				"x3 + x7 + x8 + 2*x9 + x10 - 1")
		},
	})
}

func hs114() *Problem {
	return build(spec{
		name: "hs114", num: 114, n: 10, kinds: "iiiiiiiieee",
		note:  polished,
		x0:    []float64{1745, 12000, 110, 3048, 1974, 89.2, 92.8, 8, 3.6, 145},
		xl:    []float64{1e-5, 1e-5, 1e-5, 1e-5, 1e-5, 85, 90, 3, 1.2, 145},
		xu:    []float64{2000, 16000, 120, 5000, 2000, 93, 95, 12, 4, 162},
		fstar: -1768.80696,
		xstar: []float64{1698.094765188968, 15818.61492418295, 54.10268233324734, 3031.225217368007, 2000, 90.11542219898668, 95, 10.49329830670555, 1.561636363636363, 153.5353535353536},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.set("a", 0.99)
			b.set("b", 0.9)
			b.let("G1", "35.82 - 0.222*x10 - b*x9")
			b.let("G2", "-133 + 3*x7 - a*x10")
			b.let("G5", "1.12*x1 + 0.13167*x1*x8 - 0.00667*x1*sq(x8) - a*x4")
			b.let("G6", "57.425 + 1.098*x8 - 0.038*sq(x8) + 0.325*x6 - a*x7")
			return b.e("5.04*x1 + 0.035*x2 + 10*x3 + 3.36*x5 - 0.063*x4*x7"), b.es(
				"G1", "G2", "-G1 + x9*(1/b - b)", "-G2 + (1/a - a)*x10",
				"G5", "G6", "-G5 + (1/a - a)*x4", "-G6 + (1/a - a)*x7",
				"1.22*x4 - x1 - x5",
				"98000*x3/(x4*x9 + 1000*x3) - x6",
				"(x2 + x5)/x1 - x8")
		},
	})
}

func hs116() *Problem {
	// The book's constraints 4 and 15 (50 ≤ x₁₁ + x₁₂ + x₁₃ ≤ 250) are one
	// range constraint, the last here.
	gl, gu := vec(14, 0), vec(14, inf)
	gl[13], gu[13] = 50, 250
	return build(spec{
		name: "hs116", num: 116, n: 13,
		note: "the pair of inequalities on x₁₁ + x₁₂ + x₁₃ as one range constraint",
		gl:   gl, gu: gu,
		x0:    []float64{0.5, 0.8, 0.9, 0.1, 0.14, 0.5, 489, 80, 650, 450, 150, 150, 150},
		xl:    []float64{0.1, 0.1, 0.1, 0.0001, 0.1, 0.1, 0.1, 0.1, 500, 0.1, 1, 0.0001, 0.0001},
		xu:    []float64{1, 1, 1, 0.1, 0.9, 0.9, 1000, 1000, 1000, 500, 150, 150, 150},
		fstar: 97.588409,
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.set("a", 0.002)
			b.set("b", 1.262626)
			b.set("c", 1.231059)
			b.set("d", 0.03475)
			b.set("e", 0.975)
			b.set("f", 0.00975)
			return b.e("x11 + x12 + x13"), b.es(
				"x3 - x2",
				"x2 - x1",
				"1 - a*x7 + a*x8",
				"x13 - b*x10 + c*x3*x10",
				"x5 - d*x2 - e*x2*x5 + f*sq(x2)",
				"x6 - d*x3 - e*x3*x6 + f*sq(x3)",
				"x4 - d*x1 - e*x1*x4 + f*sq(x1)",
				"x12 - b*x9 + c*x2*x9",
				"x11 - b*x8 + c*x1*x8",
				"x5*x7 - x1*x8 - x4*x7 + x4*x8",
				"1 - a*(x2*x9 + x5*x8 - x1*x8 - x6*x9) - x5 - x6",
				"x2*x9 - x3*x10 - x6*x9 - 500*x2 + 500*x6 + x2*x10",
				"x2 - 0.9 - a*(x2*x10 - x3*x10)",
				"x11 + x12 + x13")
		},
	})
}

func hs117() *Problem {
	x0 := vec(15, 0.001)
	x0[6] = 60
	return build(spec{
		name: "hs117", num: 117, n: 15, kinds: "iiiii",
		note:  "the dual of problem 86",
		x0:    x0,
		xl:    vec(15, 0),
		fstar: 32.34867897,
		xstar: []float64{0, 0, 5.174040727698171, 0, 3.06110868775845, 11.83954566480073, 0, 0, 0.1038961907706159, 0, 0.3, 0.333467606534607, 0.4, 0.4283101047816987, 0.2239648735607984},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.mat("a", hs086A)
			b.vec("b", hs086B)
			b.mat("c", hs086C)
			b.vec("d", hs086D)
			b.vec("e", hs086E)
			g := make(ad.Vec, 5)
			for j := range g {
				g[j] = b.e(fmt.Sprintf("2*sum(i, 1, 5, c[i][%[1]d]*x[10+i]) + 3*d[%[1]d]*sq(x[10+%[1]d]) + e[%[1]d]"+
					" - sum(i, 1, 10, a[i][%[1]d]*x[i])", j+1))
			}
			return b.e("-sum(i, 1, 10, b[i]*x[i]) + sum(j, 1, 5, sum(i, 1, 5, c[i][j]*x[10+i]*x[10+j]))" +
				" + 2*sum(j, 1, 5, d[j]*pow(x[10+j], 3))"), g
		},
	})
}

func hs119() *Problem {
	// The nonzero aᵢⱼ (all equal to 1), i ≤ j, of the objective.
	pairs := [][2]int{
		{1, 1}, {1, 4}, {1, 7}, {1, 8}, {1, 16}, {2, 2}, {2, 3}, {2, 7}, {2, 10}, {3, 3}, {3, 7}, {3, 9},
		{3, 10}, {3, 14}, {4, 4}, {4, 7}, {4, 11}, {4, 15}, {5, 5}, {5, 6}, {5, 10}, {5, 12}, {5, 16},
		{6, 6}, {6, 8}, {6, 15}, {7, 7}, {7, 11}, {7, 13}, {8, 8}, {8, 10}, {8, 15}, {9, 9}, {9, 12},
		{9, 16}, {10, 10}, {10, 14}, {11, 11}, {11, 13}, {12, 12}, {12, 14}, {13, 13}, {13, 14},
		{14, 14}, {15, 15}, {16, 16},
	}
	var f []string
	for _, p := range pairs {
		f = append(f, fmt.Sprintf("(sq(x%[1]d) + x%[1]d + 1)*(sq(x%[2]d) + x%[2]d + 1)", p[0], p[1]))
	}
	return build(spec{
		name: "hs119", num: 119, n: 16, kinds: "eeeeeeee",
		note:  polished,
		x0:    vec(16, 10),
		xl:    vec(16, 0),
		xu:    vec(16, 5),
		fstar: 244.899698,
		xstar: []float64{0.03984735141112249, 0.7919831556883807, 0.2028703302510359, 0.844357916365675, 1.269906452866503, 0.9347387078246431, 1.681961969246919, 0.1553008773895687,
			1.567870333551801, 0, 0, 0, 0.6602040660869544, 0, 0.6742559268682825, 0},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e(strings.Join(f, " + ")), b.es(
				"0.22*x1 + 0.20*x2 + 0.19*x3 + 0.25*x4 + 0.15*x5 + 0.11*x6 + 0.12*x7 + 0.13*x8 + x9 - 2.5",
				"-1.46*x1 - 1.30*x3 + 1.82*x4 - 1.15*x5 + 0.80*x7 + x10 - 1.1",
				"1.29*x1 - 0.89*x2 - 1.16*x5 - 0.96*x6 - 0.49*x8 + x11 + 3.1",
				"-1.10*x1 - 1.06*x2 + 0.95*x3 - 0.54*x4 - 1.78*x6 - 0.41*x7 + x12 + 3.5",
				"-1.43*x4 + 1.51*x5 + 0.59*x6 - 0.33*x7 - 0.43*x8 + x13 - 1.3",
				"-1.72*x2 - 0.33*x3 + 1.62*x5 + 1.24*x6 + 0.21*x7 - 0.26*x8 + x14 - 2.1",
				"1.12*x1 + 0.31*x4 + 1.12*x7 - 0.36*x9 + x15 - 2.3",
				"0.45*x2 + 0.26*x3 - 1.10*x4 + 0.58*x5 - 1.03*x7 + 0.10*x8 + x16 + 1.5")
		},
	})
}
