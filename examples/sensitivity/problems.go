package main

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/internal/reference"
)

// problem is one reference case of the study: a model, an initial state, a
// horizon, the exact final state and the exact sensitivity ∂x(T)/∂x₀.
type problem struct {
	Name   string
	Model  func() *dcs.Model
	X0     []float64
	TSim   float64
	NSim   []int   // default N_sim values
	NFE    int     // finite elements per simulation step
	Floor  float64 // errors at or below it are not fitted
	Metric string  // how the exact sensitivity is obtained
	// XT is the exact x(T), SExact the exact ∂x(T)/∂x₀ (SExact[i][j] =
	// ∂x_i(T)/∂x₀_j).
	XT     []float64
	SExact [][]float64
}

// problemNames are the problems of the default study, in order.
var problemNames = []string{"irma", "crossing", "sliding", "friction"}

// lookupProblem returns the problem of the given name.
func lookupProblem(name string) (*problem, error) {
	switch name {
	case "irma":
		return irmaProblem()
	case "crossing":
		return crossingProblem(), nil
	case "sliding":
		return slidingProblem(), nil
	case "friction":
		return frictionProblem()
	}
	return nil, fmt.Errorf("unknown problem %q (irma, crossing, sliding, friction)", name)
}

// irmaProblem: IRMA (004 §7.1) over the first 100 minutes, two crossings
// (t ≈ 25.5 and 39.2), with the relative switching functions x_i/θ_j − 1
// (reference.IRMARelativeModel, as examples/order and examples/irma). The
// exact ∂x(100)/∂x₀ is that of the closed-form event-driven solution
// (reference.IRMAExact) by its variational equation and saltation matrices
// (reference.IRMADX0), exact to rounding; it agrees with central
// differences of the solution to their error (4.8e-11 relative for
// δ = 1e-6, reference.TestIRMADX0). Floor 1e-11: the FESD errors level off
// at 1e-12…5e-12 (Gauss–Legendre n_s = 3: 1.0e-12 at N_sim = 50, 4.8e-12
// at 100), which is the solver tolerances, not the reference.
func irmaProblem() (*problem, error) {
	const T = 100.0
	ex, err := reference.IRMAExact(reference.IRMAX0, T)
	if err != nil {
		return nil, err
	}
	S, err := reference.IRMADX0(ex, T)
	if err != nil {
		return nil, err
	}
	return &problem{
		Name: "irma",
		Model: func() *dcs.Model {
			m, _ := reference.IRMARelativeModel(false)
			return m
		},
		X0:     reference.IRMAX0,
		TSim:   T,
		NSim:   []int{1, 2, 3, 4, 6, 9, 18, 50, 100},
		NFE:    3,
		Floor:  1e-11,
		Metric: "∂x(100)/∂x₀: variational equation and saltation matrices of the closed-form event-driven solution, internal/reference.IRMAExact and IRMADX0",
		XT:     ex.At(T),
		SExact: S,
	}, nil
}

