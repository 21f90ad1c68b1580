package fesd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/fesd-go/fesd/mpcc"
)

// Model-predictive control: a receding horizon over an OCP.
//
// At every closed-loop step k the OCP is solved from the measured state
// x_k at the time t_k (OCPSolver.SetX0, SetT0: time-dependent costs and
// references move with the horizon), its first control q_0 is applied to the plant for
// one control stage (the plant is a Simulator: FESD with switch detection,
// possibly of another model or with a disturbance), and the next solve
// starts from the previous solution shifted by one stage (Shift): stage
// k + 1 of the old solution becomes stage k, the last stage is repeated.
// The shifted point is nearly a solution already, so the warm solves run a
// short homotopy (MPCSettings.WarmHomotopy: by default it starts at
// σ₀ = 1e-4 instead of 1) and take a fraction of the cold solve's
// iterations.

// MPCSettings configures RunMPC. The zero value needs only Steps.
type MPCSettings struct {
	// Steps is the number of closed-loop steps (≥ 1).
	Steps int
	// Plant simulates one control stage of the plant (nil: a Simulator of
	// the OCP's model with the solver's Options and the stage length T/N).
	Plant *Simulator
	// PlantP are the plant's model parameters (nil: the OCP's P).
	PlantP []float64
	// Disturb, if not nil, changes the plant state after step k (a
	// disturbance or a measurement error); it must return a state of the
	// same length.
	Disturb func(k int, x []float64) []float64
	// WarmHomotopy are the homotopy settings of the warm-started solves
	// (zero value: the solver's settings with Sigma0 = 1e-4).
	WarmHomotopy *mpcc.Settings
	// MaxIterations bounds the NLP iterations of every warm solve's
	// relaxed NLPs (0: the solver's MPCC.NLP MaxIter); a step that
	// exhausts it still applies its point's first control and is reported.
	MaxIterations int
}

// MPCStep is one closed-loop step.
type MPCStep struct {
	// K is the step index, T its start time, X the measured state and U
	// the applied control.
	K    int
	T    float64
	X, U []float64
	// Status, Iterations and Elapsed are those of the OCP solve; Warm is
	// set for the shifted warm starts (every step but the first).
	Status     mpcc.Status
	Iterations int
	Elapsed    time.Duration
	Warm       bool
	// Objective is the OCP's objective at the step's solution and
	// Stationarity its certified class.
	Objective    float64
	Stationarity mpcc.Stationarity
}

// MPCResult is the closed loop: the steps and the plant's trajectory
// (element boundaries of every plant step, with its switches).
type MPCResult struct {
	Steps []MPCStep
	Plant *SimResult
}

// Shift returns the start of the next receding-horizon solve from the
// result r of this solver: the solution moved one control stage earlier,
// the last stage repeated. It needs stages of one size (the same N_FE in
// every stage) and a result of this solver.
func (s *OCPSolver) Shift(r *OCPResult) (Start, error) {
	tr := s.tr
	if r == nil || len(r.w) != tr.numW {
		return Start{}, fmt.Errorf("%w: shift of a result with %d variables, the NLP has %d", ErrDimension, len(r.NLPSolution()), tr.numW)
	}
	if tr.N < 2 {
		return Start{Warm: r}, nil
	}
	first := make([]int, tr.N+1)
	for k := 0; k < tr.N; k++ {
		n := tr.elemStart[k]
		first[k] = tr.x[n][0]
		if tr.h[n] >= 0 {
			first[k] = tr.h[n]
		}
		if tr.u[k] >= 0 {
			first[k] = tr.u[k]
		}
	}
	last := tr.xb[tr.NE-1] + tr.nx
	if tr.zb[tr.NE-1] >= 0 {
		last = tr.zb[tr.NE-1] + tr.nb
	}
	first[tr.N] = last
	d := first[1] - first[0]
	for k := 1; k < tr.N; k++ {
		if first[k+1]-first[k] != d || tr.nfe[k] != tr.nfe[0] {
			return Start{}, fmt.Errorf("%w: stages of different sizes cannot be shifted", ErrDimension)
		}
	}
	w := clone(r.w)
	for i := first[1]; i < first[tr.N]; i++ {
		w[i-d] = r.w[i]
	}
	// stage speeds of time are stored before the stages
	for k := 0; k+1 < tr.N; k++ {
		if tr.sot[k] >= 0 {
			w[tr.sot[k]] = r.w[tr.sot[k+1]]
		}
	}
	return Start{Warm: WarmFromNLPSolution(w)}, nil
}

