package main

import (
	"context"
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
)

// grav is the gravitational acceleration g of every scene (m/s²).
const grav = 9.81

// ballModel is the bouncing ball: a point of unit mass at height z ≥ 0
// under gravity, M = 1, f_v = −g + u, one frictionless contact with the
// gap f_c = z and Newton's restitution coefficient e. With control it has
// a vertical force u (the OCP scene); without, no control.
func ballModel(e float64, control bool) (*dcs.CLS, error) {
	g := ad.NewGraph()
	z, v := g.SymVec("z", 1), g.SymVec("v", 1)
	M, err := ad.NewMat(1, 1, g.Const(1))
	if err != nil {
		return nil, err
	}
	rb := dcs.RigidBody{Graph: g, Q: z, V: v, M: M, FV: g.ConstVec(-grav),
		Contacts: []dcs.Contact{{Name: "ground", Gap: z[0], Restitution: e}}}
	if control {
		rb.U = g.SymVec("u", 1)
		rb.FV = ad.Vec{rb.U[0].AddConst(-grav)}
	}
	return dcs.NewCLS(rb)
}

// ballExact is the closed form of the ball dropped from rest at height 1
// with restitution e: free fall z = 1 − g t²/2 to the first impact at
// t₁ = √(2/g) with the velocity −√(2g); Newton's law v⁺ = −e v⁻ at every
// impact, so impact k (1-based) happens at
//
//	t_k = t₁ (1 + 2e + 2e² + … + 2e^{k−1}),
//
// with v⁻_k = −e^{k−1}√(2g) and v⁺_k = e^k √(2g), and the flight after it
// reaches the apex e^{2k}. For e < 1 the impact times accumulate at the
// Zeno point t* = t₁(1 + e)/(1 − e), after which the ball rests on the
// ground (z = v = 0).
type ballExact struct {
	e, t1, v1 float64
}

func newBallExact(e float64) ballExact {
	return ballExact{e: e, t1: math.Sqrt(2 / grav), v1: math.Sqrt(2 * grav)}
}

// zeno returns t* (+Inf for e = 1).
func (b ballExact) zeno() float64 {
	if b.e >= 1 {
		return math.Inf(1)
	}
	return b.t1 * (1 + b.e) / (1 - b.e)
}

// impact returns t_k, v⁻_k and v⁺_k of impact k ≥ 1.
func (b ballExact) impact(k int) (t, vMinus, vPlus float64) {
	t = b.t1
	for j := 1; j < k; j++ {
		t += 2 * math.Pow(b.e, float64(j)) * b.t1
	}
	ek := math.Pow(b.e, float64(k-1))
	return t, -ek * b.v1, b.e * ek * b.v1
}

// state returns (z, v) at time t (after the impulse of an impact at t).
func (b ballExact) state(t float64) (z, v float64) {
	if t < b.t1 {
		return 1 - grav*t*t/2, 0 - grav*t
	}
	if t >= b.zeno() {
		return 0, 0
	}
	for k := 1; ; k++ {
		tk, _, vp := b.impact(k)
		tn, _, _ := b.impact(k + 1)
		if t < tn || vp == 0 {
			s := t - tk
			if vp == 0 { // e = 0: at rest after the first impact
				return 0, 0
			}
			return vp*s - grav*s*s/2, vp - grav*s
		}
	}
}

// ballImpact compares one impact of the simulation with the closed form.
type ballImpact struct {
	K       int     `json:"k"`
	T       float64 `json:"t"`
	TExact  float64 `json:"t_closed_form"`
	VMinus  float64 `json:"v_before"`
	VMExact float64 `json:"v_before_closed_form"`
	VPlus   float64 `json:"v_after"`
	VPExact float64 `json:"v_after_closed_form"`
	Impulse float64 `json:"impulse"`
	// Apex is z⁺ + (v⁺)²/(2g) after the impulse, the height of the
	// flight after it, and ApexExac its closed form e^{2k}.
	Apex     float64 `json:"apex"`
	ApexExac float64 `json:"apex_closed_form"`
	// TErr, VErr and ApexErr are the absolute errors of the time, of the
	// worse of v⁻ and v⁺, and of z + v²/(2g) over the flight after the
	// impact (after the impulse and at every element start before the
	// closed-form time of the next impact: the energy of a flight is
	// constant).
	TErr    float64 `json:"t_error"`
	VErr    float64 `json:"v_error"`
	ApexErr float64 `json:"apex_error"`
	// ToZeno is t* − t_k, what is left of the Zeno sequence (0 < e < 1;
	// +Inf in the CSV file and omitted in JSON otherwise).
	ToZeno float64  `json:"-"`
	ToZ    *float64 `json:"time_to_zeno_point,omitempty"`
}

