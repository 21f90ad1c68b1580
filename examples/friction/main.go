// Command friction simulates Stewart's three masses with Coulomb friction
// (D. E. Stewart, A numerical method for friction problems with multiple
// contacts, J. Austral. Math. Soc. Ser. B 37, 1996, §5, eq. 15) with FESD:
//
//	q₁'' = −q₁ + (q₂ − q₁) − q₁' − 0.3 sgn(q₁')
//	q₂'' = (q₁ − q₂) + (q₃ − q₂) − q₂' − 0.3 sgn(q₂')
//	q₃'' = (q₂ − q₃) − q₃' − 0.3 sgn(q₃') + 10 cos(πt)
//
// with q(0) = (−1, 1, −1), q'(0) = (−1, 1, 1) on [0, 10]. The model is
// internal/reference.FrictionModel with FrictionSplit: the state is
// x = (q₁, q₂, q₃, v₁, v₂, v₃) and the model has three independent Filippov
// subsystems (the paper's decomposition), one per contact, with ψ_j = v_j
// and the modes ∓0.3 e_{v_j} for v_j ≷ 0; the smooth part (springs, damping
// and the forcing 10 cos(πt), through the model's time symbol) is the drift
// F0. Sticking of mass j is the sliding mode v_j ≡ 0 of its subsystem.
//
// Defaults: Heaviside step DCS, Radau IIA with n_s = 2 (order 3), control
// intervals (simulation steps) of length h = 0.05 (flag -step) with N_FE = 4
// finite elements each, so N_sim = 200. N_FE = 4 because FESD places every switch
// at an element boundary and bounds h_n ≤ 2h/N_FE (γ_h = 1): the step
// [0.2, 0.25] holds two switches (v₂ crosses 0 at 0.2077, v₁ at 0.2487), and
// N_FE = 2 or 3 make its NLP infeasible (the homotopy ends in NLPFailure). The step ends are fixed, so with the
// default h the sample times t = 0, 0.05, …, 10 of the paper's error metric
// are step boundaries and no interpolation happens. For other h the samples
// are evaluated with the collocation polynomial of the element that
// contains them (Lagrange interpolation through the element start and its
// stage points, which is the collocation polynomial of Radau IIA).
//
// The program also solves the same equations with the independent
// event-driven reference of internal/reference (Friction: the exact flow of
// each stick/slip mode by the matrix exponential, events by bisection) and
// prints the paper's error metric against it: the largest Euclidean norm of the error over t = 0,
// 0.05, …, 10. Measured with the defaults: 22 switches (the paper: 22) in
// the reference's order, switch times within 8.3e-7, error 2.1e-6 (Stewart's
// Algorithm 2: 5.4e-4 and 4.68e-6 in his Tables 1–2), 792 NLP iterations
// (steps start from fesd's event-driven prediction and are solved on the
// predicted branch where it applies, Simulate's default, also while mass 1
// sticks; without it the homotopy of every step takes 25 534);
// with -ns 3: switch times within 1.7e-9, error 7.0e-9. Mass 1 sticks from
// t = 3.728994 to the end (v₁ ≤ 7e-9 there).
//
// Outputs in -out (default out/friction): trajectory.csv (the samples),
// elements.csv (all element boundaries and stage points), switches.csv,
// steps.csv (one solver record per step), summary.json, and
// friction.png/.svg (positions and velocities, switch times marked).
// If a step fails the program writes what it has and exits with status 1.
//
// Usage:
//
//	go run ./examples/friction [-out DIR] [-ns 2] [-nfe 4] [-step 0.05] [-tf 10] [-dcs step|stewart]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/reference"
	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/rk"
	"gonum.org/v1/plot/vg"
)

// Problem data (Stewart §5, eq. 15; the model and x(0) are
// reference.FrictionModel and reference.FrictionX0).
const (
	sampleDT  = 0.05
	paperNSw  = 22 // "In this range there are 22 switching points."
	psiReport = 1e-6
)

// options configures run.
type options struct {
	Out    string  // output folder (created)
	Stages int     // n_s of Radau IIA
	NFE    int     // finite elements per step
	H      float64 // step (control interval) length
	TF     float64 // final time
	DCS    dcs.Formulation
}

func defaultOptions() options {
	return options{Out: "out/friction", Stages: 2, NFE: 4, H: 0.05, TF: 10, DCS: dcs.Step}
}

