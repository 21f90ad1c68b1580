package main

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/report"
	"gonum.org/v1/plot/vg"
)

// Colors of the plots: the closed form gray, FESD-J blue.
var (
	exactColor = color.Gray{Y: 110}
	fesdColor  = color.RGBA{R: 31, G: 119, B: 180, A: 255}
)

// writeOutputs writes the CSV files, the plots and summary.json of the
// scenes that ran into o.Out and returns their paths.
func writeOutputs(s *summary, o options) ([]string, error) {
	var files []string
	add := func(name string, err error) error {
		if err != nil {
			return err
		}
		files = append(files, filepath.Join(o.Out, name))
		return nil
	}
	path := func(name string) string { return filepath.Join(o.Out, name) }
	if s.ball != nil {
		if err := add("ball_trajectory.csv", writeTrajectory(path("ball_trajectory.csv"), []string{"z", "v"}, s.ball,
			func(t float64) []float64 { z, v := newBallExact(o.E).state(t); return []float64{z, v} })); err != nil {
			return files, err
		}
		if err := add("ball_impacts.csv", writeBallImpacts(path("ball_impacts.csv"), s.Ball.List)); err != nil {
			return files, err
		}
		pf, err := ballPlots(s, o)
		files = append(files, pf...)
		if err != nil {
			return files, err
		}
	}
	if s.block != nil {
		ex := newBlockExact(o.Mu, blockVX0)
		if err := add("block_trajectory.csv", writeTrajectory(path("block_trajectory.csv"), []string{"x", "z", "vx", "vz"}, s.block, ex.state)); err != nil {
			return files, err
		}
		var rows [][]string
		for _, ev := range s.Block.Events {
			rows = append(rows, []string{ev.Kind, report.FormatFloat(ev.T), ev.Before, ev.After})
		}
		if err := add("block_events.csv", report.WriteTableCSV(path("block_events.csv"), []string{"kind", "t", "before", "after"}, rows)); err != nil {
			return files, err
		}
		pf, err := blockPlot(s.block, ex, path("block"))
		files = append(files, pf...)
		if err != nil {
			return files, err
		}
	}
	if s.ocp != nil {
		r := s.ocp
		if err := add("ocp_trajectory.csv", report.WriteTrajectoryCSV(path("ocp_trajectory.csv"), "t", []string{"z", "v"}, r.T, r.X)); err != nil {
			return files, err
		}
		var rows [][]float64
		for k, u := range r.U {
			rows = append(rows, []float64{float64(k), r.StageT[k], r.StageT[k+1], u[0]})
		}
		if err := add("ocp_controls.csv", report.WriteCSV(path("ocp_controls.csv"), []string{"stage", "t0", "t1", "u"}, rows)); err != nil {
			return files, err
		}
		pf, err := ocpPlot(r, path("ocp"))
		files = append(files, pf...)
		if err != nil {
			return files, err
		}
	}
	files = append(files, path("summary.json"))
	s.Files = files
	if err := report.WriteJSON(path("summary.json"), s); err != nil {
		return files[:len(files)-1], err
	}
	return files, nil
}

// writeTrajectory writes the element boundaries of r: t, the state
// before the impulses there (names), the state after them (names with
// "_after"; the last boundary has none: NaN), the closed form exact(t)
// (names with "_exact", after the impulses) and the mode of the contact
// on the element that starts there (fesd.ContactMode: 0 open, 1 closed,
// 2 sticking, 3 sliding; NaN at the last boundary).
func writeTrajectory(path string, names []string, r *fesd.CLSResult, exact func(t float64) []float64) error {
	header := []string{"t"}
	for _, suffix := range []string{"", "_after", "_exact"} {
		for _, n := range names {
			header = append(header, n+suffix)
		}
	}
	rows := make([][]float64, len(r.T))
	for i, t := range r.T {
		row := append([]float64{t}, r.X[i]...)
		if i < len(r.XStart) {
			row = append(row, r.XStart[i]...)
		} else {
			for range names {
				row = append(row, math.NaN())
			}
		}
		row = append(row, exact(t)...)
		mode := math.NaN()
		if i < len(r.Modes) {
			mode = float64(r.Modes[i][0])
		}
		rows[i] = append(row, mode)
	}
	header = append(header, "contact_mode")
	return report.WriteCSV(path, header, rows)
}

