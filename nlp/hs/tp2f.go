package hs

import (
	"fmt"
	"math"
	"strings"

	"github.com/fesd-go/fesd/ad"
)

// Problems 385–393 of Schittkowski (1987), written with book (see book.go).
// Formulations, starts, bounds and FEX are those of Schittkowski's PROB.FOR,
// checked against Vanderbei's AMPL models (as converted to GAMS in the
// Princeton library of GAMS World) where those are the same problem; the
// Source note of a problem says where they differ. Every FStar is
// reproduced by solving the formulation here.
//
// Not included: problem 390, whose objective as written in PROB.FOR is
// 10⁴·FEX at the printed point (244724.65 for FEX = 24.4724654), with no
// second transcription to settle the scaling, and from whose start a local
// method reaches a lower value (IPOPT: 243840.04), so that FEX could not be
// confirmed.

// hs385A returns the matrix of the quadratic constraints of problems
// 385–389: that of problems 284 and 285 (hs284A), with a₉,₉ = 500 in
// problem 385.
func hs385A(a99 float64) [][]float64 {
	a := make([][]float64, len(hs284A))
	for i, r := range hs284A {
		a[i] = append([]float64(nil), r...)
	}
	a[8][8] = a99
	return a
}

// hs385n is problems 385–389: max dᵀx subject to the ten quadratic
// constraints bᵢ − Σⱼ aᵢⱼxⱼ² ≥ 0 of problems 284 and 285, in 386–389 with
// Σⱼ j(xⱼ − 2)²/2 ≥ r (a nonconvex constraint) and in 388 and 389 also four
// linear constraints, which come first.
func hs385n(num int, note string, a99, b9 float64, lin bool, r, fstar float64, xstar []float64) *Problem {
	m := 10
	if r > 0 {
		m++
	}
	if lin {
		m += 4
	}
	return build(spec{
		name: tpBName(num), num: num, note: note, n: 15, kinds: strings.Repeat("i", m),
		x0:    vec(15, 0),
		fstar: fstar, xstar: xstar,
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("d", []float64{486, 640, 758, 776, 477, 707, 175, 619, 627, 614, 475, 377, 524, 468, 529})
			b.mat("a", hs385A(a99))
			bb := append([]float64(nil), hs284B...)
			bb[8] = b9
			b.vec("b", bb)
			var g ad.Vec
			if lin {
				b.mat("l", [][]float64{
					{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 17, 18, 19},
					{45, 25, 35, 85, 40, 73, 17, 52, 86, 14, 30, 50, 40, 70, 60},
					{53, 74, 26, 17, 25, 25, 26, 24, 85, 35, 14, 23, 37, 56, 10},
					{12, 43, 51, 39, 58, 42, 60, 20, 40, 80, 75, 85, 95, 23, 67},
				})
				b.vec("c", []float64{70, 361, 265, 395})
				for i := 1; i <= 4; i++ {
					g = append(g, b.e(fmt.Sprintf("c[%d] - sum(j, 1, 15, l[%d][j]*x[j])", i, i)))
				}
			}
			for i := 1; i <= 10; i++ {
				g = append(g, b.e(fmt.Sprintf("b[%d] - sum(j, 1, 15, a[%d][j]*sq(x[j]))", i, i)))
			}
			if r > 0 {
				b.set("r", r)
				g = append(g, b.e("sum(j, 1, 15, j*sq(x[j] - 2))/2 - r"))
			}
			return b.e("-sum(i, 1, 15, d[i]*x[i])"), g
		},
	})
}

func hs385() *Problem {
	return hs385n(385, polished+"; a₉,₉ = 500 and b₉ = 890 as in PROB.FOR (the AMPL model has a₉,₉ = 0 and a₄,₇ = 36, "+
		"a₄,₇ = 35 here as in PROB.FOR and problems 284 and 386–389)", 500, 890, false, 0, -8315.2859,
		[]float64{0.8134702595488519, 1.132796351311384, 1.08611842351908, 0.9983298021277688, 1.075485969768913,
			1.06887570452509, 0.6278160341137426, 1.092998084787812, 0.9136322693711938, 0.861912503075023,
			1.004731248039929, 0.8774295089667572, 0.986714901081583, 1.041126671093411, 1.186099475862578})
}

func hs386() *Problem {
	return hs385n(386, polished+"; the AMPL model s386 is another problem (two variables); 386 is 387 with r = 70", 0, 390, false, 70, -8164.3688,
		[]float64{1.00427279201081, 1.087116952452946, 1.103379274713183, 1.03071919855278, 0.92857941765569,
			1.256805512746986, 0.7605841219365717, 0.8568893091992839, 1.089778353265343, 0.9811950978649941,
			0.8510646134346943, 0.9655595540590958, 0.9064413954722861, 0.8380401210395839, 0.8093246034474519})
}

