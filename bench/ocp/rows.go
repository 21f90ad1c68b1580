package main

import (
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/cartpole"
	"github.com/fesd-go/fesd/internal/hopper"
	"github.com/fesd-go/fesd/internal/monopod"
	"github.com/fesd-go/fesd/internal/tutorial"
	"github.com/fesd-go/fesd/mpcc"
)

// row is one OCP of the benchmark: the problem as its source states it
// (model, horizon, costs, constraints, discretization, the initial guess
// the source gives) and nothing else; the solver settings are fesd's
// defaults, except where the source fixes its homotopy (the monopod's
// paper settings, returned by internal/monopod with the OCP).
type row struct {
	name string
	// family groups rows for the Figure 10 plot (monopod rows: "Step",
	// "Stewart"); N is their number of stages.
	family string
	N      int
	// quick rows run with -quick.
	quick bool
	build func() (*fesd.OCP, fesd.Options, fesd.Start, error)
	// terminal returns the terminal error of a result (NaN: not
	// meaningful for the row).
	terminal func(r *fesd.OCPResult) float64
	// infeasible marks a row whose OCP cannot be met: it meets the bar
	// when it ends mpcc.Infeasible with this constraint group first in
	// the diagnosis.
	infeasible *fesd.ConstraintGroup
}

// rows lists the benchmark.
func rows() []row {
	out := []row{
		{name: "turbo car (time-optimal, N = 10, v ≤ 25)", quick: true, build: turboCar, terminal: func(r *fesd.OCPResult) float64 {
			x := r.Final()
			return math.Hypot(x[0]-200, x[1])
		}},
		{name: "sliding-mode OCP (N = 6, Stewart)", quick: true, build: slidingOCP, terminal: func(r *fesd.OCPResult) float64 {
			x := r.Final()
			return math.Max(math.Abs(x[0]+math.Pi/6), math.Abs(x[1]+math.Pi/4))
		}},
		{name: "cart-pole with friction (N = 20)", quick: true, build: cartPole, terminal: func(r *fesd.OCPResult) float64 {
			x := r.Final()
			e := 0.0
			for i := range x {
				e = math.Max(e, math.Abs(x[i]-cartpole.XRef[i]))
			}
			return e
		}},
		{name: "motor with friction (N = 30, u ≤ 5 V)", quick: true, build: motorFriction, terminal: terminalMax(motorTarget)},
		{name: "car with gears and brake (N = 30, q(T) = 500)", quick: true, build: gearCar, terminal: terminalMax(gearCarTarget)},
		{name: "three carts (time freezing, N = 20)", build: threeCarts, terminal: terminalMax(threeCartsRef)},
		{name: "hopper N = 60 Step (x_goal = 3, T = 5)", build: hopperOCP, terminal: func(r *fesd.OCPResult) float64 {
			return terminalMax(hopper.StageExperiment(hopperN).XEnd())(r)
		}},
	}
	for _, form := range []dcs.Formulation{dcs.Step, dcs.Stewart} {
		for n := 30; n <= 90; n += 10 {
			out = append(out, row{
				name: "monopod N = " + itoa(n) + " " + form.String(), family: form.String(), N: n,
				quick: n == 30 && form == dcs.Step,
				build: func() (*fesd.OCP, fesd.Options, fesd.Start, error) { return monopodOCP(n, form) },
				terminal: func(r *fesd.OCPResult) float64 {
					x := r.Final()
					q := monopod.PaperTask(n).XTarget()
					e := 0.0
					for i := 0; i < 8; i++ {
						e = math.Max(e, math.Abs(x[i]-q[i]))
					}
					return e
				},
			})
		}
	}
	terminal := fesd.GroupTerminal
	out = append(out, row{
		name:  "monopod N = 30 Step, unreachable target (1 000 m in 3 s, terminal box 1e-3)",
		build: monopodUnreachable, infeasible: &terminal,
		terminal: func(r *fesd.OCPResult) float64 { return math.NaN() },
	})
	return out
}

