package main

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fesd-go/fesd/internal/report"
)

// TestRun plays the default program (the ball with e = 0.9 over 10 s
// through its Zeno point, the block, the OCP; about 1 s of CPU) and checks
// every scene against its closed form (ball.go, block.go, ocp.go).
//
// Ball: impact k at t_k = √(2/g)(1 + 2e + … + 2e^{k−1}) with v⁻_k =
// −e^{k−1}√(2g), v⁺_k = e^k√(2g), and z + v²/(2g) = e^{2k} over the flight
// after it. Tolerance 1e-9 for the impacts before t = 8 s (the first 26;
// measured: 1.5e-12 at most). Closer to t* = 8.5789 s the active-set finish
// of some steps is rejected and those steps keep the homotopy's point
// (fesd's TestCLSBallZeno: errors of order √σ there), so the later impacts
// are held to 2e-6 in time and 1e-5 in velocity (measured: 5.1e-7,
// 1.6e-6). At least the impacts with t* − t_k ≥ 0.05 s (one nominal
// element; 49 of them) are resolved, the last one before t*; after it the
// ball rests (|z|, |v| ≤ 1e-8) at every boundary from the end of the
// element after the last impact on, and that end is within one nominal
// element of t*; x(10) is the closed form's rest to 1e-8.
//
// Block: landing at √(2/g) with Λ_n = √(2g) and v_x⁺ = 3 − μ√(2g), the
// stop (a stick event) at t₁ + v_x⁺/(μg), x_s = 3t₁ + (v_x⁺)²/(2μg), and
// the state at every element boundary, to 1e-9 (measured: landing 6.7e-14,
// stop 5.0e-10, states 3.9e-12).
//
// OCP: status Solved with complementarity ≤ 1e-6 (the bar), the
// objective, the controls and the impact to 1e-6 of the closed form
// (measured: 3e-16 relative, 4e-14, 6e-17).
func TestRun(t *testing.T) {
	dir := t.TempDir()
	o := defaultOptions()
	o.Out = dir
	s, err := run(context.Background(), io.Discard, o)
	if err != nil {
		t.Fatal(err)
	}

	b := s.Ball
	ex := newBallExact(o.E)
	tStar := ex.zeno()
	want := 0 // closed-form impacts with t* − t_k ≥ 0.05
	for k := 1; ; k++ {
		if tk, _, _ := ex.impact(k); tStar-tk < 0.05 {
			break
		}
		want++
	}
	if b.Impacts < want {
		t.Fatalf("ball: %d impacts, want at least %d", b.Impacts, want)
	}
	var early, lateT, lateV float64
	for _, im := range b.List {
		if im.TExact < 8 {
			early = math.Max(early, math.Max(im.TErr, math.Max(im.VErr, im.ApexErr)))
		} else {
			lateT, lateV = math.Max(lateT, im.TErr), math.Max(lateV, im.VErr)
		}
	}
	t.Logf("ball: %d impacts (%d within 1e-9); before 8 s max error %.1e; later %.1e (time), %.1e (velocity); rest from %.4f (t* = %.4f); %s",
		b.Impacts, b.Within1e9, early, lateT, lateV, b.RestFrom, tStar, b.effort.line())
	if early > 1e-9 {
		t.Errorf("ball: impacts before 8 s off by %.2g from the closed form, want ≤ 1e-9", early)
	}
	if lateT > 2e-6 || lateV > 1e-5 {
		t.Errorf("ball: impacts after 8 s off by %.2g (time), %.2g (velocity), want ≤ 2e-6, 1e-5", lateT, lateV)
	}
	if b.LastImpact >= tStar {
		t.Errorf("ball: last impact at %.6f, after t* = %.6f", b.LastImpact, tStar)
	}
	if len(b.AfterLast) != 2 || b.RestFrom < 0 || b.RestFrom > b.AfterLast[1] || b.RestErr > 1e-8 {
		t.Errorf("ball: rest from %v (|x| ≤ %.2g), want from the end of the element after the last impact %v", b.RestFrom, b.RestErr, b.AfterLast)
	}
	if math.Abs(b.RestFrom-tStar) > 0.05 {
		t.Errorf("ball: rest from %.6f, more than one element from t* = %.6f", b.RestFrom, tStar)
	}
	if b.FinalErr > 1e-8 {
		t.Errorf("ball: x(10) off by %.2g from rest", b.FinalErr)
	}

	k := s.Block
	t.Logf("block: landing error %.1e, stop error %.1e, state error %.1e; %s", k.LandingErr, k.StopErr, k.MaxStateErr, k.effort.line())
	if !k.FoundLandingOK || !k.FoundStopOK || k.LandingErr > 1e-9 || k.StopErr > 1e-9 || k.MaxStateErr > 1e-9 {
		t.Errorf("block: landing %v (error %.2g), stop %v (error %.2g), state error %.2g; want both within 1e-9",
			k.FoundLandingOK, k.LandingErr, k.FoundStopOK, k.StopErr, k.MaxStateErr)
	}
	if len(k.Events) != 2 || k.Events[0].Kind != "impact" || k.Events[1].Kind != "stick" {
		t.Errorf("block: events %+v, want an impact and a stick", k.Events)
	}

	c := s.OCP
	t.Logf("OCP: %s, objective error %.1e (relative), controls %.1e, impact %.1e; %s", c.Status, c.ObjErr, c.UErr, c.ImpactErr, c.effort.line())
	if c.Status != "Solved" || c.CompResidual > 1e-6 || c.ObjErr > 1e-6 || c.UErr > 1e-6 || c.Impacts != 1 || c.ImpactErr > 1e-6 {
		t.Errorf("OCP: %+v, want Solved at the closed form to 1e-6 with one impact", c)
	}

	for _, f := range []string{"ball.png", "ball.svg", "ball_zeno.png", "ball_impacts.csv", "ball_trajectory.csv",
		"block.png", "block_events.csv", "block_trajectory.csv", "ocp.png", "ocp_trajectory.csv", "ocp_controls.csv", "summary.json"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var js struct {
		Ball struct {
			Impacts int     `json:"impacts"`
			Zeno    float64 `json:"zeno_time"`
		} `json:"ball"`
		Files []string `json:"files"`
	}
	if err := json.Unmarshal(raw, &js); err != nil {
		t.Fatal(err)
	}
	if js.Ball.Impacts != b.Impacts || js.Ball.Zeno != tStar || len(js.Files) != len(s.Files) {
		t.Errorf("summary.json: %+v", js)
	}
}

// TestBallRestitution: the ball over 3 s with e = 1 (no accumulation:
// impacts every 2√(2/g) after the first, three in [0, 3]) and e = 0 (at
// rest after the first impact): the impacts to 1e-9 of the closed form
// (ballExact) and x(3) to 1e-9.
func TestBallRestitution(t *testing.T) {
	for _, c := range []struct {
		e       float64
		impacts int
	}{{1, 3}, {0, 1}} {
		o := defaultOptions()
		o.E, o.TBall = c.e, 3
		_, s, err := ballScene(context.Background(), o, nil)
		if err != nil {
			t.Fatalf("e = %g: %v", c.e, err)
		}
		if s.Impacts != c.impacts || s.Within1e9 != c.impacts || s.FinalErr > 1e-9 || s.ZenoTime != 0 {
			t.Errorf("e = %g: %d impacts (%d within 1e-9, want %d), x(3) error %.2g, t* %v",
				c.e, s.Impacts, s.Within1e9, c.impacts, s.FinalErr, s.ZenoTime)
		}
	}
}

// TestBallExact checks the closed form itself: the height is 0 at every
// impact time when approached from the flight before it, and the impact
// times accumulate at t*.
func TestBallExact(t *testing.T) {
	ex := newBallExact(0.9)
	for k := 1; k < 40; k++ {
		tk, vm, _ := ex.impact(k)
		z, v := ex.state(tk - 1e-12)
		if math.Abs(z) > 1e-10 || math.Abs(v-vm) > 1e-9 {
			t.Errorf("impact %d at %.15g: the flight before it ends at z = %.3g, v = %.15g (want 0, %.15g)", k, tk, z, v, vm)
		}
	}
	if t200, _, _ := ex.impact(400); math.Abs(t200-ex.zeno()) > 1e-12 {
		t.Errorf("t_400 = %.15g, t* = %.15g", t200, ex.zeno())
	}
}

// TestFlags: -h is flag.ErrHelp (main exits 0), bad values are errors of
// run, not panics.
func TestFlags(t *testing.T) {
	if _, err := parseFlags([]string{"-h"}, io.Discard); !report.IsHelp(err) {
		t.Errorf("-h: %v, want flag.ErrHelp", err)
	}
	if _, err := parseFlags([]string{"extra"}, io.Discard); err == nil {
		t.Error("a stray argument is accepted")
	}
	o, err := parseFlags([]string{"-e", "0.5", "-T", "2"}, io.Discard)
	if err != nil || o.E != 0.5 || o.TBall != 2 {
		t.Errorf("-e 0.5 -T 2: %+v, %v", o, err)
	}
	for _, bad := range []func(*options){
		func(o *options) { o.E = 1.5 },
		func(o *options) { o.E = math.NaN() },
		func(o *options) { o.Mu = 0 },
		func(o *options) { o.TBall = 0 },
	} {
		o := defaultOptions()
		o.Out = t.TempDir()
		bad(&o)
		if _, err := run(context.Background(), io.Discard, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}