// The crossing case: 004 Example 3 (a), ẋ ∈ 2 − sign(x), with a
// time-dependent term added so that the Runge–Kutta methods are not exact
// on it (on a constant field every method is):
//
//	ẋ ∈ 2 − sign(x) + a·sin(ωt),  a = 0.5, ω = 1,
//
// that is f₋(t) = 3 + a·sin ωt for x < 0 and f₊(t) = 1 + a·sin ωt for
// x > 0. Both are positive, so the solution from x₀ < 0 crosses x = 0
// transversally at the switch time t_s, the root of
//
//	x₀ + 3t + (a/ω)(1 − cos ωt) = 0
//
// (increasing in t, since f₋ ≥ 2.5), and then
//
//	x(T) = (T − t_s) + (a/ω)(cos ωt_s − cos ωT).
//
// Differentiating the root equation gives ∂t_s/∂x₀ = −1/f₋(t_s), and then
// ∂x(T)/∂x₀ = −f₊(t_s)·∂t_s/∂x₀, so
//
//	∂x(T)/∂x₀ = f₊(t_s)/f₋(t_s) = (1 + a·sin ωt_s)/(3 + a·sin ωt_s)
//
// (the ratio of the speeds after and before the switch, the scalar case of
// the saltation matrix). Time stepping on a fixed grid cannot move the
// switch with x₀, and its ∂x(T)/∂x₀ stays O(1) away from this value.
//
// The initial state is chosen so that the switch is at t_s = 1, the middle
// of the horizon T = 2: x₀ = −3 − a(1 − cos 1) ≈ −3.2298, and
// ∂x(2)/∂x₀ = (1 + a·sin 1)/(3 + a·sin 1) ≈ 0.41533. Then with N_sim = 3^k
// steps the switch is in the middle of step (3^k − 1)/2, and in the middle
// of that step's middle element of the uniform grid, for every k: the
// switching step is the same picture scaled by h. This matters because
// here, unlike for the state, the error of FESD's sensitivity comes from
// the switching step alone (∂x⁺/∂x = 1 exactly over every other step, the
// field does not depend on x), and its leading term depends on where the
// switch lies in its step and changes sign with that position. On a grid
// that moves the switch around (N_sim = 1, 2, 3, 4, 6, 9, 18, 50, 100)
// the errors scatter by up to two decades about the h^p trend, and a slope
// fitted to them measures the scatter (measured with ω = 5 and x₀ = −1,
// −1.5, −2: FESD slopes of Radau IIA n_s = 1 of 2.06, 0.85 and 0.29).
// ω = 1 resolves the field on the coarsest grid (ωh̄ = 2/3 at N_sim = 1);
// with ω = 5 (ωh̄ = 10/3) and the same N_sim the coarse points are far from
// the asymptotic regime (measured: FESD slopes 0.66, 3.58, 4.89 for Radau
// IIA and 2.14, 3.53, 5.26 for Gauss–Legendre n_s = 1, 2, 3).
const (
	crossA = 0.5
	crossW = 1.0
	crossT = 2.0
)

// crossX0 puts the switch at t_s = 1.
var crossX0 = -3 - crossA/crossW*(1-math.Cos(crossW))

// crossingModel builds the crossing case with a time symbol.
func crossingModel() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	t := g.Sym("t")
	m := dcs.NewModel(g, x, nil, nil)
	m.Time = t
	wave := ad.Sin(t.Scale(crossW)).Scale(crossA)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0]},
		S:   [][]int{{1}, {-1}}, // mode 0: x > 0, mode 1: x < 0
		F:   []ad.Vec{{wave.AddConst(1)}, {wave.AddConst(3)}},
	})
	return m
}

