package main

import "math"

// The reference solution is an independent event-driven integration of the
// same equations (not FESD): classical RK4 with a fixed step on each smooth
// phase, with the events located by bisection on the length of the last
// step. A mass j is either moving (friction −0.3·sgn v_j, event v_j = 0) or
// stuck (v_j ≡ 0, q_j constant, the friction force balances the rest while
// |a_j| ≤ 0.3, event |a_j| = 0.3, where a_j is the acceleration of mass j
// without friction). At v_j = 0 a moving mass sticks when |a_j| ≤ 0.3 and
// otherwise moves on in the direction of a_j (crossing). This is the
// Filippov solution of the system (the sliding mode of ψ_j = v_j).

// refSolution is the reference trajectory at the sample times and the
// event times.
type refSolution struct {
	T, Switch []float64
	SwitchPsi []int
	X         [][]float64
}

// accel returns the accelerations of the three masses without friction.
func accel(x []float64, t float64) [3]float64 {
	q1, q2, q3, v1, v2, v3 := x[0], x[1], x[2], x[3], x[4], x[5]
	return [3]float64{
		-q1 + (q2 - q1) - v1,
		(q1 - q2) + (q3 - q2) - v2,
		(q2 - q3) - v3 + forcing*math.Cos(math.Pi*t),
	}
}

// refRHS is the right-hand side in the mode given by dir: dir[j] = ±1 for
// a mass moving with sgn v_j = dir[j], 0 for a stuck mass.
func refRHS(x []float64, t float64, dir [3]int, dx []float64) {
	a := accel(x, t)
	for j := range 3 {
		if dir[j] == 0 {
			dx[j], dx[3+j] = 0, 0
			continue
		}
		dx[j] = x[3+j]
		dx[3+j] = a[j] - friction*float64(dir[j])
	}
}

// rk4 advances x from t by h in mode dir.
func rk4(x []float64, t, h float64, dir [3]int) []float64 {
	var k1, k2, k3, k4, y [6]float64
	refRHS(x, t, dir, k1[:])
	for i := range y {
		y[i] = x[i] + h/2*k1[i]
	}
	refRHS(y[:], t+h/2, dir, k2[:])
	for i := range y {
		y[i] = x[i] + h/2*k2[i]
	}
	refRHS(y[:], t+h/2, dir, k3[:])
	for i := range y {
		y[i] = x[i] + h*k3[i]
	}
	refRHS(y[:], t+h, dir, k4[:])
	out := make([]float64, 6)
	for i := range out {
		out[i] = x[i] + h/6*(k1[i]+2*k2[i]+2*k3[i]+k4[i])
	}
	return out
}

// events returns the event functions of mode dir at (x, t): v_j for a
// moving mass, 0.3 − |a_j| for a stuck one (positive while it sticks).
func events(x []float64, t float64, dir [3]int) [3]float64 {
	a := accel(x, t)
	var e [3]float64
	for j := range 3 {
		if dir[j] == 0 {
			e[j] = friction - math.Abs(a[j])
		} else {
			e[j] = x[3+j]
		}
	}
	return e
}

// reference integrates from x0 on [0, tf] with RK4 steps of at most h and
// returns the states at t = 0, dt, 2dt, … and the event times.
func reference(x0 []float64, tf, dt, h float64) refSolution {
	var dir [3]int
	for j := range 3 {
		dir[j] = sign(x0[3+j])
	}
	x := append([]float64{}, x0...)
	var r refSolution
	t := 0.0
	nSamples := int(math.Round(tf/dt)) + 1
	next := 0
	for next < nSamples {
		ts := float64(next) * dt
		if math.Abs(t-ts) < 1e-13 {
			r.T = append(r.T, ts)
			r.X = append(r.X, append([]float64{}, x...))
			next++
			continue
		}
		step := math.Min(h, ts-t) // land exactly on the next sample
		y := rk4(x, t, step, dir)
		e0, e1 := events(x, t, dir), events(y, t+step, dir)
		hit := -1
		for j := range 3 {
			if e0[j] != 0 && e0[j]*e1[j] <= 0 {
				hit = j
			}
		}
		if hit < 0 {
			x, t = y, t+step
			continue
		}
		// Bisection on the step length for the first event in the step.
		lo, hi := 0.0, step
		for range 200 {
			mid := (lo + hi) / 2
			ym := rk4(x, t, mid, dir)
			em := events(ym, t+mid, dir)
			crossed := false
			for j := range 3 {
				if e0[j] != 0 && e0[j]*em[j] <= 0 {
					crossed = true
				}
			}
			if crossed {
				hi = mid
			} else {
				lo = mid
			}
			if hi-lo < 1e-15 {
				break
			}
		}
		x, t = rk4(x, t, hi, dir), t+hi
		eh := events(x, t, dir)
		a := accel(x, t)
		for j := range 3 {
			if !(e0[j] != 0 && e0[j]*eh[j] <= 0) {
				continue
			}
			r.Switch = append(r.Switch, t)
			r.SwitchPsi = append(r.SwitchPsi, j)
			if dir[j] != 0 { // v_j reached 0: stick or cross
				x[3+j] = 0
				if math.Abs(a[j]) <= friction {
					dir[j] = 0
				} else {
					dir[j] = sign(a[j])
				}
			} else { // stuck mass leaves in the direction of a_j
				dir[j] = sign(a[j])
			}
		}
	}
	return r
}

func sign(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
