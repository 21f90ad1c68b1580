package main

import (
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/monopod"
	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/mpcc"
)

// summary is summary.json.
type summary struct {
	N                     int     `json:"N"`
	DCS                   string  `json:"dcs"`
	CrossComp             string  `json:"cross_comp"`
	Status                string  `json:"status"`
	Stationarity          string  `json:"stationarity"` // mpcc's certified class of the solution
	Objective             float64 `json:"objective"`
	NLPIterations         int     `json:"nlp_iterations"`
	HomotopySteps         int     `json:"homotopy_steps"`
	WallSeconds           float64 `json:"wall_seconds"`
	SecondsPerIteration   float64 `json:"seconds_per_iteration"`
	TerminalPositionError float64 `json:"terminal_position_error"`
	TerminalVelocityNorm  float64 `json:"terminal_velocity_norm"`
	// Jumps counts the flight phases (foot above FlightHeight at an
	// element boundary between two ground contacts or after the start);
	// Impacts counts the frozen phases (auxiliary dynamics with dt/dτ ≈ 0).
	Jumps   int `json:"jumps"`
	Impacts int `json:"impacts"`
	// MaxPenetration is max(0, −f_c) over all element boundaries and stage
	// points; CompResidual the final complementarity residual.
	MaxPenetration float64 `json:"max_penetration"`
	CompResidual   float64 `json:"comp_residual"`
	// Infeasibility is fesd.OCPResult.Infeasibility: the largest violation
	// of the NLP's other constraints (dynamics, clock, bounds, path and
	// terminal constraints) at the point.
	Infeasibility float64 `json:"infeasibility"`
	// ClockMonotone reports t non-decreasing (to 1e-9) over the element
	// boundaries, where the RK solution is defined. Between them the
	// collocation polynomial may dip: Radau IIA's A has negative entries
	// (a₁₂ = −1/12 for n_s = 2), so an interior stage point of an element
	// whose time runs only at its end lies below the element's start.
	// MaxClockDip is the largest such dip max(0, t_start − t_stage).
	ClockMonotone bool    `json:"clock_monotone"`
	MaxClockDip   float64 `json:"max_clock_dip"`
	NumVariables  int     `json:"nlp_variables"`
	NumConstraint int     `json:"nlp_constraints"`
	// Inner describes the inner NLP settings that differ between runs
	// (KKT backend, pivot rules, steering).
	Inner string `json:"inner"`
	// InitFrom names the solution this run was initialized from
	// (-init-from, or the run of a -refine sweep; empty otherwise).
	InitFrom string `json:"init_from,omitempty"`
	// LastSuccessStep and LastSuccessResidual, when the homotopy ended on
	// a failed step after a successful one, give the index of that step
	// in the homotopy log and its complementarity residual; its point is
	// last_success.json.
	LastSuccessStep     *int    `json:"last_success_step,omitempty"`
	LastSuccessResidual float64 `json:"last_success_comp_residual,omitempty"`
	// FootGround reports the stage-point constraint foot height ≥
	// −FootSlack (-foot-ground, or a -ground-pass row of a sweep).
	FootGround bool `json:"foot_ground"`
}

// flightHeight is the foot height above which the robot is in flight.
const flightHeight = 1e-3

// analysis holds the physical-time trajectory of a solution.
type analysis struct {
	tau, t []float64    // numerical and physical time of all grid points
	x      [][]float64  // states there
	foot   [][2]float64 // foot position
	pts    [][4][2]float64
}

// analyse merges the element boundaries and stage points in τ order and
// evaluates the kinematics.
func analyse(r *fesd.OCPResult, m *monopod.Model) (*analysis, error) {
	pf, err := m.Points()
	if err != nil {
		return nil, err
	}
	type pt struct {
		tau float64
		x   []float64
	}
	var all []pt
	for i, tau := range r.T {
		all = append(all, pt{tau, r.X[i]})
	}
	for i, tau := range r.PointT {
		all = append(all, pt{tau, r.PointX[i]})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].tau < all[j].tau })
	a := &analysis{}
	for i, p := range all {
		if i > 0 && math.Abs(p.tau-all[i-1].tau) < 1e-12 {
			continue // Radau IIA's last stage is the element end
		}
		a.tau = append(a.tau, p.tau)
		a.t = append(a.t, p.x[m.TF.Clock])
		a.x = append(a.x, p.x)
		ps := pf(p.x[:4])
		a.pts = append(a.pts, ps)
		a.foot = append(a.foot, ps[2])
	}
	return a, nil
}

