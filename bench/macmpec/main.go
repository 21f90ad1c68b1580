// Command macmpec solves the MacMPEC set of package mpcc/macmpec with the
// relaxation homotopy of package mpcc and prints, per problem and in total,
// the status, the objective against the best-known value, NLP iterations
// and time; built with -tags ipopt it runs the same homotopy with IPOPT as
// the inner solver and prints both side by side.
//
// Usage:
//
//	go run ./bench/macmpec [-out out/macmpec] [-finish ActiveSet|CertifyOnly] [-explore] [-only NAME]
//	go run -tags ipopt ./bench/macmpec
//
// Both sides use mpcc's default homotopy (Scholtes, σ = 1 … 1e-10) with the
// inner settings mpcc.DefaultNLPSettings(); the native side is the default
// mpcc.Solver. -finish sets mpcc.Settings.Finish for both, -explore
// mpcc.Settings.Explore (the finish searches neighbouring branches). A problem counts
// as reaching the best-known value when the homotopy ends Solved, the bound
// and constraint violation is at most 1e-8 and the objective is within
// 1e-5·max(1, |b|) of b or better, b = Problem.Target() (Best, or the
// proven optimum where the table's value is not attainable; the criterion
// of the package's table test). It writes macmpec.json (everything) and macmpec.md (the
// tables) to the output folder.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/mpcc/macmpec"
	"github.com/fesd-go/fesd/nlp"
)

// Criterion of "reached the best-known objective" (as in the table test of
// package macmpec).
const (
	gapTol  = 1e-5
	feasTol = 1e-8
)

func main() {
	out := flag.String("out", "out/macmpec", "output folder")
	finish := mpcc.DefaultFinish
	flag.TextVar(&finish, "finish", mpcc.DefaultFinish, "what follows the homotopy: ActiveSet (certificate and active-set finish), CertifyOnly (certificate of the homotopy point) or None")
	explore := flag.Bool("explore", false, "mpcc.Settings.Explore: the finish searches the neighbouring branches of its point")
	only := flag.String("only", "", "run only the problems whose name contains this")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, config{out: *out, finish: finish, explore: *explore, only: *only}); err != nil {
		fmt.Fprintln(os.Stderr, "macmpec:", err)
		os.Exit(1)
	}
}

type config struct {
	out     string
	finish  mpcc.FinishMode
	explore bool
	only    string
}

// side is one inner solver of the homotopy.
type side struct {
	Name  string
	inner func(nlp.Settings) mpcc.InnerSolver
}

func native() *side {
	return &side{Name: "native", inner: func(set nlp.Settings) mpcc.InnerSolver { return &mpcc.NLPSolver{Settings: set} }}
}

// Run is the outcome of one problem with one inner solver.
type Run struct {
	Status     string  `json:"status"`
	Objective  float64 `json:"objective"` // model objective (maximizations as maximized)
	Gap        float64 `json:"gap"`       // (f − target)/max(1, |target|), sign flipped for maximizations
	Reached    bool    `json:"reached"`
	CompResid  float64 `json:"comp_residual"`
	Violation  float64 `json:"violation"`
	Steps      int     `json:"steps"`
	Iterations int     `json:"iterations"` // NLP iterations, all steps, the certificate and the finish
	FailedNLPs int     `json:"failed_nlps"`
	// Class is the stationarity certificate of the result (mpcc.Stationarity)
	// and Finished is set when the active-set finish replaced the homotopy point.
	Class     string  `json:"class"`
	Certified bool    `json:"certified_b"`
	Finished  bool    `json:"finished"`
	WallMS    float64 `json:"wall_ms"`
	CPUMS     float64 `json:"cpu_ms"`
	Err       string  `json:"error,omitempty"`
}

// Entry is one problem.
type Entry struct {
	Name     string          `json:"name"`
	Model    string          `json:"model"`
	Best     float64         `json:"best"`
	Target   float64         `json:"target"` // Best, or the corrected optimum (macmpec.Problem.Target)
	Maximize bool            `json:"maximize,omitempty"`
	Vars     int             `json:"n"`
	Cons     int             `json:"m"`
	Pairs    int             `json:"pairs"`
	Runs     map[string]*Run `json:"runs"`
}

// Summary totals one side.
type Summary struct {
	Problems   int     `json:"problems"`
	Solved     int     `json:"solved"`
	Reached    int     `json:"reached"`
	Certified  int     `json:"certified_b"`
	Iterations int     `json:"iterations"`
	MedianIter float64 `json:"median_iterations"`
	WallMS     float64 `json:"wall_ms"`
	CPUMS      float64 `json:"cpu_ms"`
}

