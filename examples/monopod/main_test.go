package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// TestRunSmall runs the program on a short problem and checks the output
// files and the basic physics. The configuration is small so that the test
// is fast (about 2 s; 353 NLP iterations with the defaults, PivotingLDL
// and nosnoc's cold-dual restart; 1 642 with the duals handed on): N = 4 stages, T = 0.4, target q_x = 0 (hold the initial pose and stop), FE_FE
// cross-complementarity (nosnoc HEAD's setting). It is still a contact
// problem: the robot can stand only by sliding along f_c = 0 between free
// flight and the time-frozen auxiliary dynamics (the clock advances at a
// rate in (0, 1) there, compensated by the speed of time s_k ≤ 10).
// Checks: status Solved; the clock is monotone and ends at t(T) = T
// (stage-wise clock constraint); |q(T) − q*| and |v(T)| ≤ 1e-3; the foot is
// never far below the ground. The penetration bound is 5·√CompTol, not
// CompTol: in a frozen phase the state slides on f_c = 0, where the
// multiplier of the free-flight mode is O(|f_c|), so a relaxed
// complementarity λ·θ ≤ σ lets q drift to |f_c| = O(√σ) (measured 0.25√σ in
// the simulation dcs.TestTimeFreezingDrop; 2.4√σ in an N = 6 run).
// Targets ahead of the start (q_x = 0.1 or 0.3 in 0.4–0.6 s) do not solve
// reliably yet with our inner solver (NLPFailure or thousands of
// iterations).
func TestRunSmall(t *testing.T) {
	c := defaultConfig()
	c.N, c.T, c.Distance = 4, 0.4, 0
	c.Cross = fesd.FEFE
	dir := t.TempDir()
	s := solveLoggedIn(t, c, dir)
	for _, f := range []string{"trajectory.csv", "controls.csv", "summary.json", "frames.png", "states.png", "controls.png", "elements.csv"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s missing or empty", f)
		}
	}
	var js map[string]any
	raw, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err := json.Unmarshal(raw, &js); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"status", "objective", "nlp_iterations", "wall_seconds", "seconds_per_iteration", "terminal_position_error", "terminal_velocity_norm", "jumps"} {
		if _, ok := js[k]; !ok {
			t.Errorf("summary.json lacks %q", k)
		}
	}
	if s.Status != "Solved" {
		t.Fatalf("status %s", s.Status)
	}
	if s.MaxPenetration > 5*math.Sqrt(c.CompTol) {
		t.Errorf("foot below the ground by %v", s.MaxPenetration)
	}
	if !s.ClockMonotone {
		t.Error("clock not monotone")
	}
	if s.TerminalPositionError > 1e-3 || s.TerminalVelocityNorm > 1e-3 {
		t.Errorf("terminal errors |q(T)−q*| = %v, |v(T)| = %v > 1e-3", s.TerminalPositionError, s.TerminalVelocityNorm)
	}
	// elements.csv: one row per element (N·N_FE), residuals at most the
	// run's complementarity residual, the largest equal to it (no path
	// complementarities; FE_FE terms belong to elements).
	rowsE := strings.Split(strings.TrimSpace(string(mustRead(t, filepath.Join(dir, "elements.csv")))), "\n")[1:]
	if len(rowsE) != c.N*c.NFE {
		t.Errorf("elements.csv: %d rows, want %d", len(rowsE), c.N*c.NFE)
	}
	// The modes column: one label per stage point, the region of the
	// largest θ (Stewart, 8 regions) or the rounded α (Step, 3 switching
	// functions), "~" where the point is between modes.
	label := regexp.MustCompile(`^[01]{3}~?$`)
	if c.Form == dcs.Stewart {
		label = regexp.MustCompile(`^[1-8]~?$`)
	}
	var topE float64
	for _, l := range rowsE {
		f := strings.Split(l, ",")
		v, err := strconv.ParseFloat(f[6], 64)
		if err != nil {
			t.Fatal(err)
		}
		topE = math.Max(topE, v)
		if labels := strings.Fields(f[7]); len(labels) != c.NS || !label.MatchString(labels[0]) || !label.MatchString(labels[len(labels)-1]) {
			t.Errorf("elements.csv: modes %q, want %d labels like %v", f[7], c.NS, label)
		}
	}
	if math.Abs(topE-s.CompResidual) > 1e-12 {
		t.Errorf("elements.csv: largest residual %v, the run's %v", topE, s.CompResidual)
	}
	// trajectory.csv: t (clock) column, last value T.
	lines := strings.Split(strings.TrimSpace(string(mustRead(t, filepath.Join(dir, "trajectory.csv")))), "\n")
	last := strings.Split(lines[len(lines)-1], ",")
	if tEnd, _ := strconv.ParseFloat(last[0], 64); math.Abs(tEnd-c.T) > 1e-6 {
		t.Errorf("t(T) = %v, want %v", tEnd, c.T)
	}
	// Restart from solution.json (-warm): one step at σ = 1e-5 from the
	// solution must stay at it, with far fewer iterations.
	args := []string{"-N", "4", "-T", "0.4", "-distance", "0", "-cross", "FE_FE", "-warm", filepath.Join(dir, "solution.json")}
	dir2 := t.TempDir()
	var buf bytes.Buffer
	if err := runMain(context.Background(), append(args, "-sigma0", "1e-5", "-max-steps", "1", "-finish", "none", "-out", dir2), &buf); err != nil {
		t.Fatal(err)
	}
	t.Log(strings.TrimSpace(buf.String()))
	var s2 summary
	if err := json.Unmarshal(mustRead(t, filepath.Join(dir2, "summary.json")), &s2); err != nil {
		t.Fatal(err)
	}
	if s2.Status != "Solved" || math.Abs(s2.Objective-s.Objective) > 1e-4*math.Max(1, math.Abs(s.Objective)) || s2.NLPIterations >= s.NLPIterations {
		t.Errorf("-warm: status %s, objective %.8g in %d iterations; the run it started from: %.8g in %d",
			s2.Status, s2.Objective, s2.NLPIterations, s.Objective, s.NLPIterations)
	}
	// its solution.json records the σ of its one step exactly
	var saved savedSolution
	if err := json.Unmarshal(mustRead(t, filepath.Join(dir2, "solution.json")), &saved); err != nil {
		t.Fatal(err)
	}
	if saved.Sigma != 1e-5 {
		t.Errorf("solution.json of the -sigma0 1e-5 step: sigma = %v", saved.Sigma)
	}
	// -evaluate writes the saved point's result without solving: the
	// objective, residual and elements.csv of the run it came from.
	dirEval := t.TempDir()
	if err := runMain(context.Background(), append(args, "-evaluate", "-out", dirEval), &buf); err != nil {
		t.Fatal(err)
	}
	var sEval summary
	if err := json.Unmarshal(mustRead(t, filepath.Join(dirEval, "summary.json")), &sEval); err != nil {
		t.Fatal(err)
	}
	if sEval.Status != "NotSolved" || sEval.NLPIterations != 0 || math.Abs(sEval.Objective-s.Objective) > 1e-12*math.Max(1, math.Abs(s.Objective)) ||
		math.Abs(sEval.CompResidual-s.CompResidual) > 1e-15 {
		t.Errorf("-evaluate: status %s, %d iterations, objective %.15g, residual %g; the run: %.15g, %g",
			sEval.Status, sEval.NLPIterations, sEval.Objective, sEval.CompResidual, s.Objective, s.CompResidual)
	}
	if e1, e3 := mustRead(t, filepath.Join(dir, "elements.csv")), mustRead(t, filepath.Join(dirEval, "elements.csv")); !bytes.Equal(e1, e3) {
		t.Errorf("-evaluate: elements.csv differs from the run's")
	}
	// a solution of another layout, or with -sweep, is an error
	for _, bad := range [][]string{{"-N", "5"}, {"-dcs", "stewart"}, {"-nfe", "2"}, {"-sweep", "4:4:1"}} {
		if err := runMain(context.Background(), append(append(append([]string(nil), args...), bad...), "-out", t.TempDir()), &buf); err == nil {
			t.Errorf("-warm with %v: no error", bad)
		}
	}
	// Mesh refinement (-init-from) with the refinement recipe of the
	// package doc (gain and terminal box, one Scholtes step at σ = 1e-4,
	// the ℓ∞ finish): the N = 4 Step solution initializes N = 8 in the
	// Stewart mode. It must solve the task as well (same checks as above).
	dir3 := t.TempDir()
	from := filepath.Join(dir, "solution.json")
	fargs := []string{"-N", "8", "-T", "0.4", "-distance", "0", "-cross", "FE_FE", "-dcs", "stewart", "-init-from", from}
	recipe := []string{"-baumgarte", "10", "-terminal-tol", "5e-4", "-sigma0", "1e-4", "-max-steps", "1", "-max-iter", "3000"}
	if err := runMain(context.Background(), append(append(fargs, recipe...), "-out", dir3), &buf); err != nil {
		t.Fatal(err)
	}
	var s3 summary
	if err := json.Unmarshal(mustRead(t, filepath.Join(dir3, "summary.json")), &s3); err != nil {
		t.Fatal(err)
	}
	t.Logf("-init-from: N = 8 Stewart from N = 4 Step (measured: 91 iterations): %s, %d iterations (N = 4: %d), objective %.6g, |q(T)−q*| = %.1e, |v(T)| = %.1e",
		s3.Status, s3.NLPIterations, s.NLPIterations, s3.Objective, s3.TerminalPositionError, s3.TerminalVelocityNorm)
	if s3.Status != "Solved" || !s3.ClockMonotone || s3.TerminalPositionError > 1e-3 || s3.TerminalVelocityNorm > 1e-3 ||
		s3.MaxPenetration > 5*math.Sqrt(c.CompTol) {
		t.Errorf("-init-from: %+v", s3)
	}
	for _, bad := range [][]string{{"-warm", from}, {"-sweep", "4:4:1"}, {"-init-from", filepath.Join(dir, "none.json")}} {
		if err := runMain(context.Background(), append(append(append([]string(nil), fargs...), bad...), "-out", t.TempDir()), &buf); err == nil {
			t.Errorf("-init-from with %v: no error", bad)
		}
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStepSmall: the monopod moves 0.1 m in 0.4 s (N = 4, FE_FE).
// Reference: IPOPT 3.11.9 with MUMPS as the inner solver reaches objective
// 8.41135 on the same homotopy (TestIPOPTInner, go test -tags ipopt).
// Measured with the defaults (nlp.PivotingLDL, nosnoc's restart of every
// homotopy step from the primal point only, the reference as the start,
// five Scholtes steps and the ℓ∞ finish from ρ = 1e5): Solved after 894
// NLP iterations, objective 8.41249, residual 3.5e-8. With the pivot-free
// LDLᵀ it needs the strict zero-pivot rule and δ_c in every factorization
// (-linsolver SparseLDL -inertia strictdeltac: 631 iterations,
// objective 8.41328). Before the ℓ∞ finish and -init-ref were the defaults
// (Scholtes down to σ = 1e-5 from the forward-simulated start): 870 and
// 895 iterations, objective 8.41135 in both; with SparseLDL, warm duals and
// no strict rule that homotopy ended in NLPFailure after 16 375 iterations.
//
// Under -short only the default linear solver runs (measured: 1.3 s; the
// SparseLDL case adds 0.8 s).
func TestStepSmall(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ls      nlp.LinearSolverKind
		inertia nlp.InertiaPolicy
	}{
		{"PivotingLDL", nlp.PivotingLDL, nlp.InertiaDefault},
		// SparseLDL with strict pivots and δ_c (InertiaStrictDeltaC) reached
		// IPOPT's objective from the symbolic build; from the compiled
		// element template (the same NLP to rounding) it ends at a point
		// that penetrates the ground by 2.5 mm with objective 1.85, and
		// with InertiaDefault it fails after 15 117 iterations (one run
		// each). With the strict rules the pivot-free path ends at one of
		// two points, IPOPT's or that penetrating one, and which depends on
		// perturbations at the level of rounding or of the scaling: with
		// the gradient scaling at the pushed start, StrictCurvature reached
		// IPOPT's point (1697 iterations) and Strict the other; with it at
		// the user's start (IPOPT's rule; 17 of 596 row scales change by
		// 2 %) the two swap (Strict: f = 8.41273 in 1205 iterations). So
		// this case accepts either documented end point (see
		// sparseEndPoints); the default backend must reach IPOPT's.
		{"SparseLDL-strict-curvature", nlp.SparseLDL, nlp.InertiaStrictCurvature},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.ls != nlp.PivotingLDL {
				t.Skip("long: the second linear solver (run without -short)")
			}
			c := defaultConfig()
			c.N, c.T, c.Distance, c.Cross, c.MaxIter = 4, 0.4, 0.1, fesd.FEFE, 3000
			c.LinearSolver, c.Inertia = tc.ls, tc.inertia
			s := solveLogged(t, c)
			if s.Status != "Solved" {
				t.Fatalf("status %s", s.Status)
			}
			const ipoptObjective = 8.41135
			switch {
			case math.Abs(s.Objective-ipoptObjective) <= 1e-3*ipoptObjective:
			case tc.ls == nlp.SparseLDL && math.Abs(s.Objective-sparseEndPoints.objective) <= 1e-2*sparseEndPoints.objective &&
				math.Abs(s.MaxPenetration-sparseEndPoints.penetration) <= 0.2*sparseEndPoints.penetration:
				t.Logf("the pivot-free path ended at its other documented point: objective %.6f, penetration %.2e",
					s.Objective, s.MaxPenetration)
			default:
				t.Errorf("objective %.6f, IPOPT's %.5f", s.Objective, ipoptObjective)
			}
			if !s.ClockMonotone {
				t.Error("clock not monotone")
			}
		})
	}
}

