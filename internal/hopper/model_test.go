package hopper

import (
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// rhsCase is a state in one region of the time-freezing PSS.
type rhsCase struct {
	name string
	x    []float64
	// mode: 0 free flight, +1 f_aux+ (v_t > 0), −1 f_aux− (v_t < 0).
	mode int
}

// The states below were chosen by hand so that the signs of (f_c, v_n, v_t)
// put them in the stated region: q₂ − q₄ cos q₃ = 0.6 − 0.4 cos 0.1 ≈ 0.202
// > 0, resp. 0.45 − 0.5 cos 0.1 ≈ −0.0475 < 0; v_n = v₂ + q₄ sin q₃ v₃ −
// cos q₃ v₄ and v_t = v₁ + q₄ cos q₃ v₃ + sin q₃ v₄ (J_n, J_t of hopper_ocp.py).
var rhsCases = []rhsCase{
	{"flight f_c>0", []float64{0.2, 0.6, 0.1, 0.4, 0.3, -0.5, 0.2, -0.1, 0.7}, 0},
	{"flight f_c<0 v_n>0", []float64{0.2, 0.45, 0.1, 0.5, 0.3, 0.5, 0.2, -0.1, 0.7}, 0},      // v_n ≈ 0.609
	{"contact v_n<0 v_t>0", []float64{0.2, 0.45, 0.1, 0.5, 0.3, -0.5, 0.2, 0.1, 0.7}, 1},     // v_n ≈ −0.590, v_t ≈ 0.409
	{"contact v_n<0 v_t<0", []float64{0.2, 0.45, 0.1, 0.5, -0.5, -0.5, 0.2, 0.1, 0.7}, -1},   // v_t ≈ −0.391
	{"contact upright v_t>0", []float64{0.1, 0.49, 0, 0.5, 0.2, -1, 0, 0, 0.7}, 1},           // f_c = −0.01
	{"flight upright at rest", []float64{0.1, 0.5 + 1e-3, 0, 0.5, 0, 0, 0, 0, 0}, 0},         // f_c = 1e-3
	{"contact upright v_t<0", []float64{0.1, 0.49, 0, 0.5, -0.2, -1, 0, 0, 0.7}, -1},         // f_c = −0.01
	{"flight tilted f_c<0 v_n>0", []float64{0, 0.3, -0.4, 0.4, -1, 2, 1, 0.5, 0.7}, 0},       // v_n ≈ 1.48
	{"contact tilted v_t<0", []float64{0, 0.3, -0.4, 0.4, -1, -2, 1, 0.5, 0.7}, -1},          // v_t ≈ −0.825
	{"contact tilted v_t>0", []float64{0, 0.3, -0.4, 0.4, 1.5, -2, 1, 0.5, 0.7}, 1},          // v_t ≈ 1.67
	{"flight high, moving down fast", []float64{1, 1.2, 0.3, 0.2, 0.4, -3, -1, 0.2, 2.5}, 0}, // f_c ≈ 1.01
	{"flight grazing f_c>0 v_n<0", []float64{1, 0.21, 0.05, 0.2, 0.4, -3, -1, 0.2, 2.5}, 0},  // f_c ≈ 0.0102
	{"contact deep v_t>0 tilted right", []float64{1, 0.1, 0.3, 0.3, 2, -3, 0, 0, 2.5}, 1},    // f_c ≈ −0.187
	{"contact deep v_t<0 tilted right", []float64{1, 0.1, 0.3, 0.3, -2, -3, 0, 0, 2.5}, -1},  // v_t = −2
	{"flight deep moving up", []float64{1, 0.1, 0.3, 0.3, -2, 3, 0, 0, 2.5}, 0},              // v_n = 3
	{"flight leg retracting fast", []float64{0.5, 0.7, -0.2, 0.1, 0, 0, 0, -5, 1}, 0},        // f_c ≈ 0.602
}

// wantRHS is ẋ of nosnoc_py's hopper_ocp.py written out: free flight s·(v, M⁻¹f_v, 1)
// with M = diag(1.1, 1.1, 0.275, 0.1), f_v = (−u₂ sin q₃, u₂ cos q₃ − 1.1·9.81,
// u₁, u₂); contact (0, M⁻¹(J_n ∓ μJ_t)a_n, 0) with μ = 0.45, a_n = 100,
// J_n = (0, 1, q₄ sin q₃, −cos q₃), J_t = (1, 0, q₄ cos q₃, sin q₃).
func wantRHS(x, u []float64, mode int) []float64 {
	s3, c3 := math.Sincos(x[2])
	M := []float64{1.1, 1.1, 0.275, 0.1}
	out := make([]float64, 9)
	if mode == 0 {
		s := u[3]
		fv := []float64{-u[1] * s3, u[1]*c3 - 1.1*9.81, u[0], u[1]}
		for i := 0; i < 4; i++ {
			out[i] = s * x[4+i]
			out[4+i] = s * fv[i] / M[i]
		}
		out[8] = s
		return out
	}
	Jn := []float64{0, 1, x[3] * s3, -c3}
	Jt := []float64{1, 0, x[3] * c3, s3}
	sign := -float64(mode) // J_n − μJ_t for v_t > 0
	for i := 0; i < 4; i++ {
		out[4+i] = (Jn[i] + sign*0.45*Jt[i]) * 100 / M[i]
	}
	return out
}

// TestRHSRegions evaluates the reformulated right-hand side of both
// formulations, at the consistent algebraic variables of the DCS, against
// the hopper_ocp.py formulas in every region of the PSS.
func TestRHSRegions(t *testing.T) {
	u := []float64{2, 15, 0.5, 1.5}
	p := make([]float64, NPhys)
	for _, form := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
		h, err := New(form)
		if err != nil {
			t.Fatal(err)
		}
		d, err := h.Sys.Reformulate(h.DCSOptions())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range rhsCases {
			fc := FootHeight(c.x)
			vn, vt := ContactVel(c.x)
			mode := 0
			if fc < 0 && vn < 0 {
				mode = 1
				if vt < 0 {
					mode = -1
				}
			}
			if mode != c.mode {
				t.Fatalf("%s: region %d, test case says %d (f_c %g, v_n %g, v_t %g)", c.name, mode, c.mode, fc, vn, vt)
			}
			z, err := d.InitialGuess(c.x, u, p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := d.EvalF(c.x, u, p, z, 0)
			if err != nil {
				t.Fatal(err)
			}
			want := wantRHS(c.x, u, mode)
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
					t.Errorf("%v %s: ẋ[%d] = %.15g, want %.15g", form, c.name, i, got[i], want[i])
				}
			}
		}
	}
}

