package monopod

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// Parameters of the two-link monopod (nosnoc's
// examples/time_freezing/time_freezing_monoped_ocp/robot_model_files/robot_model_parameters.m;
// μ and a_n from monoped_model.m in the same folder).
const (
	// Masses of the hip, thigh and shank (kg).
	MassHip, MassThigh, MassShank = 3.975, 1.782, 0.548
	// Lengths of the thigh and the shank (m).
	LThigh, LShank = 0.2, 0.2
	// LHead is the head offset above the hip (m; plotting only).
	LHead = 0.05
	// Distances of the thigh's and the shank's centres of mass from the
	// hip and the knee (m).
	SThigh, SShank = 0.016, 0.1
	// Moments of inertia of the thigh and the shank (kg m²).
	IThigh, IShank = 0.001, 0.0032
	// Gravity is g (m/s²).
	Gravity = 9.81
	// Mu is the friction coefficient and AN the auxiliary normal gain a_n
	// of the time-freezing system (004 §7.2).
	Mu = 0.8
	AN = 200.0
)

// Kinematics holds the positions of the robot's points as expressions of
// q = (q_x, q_z, φ_hip, φ_knee) (nosnoc's robot_model_kinematics.m):
// every point hangs below the hip along the thigh direction −(sin φh, cos φh)
// and the shank direction −(sin(φh+φk), cos(φh+φk)).
type Kinematics struct {
	Hip, ThighCOM, ShankCOM, Knee, Foot, Head ad.Vec
}

// NewKinematics returns the points as expressions of the symbols q.
func NewKinematics(q ad.Vec) Kinematics {
	sh, ch := ad.Sin(q[2]), ad.Cos(q[2])
	phk := q[2].Add(q[3])
	shk, chk := ad.Sin(phk), ad.Cos(phk)
	hip := ad.Vec{q[0], q[1]}
	along := func(base ad.Vec, l float64, s, c ad.Expr) ad.Vec {
		return ad.Vec{base[0].Sub(s.Scale(l)), base[1].Sub(c.Scale(l))}
	}
	knee := along(hip, LThigh, sh, ch)
	return Kinematics{
		Hip:      hip,
		ThighCOM: along(hip, SThigh, sh, ch),
		ShankCOM: along(knee, SShank, shk, chk),
		Knee:     knee,
		Foot:     along(knee, LShank, shk, chk),
		Head:     ad.Vec{q[0], q[1].AddConst(LHead)},
	}
}

// Model is the rigid-body model with its time-freezing reformulation
// (New) or as a complementarity Lagrangian system (NewCLS).
type Model struct {
	G       *ad.Graph
	Q, V, U ad.Vec // the symbols q, v and u = (u_hip, u_knee)
	Kin     Kinematics
	// M is the mass matrix and H = h(q, v) the Coriolis and gravity forces
	// of M v̇ = h + (0, 0, u_hip, u_knee), derived from the Lagrangian.
	M ad.Mat
	H ad.Vec
	// TF is the time-freezing system (New): TF.Model has x = (q, v, t)
	// with the clock t = x[TF.Clock]; nil for a model made by NewCLS.
	TF *dcs.TimeFreezing
	// CLS is the complementarity Lagrangian system of FESD-J (NewCLS):
	// x = (q, v); nil for a model made by New.
	CLS *dcs.CLS
}

// Lagrangian returns the kinetic energy T(q, v) and potential V(q) of the
// package doc: point masses at the hip and the two centres of mass,
// rotational energy of the thigh (ω_hip) and of the shank (absolute
// angular velocity ω_hip + ω_knee).
func Lagrangian(g *ad.Graph, q, v ad.Vec, kin Kinematics) (T, V ad.Expr, err error) {
	T = g.Const(0)
	V = g.Const(0)
	for _, b := range []struct {
		m float64
		p ad.Vec
	}{{MassHip, kin.Hip}, {MassThigh, kin.ThighCOM}, {MassShank, kin.ShankCOM}} {
		pd, err := ad.JVP(b.p, q, v) // ṗ = (∂p/∂q) v
		if err != nil {
			return T, V, err
		}
		T = T.Add(ad.Sq(pd[0]).Add(ad.Sq(pd[1])).Scale(b.m / 2))
		V = V.Add(b.p[1].Scale(b.m * Gravity))
	}
	T = T.Add(ad.Sq(v[2]).Scale(IThigh / 2)).Add(ad.Sq(v[2].Add(v[3])).Scale(IShank / 2))
	return T, V, nil
}

