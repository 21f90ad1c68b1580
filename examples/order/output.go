package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fesd-go/fesd/internal/report"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// printTable writes one line per run (slope against the order, error per
// N_sim) and then every failed simulation with its status.
func printTable(w io.Writer, st *study) {
	var nsims []int
	seen := map[int]bool{}
	for _, r := range st.Runs {
		for _, p := range r.Points {
			if !seen[p.NSim] {
				seen[p.NSim] = true
				nsims = append(nsims, p.NSim)
			}
		}
	}
	sort.Ints(nsims)
	fmt.Fprintf(w, "\n%s, N_FE = %d, comp tol %.0e; slope fitted above the floor %.0e\n", st.Problem, st.NFE, st.CompTol, st.Floor)
	fmt.Fprintf(w, "error: %s\n", st.Metric)
	fmt.Fprintln(w, "slope: over the longest element h_max of each run; (h̄): over the nominal h̄ = T/(N_sim·N_FE)")
	fmt.Fprintf(w, "%-15s %3s %5s %-8s %6s %6s %4s", "scheme", "ns", "order", "method", "slope", "(h̄)", "fit")
	for _, n := range nsims {
		fmt.Fprintf(w, " %9s", fmt.Sprintf("N=%d", n))
	}
	fmt.Fprintln(w)
	var failures []string
	for _, r := range st.Runs {
		method := "standard"
		if r.FESD {
			method = "FESD"
		}
		slope, nominal := "-", "-"
		if r.Slope != nil {
			slope = fmt.Sprintf("%.2f", *r.Slope)
		}
		if r.SlopeNominal != nil {
			nominal = fmt.Sprintf("%.2f", *r.SlopeNominal)
		}
		fmt.Fprintf(w, "%-15s %3d %5d %-8s %6s %6s %4d", r.Scheme, r.NS, r.Order, method, slope, nominal, r.FitPoints)
		byN := map[int]point{}
		for _, p := range r.Points {
			byN[p.NSim] = p
		}
		for _, n := range nsims {
			p, ok := byN[n]
			switch {
			case !ok:
				fmt.Fprintf(w, " %9s", "")
			case p.Error == nil:
				fmt.Fprintf(w, " %9s", "FAILED")
				failures = append(failures, fmt.Sprintf("%s n_s=%d %s N_sim=%d: %s", r.Scheme, r.NS, method, n, p.Status))
			default:
				fmt.Fprintf(w, " %9.2e", *p.Error)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d failed simulations\n", len(failures))
	for _, f := range failures {
		fmt.Fprintln(w, "  "+f)
	}
	fmt.Fprintf(w, "sweep wall time %.1f s\n", st.Elapsed)
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
	var panels []report.LinePlot
	for _, scheme := range []string{"radau_iia", "gauss_legendre"} {
		lp := report.LinePlot{
			Title:  fmt.Sprintf("%s: %s", st.Problem, map[string]string{"radau_iia": "Radau IIA", "gauss_legendre": "Gauss–Legendre"}[scheme]),
			XLabel: "h = T_sim/(N_sim N_FE)", YLabel: "error",
			LogX: true, LogY: true,
		}
		for _, r := range st.Runs {
			if r.Scheme != scheme {
				continue
			}
			var xs, ys []float64
			for _, p := range r.Points {
				if p.Error != nil {
					xs = append(xs, p.H)
					ys = append(ys, *p.Error)
				}
			}
			xs, ys, _ = report.FilterXY(xs, ys, true, true)
			if len(xs) == 0 {
				continue
			}
			name := fmt.Sprintf("n_s=%d (order %d) FESD", r.NS, r.Order)
			if !r.FESD {
				name = fmt.Sprintf("n_s=%d standard", r.NS)
			}
			lp.Series = append(lp.Series, report.Series{
				Name: name, X: xs, Y: ys, Points: true, Dashed: !r.FESD, Color: plotutil.Color(r.NS - 1),
			})
		}
		if len(lp.Series) > 0 {
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
	byKey := map[string]int{}
	have := map[string]bool{}
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
			key := runKey(r.Scheme, r.NS, r.FESD)
			i, ok := byKey[key]
			if !ok {
				i = len(out.Runs)
				byKey[key] = i
				out.Runs = append(out.Runs, runOut{Scheme: r.Scheme, NS: r.NS, Order: r.Order, FESD: r.FESD})
			}
			for _, p := range r.Points {
				pk := fmt.Sprintf("%s/%d", key, p.NSim)
				if have[pk] {
					return nil, fmt.Errorf("%s: point %s given twice", f, strings.ReplaceAll(pk, "/", " "))
				}
				have[pk] = true
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
