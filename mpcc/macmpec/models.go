package macmpec

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
)

// References of the model files (as given in their comments).
const (
	refBard     = "J.F. Bard, Convex two-level optimization, Math. Program. 40(1):15–27, 1988"
	refMPECLIB  = "GAMS MPECLib (S.P. Dirkse), after J.F. Bard, Math. Program. 40(1):15–27, 1988"
	refFJQ      = "F. Facchinei, H. Jiang, L. Qi, A smoothing method for mathematical programs with equilibrium constraints, Università di Roma TR 03.96"
	refFloudas  = "C.A. Floudas et al., Handbook of Test Problems in Local and Global Optimization, Kluwer 1999, ch. 9"
	refScholtes = "S. Scholtes, Research Papers in Management Studies 26/1997, Judge Institute, University of Cambridge"
	refOutrata  = refScholtes + "; J.V. Outrata, SIAM J. Optim. 4(2):340–357, 1994"
	refJR       = "H. Jiang, D. Ralph, Smooth SQP methods for mathematical programs with nonlinear complementarity constraints, University of Melbourne, 1997"
	refFLP      = "M. Fukushima, Z.-Q. Luo, J.-S. Pang, A globally convergent SQP algorithm for MPECs with linear complementarity constraints, Comput. Optim. Appl. 10(1):5–34, 1998"
	refKTH      = "simple MPEC (MacMPEC, no further reference)"
	refScale    = "scaling test (MacMPEC, no further reference)"
)

// Proofs of the corrected optima (Problem.OptimumNote). Both programs are
// bilevel1's: the lower level min (y_i − x_i + 20)² over −10 ≤ y_i ≤ 20,
// x_i − 2y_i ≥ 10 is a convex QP, so its KKT conditions (the
// complementarities) hold exactly at y_i = clip(x_i − 20, −10,
// (x_i − 10)/2), and f = Σ_i c_i − 60 with c_i = 2x_i − 3y_i.
const (
	noteBilevel1 = "the table's −55 is below a lower bound: c_i = 2x_i + 30 on " +
		"x_i ∈ [0, 10], 60 − x_i on [10, 30], x_i/2 + 15 on [30, 50], all ≥ 30, so " +
		"f ≥ 0; f = 0 at x = (0, 0), y = (−10, −10), which satisfies " +
		"x₁ + x₂ + y₁ − 2y₂ ≤ 40 (bilevel1's table value, the same program)"
	noteEx923 = "the table's −55 is below the lower bound 0 of bilevel1's " +
		"program; here y ≥ −8 forces x_i ≥ 12, and with h₁ = x₁ + y₁, " +
		"h₂ = x₂ − 2y₂ the constraint h₁ + h₂ ≤ 40 couples the two: h₂ = 10 " +
		"on x₂ ≥ 30 (c₂ = x₂/2 + 15) and 40 − x₂ on [12, 30] (c₂ = 60 − x₂), " +
		"h₁ = 2x₁ − 20 on [12, 30] (c₁ = 60 − x₁) and 1.5x₁ − 5 above " +
		"(c₁ = x₁/2 + 15), so f = c₁ + c₂ − 60 is minimal at x = (25, 30), " +
		"y = (5, 10): f = 35 + 30 − 60 = 5 (a grid search over x ∈ [1, 50]² " +
		"with step 0.05 agrees)"
)

