package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mainArgsEnv, when set, makes the test binary run main with these
// arguments (space-separated) instead of the tests: TestExitCodes checks
// the program's exit status that way.
const mainArgsEnv = "MONOPOD_TEST_MAIN_ARGS"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(mainArgsEnv); ok {
		os.Args = append([]string{"monopod"}, strings.Fields(args)...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestExitCodes: -h prints the usage and exits 0; an unknown flag exits 1.
func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args string
		code int
		want string // in stderr
	}{
		{"-h", 0, "-terminal-tol"},
		{"-sweep 30:90:10", 1, "flag provided but not defined"},
	} {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), mainArgsEnv+"="+tc.args)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("monopod %s: exit code %d (want %d), stderr %q (want %q in it)", tc.args, code, tc.code, stderr.String(), tc.want)
		}
	}
}

// TestFlags: at most 10 flags; -h is flag.ErrHelp; bad values, unknown
// flags (among them the recipe flags of earlier versions) and positional
// arguments are errors before anything is solved.
func TestFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := runMain(context.Background(), []string{"-h"}, &stdout, &stderr); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v, want flag.ErrHelp", err)
	}
	// PrintDefaults writes one line "  -name …" per flag.
	n := 0
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(l, "  -") {
			n++
		}
	}
	if n == 0 || n > 10 {
		t.Errorf("%d flags in the usage, want 1 … 10:\n%s", n, stderr.String())
	}
	for _, args := range [][]string{
		{"-N", "0"},
		{"-N", "x"},
		{"-dcs", "heaviside2"},
		{"-T", "-1"},
		{"-T", "0"},
		{"-distance", "NaN"},
		{"-terminal-tol", "-1e-3"},
		{"-terminal-tol", "NaN"},
		{"-terminal-tol", "Inf"},
		{"-sweep", "30:90:10"},
		{"-refine"},
		{"-baumgarte", "10"},
		{"-warm", "solution.json"},
		{"-cross", "FE_FE"},
		{"30"}, // a positional argument
		{"-N", "30", "stewart"},
	} {
		stdout.Reset()
		stderr.Reset()
		err := runMain(context.Background(), append(args, "-out", t.TempDir()), &stdout, &stderr)
		if err == nil {
			t.Errorf("runMain(%q) accepted", args)
		}
		if stdout.Len() > 0 {
			t.Errorf("runMain(%q) wrote %q to stdout before failing", args, stdout.String())
		}
	}
}

// TestShortTask runs the program end to end on a short task: 0.2 m in
// 0.4 s with N = 4 (the robot cannot get there, 9 cm short; the cost
// trades the distance against the torques), and checks that every file is
// written and that summary.json agrees with the other files. Measured:
// 1 081 NLP iterations, 1.7 s CPU; the task 0.1 m in 0.4 s takes 21 000
// (two ℓ∞ steps at the 10 000 iteration limit, then Solved), too slow for
// a test. Under -short 0.1 m in 0.2 s with N = 2 (measured: 602 NLP
// iterations, 1.2 s CPU, Solved and valid).
func TestShortTask(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	n, T, distance := 4, 0.4, 0.2
	if testing.Short() {
		n, T, distance = 2, 0.2, 0.1
	}
	args := []string{"-N", strconv.Itoa(n), "-T", strconv.FormatFloat(T, 'g', -1, 64), "-distance", strconv.FormatFloat(distance, 'g', -1, 64), "-out", dir}
	// With N = 4 the result is not physically valid (measured: the foot 3.7 mm below
	// the ground at τ = 0.32 while the clock advances, beyond the 1 mm of
	// fesd.ValidityTolerances): the files are written, the status says
	// Invalid and the error wraps errInvalid (exit status 1).
	err := runMain(context.Background(), args, &stdout, &stderr)
	t.Log(strings.TrimSpace(stdout.String()))
	if err != nil && !errors.Is(err, errInvalid) {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), dir) {
		t.Errorf("the output does not say where the files went: %q", stdout.String())
	}
	for _, f := range append(outputFiles, "frames.svg", "states.svg", "controls.svg") {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s missing or empty", f)
		}
	}
	s := readSummary(t, dir)
	checkRun(t, dir, s, n, T, distance)
	require.NotNil(t, s.Validity)
	assert.Equal(t, err == nil, s.Valid)
	assert.Equal(t, s.Valid, s.Validity.Valid)
	assert.Equal(t, s.Valid, s.Status == "Solved", "status %s", s.Status)
	// the drift is measured at the stage points, a subset of the points
	// of MaxPenetration
	assert.LessOrEqual(t, s.Validity.MaxDrift, s.MaxPenetration)
	if s.DCS != "Step" || s.TerminalTol != 0 || s.FootGround {
		t.Errorf("summary: dcs %s, terminal_tol %v, foot_ground %v; want the defaults Step, 0, false", s.DCS, s.TerminalTol, s.FootGround)
	}
}