func hs387() *Problem {
	return hs385n(387, polished+"; a₄,₇ = 35 as in PROB.FOR (the AMPL model has 36)", 0, 390, false, 61, -8250.1417,
		[]float64{1.012541589343, 1.015850475852018, 1.030903922754274, 0.996970169435161, 0.985283669291123,
			1.036853130248956, 0.9934934353648419, 0.9720115045038534, 0.9999408902565484, 0.9954729654625704,
			0.9695385388108597, 1.008056917426635, 0.9823699276690925, 0.9905799507023684, 0.9776017764861386})
}

func hs388() *Problem {
	return hs385n(388, polished+"; a₄,₇ = 35 as in PROB.FOR (the AMPL model has 36)", 0, 390, true, 193.121, -5821.0842,
		[]float64{0.6268382042874463, 1.433100072254434, 1.462596171128877, 0.7313333411688661, 0.7861430680643858,
			1.204859543153874, -1.143398612540928, 1.061110543940996, -0.133893014984846, 1.182010543191758,
			0.9691772560184847, -0.8450129014171943, 0.4812252841496541, -0.3398613349187605,
			0.685889981998997})
}

func hs389() *Problem {
	return hs385n(389, polished+"; a₄,₇ = 35 as in PROB.FOR (the AMPL model has 36)", 0, 390, true, 200, -5809.7197,
		[]float64{0.6710518160237746, 1.388540044710967, 1.467676120284947, 0.7602363746996782, 0.829356759423251,
			1.163852366716286, -1.257829078137839, 0.9819338359903507, 0.06841637769603391, 1.14727730434081,
			0.9866295457378826, -0.8883490023949229, 0.5646562708017057, -0.5812008293058023,
			0.7209688839275614})
}

// hs391w is √(s)·(sin⁵(ln √s) + cos⁵(ln √s)), the term of problem 391.
func hs391w(s float64) float64 {
	w := math.Sqrt(s)
	return w * (math.Pow(math.Sin(math.Log(w)), 5) + math.Pow(math.Cos(math.Log(w)), 5))
}

func hs391() *Problem {
	x0 := make([]float64, 30)
	for i := 1; i <= 30; i++ {
		s := 0.0
		for j := 1; j <= 30; j++ {
			if j != i {
				s += hs391w(float64(i) / float64(j))
			}
		}
		x0[i-1] = -2.8742711 * (float64((i-15)*(i-15)*(i-15)) + s)
	}
	return build(spec{
		name: "hs391", num: 391, n: 30,
		note: "as in PROB.FOR, vᵢⱼ = (xⱼ² + i/j)^(1/2) summed over j ≠ i (the AMPL model has xᵢ in vᵢⱼ, " +
			"includes j = i and does not square the residuals); FEX = 0 is reproduced; " + polished,
		x0:    x0,
		fstar: 0,
		xstar: []float64{6.444902227771456, 5.137920024352105, 4.01356140032591, 3.059662047666883, 2.264603905930412,
			1.615149746823892, 1.095696922277745, 0.6905953240210051, 0.3855246202514185, 0.1665121960506272,
			0.01931856521710234, -0.07041427263738619, -0.1170344904990579, -0.1348663550543006,
			-0.1382213419033011, -0.1414055698976377, -0.1587220923675828, -0.2044692698125923,
			-0.2929377361991931, -0.4384175846558359, -0.6552468948822893, -0.9578992840409813,
			-1.360841558441333, -1.877855596962629, -2.521916831027263, -3.306769381347263, -4.248086700135968,
			-5.362374614875776, -6.665237125141503, -8.171013184124318},
		model: func(b *book) (ad.Expr, ad.Vec) {
			var f strings.Builder
			for i := 1; i <= 30; i++ {
				fmt.Fprintf(&f, " + sq(420*x%d + %d", i, (i-15)*(i-15)*(i-15))
				for j := 1; j <= 30; j++ {
					if j == i {
						continue
					}
					v := fmt.Sprintf("v%d_%d", i, j)
					b.let(v, fmt.Sprintf("sqrt(sq(x%d) + %d.0/%d)", j, i, j))
					b.let("l"+v, "log("+v+")")
					fmt.Fprintf(&f, " + %s*(pow(sin(l%s), 5) + pow(cos(l%s), 5))", v, v, v)
				}
				f.WriteString(")")
			}
			return b.e(f.String()[3:]), nil
		},
	})
}