// New derives M(q) = ∂²T/∂v² and h(q, v) = ∂L/∂q − (∂²L/∂v∂q) v from
// L = T − V (Euler–Lagrange: d/dt ∂L/∂v − ∂L/∂q = τ, with ∂L/∂v = M v), and
// builds the time-freezing system (004 §7.2; nosnoc's monoped_model.m): contact at the
// foot, f_c = p_foot,z, J_n = ∇p_foot,z, J_t = ∇p_foot,x, μ = 0.8, a_n = 200,
// with the Baumgarte gain k of dcs.TimeFreezingOptions (0: nosnoc's system).
func New(form dcs.Formulation, baumgarte float64) (*Model, error) {
	m, rb, err := newBody(0)
	if err != nil {
		return nil, err
	}
	tf, err := dcs.NewTimeFreezing(rb, dcs.TimeFreezingOptions{Formulation: form, AN: AN, Baumgarte: baumgarte})
	if err != nil {
		return nil, fmt.Errorf("monopod: time freezing: %w", err)
	}
	m.TF = tf
	return m, nil
}

// newBody derives M(q) and h(q, v) (see New) and returns the model
// without a reformulation and the rigid body with one frictional contact
// at the foot (f_c = p_foot,z, tangential coordinate p_foot,x, μ = Mu)
// with the restitution coefficient e.
func newBody(e float64) (*Model, dcs.RigidBody, error) {
	g := ad.NewGraph()
	q, v, u := g.SymVec("q", 4), g.SymVec("v", 4), g.SymVec("u", 2)
	kin := NewKinematics(q)
	T, V, err := Lagrangian(g, q, v, kin)
	if err != nil {
		return nil, dcs.RigidBody{}, err
	}
	L := T.Sub(V)
	M, err := ad.Hessian(T, v)
	if err != nil {
		return nil, dcs.RigidBody{}, err
	}
	dLdq, err := ad.Gradient(L, q)
	if err != nil {
		return nil, dcs.RigidBody{}, err
	}
	dLdv, err := ad.Gradient(L, v)
	if err != nil {
		return nil, dcs.RigidBody{}, err
	}
	cv, err := ad.JVP(dLdv, q, v)
	if err != nil {
		return nil, dcs.RigidBody{}, err
	}
	h, err := dLdq.Sub(cv)
	if err != nil {
		return nil, dcs.RigidBody{}, err
	}
	fv, err := h.Add(ad.Vec{g.Const(0), g.Const(0), u[0], u[1]})
	if err != nil {
		return nil, dcs.RigidBody{}, err
	}
	rb := dcs.RigidBody{
		Graph: g, Q: q, V: v, U: u, M: M, FV: fv,
		Contacts: []dcs.Contact{{Name: "foot", Gap: kin.Foot[1], TangentPos: kin.Foot[0], Mu: Mu, Restitution: e}},
	}
	return &Model{G: g, Q: q, V: v, U: u, Kin: kin, M: M, H: h}, rb, nil
}

// Points compiles the positions of the hip, knee, foot and head for
// plotting: f(q) returns (hip, knee, foot, head), NaN where the
// evaluation fails. f is not safe for concurrent use.
func (m *Model) Points() (func(q []float64) [4][2]float64, error) {
	k := m.Kin
	fn, err := ad.NewFunction("points", []ad.Arg{ad.A("q", m.Q...)},
		[]ad.Arg{ad.A("p", ad.Concat(k.Hip, k.Knee, k.Foot, k.Head)...)})
	if err != nil {
		return nil, err
	}
	ws := fn.NewWorkspace()
	out := make([]float64, 8)
	return func(q []float64) [4][2]float64 {
		var p [4][2]float64
		if err := fn.Eval(ws, [][]float64{q}, [][]float64{out}); err != nil {
			for i := range p {
				p[i] = [2]float64{math.NaN(), math.NaN()}
			}
			return p
		}
		for i := range p {
			p[i] = [2]float64{out[2*i], out[2*i+1]}
		}
		return p
	}, nil
}

// FootHeight is the gap f_c(q) = p_foot,z written out (robot_model_kinematics.m);
// q may be the whole state x = (q, v, t).
func FootHeight(q []float64) float64 {
	return q[1] - LThigh*math.Cos(q[2]) - LShank*math.Cos(q[2]+q[3])
}

// Energy compiles the mechanical energy E(q, v) = T(q, v) + V(q) of the
// robot (Lagrangian), with V zero at the ground. Without contact forces
// Ė = u_hip·ω_hip + u_knee·ω_knee; a frictional contact and an inelastic
// impact only take energy out. f is not safe for concurrent use; it
// returns NaN where the evaluation fails.
func Energy() (func(q, v []float64) float64, error) {
	g := ad.NewGraph()
	q, v := g.SymVec("q", 4), g.SymVec("v", 4)
	T, V, err := Lagrangian(g, q, v, NewKinematics(q))
	if err != nil {
		return nil, err
	}
	fn, err := ad.NewFunction("energy", []ad.Arg{ad.A("q", q...), ad.A("v", v...)}, []ad.Arg{ad.A("E", T.Add(V))})
	if err != nil {
		return nil, err
	}
	ws := fn.NewWorkspace()
	out := make([]float64, 1)
	return func(q, v []float64) float64 {
		if err := fn.Eval(ws, [][]float64{q[:4], v[:4]}, [][]float64{out}); err != nil {
			return math.NaN()
		}
		return out[0]
	}, nil
}
