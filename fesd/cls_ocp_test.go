package fesd

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
)

// actuatedBall is the 1-D ball of unit mass under gravity g and a
// vertical force u on the ground z ≥ 0 with restitution e: M = 1,
// f_v = −g + u (bouncingBall with a control).
func actuatedBall(t *testing.T, e float64) *dcs.CLS {
	t.Helper()
	return ball1D(t, e, true, func(z ad.Expr) ad.Expr { return z })
}

// TestCLSOCPBall: a FESD-J OCP. The actuated ball starts at rest at
// height 1 and must be at z_T = 0.8 at T = 1.2; N = 4 stages of τ = 0.3,
// the controls of the first two fixed at zero (StageEnd), the objective
// ∫u² dt. Closed form: free fall to the impact at t₁ = √(2/g) (stage 1)
// with v⁻ = −√(2g), v⁺ = −e v⁻, the flight to t = 0.6 gives (z_a, v_a);
// then the ball flies (for this target), and with constant u₂, u₃ on the
// last two stages z(T) = z_a + 2τ v_a − 2gτ² + a·u with a = (3τ²/2,
// τ²/2), so the minimum of τ|u|² subject to it is u = b a/|a|² with
// b = z_T − z_a − 2τ v_a + 2gτ², and the objective τ b²/|a|². Radau IIA
// integrates the piecewise quadratic flights exactly, and FESD-J puts
// the impact on an element boundary, so the NLP's optimum is the closed
// form up to the complementarity tolerance; checked to 1e-6, together
// with the complementarity bar 1e-6, the impact reported in
// OCPResult.Contacts (one, at t₁ in stage 1, Λ_n = (1 + e)√(2g) and
// v⁺ = e√(2g), to 1e-6) and SimulateCLS with the
// optimal controls (its end state within 1e-6 of the OCP's). Measured:
// objective 7e-15 from the closed form, controls 4e-14, the simulated
// end state 7e-16, complementarity residual 0, 43 iterations.
func TestCLSOCPBall(t *testing.T) {
	const (
		e     = 0.5
		T     = 1.2
		N     = 4
		zT    = 0.8
		tau   = T / N
		tol   = 1e-6
		nfe   = 3
		fixed = 2 // stages with u = 0
	)
	c := actuatedBall(t, e)
	u := c.Body.U
	zero := func(k int) []Constraint {
		if k < fixed {
			return []Constraint{{G: u, L: []float64{0}, U: []float64{0}}}
		}
		return nil
	}
	p := &OCP{CLS: c, X0: []float64{1, 0}, N: N, T: T, NFE: []int{nfe},
		Lagrange: u[0].Mul(u[0]), StageEnd: zero,
		Terminal: []Constraint{{G: ad.Vec{c.Body.Q[0]}, L: []float64{zT}, U: []float64{zT}}}}
	s, err := NewOCPSolver(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// the start: with u = 0 on the last stages the guess bounces a second
	// time at t = 0.9, and the homotopy ends in the local minimum with
	// that bounce (objective 121.8); with u = 10 the guess flies
	r, err := s.Solve(context.Background(), Start{UInit: [][]float64{{0}, {0}, {10}, {10}}})
	if err != nil {
		t.Fatal(err)
	}
	// the closed form
	t1 := math.Sqrt(2 / gBall)
	vp := e * math.Sqrt(2*gBall)
	dt := 2*tau - t1
	za, va := vp*dt-gBall*dt*dt/2, vp-gBall*dt
	a := [2]float64{1.5 * tau * tau, 0.5 * tau * tau}
	b := zT - za - 2*tau*va + 2*gBall*tau*tau
	aa := a[0]*a[0] + a[1]*a[1]
	uOpt := [2]float64{b * a[0] / aa, b * a[1] / aa}
	obj := tau * b * b / aa
	t.Logf("status %v, %d iterations, objective %.12g (closed form %.12g), comp %.2g, infeasibility %.2g, u %v (closed form %v)",
		r.Status, r.Iterations, r.Objective, obj, r.CompResidual, r.Infeasibility, r.U, uOpt)
	if r.Status != mpcc.Solved {
		t.Fatalf("status %v", r.Status)
	}
	if r.CompResidual > tol || r.Infeasibility > tol {
		t.Errorf("complementarity residual %g, infeasibility %g > %g", r.CompResidual, r.Infeasibility, tol)
	}
	if d := math.Abs(r.Objective - obj); d > tol*obj {
		t.Errorf("objective %.12g, closed form %.12g (relative error %.2g)", r.Objective, obj, d/obj)
	}
	for k := 0; k < N; k++ {
		want := 0.0
		if k >= fixed {
			want = uOpt[k-fixed]
		}
		if d := math.Abs(r.U[k][0] - want); d > tol*math.Max(1, math.Abs(want)) {
			t.Errorf("u_%d = %.12g, closed form %.12g", k, r.U[k][0], want)
		}
	}
	xT := r.X[len(r.X)-1]
	if math.Abs(xT[0]-zT) > tol {
		t.Errorf("z(T) = %.12g, want %g", xT[0], zT)
	}
	// the impacts reported (OCPResult.Contacts)
	imps := r.Contacts.Impacts()
	for _, im := range imps {
		t.Logf("impact at t = %.12g (closed form %.12g): Λ_n = %.12g (closed form %.12g), v⁻ %.12g, v⁺ %.12g",
			im.Time, t1, im.Impulse, (1+e)*math.Sqrt(2*gBall), im.VnBefore, im.VnAfter)
	}
	if len(imps) != 1 {
		t.Fatalf("%d impacts, want one", len(imps))
	}
	if im := imps[0]; math.Abs(im.Time-t1) > tol || math.Abs(im.Impulse-(1+e)*math.Sqrt(2*gBall)) > tol ||
		math.Abs(im.VnAfter-vp) > tol || im.Step != 1 {
		t.Errorf("impact %+v, closed form at t = %.12g in stage 1 with Λ_n = %.12g and v⁺ = %.12g", im, t1, (1+e)*math.Sqrt(2*gBall), vp)
	}
	if r.Validity != nil || r.Switches != nil {
		t.Errorf("a CLS result with Validity %v, Switches %v", r.Validity, r.Switches)
	}
	// an independent simulation with the optimal controls
	sim, err := SimulateCLS(context.Background(), c, p.X0, SimOptions{TSim: T, NSim: N, Options: Options{NFE: nfe},
		UFunc: func(t float64) []float64 { return r.UAt(t) }})
	if err != nil {
		t.Fatal(err)
	}
	xs := sim.X[len(sim.X)-1]
	t.Logf("|objective − closed form| %.2g, |u − closed form| %.2g %.2g, simulated end state − OCP's %.2g %.2g",
		math.Abs(r.Objective-obj), math.Abs(r.U[2][0]-uOpt[0]), math.Abs(r.U[3][0]-uOpt[1]), xs[0]-xT[0], xs[1]-xT[1])
	for i := range xs {
		if d := math.Abs(xs[i] - xT[i]); d > tol {
			t.Errorf("simulated end state %v, the OCP's %v", xs, xT)
			break
		}
	}
	if im := sim.Impacts(); len(im) != 1 || math.Abs(im[0].Time-t1) > tol {
		t.Errorf("simulated impacts %+v, want one at %g", im, t1)
	}
}

// TestCLSOCPBlock: a FESD-J OCP with friction. The block of pushedBlock
// (μ = 0.3) slides on the ground from x = 0 with the velocity v₀ = 2.5
// and must be at x_T = 1.5 at T = 1 (free end velocity), with N = 4
// stages of τ = 0.25, the vertical force fixed at zero (UL = UU) and the
// objective ∫u_x² dt. Without a force it would stop at x = 1.06. Closed
// form: while it slides forward v̇ = u_k − μg, so x(T) = x_T is the linear
// condition a·u = b with a_k = τ²(N − k − ½) and
// b = x_T − v₀T + μg Σ a_k on the piecewise constant controls, and the
// minimum of τ|u|² subject to it is u = b a/|a|², objective τb²/|a|²; its
// velocity stays positive up to T (checked), so it is the solution among
// sliding motions. Checked to 1e-6 with complementarity ≤ 1e-6, no
// impact, the contact sliding on every element, and SimulateCLS with the
// optimal controls. Measured: objective and controls 1.6e-8 from the
// closed form, complementarity residual 1e-9, the simulated end state
// 1.3e-8, 223 iterations.
//
// With the block at rest at x = 0 and the terminal rest x(T) = 1,
// v(T) = 0 (T = 2, N = 4) the homotopy ends NLPFailure: the relaxed NLPs
// fail from σ = 1e-7 on (NumericalError, 3219 iterations in all), and the
// active-set finish reaches the closed-form objective 18.922498 (to 1e-12)
// on a branch that is only W-stationary (a biactive multiplier −5.45, 34
// biactive pairs: the friction pairs at the start from rest and at the
// stop at T, where the terminal constraint fixes v), so the homotopy's
// point stays (objective 18.92171).
func TestCLSOCPBlock(t *testing.T) {
	const (
		mu  = 0.3
		v0  = 2.5
		T   = 1.0
		N   = 4
		xT  = 1.5
		tau = T / N
		tol = 1e-6
		nfe = 2
	)
	c := pushedBlock(t, mu)
	inf := math.Inf(1)
	p := &OCP{CLS: c, X0: []float64{0, 0, v0, 0}, N: N, T: T, NFE: []int{nfe},
		UL: []float64{-inf, 0}, UU: []float64{inf, 0},
		Lagrange: c.Body.U[0].Mul(c.Body.U[0]),
		Terminal: []Constraint{{G: ad.Vec{c.Body.Q[0]}, L: []float64{xT}, U: []float64{xT}}}}
	s, err := NewOCPSolver(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Solve(context.Background(), Start{})
	if err != nil {
		t.Fatal(err)
	}
	// the closed form
	mg := mu * gBall
	var a [N]float64
	b, aa := xT-v0*T, 0.0
	for k := range a {
		a[k] = tau * tau * (N - float64(k) - 0.5)
		b += mg * a[k]
		aa += a[k] * a[k]
	}
	var uOpt [N]float64
	v := v0
	for k := range a {
		uOpt[k] = b * a[k] / aa
		if v += tau * (uOpt[k] - mg); !(v > 0) {
			t.Fatalf("the closed form stops in stage %d (v = %g)", k, v)
		}
	}
	obj := tau * b * b / aa
	t.Logf("status %v, %d iterations, objective %.12g (closed form %.12g), comp %.2g, infeasibility %.2g, u %v (closed form %v)",
		r.Status, r.Iterations, r.Objective, obj, r.CompResidual, r.Infeasibility, r.U, uOpt)
	if r.Status != mpcc.Solved {
		t.Fatalf("status %v", r.Status)
	}
	if r.CompResidual > tol || r.Infeasibility > tol {
		t.Errorf("complementarity residual %g, infeasibility %g > %g", r.CompResidual, r.Infeasibility, tol)
	}
	if d := math.Abs(r.Objective - obj); d > tol*obj {
		t.Errorf("objective %.12g, closed form %.12g (relative error %.2g)", r.Objective, obj, d/obj)
	}
	du := 0.0
	for k := 0; k < N; k++ {
		du = math.Max(du, math.Abs(r.U[k][0]-uOpt[k]))
	}
	if du > tol {
		t.Errorf("controls %v, closed form %v", r.U, uOpt)
	}
	if im := r.Contacts.Impacts(); len(im) != 0 {
		t.Errorf("impacts %+v, want none", im)
	}
	for n, m := range r.Contacts.Modes {
		if m[0] != ContactSliding {
			t.Errorf("element %d: mode %v, want sliding", n, m[0])
		}
	}
	xE := r.X[len(r.X)-1]
	sim, err := SimulateCLS(context.Background(), c, p.X0, SimOptions{TSim: T, NSim: N, Options: Options{NFE: nfe},
		UFunc: func(t float64) []float64 { return r.UAt(t) }})
	if err != nil {
		t.Fatal(err)
	}
	xs := sim.X[len(sim.X)-1]
	dx := 0.0
	for i := range xs {
		dx = math.Max(dx, math.Abs(xs[i]-xE[i]))
	}
	t.Logf("|objective − closed form| %.2g, |u − closed form| %.2g, |simulated end state − OCP's| %.2g (end %v)",
		math.Abs(r.Objective-obj), du, dx, xE)
	if dx > tol {
		t.Errorf("simulated end state %v, the OCP's %v", xs, xE)
	}
}

// TestCLSOCPMisuse: an OCP with both Model and CLS, DCS callbacks on a
// CLS, an x₀ of the wrong length, and the sensitivities (not built for a
// CLS yet) are errors.
func TestCLSOCPMisuse(t *testing.T) {
	c := actuatedBall(t, 0.5)
	m := crossing(1, 1)
	base := OCP{CLS: c, X0: []float64{1, 0}, N: 2, T: 0.5}
	cases := []struct {
		name string
		edit func(p *OCP)
		want error
	}{
		{"model and CLS", func(p *OCP) { p.Model = m }, ErrStructure},
		{"neither", func(p *OCP) { p.CLS = nil }, ErrNilModel},
		{"LagrangeFromDCS", func(p *OCP) { p.LagrangeFromDCS = func(*dcs.DCS) ad.Expr { return ad.Expr{} } }, ErrStructure},
		{"PathComp.FromDCS", func(p *OCP) {
			p.PathComps = []PathComp{{FromDCS: func(*dcs.DCS) (ad.Vec, ad.Vec) { return nil, nil }}}
		}, ErrStructure},
		{"x0 of length 1", func(p *OCP) { p.X0 = []float64{1} }, ErrDimension},
		{"a control bound of length 2", func(p *OCP) { p.UL = []float64{0, 0} }, ErrDimension},
	}
	for _, tc := range cases {
		p := base
		tc.edit(&p)
		if _, err := NewOCPSolver(&p, Options{}); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	s, err := NewOCPSolver(&base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Solve(context.Background(), Start{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sensitivity(context.Background(), r); !errors.Is(err, ErrStructure) {
		t.Errorf("sensitivity: %v, want ErrStructure", err)
	}
}
