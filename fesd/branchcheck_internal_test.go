package fesd

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
)

// TestBranchSwitchInsideElement: the sign check of a branch solution
// (onBoundaries) on the time-freezing drop of package dcs (block of mass
// 2, μ = 0.2, a_n = 100, dropped from height 1 with v_x = −2; Step form,
// N_FE = 3, FE_FE). The frozen phase after the impact at τ₁ = √(2/g) ends
// when v_z reaches 0 at τ₂ = τ₁ + √(2g)·m/a_n (closed form), inside the
// step [0.5, 0.6]. Solved on its predicted branch, that step has an element
// boundary at τ₂ and passes the check; the homotopy from the exact
// solution of the previous step (no prediction) finds another solution of
// the FESD equations, whose v_z crosses zero between the points of an
// element (measured: boundaries at 0.537 and 0.569), and the check must
// reject exactly such a solution: it passes iff some boundary is at τ₂.
func TestBranchSwitchInsideElement(t *testing.T) {
	const m, grav, mu, an = 2.0, 9.81, 0.2, 100.0
	tau2 := math.Sqrt(2/grav) + math.Sqrt(2*grav)*m/an
	g := ad.NewGraph()
	q, v := g.SymVec("q", 2), g.SymVec("v", 2)
	M := g.Eye(2)
	for i := range M.E {
		M.E[i] = M.E[i].Scale(m)
	}
	rb := dcs.RigidBody{Graph: g, Q: q, V: v, M: M, FV: g.ConstVec(0, -m*grav),
		Contacts: []dcs.Contact{{Gap: q[1], TangentPos: q[0], Mu: mu}}}
	tf, err := dcs.NewTimeFreezing(rb, dcs.TimeFreezingOptions{Formulation: dcs.Step, AN: an})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{NFE: 3, CrossComp: FEFE, DCS: tf.DCSOptions(), MPCC: mpcc.Settings{CompTol: 1e-9}}
	const T = 0.1
	ctx := context.Background()
	x := []float64{0, 1, -2, 0, 0}
	sim, err := NewSimulator(tf.Model, o, T)
	if err != nil {
		t.Fatal(err)
	}
	sim.NoPredict = false
	for k := range 5 {
		sr, err := sim.Step(ctx, T*float64(k), x, nil, nil)
		if err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
		x = sr.Final()
	}
	prev := sim.prev
	check := func(name string, sr *StepResult) {
		t.Helper()
		w := sim.prev
		pv := sim.params(0.5, x, nil, nil, nil) // the states do not depend on the targets href
		ok, err := sim.onBoundaries(elementSigs(sim, w), w, pv, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		at := false
		for _, tb := range sr.T {
			at = at || math.Abs(tb-tau2) < 1e-6
		}
		t.Logf("%s: grid %.6f, τ₂ = %.6f, check %v", name, sr.T, tau2, ok)
		if ok != at {
			t.Errorf("%s: check %v, boundary at τ₂ %v (grid %v)", name, ok, at, sr.T)
		}
	}
	sr, err := sim.Step(ctx, 0.5, x, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sr.Record.Branch {
		t.Errorf("step [0.5, 0.6] not solved on its predicted branch")
	}
	check("branch", sr)
	sim.prev, sim.NoPredict = prev, true
	if sr, err = sim.Step(ctx, 0.5, x, nil, nil); err != nil {
		t.Fatal(err)
	}
	check("homotopy", sr)
}

// elementSigs returns the mode signature of every element of the solution
// w: a pair's selection is positive when its largest stage value exceeds
// the pair's largest multiplier in the element.
func elementSigs(s *Simulator, w []float64) [][]bool {
	tr, d := s.tr, s.d
	sigs := make([][]bool, tr.NE)
	for n := range sigs {
		for gi, grp := range d.Comp {
			for pi, pr := range grp.Pairs {
				l, v := 0.0, 0.0
				for _, a := range tr.lamPoints(n, pr.Lambda) {
					l = math.Max(l, w[a])
				}
				for m := 0; m < tr.ns; m++ {
					v = math.Max(v, w[tr.selIdx(d, n, m, gi, pi)])
				}
				sigs[n] = append(sigs[n], v > l)
			}
		}
	}
	return sigs
}
