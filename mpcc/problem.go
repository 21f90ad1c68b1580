package mpcc

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/nlp"
)

// Complementarity is one complementarity term
//
//	c(x) = Σ_{(a,b) ∈ Pairs} x_a·x_b = 0,   x_a ≥ 0, x_b ≥ 0,
//
// over variables of the underlying NLP. A term with one pair is the scalar
// complementarity 0 ≤ x_a ⊥ x_b ≥ 0 (G = x_a, H = x_b). A term with several
// pairs is a summed (cross-)complementarity as produced by FESD, for example
// Σ_j λ_{n,j}·θ_{m,j}; since all factors are nonnegative, c = 0 forces every
// product to vanish.
type Complementarity struct {
	Pairs [][2]int
}

// Pair returns the scalar complementarity term 0 ≤ x_a ⊥ x_b ≥ 0.
func Pair(a, b int) Complementarity {
	return Complementarity{Pairs: [][2]int{{a, b}}}
}

// Scalar reports whether the term is a single pair.
func (c Complementarity) Scalar() bool { return len(c.Pairs) == 1 }

// Value returns c(x) = Σ x_a·x_b. It is NaN when an index of a pair is
// outside x (negative or ≥ len(x)); it does not allocate.
func (c Complementarity) Value(x []float64) float64 {
	var v float64
	for _, p := range c.Pairs {
		a, b := p[0], p[1]
		if uint(a) >= uint(len(x)) || uint(b) >= uint(len(x)) {
			return math.NaN()
		}
		v += x[a] * x[b]
	}
	return v
}

// Problem is a mathematical program with complementarity constraints
//
//	minimize f(x)  s.t.  g_L ≤ g(x) ≤ g_U,  x_L ≤ x ≤ x_U,  c_k(x) = 0 for every term k,
//
// where NLP supplies f, g and the bounds and Comp lists the complementarity
// terms. Every variable that appears in a pair must have a finite lower
// bound x_L ≥ 0 (checked by Validate).
type Problem struct {
	NLP  nlp.Problem
	Comp []Complementarity
}

// Validate checks the indices of every pair and the lower bounds of the
// variables involved. It evaluates NLP.Bounds once.
func (p *Problem) Validate() error {
	if p == nil || p.NLP == nil {
		return ErrNilProblem
	}
	n, m := p.NLP.Dims()
	if n < 0 || m < 0 {
		return fmt.Errorf("%w: Dims() = (%d, %d)", ErrDimension, n, m)
	}
	xL := make([]float64, n)
	xU := make([]float64, n)
	p.NLP.Bounds(xL, xU, make([]float64, m), make([]float64, m))
	for k, c := range p.Comp {
		if len(c.Pairs) == 0 {
			return fmt.Errorf("%w: term %d", ErrEmptyTerm, k)
		}
		for j, pr := range c.Pairs {
			for _, i := range pr {
				if i < 0 || i >= n {
					return fmt.Errorf("%w: term %d pair %d index %d, n = %d", ErrIndex, k, j, i, n)
				}
			}
			if pr[0] == pr[1] {
				return fmt.Errorf("%w: term %d pair %d (%d, %d)", ErrSamePair, k, j, pr[0], pr[1])
			}
			for _, i := range pr {
				if !(xL[i] >= 0) || math.IsInf(xL[i], 0) {
					return fmt.Errorf("%w: term %d pair %d variable %d has lower bound %g", ErrLowerBound, k, j, i, xL[i])
				}
			}
		}
	}
	return nil
}

// Residuals returns the complementarity residuals of x (length n of the NLP):
//
//	comp    = max( max_k |c_k(x)|,  max_{i in a pair} max(0, x_L,i − x_i) ),
//	natural = max_k max_{(a,b) ∈ P_k} |min(x_a − x_L,a, x_b − x_L,b)|.
//
// comp is the residual of nosnoc (max of G·H over the MPCC terms, so it
// measures the sums in summed cross-complementarity modes), extended by the
// lower-bound violation, which is nonzero only for relaxations that loosen
// the bounds (Lin–Fukushima, Kadrani) or for inexact iterates. The homotopy
// stops on comp. natural is the natural (min-function) residual of every
// individual pair: for a scalar pair with x_L = 0 it is the distance to
// the complementarity set along the smaller factor; for a pair whose larger
// factor is of order one it is of the order of the product.
// xL is the NLP's lower-bound vector. When an index of a pair is outside x
// or xL (a short slice, or a problem that fails Validate), both residuals
// are +Inf: the point is not accepted as complementary. Residuals does not
// allocate.
func (p *Problem) Residuals(x, xL []float64) (comp, natural float64) {
	n := uint(min(len(x), len(xL)))
	for _, c := range p.Comp {
		for _, pr := range c.Pairs {
			if uint(pr[0]) >= n || uint(pr[1]) >= n {
				return math.Inf(1), math.Inf(1)
			}
		}
		comp = math.Max(comp, math.Abs(c.Value(x)))
		for _, pr := range c.Pairs {
			a, b := pr[0], pr[1]
			comp = math.Max(comp, math.Max(0, xL[a]-x[a]))
			comp = math.Max(comp, math.Max(0, xL[b]-x[b]))
			natural = math.Max(natural, math.Abs(math.Min(x[a]-xL[a], x[b]-xL[b])))
		}
	}
	return comp, natural
}
