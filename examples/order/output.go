package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
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

// mergeFiles reads shard outputs and combines their runs: points of the
// same (scheme, n_s, FESD) are joined (a point given by two files is an
// error), slopes are refitted with floor (0: the files' floor).
func mergeFiles(files []string, floor float64) (*study, error) {
	var out *study
	byCurve := map[convergence.Curve]int{}
	type key struct {
		convergence.Curve
		NSim int
	}
	have := map[key]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var st study
		if err := json.Unmarshal(b, &st); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if out == nil {
			out = &study{Problem: st.Problem, Metric: st.Metric, TSim: st.TSim, NFE: st.NFE, CompTol: st.CompTol, Floor: st.Floor}
		} else if st.Problem != out.Problem || st.TSim != out.TSim || st.NFE != out.NFE || st.CompTol != out.CompTol {
			return nil, fmt.Errorf("%s: a different study (problem %s, tsim %g, nfe %d, comp tol %g)", f, st.Problem, st.TSim, st.NFE, st.CompTol)
		}
		out.Elapsed += st.Elapsed
		for _, r := range st.Runs {
			i, ok := byCurve[r.Curve]
			if !ok {
				i = len(out.Runs)
				byCurve[r.Curve] = i
				out.Runs = append(out.Runs, runOut{Curve: r.Curve})
			}
			for _, p := range r.Points {
				k := key{r.Curve, p.NSim}
				if have[k] {
					return nil, fmt.Errorf("%s: point %s %d %v %d given twice", f, r.Scheme, r.NS, r.FESD, p.NSim)
				}
				have[k] = true
				out.Runs[i].Points = append(out.Runs[i].Points, p)
			}
		}
	}
	if out == nil {
		return nil, fmt.Errorf("nothing to merge")
	}
	if floor > 0 {
		out.Floor = floor
	}
	finish(out)
	return out, nil
}
