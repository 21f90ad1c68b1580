// Command hopper solves the hopping-robot OCP of nosnoc_py
// (examples/hopper_robot/hopper_ocp.py, Stewart, "dense", and
// hopper_ocp_step.py, Heaviside step, "sparse", run by stage_experiment.py,
// all in github.com/nosnoc/nosnoc_py; time freezing as in 004 §7.2): a
// planar body with a prismatic leg hops from x = 0.1 to
// x_goal over ground with friction. Impacts are made continuous by
// nosnoc_py's hand-crafted inelastic time freezing.
//
// # Model (package internal/hopper, shared with bench/ocp)
//
// x = (q, v, t) ∈ R⁹ with q = (x, y, θ, r) (body position, orientation,
// leg length) and the clock t; u = (u₁, u₂, u₃, s): body torque, leg force,
// a slack (only in the cost, as in nosnoc_py) and the speed of time s.
//
//	M = diag(m_b + m_l, m_b + m_l, I_b + I_l, m_l) = diag(1.1, 1.1, 0.275, 0.1)
//	f_v = −(0, 1.1·9.81, 0, 0) + B(q)(u₁, u₂),  B = [[0, −sin θ], [0, cos θ], [1, 0], [0, 1]]
//	f_c = y − r cos θ (foot height),  J_n = (0, 1, r sin θ, −cos θ),  J_t = (1, 0, r cos θ, sin θ)
//	f_ode = s·(v, M⁻¹f_v, 1),  f_aux± = (0, M⁻¹(J_n ∓ μJ_t)a_n, 0),  μ = 0.45, a_n = 100
//
// The PSS has ψ = (f_c, v_n, v_t) = (f_c, J_nᵀv, J_tᵀv) and the sign matrix
// S of hopper_ocp.py (8 base sets): f_ode on {f_c > 0} ∪ {f_c < 0, v_n >
// 0}, f_aux+ on {f_c < 0, v_n < 0, v_t > 0}, f_aux− on {f_c < 0, v_n < 0,
// v_t < 0}; there the clock stops (time freezing) while the auxiliary
// dynamics remove the normal velocity (an inelastic impact with Coulomb
// friction). Only f_ode is scaled by s (nosnoc_py; MATLAB scales all).
//
//   - -dcs stewart: one dcs.Subsystem with the 8-row S and the modes
//     (f_ode ×6, f_aux+, f_aux−): θ, λ ∈ R⁸, μ ∈ R.
//   - -dcs step: general steps α ∈ Γ(ψ) (Model.AddStep), the lifted
//     algebraic β − (1 − α₁)(1 − α₂) = 0 (Model.AddAlgebraic) and
//     ẋ = θ₁ f_ode + θ₂ f_aux+ + θ₃ f_aux− with θ = (1 − β, βα₃, β(1 − α₃)).
//
// nosnoc_py's hopper_ocp_step.py (its lifted g_z) writes θ₁ = α₁ + β.
// That is not the Heaviside form of its own S: at α = (0, 0, ·) (foot below
// the ground and moving down) it gives θ₁ = 1 and θ₂ + θ₃ = 1, free flight
// *plus* the impact dynamics, and at α = (0, 1, ·) (below the ground,
// moving up) θ = 0, no motion at all. We use θ₁ = 1 − β = α₁ + (1 − α₁)α₂
// (the time-freezing θ of 004 §7.2 and of nosnoc's
// +nosnoc/+time_freezing/cls_inelastic_multicontact.m), so that the two
// formulations are the same PSS:
// internal/hopper's TestRHSRegions checks both against the formulas above in every region.
//
// # OCP (internal/hopper: hopper.Task, hopper.Model.OCP; this example's
// homotopy and inner-solver settings in ocp.go)
//
// x₀ = (0.1, 0.5, 0, 0.5, 0, 0, 0, 0, t = 0) (foot on the ground), x_end =
// (x_goal, 0.5, 0, 0.5, 0, …). Cost, integrated with the Radau quadrature
// of every finite element:
//
//	∫ s·((x − x_ref,k)ᵀQ(x − x_ref,k) + u₁₋₃ᵀRu₁₋₃) dτ + (x(T) − x_end)ᵀQ_T(x(T) − x_end)
//	Q = diag(100, 100, 20, 50, 0.1·I₄), Q_T = diag(300·I₄, 0.1·I₄), R = diag(0.01, 0.01, 1e-5)
//
// with x_ref,k a parameter per stage (nosnoc_py's p_time_var; OCP.PStage):
// the multijump reference of nosnoc_py, round(x_goal − 0.1) hops, each the
// scipy CubicSpline (for three points the parabola) through its start, a
// mid point (·, HEIGHT = 1.0, 0, leg 0.1, 0, …) and its end, sampled at
// ⌊N/hops⌋ stages. Bounds: x ∈ [0, x_goal + 0.1], y ∈ [0, 1.5], θ ∈ [−π, π],
// r ∈ [0.1, 0.5], |v_xy| ≤ 10, |ω|, |ṙ| ≤ 5 at every point of the grid;
// u₁, u₂ ∈ [−50, 50], u₃ ∈ [0, 100], s ∈ [0.1, 20]. Clock (nosnoc_py's
// time_freezing = True): |t(end of stage k) − (k+1)T/N| ≤ 1e-3. States
// start at the reference (stage_experiment.py: ref_as_init = True),
// u = (0, 0, 0, 1).
//
// No slip: nosnoc_py's g_path_comp = ((v_t, θ_c), (−v_t, θ_c)), θ_c the
// weight of the frozen modes (θ₇ + θ₈, or β), becomes the Scholtes pair
// |v_t θ_c| ≤ σ at every RK stage point. fesd.PathComp needs nonnegative
// sides, so we write |v_t| with multipliers the DCS already has: Step
// λᵖ₃ + λⁿ₃ (= max(v_t, 0) + max(−v_t, 0)), Stewart λ₇ + λ₈ (= 2|v_t|
// wherever θ₇ + θ₈ > 0, from λ₇ − λ₈ = −2v_t). The pair (that sum, θ_c) at
// every stage point has the same solutions at σ = 0 (internal/hopper's
// TestNoSlipSides).
//
// Discretization and homotopy (nosnoc_py's options): Radau IIA n_s = 2,
// N_FE = 3, FESD with heuristic_mean step equilibration (ρ_h = 1, γ_h = 1),
// cross complementarity STAGE_FE (nosnoc_py's default at the time,
// SUM_LAMBDAS_COMPLEMENT_WITH_EVERY_THETA), Scholtes inequality relaxation
// σ₀ = 100, κ = 0.1, complementarity tolerance 1e-9, inner tolerance
// 0.01·comp_tol (nosnoc_py's IPOPT tol) with acceptable_tol 1e-6 and 4000
// iterations. nosnoc_py stops after max_iter_homotopy = 6 NLPs (σ = 1e-3);
// we go on down to the tolerance (-max-steps 6 reproduces the cut). The
// inner solver is package nlp with mpcc's defaults for everything else
// (inertia policy, watchdog, pivoting): no setting is tuned for the hopper.
//
// Outputs in -out (default out/hopper): trajectory.csv (every element
// boundary and stage point in physical time t = clock, with τ, the foot
// position, v_n and v_t), controls.csv (u and s per stage with its physical
// and numerical start and end), summary.json (status, objective,
// nlp_iterations, wall_seconds, terminal position error |q(T) − q_end|,
// max foot penetration max(0, −f_c), flight phases, slip in contact,
// complementarity and clock errors), states.png, controls.png, frames.png.
//
// # Measured results (package nlp as the inner solver, idle 2-core machine)
//
// Standing still (N = 4, T = 0.4, goal = start, constant reference; the
// test TestStandSmall, under a second): Step Solved, 99 NLP iterations, 7
// homotopy steps, 0.1 s; Stewart Solved, 137 iterations, 7 steps, 0.4 s;
// both objective 0.121381, complementarity 0 (mpcc's active-set finish
// certifies a branch point), foot penetration ≤ 4.4e-12, |q(T) − q_end| =
// 1.4e-3.
//
// One small hop (-N 10 -T 1 -goal 0.3, Step): not solved. The homotopy
// stops after 11 steps and 7 471 iterations (22 s in all) at
// complementarity 4.3e-6 with one flight phase, |q(T) − q_end| = 0.017 and
// |v(T)| = 0.72, objective 17.09; the relaxed NLPs at the smallest σ end
// NumericalError or locally infeasible. The diagnosis of the
// infeasibility (a phase-1 MPCC, fesd.Infeasibility) claims a row
// violated by 0.065, but the homotopy's last point meets every row to
// 1.4e-6, so the status is NLPFailure, "infeasibility not confirmed"; the
// program prints the diagnosis. (Before the relaxed NLPs' warm starts
// kept their point to 1e-6 instead of IPOPT's 1e-3, 2026-11-26, the run
// ended after 2 593 iterations with no flight phase, |q(T) − q_end| =
// 0.11, and the phase-1 point met every group.)
//
// Full size (stage_experiment.py: x_goal = 3, T = 5, N = 60, Step; NLP
// with n = 10 686 variables, m = 10 740 constraints, 2 520 relaxed
// complementarity terms, the defaults of this program): not solved.
// Measured 2026-11-26 (one run, 2-core machine shared with another job):
// NLPFailure after 10 homotopy steps, 9 878 iterations and 245 s, at
// complementarity 4.0e-5 and objective 132.95 with six flight phases,
// |q(T) − q_end| = 0.17 and |v(T)| = 1.1. The relaxed NLPs solve down to
// σ = 1e-3 (619–1 407 iterations each from σ = 0.1 on); σ = 1e-4 ends
// NumericalError, σ = 1e-5 at the iteration limit (4 800 with the retry),
// and σ = 1e-6 and 1e-7 locally infeasible, which the diagnosis does not
// confirm (the last point meets every row to 1.8e-5). The same problem is
// a row of bench/ocp.
//
// Usage:
//
//	go run ./examples/hopper [-N 60] [-T 5] [-goal 3] [-dcs step|stewart] [-comp-tol 1e-9]
//	                         [-max-steps 0] [-timeout 10m] [-out DIR] [-v]
//
// 004 is A. Nurkanović, A. Pozharskiy, J. Frey, M. Diehl, "Finite Elements
// with Switch Detection for Numerical Optimal Control of Nonsmooth Dynamical
// Systems with Set-Valued Heaviside Step Functions", Nonlinear Analysis:
// Hybrid Systems, 2024 (the Papers section of the README lists all papers).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/mpcc"
)

