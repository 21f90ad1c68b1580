// Command cartpole swings up a cart-pole whose cart has Coulomb friction
// (nosnoc_py examples/cart_pole_with_friction/cart_pole_with_friction.py,
// nosnoc MATLAB examples/cart_pole_with_friction) with the OCP API of
// package fesd.
//
// States x = (p, θ, v, ω): cart position, pole angle (0 down, π up), their
// velocities; control u is the force on the cart. With m₁ = 1 (cart), m₂ =
// 0.1 (pole), l = 1, g = 9.81 and friction force F = 2,
//
//	M(θ) = [[m₁ + m₂, m₂ l cos θ], [m₂ l cos θ, m₂ l²]],
//	f_all = (u + m₂ l ω² sin θ, −m₂ g l sin θ),
//	(p̈, θ̈) = M⁻¹(f_all ∓ (F, 0))  for v ≷ 0,
//
// one Filippov switching function ψ = v (sticking of the cart is sliding
// on v = 0). The OCP is nosnoc_py's:
//
//	min ∫₀⁵ (x − x_ref)ᵀQ(x − x_ref) + R u² dt + (x(5) − x_ref)ᵀQ_T(x(5) − x_ref),
//	x(0) = (1, 0, 0, 0), x_ref = (0, π, 0, 0), |u| ≤ 30, |p| ≤ 5,
//
// Q = diag(10, 100, 1, 1), R = 1, Q_T = diag(500, 100, 10, 10), on N = 20
// stages with N_FE = 2 (Radau IIA n_s = 2). With -hard the terminal state
// is also imposed as x(5) = x_ref. The initial guess interpolates x0 and
// x_ref linearly (fesd.Start.XInit; -init rest: the forward simulation with
// u = 0, i.e. the cart at rest).
//
// Measured (2 cores, one run each, 2026-11-26): the step DCS (default)
// finds the local optimum 678.50 from both initializations, x(5) within
// 3.6e-3 of x_ref (soft terminal cost), 155–248 NLP iterations, 0.1–0.2 s;
// so does Stewart's DCS (205 iterations from the linear guess, 491 from
// rest). With -hard, Stewart from rest reaches x_ref to 4e-18 (objective
// 4365.4, 4 437 iterations, 3.5 s, in the second homotopy of
// fesd.OCPSolver.Solve, its relaxed NLPs starting with the other inertia
// policy; OCPResult.Rerun); from the linear guess it ends NLPFailure at
// objective 1866.9, x(5) = x_ref to 1e-10, complementarity 1.2e-5 (5 194
// iterations). This run is sensitive to the path: it was solved with
// objective 1862.5 when the relaxed NLPs' warm starts pushed the point
// 1e-3 into the interior instead of 1e-6 (and with 1e-7, not with 1e-4 or
// 1e-5). The step DCS with -hard ends NLPFailure from both starts (3 596
// and 3 558 iterations): the relaxed NLPs at the smallest σ are locally
// infeasible, but the last point (objective 682.75 and 679.97, x(5) =
// x_ref to 1e-15) meets every constraint row, so the diagnosis does not
// confirm the infeasibility its phase-1 MPCC claims (a row violated by
// 1.2 and 3.14; fesd.Infeasibility); the point is not accepted as a
// solution because its complementarity residual, 1.6e-6 and 5.2e-6, is
// above fesd's default tolerance 1e-9. The problem is nonconvex:
// objectives differ between local solutions. The program prints the
// diagnosis of a failed solve.
//
// Outputs in -out (default out/cartpole): trajectory.csv (t, p, θ, v, ω at
// the element boundaries), controls.csv, homotopy.csv, cartpole.png/.svg
// (states and control) and summary.json (objective, terminal error,
// iterations, times).
//
// Usage:
//
//	go run ./examples/cartpole [-out DIR] [-N 20] [-nfe 2] [-dcs step|stewart] [-init linear|rest] [-hard]
package main

import (
	"context"
	"flag"
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
	"github.com/fesd-go/fesd/internal/cartpole"
	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/mpcc"
)

type options struct {
	Out    string
	N, NFE int
	DCS    dcs.Formulation
	Hard   bool
	Init   string // "linear" (x₀ → x_ref) or "rest" (forward simulation with u = 0)
}

func defaultOptions() options {
	return options{Out: "out/cartpole", N: 20, NFE: 2, DCS: dcs.Step, Init: "linear"}
}

type summary struct {
	N, NFE               int
	DCS                  string
	Hard                 bool
	Status               string
	Stationarity         string // mpcc's certified class of the solution
	Objective            float64
	XT                   []float64
	TerminalError        float64 // max |x(T) − x_ref|
	Iterations           int
	HomotopySteps        int
	NumVariables         int
	NumConstraints       int
	NumComplementarities int
	BuildSeconds         float64
	SolveSeconds         float64
	// Rerun is the record of the first homotopy when the solve ran two
	// (fesd.OCPResult.Rerun; null: one run).
	Rerun *fesd.Rerun
}