// crossingSwitch returns t_s for x₀ < 0, the root of x₀ + 3t + (a/ω)(1 −
// cos ωt), by bisection to machine precision (the function increases with
// slope ≥ 3 − a, so the root lies in [0, −x₀/(3 − a)]).
func crossingSwitch(x0 float64) float64 {
	f := func(t float64) float64 { return x0 + 3*t + crossA/crossW*(1-math.Cos(crossW*t)) }
	lo, hi := 0.0, -x0/(3-crossA)
	for range 200 {
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// crossingExact returns the closed-form x(T) from x₀ < 0 (t_s < T).
func crossingExact(x0, T float64) float64 {
	ts := crossingSwitch(x0)
	return (T - ts) + crossA/crossW*(math.Cos(crossW*ts)-math.Cos(crossW*T))
}

// crossingSensitivity returns the closed-form ∂x(T)/∂x₀ = f₊(t_s)/f₋(t_s).
func crossingSensitivity(x0 float64) float64 {
	s := crossA * math.Sin(crossW*crossingSwitch(x0))
	return (1 + s) / (3 + s)
}

// crossingProblem is the crossing case from x₀ = crossX0 on [0, 2] with
// N_sim = 3^k, k = 0…5. Floor 1e-12 (measured: the FESD errors of n_s = 3
// level off at 1e-14…3e-14).
func crossingProblem() *problem {
	return &problem{
		Name:   "crossing",
		Model:  crossingModel,
		X0:     []float64{crossX0},
		TSim:   crossT,
		NSim:   []int{1, 3, 9, 27, 81, 243},
		NFE:    3,
		Floor:  1e-12,
		Metric: "∂x(2)/∂x₀ of ẋ ∈ 2 − sign(x) + 0.5 sin t from x₀ = −3 − 0.5(1 − cos 1) (switch at t = 1): closed form f₊(1)/f₋(1)",
		XT:     []float64{crossingExact(crossX0, crossT)},
		SExact: [][]float64{{crossingSensitivity(crossX0)}},
	}
}

// The sliding case: 004 Example 3 (b), ẋ ∈ −sign(x) + a·sin(ωt), which
// enters a sliding mode on x = 0, with a second state driven by the same
// sign, so that the sliding mode has dynamics that depend on the Filippov
// multiplier:
//
//	ẋ ∈ −sign(x) + a·sin ωt,  ẏ ∈ −y + sign(x),  a = slideA, ω = slideW.
//
// From x₀ > 0 the first state decreases (ẋ ≤ −1 + a < 0) and reaches 0
// at t_s, the root of
//
//	x₀ − t + (a/ω)(1 − cos ωt) = 0;
//
// then both fields push towards x = 0 (|a sin ωt| < 1) and the solution
// slides: x ≡ 0, and the Filippov convex combination that keeps ẋ = 0 has
// sign(x) = a·sin ωt, so ẏ = −y + a sin ωt. Hence
//
//	y(T) = e^{−T} y₀ + (e^{−(T−t_s)} − e^{−T})
//	       + a/(1+ω²)·[(sin ωT − ω cos ωT) − e^{−(T−t_s)}(sin ωt_s − ω cos ωt_s)].
//
// Differentiating: ∂x(T)/∂x₀ = ∂x(T)/∂y₀ = 0, ∂y(T)/∂y₀ = e^{−T}, and with
// ∂t_s/∂x₀ = 1/(1 − a sin ωt_s) and ∂y(T)/∂t_s = e^{−(T−t_s)}(1 − a sin ωt_s),
//
//	∂y(T)/∂x₀ = e^{−(T−t_s)}.
//
// As for the crossing case, x₀ puts the sliding start at t_s = 1, the middle
// of T = 2, and N_sim = 3^k keeps it at the same place in its step. a and ω
// are those of 004: ωh̄ = 10/3 at N_sim = 1 does not resolve the forcing,
// and that point is pre-asymptotic.
const (
	slideA = 0.2
	slideW = 5.0
	slideT = 2.0
)

// slideX0 puts the start of the sliding mode at t_s = 1; y₀ = 0.5.
var slideX0 = []float64{1 - slideA/slideW*(1-math.Cos(slideW)), 0.5}

// slidingModel builds the sliding case with a time symbol: mode 0 for
// x > 0, mode 1 for x < 0.
func slidingModel() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	t := g.Sym("t")
	m := dcs.NewModel(g, x, nil, nil)
	m.Time = t
	wave := ad.Sin(t.Scale(slideW)).Scale(slideA)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[0]},
		S:   [][]int{{1}, {-1}},
		F: []ad.Vec{
			{wave.AddConst(-1), x[1].Neg().AddConst(1)},
			{wave.AddConst(1), x[1].Neg().AddConst(-1)},
		},
	})
	return m
}

