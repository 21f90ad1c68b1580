package modelfile

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// ErrNoSimulation and ErrNoOCP report a file without the table a run needs.
var (
	ErrNoSimulation = errors.New("modelfile: the file has no [simulate] table")
	ErrNoOCP        = errors.New("modelfile: the file has no [ocp] table")
)

// SimSwitch is a switch read from the selections of a simulation: at the
// element boundary T, ψ_Psi (numbered as dcs.Model.EvalPsi) changes side;
// Kind is "crossing", "entering_sliding" or "leaving_sliding".
type SimSwitch struct {
	T    float64 `json:"t"`
	Psi  int     `json:"psi"`
	Kind string  `json:"kind"`
}

// SimRun is the result of Model.Simulate.
type SimRun struct {
	// Result is the trajectory of all steps (split steps as several
	// pieces); its Switches field is empty, see Switches.
	Result *fesd.SimResult
	// Switches are read from the algebraic variables of every finite
	// element (see Model.Simulate).
	Switches []SimSwitch
	// Iterations counts the NLP iterations of all steps; Split lists the
	// steps that were halved, Failed those whose homotopy failed at the
	// deepest split and whose finite solution was kept.
	Iterations    int
	Split, Failed []int
	Elapsed       time.Duration
	// NumVariables, NumConstraints, NumComplementarities give the size of
	// the NLP of one step.
	NumVariables, NumConstraints, NumComplementarities int
}

// Progress is called after every simulation step k of n at time t.
type Progress func(k, n int, t float64)

// Simulate runs the file's [simulate] table. Every step of length T =
// TSim/NSim is one fesd.Simulator step from the previous step's end; a step
// whose event prediction (fesd.Simulator.PredictEvents) has more switches
// than its N_FE − 1 interior element boundaries, or whose homotopy fails
// also from a cold start, is halved, down to T/2^MaxSplit; at that depth a
// failed step's finite solution is kept and listed in Failed (as nosnoc's
// simulation loop does). This is the procedure of examples/irma. The
// switches are read from the multipliers and selections of every finite
// element: for the Step formulation ψ_j is on its surface (sliding) where
// λᵖ_j and λⁿ_j stay below fesd.Options.ActiveSetTol, and otherwise on the
// side α_j gives (α_j ≥ 0.95 or ≤ 0.05 at every stage point); for
// Stewart's the modes whose λ_i stays below it are active and give the
// side of ψ_j when they agree.
func (m *Model) Simulate(ctx context.Context, progress Progress) (*SimRun, error) {
	if m.Sim == nil {
		return nil, ErrNoSimulation
	}
	return simulate(ctx, m.Model, m.X0, m.P, m.Options, m.Sim, progress)
}

// stepper integrates with one fesd.Simulator per step length T/2^d.
type stepper struct {
	model    *dcs.Model
	opts     fesd.Options
	T        float64
	sim      *Simulation
	p        []float64
	sims     []*fesd.Simulator
	maxSplit int
}

func (s *stepper) at(depth int) (*fesd.Simulator, error) {
	for len(s.sims) <= depth {
		sim, err := fesd.NewSimulator(s.model, s.opts, s.T/math.Ldexp(1, len(s.sims)))
		if err != nil {
			return nil, err
		}
		sim.NoPredict = s.sim.NoPredict
		sim.ColdStart = s.sim.ColdStart
		s.sims = append(s.sims, sim)
	}
	return s.sims[depth], nil
}

type piece struct {
	res    *fesd.StepResult
	failed bool
}

func finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// solve integrates [t0, t0 + T/2^depth] from x0.
func (s *stepper) solve(ctx context.Context, t0 float64, x0 []float64, depth int) ([]piece, error) {
	sim, err := s.at(depth)
	if err != nil {
		return nil, err
	}
	u := s.sim.Control(t0)
	if !s.sim.NoPredict && depth < s.maxSplit && s.tooMany(sim, t0, x0, u) {
		return s.split(ctx, t0, x0, depth, sim.T/2)
	}
	st, err := sim.Step(ctx, t0, x0, u, s.p)
	var se *fesd.StepError
	if errors.As(err, &se) && ctx.Err() == nil {
		sim.Reset()
		if st2, err2 := sim.Step(ctx, t0, x0, u, s.p); err2 == nil {
			return []piece{{st2, false}}, nil
		}
	}
	switch {
	case err == nil:
		return []piece{{st, false}}, nil
	case !errors.As(err, &se) || st == nil:
		return nil, err
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case depth < s.maxSplit:
		return s.split(ctx, t0, x0, depth, sim.T/2)
	case !finite(st.X[len(st.X)-1]):
		return nil, err
	}
	return []piece{{st, true}}, nil
}