// Report is everything the program writes.
type Report struct {
	Date      string              `json:"date"`
	Machine   string              `json:"machine"`
	GoVersion string              `json:"go_version"`
	IPOPT     string              `json:"ipopt,omitempty"`
	Finish    string              `json:"finish"`
	Explore   bool                `json:"explore"`
	Sides     []string            `json:"sides"`
	Entries   []*Entry            `json:"entries"`
	Summary   map[string]*Summary `json:"summary"`
}

func run(ctx context.Context, w io.Writer, cfg config) error {
	sides := []*side{native()}
	if c := comparison(); c != nil {
		sides = append(sides, c)
	} else {
		fmt.Fprintln(w, "IPOPT comparison not built (run with -tags ipopt): native inner solver only.")
	}
	rep := &Report{
		Date:      time.Now().UTC().Format("2006-01-02 15:04 MST"),
		Machine:   fmt.Sprintf("%d logical CPUs, %s/%s", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH),
		GoVersion: runtime.Version(),
		IPOPT:     ipoptVersion(),
		Finish:    cfg.finish.String(),
		Explore:   cfg.explore,
		Summary:   map[string]*Summary{},
	}
	for _, s := range sides {
		rep.Sides = append(rep.Sides, s.Name)
	}
	for _, p := range macmpec.All() {
		if cfg.only != "" && !strings.Contains(p.Name, cfg.only) {
			continue
		}
		e := &Entry{Name: p.Name, Model: p.Model, Best: p.Best, Target: p.Target(), Maximize: p.Maximize, Runs: map[string]*Run{}}
		for _, s := range sides {
			r, err := solve(ctx, &p, s, cfg, e)
			if err != nil {
				return err
			}
			e.Runs[s.Name] = r
		}
		rep.Entries = append(rep.Entries, e)
		fmt.Fprintln(w, line(rep, e))
	}
	if len(rep.Entries) == 0 {
		return fmt.Errorf("no problem matches -only %q", cfg.only)
	}
	rep.summarize()
	return rep.write(w, cfg.out)
}

