package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"go-hep.org/x/hep/hplot"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/fesd-go/fesd/internal/report"
)

// Report is the content of bench.json.
type Report struct {
	Date         string
	Machine      string
	GoVersion    string
	IPOPT        bool   // the comparison was built in
	IPOPTVersion string `json:",omitempty"`
	Pairs        int
	Quick        bool
	// Inertia is the native solver's inertia policy (nlp.InertiaPolicy).
	Inertia string `json:",omitempty"`
	// PeakRSSMiB is the peak resident set size of the whole run (both
	// solvers, all entries).
	PeakRSSMiB float64
	Entries    []Entry
}

// Entry is one problem of the suite.
type Entry struct {
	Name string
	Kind string // ocp, homotopy, fesd, pending
	// Size is N for the OCP entries and the number of simulation steps for
	// the simulations; Vars and Cons the NLP dimensions (0: several NLPs).
	Size, Vars, Cons int
	Native           Stats
	IPOPT            *Stats `json:",omitempty"`
	// IPOPTNote says why there is no IPOPT result.
	IPOPTNote string `json:",omitempty"`
	// BuildMS is the untimed preparation of the entry (monopod: building
	// the OCP, compiling its tapes); PeakRSSBuildMiB the process's peak RSS
	// after it and PeakRSSMiB after the entry's runs (both cumulative over
	// the run: meaningful for the first entries or with -only).
	BuildMS, PeakRSSBuildMiB float64 `json:",omitempty"`
	PeakRSSMiB               float64
	// Ratios native/IPOPT of the medians (0 without IPOPT).
	RatioPerIter, RatioTotal, RatioIters, RatioCPUPerIter float64 `json:",omitempty"`
}

// Stats are the medians over the runs of one solver.
type Stats struct {
	Status     string
	Iterations int
	Objective  float64
	TotalMS    float64
	PerIterMS  float64 // total / iterations
	SetupMS    float64
	LinAlgMS   float64 // factorizations and solves
	EvalMS     float64 // problem callbacks (−1: not measured)
	AllocMiB   float64 // Go heap allocated per run
	// CPUMS is the process CPU time (user + system, all threads) of a run
	// and CPUPerIterMS that per iteration: robust against other load on
	// the machine, which inflates the wall times.
	CPUMS, CPUPerIterMS float64
	// Factorizations is the number of KKT factorizations of a run (0 when
	// not counted; IPOPT's are read from its detailed output), the initial
	// least-squares multipliers and restoration included; FactPerIter is
	// that per iteration (inertia corrections raise it above 1).
	Factorizations int     `json:",omitempty"`
	FactPerIter    float64 `json:",omitempty"`
	RunsMS         []float64
}

// MarshalJSON writes NaN as null.
func (s Stats) MarshalJSON() ([]byte, error) {
	type plain Stats
	p := plain(s)
	if math.IsNaN(p.Objective) {
		p.Objective = 0
	}
	return json.Marshal(p)
}

// MarshalJSON writes NaN ratios as 0.
func (e Entry) MarshalJSON() ([]byte, error) {
	type plain Entry
	p := plain(e)
	for _, r := range []*float64{&p.RatioPerIter, &p.RatioTotal, &p.RatioIters, &p.RatioCPUPerIter} {
		if math.IsNaN(*r) || math.IsInf(*r, 0) {
			*r = 0
		}
	}
	return json.Marshal(p)
}

func (r *Report) write(w io.Writer, dir string) error {
	if _, err := report.MakeDir(dir); err != nil {
		return err
	}
	if err := report.WriteJSON(filepath.Join(dir, "bench.json"), r); err != nil {
		return err
	}
	md := r.markdown()
	if err := os.WriteFile(filepath.Join(dir, "bench.md"), []byte(md), 0o644); err != nil {
		return err
	}
	if err := r.plots(dir); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\nwrote %s/{bench.json,bench.md,periter,cpuperiter,total (.png, .svg)}\n", md, dir)
	return nil
}