// sparseEndPoints is the other end point of the SparseLDL case of
// TestStepSmall (measured): a local solution of the relaxed problem that
// penetrates the ground by 2.4–2.5 mm, objective 1.847–1.849.
var sparseEndPoints = struct{ objective, penetration float64 }{1.847, 2.45e-3}

// TestBadFlags: invalid flag values are errors before anything is solved.
func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-linsolver", "MA57"},
		{"-steering", "newton"},
		{"-dcs", "heaviside2"},
		{"-cross", "FE_X"},
		{"-sweep", "30:90"},
		{"-sweep", "30:0:10"},
		{"-init-x0", "-init-ref"},
		{"-xbounds", "everywhere"},
		{"-inertia", "sometimes"},
		{"-strict-pivots"}, // now -inertia strict
		{"-finish", "direct"},
		{"-finish", "l2"},
		{"-finish-kappa", "1"},
		{"-foot-ground", "-foot-slack", "-0.01"},
		{"-baumgarte", "-1"},
		{"-nlp-tol", "-1"},
		{"-terminal-tol", "NaN"},
		{"-terminal-vel-tol", "-1e-3"},
		{"-terminal-ball", "-1e-3"},
		{"-terminal-ball", "NaN"},
		{"-refine-baumgarte", "-1"},
		{"-refine-baumgarte", "100"},
		{"-finish-baumgarte", "Inf"},
		{"-finish", "none", "-finish-baumgarte", "10"},
		{"-finish", "none", "-finish-foot-ground"},
		{"-warm", "/nonexistent/solution.json"},
		{"-finish-terminal-tol", "-1"},
		{"-finish", "none", "-finish-terminal-tol", "1e-3"},
		{"-finish-plain-first"},
		{"-evaluate"}, // without -warm
		{"-gamma-h", "-1"},
		{"-gamma-h", "NaN"},
		{"-finish-baumgarte", "10", "-finish-second-sigma0", "-1"},
		{"-finish-second-sigma0", "1e-6"},
		{"-relaxation", "smooth"},
		{"-relaxation", "KanzowSchwartz"}, // scalar pairs, FE_STAGE sums
		{"-init-from", "/nonexistent/solution.json"},
		{"-refine"}, // without -sweep
		{"-sweep", "30:40:10", "-refine", "-baumgarte", "5"},
		{"-sweep", "30:40:10", "-refine", "-sigma0", "1e-3"},
		{"-sweep", "30:40:10", "-refine", "-finish", "none"},
		{"-sweep", "30:40:10", "-refine", "-foot-ground"},                  // -ground-pass instead
		{"-sweep", "30:40:10", "-ground-pass"},                             // needs -refine
		{"-sweep", "30:40:10", "-init-from", "/nonexistent/solution.json"}, // -init-from with a sweep needs -refine
	} {
		var buf bytes.Buffer
		if err := runMain(context.Background(), append(args, "-out", t.TempDir()), &buf); err == nil {
			t.Errorf("runMain(%q) accepted", args)
		}
	}
	for _, name := range []string{"SparseLDL", "pivotingldl", "DenseLDL"} {
		var k nlp.LinearSolverKind
		if err := k.UnmarshalText([]byte(name)); err != nil {
			t.Errorf("-linsolver %q: %v", name, err)
		}
	}
}

