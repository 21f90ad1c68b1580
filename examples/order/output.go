package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/fesd-go/fesd/internal/convergence"
	"github.com/fesd-go/fesd/internal/report"
	"gonum.org/v1/plot/vg"
)

// printTable writes one line per run (slope against the order, error per
// N_sim) and then every failed simulation with its status.
func printTable(w io.Writer, st *study) {
	fmt.Fprintf(w, "\n%s, N_FE = %d, comp tol %.0e; slope fitted above the floor %.0e\n", st.Problem, st.NFE, st.CompTol, st.Floor)
	fmt.Fprintf(w, "error: %s\n", st.Metric)
	fmt.Fprintln(w, "slope: over the longest element h_max of each run; (h̄): over the nominal h̄ = T/(N_sim·N_FE)")
	convergence.WriteTable(w, []string{"slope", "(h̄)"}, rows(st))
	fmt.Fprintf(w, "sweep wall time %.1f s\n", st.Elapsed)
}

// rows are the runs of st as table rows and plot series.
func rows(st *study) []convergence.Row[point] {
	var out []convergence.Row[point]
	for _, r := range st.Runs {
		method := "standard"
		if r.FESD {
			method = "FESD"
		}
		out = append(out, convergence.Row[point]{
			Curve: r.Curve, Method: method, Slopes: []*float64{r.Slope, r.SlopeNominal}, FitPoints: r.FitPoints, Points: r.Points,
		})
	}
	return out
}

// writeOutputs writes order.json and the plots.
func writeOutputs(o options, st *study) error {
	dir, err := report.MakeDir(o.Out)
	if err != nil {
		return err
	}
	if err := report.WriteJSON(filepath.Join(dir, "order.json"), st); err != nil {
		return err
	}
	if !o.Plot {
		return nil
	}
	return plotStudy(filepath.Join(dir, "order"), st)
}

// plotStudy draws error over h̄ on log-log axes, one panel per scheme
// family, FESD solid with markers and standard time stepping dashed, one
// color per n_s (004 Figure 6). Failed points and non-positive errors are
// left out.
func plotStudy(base string, st *study) error {
	name := func(c convergence.Curve) string {
		if !c.FESD {
			return fmt.Sprintf("n_s=%d standard", c.NS)
		}
		return fmt.Sprintf("n_s=%d (order %d) FESD", c.NS, c.Order)
	}
	var panels []report.LinePlot
	for _, scheme := range []string{"radau_iia", "gauss_legendre"} {
		title := fmt.Sprintf("%s: %s", st.Problem, convergence.SchemeTitle(scheme))
		if lp := convergence.Panel(title, "error", scheme, rows(st), name); len(lp.Series) > 0 {
			panels = append(panels, lp)
		}
	}
	if len(panels) == 0 {
		return nil
	}
	tp, err := report.Tiled(1, len(panels), panels...)
	if err != nil {
		return err
	}
	_, err = report.SavePlot(tp, vg.Length(len(panels))*14*vg.Centimeter, 12*vg.Centimeter, base)
	return err
}
