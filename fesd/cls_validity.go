package fesd

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/fesd-go/fesd/dcs"
)

// Physical validity of a FESD-J result.
//
// A complementarity Lagrangian system (dcs.CLS) has no clock to stop:
// its exact solutions never have a contact point below the obstacle
// (f_c ≥ 0), apply a normal force or impulse only where the gap is
// closed (0 ≤ λ_n ⊥ f_c ≥ 0), and leave an impulse with Newton's
// restitution law J_nᵀv⁺ = −e J_nᵀv⁻ (A. Nurkanović, J. Frey,
// A. Pozharskiy, M. Diehl, "FESD-J: Finite Elements with Switch Detection
// for numerical optimal control of rigid bodies with impacts and Coulomb
// friction", Nonlinear Analysis: Hybrid Systems 52 (2024) 101460, §2). A
// discretized and relaxed solution meets these only at its tolerance: the
// gap rows hold at the stage points and element boundaries, and a
// relaxation that stopped early allows Λ·f_c ≤ σ. CLSValidity measures
// the three at the element boundaries and stage points, counts the flight
// phases and the impacts, and names what is violated — the counterpart of
// Validity for time-freezing models.

// CLSValidityTolerances are the tolerances of the physical-validity check
// of a FESD-J result, in the model's units. The zero value gives the
// defaults.
type CLSValidityTolerances struct {
	// Penetration is the largest depth −f_c of a contact point below the
	// obstacle allowed at an element boundary or a stage point (default
	// 1e-3, a millimetre in SI units).
	Penetration float64
	// Phantom is the largest normal force λ_n at a stage point, and the
	// largest normal impulse Λ_n at an element boundary, allowed where the
	// contact's gap is at least PhantomGap (default 1e-3 each, in the
	// model's force and impulse units).
	Phantom float64
	// PhantomGap is the gap from which a normal force or impulse counts as
	// phantom contact (default 1e-3).
	PhantomGap float64
	// Restitution is the largest error of the normal velocity after an
	// impulse allowed (see CLSValidity.MaxRestitutionError; default 1e-3,
	// in the model's velocity units).
	Restitution float64
	// Flight is the gap above which every contact must be for a point to
	// belong to a flight phase (default 1e-3).
	Flight float64
}

// Validate reports negative or non-finite tolerances.
func (v CLSValidityTolerances) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"Penetration", v.Penetration}, {"Phantom", v.Phantom}, {"PhantomGap", v.PhantomGap}, {"Restitution", v.Restitution}, {"Flight", v.Flight}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%w: CLSValidityTolerances.%s = %g, want finite and ≥ 0", ErrOptions, f.name, f.v)
		}
	}
	return nil
}

// withDefaults returns v with its zero fields set to the defaults.
func (v CLSValidityTolerances) withDefaults() CLSValidityTolerances {
	for _, x := range []*float64{&v.Penetration, &v.Phantom, &v.PhantomGap, &v.Restitution, &v.Flight} {
		if *x == 0 {
			*x = 1e-3
		}
	}
	return v
}

