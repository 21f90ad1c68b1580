package hopper_test

import (
	"fmt"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/internal/hopper"
)

// The task of stage_experiment.py at N = 60: three hops of 20 stages from
// x = 0.1 to x = 3; the OCP has the 9 states (q, v, t), the 4 controls and
// one tracking reference of 8 values per stage.
func ExampleStageExperiment() {
	t := hopper.StageExperiment(60)
	m, err := hopper.New(dcs.Step)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, opts, err := m.OCP(t)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.NumJumps(), len(p.X0), len(p.UL), len(p.PStage), len(p.PStage[0]), opts.MPCC.Sigma0)
	// Output:
	// 3 9 4 60 8 100
}