// problems is the set, in the order of MacMPEC's table.
var problems = []Problem{
	{Name: "bard1", Model: "bard1.mod", Ref: refBard, Best: 17, build: bard1},
	{Name: "bard2", Model: "bard2.mod", Ref: refBard + "; Aiyoshi & Shimizu, IEEE Trans. SMC-11:444–449, 1981", Best: 6598, Maximize: true, build: bard2},
	{Name: "bard3", Model: "bard3.mod", Ref: refBard, Best: -12.6787, build: bard3},
	{Name: "bard1m", Model: "bard1m.mod", Ref: refMPECLIB, Best: 17, build: bard1m},
	{Name: "bard2m", Model: "bard2m.mod", Ref: refMPECLIB, Best: -6598, build: bard2m},
	{Name: "bard3m", Model: "bard3m.mod", Ref: refMPECLIB, Best: -12.6787, build: bard3m},
	{Name: "bilevel1", Model: "bilevel1.mod", Ref: refFJQ + ", problem 7", Best: 0, build: bilevel1},
	{Name: "bilevel1m", Model: "bilevel1m.mod", Ref: refFJQ + ", problem 7", Best: -55, build: bilevel1m,
		Optimum: 0, OptimumNote: noteBilevel1},
	{Name: "bilevel2", Model: "bilevel2.mod", Ref: refFJQ + ", problem 10", Best: -6600, build: bilevel2},
	{Name: "bilevel2m", Model: "bilevel2m.mod", Ref: refFJQ + ", problem 10", Best: -6600, build: bilevel2m},
	{Name: "bilevel3", Model: "bilevel3.mod", Ref: refFJQ + ", problem 11", Best: -12.6787, build: bilevel3},
	{Name: "bilin", Model: "bilin.mod", Ref: "P. Hansen, B. Jaumard, G. Savard, SIAM J. Sci. Stat. Comp. 13:1194–1217, 1992; Luo, Pang, Ralph, MPECs, CUP 1997, p. 357", Best: 18.4, Maximize: true, build: bilin},
	{Name: "dempe", Model: "dempe.mod", Ref: "S. Dempe, Optimization 25:341–354, 1992; Luo, Pang, Ralph, MPECs, CUP 1997, p. 354", Best: 28.25, build: dempe},
	{Name: "design-cent-1", Model: "design-cent-1.mod, design-cent-1.dat", Ref: "design centering as an MPEC, after O. Stein, G. Still, Solving semi-infinite optimization problems with interior point techniques, RWTH Aachen Preprint 96, 2001", Best: 1.86065, Maximize: true, build: designCent1},
	{Name: "desilva", Model: "desilva.mod", Ref: refFJQ + ", problem 5", Best: -1, build: desilva},
	{Name: "df1", Model: "df1.mod", Ref: "S.P. Dirkse, M.C. Ferris, Modeling & solution environment for MPEC: GAMS & MATLAB, University of Wisconsin CS report, 1997", Best: 0, build: df1},
	{Name: "ex9.1.1", Model: "ex9.1.1.mod", Ref: refFloudas + " (9.2.2; Clark & Westerberg 1990)", Best: -13, build: ex911},
	{Name: "ex9.1.2", Model: "ex9.1.2.mod", Ref: refFloudas + " (9.2.3; Liu & Hart 1994)", Best: -6.25, build: ex912},
	{Name: "ex9.1.3", Model: "ex9.1.3.mod", Ref: refFloudas + " (9.2.3; Candler & Townsley 1982)", Best: -29.2, build: ex913},
	{Name: "ex9.1.4", Model: "ex9.1.4.mod", Ref: refFloudas + " (9.2.5; Clark & Westerberg 1988)", Best: -37, build: ex914},
	{Name: "ex9.1.5", Model: "ex9.1.5.mod", Ref: refFloudas + " (9.2.5; Bard 1991)", Best: -1, build: ex915},
	{Name: "ex9.1.6", Model: "ex9.1.6.mod", Ref: refFloudas + " (9.2.7; Anandalingam & White 1990)", Best: -49, build: ex916},
	{Name: "ex9.1.7", Model: "ex9.1.7.mod", Ref: refFloudas + " (9.2.8; Bard & Falk 1982)", Best: -26, build: ex917},
	{Name: "ex9.1.8", Model: "ex9.1.8.mod", Ref: refFloudas + " (9.2.8; Bard & Falk 1982)", Best: -3.25, build: ex918},
	{Name: "ex9.1.9", Model: "ex9.1.9.mod", Ref: refFloudas + " (9.2.10; Visweswaran et al. 1996)", Best: 3.11111, build: ex919},
	{Name: "ex9.1.10", Model: "ex9.1.10.mod", Ref: refFloudas + " (9.2.10; Tuy et al. 1993)", Best: -3.25, build: ex9110},
	{Name: "ex9.2.1", Model: "ex9.2.1.mod", Ref: refFloudas + " (9.3.2; Shimizu et al. 1997)", Best: 17, build: ex921},
	{Name: "ex9.2.2", Model: "ex9.2.2.mod", Ref: refFloudas + " (9.3.3; Shimizu & Aiyoshi 1981)", Best: 100, build: ex922},
	{Name: "ex9.2.3", Model: "ex9.2.3.mod", Ref: refFloudas + " (9.3.4; Shimizu & Aiyoshi 1981)", Best: -55, build: ex923,
		Optimum: 5, OptimumNote: noteEx923},
	{Name: "ex9.2.4", Model: "ex9.2.4.mod", Ref: refFloudas + " (9.3.5; Yezza 1996)", Best: 0.5, build: ex924},
	{Name: "ex9.2.5", Model: "ex9.2.5.mod", Ref: refFloudas + " (9.3.6; Clark & Westerberg 1990)", Best: 6, build: ex925},
	{Name: "ex9.2.6", Model: "ex9.2.6.mod", Ref: refFloudas + " (9.3.7; Falk & Liu 1995)", Best: -1, build: ex926},
	{Name: "ex9.2.7", Model: "ex9.2.7.mod", Ref: refFloudas + " (9.3.8; Visweswaran et al. 1996)", Best: 17, build: ex921},
	{Name: "ex9.2.8", Model: "ex9.2.8.mod", Ref: refFloudas + " (9.3.9; Yezza 1996)", Best: 1.5, build: ex928},
	{Name: "ex9.2.9", Model: "ex9.2.9.mod", Ref: refFloudas + " (9.3.10; Bard 1991)", Best: 2, build: ex929},
	{Name: "flp2", Model: "flp2.mod", Ref: refFLP + ", problem 2", Best: 0, build: flp2},
	{Name: "gnash10", Model: "gnash1.mod, gnash10.dat", Ref: refFJQ + ", problem 8", Best: -230.823, build: gnash(150, 1.0, false)},
	{Name: "gnash11", Model: "gnash1.mod, gnash11.dat", Ref: refFJQ + ", problem 8", Best: -129.912, build: gnash(150, 1.1, false)},
	{Name: "gnash12", Model: "gnash1.mod, gnash12.dat", Ref: refFJQ + ", problem 8", Best: -36.9331, build: gnash(150, 1.3, false)},
	{Name: "gnash13", Model: "gnash1.mod, gnash13.dat", Ref: refFJQ + ", problem 8", Best: -7.06178, build: gnash(150, 1.5, false)},
	{Name: "gnash14", Model: "gnash1.mod, gnash14.dat", Ref: refFJQ + ", problem 8", Best: -0.179046, build: gnash(150, 1.7, false)},
	{Name: "gnash15", Model: "gnash1.mod, gnash15.dat", Ref: refFJQ + ", problem 8", Best: -354.699, build: gnash(50, 1.0, false)},
	{Name: "gnash16", Model: "gnash1.mod, gnash16.dat", Ref: refFJQ + ", problem 8", Best: -241.442, build: gnash(40, 1.1, false)},
	{Name: "gnash17", Model: "gnash1.mod, gnash17.dat", Ref: refFJQ + ", problem 8", Best: -90.7491, build: gnash(30, 1.3, false)},
	{Name: "gnash18", Model: "gnash1.mod, gnash18.dat", Ref: refFJQ + ", problem 8", Best: -25.6982, build: gnash(25, 1.5, false)},
	{Name: "gnash19", Model: "gnash1.mod, gnash19.dat", Ref: refFJQ + ", problem 8", Best: -6.11671, build: gnash(20, 1.7, false)},
	{Name: "gnash10m", Model: "gnash1m.mod, gnash10.dat", Ref: refFJQ + ", problem 8", Best: -230.823, build: gnash(150, 1.0, true)},
	{Name: "gnash11m", Model: "gnash1m.mod, gnash11.dat", Ref: refFJQ + ", problem 8", Best: -129.912, build: gnash(150, 1.1, true)},
	{Name: "gnash12m", Model: "gnash1m.mod, gnash12.dat", Ref: refFJQ + ", problem 8", Best: -36.9331, build: gnash(150, 1.3, true)},
	{Name: "gnash13m", Model: "gnash1m.mod, gnash13.dat", Ref: refFJQ + ", problem 8", Best: -7.06178, build: gnash(150, 1.5, true)},
	{Name: "gnash14m", Model: "gnash1m.mod, gnash14.dat", Ref: refFJQ + ", problem 8", Best: -0.179046, build: gnash(150, 1.7, true)},
	{Name: "gnash15m", Model: "gnash1m.mod, gnash15.dat", Ref: refFJQ + ", problem 8", Best: -354.699, build: gnash(50, 1.0, true)},
	{Name: "gnash16m", Model: "gnash1m.mod, gnash16.dat", Ref: refFJQ + ", problem 8", Best: -241.442, build: gnash(40, 1.1, true)},
	{Name: "gnash17m", Model: "gnash1m.mod, gnash17.dat", Ref: refFJQ + ", problem 8", Best: -90.7491, build: gnash(30, 1.3, true)},
	{Name: "gnash18m", Model: "gnash1m.mod, gnash18.dat", Ref: refFJQ + ", problem 8", Best: -25.6982, build: gnash(25, 1.5, true)},
	{Name: "gnash19m", Model: "gnash1m.mod, gnash19.dat", Ref: refFJQ + ", problem 8", Best: -6.11671, build: gnash(20, 1.7, true)},
	{Name: "gauvin", Model: "gauvin.mod", Ref: "J. Gauvin, G. Savard, Working Paper G9037, GERAD, 1992 (GAMS MPECLib)", Best: 20, build: gauvin},
	{Name: "hakonsen", Model: "hakonsen.mod", Ref: "M. Light, Optimal taxation: an application of MPECs in economics, University of Colorado, 1999, (6)–(10); after L. Hakonsen, PhD thesis, NHH, 1998", Best: 24.3668, Maximize: true, build: hakonsen},
	{Name: "hs044-i", Model: "hs044-i.mod", Ref: "QPEC from HS44 with perturbed right-hand sides (idea of S. Scholtes)", Best: 15.6178, build: hs044i},
	{Name: "jr1", Model: "jr1.mod", Ref: refJR, Best: 0.5, build: jr(false)},
	{Name: "jr2", Model: "jr2.mod", Ref: refJR, Best: 0.5, build: jr(true)},
	{Name: "kth1", Model: "kth1.mod", Ref: refKTH, Best: 0, build: kth1},
	{Name: "kth2", Model: "kth2.mod", Ref: refKTH, Best: 0, build: kth2},
	{Name: "kth3", Model: "kth3.mod", Ref: refKTH, Best: 0.5, build: kth3},
	{Name: "nash1a", Model: "nash1.mod, nash1a.dat", Ref: refFJQ + ", problem 9", Best: 7.88861e-30, build: nash1(0, 0)},
	{Name: "nash1b", Model: "nash1.mod, nash1b.dat", Ref: refFJQ + ", problem 9", Best: 7.88861e-30, build: nash1(5, 5)},
	{Name: "nash1c", Model: "nash1.mod, nash1c.dat", Ref: refFJQ + ", problem 9", Best: 7.88861e-30, build: nash1(10, 10)},
	{Name: "nash1d", Model: "nash1.mod, nash1d.dat", Ref: refFJQ + ", problem 9", Best: 7.88861e-30, build: nash1(10, 0)},
	{Name: "nash1e", Model: "nash1.mod, nash1e.dat", Ref: refFJQ + ", problem 9", Best: 7.88861e-30, build: nash1(0, 10)},
	{Name: "outrata31", Model: "outrata31.mod", Ref: refOutrata, Best: 3.2077, build: outrata(1)},
	{Name: "outrata32", Model: "outrata32.mod", Ref: refOutrata, Best: 3.4494, build: outrata(2)},
	{Name: "outrata33", Model: "outrata33.mod", Ref: refOutrata, Best: 4.60425, build: outrata(3)},
	{Name: "outrata34", Model: "outrata34.mod", Ref: refOutrata, Best: 6.59268, build: outrata(4)},
	{Name: "qpec1", Model: "qpec1.mod", Ref: refJR, Best: 80, build: qpec(1)},
	{Name: "qpec2", Model: "qpec2.mod", Ref: refJR, Best: 45, build: qpec(-1)},
	{Name: "ralph1", Model: "ralph1.mod", Ref: "LPEC of D. Ralph, Judge Institute, University of Cambridge (B-stationary, not strongly stationary)", Best: 0, build: ralph1},
	{Name: "ralph2", Model: "ralph2.mod", Ref: "LPEC of D. Ralph, Judge Institute, University of Cambridge", Best: 0, build: ralph2},
	{Name: "scholtes1", Model: "scholtes1.mod", Ref: refScholtes, Best: 2, build: scholtes12(false)},
	{Name: "scholtes2", Model: "scholtes2.mod", Ref: refScholtes, Best: 15, build: scholtes12(true)},
	{Name: "scholtes3", Model: "scholtes3.mod", Ref: "QPEC of S. Scholtes", Best: 0.5, build: scholtes3},
	{Name: "scholtes4", Model: "scholtes4.mod", Ref: "LPEC of S. Scholtes, Judge Institute, University of Cambridge", Best: -3.07336e-7, build: scholtes4},
	{Name: "scholtes5", Model: "scholtes5.mod", Ref: "S. Scholtes, Convergence properties of a regularization scheme for MPCCs, SIAM J. Optim. 11(4):918–936, 2001", Best: 1, build: scholtes5},
	{Name: "scale1", Model: "scale1.mod", Ref: refScale, Best: 1, build: scale(1)},
	{Name: "scale2", Model: "scale2.mod", Ref: refScale, Best: 1, build: scale(2)},
	{Name: "scale3", Model: "scale3.mod", Ref: refScale, Best: 1, build: scale(3)},
	{Name: "scale4", Model: "scale4.mod", Ref: refScale, Best: 1, build: scale(4)},
	{Name: "scale5", Model: "scale5.mod", Ref: refScale, Best: 100, build: scale(5)},
	{Name: "sl1", Model: "sl1.mod", Ref: "QPEC from HS21 with perturbed right-hand sides (idea of S. Scholtes)", Best: 1e-4, build: sl1},
	{Name: "stackelberg1", Model: "stackelberg1.mod", Ref: refFJQ + ", problem 6", Best: -3266.67, build: stackelberg1},
}