// CLSValidity is the physical validity of a FESD-J trajectory
// (CheckCLSValidity; OCPResult.CLSValidity).
type CLSValidity struct {
	// Valid reports every item below within its tolerance; Violations
	// names the items that are not ("penetration", "penetration between
	// nodes", "phantom force",
	// "phantom impulse", "restitution"), each with its value and
	// tolerance.
	Valid      bool
	Violations []string
	// MaxPenetration is the largest depth −f_c of a contact point below
	// the obstacle over the element boundaries and stage points (0 if
	// none is below), PenetrationTime the time of that point.
	MaxPenetration, PenetrationTime float64
	// MaxPenetrationBetween is the largest depth between the nodes: along
	// every element's collocation polynomial of the state (the Lagrange
	// polynomial through the element's start and its stage points),
	// sampled at 31 equidistant interior times of every element.
	// FESD-J constrains the gap at the nodes only; a relaxed solution can
	// meet f_c ≥ 0 there while its polynomial dips into the obstacle
	// (a contact point that sinks and comes back within one element,
	// gaining energy it does not have), which the exact solution never
	// does. 0 without stage points (CLSResult.Trace). The tolerance is
	// Penetration.
	MaxPenetrationBetween, PenetrationBetweenTime float64
	// MaxPhantomForce is the largest normal force λ_n at a stage point
	// where the contact's gap is at least the PhantomGap tolerance, with
	// that gap and the point's time; MaxPhantomImpulse the same for the
	// normal impulses Λ_n at the element boundaries.
	MaxPhantomForce, PhantomForceGap, PhantomForceTime       float64
	MaxPhantomImpulse, PhantomImpulseGap, PhantomImpulseTime float64
	// MaxRestitutionError is the largest error of the normal velocity
	// J_nᵀv⁺ after an impulse, over the element boundaries and contacts
	// with a normal impulse above ImpactTol, against the impact law: on an
	// approaching contact (J_nᵀv⁻ < 0) Newton's −e J_nᵀv⁻, on one that is
	// not approaching no velocity jump, J_nᵀv⁻ itself (there the exact
	// solution has no impulse; a relaxed one may push the contact apart).
	// RestitutionTime is the boundary.
	MaxRestitutionError, RestitutionTime float64
	// Flights counts the flight phases: maximal runs of points (element
	// boundaries and stage points in time order) where every contact's gap
	// exceeds the Flight tolerance; Landings the flight phases that end
	// before the end of the trajectory. Impacts counts the boundaries and
	// contacts with an impulse above ImpactTol on an approaching contact
	// (J_nᵀv⁻ < −ImpactTol), as CLSResult's impact events.
	Flights, Landings, Impacts int
	// Tolerances are the tolerances used (defaults filled in).
	Tolerances CLSValidityTolerances
}

// String is a one-line verdict: "valid" or the violated items.
func (v *CLSValidity) String() string {
	if v == nil {
		return "no validity check"
	}
	if v.Valid {
		return fmt.Sprintf("valid (penetration %.1e, between nodes %.1e, phantom force %.1e, phantom impulse %.1e, restitution %.1e, %d flights, %d landings, %d impacts)",
			v.MaxPenetration, v.MaxPenetrationBetween, v.MaxPhantomForce, v.MaxPhantomImpulse, v.MaxRestitutionError, v.Flights, v.Landings, v.Impacts)
	}
	return "invalid: " + strings.Join(v.Violations, "; ")
}

// CLSTrace is a FESD-J trajectory as CheckCLSValidity reads it. With
// N_E elements of n_s stage points each:
type CLSTrace struct {
	// T are the N_E + 1 element boundaries and X the states (q, v) there
	// before the impulses (CLSResult.T, X); XStart the N_E states the
	// elements start from, after the impulses (CLSResult.XStart); Impulse
	// the normal impulses Λ_n of every contact at the start of every
	// element ([n][contact], N_E rows; nil: no impulse item).
	T         []float64
	X, XStart [][]float64
	Impulse   [][]float64
	// PointT are the times of the N_E·n_s stage points, PointX the states
	// there and Force the normal contact forces λ_n ([i][contact]; nil: no
	// phantom-force item), in element order (nil: no stage points).
	PointT        []float64
	PointX, Force [][]float64
}

