package adnlp_test

import (
	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/nlp/adnlp"
)

// chainSpec is a discretized nonlinear optimal control problem with N stages,
//
//	min Σₖ h(xₖ² + uₖ²) + x_N²  s.t.  xₖ₊₁ = xₖ + h(sin xₖ + uₖ),  x₀ = 1,
//	−2 ≤ xₖ ≤ 2,  −1 ≤ uₖ ≤ 1,
//
// with variables ordered (x₀, u₀, x₁, u₁, …, x_N): n = 2N + 1, m = N.
func chainSpec(N int) adnlp.Spec {
	g := ad.NewGraph()
	h := 1.0 / float64(N)
	n := 2*N + 1
	X := make(ad.Vec, 0, n)
	xl, xu := make([]float64, n), make([]float64, n)
	xs, us := make(ad.Vec, N+1), make(ad.Vec, N)
	for k := 0; k <= N; k++ {
		xs[k] = g.Sym("x")
		xl[len(X)], xu[len(X)] = -2, 2
		X = append(X, xs[k])
		if k < N {
			us[k] = g.Sym("u")
			xl[len(X)], xu[len(X)] = -1, 1
			X = append(X, us[k])
		}
	}
	xl[0], xu[0] = 1, 1
	G := make(ad.Vec, N)
	terms := make(ad.Vec, 0, 2*N+1)
	for k := 0; k < N; k++ {
		G[k] = xs[k+1].Sub(xs[k]).Sub(ad.Sin(xs[k]).Add(us[k]).Scale(h))
		terms = append(terms, ad.Sq(xs[k]).Scale(h), ad.Sq(us[k]).Scale(h))
	}
	terms = append(terms, ad.Sq(xs[N]))
	return adnlp.Spec{X: X, XL: xl, XU: xu, F: ad.Sum(terms), G: G}
}