// monopodUnreachable is the monopod OCP with q* 1 000 m ahead and the
// terminal box |x(T) − x*| ≤ 1e-3 on q and v: at |v| ≤ 100 (stage ends)
// the robot covers about 300 m in T = 3 s at most, so the OCP is
// infeasible, which the benchmark expects to be reported as such, naming
// the terminal constraints.
func monopodUnreachable() (*fesd.OCP, fesd.Options, fesd.Start, error) {
	m, err := monopod.New(dcs.Step, 0)
	if err != nil {
		return nil, fesd.Options{}, fesd.Start{}, err
	}
	task := monopod.Task{N: 30, T: 3, Distance: 1000}
	p, opts, err := m.OCP(task, monopod.Discretization{})
	if err != nil {
		return nil, opts, fesd.Start{}, err
	}
	xT := task.XTarget()
	var g ad.Vec
	var lo, hi []float64
	for i := 0; i < 8; i++ {
		g = append(g, m.TF.Model.X[i])
		lo, hi = append(lo, xT[i]-1e-3), append(hi, xT[i]+1e-3)
	}
	p.Terminal = append(p.Terminal, fesd.Constraint{G: g, L: lo, U: hi})
	return p, opts, fesd.Start{}, nil
}

func itoa(n int) string {
	b := []byte{}
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	if len(b) == 0 {
		return "0"
	}
	return string(b)
}

// turboCar is nosnoc's time-optimal turbo car (examples/turbocar, fesd's
// ExampleOCP) with the speed limit v ≤ 25 at the stage ends and the
// tutorial's bang-bang initial control.
func turboCar() (*fesd.OCP, fesd.Options, fesd.Start, error) {
	m, x, _ := tutorial.TurboCar()
	n := 10
	ui := make([][]float64, n)
	for k := range ui {
		switch {
		case 10*k < 3*n:
			ui[k] = []float64{5}
		case 10*k >= 7*n:
			ui[k] = []float64{-5}
		default:
			ui[k] = []float64{0}
		}
	}
	p := &fesd.OCP{
		Model: m, X0: []float64{0, 0}, N: n, T: 10, NFE: []int{3},
		TimeOptimal: true,
		UL:          []float64{-5}, UU: []float64{5},
		XL: []float64{math.Inf(-1), -25}, XU: []float64{math.Inf(1), 25},
		Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-200), x[1]}}},
	}
	return p, fesd.Options{DCS: dcs.Options{Formulation: dcs.Step}}, fesd.Start{UInit: ui}, nil
}

// slidingOCP is the sliding-mode OCP of 004 §7 / nosnoc's sliding-mode
// example (examples/slidingocp): two switching surfaces, a terminal
// state on their intersection, N = 6 stages of 6 elements.
func slidingOCP() (*fesd.OCP, fesd.Options, fesd.Start, error) {
	m, x := tutorial.SlidingMode()
	tgt := tutorial.SlidingModeTarget
	p := &fesd.OCP{
		Model: m, X0: []float64{2 * math.Pi / 3, math.Pi / 3, 0, 0},
		N: 6, T: 4, NFE: []int{6},
		UL: []float64{-10, -10}, UU: []float64{10, 10},
		Lagrange: ad.Sq(x[2]).Add(ad.Sq(x[3])),
		Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-tgt[0]), x[1].AddConst(-tgt[1])}}},
	}
	opts := fesd.Options{Stages: 2, DCS: dcs.Options{Formulation: dcs.Stewart}, CrossComp: fesd.FEFE}
	return p, opts, fesd.Start{}, nil
}

// cartPole is nosnoc_py's cart-pole swing-up with Coulomb friction on the
// cart (internal/cartpole), from the hanging pole at p = 1, with the
// straight-line state guess of the example.
func cartPole() (*fesd.OCP, fesd.Options, fesd.Start, error) {
	x0 := []float64{1, 0, 0, 0}
	p := cartpole.Problem(x0, 20, 2)
	return p, fesd.Options{DCS: dcs.Options{Formulation: dcs.Step}}, fesd.Start{XInit: cartpole.LinearGuess(x0, 20)}, nil
}

