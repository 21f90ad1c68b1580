package fesd

import (
	"fmt"

	"github.com/fesd-go/fesd/dcs"
)

// Trajectory is the discrete solution on a FESD grid, shared by simulation
// and optimal control results. The grid has three levels:
//
//   - stages: the control stages of an OCP (constant control q_k), or the
//     steps of a simulation (one control interval each);
//   - elements: the finite elements, N_FE of them per stage, numbered
//     consecutively over all stages, with boundaries t_0 < … < t_NE;
//   - stage points: the n_s Runge–Kutta stage points t_n + c_m h_n of every
//     element, where the algebraic variables of the DCS live.
//
// Times are numerical times τ; for an OCP with speed of time or free time,
// OCPResult also has the physical ones.
type Trajectory struct {
	// DCS is the complementarity system that was transcribed (its ZBlocks
	// lay out PointZ and Z0).
	DCS *dcs.DCS
	// T are the NE + 1 element boundaries and X the states there.
	T []float64
	X [][]float64
	// H are the NE step sizes and StageOf the stage of every element.
	H       []float64
	StageOf []int
	// PointT, PointX and PointZ are the stage points of all elements in
	// order (NE·n_s of them), with the states and the algebraic variables
	// (laid out as DCS.Z) there.
	PointT []float64
	PointX [][]float64
	PointZ [][]float64
	// BoundaryZ are the boundary variables (laid out as DCS.BoundaryZ: λ, μ
	// for Stewart, λᵖ, λⁿ for Step) at the element boundaries T: the fixed
	// start values at t_0, then the last stage point (c_{n_s} = 1) or the
	// boundary point (c_{n_s} ≠ 1) of every element; nil where the
	// transcription has no such point (Gauss–Legendre without FESD).
	BoundaryZ [][]float64
	// Z0 are the consistent algebraic values at the initial state (004 eq.
	// 17) that fix the boundary variables at t_0.
	Z0 []float64
	// Switches lists the detected switches in time order.
	Switches []Switch
}

// Final returns the state at the end of the trajectory (nil if empty or
// nil).
func (r *Trajectory) Final() []float64 {
	if r == nil || len(r.X) == 0 {
		return nil
	}
	return r.X[len(r.X)-1]
}

// Algebraic returns the values of the algebraic variables of one block
// (dcs.Theta, dcs.Alpha, dcs.Lambda, dcs.LambdaP, …) of subsystem sub (−1:
// the general steps) at the stage points, one slice per point (PointT), or
// nil if the DCS has no such block (or r is nil).
func (r *Trajectory) Algebraic(kind dcs.VarKind, sub int) [][]float64 {
	if r == nil || r.DCS == nil {
		return nil
	}
	bl, ok := r.DCS.ZBlock(kind, sub)
	if !ok {
		return nil
	}
	out := make([][]float64, len(r.PointZ))
	for i, z := range r.PointZ {
		if bl.Start+bl.Len > len(z) {
			return nil
		}
		out[i] = clone(z[bl.Start : bl.Start+bl.Len])
	}
	return out
}

// Theta returns θ of subsystem sub at the stage points.
func (r *Trajectory) Theta(sub int) [][]float64 { return r.Algebraic(dcs.Theta, sub) }

// Alpha returns α of subsystem sub (−1: the general steps) at the stage
// points (Step reformulation).
func (r *Trajectory) Alpha(sub int) [][]float64 { return r.Algebraic(dcs.Alpha, sub) }

// Lambda returns Stewart's λ of subsystem sub at the stage points.
func (r *Trajectory) Lambda(sub int) [][]float64 { return r.Algebraic(dcs.Lambda, sub) }

// fill writes the element-level trajectory of the solution w (outputs o of
// the transcription) into r, for the stages of tr; zb0 are the fixed start
// values of the boundary variables.
func (r *Trajectory) fill(tr *transcription, w []float64, o *outputs, zb0 []float64) {
	nx, nz, ns := tr.nx, tr.nz, tr.ns
	c := tr.o.tab.C
	r.DCS = tr.d
	r.T, r.H = o.tb, o.h
	r.StageOf = clone2(tr.stageOf)
	for n := 0; n <= tr.NE; n++ {
		r.X = append(r.X, clone(o.xb[n*nx:(n+1)*nx]))
	}
	for n := 0; n < tr.NE; n++ {
		for m := 0; m < ns; m++ {
			q := n*ns + m
			r.PointT = append(r.PointT, o.tb[n]+c[m]*o.h[n])
			r.PointX = append(r.PointX, clone(o.xs[q*nx:(q+1)*nx]))
			r.PointZ = append(r.PointZ, clone(w[tr.z[n][m]:tr.z[n][m]+nz]))
		}
	}
	r.BoundaryZ = tr.boundaryZ(tr.d, w, zb0, tr.o.tab.EndpointIsNode())
}

