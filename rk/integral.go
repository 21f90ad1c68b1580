package rk

import "fmt"

// Integral is the integral (collocation) representation of a collocation
// method, in which the stage states x_1, …, x_s are the unknowns instead of the
// stage derivatives. With τ_0 = 0, τ_r = c_r (r = 1, …, s), x_0 = x_n and the
// Lagrange basis L_0, …, L_s of these s+1 points, the collocation polynomial is
// u(τ) = Σ_r L_r(τ)·x_r and one step reads
//
//	h·f(x_j) = Σ_{r=0}^{s} C[r][j−1]·x_r,   j = 1, …, s   (C[r][j−1] = L_r'(c_j))
//	x_{n+1}  = Σ_{r=0}^{s} D[r]·x_r                        (D[r] = L_r(1))
//	∫ q dt  ≈ Σ_{j=1}^{s} B[j−1]·h·q(x_j)                   (B = b of the tableau)
//
// Row r = 0 of C and D[0] multiply x_n. Indices are 0-based in Go: C is
// (s+1)×s, D has s+1 entries, B has s.
type Integral struct {
	C [][]float64
	D []float64
	B []float64
}

// Integral returns the integral representation of t. It exists for
// collocation methods (C(s) holds) whose nodes are distinct and positive, that
// is Radau IIA and Gauss–Legendre among the families here; for other tableaus
// (Lobatto IIIA and explicit Euler have c_1 = 0 = τ_0, Radau IA, Lobatto IIIC,
// Heun and RK4 are not collocation methods) it returns an error wrapping
// ErrNoIntegral. An invalid tableau gives an error wrapping ErrInvalid. When c_s = 1 (Radau IIA) D is exactly the unit vector e_s.
func (t *Tableau) Integral() (*Integral, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	s := t.Stages()
	// A method with distinct nodes is a collocation method iff C(s) holds
	// (Hairer, Nørsett & Wanner I, Thm II.7.7); check that rather than trusting
	// the Family field.
	if k, r := t.StageDefect(s); r > validateTol {
		return nil, fmt.Errorf("%w: %s is not a collocation method (C(%d) fails at k=%d by %.2g)", ErrNoIntegral, t.Name, s, k, r)
	}
	tau := make([]float64, s+1)
	copy(tau[1:], t.C)
	for r := 1; r <= s; r++ {
		if !(tau[r] > tau[r-1]) {
			return nil, fmt.Errorf("%w: %s: points 0, c_1, …, c_s are not strictly increasing", ErrNoIntegral, t.Name)
		}
	}
	// Barycentric weights ω_r = 1/Π_{k≠r}(τ_r − τ_k) give the derivative of the
	// Lagrange basis at a node m ≠ r: L_r'(τ_m) = (ω_r/ω_m)/(τ_m − τ_r), and
	// L_m'(τ_m) = −Σ_{r≠m} L_r'(τ_m) because Σ_r L_r ≡ 1.
	omega := make([]float64, s+1)
	for r := range omega {
		p := 1.0
		for k := range tau {
			if k != r {
				p *= tau[r] - tau[k]
			}
		}
		omega[r] = 1 / p
	}
	in := &Integral{
		C: make([][]float64, s+1),
		D: make([]float64, s+1),
		B: append([]float64(nil), t.B...),
	}
	for r := range in.C {
		in.C[r] = make([]float64, s)
	}
	for m := 1; m <= s; m++ {
		var diag float64
		for r := 0; r <= s; r++ {
			if r == m {
				continue
			}
			d := omega[r] / omega[m] / (tau[m] - tau[r])
			in.C[r][m-1] = d
			diag -= d
		}
		in.C[m][m-1] = diag
	}
	if t.EndpointIsNode() {
		in.D[s] = 1
	} else {
		for r := range in.D {
			in.D[r] = lagrange(tau, r, 1)
		}
	}
	return in, nil
}
