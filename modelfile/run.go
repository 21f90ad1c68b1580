package modelfile

import (
	"context"
	"errors"
	"time"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// ErrNoSimulation and ErrNoOCP report a file without the table a run needs.
var (
	ErrNoSimulation = errors.New("modelfile: the file has no [simulate] table")
	ErrNoOCP        = errors.New("modelfile: the file has no [ocp] table")
)

// SimSwitch is a switch of a simulation (fesd.Switch): at the element
// boundary T, ψ_Psi (numbered as dcs.Model.EvalPsi) changes side; Kind is
// "crossing", "entering_sliding", "leaving_sliding" or "spontaneous".
type SimSwitch struct {
	T    float64 `json:"t"`
	Psi  int     `json:"psi"`
	Kind string  `json:"kind"`
}

// SimRun is the result of Model.Simulate.
type SimRun struct {
	// Result is fesd.Simulate's: the trajectory of all steps (split steps
	// as several pieces, fesd.StepRecord.Depth) with its switches.
	Result *fesd.SimResult
	// Switches are Result.Switches with ψ numbered as dcs.Model.EvalPsi.
	Switches []SimSwitch
	// Iterations counts the NLP iterations of all steps, those of the
	// failed solves of split steps too; Split lists the steps that were
	// halved.
	Iterations int
	Split      []int
	Elapsed    time.Duration
	// NumVariables, NumConstraints, NumComplementarities give the size of
	// the NLP of one step.
	NumVariables, NumConstraints, NumComplementarities int
}

// Progress is called after every simulation step k of n at time t.
type Progress func(k, n int, t float64)

// Simulate runs the file's [simulate] table with fesd.Simulate: NSim
// steps of length T = TSim/NSim, each from the previous step's end, a
// step whose solve fails, or whose predicted switches outnumber its N_FE
// − 1 interior element boundaries, halved down to T/2^fesd.MaxSplitDepth.
// The switches are fesd's (fesd.SimResult.Switches, detected over the
// whole trajectory).
func (m *Model) Simulate(ctx context.Context, progress Progress) (*SimRun, error) {
	if m.Sim == nil {
		return nil, ErrNoSimulation
	}
	return simulate(ctx, m.Model, m.X0, m.P, m.Options, m.Sim, progress)
}

func simulate(ctx context.Context, model *dcs.Model, x0, p []float64, opts fesd.Options, sim *Simulation, progress Progress) (*SimRun, error) {
	T := sim.TSim / float64(sim.NSim)
	size, err := fesd.NewSimulator(model, opts, T) // for the sizes only
	if err != nil {
		return nil, err
	}
	run := &SimRun{NumVariables: size.NumVariables(), NumConstraints: size.NumConstraints(), NumComplementarities: size.NumComplementarities()}
	so := fesd.SimOptions{Options: opts, TSim: sim.TSim, NSim: sim.NSim, T0: sim.T0, P: p,
		NoPredict: sim.NoPredict, ColdStart: sim.ColdStart}
	if len(sim.UTable) > 0 {
		so.UFunc = sim.Control
	} else {
		so.U = sim.U
	}
	if progress != nil {
		so.Progress = func(rec fesd.StepRecord) {
			// the last piece of step k ends at T0 + (k + 1)T
			if end := sim.T0 + float64(rec.Step+1)*T; rec.T1 >= end-T/(1<<(fesd.MaxSplitDepth+1)) {
				progress(rec.Step+1, sim.NSim, rec.T1)
			}
		}
	}
	start := time.Now()
	res, simErr := fesd.Simulate(ctx, model, x0, so)
	run.Elapsed = time.Since(start)
	if res == nil {
		return nil, simErr
	}
	run.Result = res
	for _, rec := range res.Steps {
		run.Iterations += rec.Iterations
		if rec.Depth > 0 && (len(run.Split) == 0 || run.Split[len(run.Split)-1] != rec.Step) {
			run.Split = append(run.Split, rec.Step)
		}
	}
	for _, sw := range res.Switches {
		run.Switches = append(run.Switches, SimSwitch{T: sw.Time, Psi: psiIndex(model, sw.Subsystem, sw.Psi), Kind: kindName(sw.Kind)})
	}
	return run, simErr
}

// psiIndex is the index of ψ_j of subsystem sub (−1: the general steps)
// in the order of dcs.Model.EvalPsi.
func psiIndex(m *dcs.Model, sub, j int) int {
	off := 0
	for k, s := range m.Subsystems {
		if k == sub {
			return off + j
		}
		off += len(s.Psi)
	}
	return off + j
}

// kindName is the name of a switch kind in SimSwitch.Kind.
func kindName(k fesd.SwitchKind) string {
	switch k {
	case fesd.Crossing:
		return "crossing"
	case fesd.EnteringSliding:
		return "entering_sliding"
	case fesd.LeavingSliding:
		return "leaving_sliding"
	}
	return "spontaneous"
}
