package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/monopod"
	"github.com/fesd-go/fesd/internal/rusage"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// The -fold mode measures the candidates for passing the relaxation fold
// of the time-freezing monopod (004 §7.2) at N = 30, Step and Stewart:
// each candidate is a library setting of fesd or mpcc on the monopod OCP
// as examples/monopod builds it (the paper's cost, bounds and
// discretization; nosnoc's inner settings, tolerance 1e-5 and at most
// 10 000 iterations per relaxed NLP; five Scholtes steps σ = 1, …, 1e-4
// with complementarity tolerance 1e-5), and the measure is the physical
// validity of the result (fesd.Validity) beside the status. Every solve
// appends one JSON line to fold.jsonl in -out and rewrites fold.md from
// all lines there, so that separate processes (one candidate each) fill
// one table.

// foldN is the number of stages of the fold candidates.
const foldN = 30

// foldCandidate is one way of running the homotopy.
type foldCandidate struct {
	name, desc string
	// stepwise runs the schedule one σ at a time (each a continuation of
	// the previous step's result, fesd.Start.Warm, which is what the
	// homotopy does inside one solve), to record the validity of every
	// step's point.
	stepwise bool
	// solve, if not nil, replaces OCPSolver.Solve.
	solve func(ctx context.Context, s *fesd.OCPSolver, st fesd.Start) (*fesd.OCPResult, error)
	// apply changes the OCP, options and start of the baseline.
	apply func(m *monopod.Model, p *fesd.OCP, o *fesd.Options, st *fesd.Start) error
}

// foldCandidates are the candidates, the baseline first.
func foldCandidates() []foldCandidate {
	return []foldCandidate{
		{name: "base", desc: "examples/monopod's homotopy without its ℓ∞ continuation: states at the reference, warm steps (μ₀ = 0.1σ, push 1e-6), multipliers not handed on",
			apply: func(*monopod.Model, *fesd.OCP, *fesd.Options, *fesd.Start) error { return nil }},
		{name: "R6", desc: "nosnoc's path: x₀ at every node, every relaxed NLP a cold start from the previous x (mpcc.Settings.ColdRestart: push 1e-2, μ₀ = 0.1, multipliers reset)",
			apply: func(m *monopod.Model, p *fesd.OCP, o *fesd.Options, st *fesd.Start) error {
				o.MPCC.ColdRestart = true
				st.XInit = [][]float64{p.X0}
				return nil
			}},
		{name: "R4", desc: "guiding constraints in the steps σ ≥ 1e-2 (fesd.Options.Guide: the foot gap ≥ −0.005 m and the time-freezing paper's guides of internal/monopod Model.Guides), then the steps σ = 1e-3, 1e-4 without them; otherwise as base",
			apply: func(m *monopod.Model, p *fesd.OCP, o *fesd.Options, st *fesd.Start) error {
				o.Guide = &fesd.Guide{GapDepth: 0.005, Path: m.Guides(), Sigma: 1e-2}
				return nil
			}},
		{name: "base/steps", stepwise: true, desc: "base, one σ at a time, with the validity of every step's point",
			apply: func(*monopod.Model, *fesd.OCP, *fesd.Options, *fesd.Start) error { return nil }},
		{name: "guides-kept/steps", stepwise: true, desc: "R4's guides as constraints of the OCP in every step (not the paper's OCP: the guided problem itself), one σ at a time with the validity of every step's point",
			apply: keepGuides},
		{name: "R3", desc: "relax and project (fesd.OCPSolver.SolveProjected): base one σ at a time, and after every step with σ ≤ 1e-2 the branch NLP of its modes (the sign of every switching function per finite element, the gap's from the normal velocity); the first solved and valid projection ends it (Step only)",
			apply: func(*monopod.Model, *fesd.OCP, *fesd.Options, *fesd.Start) error { return nil },
			solve: func(ctx context.Context, s *fesd.OCPSolver, st fesd.Start) (*fesd.OCPResult, error) {
				return s.SolveProjected(ctx, st, 1e-2)
			}},
		{name: "guides-kept+R3", desc: "R3 on the OCP with R4's guides as constraints in every step (not the paper's OCP): relax one σ at a time and project after every step with σ ≤ 1e-2 (Step only)",
			apply: keepGuides,
			solve: func(ctx context.Context, s *fesd.OCPSolver, st fesd.Start) (*fesd.OCPResult, error) {
				return s.SolveProjected(ctx, st, 1e-2)
			}},
		{name: "R4@1e-3", desc: "R4 with the guides through σ = 1e-3 (Guide.Sigma = 1e-3): only the step σ = 1e-4 without them",
			apply: func(m *monopod.Model, p *fesd.OCP, o *fesd.Options, st *fesd.Start) error {
				o.Guide = &fesd.Guide{GapDepth: 0.005, Path: m.Guides(), Sigma: 1e-3}
				return nil
			}},
		{name: "R4gap", desc: "R4 with the foot gap guide ≥ −0.005 m alone (the part that applies to every time-freezing model)",
			apply: func(m *monopod.Model, p *fesd.OCP, o *fesd.Options, st *fesd.Start) error {
				o.Guide = &fesd.Guide{GapDepth: 0.005, Sigma: 1e-2}
				return nil
			}},
	}
}