// bard1: min (x−5)² + (2y+1)² over the KKT conditions of Bard's lower level.
func bard1(b *builder) {
	x, y := b.v("x", 0, inf), b.v("y", 0, inf)
	l := b.vs("l", 3, -inf, inf)
	b.minimize(ad.Sq(x.AddConst(-5)).Add(ad.Sq(y.Scale(2).AddConst(1))))
	b.eq(sum(y.AddConst(-1).Scale(2), x.Scale(-1.5), l[0], l[1].Scale(-0.5), l[2]), 0)
	b.perp(x.Scale(3).Sub(y).AddConst(-3), l[0])
	b.perp(x.Neg().Add(y.Scale(0.5)).AddConst(4), l[1])
	b.perp(x.Neg().Sub(y).AddConst(7), l[2])
}

func bard1m(b *builder) {
	x, y := b.v("x", 0, inf), b.v("y", 0, inf)
	sy := b.v("sy", 0, inf)
	l := b.vs("l", 3, 0, inf)
	b.minimize(ad.Sq(x.AddConst(-5)).Add(ad.Sq(y.Scale(2).AddConst(1))))
	b.perp(x.Scale(3).Sub(y).AddConst(-3), l[0])
	b.perp(x.Neg().Add(y.Scale(0.5)).AddConst(4), l[1])
	b.perp(x.Neg().Sub(y).AddConst(7), l[2])
	// d_y: sy = 2(y−1) − 1.5x + l₁ − 0.5 l₂ + l₃ (no complementarity with y
	// in the model file).
	b.eq(sy.Sub(sum(y.AddConst(-1).Scale(2), x.Scale(-1.5), l[0], l[1].Scale(-0.5), l[2])), 0)
}

// bard2: two lower-level QPs of Aiyoshi & Shimizu; x, y are 2×2 arrays.
func bard2(b *builder) {
	ux := [2][2]float64{{10, 5}, {15, 20}}
	uy := [2][2]float64{{20, 20}, {40, 40}}
	var x, y, l [2][2]ad.Expr
	for i := range 2 {
		for j := range 2 {
			x[i][j] = b.v(fmt.Sprintf("x[%d,%d]", i+1, j+1), 0, ux[i][j])
		}
	}
	for i := range 2 {
		for j := range 2 {
			y[i][j] = b.v(fmt.Sprintf("y[%d,%d]", i+1, j+1), 0, uy[i][j])
		}
	}
	for i := range 2 {
		for j := range 2 {
			l[i][j] = b.v(fmt.Sprintf("l[%d,%d]", i+1, j+1), -inf, inf)
		}
	}
	s1 := y[0][0].Add(y[1][0])
	s2 := y[0][1].Add(y[1][1])
	b.maximizeObj(s1.Neg().AddConst(200).Mul(s1).Add(s2.Neg().AddConst(160).Mul(s2)))
	b.le(sum(x[0][0], x[0][1], x[1][0], x[1][1]), 40)
	targets := [2][2]float64{{4, 13}, {35, 2}}
	for i := range 2 {
		b.eq(sum(y[i][0].AddConst(-targets[i][0]).Scale(2), l[i][0].Scale(0.4), l[i][1].Scale(0.6)), 0)
		b.eq(sum(y[i][1].AddConst(-targets[i][1]).Scale(2), l[i][0].Scale(0.7), l[i][1].Scale(0.3)), 0)
		b.perp(sum(x[i][0], y[i][0].Scale(-0.4), y[i][1].Scale(-0.7)), l[i][0])
		b.perp(sum(x[i][1], y[i][0].Scale(-0.6), y[i][1].Scale(-0.3)), l[i][1])
	}
}

// bard2m: bard2 in MPECLib's form, with the multipliers m ≤ 0 and the
// lower-level stationarity as mixed complementarities with the bounds of y.
func bard2m(b *builder) {
	x11, x12 := b.v("x11", 0, 10), b.v("x12", 0, 5)
	x21, x22 := b.v("x21", 0, 15), b.v("x22", 0, 20)
	y11, y12 := b.v("y11", 0, 20), b.v("y12", 0, 20)
	m11, m12 := b.v("m_c11", -inf, 0), b.v("m_c12", -inf, 0)
	y21, y22 := b.v("y21", 0, 40), b.v("y22", 0, 40)
	m21, m22 := b.v("m_c21", -inf, 0), b.v("m_c22", -inf, 0)
	s1, s2 := y11.Add(y21), y12.Add(y22)
	b.minimize(s1.Neg().AddConst(200).Mul(s1).Add(s2.Neg().AddConst(160).Mul(s2)).Neg())
	b.le(sum(x11, x12, x21, x22), 40)
	b.perp(sum(x11, y11.Scale(-0.4), y12.Scale(-0.7)), m11.Neg())
	b.perp(sum(x12, y11.Scale(-0.6), y12.Scale(-0.3)), m12.Neg())
	b.mcp(sum(y11.AddConst(-4).Scale(2), m11.Scale(-0.4), m12.Scale(-0.6)), y11)
	b.mcp(sum(y12.AddConst(-13).Scale(2), m11.Scale(-0.7), m12.Scale(-0.3)), y12)
	b.perp(sum(x21, y21.Scale(-0.4), y22.Scale(-0.7)), m21.Neg())
	b.perp(sum(x22, y21.Scale(-0.6), y22.Scale(-0.3)), m22.Neg())
	b.mcp(sum(y21.AddConst(-35).Scale(2), m21.Scale(-0.4), m22.Scale(-0.6)), y21)
	b.mcp(sum(y22.AddConst(-2).Scale(2), m21.Scale(-0.7), m22.Scale(-0.3)), y22)
}

func bard3Obj(x1, x2, y1, y2 ad.Expr) ad.Expr {
	return sum(ad.Sq(x1).Neg(), x2.Scale(-3), y1.Scale(-4), ad.Sq(y2))
}

func bard3Cons(x1, x2, y1, y2 ad.Expr) (c1, c2 ad.Expr) {
	c1 = sum(ad.Sq(x1), x1.Scale(-2), ad.Sq(x2), y1.Scale(-2), y2).AddConst(3)
	c2 = sum(x2, y1.Scale(3), y2.Scale(-4)).AddConst(-4)
	return c1, c2
}

func bard3(b *builder) {
	x := b.vs("x", 2, 0, inf)
	y := b.vs("y", 2, 0, inf)
	l := b.vs("l", 2, 0, inf)
	b.minimize(bard3Obj(x[0], x[1], y[0], y[1]))
	b.le(ad.Sq(x[0]).Add(x[1].Scale(2)), 4)
	b.eq(sum(y[0].Scale(2), l[0].Scale(2), l[1].Scale(-3)), 0)
	b.eq(sum(l[0].Neg(), l[1].Scale(4)).AddConst(-5), 0)
	c1, c2 := bard3Cons(x[0], x[1], y[0], y[1])
	b.perp(c1, l[0])
	b.perp(c2, l[1])
}

func bard3m(b *builder) {
	x1, x2 := b.v("x1", 0, inf), b.v("x2", 0, inf)
	y1, y2 := b.v("y1", 0, inf), b.v("y2", 0, inf)
	m1, m2 := b.v("m_cons1", 0, inf), b.v("m_cons2", 0, inf)
	b.minimize(bard3Obj(x1, x2, y1, y2))
	b.le(ad.Sq(x1).Add(x2.Scale(2)), 4)
	c1, c2 := bard3Cons(x1, x2, y1, y2)
	b.perp(c1, m1)
	b.perp(c2, m2)
	b.perp(sum(y1.Scale(2), m1.Scale(2), m2.Scale(-3)), y1)
	b.perp(sum(m1.Neg(), m2.Scale(4)).AddConst(-5), y2)
}