// solveLogged solves c, writing the outputs to a temporary folder, and logs
// the summary line.
func solveLogged(t *testing.T, c config) summary {
	t.Helper()
	return solveLoggedIn(t, c, t.TempDir())
}

// solveLoggedIn is solveLogged with the outputs in dir.
func solveLoggedIn(t *testing.T, c config, dir string) summary {
	t.Helper()
	var buf bytes.Buffer
	s, err := solveAndWrite(context.Background(), c, dir, &buf)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(strings.TrimSpace(buf.String()))
	return s
}

// TestFinishSmall: TestStepSmall's problem from the forward-simulated
// start with nosnoc's paper-era homotopy cut after three steps (σ = 1, 0.1, 0.01, so the residual is
// still about 1e-2) and finished by the ℓ∞ elastic mode (-finish linf) from
// σ = 1e-5 (ρ = 1e5). The finish must reach the complementarity tolerance
// 1e-5 with IPOPT's objective of the full homotopy (8.41135, see
// TestStepSmall).
func TestFinishSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("long: another homotopy on TestStepSmall's task, about 1.2 s (run without -short)")
	}
	c := defaultConfig()
	c.N, c.T, c.Distance, c.Cross, c.MaxIter = 4, 0.4, 0.1, fesd.FEFE, 3000
	c.MaxSteps, c.Finish, c.FinishSigma0, c.InitRef = 3, mpcc.LInf, 1e-5, false
	s := solveLogged(t, c)
	if s.Status != "Solved" || s.CompResidual > c.CompTol {
		t.Fatalf("status %s, residual %g", s.Status, s.CompResidual)
	}
	if s.HomotopySteps <= 3 {
		t.Errorf("%d homotopy steps: the finish did not run", s.HomotopySteps)
	}
	const ipoptObjective = 8.41135
	if math.Abs(s.Objective-ipoptObjective) > 1e-3*ipoptObjective {
		t.Errorf("objective %.6f, IPOPT's %.5f", s.Objective, ipoptObjective)
	}
}