// RunMPC runs a receding-horizon loop of set.Steps steps from x0: the
// first solve from start (cold), the others from the shifted previous
// solution. The OCP must have a fixed horizon (no free time). A failed
// solve does not stop the loop (its point's first control is applied and
// its status recorded); an error of the plant or of a solve that could not
// run does, and the result so far comes with it.
func RunMPC(ctx context.Context, s *OCPSolver, x0 []float64, start Start, set MPCSettings) (*MPCResult, error) {
	p := &s.p
	if set.Steps < 1 {
		return nil, fmt.Errorf("%w: MPC with %d steps", ErrHorizon, set.Steps)
	}
	if p.FreeTime || p.TimeOptimal {
		return nil, fmt.Errorf("%w: MPC needs a fixed horizon (FreeTime or TimeOptimal is set)", ErrOptions)
	}
	if err := checkVec("x0", x0, s.tr.nx); err != nil {
		return nil, err
	}
	stage := p.T / float64(p.N)
	plant := set.Plant
	if plant == nil {
		var err error
		if plant, err = NewSimulator(p.Model, s.o.Options, stage); err != nil {
			return nil, err
		}
	}
	pp := set.PlantP
	if pp == nil {
		pp = row(p.PStage, 0)
		if pp == nil {
			pp = p.P
		}
	}
	wh := s.o.MPCC
	wh.Sigma0 = 1e-4
	if set.WarmHomotopy != nil {
		wh = *set.WarmHomotopy
	}
	if set.MaxIterations > 0 {
		ns := mpcc.DefaultNLPSettings()
		if wh.NLP != nil {
			ns = *wh.NLP
		}
		ns.MaxIter = set.MaxIterations
		wh.NLP = &ns
	}
	warm, err := s.WithHomotopy(wh)
	if err != nil {
		return nil, err
	}
	res := &MPCResult{Plant: &SimResult{Trajectory: Trajectory{DCS: plant.DCS()}}}
	x := clone(x0)
	t := p.T0
	var prev *OCPResult
	for k := 0; k < set.Steps; k++ {
		solver, st := s, start
		if prev != nil {
			if st, err = s.Shift(prev); err != nil {
				return res, err
			}
			solver = warm
		}
		if err := solver.SetX0(x); err != nil {
			return res, err
		}
		if err := solver.SetT0(t); err != nil {
			return res, err
		}
		t0 := time.Now()
		r, err := solver.Solve(ctx, st)
		if err != nil {
			return res, fmt.Errorf("fesd: MPC step %d: %w", k, err)
		}
		u := clone(r.U[0])
		res.Steps = append(res.Steps, MPCStep{
			K: k, T: t, X: clone(x), U: u, Status: r.Status, Iterations: r.Iterations,
			Elapsed: time.Since(t0), Warm: prev != nil, Objective: r.Objective, Stationarity: r.Stationarity,
		})
		if r.Status == mpcc.Cancelled || errors.Is(ctx.Err(), context.Canceled) {
			return res, fmt.Errorf("fesd: MPC step %d: %w", k, context.Canceled)
		}
		sr, err := plant.Step(ctx, t, x, u, pp)
		if err != nil {
			return res, fmt.Errorf("fesd: MPC plant step %d (t = %g): %w", k, t, err)
		}
		res.Plant.AppendStep(sr, k)
		x = clone(sr.Final())
		if set.Disturb != nil {
			x = set.Disturb(k, x)
		}
		for _, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return res, fmt.Errorf("%w: plant state after step %d", ErrNonFinite, k)
			}
		}
		t += stage
		prev = r
	}
	return res, nil
}
