package hs

import (
	"math"

	"github.com/fesd-go/fesd/ad"
)

// Problems 348–369 of Schittkowski (1987), written with book (see book.go),
// from Schittkowski's PROB.FOR (the 2011 version); FStar is FEX there.
//
// Not included: problem 349 (a reactor design with branches on x₂ and
// absolute values), whose printed optimum has x₃ = x₂ − 75, where the
// logarithm in its log-mean temperature difference, ln|(x₂ − x₃ − 75)/(x₂ −
// 100)|, is singular; problem 357, whose objective is built with arcsin and
// arctan and a case analysis of a four-bar linkage; and problems 362 and
// 363, whose objectives are simulations (a time-stepping vehicle model with
// gear changes, and a rotating disk solved by Runge–Kutta and regula
// falsi), not smooth formulas.

func hs348() *Problem {
	inf := math.Inf(1)
	return build(spec{
		name: "hs348", num: 348, n: 3, kinds: "e",
		note: "a heat exchanger; x₁ here is 100 times PROB.FOR's x₁ (the fin pitch, 0.04 at the start, ≤ 0.044), " +
			"whose curvature ∝ 1/x₁ the finite-difference checks cannot resolve at that scale; tanh written with exp, " +
			"and PROB.FOR's safeguards (max(·, −100) in the exponent, lower limits on Re and Ho) left out, inactive near the optimum",
		x0:    []float64{4, 18, 144},
		xl:    []float64{-inf, 13.13, -inf},
		xu:    []float64{4.4, 24, 600},
		fstar: 36.970840,
		xstar: []float64{4.4, 24, 85.60757605833015},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.set("rho", 0.0747)
			b.set("mu", 0.0443)
			b.set("cp", 0.24)
			b.set("pr", 0.709)
			b.set("pi", 3.14159)
			b.set("d", 0.525)
			b.set("tin", 75)
			b.set("tsurf", 45)
			b.set("h", 13.13)
			b.set("w", 3.166)
			b.set("rhoc", 559)
			b.set("rhoa", 169)
			b.let("pitch", "x1/100")
			b.let("af", "x2/pitch*2*(w*h - 30*pi*sq(d)/4)/144")
			b.let("at", "30*pi*d*x2/144")
			b.let("ac", "(h*x2 - 10*d*x2 - x2/pitch*0.006*h)/144")
			b.let("gi", "rho*x3*h*x2/(ac*144)*60")
			b.let("re", "gi*1.083/(12*mu)")
			b.let("ho", "0.195*gi*cp/(pow(pr, 0.67)*pow(re, 0.35))")
			b.let("mdot", "rho*x3*h*x2/144*60")
			b.let("delp", "0.1833e-5/rho*sq(gi)*3*(af/ac*pow(re, -0.5) + 0.1*at/ac)")
			b.let("xv", "0.0732*sqrt(ho)")
			b.let("etaf", "(1 - 2/(exp(2*xv) + 1))/xv")
			b.let("etas", "1 - af/(af + at)*(1 - etaf)")
			b.let("q", "(1 - exp(-etas*ho*(af + at)/(mdot*cp)))*(tin - tsurf)*mdot*cp")
			b.let("costm", "sqrt(delp/rho*mdot/1.98e6)/0.0718 + 4")
			b.let("costt", "1.01*30*x2*pi/4*(sq(d) - sq(d - 0.036))*rhoc/1728")
			b.let("costf", "0.47*h*w*0.006*rhoa/1728*x2/pitch")
			return b.e("costm + costt + costf"), b.es("6000 - q")
		},
	})
}

