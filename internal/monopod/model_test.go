package monopod

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// TestReferenceHand checks x_ref against a case worked by hand. With
// N = 9 the reference is sampled at t = k/8. Its q_z column is the spline
// through y = (0.4, 0.6, 0.4, 0.6, 0.4) at x = (0, 0.25, 0.5, 0.75, 1).
// With h = 1/4 the equations for the second derivatives are M_{i−1} + 4M_i
// + M_{i+1} = (6/h²)Δ²y_i = 96·(−0.4, 0.4, −0.4) and the not-a-knot rows
// M₀ − 2M₁ + M₂ = 0, M₂ − 2M₃ + M₄ = 0; by symmetry M₀ = M₄, M₁ = M₃, so
// 6M₁ = −38.4, M = (−25.6, −6.4, 12.8, −6.4, −25.6). At the midpoint of a
// piece S = (y_i + y_{i+1})/2 − h²(M_i + M_{i+1})/16: S(1/8) = 0.5 + 0.125
// = 0.625, S(3/8) = 0.5 − 0.025 = 0.475, and mirrored. The q_x column
// (equally spaced samples of the line D·t) is the line; the angles and
// v_z, the angular velocities are 0; the clock is (k+1)·T/N.
func TestReferenceHand(t *testing.T) {
	task := Task{N: 9, T: 3, Distance: 3}
	ref, err := task.Reference()
	if err != nil {
		t.Fatal(err)
	}
	qz := []float64{0.4, 0.625, 0.6, 0.475, 0.4, 0.475, 0.6, 0.625, 0.4}
	if len(ref) != len(qz) {
		t.Fatalf("%d rows, want %d", len(ref), len(qz))
	}
	for k, row := range ref {
		tk := float64(k) / 8
		want := []float64{3 * tk, qz[k], 0, 0, row[4], 0, 0, 0, float64(k+1) * 3 / 9}
		for i, w := range want {
			if math.Abs(row[i]-w) > 1e-14 {
				t.Errorf("x_ref(%v)[%d] = %.16g, want %v", tk, i, row[i], w)
			}
		}
	}
}

