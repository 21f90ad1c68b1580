package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/rk"
)

// x0 is the initial physical state of nosnoc_py's hopper: body at (0.1,
// 0.5), upright, leg length 0.5 (so the foot touches the ground, f_c = 0),
// at rest. The clock starts at 0.
var x0 = []float64{0.1, 0.5, 0, 0.5, 0, 0, 0, 0}

// Weights of nosnoc_py hopper_ocp.py.
var (
	qDiag  = []float64{100, 100, 20, 50, 0.1, 0.1, 0.1, 0.1}
	qTDiag = []float64{300, 300, 300, 300, 0.1, 0.1, 0.1, 0.1}
	rDiag  = []float64{0.01, 0.01, 1e-5}
)

// config selects one OCP run.
type config struct {
	N int     // control stages (stage_experiment.py: 60 … 108)
	T float64 // horizon (5)
	// Goal is x_goal, the final body position (3).
	Goal float64
	// Jumps is the number of hops of the reference (0: nosnoc_py's
	// multijump rule round(Goal − 0.1), at least 1). Height is the body
	// height (HEIGHT = 1.0) and MidLeg the leg length (0.1) of the
	// reference at the middle of every hop.
	Jumps          int
	Height, MidLeg float64
	Form           dcs.Formulation
	NFE            int            // finite elements per stage (3)
	Cross          fesd.CrossComp // StageFE: nosnoc_py's SUM_LAMBDAS_COMPLEMENT_WITH_EVERY_THETA
	// SOTMin, SOTMax bound the speed-of-time control ([0.1, 20]).
	SOTMin, SOTMax float64
	// ClockTol is nosnoc_py's time_freezing_tolerance: |t(end of stage k)
	// − (k+1)T/N| ≤ ClockTol (1e-3).
	ClockTol float64
	// Homotopy: σ₀ (100), κ (0.1), complementarity tolerance (1e-9),
	// MaxSteps (0: mpcc's default from σ₀, κ and CompTol; nosnoc_py's
	// max_iter_homotopy = 6).
	Sigma0, Kappa, CompTol float64
	MaxSteps               int
	// NLPTol is the inner tolerance (0: 0.01·CompTol, nosnoc_py's rule),
	// MaxIter the inner iteration limit per homotopy step (4000).
	NLPTol  float64
	MaxIter int
	// Inertia and Watchdog are nlp.Settings.Inertia (nlp.InertiaStrict
	// here) and WatchdogTrigger (see examples/monopod).
	Inertia  nlp.InertiaPolicy
	Watchdog int
	// InitRef starts the states at the reference (stage_experiment.py:
	// ref_as_init = True).
	InitRef bool
	// Log receives the homotopy log, NLPLog the inner iteration logs.
	Log, NLPLog io.Writer
}

func defaultConfig() config {
	return config{N: 60, T: 5, Goal: 3, Height: 1, MidLeg: 0.1, Form: dcs.Step, NFE: 3, Cross: fesd.StageFE,
		SOTMin: 0.1, SOTMax: 20, ClockTol: 1e-3, Sigma0: 100, Kappa: 0.1, CompTol: 1e-9, MaxIter: 4000, InitRef: true, Inertia: nlp.InertiaStrict}
}

// errConfig reports invalid settings of a run.
var errConfig = errors.New("hopper: invalid configuration")

func (c config) validate() error {
	switch {
	case c.N < 1:
		return fmt.Errorf("%w: N = %d < 1", errConfig, c.N)
	case !(c.T > 0) || math.IsInf(c.T, 0):
		return fmt.Errorf("%w: T = %g must be positive and finite", errConfig, c.T)
	case !(c.Goal >= x0[0]) || math.IsInf(c.Goal, 0):
		return fmt.Errorf("%w: goal %g must be finite and ≥ the start x = %g", errConfig, c.Goal, x0[0])
	case c.Jumps < 0:
		return fmt.Errorf("%w: %d jumps", errConfig, c.Jumps)
	case !(c.Height > 0 && c.Height <= 1.5) || !(c.MidLeg >= 0.1 && c.MidLeg <= 0.5):
		return fmt.Errorf("%w: reference height %g must be in (0, 1.5] and leg %g in [0.1, 0.5] (the state bounds)", errConfig, c.Height, c.MidLeg)
	case c.NFE < 1:
		return fmt.Errorf("%w: NFE = %d < 1", errConfig, c.NFE)
	case !(c.SOTMin > 0 && c.SOTMin <= c.SOTMax) || math.IsInf(c.SOTMax, 0):
		return fmt.Errorf("%w: speed of time bounds [%g, %g]", errConfig, c.SOTMin, c.SOTMax)
	case !(c.ClockTol >= 0):
		return fmt.Errorf("%w: clock tolerance %g", errConfig, c.ClockTol)
	}
	return nil
}

