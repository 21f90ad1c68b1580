package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"time"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/internal/rusage"
)

// options configures run.
type options struct {
	Out   string  // output folder
	E     float64 // restitution of the bouncing ball
	Mu    float64 // friction coefficient of the block
	TBall float64 // horizon of the bouncing ball (s)
	NoOCP bool    // leave out the OCP scene
}

func defaultOptions() options {
	return options{Out: "out/impacts", E: 0.9, Mu: 0.3, TBall: 10}
}

// summary is what run returns and writes to summary.json.
type summary struct {
	Ball  *ballSummary  `json:"ball"`
	Block *blockSummary `json:"block"`
	OCP   *ocpSummary   `json:"ocp,omitempty"`
	CPU   float64       `json:"cpu_seconds"`
	Wall  float64       `json:"wall_seconds"`
	Files []string      `json:"files"`

	ball, block *fesd.CLSResult
	ocp         *fesd.OCPResult
}

func main() {
	o, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if report.IsHelp(err) {
			os.Exit(0)
		}
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := run(ctx, os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "impacts:", err)
		os.Exit(1)
	}
}

// parseFlags reads the command line; errors and the usage go to stderr
// (-h gives flag.ErrHelp).
func parseFlags(args []string, stderr io.Writer) (options, error) {
	o := defaultOptions()
	fs := flag.NewFlagSet("impacts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.Out, "out", o.Out, "output directory")
	fs.Float64Var(&o.E, "e", o.E, "restitution coefficient of the bouncing ball, in [0, 1]")
	fs.Float64Var(&o.Mu, "mu", o.Mu, "friction coefficient of the sliding block (> 0)")
	fs.Float64Var(&o.TBall, "T", o.TBall, "horizon of the bouncing ball in seconds (steps of 0.1 s)")
	fs.BoolVar(&o.NoOCP, "noocp", o.NoOCP, "leave out the optimal control scene")
	err := fs.Parse(args)
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected arguments %q", fs.Args())
		fmt.Fprintln(stderr, err)
	}
	return o, err
}

// timed runs f and returns its CPU time (user + system, of the whole
// process) and wall time.
func timed(f func() error) (effort, error) {
	cpu, wall := rusage.CPUTime(), time.Now()
	err := f()
	return effort{CPU: (rusage.CPUTime() - cpu).Seconds(), Wall: time.Since(wall).Seconds()}, err
}