// slidingStart returns t_s for x₀ > 0, the root of x₀ − t + (a/ω)(1 −
// cos ωt), by bisection to machine precision (the function decreases with
// slope ≤ −(1 − a), so the root lies in [0, x₀/(1 − a)]).
func slidingStart(x0 float64) float64 {
	f := func(t float64) float64 { return x0 - t + slideA/slideW*(1-math.Cos(slideW*t)) }
	lo, hi := 0.0, x0/(1-slideA)
	for range 200 {
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// slidingExact returns the closed-form (x(T), y(T)) from (x₀, y₀), x₀ > 0,
// t_s < T.
func slidingExact(x0 []float64, T float64) []float64 {
	ts := slidingStart(x0[0])
	a, w := slideA, slideW
	e := math.Exp(-(T - ts))
	y := math.Exp(-T)*x0[1] + e - math.Exp(-T) +
		a/(1+w*w)*((math.Sin(w*T)-w*math.Cos(w*T))-e*(math.Sin(w*ts)-w*math.Cos(w*ts)))
	return []float64{0, y}
}

// slidingSensitivity returns the closed-form ∂(x, y)(T)/∂(x₀, y₀).
func slidingSensitivity(x0 []float64, T float64) [][]float64 {
	ts := slidingStart(x0[0])
	return [][]float64{{0, 0}, {math.Exp(-(T - ts)), math.Exp(-T)}}
}

// slidingProblem is the sliding case from slideX0 on [0, 2] with
// N_sim = 3^k, k = 0…5. Floor 1e-12 (measured: the FESD errors of n_s = 3
// level off at 3e-14…1e-13).
func slidingProblem() *problem {
	return &problem{
		Name:   "sliding",
		Model:  slidingModel,
		X0:     slideX0,
		TSim:   slideT,
		NSim:   []int{1, 3, 9, 27, 81, 243},
		NFE:    3,
		Floor:  1e-12,
		Metric: "∂(x, y)(2)/∂(x₀, y₀) of ẋ ∈ −sign(x) + 0.2 sin 5t, ẏ ∈ −y + sign(x), sliding on x = 0 from t = 1: closed form",
		XT:     slidingExact(slideX0, slideT),
		SExact: slidingSensitivity(slideX0, slideT),
	}
}

// frictionT is the horizon of the three-mass case.
const frictionT = 2.0

// frictionProblem: Stewart's three masses with Coulomb friction (seed 000;
// reference.FrictionModel with FrictionSteps, Step DCS) from the
// benchmark's x₀ over [0, 2]: four velocity reversals (mass 2 at
// t = 0.2077, mass 1 at 0.2487, mass 3 at 0.9183 and 1.8694), all
// transversal crossings of v_j = 0. The exact ∂x(2)/∂x₀ is that of the
// event-driven solution (reference.Friction, the matrix exponential of
// each mode, event brackets refined to machine precision) by its
// variational equation and saltation matrices (FrictionSolution.DX0),
// exact to rounding; central differences of the
// solution agree with it to their own error (1.6e-9 relative at δ = 3e-4,
// TestReferences). N_FE = 4 as in examples/friction (the first two
// reversals are 0.041 apart). Floor 1e-12: the FESD errors of n_s = 3
// level off at 6e-14…1e-13. The horizon ends before mass 1 sticks at
// t = 3.729 (see the command's documentation for why).
func frictionProblem() (*problem, error) {
	sol, err := reference.Friction(reference.FrictionX0, frictionT, reference.FrictionOptions{RootTol: 1e-17})
	if err != nil {
		return nil, err
	}
	S, err := sol.DX0(frictionT)
	if err != nil {
		return nil, err
	}
	return &problem{
		Name:   "friction",
		Model:  func() *dcs.Model { return reference.FrictionModel(reference.FrictionSteps) },
		X0:     reference.FrictionX0,
		TSim:   frictionT,
		NSim:   []int{5, 10, 20, 40, 80, 160},
		NFE:    4,
		Floor:  1e-12,
		Metric: "∂x(2)/∂x₀: variational equation and saltation matrices of the event-driven solution, internal/reference.Friction",
		XT:     sol.At(frictionT),
		SExact: S,
	}, nil
}
