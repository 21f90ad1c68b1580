package impactocp

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/rk"
)

// Discretization of both OCPs (§5.2, §5.3): Radau IIA with n_s = 2 and
// N_FE = 2 finite elements per control stage.
const (
	Stages = 2
	NFE    = 2
)

// Options returns the paper's discretization (Radau IIA, n_s = 2,
// N_FE = 2) with every other option at fesd's default.
func Options() fesd.Options {
	return fesd.Options{Scheme: rk.FamilyRadauIIA, Stages: Stages, NFE: NFE}
}

// leastSquares returns Σ_i w_i (x_i − r_i)² + Σ_j ρ_j u_j².
func leastSquares(x ad.Vec, r, w []float64, u ad.Vec, rho []float64) ad.Expr {
	g := x[0].Graph()
	s := g.Const(0)
	for i, xi := range x {
		if w[i] != 0 {
			s = s.Add(ad.Sq(xi.AddConst(-r[i])).Scale(w[i]))
		}
	}
	for j, uj := range u {
		s = s.Add(ad.Sq(uj).Scale(rho[j]))
	}
	return s
}

// diagMass returns diag(m) in g.
func diagMass(g *ad.Graph, m ...float64) (ad.Mat, error) {
	e := make([]ad.Expr, len(m)*len(m))
	for i := range e {
		e[i] = g.Const(0)
	}
	for i, mi := range m {
		e[i*len(m)+i] = g.Const(mi)
	}
	return ad.NewMat(len(m), len(m), e...)
}

