package fesd_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// boundarySystem is a piecewise-constant Filippov system with one switching
// function and a closed-form solution through one switch: from x₀ the
// field fm reaches ψ = 0 at t_s(x₀), after which the field fp (a crossing)
// or the sliding field (an entry into sliding) holds.
type boundarySystem struct {
	name string
	// gradPsi is ∇ψ of the affine ψ(x) = gradPsi·x − c; fm and fp are the
	// fields on ψ < 0 and ψ > 0 (the modes are ordered ψ > 0, ψ < 0 in
	// the sign matrix).
	gradPsi []float64
	c       float64
	fm, fp  []float64
	// start returns x₀ whose flow under fm (or fp when fromAbove) reaches
	// ψ = 0 at time ts.
	fromAbove bool
	base      []float64
}

// field returns the field of the region the flow starts in and the one
// after the switch: the other region's for a crossing, the Filippov
// convex combination on ψ = 0 when both fields point into the surface.
func (s boundarySystem) fields() (before, after []float64, sliding bool) {
	dot := func(a, b []float64) float64 {
		v := 0.0
		for i := range a {
			v += a[i] * b[i]
		}
		return v
	}
	before, other := s.fm, s.fp
	if s.fromAbove {
		before, other = s.fp, s.fm
	}
	gb, go_ := dot(s.gradPsi, before), dot(s.gradPsi, other)
	if gb*go_ >= 0 { // the other field carries on across: a crossing
		return before, other, false
	}
	// sliding: (1 − w)·before + w·other with ∇ψ·f = 0
	w := gb / (gb - go_)
	after = make([]float64, len(before))
	for i := range after {
		after[i] = (1-w)*before[i] + w*other[i]
	}
	return before, after, true
}

// closedForm returns x₀ (on the line base − t_s·f_b through the surface
// point base, with t_s the time to the surface), x(T) = base + (T − t_s)f_a
// and ∂x(T)/∂x₀ = I + (f_a − f_b)·∇ψᵀ/(∇ψ·f_b) (from ∂t_s/∂x₀ =
// −∇ψᵀ/(∇ψ·f_b); both fields are constant), with f_b the field before the
// switch and f_a the one after it.
func (s boundarySystem) closedForm(ts, T float64) (x0, xT []float64, D [][]float64) {
	fb, fa, _ := s.fields()
	n := len(fb)
	dot := 0.0
	for i := range fb {
		dot += s.gradPsi[i] * fb[i]
	}
	// base is on the surface; go back ts along fb
	x0 = make([]float64, n)
	xT = make([]float64, n)
	for i := range x0 {
		x0[i] = s.base[i] - ts*fb[i]
		xT[i] = s.base[i] + (T-ts)*fa[i]
	}
	D = make([][]float64, n)
	for i := range D {
		D[i] = make([]float64, n)
		D[i][i] = 1
		for j := range D[i] {
			D[i][j] += (fa[i] - fb[i]) * s.gradPsi[j] / dot
		}
	}
	return x0, xT, D
}

func (s boundarySystem) model() *dcs.Model {
	g := ad.NewGraph()
	n := len(s.fm)
	x := g.SymVec("x", n)
	m := dcs.NewModel(g, x, nil, nil)
	psi := g.Const(-s.c)
	for i, v := range s.gradPsi {
		psi = psi.Add(x[i].Scale(v))
	}
	vec := func(f []float64) ad.Vec {
		out := make(ad.Vec, n)
		for i, v := range f {
			out[i] = g.Const(v)
		}
		return out
	}
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{psi}, S: [][]int{{1}, {-1}}, F: []ad.Vec{vec(s.fp), vec(s.fm)}})
	return m
}

// boundarySystems are the cases of TestSwitchAtStepBoundaries.
var boundarySystems = []boundarySystem{
	// ẋ = 1 below 0, 3 above: ∂x(T)/∂x₀ = 3
	{name: "crossing up", gradPsi: []float64{1}, fm: []float64{1}, fp: []float64{3}, base: []float64{0}},
	// ẋ = −2 above 0, −0.5 below: ∂x(T)/∂x₀ = 1/4
	{name: "crossing down", gradPsi: []float64{1}, fm: []float64{-0.5}, fp: []float64{-2}, fromAbove: true, base: []float64{0}},
	// x₁ reaches 0 with (1, 1) and slides with (0, 2) (the fields (1, 1)
	// and (−1, 3) in equal parts): ∂x(T)/∂x₀ = [[0, 0], [1, 1]]
	{name: "entering sliding", gradPsi: []float64{1, 0}, fm: []float64{1, 1}, fp: []float64{-1, 3}, base: []float64{0, 0.5}},
	// the slanted line x₁ + x₂ = 1 crossed from below with (1, 2) into
	// (2, −1): ∂x(T)/∂x₀ = [[4/3, 1/3], [−1, 0]]
	{name: "2-D surface", gradPsi: []float64{1, 1}, c: 1, fm: []float64{1, 2}, fp: []float64{2, -1}, base: []float64{0.25, 0.75}},
}

