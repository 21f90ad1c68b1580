package rk

import (
	"math"
	"math/big"
	"testing"
)

const bigPrec = 256

// bigLegendre returns P_n(x), P'_n(x), P”_n(x) and P_{n−1}(x), P'_{n−1}(x) in
// 256-bit arithmetic (same recurrences as legendre, independent precision).
func bigLegendre(n int, x *big.Float) (p, dp, ddp, pm1, dpm1 *big.Float) {
	nf := func(v float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(v) }
	if n == 0 {
		return nf(1), nf(0), nf(0), nf(0), nf(0)
	}
	p0, p1 := nf(1), new(big.Float).SetPrec(bigPrec).Set(x)
	d0, d1 := nf(0), nf(1)
	dd0, dd1 := nf(0), nf(0)
	for k := 1; k < n; k++ {
		a := nf(float64(2*k + 1))
		// p2 = ((2k+1) x p1 − k p0)/(k+1)
		t := new(big.Float).SetPrec(bigPrec).Mul(a, x)
		t.Mul(t, p1)
		u := new(big.Float).SetPrec(bigPrec).Mul(nf(float64(k)), p0)
		t.Sub(t, u)
		t.Quo(t, nf(float64(k+1)))
		d2 := new(big.Float).SetPrec(bigPrec).Mul(a, p1)
		d2.Add(d2, d0)
		dd2 := new(big.Float).SetPrec(bigPrec).Mul(a, d1)
		dd2.Add(dd2, dd0)
		p0, p1 = p1, t
		d0, d1 = d1, d2
		dd0, dd1 = dd1, dd2
	}
	return p1, d1, dd1, p0, d0
}

// bigPolish runs Newton in 256-bit arithmetic from the float64 root x0 on the
// polynomial selected by kind and returns the root rounded to float64 after
// mapping to c = (1 + sign·x)/2 in high precision.
func bigPolish(kind string, s int, x0, sign float64) float64 {
	x := new(big.Float).SetPrec(bigPrec).SetFloat64(x0)
	for it := 0; it < 8; it++ { // quadratic convergence: 1e-16 → 1e-32 → … ≪ 2^-256
		var g, dg *big.Float
		switch kind {
		case "gauss":
			p, dp, _, _, _ := bigLegendre(s, x)
			g, dg = p, dp
		case "radau":
			p, dp, _, pm1, dpm1 := bigLegendre(s, x)
			g = new(big.Float).SetPrec(bigPrec).Sub(p, pm1)
			dg = new(big.Float).SetPrec(bigPrec).Sub(dp, dpm1)
		case "lobatto":
			_, dp, ddp, _, _ := bigLegendre(s-1, x)
			g, dg = dp, ddp
		}
		step := new(big.Float).SetPrec(bigPrec).Quo(g, dg)
		x.Sub(x, step)
	}
	c := new(big.Float).SetPrec(bigPrec).Mul(x, new(big.Float).SetFloat64(sign))
	c.Add(c, new(big.Float).SetFloat64(1))
	c.Quo(c, new(big.Float).SetFloat64(2))
	v, _ := c.Float64()
	return v
}

// TestNodesAgainstBigFloat checks every node of every implicit family for
// s = MinStages … MaxStages against a 256-bit Newton refinement of the same
// root; end points must be exact.
func TestNodesAgainstBigFloat(t *testing.T) {
	const tol = 1e-15 // absolute, on c ∈ [0, 1]
	for _, f := range ImplicitFamilies() {
		var worst float64
		for s := f.MinStages(); s <= MaxStages; s++ {
			c, err := Nodes(f, s)
			if err != nil {
				t.Fatalf("%v s=%d: %v", f, s, err)
			}
			if len(c) != s {
				t.Fatalf("%v s=%d: %d nodes", f, s, len(c))
			}
			for i := 1; i < s; i++ {
				if !(c[i] > c[i-1]) {
					t.Errorf("%v s=%d: nodes not increasing at %d", f, s, i)
				}
			}
			for i, ci := range c {
				var want float64
				switch {
				case (f == FamilyRadauIIA || f == FamilyLobattoIIIA || f == FamilyLobattoIIIC) && i == s-1:
					want = 1 // exact end point
				case (f == FamilyRadauIA || f == FamilyLobattoIIIA || f == FamilyLobattoIIIC) && i == 0:
					want = 0 // exact end point
				case f == FamilyGaussLegendre:
					want = bigPolish("gauss", s, 2*ci-1, 1)
				case f == FamilyRadauIIA:
					want = bigPolish("radau", s, 2*ci-1, 1)
				case f == FamilyRadauIA:
					want = bigPolish("radau", s, 1-2*ci, -1)
				default:
					want = bigPolish("lobatto", s, 2*ci-1, 1)
				}
				if (want == 0 || want == 1) && ci != want {
					t.Errorf("%v s=%d: end point c[%d] = %.17g, want exactly %g", f, s, i, ci, want)
				}
				d := math.Abs(ci - want)
				worst = math.Max(worst, d)
				if d > tol {
					t.Errorf("%v s=%d: c[%d] = %.17g, 256-bit reference %.17g (|diff| %.2g)", f, s, i, ci, want, d)
				}
			}
		}
		t.Logf("%v: largest node deviation %.2g over s = %d…%d", f, worst, f.MinStages(), MaxStages)
	}
}

// TestNodesSymmetry: Gauss and Lobatto nodes are symmetric about 1/2, and the
// Radau IA nodes are the mirror images 1 − c of the Radau IIA nodes.
func TestNodesSymmetry(t *testing.T) {
	const tol = 1e-15 // absolute
	for s := 2; s <= MaxStages; s++ {
		g, _ := Nodes(FamilyGaussLegendre, s)
		l, _ := Nodes(FamilyLobattoIIIA, s)
		r2, _ := Nodes(FamilyRadauIIA, s)
		r1, _ := Nodes(FamilyRadauIA, s)
		for i := 0; i < s; i++ {
			if d := math.Abs(g[i] + g[s-1-i] - 1); d > tol {
				t.Errorf("Gauss s=%d: c_%d + c_%d − 1 = %.2g", s, i, s-1-i, d)
			}
			if d := math.Abs(l[i] + l[s-1-i] - 1); d > tol {
				t.Errorf("Lobatto s=%d: c_%d + c_%d − 1 = %.2g", s, i, s-1-i, d)
			}
			if d := math.Abs(r1[i] + r2[s-1-i] - 1); d > tol {
				t.Errorf("Radau s=%d: IA c_%d + IIA c_%d − 1 = %.2g", s, i, s-1-i, d)
			}
		}
	}
}

// TestGaussQuadratureWeights: the Gauss weights on [0, 1] sum to 1 and equal
// b of the Gauss–Legendre tableau.
func TestGaussQuadratureWeights(t *testing.T) {
	const tol = 1e-14 // absolute
	for m := 1; m <= MaxStages; m++ {
		_, w, err := gaussQuadrature(m)
		if err != nil {
			t.Fatal(err)
		}
		tab, _ := GaussLegendre(m)
		var sum float64
		for k := range w {
			sum += w[k]
			if d := math.Abs(w[k] - tab.B[k]); d > tol {
				t.Errorf("m=%d: weight %d = %.17g, b = %.17g", m, k, w[k], tab.B[k])
			}
		}
		if math.Abs(sum-1) > tol {
			t.Errorf("m=%d: Σw − 1 = %.2g", m, sum-1)
		}
	}
}
