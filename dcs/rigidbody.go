package dcs

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
)

// This file describes rigid bodies with unilateral frictional contacts, the
// input of the time-freezing reformulation (timefreeze.go), and checks them.

// Contact is one planar unilateral contact with Coulomb friction.
type Contact struct {
	// Name is optional and used in symbol names.
	Name string
	// Gap is the gap function f_c(q) (admissible: f_c ≥ 0).
	Gap ad.Expr
	// Normal is the normal contact Jacobian J_n(q) ∈ R^{n_q} (the gradient
	// of the normal coordinate of the contact point); nil means ∇_q f_c.
	Normal ad.Vec
	// Tangent is the tangential contact Jacobian J_t(q) ∈ R^{n_q}; when nil
	// it is ∇_q TangentPos. Neither Tangent nor TangentPos makes the
	// contact frictionless (two switching functions f_c and J_nᵀv, one
	// auxiliary mode (0, M⁻¹J_n a_n, 0)).
	Tangent ad.Vec
	// TangentPos is the tangential coordinate of the contact point (for
	// example p_foot,x(q)); used only when Tangent is nil.
	TangentPos ad.Expr
	// Mu is the friction coefficient μ ≥ 0.
	Mu float64
	// Restitution is Newton's coefficient of restitution e ∈ [0, 1]: an
	// impact reverses the normal velocity, J_nᵀv⁺ = −e J_nᵀv⁻ (0, the
	// default: inelastic). The time-freezing reformulation is inelastic
	// and accepts only 0; a CLS (NewCLS) takes any e ∈ [0, 1].
	Restitution float64
}

// frictional reports whether the contact has a tangential direction.
func (c *Contact) frictional() bool { return c.Tangent != nil || c.TangentPos.IsValid() }

// RigidBody is a rigid-body system M(q) v̇ = f_v(q, v, u, p) with unilateral
// contacts, the input of NewTimeFreezing.
type RigidBody struct {
	Graph *ad.Graph
	// Q are the generalized coordinates and V the velocities (symbols,
	// n_q each); U the controls and P the parameters (symbols, may be nil).
	Q, V, U, P ad.Vec
	// M is the mass matrix M(q), n_q × n_q, symmetric positive definite
	// (only its lower triangle is read: M⁻¹ is formed by ad.SolveSym).
	M ad.Mat
	// FV are the generalized forces f_v(q, v, u, p) other than the contact
	// forces (Coriolis, gravity, actuation), of length n_q.
	FV ad.Vec
	// Contacts are the contact points (at least one).
	Contacts []Contact
}

// checkShape reports a rigid body without a graph or coordinates, with V,
// FV or M of the wrong size, or without contacts.
func (rb *RigidBody) checkShape() error {
	g := rb.Graph
	if g == nil {
		return ErrNilGraph
	}
	if err := g.Err(); err != nil {
		return newErr(ErrInvalidExpr, -1, "Graph", -1, -1, "%v", err)
	}
	nq := len(rb.Q)
	if nq == 0 {
		return ErrNoStates
	}
	if len(rb.V) != nq {
		return newErr(ErrDimension, -1, "V", -1, -1, "%d velocities for %d coordinates", len(rb.V), nq)
	}
	if len(rb.FV) != nq {
		return newErr(ErrDimension, -1, "FV", -1, -1, "length %d, want n_q = %d", len(rb.FV), nq)
	}
	if rb.M.R != nq || rb.M.C != nq || len(rb.M.E) != nq*nq {
		return newErr(ErrDimension, -1, "M", -1, -1, "%d×%d, want %d×%d", rb.M.R, rb.M.C, nq, nq)
	}
	if len(rb.Contacts) == 0 {
		return newErr(ErrNoModes, -1, "Contacts", -1, -1, "no contacts")
	}
	return nil
}

// own reports e unless it is a valid expression of the body's graph.
func (rb *RigidBody) own(field string, i int, e ad.Expr) error {
	if !e.IsValid() || e.Graph() != rb.Graph {
		return newErr(ErrInvalidExpr, -1, field, i, -1, "zero, invalid or foreign-graph expression")
	}
	return nil
}

// checkForces reports an invalid entry of M or FV.
func (rb *RigidBody) checkForces() error {
	for i, e := range rb.M.E {
		if err := rb.own("M", i, e); err != nil {
			return err
		}
	}
	for i, e := range rb.FV {
		if err := rb.own("FV", i, e); err != nil {
			return err
		}
	}
	return nil
}

// checkContact reports an invalid gap or friction coefficient of contact
// ci.
func (rb *RigidBody) checkContact(ci int) error {
	c := &rb.Contacts[ci]
	field := fmt.Sprintf("Contacts[%d]", ci)
	if err := rb.own(field+".Gap", -1, c.Gap); err != nil {
		return err
	}
	if !(c.Mu >= 0) || math.IsInf(c.Mu, 0) {
		return newErr(ErrOptions, -1, field+".Mu", -1, -1, "μ = %v must be nonnegative and finite", c.Mu)
	}
	if !(c.Restitution >= 0 && c.Restitution <= 1) {
		return newErr(ErrOptions, -1, field+".Restitution", -1, -1, "e = %v must be in [0, 1]", c.Restitution)
	}
	return nil
}

// normalJacobian returns J_n of contact ci: Normal, or ∇_q f_c when it is
// nil, checked to have n_q valid entries.
func (rb *RigidBody) normalJacobian(ci int) (ad.Vec, error) {
	c := &rb.Contacts[ci]
	field := fmt.Sprintf("Contacts[%d]", ci)
	jn := c.Normal
	if jn == nil {
		var err error
		if jn, err = ad.Gradient(c.Gap, rb.Q); err != nil {
			return nil, newErr(ErrInvalidExpr, -1, field+".Gap", -1, -1, "∇f_c: %v", err)
		}
	}
	return jn, rb.checkJacobian(field+".Normal", jn)
}

// tangentJacobian returns J_t of the frictional contact ci: Tangent, or
// ∇_q TangentPos when it is nil, checked to have n_q valid entries.
func (rb *RigidBody) tangentJacobian(ci int) (ad.Vec, error) {
	c := &rb.Contacts[ci]
	field := fmt.Sprintf("Contacts[%d]", ci)
	jt := c.Tangent
	if jt == nil {
		if err := rb.own(field+".TangentPos", -1, c.TangentPos); err != nil {
			return nil, err
		}
		var err error
		if jt, err = ad.Gradient(c.TangentPos, rb.Q); err != nil {
			return nil, newErr(ErrInvalidExpr, -1, field+".TangentPos", -1, -1, "%v", err)
		}
	}
	return jt, rb.checkJacobian(field+".Tangent", jt)
}

// checkJacobian reports a contact Jacobian without n_q valid entries.
func (rb *RigidBody) checkJacobian(field string, j ad.Vec) error {
	if len(j) != len(rb.Q) {
		return newErr(ErrDimension, -1, field, -1, -1, "length %d, want n_q = %d", len(j), len(rb.Q))
	}
	for i, e := range j {
		if err := rb.own(field, i, e); err != nil {
			return err
		}
	}
	return nil
}
