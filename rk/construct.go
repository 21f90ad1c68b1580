package rk

import "fmt"

// checkStages returns an ErrStages/ErrFamily error if s stages are not supported
// by the implicit family f.
func checkStages(f Family, s int) error {
	if !f.valid() || f == FamilyExplicit {
		return fmt.Errorf("%w: %v is not an implicit family", ErrFamily, f)
	}
	if lo := f.MinStages(); s < lo || s > MaxStages {
		return fmt.Errorf("%w: %v needs %d ≤ s ≤ %d, got s = %d", ErrStages, f, lo, MaxStages, s)
	}
	return nil
}

// New returns the s-stage tableau of family f. For FamilyExplicit, s = 1, 2, 4 give
// ExplicitEuler, Heun and RK4.
func New(f Family, s int) (*Tableau, error) {
	switch f {
	case FamilyRadauIIA:
		return RadauIIA(s)
	case FamilyGaussLegendre:
		return GaussLegendre(s)
	case FamilyRadauIA:
		return RadauIA(s)
	case FamilyLobattoIIIA:
		return LobattoIIIA(s)
	case FamilyLobattoIIIC:
		return LobattoIIIC(s)
	case FamilyExplicit:
		switch s {
		case 1:
			return ExplicitEuler(), nil
		case 2:
			return Heun(), nil
		case 4:
			return RK4(), nil
		}
		return nil, fmt.Errorf("%w: FamilyExplicit supports s = 1, 2, 4, got s = %d", ErrStages, s)
	}
	return nil, fmt.Errorf("%w: %v", ErrFamily, f)
}

// RadauIIA returns the s-stage Radau IIA method (1 ≤ s ≤ MaxStages): collocation
// at the zeros of P_s(2τ−1) − P_{s−1}(2τ−1), which include c_s = 1. Order 2s−1,
// stage order s; stiffly accurate. s = 1 is the implicit Euler method.
func RadauIIA(s int) (*Tableau, error) { return collocation(FamilyRadauIIA, s) }

// GaussLegendre returns the s-stage Gauss–Legendre method (1 ≤ s ≤ MaxStages):
// collocation at the zeros of P_s(2τ−1). Order 2s, stage order s. s = 1 is the
// implicit midpoint rule.
func GaussLegendre(s int) (*Tableau, error) { return collocation(FamilyGaussLegendre, s) }

// LobattoIIIA returns the s-stage Lobatto IIIA method (2 ≤ s ≤ MaxStages):
// collocation at 0, 1 and the zeros of P'_{s−1}(2τ−1). Order 2s−2, stage order s;
// the first row of A is zero and the method is stiffly accurate. s = 2 is the
// trapezoidal rule.
func LobattoIIIA(s int) (*Tableau, error) { return collocation(FamilyLobattoIIIA, s) }

// collocation builds the collocation method of family f on its nodes:
// a_ij = ∫_0^{c_i} ℓ_j(τ) dτ and b_j = ∫_0^1 ℓ_j(τ) dτ, integrated exactly by an
// s-point Gauss–Legendre rule on [0, c_i] (ℓ_j has degree s − 1).
func collocation(f Family, s int) (*Tableau, error) {
	c, err := Nodes(f, s)
	if err != nil {
		return nil, err
	}
	g, w, err := gaussQuadrature(s)
	if err != nil {
		return nil, err
	}
	A := make([][]float64, s)
	for i := range A {
		A[i] = make([]float64, s)
		for j := range A[i] {
			A[i][j] = integrateLagrange(c, j, 0, c[i], g, w)
		}
	}
	b := make([]float64, s)
	for j := range b {
		b[j] = integrateLagrange(c, j, 0, 1, g, w)
	}
	if c[s-1] == 1 {
		// Row s and b are the same integrals; make the equality exact.
		copy(b, A[s-1])
	}
	return newTableau(f, s, A, b, c), nil
}

