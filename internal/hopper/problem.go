package hopper

import (
	"errors"
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/rk"
)

// Weights of hopper_ocp.py.
var (
	qDiag  = []float64{100, 100, 20, 50, 0.1, 0.1, 0.1, 0.1}
	qTDiag = []float64{300, 300, 300, 300, 0.1, 0.1, 0.1, 0.1}
	rDiag  = []float64{0.01, 0.01, 1e-5}
)

// ErrTask reports an invalid Task.
var ErrTask = errors.New("hopper: invalid task")

// Task is the OCP's data: horizon, goal, reference and the
// discretization of nosnoc_py's options.
type Task struct {
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
	NFE            int            // finite elements per stage (3)
	Cross          fesd.CrossComp // StageFE: nosnoc_py's SUM_LAMBDAS_COMPLEMENT_WITH_EVERY_THETA
	// SOTMin, SOTMax bound the speed-of-time control ([0.1, 20]).
	SOTMin, SOTMax float64
	// ClockTol is nosnoc_py's time_freezing_tolerance: |t(end of stage k)
	// − (k+1)T/N| ≤ ClockTol (1e-3).
	ClockTol float64
}

// StageExperiment returns the task of nosnoc_py's stage_experiment.py with
// n stages (the script runs n = 60, 66, …, 108): X_GOAL = 3, T = 5,
// multijump reference with HEIGHT = 1, N_FE = 3, and the bounds and
// tolerances of hopper_ocp.py.
func StageExperiment(n int) Task {
	return Task{N: n, T: 5, Goal: 3, Height: 1, MidLeg: 0.1, NFE: 3, Cross: fesd.StageFE,
		SOTMin: 0.1, SOTMax: 20, ClockTol: 1e-3}
}

// Validate reports invalid fields; the errors wrap ErrTask.
func (t Task) Validate() error {
	x0 := X0()
	switch {
	case t.N < 1:
		return fmt.Errorf("%w: N = %d < 1", ErrTask, t.N)
	case !(t.T > 0) || math.IsInf(t.T, 0):
		return fmt.Errorf("%w: T = %g must be positive and finite", ErrTask, t.T)
	case !(t.Goal >= x0[0]) || math.IsInf(t.Goal, 0):
		return fmt.Errorf("%w: goal %g must be finite and ≥ the start x = %g", ErrTask, t.Goal, x0[0])
	case t.Jumps < 0:
		return fmt.Errorf("%w: %d jumps", ErrTask, t.Jumps)
	case !(t.Height > 0 && t.Height <= 1.5) || !(t.MidLeg >= 0.1 && t.MidLeg <= 0.5):
		return fmt.Errorf("%w: reference height %g must be in (0, 1.5] and leg %g in [0.1, 0.5] (the state bounds)", ErrTask, t.Height, t.MidLeg)
	case t.NFE < 1:
		return fmt.Errorf("%w: NFE = %d < 1", ErrTask, t.NFE)
	case !(t.SOTMin > 0 && t.SOTMin <= t.SOTMax) || math.IsInf(t.SOTMax, 0):
		return fmt.Errorf("%w: speed of time bounds [%g, %g]", ErrTask, t.SOTMin, t.SOTMax)
	case !(t.ClockTol >= 0) || math.IsInf(t.ClockTol, 0):
		return fmt.Errorf("%w: clock tolerance %g", ErrTask, t.ClockTol)
	}
	return nil
}

// XEnd is the target x_end = (Goal, 0.5, 0, 0.5, 0, 0, 0, 0).
func (t Task) XEnd() []float64 { return []float64{t.Goal, 0.5, 0, 0.5, 0, 0, 0, 0} }

// NumJumps returns the number of hops of the reference.
func (t Task) NumJumps() int {
	if t.Jumps > 0 {
		return t.Jumps
	}
	return max(1, int(math.RoundToEven(t.Goal-X0()[0]))) // Python's round
}

// Parabola3 is scipy's CubicSpline through three points (0, a), (½, b),
// (1, c) with the default not-a-knot ends, which for three points is the
// interpolating parabola, evaluated at s.
func Parabola3(a, b, c, s float64) float64 {
	return a*2*(s-0.5)*(s-1) - b*4*s*(s-1) + c*2*s*(s-0.5)
}

