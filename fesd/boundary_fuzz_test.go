package fesd_test

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// FuzzSwitchNearStepBoundary draws a one-dimensional crossing ẋ = a below
// 0 and b above it (a, b ∈ [0.1, 10], both signs of the pair: upward or
// downward), a switch time at 10^−e step lengths (e ∈ [1, 12], or exactly
// on the boundary) before or after the boundary t = 0.5 of four steps of
// 0.25, a formulation and N_FE ∈ {1, 2, 3}, and checks from the default
// settings: success, one switch at the closed-form time, x(1) and
// ∂x(1)/∂x₀ = b/a (boundarySystem.closedForm). The tolerance is 1e-8 times
// max(1, b/a, a/b), the scale of the state's and the derivative's
// rounding. Run it with
//
//	go test ./fesd -run '^$' -fuzz FuzzSwitchNearStepBoundary -fuzztime 2m
func FuzzSwitchNearStepBoundary(f *testing.F) {
	addBoundarySeeds(f)
	f.Fuzz(func(t *testing.T, a, b float64, up bool, e uint8, after bool, nfe uint8, step bool) {
		checkBoundaryCrossing(t, a, b, up, e, after, nfe, step, false)
	})
}

// FuzzSwitchNearStepBoundaryNoPredict is FuzzSwitchNearStepBoundary with
// the prediction off (SimOptions.NoPredict: the homotopy and its finish,
// finish.go). Run it with
//
//	go test ./fesd -run '^$' -fuzz FuzzSwitchNearStepBoundaryNoPredict -fuzztime 2m
func FuzzSwitchNearStepBoundaryNoPredict(f *testing.F) {
	addBoundarySeeds(f)
	f.Fuzz(func(t *testing.T, a, b float64, up bool, e uint8, after bool, nfe uint8, step bool) {
		checkBoundaryCrossing(t, a, b, up, e, after, nfe, step, true)
	})
}

// addBoundarySeeds adds the seed inputs of the step-boundary fuzz targets.
func addBoundarySeeds(f *testing.F) {
	f.Add(1.0, 3.0, true, uint8(0), true, uint8(2), false)
	f.Add(2.0, 0.5, false, uint8(9), false, uint8(1), true)
	f.Add(0.1, 10.0, true, uint8(6), true, uint8(3), true)
	f.Add(10.0, 0.1, false, uint8(12), false, uint8(2), false)
}

// checkBoundaryCrossing simulates the crossing the fuzz targets draw and
// checks it against the closed form (see FuzzSwitchNearStepBoundary).
func checkBoundaryCrossing(t *testing.T, a, b float64, up bool, e uint8, after bool, nfe uint8, step, noPredict bool) {
	if !(a >= 0.1 && a <= 10 && b >= 0.1 && b <= 10) {
		t.Skip("fields outside [0.1, 10]")
	}
	off := 0.0
	if e%13 != 0 {
		off = math.Pow(10, -float64(e%13))
		if !after {
			off = -off
		}
	}
	sys := boundarySystem{gradPsi: []float64{1}, fm: []float64{a}, fp: []float64{b}, base: []float64{0}}
	if !up {
		sys = boundarySystem{gradPsi: []float64{1}, fm: []float64{-b}, fp: []float64{-a}, fromAbove: true, base: []float64{0}}
	}
	form := dcs.Stewart
	if step {
		form = dcs.Step
	}
	const T, nsim = 1.0, 4
	ts := 0.5 + off*T/nsim
	x0, xT, D := sys.closedForm(ts, T)
	r, err := fesd.Simulate(context.Background(), sys.model(), x0, fesd.SimOptions{
		TSim: T, NSim: nsim, Sensitivity: true, NoPredict: noPredict,
		Options: fesd.Options{NFE: int(nfe%3) + 1, DCS: dcs.Options{Formulation: form}},
	})
	if err != nil {
		t.Fatalf("a %g b %g up %v offset %g N_FE %d %v: %v", a, b, up, off, nfe%3+1, form, err)
	}
	tol := 1e-8 * math.Max(1, math.Max(b/a, a/b))
	if len(r.Switches) != 1 || math.Abs(r.Switches[0].Time-ts) > tol {
		t.Fatalf("a %g b %g up %v offset %g: switches %v, want one at %g", a, b, up, off, r.Switches, ts)
	}
	if d := math.Abs(r.Final()[0] - xT[0]); d > tol*math.Max(1, math.Abs(xT[0])) {
		t.Fatalf("a %g b %g up %v offset %g: x(T) = %g, want %g", a, b, up, off, r.Final()[0], xT[0])
	}
	if d := math.Abs(r.Sensitivity.DX0[0][0] - D[0][0]); d > tol*math.Max(1, D[0][0]) {
		t.Fatalf("a %g b %g up %v offset %g: ∂x(T)/∂x₀ = %g, want %g", a, b, up, off, r.Sensitivity.DX0[0][0], D[0][0])
	}
}