// monopodOCP is the monopod of 004 §7.2 with the paper's discretization
// and homotopy (internal/monopod Model.OCP) and the default start.
func monopodOCP(n int, form dcs.Formulation) (*fesd.OCP, fesd.Options, fesd.Start, error) {
	m, err := monopod.New(form, 0)
	if err != nil {
		return nil, fesd.Options{}, fesd.Start{}, err
	}
	p, opts, err := m.OCP(monopod.PaperTask(n), monopod.Discretization{})
	return p, opts, fesd.Start{}, err
}

// terminalMax returns the terminal error max_i |x_i(T) − target_i| over
// the components of target.
func terminalMax(target []float64) func(r *fesd.OCPResult) float64 {
	return func(r *fesd.OCPResult) float64 {
		x := r.Final()
		e := 0.0
		for i, t := range target {
			e = math.Max(e, math.Abs(x[i]-t))
		}
		return e
	}
}

// hopperN is the number of stages of the hopper row: the smallest of
// stage_experiment.py's N_EXPR = 60, 66, …, 108.
const hopperN = 60

// hopperOCP is nosnoc_py's hopping robot at full size
// (examples/hopper_robot/stage_experiment.py: hopper_ocp_step.py, the
// Heaviside step "sparse" formulation with the lifted β, x_goal = 3, T = 5,
// N = 60, multijump reference, states started at the reference) with the
// source's discretization and homotopy (σ₀ = 100, κ = 0.1, comp_tol 1e-9;
// internal/hopper Model.OCP). The source's inner-solver settings and its
// cut after max_iter_homotopy = 6 relaxed NLPs are not carried over, nor
// the tuned solver settings of examples/hopper.
func hopperOCP() (*fesd.OCP, fesd.Options, fesd.Start, error) {
	m, err := hopper.New(dcs.Step)
	if err != nil {
		return nil, fesd.Options{}, fesd.Start{}, err
	}
	t := hopper.StageExperiment(hopperN)
	p, opts, err := m.OCP(t)
	return p, opts, t.Start(true), err
}

// motorTarget is X_TARGET of motor_with_friction_ocp.py: both masses
// moved by 1 cm, at rest, no current.
var motorTarget = []float64{0.01, 0, 0.01, 0, 0}

// motorFriction is nosnoc_py's linear motor with guide friction
// (examples/motor_with_friction/motor_with_friction_ocp.py): x = (x₁, v₁,
// x₂, v₂, I), slide mass m₁ = 1.03 and load mass m₂ = 0.56 coupled by a
// spring k = 2.4e3 N/m (no damping), the coil current I with R = 2 Ω,
// L = 2e-3 H, force and back-EMF constants K_F = K_S = 12, and the guide's
// Coulomb friction F_R = 2.1 N on the slide (Filippov, ψ = v₁):
//
//	ẋ₁ = v₁,  v̇₁ = (k(x₂ − x₁) + K_F I ∓ F_R)/m₁,  ẋ₂ = v₂,  v̇₂ = k(x₁ − x₂)/m₂,
//	İ = (u − K_S v₁ − R I)/L,  for v₁ ≷ 0.
//
// From rest at 0, the voltage |u| ≤ 5 moves both masses to 1 cm at rest in
// T = 0.08 s (terminal equality), minimizing ∫u². The source's options:
// Stewart, Radau IIA n_s = 2, N = 30 stages of N_FE = 2, cross
// complementarity SUM_LAMBDAS_COMPLEMENT_WITH_EVERY_THETA (STAGE_FE),
// step equilibration L2_RELAXED_SCALED, comp_tol 1e-6, κ = 0.1 (σ₀ = 1);
// no initial guess (u = 0, states at x₀).
func motorFriction() (*fesd.OCP, fesd.Options, fesd.Start, error) {
	const (
		m1, m2, k = 1.03, 0.56, 2.4e3
		uMax      = 5.0
		res, ind  = 2.0, 2e-3
		kF, kS    = 12.0, 12.0
		fR        = 2.1
	)
	g := ad.NewGraph()
	x := g.SymVec("x", 5)
	u := g.SymVec("u", 1)
	x1, v1, x2, v2, cur := x[0], x[1], x[2], x[3], x[4]
	spring := x2.Sub(x1).Scale(k)
	base := ad.Vec{
		v1,
		spring.Add(cur.Scale(kF)).Scale(1 / m1),
		v2,
		spring.Scale(-1 / m2),
		u[0].Sub(v1.Scale(kS)).Sub(cur.Scale(res)).Scale(1 / ind),
	}
	mode := func(fric float64) ad.Vec {
		f := append(ad.Vec{}, base...)
		f[1] = f[1].AddConst(fric / m1)
		return f
	}
	m := dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{v1},
		S:   [][]int{{1}, {-1}},
		F:   []ad.Vec{mode(-fR), mode(fR)},
	})
	term := make(ad.Vec, 5)
	for i := range term {
		term[i] = x[i].AddConst(-motorTarget[i])
	}
	p := &fesd.OCP{
		Model: m, X0: make([]float64, 5), N: 30, T: 0.08, NFE: []int{2},
		UL: []float64{-uMax}, UU: []float64{uMax},
		Lagrange: ad.Sq(u[0]),
		Terminal: []fesd.Constraint{{G: term}},
	}
	opts := fesd.Options{
		Stages: 2, CrossComp: fesd.StageFE, StepEquilibration: fesd.L2RelaxedScaled,
		DCS:  dcs.Options{Formulation: dcs.Stewart},
		MPCC: mpcc.Settings{CompTol: 1e-6, Kappa: 0.1},
	}
	return p, opts, fesd.Start{}, nil
}

