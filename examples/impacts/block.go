package main

import (
	"context"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// blockModel is the block: a point of unit mass at q = (x, z) under
// gravity, M = I, f_v = (0, −g), one inelastic contact (e = 0) with the
// gap f_c = z, the tangential coordinate x and Coulomb friction μ.
func blockModel(mu float64) (*dcs.CLS, error) {
	g := ad.NewGraph()
	q, v := g.SymVec("q", 2), g.SymVec("v", 2)
	M, err := ad.NewMat(2, 2, g.Const(1), g.Const(0), g.Const(0), g.Const(1))
	if err != nil {
		return nil, err
	}
	return dcs.NewCLS(dcs.RigidBody{Graph: g, Q: q, V: v, M: M, FV: g.ConstVec(0, -grav),
		Contacts: []dcs.Contact{{Name: "ground", Gap: q[1], TangentPos: q[0], Mu: mu}}})
}

// The block starts at height 1 with the horizontal velocity blockVX0
// and is simulated in steps of blockStep over 1.5 s, or to 0.3 s after
// its closed-form stop if that is later (small μ).
const (
	blockVX0  = 3.0
	blockStep = 0.1
)

// blockHorizon returns the number of steps of the block scene.
func blockHorizon(ex blockExact) int {
	return max(15, int(math.Ceil((ex.ts+0.3)/blockStep)))
}

// blockExact is the closed form of the block thrown horizontally with the
// velocity v₀ from height 1: free flight x = v₀t, z = 1 − g t²/2 until
// it lands at t₁ = √(2/g) with the normal velocity −√(2g). The inelastic
// impact takes the normal velocity to zero with the normal impulse
// Λ_n = √(2g) (unit mass), and the Coulomb impulse μΛ_n against the
// motion takes the horizontal velocity to v₁ = v₀ − μ√(2g) (if positive).
// Then it slides with the deceleration μg and sticks at
// t_s = t₁ + v₁/(μg), x_s = v₀t₁ + v₁²/(2μg), where it stays.
type blockExact struct {
	mu, v0, t1, lam, v1, ts, xs float64
}

func newBlockExact(mu, v0 float64) blockExact {
	b := blockExact{mu: mu, v0: v0, t1: math.Sqrt(2 / grav), lam: math.Sqrt(2 * grav)}
	b.v1 = math.Max(v0-mu*b.lam, 0)
	b.ts, b.xs = b.t1, v0*b.t1
	if b.v1 > 0 {
		b.ts = b.t1 + b.v1/(mu*grav)
		b.xs = v0*b.t1 + b.v1*b.v1/(2*mu*grav)
	}
	return b
}

// state returns (x, z, v_x, v_z) at t (after the impulse at t₁).
func (b blockExact) state(t float64) []float64 {
	switch {
	case t < b.t1:
		return []float64{b.v0 * t, 1 - grav*t*t/2, b.v0, 0 - grav*t}
	case t < b.ts:
		s := t - b.t1
		return []float64{b.v0*b.t1 + b.v1*s - b.mu*grav*s*s/2, 0, b.v1 - b.mu*grav*s, 0}
	}
	return []float64{b.xs, 0, 0, 0}
}

// blockSummary is the sliding-block scene in summary.json.
type blockSummary struct {
	Mu float64 `json:"mu"`
	T  float64 `json:"T"`
	// Landing: time, impulse Λ_n and horizontal velocity after it, with
	// their closed forms and errors.
	Landing        float64 `json:"landing"`
	LandingExact   float64 `json:"landing_closed_form"`
	Impulse        float64 `json:"impulse"`
	ImpulseExact   float64 `json:"impulse_closed_form"`
	VxAfter        float64 `json:"vx_after"`
	VxAfterExact   float64 `json:"vx_after_closed_form"`
	Stop           float64 `json:"stop"`
	StopExact      float64 `json:"stop_closed_form"`
	XStop          float64 `json:"x_stop"`
	XStopExact     float64 `json:"x_stop_closed_form"`
	LandingErr     float64 `json:"landing_error"` // max of the time, impulse and v_x errors
	StopErr        float64 `json:"stop_error"`    // max of the time and position errors
	MaxStateErr    float64 `json:"max_state_error"`
	Events         []event `json:"events"`
	FoundLandingOK bool    `json:"landing_found"`
	FoundStopOK    bool    `json:"stop_found"`
	effort
}

// event is a contact event in summary.json.
type event struct {
	Kind   string  `json:"kind"`
	T      float64 `json:"t"`
	Before string  `json:"before"`
	After  string  `json:"after"`
}

func events(evs []fesd.ContactEvent) []event {
	out := []event{}
	for _, ev := range evs {
		out = append(out, event{Kind: ev.Kind.String(), T: ev.Time, Before: ev.Before.String(), After: ev.After.String()})
	}
	return out
}

// blockScene simulates the block from (x, z) = (0, 1) with the velocity
// (3, 0) over [0, 1.5] in 15 steps (longer for a late stop: blockHorizon)
// and compares it with the closed form: the landing is the impact event,
// the stop the stick event (or the landing, if its impulse stops the
// block).
func blockScene(ctx context.Context, o options) (*fesd.CLSResult, *blockSummary, error) {
	c, err := blockModel(o.Mu)
	if err != nil {
		return nil, nil, err
	}
	ex := newBlockExact(o.Mu, blockVX0)
	s := &blockSummary{Mu: o.Mu, T: float64(blockHorizon(ex)) * blockStep, LandingExact: ex.t1, ImpulseExact: ex.lam, VxAfterExact: ex.v1,
		StopExact: ex.ts, XStopExact: ex.xs}
	var r *fesd.CLSResult
	s.effort, err = timed(func() error {
		var err error
		n := blockHorizon(ex)
		r, err = fesd.SimulateCLS(ctx, c, []float64{0, 1, blockVX0, 0}, fesd.SimOptions{TSim: float64(n) * blockStep, NSim: n})
		return err
	})
	if r == nil {
		return nil, nil, err
	}
	s.solver(r.Steps)
	s.Events = events(r.Events)
	for _, ev := range r.Events {
		switch {
		case ev.Kind == fesd.ContactImpact && !s.FoundLandingOK:
			s.FoundLandingOK = true
			s.Landing, s.Impulse, s.VxAfter = ev.Time, ev.Impulse, r.XStart[ev.Boundary][2]
			s.LandingErr = math.Max(math.Abs(s.Landing-ex.t1), math.Max(math.Abs(s.Impulse-ex.lam), math.Abs(s.VxAfter-ex.v1)))
			if ex.v1 == 0 && ev.After == fesd.ContactSticking {
				// μ√(2g) ≥ v₀: the landing impulse stops the block
				s.FoundStopOK = true
				s.Stop, s.XStop = ev.Time, r.X[ev.Boundary][0]
				s.StopErr = math.Max(math.Abs(s.Stop-ex.ts), math.Abs(s.XStop-ex.xs))
			}
		case ev.Kind == fesd.ContactStick && !s.FoundStopOK:
			s.FoundStopOK = true
			s.Stop, s.XStop = ev.Time, r.X[ev.Boundary][0]
			s.StopErr = math.Max(math.Abs(s.Stop-ex.ts), math.Abs(s.XStop-ex.xs))
		}
	}
	for i, x := range r.X {
		want := ex.state(r.T[i])
		if math.Abs(r.T[i]-ex.t1) < 1e-12 { // before the impulse at the landing
			want[3] = -ex.lam
			want[2] = ex.v0
		}
		for j := range x {
			s.MaxStateErr = math.Max(s.MaxStateErr, math.Abs(x[j]-want[j]))
		}
	}
	return r, s, err
}