// stickInterval is a maximal stretch of consecutive elements on which mass
// j sticks (its ψ_j is on the surface, v_j ≡ 0).
type stickInterval struct {
	Mass   int     `json:"mass"` // 0-based
	T0     float64 `json:"t0"`
	T1     float64 `json:"t1"`
	MaxAbs float64 `json:"max_abs_v"` // largest |v_j| at its points
	// Degenerate marks an interval shorter than 1e-8: an element of zero
	// length classified as sliding between two sides, i.e. one crossing
	// reported as entering and leaving sliding (seen with Stewart's DCS).
	Degenerate bool `json:"degenerate"`
}

// refSummary compares the FESD solution with the event-driven reference
// (internal/reference.Friction).
type refSummary struct {
	Method string `json:"method"`
	// MaxError is the paper's metric: the largest Euclidean norm of the
	// 6-vector error over the sample times.
	MaxError float64 `json:"max_error"`
	// Switches are the reference event times and ψ indices.
	Switches []report.Switch `json:"switches"`
	// SwitchTimeMaxError is the largest |t_FESD − t_ref| over the switches
	// matched in order by ψ index (−1 if the sequences differ).
	SwitchTimeMaxError float64 `json:"switch_time_max_error"`
	SameSequence       bool    `json:"same_switch_sequence"`
}

// summary is what run returns and writes to summary.json.
type summary struct {
	Problem       string          `json:"problem"`
	Formulation   string          `json:"dcs"`
	Scheme        string          `json:"scheme"`
	Stages        int             `json:"ns"`
	NFE           int             `json:"nfe"`
	H             float64         `json:"h"`
	NSim          int             `json:"nsim"`
	TF            float64         `json:"tf"`
	Sampling      string          `json:"sampling"`
	Switches      []report.Switch `json:"switches"`
	NumSwitches   int             `json:"num_switches"`
	PaperSwitches int             `json:"paper_switches"`
	MaxPsiAtSw    float64         `json:"max_abs_psi_at_switches"`
	Sticking      []stickInterval `json:"sticking"`
	// SwitchingPoints counts the switches with those of the same ψ closer
	// than 1e-8 merged (see switchingPoints).
	SwitchingPoints int        `json:"switching_points"`
	Reference       refSummary `json:"reference"`
	Iterations      int        `json:"nlp_iterations"`
	Steps           int        `json:"steps"`
	Failures        int        `json:"failures"`
	FailedAt        *float64   `json:"failed_at,omitempty"`
	WallSeconds     float64    `json:"wall_seconds"`
	XFinal          []float64  `json:"x_final"`
	TFinal          float64    `json:"t_final"`
	Samples         int        `json:"samples"`
	Files           []string   `json:"files"`
	Error           string     `json:"error,omitempty"`

	result  *fesd.SimResult // the simulation (not in JSON)
	sampleT []float64       // sample times t = 0, 0.05, …
	sampleX [][]float64     // states there
	model   *dcs.Model      // for the ψ numbering
}

func main() {
	o := defaultOptions()
	flag.StringVar(&o.Out, "out", o.Out, "output directory")
	flag.IntVar(&o.Stages, "ns", o.Stages, "Radau IIA stages n_s")
	flag.IntVar(&o.NFE, "nfe", o.NFE, "finite elements per simulation step (≥ 2)")
	flag.Float64Var(&o.H, "step", o.H, "simulation step (control interval) length h")
	flag.Float64Var(&o.TF, "tf", o.TF, "final time")
	flag.TextVar(&o.DCS, "dcs", o.DCS, "DCS formulation: step or stewart")
	flag.Parse()
	if _, err := run(context.Background(), os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "friction:", err)
		os.Exit(1)
	}
}