// writeBallImpacts writes the impact table of the ball.
func writeBallImpacts(path string, list []ballImpact) error {
	header := []string{"k", "t", "t_closed_form", "v_before", "v_before_closed_form", "v_after", "v_after_closed_form",
		"impulse", "apex", "apex_closed_form", "time_to_zeno_point"}
	rows := make([][]float64, len(list))
	for i, im := range list {
		rows[i] = []float64{float64(im.K), im.T, im.TExact, im.VMinus, im.VMExact, im.VPlus, im.VPExact,
			im.Impulse, im.Apex, im.ApexExac, im.ToZeno}
	}
	return report.WriteCSV(path, header, rows)
}

// ballCurve samples the closed form of the ball on [t0, t1] finely, with
// both sides of every impact (v⁻ then v⁺ at t_k), for the plots. Bounces
// shorter than 1e-4 s are drawn as rest.
func ballCurve(ex ballExact, t0, t1 float64) (ts, zs, vs []float64) {
	const dt = 1e-3
	seg := func(a, b float64, z0, v0 float64) { // free flight from (z0, v0) at a
		if b <= t0 || a >= t1 {
			return
		}
		lo, hi := math.Max(a, t0), math.Min(b, t1)
		n := int(math.Ceil((hi-lo)/dt)) + 1
		for i := 0; i <= n; i++ {
			t := lo + (hi-lo)*float64(i)/float64(n)
			s := t - a
			ts = append(ts, t)
			zs = append(zs, z0+v0*s-grav*s*s/2)
			vs = append(vs, v0-grav*s)
		}
	}
	seg(0, ex.t1, 1, 0)
	end := math.Min(t1, ex.zeno())
	for k := 1; ex.e > 0; k++ {
		tk, _, vp := ex.impact(k)
		tn, _, _ := ex.impact(k + 1)
		if tk >= end || tn-tk < 1e-4 {
			if tk < end {
				end = tk
			}
			break
		}
		seg(tk, tn, 0, vp)
	}
	if end < t1 {
		ts = append(ts, math.Max(end, t0), t1)
		zs = append(zs, 0, 0)
		vs = append(vs, 0, 0)
	}
	return ts, zs, vs
}

// boundaries returns the element boundaries of r on [t0, t1] as points
// (t, x_j), with the state after the impulse beside the one before it at
// every impact.
func boundaries(r *fesd.CLSResult, j int, t0, t1 float64) (ts, xs []float64) {
	imp := map[int]bool{}
	for _, ev := range r.Impacts() {
		imp[ev.Boundary] = true
	}
	for i, t := range r.T {
		if t < t0 || t > t1 {
			continue
		}
		ts, xs = append(ts, t), append(xs, r.X[i][j])
		if imp[i] {
			ts, xs = append(ts, t), append(xs, r.XStart[i][j])
		}
	}
	return ts, xs
}

// exactSeries and fesdSeries are the two series of a comparison panel.
func exactSeries(x, y []float64) report.Series {
	return report.Series{Name: "closed form", X: x, Y: y, Color: exactColor}
}

func fesdSeries(x, y []float64) report.Series {
	return report.Series{Name: "FESD-J (element boundaries)", X: x, Y: y, Color: fesdColor, Points: true, NoLine: true}
}

