package main

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/monopod"
	"github.com/fesd-go/fesd/internal/report"
)

// summary is summary.json: what the run solved, how well, and what it
// cost.
type summary struct {
	N           int     `json:"N"`
	T           float64 `json:"T"`
	Distance    float64 `json:"distance"`
	DCS         string  `json:"dcs"`
	TerminalTol float64 `json:"terminal_tol"` // 0: the tracking cost only
	FootGround  bool    `json:"foot_ground"`
	// Status is the homotopy's (Solved: complementarity residual ≤ 1e-5
	// with every relaxed NLP solved); Stationarity mpcc's certified class
	// of the point (B, S, M, C, W or NotCertified).
	Status       string `json:"status"`
	Stationarity string `json:"stationarity"`
	// CompResidual is the complementarity residual and
	// ConstraintViolation the largest violation of the other constraints
	// (dynamics, clock, bounds, path and terminal constraints;
	// fesd.OCPResult.Infeasibility).
	CompResidual        float64 `json:"comp_residual"`
	ConstraintViolation float64 `json:"constraint_violation"`
	Objective           float64 `json:"objective"`
	// TerminalPositionError is ‖q(T) − q*‖ and TerminalVelocityNorm
	// ‖v(T)‖ (Euclidean norms).
	TerminalPositionError float64 `json:"terminal_position_error"`
	TerminalVelocityNorm  float64 `json:"terminal_velocity_norm"`
	// TerminalDelta is q(T) − q* per coordinate (q_x, q_z, φ_hip,
	// φ_knee).
	TerminalDelta []float64 `json:"terminal_delta"`
	// Hops counts the flight phases (foot above flightHeight at an element
	// boundary after being on or near the ground); Impacts the frozen
	// phases (auxiliary dynamics: the clock stands while v changes).
	Hops    int `json:"hops"`
	Impacts int `json:"impacts"`
	// MaxPenetration is max(0, −p_foot,z) over the element boundaries and
	// stage points.
	MaxPenetration float64 `json:"max_penetration"`
	// ClockMonotone reports the clock t non-decreasing (to 1e-9) over the
	// element boundaries (true for FESD-J, which has no clock).
	ClockMonotone bool `json:"clock_monotone"`
	// Valid and Validity are the library's physical-validity check of the
	// time-freezing result (fesd.OCPResult.Validity): drift below the
	// ground while the clock advances, phantom contact, the clock, flight
	// phases; Status is Invalid when the homotopy solved the MPCC at a
	// point that fails it.
	// With -dcs fesdj FESDJValidity is the check of a FESD-J result
	// instead (fesd.OCPResult.CLSValidity): the foot below the ground,
	// contact forces and impulses where it is above, Newton's law at the
	// impulses, flight phases; Impacts counts its impacts.
	Valid         bool              `json:"valid"`
	Validity      *fesd.Validity    `json:"validity,omitempty"`
	FESDJValidity *fesd.CLSValidity `json:"fesdj_validity,omitempty"`
	// EnergyGain is, with -dcs fesdj, the largest rise of the mechanical
	// energy (monopod.Energy) between two consecutive points of the
	// trajectory beyond the work of the torques there (trapezoidal rule),
	// in J, and EnergyGainTime where it starts. The contact and the
	// inelastic impacts only take energy out, so a gain well above the
	// quadrature error is one the discretization made, which the physical
	// validity check does not test.
	EnergyGain     float64 `json:"energy_gain,omitempty"`
	EnergyGainTime float64 `json:"energy_gain_time,omitempty"`
	// PenetrationBetween is, with -dcs fesdj, the deepest foot position
	// below the ground along the collocation polynomials of q inside the
	// elements (through the element start and its stage points), where
	// neither the FESD-J rows nor MaxPenetration look, and
	// PenetrationBetweenTime where it is.
	PenetrationBetween     float64 `json:"penetration_between,omitempty"`
	PenetrationBetweenTime float64 `json:"penetration_between_time,omitempty"`
	// NLPIterations is the total over all relaxed NLPs; SolveSeconds the
	// solver's time, WallSeconds the program's (build, solve, analysis).
	NLPIterations int     `json:"nlp_iterations"`
	SolveSeconds  float64 `json:"solve_seconds"`
	// CPUSeconds is the CPU time (user + system, all threads) of the
	// program up to the summary: build, solve and analysis (0 where the
	// platform does not report it).
	CPUSeconds          float64 `json:"cpu_seconds"`
	WallSeconds         float64 `json:"wall_seconds"`
	SecondsPerIteration float64 `json:"seconds_per_iteration"`
	NumVariables        int     `json:"nlp_variables"`
	NumConstraints      int     `json:"nlp_constraints"`
	// Homotopy has one record per relaxed NLP: the five Scholtes steps,
	// then the ℓ∞ steps if they ran.
	Homotopy []homotopyStep `json:"homotopy"`
}

