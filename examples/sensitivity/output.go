package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/fesd-go/fesd/internal/convergence"
	"github.com/fesd-go/fesd/internal/report"
	"gonum.org/v1/plot/vg"
)

func methodName(fesd bool) string {
	if fesd {
		return "FESD"
	}
	return "stepping"
}

// printTable writes, for every problem, one line per run (the slope of the
// sensitivity error against the order, the error per N_sim), then every
// failed simulation with its status.
func printTable(w io.Writer, st *study) {
	for _, po := range st.Problems {
		fmt.Fprintf(w, "\n%s, N_FE = %d, comp tol %.0e; slope over h_max fitted above the floor %.0e\n", po.Problem, po.NFE, st.CompTol, po.Floor)
		fmt.Fprintf(w, "exact: %s\n", po.Metric)
		fmt.Fprintln(w, "error: max|S − S_exact| / max|S_exact|, S = ∂x(T)/∂x₀")
		convergence.WriteTable(w, []string{"slope"}, rows(po))
	}
	fmt.Fprintf(w, "sweep wall time %.1f s\n", st.Elapsed)
}

// rows are the runs of po as table rows and plot series.
func rows(po problemOut) []convergence.Row[point] {
	var out []convergence.Row[point]
	for _, r := range po.Runs {
		out = append(out, convergence.Row[point]{
			Curve: r.Curve, Method: methodName(r.FESD), Slopes: []*float64{r.Slope}, FitPoints: r.FitPoints, Points: r.Points,
		})
	}
	return out
}

// writeOutputs writes sensitivity.json, sensitivity.csv (one row per
// simulation), table.txt and the plots.
func writeOutputs(o options, st *study) error {
	dir, err := report.MakeDir(o.Out)
	if err != nil {
		return err
	}
	if err := report.WriteJSON(filepath.Join(dir, "sensitivity.json"), st); err != nil {
		return err
	}
	var rows [][]string
	num := func(v *float64) string {
		if v == nil {
			return ""
		}
		return report.FormatFloat(*v)
	}
	for _, po := range st.Problems {
		for _, r := range po.Runs {
			for _, p := range r.Points {
				rows = append(rows, []string{
					po.Problem, r.Scheme, strconv.Itoa(r.NS), strconv.Itoa(r.Order), methodName(r.FESD), strconv.Itoa(p.NSim),
					report.FormatFloat(p.H), report.FormatFloat(p.HMax), num(p.Error), num(p.StateError), p.Status,
				})
			}
		}
	}
	header := []string{"problem", "scheme", "ns", "order", "method", "nsim", "h", "h_max", "error", "state_error", "status"}
	if err := report.WriteTableCSV(filepath.Join(dir, "sensitivity.csv"), header, rows); err != nil {
		return err
	}
	var tab bytes.Buffer
	printTable(&tab, st)
	if err := os.WriteFile(filepath.Join(dir, "table.txt"), tab.Bytes(), 0o644); err != nil {
		return err
	}
	if !o.Plot {
		return nil
	}
	return plotStudy(filepath.Join(dir, "sensitivity"), st)
}

// plotStudy draws the sensitivity error over h̄ on log-log axes, one row
// of panels per problem and one panel per scheme family, FESD solid with
// markers and time stepping dashed, one color per n_s (as 004 Figure 6
// does for the state). Failed points and zero errors are left out.
func plotStudy(base string, st *study) error {
	var schemes []string
	for _, s := range []string{"radau_iia", "gauss_legendre"} {
		for _, po := range st.Problems {
			if hasScheme(po, s) {
				schemes = append(schemes, s)
				break
			}
		}
	}
	name := func(c convergence.Curve) string {
		if !c.FESD {
			return fmt.Sprintf("time stepping n_s=%d", c.NS)
		}
		return fmt.Sprintf("FESD n_s=%d (order %d)", c.NS, c.Order)
	}
	var panels []report.LinePlot
	for _, po := range st.Problems {
		for _, scheme := range schemes {
			title := fmt.Sprintf("%s: %s, ∂x(T)/∂x₀", po.Problem, convergence.SchemeTitle(scheme))
			panels = append(panels, convergence.Panel(title, "relative error", scheme, rows(po), name))
		}
	}
	if len(panels) == 0 {
		return nil
	}
	rows, cols := len(st.Problems), len(schemes)
	tp, err := report.Tiled(rows, cols, panels...)
	if err != nil {
		return err
	}
	for _, p := range tp.Plots {
		if p == nil {
			continue
		}
		// The errors fall towards the lower left: the legend goes to
		// the lower right, where it hides no curve.
		p.Legend.Top = false
	}
	_, err = report.SavePlot(tp, vg.Length(cols)*14*vg.Centimeter, vg.Length(rows)*11*vg.Centimeter, base)
	return err
}

func hasScheme(po problemOut, scheme string) bool {
	for _, r := range po.Runs {
		if r.Scheme == scheme {
			return true
		}
	}
	return false
}