// check reports a trace whose fields do not fit together for a system
// with n_x states and n_c contacts.
func (tr *CLSTrace) check(nx, nc int) error {
	ne := len(tr.T) - 1
	if ne < 1 || len(tr.X) != ne+1 || len(tr.XStart) != ne {
		return fmt.Errorf("%w: CLSTrace with %d boundaries, %d states and %d start states, want N_E + 1, N_E + 1 and N_E with N_E ≥ 1", ErrDimension, len(tr.T), len(tr.X), len(tr.XStart))
	}
	if tr.Impulse != nil && len(tr.Impulse) != ne {
		return fmt.Errorf("%w: CLSTrace.Impulse has %d rows for %d elements", ErrDimension, len(tr.Impulse), ne)
	}
	if len(tr.PointT) != len(tr.PointX) || len(tr.PointX)%ne != 0 || (tr.Force != nil && len(tr.Force) != len(tr.PointX)) {
		return fmt.Errorf("%w: CLSTrace with %d point times, %d point states and %d forces for %d elements", ErrDimension, len(tr.PointT), len(tr.PointX), len(tr.Force), ne)
	}
	for _, rows := range []struct {
		name string
		v    [][]float64
		n    int
	}{{"X", tr.X, nx}, {"XStart", tr.XStart, nx}, {"PointX", tr.PointX, nx}, {"Impulse", tr.Impulse, nc}, {"Force", tr.Force, nc}} {
		for i, r := range rows.v {
			if err := checkVec(fmt.Sprintf("CLSTrace.%s[%d]", rows.name, i), r, rows.n); err != nil {
				return err
			}
		}
	}
	return nil
}

// clsKinematics evaluates (f_c, J_nᵀv) of every contact at a state x on
// element n (whose control and parameters it chooses).
type clsKinematics func(x []float64, n int) (gap, vn []float64, err error)

// checkCLS measures the validity of tr with the restitution coefficients
// e.
func checkCLS(tr *CLSTrace, kin clsKinematics, e []float64, tol CLSValidityTolerances) (*CLSValidity, error) {
	out := &CLSValidity{Tolerances: tol.withDefaults()}
	tol = out.Tolerances
	ne := len(tr.T) - 1
	ns := len(tr.PointX) / ne
	type pt struct {
		t   float64
		gap []float64
	}
	var all []pt
	deeper := func(gap []float64, t float64) {
		for _, g := range gap {
			if -g > out.MaxPenetration {
				out.MaxPenetration, out.PenetrationTime = -g, t
			}
		}
	}
	for n, x := range tr.X {
		gap, vnBefore, err := kin(x, min(n, ne-1))
		if err != nil {
			return nil, err
		}
		gap, vnBefore = clone(gap), clone(vnBefore)
		deeper(gap, tr.T[n])
		all = append(all, pt{tr.T[n], gap})
		if n == ne || tr.Impulse == nil {
			continue
		}
		_, vnAfter, err := kin(tr.XStart[n], n)
		if err != nil {
			return nil, err
		}
		for c, lam := range tr.Impulse[n] {
			if gap[c] >= tol.PhantomGap && lam > out.MaxPhantomImpulse {
				out.MaxPhantomImpulse, out.PhantomImpulseGap, out.PhantomImpulseTime = lam, gap[c], tr.T[n]
			}
			if !(lam > ImpactTol) {
				continue
			}
			if vnBefore[c] < -ImpactTol {
				out.Impacts++
			}
			want := vnBefore[c] // not approaching: no jump
			if want < 0 {
				want *= -e[c] // Newton
			}
			if d := math.Abs(vnAfter[c] - want); d > out.MaxRestitutionError {
				out.MaxRestitutionError, out.RestitutionTime = d, tr.T[n]
			}
		}
	}
	for i, x := range tr.PointX {
		gap, _, err := kin(x, i/ns)
		if err != nil {
			return nil, err
		}
		gap = clone(gap)
		deeper(gap, tr.PointT[i])
		all = append(all, pt{tr.PointT[i], gap})
		if tr.Force == nil {
			continue
		}
		for c, f := range tr.Force[i] {
			if gap[c] >= tol.PhantomGap && f > out.MaxPhantomForce {
				out.MaxPhantomForce, out.PhantomForceGap, out.PhantomForceTime = f, gap[c], tr.PointT[i]
			}
		}
	}
	if ns > 0 {
		if err := out.between(tr, kin, ns); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].t < all[j].t })
	flying := false
	for _, p := range all {
		f := true
		for _, g := range p.gap {
			f = f && g > tol.Flight
		}
		if f && !flying {
			out.Flights++
		} else if !f && flying {
			out.Landings++
		}
		flying = f
	}
	out.verdict()
	return out, nil
}

