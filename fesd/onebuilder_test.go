package fesd

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/mpcc"
)

// TestOneStageOCPIsSimulationStep: the simulator and the OCP solver share
// one transcription, so the one-stage OCP of a model with its control fixed
// is the simulation step. Solved from the same start (the state x₀ at every
// point), both must give the same element boundaries, states, step sizes,
// stage-point values and detected switches to 1e-12, for the closed-form
// tutorial cases (004 Example 3) in both DCS formulations, and for a model
// with a control that the OCP fixes by equal bounds. The simulation runs
// without the prediction (SimOptions.NoPredict), whose branch solve is
// another NLP than the OCP's homotopy.
func TestOneStageOCPIsSimulationStep(t *testing.T) {
	ctx := context.Background()
	type run struct {
		name string
		m    *dcs.Model
		x0   float64
		T    float64
		nfe  int
		u    []float64
	}
	var runs []run
	for _, c := range tutorialCases() {
		runs = append(runs, run{c.name, c.model(), c.x0, c.tsim / float64(c.nsim), c.nfe, nil})
	}
	// ẋ = u·(1 − 4·[x > 0]) from −1 with u = 2: crosses at t = 1/2.
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	u := g.SymVec("u", 1)
	m := dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[0]}, S: [][]int{{1}, {-1}}, F: []ad.Vec{{u[0].Scale(-3)}, {u[0]}}})
	runs = append(runs, run{"fixed control", m, -1, 0.8, 3, []float64{2}})

	switches := 0
	for _, r := range runs {
		for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
			// the simulation's default finish (certify the homotopy
			// point, keep it) for both
			// The same inner settings for both (an OCP's default relaxed
			// NLPs start with another inertia policy, ocpNLPSettings).
			inner := mpcc.DefaultNLPSettings()
			opts := Options{NFE: r.nfe, DCS: dcs.Options{Formulation: f}, MPCC: mpcc.Settings{Finish: mpcc.CertifyOnly, NLP: &inner}}
			sim, err := Simulate(ctx, r.m, []float64{r.x0}, SimOptions{Options: opts, TSim: r.T, NSim: 1, U: r.u, NoPredict: true})
			if err != nil {
				t.Fatalf("%s %v: %v", r.name, f, err)
			}
			p := &OCP{Model: r.m, X0: []float64{r.x0}, N: 1, T: r.T, UL: r.u, UU: r.u}
			ocp, err := SolveOCP(ctx, p, opts, Start{XInit: [][]float64{{r.x0}}, UInit: [][]float64{r.u}})
			if err != nil {
				t.Fatalf("%s %v: %v", r.name, f, err)
			}
			tol := 1e-12
			if ocp.Status != sim.Steps[0].Status {
				t.Errorf("%s %v: OCP %v, step %v", r.name, f, ocp.Status, sim.Steps[0].Status)
			}
			diff := func(what string, a, b []float64) {
				t.Helper()
				if len(a) != len(b) {
					t.Fatalf("%s %v: %s has %d and %d entries", r.name, f, what, len(a), len(b))
				}
				for i := range a {
					if d := math.Abs(a[i] - b[i]); d > tol {
						t.Errorf("%s %v: %s[%d]: OCP %.17g, step %.17g (|Δ| = %.1e)", r.name, f, what, i, a[i], b[i], d)
					}
				}
			}
			diff("T", ocp.T, sim.T)
			diff("H", ocp.H, sim.H)
			diff("PointT", ocp.PointT, sim.PointT)
			for i := range sim.X {
				diff("X", ocp.X[i], sim.X[i])
			}
			for i := range sim.PointZ {
				diff("PointX", ocp.PointX[i], sim.PointX[i])
				diff("PointZ", ocp.PointZ[i], sim.PointZ[i])
			}
			if len(ocp.Switches) != len(sim.Switches) {
				t.Errorf("%s %v: OCP %d switches, simulation %d", r.name, f, len(ocp.Switches), len(sim.Switches))
				continue
			}
			switches += len(sim.Switches)
			for i, s := range sim.Switches {
				o := ocp.Switches[i]
				if o.Kind != s.Kind || o.Boundary != s.Boundary || math.Abs(o.Time-s.Time) > tol {
					t.Errorf("%s %v: switch %d: OCP %v at %g (boundary %d), simulation %v at %g (boundary %d)",
						r.name, f, i, o.Kind, o.Time, o.Boundary, s.Kind, s.Time, s.Boundary)
				}
			}
		}
	}
	if switches < 6 {
		t.Errorf("%d switches compared, want at least 6 (a switch inside the first step of 3 runs in 2 formulations)", switches)
	}
}
