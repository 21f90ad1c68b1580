package monopod

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// TestCLSModel: the CLS model (NewCLS) is the time-freezing model's rigid
// body. At 50 random states (q, v, u) its M(q) and forces f_v = h + Bu
// equal the time-freezing model's M and H + Bu (New, checked against the
// closed forms in TestDynamics) and its contact kinematics f_c, J_nᵀv,
// J_tᵀv equal the time-freezing switching functions Psi (Baumgarte gain
// 0), to 1e-12; f_c is also the closed form FootHeight, and J_n, J_t are
// the central differences of p_foot,z and p_foot,x written out (step
// 1e-6, to 1e-8). The contact is inelastic (e = 0) with μ = 0.8, and
// M(q) is positive definite at x₀ (CheckAt).
func TestCLSModel(t *testing.T) {
	tf, err := New(dcs.Step, 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewCLS()
	if err != nil {
		t.Fatal(err)
	}
	c := m.CLS
	if m.TF != nil || c == nil || len(c.Gap) != 1 || c.E[0] != 0 || c.Mu[0] != Mu || c.Tangent[0] == nil {
		t.Fatalf("model: TF %v, %d contacts, e %v, μ %v", m.TF, len(c.Gap), c.E, c.Mu)
	}
	if err := c.CheckAt([]float64{0, 0.4, 0, 0}, make([]float64, 4), []float64{0, 0}, nil); err != nil {
		t.Errorf("at x₀: %v", err)
	}
	dot := func(g *ad.Graph, a, b ad.Vec) ad.Expr {
		s := g.Const(0)
		for i := range a {
			s = s.Add(a[i].Mul(b[i]))
		}
		return s
	}
	body := c.Body
	fCLS, err := ad.NewFunction("cls", []ad.Arg{ad.A("q", body.Q...), ad.A("v", body.V...), ad.A("u", body.U...)},
		[]ad.Arg{ad.A("M", body.M.E...), ad.A("f", body.FV...),
			ad.A("k", c.Gap[0], dot(body.Graph, c.Normal[0], body.V), dot(body.Graph, c.Tangent[0], body.V)),
			ad.A("J", append(append(ad.Vec(nil), c.Normal[0]...), c.Tangent[0]...)...)})
	if err != nil {
		t.Fatal(err)
	}
	fv, err := tf.H.Add(ad.Vec{tf.G.Const(0), tf.G.Const(0), tf.U[0], tf.U[1]})
	if err != nil {
		t.Fatal(err)
	}
	x := tf.TF.Model.X
	fTF, err := ad.NewFunction("tf", []ad.Arg{ad.A("q", tf.Q...), ad.A("v", tf.V...), ad.A("u", tf.U...), ad.A("t", x[8])},
		[]ad.Arg{ad.A("M", tf.M.E...), ad.A("f", fv...), ad.A("k", tf.TF.Psi...)})
	if err != nil {
		t.Fatal(err)
	}
	if len(tf.TF.Psi) != 3 {
		t.Fatalf("%d switching functions, want f_c, J_nᵀv, J_tᵀv", len(tf.TF.Psi))
	}
	wc, wt := fCLS.NewWorkspace(), fTF.NewWorkspace()
	footX := func(q []float64) float64 { return q[0] - LThigh*math.Sin(q[2]) - LShank*math.Sin(q[2]+q[3]) }
	r := rand.New(rand.NewPCG(7, 8))
	in := func(a, b float64) float64 { return a + (b-a)*r.Float64() }
	for trial := 0; trial < 50; trial++ {
		q := []float64{in(-1, 3), in(0, 1), in(-math.Pi, math.Pi), in(-math.Pi, math.Pi)}
		v := []float64{in(-3, 3), in(-3, 3), in(-10, 10), in(-10, 10)}
		u := []float64{in(-100, 100), in(-100, 100)}
		M1, f1, k1, J := make([]float64, 16), make([]float64, 4), make([]float64, 3), make([]float64, 8)
		M2, f2, k2 := make([]float64, 16), make([]float64, 4), make([]float64, 3)
		if err := fCLS.Eval(wc, [][]float64{q, v, u}, [][]float64{M1, f1, k1, J}); err != nil {
			t.Fatal(err)
		}
		if err := fTF.Eval(wt, [][]float64{q, v, u, {1}}, [][]float64{M2, f2, k2}); err != nil {
			t.Fatal(err)
		}
		for _, p := range []struct {
			name string
			a, b []float64
		}{{"M", M1, M2}, {"f_v", f1, f2}, {"(f_c, J_nᵀv, J_tᵀv)", k1, k2}} {
			for i := range p.a {
				if math.Abs(p.a[i]-p.b[i]) > 1e-12*(1+math.Abs(p.b[i])) {
					t.Errorf("q %v: %s[%d] CLS %v, time freezing %v", q, p.name, i, p.a[i], p.b[i])
				}
			}
		}
		if d := math.Abs(k1[0] - FootHeight(q)); d > 1e-14 {
			t.Errorf("q %v: f_c %v, FootHeight %v", q, k1[0], FootHeight(q))
		}
		const h = 1e-6
		for j := 0; j < 4; j++ {
			qp, qm := append([]float64(nil), q...), append([]float64(nil), q...)
			qp[j] += h
			qm[j] -= h
			dn := (FootHeight(qp) - FootHeight(qm)) / (2 * h)
			dt := (footX(qp) - footX(qm)) / (2 * h)
			if math.Abs(J[j]-dn) > 1e-8 || math.Abs(J[4+j]-dt) > 1e-8 {
				t.Errorf("q %v: J_n[%d] = %v, J_t[%d] = %v; differences %v, %v", q, j, J[j], j, J[4+j], dn, dt)
			}
		}
	}
}

// TestCLSOCPStructure: CLSOCP is Model.OCP without the clock: the same
// bounds and weights on the eight physical states, x₀ = (q₀, 0), the
// terminal reference (q*, 0), no speed of time, Radau IIA n_s = 2,
// N_FE = 3; it builds, and solving a one-stage task from the cold start
// gives an OCPResult with its FESD-J contact record and validity. A
// model of New has no CLS (an error).
func TestCLSOCPStructure(t *testing.T) {
	m, err := NewCLS()
	if err != nil {
		t.Fatal(err)
	}
	task := Task{N: 4, T: 0.4, Distance: 0.1}
	p, o, err := m.CLSOCP(task, Discretization{})
	if err != nil {
		t.Fatal(err)
	}
	tfm, err := New(dcs.Step, 0)
	if err != nil {
		t.Fatal(err)
	}
	ptf, _, err := tfm.OCP(task, Discretization{})
	if err != nil {
		t.Fatal(err)
	}
	if p.CLS != m.CLS || p.Model != nil || p.SpeedOfTime != fesd.NoSpeedOfTime || o.NFE != 3 || o.Stages != 2 || p.N != 4 || p.T != 0.4 || len(p.X0) != 8 {
		t.Errorf("OCP: CLS %v, Model %v, SOT %v, NFE %d, n_s %d, N %d, T %v, x₀ %v", p.CLS != nil, p.Model, p.SpeedOfTime, o.NFE, o.Stages, p.N, p.T, p.X0)
	}
	for i := 0; i < 8; i++ {
		if p.XL[i] != ptf.XL[i] || p.XU[i] != ptf.XU[i] || p.X0[i] != ptf.X0[i] || p.Tracking.XRefT[i] != ptf.Tracking.XRefT[i] ||
			p.Tracking.Q[i][i] != ptf.Tracking.Q[i][i] || p.Tracking.QT[i][i] != ptf.Tracking.QT[i][i] {
			t.Errorf("state %d: bounds [%v, %v], x₀ %v, x_T %v, weights %v %v; time freezing [%v, %v], %v, %v, %v %v", i,
				p.XL[i], p.XU[i], p.X0[i], p.Tracking.XRefT[i], p.Tracking.Q[i][i], p.Tracking.QT[i][i],
				ptf.XL[i], ptf.XU[i], ptf.X0[i], ptf.Tracking.XRefT[i], ptf.Tracking.Q[i][i], ptf.Tracking.QT[i][i])
		}
		for k := range p.Tracking.XRef {
			if p.Tracking.XRef[k][i] != ptf.Tracking.XRef[k][i] {
				t.Errorf("x_ref[%d][%d] = %v, time freezing %v", k, i, p.Tracking.XRef[k][i], ptf.Tracking.XRef[k][i])
			}
		}
	}
	if len(p.XL) != 8 || len(p.Tracking.XRef[0]) != 8 || p.StageEnd != nil {
		t.Errorf("%d bounds, reference rows of %d, stage-end constraints %v: want 8, 8, none (no clock)", len(p.XL), len(p.Tracking.XRef[0]), p.StageEnd != nil)
	}
	if _, _, err := tfm.CLSOCP(task, Discretization{}); err == nil {
		t.Error("CLSOCP on a time-freezing model: no error")
	}
	one := Task{N: 1, T: 0.1, Distance: 0}
	p1, o1, err := m.CLSOCP(one, Discretization{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := fesd.SolveOCP(context.Background(), p1, o1, fesd.Start{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("one stage: %v, %v", r.Status, r.CLSValidity)
	if r.Contacts == nil || r.CLSValidity == nil {
		t.Errorf("no contact record or validity: %v, %v", r.Contacts, r.CLSValidity)
	}
}