// TestFinishRebuildSmall: -finish-baumgarte and -finish-terminal-tol solve
// the finish on an OCP of their own, from the point of the Scholtes steps,
// also when these ended Solved. The robot of TestRunSmall stands still
// (N = 4, T = 0.4 s, target x₀), so the finish must stay Solved, with the
// terminal box |q(T) − q*|, |v(T)| ≤ 1e-4 met (summary norms ≤ 2·1e-4 for
// the 4 components) and the foot on the ground. With -finish-plain-first
// the same holds after nosnoc's finish, one Scholtes step and the gain/box
// finish (at least one homotopy step each). Under -short only the
// -finish-plain-first run, which also ends with the rebuilt finish
// (measured: 0.8 s; the other run adds 1.2 s).
func TestFinishRebuildSmall(t *testing.T) {
	for _, plainFirst := range []bool{false, true} {
		if testing.Short() && !plainFirst {
			continue
		}
		c := defaultConfig()
		c.N, c.T, c.Distance = 4, 0.4, 0
		c.Cross = fesd.FEFE
		c.FinishBaumgarte, c.FinishTerminalTol = 10, 1e-4
		c.FinishPlainFirst = plainFirst
		dir := t.TempDir()
		s := solveLoggedIn(t, c, dir)
		if s.Status != "Solved" || s.CompResidual > c.CompTol {
			t.Fatalf("plain first %t: status %s, residual %g", plainFirst, s.Status, s.CompResidual)
		}
		finishSteps := 1
		if plainFirst {
			finishSteps = 3 // nosnoc's finish, one Scholtes step, the gain/box finish
		}
		if s.HomotopySteps < c.MaxSteps+finishSteps {
			t.Errorf("plain first %t: %d homotopy steps: the finish did not run", plainFirst, s.HomotopySteps)
		}
		if s.TerminalPositionError > 2e-4 || s.TerminalVelocityNorm > 2e-4 {
			t.Errorf("plain first %t: terminal errors |q(T)−q*| = %v, |v(T)| = %v, box 1e-4", plainFirst, s.TerminalPositionError, s.TerminalVelocityNorm)
		}
		if s.MaxPenetration > c.CompTol {
			t.Errorf("plain first %t: foot below the ground by %v", plainFirst, s.MaxPenetration)
		}
		if _, err := loadSolution(filepath.Join(dir, "start.json"), c); err != nil {
			t.Errorf("plain first %t: start.json (the start of the finish): %v", plainFirst, err)
		}
	}
}