func bilevel1Head(b *builder) (x, y ad.Vec) {
	x = b.vs("x", 2, 0, 50)
	y = b.vs("y", 2, -inf, inf)
	return x, y
}

func bilevel1(b *builder) {
	x, y := bilevel1Head(b)
	l := b.vs("l", 6, 0, inf)
	b.minimize(sum(x[0].Scale(2), x[1].Scale(2), y[0].Scale(-3), y[1].Scale(-3)).AddConst(-60))
	b.le(sum(x[0], x[1], y[0], y[1].Scale(-2)).AddConst(-40), 0)
	b.eq(sum(y[0].Scale(2), x[0].Scale(-2), l[0].Neg(), l[1], l[4].Scale(2)).AddConst(40), 0)
	b.eq(sum(y[1].Scale(2), x[1].Scale(-2), l[2].Neg(), l[3], l[5].Scale(2)).AddConst(40), 0)
	b.perp(y[0].AddConst(10), l[0])
	b.perp(y[0].Neg().AddConst(20), l[1])
	b.perp(y[1].AddConst(10), l[2])
	b.perp(y[1].Neg().AddConst(20), l[3])
	b.perp(x[0].Sub(y[0].Scale(2)).AddConst(-10), l[4])
	b.perp(x[1].Sub(y[1].Scale(2)).AddConst(-10), l[5])
}

func bilevel1m(b *builder) {
	x, y := bilevel1Head(b)
	l := b.vs("l", 4, -inf, inf)
	b.minimize(sum(x[0].Scale(2), x[1].Scale(2), y[0].Scale(-3), y[1].Scale(-3)).AddConst(-60))
	b.le(sum(x[0], x[1], y[0], y[1].Scale(-2)).AddConst(-40), 0)
	b.eq(sum(y[0].Scale(2), x[0].Scale(-2), l[0].Neg(), l[2].Scale(2)).AddConst(40), 0)
	b.eq(sum(y[1].Scale(2), x[1].Scale(-2), l[1].Neg(), l[3].Scale(2)).AddConst(40), 0)
	b.mixed(-10, y[0], 20, l[0])
	b.mixed(-10, y[1], 20, l[1])
	b.perp(x[0].Sub(y[0].Scale(2)).AddConst(-10), l[2])
	b.perp(x[1].Sub(y[1].Scale(2)).AddConst(-10), l[3])
}

func bilevel2Head(b *builder) (x, y ad.Vec) {
	ub := []float64{10, 5, 15, 20}
	x0 := []float64{5, 5, 15, 15}
	x = make(ad.Vec, 4)
	for i := range x {
		x[i] = b.v(fmt.Sprintf("x[%d]", i+1), 0, ub[i])
		b.init(x[i], x0[i])
	}
	y = b.vs("y", 4, -inf, inf)
	s1, s2 := y[0].Add(y[2]), y[1].Add(y[3])
	b.minimize(s1.Neg().AddConst(200).Mul(s1).Add(s2.Neg().AddConst(160).Mul(s2)).Neg())
	b.le(sum(x...), 40)
	return x, y
}

// bilevel2Links returns the expressions x_i − (lower-level constraint) of
// g1, g2, g7, g8.
func bilevel2Links(x, y ad.Vec) [4]ad.Expr {
	return [4]ad.Expr{
		sum(x[0], y[0].Scale(-0.4), y[1].Scale(-0.7)),
		sum(x[1], y[0].Scale(-0.6), y[1].Scale(-0.3)),
		sum(x[2], y[2].Scale(-0.4), y[3].Scale(-0.7)),
		sum(x[3], y[2].Scale(-0.6), y[3].Scale(-0.3)),
	}
}

func bilevel2(b *builder) {
	x, y := bilevel2Head(b)
	l := b.vs("l", 12, 0, inf)
	b.eq(sum(y[0], l[0].Scale(0.4), l[1].Scale(0.6), l[2].Neg(), l[3]).AddConst(-4), 0)
	b.eq(sum(y[1], l[0].Scale(0.7), l[1].Scale(0.3), l[4].Neg(), l[5]).AddConst(-13), 0)
	b.eq(sum(y[2], l[6].Scale(0.4), l[7].Scale(0.6), l[8].Neg(), l[9]).AddConst(-35), 0)
	b.eq(sum(y[3], l[6].Scale(0.7), l[7].Scale(0.3), l[10].Neg(), l[11]).AddConst(-2), 0)
	g := bilevel2Links(x, y)
	b.perp(g[0], l[0])
	b.perp(g[1], l[1])
	b.perp(y[0], l[2])
	b.perp(y[0].Neg().AddConst(20), l[3])
	b.perp(y[1], l[4])
	b.perp(y[1].Neg().AddConst(20), l[5])
	b.perp(g[2], l[6])
	b.perp(g[3], l[7])
	b.perp(y[2], l[8])
	b.perp(y[2].Neg().AddConst(40), l[9])
	b.perp(y[3], l[10])
	b.perp(y[3].Neg().AddConst(40), l[11])
}

func bilevel2m(b *builder) {
	x, y := bilevel2Head(b)
	l := b.vs("l", 8, -inf, inf)
	b.eq(sum(y[0], l[0].Scale(0.4), l[1].Scale(0.6), l[2].Neg()).AddConst(-4), 0)
	b.eq(sum(y[1], l[0].Scale(0.7), l[1].Scale(0.3), l[3].Neg()).AddConst(-13), 0)
	b.eq(sum(y[2], l[4].Scale(0.4), l[5].Scale(0.6), l[6].Neg()).AddConst(-35), 0)
	b.eq(sum(y[3], l[4].Scale(0.7), l[5].Scale(0.3), l[7].Neg()).AddConst(-2), 0)
	g := bilevel2Links(x, y)
	b.perp(g[0], l[0])
	b.perp(g[1], l[1])
	b.mixed(0, y[0], 20, l[2])
	b.mixed(0, y[1], 20, l[3])
	b.perp(g[2], l[4])
	b.perp(g[3], l[5])
	b.mixed(0, y[2], 40, l[6])
	b.mixed(0, y[3], 40, l[7])
}

func bilevel3(b *builder) {
	x := b.vs("x", 2, 0, inf)
	b.init(x[0], 0)
	b.init(x[1], 2)
	y := b.vs("y", 6, -inf, inf)
	l := b.vs("l", 4, -inf, inf)
	b.minimize(bard3Obj(x[0], x[1], y[0], y[1]))
	b.le(ad.Sq(x[0]).Add(x[1].Scale(2)), 4)
	b.eq(sum(y[0].Scale(2), y[2].Scale(2), y[3].Scale(-3), y[4].Neg()), 0)
	b.eq(sum(y[2].Neg(), y[3].Scale(4), y[5].Neg()).AddConst(-5), 0)
	c1, c2 := bard3Cons(x[0], x[1], y[0], y[1])
	b.eq(c1.Sub(l[0]), 0)
	b.eq(c2.Sub(l[1]), 0)
	b.eq(y[0].Sub(l[2]), 0)
	b.eq(y[1].Sub(l[3]), 0)
	for i := range 4 {
		b.perp(l[i], y[2+i])
	}
}

func bilin(b *builder) {
	x := b.vs("x", 2, 0, inf)
	y := b.vs("y", 6, 0, inf)
	for _, v := range append(append(ad.Vec{}, x...), y...) {
		b.init(v, 1)
	}
	b.maximizeObj(lin(0, []float64{8, 4, -4, 40, 4}, ad.Vec{x[0], x[1], y[0], y[1], y[2]}))
	b.le(sum(x[0], x[1].Scale(2), y[2].Neg()), 1.3)
	b.perp(lin(2, []float64{-1, -2, 4}, y[3:]), y[0])
	b.perp(lin(1, []float64{1, 4, -2}, y[3:]), y[1])
	b.perp(lin(2, []float64{1, -1, -1}, y[3:]), y[2])
	b.perp(lin(1, []float64{1, -1, -1}, y[:3]), y[3])
	b.perp(lin(2, []float64{-4, 0, 2, -4, 1}, ad.Vec{x[0], x[1], y[0], y[1], y[2]}), y[4])
	b.perp(lin(2, []float64{0, -4, -4, 2, 1}, ad.Vec{x[0], x[1], y[0], y[1], y[2]}), y[5])
}

func dempe(b *builder) {
	x, z, w := b.v("x", -inf, inf), b.v("z", -inf, inf), b.v("w", 0, inf)
	// The model's last let statements.
	b.init(x, 0.183193)
	b.init(z, 0.428106)
	b.init(w, 3.00379)
	b.minimize(ad.Sq(x.AddConst(-3.5)).Add(ad.Sq(z.AddConst(4))))
	b.eq(z.AddConst(-3).Add(z.Mul(w).Scale(2)), 0)
	b.perp(x.Sub(ad.Sq(z)), w)
}

