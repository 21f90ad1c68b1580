package modelfile

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/cartpole"
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
// examples/irma (reference.IRMARelativeModel with its simOptions) through
// Model.Simulate's fesd.Simulate (which splits steps, as examples/irma's
// run) over the quick start's 1000 minutes in 500 steps (with -short the
// first 200 minutes in 100 steps): the NLPs have the
// same size, the switches are the same and those of the exact solution
// (internal/reference.IRMAExact: 36, with -short 7), and x(T) agrees to
// 1e-12 (the two graphs differ only in x − θ written as a subtraction
// instead of x + (−θ), which rounds identically, so the runs are expected
// to agree bit for bit).
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
	sim := *m.Sim // the full 1000 minutes in 500 steps
	if testing.Short() {
		sim.TSim, sim.NSim = 200, 100
	}
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
		t.Errorf("x(%g) differs by %.3g", sim.TSim, d)
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
	ex, err := reference.IRMAExact(reference.IRMAX0, sim.TSim)
	if err != nil {
		t.Fatal(err)
	}
	if len(fileRun.Switches) != len(ex.Events) {
		t.Errorf("%d switches, the exact solution has %d", len(fileRun.Switches), len(ex.Events))
	}
	t.Logf("x(%g) difference %.3g, %d switches (exact solution: %d), %d iterations", sim.TSim, d, len(fileRun.Switches), len(ex.Events), fileRun.Iterations)
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

