package main

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/reference"
)

// problem is one test case of the order study: a model, an initial state, a
// horizon and an error measure against a reference solution.
type problem struct {
	Name   string
	Model  func() *dcs.Model
	X0     []float64
	TSim   float64
	NSim   []int   // default N_sim values
	NFE    int     // default finite elements per step
	Floor  float64 // default round-off floor of the slope fit
	Metric string  // description of the error measure
	// Error measures a (complete) simulation against the reference; it
	// reads only res.T, res.X and res.Steps[k].T1.
	Error func(res *fesd.SimResult) float64
	// Events are the switch times of the reference on [0, TSim] (nil if
	// unknown): tooManySwitches uses them.
	Events []float64
}

// tooManySwitches explains why a FESD step [t0, t0 + T] cannot put the
// reference's switches on element boundaries with nfe elements of length
// at most 2T/nfe (γ_h = 1): every stretch between consecutive switches
// (and the step ends) of length L needs ⌈L/(2T/nfe)⌉ ≥ 1 elements. It
// returns "" when they fit or the events are unknown.
func (p *problem) tooManySwitches(t0, T float64, nfe int) string {
	var in []float64
	for _, e := range p.Events {
		if e > t0+1e-9 && e < t0+T-1e-9 {
			in = append(in, e)
		}
	}
	if len(in) == 0 {
		return ""
	}
	hmax := 2 * T / float64(nfe)
	need, prev := 0, t0
	for _, e := range append(in, t0+T) {
		need += int(math.Max(1, math.Ceil((e-prev)/hmax-1e-12)))
		prev = e
	}
	if need <= nfe {
		return ""
	}
	return fmt.Sprintf("%d switches in the step need %d elements of at most %.3g, N_FE = %d", len(in), need, hmax, nfe)
}

// problems returns the problem of the given name.
func lookupProblem(name string, o options) (*problem, error) {
	switch name {
	case "irma":
		return irmaProblem()
	case "friction":
		return frictionProblem()
	case "oscillator":
		return oscillatorProblem(), nil
	}
	return nil, fmt.Errorf("unknown problem %q (irma, friction, oscillator)", name)
}

// irmaProblem: IRMA over the first 100 minutes (004 §7.1, two switches),
// error ‖x(100) − x_exact(100)‖_∞ against the closed-form solution. Floor
// 1e-10: FESD errors level off at 2e-13…4e-12 (Radau/Gauss n_s ≥ 3 from
// N_sim = 9–18 on; the steps on their predicted branch have exact
// complementarity); with the homotopy alone the floor was 1e-10…1.5e-10
// (switches located only up to the complementarity tolerance 1e-12, i.e.
// ~2.5e-9 min at the slow Gal4 crossing, |ẋ₀| ≈ 4e-4/min, where ẋ₁ jumps
// by 0.15).
//
// N_sim: the grid {1, 3, 9, 18, 50, 100, 300} of nosnoc_py's
// irma_integration_order_experiment.py (NSIM_VALUES) plus 2, 4 and 6. The
// errors of n_s ≥ 3 reach the floor by N_sim = 6–18, so on that grid
// the orders 6–8 rest on two points; the coarse values give them 3–7.
// Switching functions: ψ_j = x_i/θ_j − 1 (see reference.IRMARelativeModel
// and examples/irma).
func irmaProblem() (*problem, error) {
	const T = 100.0
	ex, err := reference.IRMAExact(reference.IRMAX0, T)
	if err != nil {
		return nil, err
	}
	xT := ex.At(T)
	var events []float64
	for _, e := range ex.Events {
		events = append(events, e.T)
	}
	return &problem{
		Events: events,
		Name:   "irma",
		Model: func() *dcs.Model {
			m, _ := reference.IRMARelativeModel(false)
			return m
		},
		X0:     reference.IRMAX0,
		TSim:   T,
		NSim:   []int{1, 2, 3, 4, 6, 9, 18, 50, 100, 300},
		NFE:    3,
		Floor:  1e-10,
		Metric: "max_i |x_i(100) − x_exact,i(100)| (exact: closed-form event-driven solution, internal/reference.IRMAExact)",
		Error:  func(res *fesd.SimResult) float64 { return maxNorm(res.Final(), xT) },
	}, nil
}

// frictionProblem: Stewart's three masses on [0, 10] (Stewart 1996, §5). The
// benchmark's metric is the largest Euclidean norm of the 6-vector error
// over t = 0, 0.05, …, 10; the FESD solution is only known at element
// boundaries (dense output of the collocation polynomial has lower order
// than the method), so the maximum is taken over those grid times that are
// simulation step boundaries (always including t = 10). N_FE = 6 by
// default: events come as close as 0.011 (t = 3.7176 and 3.7290) and three
// fall in [0, 1], and with γ_h = 1 (h_n ≤ 2T/N_FE) N_FE = 3 elements cannot
// put them all on element boundaries at these step counts (measured: every
// FESD run fails with N_FE = 3 for N_sim = 10…80).
func frictionProblem() (*problem, error) {
	ref, err := reference.Friction(reference.FrictionX0, reference.FrictionTEnd, reference.FrictionOptions{})
	if err != nil {
		return nil, err
	}
	return &problem{
		Name:   "friction",
		Model:  func() *dcs.Model { return reference.FrictionModel(reference.FrictionSteps) },
		X0:     reference.FrictionX0,
		TSim:   reference.FrictionTEnd,
		NSim:   []int{20, 40, 80},
		NFE:    6,
		Floor:  1e-10,
		Metric: "max over t ∈ {0, 0.05, …, 10} ∩ step boundaries of ‖x(t) − x_ref(t)‖₂ (reference: internal/reference.Friction, mode-wise matrix exponential)",
		Error: func(res *fesd.SimResult) float64 {
			worst := 0.0
			for _, st := range res.Steps {
				// t on the 0.05 grid: 20·t integral (up to round-off).
				k := math.Round(st.T1 * 20)
				if math.Abs(st.T1*20-k) > 1e-9 {
					continue
				}
				x := stateAt(res, st.T1)
				if x == nil {
					continue
				}
				worst = math.Max(worst, euclid(x, ref.At(k/20)))
			}
			return worst
		},
	}, nil
}

// oscillatorProblem: the Filippov oscillator (reference.OscillatorModel) on
// [0, 1.7], error ‖x(1.7) − x_exact(1.7)‖_∞. The horizon 1.7 keeps the
// switch at t = 1 off every uniform grid of the default sweep (t = 1 is a
// grid point of N elements only if 17 divides N·… — never for N_sim ∈
// {1, 3, 9, 18, 50, 100, 300} and N_FE = 3), so that standard time
// stepping sees the switch inside an element.
func oscillatorProblem() *problem {
	const T = 1.7
	xT := reference.OscillatorExact(T)
	return &problem{
		Name:   "oscillator",
		Model:  reference.OscillatorModel,
		X0:     reference.OscillatorX0,
		TSim:   T,
		NSim:   []int{3, 9, 18, 50, 100},
		NFE:    3,
		Floor:  1e-11,
		Metric: "max_i |x_i(1.7) − x_exact,i(1.7)| (closed form, reference.OscillatorExact)",
		Error:  func(res *fesd.SimResult) float64 { return maxNorm(res.Final(), xT) },
	}
}

// stateAt returns the state at the element boundary nearest to t (within
// 1e-9), or nil.
func stateAt(res *fesd.SimResult, t float64) []float64 {
	for i, ti := range res.T {
		if math.Abs(ti-t) <= 1e-9 {
			return res.X[i]
		}
	}
	return nil
}

func maxNorm(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

func euclid(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(s)
}
