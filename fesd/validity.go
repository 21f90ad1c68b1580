package fesd

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// Physical validity of a time-freezing result.
//
// A time-freezing model (dcs.NewTimeFreezing) replaces the impacts of a
// rigid body by auxiliary dynamics in a numerical time τ: while a contact
// is closing below the ground, f_aux = (0, M⁻¹J_n a_n, 0) stops the clock
// t and q and turns the normal velocity around (Halm, Nurkanović, Diehl;
// 004 §7.2). The exact solution therefore never has the contact point
// below the ground while the clock advances, and never applies the
// auxiliary dynamics where the gap is open. A relaxed or discretized
// solution can do both and still meet its complementarity tolerance: a
// Scholtes relaxation allows a weight σ/f_c of the auxiliary dynamics at a
// gap f_c ("phantom contact", a force of a_n σ/f_c), and the discretization
// keeps J_nᵀv = 0 only at the collocation points, so the gap can drift
// below zero over a stance phase. Validity measures both on the stage
// points of a trajectory, with the clock and the flight phases, and names
// what is violated.

// ValidityTolerances are the tolerances of the physical-validity check of a
// time-freezing model, in the model's units. The zero value gives the
// defaults.
type ValidityTolerances struct {
	// Drift is the largest depth of a contact point below the ground
	// (−f_c) allowed at a stage point where the clock advances (default
	// 1e-3, a millimetre in SI units).
	Drift float64
	// Phantom is the largest weight of a contact's auxiliary dynamics
	// allowed at a stage point where its gap is at least PhantomGap
	// (default 1e-3; the force it applies is a_n times the weight).
	Phantom float64
	// PhantomGap is the gap above which the auxiliary dynamics count as
	// phantom contact (default 1e-3).
	PhantomGap float64
	// Clock is the largest error |t(τ_N) − t(τ_0) − T| of the clock at
	// the end of an OCP's horizon T (default 1e-6·max(1, T)).
	Clock float64
	// Flight is the gap above which every contact must be for a point to
	// belong to a flight phase (default 1e-3).
	Flight float64
}

// Validate reports negative or non-finite tolerances.
func (v ValidityTolerances) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"Drift", v.Drift}, {"Phantom", v.Phantom}, {"PhantomGap", v.PhantomGap}, {"Clock", v.Clock}, {"Flight", v.Flight}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%w: ValidityTolerances.%s = %g, want finite and ≥ 0", ErrOptions, f.name, f.v)
		}
	}
	return nil
}

// withDefaults returns v with its zero fields set to the defaults (Clock
// stays 0: it depends on T_f).
func (v ValidityTolerances) withDefaults() ValidityTolerances {
	def := func(x *float64, d float64) {
		if *x == 0 {
			*x = d
		}
	}
	def(&v.Drift, 1e-3)
	def(&v.Phantom, 1e-3)
	def(&v.PhantomGap, 1e-3)
	def(&v.Flight, 1e-3)
	return v
}

// clockAdvancing is the rate of the clock, as a fraction of its rate in
// free flight (θ_ode), from which a stage point counts as one where the
// clock advances. In an impact phase the rate is 0 (the auxiliary dynamics
// alone), in free flight 1, and in a persistent contact (sliding on
// J_nᵀv = 0) a_n/(a_n + the normal acceleration of the other forces), close
// to 1 for the gains a_n that time freezing uses.
const clockAdvancing = 0.5