// designCent1: the largest disc B(x) = {y : |y − (x₁, x₂)| ≤ x₃} inside
// G = {y : −y₁ − y₂² ≤ 0, y₁/4 + y₂ − 3/4 ≤ 0, −y₂ − 1 ≤ 0}, written
// with the first-order conditions of the three lower-level problems
// max gₖ(y) over y ∈ B(x) (contact points y[·,k], multipliers lₖ).
func designCent1(b *builder) {
	x := b.vs("x", 3, -inf, inf)
	b.init(x[2], 1)
	y0 := [2][3]float64{{-1.000000000000073, 0.2425356250359245, 0}, {0, 0.9701425001468117, -1.000000000026019}}
	l0 := []float64{0.5000000393303194, 0.5153882031999911, 0.4999999999777709}
	var y [2][3]ad.Expr
	for j := range 2 {
		for k := range 3 {
			y[j][k] = b.v(fmt.Sprintf("y[%d,%d]", j+1, k+1), -inf, inf)
			b.init(y[j][k], y0[j][k])
		}
	}
	l := b.vs("l", 3, 0, inf)
	for k := range 3 {
		b.init(l[k], l0[k])
	}
	b.maximizeObj(ad.Sq(x[2]).Scale(3.141592654))
	b.le(y[0][0].Neg().Sub(ad.Sq(y[1][0])), 0)
	b.le(y[0][1].Scale(0.25).Add(y[1][1]), 0.75)
	b.le(y[1][2].Neg(), 1)
	// ∂gₖ/∂y + 2(y − x)·lₖ = 0 for the three contact points.
	grad := [3][2]float64{{1, 0}, {-0.25, -1}, {0, 1}}
	for k := range 3 {
		for j := range 2 {
			e := y[j][k].Sub(x[j]).Mul(l[k]).Scale(2).AddConst(grad[k][j])
			if j == 1 && k == 0 {
				e = e.Add(y[1][0].Scale(2)) // −∂g₁/∂y₂ = 2y₂
			}
			b.eq(e, 0)
		}
	}
	for k := range 3 {
		b.perp(l[k], sum(ad.Sq(x[2]), ad.Sq(y[0][k].Sub(x[0])).Neg(), ad.Sq(y[1][k].Sub(x[1])).Neg()))
	}
}

func desilva(b *builder) {
	x := b.vs("x", 2, 0, 2)
	y := b.vs("y", 2, -inf, inf)
	l := b.vs("l", 2, 0, inf)
	b.minimize(sum(ad.Sq(x[0]), x[0].Scale(-2), ad.Sq(x[1]), x[1].Scale(-2), ad.Sq(y[0]), ad.Sq(y[1])))
	for i := range 2 {
		b.eq(sum(y[i].Scale(2), x[i].Scale(-2), y[i].AddConst(-1).Mul(l[i]).Scale(2)), 0)
	}
	for i := range 2 {
		b.perp(ad.Sq(y[i].AddConst(-1)).Neg().AddConst(0.25), l[i])
	}
}

func df1(b *builder) {
	x, y := b.v("x", -1, 2), b.v("y", 0, inf)
	b.minimize(ad.Sq(x.AddConst(-1).Sub(y)))
	b.le(ad.Sq(x), 2)
	b.le(ad.Sq(x.AddConst(-1)).Add(ad.Sq(y.AddConst(-1))), 3)
	b.perp(y.Sub(ad.Sq(x)).AddConst(1), y)
}

// floudas adds the slack and multiplier vectors s, l ≥ 0 of the ex9.*
// models with their complementarities 0 ≤ lᵢ ⊥ sᵢ ≥ 0.
func floudas(b *builder, n int) (s, l ad.Vec) {
	s = b.vs("s", n, 0, inf)
	l = b.vs("l", n, 0, inf)
	for i := range n {
		b.perp(l[i], s[i])
	}
	return s, l
}

func ex911(b *builder) {
	y1, y2 := b.v("y1", -inf, inf), b.v("y2", -inf, inf)
	x := b.v("x", 0, inf)
	s, l := floudas(b, 5)
	b.minimize(sum(x.Neg(), y1.Scale(-3), y2.Scale(2)))
	b.eq(sum(x.Scale(-2), y1, y2.Scale(4), s[0]), 16)
	b.eq(sum(x.Scale(8), y1.Scale(3), y2.Scale(-2), s[1]), 48)
	b.eq(sum(x.Scale(-2), y1, y2.Scale(-3), s[2]), -12)
	b.eq(y1.Neg().Add(s[3]), 0)
	b.eq(y1.Add(s[4]), 4)
	b.eq(sum(l[0], l[1].Scale(3), l[2], l[3].Neg(), l[4]).AddConst(-1), 0)
	// kt2 as written in the model file (4 l₂ − 2 l₂ − 3 l₃ = 0; the file
	// itself asks whether l₂ appearing twice is a mistake).
	b.eq(l[1].Scale(4).Sub(l[1].Scale(2)).Sub(l[2].Scale(3)), 0)
}

func ex912(b *builder) {
	x := b.v("x", 0, inf)
	// y is binary in the model; NLP solvers see its relaxation 0 ≤ y ≤ 1,
	// for which MacMPEC's value −6.25 is optimal.
	y := b.v("y", 0, 1)
	s, l := floudas(b, 4)
	b.minimize(x.Neg().Sub(y.Scale(3)))
	b.eq(sum(x.Neg(), y, s[0]), 3)
	b.eq(sum(x, y.Scale(2), s[1]), 12)
	b.eq(sum(x.Scale(4), y.Neg(), s[2]), 12)
	b.eq(y.Neg().Add(s[3]), 0)
	b.eq(sum(l[0], l[1].Scale(2), l[2].Neg(), l[3].Neg()), -1)
}

func ex913(b *builder) {
	y := b.vs("y", 6, 0, inf)
	mu := b.vs("mu", 3, -inf, inf)
	x := b.vs("x", 3, 0, inf)
	s, l := floudas(b, 6)
	b.minimize(sum(y[0].Scale(4), y[1].Scale(-40), y[2].Scale(-4), x[0].Scale(-8), x[1].Scale(-4)))
	b.eq(sum(y[0].Neg(), y[1], y[2], y[3]), 1)
	b.eq(sum(y[0].Neg(), y[1].Scale(2), y[2].Scale(-0.5), y[4], x[0].Scale(2)), 1)
	b.eq(sum(y[0].Scale(2), y[1].Neg(), y[2].Scale(-0.5), y[5], x[1].Scale(2)), 1)
	for i := range 6 {
		b.eq(y[i].Neg().Add(s[i]), 0)
	}
	b.eq(sum(mu[0].Neg(), mu[1].Neg(), mu[2].Scale(2), l[0].Neg()).AddConst(1), 0)
	b.eq(sum(mu[0], mu[1].Scale(2), mu[2].Neg(), l[1].Neg()).AddConst(1), 0)
	b.eq(sum(mu[0], mu[1].Scale(-0.5), mu[2].Scale(-0.5), l[2].Neg()).AddConst(2), 0)
	for i := range 3 {
		b.eq(mu[i].Sub(l[3+i]), 0)
	}
}

func ex914(b *builder) {
	x, y := b.v("x", 0, inf), b.v("y", 0, inf)
	s, l := floudas(b, 4)
	b.minimize(x.Sub(y.Scale(4)))
	b.eq(sum(x.Scale(-2), y, s[0]), 0)
	b.eq(sum(x.Scale(2), y.Scale(5), s[1]), 108)
	b.eq(sum(x.Scale(2), y.Scale(-3), s[2]), -4)
	b.eq(y.Neg().Add(s[3]), 0)
	b.eq(sum(l[0], l[1].Scale(5), l[2].Scale(-3), l[3].Neg()), -1)
}

func ex915(b *builder) {
	x, y1, y2 := b.v("x", 0, inf), b.v("y1", 0, inf), b.v("y2", 0, inf)
	s, l := floudas(b, 5)
	b.minimize(sum(x.Neg(), y1.Scale(10), y2.Neg()))
	b.eq(sum(x, y1, s[0]), 1)
	b.eq(sum(x, y2, s[1]), 1)
	b.eq(sum(y1, y2, s[2]), 1)
	b.eq(y1.Neg().Add(s[3]), 0)
	b.eq(y2.Neg().Add(s[4]), 0)
	b.eq(sum(l[0], l[2], l[3].Neg()), 1)
	b.eq(sum(l[1], l[2], l[4].Neg()), 1)
}