// run simulates, prints progress to w and writes the outputs. On a failed
// step it still writes the files of the computed part and returns the
// summary with the error.
func run(ctx context.Context, w io.Writer, o options) (*summary, error) {
	f := o.DCS
	if err := (dcs.Options{Formulation: f}).Validate(); err != nil {
		return nil, err
	}
	if !(o.H > 0) || !(o.TF > 0) || o.Stages < 1 || o.NFE < 1 {
		return nil, fmt.Errorf("invalid options: step = %v, tf = %v, ns = %d, nfe = %d", o.H, o.TF, o.Stages, o.NFE)
	}
	nsim := int(math.Round(o.TF / o.H))
	if nsim < 1 || math.Abs(float64(nsim)*o.H-o.TF) > 1e-9*o.TF {
		return nil, fmt.Errorf("tf = %v is not a multiple of step = %v", o.TF, o.H)
	}
	if _, err := report.MakeDir(o.Out); err != nil {
		return nil, err
	}
	m := reference.FrictionModel(reference.FrictionSplit)
	s := &summary{
		Problem:       "Stewart's three masses with Coulomb friction (Stewart 1996, §5, eq. 15)",
		Formulation:   strings.ToLower(f.String()),
		Scheme:        rk.FamilyRadauIIA.String(),
		Stages:        o.Stages,
		NFE:           o.NFE,
		H:             o.H,
		NSim:          nsim,
		TF:            o.TF,
		PaperSwitches: paperNSw,
		model:         m,
	}
	x0 := append([]float64{}, reference.FrictionX0...)
	fmt.Fprintf(w, "three masses with Coulomb friction on [0, %g]: %v DCS, Radau IIA n_s = %d, h = %g (%d steps × %d elements)\n",
		o.TF, f, o.Stages, o.H, nsim, o.NFE)

	start := time.Now()
	res, simErr := simulate(ctx, w, m, x0, f, o, nsim)
	s.WallSeconds = time.Since(start).Seconds()
	if res == nil || len(res.T) == 0 {
		// no point at all (the first step failed): nothing to summarize
		return s, fmt.Errorf("simulation: %w", simErr)
	}
	s.result = res
	var se *fesd.StepError
	if errors.As(simErr, &se) {
		s.Failures = 1
		s.FailedAt = &se.T0
		s.Error = simErr.Error()
	} else if simErr != nil {
		s.Error = simErr.Error()
	}
	if err := summarize(s, res); err != nil {
		return s, errors.Join(simErr, err)
	}

	if err := writeOutputs(s, o); err != nil {
		return s, errors.Join(simErr, err)
	}
	fmt.Fprintf(w, "switches: %d reported, %d switching points (paper: %d), max |ψ| at switches %.2e\n", s.NumSwitches, s.SwitchingPoints, paperNSw, s.MaxPsiAtSw)
	fmt.Fprintf(w, "reference (%s): %d switches, same sequence %v, max switch time error %.2e, max error over the samples %.2e\n",
		s.Reference.Method, len(s.Reference.Switches), s.Reference.SameSequence, s.Reference.SwitchTimeMaxError, s.Reference.MaxError)
	for _, st := range s.Sticking {
		note := ""
		if st.Degenerate {
			note = fmt.Sprintf(" — degenerate, length %.1e: one crossing split into entering and leaving sliding", st.T1-st.T0)
		}
		fmt.Fprintf(w, "mass %d sticks on [%.6f, %.6f] (max |v| %.1e)%s\n", st.Mass+1, st.T0, st.T1, st.MaxAbs, note)
	}
	fmt.Fprintf(w, "x(%s) = %.9f\n", report.Time(s.TFinal), s.XFinal)
	fmt.Fprintf(w, "%d steps, %d NLP iterations, %d failures, %.2f s\n", s.Steps, s.Iterations, s.Failures, s.WallSeconds)
	fmt.Fprintf(w, "wrote %d files to %s\n", len(s.Files), o.Out)
	if simErr != nil {
		return s, fmt.Errorf("simulation stopped at t = %g (each switch inside a step needs its own element boundary: "+
			"with k switches in one step N_FE ≥ k + 1 and h_n ≤ 2h/N_FE; try a larger -nfe or a smaller -step): %w", s.TFinal, simErr)
	}
	return s, nil
}

// simulate runs fesd.Simulate over [0, tf] in nsim steps and prints a line
// when it is done.
func simulate(ctx context.Context, w io.Writer, m *dcs.Model, x0 []float64, f dcs.Formulation, o options, nsim int) (*fesd.SimResult, error) {
	opts := fesd.Options{
		Scheme: rk.FamilyRadauIIA,
		Stages: o.Stages,
		NFE:    o.NFE,
		DCS:    dcs.Options{Formulation: f},
	}
	res, err := fesd.Simulate(ctx, m, x0, fesd.SimOptions{TSim: o.TF, NSim: nsim, Options: opts})
	if res != nil && len(res.T) > 0 {
		it := 0
		for _, r := range res.Steps {
			it += r.Iterations
		}
		fmt.Fprintf(w, "simulated to t = %g: %d steps, %d NLP iterations, %d switches; steps: %s\n",
			res.T[len(res.T)-1], len(res.Steps), it, len(res.Switches), report.StepClasses(res.Steps))
	}
	return res, err
}

