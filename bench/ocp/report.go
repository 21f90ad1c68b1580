package main

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/fesd-go/fesd/internal/report"
)

// g3 prints a number with three significant digits ("–" for NaN).
func g3(n num) string {
	v := float64(n)
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.3g", v)
}

// markdown returns bench.md: one table row per solve, and the count of
// rows that meet the bar (Solved, complementarity ≤ 1e-5,
// violation ≤ 1e-6).
func (r *Report) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Nonsmooth OCP benchmark (`go run ./bench/ocp`), %s, %s", r.Date, r.Machine)
	if r.IPOPT != "" {
		fmt.Fprintf(&b, ", IPOPT %s (MUMPS) inside the same homotopy", r.IPOPT)
	}
	b.WriteString(". Every row from fesd's default settings (the monopod: the paper's homotopy).\n\n")
	b.WriteString("| row | solver | status | class | comp. residual | violation | objective | terminal error | NLP iter | steps | wall s | CPU s | CPU ms/iter | met |\n")
	b.WriteString("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	met, total := map[string]int{}, map[string]int{}
	for _, x := range r.Results {
		status := x.Status
		if x.Infeasible != "" {
			status += " (" + x.Infeasible + ")"
		}
		if x.Error != "" {
			status += " (error: " + x.Error + ")"
		}
		if x.Validity != "" {
			status += " (" + x.Validity + ")"
		}
		m := "no"
		if x.Met {
			m = "**yes**"
			met[x.Solver]++
		}
		total[x.Solver]++
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %d | %d | %.1f | %.1f | %.2f | %s |\n",
			x.Row, x.Solver, status, x.Stationarity, g3(x.CompResidual), g3(x.Violation), g3(x.Objective), g3(x.Terminal),
			x.Iterations, x.Steps, x.Wall, x.CPU, x.CPUPerIter, m)
	}
	var solvers []string
	for s := range total {
		solvers = append(solvers, s)
	}
	sort.Strings(solvers)
	b.WriteString("\n")
	for _, s := range solvers {
		fmt.Fprintf(&b, "%s: %d of %d rows met (Solved, complementarity ≤ 1e-5, violation ≤ 1e-6; an unreachable row: Infeasible naming its group).\n", s, met[s], total[s])
	}
	return b.String()
}

// figure10 plots the monopod rows (004 Figure 10): total CPU time and CPU
// time per NLP iteration against N, one curve per DCS mode and solver. No
// file is written without monopod rows.
func (r *Report) figure10(base string) ([]string, error) {
	series := map[string]*[2]report.Series{}
	var keys []string
	for _, x := range r.Results {
		if x.Family == "" || x.Iterations == 0 {
			continue
		}
		k := x.Family + ", " + x.Solver
		s := series[k]
		if s == nil {
			s = &[2]report.Series{{Name: k, Points: true}, {Name: k, Points: true}}
			series[k] = s
			keys = append(keys, k)
		}
		s[0].X, s[0].Y = append(s[0].X, float64(x.N)), append(s[0].Y, x.CPU)
		s[1].X, s[1].Y = append(s[1].X, float64(x.N)), append(s[1].Y, x.CPUPerIter)
	}
	if len(keys) == 0 {
		return nil, nil
	}
	sort.Strings(keys)
	for _, mode := range []string{"Stewart", "Step"} {
		k := "paper (004 Fig. 10), " + mode
		s := &[2]report.Series{{Name: k, Points: true}, {Name: k, Points: true}}
		for _, p := range paperFig10 {
			cpu, per := p.stepCPU, p.stepPerIter
			if mode == "Stewart" {
				cpu, per = p.stewartCPU, p.stewartPerIter
			}
			s[0].X, s[0].Y = append(s[0].X, float64(p.n)), append(s[0].Y, cpu)
			s[1].X, s[1].Y = append(s[1].X, float64(p.n)), append(s[1].Y, 1e3*per)
		}
		series[k] = s
		keys = append(keys, k)
	}
	total := report.LinePlot{Title: "monopod: total CPU time", XLabel: "N", YLabel: "CPU s", LogY: true}
	per := report.LinePlot{Title: "CPU time per NLP iteration", XLabel: "N", YLabel: "CPU ms / iteration"}
	for _, k := range keys {
		total.Series = append(total.Series, series[k][0])
		per.Series = append(per.Series, series[k][1])
	}
	tp, err := report.Tiled(1, 2, total, per)
	if err != nil {
		return nil, err
	}
	return report.SavePlot(tp, 2*report.DefaultWidth, report.DefaultHeight, base)
}

// paperFig10 are the values of the published Figure 10 of 004 (total CPU
// time in s and CPU time per NLP iteration in s of nosnoc with IPOPT, by N
// and mode), read off the plot to about ±5 %.
var paperFig10 = []struct {
	n                                                int
	stewartCPU, stepCPU, stewartPerIter, stepPerIter float64
}{
	{30, 230, 360, 0.078, 0.058},
	{40, 280, 870, 0.10, 0.070},
	{50, 370, 1280, 0.10, 0.10},
	{60, 2150, 1310, 0.28, 0.10},
	{70, 4100, 10250, 0.63, 0.60},
	{80, 5700, 11420, 0.63, 0.58},
	{90, 3880, 11300, 0.65, 0.65},
}

// figure10Table is fig10.md: every monopod row beside the paper's values
// for its N and mode.
func (r *Report) figure10Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "004 Figure 10 (`go run ./bench/ocp -fig10`), %s, %s", r.Date, r.Machine)
	if r.IPOPT != "" {
		fmt.Fprintf(&b, ", IPOPT %s (MUMPS) inside the same homotopy", r.IPOPT)
	}
	b.WriteString(". The paper's values are read off its plot (±5 %); it reports no residual and checks no validity.\n\n")
	b.WriteString("| N | mode | solver | status | validity | comp. residual | NLP iter | CPU s | CPU ms/iter | paper CPU s | paper CPU ms/iter |\n")
	b.WriteString("|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|\n")
	for _, x := range r.Results {
		if x.Family == "" {
			continue
		}
		pc, pi := math.NaN(), math.NaN()
		for _, p := range paperFig10 {
			if p.n == x.N {
				pc, pi = p.stepCPU, p.stepPerIter
				if x.Family == "Stewart" {
					pc, pi = p.stewartCPU, p.stewartPerIter
				}
			}
		}
		v := x.Validity
		if v == "" {
			v = "–"
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %d | %.1f | %.2f | %s | %s |\n",
			x.N, x.Family, x.Solver, x.Status, v, g3(x.CompResidual), x.Iterations, x.CPU, x.CPUPerIter,
			g3(num(pc)), g3(num(1e3*pi)))
	}
	return b.String()
}
