package fesd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/mpcc"
)

// blockStop returns the closed form of the sliding block (slidingBlock)
// thrown from height 1 with the horizontal velocity v0: it lands at
// t₁ = √(2/g) with the normal impulse Λ_n = √(2g), the Coulomb impulse
// μΛ_n takes its horizontal velocity to v₁ = v0 − μ√(2g) > 0, it slides
// with the deceleration μg and sticks at t_s = t₁ + v₁/(μg),
// x_s = v0 t₁ + v₁²/(2μg).
func blockStop(mu, v0 float64) (ts, xs float64) {
	t1, vn := math.Sqrt(2/gBall), math.Sqrt(2*gBall)
	v1 := v0 - mu*vn
	return t1 + v1/(mu*gBall), v0*t1 + v1*v1/(2*mu*gBall)
}

// TestCLSStickNotEarly: the slip–stick transition of the sliding block
// lands where the closed form (blockStop) puts it, also when it falls
// shortly after an element boundary (steps of 0.1 s): μ = 0.6 stops at
// t_s = 0.509684 (9.7 ms after the step boundary 0.5), μ = 0.1 at
// 3.058104 (8.1 ms after 3.05). Without the element's start in the
// cross complementarity of the tangential forces (crossTangent) an
// element that starts sliding could stick at all its stage points: the
// stop at 0.5 with x = 1.36425 instead of 1.364526 (v_x = 0.057 at the
// start of the element [0.5, 0.55]), and 3.05 instead of 3.0581. Every
// boundary after the stop is checked at rest at x_s, and every boundary
// before it (after the landing) with v_x > 0. Tolerance 1e-9 in t_s and
// x_s (measured: 2.5e-10 and 2e-13 in t_s, 2e-15 in x_s; the stop time
// misses by ~v_x/(μg) of a tangential velocity of 5e-10 that a normal
// impulse of 2e-9 at the boundary takes out).
func TestCLSStickNotEarly(t *testing.T) {
	for _, c := range []struct {
		mu   float64
		nsim int
	}{{0.6, 15}, {0.1, 34}} {
		if testing.Short() && c.mu != 0.6 {
			continue // -short: the shorter run
		}
		const vx0 = 3.0
		ts, xs := blockStop(c.mu, vx0)
		r, err := SimulateCLS(context.Background(), slidingBlock(t, c.mu), []float64{0, 1, vx0, 0},
			SimOptions{TSim: 0.1 * float64(c.nsim), NSim: c.nsim})
		if err != nil {
			t.Fatalf("μ = %g: %v", c.mu, err)
		}
		stop := -1
		for i, x := range r.X {
			if r.T[i] > 0.46 && math.Abs(x[2]) < 1e-7 {
				stop = i
				break
			}
		}
		if stop < 0 {
			t.Fatalf("μ = %g: the block does not stop", c.mu)
		}
		if dt, dx := math.Abs(r.T[stop]-ts), math.Abs(r.X[stop][0]-xs); dt > 1e-9 || dx > 1e-9 {
			t.Errorf("μ = %g: stop at t = %.15g, x = %.15g; want %.15g, %.15g", c.mu, r.T[stop], r.X[stop][0], ts, xs)
		}
		for i, x := range r.X {
			switch {
			case i < stop && r.T[i] > 0.46 && !(x[2] > 0):
				t.Errorf("μ = %g, t = %.6f: v_x = %g before the stop", c.mu, r.T[i], x[2])
			case i > stop && (math.Abs(x[0]-xs) > 1e-9 || math.Abs(x[2]) > 1e-9):
				t.Errorf("μ = %g, t = %.6f: x = %v, want at rest at x = %.15g", c.mu, r.T[i], x, xs)
			}
		}
		t.Logf("μ = %g: stop at %.12f (error %.1e), x %.12f (error %.1e)", c.mu, r.T[stop], r.T[stop]-ts, r.X[stop][0], r.X[stop][0]-xs)
	}
}