// summarize fills the summary of one run.
func summarize(c config, r *fesd.OCPResult, m *monopod.Model, a *analysis, wall time.Duration) summary {
	s := summary{N: c.N, DCS: c.Form.String(), CrossComp: c.Cross.String(), Status: r.Status.String(), Stationarity: r.Stationarity.String(),
		Objective: r.Objective, NLPIterations: r.Iterations, HomotopySteps: len(r.Homotopy),
		WallSeconds: wall.Seconds(), CompResidual: r.CompResidual, Infeasibility: r.Infeasibility,
		NumVariables: r.NumVariables, NumConstraint: r.NumConstraints, ClockMonotone: true, InitFrom: c.fromName, FootGround: c.FootGround,
		Inner: fmt.Sprintf("%v inertia=%v steering=%v", c.LinearSolver, c.Inertia, c.Steering)}
	if c.Finish != mpcc.Direct {
		s.Inner += fmt.Sprintf(" finish=%v", c.Finish)
		if c.FinishBaumgarte > 0 {
			s.Inner += fmt.Sprintf(" finish_baumgarte=%g", c.FinishBaumgarte)
		}
		if c.FinishTerminalTol > 0 {
			s.Inner += fmt.Sprintf(" finish_terminal_tol=%g", c.FinishTerminalTol)
		}
		if c.FinishPlainFirst {
			s.Inner += " finish_plain_first"
			if c.FinishSecondSigma0 > 0 {
				s.Inner += fmt.Sprintf(" finish_second_sigma0=%g", c.FinishSecondSigma0)
			}
		}
	}
	if c.Baumgarte > 0 {
		s.Inner += fmt.Sprintf(" baumgarte=%g", c.Baumgarte)
	}
	if c.TerminalTol > 0 {
		s.Inner += fmt.Sprintf(" terminal_tol=%g", c.TerminalTol)
	}
	if c.GammaH > 0 && c.GammaH != 1 {
		s.Inner += fmt.Sprintf(" gamma_h=%g", c.GammaH)
	}
	if r.Iterations > 0 {
		s.SecondsPerIteration = wall.Seconds() / float64(r.Iterations)
	}
	if ls := r.LastSuccess; ls != nil {
		k := len(ls.Homotopy) - 1
		s.LastSuccessStep, s.LastSuccessResidual = &k, ls.CompResidual
	}
	xf := r.Final()
	qTarget := c.qTarget()
	for i := 0; i < 4; i++ {
		s.TerminalPositionError = math.Hypot(s.TerminalPositionError, xf[i]-qTarget[i])
		s.TerminalVelocityNorm = math.Hypot(s.TerminalVelocityNorm, xf[4+i])
	}
	for i := range a.t {
		s.MaxPenetration = math.Max(s.MaxPenetration, -a.foot[i][1])
	}
	clock := m.TF.Clock
	for i := 1; i < len(r.X); i++ {
		if r.X[i][clock] < r.X[i-1][clock]-1e-9 {
			s.ClockMonotone = false
		}
	}
	// Stage points against the start of their element (r.T are the element
	// boundaries in τ, in order).
	for i, tau := range r.PointT {
		e := sort.SearchFloat64s(r.T, tau) - 1 // element with T[e] < τ ≤ T[e+1]
		if e < 0 {
			continue
		}
		s.MaxClockDip = math.Max(s.MaxClockDip, r.X[e][clock]-r.PointX[i][clock])
	}
	// Flight phases at element boundaries.
	inFlight := false
	for _, x := range r.X {
		fc := monopod.FootHeight(x)
		if fc > flightHeight && !inFlight {
			s.Jumps++
		}
		inFlight = fc > flightHeight
	}
	// Frozen phases: elements whose clock advances by less than 1% of the
	// physical time the element would take at unit rate, while the velocity
	// changes.
	frozen := false
	for n := range r.H {
		dt := r.X[n+1][m.TF.Clock] - r.X[n][m.TF.Clock]
		dv := 0.0
		for i := 4; i < 8; i++ {
			dv = math.Max(dv, math.Abs(r.X[n+1][i]-r.X[n][i]))
		}
		f := r.H[n] > 0 && dt < 0.01*r.H[n]*r.SOT[r.StageOf[n]] && dv > 1e-3
		if f && !frozen {
			s.Impacts++
		}
		frozen = f
	}
	return s
}