// ballPlots draws ball.png (height, velocity, apex heights and errors)
// and ball_zeno.png (the bounces before the accumulation point).
func ballPlots(s *summary, o options) ([]string, error) {
	ex := newBallExact(o.E)
	r, bs := s.ball, s.Ball
	T := r.T[len(r.T)-1]
	var vl []float64
	if bs.ZenoTime > 0 && bs.ZenoTime <= T {
		vl = []float64{bs.ZenoTime}
	}
	ct, cz, cv := ballCurve(ex, 0, T)
	bt, bz := boundaries(r, 0, 0, T)
	_, bv := boundaries(r, 1, 0, T)
	var k, apex, apexEx, tErr, vErr, aErr []float64
	for _, im := range bs.List {
		k = append(k, float64(im.K))
		apex, apexEx = append(apex, im.Apex), append(apexEx, im.ApexExac)
		// an error of exactly 0 cannot be drawn on the log axis: 1e-17
		tErr = append(tErr, math.Max(im.TErr, 1e-17))
		vErr = append(vErr, math.Max(im.VErr, 1e-17))
		aErr = append(aErr, math.Max(im.ApexErr, 1e-17))
	}
	title := "e = " + strconv.FormatFloat(o.E, 'g', -1, 64)
	if len(vl) > 0 {
		title += fmt.Sprintf(", Zeno point t* = %.4f (red)", bs.ZenoTime)
	}
	tp, err := report.Tiled(2, 2,
		report.LinePlot{Title: "height, " + title, XLabel: "t (s)", YLabel: "z (m)", VLines: vl,
			Series: []report.Series{exactSeries(ct, cz), fesdSeries(bt, bz)}},
		report.LinePlot{Title: "velocity (both sides of every impact)", XLabel: "t (s)", YLabel: "v (m/s)", VLines: vl,
			Series: []report.Series{exactSeries(ct, cv), fesdSeries(bt, bv)}},
		report.LinePlot{Title: "apex height after impact k", XLabel: "impact k", YLabel: "apex z + v²/2g (m)", LogY: true,
			Series: []report.Series{{Name: "closed form e^(2k)", X: k, Y: apexEx, Color: exactColor},
				{Name: "FESD-J", X: k, Y: apex, Color: fesdColor, Points: true, NoLine: true}}},
		report.LinePlot{Title: "|FESD-J − closed form| (0 drawn at 1e-17)", XLabel: "impact k", YLabel: "error", LogY: true, HLines: []float64{1e-9},
			Series: []report.Series{{Name: "time t_k", X: k, Y: tErr, Points: true},
				{Name: "velocity v±", X: k, Y: vErr, Points: true},
				{Name: "apex", X: k, Y: aErr, Points: true, Dashed: true}}},
	)
	if err != nil {
		return nil, err
	}
	// legends where the data are not: the velocity bottom right (the ball
	// rests there), the apex panel bottom left, the errors bottom right
	tp.Plots[1].Legend.Top = false
	tp.Plots[2].Legend.Top, tp.Plots[2].Legend.Left = false, true
	tp.Plots[3].Legend.Top = false
	files, err := report.SavePlot(tp, 28*vg.Centimeter, 18*vg.Centimeter, filepath.Join(o.Out, "ball"))
	if err != nil || len(vl) == 0 {
		return files, err
	}
	// the last bounces: [t* − 0.6, t* + 0.3]
	t0, t1 := math.Max(bs.ZenoTime-0.6, 0), math.Min(bs.ZenoTime+0.3, T)
	ct, cz, _ = ballCurve(ex, t0, t1)
	bt, bz = boundaries(r, 0, t0, t1)
	var it, iz []float64
	for _, im := range bs.List {
		if im.T >= t0 {
			it, iz = append(it, im.T), append(iz, 0)
		}
	}
	lp := report.LinePlot{Title: fmt.Sprintf("the last bounces before t* = %.4f (red line): FESD-J impacts (red dots), rest from t = %.4f on", bs.ZenoTime, bs.RestFrom),
		XLabel: "t (s)", YLabel: "z (m)", VLines: vl,
		Series: []report.Series{exactSeries(ct, cz), fesdSeries(bt, bz),
			{Name: "FESD-J impacts", X: it, Y: iz, Points: true, NoLine: true, Color: color.RGBA{R: 214, G: 39, B: 40, A: 255}}}}
	p, err := lp.Plot()
	if err != nil {
		return files, err
	}
	zf, err := report.SavePlot(p, 24*vg.Centimeter, 10*vg.Centimeter, filepath.Join(o.Out, "ball_zeno"))
	return append(files, zf...), err
}

