package main

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"sort"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/hopper"
	"github.com/fesd-go/fesd/internal/report"
)

// summary is summary.json.
type summary struct {
	N             int     `json:"N"`
	T             float64 `json:"T"`
	Goal          float64 `json:"goal"`
	DCS           string  `json:"dcs"`
	CrossComp     string  `json:"cross_comp"`
	Status        string  `json:"status"`
	Stationarity  string  `json:"stationarity"` // mpcc's certified class of the solution
	Objective     float64 `json:"objective"`
	NLPIterations int     `json:"nlp_iterations"`
	HomotopySteps int     `json:"homotopy_steps"`
	WallSeconds   float64 `json:"wall_seconds"`
	// TerminalPositionError is |q(T) − q_end| over the 4 positions.
	TerminalPositionError float64 `json:"terminal_position_error"`
	TerminalVelocityNorm  float64 `json:"terminal_velocity_norm"`
	// MaxPenetration is max(0, −f_c) over all element boundaries and RK
	// stage points.
	MaxPenetration float64 `json:"max_penetration"`
	// FlightPhases counts the maximal runs of grid points with the foot
	// above FlightHeight.
	FlightPhases int     `json:"flight_phases"`
	FlightHeight float64 `json:"flight_height"`
	// MaxSlip is max |v_t| over the stage points whose frozen-contact
	// weight θ_c = θ₇ + θ₈ (Stewart) or β (Step) exceeds 0.5.
	MaxSlip      float64 `json:"max_slip"`
	CompResidual float64 `json:"comp_residual"`
	// ClockError is max_k |t(end of stage k) − (k+1)T/N|.
	ClockError    float64 `json:"clock_error"`
	ClockMonotone bool    `json:"clock_monotone"`
	NumVariables  int     `json:"nlp_variables"`
	NumConstraint int     `json:"nlp_constraints"`
	NumComp       int     `json:"complementarities"`
	// Validity is the library's physical-validity check of the
	// time-freezing result (fesd.OCPResult.Validity); Status is Invalid
	// when the homotopy solved the MPCC at a point that fails it.
	Validity *fesd.Validity `json:"validity"`
}

// flightHeight is the foot height above which the hopper counts as flying.
const flightHeight = 1e-3

// analysis is the trajectory on all grid points in τ order.
type analysis struct {
	tau, t []float64
	x      [][]float64
}

// analyse merges the element boundaries and RK stage points in τ order.
func analyse(r *fesd.OCPResult) *analysis {
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
		a.t = append(a.t, p.x[hopper.Clock])
		a.x = append(a.x, p.x)
	}
	return a
}

// contactWeight returns θ_c at every stage point of r.
func contactWeight(r *fesd.OCPResult, h *hopper.Model) []float64 {
	d := r.DCS
	var idx []int
	if h.Form == dcs.Stewart {
		bl, _ := d.ZBlock(dcs.Theta, 0)
		idx = []int{bl.Start + 6, bl.Start + 7}
	} else {
		for i, z := range d.Z {
			if z == h.Beta {
				idx = []int{i}
			}
		}
	}
	out := make([]float64, len(r.PointZ))
	for i, z := range r.PointZ {
		for _, j := range idx {
			out[i] += z[j]
		}
	}
	return out
}

