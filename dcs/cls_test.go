package dcs_test

import (
	"errors"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// ball is a point mass m = 2 in the plane, q = (x, z), under gravity, on
// the ground z ≥ 0 with restitution e and friction μ: the bouncing ball
// and sliding block of the FESD-J paper's examples.
func ball(e, mu float64) (dcs.RigidBody, ad.Vec) {
	g := ad.NewGraph()
	q, v := g.SymVec("q", 2), g.SymVec("v", 2)
	M := g.Eye(2)
	M.E[0], M.E[3] = g.Const(2), g.Const(2)
	return dcs.RigidBody{Graph: g, Q: q, V: v, M: M, FV: g.ConstVec(0, -2*9.81),
		Contacts: []dcs.Contact{{Gap: q[1], TangentPos: q[0], Mu: mu, Restitution: e}}}, q
}

// TestCLS: the contact Jacobians are resolved (J_n = ∇f_c, J_t =
// ∇TangentPos), μ and e are kept, and the ball passes CheckAt at rest at
// height 1 and on the ground.
func TestCLS(t *testing.T) {
	rb, _ := ball(0.9, 0.3)
	c, err := dcs.NewCLS(rb)
	if err != nil {
		t.Fatal(err)
	}
	if c.NQ != 2 || len(c.X) != 4 || len(c.Gap) != 1 {
		t.Fatalf("n_q %d, %d states, %d gaps", c.NQ, len(c.X), len(c.Gap))
	}
	f, err := ad.NewFunction("j", []ad.Arg{ad.A("q", rb.Q...)}, []ad.Arg{ad.A("jn", c.Normal[0]...), ad.A("jt", c.Tangent[0]...)})
	if err != nil {
		t.Fatal(err)
	}
	jn, jt := make([]float64, 2), make([]float64, 2)
	if err := f.Eval(f.NewWorkspace(), [][]float64{{0.5, 1}}, [][]float64{jn, jt}); err != nil {
		t.Fatal(err)
	}
	// f_c = z: J_n = (0, 1); TangentPos = x: J_t = (1, 0)
	if jn[0] != 0 || jn[1] != 1 || jt[0] != 1 || jt[1] != 0 {
		t.Errorf("J_n = %v, J_t = %v, want (0, 1) and (1, 0)", jn, jt)
	}
	if c.Mu[0] != 0.3 || c.E[0] != 0.9 {
		t.Errorf("μ = %v, e = %v", c.Mu, c.E)
	}
	for _, q0 := range [][]float64{{0, 1}, {3, 0}} {
		if err := c.CheckAt(q0, []float64{0, 0}, nil, nil); err != nil {
			t.Errorf("q₀ = %v: %v", q0, err)
		}
	}
	// A frictionless contact has no tangent.
	rb.Contacts[0].TangentPos = ad.Expr{}
	if c, err = dcs.NewCLS(rb); err != nil || c.Tangent[0] != nil {
		t.Errorf("frictionless: J_t = %v, err %v", c.Tangent, err)
	}
}

// TestCLSErrors: the structural errors of NewCLS and the errors of
// CheckAt at a given state, each with its sentinel.
func TestCLSErrors(t *testing.T) {
	cases := []struct {
		name string
		mod  func(rb *dcs.RigidBody, q ad.Vec)
		want error
	}{
		{"e < 0", func(rb *dcs.RigidBody, _ ad.Vec) { rb.Contacts[0].Restitution = -0.1 }, dcs.ErrOptions},
		{"e > 1", func(rb *dcs.RigidBody, _ ad.Vec) { rb.Contacts[0].Restitution = 1.5 }, dcs.ErrOptions},
		{"e NaN", func(rb *dcs.RigidBody, _ ad.Vec) { rb.Contacts[0].Restitution = math.NaN() }, dcs.ErrOptions},
		{"negative μ", func(rb *dcs.RigidBody, _ ad.Vec) { rb.Contacts[0].Mu = -1 }, dcs.ErrOptions},
		{"normal length", func(rb *dcs.RigidBody, q ad.Vec) { rb.Contacts[0].Normal = ad.Vec{q[1]} }, dcs.ErrDimension},
		{"tangent length", func(rb *dcs.RigidBody, q ad.Vec) { rb.Contacts[0].Tangent = ad.Vec{q[0], q[1], q[0]} }, dcs.ErrDimension},
		{"M size", func(rb *dcs.RigidBody, _ ad.Vec) { rb.M = rb.Graph.Eye(3) }, dcs.ErrDimension},
		{"no contacts", func(rb *dcs.RigidBody, _ ad.Vec) { rb.Contacts = nil }, dcs.ErrNoModes},
		{"foreign gap", func(rb *dcs.RigidBody, _ ad.Vec) { rb.Contacts[0].Gap = ad.NewGraph().Sym("z") }, dcs.ErrInvalidExpr},
		{"gap of a foreign symbol", func(rb *dcs.RigidBody, _ ad.Vec) { rb.Contacts[0].Gap = rb.Graph.Sym("w") }, dcs.ErrForeignSymbol},
	}
	for _, c := range cases {
		rb, q := ball(0.5, 0.2)
		c.mod(&rb, q)
		_, err := dcs.NewCLS(rb)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}

	// M(q) = [[q₁, 1], [1, 2]] is positive definite for q₁ > 1/2 only.
	rb, q := ball(0.5, 0.2)
	g := rb.Graph
	rb.M.E = []ad.Expr{q[1], g.Const(1), g.Const(1), g.Const(2)}
	c, err := dcs.NewCLS(rb)
	if err != nil {
		t.Fatal(err)
	}
	at := []struct {
		name string
		q, v []float64
		want error
	}{
		{"M SPD", []float64{0, 1}, []float64{0, 0}, nil},
		{"M indefinite", []float64{0, 0.25}, []float64{0, 0}, dcs.ErrMassMatrix},
		{"M singular", []float64{0, 0.5}, []float64{0, 0}, dcs.ErrMassMatrix},
		{"q length", []float64{0}, []float64{0, 0}, dcs.ErrDimension},
		{"v NaN", []float64{0, 1}, []float64{math.NaN(), 0}, dcs.ErrNonFinite},
	}
	for _, a := range at {
		if err := c.CheckAt(a.q, a.v, nil, nil); !errors.Is(err, a.want) {
			t.Errorf("%s: err = %v, want %v", a.name, err, a.want)
		}
	}
	// A full M that is not symmetric.
	rb.M.E = []ad.Expr{g.Const(2), g.Const(1), g.Const(0.5), g.Const(2)}
	if c, err = dcs.NewCLS(rb); err != nil {
		t.Fatal(err)
	}
	if err := c.CheckAt([]float64{0, 1}, []float64{0, 0}, nil, nil); !errors.Is(err, dcs.ErrMassMatrix) {
		t.Errorf("asymmetric M: err = %v, want ErrMassMatrix", err)
	}
	// Only the lower triangle given (the upper one zero): read as symmetric.
	rb.M.E = []ad.Expr{g.Const(2), g.Const(0), g.Const(0.5), g.Const(2)}
	if c, err = dcs.NewCLS(rb); err != nil {
		t.Fatal(err)
	}
	if err := c.CheckAt([]float64{0, 1}, []float64{0, 0}, nil, nil); err != nil {
		t.Errorf("lower-triangular M: %v", err)
	}
	// A non-finite gap at the state.
	rb, q = ball(0.5, 0.2)
	rb.Contacts[0].Gap = ad.Log(q[1])
	if c, err = dcs.NewCLS(rb); err != nil {
		t.Fatal(err)
	}
	if err := c.CheckAt([]float64{0, 0}, []float64{0, 0}, nil, nil); !errors.Is(err, dcs.ErrNonFinite) {
		t.Errorf("log gap at 0: err = %v, want ErrNonFinite", err)
	}
}

// TestTimeFreezingInelastic: the time-freezing reformulation rejects a
// contact with e ≠ 0 instead of ignoring it.
func TestTimeFreezingInelastic(t *testing.T) {
	rb, _ := ball(0.9, 0.3)
	if _, err := dcs.NewTimeFreezing(rb, dcs.TimeFreezingOptions{}); !errors.Is(err, dcs.ErrOptions) {
		t.Errorf("e = 0.9: err = %v, want ErrOptions", err)
	}
	rb.Contacts[0].Restitution = 0
	if _, err := dcs.NewTimeFreezing(rb, dcs.TimeFreezingOptions{}); err != nil {
		t.Errorf("e = 0: %v", err)
	}
}
