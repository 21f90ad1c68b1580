package rk

import (
	"fmt"
	"math"
	"sort"
)

// legendreValues holds P_n, P'_n, P”_n and P_{n−1}, P'_{n−1} at one point.
type legendreValues struct {
	p, dp, ddp float64 // P_n, P'_n, P''_n
	pm1, dpm1  float64 // P_{n−1}, P'_{n−1}
}

// legendre evaluates the Legendre polynomial P_n and its first two derivatives
// at x, together with P_{n−1} and P'_{n−1}. It uses the three-term recurrence
//
//	(k+1)·P_{k+1} = (2k+1)·x·P_k − k·P_{k−1}
//
// and, for the derivatives, P'_{k+1} = P'_{k−1} + (2k+1)·P_k (same for P”),
// which has no division by 1 − x² and so is accurate up to the end points.
func legendre(n int, x float64) legendreValues {
	if n == 0 {
		return legendreValues{p: 1}
	}
	// Values for k−1 and k.
	p0, p1 := 1.0, x
	d0, d1 := 0.0, 1.0
	dd0, dd1 := 0.0, 0.0
	for k := 1; k < n; k++ {
		fk := float64(k)
		p2 := ((2*fk+1)*x*p1 - fk*p0) / (fk + 1)
		d2 := d0 + (2*fk+1)*p1
		dd2 := dd0 + (2*fk+1)*d1
		p0, p1 = p1, p2
		d0, d1 = d1, d2
		dd0, dd1 = dd1, dd2
	}
	return legendreValues{p: p1, dp: d1, ddp: dd1, pm1: p0, dpm1: d0}
}

// polyRoots finds the simple real roots of a polynomial g on (−1, 1), one per
// initial guess, by Newton's method with implicit deflation of the roots already
// found (the Newton step of g(x)/Π(x − r)), then polishes each root with a few
// undeflated Newton steps on g itself. eval returns g(x) and g'(x).
func polyRoots(eval func(x float64) (g, dg float64), guesses []float64) ([]float64, error) {
	roots := make([]float64, 0, len(guesses))
	for _, x := range guesses {
		converged := false
		for it := 0; it < 100; it++ {
			g, dg := eval(x)
			var sum float64
			for _, r := range roots {
				sum += 1 / (x - r)
			}
			den := dg - g*sum
			if den == 0 || math.IsNaN(den) {
				break
			}
			dx := g / den
			x -= dx
			if math.Abs(dx) <= 2e-16 {
				converged = true
				break
			}
		}
		if !converged {
			return nil, fmt.Errorf("%w: Newton did not converge from guess %g", ErrNodes, x)
		}
		// Polish on the undeflated polynomial.
		for it := 0; it < 3; it++ {
			g, dg := eval(x)
			if dg == 0 {
				break
			}
			x -= g / dg
		}
		if !(x > -1 && x < 1) {
			return nil, fmt.Errorf("%w: root %g outside (−1, 1)", ErrNodes, x)
		}
		roots = append(roots, x)
	}
	sort.Float64s(roots)
	for i := 1; i < len(roots); i++ {
		if roots[i]-roots[i-1] < 1e-8 {
			return nil, fmt.Errorf("%w: roots %g and %g coincide", ErrNodes, roots[i-1], roots[i])
		}
	}
	return roots, nil
}

// gaussRoots returns the s zeros of P_s on (−1, 1) in increasing order.
func gaussRoots(s int) ([]float64, error) {
	guesses := make([]float64, s)
	for k := 1; k <= s; k++ {
		// Tricomi-type first approximation x_k ≈ cos(π(k − 1/4)/(s + 1/2)).
		guesses[k-1] = math.Cos(math.Pi * (float64(k) - 0.25) / (float64(s) + 0.5))
	}
	return polyRoots(func(x float64) (float64, float64) {
		v := legendre(s, x)
		return v.p, v.dp
	}, guesses)
}

// radauRoots returns the s−1 zeros in (−1, 1) of P_s − P_{s−1} (its remaining
// zero is x = +1), in increasing order.
func radauRoots(s int) ([]float64, error) {
	if s == 1 {
		return nil, nil
	}
	guesses := make([]float64, s-1)
	for k := 1; k <= s-1; k++ {
		// Chebyshev–Radau approximation cos(2πk/(2s − 1)).
		guesses[k-1] = math.Cos(2 * math.Pi * float64(k) / (2*float64(s) - 1))
	}
	return polyRoots(func(x float64) (float64, float64) {
		v := legendre(s, x)
		return v.p - v.pm1, v.dp - v.dpm1
	}, guesses)
}