func hs356() *Problem {
	inf := math.Inf(1)
	return build(spec{
		name: "hs356", num: 356, n: 4, kinds: "iiiii",
		note:  "welded beam design",
		x0:    []float64{1, 7, 8, 1},
		xl:    []float64{0.125, 0, 0, -inf},
		fstar: 2.3811648,
		xstar: []float64{0.2443689758017259, 6.218793412061386, 8.291471390486793, 0.2443689758017259},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.set("l", 14)
			b.set("fh", 6000)
			b.set("e", 3e7)
			b.set("gh", 1.2e7)
			b.let("t1", "fh/(1.414*x1*x2)")
			b.let("m", "fh*(l + x2/2)")
			b.let("r", "sqrt(sq(x2)/4 + sq((x3 + x1)/2))")
			b.let("j", "2*0.707*x1*x2*(sq(x2)/12 + sq((x3 + x1)/2))")
			b.let("t2", "m*r/j")
			b.let("t", "sqrt(sq(t1) + 2*t1*t2*x2/(2*r) + sq(t2))")
			b.let("ei", "e*x3*pow(x4, 3)/12")
			b.let("gj", "gh*x3*pow(x4, 3)/3")
			b.let("pc", "4.013*sqrt(ei*gj)*(1 - x3/(2*l)*sqrt(ei/gj))/sq(l)")
			return b.e("1.10471*sq(x1)*x2 + 0.04811*x3*x4*(14 + x2)"),
				b.es("x4 - x1",
					"(13600 - t)/10000",
					"(30000 - 6*fh*l/(x4*sq(x3)))/10000",
					"(pc - fh)/10000",
					"0.25 - 4*fh*pow(l, 3)/(e*x4*pow(x3, 3))")
		},
	})
}

func hs365() *Problem {
	inf := math.Inf(1)
	return build(spec{
		name: "hs365", num: 365, n: 7, kinds: "iiiii",
		x0:    []float64{3, 0, 2, -1.5, 1.5, 5, 0},
		xl:    []float64{0, -inf, 0, -inf, 1, -inf, 1},
		fstar: 23.313708,
		xstar: []float64{2 + 2*math.Sqrt2, 0, 2 + 2*math.Sqrt2, 1, 1 + math.Sqrt2, 1 + math.Sqrt2, 1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.let("p", "sqrt(sq(x2) + sq(x3))")
			b.let("q", "sqrt(sq(x3) + sq(x2 - x1))")
			return b.e("x1*x3"),
				b.es("sq(x4 - x6) + sq(x5 - x7) - 4",
					"(x3*x4 - x2*x5)/p - 1",
					"(x3*x6 - x2*x7)/p - 1",
					"(x1*x3 + (x2 - x1)*x5 - x3*x4)/q - 1",
					"(x1*x3 + (x2 - x1)*x7 - x3*x6)/q - 1")
		},
	})
}

func hs366() *Problem {
	return build(spec{
		name: "hs366", num: 366, n: 7, kinds: "iiiiiiiiiiiiii",
		x0:    []float64{1745, 110, 3048, 89, 92.8, 8, 145},
		xl:    []float64{1, 1, 1, 85, 90, 3, 145},
		xu:    []float64{2000, 120, 5000, 93, 95, 12, 162},
		fstar: 704.30560,
		xstar: []float64{905.4035115443613, 36.39499826527977, 2381.478288151116, 88.98769130630903, 95, 12, 153.5353545454545},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("c", []float64{0.59553571e-3, 0.88392857, -0.11756250, 1.1088, 0.1303533, -0.0066033, 0.66173269e-3,
				0.17239878e-1, -0.56595559e-2, -0.19120592e-1, 0.5685075e2, 1.08702, 0.32175, -0.03762, 0.006198,
				0.24623121e4, -0.25125634e2, 0.16118996e3, 5e3, -0.48951e6, 0.44333333e2, 0.33, 0.022556,
				-0.007595, 0.00061, -0.5e-3, 0.819672, 0.819672, 0.245e5, -0.25e3, 0.10204082e-1, 0.12244898e-4,
				0.625e-4, 0.625e-4, -0.7625e-4, 1.22, 1, -1})
			return b.e("1.715*x1 + 0.035*x1*x6 + 4.0565*x3 + 10*x2 + 3000 - 0.063*x3*x5"),
				b.es("1 - c[1]*sq(x6) - c[2]*x3/x1 - c[3]*x6",
					"1 - c[4]*x1/x3 - c[5]*x1/x3*x6 - c[6]*x1/x3*sq(x6)",
					"1 - c[7]*sq(x6) - c[8]*x5 - c[9]*x4 - c[10]*x6",
					"1 - c[11]/x5 - c[12]/x5*x6 - c[13]*x4/x5 - c[14]/x5*sq(x6)",
					"1 - c[15]*x7 - c[16]*x2/x3/x4 - c[17]*x2/x3",
					"1 - c[18]/x7 - c[19]*x2/x3/x7 - c[20]*x2/x3/x4/x7",
					"1 - c[21]/x5 - c[22]*x7/x5",
					"1 - c[23]*x5 - c[24]*x7",
					"1 - c[25]*x3 - c[26]*x1",
					"1 - c[27]*x1/x3 - c[28]/x3",
					"1 - c[29]*x2/x3/x4 - c[30]*x2/x3",
					"1 - c[31]*x4 - c[32]/x2*x3*x4",
					"1 - c[33]*x1*x6 - c[34]*x1 - c[35]*x3",
					"1 - c[36]/x1*x3 - c[37]/x1 - c[38]*x6")
		},
	})
}