// blockPlot draws block.png: x, z and v_x over time, events as vertical
// lines.
func blockPlot(r *fesd.CLSResult, ex blockExact, base string) ([]string, error) {
	T := r.T[len(r.T)-1]
	var ct []float64
	cx := make([][]float64, 4)
	for i := 0; i <= 1500; i++ {
		t := T * float64(i) / 1500
		if i > 0 && ct[len(ct)-1] < ex.t1 && t > ex.t1 { // both sides of the landing
			before := []float64{ex.v0 * ex.t1, 0, ex.v0, -ex.lam}
			for j := range cx {
				cx[j] = append(cx[j], before[j])
			}
			ct = append(ct, ex.t1)
			ct = append(ct, ex.t1)
			after := ex.state(ex.t1)
			for j := range cx {
				cx[j] = append(cx[j], after[j])
			}
		}
		x := ex.state(t)
		ct = append(ct, t)
		for j := range cx {
			cx[j] = append(cx[j], x[j])
		}
	}
	var vl []float64
	for _, ev := range r.Events {
		vl = append(vl, ev.Time)
	}
	var panels []report.LinePlot
	for j, name := range []string{"x (m)", "z (m)", "v_x (m/s)"} {
		bt, bx := boundaries(r, j, 0, T)
		lp := report.LinePlot{XLabel: "t (s)", YLabel: name, VLines: vl,
			Series: []report.Series{exactSeries(ct, cx[j]), fesdSeries(bt, bx)}}
		if j == 0 {
			lp.Title = fmt.Sprintf("block, μ = %g: landing at %.4f, stop at %.4f (red)", ex.mu, ex.t1, ex.ts)
		}
		if j > 0 {
			lp.NoLegend = true
		}
		panels = append(panels, lp)
	}
	tp, err := report.Tiled(3, 1, panels...)
	if err != nil {
		return nil, err
	}
	tp.Plots[0].Legend.Top = false // bottom right, below the resting block
	return report.SavePlot(tp, 18*vg.Centimeter, 20*vg.Centimeter, base)
}

// ocpPlot draws ocp.png: the height and the force of the OCP solution.
func ocpPlot(r *fesd.OCPResult, base string) ([]string, error) {
	var zt, zz, et, ez []float64
	for i, t := range r.T {
		zt, zz = append(zt, t), append(zz, r.X[i][0])
	}
	for i := 0; i <= 1200; i++ {
		t := ocpT * float64(i) / 1200
		et, ez = append(et, t), append(ez, ocpExactZ(t))
	}
	uEx, _, _, _ := ocpExact()
	var st, su, se []float64
	for k, u := range r.U {
		ek := 0.0
		if k >= ocpFixed {
			ek = uEx[k-ocpFixed]
		}
		st = append(st, r.StageT[k], r.StageT[k+1])
		su = append(su, u[0], u[0])
		se = append(se, ek, ek)
	}
	var vl []float64
	if r.Contacts != nil {
		for _, ev := range r.Contacts.Impacts() {
			vl = append(vl, ev.Time)
		}
	}
	tp, err := report.Tiled(2, 1,
		report.LinePlot{Title: fmt.Sprintf("OCP: z(%g) = %g with least ∫u² dt, impact (red)", ocpT, ocpZT), XLabel: "t (s)", YLabel: "z (m)",
			HLines: []float64{ocpZT}, VLines: vl,
			Series: []report.Series{exactSeries(et, ez), fesdSeries(zt, zz)}},
		report.LinePlot{XLabel: "t (s)", YLabel: "u (N)", VLines: vl,
			Series: []report.Series{exactSeries(st, se), {Name: "FESD-J", X: st, Y: su, Color: fesdColor, Dashed: true}}},
	)
	if err != nil {
		return nil, err
	}
	return report.SavePlot(tp, 18*vg.Centimeter, 14*vg.Centimeter, base)
}