// solve runs the homotopy on a fresh instance of p. An error of the
// homotopy (it could not run) is recorded in the Run; an error building the
// problem stops the program.
func solve(ctx context.Context, p *macmpec.Problem, s *side, cfg config, e *Entry) (*Run, error) {
	mp, err := p.New()
	if err != nil {
		return nil, err
	}
	e.Vars, e.Cons = mp.NLP.Dims()
	e.Pairs = len(mp.Comp)
	solver := mpcc.Solver{Settings: mpcc.Settings{Finish: cfg.finish, Explore: cfg.explore}, Inner: s.inner(mpcc.DefaultNLPSettings())}
	c0, t0 := cpuTime(), time.Now()
	res, err := solver.Solve(ctx, mp)
	r := &Run{WallMS: ms(time.Since(t0)), CPUMS: ms(cpuTime() - c0)}
	if err != nil {
		r.Status, r.Err = "error", err.Error()
		return r, nil
	}
	r.Status = res.Status.String()
	r.Objective = p.Value(res.Objective)
	r.Gap = p.Gap(r.Objective)
	r.CompResid = res.CompResidual
	if r.Violation, err = nlp.Violation(mp.NLP, res.X); err != nil {
		return nil, err
	}
	r.Steps = len(res.Steps)
	for _, st := range res.Steps {
		r.Iterations += st.Iterations
		if !st.Status.Success() {
			r.FailedNLPs++
		}
	}
	r.Iterations += res.FinishIterations
	if res.Finish != nil {
		r.Finished = res.Finish.Accepted
	}
	r.Class = res.Stationarity.String()
	r.Certified = res.Stationarity.B()
	r.Reached = res.Status == mpcc.Solved && r.Gap <= gapTol && r.Violation <= feasTol
	return r, nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (r *Report) summarize() {
	for _, name := range r.Sides {
		s := &Summary{}
		var its []int
		for _, e := range r.Entries {
			run := e.Runs[name]
			s.Problems++
			if run.Status == mpcc.Solved.String() {
				s.Solved++
			}
			if run.Reached {
				s.Reached++
			}
			if run.Certified {
				s.Certified++
			}
			s.Iterations += run.Iterations
			its = append(its, run.Iterations)
			s.WallMS += run.WallMS
			s.CPUMS += run.CPUMS
		}
		sort.Ints(its)
		if k := len(its); k > 0 {
			s.MedianIter = float64(its[(k-1)/2]+its[k/2]) / 2
		}
		r.Summary[name] = s
	}
}

// column is one per-solver column of the problem table; adding a column
// (for example a stationarity certificate) is one entry here and a field of
// Run.
type column struct {
	head  string
	right bool
	cell  func(e *Entry, r *Run) string
}

var columns = []column{
	{"status", false, func(e *Entry, r *Run) string {
		s := r.Status
		if r.Finished {
			s += " (finished)"
		}
		if r.FailedNLPs > 0 {
			s += fmt.Sprintf(", %d failed NLPs", r.FailedNLPs)
		}
		return s
	}},
	{"f", true, func(e *Entry, r *Run) string { return fmt.Sprintf("%.7g", r.Objective) }},
	{"gap", true, func(e *Entry, r *Run) string { return fmt.Sprintf("%.1e", r.Gap) }},
	{"best?", false, func(e *Entry, r *Run) string {
		if r.Reached {
			return "yes"
		}
		return "**no**"
	}},
	{"residual", true, func(e *Entry, r *Run) string { return fmt.Sprintf("%.0e", r.CompResid) }},
	{"class", false, func(e *Entry, r *Run) string { return r.Class }},
	{"steps", true, func(e *Entry, r *Run) string { return fmt.Sprint(r.Steps) }},
	{"iter", true, func(e *Entry, r *Run) string { return fmt.Sprint(r.Iterations) }},
	{"ms", true, func(e *Entry, r *Run) string { return fmt.Sprintf("%.1f", r.WallMS) }},
}

// line is the progress line of one problem.
func line(rep *Report, e *Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-13s n=%3d m=%3d pairs=%3d best=%-11.6g", e.Name, e.Vars, e.Cons, e.Pairs, e.Target)
	for _, name := range rep.Sides {
		r := e.Runs[name]
		fmt.Fprintf(&b, " | %s %-10s f=%-13.7g it=%4d %s", name, r.Status, r.Objective, r.Iterations,
			map[bool]string{true: "ok", false: "MISS"}[r.Reached])
	}
	return b.String()
}

func pct(k, n int) string { return fmt.Sprintf("%.1f %%", 100*float64(k)/float64(max(n, 1))) }

// markdown renders the summary and the problem table.
func (r *Report) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s on %s, %s", r.Date, r.Machine, r.GoVersion)
	if r.IPOPT != "" {
		fmt.Fprintf(&b, ", IPOPT %s with MUMPS", r.IPOPT)
	}
	fmt.Fprintf(&b, "; default homotopy of mpcc (Scholtes, σ = 1 … 1e-10), inner settings mpcc.DefaultNLPSettings(), finish %s", r.Finish)
	if r.Explore {
		b.WriteString(" with Explore")
	}
	b.WriteString(".\n\n")
	b.WriteString("| inner solver | problems | solved | reached best | certified B | NLP iterations | median | wall ms | CPU ms |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, name := range r.Sides {
		s := r.Summary[name]
		fmt.Fprintf(&b, "| %s | %d | %d (%s) | %d (%s) | %d (%s) | %d | %g | %.0f | %.0f |\n", name, s.Problems,
			s.Solved, pct(s.Solved, s.Problems), s.Reached, pct(s.Reached, s.Problems), s.Certified, pct(s.Certified, s.Problems),
			s.Iterations, s.MedianIter, s.WallMS, s.CPUMS)
	}
	b.WriteString("\n| problem | n / m / pairs | best |")
	sep := "|---|---|---:|"
	for _, name := range r.Sides {
		for _, c := range columns {
			fmt.Fprintf(&b, " %s %s |", name, c.head)
			if c.right {
				sep += "---:|"
			} else {
				sep += "---|"
			}
		}
	}
	b.WriteString("\n" + sep + "\n")
	for _, e := range r.Entries {
		best := fmt.Sprintf("%g", e.Best)
		if e.Target != e.Best {
			best = fmt.Sprintf("%g (table %g)", e.Target, e.Best)
		}
		if e.Maximize {
			best += " (max)"
		}
		fmt.Fprintf(&b, "| %s | %d / %d / %d | %s |", e.Name, e.Vars, e.Cons, e.Pairs, best)
		for _, name := range r.Sides {
			for _, c := range columns {
				fmt.Fprintf(&b, " %s |", c.cell(e, e.Runs[name]))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\nbest is MacMPEC's table value, or the proven optimum of the model where the table's value is not attainable (macmpec.Problem.OptimumNote: bilevel1m, ex9.2.3). " +
		"f is the model objective (maximizations as maximized); gap = (f − best)/max(1, |best|), sign flipped for maximizations; " +
		"best? = Solved, violation ≤ 1e-8 and gap ≤ 1e-5; residual = max complementarity product; class = stationarity certificate (mpcc.Stationarity; S and B are B-stationary); iter = NLP iterations of all steps, the certificate and the finish.\n")
	return b.String()
}

func (r *Report) write(w io.Writer, dir string) error {
	if _, err := report.MakeDir(dir); err != nil {
		return err
	}
	if err := report.WriteJSON(filepath.Join(dir, "macmpec.json"), r); err != nil {
		return err
	}
	md := r.markdown()
	if err := os.WriteFile(filepath.Join(dir, "macmpec.md"), []byte(md), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\nwrote %s/{macmpec.json,macmpec.md}\n", md, dir)
	return nil
}