// summarize fills the summary of one run.
func summarize(c config, r *fesd.OCPResult, h *hopper.Model, a *analysis, wall time.Duration) summary {
	s := summary{N: c.N, T: c.T, Goal: c.Goal, DCS: c.Form.String(), CrossComp: c.Cross.String(), Status: r.Status.String(), Stationarity: r.Stationarity.String(),
		Objective: r.Objective, NLPIterations: r.Iterations, HomotopySteps: len(r.Homotopy),
		WallSeconds: wall.Seconds(), CompResidual: r.CompResidual, FlightHeight: flightHeight,
		NumVariables: r.NumVariables, NumConstraint: r.NumConstraints, NumComp: r.NumComplementarities, ClockMonotone: true, Validity: r.Validity}
	xf, xe := r.Final(), c.XEnd()
	for i := 0; i < hopper.NQ; i++ {
		s.TerminalPositionError = math.Hypot(s.TerminalPositionError, xf[i]-xe[i])
		s.TerminalVelocityNorm = math.Hypot(s.TerminalVelocityNorm, xf[hopper.NQ+i])
	}
	inFlight := false
	for i, x := range a.x {
		fc := hopper.FootHeight(x)
		s.MaxPenetration = math.Max(s.MaxPenetration, -fc)
		if fc > flightHeight && !inFlight {
			s.FlightPhases++
		}
		inFlight = fc > flightHeight
		if i > 0 && a.t[i] < a.t[i-1]-1e-9 {
			s.ClockMonotone = false
		}
	}
	for k := 1; k < len(r.StageX); k++ {
		s.ClockError = math.Max(s.ClockError, math.Abs(r.StageX[k][hopper.Clock]-float64(k)*c.T/float64(c.N)))
	}
	for i, w := range contactWeight(r, h) {
		if w > 0.5 {
			_, vt := hopper.ContactVel(r.PointX[i])
			s.MaxSlip = math.Max(s.MaxSlip, math.Abs(vt))
		}
	}
	return s
}