// homotopyStep is one relaxed NLP of the homotopy.
type homotopyStep struct {
	Sigma        float64 `json:"sigma"`
	CompResidual float64 `json:"comp_residual"`
	Objective    float64 `json:"objective"`
	Status       string  `json:"nlp_status"`
	Iterations   int     `json:"iterations"`
	Seconds      float64 `json:"seconds"`
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
		a.t = append(a.t, physTime(m, p.x, p.tau))
		a.x = append(a.x, p.x)
		ps := pf(p.x[:4])
		a.pts = append(a.pts, ps)
		a.foot = append(a.foot, ps[2])
	}
	return a, nil
}

// physTime is the physical time of a point with the state x at the
// numerical time τ: the clock of a time-freezing model, τ itself for
// FESD-J.
func physTime(m *monopod.Model, x []float64, tau float64) float64 {
	if m.TF == nil {
		return tau
	}
	return x[m.TF.Clock]
}

// summarize fills the summary of one run (wall: the program's time).
func summarize(c config, r *fesd.OCPResult, m *monopod.Model, a *analysis, wall time.Duration) summary {
	s := summary{N: c.Task.N, T: c.Task.T, Distance: c.Task.Distance, DCS: c.dcsName(),
		TerminalTol: c.TerminalTol, FootGround: c.FootGround,
		Status: r.Status.String(), Stationarity: r.Stationarity.String(),
		CompResidual: r.CompResidual, ConstraintViolation: r.Infeasibility, Objective: r.Objective,
		ClockMonotone: true, NLPIterations: r.Iterations,
		Valid: r.Validity != nil && r.Validity.Valid, Validity: r.Validity, FESDJValidity: r.CLSValidity,
		SolveSeconds: r.Elapsed.Seconds(), WallSeconds: wall.Seconds(), CPUSeconds: processCPU(),
		NumVariables: r.NumVariables, NumConstraints: r.NumConstraints}
	if r.Iterations > 0 {
		s.SecondsPerIteration = r.Elapsed.Seconds() / float64(r.Iterations)
	}
	for _, h := range r.Homotopy {
		s.Homotopy = append(s.Homotopy, homotopyStep{Sigma: h.Sigma, CompResidual: h.CompResidual,
			Objective: h.Objective, Status: h.Status.String(), Iterations: h.Iterations, Seconds: h.Elapsed.Seconds()})
	}
	xf := r.Final()
	qTarget := c.Task.QTarget()
	for i := 0; i < 4; i++ {
		s.TerminalDelta = append(s.TerminalDelta, xf[i]-qTarget[i])
		s.TerminalPositionError = math.Hypot(s.TerminalPositionError, xf[i]-qTarget[i])
		s.TerminalVelocityNorm = math.Hypot(s.TerminalVelocityNorm, xf[4+i])
	}
	for i := range a.t {
		s.MaxPenetration = math.Max(s.MaxPenetration, -a.foot[i][1])
	}
	s.Hops = countHops(r.X)
	if m.TF == nil { // FESD-J: no clock; the impacts are the library's
		s.Valid = r.CLSValidity != nil && r.CLSValidity.Valid
		if r.Contacts != nil {
			s.Impacts = len(r.Contacts.Impacts())
		}
		s.EnergyGain, s.EnergyGainTime = energyGain(c, r, a)
		if v := r.CLSValidity; v != nil {
			s.PenetrationBetween, s.PenetrationBetweenTime = v.MaxPenetrationBetween, v.PenetrationBetweenTime
		}
		return s
	}
	clock := m.TF.Clock
	for i := 1; i < len(r.X); i++ {
		if r.X[i][clock] < r.X[i-1][clock]-1e-9 {
			s.ClockMonotone = false
		}
	}
	// Frozen phases: elements whose clock advances by less than 1% of the
	// physical time the element would take at unit rate, while the velocity
	// changes.
	frozen := false
	for n := range r.H {
		dt := r.X[n+1][clock] - r.X[n][clock]
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

// countHops counts the flight phases in the states x at the element
// boundaries: the foot rising above flightHeight.
func countHops(x [][]float64) int {
	hops, inFlight := 0, false
	for _, xi := range x {
		fc := monopod.FootHeight(xi)
		if fc > flightHeight && !inFlight {
			hops++
		}
		inFlight = fc > flightHeight
	}
	return hops
}

// outputFiles are the files writeRun writes into the output folder (the
// plots also as .svg).
var outputFiles = []string{"trajectory.csv", "controls.csv", "elements.csv", "summary.json", "frames.png", "states.png", "controls.png"}

// writeRun writes the CSV files, summary.json and the figures of one run
// (outputFiles).
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
		t0, t1 := physTime(m, r.X[0], r.T[0]), 0.0
		if k < len(r.StageX) {
			t0 = physTime(m, r.StageX[k], r.StageT[k])
		}
		if k+1 < len(r.StageX) {
			t1 = physTime(m, r.StageX[k+1], r.StageT[k+1])
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
	ns := max(len(r.PointZ)/len(r.H), 1)
	rows := make([][]string, len(r.H))
	for n := range rows {
		foot := pf(r.X[n+1][:4])[2]
		mode := ""
		switch {
		case r.Contacts != nil && n < len(r.Contacts.Modes): // FESD-J: the foot's contact mode
			mode = r.Contacts.Modes[n][0].String()
		case len(modes) >= (n+1)*ns:
			mode = strings.Join(modes[n*ns:(n+1)*ns], " ")
		}
		rows[n] = []string{fmt.Sprint(n), fmt.Sprint(r.StageOf[n]), report.FormatFloat(r.H[n]), report.FormatFloat(r.TPhys[n]),
			report.FormatFloat(r.TPhys[n+1]), report.FormatFloat(foot[1]), report.FormatFloat(r.ElementResidual[n]), mode}
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
	ref, err := c.Task.Reference()
	if err != nil {
		return err
	}
	n := c.Task.N
	tr := make([]float64, n)
	for k := range tr {
		tr[k] = float64(k+1) * c.Task.T / float64(n)
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
		t0, t1 := physTime(m, r.StageX[k], r.StageT[k]), physTime(m, r.StageX[k+1], r.StageT[k+1])
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

// energyGain returns the largest rise of the mechanical energy between
// consecutive points of a FESD-J trajectory a beyond the torques' work
// ∫ u_hip ω_hip + u_knee ω_knee dt (trapezoidal rule, the controls of the
// stage holding the interval's midpoint), and the time it starts at; 0, 0
// if the energy cannot be compiled.
func energyGain(c config, r *fesd.OCPResult, a *analysis) (gain, at float64) {
	energy, err := monopod.Energy()
	if err != nil || len(r.U) == 0 {
		return 0, 0
	}
	n := len(r.U)
	dt := c.Task.T / float64(n)
	for i := 1; i < len(a.t); i++ {
		x0, x1 := a.x[i-1], a.x[i]
		k := min(n-1, max(0, int(0.5*(a.t[i-1]+a.t[i])/dt)))
		u := r.U[k]
		w := 0.5 * (a.t[i] - a.t[i-1]) * (u[0]*(x0[6]+x1[6]) + u[1]*(x0[7]+x1[7]))
		if d := energy(x1[:4], x1[4:8]) - energy(x0[:4], x0[4:8]) - w; d > gain {
			gain, at = d, a.t[i-1]
		}
	}
	return gain, at
}
