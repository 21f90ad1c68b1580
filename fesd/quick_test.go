package fesd

import (
	"context"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

func TestQuick(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[0]}, S: [][]int{{1}, {-1}}, F: []ad.Vec{{g.Const(1)}, {g.Const(3)}}})
	for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
		r, err := Simulate(context.Background(), m, []float64{-1}, SimOptions{TSim: 1, NSim: 3, Options: Options{NFE: 2, DCS: dcs.Options{Formulation: f}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: T %v", f, r.T)
		t.Logf("X %v", r.X)
		t.Logf("switches %+v", r.Switches)
		for _, s := range r.Steps {
			t.Logf("step %d status %v it %d comp %g nhom %d %v", s.Step, s.Status, s.Iterations, s.CompResidual, len(s.Homotopy), s.Elapsed)
		}
	}
}