func hs367() *Problem {
	return build(spec{
		name: "hs367", num: 367, n: 7, kinds: "iiiee",
		x0:    vec(7, 0.1),
		xl:    vec(7, 0),
		fstar: -37.412960,
		xstar: []float64{1.468809782309466, 1.983971376919733, 0.3518772247089088, 1.195341616061892, 0.5693979301094254, 0.7847458132933736, 1.412122187132091},
		model: func(b *book) (ad.Expr, ad.Vec) {
			return b.e("-5*x1 - 5*x2 - 4*x3 - x1*x3 - 6*x4 - 5*x5/(1 + x5) - 8*x6/(1 + x6)" +
					" - 10*(1 - 2*exp(-x7) + exp(-2*x7))"),
				b.es("10 - x1 - x2 - x3 - x4 - x5 - x6 - x7",
					"5 - x1 - x2 - x3 - x4",
					"5 - x1 - x3 - x5 - sq(x6) - sq(x7)",
					"2*x4 + x5 + 0.8*x6 + x7 - 5",
					"sq(x2) + sq(x3) + sq(x5) + sq(x6) - 5")
		},
	})
}

func hs368() *Problem {
	return build(spec{
		name: "hs368", num: 368, n: 8,
		note: "f is homogeneous of degree 6; its KKT points have k components 1 and m components 0.5 (f = −km/16). " +
			"PROB.FOR's FEX −0.74997564 is the value at its printed point, an approximation of the point with six components 0.5 and two 1 (f = −0.75), " +
			"FStar is that point's exact value; PROB.FOR's first XEX (four components 1) has f = −1, the global minimum",
		x0:    []float64{0, 0.5, 2.0 / 3, 0.75, 0.8, 5.0 / 6, 0.7, 0.7},
		xl:    vec(8, 0),
		xu:    vec(8, 1),
		fstar: -0.75,
		xstar: []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1, 1},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.let("s2", "sum(i, 1, 8, sq(x[i]))")
			b.let("s3", "sum(i, 1, 8, pow(x[i], 3))")
			b.let("s4", "sum(i, 1, 8, pow(x[i], 4))")
			return b.e("-s2*s4 + sq(s3)"), nil
		},
	})
}

func hs369() *Problem {
	return build(spec{
		name: "hs369", num: 369, n: 8, kinds: "iiiiii",
		x0:    []float64{5000, 5000, 5000, 200, 350, 150, 225, 425},
		xl:    []float64{100, 1000, 1000, 10, 10, 10, 10, 10},
		xu:    []float64{10000, 10000, 10000, 1000, 1000, 1000, 1000, 1000},
		fstar: 7049.2480,
		xstar: []float64{579.306684425355, 1359.970668051655, 5109.970668051656, 182.0176995811199, 295.6011732779338, 217.9823004188801, 286.4165263031862, 395.6011732779338},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("c", []float64{833.33252, 100, -83333.333, 1250, 1, -1250, 1250000, 1, -2500,
				2.5e-3, 2.5e-3, 2.5e-3, 2.5e-3, -2.5e-3, 1e-2, -1e-2})
			return b.e("x1 + x2 + x3"),
				b.es("1 - c[10]*x4 - c[11]*x6",
					"1 - c[12]*x5 - c[13]*x7 - c[14]*x4",
					"1 - c[15]*x8 - c[16]*x5",
					"1 - c[1]/x1*x4/x6 - c[2]/x6 - c[3]/x1/x6",
					"1 - c[4]/x2*x5/x7 - c[5]*x4/x7 - c[6]/x2*x4/x7",
					"1 - c[7]/x3/x8 - c[8]*x5/x8 - c[9]/x3*x5/x8")
		},
	})
}