// ballSummary is the bouncing-ball scene in summary.json.
type ballSummary struct {
	E        float64 `json:"restitution"`
	T        float64 `json:"T"`
	NSim     int     `json:"nsim"`
	NFE      int     `json:"nfe"`
	ZenoTime float64 `json:"zeno_time,omitempty"` // t* (0 < e < 1; omitted otherwise)
	Impacts  int     `json:"impacts"`
	// Within1e9 is the number of leading impacts whose time, velocities
	// and apex are all within 1e-9 of the closed form.
	Within1e9  int     `json:"impacts_within_1e-9"`
	MaxTErr    float64 `json:"max_time_error"`
	MaxVErr    float64 `json:"max_velocity_error"`
	MaxApexErr float64 `json:"max_apex_error"`
	// LastImpact is t_K of the last impact resolved, Unresolved the
	// closed-form duration t* − t_K of the bounces after it and
	// UnresolvedHeight their largest apex (v⁺_K)²/(2g).
	LastImpact       float64 `json:"last_impact"`
	Unresolved       float64 `json:"unresolved_time,omitempty"`
	UnresolvedHeight float64 `json:"unresolved_height,omitempty"`
	// AfterLast is the finite element [t_K, t_{K+1}] after the last
	// impact, AfterLastMode the contact mode on it ("closed": the gap is
	// closed at all its stage points).
	AfterLast     []float64 `json:"element_after_last_impact,omitempty"`
	AfterLastMode string    `json:"element_after_last_impact_mode,omitempty"`
	// RestFrom is the first element boundary from which on z and v stay
	// below 1e-8 in magnitude to the end (−1 if the ball does not come
	// to rest), RestErr the largest |z|, |v| after it.
	RestFrom float64 `json:"rest_from"`
	RestErr  float64 `json:"rest_error"`
	// FinalErr is |x(T) − closed form| (∞-norm).
	FinalErr float64 `json:"final_error"`
	effort
	List []ballImpact `json:"impact_list"`
}

// run is the solver side of a scene.
type effort struct {
	Steps      int     `json:"steps"`
	Iterations int     `json:"nlp_iterations"`
	Failed     int     `json:"failed_steps"`
	CPU        float64 `json:"cpu_seconds"`
	Wall       float64 `json:"wall_seconds"`
}