// writeRun writes the CSV files, summary.json and the figures of one run.
func writeRun(dir string, c config, r *fesd.OCPResult, m *monopod.Model, a *analysis, s summary) error {
	if _, err := report.MakeDir(dir); err != nil {
		return err
	}
	names := []string{"qx", "qz", "phi_hip", "phi_knee", "vx", "vz", "omega_hip", "omega_knee", "t"}
	rows := make([][]float64, len(a.t))
	for i := range rows {
		rows[i] = append([]float64{a.t[i], a.tau[i]}, a.x[i][:8]...)
		rows[i] = append(rows[i], a.foot[i][0], a.foot[i][1])
	}
	hdr := append([]string{"t", "tau"}, names[:8]...)
	hdr = append(hdr, "foot_x", "foot_z")
	if err := report.WriteCSV(filepath.Join(dir, "trajectory.csv"), hdr, rows); err != nil {
		return err
	}
	crow := make([][]float64, len(r.U))
	for k, u := range r.U {
		t0, t1 := r.X[0][m.TF.Clock], 0.0
		if k < len(r.StageX) {
			t0 = r.StageX[k][m.TF.Clock]
		}
		if k+1 < len(r.StageX) {
			t1 = r.StageX[k+1][m.TF.Clock]
		}
		crow[k] = []float64{float64(k), t0, t1, u[0], u[1], r.SOT[k]}
	}
	if err := report.WriteCSV(filepath.Join(dir, "controls.csv"), []string{"stage", "t_start", "t_end", "u_hip", "u_knee", "speed_of_time"}, crow); err != nil {
		return err
	}
	if err := writeElements(filepath.Join(dir, "elements.csv"), r, m); err != nil {
		return err
	}
	if err := report.WriteJSON(filepath.Join(dir, "summary.json"), s); err != nil {
		return err
	}
	if err := report.WriteJSON(filepath.Join(dir, "solution.json"), newSavedSolution(c, r)); err != nil {
		return err
	}
	if r.LastSuccess != nil {
		// The homotopy ended on a failed step: keep the last point that
		// solved its relaxed NLP (-warm DIR/last_success.json -sigma0 σ).
		if err := report.WriteJSON(filepath.Join(dir, "last_success.json"), newSavedSolution(c, r.LastSuccess)); err != nil {
			return err
		}
	}
	if err := plotFrames(filepath.Join(dir, "frames"), a); err != nil {
		return err
	}
	if err := plotStates(filepath.Join(dir, "states"), c, a); err != nil {
		return err
	}
	return plotControls(filepath.Join(dir, "controls"), r, m)
}

// writeElements writes one row per finite element: its stage, numerical
// step h, physical start and end time, the foot height at its end and its
// complementarity residual (fesd.OCPResult.ElementResidual), to see where a
// run that misses the tolerance misses it.
func writeElements(path string, r *fesd.OCPResult, m *monopod.Model) error {
	pf, err := m.Points()
	if err != nil {
		return err
	}
	modes := stageModes(r)
	ns := len(r.PointZ) / len(r.H)
	rows := make([][]string, len(r.H))
	for n := range rows {
		foot := pf(r.X[n+1][:4])[2]
		rows[n] = []string{fmt.Sprint(n), fmt.Sprint(r.StageOf[n]), report.FormatFloat(r.H[n]), report.FormatFloat(r.TPhys[n]),
			report.FormatFloat(r.TPhys[n+1]), report.FormatFloat(foot[1]), report.FormatFloat(r.ElementResidual[n]),
			strings.Join(modes[n*ns:(n+1)*ns], " ")}
	}
	return report.WriteTableCSV(path, []string{"element", "stage", "h", "t_start", "t_end", "foot_z_end", "comp_residual", "modes"}, rows)
}