// summarize fills the figures of s from the simulation result; the error
// is the reference's.
func summarize(s *summary, res *fesd.SimResult) error {
	s.Switches = report.Switches(s.model, res.Switches)
	s.NumSwitches = len(s.Switches)
	for _, sw := range res.Switches {
		s.MaxPsiAtSw = math.Max(s.MaxPsiAtSw, math.Abs(sw.PsiValue))
	}
	s.Steps = len(res.Steps)
	for _, r := range res.Steps {
		s.Iterations += r.Iterations
	}
	s.TFinal = res.T[len(res.T)-1]
	s.XFinal = res.Final()
	s.Sticking = report.List(sticking(s.model, res))
	s.sampleT, s.sampleX = samples(res, sampleDT)
	s.Samples = len(s.sampleT)
	var err error
	if s.Reference, err = compareReference(s); err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	s.SwitchingPoints = len(switchingPoints(s.Switches))
	if len(s.sampleT) > 0 && nearGrid(res.T, s.sampleT) {
		s.Sampling = "element boundaries (the sample times are step ends)"
	} else {
		s.Sampling = "collocation polynomial of the element containing each sample"
	}
	return nil
}

// sticking returns the intervals on which a mass sticks: from a switch of
// ψ_j = v_j onto the surface (entering sliding) to the next switch of ψ_j
// (leaving it) or the end, with the largest |v_j| at the element
// boundaries and stage points inside.
func sticking(m *dcs.Model, res *fesd.SimResult) []stickInterval {
	var out []stickInterval
	tEnd := res.T[len(res.T)-1]
	for j := range 3 {
		open := -1.0
		for _, sw := range res.Switches {
			if report.PsiIndex(m, sw.Subsystem, sw.Psi) != j {
				continue
			}
			switch {
			case sw.Kind == fesd.EnteringSliding:
				open = sw.Time
			case open >= 0:
				out = append(out, stickInterval{Mass: j, T0: open, T1: sw.Time})
				open = -1
			}
		}
		if open >= 0 {
			out = append(out, stickInterval{Mass: j, T0: open, T1: tEnd})
		}
	}
	pt, px := report.SimPoints(res)
	for i := range out {
		st := &out[i]
		st.Degenerate = st.T1-st.T0 < 1e-8 && st.T1 < tEnd
		for k, t := range pt {
			if t >= st.T0 && t <= st.T1 {
				st.MaxAbs = math.Max(st.MaxAbs, math.Abs(px[k][3+st.Mass]))
			}
		}
	}
	return out
}

// nearGrid reports whether every sample time is an element boundary (to
// 1e-9).
func nearGrid(grid, ts []float64) bool {
	k := 0
	for _, t := range ts {
		for k < len(grid) && grid[k] < t-1e-9 {
			k++
		}
		if k == len(grid) || math.Abs(grid[k]-t) > 1e-9 {
			return false
		}
	}
	return true
}

// samples evaluates the simulation at t = 0, dt, 2dt, … up to its last
// element boundary: the boundary state where t is an element boundary (to
// 1e-9), otherwise the collocation polynomial of the element that contains
// t, i.e. the Lagrange interpolant through (t_n, x_n) and the n_s stage
// points of the element (for Radau IIA and Gauss–Legendre this is the
// collocation polynomial, of degree n_s).
func samples(res *fesd.SimResult, dt float64) ([]float64, [][]float64) {
	nel := len(res.H)
	if nel == 0 {
		return []float64{res.T[0]}, [][]float64{res.X[0]}
	}
	ns := len(res.PointT) / nel
	tEnd := res.T[len(res.T)-1]
	var ts []float64
	var xs [][]float64
	e := 0
	for k := 0; ; k++ {
		t := float64(k) * dt
		if t > tEnd+1e-9 {
			break
		}
		for e < nel-1 && res.T[e+1] < t-1e-9 {
			e++
		}
		var x []float64
		switch {
		case math.Abs(t-res.T[e]) <= 1e-9:
			x = res.X[e]
		case math.Abs(t-res.T[e+1]) <= 1e-9:
			x = res.X[e+1]
		default:
			nodes := append([]float64{res.T[e]}, res.PointT[e*ns:(e+1)*ns]...)
			vals := append([][]float64{res.X[e]}, res.PointX[e*ns:(e+1)*ns]...)
			x = lagrange(nodes, vals, t)
		}
		ts = append(ts, t)
		xs = append(xs, x)
	}
	return ts, xs
}

// lagrange evaluates the interpolating polynomial through (nodes[i],
// vals[i]) at t.
func lagrange(nodes []float64, vals [][]float64, t float64) []float64 {
	x := make([]float64, len(vals[0]))
	for i, ti := range nodes {
		l := 1.0
		for k, tk := range nodes {
			if k != i {
				l *= (t - tk) / (ti - tk)
			}
		}
		for c := range x {
			x[c] += l * vals[i][c]
		}
	}
	return x
}