// TestTargetsRecipe runs the recipe that the package doc gives for meeting
// the targets (Stewart, N = 30, -finish-plain-first with k = 10 and
// the terminal box 5e-4, 3 000 iterations per step) and checks them: status
// Solved, |q(T) − q*| and |v(T)| ≤ 1e-3 (the targets of the package doc
// for 004 §7.2's task), at least two hops, the clock monotone. About 3–4
// minutes: set FESD_LONG=1. Measured: 4 100 iterations, objective 17.44,
// 6.0e-4 and 7.7e-4, four hops.
func TestTargetsRecipe(t *testing.T) {
	if os.Getenv("FESD_LONG") == "" {
		t.Skip("set FESD_LONG=1")
	}
	dir := t.TempDir()
	var buf bytes.Buffer
	args := []string{"-N", "30", "-dcs", "stewart", "-max-iter", "3000", "-finish-plain-first",
		"-finish-baumgarte", "10", "-finish-terminal-tol", "5e-4", "-out", dir}
	if err := runMain(context.Background(), args, &buf); err != nil {
		t.Fatal(err)
	}
	t.Log(strings.TrimSpace(buf.String()))
	var s summary
	if err := json.Unmarshal(mustRead(t, filepath.Join(dir, "summary.json")), &s); err != nil {
		t.Fatal(err)
	}
	if s.Status != "Solved" || s.TerminalPositionError > 1e-3 || s.TerminalVelocityNorm > 1e-3 || s.Jumps < 2 || !s.ClockMonotone {
		t.Errorf("status %s, |q(T)−q*| = %.2e, |v(T)| = %.2e, %d hops, clock monotone %v",
			s.Status, s.TerminalPositionError, s.TerminalVelocityNorm, s.Jumps, s.ClockMonotone)
	}
}

