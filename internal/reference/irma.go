package reference

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// IRMA gene network (004 §7.1) as nosnoc_py's examples/Acary2014/irma.py
// writes it (get_irma_model with SWITCH_ON = 1). The paper's printed
// eqs. (50b) and (50d) differ from this code model (in (50d) κ¹ is not
// multiplied by α₁); the code model is the one that produced the paper's
// results (two switches in the first 100 minutes), so it is used here:
//
//	ẋ₀ = −0.05x₀ + 1.1e-4 + 9e-4·α₅
//	ẋ₁ = −0.04x₁ + 3e-4 + 0.15·α₀
//	ẋ₂ = −0.05x₂ + 6e-4 + 0.018·α₂
//	ẋ₃ = −0.02x₃ + 5e-4·α₁ + 0.03·α₁(1 − α₄)
//	ẋ₄ = −0.6x₄ + 7.5e-4 + 0.015·α₃
//
// with α_j ∈ γ(ψ_j(x)) and ψ = (x₀ − 0.01, x₁ − 0.01, x₁ − 0.06, x₁ − 0.08,
// x₂ − 0.035, x₃ − 0.04, x₄ − 0.01) (0-based indices throughout).
var (
	// IRMAX0 is the initial state of irma.py.
	IRMAX0 = []float64{0.011, 0.09, 0.04, 0.05, 0.015}
	// IRMAGamma are the degradation rates γ (the paper's p).
	IRMAGamma = []float64{0.05, 0.04, 0.05, 0.02, 0.6}
	// IRMAKappa are κ¹ (column 0) and κ² (column 1).
	IRMAKappa = [5][2]float64{{1.1e-4, 9e-4}, {3e-4, 0.15}, {6e-4, 0.018}, {5e-4, 0.03}, {7.5e-4, 0.015}}
	// IRMAThresholds lists the switching functions ψ_j = x[State] − Value.
	IRMAThresholds = []Threshold{{0, 0.01}, {1, 0.01}, {1, 0.06}, {1, 0.08}, {2, 0.035}, {3, 0.04}, {4, 0.01}}
	// IRMANames are the proteins x₀…x₄.
	IRMANames = []string{"Gal4", "Swi5", "Ash1", "Cbf1", "Gal80"}
)

// Threshold is a switching function ψ = x[State] − Value.
type Threshold struct {
	State int
	Value float64
}

// IRMAModel builds the IRMA network as a dcs.Model in the general form
// f(x, α) (Model.AddStep). With lift, a user algebraic variable β with
// β − α₁(1 − α₄) = 0 replaces the product in ẋ₃ (irma.py LIFTING = True).
// It returns the model and the selections α.
func IRMAModel(lift bool) (*dcs.Model, ad.Vec) {
	return irmaModel(lift, false)
}

// IRMARelativeModel is IRMAModel with the switching functions divided by
// their thresholds, ψ_j = x_i/θ_j − 1. Scaling a switching function by a
// positive constant changes neither the Filippov system nor its switch
// times (only the sign of ψ_j enters α_j ∈ γ(ψ_j)); it only scales the
// multipliers λᵖ_j, λⁿ_j of the step reformulation, and with them the
// size of the complementarity products that a relaxation bound σ acts on.
// IRMA's raw ψ_j are of size 1e-4…1e-2 near its switches, so a relaxed
// NLP with σ ≥ 1e-4 barely constrains them; the relative form makes them
// O(1) (examples/irma measures the difference).
func IRMARelativeModel(lift bool) (*dcs.Model, ad.Vec) {
	return irmaModel(lift, true)
}

func irmaModel(lift, relative bool) (*dcs.Model, ad.Vec) {
	g := ad.NewGraph()
	x := g.SymVec("x", 5)
	m := dcs.NewModel(g, x, nil, nil)
	psi := make(ad.Vec, len(IRMAThresholds))
	for j, th := range IRMAThresholds {
		psi[j] = x[th.State].AddConst(-th.Value)
		if relative {
			psi[j] = psi[j].Scale(1 / th.Value)
		}
	}
	a := m.AddStep(psi)
	one := g.Const(1)
	prod := a[1].Mul(one.Sub(a[4]))
	if lift {
		beta := g.Sym("beta")
		m.AddAlgebraic(ad.Vec{beta}, ad.Vec{beta.Sub(prod)})
		prod = beta
	}
	s1 := ad.Vec{one, one, one, a[1], one}
	s2 := ad.Vec{a[5], a[0], a[2], prod, a[3]}
	m.F0 = make(ad.Vec, 5)
	for i := range m.F0 {
		m.F0[i] = x[i].Scale(-IRMAGamma[i]).Add(s1[i].Scale(IRMAKappa[i][0])).Add(s2[i].Scale(IRMAKappa[i][1]))
	}
	return m, a
}