func (s *stepper) split(ctx context.Context, t0 float64, x0 []float64, depth int, h float64) ([]piece, error) {
	if sub, err := s.at(depth + 1); err == nil {
		sub.Reset()
	}
	first, err := s.solve(ctx, t0, x0, depth+1)
	if err != nil {
		return nil, err
	}
	last := first[len(first)-1].res
	second, err := s.solve(ctx, t0+h, last.X[len(last.X)-1], depth+1)
	if err != nil {
		return nil, err
	}
	return append(first, second...), nil
}

// tooMany reports whether the prediction of the step has more switches, at
// least 5 % of an element apart and from the step's ends, than the step
// has interior element boundaries.
func (s *stepper) tooMany(sim *fesd.Simulator, t0 float64, x0, u []float64) bool {
	ev, ok, err := sim.PredictEvents(t0, x0, u, s.p)
	if err != nil || !ok {
		return false
	}
	nfe := s.opts.NFE
	if nfe == 0 {
		nfe = fesd.DefaultNFE
	}
	gap := 0.05 * sim.T / float64(nfe)
	n, last := 0, t0
	for _, e := range ev {
		if e-last >= gap && t0+sim.T-e >= gap {
			n++
			last = e
		}
	}
	return n > nfe-1
}

func simulate(ctx context.Context, model *dcs.Model, x0, p []float64, opts fesd.Options, sim *Simulation, progress Progress) (*SimRun, error) {
	s := &stepper{model: model, opts: opts, T: sim.TSim / float64(sim.NSim), sim: sim, p: p, maxSplit: sim.MaxSplit}
	first, err := s.at(0)
	if err != nil {
		return nil, err
	}
	run := &SimRun{
		Result:       &fesd.SimResult{Trajectory: fesd.Trajectory{T: []float64{sim.T0}, X: [][]float64{append([]float64(nil), x0...)}}},
		NumVariables: first.NumVariables(), NumConstraints: first.NumConstraints(), NumComplementarities: first.NumComplementarities(),
	}
	start := time.Now()
	defer func() { run.Elapsed = time.Since(start) }()
	x := x0
	for k := 0; k < sim.NSim; k++ {
		t0 := sim.T0 + float64(k)*s.T
		ps, err := s.solve(ctx, t0, x, 0)
		if err != nil {
			run.Switches = detectSwitches(model, run.Result, activeTol(opts))
			return run, fmt.Errorf("step %d (t = %g): %w", k, t0, err)
		}
		if len(ps) > 1 {
			run.Split = append(run.Split, k)
		}
		for _, pc := range ps {
			if pc.failed && (len(run.Failed) == 0 || run.Failed[len(run.Failed)-1] != k) {
				run.Failed = append(run.Failed, k)
			}
			if err := run.Result.AppendStep(pc.res, k); err != nil {
				return run, fmt.Errorf("step %d (t = %g): %w", k, t0, err)
			}
			run.Iterations += pc.res.Record.Iterations
			x = pc.res.X[len(pc.res.X)-1]
		}
		if progress != nil {
			progress(k+1, sim.NSim, t0+s.T)
		}
	}
	run.Switches = detectSwitches(model, run.Result, activeTol(opts))
	return run, nil
}

// sideTol decides the side of ψ_j on an element from the selections: a
// selection ≥ 1 − sideTol at every stage point is one side, ≤ sideTol the
// other, anything else the surface (sliding).
const sideTol = 0.05

// activeTol is the threshold τ on the multipliers (fesd.Options.ActiveSetTol
// with its default 10·√CompTol).
func activeTol(o fesd.Options) float64 {
	if o.ActiveSetTol > 0 {
		return o.ActiveSetTol
	}
	tol := o.MPCC.CompTol
	if tol == 0 {
		tol = 1e-9
	}
	return 10 * math.Sqrt(tol)
}