// run plays the three scenes, prints what they show, and writes the files.
// A failed scene is reported and the others still run; the error then
// names it.
func run(ctx context.Context, w io.Writer, o options) (*summary, error) {
	if !(o.E >= 0 && o.E <= 1) {
		return nil, fmt.Errorf("-e %v: the restitution coefficient must be in [0, 1]", o.E)
	}
	if !(o.Mu > 0) || math.IsInf(o.Mu, 0) {
		return nil, fmt.Errorf("-mu %v: the friction coefficient must be positive and finite", o.Mu)
	}
	if !(o.TBall >= ballStep) || math.IsInf(o.TBall, 0) {
		return nil, fmt.Errorf("-T %v: the horizon must be at least one step (%g s)", o.TBall, ballStep)
	}
	if _, err := report.MakeDir(o.Out); err != nil {
		return nil, err
	}
	s := &summary{}
	cpu0, wall0 := rusage.CPUTime(), time.Now()
	var failed []error

	// 1. the bouncing ball
	ex := newBallExact(o.E)
	fmt.Fprintf(w, "Bouncing ball: unit mass dropped from rest at z = 1, g = %g, restitution e = %g, %d steps of %g s × 2 elements (FESD-J, Radau IIA n_s = 2)\n",
		grav, o.E, int(math.Round(o.TBall/ballStep)), ballStep)
	if z := ex.zeno(); !math.IsInf(z, 1) && o.E > 0 {
		fmt.Fprintf(w, "  closed form: impacts at t_k = √(2/g)(1 + 2e + … + 2e^{k−1}), v⁺_k = e^k √(2g), apex e^{2k}; they accumulate at t* = √(2/g)(1 + e)/(1 − e) = %.6f s\n", z)
	}
	tty := report.IsTerminal(w)
	var progress func(float64)
	if tty {
		start := time.Now()
		progress = func(t float64) {
			fmt.Fprintf(w, "\r  t = %6.2f / %g s  %5.1f s", t, o.TBall, time.Since(start).Seconds())
		}
	}
	ball, bs, err := ballScene(ctx, o, progress)
	if tty {
		fmt.Fprint(w, "\r\033[K")
	}
	s.ball, s.Ball = ball, bs
	if err != nil {
		failed = append(failed, fmt.Errorf("bouncing ball: %w", err))
	}
	if bs != nil {
		printBall(w, bs)
	}

	// 2. the sliding block
	bx := newBlockExact(o.Mu, blockVX0)
	fmt.Fprintf(w, "\nSliding block: unit mass from (x, z) = (0, 1) with v = (%g, 0), inelastic landing, Coulomb friction μ = %g, %d steps of %g s\n",
		blockVX0, o.Mu, blockHorizon(bx), blockStep)
	block, ks, err := blockScene(ctx, o)
	s.block, s.Block = block, ks
	if err != nil {
		failed = append(failed, fmt.Errorf("sliding block: %w", err))
	}
	if ks != nil {
		printBlock(w, ks, bx)
	}

	// 3. optimal control
	if !o.NoOCP {
		uEx, obj, _, _ := ocpExact()
		fmt.Fprintf(w, "\nOptimal control (OCP.CLS): the ball with e = %g and a vertical force u, u = 0 on the first %d of %d stages, z(%g) = %g, min ∫u² dt\n",
			ocpE, ocpFixed, ocpN, ocpT, ocpZT)
		r, oc, err := ocpScene(ctx)
		s.ocp, s.OCP = r, oc
		if err != nil {
			failed = append(failed, fmt.Errorf("OCP: %w", err))
		}
		if oc != nil {
			fmt.Fprintf(w, "  %s (%s), complementarity %.1e, infeasibility %.1e; %d NLP iterations, %.2f s CPU\n",
				oc.Status, oc.Stationarity, oc.CompResidual, oc.Infeasibility, oc.Iterations, oc.CPU)
			fmt.Fprintf(w, "  objective %.10f  closed form %.10f  (relative error %.1e)\n", oc.Objective, obj, oc.ObjErr)
			fmt.Fprintf(w, "  u on stages 3, 4 = %.8f, %.8f  closed form %.8f, %.8f  (error %.1e)\n", oc.U[0], oc.U[1], uEx[0], uEx[1], oc.UErr)
			fmt.Fprintf(w, "  %d impact: t = %.10f, v⁺ = %.10f  (error %.1e); z(T) = %.10f\n", oc.Impacts, oc.ImpactT, oc.ImpactVPlus, oc.ImpactErr, oc.ZT)
			if oc.Status != "Solved" {
				failed = append(failed, fmt.Errorf("OCP: status %s", oc.Status))
			}
		}
	}
	s.CPU, s.Wall = (rusage.CPUTime() - cpu0).Seconds(), time.Since(wall0).Seconds()
	files, err := writeOutputs(s, o)
	s.Files = files
	if err != nil {
		failed = append(failed, err)
	}
	fmt.Fprintf(w, "\n%.1f s CPU (%.1f s wall); wrote %d files to %s\n", s.CPU, s.Wall, len(files), o.Out)
	return s, errors.Join(failed...)
}