func ex916(b *builder) {
	x, y := b.v("x", 0, inf), b.v("y", 0, inf)
	s, l := floudas(b, 6)
	b.minimize(x.Neg().Sub(y.Scale(3)))
	b.eq(sum(x.Neg(), y.Scale(-2), s[0]), -10)
	b.eq(sum(x, y.Scale(-2), s[1]), 6)
	b.eq(sum(x.Scale(2), y.Neg(), s[2]), 21)
	b.eq(sum(x, y.Scale(2), s[3]), 38)
	b.eq(sum(x.Neg(), y.Scale(2), s[4]), 18)
	b.eq(y.Neg().Add(s[5]), 0)
	b.eq(lin(3, []float64{-2, -2, -1, 2, 2, -1}, l), 0)
}

func ex917(b *builder) {
	x1, x2 := b.v("x1", 0, inf), b.v("x2", 0, inf)
	y1, y2, y3 := b.v("y1", 0, inf), b.v("y2", 0, inf), b.v("y3", 0, inf)
	s, l := floudas(b, 6)
	b.minimize(sum(x1.Scale(-8), x2.Scale(-4), y1.Scale(4), y2.Scale(-40), y3.Scale(4)))
	b.eq(sum(y1.Neg(), y2, y3, s[0]), 1)
	b.eq(sum(x1.Scale(2), y1.Neg(), y2.Scale(2), y3.Scale(-0.5), s[1]), 1)
	b.eq(sum(x2.Scale(2), y1.Scale(2), y2.Neg(), y3.Scale(-0.5), s[2]), 1)
	b.eq(y1.Neg().Add(s[3]), 0)
	b.eq(y2.Neg().Add(s[4]), 0)
	b.eq(y3.Neg().Add(s[5]), 0)
	b.eq(sum(l[0].Neg(), l[1].Neg(), l[2].Scale(2), l[3].Neg()), -1)
	b.eq(sum(l[0], l[1].Scale(2), l[2].Neg(), l[4].Neg()), -1)
	b.eq(sum(l[0], l[1].Scale(-0.5), l[2].Scale(-0.5), l[5].Neg()), -2)
}

// ex918 is ex9.1.8 (and ex9.1.10, whose model is the same apart from
// an unused variable y3, left out here as AMPL's presolve drops it).
func ex918(b *builder) {
	x1, x2 := b.v("x1", 0, inf), b.v("x2", 0, inf)
	y1, y2 := b.v("y1", 0, inf), b.v("y2", 0, inf)
	s, l := floudas(b, 5)
	b.minimize(sum(x1.Scale(-2), x2, y1.Scale(0.5)))
	b.le(x1.Add(x2), 2)
	b.eq(sum(x1.Scale(-2), y1, y2.Neg(), s[0]), -2.5)
	b.eq(sum(x1, x2.Scale(-3), y2, s[1]), 2)
	b.eq(y1.Neg().Add(s[2]), 0)
	b.eq(y2.Neg().Add(s[3]), 0)
	b.eq(l[0].Sub(l[2]), 4)
	b.eq(sum(l[0], l[1], l[3].Neg()), -1)
}

func ex9110(b *builder) { ex918(b) }

func ex919(b *builder) {
	x, y := b.v("x", 0, inf), b.v("y", 0, inf)
	s, l := floudas(b, 5)
	b.minimize(x.Add(y))
	b.eq(sum(x.Neg(), y.Scale(-0.5), s[0]), -2)
	b.eq(sum(x.Scale(-0.25), y, s[1]), 2)
	b.eq(sum(x, y.Scale(0.5), s[2]), 8)
	b.eq(sum(x, y.Scale(-2), s[3]), 2)
	b.eq(y.Neg().Add(s[4]), 0)
	b.eq(lin(0, []float64{-0.5, 1, 0.5, -2, -1}, l), 1)
}

// ex921 is ex9.2.1 and ex9.2.7 (the same model).
func ex921(b *builder) {
	x, y := b.v("x", 0, inf), b.v("y", 0, inf)
	s, l := floudas(b, 4)
	b.minimize(ad.Sq(x.AddConst(-5)).Add(ad.Sq(y.Scale(2).AddConst(1))))
	b.eq(sum(x.Scale(-3), y, s[0]), -3)
	b.eq(sum(x, y.Scale(-0.5), s[1]), 4)
	b.eq(sum(x, y, s[2]), 7)
	b.eq(y.Neg().Add(s[3]), 0)
	b.eq(sum(y.AddConst(-1).Scale(2), x.Scale(-1.5), l[0], l[1].Scale(-0.5), l[2], l[3].Neg()), 0)
}

func ex922(b *builder) {
	x, y := b.v("x", 0, inf), b.v("y", 0, inf)
	s, l := floudas(b, 4)
	b.minimize(ad.Sq(x).Add(ad.Sq(y.AddConst(-10))))
	b.le(x, 15)
	b.le(y.Sub(x), 0)
	b.le(x.Neg(), 0)
	b.eq(sum(x, y, s[0]), 20)
	b.eq(y.Neg().Add(s[1]), 0)
	b.eq(y.Add(s[2]), 20)
	b.eq(sum(x.Add(y.Scale(2)).AddConst(-30).Scale(2), l[0], l[1].Neg(), l[2]), 0)
}

func ex923(b *builder) {
	y1, y2 := b.v("y1", -8, inf), b.v("y2", -8, inf)
	x1, x2 := b.v("x1", 1, 50), b.v("x2", 1, 50)
	s, l := floudas(b, 6)
	b.minimize(sum(x1.Scale(2), x2.Scale(2), y1.Scale(-3), y2.Scale(-3)).AddConst(-60))
	b.le(sum(x1, x2, y1, y2.Scale(-2)), 40)
	b.eq(sum(x1.Neg(), y1.Scale(2), s[0]), -10)
	b.eq(sum(x2.Neg(), y2.Scale(2), s[1]), -10)
	b.eq(y1.Neg().Add(s[2]), 10)
	b.eq(y1.Add(s[3]), 20)
	b.eq(y2.Neg().Add(s[4]), 10)
	b.eq(y2.Add(s[5]), 20)
	b.eq(sum(y1.Sub(x1).AddConst(20).Scale(2), l[0].Scale(2), l[2].Neg(), l[3]), 0)
	b.eq(sum(y2.Sub(x2).AddConst(20).Scale(2), l[1].Scale(2), l[4].Neg(), l[5]), 0)
}

func ex924(b *builder) {
	l1 := b.v("l1", -inf, inf)
	x, y1, y2 := b.v("x", 0, inf), b.v("y1", 0, inf), b.v("y2", 0, inf)
	s, l := floudas(b, 2)
	b.minimize(ad.Sq(y1.AddConst(-2)).Scale(0.5).Add(ad.Sq(y2.AddConst(-2)).Scale(0.5)))
	b.eq(sum(y1, y2, x.Neg()), 0)
	b.eq(y1.Neg().Add(s[0]), 0)
	b.eq(y2.Neg().Add(s[1]), 0)
	b.eq(sum(y1, l1, l[0].Neg()), 0)
	b.eq(sum(l1, l[1].Neg()).AddConst(1), 0)
}

func ex925(b *builder) {
	y := b.v("y", -inf, inf)
	x := b.v("x", 0, 8)
	s, l := floudas(b, 3)
	b.minimize(ad.Sq(x.AddConst(-3)).Add(ad.Sq(y.AddConst(-2))))
	b.eq(sum(x.Scale(-2), y, s[0]), 1)
	b.eq(sum(x, y.Scale(-2), s[1]), 2)
	b.eq(sum(x, y.Scale(2), s[2]), 14)
	b.eq(sum(y.AddConst(-5).Scale(2), l[0], l[1].Scale(-2), l[2].Scale(2)), 0)
}

func ex926(b *builder) {
	x1, x2 := b.v("x1", 0, inf), b.v("x2", 0, inf)
	y1, y2 := b.v("y1", 0, inf), b.v("y2", 0, inf)
	s, l := floudas(b, 6)
	b.minimize(sum(ad.Sq(x1), x1.Scale(-2), ad.Sq(x2), x2.Scale(-2), ad.Sq(y1), ad.Sq(y2)))
	b.eq(y1.Neg().Add(s[0]), -0.5)
	b.eq(y2.Neg().Add(s[1]), -0.5)
	b.eq(y1.Add(s[2]), 1.5)
	b.eq(y2.Add(s[3]), 1.5)
	b.eq(sum(y1.Sub(x1).Scale(2), l[0].Neg(), l[2]), 0)
	b.eq(sum(y2.Sub(x2).Scale(2), l[1].Neg(), l[3]), 0)
}