// TestFrictionFile simulates examples/models/friction.toml and the Go
// model of examples/friction (reference.FrictionModel with FrictionSplit)
// with fesd.Simulate and examples/friction's settings (Step DCS, Radau
// IIA n_s = 2, N_FE = 4, h = 0.05) over [0, 10] ([0, 2] with -short): the same switches (fesd's detection) and x(T) to
// 1e-12. The full run must give the paper's 22 switches (Stewart 1996 §5;
// examples/friction measures 22), and Model.Simulate (fesd.Simulate with
// ψ renumbered as dcs.Model.EvalPsi) must report the same 22 (times to
// 1e-9, kinds equal).
func TestFrictionFile(t *testing.T) {
	m := readModel(t, "friction.toml")
	goOpts := fesd.Options{Scheme: rk.FamilyRadauIIA, Stages: 2, NFE: 4, DCS: dcs.Options{Formulation: dcs.Step}}
	if m.Options != goOpts || maxDiff(m.X0, reference.FrictionX0) != 0 {
		t.Fatalf("options %+v, x0 %v; want %+v, %v", m.Options, m.X0, goOpts, reference.FrictionX0)
	}
	tsim, nsim := m.Sim.TSim, m.Sim.NSim
	if testing.Short() {
		tsim, nsim = 2, 40
	}
	ctx := context.Background()
	so := fesd.SimOptions{TSim: tsim, NSim: nsim, Options: goOpts}
	fileRes, err := fesd.Simulate(ctx, m.Model, m.X0, so)
	if err != nil {
		t.Fatal(err)
	}
	goRes, err := fesd.Simulate(ctx, reference.FrictionModel(reference.FrictionSplit), reference.FrictionX0, so)
	if err != nil {
		t.Fatal(err)
	}
	d := maxDiff(fileRes.Final(), goRes.Final())
	if d > 1e-12 {
		t.Errorf("x(%g) differs by %.3g", tsim, d)
	}
	if len(fileRes.Switches) != len(goRes.Switches) {
		t.Fatalf("%d switches, Go model %d", len(fileRes.Switches), len(goRes.Switches))
	}
	for i, s := range fileRes.Switches {
		g := goRes.Switches[i]
		if s.Subsystem != g.Subsystem || s.Psi != g.Psi || s.Kind != g.Kind || math.Abs(s.Time-g.Time) > 1e-12 {
			t.Errorf("switch %d: %v %d at %.12g, Go model %v %d at %.12g", i, s.Kind, s.Subsystem, s.Time, g.Kind, g.Subsystem, g.Time)
		}
	}
	t.Logf("x(%g) difference %.3g, %d switches", tsim, d, len(fileRes.Switches))
	if testing.Short() {
		return
	}
	if len(fileRes.Switches) != 22 {
		t.Errorf("%d switches, want 22", len(fileRes.Switches))
	}
	run, err := m.Simulate(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Switches) != len(fileRes.Switches) {
		t.Fatalf("Model.Simulate: %d switches, fesd.Simulate %d", len(run.Switches), len(fileRes.Switches))
	}
	for i, s := range run.Switches {
		g := fileRes.Switches[i]
		want := strings.ReplaceAll(g.Kind.String(), " ", "_")
		if s.Psi != g.Subsystem || s.Kind != want || math.Abs(s.T-g.Time) > 1e-9 {
			t.Errorf("switch %d: %+v, fesd.Simulate ψ%d %s at %.12g", i, s, g.Subsystem, want, g.Time)
		}
	}
	// Stewart's formulation (θ, λ) through Model.Simulate: the same 22
	// switches; the two formulations' discrete solutions may differ, so
	// times within 1e-6 (examples/friction: switch times within 8.3e-7 of
	// the exact ones; measured 2.7e-15, both put the element boundaries at
	// the predicted events).
	if err := m.SetOption("DCS.Formulation", "stewart"); err != nil {
		t.Fatal(err)
	}
	stew, err := m.Simulate(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(stew.Switches) != len(run.Switches) {
		t.Fatalf("Stewart: %d switches %+v, Step %d", len(stew.Switches), stew.Switches, len(run.Switches))
	}
	dt := 0.0
	for i, s := range stew.Switches {
		g := run.Switches[i]
		dt = math.Max(dt, math.Abs(s.T-g.T))
		if s.Psi != g.Psi || s.Kind != g.Kind || math.Abs(s.T-g.T) > 1e-6 {
			t.Errorf("Stewart switch %d: %+v, Step %+v", i, s, g)
		}
	}
	t.Logf("Stewart vs Step switch times: max difference %.2e", dt)
}

// TestNLPSizes: the simulation step NLPs of the friction and bouncing-ball
// files have the sizes of those of their Go models.
func TestNLPSizes(t *testing.T) {
	m := readModel(t, "friction.toml")
	b := readModel(t, "bouncingball.toml")
	g := ad.NewGraph()
	q, v := g.SymVec("q", 1), g.SymVec("v", 1)
	M, err := ad.NewMat(1, 1, g.Const(1))
	if err != nil {
		t.Fatal(err)
	}
	tf, err := dcs.NewTimeFreezing(dcs.RigidBody{Graph: g, Q: q, V: v, M: M, FV: ad.Vec{g.Const(-9.81)},
		Contacts: []dcs.Contact{{Gap: q[0]}}}, dcs.TimeFreezingOptions{Formulation: dcs.Step, AN: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		file, ref *dcs.Model
		m         *Model
	}{{"friction", m.Model, reference.FrictionModel(reference.FrictionSplit), m}, {"bouncing ball", b.Model, tf.Model, b}} {
		T := c.m.Sim.TSim / float64(c.m.Sim.NSim)
		a, err := fesd.NewSimulator(c.file, c.m.Options, T)
		if err != nil {
			t.Fatal(err)
		}
		r, err := fesd.NewSimulator(c.ref, c.m.Options, T)
		if err != nil {
			t.Fatal(err)
		}
		if a.NumVariables() != r.NumVariables() || a.NumConstraints() != r.NumConstraints() || a.NumComplementarities() != r.NumComplementarities() {
			t.Errorf("%s: %d/%d/%d, Go model %d/%d/%d", c.name, a.NumVariables(), a.NumConstraints(), a.NumComplementarities(),
				r.NumVariables(), r.NumConstraints(), r.NumComplementarities())
		}
	}
}

// TestSlidingOCPFile solves examples/models/slidingocp.toml and the OCP of
// examples/slidingocp's default run (internal/tutorial.SlidingMode, N = 6,
// N_FE = 6, Stewart, FE_FE, the zero start): the same NLP, objective,
// controls and x(T) to 1e-12, and the target (−π/6, −π/4) reached to 1e-8.
func TestSlidingOCPFile(t *testing.T) {
	m := readModel(t, "slidingocp.toml")
	gm, x := tutorial.SlidingMode()
	target := tutorial.SlidingModeTarget
	goProblem := &fesd.OCP{
		Model: gm, X0: []float64{2 * math.Pi / 3, math.Pi / 3, 0, 0},
		N: 6, T: 4, NFE: []int{6},
		UL: []float64{-10, -10}, UU: []float64{10, 10},
		Lagrange: ad.Sq(x[2]).Add(ad.Sq(x[3])),
		Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-target[0]), x[1].AddConst(-target[1])}}},
	}
	goOpts := fesd.Options{Stages: 2, DCS: dcs.Options{Formulation: dcs.Stewart}, CrossComp: fesd.FEFE}
	if m.Options != goOpts || maxDiff(m.X0, goProblem.X0) != 0 {
		t.Fatalf("options %+v, x0 %v; want %+v, %v", m.Options, m.X0, goOpts, goProblem.X0)
	}
	ctx := context.Background()
	fileRes, err := fesd.SolveOCP(ctx, m.OCP.Problem, m.Options, m.OCP.Start)
	if err != nil {
		t.Fatal(err)
	}
	goRes, err := fesd.SolveOCP(ctx, goProblem, goOpts, fesd.Start{})
	if err != nil {
		t.Fatal(err)
	}
	compareOCP(t, fileRes, goRes)
	xT := fileRes.Final()
	if math.Abs(xT[0]-target[0]) > 1e-8 || math.Abs(xT[1]-target[1]) > 1e-8 {
		t.Errorf("x(T) = %v, target %v", xT, target)
	}
}