func hs392() *Problem {
	return build(spec{
		name: "hs392", num: 392, n: 30, kinds: strings.Repeat("i", 45),
		note: "as in PROB.FOR, whose objective has (k₃ + kₗ₁)(x_p − x)² and resource matrix t = " +
			"((0.6, 0.4, 0.1), (0.3, 0.1, 0.12), (0.36, 0.08, 0.06)) and reproduces FEX (the AMPL model has " +
			"k₃(x_p,ᵢ − xᵢ₋₁)² + kₗ₁(x_p,ᵢ − xᵢ)² and another t); " + polished +
			" (the printed point has two decimals)",
		x0: []float64{80, 100, 400, 100, 200, 200, 100, 250, 400, 50, 200, 500, 50, 200, 500,
			100, 120, 410, 120, 250, 250, 150, 300, 410, 600, 250, 510, 100, 250, 510},
		xl:    vec(30, 0),
		fstar: -1.6960671e6,
		xstar: []float64{100, 145, 520, 171.4285714285714, 67.85714285714289, 400, 177.371273712737, 4.742547425474298, 500,
			150, 71.70054200542016, 630, 100, 125, 600, 100, 145, 520, 171.4285714285714, 67.85714285714289,
			400, 177.371273712737, 33.94308943089442, 500, 150, 42.50000000000004, 630, 100, 125, 600},
		model: func(b *book) (ad.Expr, ad.Vec) {
			// Data (j, i) for product j = 1, 2, 3 in period i = 1, …, 5.
			b.mat("r1", [][]float64{{1000, 1000, 1000, 1100, 1100}, {520, 520, 520, 600, 600}, {910, 910, 1000, 1000, 1000}})
			b.mat("r2", [][]float64{{0.3, 0.3, 0.3, 0.3, 0.3}, {0.1, 0.1, 0.1, 0.1, 0.1}, {0.2, 0.2, 0.2, 0.2, 0.2}})
			b.mat("ka", [][]float64{{120, 150, 150, 170, 170}, {65, 65, 80, 80, 80}, {105, 105, 120, 120, 120}})
			b.mat("k1", [][]float64{{150, 150, 150, 170, 170}, {75, 75, 75, 90, 90}, {140, 140, 140, 150, 150}})
			b.mat("kp", [][]float64{{160, 160, 160, 180, 180}, {75, 75, 75, 90, 90}, {140, 140, 140, 150, 150}})
			b.mat("k3", [][]float64{{0.02, 0.2, 0.25, 0.25, 0.25}, {0.01, 0.1, 0.1, 0.15, 0.15}, {0.015, 0.15, 0.15, 0.15, 0.15}})
			b.mat("kl1", [][]float64{{0.005, 0.05, 0.06, 0.06, 0.06}, {0.005, 0.05, 0.06, 0.06, 0.06}, {0.005, 0.05, 0.06, 0.06, 0.06}})
			b.mat("kl2", [][]float64{{80, 80, 100, 100, 100}, {45, 45, 45, 50, 50}, {75, 75, 90, 90, 90}})
			b.mat("h", [][]float64{{100, 180, 220, 150, 100}, {280, 400, 450, 450, 400}, {520, 400, 500, 630, 600}})
			b.mat("bb", [][]float64{{170, 170, 170, 170, 170}, {170, 170, 170, 170, 170}, {180, 180, 180, 180, 180}})
			b.mat("t", [][]float64{{0.6, 0.4, 0.1}, {0.3, 0.1, 0.12}, {0.36, 0.08, 0.06}})
			// xᵢⱼ = x[3(i−1)+j] is sold and x[12+3i+j] produced.
			f := b.e("-sum(i, 1, 5, sum(j, 1, 3, x[3*(i-1)+j]*(r1[j][i] - ka[j][i]) - r2[j][i]*sq(x[3*(i-1)+j]) - " +
				"(k1[j][i] + kp[j][i])*x[12+3*i+j] - (k3[j][i] + kl1[j][i])*sq(x[12+3*i+j] - x[3*(i-1)+j]) - " +
				"kl2[j][i]*sum(k, 1, i, x[12+3*k+j] - x[3*(k-1)+j])))")
			g := make(ad.Vec, 0, 45)
			for i := 1; i <= 5; i++ {
				for j := 1; j <= 3; j++ {
					g = append(g, b.e(fmt.Sprintf("h[%d][%d] - x[%d]", j, i, 3*(i-1)+j)))
				}
			}
			for i := 1; i <= 5; i++ {
				for j := 1; j <= 3; j++ {
					g = append(g, b.e(fmt.Sprintf("bb[%d][%d] - sum(k, 1, 3, t[%d][k]*x[12+3*%d+k])", j, i, j, i)))
				}
			}
			for i := 1; i <= 5; i++ {
				for j := 1; j <= 3; j++ {
					g = append(g, b.e(fmt.Sprintf("sum(k, 1, %d, x[12+3*k+%d] - x[3*(k-1)+%d])", i, j, j)))
				}
			}
			return f, g
		},
	})
}