// Validity is the physical validity of a trajectory of a time-freezing
// model (TimeFreezingValidity; OCPResult.Validity).
type Validity struct {
	// Valid reports every item below within its tolerance; Violations
	// names the items that are not ("drift", "phantom contact", "clock"),
	// each with its value and tolerance.
	Valid      bool
	Violations []string
	// MaxDrift is the largest depth −f_c of a contact point below the
	// ground at a stage point where the clock advances (θ_ode ≥ 1/2), and
	// DriftTime the numerical time τ of that point (0 when there is none).
	MaxDrift  float64
	DriftTime float64
	// MaxImpactPenetration is the largest depth below the ground at a stage
	// point of a frozen phase (θ_ode < 1/2): legitimate while the
	// auxiliary dynamics turn the velocity around, reported apart.
	MaxImpactPenetration float64
	// MaxPhantom is the largest weight of a contact's auxiliary dynamics at
	// a stage point where its gap is at least the PhantomGap tolerance,
	// PhantomGap that gap and PhantomTime the point's τ.
	MaxPhantom              float64
	PhantomGap, PhantomTime float64
	// ClockError is |t(τ_N) − t(τ_0) − T| at the end of an OCP's horizon
	// T: the physical time the solution spans misses the one asked for (0
	// for a simulation, and for an OCP with free time, whose T_f = ∫ s dτ
	// includes the frozen phases). StageClockError is the largest
	// |t(τ_k) − t(τ_0) − k T/N| over the stage ends (informational: it is
	// zero with nosnoc's stage-wise clock constraint, and need not be
	// otherwise).
	ClockError, StageClockError float64
	// Horizon is the physical horizon T the clock was checked against (0:
	// no clock item).
	Horizon float64
	// Flights counts the flight phases: maximal runs of points (element
	// boundaries and stage points in τ order) where every contact's gap
	// exceeds the Flight tolerance; Landings the flight phases that end
	// before the end of the trajectory.
	Flights, Landings int
	// Impacts counts the frozen phases: maximal runs of stage points with
	// θ_ode < 1/2.
	Impacts int
	// Tolerances are the tolerances used (defaults filled in).
	Tolerances ValidityTolerances
}

// String is a one-line verdict: "valid" or the violated items.
func (v *Validity) String() string {
	if v == nil {
		return "no validity check"
	}
	if v.Valid {
		return fmt.Sprintf("valid (drift %.1e, phantom %.1e, clock %.1e, %d flights, %d landings)",
			v.MaxDrift, v.MaxPhantom, v.ClockError, v.Flights, v.Landings)
	}
	return "invalid: " + strings.Join(v.Violations, "; ")
}

// validator evaluates the gaps and the auxiliary weights of a
// time-freezing model. It is immutable after newValidator and may be used
// from several goroutines.
type validator struct {
	tf      *dcs.TimeFreezing
	gaps    *ad.Function
	contact []int // modeContact[i]: the contact of mode i (−1: f_ode)
	nc      int
}

// newValidator compiles the gap functions of tf (inputs: the model's
// states and parameters).
func newValidator(tf *dcs.TimeFreezing) (*validator, error) {
	m := tf.Model
	nc := 0
	for _, c := range tf.PsiContact {
		nc = max(nc, c+1)
	}
	var gaps ad.Vec
	last := -1
	for j, c := range tf.PsiContact {
		if c != last { // the first function of every contact is f_c
			gaps = append(gaps, tf.Psi[j])
			last = c
		}
	}
	f, err := ad.NewFunction("gaps", []ad.Arg{ad.A("x", m.X...), ad.A("p", m.P...)}, []ad.Arg{ad.A("fc", gaps...)})
	if err != nil {
		return nil, fmt.Errorf("fesd: validity of the time-freezing model: %w", err)
	}
	// The modes are f_ode, then per contact f_aux⁺, f_aux⁻ (frictional:
	// three switching functions) or f_aux (frictionless: two).
	contact := []int{-1}
	for c := 0; c < nc; c++ {
		n := 0
		for _, pc := range tf.PsiContact {
			if pc == c {
				n++
			}
		}
		for k := 0; k < n-1; k++ {
			contact = append(contact, c)
		}
	}
	if len(contact) != len(tf.Modes) {
		return nil, fmt.Errorf("fesd: validity of the time-freezing model: %d modes for %d contacts", len(tf.Modes), nc)
	}
	return &validator{tf: tf, gaps: f, contact: contact, nc: nc}, nil
}