// TestCLSGuessStops: the start guess (clsGuess) locates the stop of the
// sliding block (μ = 0.3, from v_x = 0.057 on the ground) at the closed
// form t_s = v_x/(μg) after the start, x_s = v_x²/(2μg) further, to
// 1e-9: RK4 is exact for the constant deceleration μg, and the friction
// direction is kept over a sub-step (clsGuess.slip). With the direction
// taken at every RK4 stage the sub-step past the stop reversed it and
// the guess slid on at 0.0006 m/s, never stopping, which put the
// element boundary of the step [1, 1.1] at 1.05 instead of 1.019368.
func TestCLSGuessStops(t *testing.T) {
	const mu, v0 = 0.3, 0.057
	cs, err := NewCLSSimulator(slidingBlock(t, mu), Options{}, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	g := cs.guess
	g.u, g.p = nil, nil
	xs, evs := g.run([]float64{0, 0, v0, 0}, 1, []float64{1.1}, 0.0025)
	ts, x := v0/(mu*gBall), v0*v0/(2*mu*gBall)
	if len(evs) != 1 || evs[0].lam != nil {
		t.Fatalf("events %+v, want one stop", evs)
	}
	if d := math.Abs(evs[0].t - 1 - ts); d > 1e-9 {
		t.Errorf("stop at %.15g, want %.15g", evs[0].t, 1+ts)
	}
	if e := xs[0]; math.Abs(e[0]-x) > 1e-9 || e[2] != 0 {
		t.Errorf("end state %v, want at rest at x = %.15g", e, x)
	}
}

// TestCLSStepErrorResidual: a failed FESD-J step's *StepError carries
// the homotopy's complementarity residual, the last relaxed NLP's status
// and its σ, the values of the step's record (the inner NLPs limited to
// 3 iterations, so that the homotopy ends NLPFailure), and its message
// names that residual.
func TestCLSStepErrorResidual(t *testing.T) {
	o := Options{Inner: failingInner{&mpcc.NLPSolver{Settings: mpcc.DefaultNLPSettings()}}}
	o.MPCC.Finish = mpcc.NoCertificate
	r, err := SimulateCLS(context.Background(), bouncingBall(t, 0.9), []float64{1, 0}, SimOptions{TSim: 0.5, NSim: 1, Options: o})
	var se *StepError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want a *StepError", err)
	}
	if r == nil || len(r.Steps) == 0 {
		t.Fatalf("result %+v, want the failed step's record", r)
	}
	rec := r.Steps[len(r.Steps)-1]
	if rec.Status == mpcc.Solved || se.Status != rec.Status || len(rec.Homotopy) == 0 {
		t.Fatalf("record status %v, error status %v, %d relaxed NLPs", rec.Status, se.Status, len(rec.Homotopy))
	}
	last := rec.Homotopy[len(rec.Homotopy)-1]
	if se.CompResidual != rec.CompResidual || se.NLPStatus != last.Status || se.Sigma != last.Sigma {
		t.Errorf("error residual %g, NLP %v, σ %g; record %g, %v, %g", se.CompResidual, se.NLPStatus, se.Sigma, rec.CompResidual, last.Status, last.Sigma)
	}
	if rec.CompResidual == 0 {
		t.Errorf("record residual 0: the check is void")
	}
	if want := fmt.Sprintf("complementarity residual %.3g", rec.CompResidual); !strings.Contains(err.Error(), want) {
		t.Errorf("message %q, want %q", err, want)
	}
	t.Logf("%v", err)
}