// keepGuides adds R4's guides to the OCP as constraints of every step: the
// robot's guides (Model.Guides) and the foot at most 0.005 m below the
// ground at every stage point.
func keepGuides(m *monopod.Model, p *fesd.OCP, _ *fesd.Options, _ *fesd.Start) error {
	p.Path = append(p.Path, m.Guides()...)
	p.Path = append(p.Path, fesd.Constraint{G: ad.Vec{m.Kin.Foot[1]}, L: []float64{-0.005}, U: []float64{math.Inf(1)}, At: fesd.AtStagePoints})
	return nil
}

// foldResult is one solve of one candidate (a line of fold.jsonl).
type foldResult struct {
	Candidate  string  `json:"candidate"`
	DCS        string  `json:"dcs"`
	N          int     `json:"n"`
	Date       string  `json:"date"`
	Status     string  `json:"status"`
	CompRes    num     `json:"comp_residual"`
	Violation  num     `json:"violation"`
	Objective  num     `json:"objective"`
	Validity   string  `json:"validity"`
	Drift      num     `json:"max_drift_m"`
	Phantom    num     `json:"max_phantom"`
	Flights    int     `json:"flights"`
	Landings   int     `json:"landings"`
	QErr       num     `json:"q_terminal_error"`
	VNorm      num     `json:"v_terminal_norm"`
	Iterations int     `json:"iterations"`
	Steps      string  `json:"steps"`
	CPU        float64 `json:"cpu_s"`
	Wall       float64 `json:"wall_s"`
	Error      string  `json:"error,omitempty"`
}

// foldBase builds the baseline: the monopod OCP with examples/monopod's
// solver settings, the states started at the reference.
func foldBase(form dcs.Formulation) (*monopod.Model, *fesd.OCP, fesd.Options, fesd.Start, error) {
	m, err := monopod.New(form, 0)
	if err != nil {
		return nil, nil, fesd.Options{}, fesd.Start{}, err
	}
	task := monopod.PaperTask(foldN)
	p, opts, err := m.OCP(task, monopod.Discretization{})
	if err != nil {
		return nil, nil, opts, fesd.Start{}, err
	}
	inner := monopod.NLPSettings(1e-5, 10000)
	inner.LinearSolver = nlp.PivotingLDL
	opts.MPCC = mpcc.Settings{Sigma0: 1, Kappa: 0.1, CompTol: 1e-5, MaxSteps: 5, ColdDuals: true, InexactFactor: -1, NLP: &inner}
	ref, err := task.Reference()
	if err != nil {
		return nil, nil, opts, fesd.Start{}, err
	}
	return m, p, opts, fesd.Start{XInit: append([][]float64{task.X0()}, ref...)}, nil
}