// RadauIA returns the s-stage Radau IA method (1 ≤ s ≤ MaxStages): nodes are the
// zeros of P_s(2τ−1) + P_{s−1}(2τ−1) (c_1 = 0), b_j = ∫_0^1 ℓ_j, and A is the
// unique matrix satisfying D(s) (Hairer & Wanner II, §IV.5):
//
//	Σ_i b_i c_i^{k−1} a_ij = b_j (1 − c_j^k)/k,  k = 1, …, s.
//
// Testing D(s) against the Lagrange basis ℓ_k of the nodes instead of monomials
// gives the closed form a_kj = (b_j / b_k)·∫_{c_j}^1 ℓ_k(τ) dτ, which needs no
// (ill-conditioned) Vandermonde solve. Order 2s−1, stage order s−1. For s = 1 the
// tableau is c = 0, A = 1, b = 1 (so A·1 ≠ c).
func RadauIA(s int) (*Tableau, error) {
	f := FamilyRadauIA
	c, err := Nodes(f, s)
	if err != nil {
		return nil, err
	}
	g, w, err := gaussQuadrature(s)
	if err != nil {
		return nil, err
	}
	b := make([]float64, s)
	for j := range b {
		b[j] = integrateLagrange(c, j, 0, 1, g, w)
	}
	A := make([][]float64, s)
	for k := range A {
		A[k] = make([]float64, s)
		for j := range A[k] {
			A[k][j] = b[j] / b[k] * integrateLagrange(c, k, c[j], 1, g, w)
		}
	}
	return newTableau(f, s, A, b, c), nil
}

// LobattoIIIC returns the s-stage Lobatto IIIC method (2 ≤ s ≤ MaxStages): Lobatto
// nodes, b_j = ∫_0^1 ℓ_j, and A defined by a_i1 = b_1 for all i together with
// C(s−1) (Hairer & Wanner II, §IV.5):
//
//	Σ_j a_ij c_j^{k−1} = c_i^k / k,  k = 1, …, s−1.
//
// Writing C(s−1) as Σ_j a_ij p(c_j) = ∫_0^{c_i} p for all p of degree ≤ s−2 and
// testing with the Lagrange basis L_k of the nodes c_2, …, c_s gives
// a_ik = ∫_0^{c_i} L_k(τ) dτ − b_1·L_k(0) for k ≥ 2. Order 2s−2, stage order s−1;
// stiffly accurate (the last row equals b by the quadrature order of b).
func LobattoIIIC(s int) (*Tableau, error) {
	f := FamilyLobattoIIIC
	c, err := Nodes(f, s)
	if err != nil {
		return nil, err
	}
	g, w, err := gaussQuadrature(s)
	if err != nil {
		return nil, err
	}
	b := make([]float64, s)
	for j := range b {
		b[j] = integrateLagrange(c, j, 0, 1, g, w)
	}
	tail := c[1:]
	A := make([][]float64, s)
	for i := range A {
		A[i] = make([]float64, s)
		A[i][0] = b[0]
		for k := 1; k < s; k++ {
			A[i][k] = integrateLagrange(tail, k-1, 0, c[i], g, w) - b[0]*lagrange(tail, k-1, 0)
		}
	}
	// Mathematically a_sk = ∫_0^1 L_k − b_1 L_k(0) = Σ_j b_j L_k(c_j) − b_1 L_k(0) = b_k
	// because b integrates degree s−2 exactly; make the equality exact.
	copy(A[s-1], b)
	return newTableau(f, s, A, b, c), nil
}

// newTableau fills in name and orders from the family table.
func newTableau(f Family, s int, A [][]float64, b, c []float64) *Tableau {
	return &Tableau{
		Name:       fmt.Sprintf("%v (s=%d)", f, s),
		Family:     f,
		A:          A,
		B:          b,
		C:          c,
		Order:      families[f].order(s),
		StageOrder: families[f].stageOrder(s),
	}
}

// ExplicitEuler returns the forward Euler method (s = 1, order 1).
func ExplicitEuler() *Tableau {
	return &Tableau{
		Name: "Explicit Euler", Family: FamilyExplicit,
		A: [][]float64{{0}}, B: []float64{1}, C: []float64{0},
		Order: 1, StageOrder: 1,
	}
}

// Heun returns Heun's second-order method (explicit trapezoidal rule; s = 2).
func Heun() *Tableau {
	return &Tableau{
		Name: "Heun", Family: FamilyExplicit,
		A: [][]float64{{0, 0}, {1, 0}}, B: []float64{0.5, 0.5}, C: []float64{0, 1},
		Order: 2, StageOrder: 1,
	}
}

// RK4 returns the classical fourth-order Runge–Kutta method (s = 4).
func RK4() *Tableau {
	return &Tableau{
		Name: "RK4", Family: FamilyExplicit,
		A: [][]float64{
			{0, 0, 0, 0},
			{0.5, 0, 0, 0},
			{0, 0.5, 0, 0},
			{0, 0, 1, 0},
		},
		B:     []float64{1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6},
		C:     []float64{0, 0.5, 0.5, 1},
		Order: 4, StageOrder: 1,
	}
}