// TestRefineSweep runs the mesh-refinement chain of the package doc at
// the paper's sizes, -sweep 30:40:10 -refine: Stewart N = 30 by the
// targets recipe, Stewart N = 40 from it, Step N = 30 and 40 from the
// Stewart solutions. The Stewart rows and Step N = 40 must end Solved with
// the targets (|q(T) − q*|, |v(T)| ≤ 1e-3), a monotone clock, and
// Stewart with at least two hops; Step N = 30 is only logged (it ends
// NLPFailure: the ℓ∞ finish stalls at residual 1e-4).
// Measured (one run, two or three jobs on 2 cores): Stewart 30 4 100
// iterations, four hops; Step 30 NLPFailure after 7 731; Stewart 40 3 783,
// three hops, 4.4 mm below the ground; Step 40 4 088, one hop. About 20
// minutes: set FESD_LONG=1.
func TestRefineSweep(t *testing.T) {
	if os.Getenv("FESD_LONG") == "" {
		t.Skip("set FESD_LONG=1")
	}
	dir := t.TempDir()
	js := runSweep(t, dir, "-sweep", "30:40:10", "-refine")
	if len(js.Runs) != 4 {
		t.Fatalf("%d rows, want 4", len(js.Runs))
	}
	for _, s := range js.Runs {
		if s.N == 30 && s.DCS == "Step" {
			continue
		}
		hops := 0
		if s.DCS == "Stewart" {
			hops = 2
		}
		if s.Status != "Solved" || s.TerminalPositionError > 1e-3 || s.TerminalVelocityNorm > 1e-3 || s.Jumps < hops || !s.ClockMonotone {
			t.Errorf("N = %d %s: %s, |q(T)−q*| = %.2e, |v(T)| = %.2e, %d hops, clock monotone %v",
				s.N, s.DCS, s.Status, s.TerminalPositionError, s.TerminalVelocityNorm, s.Jumps, s.ClockMonotone)
		}
	}
}

// TestRefineSweepSmall runs the mesh-refinement sweep on TestRunSmall's
// task (hold the pose for 0.4 s, FE_FE): -sweep 4:8:4 -refine -ground-pass
// (Stewart N = 4 by the targets recipe, Stewart N = 8 from it, Step at each
// N from the Stewart solution of that N, every run followed by ground
// passes with the stage-point foot constraint). Every run of the chain
// must end Solved with the terminal errors ≤ 1e-3 (the targets;
// the terminal box of both recipes is 5e-4 per component) and a monotone
// clock; the foot may go 5·√CompTol below the ground (TestRunSmall
// explains the bound). The ground passes of a run start from the last
// solved ground pass of its mode, if any, then (Step) from the solved
// Stewart pass at the same N, then from the run itself, each failed pass
// followed by its restart; the last must be Solved with
// the targets and the foot not below the ground (≤ 1e-9). The rows must
// name their sources. (Measured: Step N = 4 solves from the Stewart
// N = 4 pass; Step N = 8 from the Step N = 4 pass ends NLPFailure and its
// restart from the last success solves. TestRefineChainOrder checks the
// order of the sources and the descending chain in general.)
func TestRefineSweepSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("long: about 30 s (run without -short)")
	}
	dir := t.TempDir()
	js := runSweep(t, dir, "-sweep", "4:8:4", "-refine", "-ground-pass", "-T", "0.4", "-distance", "0", "-cross", "FE_FE")
	// The chain without the constraint, each run followed by its ground
	// passes.
	chain := []struct {
		n         int
		dcs, from string
	}{{4, "Stewart", "targets recipe"}, {4, "Step", "N4_stewart"}, {8, "Stewart", "N4_stewart"}, {8, "Step", "N8_stewart"}}
	ok := func(s summary, depth float64) bool {
		return s.Status == "Solved" && s.ClockMonotone && s.TerminalPositionError <= 1e-3 && s.TerminalVelocityNorm <= 1e-3 && s.MaxPenetration <= depth
	}
	solvedGround := map[string]string{} // mode → folder of its last solved ground pass
	i := 0
	for _, w := range chain {
		if i >= len(js.Runs) {
			t.Fatalf("%d rows, the chain needs more", len(js.Runs))
		}
		s := js.Runs[i]
		i++
		if s.N != w.n || s.DCS != w.dcs || s.InitFrom != w.from || s.FootGround {
			t.Errorf("row %d: N = %d %s from %q (ground %t), want N = %d %s from %q", i-1, s.N, s.DCS, s.InitFrom, s.FootGround, w.n, w.dcs, w.from)
		}
		if !ok(s, 5*math.Sqrt(1e-5)) {
			t.Errorf("row %d (N = %d %s): %s, |q(T)−q*| = %.1e, |v(T)| = %.1e, clock monotone %t, %.1e below the ground",
				i-1, s.N, s.DCS, s.Status, s.TerminalPositionError, s.TerminalVelocityNorm, s.ClockMonotone, s.MaxPenetration)
		}
		// Its ground passes: from the last solved ground pass of the mode
		// if there is one, then (after a failure and its restart) from the
		// run itself; the last must be Solved with the foot never below
		// the ground.
		// The sources in order: the mode's last solved ground pass (at a
		// smaller N), for Step the solved Stewart pass at the same N, the
		// run itself.
		name := runName(w.n, dcsOf(t, w.dcs))
		var want []string
		if prev, has := solvedGround[w.dcs]; has {
			want = append(want, prev)
		}
		if sw := solvedGround["Stewart"]; w.dcs == "Step" && strings.HasPrefix(sw, runName(w.n, dcs.Stewart)+"_") {
			want = append(want, sw)
		}
		want = append(want, name)
		var last summary
		k, prevFolder := 0, ""
		for ; i < len(js.Runs) && js.Runs[i].FootGround; i++ {
			g := js.Runs[i]
			k++
			folder := name + "_ground"
			if k > 1 {
				folder = fmt.Sprintf("%s_ground%d", name, k)
			}
			if _, err := os.Stat(filepath.Join(dir, folder, "solution.json")); err != nil {
				t.Error(err)
			}
			restart := k%2 == 0
			switch {
			case g.N != w.n || g.DCS != w.dcs:
				t.Errorf("ground row %d: N = %d %s after N = %d %s", i, g.N, g.DCS, w.n, w.dcs)
			case restart && g.InitFrom != prevFolder && g.InitFrom != prevFolder+"/last_success":
				t.Errorf("ground row %d (N = %d %s): the restart is from %q", i, g.N, g.DCS, g.InitFrom)
			case !restart && (k-1)/2 < len(want) && g.InitFrom != want[(k-1)/2]:
				t.Errorf("ground row %d (N = %d %s): from %q, want %q", i, g.N, g.DCS, g.InitFrom, want[(k-1)/2])
			}
			if ok(g, 1e-9) {
				solvedGround[w.dcs] = folder
			}
			last, prevFolder = g, folder
		}
		if k == 0 || k > 2*len(want) || !ok(last, 1e-9) {
			t.Errorf("N = %d %s: %d ground rows, the last %s, |q(T)−q*| = %.1e, |v(T)| = %.1e, %.1e below the ground",
				w.n, w.dcs, k, last.Status, last.TerminalPositionError, last.TerminalVelocityNorm, last.MaxPenetration)
		}
	}
	if i != len(js.Runs) {
		t.Errorf("%d rows, %d expected", len(js.Runs), i)
	}
	if fi, err := os.Stat(filepath.Join(dir, "sweep.csv")); err != nil || fi.Size() == 0 {
		t.Error("sweep.csv missing or empty")
	}
}