// boundaryOffsets are the switch positions relative to the step boundary
// t = 0.5 of four steps of length 0.25, in step lengths.
var boundaryOffsets = []float64{0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6, 1e-4, -1e-4, 1e-2, -1e-2}

// shortBoundaryOffsets are the offsets of boundaryOffsets that the
// step-boundary tests take under -short: on the boundary and on either
// side of it from 1e-12 to 1e-2 step lengths.
var shortBoundaryOffsets = []float64{0, 1e-12, -1e-9, 1e-6, -1e-4, 1e-2}

// crossingOffsets are further offsets for the crossings. An entry into
// sliding 1e-8 or 1e-7 step lengths before a step boundary with N_FE = 1
// still fails: the element of that length on the sliding surface (in the
// refined step of two elements) makes a branch NLP that the interior point
// does not solve, and the homotopy's point has no sensitivity (Stewart:
// a wrong ∂x(T)/∂x₀ at −1e-8, ErrSensitivity at −1e-7). Without the
// prediction 5 of those 24 sliding cases fail, all before the boundary:
// Stewart N_FE = 1 at −1e-8 and Stewart N_FE = 3, Step N_FE = 1 at −1e-7
// with ErrSensitivity (the finish's branch fails, so the refusal of
// switchNearStepBoundary holds), Stewart N_FE = 1 and Step N_FE = 2 at
// −1e-7 with a failed step (the homotopy, its finish and the rescue all
// fail).
var crossingOffsets = []float64{1e-8, -1e-8, 1e-7, -1e-7}

// TestSwitchAtStepBoundaries is the property test of switches on and near
// a boundary between two simulation steps: for every system of
// boundarySystems, with its switch on the boundary t = 0.5 of four steps of
// 0.25 and at the offsets boundaryOffsets (crossingOffsets too for the
// crossings) from it, in both formulations
// and with N_FE = 1, 2, 3 from the default settings otherwise (prediction
// on), the simulation succeeds, reports one switch of the right kind at
// the closed-form time (1e-8), and x(T) and ∂x(T)/∂x₀ match the closed form
// (closedForm: the fields are constant, so FESD's collocation is exact and
// the only errors are the solver's, 1e-9 on complementarity; tolerance
// 1e-8). Under -short N_FE = 2, shortBoundaryOffsets and one formulation
// per system (Stewart and Step in turn) only.
func TestSwitchAtStepBoundaries(t *testing.T) {
	const T, nsim, tol = 1.0, 4, 1e-8
	h := T / nsim
	for si, sys := range boundarySystems {
		_, _, sliding := sys.fields()
		wantKind := fesd.Crossing
		if sliding {
			wantKind = fesd.EnteringSliding
		}
		for fi, form := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
			if testing.Short() && (si+fi)%2 != 0 {
				continue
			}
			for nfe := 1; nfe <= 3; nfe++ {
				if testing.Short() && nfe != 2 {
					continue
				}
				offsets := boundaryOffsets
				if testing.Short() {
					offsets = shortBoundaryOffsets
				}
				if !sliding {
					offsets = append(offsets, crossingOffsets...)
				}
				for _, off := range offsets {
					name := fmt.Sprintf("%s/%v/NFE=%d/offset=%g", sys.name, form, nfe, off)
					ts := 2*h + off*h
					x0, xT, D := sys.closedForm(ts, T)
					r, err := fesd.Simulate(context.Background(), sys.model(), x0, fesd.SimOptions{
						TSim: T, NSim: nsim, Sensitivity: true,
						Options: fesd.Options{NFE: nfe, DCS: dcs.Options{Formulation: form}},
					})
					if !assert.NoError(t, err, name) {
						continue
					}
					if assert.Len(t, r.Switches, 1, name) {
						sw := r.Switches[0]
						assert.InDelta(t, ts, sw.Time, tol, "%s: switch time", name)
						assert.Equal(t, wantKind, sw.Kind, "%s: kind", name)
					}
					assert.InDeltaSlice(t, xT, r.Final(), tol, "%s: x(T)", name)
					require.NotNil(t, r.Sensitivity, name)
					for i := range D {
						assert.InDeltaSlice(t, D[i], r.Sensitivity.DX0[i], tol, "%s: row %d of ∂x(T)/∂x₀", name, i)
					}
				}
			}
		}
	}
}

// turbo is the turbo car of nosnoc's OCP tutorial as a simulation model:
// q̇ = v, v̇ = u below v = 10 and 3u above it.
func turbo() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	u := g.SymVec("u", 1)
	m := dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[1].AddConst(-10)},
		S:   [][]int{{1}, {-1}},
		F:   []ad.Vec{{x[1], u[0].Scale(3)}, {x[1], u[0]}},
	})
	return m
}

// turboClosedForm is the state at T from rest under the constant control
// u: v = u·t reaches 10 at t_s = 10/u (u > 0), after which v̇ = 3u.
func turboClosedForm(u, T float64) (q, v float64) {
	if u <= 0 || 10/u >= T {
		return u * T * T / 2, u * T
	}
	ts := 10 / u
	r := T - ts
	return u*ts*ts/2 + 10*r + 1.5*u*r*r, 10 + 3*u*r
}