// fill returns n copies of v.
func fill(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// Parameters of the two-disc manipulation task (§5.2).
const (
	DiscMass1, DiscMass2     = 2.0, 1.0 // m₁, m₂
	DiscRadius1, DiscRadius2 = 0.3, 0.2 // r₁, r₂
	ObstacleRadius           = 1.0      // r_ob, centred at the origin
	DragCoeff, DragEps       = 2.0, 0.1 // c_f, ε_f
	DiscsT                   = 4.0      // horizon T
	DiscsN                   = 25       // control stages N
	DiscsQMax, DiscsVMax     = 10.0, 5.0
	DiscsUMax                = 30.0
)

// DiscsX0 is the initial state (q₁, q₂, v₁, v₂) of the discs and DiscsXRef
// the reference: the discs swap their positions and rest.
var (
	DiscsX0   = []float64{-2, 0, 2, 0, 0, 0, 0, 0}
	DiscsXRef = []float64{2, 0, -2, 0, 0, 0, 0, 0}
	discsQ    = []float64{10, 10, 10, 10, 0.01, 0.01, 0.01, 0.01}
	discsR    = []float64{0.1, 0.1}
)

// Discs returns the OCP of §5.2: x = (q₁, q₂, v₁, v₂) ∈ R⁸ (the positions
// and velocities of the two discs in the plane), u ∈ R² the force on the
// first disc,
//
//	M = diag(m₁, m₁, m₂, m₂),  f_v = (u − c_f v₁/‖v₁ + ε_f‖, −c_f v₂/‖v₂ + ε_f‖),
//	f_c(q) = ‖q₁ − q₂‖² − (r₁ + r₂)² ≥ 0  (frictionless, e = 0),
//
// the obstacle ‖q_i‖² ≥ (r_ob + r_i)² at every element boundary, the
// bounds |q| ≤ 10, |v| ≤ 5, |u| ≤ 30 (states at the stage ends) and the
// cost with Q = diag(10, 10, 10, 10, 0.01, 0.01, 0.01, 0.01),
// R = diag(0.1, 0.1), Q_T = 100 Q.
func Discs() (*fesd.OCP, error) {
	g := ad.NewGraph()
	q, v, u := g.SymVec("q", 4), g.SymVec("v", 4), g.SymVec("u", 2)
	M, err := diagMass(g, DiscMass1, DiscMass1, DiscMass2, DiscMass2)
	if err != nil {
		return nil, err
	}
	// drag of disc i: c_f v_i/‖v_i + ε_f‖ (ε_f added to each component)
	drag := func(vx, vy ad.Expr) (ad.Expr, ad.Expr) {
		n := ad.Sqrt(ad.Sq(vx.AddConst(DragEps)).Add(ad.Sq(vy.AddConst(DragEps))))
		return vx.Scale(DragCoeff).Div(n), vy.Scale(DragCoeff).Div(n)
	}
	d1x, d1y := drag(v[0], v[1])
	d2x, d2y := drag(v[2], v[3])
	fv := ad.Vec{u[0].Sub(d1x), u[1].Sub(d1y), d2x.Neg(), d2y.Neg()}
	gap := ad.Sq(q[0].Sub(q[2])).Add(ad.Sq(q[1].Sub(q[3]))).AddConst(-sq(DiscRadius1 + DiscRadius2))
	c, err := dcs.NewCLS(dcs.RigidBody{Graph: g, Q: q, V: v, U: u, M: M, FV: fv,
		Contacts: []dcs.Contact{{Name: "discs", Gap: gap}}})
	if err != nil {
		return nil, fmt.Errorf("impactocp: discs: %w", err)
	}
	x := ad.Concat(q, v)
	obstacle := ad.Vec{
		ad.Sq(q[0]).Add(ad.Sq(q[1])).AddConst(-sq(ObstacleRadius + DiscRadius1)),
		ad.Sq(q[2]).Add(ad.Sq(q[3])).AddConst(-sq(ObstacleRadius + DiscRadius2)),
	}
	qT := make([]float64, len(discsQ))
	for i, w := range discsQ {
		qT[i] = 100 * w
	}
	xMax := append(fill(4, DiscsQMax), fill(4, DiscsVMax)...)
	return &fesd.OCP{CLS: c, X0: append([]float64(nil), DiscsX0...), N: DiscsN, T: DiscsT,
		XL: neg(xMax), XU: xMax, UL: fill(2, -DiscsUMax), UU: fill(2, DiscsUMax),
		Path: []fesd.Constraint{{G: obstacle, L: []float64{0, 0},
			U: []float64{math.Inf(1), math.Inf(1)}, At: fesd.AtElementBoundaries}},
		Lagrange: leastSquares(x, DiscsXRef, discsQ, u, discsR),
		Mayer:    leastSquares(x, DiscsXRef, qT, nil, nil),
	}, nil
}

// Parameters of the three-box task (§5.3).
const (
	BoxSide          = 2.0  // a
	BoxMass          = 1.0  // m_i
	Gravity          = 9.81 // g
	BoxesT           = 6.0  // horizon T
	BoxesN           = 15   // control stages N
	BoxesXMax        = 10.0 // |q|, |v| ≤ 10
	BoxesUMax        = 30.0
	boxesR           = 0.1
	boxesNumContacts = 5
)

// BoxesX0 is the initial state (q₁, q₂, q₃, v₁, v₂, v₃) of the boxes (at
// rest on the ground) and BoxesXRef the reference; BoxesRestitution and
// BoxesMu are the coefficients of restitution and friction of the five
// contacts (left–middle, middle–right, ground under the left, middle and
// right box).
var (
	BoxesX0          = []float64{-3, 1, 0, 1, 3, 1, 0, 0, 0, 0, 0, 0}
	BoxesXRef        = []float64{-7, 1, 0, 1, 6, 1, 0, 0, 0, 0, 0, 0}
	BoxesRestitution = []float64{0, 0.5, 0, 0, 0}
	BoxesMu          = []float64{0.1, 0.1, 0.2, 0.2, 0.2}
	boxesQ           = []float64{10, 0.001, 1, 0.001, 10, 0.001, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}
)

// Boxes returns the OCP of §5.3: x = (q, v) ∈ R¹² with q = (q₁, q₂, q₃),
// q_i = (horizontal, vertical) position of box i, u ∈ R the horizontal
// force on the middle box,
//
//	M = I₆,  f_v = (0, −g, u, −g, 0, −g),
//	f_c(q) = (q_{2,1} − q_{1,1} − a, q_{3,1} − q_{2,1} − a, q_{1,2} − a/2, q_{2,2} − a/2, q_{3,2} − a/2) ≥ 0,
//
// with the restitution BoxesRestitution and friction BoxesMu; tangents
// the relative vertical direction for the box–box contacts and the
// horizontal one for the ground. Bounds |q|, |v| ≤ 10 (stage ends),
// |u| ≤ 30; Q = diag(10, 0.001, 1, 0.001, 10, 0.001, 0.1, …, 0.1),
// R = 0.1, Q_T = 100 Q.
func Boxes() (*fesd.OCP, error) {
	g := ad.NewGraph()
	q, v, u := g.SymVec("q", 6), g.SymVec("v", 6), g.SymVec("u", 1)
	M, err := diagMass(g, fill(6, BoxMass)...)
	if err != nil {
		return nil, err
	}
	w := -BoxMass * Gravity
	fv := ad.Vec{g.Const(0), g.Const(w), u[0], g.Const(w), g.Const(0), g.Const(w)}
	unit := func(pairs ...float64) ad.Vec { // (index, value) pairs
		t := g.Zeros(6)
		for i := 0; i < len(pairs); i += 2 {
			t[int(pairs[i])] = g.Const(pairs[i+1])
		}
		return t
	}
	gaps := []ad.Expr{
		q[2].Sub(q[0]).AddConst(-BoxSide),
		q[4].Sub(q[2]).AddConst(-BoxSide),
		q[1].AddConst(-BoxSide / 2),
		q[3].AddConst(-BoxSide / 2),
		q[5].AddConst(-BoxSide / 2),
	}
	tangents := []ad.Vec{unit(1, -1, 3, 1), unit(3, -1, 5, 1), unit(0, 1), unit(2, 1), unit(4, 1)}
	names := []string{"left_middle", "middle_right", "ground_left", "ground_middle", "ground_right"}
	cs := make([]dcs.Contact, boxesNumContacts)
	for i := range cs {
		cs[i] = dcs.Contact{Name: names[i], Gap: gaps[i], Tangent: tangents[i],
			Mu: BoxesMu[i], Restitution: BoxesRestitution[i]}
	}
	c, err := dcs.NewCLS(dcs.RigidBody{Graph: g, Q: q, V: v, U: u, M: M, FV: fv, Contacts: cs})
	if err != nil {
		return nil, fmt.Errorf("impactocp: boxes: %w", err)
	}
	x := ad.Concat(q, v)
	qT := make([]float64, len(boxesQ))
	for i, w := range boxesQ {
		qT[i] = 100 * w
	}
	xMax := fill(12, BoxesXMax)
	return &fesd.OCP{CLS: c, X0: append([]float64(nil), BoxesX0...), N: BoxesN, T: BoxesT,
		XL: neg(xMax), XU: xMax, UL: []float64{-BoxesUMax}, UU: []float64{BoxesUMax},
		Lagrange: leastSquares(x, BoxesXRef, boxesQ, u, []float64{boxesR}),
		Mayer:    leastSquares(x, BoxesXRef, qT, nil, nil),
	}, nil
}

func sq(x float64) float64 { return x * x }

func neg(v []float64) []float64 {
	s := make([]float64, len(v))
	for i, x := range v {
		s[i] = -x
	}
	return s
}