// TestRHSLiteral checks two values worked by hand. Upright (q₃ = 0) with
// q₄ = 0.5, in contact with v_t > 0: J_n − μJ_t = (−0.45, 1, −0.225, −1),
// so v̇ = 100·(−0.45/1.1, 1/1.1, −0.225/0.275, −1/0.1) = (−40.909…, 90.909…,
// −81.818…, −1000). In flight at rest with u = 0, s = 1: v̇_y = −9.81.
func TestRHSLiteral(t *testing.T) {
	for _, form := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
		h, err := New(form)
		if err != nil {
			t.Fatal(err)
		}
		d, err := h.Sys.Reformulate(h.DCSOptions())
		if err != nil {
			t.Fatal(err)
		}
		p := make([]float64, NPhys)
		for _, c := range []struct {
			x, u, want []float64
		}{
			{[]float64{0.1, 0.49, 0, 0.5, 0.2, -1, 0, 0, 0}, []float64{3, 4, 0, 2},
				[]float64{0, 0, 0, 0, -4500.0 / 110, 10000.0 / 110, -2250.0 / 27.5, -1000, 0}},
			{[]float64{0.1, 0.6, 0, 0.5, 0, 0, 0, 0, 1}, []float64{0, 0, 0, 1},
				[]float64{0, 0, 0, 0, 0, -9.81, 0, 0, 1}},
		} {
			z, err := d.InitialGuess(c.x, c.u, p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := d.EvalF(c.x, c.u, p, z, 0)
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.want {
				if math.Abs(got[i]-c.want[i]) > 1e-12*(1+math.Abs(c.want[i])) {
					t.Errorf("%v x=%v: ẋ[%d] = %.15g, want %.15g", form, c.x, i, got[i], c.want[i])
				}
			}
		}
	}
}