// IRMAInput returns the constant part c(α) of ẋ = −γ⊙x + c(α) for the
// selections a (values in [0, 1]).
func IRMAInput(a []float64) []float64 {
	k := IRMAKappa
	return []float64{
		k[0][0] + k[0][1]*a[5],
		k[1][0] + k[1][1]*a[0],
		k[2][0] + k[2][1]*a[2],
		k[3][0]*a[1] + k[3][1]*a[1]*(1-a[4]),
		k[4][0] + k[4][1]*a[3],
	}
}

// IRMARHS evaluates ẋ at x with the selections a.
func IRMARHS(x, a []float64) []float64 {
	c := IRMAInput(a)
	for i := range c {
		c[i] -= IRMAGamma[i] * x[i]
	}
	return c
}

// Errors of the event-driven IRMA reference.
var (
	// ErrOnThreshold reports an initial state on a threshold (the side is
	// not defined).
	ErrOnThreshold = errors.New("reference: initial state on a threshold")
	// ErrNotTransversal reports an event where the crossing state's
	// velocity vanishes or reverses (tangency or sliding), which the
	// closed-form reference does not handle.
	ErrNotTransversal = errors.New("reference: non-transversal threshold event")
	// ErrSimultaneous reports two threshold events closer than the
	// resolution of the event computation.
	ErrSimultaneous = errors.New("reference: simultaneous threshold events")
)

// Event is a switch of a reference solution.
type Event struct {
	// T is the event time and Psi the index j of ψ_j (0-based).
	T   float64
	Psi int
	// Kind describes the event ("crossing", "stick", "slip", …).
	Kind string
	// Dir is the sign of ψ_j after the event for crossings (+1: ψ becomes
	// positive), 0 otherwise.
	Dir int
	// X is the state at T.
	X []float64
}

// PWATrajectory is the exact solution of a piecewise-affine system
// ẋ_i = −γ_i x_i + c_i on each region: segment k starts at Start[k] from
// X[k] with constant input C[k].
type PWATrajectory struct {
	Gamma  []float64
	Start  []float64
	X, C   [][]float64
	Alpha  [][]float64
	Events []Event
	End    float64
}

// At returns the state at time t ∈ [Start[0], End].
func (p *PWATrajectory) At(t float64) []float64 {
	k := sort.Search(len(p.Start), func(i int) bool { return p.Start[i] > t }) - 1
	if k < 0 {
		k = 0
	}
	return affineFlow(p.Gamma, p.X[k], p.C[k], t-p.Start[k])
}

// affineFlow evaluates x(τ) = x₀ + (e − x₀)(1 − e^{−γτ}), e = c/γ, the
// exact solution of ẋ = −γx + c, written with expm1 so that small τ keep
// full relative accuracy.
func affineFlow(gamma, x0, c []float64, tau float64) []float64 {
	x := make([]float64, len(x0))
	for i := range x0 {
		e := c[i] / gamma[i]
		x[i] = x0[i] - (e-x0[i])*math.Expm1(-gamma[i]*tau)
	}
	return x
}