// betweenSamples is the number of intervals into which
// CLSValidity.MaxPenetrationBetween divides every element.
const betweenSamples = 32

// between measures MaxPenetrationBetween: the gaps along every element's
// collocation polynomial through (T_n, XStart_n) and its n_s stage points.
func (out *CLSValidity) between(tr *CLSTrace, kin clsKinematics, ns int) error {
	tau := make([]float64, ns+1)
	nodes := make([][]float64, ns+1)
	x := make([]float64, len(tr.XStart[0]))
	for n := range tr.XStart {
		t0, h := tr.T[n], tr.T[n+1]-tr.T[n]
		if !(h > 1e-12*math.Max(1, math.Abs(t0))) {
			continue
		}
		tau[0], nodes[0] = t0, tr.XStart[n]
		for m := 0; m < ns; m++ {
			tau[m+1], nodes[m+1] = tr.PointT[n*ns+m], tr.PointX[n*ns+m]
		}
		for j := 1; j < betweenSamples; j++ {
			t := t0 + h*float64(j)/betweenSamples
			clear(x)
			for i := range tau {
				l := 1.0
				for k := range tau {
					if k != i {
						l *= (t - tau[k]) / (tau[i] - tau[k])
					}
				}
				for d := range x {
					x[d] += l * nodes[i][d]
				}
			}
			gap, _, err := kin(x, n)
			if err != nil {
				return err
			}
			for _, g := range gap {
				if -g > out.MaxPenetrationBetween {
					out.MaxPenetrationBetween, out.PenetrationBetweenTime = -g, t
				}
			}
		}
	}
	return nil
}

// verdict names the violated items.
func (out *CLSValidity) verdict() {
	tol := out.Tolerances
	if out.MaxPenetration > tol.Penetration {
		out.Violations = append(out.Violations, fmt.Sprintf("penetration: a contact point %.2e below the obstacle at t = %.4g (tolerance %.1e)", out.MaxPenetration, out.PenetrationTime, tol.Penetration))
	}
	if out.MaxPenetrationBetween > tol.Penetration {
		out.Violations = append(out.Violations, fmt.Sprintf("penetration between nodes: the collocation polynomial of an element takes a contact point %.2e below the obstacle at t = %.4g (tolerance %.1e)", out.MaxPenetrationBetween, out.PenetrationBetweenTime, tol.Penetration))
	}
	if out.MaxPhantomForce > tol.Phantom {
		out.Violations = append(out.Violations, fmt.Sprintf("phantom force: a normal force %.2e at a gap of %.2e at t = %.4g (tolerance %.1e where the gap ≥ %.1e)", out.MaxPhantomForce, out.PhantomForceGap, out.PhantomForceTime, tol.Phantom, tol.PhantomGap))
	}
	if out.MaxPhantomImpulse > tol.Phantom {
		out.Violations = append(out.Violations, fmt.Sprintf("phantom impulse: a normal impulse %.2e at a gap of %.2e at t = %.4g (tolerance %.1e where the gap ≥ %.1e)", out.MaxPhantomImpulse, out.PhantomImpulseGap, out.PhantomImpulseTime, tol.Phantom, tol.PhantomGap))
	}
	if out.MaxRestitutionError > tol.Restitution {
		out.Violations = append(out.Violations, fmt.Sprintf("restitution: the normal velocity after the impulse at t = %.4g misses the impact law by %.2e (tolerance %.1e)", out.RestitutionTime, out.MaxRestitutionError, tol.Restitution))
	}
	out.Valid = len(out.Violations) == 0
}