// writeRun writes trajectory.csv, controls.csv, summary.json and the plots.
func writeRun(dir string, c config, r *fesd.OCPResult, a *analysis, s summary) error {
	if _, err := report.MakeDir(dir); err != nil {
		return err
	}
	hdr := []string{"t", "tau", "x", "y", "theta", "leg", "vx", "vy", "omega", "vleg", "foot_x", "foot_z", "v_n", "v_t"}
	rows := make([][]float64, len(a.t))
	for i, x := range a.x {
		fx, fz := hopper.FootPos(x)
		vn, vt := hopper.ContactVel(x)
		rows[i] = append(append([]float64{a.t[i], a.tau[i]}, x[:hopper.NPhys]...), fx, fz, vn, vt)
	}
	if err := report.WriteCSV(filepath.Join(dir, "trajectory.csv"), hdr, rows); err != nil {
		return err
	}
	crow := make([][]float64, len(r.U))
	for k, u := range r.U {
		crow[k] = []float64{float64(k), r.StageX[k][hopper.Clock], r.StageX[k+1][hopper.Clock], r.StageT[k], r.StageT[k+1], u[0], u[1], u[2], u[3]}
	}
	if err := report.WriteCSV(filepath.Join(dir, "controls.csv"),
		[]string{"stage", "t_start", "t_end", "tau_start", "tau_end", "u_torque", "u_leg", "u_slack", "speed_of_time"}, crow); err != nil {
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
	return plotControls(filepath.Join(dir, "controls"), r)
}

// plotFrames draws the body–foot segment at about 30 physical times and the
// paths of body and foot.
func plotFrames(base string, a *analysis) error {
	lp := report.LinePlot{Title: "Hopper: body (dots) and leg", XLabel: "x [m]", YLabel: "y [m]", NoLegend: true, HLines: []float64{0}}
	var bx, by, fx, fy []float64
	for _, x := range a.x {
		f1, f2 := hopper.FootPos(x)
		bx, by, fx, fy = append(bx, x[0]), append(by, x[1]), append(fx, f1), append(fy, f2)
	}
	lp.Series = append(lp.Series,
		report.Series{X: bx, Y: by, Color: color.NRGBA{B: 200, A: 160}},
		report.Series{X: fx, Y: fy, Color: color.NRGBA{R: 200, A: 160}})
	nf := 30
	tEnd := a.t[len(a.t)-1]
	next := 0.0
	for i, x := range a.x {
		if a.t[i] < next-1e-12 && i != len(a.x)-1 {
			continue
		}
		next = a.t[i] + tEnd/float64(nf)
		f := 0.0
		if tEnd > 0 {
			f = a.t[i] / tEnd
		}
		f1, f2 := hopper.FootPos(x)
		col := color.RGBA{R: uint8(30 + 200*f), G: 60, B: uint8(230 - 200*f), A: 255}
		lp.Series = append(lp.Series, report.Series{X: []float64{x[0], f1}, Y: []float64{x[1], f2}, Points: true, Color: col})
	}
	pl, err := lp.Plot()
	if err != nil {
		return err
	}
	_, err = report.SavePlot(pl, 24*vg.Centimeter, 10*vg.Centimeter, base)
	return err
}

// plotStates draws positions and velocities against physical time with
// the reference, the foot height and the clock.
func plotStates(base string, c config, a *analysis) error {
	ref := c.Reference()
	tr := make([]float64, len(ref))
	for k := range tr {
		tr[k] = float64(k) * c.T / float64(c.N)
	}
	gray := color.Gray{Y: 120}
	panel := func(title, y string, js ...int) report.LinePlot {
		lp := report.LinePlot{Title: title, XLabel: "physical time t [s]", YLabel: y}
		names := []string{"x", "y", "θ", "leg", "v_x", "v_y", "ω", "v_leg"}
		for _, j := range js {
			lp.Series = append(lp.Series, report.Series{Name: names[j], X: a.t, Y: report.Column(a.x, j)})
		}
		for _, j := range js {
			if j < hopper.NQ {
				lp.Series = append(lp.Series, report.Series{Name: names[j] + " ref", X: tr, Y: report.Column(ref, j), Dashed: true, Color: gray})
			}
		}
		return lp
	}
	fc := make([]float64, len(a.x))
	for i, x := range a.x {
		fc[i] = hopper.FootHeight(x)
	}
	tp, err := report.Tiled(3, 2,
		panel("body position", "[m]", 0, 1), panel("orientation and leg", "[rad], [m]", 2, 3),
		panel("body velocity", "[m/s]", 4, 5), panel("angular and leg velocity", "[rad/s], [m/s]", 6, 7),
		report.LinePlot{Title: "foot height", XLabel: "physical time t [s]", YLabel: "f_c [m]", HLines: []float64{0}, NoLegend: true,
			Series: []report.Series{{X: a.t, Y: fc}}},
		report.LinePlot{Title: "clock", XLabel: "numerical time τ", YLabel: "t [s]", NoLegend: true,
			Series: []report.Series{{X: a.tau, Y: a.t}}})
	if err != nil {
		return err
	}
	_, err = report.SavePlot(tp, 24*vg.Centimeter, 24*vg.Centimeter, base)
	return err
}

// plotControls draws the piecewise constant controls against physical time.
func plotControls(base string, r *fesd.OCPResult) error {
	var t []float64
	us := make([][]float64, hopper.NU)
	for k, u := range r.U {
		t = append(t, r.StageX[k][hopper.Clock], r.StageX[k+1][hopper.Clock])
		for i := range us {
			us[i] = append(us[i], u[i], u[i])
		}
	}
	tp, err := report.Tiled(2, 1,
		report.LinePlot{Title: fmt.Sprintf("Optimal controls (N = %d)", len(r.U)), XLabel: "physical time t [s]", YLabel: "u",
			Series: []report.Series{{Name: "u₁ torque", X: t, Y: us[0]}, {Name: "u₂ leg force", X: t, Y: us[1]}, {Name: "u₃ slack", X: t, Y: us[2]}}},
		report.LinePlot{Title: "speed of time", XLabel: "physical time t [s]", YLabel: "s_k", NoLegend: true,
			Series: []report.Series{{X: t, Y: us[hopper.SOT]}}})
	if err != nil {
		return err
	}
	_, err = report.SavePlot(tp, 20*vg.Centimeter, 16*vg.Centimeter, base)
	return err
}