// xEnd is the target x_end = (Goal, 0.5, 0, 0.5, 0, 0, 0, 0).
func (c config) xEnd() []float64 { return []float64{c.Goal, 0.5, 0, 0.5, 0, 0, 0, 0} }

// jumps returns the number of hops of the reference.
func (c config) jumps() int {
	if c.Jumps > 0 {
		return c.Jumps
	}
	return max(1, int(math.RoundToEven(c.Goal-x0[0]))) // Python's round
}

// parabola3 is scipy's CubicSpline through three points (0, a), (½, b),
// (1, c) with the default not-a-knot ends, which for three points is the
// interpolating parabola, evaluated at s.
func parabola3(a, b, c, s float64) float64 {
	return a*2*(s-0.5)*(s-1) - b*4*s*(s-1) + c*2*s*(s-0.5)
}

// reference returns the N+1 rows x_ref(τ_k), k = 0…N, of nosnoc_py's
// multijump reference: for every hop j the parabola (CubicSpline) through
// its start, a mid point (x + step/2, Height, 0, MidLeg, 0…) and its end
// (x + step, 0.5, 0, 0.5, 0…), sampled at linspace(0, 1, ⌊N/n⌋+1) without
// the last point, then x_end. When n does not divide N, nosnoc_py's rows
// do not match the stages (its TODO); here the missing rows repeat x_end.
// Row k ≥ 1 is the tracking reference of stage k−1 (p_time_var_val =
// x_ref[1:]).
func (c config) reference() [][]float64 {
	n := c.jumps()
	step := (c.Goal - x0[0]) / float64(n)
	per := c.N / n
	var ref [][]float64
	start := append([]float64(nil), x0...)
	var end []float64
	for j := 0; j < n; j++ {
		mid := []float64{start[0] + step/2, c.Height, 0, c.MidLeg, 0, 0, 0, 0}
		end = []float64{start[0] + step, 0.5, 0, 0.5, 0, 0, 0, 0}
		for i := 0; i < per; i++ {
			s := float64(i) / float64(per)
			r := make([]float64, nPhys)
			for l := range r {
				r[l] = parabola3(start[l], mid[l], end[l], s)
			}
			ref = append(ref, r)
		}
		start = end
	}
	for len(ref) < c.N+1 {
		ref = append(ref, append([]float64(nil), end...))
	}
	return ref
}

// problem is an OCP with the solver options and the start it is solved
// with.
type problem struct {
	ocp   *fesd.OCP
	opts  fesd.Options
	start fesd.Start
}