func ex928(b *builder) {
	x, y := b.v("x", 0, 1), b.v("y", 0, inf)
	s, l := floudas(b, 2)
	b.minimize(sum(x.Mul(y).Scale(-4), y.Scale(3), x.Scale(2)).AddConst(1))
	b.eq(y.Neg().Add(s[0]), 0)
	b.eq(y.Add(s[1]), 1)
	b.eq(sum(x.Scale(4), l[0].Neg(), l[1]).AddConst(-1), 0)
}

func ex929(b *builder) {
	x := b.v("x", 2, 4)
	y1, y2 := b.v("y1", 0, inf), b.v("y2", 0, inf)
	s, l := floudas(b, 3)
	b.minimize(x.Add(y2))
	b.eq(sum(x, y1.Neg(), y2.Neg(), s[0]), -4)
	b.eq(y1.Neg().Add(s[1]), 0)
	b.eq(y2.Neg().Add(s[2]), 0)
	b.eq(l[0].Neg().Sub(l[1]), -2)
	b.eq(sum(l[0].Neg(), l[2].Neg(), x), 0)
}

func flp2(b *builder) {
	x := b.vs("x", 2, 0, 10)
	y := b.vs("y", 2, 0, inf)
	b.minimize(ad.Sq(sum(x[0], x[1], y[0]).AddConst(-15)).Add(ad.Sq(sum(x[0], x[1], y[1]).AddConst(-15))).Scale(0.5))
	b.perp(y[0], lin(-36, []float64{8.0 / 3, 2, 2, 8.0 / 3}, ad.Vec{x[0], x[1], y[0], y[1]}))
	b.perp(y[1], lin(-25, []float64{2, 5.0 / 4, 5.0 / 4, 2}, ad.Vec{x[0], x[1], y[0], y[1]}))
}

// gnash returns the Cournot–Nash model of gnash1.mod (mixed = false) or
// gnash1m.mod (mixed = true) with the data L and γ of one of the files
// gnash10.dat … gnash19.dat.
func gnash(L, gamma float64, mixed bool) func(*builder) {
	c := []float64{10, 8, 6, 4, 2}
	K := []float64{5, 5, 5, 5, 5}
	beta := []float64{1.2, 1.1, 1.0, 0.9, 0.8}
	return func(b *builder) {
		gg := math.Pow(5000, 1/gamma)
		x := b.v("x", 0, L)
		b.init(x, 75)
		y := b.vs("y", 4, -inf, inf)
		nl := 8
		lo := 0.0
		if mixed {
			nl, lo = 4, -inf
		}
		l := b.vs("l", nl, lo, inf)
		Q := sum(x, y[0], y[1], y[2], y[3])
		price := ad.Pow(Q, -1/gamma).Scale(gg)
		dprice := ad.Pow(Q, -1-1/gamma).Scale(-gg / gamma)
		b.minimize(sum(x.Scale(c[0]),
			ad.Pow(x, (1+beta[0])/beta[0]).Scale(beta[0]/(beta[0]+1)*math.Pow(K[0], -1/beta[0])),
			x.Mul(price).Neg()))
		for i := range 4 {
			F := sum(y[i].Scale(math.Pow(K[i+1], -1/beta[i+1])).AddConst(c[i+1]), price.Neg(), y[i].Mul(dprice).Neg())
			if mixed {
				b.eq(F.Sub(l[i]), 0)
				b.mixed(0, y[i], L, l[i])
				continue
			}
			b.eq(sum(F, l[2*i].Neg(), l[2*i+1]), 0)
			b.perp(y[i], l[2*i])
			b.perp(y[i].Neg().AddConst(L), l[2*i+1])
		}
	}
}

func gauvin(b *builder) {
	x, y, u := b.v("x", 0, 15), b.v("y", 0, inf), b.v("u", 0, inf)
	b.init(x, 7.5)
	b.init(u, 1)
	b.minimize(ad.Sq(x).Add(ad.Sq(y.AddConst(-10))))
	b.perp(sum(x, y.Scale(2)).AddConst(-30).Scale(4).Add(u), y)
	b.perp(x.Neg().Sub(y).AddConst(20), u)
}

func hakonsen(b *builder) {
	const L, G, pL = 100.0, 25.0, 1.0
	x := b.vs("x", 2, 0, inf)
	b.init(x[0], 1)
	b.init(x[1], 1)
	l := b.v("l", 0, inf)
	b.init(l, 1)
	p := b.vs("p", 2, 0, inf)
	t := b.vs("t", 2, 0, inf)
	b.maximizeObj(ad.Pow(x[0].Mul(x[1]).Mul(l), 1.0/3))
	for i := range 2 {
		b.perp(p[i].Neg().AddConst(pL), x[i])
	}
	for i := range 2 {
		b.perp(x[i].Mul(p[i].Scale(3).Mul(t[i].AddConst(1))).AddConst(-100*pL), p[i])
	}
	b.eq(sum(x[0].Mul(p[0]), x[1].Mul(p[1]), l.Scale(pL)), L*pL-G)
	b.ge(p[0].Mul(t[0]).Mul(x[0]).Add(p[1].Mul(t[1]).Mul(x[1])), G)
}

func hs044i(b *builder) {
	sol := []float64{0, 3, 0, 4}
	g := []float64{1, -1, -1, 0}
	A := [6][4]float64{{-1, -2, 0, 0}, {-4, -1, 0, 0}, {-3, -4, 0, 0}, {0, 0, -2, -1}, {0, 0, -1, -2}, {0, 0, -1, -1}}
	rhs := []float64{8, 12, 12, 8, 8, 5}
	H := [4][4]float64{{0, 0, -1, 1}, {0, 0, 1, -1}, {-1, 1, 0, 0}, {1, -1, 0, 0}}
	zl := []float64{0.01, -10, 0.1, -1, -1, 0.001}
	zu := []float64{10, -0.01, 1, -0.1, 1, 10}
	u := []float64{0.2, 1.2, 2, 0.1, 0.1, -0.1}
	v := []float64{1.2, 0.2, 0.1, 2, 10, -0.2}
	x := b.vs("x", 4, 0, inf)
	l := b.vs("l", 6, 0, inf)
	m := b.vs("m", 4, 0, inf)
	z := make(ad.Vec, 6)
	for k := range z {
		z[k] = b.v(fmt.Sprintf("z[%d]", k+1), zl[k], zu[k])
	}
	var f ad.Expr
	for i := range 4 {
		d := ad.Sq(x[i].AddConst(-sol[i]))
		if i == 0 {
			f = d
		} else {
			f = f.Add(d)
		}
	}
	b.minimize(f)
	for i := range 4 {
		e := lin(g[i], H[i][:], x).Add(z[i].Scale(u[i]))
		// − Σ_j A[j,i]·l[i]: the model file multiplies l[i], not l[j]; the
		// published objective is that of the model as written.
		var colSum float64
		for j := range 6 {
			colSum += A[j][i]
		}
		b.eq(e.Sub(l[i].Scale(colSum)).Sub(m[i]), 0)
	}
	for j := range 6 {
		b.perp(l[j], lin(rhs[j], A[j][:], x).Sub(z[j].Scale(v[j])))
	}
	for i := range 4 {
		b.perp(x[i], m[i])
	}
}

// jr returns jr1 (min (z₁−1)² + z₂²) or jr2 (min (z₂−1)² + z₁²) over
// 0 ≤ z₂ ⊥ z₂ − z₁ ≥ 0.
func jr(second bool) func(*builder) {
	return func(b *builder) {
		z1, z2 := b.v("z1", -inf, inf), b.v("z2", 0, inf)
		if second {
			b.minimize(ad.Sq(z2.AddConst(-1)).Add(ad.Sq(z1)))
		} else {
			b.minimize(ad.Sq(z1.AddConst(-1)).Add(ad.Sq(z2)))
		}
		b.perp(z2, z2.Sub(z1))
	}
}

func kthVars(b *builder, s1, s2 float64) (z1, z2 ad.Expr) {
	z1, z2 = b.v("z1", 0, inf), b.v("z2", 0, inf)
	b.init(z1, s1)
	b.init(z2, s2)
	b.perp(z1, z2)
	return z1, z2
}

func kth1(b *builder) {
	z1, z2 := kthVars(b, 0, 1)
	b.minimize(z1.Add(z2))
}

func kth2(b *builder) {
	z1, z2 := kthVars(b, 1, 0)
	b.minimize(z1.Add(ad.Sq(z2.AddConst(-1))))
}

func kth3(b *builder) {
	z1, z2 := kthVars(b, 1, 1)
	b.minimize(ad.Sq(z1.AddConst(-1)).Scale(0.5).Add(ad.Sq(z2.AddConst(-1))))
}