func f1(v float64) string {
	switch {
	case v < 0 || math.IsNaN(v):
		return "n/a"
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

func fr(v float64) string {
	if v == 0 || math.IsNaN(v) {
		return ""
	}
	return fmt.Sprintf("**%.2f**", v)
}

// markdown renders the table of bench.md.
func (r *Report) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s on %s, %s", r.Date, r.Machine, r.GoVersion)
	if r.IPOPT {
		fmt.Fprintf(&b, ", IPOPT %s with MUMPS", r.IPOPTVersion)
	} else {
		b.WriteString(", native solver only (built without -tags ipopt)")
	}
	if r.Inertia != "" && r.Inertia != "Default" {
		fmt.Fprintf(&b, ", native inertia policy %s", r.Inertia)
	}
	fmt.Fprintf(&b, "; medians of %d alternating runs", r.Pairs)
	if r.Quick {
		b.WriteString(" (-quick)")
	}
	fmt.Fprintf(&b, "; peak RSS of the whole run %.0f MiB.\n\n", r.PeakRSSMiB)
	b.WriteString("| problem | n / m | solver | status | iter | fact/iter | total ms | ms/iter | CPU ms/iter | setup ms | lin. alg. ms | eval ms | Go alloc MiB | native/IPOPT ms/iter | native/IPOPT CPU/iter | native/IPOPT total | native/IPOPT iter |\n")
	b.WriteString("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, e := range r.Entries {
		dims := ""
		if e.Vars > 0 {
			dims = fmt.Sprintf("%d / %d", e.Vars, e.Cons)
		}
		row := func(solver string, s Stats, ratios bool) {
			rp, rc, rt, ri := "", "", "", ""
			if ratios {
				rp, rc, rt, ri = fr(e.RatioPerIter), fr(e.RatioCPUPerIter), fr(e.RatioTotal), fr(e.RatioIters)
			}
			fpi := ""
			if s.Factorizations > 0 {
				fpi = fmt.Sprintf("%.2f", s.FactPerIter)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				e.Name, dims, solver, s.Status, s.Iterations, fpi, f1(s.TotalMS), f1(s.PerIterMS), f1(s.CPUPerIterMS), f1(s.SetupMS),
				f1(s.LinAlgMS), f1(s.EvalMS), f1(s.AllocMiB), rp, rc, rt, ri)
		}
		if e.Kind == "pending" {
			fmt.Fprintf(&b, "| %s | | | %s | | | | | | | | | | | | | |\n", e.Name, e.IPOPTNote)
			continue
		}
		row("native", e.Native, false)
		if e.IPOPT != nil {
			row("IPOPT", *e.IPOPT, true)
		} else if e.IPOPTNote != "" {
			fmt.Fprintf(&b, "| %s | | IPOPT | n/a: %s | | | | | | | | | | | | | |\n", e.Name, e.IPOPTNote)
		}
	}
	var built []string
	for _, e := range r.Entries {
		if e.BuildMS > 0 {
			built = append(built, fmt.Sprintf("%s: built in %.1f s, process peak RSS %.0f MiB after the build, %.0f MiB after the runs", e.Name, e.BuildMS/1e3, e.PeakRSSBuildMiB, e.PeakRSSMiB))
		}
	}
	if len(built) > 0 {
		b.WriteString("\nUntimed preparation (OCP build and tape compilation; peak RSS is cumulative over the run):\n\n")
		for _, s := range built {
			fmt.Fprintf(&b, "* %s\n", s)
		}
	}
	b.WriteString("\nfact/iter = KKT factorizations / iterations (the initial least-squares multipliers, inertia corrections and restoration included; IPOPT: the numerical factorizations its MUMPS interface reports at file_print_level 6, nlp/ipopt CountFactorizations). ms/iter = wall time / iterations (setup included); CPU ms/iter = process CPU time (user + system) / iterations, which other load on the machine does not inflate. Lin. alg.: factorizations and solves (IPOPT: StdAugSystemSolverMultiSolve of its timing statistics). Eval: time in the nlp.Problem callbacks, on the Go side. Ratios < 1 mean the native solver is faster / needs fewer iterations.\n")
	return b.String()
}

// plots draws time per iteration and total time against N for the OCP
// entries (NLP and homotopy), both solvers, log–log.
func (r *Report) plots(dir string) error {
	type series struct {
		name string
		pts  plotter.XYs
	}
	collect := func(val func(Stats) float64) []series {
		var out []series
		for _, kind := range []string{"ocp", "homotopy"} {
			label := map[string]string{"ocp": "NLP", "homotopy": "homotopy"}[kind]
			nat, ip := series{name: "native " + label}, series{name: "IPOPT " + label}
			for _, e := range r.Entries {
				if e.Kind != kind {
					continue
				}
				if v := val(e.Native); v > 0 {
					nat.pts = append(nat.pts, plotter.XY{X: float64(e.Size), Y: v})
				}
				if e.IPOPT != nil {
					if v := val(*e.IPOPT); v > 0 {
						ip.pts = append(ip.pts, plotter.XY{X: float64(e.Size), Y: v})
					}
				}
			}
			for _, s := range []series{nat, ip} {
				if len(s.pts) > 0 {
					out = append(out, s)
				}
			}
		}
		return out
	}
	colors := map[string]color.Color{
		"native NLP": color.RGBA{0, 90, 200, 255}, "IPOPT NLP": color.RGBA{200, 60, 0, 255},
		"native homotopy": color.RGBA{0, 160, 220, 255}, "IPOPT homotopy": color.RGBA{230, 150, 0, 255},
	}
	draw := func(file, title, ylabel string, val func(Stats) float64) error {
		p := hplot.New()
		p.Title.Text = title
		p.X.Label.Text = "N (stages)"
		p.Y.Label.Text = ylabel
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{}
		p.Legend.Top, p.Legend.Left = true, true
		ss := collect(val)
		ys := map[float64]bool{}
		for _, s := range ss {
			for _, pt := range s.pts {
				ys[pt.Y] = true
			}
		}
		if len(ys) < 2 {
			// A single value gives the log axis no range (gonum's
			// LogTicks panics): nothing to plot.
			return nil
		}
		var ticks plot.ConstantTicks
		for _, e := range r.Entries {
			if e.Kind == "ocp" || e.Kind == "homotopy" {
				x := float64(e.Size)
				if !slices.ContainsFunc(ticks, func(t plot.Tick) bool { return t.Value == x }) {
					ticks = append(ticks, plot.Tick{Value: x, Label: fmt.Sprint(e.Size)})
				}
			}
		}
		p.X.Tick.Marker = ticks
		for _, s := range ss {
			l, pts, err := plotter.NewLinePoints(s.pts)
			if err != nil {
				return err
			}
			l.Color, pts.Color = colors[s.name], colors[s.name]
			if strings.HasSuffix(s.name, "homotopy") {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			}
			p.Add(l, pts)
			p.Legend.Add(s.name, l, pts)
		}
		p.Add(hplot.NewGrid())
		for _, ext := range []string{"png", "svg"} {
			if err := p.Save(14*vg.Centimeter, 10*vg.Centimeter, filepath.Join(dir, file+"."+ext)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := draw("periter", "OCP NLP (nlp/testprob): time per IPM iteration", "ms / iteration", func(s Stats) float64 { return s.PerIterMS }); err != nil {
		return err
	}
	if err := draw("cpuperiter", "OCP NLP (nlp/testprob): CPU time per IPM iteration", "CPU ms / iteration", func(s Stats) float64 { return s.CPUPerIterMS }); err != nil {
		return err
	}
	return draw("total", "OCP NLP (nlp/testprob): total time", "ms", func(s Stats) float64 { return s.TotalMS })
}

// machine returns the CPU model and the number of logical CPUs.
func machine() string {
	model := "unknown CPU"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d logical CPUs, %s/%s", model, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
}
