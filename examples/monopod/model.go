package main

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// Parameters of the two-link monopod (robot_model_parameters.m of nosnoc's
// time_freezing_monoped_ocp example; nosnoc.md §3.1).
const (
	mHip, mThigh, mShank = 3.975, 1.782, 0.548
	lThigh, lShank       = 0.2, 0.2
	lHead                = 0.05 // head offset (plotting only)
	sThigh, sShank       = 0.016, 0.1
	iThigh, iShank       = 0.001, 0.0032
	gravity              = 9.81
	// Contact (004 §7.2): friction coefficient and auxiliary normal gain.
	mu = 0.8
	aN = 200.0
)

// kinematics holds the positions of the robot's points as expressions of
// q = (q_x, q_z, φ_hip, φ_knee) (robot_model_kinematics.m, nosnoc.md §3.1):
// every point hangs below the hip along the thigh direction −(sin φh, cos φh)
// and the shank direction −(sin(φh+φk), cos(φh+φk)).
type kinematics struct {
	hip, thighCOM, shankCOM, knee, foot, head ad.Vec
}

func newKinematics(q ad.Vec) kinematics {
	sh, ch := ad.Sin(q[2]), ad.Cos(q[2])
	phk := q[2].Add(q[3])
	shk, chk := ad.Sin(phk), ad.Cos(phk)
	hip := ad.Vec{q[0], q[1]}
	along := func(base ad.Vec, l float64, s, c ad.Expr) ad.Vec {
		return ad.Vec{base[0].Sub(s.Scale(l)), base[1].Sub(c.Scale(l))}
	}
	knee := along(hip, lThigh, sh, ch)
	return kinematics{
		hip:      hip,
		thighCOM: along(hip, sThigh, sh, ch),
		shankCOM: along(knee, sShank, shk, chk),
		knee:     knee,
		foot:     along(knee, lShank, shk, chk),
		head:     ad.Vec{q[0], q[1].AddConst(lHead)},
	}
}

// monopod is the rigid-body model and its time-freezing reformulation.
type monopod struct {
	g       *ad.Graph
	q, v, u ad.Vec
	kin     kinematics
	// M is the mass matrix and H = h(q, v) the Coriolis and gravity forces
	// of M v̇ = h + (0, 0, u_hip, u_knee), derived from the Lagrangian.
	M  ad.Mat
	H  ad.Vec
	tf *dcs.TimeFreezing
}

// lagrangian returns the kinetic energy T(q, v) and potential V(q) of
// nosnoc.md §3.2: point masses at the hip and the two centres of mass,
// rotational energy of the thigh (ω_hip) and of the shank (absolute
// angular velocity ω_hip + ω_knee).
func lagrangian(g *ad.Graph, q, v ad.Vec, kin kinematics) (T, V ad.Expr, err error) {
	T = g.Const(0)
	V = g.Const(0)
	for _, b := range []struct {
		m float64
		p ad.Vec
	}{{mHip, kin.hip}, {mThigh, kin.thighCOM}, {mShank, kin.shankCOM}} {
		pd, err := ad.JVP(b.p, q, v) // ṗ = (∂p/∂q) v
		if err != nil {
			return T, V, err
		}
		T = T.Add(ad.Sq(pd[0]).Add(ad.Sq(pd[1])).Scale(b.m / 2))
		V = V.Add(b.p[1].Scale(b.m * gravity))
	}
	T = T.Add(ad.Sq(v[2]).Scale(iThigh / 2)).Add(ad.Sq(v[2].Add(v[3])).Scale(iShank / 2))
	return T, V, nil
}

// newMonopod derives M(q) = ∂²T/∂v² and h(q, v) = ∂L/∂q − (∂²L/∂v∂q) v from
// L = T − V (Euler–Lagrange: d/dt ∂L/∂v − ∂L/∂q = τ, with ∂L/∂v = M v), and
// builds the time-freezing system (004 §7.2; nosnoc.md §3.3): contact at the
// foot, f_c = p_foot,z, J_n = ∇p_foot,z, J_t = ∇p_foot,x, μ = 0.8, a_n = 200.
func newMonopod(form dcs.Formulation, baumgarte float64) (*monopod, error) {
	g := ad.NewGraph()
	q, v, u := g.SymVec("q", 4), g.SymVec("v", 4), g.SymVec("u", 2)
	kin := newKinematics(q)
	T, V, err := lagrangian(g, q, v, kin)
	if err != nil {
		return nil, err
	}
	L := T.Sub(V)
	M, err := ad.Hessian(T, v)
	if err != nil {
		return nil, err
	}
	dLdq, err := ad.Gradient(L, q)
	if err != nil {
		return nil, err
	}
	dLdv, err := ad.Gradient(L, v)
	if err != nil {
		return nil, err
	}
	cv, err := ad.JVP(dLdv, q, v)
	if err != nil {
		return nil, err
	}
	h, err := dLdq.Sub(cv)
	if err != nil {
		return nil, err
	}
	fv, err := h.Add(ad.Vec{g.Const(0), g.Const(0), u[0], u[1]})
	if err != nil {
		return nil, err
	}
	tf, err := dcs.NewTimeFreezing(dcs.RigidBody{
		Graph: g, Q: q, V: v, U: u, M: M, FV: fv,
		Contacts: []dcs.Contact{{Name: "foot", Gap: kin.foot[1], TangentPos: kin.foot[0], Mu: mu}},
	}, dcs.TimeFreezingOptions{Formulation: form, AN: aN, Baumgarte: baumgarte})
	if err != nil {
		return nil, fmt.Errorf("monopod: time freezing: %w", err)
	}
	return &monopod{g: g, q: q, v: v, u: u, kin: kin, M: M, H: h, tf: tf}, nil
}

// points compiles the positions of the hip, knee, foot and head for
// plotting: f(q) returns (hip, knee, foot, head) as 8 numbers.
func (m *monopod) points() (func(q []float64) [4][2]float64, error) {
	k := m.kin
	fn, err := ad.NewFunction("points", []ad.Arg{ad.A("q", m.q...)},
		[]ad.Arg{ad.A("p", ad.Concat(k.hip, k.knee, k.foot, k.head)...)})
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