// checkRun checks a Solved (or Invalid: solved, not physically valid) run of the task (n, T, distance) written to
// dir against its summary s: the tolerances of the homotopy, and every
// number of s that the other files determine.
func checkRun(t *testing.T, dir string, s summary, n int, T, distance float64) {
	t.Helper()
	if s.N != n || s.T != T || s.Distance != distance {
		t.Errorf("summary: N = %d, T = %v, distance = %v; want %d, %v, %v", s.N, s.T, s.Distance, n, T, distance)
	}
	// Solved: complementarity ≤ 1e-5 (mpcc allows 1 % over CompTol) and
	// the other constraints to the inner tolerance 1e-5 (measured: ≤ 1e-9).
	if (s.Status != "Solved" && s.Status != "Invalid") || s.CompResidual > 1.01*compTol || !(s.ConstraintViolation <= nlpTol) {
		t.Fatalf("status %s, complementarity %g, constraint violation %g", s.Status, s.CompResidual, s.ConstraintViolation)
	}
	// The homotopy: the five Scholtes steps σ = 1 … 1e-4, then the ℓ∞ steps
	// from σ = 1e-5; the total counts their NLP iterations and those of
	// the stationarity certificates.
	if len(s.Homotopy) < scholtesSteps {
		t.Fatalf("%d homotopy steps, want ≥ %d", len(s.Homotopy), scholtesSteps)
	}
	sum := 0
	for k, h := range s.Homotopy {
		want := math.Pow(10, -float64(k))
		if math.Abs(h.Sigma-want) > 1e-12*want {
			t.Errorf("homotopy step %d: σ = %g, want %g", k, h.Sigma, want)
		}
		sum += h.Iterations
	}
	if s.NLPIterations < sum || sum == 0 {
		t.Errorf("nlp_iterations %d, the homotopy steps' sum %d", s.NLPIterations, sum)
	}
	if !(s.SolveSeconds > 0) || s.WallSeconds < s.SolveSeconds ||
		math.Abs(s.SecondsPerIteration-s.SolveSeconds/float64(s.NLPIterations)) > 1e-12 {
		t.Errorf("times: solve %v s, wall %v s, per iteration %v s", s.SolveSeconds, s.WallSeconds, s.SecondsPerIteration)
	}

	// trajectory.csv: the clock runs from 0 to T without going back
	// (stage-wise clock constraint, element boundaries and stage points);
	// the terminal errors and the penetration are the summary's.
	traj := readCSV(t, filepath.Join(dir, "trajectory.csv"))
	last := traj[len(traj)-1]
	if math.Abs(last["t"]-T) > 1e-6 || traj[0]["t"] != 0 {
		t.Errorf("clock from %v to %v, want 0 to %v", traj[0]["t"], last["t"], T)
	}
	var dq, dv, pen float64
	for i, q := range []float64{distance, 0.4, 0, 0} {
		dq = math.Hypot(dq, last[[]string{"qx", "qz", "phi_hip", "phi_knee"}[i]]-q)
	}
	for _, v := range []string{"vx", "vz", "omega_hip", "omega_knee"} {
		dv = math.Hypot(dv, last[v])
	}
	for _, r := range traj {
		pen = math.Max(pen, -r["foot_z"])
	}
	// Numbers of the files are printed with full precision.
	if math.Abs(dq-s.TerminalPositionError) > 1e-12 || math.Abs(dv-s.TerminalVelocityNorm) > 1e-12 || pen != s.MaxPenetration {
		t.Errorf("from trajectory.csv: ‖q(T)−q*‖ = %v, ‖v(T)‖ = %v, penetration %v; summary: %v, %v, %v",
			dq, dv, pen, s.TerminalPositionError, s.TerminalVelocityNorm, s.MaxPenetration)
	}

	// elements.csv: N·N_FE rows; the largest element residual is the run's
	// complementarity residual; the hops are the foot rising above
	// flightHeight at the element ends (it starts on the ground).
	elems := readCSV(t, filepath.Join(dir, "elements.csv"))
	if len(elems) != 3*n {
		t.Errorf("elements.csv: %d rows, want N·N_FE = %d", len(elems), 3*n)
	}
	top, hops, inFlight := 0.0, 0, false
	for _, e := range elems {
		top = math.Max(top, e["comp_residual"])
		if e["foot_z_end"] > flightHeight && !inFlight {
			hops++
		}
		inFlight = e["foot_z_end"] > flightHeight
	}
	if top != s.CompResidual || hops != s.Hops {
		t.Errorf("from elements.csv: residual %v, %d hops; summary: %v, %d", top, hops, s.CompResidual, s.Hops)
	}

	// controls.csv: one row per stage, inside the bounds |u| ≤ 100 and
	// speed of time in [0.99, 10] (004 §7.2), stages back to back in t.
	ctl := readCSV(t, filepath.Join(dir, "controls.csv"))
	if len(ctl) != n {
		t.Fatalf("controls.csv: %d rows, want N = %d", len(ctl), n)
	}
	for k, c := range ctl {
		if math.Abs(c["u_hip"]) > 100+1e-6 || math.Abs(c["u_knee"]) > 100+1e-6 || c["speed_of_time"] < 0.99-1e-6 || c["speed_of_time"] > 10+1e-6 {
			t.Errorf("controls.csv stage %d outside the bounds: %v", k, c)
		}
		if want := float64(k+1) * T / float64(n); math.Abs(c["t_end"]-want) > 1e-6 {
			t.Errorf("controls.csv stage %d ends at t = %v, want %v", k, c["t_end"], want)
		}
	}
}

