package convergence

import (
	"fmt"
	"io"
	"sort"

	"github.com/fesd-go/fesd/internal/report"
	"gonum.org/v1/plot/plotutil"
)

// Row is a curve as a table line and a plot series.
type Row[S Sample] struct {
	Curve
	Method    string     // the method column ("FESD", …)
	Slopes    []*float64 // one per slope column; nil prints "-"
	FitPoints int        // points of the fit
	Points    []S
}

// WriteTable writes a table of the rows: a header line, then per row the
// scheme, n_s, order, method, the slopes (one column per name in
// slopeColumns), the number of fitted points and the error at every N_sim
// of the study ("FAILED" for a failed simulation, blank where the row has
// no such point); then the number of failed simulations and one line with
// the status of each.
func WriteTable[S Sample](w io.Writer, slopeColumns []string, rows []Row[S]) {
	var nsims []int
	seen := map[int]bool{}
	for _, r := range rows {
		for _, s := range r.Points {
			if n := s.point().NSim; !seen[n] {
				seen[n] = true
				nsims = append(nsims, n)
			}
		}
	}
	sort.Ints(nsims)
	fmt.Fprintf(w, "%-15s %3s %5s %-8s", "scheme", "ns", "order", "method")
	for _, c := range slopeColumns {
		fmt.Fprintf(w, " %6s", c)
	}
	fmt.Fprintf(w, " %4s", "fit")
	for _, n := range nsims {
		fmt.Fprintf(w, " %9s", fmt.Sprintf("N=%d", n))
	}
	fmt.Fprintln(w)
	var failures []string
	for _, r := range rows {
		fmt.Fprintf(w, "%-15s %3d %5d %-8s", r.Scheme, r.NS, r.Order, r.Method)
		for _, s := range r.Slopes {
			text := "-"
			if s != nil {
				text = fmt.Sprintf("%.2f", *s)
			}
			fmt.Fprintf(w, " %6s", text)
		}
		fmt.Fprintf(w, " %4d", r.FitPoints)
		byN := map[int]S{}
		for _, s := range r.Points {
			byN[s.point().NSim] = s
		}
		for _, n := range nsims {
			s, ok := byN[n]
			switch {
			case !ok:
				fmt.Fprintf(w, " %9s", "")
			case s.point().Error == nil:
				fmt.Fprintf(w, " %9s", "FAILED")
				failures = append(failures, fmt.Sprintf("%s n_s=%d %s N_sim=%d: %s", r.Scheme, r.NS, r.Method, n, s.outcome().Status))
			default:
				fmt.Fprintf(w, " %9.2e", *s.point().Error)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d failed simulations\n", len(failures))
	for _, f := range failures {
		fmt.Fprintln(w, "  "+f)
	}
}

// Panel is a log-log plot of the error over h̄ of the rows of one scheme
// family (SchemeName): a series with markers per row, named by name,
// dashed for standard time stepping, one color per n_s (as 004 Figure 6).
// Failed points, errors ≤ 0 and rows left without points are not drawn.
func Panel[S Sample](title, yLabel, scheme string, rows []Row[S], name func(Curve) string) report.LinePlot {
	lp := report.LinePlot{
		Title: title, XLabel: "h = T_sim/(N_sim N_FE)", YLabel: yLabel,
		LogX: true, LogY: true, LegendBottom: true,
	}
	for _, r := range rows {
		if r.Scheme != scheme {
			continue
		}
		var xs, ys []float64
		for _, s := range r.Points {
			if p := s.point(); p.Error != nil {
				xs = append(xs, p.H)
				ys = append(ys, *p.Error)
			}
		}
		xs, ys, _ = report.FilterXY(xs, ys, true, true)
		if len(xs) == 0 {
			continue
		}
		lp.Series = append(lp.Series, report.Series{
			Name: name(r.Curve), X: xs, Y: ys, Points: true, Dashed: !r.FESD, Color: plotutil.Color(r.NS - 1),
		})
	}
	return lp
}