// TestCLSNoShiftMPC: OCPSolver.Shift and RunMPC refuse an OCP on a CLS
// with ErrStructure and a message that names the CLS (before: "stages of
// different sizes" and "nil model"), and the unshifted result they point
// to, Start{Warm: r}, solves the same OCP again (not under -short: the
// warm solve takes 0.5 s, four times the cold one).
func TestCLSNoShiftMPC(t *testing.T) {
	c := actuatedBall(t, 0.5)
	p := &OCP{CLS: c, X0: []float64{1, 0}, N: 4, T: 1.2, NFE: []int{3}, Lagrange: c.Body.U[0].Mul(c.Body.U[0]),
		Terminal: []Constraint{{G: ad.Vec{c.Body.Q[0]}, L: []float64{0.8}, U: []float64{0.8}}}}
	s, err := NewOCPSolver(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Solve(context.Background(), Start{UInit: [][]float64{{0}, {0}, {10}, {10}}})
	if err != nil || r.Status != mpcc.Solved {
		t.Fatalf("solve: %v, %v", err, r.Status)
	}
	if _, err := s.Shift(r); !errors.Is(err, ErrStructure) || !strings.Contains(err.Error(), "OCP.CLS") {
		t.Errorf("Shift: %v, want ErrStructure naming OCP.CLS", err)
	}
	if _, err := RunMPC(context.Background(), s, []float64{1, 0}, Start{}, MPCSettings{Steps: 2}); !errors.Is(err, ErrStructure) || !strings.Contains(err.Error(), "OCP.CLS") {
		t.Errorf("RunMPC: %v, want ErrStructure naming OCP.CLS", err)
	}
	if testing.Short() {
		return // -short: the refusals only
	}
	r2, err := s.Solve(context.Background(), Start{Warm: r})
	if err != nil || r2.Status != mpcc.Solved {
		t.Errorf("solve from Start{Warm: r}: %v, %v", err, r2.Status)
	}
}

// zenoSpan solves the step [t0, t0 + 0.1/2^depth] of the ball (e) from
// x0 with the simulator of 0.1 s steps halved depth times, as
// SimulateCLS's span near the Zeno point (the guess's rest time that of
// the 0.1 s steps, 0.05 s; a failed step tried again as two halves), and
// returns the steps with the closed form of the impact inside: its time
// t_i (free fall from x0), the velocity v⁻ before it and Newton's
// v⁺ = −e v⁻.
// checkOneImpact checks the steps of zenoSpan over [t0, t0 + 0.1/32]: one
// impact, at ti with v⁺ = vp, and the flight after it to the end (z and v
// of the free fall from the impact), to 2e-6 s, 1e-5 m/s and 1e-7 m.
func checkOneImpact(t *testing.T, sts []*CLSStep, t0, ti, vp float64) {
	t.Helper()
	var imp []float64 // time and v⁺ of the impacts
	for _, st := range sts {
		for n := range st.XStart {
			if st.Impulse[n][0] > ImpactTol {
				imp = append(imp, st.T[n], st.XStart[n][1])
			}
		}
	}
	tau := t0 + 0.1/32 - ti
	zT, vT := vp*tau-gBall*tau*tau/2, vp-gBall*tau
	last := sts[len(sts)-1]
	x := last.X[len(last.X)-1]
	if len(imp) != 2 || math.Abs(imp[0]-ti) > 2e-6 || math.Abs(imp[1]-vp) > 1e-5 ||
		math.Abs(x[0]-zT) > 1e-7 || math.Abs(x[1]-vT) > 1e-5 {
		t.Errorf("impacts (t, v⁺) %v, end %v; want one at %.12f with v⁺ = %.12g, the end (%.12g, %.12g)", imp, x, ti, vp, zT, vT)
	}
	if len(imp) == 2 {
		t.Logf("%d steps; impact at %.12f (error %.1e), end error %.1e, %.1e", len(sts), imp[0], imp[0]-ti, x[0]-zT, x[1]-vT)
	}
}

func zenoSpan(t *testing.T, e float64, depth int, t0 float64, x0 []float64) (sts []*CLSStep, err error, ti, vm, vp float64) {
	t.Helper()
	cs, err := NewCLSSimulator(bouncingBall(t, e), Options{}, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < depth; i++ {
		if cs, err = cs.half(); err != nil {
			t.Fatal(err)
		}
	}
	z, v := x0[0], x0[1]
	tau := (v + math.Sqrt(v*v+2*gBall*z)) / gBall
	ti, vm = t0+tau, v-gBall*tau
	sts, err = cs.span(context.Background(), t0, x0, nil, nil)
	return sts, err, ti, vm, -e * vm
}

// TestCLSZenoRestStep: near the Zeno point the guess rests the ball after
// an impact (what is left of the sequence is shorter than its rest time)
// and the NLP takes the solution in which the contact forces stop it
// within the element after the impact. The ball with e = 0.92 from
// z = 1.387e-5 m, v = 0.0106 m/s at 10.7875 s (the state of SimulateCLS
// over 12 s in 0.1 s steps there; t* = 10.8366) on the step
// [10.7875, 10.8]: the impact at the closed-form time (free fall) with
// Newton's v⁺ = −e v⁻ and the impulse (1 + e)|v⁻|, then at rest at the
// step's end (z, v within 1e-8). Tolerance 1e-7 on the impact: the step
// keeps its homotopy point (σ = 1e-9; measured 6e-9 in time, 1.1e-8 in
// v⁺), as the late impacts of TestCLSBallZeno. From a start with the
// resting ball's stage values and Newton's v⁺ (before restStages) the
// homotopy left the impact for a boundary 1.8e-7 m above the ground
// without an impulse and ended Infeasible, its halves too.
func TestCLSZenoRestStep(t *testing.T) {
	const e = 0.92
	sts, err, ti, vm, vp := zenoSpan(t, e, 3, 10.7875, []float64{1.3866248210328373e-05, 0.010617151851864216})
	if err != nil {
		t.Fatal(err)
	}
	if len(sts) != 1 {
		t.Fatalf("%d steps, want one", len(sts))
	}
	st := sts[0]
	if len(st.T) != 3 || math.Abs(st.T[1]-ti) > 1e-7 || math.Abs(st.X[1][1]-vm) > 1e-7 ||
		math.Abs(st.XStart[1][1]-vp) > 1e-7 || math.Abs(st.Impulse[1][0]-(vp-vm)) > 1e-7 {
		t.Errorf("boundaries %v, states %v, after %v, impulses %v; want the impact at %.12f with v⁻ = %.12g, v⁺ = %.12g", st.T, st.X, st.XStart, st.Impulse, ti, vm, vp)
	}
	if x := st.X[len(st.X)-1]; math.Abs(x[0]) > 1e-8 || math.Abs(x[1]) > 1e-8 {
		t.Errorf("end %v, want at rest", x)
	}
	t.Logf("impact at %.12f (error %.1e), v⁺ error %.1e", st.T[1], st.T[1]-ti, st.XStart[1][1]-vp)
}

// TestCLSZenoNoRestLate: the guess rests the ball after an impact only if
// the step has time left for the contact forces to stop it within an
// element, κ v⁺/g with κ = max (A⁻¹1)_m (2 for Radau IIA with two stages:
// the time of the next flight); otherwise the ball flies on. The ball
// with e = 0.91 from z = 2.296e-5 m, v = −0.00755 m/s at 9.534375 s (the
// state of SimulateCLS over 12 s there; t* = 9.5823) on the step
// [9.534375, 9.5375]: the impact 1.6 ms before the step's end, where
// stopping the ball takes 4.2 ms. The step fails from CLSSigma0 and is
// solved by the second homotopy from clsRetrySigma0. Closed form: the impact at the free-fall time with Newton's v⁺, then
// the flight z = v⁺τ − gτ²/2, v = v⁺ − gτ to the end. Tolerances those
// of the late impacts of TestCLSBallZeno (the halves keep their
// homotopy points): 2e-6 in time, 1e-5 in velocity, 1e-7 in z
// (measured: 1.8e-7, 3.4e-6, 2.4e-9). Before the second homotopy and
// the stage-end rule for resting (TestCLSGuessNoRestLate) the step failed,
// its halves too, and SimulateCLS with it.
func TestCLSZenoNoRestLate(t *testing.T) {
	const e, t0, depth = 0.91, 9.534375, 5
	sts, err, ti, _, vp := zenoSpan(t, e, depth, t0, []float64{2.295723092922107e-05, -0.007552301896460758})
	if err != nil {
		t.Fatal(err)
	}
	checkOneImpact(t, sts, t0, ti, vp)
}

// TestCLSZenoRestitutions: the ball from rest at height 1 in 0.1 s steps
// to t* + 0.5 s comes to rest at the Zeno point for e = 0.91…0.97
// (e = 0.92 under -short; all: 12 s). Closed form: t* = √(2/g)(1 + e)/(1 − e).
// Checked: no error, every reported impact at its closed-form time to
// 1e-5 s and with Newton's v⁺ = −e v⁻ to 1e-9 m/s (the late impacts come
// from steps that keep their homotopy point; measured up to 1.6e-6 s and
// 6e-13 m/s; a spurious impulse at an open gap, v⁺ ≈ v⁻ < 0, as the
// impacts 113 and 116 of e = 0.95 over 18 s before clsImpactGap, fails
// it),
// the last impact before t*, z ≥ −1e-8 throughout,
// and the ball at rest (|z|, |v| ≤ 1e-8) on every element boundary from
// at most one step (0.1 s) after t* on (measured: from 0–0.05 s
// before t*; e = 0.93 and 0.94 from the end of the step in which t*
// lies, 0.05 and 0.001 s after it; a landing after the last impact may
// come without an impulse, stopped by the contact forces within the
// element). Before the
// guess's rested stage values (restStages), the stage-end rule for
// resting (within), the second homotopy of a failed step
// (clsRetrySigma0) and the impulse fixed at zero at an open step start
// (openStart) e = 0.91 and 0.92 failed 0.05 s before t* and
// e = 0.93…0.97 0.07–0.15 s before it.
func TestCLSZenoRestitutions(t *testing.T) {
	es := []float64{0.91, 0.92, 0.93, 0.94, 0.95, 0.96, 0.97}
	if testing.Short() {
		es = []float64{0.92}
	}
	for _, e := range es {
		tStar := math.Sqrt(2/gBall) * (1 + e) / (1 - e)
		ns := int(math.Ceil((tStar + 0.5) / 0.1))
		r, err := SimulateCLS(context.Background(), bouncingBall(t, e), []float64{1, 0}, SimOptions{TSim: 0.1 * float64(ns), NSim: ns})
		if err != nil {
			t.Errorf("e = %g: %v", e, err)
			continue
		}
		ims := r.Impacts()
		tK := ims[len(ims)-1].Time
		// impact k at t_1 + Σ_{j<k} 2e^j t_1 with Newton's v⁺ = −e v⁻
		t1, tk, worstT, worstV := math.Sqrt(2/gBall), 0.0, 0.0, 0.0
		for k, im := range ims {
			if k == 0 {
				tk = t1
			} else {
				tk += 2 * math.Pow(e, float64(k)) * t1
			}
			worstT = math.Max(worstT, math.Abs(im.Time-tk))
			worstV = math.Max(worstV, math.Abs(im.VnAfter+e*im.VnBefore))
		}
		if worstT > 1e-5 || worstV > 1e-9 {
			t.Errorf("e = %g: impacts off the closed form by %.1e s, Newton's law by %.1e m/s", e, worstT, worstV)
		}
		if tK >= tStar {
			t.Errorf("e = %g: last impact at %.6f, after t* = %.6f", e, tK, tStar)
		}
		// rest: the first boundary from which the ball stays at rest
		rest := -1.0
		for i := len(r.X) - 1; i >= 0; i-- {
			if x := r.X[i]; math.Abs(x[0]) > 1e-8 || math.Abs(x[1]) > 1e-8 {
				break
			}
			rest = r.T[i]
		}
		for i, x := range r.X {
			if x[0] < -1e-8 {
				t.Errorf("e = %g, t = %.6f: z = %g below the ground", e, r.T[i], x[0])
				break
			}
		}
		if rest < 0 || rest > tStar+0.1 {
			t.Errorf("e = %g: at rest from %.6f, want by t* + 0.1 = %.6f", e, rest, tStar+0.1)
		}
		t.Logf("e = %g: t* = %.6f, %d impacts (errors %.1e s, %.1e m/s), the last at %.6f, at rest from %.6f", e, tStar, len(ims), worstT, worstV, tK, rest)
	}
}

// TestCLSGuessNoRestLate: the start guess does not rest the ball after an
// impact when the stage ends before the contact forces could stop it
// within an element (κ v⁺/g, κ = 2 for Radau IIA with two stages): the
// ball of TestCLSZenoNoRestLate (e = 0.91, the impact 1.6 ms before the
// end of the 3.125 ms step, stopping it takes 4.2 ms) flies on after the
// impact. Closed form: the free fall to the impact, Newton's v⁺, the
// flight to the end, to 1e-9 (RK4 is exact for the free fall). Before
// (clsGuess.within) the guess ended at rest on the ground.
func TestCLSGuessNoRestLate(t *testing.T) {
	const e, t0, T = 0.91, 9.534375, 0.1 / 32
	cs, err := NewCLSSimulator(bouncingBall(t, e), Options{}, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	z, v := 2.295723092922107e-05, -0.007552301896460758
	g := cs.guess
	g.u, g.p = nil, nil
	g.within(cs.o.tab, t0+T)
	xs, imps := g.run([]float64{z, v}, t0, []float64{t0 + T}, T/40)
	tau := (v + math.Sqrt(v*v+2*gBall*z)) / gBall
	vp := -e * (v - gBall*tau)
	rem := T - tau
	zT, vT := vp*rem-gBall*rem*rem/2, vp-gBall*rem
	if len(imps) != 1 || math.Abs(imps[0].t-t0-tau) > 1e-9 || imps[0].extra != nil ||
		math.Abs(xs[0][0]-zT) > 1e-9 || math.Abs(xs[0][1]-vT) > 1e-9 {
		t.Errorf("impacts %+v, end %v; want one at %.12f, not rested, the end (%.12g, %.12g)", imps, xs[0], t0+tau, zT, vT)
	}
}

// TestCLSOpenStartNoImpulse: a step that starts with the gap open has no
// impulse at its start (openStart). The ball with e = 0.97 from
// z = 1.477e-5 m, v = −0.00325 m/s at 29.534375 s (the state of
// SimulateCLS there; t* = 29.650) on the step [29.534375, 29.5375]: the
// relaxed NLPs reversed the ball at the start with an impulse of
// 0.0064 N s at the open gap and the step, its retry and its halves
// ended at SigmaLimit. Closed form: the free fall to the impact, Newton's
// v⁺, the flight to the end (the next impact after it). Tolerances those
// of the late impacts of TestCLSBallZeno: 2e-6 s, 1e-5 m/s, 1e-7 m.
func TestCLSOpenStartNoImpulse(t *testing.T) {
	const e, t0, depth = 0.97, 29.534375, 5
	sts, err, ti, _, vp := zenoSpan(t, e, depth, t0, []float64{1.4774819020005832e-05, -0.0032455610184006414})
	if err != nil {
		t.Fatal(err)
	}
	if sts[0].Impulse[0][0] != 0 {
		t.Errorf("impulse %g at the open start", sts[0].Impulse[0][0])
	}
	checkOneImpact(t, sts, t0, ti, vp)
}