// gearCarTarget is X_TARGET of car_control_complementarity.py.
var gearCarTarget = []float64{500, 0}

// gearCar is nosnoc_py's car with two gears and a brake
// (examples/car_control_complementarity/car_control_complementarity.py):
// x = (q, v), u = (u_a, u_b) ∈ [0, 1]² throttle and brake, q̇ = v and
//
//	v̇ = k₁u_a − k_b u_b  (v < 15),   v̇ = k₂u_a − k_b u_b  (v > 15),
//
// k₁ = 5, k₂ = 3, k_b = 5 (a Filippov system with ψ = v − 15), with the
// path complementarity 0 ≤ u_a ⊥ u_b ≥ 0 once per control stage (no
// throttle while braking; nosnoc_py's g_path_comp on controls only, a
// control-stage complementarity). From rest at q = 0 to q = 500 at rest
// in T = 30 s (terminal equality), minimizing ∫(u_a² + u_b²); the mean
// speed 50/3 > 15 forces the switch to the second gear. The source's
// options: Stewart, Radau IIA n_s = 2, N = 30 stages of N_FE = 2, cross
// complementarity STAGE_FE (nosnoc_py's default), step equilibration
// L2_RELAXED_SCALED, comp_tol 1e-6, κ = 0.1 (σ₀ = 1); no initial guess.
func gearCar() (*fesd.OCP, fesd.Options, fesd.Start, error) {
	const k1, k2, kb = 5.0, 3.0, 5.0
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	u := g.SymVec("u", 2)
	m := dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[1].AddConst(-15)},
		S:   [][]int{{-1}, {1}},
		F: []ad.Vec{
			{x[1], u[0].Scale(k1).Sub(u[1].Scale(kb))},
			{x[1], u[0].Scale(k2).Sub(u[1].Scale(kb))},
		},
	})
	p := &fesd.OCP{
		Model: m, X0: []float64{0, 0}, N: 30, T: 30, NFE: []int{2},
		UL: []float64{0, 0}, UU: []float64{1, 1},
		Lagrange:  ad.Sq(u[0]).Add(ad.Sq(u[1])),
		Terminal:  []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-gearCarTarget[0]), x[1].AddConst(-gearCarTarget[1])}}},
		PathComps: []fesd.PathComp{{G: ad.Vec{u[0]}, H: ad.Vec{u[1]}}},
	}
	opts := fesd.Options{
		Stages: 2, CrossComp: fesd.StageFE, StepEquilibration: fesd.L2RelaxedScaled,
		DCS:  dcs.Options{Formulation: dcs.Stewart},
		MPCC: mpcc.Settings{CompTol: 1e-6, Kappa: 0.1},
	}
	return p, opts, fesd.Start{}, nil
}

// threeCartsRef is x_ref of three_cart_ocp.m: the outer carts pushed to
// ∓5, the middle one back at 0, all at rest.
var threeCartsRef = []float64{-5, 0, 5, 0, 0, 0}