// TestInterpSpline: the not-a-knot spline reproduces cubics exactly (any
// knots, n ≥ 4); fewer than four knots, knots that do not increase, ragged
// rows and query points outside the knots are errors; the reference has N
// rows, starts at x₀ and ends at the target (interp1 at Linspace(0, 1, N)).
func TestInterpSpline(t *testing.T) {
	cub := func(x float64) float64 { return 1 - 2*x + 0.5*x*x - 3*x*x*x }
	for _, x := range [][]float64{{0, 0.3, 0.4, 1}, {-1, 0, 0.2, 0.9, 1.5, 2}} {
		Y := make([][]float64, len(x))
		for i := range x {
			Y[i] = []float64{cub(x[i]), -cub(x[i])}
		}
		xq := Linspace(x[0], x[len(x)-1], 23)
		got, err := InterpSpline(x, Y, xq)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range xq {
			if math.Abs(got[i][0]-cub(v)) > 1e-11 || got[i][1] != -got[i][0] {
				t.Errorf("knots %v: S(%v) = %v, cubic %v", x, v, got[i], cub(v))
			}
		}
	}
	x4, y4 := []float64{0, 1, 2, 3}, [][]float64{{0}, {1}, {0}, {1}}
	for _, c := range []struct {
		name string
		x    []float64
		Y    [][]float64
		xq   []float64
	}{
		{"three knots", []float64{0, 1, 3}, [][]float64{{1}, {2}, {10}}, []float64{2}},
		{"repeated knots", []float64{0, 1, 1, 2}, y4, []float64{0.5}},
		{"rows", x4, y4[:3], []float64{0.5}},
		{"ragged", x4, [][]float64{{0}, {1, 2}, {0}, {1}}, []float64{0.5}},
		{"below", x4, y4, []float64{-0.1}},
		{"above", x4, y4, []float64{3.1}},
		{"NaN", x4, y4, []float64{math.NaN()}},
	} {
		if _, err := InterpSpline(c.x, c.Y, c.xq); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	ref, err := PaperTask(60).Reference()
	if err != nil {
		t.Fatal(err)
	}
	if len(ref) != 60 || len(ref[0]) != 9 {
		t.Fatalf("reference %d×%d, want 60×9", len(ref), len(ref[0]))
	}
	last := ref[59]
	for i, w := range []float64{3, 0.4, 0, 0, 0, 0, 0, 0, 3} {
		if math.Abs(last[i]-w) > 1e-12 {
			t.Errorf("x_ref(1)[%d] = %v, want %v", i, last[i], w)
		}
	}
	if ref[0][0] != 0 || ref[0][1] != 0.4 { // Linspace(0, 1, N) starts at 0: x_ref,0 = x₀
		t.Errorf("x_ref(0) = %v", ref[0][:2])
	}
}

// TestDynamics checks M(q) and h(q, v) derived from the Lagrangian against
// the closed forms of the package doc (written out below) at random states
// (1e-12), and M(q₀) as the package doc lists it.
func TestDynamics(t *testing.T) {
	m, err := New(dcs.Step, 0)
	if err != nil {
		t.Fatal(err)
	}
	fn, err := ad.NewFunction("Mh", []ad.Arg{ad.A("q", m.Q...), ad.A("v", m.V...)}, []ad.Arg{ad.A("M", m.M.E...), ad.A("h", m.H...)})
	if err != nil {
		t.Fatal(err)
	}
	ws := fn.NewWorkspace()
	eval := func(q, v []float64) ([]float64, []float64) {
		M, h := make([]float64, 16), make([]float64, 4)
		if err := fn.Eval(ws, [][]float64{q, v}, [][]float64{M, h}); err != nil {
			t.Fatal(err)
		}
		return M, h
	}
	M0, _ := eval([]float64{0, 0.4, 0, 0}, make([]float64, 4))
	// M(q₀) of the package doc: the closed forms at φ_hip = φ_knee = 0.
	want0 := []float64{6.305, 0, -0.192912, -0.0548, 0, 6.305, 0, 0, -0.192912, 0, 0.053976192, 0.01964, -0.0548, 0, 0.01964, 0.00868}
	for i := range want0 {
		if math.Abs(M0[i]-want0[i]) > 1e-12 {
			t.Errorf("M(q₀)[%d][%d] = %v, want %v", i/4, i%4, M0[i], want0[i])
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	in := func(a, b float64) float64 { return a + (b-a)*r.Float64() }
	for trial := 0; trial < 50; trial++ {
		q := []float64{in(-1, 3), in(0, 1), in(-math.Pi, math.Pi), in(-math.Pi, math.Pi)}
		v := []float64{in(-3, 3), in(-3, 3), in(-10, 10), in(-10, 10)}
		M, h := eval(q, v)
		sh, ch := math.Sincos(q[2])
		shk, chk := math.Sincos(q[2] + q[3])
		sk, ck := math.Sincos(q[3])
		wh, wk := v[2], v[3]
		W := wh + wk
		wantM := []float64{
			6.305, 0, -0.138112*ch - 0.0548*chk, -0.0548 * chk,
			0, 6.305, 0.138112*sh + 0.0548*shk, 0.0548 * shk,
			-0.138112*ch - 0.0548*chk, 0.138112*sh + 0.0548*shk, 0.032056192 + 0.02192*ck, 0.00868 + 0.01096*ck,
			-0.0548 * chk, 0.0548 * shk, 0.00868 + 0.01096*ck, 0.00868,
		}
		wantH := []float64{
			-0.138112*wh*wh*sh - 0.0548*W*W*shk,
			-0.138112*wh*wh*ch - 0.0548*W*W*chk - 61.85205,
			0.01096*wk*(2*wh+wk)*sk - 1.35487872*sh - 0.537588*shk,
			-0.01096*wh*wh*sk - 0.537588*shk,
		}
		for i := range wantM {
			if math.Abs(M[i]-wantM[i]) > 1e-12 {
				t.Errorf("M[%d][%d] = %v, closed form %v", i/4, i%4, M[i], wantM[i])
			}
		}
		for i := range wantH {
			if math.Abs(h[i]-wantH[i]) > 1e-12*(1+math.Abs(wantH[i])) {
				t.Errorf("h[%d] = %v, closed form %v", i, h[i], wantH[i])
			}
		}
	}
}

// TestMonopodTimeFreezing: at q₀ raised (flight), the Step and Stewart DCS
// give ẋ = (v, M⁻¹(h + Bu), 1); with the foot below the ground and moving
// down and forward, ẋ = (0, M⁻¹(J_n − μJ_t)a_n, 0); the two formulations
// agree.
func TestMonopodTimeFreezing(t *testing.T) {
	var fs [][]float64
	for _, f := range []dcs.Formulation{dcs.Step, dcs.Stewart} {
		m, err := New(f, 0)
		if err != nil {
			t.Fatal(err)
		}
		d, err := m.TF.Model.Reformulate(m.TF.DCSOptions())
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range [][]float64{
			{0.1, 0.5, 0.2, -0.3, 0.5, -1, 0.3, 0.2, 1.1}, // flight: f_c ≈ 0.1 > 0
			{0.1, 0.35, 0.1, -0.2, 1, -2, 0.1, -0.1, 1.1}, // f_c < 0, v_n < 0, v_t > 0
		} {
			u := []float64{3, -2}
			z, err := d.InitialGuess(x, u, nil)
			if err != nil {
				t.Fatal(err)
			}
			xd, err := d.EvalF(x, u, nil, z, 0)
			if err != nil {
				t.Fatal(err)
			}
			fs = append(fs, xd)
			fc := FootHeight(x)
			if fc > 0 {
				if xd[8] != 1 || xd[0] != x[4] || xd[3] != x[7] {
					t.Errorf("%v flight: ẋ = %v", f, xd)
				}
			} else if xd[8] != 0 || xd[0] != 0 || xd[1] != 0 {
				t.Errorf("%v contact (f_c = %v): ẋ = %v, want q̇ = 0, ṫ = 0", f, fc, xd)
			}
		}
	}
	for i := 0; i < 2; i++ {
		for j := range fs[i] {
			if math.Abs(fs[i][j]-fs[i+2][j]) > 1e-12*(1+math.Abs(fs[i][j])) {
				t.Errorf("point %d: Step ẋ = %v, Stewart %v", i, fs[i], fs[i+2])
				break
			}
		}
	}
}

// TestTaskErrors: a task with no stages, a horizon that is not positive
// and finite, or a NaN distance is an error, also from Model.OCP.
func TestTaskErrors(t *testing.T) {
	m, err := New(dcs.Step, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range []Task{
		{N: 0, T: 3, Distance: 3},
		{N: 4, T: 0, Distance: 3},
		{N: 4, T: math.Inf(1), Distance: 3},
		{N: 4, T: math.NaN(), Distance: 3},
		{N: 4, T: 3, Distance: math.NaN()},
	} {
		if err := task.Validate(); err == nil {
			t.Errorf("%+v: Validate accepted it", task)
		}
		if _, _, err := m.OCP(task, Discretization{}); err == nil {
			t.Errorf("%+v: OCP accepted it", task)
		}
	}
	if err := PaperTask(30).Validate(); err != nil {
		t.Error(err)
	}
}

// TestOCPDefaults: the zero Discretization is the paper's (N_FE = 3, n_s
// = 2, FE_STAGE, speed of time in [0.99, 10]); x₀, the terminal reference
// and the bounds follow the task.
func TestOCPDefaults(t *testing.T) {
	m, err := New(dcs.Stewart, 0)
	if err != nil {
		t.Fatal(err)
	}
	task := Task{N: 5, T: 0.5, Distance: 0.2}
	p, o, err := m.OCP(task, Discretization{})
	if err != nil {
		t.Fatal(err)
	}
	if o.NFE != 3 || o.Stages != 2 || o.CrossComp != fesd.FEStage || p.SOTMin != 0.99 || p.SOTMax != 10 || p.N != 5 || p.T != 0.5 {
		t.Errorf("NFE %d, n_s %d, %v, SOT [%v, %v], N %d, T %v", o.NFE, o.Stages, o.CrossComp, p.SOTMin, p.SOTMax, p.N, p.T)
	}
	if p.XU[0] != 0.7 || len(p.Tracking.XRef) != 5 || p.Tracking.XRefT[0] != 0.2 || p.Tracking.XRefT[8] != 0.5 {
		t.Errorf("q_x ≤ %v, %d reference rows, x_ref(T) = %v", p.XU[0], len(p.Tracking.XRef), p.Tracking.XRefT)
	}
	if got := p.Tracking.XRef[4][8]; math.Abs(got-0.5) > 1e-15 {
		t.Errorf("clock reference at the last stage end %v, want T = 0.5", got)
	}
	if _, err := fesd.NewOCPSolver(p, o); err != nil {
		t.Errorf("the OCP does not build: %v", err)
	}
}

// TestEnergy: a pure translation of the robot at q₀ with velocity (v_x,
// v_z) adds the kinetic energy of a point mass, ½(m_hip + m_thigh +
// m_shank)(v_x² + v_z²) (closed form; no rotation), and lifting it by Δz
// adds (m_hip + m_thigh + m_shank)·g·Δz.
func TestEnergy(t *testing.T) {
	e, err := Energy()
	if err != nil {
		t.Fatal(err)
	}
	m := MassHip + MassThigh + MassShank
	q0, v0 := []float64{0, 0.4, 0, 0}, []float64{0, 0, 0, 0}
	e0 := e(q0, v0)
	if got, want := e(q0, []float64{1, 2, 0, 0})-e0, 0.5*m*5; math.Abs(got-want) > 1e-12*want {
		t.Errorf("kinetic energy %v, want %v", got, want)
	}
	if got, want := e([]float64{0.3, 0.5, 0, 0}, v0)-e0, m*Gravity*0.1; math.Abs(got-want) > 1e-12*want {
		t.Errorf("potential energy %v, want %v", got, want)
	}
}