// Reference returns the N+1 rows x_ref(τ_k), k = 0…N, of nosnoc_py's
// multijump reference: for every hop j the parabola (CubicSpline) through
// its start, a mid point (x + step/2, Height, 0, MidLeg, 0…) and its end
// (x + step, 0.5, 0, 0.5, 0…), sampled at linspace(0, 1, ⌊N/n⌋+1) without
// the last point, then x_end. When n does not divide N, nosnoc_py's rows
// do not match the stages (its TODO); here the missing rows repeat x_end.
// Row k ≥ 1 is the tracking reference of stage k−1 (p_time_var_val =
// x_ref[1:]). The task is assumed valid.
func (t Task) Reference() [][]float64 {
	n := t.NumJumps()
	x0 := X0()
	step := (t.Goal - x0[0]) / float64(n)
	per := t.N / n
	var ref [][]float64
	start := x0
	var end []float64
	for j := 0; j < n; j++ {
		mid := []float64{start[0] + step/2, t.Height, 0, t.MidLeg, 0, 0, 0, 0}
		end = []float64{start[0] + step, 0.5, 0, 0.5, 0, 0, 0, 0}
		for i := 0; i < per; i++ {
			s := float64(i) / float64(per)
			r := make([]float64, NPhys)
			for l := range r {
				r[l] = Parabola3(start[l], mid[l], end[l], s)
			}
			ref = append(ref, r)
		}
		start = end
	}
	for len(ref) < t.N+1 {
		ref = append(ref, append([]float64(nil), end...))
	}
	return ref
}

// Start returns the start of hopper_ocp.py: u = (0, 0, 0, 1) and, with
// initRef (stage_experiment.py: ref_as_init = True), the states at the
// reference with the clock at kT/N.
func (t Task) Start(initRef bool) fesd.Start {
	s := fesd.Start{UInit: [][]float64{{0, 0, 0, 1}}}
	if initRef {
		ref := t.Reference()
		init := make([][]float64, t.N+1)
		init[0] = append(X0(), 0)
		for k := 1; k <= t.N; k++ {
			init[k] = append(append([]float64(nil), ref[k]...), float64(k)*t.T/float64(t.N))
		}
		s.XInit = init
	}
	return s
}

// OCP returns the OCP of hopper_ocp.py (see the package documentation) on
// the model h, with the options of its discretization and homotopy
// (nosnoc_py: σ₀ = 100, κ = 0.1, comp_tol 1e-9; the number of homotopy
// steps and the inner solver's settings are mpcc's defaults).
func (h *Model) OCP(t Task) (*fesd.OCP, fesd.Options, error) {
	if err := t.Validate(); err != nil {
		return nil, fesd.Options{}, err
	}
	g := h.Graph
	ref := t.Reference()
	// Running cost s·((x − x_ref)ᵀQ(x − x_ref) + u₁₋₃ᵀRu₁₋₃), x_ref a
	// parameter per stage; terminal cost (x − x_end)ᵀQ_T(x − x_end).
	sot := h.U[SOT]
	run := g.Const(0)
	for i := 0; i < NPhys; i++ {
		run = run.Add(ad.Sq(h.X[i].Sub(h.XRef[i])).Scale(qDiag[i]))
	}
	for i, r := range rDiag {
		run = run.Add(ad.Sq(h.U[i]).Scale(r))
	}
	xe := t.XEnd()
	term := g.Const(0)
	for i := 0; i < NPhys; i++ {
		term = term.Add(ad.Sq(h.X[i].AddConst(-xe[i])).Scale(qTDiag[i]))
	}
	pStage := make([][]float64, t.N)
	for k := range pStage {
		pStage[k] = ref[k+1]
	}
	inf := math.Inf(1)
	p := &fesd.OCP{
		Model:    h.Sys,
		X0:       append(X0(), 0),
		N:        t.N,
		T:        t.T,
		NFE:      []int{t.NFE},
		PStage:   pStage,
		Lagrange: sot.Mul(run),
		Mayer:    term,
		// nosnoc_py bounds every state variable of the transcription.
		XL:        []float64{0, 0, -math.Pi, 0.1, -10, -10, -5, -5, -inf},
		XU:        []float64{t.Goal + 0.1, 1.5, math.Pi, 0.5, 10, 10, 5, 5, inf},
		XBoundsAt: fesd.AtStagePoints,
		UL:        []float64{-50, -50, 0, t.SOTMin},
		UU:        []float64{50, 50, 100, t.SOTMax},
		// time_freezing = True: |t(end of stage k) − (k+1)T/N| ≤ tol.
		StageEnd: func(k int) []fesd.Constraint {
			tk := float64(k+1) * t.T / float64(t.N)
			return []fesd.Constraint{{G: ad.Vec{h.X[Clock].AddConst(-tk)}, L: []float64{-t.ClockTol}, U: []float64{t.ClockTol}}}
		},
		// No slip in the frozen contact modes, at every RK stage point
		// (nosnoc_py's g_path_comp depends on θ, so it is an RK-stage
		// complementarity).
		PathComps: []fesd.PathComp{{FromDCS: h.NoSlip, At: fesd.AtStagePoints}},
	}
	opts := fesd.Options{
		Scheme: rk.FamilyRadauIIA, Stages: 2, NFE: t.NFE,
		CrossComp:         t.Cross,
		StepEquilibration: fesd.HeuristicMean, RhoH: 1,
		DCS:  h.DCSOptions(),
		MPCC: mpcc.Settings{Sigma0: 100, Kappa: 0.1, CompTol: 1e-9},
	}
	return p, opts, nil
}