// threeCarts is nosnoc's three-cart manipulation
// (examples/three_cart_ocp_problem/three_cart_ocp.m, after NIPOCPEC): three
// carts of unit mass and width 2 on a line with damping c = 2 (springs
// off), only the middle one actuated, |u₂| ≤ 20 (u₁ = u₃ = 0 by their
// bounds); it must push the outer carts from ∓3 apart to ∓5 and return to
// 0. The contacts between neighbours (gaps q₂ − q₁ − 2, q₃ − q₂ − 2,
// frictionless, inelastic) are made a Filippov system by time freezing
// (dcs.NewTimeFreezing, a_n = 100, Stewart's DCS: nosnoc's default
// dcs_mode) with one speed of time per stage in [1, 25] and the
// stage-wise clock constraint (nosnoc's time-freezing defaults). Cost
// ∫(x − x_ref)ᵀQ(x − x_ref) + uᵀRu dt + (x(T) − x_ref)ᵀ100Q(x(T) − x_ref),
// Q = diag(10, 1, 10, 0.1, 0.1, 0.1), R = 0.1·I; |q₁| ≤ 15 (q₁ ≤ 10),
// |v| ≤ 5, at every grid point. The source's discretization and homotopy:
// Radau IIA n_s = 2, N = 20 stages of N_FE = 3 over T = 5, cross
// complementarity FE_FE (mode 7), κ = 0.5, complementarity tolerance
// 1e-6 (σ₀ = 1); no initial guess.
func threeCarts() (*fesd.OCP, fesd.Options, fesd.Start, error) {
	const damping, width = 2.0, 2.0
	g := ad.NewGraph()
	q, v, u := g.SymVec("q", 3), g.SymVec("v", 3), g.SymVec("u", 3)
	fv := make(ad.Vec, 3)
	for i := range fv {
		fv[i] = u[i].Sub(v[i].Scale(damping))
	}
	tf, err := dcs.NewTimeFreezing(dcs.RigidBody{
		Graph: g, Q: q, V: v, U: u, M: g.Eye(3), FV: fv,
		Contacts: []dcs.Contact{
			{Name: "c12", Gap: q[1].Sub(q[0]).AddConst(-width)},
			{Name: "c23", Gap: q[2].Sub(q[1]).AddConst(-width)},
		},
	}, dcs.TimeFreezingOptions{Formulation: dcs.Stewart, AN: 100})
	if err != nil {
		return nil, fesd.Options{}, fesd.Start{}, err
	}
	x := tf.Model.X
	w := []float64{10, 1, 10, 0.1, 0.1, 0.1}
	run, term := g.Const(0), g.Const(0)
	for i, wi := range w {
		d := ad.Sq(x[i].AddConst(-threeCartsRef[i]))
		run = run.Add(d.Scale(wi))
		term = term.Add(d.Scale(100 * wi))
	}
	for i := range u {
		run = run.Add(ad.Sq(u[i]).Scale(0.1))
	}
	const n, horizon = 20, 5.0
	inf := math.Inf(1)
	p := &fesd.OCP{
		Model: tf.Model, X0: []float64{-3, 0, 3, 0, 0, 0, 0}, N: n, T: horizon, NFE: []int{3},
		SpeedOfTime: fesd.StageSpeedOfTime,
		XL:          []float64{-15, -15, -10, -5, -5, -5, -inf},
		XU:          []float64{10, 15, 15, 5, 5, 5, inf},
		XBoundsAt:   fesd.AtStagePoints,
		UL:          []float64{0, -20, 0}, UU: []float64{0, 20, 0},
		Lagrange: run, Mayer: term,
		StageEnd: func(k int) []fesd.Constraint {
			return []fesd.Constraint{{G: ad.Vec{x[tf.Clock].AddConst(-float64(k+1) * horizon / n)}}}
		},
	}
	opts := fesd.Options{
		Stages: 2, CrossComp: fesd.FEFE,
		DCS:  tf.DCSOptions(),
		MPCC: mpcc.Settings{Kappa: 0.5, CompTol: 1e-6},
	}
	return p, opts, fesd.Start{}, nil
}