// ballScene simulates the ball from rest at height 1 over [0, T] in
// 10 steps per second (N_FE = 2, Radau IIA n_s = 2: fesd's defaults) and
// compares it with the closed form. progress, if not nil, is called at
// the start of every step.
func ballScene(ctx context.Context, o options, progress func(t float64)) (*fesd.CLSResult, *ballSummary, error) {
	c, err := ballModel(o.E, false)
	if err != nil {
		return nil, nil, err
	}
	nsim := int(math.Round(o.TBall / ballStep))
	if nsim < 1 {
		nsim = 1
	}
	s := &ballSummary{E: o.E, T: o.TBall, NSim: nsim, NFE: 2}
	sim := fesd.SimOptions{TSim: o.TBall, NSim: nsim, Options: fesd.Options{NFE: s.NFE}}
	if progress != nil {
		// SimulateCLS does not call SimOptions.Progress; it asks UFunc
		// for the control at the start of every step (the ball has none)
		sim.UFunc = func(t float64) []float64 { progress(t); return nil }
	}
	var r *fesd.CLSResult
	s.effort, err = timed(func() error {
		var err error
		r, err = fesd.SimulateCLS(ctx, c, []float64{1, 0}, sim)
		return err
	})
	if r == nil {
		return nil, nil, err
	}
	s.solver(r.Steps)
	ex := newBallExact(o.E)
	if o.E > 0 && o.E < 1 {
		s.ZenoTime = ex.zeno()
	}
	for i, im := range r.Impacts() {
		k := i + 1
		tk, vm, vp := ex.impact(k)
		x := r.XStart[im.Boundary]
		bi := ballImpact{K: k, T: im.Time, TExact: tk, VMinus: im.VnBefore, VMExact: vm, VPlus: im.VnAfter, VPExact: vp,
			Impulse: im.Impulse, Apex: x[0] + x[1]*x[1]/(2*grav), ApexExac: vp * vp / (2 * grav), ToZeno: ex.zeno() - tk}
		if s.ZenoTime > 0 {
			bi.ToZ = &bi.ToZeno
		}
		bi.TErr = math.Abs(bi.T - tk)
		bi.VErr = math.Max(math.Abs(bi.VMinus-vm), math.Abs(bi.VPlus-vp))
		bi.ApexErr = math.Abs(bi.Apex - bi.ApexExac)
		s.List = append(s.List, bi)
		s.LastImpact = im.Time
	}
	s.Impacts = len(s.List)
	// the apex error over every flight: z + v²/(2g) = e^{2k} at the
	// start of every element of flight k (after the impulse of impact k,
	// before the closed-form impact k + 1)
	imps := r.Impacts()
	for i := range r.XStart {
		k := 0
		for k < len(imps) && imps[k].Boundary <= i {
			k++
		}
		if k == 0 {
			continue
		}
		if next, _, _ := ex.impact(k + 1); r.T[i] >= next-1e-9 {
			continue
		}
		x := r.XStart[i]
		d := math.Abs(x[0] + x[1]*x[1]/(2*grav) - s.List[k-1].ApexExac)
		s.List[k-1].ApexErr = math.Max(s.List[k-1].ApexErr, d)
	}
	leading := true
	for _, bi := range s.List {
		if leading && math.Max(bi.TErr, math.Max(bi.VErr, bi.ApexErr)) <= 1e-9 {
			s.Within1e9++
		} else {
			leading = false
		}
		s.MaxTErr = math.Max(s.MaxTErr, bi.TErr)
		s.MaxVErr = math.Max(s.MaxVErr, bi.VErr)
		s.MaxApexErr = math.Max(s.MaxApexErr, bi.ApexErr)
	}
	if n := len(s.List); n > 0 && s.ZenoTime > 0 {
		last := s.List[n-1]
		s.Unresolved = last.ToZeno
		s.UnresolvedHeight = last.VPExact * last.VPExact / (2 * grav)
	}
	// rest: the first boundary after which |z|, |v| ≤ 1e-8 throughout
	s.RestFrom = -1
	for i := len(r.X) - 1; i >= 0; i-- {
		if x := r.X[i]; math.Abs(x[0]) > 1e-8 || math.Abs(x[1]) > 1e-8 {
			break
		}
		s.RestFrom = r.T[i]
	}
	if s.RestFrom >= 0 {
		for i, x := range r.X {
			if r.T[i] >= s.RestFrom {
				s.RestErr = math.Max(s.RestErr, math.Max(math.Abs(x[0]), math.Abs(x[1])))
			}
		}
	}
	if n := len(imps); n > 0 {
		if b := imps[n-1].Boundary; b+1 < len(r.T) {
			s.AfterLast = []float64{r.T[b], r.T[b+1]}
			s.AfterLastMode = r.Modes[b][0].String()
		}
	}
	if err == nil {
		xT := r.X[len(r.X)-1]
		z, v := ex.state(r.T[len(r.T)-1])
		s.FinalErr = math.Max(math.Abs(xT[0]-z), math.Abs(xT[1]-v))
	}
	return r, s, err
}

// VPlusLast returns v⁺ of the last impact (0 without impacts).
func (s *ballSummary) VPlusLast() float64 {
	if len(s.List) == 0 {
		return 0
	}
	return s.List[len(s.List)-1].VPlus
}

// ballStep is the simulation step of the ball scene (s).
const ballStep = 0.1

// solver fills the solver counts of a scene from its step records.
func (r *effort) solver(steps []fesd.StepRecord) {
	r.Steps = len(steps)
	for _, st := range steps {
		r.Iterations += st.Iterations
		if st.Status != mpcc.Solved {
			r.Failed++
		}
	}
}

// line is the solver line of a scene.
func (r effort) line() string {
	return fmt.Sprintf("%d steps, %d NLP iterations, %.2f s CPU", r.Steps, r.Iterations, r.CPU)
}
