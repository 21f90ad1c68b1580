package fesd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
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
// k + 1 of the old solution becomes stage k, the last stage is repeated,
// and so are the multipliers of the homotopy's last relaxed NLP, so that
// the first relaxed NLP of the next solve starts from a primal-dual point
// (mpcc.Solver.SolveFrom). The shifted point is nearly a solution already,
// so the warm solves run a short homotopy (the solver's homotopy from
// σ₀ = 1e-4 instead of 1) and take a fraction of the
// cold solve's iterations.

// MPCSettings configures RunMPC. The zero value needs only Steps.
type MPCSettings struct {
	// Steps is the number of closed-loop steps (≥ 1).
	Steps int
	// Plant simulates one control stage of the plant (nil: a Simulator of
	// the OCP's model with the solver's Options and the stage length T/N).
	Plant *Simulator
	// PlantP are the plant's model parameters (nil: the OCP's P, or the
	// first stage's PStage): a plant that differs from the model.
	PlantP []float64
	// Disturb, if not nil, changes the plant state after step k (a
	// disturbance or a measurement error); it must return a state of the
	// same length.
	Disturb func(k int, x []float64) []float64
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

// errCLSShift: Shift of an OCP on a CLS.
var errCLSShift = errors.New("fesd: OCPSolver.Shift does not support an OCP on a CLS (OCP.CLS); start the next solve from Start{} (the event-driven guess) or from the unshifted result, Start{Warm: r}")

// errCLSMPC: RunMPC with an OCP on a CLS.
var errCLSMPC = errors.New("fesd: RunMPC does not support an OCP on a CLS (OCP.CLS): its plant is a Simulator of a DCS and its warm starts are Shift's; close the loop with CLSSimulator.Step as the plant and OCPSolver.Solve")

// Shift returns the start of the next receding-horizon solve from the
// result r of this solver: the solution moved one control stage earlier,
// the last stage repeated. It needs stages of one size (the same N_FE in
// every stage) and a result of this solver; an OCP on a CLS (OCP.CLS) is
// not supported (an error wrapping ErrStructure).
//
// The multipliers are shifted too, when r has them (the primal-dual point
// of its homotopy's last relaxed NLP): the bound multipliers with the
// variables, and every constraint and complementarity term of the new
// horizon takes the multipliers of the one with the same variables one
// stage later (matched by their sparsity: the same variables moved by one
// stage, in order), or keeps its own where there is none (the initial
// conditions, the terminal stage). Solve then starts its first relaxed NLP
// from that primal-dual point with a small barrier parameter
// (mpcc.Solver.SolveFrom), if its relaxation and steering are those of
// the solve that produced r; otherwise from the primal point alone.
func (s *OCPSolver) Shift(r *OCPResult) (Start, error) {
	if s == nil || s.tr == nil {
		return Start{}, ErrNilSolver
	}
	if s.p.CLS != nil {
		return Start{}, fmt.Errorf("%w: %w", ErrStructure, errCLSShift)
	}
	tr := s.tr
	if r == nil {
		return Start{}, fmt.Errorf("%w: shift of a nil result (a solve cancelled before it started returns none)", ErrDimension)
	}
	if len(r.w) != tr.numW {
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
	st := Start{Warm: WarmFromNLPSolution(w)}
	if r.point != nil {
		vars := make([]int, tr.numW)
		for j := range vars {
			vars[j] = j
		}
		for j := first[0]; j+d < first[tr.N]; j++ {
			vars[j] = j + d
		}
		for k := 0; k+1 < tr.N; k++ {
			if tr.sot[k] >= 0 {
				vars[tr.sot[k]] = tr.sot[k+1]
			}
		}
		if s.shiftCons == nil {
			s.shiftCons, s.shiftTerms = shiftRows(tr, vars)
		}
		cons, terms := s.shiftCons, s.shiftTerms
		sv := mpcc.Solver{Settings: mpcc.Settings{Relaxation: r.layout.r, Steering: r.layout.st}}
		pt, err := sv.MapPoint(&mpcc.Problem{NLP: tr.prob, Comp: tr.comp}, r.point, vars, cons, terms)
		if err != nil {
			return Start{}, err
		}
		st.dual, st.dualLayout = pt, r.layout
	}
	return st, nil
}

// shiftRows matches the constraints and complementarity terms of tr's NLP
// with those of the same NLP after the variable map vars (new variable j
// takes old variable vars[j]): constraint i takes the old constraint whose
// variables (Jacobian sparsity) are those of i mapped by vars, the t-th
// such for the t-th of the constraints with the same variables as i;
// terms likewise with their pairs. Rows without a match keep their own
// index.
func shiftRows(tr *transcription, vars []int) (cons, terms []int) {
	_, m := tr.prob.Dims()
	jr, jc := tr.prob.JacobianStructure()
	sets := make([][]int, m)
	for t := range jr {
		sets[jr[t]] = append(sets[jr[t]], jc[t])
	}
	key := func(v []int) string {
		c := append([]int(nil), v...)
		sort.Ints(c)
		return fmt.Sprint(c)
	}
	match := func(own, mapped []string) []int {
		old := map[string][]int{}
		for i, k := range own {
			old[k] = append(old[k], i)
		}
		rank := map[string]int{}
		out := make([]int, len(own))
		for i := range own {
			t := rank[own[i]]
			rank[own[i]]++
			out[i] = i
			if c := old[mapped[i]]; t < len(c) {
				out[i] = c[t]
			}
		}
		return out
	}
	mapv := func(v []int) []int {
		out := make([]int, len(v))
		for i, j := range v {
			out[i] = vars[j]
		}
		return out
	}
	own, mapped := make([]string, m), make([]string, m)
	for i, v := range sets {
		own[i], mapped[i] = key(v), key(mapv(v))
	}
	cons = match(own, mapped)
	pairKey := func(pairs [][2]int, f func(int) int) string {
		var b strings.Builder
		for _, pr := range pairs {
			fmt.Fprintf(&b, "%d,%d;", f(pr[0]), f(pr[1]))
		}
		return b.String()
	}
	id := func(j int) int { return j }
	remap := func(j int) int { return vars[j] }
	ownT, mappedT := make([]string, len(tr.comp)), make([]string, len(tr.comp))
	for k, c := range tr.comp {
		ownT[k], mappedT[k] = pairKey(c.Pairs, id), pairKey(c.Pairs, remap)
	}
	return cons, match(ownT, mappedT)
}

// RunMPC runs a receding-horizon loop of set.Steps steps from x0: the
// first solve from start (cold), the others from the shifted previous
// solution. The OCP must have a fixed horizon (no free time). A failed
// solve does not stop the loop (its point's first control is applied and
// its status recorded); an error of the plant or of a solve that could not
// run does, and the result so far comes with it. An OCP on a CLS
// (OCP.CLS) is not supported (an error wrapping ErrStructure).
func RunMPC(ctx context.Context, s *OCPSolver, x0 []float64, start Start, set MPCSettings) (*MPCResult, error) {
	if s == nil || s.tr == nil {
		return nil, ErrNilSolver
	}
	if s.p.CLS != nil {
		return nil, fmt.Errorf("%w: %w", ErrStructure, errCLSMPC)
	}
	if ctx == nil {
		ctx = context.Background()
	}
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
	warm, err := s.WithHomotopy(wh)
	if err != nil {
		return nil, err
	}
	res := &MPCResult{Plant: &SimResult{Trajectory: Trajectory{DCS: plant.DCS()}}}
	var us [][]float64 // the control applied in every plant step
	// The plant's switches are detected over the closed loop, as Simulate
	// does over a simulation, on every return (a partial loop included).
	defer func() {
		if len(us) > 0 && len(res.Plant.X) > 0 && plant.sw != nil {
			if sw, err := plant.sw.detect(&res.Plant.Trajectory,
				func(n int) []float64 { return us[res.Plant.StageOf[n]] },
				func(int) []float64 { return pp }); err == nil {
				res.Plant.Switches = sw
			}
		}
	}()
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
		if err := res.Plant.AppendStep(sr, k); err != nil {
			return res, fmt.Errorf("fesd: MPC plant step %d: %w", k, err)
		}
		us = append(us, u)
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