// IRMAExact computes the exact solution of IRMA from x0 on [0, tEnd] by
// closed-form event location. Within a region every state follows
// x_i(τ) = e_i + (x_i(0) − e_i)e^{−γ_i τ}, e_i = c_i/γ_i, which is monotone,
// so threshold θ of state i is reached at most once per region, at
//
//	τ = ln((x_i(0) − e_i)/(θ − e_i))/γ_i = log1p((x_i(0) − θ)/(θ − e_i))/γ_i,
//
// when θ lies strictly between x_i(0) and e_i. The earliest such τ ends the
// segment; the state there is recomputed with x_i = θ exactly and α_j flips.
// No state's rate depends on a selection of its own thresholds (ẋ₁ depends
// on α₀, ẋ₂ on α₂, …), so ẋ_i is continuous across its thresholds and every
// event is a transversal crossing unless θ = e_i (tangency), which is
// checked and reported as ErrNotTransversal; sliding cannot occur. Two
// events within 1e-12 of each other are reported as ErrSimultaneous.
func IRMAExact(x0 []float64, tEnd float64) (*PWATrajectory, error) {
	if len(x0) != 5 {
		return nil, fmt.Errorf("reference: IRMA needs 5 states, got %d", len(x0))
	}
	a := make([]float64, len(IRMAThresholds))
	for j, th := range IRMAThresholds {
		switch d := x0[th.State] - th.Value; {
		case d > 0:
			a[j] = 1
		case d < 0:
			a[j] = 0
		default:
			return nil, fmt.Errorf("%w: ψ%d", ErrOnThreshold, j)
		}
	}
	p := &PWATrajectory{Gamma: IRMAGamma, End: tEnd}
	t, x := 0.0, append([]float64(nil), x0...)
	for {
		c := IRMAInput(a)
		p.Start = append(p.Start, t)
		p.X = append(p.X, x)
		p.C = append(p.C, c)
		p.Alpha = append(p.Alpha, append([]float64(nil), a...))
		best, bestJ, second := math.Inf(1), -1, math.Inf(1)
		for j, th := range IRMAThresholds {
			i := th.State
			e := c[i] / IRMAGamma[i]
			// The state moves towards e; it reaches θ only if θ is
			// strictly on that side of the current side.
			if a[j] == 1 && !(e < th.Value) || a[j] == 0 && !(e > th.Value) {
				continue
			}
			tau := math.Log1p((x[i]-th.Value)/(th.Value-e)) / IRMAGamma[i]
			if tau < 0 {
				tau = 0 // on the threshold already, leaving it
			}
			switch {
			case tau < best:
				second, best, bestJ = best, tau, j
			case tau < second:
				second = tau
			}
		}
		if bestJ < 0 || t+best >= tEnd {
			break
		}
		if second-best < 1e-12 {
			return nil, fmt.Errorf("%w at t = %.15g", ErrSimultaneous, t+best)
		}
		th := IRMAThresholds[bestJ]
		x = affineFlow(IRMAGamma, x, c, best)
		x[th.State] = th.Value
		t += best
		// Transversality: ẋ_i at the threshold has the same nonzero sign
		// with the old and the new selection.
		before := IRMARHS(x, a)[th.State]
		a[bestJ] = 1 - a[bestJ]
		after := IRMARHS(x, a)[th.State]
		dir := 1
		if a[bestJ] == 0 {
			dir = -1
		}
		if before*float64(dir) <= 0 || after*float64(dir) <= 0 {
			return nil, fmt.Errorf("%w: ψ%d at t = %.15g (ẋ = %g before, %g after)", ErrNotTransversal, bestJ, t, before, after)
		}
		p.Events = append(p.Events, Event{T: t, Psi: bestJ, Kind: "crossing", Dir: dir, X: append([]float64(nil), x...)})
	}
	return p, nil
}

// IRMADX0 returns the exact sensitivity ∂x(t)/∂x₀ (DX0[i][j] =
// ∂x_i(t)/∂x₀_j) of a solution p of IRMAExact at t ∈ [0, p.End], by the
// variational equation: within a segment the flow is diagonal,
// ∂x_i(τ)/∂x_i(0) = e^{−γ_i τ}; at a crossing of ψ = x_i − θ the switch
// time moves with the state and the derivative jumps by the saltation
// matrix Σ = I + (f⁺ − f⁻) e_iᵀ / f⁻_i, with f∓ the fields before and after
// the switch at the switch state (Aizerman and Gantmacher 1958). Every
// crossing of IRMAExact is transversal (f⁻_i ≠ 0), which it checks.
func IRMADX0(p *PWATrajectory, t float64) ([][]float64, error) {
	n := len(p.Gamma)
	if t < 0 || t > p.End || len(p.Start) == 0 || len(p.Events) != len(p.Start)-1 {
		return nil, fmt.Errorf("reference: IRMADX0 at t = %g of a trajectory on [0, %g] with %d segments and %d events", t, p.End, len(p.Start), len(p.Events))
	}
	phi := make([][]float64, n)
	for i := range phi {
		phi[i] = make([]float64, n)
		phi[i][i] = 1
	}
	flow := func(tau float64) {
		for i := range phi {
			e := math.Exp(-p.Gamma[i] * tau)
			for j := range phi[i] {
				phi[i][j] *= e
			}
		}
	}
	for k := range p.Start {
		if k+1 == len(p.Start) || t <= p.Start[k+1] {
			flow(t - p.Start[k])
			break
		}
		flow(p.Start[k+1] - p.Start[k])
		ev := p.Events[k]
		i := IRMAThresholds[ev.Psi].State
		x := p.X[k+1]
		fm, fp := make([]float64, n), make([]float64, n)
		for r := range fm {
			fm[r] = -p.Gamma[r]*x[r] + p.C[k][r]
			fp[r] = -p.Gamma[r]*x[r] + p.C[k+1][r]
		}
		if fm[i] == 0 {
			return nil, fmt.Errorf("%w: ψ%d at t = %g", ErrNotTransversal, ev.Psi, ev.T)
		}
		// Σ·Φ: row r gains (f⁺_r − f⁻_r)/f⁻_i times row i
		rowI := append([]float64(nil), phi[i]...)
		for r := range phi {
			d := (fp[r] - fm[r]) / fm[i]
			if d == 0 {
				continue
			}
			for j := range phi[r] {
				phi[r][j] += d * rowI[j]
			}
		}
	}
	return phi, nil
}