// writeOutputs writes the CSV files, the plot and summary.json.
func writeOutputs(s *summary, o options) error {
	res := s.result
	names := []string{"q1", "q2", "q3", "v1", "v2", "v3"}
	path := func(name string) string {
		s.Files = append(s.Files, name)
		return filepath.Join(o.Out, name)
	}
	if err := report.WriteTrajectoryCSV(path("trajectory.csv"), "t", names, s.sampleT, s.sampleX); err != nil {
		return err
	}
	pt, px := report.SimPoints(res)
	if err := report.WriteTrajectoryCSV(path("elements.csv"), "t", names, pt, px); err != nil {
		return err
	}
	if err := report.WriteSwitchesCSV(path("switches.csv"), s.Switches); err != nil {
		return err
	}
	rows := make([][]string, len(res.Steps))
	for i, r := range res.Steps {
		rows[i] = []string{
			fmt.Sprint(r.Step), report.FormatFloat(r.T0), report.FormatFloat(r.T1), r.Status.String(),
			fmt.Sprint(r.Iterations), report.FormatFloat(r.CompResidual), report.FormatFloat(r.Elapsed.Seconds()),
		}
	}
	if err := report.WriteTableCSV(path("steps.csv"), []string{"step", "t0", "t1", "status", "iterations", "comp_residual", "seconds"}, rows); err != nil {
		return err
	}
	sw := report.SwitchTimes(s.Switches)
	var pos, vel []report.Series
	for j := range 3 {
		pos = append(pos, report.Series{Name: names[j], X: pt, Y: report.Column(px, j)})
		vel = append(vel, report.Series{Name: names[3+j], X: pt, Y: report.Column(px, 3+j)})
	}
	tp, err := report.Tiled(2, 1,
		report.LinePlot{Title: fmt.Sprintf("Three masses with Coulomb friction (%d switches)", s.NumSwitches), YLabel: "position q", Series: pos, VLines: sw},
		report.LinePlot{XLabel: "t", YLabel: "velocity v", Series: vel, VLines: sw, HLines: []float64{0}},
	)
	if err != nil {
		return err
	}
	files, err := report.SavePlot(tp, 24*vg.Centimeter, 16*vg.Centimeter, filepath.Join(o.Out, "friction"))
	if err != nil {
		return err
	}
	for _, f := range files {
		s.Files = append(s.Files, filepath.Base(f))
	}
	s.Files = append(s.Files, "summary.json")
	if s.Switches == nil {
		s.Switches = []report.Switch{}
	}
	return report.WriteJSON(filepath.Join(o.Out, "summary.json"), s)
}

// compareReference computes the reference over the simulated horizon and
// compares it with the samples and switches of s.
func compareReference(s *summary) (refSummary, error) {
	x0 := append([]float64{}, reference.FrictionX0...)
	tf := s.sampleT[len(s.sampleT)-1]
	ref, err := reference.Friction(x0, tf, reference.FrictionOptions{})
	if err != nil {
		return refSummary{}, err
	}
	r := refSummary{Method: "event-driven, exact flow of each mode by the matrix exponential, events by bisection (internal/reference.Friction)"}
	for i, t := range s.sampleT {
		x := ref.At(t)
		d := 0.0
		for c := range 6 {
			d += (s.sampleX[i][c] - x[c]) * (s.sampleX[i][c] - x[c])
		}
		r.MaxError = math.Max(r.MaxError, math.Sqrt(d))
	}
	r.Switches = []report.Switch{}
	for _, e := range ref.Events {
		r.Switches = append(r.Switches, report.Switch{T: e.T, Psi: e.Psi, Kind: e.Kind})
	}
	// Match the FESD switching points (same ψ within 1e-8 merged) in order.
	pts := switchingPoints(s.Switches)
	r.SameSequence = len(pts) == len(ref.Events)
	for i := 0; r.SameSequence && i < len(pts); i++ {
		if pts[i].Psi != ref.Events[i].Psi {
			r.SameSequence = false
			break
		}
		r.SwitchTimeMaxError = math.Max(r.SwitchTimeMaxError, math.Abs(pts[i].T-ref.Events[i].T))
	}
	if !r.SameSequence {
		r.SwitchTimeMaxError = -1
	}
	return r, nil
}

// switchingPoints merges switches of the same ψ closer than 1e-8 in time
// (an element of zero length between them, for example an entering and a
// leaving sliding that together are one crossing) into one point.
func switchingPoints(sw []report.Switch) []report.Switch {
	var out []report.Switch
	for _, x := range sw {
		merged := false
		for k := len(out) - 1; k >= 0 && x.T-out[k].T < 1e-8; k-- {
			if out[k].Psi == x.Psi {
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, x)
		}
	}
	return out
}
