package modelfile

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/reference"
	"github.com/fesd-go/fesd/internal/tutorial"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/rk"
)

// readModel parses a file of examples/models.
func readModel(t *testing.T, name string) *Model {
	t.Helper()
	path := filepath.Join("..", "examples", "models", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func maxDiff(a, b []float64) float64 {
	d := 0.0
	if len(a) != len(b) {
		return math.Inf(1)
	}
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// TestIRMAFile simulates examples/models/irma.toml and the Go model of
// examples/irma (reference.IRMARelativeModel with its simOptions) with the
// same stepper over the first 200 minutes (N_sim = 100, the quick start's
// step of 2 min): the NLPs have the same size, the switches are the same
// and x(200) agrees to 1e-12 (the two graphs differ only in x − θ written
// as a subtraction instead of x + (−θ), which rounds identically, so
// the runs are expected to agree bit for bit).
func TestIRMAFile(t *testing.T) {
	m := readModel(t, "irma.toml")
	goOpts := fesd.Options{
		Scheme: rk.FamilyRadauIIA, Stages: 2, NFE: 3,
		StepEquilibration: fesd.HeuristicMean,
		DCS:               dcs.Options{Formulation: dcs.Step},
		MPCC:              mpcc.Settings{CompTol: 1e-9},
		ActiveSetTol:      1e-6,
	}
	if m.Options != goOpts {
		t.Fatalf("options %+v, want examples/irma's %+v", m.Options, goOpts)
	}
	if maxDiff(m.X0, reference.IRMAX0) != 0 {
		t.Fatalf("x0 %v, want %v", m.X0, reference.IRMAX0)
	}
	sim := *m.Sim
	sim.TSim, sim.NSim = 200, 100
	ctx := context.Background()
	fileRun, err := simulate(ctx, m.Model, m.X0, nil, m.Options, &sim, nil)
	if err != nil {
		t.Fatal(err)
	}
	goModel, _ := reference.IRMARelativeModel(false)
	goRun, err := simulate(ctx, goModel, reference.IRMAX0, nil, goOpts, &sim, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fileRun.NumVariables != goRun.NumVariables || fileRun.NumConstraints != goRun.NumConstraints || fileRun.NumComplementarities != goRun.NumComplementarities {
		t.Errorf("NLP size %d/%d/%d, Go model %d/%d/%d", fileRun.NumVariables, fileRun.NumConstraints, fileRun.NumComplementarities, goRun.NumVariables, goRun.NumConstraints, goRun.NumComplementarities)
	}
	d := maxDiff(fileRun.Result.Final(), goRun.Result.Final())
	if d > 1e-12 {
		t.Errorf("x(200) differs by %.3g", d)
	}
	if len(fileRun.Switches) != len(goRun.Switches) {
		t.Fatalf("%d switches, Go model %d", len(fileRun.Switches), len(goRun.Switches))
	}
	for i, s := range fileRun.Switches {
		g := goRun.Switches[i]
		if s.Psi != g.Psi || s.Kind != g.Kind || math.Abs(s.T-g.T) > 1e-12 {
			t.Errorf("switch %d: %+v, Go model %+v", i, s, g)
		}
	}
	ex, err := reference.IRMAExact(reference.IRMAX0, 200)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("x(200) difference %.3g, %d switches (exact solution: %d), %d iterations", d, len(fileRun.Switches), len(ex.Events), fileRun.Iterations)
}

// TestTurboCarFile solves examples/models/turbocar.toml and the OCP of
// examples/turbocar's default run (v_max = 25 at the stage ends, Step DCS
// without step equilibration, the accelerate/coast/brake start) built in
// Go from internal/tutorial.TurboCar: the NLPs have the same size, T_f,
// the objective and the controls agree to 1e-12, and T_f is the discrete
// optimum (√58225 − 25)/18 of examples/turbocar's package comment to 1e-6
// (its test's tolerance).
func TestTurboCarFile(t *testing.T) {
	m := readModel(t, "turbocar.toml")
	gm, x, _ := tutorial.TurboCar()
	goProblem := &fesd.OCP{
		Model: gm, X0: []float64{0, 0}, N: 10, T: 10, NFE: []int{3},
		TimeOptimal: true,
		UL:          []float64{-5}, UU: []float64{5},
		XL: []float64{math.Inf(-1), -25}, XU: []float64{math.Inf(1), 25},
		Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-200), x[1]}}},
	}
	goOpts := fesd.Options{DCS: dcs.Options{Formulation: dcs.Step}, StepEquilibration: fesd.NoEquilibration}
	goStart := fesd.Start{UInit: [][]float64{{5}, {5}, {5}, {0}, {0}, {0}, {0}, {-5}, {-5}, {-5}}}
	if m.Options != goOpts {
		t.Fatalf("options %+v, want %+v", m.Options, goOpts)
	}
	ctx := context.Background()
	fileRes, err := fesd.SolveOCP(ctx, m.OCP.Problem, m.Options, m.OCP.Start)
	if err != nil {
		t.Fatal(err)
	}
	goRes, err := fesd.SolveOCP(ctx, goProblem, goOpts, goStart)
	if err != nil {
		t.Fatal(err)
	}
	compareOCP(t, fileRes, goRes)
	if want := (math.Sqrt(58225) - 25) / 18; math.Abs(fileRes.TFinal-want) > 1e-6 {
		t.Errorf("T_f = %.10f, want %.10f", fileRes.TFinal, want)
	}
}

// compareOCP checks that two OCP results of the same problem agree to
// 1e-12: status, NLP size, T_f, objective, controls and final state.
func compareOCP(t *testing.T, a, b *fesd.OCPResult) {
	t.Helper()
	if a.Status != b.Status || a.NumVariables != b.NumVariables || a.NumConstraints != b.NumConstraints || a.NumComplementarities != b.NumComplementarities {
		t.Errorf("file: %v, %d/%d/%d; Go: %v, %d/%d/%d", a.Status, a.NumVariables, a.NumConstraints, a.NumComplementarities,
			b.Status, b.NumVariables, b.NumConstraints, b.NumComplementarities)
	}
	du := 0.0
	for k := range a.U {
		du = math.Max(du, maxDiff(a.U[k], b.U[k]))
	}
	dx := maxDiff(a.Final(), b.Final())
	if d := math.Abs(a.TFinal - b.TFinal); d > 1e-12 {
		t.Errorf("T_f %.15g, Go %.15g", a.TFinal, b.TFinal)
	}
	if d := math.Abs(a.Objective - b.Objective); d > 1e-12 {
		t.Errorf("objective %.15g, Go %.15g", a.Objective, b.Objective)
	}
	if du > 1e-12 || dx > 1e-12 {
		t.Errorf("controls differ by %.3g, final states by %.3g", du, dx)
	}
	t.Logf("status %v, objective %.12g (Go %.12g), T_f %.12g, |Δu| %.3g, |Δx(T)| %.3g, %d iterations", a.Status, a.Objective, b.Objective, a.TFinal, du, dx, a.Iterations)
}
