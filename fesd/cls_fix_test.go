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
// to, Start{Warm: r}, solves the same OCP again.
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
	r2, err := s.Solve(context.Background(), Start{Warm: r})
	if err != nil || r2.Status != mpcc.Solved {
		t.Errorf("solve from Start{Warm: r}: %v, %v", err, r2.Status)
	}
}