// nash1 returns nash1.mod started from x = (x1, x2) (the data files
// nash1a … nash1e).
func nash1(x1, x2 float64) func(*builder) {
	return func(b *builder) {
		x := b.vs("x", 2, 0, 10)
		b.init(x[0], x1)
		b.init(x[1], x2)
		y := b.vs("y", 2, -inf, inf)
		l := b.vs("l", 2, 0, inf)
		b.minimize(ad.Sq(x[0].Sub(y[0])).Add(ad.Sq(x[1].Sub(y[1]))).Scale(0.5))
		b.eq(sum(y[0].Scale(2), y[1].Scale(8.0/3), l[0]).AddConst(-34), 0)
		b.eq(sum(y[0].Scale(1.25), y[1].Scale(2), l[1]).AddConst(-24.25), 0)
		b.perp(sum(x[1].Neg(), y[0].Neg()).AddConst(15), l[0])
		b.perp(sum(x[0].Neg(), y[1].Neg()).AddConst(15), l[1])
	}
}

// outrata returns outrata31 … outrata34 (k = 1 … 4), which differ in the
// objective only.
func outrata(k int) func(*builder) {
	return func(b *builder) {
		x := b.vs("x", 4, 0, inf)
		y := b.v("y", 0, 10)
		f := ad.Sq(x[0].AddConst(-3)).Add(ad.Sq(x[1].AddConst(-4)))
		switch k {
		case 2:
			f = f.Add(ad.Sq(x[2].AddConst(-1)))
		case 3:
			f = f.Add(ad.Sq(x[3]).Scale(10))
		case 4:
			f = sum(f, ad.Sq(x[2].AddConst(-1)), ad.Sq(x[3].AddConst(-1)), ad.Sq(y))
		}
		b.minimize(f.Scale(0.5))
		b.perp(sum(y.Scale(0.2).AddConst(1).Mul(x[0]), y.Scale(-1.333), x[2].Scale(-0.333), x[0].Mul(x[3]).Scale(2)).AddConst(-3), x[0])
		b.perp(sum(y.Scale(0.1).AddConst(1).Mul(x[1]), y.Neg(), x[2], x[1].Mul(x[3]).Scale(2)), x[1])
		b.perp(sum(x[0].Scale(0.333), x[1].Neg(), y.Scale(-0.1)).AddConst(1), x[2])
		b.perp(sum(y.Scale(0.1), ad.Sq(x[0]).Neg(), ad.Sq(x[1]).Neg()).AddConst(9), x[3])
	}
}

// qpec returns qpec1 (sign = 1: min Σ(xᵢ+1)² + Σ(yⱼ+2)²) or qpec2
// (sign = −1: min Σ(xᵢ−1)² + Σ(yⱼ−2)²) with n = 10, m = 20. The model's
// "0 ≤ yᵢ ⊥ yᵢ ≥ 0" for i > n is kept as a complementarity (one side
// lifted). qpec2's unused variables s are left out (AMPL's presolve drops
// them).
func qpec(sign float64) func(*builder) {
	return func(b *builder) {
		const n, m = 10, 20
		x := b.vs("x", n, -inf, inf)
		y := b.vs("y", m, 0, inf)
		var f ad.Expr
		for i := range n {
			b.init(x[i], 1)
			d := ad.Sq(x[i].AddConst(sign))
			if i == 0 {
				f = d
			} else {
				f = f.Add(d)
			}
		}
		for j := range m {
			b.init(y[j], 1)
			f = f.Add(ad.Sq(y[j].AddConst(2 * sign)))
		}
		b.minimize(f)
		for i := range n {
			b.perp(y[i].Sub(x[i]), y[i])
		}
		for i := n; i < m; i++ {
			b.perp(y[i], y[i])
		}
	}
}

func ralph1(b *builder) {
	x, y := b.v("x", 0, inf), b.v("y", 0, inf)
	// The model declares two objectives; AMPL minimizes the first.
	b.minimize(x.Scale(2).Sub(y))
	b.perp(y, y.Sub(x))
}

func ralph2(b *builder) {
	x, y := b.v("x", 0, inf), b.v("y", -inf, inf)
	b.init(x, 1)
	b.init(y, 1)
	b.minimize(sum(ad.Sq(x), ad.Sq(y), x.Mul(y).Scale(-4)))
	b.perp(x, y)
}

// scholtes12 returns scholtes1 or (second) scholtes2.
func scholtes12(second bool) func(*builder) {
	return func(b *builder) {
		x := b.v("x", 0, inf)
		b.init(x, 1)
		y := b.vs("y", 2, -inf, inf)
		b.init(y[0], 1)
		b.init(y[1], 1)
		if second {
			b.minimize(sum(ad.Sq(x.AddConst(1)), ad.Sq(y[0]), ad.Sq(y[1].AddConst(1)).Scale(10)))
		} else {
			b.minimize(sum(ad.Sq(x.AddConst(1)), ad.Sq(y[0].AddConst(-2.5)), ad.Sq(y[1].AddConst(1))))
		}
		b.ge(y[1], 0)
		b.perp(sum(ad.Exp(x).Neg(), y[0], ad.Exp(y[1]).Neg()), x)
	}
}

func scholtes3(b *builder) {
	x := b.vs("x", 2, 0, inf)
	b.init(x[0], 1e-4)
	b.init(x[1], 1e-4)
	b.minimize(ad.Sq(x[0].AddConst(-1)).Add(ad.Sq(x[1].AddConst(-1))).Scale(0.5))
	b.perp(x[0], x[1])
}

func scholtes4(b *builder) {
	z := b.vs("z", 2, 0, inf)
	z3 := b.v("z3", -inf, inf)
	b.init(z[0], 0)
	b.init(z[1], 1)
	b.init(z3, 0)
	b.minimize(sum(z[0], z[1], z3.Neg()))
	b.le(z[0].Scale(-4).Add(z3), 0)
	b.le(z[1].Scale(-4).Add(z3), 0)
	b.perp(z[0], z[1])
}

func scholtes5(b *builder) {
	z := b.vs("z", 3, 0, inf)
	for _, v := range z {
		b.init(v, 1)
	}
	b.minimize(sum(ad.Sq(z[0].AddConst(-1)), ad.Sq(z[1].AddConst(-2)), ad.Sq(z[2].AddConst(1))))
	b.perp(z[0], z[2])
	b.perp(z[1], z[2])
}

// scale returns scale1 … scale5 (a = 100): badly scaled variants of
// min (x₁−1)² + (x₂−1)² s.t. 0 ≤ x₁ ⊥ x₂ ≥ 0.
func scale(k int) func(*builder) {
	return func(b *builder) {
		const a = 100.0
		x1, x2 := b.v("x1", -inf, inf), b.v("x2", -inf, inf)
		var f ad.Expr
		switch k {
		case 1:
			f = ad.Sq(x1.Scale(a).AddConst(-1)).Add(ad.Sq(x2.AddConst(-1)))
		case 2:
			f = ad.Sq(x1.AddConst(-1)).Scale(a).Add(ad.Sq(x2.AddConst(-1)))
		case 3:
			f = ad.Sq(x1.Scale(a).AddConst(-1)).Add(ad.Sq(x2.AddConst(-1)).Scale(a))
		case 4:
			f = ad.Sq(x1.Scale(a).AddConst(-1)).Add(ad.Sq(x2.Scale(a).AddConst(-1)))
		case 5:
			f = ad.Sq(x1.AddConst(-1)).Scale(a).Add(ad.Sq(x2.AddConst(-1)).Scale(a))
		}
		b.minimize(f)
		b.perp(x1, x2)
	}
}

func sl1(b *builder) {
	x := b.vs("x", 2, -inf, inf)
	zl := []float64{10, 0.01, 0}
	zu := []float64{1e10, 10, 1}
	z := make(ad.Vec, 3)
	for i := range z {
		z[i] = b.v(fmt.Sprintf("z[%d]", i+1), zl[i], zu[i])
	}
	l := b.vs("l", 3, 0, inf)
	b.minimize(ad.Sq(x[0].AddConst(-2)).Add(ad.Sq(x[1])))
	b.eq(sum(x[0].Scale(0.02), l[0].Scale(-10), l[1].Neg()), 0)
	b.eq(sum(x[1].Scale(2), l[0].Neg(), l[2].Neg()), 0)
	b.perp(sum(x[0].Scale(10), x[1], z[0].Neg()).AddConst(-10), l[0])
	b.perp(x[0].Sub(z[1]).AddConst(-2), l[1])
	b.perp(x[1].Sub(z[2].Scale(50)), l[2])
}

func stackelberg1(b *builder) {
	x, y, l := b.v("x", 0, 200), b.v("y", 0, inf), b.v("l", 0, inf)
	b.minimize(sum(ad.Sq(x).Scale(0.5), x.Mul(y).Scale(0.5), x.Scale(-95)))
	b.eq(sum(y.Scale(2), x.Scale(0.5), l.Neg()).AddConst(-100), 0)
	b.perp(y, l)
}