// detectSwitches reads the side of every switching function on every
// finite element and lists the changes between neighbouring elements:
//
//   - Step (α): ψ_j is on the surface where both multipliers λᵖ_j, λⁿ_j
//     stay ≤ τ at the element's stage points (sliding, whatever the value of
//     α_j); otherwise its side is read from α_j (the rule of examples/irma,
//     see sideTol).
//   - Stewart (θ): the modes whose multiplier λ_i stays ≤ τ are the active
//     ones (those with θ_i > sideTol if none is); ψ_j is on the side of the
//     sign matrix when all of them agree, on the surface otherwise.
//
// τ is fesd.Options.ActiveSetTol. fesd's own, finer detection is not
// exported for results assembled from single steps with
// SimResult.AppendStep.
func detectSwitches(model *dcs.Model, res *fesd.SimResult, tau float64) []SimSwitch {
	if len(res.H) == 0 || res.DCS == nil || len(res.PointZ) == 0 {
		return nil
	}
	ns := len(res.PointZ) / len(res.H)
	maxOver := func(e, col int) float64 {
		hi := math.Inf(-1)
		for i := e * ns; i < (e+1)*ns; i++ {
			hi = math.Max(hi, res.PointZ[i][col])
		}
		return hi
	}
	var out []SimSwitch
	psiBase := 0
	for k, sub := range model.Subsystems {
		if th, ok := res.DCS.ZBlock(dcs.Theta, k); ok && res.DCS.Formulation == dcs.Stewart && len(sub.S) == th.Len {
			lam, hasLam := res.DCS.ZBlock(dcs.Lambda, k)
			side := func(e, j int) int {
				var active []int
				if hasLam && lam.Len == th.Len {
					for m := range sub.S {
						if maxOver(e, lam.Start+m) <= tau {
							active = append(active, m)
						}
					}
				}
				if len(active) == 0 {
					for m := range sub.S {
						if maxOver(e, th.Start+m) > sideTol {
							active = append(active, m)
						}
					}
				}
				s := 0
				for _, m := range active {
					switch {
					case s == 0:
						s = sub.S[m][j]
					case s != sub.S[m][j]:
						return 0
					}
				}
				return s
			}
			out = appendChanges(out, len(res.H), len(sub.Psi), psiBase, res.T, side)
		} else if bl, ok := res.DCS.ZBlock(dcs.Alpha, k); ok {
			out = appendChanges(out, len(res.H), len(sub.Psi), psiBase, res.T, stepSide(res, bl, k, ns, tau, maxOver))
		}
		psiBase += len(sub.Psi)
	}
	if bl, ok := res.DCS.ZBlock(dcs.Alpha, -1); ok {
		out = appendChanges(out, len(res.H), bl.Len, psiBase, res.T, stepSide(res, bl, -1, ns, tau, maxOver))
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].T != out[b].T {
			return out[a].T < out[b].T
		}
		return out[a].Psi < out[b].Psi
	})
	return out
}

// stepSide is the side rule of the Step formulation for the α block bl of
// subsystem sub.
func stepSide(res *fesd.SimResult, bl dcs.VarBlock, sub, ns int, tau float64, maxOver func(e, col int) float64) func(e, j int) int {
	lp, okP := res.DCS.ZBlock(dcs.LambdaP, sub)
	ln, okN := res.DCS.ZBlock(dcs.LambdaN, sub)
	return func(e, j int) int {
		if okP && okN && j < lp.Len && j < ln.Len && maxOver(e, lp.Start+j) <= tau && maxOver(e, ln.Start+j) <= tau {
			return 0
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := e * ns; i < (e+1)*ns; i++ {
			a := res.PointZ[i][bl.Start+j]
			lo, hi = math.Min(lo, a), math.Max(hi, a)
		}
		switch {
		case lo >= 1-sideTol:
			return 1
		case hi <= sideTol:
			return -1
		}
		return 0
	}
}

func appendChanges(out []SimSwitch, ne, npsi, base int, T []float64, side func(e, j int) int) []SimSwitch {
	for j := 0; j < npsi; j++ {
		prev := side(0, j)
		for e := 1; e < ne; e++ {
			cur := side(e, j)
			if cur == prev {
				continue
			}
			kind := "crossing"
			switch {
			case cur == 0:
				kind = "entering_sliding"
			case prev == 0:
				kind = "leaving_sliding"
			}
			out = append(out, SimSwitch{T: T[e], Psi: base + j, Kind: kind})
			prev = cur
		}
	}
	return out
}