func main() {
	if err := runMain(context.Background(), os.Args[1:], os.Stdout); err != nil {
		if report.IsHelp(err) {
			return // -h: the usage is printed
		}
		fmt.Fprintln(os.Stderr, "hopper:", err)
		os.Exit(1)
	}
}

func runMain(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("hopper", flag.ContinueOnError)
	fs.SetOutput(stdout)
	c := defaultConfig()
	fs.IntVar(&c.N, "N", c.N, "number of control stages")
	fs.Float64Var(&c.T, "T", c.T, "horizon [s]")
	fs.Float64Var(&c.Goal, "goal", c.Goal, "final body position x_goal [m]")
	fs.TextVar(&c.Form, "dcs", c.Form, "DCS formulation: step (Heaviside) or stewart")
	fs.Float64Var(&c.CompTol, "comp-tol", c.CompTol, "complementarity tolerance")
	fs.IntVar(&c.MaxSteps, "max-steps", c.MaxSteps, "homotopy steps (0: down to the tolerance; nosnoc_py: 6)")
	timeout := fs.Duration("timeout", 0, "stop the solve after this long (0: no limit)")
	out := fs.String("out", "out/hopper", "output folder")
	verbose := fs.Bool("v", false, "print the homotopy log on stdout (on a terminal it goes to stderr without -v)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *verbose {
		c.Log = stdout
	} else if report.IsTerminal(os.Stderr) {
		// progress on a terminal: a line per relaxed NLP (σ, residual,
		// objective, status, iterations, time)
		c.Log = os.Stderr
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	_, err := solveAndWrite(ctx, c, *out, stdout)
	return err
}

// solveAndWrite solves one OCP, writes its outputs into dir and prints a
// summary line. A homotopy that does not reach Solved is reported in the
// summary (status), not as an error.
func solveAndWrite(ctx context.Context, c config, dir string, stdout io.Writer) (summary, error) {
	if err := c.validate(); err != nil {
		return summary{}, err
	}
	fmt.Fprintf(stdout, "hopper: N=%d T=%g goal=%g dcs=%s cross=%s σ₀=%g κ=%g comp_tol=%g init_ref=%v\n",
		c.N, c.T, c.Goal, c.Form, c.Cross, c.Sigma0, c.Kappa, c.CompTol, c.InitRef)
	t0 := time.Now()
	r, h, err := run(ctx, c)
	wall := time.Since(t0)
	if r == nil {
		return summary{}, err
	}
	a := analyse(r)
	s := summarize(c, r, h, a, wall)
	if werr := writeRun(dir, c, r, a, s); werr != nil {
		return s, werr
	}
	fmt.Fprintf(stdout, "status=%s class=%s obj=%.6g iters=%d steps=%d wall=%.1fs |q(T)−q_end|=%.2e |v(T)|=%.2e flights=%d penetration=%.1e slip=%.1e comp=%.1e clock_err=%.1e\n",
		s.Status, s.Stationarity, s.Objective, s.NLPIterations, s.HomotopySteps, s.WallSeconds, s.TerminalPositionError, s.TerminalVelocityNorm,
		s.FlightPhases, s.MaxPenetration, s.MaxSlip, s.CompResidual, s.ClockError)
	if r.Infeasible != nil {
		fmt.Fprintf(stdout, "diagnosis: %v\n", r.Infeasible)
	}
	if f := r.Feasible; f != nil {
		fmt.Fprintf(stdout, "the diagnosis found a trajectory within the constraints (not optimized): objective %.6g, violation %.1e, complementarity %.1e\n",
			f.Objective, f.Infeasibility, f.CompResidual)
	}
	fmt.Fprintf(stdout, "physical validity: %v\n", r.Validity)
	fmt.Fprintf(stdout, "wrote %s\n", dir)
	if err == nil && (r.Status != mpcc.Solved || (r.Validity != nil && !r.Validity.Valid)) {
		err = fmt.Errorf("%w: status %v, %v", errInvalid, r.Status, r.Validity)
	}
	return s, err
}

// errInvalid is the error of a run whose result is not a valid solution:
// not Solved, or not physically valid (its files are written; the program
// exits with status 1).
var errInvalid = errors.New("hopper: no valid solution")
