package fesd_test

import (
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/monopod"
)

// TestTemplateBuildMonopod: the monopod OCP of 004 §7.2 (time freezing,
// stage speed of time, stage-end clock constraints, tracking cost, state
// bounds) compiled with the element template is the NLP of the symbolic
// expansion (values to 1e-12 relative), in both DCS formulations.
func TestTemplateBuildMonopod(t *testing.T) {
	for _, form := range []dcs.Formulation{dcs.Step, dcs.Stewart} {
		if testing.Short() && form != dcs.Step {
			continue // -short: the Step formulation
		}
		m, err := monopod.New(form, 0)
		if err != nil {
			t.Fatal(err)
		}
		p, opts, err := m.OCP(monopod.Task{N: 3, T: 0.3, Distance: 0.1}, monopod.Discretization{})
		if err != nil {
			t.Fatal(err)
		}
		fesd.CompareBuildsForTest(t, form.String(), p, opts)
	}
}