// buildOCP returns the OCP of nosnoc_py's hopper (hopper_ocp.py) on the
// model h, with its options and start.
func buildOCP(h *hopper, c config) (*problem, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	g := h.g
	ref := c.reference()
	// Running cost s·((x − x_ref)ᵀQ(x − x_ref) + u₁₋₃ᵀRu₁₋₃), x_ref a
	// parameter per stage; terminal cost (x − x_end)ᵀQ_T(x − x_end).
	sot := h.u[iSOT]
	run := g.Const(0)
	for i := 0; i < nPhys; i++ {
		run = run.Add(ad.Sq(h.x[i].Sub(h.xref[i])).Scale(qDiag[i]))
	}
	for i, r := range rDiag {
		run = run.Add(ad.Sq(h.u[i]).Scale(r))
	}
	xe := c.xEnd()
	term := g.Const(0)
	for i := 0; i < nPhys; i++ {
		term = term.Add(ad.Sq(h.x[i].AddConst(-xe[i])).Scale(qTDiag[i]))
	}
	pStage := make([][]float64, c.N)
	for k := range pStage {
		pStage[k] = ref[k+1]
	}
	inf := math.Inf(1)
	start := append(append([]float64(nil), x0...), 0)
	p := &fesd.OCP{
		Model:    h.model,
		X0:       start,
		N:        c.N,
		T:        c.T,
		NFE:      []int{c.NFE},
		PStage:   pStage,
		Lagrange: sot.Mul(run),
		Mayer:    term,
		// nosnoc_py bounds every state variable of the transcription.
		XL:        []float64{0, 0, -math.Pi, 0.1, -10, -10, -5, -5, -inf},
		XU:        []float64{c.Goal + 0.1, 1.5, math.Pi, 0.5, 10, 10, 5, 5, inf},
		XBoundsAt: fesd.AtStagePoints,
		UL:        []float64{-50, -50, 0, c.SOTMin},
		UU:        []float64{50, 50, 100, c.SOTMax},
		// time_freezing = True: |t(end of stage k) − (k+1)T/N| ≤ tol.
		StageEnd: func(k int) []fesd.Constraint {
			tk := float64(k+1) * c.T / float64(c.N)
			return []fesd.Constraint{{G: ad.Vec{h.x[clock].AddConst(-tk)}, L: []float64{-c.ClockTol}, U: []float64{c.ClockTol}}}
		},
		// No slip in the frozen contact modes, at every RK stage point
		// (nosnoc_py's g_path_comp depends on θ, so it is an RK-stage
		// complementarity).
		PathComps: []fesd.PathComp{{FromDCS: h.noSlip, At: fesd.AtStagePoints}},
	}
	pr := &problem{
		ocp: p,
		opts: fesd.Options{
			Scheme: rk.FamilyRadauIIA, Stages: 2, NFE: c.NFE,
			CrossComp:         c.Cross,
			StepEquilibration: fesd.HeuristicMean, RhoH: 1,
			DCS:  h.dcsOptions(),
			MPCC: mpcc.Settings{Sigma0: c.Sigma0, Kappa: c.Kappa, CompTol: c.CompTol, MaxSteps: c.MaxSteps, Log: c.Log},
		},
		start: fesd.Start{UInit: [][]float64{{0, 0, 0, 1}}},
	}
	if c.InitRef {
		init := make([][]float64, c.N+1)
		init[0] = start
		for k := 1; k <= c.N; k++ {
			init[k] = append(append([]float64(nil), ref[k]...), float64(k)*c.T/float64(c.N))
		}
		pr.start.XInit = init
	}
	nlpSet := mpcc.DefaultNLPSettings()
	tol := c.NLPTol
	if tol == 0 {
		tol = 0.01 * c.CompTol
		if tol == 0 {
			tol = 1e-11
		}
	}
	nlpSet.Tol, nlpSet.DualInfTol, nlpSet.ComplInfTol = tol, tol, tol
	nlpSet.AcceptableTol = 1e-6
	if c.MaxIter > 0 {
		nlpSet.MaxIter = c.MaxIter
	}
	nlpSet.Log = c.NLPLog
	nlpSet.Inertia = c.Inertia
	nlpSet.WatchdogTrigger = c.Watchdog
	pr.opts.MPCC.NLP = &nlpSet
	return pr, nil
}

// run builds and solves one OCP. A homotopy that ends without Solved is
// not an error: the result carries the status.
func run(ctx context.Context, c config) (*fesd.OCPResult, *hopper, error) {
	h, err := newHopper(c.Form)
	if err != nil {
		return nil, nil, err
	}
	p, err := buildOCP(h, c)
	if err != nil {
		return nil, nil, err
	}
	s, err := fesd.NewOCPSolver(p.ocp, p.opts)
	if err != nil {
		return nil, nil, fmt.Errorf("hopper: building the OCP: %w", err)
	}
	r, err := s.Solve(ctx, p.start)
	if err != nil {
		return r, h, fmt.Errorf("hopper: solving the OCP: %w", err)
	}
	return r, h, nil
}
