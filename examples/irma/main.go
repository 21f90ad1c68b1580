// Command irma simulates the IRMA gene-regulatory network (004 §7.1; the
// model of nosnoc_py's irma.py with SWITCH_ON = 1, see
// internal/reference.IRMAModel) with FESD in the Heaviside step
// reformulation, in the general form f(x, α):
//
//	ẋ = −γ⊙x + κ¹⊙[1, 1, 1, α₁, 1] + κ²⊙[α₅, α₀, α₂, α₁(1 − α₄), α₃],
//	α_j ∈ γ(ψ_j(x)),  ψ = (x₀ − 0.01, x₁ − 0.01, x₁ − 0.06, x₁ − 0.08,
//	                       x₂ − 0.035, x₃ − 0.04, x₄ − 0.01).
//
// With -lift the product α₁(1 − α₄) is replaced by a user algebraic variable
// β with β − α₁(1 − α₄) = 0 (irma.py's LIFTING).
//
// The default run follows nosnoc_py's irma.py (get_default_options and
// solve_irma): 1000 minutes in N_sim = 500 steps of N_FE = 3 finite
// elements, Radau IIA with n_s = 2,
// heuristic_mean step equilibration — except for the complementarity
// tolerance, 1e-9 instead of nosnoc's 1e-5 (-comptol 1e-5 gives nosnoc's).
// With irma.py's raw switching functions (-rawpsi; see below for the
// default), which are tiny (|ψ| ~ 1e-4…1e-2), so with 1e-5
// the relaxed complementarity leaves α_j ~ 1e-5/|ψ_j| ~ 1e-2 on the wrong
// side: measured on the first 100 minutes, x(100) is off by 2e-3 (1e-8 with
// 1e-9) and the switches come out as spurious sliding episodes 0.04–0.07
// min late. The switch detection's active-set threshold is set to 1e-6 for
// the same reason (fesd's default 10·√CompTol ≈ 3e-4 exceeds |ψ| near the
// switches).
//
// Switching functions: by default ψ_j = x_i/θ_j − 1 instead of irma.py's
// x_i − θ_j (reference.IRMARelativeModel; -rawpsi gives irma.py's). Dividing
// ψ_j by θ_j > 0 leaves the Filippov system and its switch times unchanged
// but scales the multipliers λᵖ_j, λⁿ_j of the step reformulation from
// 1e-4…1e-2 to O(1), so the relaxed complementarities of the homotopy bind
// from σ ≈ 1e-2 on instead of σ ≈ 1e-5. Measured on the step [554.5, 555]
// from the exact state: raw ψ fails (every relaxed NLP from σ = 1e-4 on
// ends Infeasible or at the iteration limit), relative ψ solves it with ≤ 23
// iterations per relaxed NLP.
//
// The run is one fesd.Simulate. Every step starts from fesd's event-driven
// prediction (Simulator.NoPredict unset: element boundaries at the
// predicted switch times, a step with more predicted switches than its
// N_FE − 1 interior element boundaries solved with more elements;
// -nopredict turns it off). fesd.Simulate splits a step whose prediction
// has more switches than N_FE − 1 before it is tried, and one whose solve
// fails, into two half steps, recursively down to T/8
// (fesd.MaxSplitDepth; the split steps are listed in summary.json). The switches are fesd's
// (fesd.SimResult.Switches, detected over the whole trajectory) and are
// matched with the exact event-driven solution of internal/reference
// (IRMAExact).
//
// Measured, default run (1000 minutes, 2-core machine shared with other
// jobs): all 36 exact switches found with no spurious one, x(1000) within
// 8.5e-7 of the exact state, switch times within 3e-4 min except three
// crossings of ψ₆ (3.3e-3 min; α₆ does not enter irma.py's right-hand
// side), 2 758 NLP iterations of which 1 508 in the failed solves of the
// six split steps (66, 103, 277, 444, 450, 451; step 103 down to T/8; the
// 1 250 of the steps kept are the count of the program's own loop before
// fesd.Simulate split steps, which left the failed solves out), 2 s
// (most steps are one NLP on the predicted branch, fesd.StepRecord.Branch;
// with the homotopy from the predicted start for every step it was 69 113
// iterations and 21 s). Without the prediction and with raw ψ (the
// previous default) the run lost the trajectory at t = 195.69 (x(1000) off
// by 8.6e-3).
//
// Output in -out (default out/irma):
//
//	trajectory.csv   t, x0…x4 at every finite-element boundary
//	stages.csv       t, x0…x4 at every Runge–Kutta stage point
//	switches.csv     t, psi, kind of every detected switch
//	reference.csv    t, psi, kind of the exact switches
//	summary.json     settings, timing, final state, switches and their
//	                 distance to the exact ones
//	irma.png/.svg    five panels x_i(t) with thresholds (horizontal) and
//	                 switches (vertical), as 004 Figure 5
//
// Usage:
//
//	go run ./examples/irma [-t0 0] [-tsim 1000] [-nsim 500] [-nfe 3] [-ns 2]
//	                       [-comptol 1e-9] [-lift] [-rawpsi] [-nopredict] [-out out/irma]
//
// 004 is A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, "Finite Elements
// with Switch Detection for Numerical Optimal Control of Nonsmooth Dynamical
// Systems with Set-Valued Heaviside Step Functions", Nonlinear Analysis:
// Hybrid Systems, 2024 (the Papers section of the README lists all papers).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/reference"
	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/rk"
)