// auxWeights returns the weight of every contact's auxiliary dynamics at
// each stage point of r, and θ_ode there.
func (v *validator) auxWeights(r *Trajectory) (w [][]float64, ode []float64, err error) {
	tf := v.tf
	switch tf.Formulation {
	case dcs.Step:
		alpha := r.Algebraic(dcs.Alpha, -1)
		if alpha == nil {
			return nil, nil, fmt.Errorf("fesd: validity: the trajectory has no step selections α")
		}
		for _, a := range alpha {
			wi := make([]float64, v.nc)
			th := 1.0
			c := 0
			for j := 0; j < len(tf.PsiContact); {
				// (1 − α_fc)(1 − α_vn): θ⁺ + θ⁻ of the contact
				wi[c] = (1 - a[j]) * (1 - a[j+1])
				th *= 1 - wi[c]
				for j < len(tf.PsiContact) && tf.PsiContact[j] == c {
					j++
				}
				c++
			}
			w, ode = append(w, wi), append(ode, th)
		}
	case dcs.Stewart:
		theta := r.Algebraic(dcs.Theta, 0)
		if theta == nil {
			return nil, nil, fmt.Errorf("fesd: validity: the trajectory has no Stewart weights θ")
		}
		for _, th := range theta {
			wi := make([]float64, v.nc)
			o := 0.0
			for i, modes := range tf.BaseModes {
				for _, k := range modes {
					if c := v.contact[k]; c >= 0 {
						wi[c] += th[i]
					} else {
						o += th[i]
					}
				}
			}
			w, ode = append(w, wi), append(ode, o)
		}
	default:
		return nil, nil, fmt.Errorf("fesd: validity: formulation %v", tf.Formulation)
	}
	return w, ode, nil
}

// gapEval evaluates the gaps of every contact at a state, with the
// parameters of a stage (one workspace: not for concurrent use).
type gapEval struct {
	f  *ad.Function
	ws *ad.Workspace
	p  func(stage int) []float64
	fc []float64
}

func (g *gapEval) at(x []float64, stage int) ([]float64, error) {
	if err := g.f.Eval(g.ws, [][]float64{x, g.p(stage)}, [][]float64{g.fc}); err != nil {
		return nil, err
	}
	return g.fc, nil
}

// check measures the validity of r: p gives the parameter values of a
// stage, tFinal > 0 the physical horizon T of an OCP with N stages whose
// ends are the elements stageEnd (0 or nil: no clock item).
func (v *validator) check(r *Trajectory, p func(stage int) []float64, tol ValidityTolerances, tFinal float64, stageEnd []int) (*Validity, error) {
	out := &Validity{Tolerances: tol.withDefaults()}
	g := &gapEval{f: v.gaps, ws: v.gaps.NewWorkspace(), p: p, fc: make([]float64, v.nc)}
	if err := v.stagePoints(out, r, g); err != nil {
		return nil, err
	}
	if err := flights(out, r, g); err != nil {
		return nil, err
	}
	if tFinal > 0 && len(stageEnd) > 1 && len(r.X) > 0 {
		v.clock(out, r, tFinal, stageEnd)
	}
	out.verdict()
	return out, nil
}

// pointsPerElement is n_s of a trajectory (its stage points per element).
func pointsPerElement(r *Trajectory) int {
	if len(r.H) == 0 {
		return 1
	}
	return max(len(r.PointX)/len(r.H), 1)
}

// stagePoints measures at the stage points of r: drift where the clock
// advances, penetration where it stands, phantom contact and the frozen
// phases.
func (v *validator) stagePoints(out *Validity, r *Trajectory, g *gapEval) error {
	w, ode, err := v.auxWeights(r)
	if err != nil {
		return err
	}
	if len(w) != len(r.PointX) {
		return fmt.Errorf("fesd: validity: %d algebraic points for %d stage points", len(w), len(r.PointX))
	}
	ns := pointsPerElement(r)
	frozen := false
	for i, x := range r.PointX {
		gaps, err := g.at(x, r.StageOf[i/ns])
		if err != nil {
			return err
		}
		advancing := ode[i] >= clockAdvancing
		if !advancing && !frozen {
			out.Impacts++
		}
		frozen = !advancing
		for c, gc := range gaps {
			switch d := -gc; {
			case advancing && d > out.MaxDrift:
				out.MaxDrift, out.DriftTime = d, r.PointT[i]
			case !advancing:
				out.MaxImpactPenetration = math.Max(out.MaxImpactPenetration, d)
			}
			if gc >= out.Tolerances.PhantomGap && w[i][c] > out.MaxPhantom {
				out.MaxPhantom, out.PhantomGap, out.PhantomTime = w[i][c], gc, r.PointT[i]
			}
		}
	}
	return nil
}

