package impactocp

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/fesd"
)

// TestBoxesImpact checks the box model of §5.3 against closed forms by
// simulating it (fesd.SimulateCLS, the options of Options) with a constant
// force u on the middle box, which starts at rest a gap of 1 from either
// neighbour. It slides with a = |u| − μ₄g (Coulomb friction μ₄ = 0.2 with
// the ground), reaches the neighbour at t₁ = √(2/a) with the speed
// v = a t₁, and the impact between equal masses with restitution e gives
// the middle box v(1 − e)/2 and the neighbour v(1 + e)/2 (conservation of
// momentum and Newton's law; no vertical motion, so no ground impulse and
// no friction impulse). Pushed right it hits the right box (e = 0.5),
// pushed left the left box (e = 0: both move on with v/2). Radau IIA
// integrates the piecewise constant accelerations exactly and FESD-J puts
// the impact on an element boundary, so the impact time and the normal
// velocities match to 1e-6, the post-impact velocities of the boxes to
// 1e-5 (measured: 3.5e-6, see tolV). Under -short pushed left only (0.9 s; the
// right push, 1.5 s, runs in the full suite; Newton's law with e > 0 is
// checked under -short by fesd's CLS tests, e.g. TestCLSZenoRestitutions).
func TestBoxesImpact(t *testing.T) {
	p, err := Boxes()
	if err != nil {
		t.Fatal(err)
	}
	// tolV is the tolerance of the post-impact velocities: at the impact
	// boundary the ground contacts, closed and at rest vertically, keep
	// normal impulses of about 1.8e-5 (the biactive impulse pairs of a
	// body resting on the obstacle, see fesd.CLSResult), and their
	// friction takes μΛ_n ≈ 3.5e-6 of horizontal velocity from each box.
	const tol, tolV = 1e-6, 1e-5
	for _, tc := range []struct {
		name     string
		u        float64
		contact  int // the impacting contact
		hit      int // index of the neighbour's horizontal velocity in x
		e, vSign float64
	}{
		{"right", 10, 1, 10, 0.5, 1},
		{"left", -10, 0, 6, 0, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name != "left" {
				t.Skip("-short: the impact with e = 0 only")
			}
			a := math.Abs(tc.u) - BoxesMu[3]*Gravity
			t1 := math.Sqrt(2 / a)
			v := a * t1
			r, err := fesd.SimulateCLS(context.Background(), p.CLS, BoxesX0,
				fesd.SimOptions{Options: Options(), TSim: 0.6, NSim: 3, U: []float64{tc.u}})
			if err != nil {
				t.Fatal(err)
			}
			imp := r.Impacts()
			if len(imp) != 1 {
				t.Fatalf("%d impacts, want 1: %+v", len(imp), imp)
			}
			ev := imp[0]
			if ev.Contact != tc.contact || math.Abs(ev.Time-t1) > tol {
				t.Errorf("impact of contact %d at t = %.9f, want contact %d at %.9f", ev.Contact, ev.Time, tc.contact, t1)
			}
			xs := r.XStart[ev.Boundary]
			if got, want := xs[8], tc.vSign*v*(1-tc.e)/2; math.Abs(got-want) > tolV {
				t.Errorf("middle box after the impact: v = %.9f, want %.9f", got, want)
			}
			if got, want := xs[tc.hit], tc.vSign*v*(1+tc.e)/2; math.Abs(got-want) > tolV {
				t.Errorf("hit box after the impact: v = %.9f, want %.9f", got, want)
			}
			// Newton's law on the normal velocity J_nᵀv (J_n has norm √2
			// here, the relative velocity is J_nᵀv)
			if math.Abs(ev.VnAfter+tc.e*ev.VnBefore) > tol || math.Abs(ev.VnBefore+v) > tol {
				t.Errorf("normal velocity %.9f → %.9f, want %.9f → %.9f", ev.VnBefore, ev.VnAfter, -v, tc.e*v)
			}
		})
	}
}

// TestDiscsImpact checks the disc model of §5.2 by simulating it
// (fesd.SimulateCLS, the options of Options) with the force u = (30, 0)
// on the first disc: it moves along the line of centres (the obstacle is
// a path constraint of the OCP, not part of the model) and hits the
// second disc, at rest, centrally. The contact is frictionless and
// inelastic, so the impact conserves momentum and leaves both discs with
// the common velocity m₁v⁻/(m₁ + m₂) along the line (the drag is a finite
// force and gives no impulse), and J_nᵀv⁺ = 0; checked to 1e-6.
func TestDiscsImpact(t *testing.T) {
	p, err := Discs()
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-6
	r, err := fesd.SimulateCLS(context.Background(), p.CLS, DiscsX0,
		fesd.SimOptions{Options: Options(), TSim: 0.8, NSim: 4, U: []float64{30, 0}})
	if err != nil {
		t.Fatal(err)
	}
	imp := r.Impacts()
	if len(imp) != 1 {
		t.Fatalf("%d impacts, want 1: %+v", len(imp), imp)
	}
	ev := imp[0]
	before, after := r.X[ev.Boundary], r.XStart[ev.Boundary]
	t.Logf("impact at t = %.6f: v₁ = %.6f → %.6f, v₂ = %.6f → %.6f", ev.Time, before[4], after[4], before[6], after[6])
	if d := after[2] - after[0]; math.Abs(d-(DiscRadius1+DiscRadius2)) > tol {
		t.Errorf("distance of the centres at the impact %.9f, want r₁ + r₂", d)
	}
	want := DiscMass1 * before[4] / (DiscMass1 + DiscMass2)
	if math.Abs(after[4]-want) > tol || math.Abs(after[6]-want) > tol || math.Abs(before[6]) > tol {
		t.Errorf("velocities %.9f, %.9f → %.9f, %.9f, want %.9f for both", before[4], before[6], after[4], after[6], want)
	}
	if math.Abs(ev.VnAfter) > tol {
		t.Errorf("J_nᵀv⁺ = %.3g, want 0 (inelastic)", ev.VnAfter)
	}
}
