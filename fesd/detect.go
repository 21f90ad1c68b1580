package fesd

import "fmt"

// Detect lists the switches of a simulation result r assembled from the
// steps of this simulator, or of simulators of the same model and
// Options, with SimResult.AppendStep: the detection Simulate runs over
// its whole trajectory (the side of every switching function on every
// element, read from the complementarity pairs, and a switch where it
// changes at a boundary with |ψ(x_n)| ≤ SwitchTol; see Switch and
// SwitchKind). uOf gives the control of simulation step (stage) k and p
// are the parameters (nil for a model without them). r is only read; set
// r.Switches to the result to keep it.
func (s *Simulator) Detect(r *SimResult, uOf func(k int) []float64, p []float64) ([]Switch, error) {
	if s == nil || s.sw == nil {
		return nil, ErrNilSolver
	}
	if r == nil || len(r.H) == 0 {
		return nil, nil
	}
	ns := s.o.Stages
	if len(r.T) != len(r.H)+1 || len(r.X) != len(r.T) || len(r.StageOf) != len(r.H) || len(r.PointZ) != len(r.H)*ns ||
		(!s.o.DisableFESD && len(r.BoundaryZ) != len(r.T)) || len(r.Z0) != s.tr.nz {
		return nil, fmt.Errorf("%w: the result does not have the layout of this simulator's steps (%d elements of %d stage points)", ErrDimension, len(r.H), ns)
	}
	if uOf == nil {
		uOf = func(int) []float64 { return nil }
	}
	return s.sw.detect(&r.Trajectory, func(n int) []float64 { return uOf(r.StageOf[n]) }, func(int) []float64 { return p })
}