// TestNoSlipSides: at consistent algebraic variables in the contact region
// the two sides of the no-slip complementarity are G = |v_t| (Step) or
// 2|v_t| (Stewart) and H = 1 (the frozen modes carry all weight); in
// flight H = 0.
func TestNoSlipSides(t *testing.T) {
	u := []float64{0, 0, 0, 1}
	p := make([]float64, NPhys)
	for _, form := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
		h, _ := New(form)
		d, err := h.Sys.Reformulate(h.DCSOptions())
		if err != nil {
			t.Fatal(err)
		}
		G, H := h.NoSlip(d)
		fn, err := ad.NewFunction("noslip", d.Args(), []ad.Arg{ad.A("G", G...), ad.A("H", H...)})
		if err != nil {
			t.Fatal(err)
		}
		scale := 1.0
		if form == dcs.Stewart {
			scale = 2
		}
		for _, c := range rhsCases {
			z, err := d.InitialGuess(c.x, u, p)
			if err != nil {
				t.Fatal(err)
			}
			g, hv := make([]float64, 1), make([]float64, 1)
			if err := fn.Eval(fn.NewWorkspace(), [][]float64{c.x, u, p, z, {0}}, [][]float64{g, hv}); err != nil {
				t.Fatal(err)
			}
			_, vt := ContactVel(c.x)
			if c.mode != 0 {
				if math.Abs(g[0]-scale*math.Abs(vt)) > 1e-12 || math.Abs(hv[0]-1) > 1e-12 {
					t.Errorf("%v %s: G = %v (|v_t| = %v), H = %v", form, c.name, g[0], math.Abs(vt), hv[0])
				}
			} else if math.Abs(hv[0]) > 1e-12 {
				t.Errorf("%v %s: flight but H = %v", form, c.name, hv[0])
			}
		}
	}
}

// TestReference: nosnoc_py's CubicSpline through three points is the
// parabola through them; the reference starts at x₀, passes the mid point
// of every hop at the middle of its stages, and ends at x_end.
func TestReference(t *testing.T) {
	// Through (0, 1), (½, 3), (1, 2): y = 1 + 7s − 6s², y(¼) = 2.375.
	if got := Parabola3(1, 3, 2, 0.25); math.Abs(got-2.375) > 1e-15 {
		t.Errorf("parabola3 = %v, want 2.375", got)
	}
	for _, s := range []float64{0, 0.5, 1} {
		want := map[float64]float64{0: 1, 0.5: 3, 1: 2}[s]
		if got := Parabola3(1, 3, 2, s); got != want {
			t.Errorf("Parabola3(%v) = %v, want %v", s, got, want)
		}
	}
	c := StageExperiment(60) // goal 3: round(2.9) = 3 hops of 20 stages at N = 60
	ref := c.Reference()
	if len(ref) != c.N+1 {
		t.Fatalf("%d rows, want N+1 = %d", len(ref), c.N+1)
	}
	check := func(k int, want []float64) {
		t.Helper()
		for i := range want {
			if math.Abs(ref[k][i]-want[i]) > 1e-12 {
				t.Errorf("row %d: %v, want %v", k, ref[k], want)
				return
			}
		}
	}
	check(0, X0())
	check(10, []float64{0.1 + 2.9/6, 1, 0, 0.1, 0, 0, 0, 0})
	check(20, []float64{0.1 + 2.9/3, 0.5, 0, 0.5, 0, 0, 0, 0})
	check(50, []float64{0.1 + 2.9*5/6, 1, 0, 0.1, 0, 0, 0, 0})
	check(60, c.XEnd())
	// N = 61 is not divisible by 3 hops: the last rows repeat x_end.
	c.N = 61
	ref = c.Reference()
	if len(ref) != 62 {
		t.Fatalf("%d rows, want 62", len(ref))
	}
	check(61, c.XEnd())
	check(60, c.XEnd())
}