// TestHoldPose: the robot is to stand still (distance 0, N = 4, T =
// 0.4 s). It can only do so by sliding along f_c = 0 between free flight
// and the time-frozen auxiliary dynamics, so the task is a contact
// problem, and its solution is known: q = q₀, v = 0, u holding the
// weight. Checks: Solved in both reformulations with ‖q(T) − q*‖, ‖v(T)‖ ≤
// 1e-3, no hop, the clock monotone, the foot never far below the ground
// (5·√CompTol: in a frozen phase the relaxed complementarity lets q drift
// to |f_c| = O(√σ); 0.25√σ in dcs.TestTimeFreezingDrop), and the summary
// consistent with the files. With -terminal-tol 1e-4 -foot-ground the
// terminal box and the foot constraint hold. Measured (one run each, CPU
// time): Step 699 NLP iterations, 1.6 s; Stewart 310, 0.7 s; Step with
// both options 504, 1.7 s. Under -short the same checks on N = 2, T =
// 0.2 s (measured: 48, 53 and 79 NLP iterations, 0.8 s CPU in all), the
// Stewart and the constrained Step runs only (the plain Step run, 0.2 s,
// in the full suite).
func TestHoldPose(t *testing.T) {
	n, T := 4, 0.4
	if testing.Short() {
		n, T = 2, 0.2
	}
	for _, tc := range []struct {
		name  string
		extra []string
		tol   float64 // bound of the terminal errors
		pen   float64 // bound of the penetration
	}{
		{"step", nil, 1e-3, 5 * math.Sqrt(compTol)},
		{"stewart", []string{"-dcs", "stewart"}, 1e-3, 5 * math.Sqrt(compTol)},
		// The box 1e-4 on 4 components bounds the Euclidean norms by 2e-4;
		// the foot constraint bounds the penetration at the stage points by
		// the complementarity tolerance (element boundaries are stage
		// points of Radau IIA).
		{"step-constrained", []string{"-terminal-tol", "1e-4", "-foot-ground"}, 2e-4, compTol + 1e-9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name == "step" {
				t.Skip("-short: Stewart and the constrained Step run")
			}
			dir := t.TempDir()
			var stdout, stderr bytes.Buffer
			args := append([]string{"-N", strconv.Itoa(n), "-T", strconv.FormatFloat(T, 'g', -1, 64), "-distance", "0", "-out", dir}, tc.extra...)
			if err := runMain(context.Background(), args, &stdout, &stderr); err != nil {
				t.Fatal(err)
			}
			t.Log(strings.TrimSpace(stdout.String()))
			s := readSummary(t, dir)
			checkRun(t, dir, s, n, T, 0)
			if s.TerminalPositionError > tc.tol || s.TerminalVelocityNorm > tc.tol {
				t.Errorf("‖q(T)−q*‖ = %v, ‖v(T)‖ = %v > %v", s.TerminalPositionError, s.TerminalVelocityNorm, tc.tol)
			}
			if s.MaxPenetration > tc.pen || s.Hops != 0 || !s.ClockMonotone {
				t.Errorf("foot %v below the ground (bound %v), %d hops, clock monotone %v", s.MaxPenetration, tc.pen, s.Hops, s.ClockMonotone)
			}
		})
	}
}

func readSummary(t *testing.T, dir string) summary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// readCSV reads a CSV file with a header into one map per row; cells
// that are not numbers (the modes of elements.csv) are left out.
func readCSV(t *testing.T, path string) []map[string]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 {
		t.Fatalf("%s: %d rows", path, len(rows))
	}
	var out []map[string]float64
	for _, r := range rows[1:] {
		m := map[string]float64{}
		for j, h := range rows[0] {
			if v, err := strconv.ParseFloat(r[j], 64); err == nil {
				m[h] = v
			}
		}
		out = append(out, m)
	}
	return out
}