// printBall prints the impacts of the ball beside the closed form and
// what happened at the accumulation point.
func printBall(w io.Writer, s *ballSummary) {
	fmt.Fprintf(w, "  %3s  %14s %9s  %13s %13s %9s  %11s %9s\n", "k", "t_k", "error", "v⁻", "v⁺", "error", "apex", "error")
	const head, tail = 8, 4
	for i, im := range s.List {
		if i == head && len(s.List) > head+tail+1 {
			fmt.Fprintf(w, "  %3s  (%d more in ball_impacts.csv)\n", "…", len(s.List)-head-tail)
		}
		if i >= head && i < len(s.List)-tail && len(s.List) > head+tail+1 {
			continue
		}
		fmt.Fprintf(w, "  %3d  %14.10f %9.1e  %13.9f %13.9f %9.1e  %11.4e %9.1e\n",
			im.K, im.T, im.TErr, im.VMinus, im.VPlus, im.VErr, im.Apex, im.ApexErr)
	}
	fmt.Fprintf(w, "  %d impacts; the first %d within 1e-9 of the closed form in time, velocity and apex; largest errors %.1e (time), %.1e (velocity), %.1e (apex)\n",
		s.Impacts, s.Within1e9, s.MaxTErr, s.MaxVErr, s.MaxApexErr)
	if n := s.Within1e9; n < s.Impacts && s.ZenoTime > 0 {
		fmt.Fprintf(w, "  Impacts %d to %d come within %.2f s of t*, where some steps keep the homotopy's point (errors of order √σ)\n  instead of the exact point of the active-set finish (fesd.CLSFinish).\n",
			n+1, s.Impacts, s.List[n].ToZeno)
	}
	fmt.Fprintf(w, "  %s\n", s.effort.line())
	switch {
	case s.ZenoTime > 0 && s.T > s.ZenoTime && s.Impacts > 0:
		fmt.Fprintf(w, "  At the accumulation point: the closed form has infinitely many impacts before t* = %.6f and rests from t* on.\n", s.ZenoTime)
		fmt.Fprintf(w, "  FESD-J resolves them one by one, each on an element boundary, up to impact %d at t = %.6f. The rest of the sequence\n", s.Impacts, s.LastImpact)
		fmt.Fprintf(w, "  (%.2e s of bounces at most %.1e m high) is not resolved.\n ", s.Unresolved, s.UnresolvedHeight)
		restingAt(w, s)
		fmt.Fprintf(w, "  |x(T) − closed form| = %.1e.\n", s.FinalErr)
	case s.ZenoTime > 0 && s.Impacts > 0:
		fmt.Fprintf(w, "  The impacts accumulate at t* = %.6f, after the horizon (-T %g); |x(T) − closed form| = %.1e.\n", s.ZenoTime, s.T, s.FinalErr)
	case s.E == 0 && s.Impacts > 0:
		fmt.Fprintf(w, "  e = 0: the impact stops the ball (v⁺ = 0).\n ")
		restingAt(w, s)
		fmt.Fprintf(w, "  |x(T) − closed form| = %.1e.\n", s.FinalErr)
	default:
		fmt.Fprintf(w, "  |x(T) − closed form| = %.1e.\n", s.FinalErr)
	}
}

// restingAt prints how the ball comes to rest after its last impact.
func restingAt(w io.Writer, s *ballSummary) {
	if len(s.AfterLast) == 2 {
		fmt.Fprintf(w, " On the element after the last impact, [%.6f, %.6f], the contact mode is %q", s.AfterLast[0], s.AfterLast[1], s.AfterLastMode)
		if s.AfterLastMode == "closed" && s.VPlusLast() > 1e-9 {
			fmt.Fprintf(w, " (the gap closed\n  at its stage points): there the contact force, not an impulse, takes out the last velocity v⁺_%d = %.2e.", s.Impacts, s.VPlusLast())
		} else {
			fmt.Fprintf(w, ".")
		}
	}
	if s.RestFrom < 0 {
		fmt.Fprintf(w, "\n  The ball does not come to rest by t = %g.\n", s.T)
		return
	}
	fmt.Fprintf(w, "\n  The ball rests on the ground (|z|, |v| ≤ %.0e) at every element boundary from t = %.4f on", math.Max(s.RestErr, 1e-16), s.RestFrom)
	if s.ZenoTime > 0 {
		if d := s.RestFrom - s.ZenoTime; d >= 0 {
			fmt.Fprintf(w, ", %.4f s after t*", d)
		} else {
			fmt.Fprintf(w, ", %.4f s before t*", -d)
		}
	}
	fmt.Fprintln(w, ".")
}

// printBlock prints the landing and the stop of the block beside the
// closed form.
func printBlock(w io.Writer, s *blockSummary, ex blockExact) {
	for _, ev := range s.Events {
		fmt.Fprintf(w, "  %-8s at t = %.10f  (%s → %s)\n", ev.Kind, ev.T, ev.Before, ev.After)
	}
	if s.FoundLandingOK {
		fmt.Fprintf(w, "  landing at t = %.10f  closed form √(2/g) = %.10f; Λ_n = %.10f (√(2g) = %.10f); v_x after = %.10f (v₀ − μ√(2g) = %.10f): error %.1e\n",
			s.Landing, ex.t1, s.Impulse, ex.lam, s.VxAfter, ex.v1, s.LandingErr)
	} else {
		fmt.Fprintf(w, "  no landing found\n")
	}
	if s.FoundStopOK {
		fmt.Fprintf(w, "  stops at t = %.10f, x = %.10f  closed form t₁ + v₁/(μg) = %.10f, x = %.10f: error %.1e\n",
			s.Stop, s.XStop, ex.ts, ex.xs, s.StopErr)
	} else {
		fmt.Fprintf(w, "  no stop found (closed form: t = %.6f)\n", ex.ts)
	}
	fmt.Fprintf(w, "  largest state error at the element boundaries %.1e; %s\n", s.MaxStateErr, s.effort.line())
}
