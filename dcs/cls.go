package dcs

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/fesd-go/fesd/ad"
)

// CLS is a complementarity Lagrangian system, the model of FESD-J (A.
// Nurkanović, J. Frey, A. Pozharskiy, M. Diehl, "FESD-J: Finite Elements
// with Switch Detection for numerical optimal control of rigid bodies with
// impacts and Coulomb friction", Nonlinear Analysis: Hybrid Systems 52
// (2024) 101460; nosnoc's +nosnoc/+model/Cls.m): a rigid body with the
// state x = (q, v) and n_c unilateral contacts,
//
//	q̇ = v,  M(q) v̇ = f_v(q, v, u, p) + Σ_i (J_n,i(q) λ_n,i + J_t,i(q) λ_t,i),
//	0 ≤ λ_n,i ⊥ f_c,i(q) ≥ 0,
//	λ_t,i ∈ −μ_i λ_n,i Sign(J_t,iᵀ v)          (Coulomb friction),
//	J_n,iᵀ v⁺ = −e_i J_n,iᵀ v⁻                 (an impact: f_c,i = 0, J_n,iᵀ v⁻ < 0),
//
// with Newton's restitution coefficient e_i ∈ [0, 1] (Contact.Restitution)
// and friction coefficient μ_i ≥ 0 (Contact.Mu). It is built from the same
// RigidBody as the time-freezing reformulation (NewTimeFreezing), which
// handles only inelastic impacts (e = 0); a CLS is transcribed directly,
// with the impulses at the boundaries of the finite elements.
//
// NewCLS checks the structure: sizes, expressions, e ∈ [0, 1], μ ≥ 0, and
// contact Jacobians of length n_q. Whether M(q) is symmetric positive
// definite depends on q, so CheckAt checks it at a given state (at x₀
// before a simulation or an OCP).
type CLS struct {
	// Body is the rigid body with its contacts.
	Body RigidBody
	// NQ is n_q and X = (q, v) the state (symbols).
	NQ int
	X  ad.Vec
	// Gap are the gap functions f_c,i(q), Normal the normal Jacobians
	// J_n,i(q) (Contact.Normal, or ∇_q f_c,i), Tangent the tangential
	// Jacobians J_t,i(q) (nil for a frictionless contact), one per contact.
	Gap     ad.Vec
	Normal  []ad.Vec
	Tangent []ad.Vec
	// Mu and E are μ_i and e_i.
	Mu, E []float64
	// eval gives M, f_c, J_n and J_t at (q, v, u, p).
	eval *ad.Function
}

// NewCLS checks rb as a complementarity Lagrangian system and returns it
// with its contact Jacobians resolved.
func NewCLS(rb RigidBody) (*CLS, error) {
	if err := rb.checkShape(); err != nil {
		return nil, err
	}
	if err := rb.checkForces(); err != nil {
		return nil, err
	}
	c := &CLS{Body: rb, NQ: len(rb.Q), X: ad.Concat(rb.Q, rb.V)}
	out := append(ad.Vec(nil), rb.M.E...)
	for ci := range rb.Contacts {
		ct := &rb.Contacts[ci]
		if err := rb.checkContact(ci); err != nil {
			return nil, err
		}
		jn, err := rb.normalJacobian(ci)
		if err != nil {
			return nil, err
		}
		var jt ad.Vec
		if ct.frictional() {
			if jt, err = rb.tangentJacobian(ci); err != nil {
				return nil, err
			}
		}
		c.Gap = append(c.Gap, ct.Gap)
		c.Normal = append(c.Normal, jn)
		c.Tangent = append(c.Tangent, jt)
		c.Mu = append(c.Mu, ct.Mu)
		c.E = append(c.E, ct.Restitution)
		out = append(append(append(out, ct.Gap), jn...), jt...)
	}
	f, err := ad.NewFunction("cls", []ad.Arg{ad.A("q", rb.Q...), ad.A("v", rb.V...), ad.A("u", rb.U...), ad.A("p", rb.P...)},
		[]ad.Arg{ad.A("out", out...)})
	if err != nil {
		return nil, newErr(ErrForeignSymbol, -1, "Contacts", -1, -1, "M, f_c, J_n and J_t may use only Q, V, U and P: %v", err)
	}
	c.eval = f
	return c, nil
}

// CheckAt checks the system at the state (q, v) with the control u and
// the parameters p (nil when there are none): the inputs have the model's
// lengths and finite values, M(q), the gaps and the contact Jacobians are
// finite there, and M(q) — read from its lower triangle, as
// ad.SolveSym does — is symmetric positive definite. An upper triangle
// given with other values than the lower one is an error too.
func (c *CLS) CheckAt(q, v, u, p []float64) error {
	rb := &c.Body
	in := [][]float64{q, v, u, p}
	for k, name := range []string{"q", "v", "u", "p"} {
		want := [][]ad.Expr{rb.Q, rb.V, rb.U, rb.P}[k]
		if len(in[k]) != len(want) {
			return newErr(ErrDimension, -1, name, -1, -1, "length %d, want %d", len(in[k]), len(want))
		}
		for i, x := range in[k] {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return newErr(ErrNonFinite, -1, name, i, -1, "%v", x)
			}
		}
	}
	out := make([]float64, c.eval.OutSize(0))
	if err := c.eval.Eval(c.eval.NewWorkspace(), in, [][]float64{out}); err != nil {
		return fmt.Errorf("dcs: evaluating the contact system: %w", err)
	}
	for i, x := range out {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return newErr(ErrNonFinite, -1, c.outName(i), -1, -1, "%v at q = %v", x, q)
		}
	}
	return checkMass(out[:c.NQ*c.NQ], c.NQ, q)
}

// outName names entry i of the output of eval.
func (c *CLS) outName(i int) string {
	nq := c.NQ
	if i < nq*nq {
		return fmt.Sprintf("M[%d][%d]", i/nq, i%nq)
	}
	i -= nq * nq
	for ci := range c.Gap {
		if i == 0 {
			return fmt.Sprintf("Contacts[%d].Gap", ci)
		}
		i--
		if i < nq {
			return fmt.Sprintf("Contacts[%d].Normal[%d]", ci, i)
		}
		i -= nq
		if i < len(c.Tangent[ci]) {
			return fmt.Sprintf("Contacts[%d].Tangent[%d]", ci, i)
		}
		i -= len(c.Tangent[ci])
	}
	return "?"
}

// checkMass reports an n×n mass matrix M (row-major values at q) that is
// not symmetric positive definite.
func checkMass(M []float64, n int, q []float64) error {
	scale := 0.0
	for _, x := range M {
		scale = math.Max(scale, math.Abs(x))
	}
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			lo, up := M[i*n+j], M[j*n+i]
			if up != 0 && math.Abs(up-lo) > 1e-12*scale {
				return newErr(ErrMassMatrix, -1, "M", j, i, "not symmetric at q = %v: M[%d][%d] = %g, M[%d][%d] = %g", q, j, i, up, i, j, lo)
			}
			sym.SetSym(i, j, lo)
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, false) {
		return newErr(ErrMassMatrix, -1, "M", -1, -1, "no eigenvalues at q = %v", q)
	}
	ev := eig.Values(nil)
	if lmin := ev[0]; !(lmin > 1e-14*scale) {
		return newErr(ErrMassMatrix, -1, "M", -1, -1, "not positive definite at q = %v: smallest eigenvalue %g", q, lmin)
	}
	return nil
}
