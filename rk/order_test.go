package rk

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The convergence test problem: the forced nonlinear 2-D system
//
//	y₁' = y₂ − y₁² + g₁(t),   y₂' = −y₁ − y₁·y₂ + g₂(t),
//
// with g chosen so that y(t) = (cos ωt, 1 + sin(ωt)/2) (method of manufactured
// solutions; the reference is therefore exact). ω = 3 on [0, 2].
const orderOmega = 3

func orderExact(t float64) [2]float64 {
	return [2]float64{math.Cos(orderOmega * t), 1 + math.Sin(orderOmega*t)/2}
}

func orderRHS(t float64, y, f []float64, jac *mat.Dense) {
	w := float64(orderOmega)
	ye := orderExact(t)
	g1 := -w*math.Sin(w*t) - (ye[1] - ye[0]*ye[0])
	g2 := w/2*math.Cos(w*t) - (-ye[0] - ye[0]*ye[1])
	f[0] = y[1] - y[0]*y[0] + g1
	f[1] = -y[0] - y[0]*y[1] + g2
	if jac != nil {
		jac.Set(0, 0, -2*y[0])
		jac.Set(0, 1, 1)
		jac.Set(1, 0, -1-y[1])
		jac.Set(1, 1, -y[0])
	}
}

// irkStep solves K_i = f(t0 + c_i h, y + h Σ_j a_ij K_j) by Newton's method
// (run to round-off) and returns y + h Σ_i b_i K_i. Explicit tableaus go
// through the same code (Newton then converges in one or two iterations).
func irkStep(tab *Tableau, t0, h float64, y []float64) ([]float64, error) {
	const n = 2
	s := tab.Stages()
	K := make([]float64, s*n)
	f := make([]float64, n)
	orderRHS(t0, y, f, nil)
	for i := 0; i < s; i++ {
		copy(K[i*n:], f)
	}
	Y := make([]float64, n)
	jac := mat.NewDense(n, n, nil)
	R := mat.NewVecDense(s*n, nil)
	J := mat.NewDense(s*n, s*n, nil)
	var dx mat.VecDense
	prev := math.Inf(1)
	for it := 0; it < 100; it++ {
		for i := 0; i < s; i++ {
			for a := 0; a < n; a++ {
				Y[a] = y[a]
				for j := 0; j < s; j++ {
					Y[a] += h * tab.A[i][j] * K[j*n+a]
				}
			}
			orderRHS(t0+tab.C[i]*h, Y, f, jac)
			for a := 0; a < n; a++ {
				R.SetVec(i*n+a, K[i*n+a]-f[a])
				for j := 0; j < s; j++ {
					for b := 0; b < n; b++ {
						v := -h * tab.A[i][j] * jac.At(a, b)
						if i == j && a == b {
							v++
						}
						J.Set(i*n+a, j*n+b, v)
					}
				}
			}
		}
		if err := dx.SolveVec(J, R); err != nil {
			return nil, err
		}
		var norm, knorm float64
		for k := range K {
			K[k] -= dx.AtVec(k)
			norm = math.Max(norm, math.Abs(dx.AtVec(k)))
			knorm = math.Max(knorm, math.Abs(K[k]))
		}
		if norm <= 1e-15*(1+knorm) || (norm <= 1e-12*(1+knorm) && norm > prev/2) {
			out := append([]float64(nil), y...)
			for i := 0; i < s; i++ {
				for a := 0; a < n; a++ {
					out[a] += h * tab.B[i] * K[i*n+a]
				}
			}
			return out, nil
		}
		prev = norm
	}
	return nil, fmt.Errorf("%s: Newton did not converge at t=%g, h=%g", tab.Name, t0, h)
}

// trajectoryError integrates over [0, T] with N steps and returns the largest
// error at the step end points (the maximum avoids accidental zeros of the
// error at a single time).
func trajectoryError(tab *Tableau, N int, T float64) (float64, error) {
	h := T / float64(N)
	y0 := orderExact(0)
	y := y0[:]
	var e float64
	for k := 0; k < N; k++ {
		var err error
		if y, err = irkStep(tab, float64(k)*h, h, y); err != nil {
			return 0, err
		}
		ye := orderExact(float64(k+1) * h)
		e = math.Max(e, math.Max(math.Abs(y[0]-ye[0]), math.Abs(y[1]-ye[1])))
	}
	if math.IsNaN(e) {
		e = math.Inf(1)
	}
	return e, nil
}

// observedOrder halves h (N = 1, 2, 4, … up to 1024) and returns log₂ of the
// error ratio of the last pair above the floor. Errors above 0.1 and failures
// before the first recorded error are pre-asymptotic and skipped.
func observedOrder(tab *Tableau, T, floor float64) (float64, []float64, error) {
	var errs []float64
	for N := 1; N <= 1024; N *= 2 {
		e, err := trajectoryError(tab, N, T)
		if len(errs) == 0 && (err != nil || !(e <= 0.1)) {
			continue
		}
		if err != nil {
			return 0, errs, err
		}
		if e < floor {
			break
		}
		errs = append(errs, e)
	}
	k := len(errs)
	if k < 2 {
		return math.NaN(), errs, nil
	}
	return math.Log2(errs[k-2] / errs[k-1]), errs, nil
}

// TestObservedOrder measures the order of every family with s = 1…5 (and the
// explicit methods) on the manufactured-solution problem and requires it to
// equal Order within ±0.3. The floor 3e-14 is about 100× the accumulated
// round-off of ≤ 1024 steps; the s = 5 methods only become asymptotic for
// errors near 1e-12 (see examples/rkorder for the full error sequences).
func TestObservedOrder(t *testing.T) {
	const (
		T     = 2.0
		floor = 3e-14
		tol   = 0.3 // |observed − Order|
	)
	tabs := []*Tableau{ExplicitEuler(), Heun(), RK4()}
	for _, f := range ImplicitFamilies() {
		for s := f.MinStages(); s <= 5; s++ {
			tab, err := New(f, s)
			if err != nil {
				t.Fatal(err)
			}
			tabs = append(tabs, tab)
		}
	}
	for _, tab := range tabs {
		p, errs, err := observedOrder(tab, T, floor)
		if err != nil {
			t.Errorf("%s: %v", tab.Name, err)
			continue
		}
		t.Logf("%-22s order %2d observed %6.2f (%d errors, last %.2g)", tab.Name, tab.Order, p, len(errs), errs[len(errs)-1])
		if !(math.Abs(p-float64(tab.Order)) <= tol) {
			t.Errorf("%s: observed order %.2f, claimed %d (errors %.3g)", tab.Name, p, tab.Order, errs)
		}
	}
}