// TestTurboCarConstantControls: the turbo car from rest under 51 constant
// controls u ∈ [−5, 5] over T = 4 in 8 steps; u = 5 reaches v = 10 exactly
// at t = 2, a step boundary, and u = 2.5 exactly at T. Every run succeeds
// with Simulate and with a Simulator driven step by step, Stewart and
// Step, with the prediction on (the default) and off (NoPredict: the
// homotopy and its finish), and q(T), v(T) match turboClosedForm to 1e-8
// (piecewise-linear v: the collocation is exact, the error is the
// solver's). Under -short u = −5 (no switch), 3 (the switch inside a
// step) and 5, two of them for each formulation and prediction setting
// (each u in two or three of the four).
func TestTurboCarConstantControls(t *testing.T) {
	const T, nsim, tol = 4.0, 8, 1e-8
	m := turbo()
	combo := 0
	for _, noPredict := range []bool{false, true} {
		for _, form := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
			shortDrop := []int{0, 40, 50}[combo%3]
			combo++
			o := fesd.Options{DCS: dcs.Options{Formulation: form}}
			sim, err := fesd.NewSimulator(m, o, T/nsim)
			require.NoError(t, err)
			sim.NoPredict = noPredict
			for i := 0; i <= 50; i++ {
				u := -5 + 0.2*float64(i)
				if testing.Short() && (i != 0 && i != 40 && i != 50 || i == shortDrop) {
					continue
				}
				q, v := turboClosedForm(u, T)
				name := fmt.Sprintf("%v u=%.1f NoPredict=%v", form, u, noPredict)
				r, err := fesd.Simulate(context.Background(), m, []float64{0, 0}, fesd.SimOptions{TSim: T, NSim: nsim, U: []float64{u}, Options: o, NoPredict: noPredict})
				if assert.NoError(t, err, "Simulate "+name) {
					assert.InDeltaSlice(t, []float64{q, v}, r.Final(), tol, "Simulate "+name)
				}
				sim.Reset()
				x := []float64{0, 0}
				for k := 0; k < nsim; k++ {
					sr, err := sim.Step(context.Background(), float64(k)*T/nsim, x, []float64{u}, nil)
					if !assert.NoError(t, err, "Simulator %s step %d", name, k) {
						break
					}
					x = sr.Final()
				}
				assert.InDeltaSlice(t, []float64{q, v}, x, tol, "Simulator "+name)
			}
		}
	}
}

// TestRelayLongAndStiffDecay: two systems that failed from the default
// settings while the event-driven prediction was the homotopy's start:
//   - the relay oscillator (relay) with steps of 0.5 over [0, 100] (a false
//     Infeasible at step 98): all 35 switches at the closed-form times
//     (2k − 1)√2 (relaySwitches) to 1e-7 — x₁ is piecewise quadratic,
//     which Radau IIA with n_s = 2 integrates exactly, so the error is the
//     solver's accumulated over 200 steps;
//   - stiff decay into a sliding mode, ẋ = −λ(x + 2) for x > 0 and
//     −λ(x − 2) for x < 0 from x₀ = 1, λ = 1e3, 1e4, 1e5, ten steps of 0.1
//     (the explicit prediction blew up to 1e84 and the solve started
//     there): x(t) = −2 + 3e^{−λt} reaches 0 at t_s = ln(1.5)/λ and slides
//     on x = 0, so x(1) = 0 (1e-8); the switch time to 2e-3·t_s — the
//     first element is [0, t_s] with λt_s = 0.41, where Radau IIA's error
//     of order 3 is measured 8.5e-4·t_s.
func TestRelayLongAndStiffDecay(t *testing.T) {
	r, err := fesd.Simulate(context.Background(), relay(), []float64{1, 0}, fesd.SimOptions{TSim: 100, NSim: 200})
	require.NoError(t, err)
	want := relaySwitches(100)
	require.Len(t, r.Switches, len(want))
	for i, s := range r.Switches {
		assert.InDelta(t, want[i], s.Time, 1e-7, "relay switch %d", i)
	}
	for _, lam := range []float64{1e3, 1e4, 1e5} {
		g := ad.NewGraph()
		x := g.SymVec("x", 1)
		m := dcs.NewModel(g, x, nil, nil)
		m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[0]}, S: [][]int{{1}, {-1}},
			F: []ad.Vec{{x[0].AddConst(2).Scale(-lam)}, {x[0].AddConst(-2).Scale(-lam)}}})
		r, err := fesd.Simulate(context.Background(), m, []float64{1}, fesd.SimOptions{TSim: 1, NSim: 10})
		if !assert.NoError(t, err, "λ = %g", lam) {
			continue
		}
		assert.InDelta(t, 0, r.Final()[0], 1e-8, "λ = %g: x(1)", lam)
		ts := math.Log(1.5) / lam
		if assert.Len(t, r.Switches, 1, "λ = %g", lam) {
			assert.Equal(t, fesd.EnteringSliding, r.Switches[0].Kind)
			assert.InDelta(t, ts, r.Switches[0].Time, 2e-3*ts, "λ = %g: switch time", lam)
		}
	}
}