// CheckCLSValidity checks the physical validity of the FESD-J trajectory
// tr of c (see CLSValidity) with the parameters p (nil if c has none):
// the gaps and normal velocities are evaluated at tr's states; the
// contact Jacobians may not depend on the controls (they are evaluated
// with u = 0). An OCPSolver fills OCPResult.CLSValidity itself, with the
// default tolerances.
func CheckCLSValidity(c *dcs.CLS, tr *CLSTrace, p []float64, tol CLSValidityTolerances) (*CLSValidity, error) {
	if c == nil {
		return nil, ErrNilModel
	}
	if tr == nil {
		return nil, fmt.Errorf("%w: no trace", ErrDimension)
	}
	if err := tol.Validate(); err != nil {
		return nil, err
	}
	s, err := newCLSSystem(c)
	if err != nil {
		return nil, err
	}
	if err := checkVec("p", p, len(s.p)); err != nil {
		return nil, err
	}
	if err := tr.check(2*s.nq, s.nc); err != nil {
		return nil, err
	}
	f, err := newCLSKinematics(s)
	if err != nil {
		return nil, err
	}
	ws, out, u := f.NewWorkspace(), make([]float64, 2*s.nc), make([]float64, len(s.u))
	kin := func(x []float64, _ int) ([]float64, []float64, error) {
		if err := f.Eval(ws, [][]float64{x[:s.nq], x[s.nq:], u, p}, [][]float64{out}); err != nil {
			return nil, nil, err
		}
		return out[:s.nc], out[s.nc:], nil
	}
	return checkCLS(tr, kin, s.e, tol)
}

// Trace returns the part of a FESD-J simulation that CheckCLSValidity
// reads: its element boundaries and states, with the impulses of its
// contact events (Λ_n at the impacts and at the boundaries with a mode
// change; 0 elsewhere) and without stage points, which CLSResult does not
// keep — so the penetration is checked at the boundaries only, and there
// is no phantom-force item.
func (r *CLSResult) Trace() *CLSTrace {
	if r == nil {
		return nil
	}
	tr := &CLSTrace{T: r.T, X: r.X, XStart: r.XStart}
	nc := 0
	for _, m := range r.Modes {
		nc = max(nc, len(m))
	}
	tr.Impulse = make([][]float64, len(r.XStart))
	for n := range tr.Impulse {
		tr.Impulse[n] = make([]float64, nc)
	}
	for _, ev := range r.Events {
		if ev.Boundary < len(tr.Impulse) && ev.Contact < nc {
			tr.Impulse[ev.Boundary][ev.Contact] = ev.Impulse
		}
	}
	return tr
}

// clsOCPValidity checks the result r of a FESD-J OCP at the NLP point w
// (CLSResult r.Contacts filled): the trace with the impulses and the
// stage-point forces of w, the kinematics cs's with the stage's control
// and parameters pk.
func clsOCPValidity(cs *CLSSimulator, r *OCPResult, w []float64, pk func(k int) []float64) (*CLSValidity, error) {
	f, tr := cs.f, cs.tr
	nc := f.s.nc
	t := &CLSTrace{T: r.Contacts.T, X: r.Contacts.X, XStart: r.Contacts.XStart, PointT: r.PointT, PointX: r.PointX}
	for n := range t.XStart {
		b := f.pos.start[n]
		t.Impulse = append(t.Impulse, clone(w[b[clsLam]:b[clsLam]+nc]))
		for m := 0; m < tr.ns; m++ {
			p := f.pos.point[n][m]
			t.Force = append(t.Force, clone(w[p[clsLn]:p[clsLn]+nc]))
		}
	}
	kin := func(x []float64, n int) ([]float64, []float64, error) {
		k := tr.stageOf[n]
		return cs.kinematics(x, r.U[k], pk(k))
	}
	return checkCLS(t, kin, f.s.e, CLSValidityTolerances{})
}