// TestCartPoleFile solves examples/models/cartpole.toml and
// internal/cartpole.Problem with examples/cartpole's defaults (N = 20,
// N_FE = 2, Step DCS, the linear initial guess): the same NLP, objective,
// controls and x(T) to 1e-12.
func TestCartPoleFile(t *testing.T) {
	m := readModel(t, "cartpole.toml")
	x0 := []float64{1, 0, 0, 0}
	goProblem := cartpole.Problem(x0, 20, 2)
	goOpts := fesd.Options{DCS: dcs.Options{Formulation: dcs.Step}}
	if m.Options != goOpts || maxDiff(m.X0, x0) != 0 {
		t.Fatalf("options %+v, x0 %v", m.Options, m.X0)
	}
	ctx := context.Background()
	fileRes, err := fesd.SolveOCP(ctx, m.OCP.Problem, m.Options, m.OCP.Start)
	if err != nil {
		t.Fatal(err)
	}
	goRes, err := fesd.SolveOCP(ctx, goProblem, goOpts, fesd.Start{XInit: cartpole.LinearGuess(x0, 20)})
	if err != nil {
		t.Fatal(err)
	}
	compareOCP(t, fileRes, goRes)
}

// TestBouncingBallFile simulates examples/models/bouncingball.toml and the
// same time-freezing system built in Go (dcs.NewTimeFreezing of the rigid
// body z̈ = −9.81 with the frictionless contact z ≥ 0, a_n = 100) with
// Model.Simulate: x(1) agrees to 1e-12 and the switches are the
// same. Against the closed form of the file's comment: landing at τ = t* =
// √(2/g), rest at t*(1 + g/a_n), the clock t(1) = t* + (1 − t*(1 +
// g/a_n))·a_n/(a_n + g) = 0.91066387…; tolerance 1e-8 (the motion is
// piecewise quadratic, which Radau IIA with n_s = 2 integrates exactly, and
// the switches are on element boundaries; measured below 1e-12).
func TestBouncingBallFile(t *testing.T) {
	m := readModel(t, "bouncingball.toml")
	g := ad.NewGraph()
	q, v := g.SymVec("q", 1), g.SymVec("v", 1)
	M, err := ad.NewMat(1, 1, g.Const(1))
	if err != nil {
		t.Fatal(err)
	}
	tf, err := dcs.NewTimeFreezing(dcs.RigidBody{Graph: g, Q: q, V: v, M: M, FV: ad.Vec{g.Const(-9.81)},
		Contacts: []dcs.Contact{{Gap: q[0]}}}, dcs.TimeFreezingOptions{Formulation: dcs.Step, AN: 100})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	fileRun, err := m.Simulate(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	goRun, err := simulate(ctx, tf.Model, []float64{1, 0, 0}, nil, m.Options, m.Sim, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := maxDiff(fileRun.Result.Final(), goRun.Result.Final())
	if d > 1e-12 || len(fileRun.Switches) != len(goRun.Switches) {
		t.Fatalf("x(1) differs by %.3g; switches %+v, Go model %+v", d, fileRun.Switches, goRun.Switches)
	}
	ts := math.Sqrt(2 / 9.81)
	rest := ts * (1 + 9.81/100)
	clock := ts + (1-rest)*100/(100+9.81)
	sw := fileRun.Switches
	if len(sw) != 2 || sw[0].Psi != 0 || sw[1].Psi != 1 || math.Abs(sw[0].T-ts) > 1e-8 || math.Abs(sw[1].T-rest) > 1e-8 {
		t.Errorf("switches %+v, want ψ0 at %.12g (landing) and ψ1 at %.12g (rest)", sw, ts, rest)
	}
	x := fileRun.Result.Final()
	if math.Abs(x[0]) > 1e-8 || math.Abs(x[1]) > 1e-8 || math.Abs(x[2]-clock) > 1e-8 {
		t.Errorf("x(1) = %v, want (0, 0, %.12g)", x, clock)
	}
	t.Logf("landing error %.2e, rest error %.2e, clock error %.2e", sw[0].T-ts, sw[1].T-rest, x[2]-clock)
}

// regionsFile merges the four base sets of two switching functions into
// three modes: {ψ₀ > 0} (two base sets), {ψ₀ < 0, ψ₁ > 0} and the base set
// (−, −).
const regionsFile = `
[[state]]
name = "x"
size = 2
x0 = [1, 0.5]

[[subsystem]]
psi = "x"
regions = ["positive(0)", "intersection(negative(0), positive(1))", "base(3)"]
modes = ["[-1, 0.2]", "[-0.5, -1]", "[0.3, 0.3]"]

[options]
NFE = 3

[simulate]
TSim = 2
NSim = 4
`

// TestRegionsFile simulates regionsFile and the same model built in Go
// with dcs.Regions (fesd.Simulate, Stewart's DCS): x(2) and the switches
// agree to 1e-12; the first switch is ψ₀'s crossing at t = 1 (x₀ = 1 − t)
// to 1e-8.
func TestRegionsFile(t *testing.T) {
	m, err := Parse("regions.toml", []byte(regionsFile))
	if err != nil {
		t.Fatal(err)
	}
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	gm := dcs.NewModel(g, x, nil, nil)
	gm.AddSubsystem(dcs.Subsystem{
		Psi: x, S: dcs.DefaultSigns(2),
		Regions: []dcs.Region{dcs.Positive(0), dcs.Intersection(dcs.Negative(0), dcs.Positive(1)), dcs.BaseSet(3)},
		F:       []ad.Vec{g.ConstVec(-1, 0.2), g.ConstVec(-0.5, -1), g.ConstVec(0.3, 0.3)},
	})
	so := fesd.SimOptions{TSim: 2, NSim: 4, Options: m.Options}
	ctx := context.Background()
	fileRes, err := fesd.Simulate(ctx, m.Model, m.X0, so)
	if err != nil {
		t.Fatal(err)
	}
	goRes, err := fesd.Simulate(ctx, gm, []float64{1, 0.5}, so)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(fileRes.Final(), goRes.Final()); d > 1e-12 || len(fileRes.Switches) != len(goRes.Switches) {
		t.Fatalf("x(2) differs by %.3g; %d switches, Go model %d", d, len(fileRes.Switches), len(goRes.Switches))
	}
	for i, s := range fileRes.Switches {
		if g := goRes.Switches[i]; s.Psi != g.Psi || s.Kind != g.Kind || math.Abs(s.Time-g.Time) > 1e-12 {
			t.Errorf("switch %d: %v ψ%d at %g, Go model %v ψ%d at %g", i, s.Kind, s.Psi, s.Time, g.Kind, g.Psi, g.Time)
		}
	}
	if sw := fileRes.Switches; len(sw) == 0 || sw[0].Psi != 0 || math.Abs(sw[0].Time-1) > 1e-8 {
		t.Errorf("switches %+v, want ψ0 first at t = 1", sw)
	}
}

// TestPathComps reads [[ocp.PathComps]] and evaluates its sides at x = (3,
// 4), u = 2 against the hand values G = (x₀ + u, x₁) = (5, 4), H = (x₁u,
// 1) = (8, 1).
func TestPathComps(t *testing.T) {
	src := `
[[state]]
name = "x"
size = 2
x0 = [0, 0]
[[control]]
name = "u"
[dynamics]
f = "[u, x[0]]"
[ocp]
N = 2
T = 1
PathComps = [{ G = ["x[0] + u", "x[1]"], H = ["x[1]*u", "1"], At = "stage_points" }]
`
	m, err := Parse("pc.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	pc := m.OCP.Problem.PathComps
	if len(pc) != 1 || pc[0].At != fesd.AtStagePoints {
		t.Fatalf("path complementarities %+v", pc)
	}
	f, err := ad.NewFunction("pc", []ad.Arg{ad.A("x", m.Model.X...), ad.A("u", m.Model.U...)}, []ad.Arg{ad.A("g", pc[0].G...), ad.A("h", pc[0].H...)})
	if err != nil {
		t.Fatal(err)
	}
	g, h := make([]float64, 2), make([]float64, 2)
	if err := f.Eval(f.NewWorkspace(), [][]float64{{3, 4}, {2}}, [][]float64{g, h}); err != nil {
		t.Fatal(err)
	}
	if maxDiff(g, []float64{5, 4}) != 0 || maxDiff(h, []float64{8, 1}) != 0 {
		t.Errorf("G = %v, H = %v, want (5, 4), (8, 1)", g, h)
	}
}

// TestIRMALiftFile: irma.toml with the user lifting β = α₁(1 − α₄) of
// examples/irma -lift as an [[algebraic]] variable gives the Go model
// reference.IRMARelativeModel(true) over the first 100 minutes (25 steps):
// x(100) to 1e-12 and the same switches.
func TestIRMALiftFile(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "examples", "models", "irma.toml"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(src), "a[1]*(1 - a[4])", "beta", 1)
	s = strings.Replace(s, "[dynamics]", "[[algebraic]]\nname = \"beta\"\nequations = \"beta - a[1]*(1 - a[4])\"\n\n[dynamics]", 1)
	m, err := Parse("irmalift.toml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Algebraic) != 1 || len(m.Model.Algebraic.Z) != 1 {
		t.Fatalf("algebraic %+v", m.Algebraic)
	}
	sim := *m.Sim
	sim.TSim, sim.NSim = 100, 25
	ctx := context.Background()
	fileRun, err := simulate(ctx, m.Model, m.X0, nil, m.Options, &sim, nil)
	if err != nil {
		t.Fatal(err)
	}
	goModel, _ := reference.IRMARelativeModel(true)
	goRun, err := simulate(ctx, goModel, reference.IRMAX0, nil, m.Options, &sim, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(fileRun.Result.Final(), goRun.Result.Final()); d > 1e-12 || len(fileRun.Switches) != len(goRun.Switches) || len(fileRun.Switches) != 2 {
		t.Errorf("x(100) differs by %.3g; switches %+v, Go model %+v (want 2)", d, fileRun.Switches, goRun.Switches)
	}
}

// TestStageEnd: StageEnd constraints are built per stage with stage = k;
// "t - (stage + 1)*0.5" at t = 1 is 0.5, 0, −0.5 for k = 0, 1, 2, and the
// name stage is not defined elsewhere.
func TestStageEnd(t *testing.T) {
	src := `
[[state]]
name = "t"
x0 = 0
[dynamics]
f = "1"
[ocp]
N = 3
T = 1.5
StageEnd = [{ G = "t - (stage + 1)*0.5" }]
`
	m, err := Parse("se.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range []float64{0.5, 0, -0.5} {
		c := m.OCP.Problem.StageEnd(k)
		if len(c) != 1 || len(c[0].G) != 1 {
			t.Fatalf("stage %d: %+v", k, c)
		}
		f, err := ad.NewFunction("g", []ad.Arg{ad.A("x", m.Model.X...)}, []ad.Arg{ad.A("g", c[0].G...)})
		if err != nil {
			t.Fatal(err)
		}
		out := []float64{0}
		if err := f.Eval(f.NewWorkspace(), [][]float64{{1}}, [][]float64{out}); err != nil {
			t.Fatal(err)
		}
		if out[0] != want {
			t.Errorf("stage %d: g(1) = %g, want %g", k, out[0], want)
		}
	}
	if _, err := Parse("se.toml", []byte(src+"Mayer = \"stage\"\n")); err == nil || !strings.Contains(err.Error(), `undefined name "stage"`) {
		t.Errorf("stage outside StageEnd: %v", err)
	}
}