// options configures run.
type options struct {
	T0      float64 // start time: the run starts from the exact state x(T0) (0: x₀ of irma.py)
	TSim    float64 // simulated minutes
	NSim    int     // simulation steps
	NFE     int     // finite elements per step
	Stages  int     // Radau IIA stages n_s
	CompTol float64 // complementarity tolerance of the homotopy
	ActTol  float64 // fesd.Options.ActiveSetTol (1e-6 since the first version; no flag)
	Lift    bool    // user lifting β = α₁(1 − α₄)
	// NoPredict starts the steps without the event-driven prediction
	// (fesd.Simulator.NoPredict).
	NoPredict bool
	// RawPsi uses irma.py's switching functions ψ_j = x_i − θ_j instead of
	// the relative ψ_j = x_i/θ_j − 1 (reference.IRMARelativeModel).
	RawPsi bool
	Out    string // output folder ("" writes nothing)
	Plot   bool   // write the figure
}

func defaultOptions() options {
	return options{TSim: 1000, NSim: 500, NFE: 3, Stages: 2, CompTol: 1e-9, ActTol: 1e-6, Out: "out/irma", Plot: true}
}

// switchOut is a detected switch with its distance to the exact one.
type switchOut struct {
	report.Switch
	// RefT is the time of the matching exact switch of the same ψ (NaN
	// encoded as omitted when there is none).
	RefT  *float64 `json:"ref_t,omitempty"`
	Error *float64 `json:"error,omitempty"`
}

// summary is written to summary.json.
type summary struct {
	Model      string  `json:"model"`
	Lift       bool    `json:"lift"`
	T0         float64 `json:"t0"`
	TSim       float64 `json:"tsim"`
	NSim       int     `json:"nsim"`
	NFE        int     `json:"nfe"`
	Scheme     string  `json:"scheme"`
	Stages     int     `json:"ns"`
	CompTol    float64 `json:"comp_tol"`
	Variables  int     `json:"nlp_variables"`
	Elapsed    float64 `json:"elapsed_seconds"`
	Iterations int     `json:"nlp_iterations"`
	Split      []int   `json:"split_steps"`
	// SplitIterations are the NLP iterations of the failed solves of the
	// split steps (included in Iterations).
	SplitIterations int             `json:"split_iterations"`
	TEnd            float64         `json:"t_end"`
	Final           []float64       `json:"x_final"`
	FinalRef        []float64       `json:"x_final_exact"`
	FinalErr        float64         `json:"x_final_error_max"`
	Switches        []switchOut     `json:"switches"`
	Reference       []report.Switch `json:"exact_switches"`
	// MaxSwitchErr is the largest |t − t_ref| over the matched switches;
	// Unmatched counts detected switches without an exact counterpart and
	// Missed exact switches without a detected one.
	MaxSwitchErr float64 `json:"max_switch_time_error"`
	Unmatched    int     `json:"unmatched"`
	Missed       int     `json:"missed"`
}

// result is what run returns.
type result struct {
	Sim     *fesd.SimResult
	Summary summary
	Exact   *reference.PWATrajectory
}

func main() {
	o := defaultOptions()
	flag.Float64Var(&o.T0, "t0", o.T0, "start time; the run starts from the exact state there (minutes)")
	flag.Float64Var(&o.TSim, "tsim", o.TSim, "simulated time (minutes)")
	flag.IntVar(&o.NSim, "nsim", o.NSim, "number of simulation steps")
	flag.IntVar(&o.NFE, "nfe", o.NFE, "finite elements per step")
	flag.IntVar(&o.Stages, "ns", o.Stages, "Radau IIA stages")
	flag.Float64Var(&o.CompTol, "comptol", o.CompTol, "complementarity tolerance")
	flag.BoolVar(&o.Lift, "lift", false, "lift β = α₁(1 − α₄) as a user algebraic variable")
	flag.BoolVar(&o.RawPsi, "rawpsi", false, "use irma.py's raw switching functions x_i − θ_j (default: relative x_i/θ_j − 1)")
	flag.BoolVar(&o.NoPredict, "nopredict", false, "start steps without the event-driven prediction")
	flag.StringVar(&o.Out, "out", o.Out, "output folder")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := run(ctx, os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "irma:", err)
		os.Exit(1)
	}
}

// simOptions are the FESD settings of the run.
func simOptions(o options) fesd.Options {
	return fesd.Options{
		Scheme: rk.FamilyRadauIIA, Stages: o.Stages, NFE: o.NFE,
		StepEquilibration: fesd.HeuristicMean,
		DCS:               dcs.Options{Formulation: dcs.Step},
		MPCC:              mpcc.Settings{CompTol: o.CompTol},
		ActiveSetTol:      o.ActTol,
	}
}