func hs393() *Problem {
	x0 := vec(48, 1)
	for i := 25; i <= 30; i++ {
		x0[i-1] = 1.3
	}
	xu := vec(48, math.Inf(1))
	for i := 0; i < 24; i++ {
		xu[i] = 2
	}
	return build(spec{
		name: "hs393", num: 393, n: 48, kinds: "iee",
		note: "as in PROB.FOR (the AMPL model uses x₄₂ instead of x₄₈ in the sixth gasifier and adds bounds uᵢ ≥ 0.001); " +
			"XStar: IPOPT's solution polished by Newton's method on the first-order conditions, f = 0.8633800040; " +
			"the printed point differs from it in the third digit of x₄, x₅, x₁₀ and x₁₁ and violates g₁ by 8·10⁻⁸",
		x0:    x0,
		xl:    vec(48, 0.002),
		xu:    xu,
		fstar: 0.86337998,
		xstar: []float64{2, 0.002, 2, 0.03408495521275594, 0.01663892907878733, 2, 1.894552231416916, 0.002, 2,
			0.03408495521275459, 0.01663892907878746, 2, 2, 0.002, 2, 0.002, 0.002, 1.987999999999999, 2,
			0.002, 2, 0.002, 0.002, 2, 1.015994723449523, 0.002, 1.003161502691419, 0.002, 0.002,
			0.9996869995939244, 1.112734311141375, 0.002, 1.102448572382131, 0.002, 0.002, 1.103079664726547,
			0.923270226852229, 0.9343298690957501, 0.9294762314878806, 0.9138435621089501, 0.9051685326493919,
			0.8945274912694079, 1.174513080894745, 0.002, 1.120786757821006, 0.002, 0.002, 1.116355052469078},
		model: func(b *book) (ad.Expr, ad.Vec) {
			b.vec("a", []float64{0.9, 0.8, 1.1, 1, 0.7, 1.1, 1, 1, 1.1, 0.9, 0.8, 1.2, 0.9, 1.2, 1.2, 1, 1, 0.9})
			// Gasifiers in two tiers (units 1–12), methanators in two
			// tiers (13–18); uᵢ is the output of unit i.
			for i := 1; i <= 12; i++ {
				k2 := i + 42
				if i > 6 {
					k2 = i + 36
				}
				b.let(fmt.Sprintf("alp%d", i), fmt.Sprintf("sq(x%d)*a[%d]*2*x%d/(1 + x%d)*x%d", i+24, i, k2, k2, i+12))
				s := fmt.Sprintf("x%d", i)
				if i > 6 {
					s = fmt.Sprintf("(x%d + u%d)", i, i-6)
				}
				b.let(fmt.Sprintf("u%d", i), fmt.Sprintf("sq(%s)/(%s + alp%d)", s, s, i))
			}
			for i := 13; i <= 18; i++ {
				s := fmt.Sprintf("u%d", i-3)
				if i <= 15 {
					k1 := 2*(i-10) + 1
					s = fmt.Sprintf("(u%d + u%d)", k1, k1+1)
				}
				b.let(fmt.Sprintf("u%d", i), fmt.Sprintf("sq(%s)/(%s + sq(x%d)*a[%d])", s, s, i+24, i))
			}
			f := b.e("(sum(i, 1, 12, 10*sq(1 - x[i])) + " +
				"sum(i, 25, 36, 250*(0.1 + 2*(x[i] - 1)*(x[i] - 1 + sqrt(0.1 + sq(x[i] - 1))))) + " +
				"sum(i, 37, 42, 500*(0.1 + 2*(x[i] - 1)*(x[i] - 1 + sqrt(0.1 + sq(x[i] - 1))))) + " +
				"sum(i, 43, 48, 100*x[i]))/1000")
			return f, b.es("1.5 - u16 - u17 - u18", "12 - sum(i, 1, 12, x[i])", "12 - sum(i, 13, 24, x[i])")
		},
	})
}