// stageModes labels the DCS mode at every stage point: for Stewart the
// region with the largest θ_i (1-based), for Step the rounded α (one digit
// per switching function, 1 for α ≥ ½). A label ends in "~" where the point
// is not clearly in one mode (max θ < 0.99, or some α in (0.01, 0.99)): a
// sliding mode, a switching surface, or a relaxed point.
func stageModes(r *fesd.OCPResult) []string {
	out := make([]string, len(r.PointZ))
	if th := r.Theta(0); th != nil {
		for i, t := range th {
			k := 0
			for j := range t {
				if t[j] > t[k] {
					k = j
				}
			}
			out[i] = fmt.Sprint(k + 1)
			if t[k] < 0.99 {
				out[i] += "~"
			}
		}
		return out
	}
	al := r.Alpha(0)
	if al == nil {
		al = r.Alpha(-1)
	}
	for i, a := range al {
		var b strings.Builder
		mixed := false
		for _, v := range a {
			if v >= 0.5 {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
			mixed = mixed || v > 0.01 && v < 0.99
		}
		if mixed {
			b.WriteByte('~')
		}
		out[i] = b.String()
	}
	return out
}

// plotFrames draws the robot (head–hip–knee–foot) at about 25 physical
// times, as 004 Figure 7.
func plotFrames(base string, a *analysis) error {
	lp := report.LinePlot{Title: "Monopod frames", XLabel: "x [m]", YLabel: "z [m]", NoLegend: true, HLines: []float64{0}}
	nf := 25
	next := 0.0
	tEnd := a.t[len(a.t)-1]
	for i := range a.t {
		if a.t[i] < next-1e-12 && i != len(a.t)-1 {
			continue
		}
		next = a.t[i] + tEnd/float64(nf)
		p := a.pts[i]
		f := a.t[i] / tEnd
		col := color.RGBA{R: uint8(30 + 200*f), G: 60, B: uint8(230 - 200*f), A: 255}
		lp.Series = append(lp.Series, report.Series{
			X: []float64{p[3][0], p[0][0], p[1][0], p[2][0]}, Y: []float64{p[3][1], p[0][1], p[1][1], p[2][1]},
			Points: true, Color: col,
		})
	}
	pl, err := lp.Plot()
	if err != nil {
		return err
	}
	_, err = report.SavePlot(pl, 24*vg.Centimeter, 8*vg.Centimeter, base)
	return err
}

// plotStates draws q_x, q_z, v_x, v_z against physical time with the
// reference (004 Figure 8).
func plotStates(base string, c config, a *analysis) error {
	ref, err := c.reference()
	if err != nil {
		return err
	}
	tr := make([]float64, c.N)
	for k := range tr {
		tr[k] = float64(k+1) * c.T / float64(c.N)
	}
	col := func(j int) []float64 { return report.Column(a.x, j) }
	refc := func(j int) []float64 { return report.Column(ref, j) }
	gray := color.Gray{Y: 120}
	panel := func(title, y string, j int) report.LinePlot {
		return report.LinePlot{Title: title, XLabel: "physical time t [s]", YLabel: y, Series: []report.Series{
			{Name: "FESD", X: a.t, Y: col(j)},
			{Name: "reference", X: tr, Y: refc(j), Dashed: true, Color: gray},
		}}
	}
	foot := report.LinePlot{Title: "foot height", XLabel: "physical time t [s]", YLabel: "f_c [m]", HLines: []float64{0}, NoLegend: true,
		Series: []report.Series{{X: a.t, Y: column2(a.foot, 1)}}}
	tp, err := report.Tiled(3, 2,
		panel("horizontal position", "q_x [m]", 0), panel("vertical position", "q_z [m]", 1),
		panel("horizontal velocity", "v_x [m/s]", 4), panel("vertical velocity", "v_z [m/s]", 5),
		foot, report.LinePlot{Title: "clock", XLabel: "numerical time τ", YLabel: "t [s]", NoLegend: true,
			Series: []report.Series{{X: a.tau, Y: a.t}}})
	if err != nil {
		return err
	}
	_, err = report.SavePlot(tp, 24*vg.Centimeter, 24*vg.Centimeter, base)
	return err
}

func column2(p [][2]float64, j int) []float64 {
	out := make([]float64, len(p))
	for i := range p {
		out[i] = p[i][j]
	}
	return out
}

// plotControls draws the piecewise constant torques against physical time
// (004 Figure 9) and the speed of time per stage.
func plotControls(base string, r *fesd.OCPResult, m *monopod.Model) error {
	var t, uh, uk, st []float64
	for k, u := range r.U {
		t0, t1 := r.StageX[k][m.TF.Clock], r.StageX[k+1][m.TF.Clock]
		t = append(t, t0, t1)
		uh = append(uh, u[0], u[0])
		uk = append(uk, u[1], u[1])
		st = append(st, r.SOT[k], r.SOT[k])
	}
	tp, err := report.Tiled(2, 1,
		report.LinePlot{Title: fmt.Sprintf("Optimal controls (N = %d)", len(r.U)), XLabel: "physical time t [s]", YLabel: "torque [Nm]",
			Series: []report.Series{{Name: "u_hip", X: t, Y: uh}, {Name: "u_knee", X: t, Y: uk}}},
		report.LinePlot{Title: "speed of time", XLabel: "physical time t [s]", YLabel: "s_k", NoLegend: true,
			Series: []report.Series{{X: t, Y: st}}})
	if err != nil {
		return err
	}
	_, err = report.SavePlot(tp, 20*vg.Centimeter, 16*vg.Centimeter, base)
	return err
}

// writeSweep writes sweep.csv, sweep.json and the plots of 004 Figure 10
// (total time and time per NLP iteration against N for both DCS modes).
func writeSweep(dir string, rows []summary) error {
	if _, err := report.MakeDir(dir); err != nil {
		return err
	}
	hdr := []string{"N", "dcs", "status", "nlp_iterations", "wall_seconds", "seconds_per_iteration", "objective",
		"terminal_position_error", "terminal_velocity_norm", "jumps", "impacts", "max_penetration", "comp_residual", "init_from", "foot_ground"}
	var tab [][]string
	for _, s := range rows {
		tab = append(tab, []string{fmt.Sprint(s.N), s.DCS, s.Status, fmt.Sprint(s.NLPIterations),
			report.FormatFloat(s.WallSeconds), report.FormatFloat(s.SecondsPerIteration), report.FormatFloat(s.Objective),
			report.FormatFloat(s.TerminalPositionError), report.FormatFloat(s.TerminalVelocityNorm),
			fmt.Sprint(s.Jumps), fmt.Sprint(s.Impacts), report.FormatFloat(s.MaxPenetration), report.FormatFloat(s.CompResidual), s.InitFrom, fmt.Sprint(s.FootGround)})
	}
	if err := report.WriteTableCSV(filepath.Join(dir, "sweep.csv"), hdr, tab); err != nil {
		return err
	}
	if err := report.WriteJSON(filepath.Join(dir, "sweep.json"), map[string]any{"runs": rows}); err != nil {
		return err
	}
	series := func(get func(summary) float64) []report.Series {
		var out []report.Series
		for _, ground := range []bool{false, true} {
			for _, mode := range []string{"Step", "Stewart"} {
				var x, y []float64
				for _, s := range rows {
					if s.DCS == mode && s.FootGround == ground {
						x = append(x, float64(s.N))
						y = append(y, get(s))
					}
				}
				name := mode
				if ground {
					name += ", foot ≥ 0"
				}
				if len(x) > 0 {
					out = append(out, report.Series{Name: name, X: x, Y: y, Points: true})
				}
			}
		}
		return out
	}
	tp, err := report.Tiled(1, 2,
		report.LinePlot{Title: "total time of the homotopy", XLabel: "N", YLabel: "wall time [s]", LogY: true,
			Series: series(func(s summary) float64 { return s.WallSeconds })},
		report.LinePlot{Title: "time per NLP iteration", XLabel: "N", YLabel: "wall time / iteration [s]",
			Series: series(func(s summary) float64 { return s.SecondsPerIteration })})
	if err != nil {
		return err
	}
	_, err = report.SavePlot(tp, 26*vg.Centimeter, 10*vg.Centimeter, filepath.Join(dir, "sweep"))
	return err
}

// savedSolution is solution.json: the NLP solution vector with the settings
// that fix its layout, to restart a later run from it (-warm).
type savedSolution struct {
	N         int     `json:"N"`
	DCS       string  `json:"dcs"`
	CrossComp string  `json:"cross_comp"`
	NFE       int     `json:"nfe"`
	NS        int     `json:"ns"`
	Status    string  `json:"status"`
	Residual  float64 `json:"comp_residual"`
	// Sigma is the σ of the last homotopy step, exactly: the homotopy's
	// σ_k = κ·σ_{k−1} are not the decimals the log prints (σ₀ = 1, κ =
	// 0.1: step 4 is 1.0000000000000003e-04), and repeating a step with
	// -warm and -sigma0 reproduces it bit for bit only at this value.
	Sigma float64   `json:"sigma"`
	W     []float64 `json:"w"`
}

func newSavedSolution(c config, r *fesd.OCPResult) savedSolution {
	return savedSolution{N: c.N, DCS: c.Form.String(), CrossComp: c.Cross.String(), NFE: c.NFE, NS: c.NS,
		Status: r.Status.String(), Residual: r.CompResidual, Sigma: lastSigma(r), W: r.NLPSolution()}
}

// lastSigma returns the σ of r's last homotopy step (0 without steps).
func lastSigma(r *fesd.OCPResult) float64 {
	if len(r.Homotopy) == 0 {
		return 0
	}
	return r.Homotopy[len(r.Homotopy)-1].Sigma
}

// loadSolution reads a solution.json and checks that its layout is the one
// of c.
func loadSolution(path string, c config) ([]float64, error) {
	s, err := readSaved("-warm", path)
	if err != nil {
		return nil, err
	}
	want := newSavedSolution(c, &fesd.OCPResult{})
	if s.N != want.N || s.DCS != want.DCS || s.CrossComp != want.CrossComp || s.NFE != want.NFE || s.NS != want.NS {
		return nil, fmt.Errorf("-warm %s: solution of N=%d %s %s nfe=%d ns=%d, this run is N=%d %s %s nfe=%d ns=%d",
			path, s.N, s.DCS, s.CrossComp, s.NFE, s.NS, want.N, want.DCS, want.CrossComp, want.NFE, want.NS)
	}
	return s.W, nil
}

// readSaved reads a solution.json with a solution vector (flag names the
// option in errors).
func readSaved(flag, path string) (*savedSolution, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s savedSolution
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	if len(s.W) == 0 {
		return nil, fmt.Errorf("%s %s: no solution vector w", flag, path)
	}
	return &s, nil
}

// loadInitFrom reads a solution.json of any N, DCS mode, cross
// complementarity, N_FE and n_s and evaluates it on the OCP of c with that
// layout (the settings that fix the layout taken from the file), for
// -init-from.
func loadInitFrom(path string, c config) (*fesd.OCPResult, error) {
	s, err := readSaved("-init-from", path)
	if err != nil {
		return nil, err
	}
	old := c
	old.N, old.NFE, old.NS = s.N, s.NFE, s.NS
	old.Warm, old.InitFrom = nil, nil
	if err = old.Form.UnmarshalText([]byte(s.DCS)); err != nil {
		return nil, fmt.Errorf("-init-from %s: %w", path, err)
	}
	if err = old.Cross.UnmarshalText([]byte(s.CrossComp)); err != nil {
		return nil, fmt.Errorf("-init-from %s: %w", path, err)
	}
	solver, _, _, err := newSolver(old)
	if err != nil {
		return nil, fmt.Errorf("-init-from %s: %w", path, err)
	}
	r, err := solver.Evaluate(s.W)
	if err != nil {
		return nil, fmt.Errorf("-init-from %s: %w", path, err)
	}
	return r, nil
}