// sweepTable is sweep.json.
type sweepTable struct {
	Runs []summary `json:"runs"`
}

// runSweep runs the program with args and -out dir, logs its output and
// returns the sweep.json it wrote.
func runSweep(t *testing.T, dir string, args ...string) sweepTable {
	t.Helper()
	var buf bytes.Buffer
	if err := runMain(context.Background(), append(args, "-out", dir), &buf); err != nil {
		t.Fatal(err)
	}
	t.Log(strings.TrimSpace(buf.String()))
	var js sweepTable
	if err := json.Unmarshal(mustRead(t, filepath.Join(dir, "sweep.json")), &js); err != nil {
		t.Fatal(err)
	}
	return js
}

func dcsOf(t *testing.T, name string) dcs.Formulation {
	t.Helper()
	f, err := dcs.ParseFormulation(name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestLastSuccessFile: a homotopy that ends on a failed step keeps the
// last successful step's point in last_success.json. TestRunSmall's task
// with 60 iterations per step and four Scholtes steps, no finish: the
// σ = 1 step converges and the last step fails (measured; with 40
// iterations the homotopy now ends MaxSteps, so the count is not special:
// any configuration whose last step fails after a successful one would
// do).
// The summary must name that step and its residual, the file must hold
// the point with that residual, and -warm must accept it.
func TestLastSuccessFile(t *testing.T) {
	dir := t.TempDir()
	base := []string{"-N", "4", "-T", "0.4", "-distance", "0", "-cross", "FE_FE", "-max-iter", "60", "-finish", "none"}
	var buf bytes.Buffer
	if err := runMain(context.Background(), append(append([]string(nil), base...), "-max-steps", "4", "-out", dir), &buf); err != nil {
		t.Fatal(err)
	}
	var s summary
	if err := json.Unmarshal(mustRead(t, filepath.Join(dir, "summary.json")), &s); err != nil {
		t.Fatal(err)
	}
	if s.Status != "NLPFailure" || s.LastSuccessStep == nil || *s.LastSuccessStep >= s.HomotopySteps-1 {
		t.Fatalf("status %s, last success step %v of %d (the configuration no longer fails at the end?)", s.Status, s.LastSuccessStep, s.HomotopySteps)
	}
	var saved savedSolution
	if err := json.Unmarshal(mustRead(t, filepath.Join(dir, "last_success.json")), &saved); err != nil {
		t.Fatal(err)
	}
	if saved.Status != "NotSolved" || saved.Residual != s.LastSuccessResidual {
		t.Errorf("last_success.json: status %s, residual %g; summary: last success %g, final %g", saved.Status, saved.Residual, s.LastSuccessResidual, s.CompResidual)
	}
	if err := runMain(context.Background(), append(append([]string(nil), base...), "-warm", filepath.Join(dir, "last_success.json"),
		"-sigma0", "1e-3", "-max-steps", "1", "-out", t.TempDir()), &buf); err != nil {
		t.Errorf("-warm last_success.json: %v", err)
	}
}

// TestSecondFinishSmall: secondFinish restarts the ℓ∞ finish from a
// result on the same grid (warm start, ρ = 1e6, no further finish). From
// TestRunSmall's solution with the ground pass's constraints (gain, box,
// stage-point foot constraint) it must end Solved at the same task: the
// targets, a monotone clock, and the foot not below the ground (≤ 1e-9).
// For a result that ended on a failed step it must start from that
// result's LastSuccess.
func TestSecondFinishSmall(t *testing.T) {
	c := defaultConfig()
	c.N, c.T, c.Distance = 4, 0.4, 0
	c.Cross = fesd.FEFE
	r, _, err := run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	g := refinementRecipe(c, r, "N4_step")
	g.FootGround = true
	g2 := secondFinish(g, r, "N4_step_ground")
	if g2.Warm == nil || g2.InitFrom != nil || g2.Steering != mpcc.LInf || g2.Finish != mpcc.Direct || g2.Sigma0 != 1e-6 || !g2.FootGround {
		t.Fatalf("secondFinish: %+v", g2)
	}
	// From a run that ended on a failed step: its last successful point.
	failed := fesd.WarmFromNLPSolution(make([]float64, len(r.NLPSolution())))
	failed.LastSuccess = r
	if g3 := secondFinish(g, failed, "N4_step_ground"); g3.fromName != "N4_step_ground/last_success" || !slices.Equal(g3.Warm, r.NLPSolution()) {
		t.Errorf("secondFinish after a failed step: from %q", g3.fromName)
	}
	s := solveLogged(t, g2)
	if s.Status != "Solved" || s.InitFrom != "N4_step_ground" || !s.FootGround || !s.ClockMonotone ||
		s.TerminalPositionError > 1e-3 || s.TerminalVelocityNorm > 1e-3 || s.MaxPenetration > 1e-9 {
		t.Errorf("second finish: %+v", s)
	}
}

// TestTerminalBall: the terminal constraints ‖q(T) − q*‖ ≤ r, ‖v(T)‖ ≤ r
// (-terminal-ball) against the box |·| ≤ r/2 (-terminal-tol), which lies
// inside the ball. Stewart, N = 4, T = 0.4 s, 0.1 m (the stage length of
// the paper's N = 30): the targets recipe stops at σ_N with residual
// 3.5e-5, and restarting its ℓ∞ finish with the box of half-width 4.75e-4
// stays there (measured: SigmaLimit after 1 127 iterations, 4.0e-5),
// while the same restart with the ball of radius 9.5e-4 ends Solved
// (measured: 47 iterations, 3.8e-6, both norms at the radius). The test
// requires the ball run to solve within the radius and the box run to end
// with a residual no smaller than half the ball run's.
func TestTerminalBall(t *testing.T) {
	if testing.Short() {
		t.Skip("long: about 11 s (run without -short)")
	}
	c := defaultConfig()
	c.N, c.T, c.Distance, c.Form, c.MaxIter = 4, 0.4, 0.1, dcs.Stewart, 3000
	c = targetsRecipe(c)
	r, _, err := run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status == mpcc.Solved {
		t.Fatalf("the targets recipe ended Solved (residual %.2e): the test needs its stall", r.CompResidual)
	}
	restart := func(box, ball float64) summary {
		g := defaultConfig()
		g.N, g.T, g.Distance, g.Form, g.MaxIter = c.N, c.T, c.Distance, c.Form, c.MaxIter
		g.Warm, g.Steering, g.Sigma0, g.Finish, g.Baumgarte = r.NLPSolution(), mpcc.LInf, 1e-6, mpcc.Direct, 10
		g.TerminalTol, g.TerminalBall = box, ball
		return solveLogged(t, g)
	}
	const radius = 9.5e-4
	sBall := restart(0, radius)
	sBox := restart(radius/2, 0)
	if sBall.Status != "Solved" || sBall.CompResidual > c.CompTol {
		t.Errorf("ball: status %s, residual %.2e", sBall.Status, sBall.CompResidual)
	}
	const slack = 1e-8 // the inner solver's feasibility tolerance, generously
	if sBall.TerminalPositionError > radius+slack || sBall.TerminalVelocityNorm > radius+slack {
		t.Errorf("ball: |q(T)−q*| = %.3e, |v(T)| = %.3e, radius %.1e", sBall.TerminalPositionError, sBall.TerminalVelocityNorm, radius)
	}
	if sBox.CompResidual < 0.5*sBall.CompResidual {
		t.Errorf("box restart residual %.2e below the ball's %.2e: the comparison no longer shows what the test documents", sBox.CompResidual, sBall.CompResidual)
	}
}