func run(ctx context.Context, w io.Writer, o options) (*summary, error) {
	if _, err := report.MakeDir(o.Out); err != nil {
		return nil, err
	}
	opts := fesd.Options{DCS: dcs.Options{Formulation: o.DCS}}
	dcsName := strings.ToLower(o.DCS.String())
	x0 := []float64{1, 0, 0, 0}
	xRef := cartpole.XRef
	p := cartpole.Problem(x0, o.N, o.NFE)
	x := p.Model.X
	init := fesd.Start{XInit: cartpole.LinearGuess(x0, o.N)}
	switch o.Init {
	case "linear":
	case "rest":
		init.XInit = nil
	default:
		return nil, fmt.Errorf("unknown -init %q", o.Init)
	}
	if o.Hard {
		var G ad.Vec
		for i := range x {
			G = append(G, x[i].AddConst(-xRef[i]))
		}
		p.Terminal = []fesd.Constraint{{G: G}}
	}
	start := time.Now()
	s, err := fesd.NewOCPSolver(p, opts)
	if err != nil {
		return nil, err
	}
	build := time.Since(start)
	r, err := s.Solve(ctx, init)
	if err != nil {
		return nil, err
	}
	xT := r.Final()
	sum := &summary{
		N: o.N, NFE: o.NFE, DCS: dcsName, Hard: o.Hard,
		Status: r.Status.String(), Stationarity: r.Stationarity.String(), Objective: r.Objective, XT: xT,
		Iterations: r.Iterations, HomotopySteps: len(r.Homotopy),
		NumVariables: r.NumVariables, NumConstraints: r.NumConstraints, NumComplementarities: r.NumComplementarities,
		BuildSeconds: build.Seconds(), SolveSeconds: r.Elapsed.Seconds(), Rerun: r.Rerun,
	}
	for i := range xT {
		sum.TerminalError = math.Max(sum.TerminalError, math.Abs(xT[i]-xRef[i]))
	}
	fmt.Fprintf(w, "cart-pole with friction: N = %d, N_FE = %d, %s DCS, hard terminal %v: n = %d, m = %d, %d complementarities\n",
		o.N, o.NFE, dcsName, o.Hard, r.NumVariables, r.NumConstraints, r.NumComplementarities)
	fmt.Fprintf(w, "status %v (%v), objective %.8g, x(T) = %.6f, terminal error %.2e, complementarity %.1e, %d iterations, build %.2fs, solve %.2fs\n",
		r.Status, r.Stationarity, r.Objective, xT, sum.TerminalError, r.CompResidual, r.Iterations, build.Seconds(), r.Elapsed.Seconds())
	if r.Infeasible != nil {
		fmt.Fprintf(w, "diagnosis: %v\n", r.Infeasible)
	}
	if err := writeOutputs(o.Out, r); err != nil {
		return nil, err
	}
	if err := report.WriteJSON(filepath.Join(o.Out, "summary.json"), sum); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "wrote %s\n", o.Out)
	if r.Status != mpcc.Solved {
		return sum, fmt.Errorf("homotopy ended with status %v", r.Status)
	}
	return sum, nil
}

func writeOutputs(dir string, r *fesd.OCPResult) error {
	names := []string{"p", "theta", "v", "omega"}
	if err := report.WriteTrajectoryCSV(filepath.Join(dir, "trajectory.csv"), "t", names, r.T, r.X); err != nil {
		return err
	}
	if err := report.WriteTrajectoryCSV(filepath.Join(dir, "controls.csv"), "t", []string{"u"}, r.StageT[:len(r.U)], r.U); err != nil {
		return err
	}
	rows := make([][]string, len(r.Homotopy))
	for i, h := range r.Homotopy {
		rows[i] = []string{report.FormatFloat(h.Sigma), report.FormatFloat(h.CompResidual), report.FormatFloat(h.Objective),
			h.Status.String(), fmt.Sprint(h.Iterations), report.FormatFloat(h.Elapsed.Seconds())}
	}
	if err := report.WriteTableCSV(filepath.Join(dir, "homotopy.csv"), []string{"sigma", "comp_res", "objective", "nlp_status", "iterations", "seconds"}, rows); err != nil {
		return err
	}
	var series []report.Series
	for i, n := range names {
		series = append(series, report.Series{Name: n, X: r.T, Y: report.Column(r.X, i)})
	}
	var ut, uv []float64
	for k, u := range r.U {
		ut = append(ut, r.StageT[k], r.StageT[k+1])
		uv = append(uv, u[0]/10, u[0]/10)
	}
	series = append(series, report.Series{Name: "u/10", X: ut, Y: uv, Dashed: true})
	lp := report.LinePlot{Title: "cart-pole swing-up with Coulomb friction", XLabel: "t", YLabel: "state, u/10",
		Series: series, HLines: []float64{math.Pi}}
	pl, err := lp.Plot()
	if err != nil {
		return err
	}
	_, err = report.SavePlot(pl, 0, 0, filepath.Join(dir, "cartpole"))
	return err
}

func main() {
	o := defaultOptions()
	flag.StringVar(&o.Out, "out", o.Out, "output folder")
	flag.IntVar(&o.N, "N", o.N, "control stages")
	flag.IntVar(&o.NFE, "nfe", o.NFE, "finite elements per stage")
	flag.TextVar(&o.DCS, "dcs", o.DCS, "stewart or step")
	flag.StringVar(&o.Init, "init", o.Init, "initial guess: linear (x0 to x_ref) or rest (forward simulation with u = 0)")
	flag.BoolVar(&o.Hard, "hard", o.Hard, "impose x(T) = x_ref as a terminal constraint")
	flag.Parse()
	if _, err := run(context.Background(), os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "cartpole:", err)
		os.Exit(1)
	}
}
