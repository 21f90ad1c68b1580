package fesd

import (
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// TestAtSurfaces: the alternatives of a time-stepping branch whose mode
// changes at two stage points (no previous step): first both points on
// their surfaces (the selections of both modes positive), then each alone;
// a branch without a mode change, or a FESD branch, has none.
func TestAtSurfaces(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[0]}, S: [][]int{{1}, {-1}}, F: []ad.Vec{{g.Const(-1)}, {g.Const(1)}}})
	sim, err := NewSimulator(m, Options{NFE: 2, Stages: 2, DisableFESD: true}, 1)
	if err != nil {
		t.Fatal(err)
	}
	a, b := []bool{true, false}, []bool{false, true}
	pr := &prediction{psigs: [][][]bool{{a, b}, {b, a}}} // changes at (0,1) and (1,1)
	alts := sim.atSurfaces(pr)
	if len(alts) != 3 {
		t.Fatalf("%d alternatives, want 3", len(alts))
	}
	both := []bool{true, true}
	want := [][][][]bool{
		{{a, both}, {b, both}},
		{{a, both}, {b, a}},
		{{a, b}, {b, both}},
	}
	for i, alt := range alts {
		for n := range want[i] {
			for k := range want[i][n] {
				if !sameSig(alt.psigs[n][k], want[i][n][k]) {
					t.Errorf("alternative %d, point (%d,%d): %v, want %v", i, n, k, alt.psigs[n][k], want[i][n][k])
				}
			}
		}
	}
	if !sameSig(pr.psigs[0][1], b) || !sameSig(pr.psigs[1][1], a) {
		t.Errorf("the prediction was modified: %v", pr.psigs)
	}
	if alts := sim.atSurfaces(&prediction{psigs: [][][]bool{{a, a}, {a, a}}}); alts != nil {
		t.Errorf("no mode change: %d alternatives", len(alts))
	}
	if alts := sim.atSurfaces(&prediction{sigs: [][]bool{a, b}}); alts != nil {
		t.Errorf("FESD branch: %d alternatives", len(alts))
	}
}