// run simulates, compares with the exact solution, prints a log to w and
// writes the outputs to o.Out. A simulation that stops early (a step
// without a usable solution, or ctx cancelled) still writes what was
// computed and returns the error.
func run(ctx context.Context, w io.Writer, o options) (*result, error) {
	if !(o.T0 >= 0) || math.IsInf(o.T0, 0) || !(o.TSim > 0) || o.NSim < 1 || o.NFE < 1 || o.Stages < 1 || !(o.CompTol > 0) || o.ActTol < 0 {
		return nil, fmt.Errorf("invalid options: tsim %g, nsim %d, nfe %d, ns %d, comptol %g, activetol %g",
			o.TSim, o.NSim, o.NFE, o.Stages, o.CompTol, o.ActTol)
	}
	model, _ := reference.IRMARelativeModel(o.Lift)
	if o.RawPsi {
		model, _ = reference.IRMAModel(o.Lift)
	}
	T := o.TSim / float64(o.NSim)
	sim, err := fesd.NewSimulator(model, simOptions(o), T) // for the sizes only
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "IRMA: %g min, %d steps of %g min, N_FE = %d, Radau IIA n_s = %d, comp tol %.0e, lifting %v\n",
		o.TSim, o.NSim, T, o.NFE, o.Stages, o.CompTol, o.Lift)
	fmt.Fprintf(w, "NLP per step: %d variables, %d constraints, %d complementarities\n",
		sim.NumVariables(), sim.NumConstraints(), sim.NumComplementarities())

	x0 := reference.IRMAX0
	if o.T0 > 0 {
		pre, err := reference.IRMAExact(reference.IRMAX0, o.T0)
		if err != nil {
			return nil, err
		}
		x0 = pre.At(o.T0)
	}
	res, info, simErr := simulate(ctx, w, model, x0, o)
	if res == nil || len(res.X) < 2 {
		return nil, simErr
	}
	tEnd := res.T[len(res.T)-1]
	exact, err := reference.IRMAExact(reference.IRMAX0, tEnd)
	if err != nil {
		return nil, err
	}
	s := summary{
		Model: "IRMA (nosnoc_py irma.py, SWITCH_ON = 1)", Lift: o.Lift, T0: o.T0, TSim: o.TSim, NSim: o.NSim, NFE: o.NFE,
		Scheme: "radau_iia", Stages: o.Stages, CompTol: o.CompTol, Variables: sim.NumVariables(),
		Elapsed: info.Elapsed.Seconds(), Iterations: info.Iterations, Split: report.List(info.Split), SplitIterations: info.SplitIterations,
		TEnd: tEnd, Final: res.Final(), FinalRef: exact.At(tEnd),
	}
	s.FinalErr = maxAbsDiff(s.Final, s.FinalRef)
	for _, e := range exact.Events {
		if e.T <= o.T0 {
			continue
		}
		s.Reference = append(s.Reference, report.Switch{T: e.T, Psi: e.Psi, Kind: e.Kind})
	}
	s.Switches, s.MaxSwitchErr, s.Unmatched, s.Missed = matchSwitches(report.Switches(model, res.Switches), s.Reference, 2*T)
	s.Switches = report.List(s.Switches)

	fmt.Fprintf(w, "\n%d switches (exact: %d)\n%10s %4s %-18s %12s %10s\n", len(s.Switches), len(s.Reference), "t", "ψ", "kind", "exact t", "error")
	for _, sw := range s.Switches {
		if sw.RefT != nil {
			fmt.Fprintf(w, "%10.4f %4d %-18s %12.6f %10.2e\n", sw.T, sw.Psi, sw.Kind, *sw.RefT, *sw.Error)
		} else {
			fmt.Fprintf(w, "%10.4f %4d %-18s %12s %10s\n", sw.T, sw.Psi, sw.Kind, "-", "-")
		}
	}
	fmt.Fprintf(w, "max |t − t_exact| = %.2e, unmatched %d, missed %d\n", s.MaxSwitchErr, s.Unmatched, s.Missed)
	fmt.Fprintf(w, "x(%s) = %.6g, max error vs exact %.2e\n", report.Time(tEnd), s.Final, s.FinalErr)
	fmt.Fprintf(w, "%d NLP iterations, %.1f s; steps: %s\n", info.Iterations, info.Elapsed.Seconds(), report.StepClasses(res.Steps))
	if len(info.Split) > 0 {
		fmt.Fprintf(w, "steps split into halves (more predicted switches than element boundaries, or a failed solve): %v (%d iterations in failed solves)\n", info.Split, info.SplitIterations)
	}
	r := &result{Sim: res, Summary: s, Exact: exact}
	if o.Out != "" {
		if err := write(o, r); err != nil {
			return r, err
		}
		fmt.Fprintf(w, "wrote %s\n", o.Out)
	}
	return r, simErr
}

func maxAbsDiff(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}