// runFold runs the candidates whose "name dcs" contains only and appends
// their results to dir/fold.jsonl.
func runFold(ctx context.Context, only, dir string, timeout time.Duration, verbose bool, w io.Writer) error {
	for _, c := range foldCandidates() {
		for _, form := range []dcs.Formulation{dcs.Step, dcs.Stewart} {
			if !strings.Contains(c.name+" "+form.String(), only) {
				continue
			}
			r := solveFold(ctx, c, form, timeout, verbose, w)
			fmt.Fprintf(w, "%-4s %-7s %-10s comp %.1e %s ‖q(T)−q*‖ %.2e ‖v(T)‖ %.2e its %d cpu %.0fs%s\n", r.Candidate, r.DCS, r.Status,
				float64(r.CompRes), r.Validity, float64(r.QErr), float64(r.VNorm), r.Iterations, r.CPU, suffix(r.Error))
			if err := appendFold(filepath.Join(dir, "fold.jsonl"), r); err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	return writeFoldTable(dir)
}

func suffix(e string) string {
	if e == "" {
		return ""
	}
	return " — error: " + e
}

// solveFold solves one candidate in one formulation.
func solveFold(ctx context.Context, c foldCandidate, form dcs.Formulation, timeout time.Duration, verbose bool, w io.Writer) foldResult {
	nan := num(math.NaN())
	r := foldResult{Candidate: c.name, DCS: form.String(), N: foldN, Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		CompRes: nan, Violation: nan, Objective: nan, Drift: nan, Phantom: nan, QErr: nan, VNorm: nan}
	m, p, opts, st, err := foldBase(form)
	if err == nil {
		err = c.apply(m, p, &opts, &st)
	}
	if err != nil {
		r.Status, r.Error = "BuildError", err.Error()
		return r
	}
	if verbose {
		opts.MPCC.Log = w
	}
	s, err := fesd.NewOCPSolver(p, opts)
	if err != nil {
		r.Status, r.Error = "BuildError", err.Error()
		return r
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	t0, c0 := time.Now(), rusage.CPUTime()
	var o *fesd.OCPResult
	var stepLog string
	switch {
	case c.solve != nil:
		o, err = c.solve(cctx, s, st)
	case c.stepwise:
		o, stepLog, err = solveStepwise(cctx, s, opts.MPCC, st, w)
	default:
		o, err = s.Solve(cctx, st)
	}
	r.Wall, r.CPU = time.Since(t0).Seconds(), (rusage.CPUTime() - c0).Seconds()
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		r.Error = err.Error()
	}
	if o == nil {
		r.Status = "NoResult"
		return r
	}
	fillFold(&r, o, monopod.PaperTask(foldN))
	if stepLog != "" {
		r.Steps = stepLog
	}
	return r
}

// solveStepwise runs the schedule of set one σ at a time on s, each step a
// continuation of the previous step's result, and returns the last
// result (with the records and iterations of all steps) and one entry per
// step: σ, NLP status, iterations, residual and the validity of its point.
func solveStepwise(ctx context.Context, s *fesd.OCPSolver, set mpcc.Settings, st fesd.Start, w io.Writer) (*fesd.OCPResult, string, error) {
	sched, err := set.Schedule()
	if err != nil {
		return nil, "", err
	}
	var last *fesd.OCPResult
	var recs []mpcc.HomotopyStep
	its := 0
	var log []string
	for k, sigma := range sched {
		one := set
		one.Sigma0, one.MaxSteps, one.SigmaN = sigma, 1, sigma
		if k < len(sched)-1 {
			one.Finish = mpcc.NoCertificate
		}
		sk, err := s.WithHomotopy(one)
		if err != nil {
			return last, strings.Join(log, " "), err
		}
		start := st
		if last != nil {
			start = fesd.Start{Warm: last}
		}
		r, err := sk.Solve(ctx, start)
		if r == nil {
			return last, strings.Join(log, " "), err
		}
		recs = append(recs, r.Homotopy...)
		its += r.Iterations
		h := r.Homotopy[len(r.Homotopy)-1]
		e := fmt.Sprintf("σ=%.0e:%v/%d/%.1e[%v]", sigma, h.Status, r.Iterations, r.CompResidual, r.Validity)
		log = append(log, e)
		if w != nil {
			fmt.Fprintln(w, "step", k, e)
		}
		last = r
		if err != nil {
			break
		}
	}
	last.Homotopy, last.Iterations = recs, its
	return last, strings.Join(log, " "), nil
}

// fillFold copies the measures of o into r.
func fillFold(r *foldResult, o *fesd.OCPResult, task monopod.Task) {
	r.Status = o.Status.String()
	r.CompRes, r.Violation, r.Objective = num(o.CompResidual), num(o.Infeasibility), num(o.Objective)
	r.Iterations = o.Iterations
	var steps []string
	for _, h := range o.Homotopy {
		steps = append(steps, fmt.Sprintf("σ=%.0e:%v/%d/%.1e", h.Sigma, h.Status, h.Iterations, h.CompResidual))
	}
	r.Steps = strings.Join(steps, " ")
	if v := o.Validity; v != nil {
		r.Validity = v.String()
		r.Drift, r.Phantom, r.Flights, r.Landings = num(v.MaxDrift), num(v.MaxPhantom), v.Flights, v.Landings
	}
	if len(o.X) > 0 {
		x, q := o.Final(), task.XTarget()
		var eq, ev float64
		for i := 0; i < 4; i++ {
			eq += (x[i] - q[i]) * (x[i] - q[i])
			ev += x[4+i] * x[4+i]
		}
		r.QErr, r.VNorm = num(math.Sqrt(eq)), num(math.Sqrt(ev))
	}
}

// appendFold appends r as one JSON line to name.
func appendFold(name string, r foldResult) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readFold reads the lines of name.
func readFold(name string) ([]foldResult, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []foldResult
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r foldResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// writeFoldTable writes dir/fold.md from dir/fold.jsonl.
func writeFoldTable(dir string) error {
	rs, err := readFold(filepath.Join(dir, "fold.jsonl"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "fold.md"), []byte(foldTable(rs)), 0o644)
}

// foldTable is fold.md: the candidates' descriptions and one row per
// solve.
func foldTable(rs []foldResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Fold candidates on the time-freezing monopod (004 §7.2), N = %d. Each row is one process, "+
		"`go run ./bench/ocp -fold -rows \"<candidate> <DCS>\" -timeout 29m -out DIR` (fold.jsonl collects the rows, fold.md is written from it). "+
		"CPU s is the process's user + sys time; validity is fesd.Validity (drift below the ground while the clock advances ≤ 1 mm, "+
		"auxiliary-dynamics weight ≤ 1e-3 where the gap ≥ 1 mm, the clock spanning T).\n\n", foldN)
	for _, c := range foldCandidates() {
		fmt.Fprintf(&b, "- **%s**: %s\n", c.name, c.desc)
	}
	b.WriteString("\n| candidate | DCS | status | comp. residual | drift [m] | phantom | flights / landings | ‖q(T)−q*‖ | ‖v(T)‖ | objective | NLP iter | CPU s | validity | date |\n")
	b.WriteString("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n")
	for _, r := range rs {
		st := r.Status
		if r.Error != "" {
			st += " (error: " + r.Error + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %d / %d | %s | %s | %s | %d | %.0f | %s | %s |\n",
			r.Candidate, r.DCS, st, g3(r.CompRes), g3(r.Drift), g3(r.Phantom), r.Flights, r.Landings,
			g3(r.QErr), g3(r.VNorm), g3(r.Objective), r.Iterations, r.CPU, r.Validity, r.Date)
	}
	b.WriteString("\nHomotopy steps (σ: NLP status / iterations / residual):\n\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "- %s %s: %s\n", r.Candidate, r.DCS, r.Steps)
	}
	return b.String()
}