// appendStep appends the trajectory of one step (stage k) of a simulation:
// its element boundaries after the first (the first too when r has none),
// stage points and step sizes; the DCS, Z0 and the first boundary values
// come from the first step appended.
func (r *Trajectory) appendStep(sr *Trajectory, k int) {
	if r.DCS == nil {
		r.DCS = sr.DCS
	}
	if len(r.X) == 0 {
		r.T = append(r.T, sr.T[0])
		r.X = append(r.X, sr.X[0])
	}
	if len(r.BoundaryZ) == 0 {
		r.Z0 = sr.Z0
		r.BoundaryZ = append(r.BoundaryZ, sr.BoundaryZ[0])
	}
	r.BoundaryZ = append(r.BoundaryZ, sr.BoundaryZ[1:]...)
	r.T = append(r.T, sr.T[1:]...)
	r.X = append(r.X, sr.X[1:]...)
	r.PointT = append(r.PointT, sr.PointT...)
	r.PointX = append(r.PointX, sr.PointX...)
	r.PointZ = append(r.PointZ, sr.PointZ...)
	r.H = append(r.H, sr.H...)
	for range sr.H {
		r.StageOf = append(r.StageOf, k)
	}
}

// AppendStep appends a step result to a simulation result, as stage (and
// StepRecord.Step) k: its trajectory after the first boundary (all of it
// for the first step) and its solver record. Programs that drive a
// Simulator themselves — splitting steps, retrying, closing a control loop
// — assemble their SimResult with it, and Simulator.Detect finds its
// switches as Simulate does.
//
// The stages are numbered from 0 in order: k must be the next stage index
// len(r.Steps), or, for the pieces of a split step, at least the stage of
// the last step appended. A nil result or step, a step without element
// boundaries, one whose boundaries, states, step sizes and boundary
// variables disagree in length (wrapping ErrDimension too) and a stage out
// of order give an error wrapping ErrAppendStep, and r is left unchanged.
func (r *SimResult) AppendStep(sr *StepResult, k int) error {
	if err := r.checkAppend(sr, k); err != nil {
		return err
	}
	r.Trajectory.appendStep(&sr.Trajectory, k)
	rec := sr.Record
	rec.Step = k
	r.Steps = append(r.Steps, rec)
	return nil
}

// checkAppend checks the arguments of AppendStep.
func (r *SimResult) checkAppend(sr *StepResult, k int) error {
	switch {
	case r == nil:
		return fmt.Errorf("%w: nil simulation result", ErrAppendStep)
	case sr == nil:
		return fmt.Errorf("%w: nil step result (stage %d)", ErrAppendStep, k)
	}
	tr := &sr.Trajectory
	nb := len(tr.T)
	if nb < 2 {
		return fmt.Errorf("%w: %w: step (stage %d) has an empty trajectory: %d element boundaries, at least 2 needed", ErrAppendStep, ErrDimension, k, nb)
	}
	if len(tr.X) != nb || len(tr.H) != nb-1 || len(tr.BoundaryZ) != nb {
		return fmt.Errorf("%w: %w: step (stage %d) has %d element boundaries, %d states, %d step sizes and %d boundary values (want %d, %d, %d)",
			ErrAppendStep, ErrDimension, k, nb, len(tr.X), len(tr.H), len(tr.BoundaryZ), nb, nb-1, nb)
	}
	next := len(r.Steps)
	if k == next {
		return nil
	}
	if next == 0 {
		return fmt.Errorf("%w: stage %d is out of order: the first step is stage 0", ErrAppendStep, k)
	}
	if last := r.Steps[next-1].Step; k < last {
		return fmt.Errorf("%w: stage %d is out of order: not the next stage %d and before the last stage %d", ErrAppendStep, k, next, last)
	}
	return nil
}