// lobattoRoots returns the s−2 zeros of P'_{s−1} on (−1, 1) in increasing order.
func lobattoRoots(s int) ([]float64, error) {
	if s == 2 {
		return nil, nil
	}
	guesses := make([]float64, s-2)
	for k := 1; k <= s-2; k++ {
		// Chebyshev–Gauss–Lobatto approximation cos(πk/(s − 1)).
		guesses[k-1] = math.Cos(math.Pi * float64(k) / float64(s-1))
	}
	return polyRoots(func(x float64) (float64, float64) {
		v := legendre(s-1, x)
		return v.dp, v.ddp
	}, guesses)
}

// Nodes returns the s abscissae c_1 < … < c_s on [0, 1] of the given implicit
// family: Gauss points for FamilyGaussLegendre, right Radau points (c_s = 1) for
// FamilyRadauIIA, left Radau points (c_1 = 0) for FamilyRadauIA and Lobatto points
// (c_1 = 0, c_s = 1) for FamilyLobattoIIIA and FamilyLobattoIIIC. End points are exact.
func Nodes(f Family, s int) ([]float64, error) {
	if err := checkStages(f, s); err != nil {
		return nil, err
	}
	switch f {
	case FamilyGaussLegendre:
		x, err := gaussRoots(s)
		if err != nil {
			return nil, err
		}
		return shift(x, +1, nil, nil), nil
	case FamilyRadauIIA:
		x, err := radauRoots(s)
		if err != nil {
			return nil, err
		}
		return shift(x, +1, nil, []float64{1}), nil
	case FamilyRadauIA:
		x, err := radauRoots(s)
		if err != nil {
			return nil, err
		}
		// Mirror: c = (1 − x)/2 maps the zero x = 1 to c = 0.
		return shift(x, -1, []float64{0}, nil), nil
	case FamilyLobattoIIIA, FamilyLobattoIIIC:
		x, err := lobattoRoots(s)
		if err != nil {
			return nil, err
		}
		return shift(x, +1, []float64{0}, []float64{1}), nil
	}
	return nil, fmt.Errorf("%w: %v has no collocation nodes", ErrFamily, f)
}

// shift maps x ∈ (−1, 1) to c = (1 + sign·x)/2 ∈ (0, 1), sorts, and adds the
// exact end points before and after.
func shift(x []float64, sign float64, before, after []float64) []float64 {
	c := make([]float64, 0, len(x)+len(before)+len(after))
	c = append(c, before...)
	mid := make([]float64, len(x))
	for i, xi := range x {
		mid[i] = (1 + sign*xi) / 2
	}
	sort.Float64s(mid)
	c = append(c, mid...)
	return append(c, after...)
}

// gaussQuadrature returns the m-point Gauss–Legendre rule on [0, 1]:
// nodes g_k and weights w_k = 1/((1 − x_k²)·P'_m(x_k)²) with x_k = 2g_k − 1.
// It integrates polynomials of degree ≤ 2m − 1 exactly.
func gaussQuadrature(m int) (nodes, weights []float64, err error) {
	x, err := gaussRoots(m)
	if err != nil {
		return nil, nil, err
	}
	nodes = make([]float64, m)
	weights = make([]float64, m)
	for k, xk := range x {
		d := legendre(m, xk).dp
		nodes[k] = (1 + xk) / 2
		weights[k] = 1 / ((1 - xk) * (1 + xk) * d * d)
	}
	return nodes, weights, nil
}

// lagrange evaluates the Lagrange basis polynomial ℓ_j of the nodes at x:
// ℓ_j(x) = Π_{k≠j} (x − nodes_k)/(nodes_j − nodes_k).
func lagrange(nodes []float64, j int, x float64) float64 {
	v := 1.0
	for k, nk := range nodes {
		if k != j {
			v *= (x - nk) / (nodes[j] - nk)
		}
	}
	return v
}

// integrateLagrange returns ∫_a^b ℓ_j(τ) dτ with the quadrature rule (g, w) on
// [0, 1], which must be exact for degree len(nodes) − 1.
func integrateLagrange(nodes []float64, j int, a, b float64, g, w []float64) float64 {
	h := b - a
	if h == 0 {
		return 0
	}
	var sum float64
	for k := range g {
		sum += w[k] * lagrange(nodes, j, a+h*g[k])
	}
	return h * sum
}