// flights counts the flight phases and landings over the element
// boundaries and stage points of r in τ order.
func flights(out *Validity, r *Trajectory, g *gapEval) error {
	type pt struct {
		tau   float64
		x     []float64
		stage int
	}
	ns := pointsPerElement(r)
	var all []pt
	for n, x := range r.X {
		all = append(all, pt{r.T[n], x, r.StageOf[min(n, len(r.StageOf)-1)]})
	}
	for i, x := range r.PointX {
		all = append(all, pt{r.PointT[i], x, r.StageOf[i/ns]})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].tau < all[j].tau })
	flying := false
	for _, q := range all {
		gaps, err := g.at(q.x, q.stage)
		if err != nil {
			return err
		}
		f := true
		for _, gc := range gaps {
			f = f && gc > out.Tolerances.Flight
		}
		if f && !flying {
			out.Flights++
		} else if !f && flying {
			out.Landings++
		}
		flying = f
	}
	return nil
}

// clock measures the clock of an OCP at its stage ends against the
// horizon tFinal, and sets the default clock tolerance.
func (v *validator) clock(out *Validity, r *Trajectory, tFinal float64, stageEnd []int) {
	ck := v.tf.Clock
	out.Horizon = tFinal
	t0 := r.X[stageEnd[0]][ck]
	N := len(stageEnd) - 1
	out.ClockError = math.Abs(r.X[stageEnd[N]][ck] - t0 - tFinal)
	for k, n := range stageEnd {
		out.StageClockError = math.Max(out.StageClockError, math.Abs(r.X[n][ck]-t0-float64(k)*tFinal/float64(N)))
	}
	if out.Tolerances.Clock == 0 {
		out.Tolerances.Clock = 1e-6 * math.Max(1, tFinal)
	}
}

// verdict names the violated items (the clock only with a horizon).
func (out *Validity) verdict() {
	tol := out.Tolerances
	if out.MaxDrift > tol.Drift {
		out.Violations = append(out.Violations, fmt.Sprintf("drift: a contact point %.2e below the ground at τ = %.4g while the clock advances (tolerance %.1e)", out.MaxDrift, out.DriftTime, tol.Drift))
	}
	if out.MaxPhantom > tol.Phantom {
		out.Violations = append(out.Violations, fmt.Sprintf("phantom contact: auxiliary dynamics of weight %.2e at a gap of %.2e at τ = %.4g (tolerance %.1e where the gap ≥ %.1e)", out.MaxPhantom, out.PhantomGap, out.PhantomTime, tol.Phantom, tol.PhantomGap))
	}
	if out.Horizon > 0 && out.ClockError > tol.Clock {
		out.Violations = append(out.Violations, fmt.Sprintf("clock: t(T) − t(0) misses the horizon %.6g by %.2e (tolerance %.1e)", out.Horizon, out.ClockError, tol.Clock))
	}
	out.Valid = len(out.Violations) == 0
}

// TimeFreezingValidity checks the physical validity of a trajectory r of
// the time-freezing model tf (see Validity): r's DCS must be tf.Model
// reformulated in tf.Formulation; p are the model's parameter values (nil
// if it has none). Without an OCP's horizon it has no clock item (an
// OCPSolver fills OCPResult.Validity itself, with it).
func TimeFreezingValidity(tf *dcs.TimeFreezing, r *Trajectory, p []float64, tol ValidityTolerances) (*Validity, error) {
	if tf == nil || tf.Model == nil {
		return nil, ErrNilModel
	}
	if r == nil || r.DCS == nil || len(r.H) == 0 {
		return nil, fmt.Errorf("%w: an empty trajectory has no validity", ErrDimension)
	}
	if err := tol.Validate(); err != nil {
		return nil, err
	}
	v, err := newValidator(tf)
	if err != nil {
		return nil, err
	}
	if err := checkVec("p", p, len(tf.Model.P)); err != nil {
		return nil, err
	}
	return v.check(r, func(int) []float64 { return p }, tol, 0, nil)
}
