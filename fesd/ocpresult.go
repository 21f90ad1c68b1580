package fesd

import (
	"math"
	"time"

	"github.com/fesd-go/fesd/mpcc"
)

// OCPResult is the solution of an OCP. Its Trajectory holds the element
// boundaries, stage points and detected switches; the fields below add
// the stage-level results, physical times and the solver record.
type OCPResult struct {
	Trajectory
	// Status is the homotopy status (mpcc.Solved on success).
	Status mpcc.Status
	// Objective is the OCP cost: running, terminal and tracking costs, T_f
	// for TimeOptimal and the speed-of-time regularization. NLPObjective
	// adds the step-equilibration term.
	Objective, NLPObjective float64
	// TFinal is the physical horizon T_f (T unless time is free or scaled).
	TFinal float64

	// StageT are the N+1 stage boundaries (numerical time), StageTPhys
	// their physical times, StageX the states there (StageX[0] = x₀);
	// U are the N controls q_k, SOT the speed of time of every stage (1
	// without speed-of-time variables; the time scaling s_T = T_f/T of a
	// free-time problem), V the global variables.
	StageT     []float64
	StageTPhys []float64
	StageX     [][]float64
	U          [][]float64
	SOT        []float64
	V          []float64
	// TPhys and PointTPhys are the physical times (∫ s dτ) of the element
	// boundaries T and of the stage points PointT.
	TPhys, PointTPhys []float64
	// ElementResidual is, for every finite element, the largest
	// complementarity term |c_k(w)| = |Σ G·H| of that element (its
	// cross-complementarity and step-equilibration terms; path
	// complementarities belong to no element and count only in
	// CompResidual): where a solution that misses the tolerance misses it.
	ElementResidual []float64

	// Solver record: the homotopy steps (σ, residuals, NLP status and
	// iterations), their total number of NLP iterations, the final
	// complementarity residuals and the solve time.
	Homotopy                      []mpcc.HomotopyStep
	Iterations                    int
	CompResidual, NaturalResidual float64
	// Stationarity is the certified class of the point (mpcc.Result's:
	// B or S is B-stationary), Certificate its certificate (index sets,
	// multipliers, LPEC) and Finish the record of the active-set finish
	// (mpcc.Settings.Finish); Iterations include the certificate's and
	// the finish's NLP iterations.
	Stationarity mpcc.Stationarity
	Certificate  *mpcc.Certificate
	Finish       *mpcc.FinishRecord
	// Infeasibility is the largest violation of the NLP's other
	// constraints at the result's point: the RK equations, the step-size
	// and clock constraints, path and terminal constraints (g_L ≤ g(w) ≤
	// g_U) and the variable bounds of the transcription. With CompResidual
	// it certifies a point, for example a saved solution given to
	// Evaluate.
	Infeasibility float64
	// Infeasible is the diagnosis of a homotopy that ended
	// mpcc.Infeasible (nil otherwise): the constraint groups that cannot
	// be met, found by a phase-1 MPCC with the OCP's own constraints
	// elastic (Infeasibility). If that MPCC meets every group
	// (Infeasibility.Unconfirmed), Status is mpcc.NLPFailure. It is nil
	// when the context ended before the diagnosis did (Solve then returns
	// the result with an error wrapping the context's).
	Infeasible *Infeasibility
	// Feasible is the point the diagnosis found when its phase-1 MPCC met
	// every constraint group (Infeasible.Unconfirmed without FromHomotopy),
	// as a result (as OCPSolver.Evaluate: Status mpcc.NotSolved, no
	// Homotopy): a trajectory that meets the OCP's constraints to its
	// Infeasibility and its complementarity to its CompResidual, chosen
	// without regard to the objective — a fallback or a start for another
	// solve, not an optimum (nil otherwise). On bench/ocp's monopod at
	// N = 30 it meets the dynamics to 2.3e-6 at complementarity 4.7e-8,
	// where the homotopy's point misses them by 1e-5.
	Feasible *OCPResult
	// Rerun records the other homotopy of a solve that ran two (nil if
	// there was one): with the default inner solver a homotopy that does
	// not solve is run once more from the same start, its relaxed NLPs
	// starting with the other inertia policy (OCPSolver.Solve), and the
	// result is the second run's (see Rerun for the exceptions). A first
	// run that ends mpcc.Infeasible is diagnosed at once, and run again
	// only when the diagnosis does not confirm it (Infeasible.Unconfirmed).
	// Iterations and Elapsed include both.
	Rerun   *Rerun
	Elapsed time.Duration
	// NumVariables, NumConstraints and NumComplementarities give the size
	// of the MPCC.
	NumVariables, NumConstraints, NumComplementarities int

	// Validity is the physical validity of the result of a time-freezing
	// model (dcs.NewTimeFreezing; nil for other models): drift below the
	// ground while the clock advances, phantom contact, the clock at the
	// end of the horizon, flight phases. A homotopy that solved the MPCC
	// at a point that is not valid ends mpcc.Invalid instead of
	// mpcc.Solved, and Validity names the violated items.
	Validity *Validity
	// Contacts is, for an OCP on a CLS (OCP.CLS), the FESD-J view of the
	// trajectory as SimulateCLS reports it: the element boundaries and
	// states before the impulses (T, X, as the trajectory's), the states
	// after them (XStart), the contact events — impacts, lift-off, stick,
	// slip; ContactEvent.Step is the control stage — and the contact
	// modes of every element; its Steps are nil (nil for a DCS model).
	Contacts *CLSResult
	// CLSValidity is the physical validity of the result of an OCP on a
	// CLS (nil for a DCS model): penetration, normal forces and impulses
	// where the gap is open, Newton's law at the impulses, flight phases
	// (default CLSValidityTolerances). A homotopy that solved the MPCC at
	// a point that is not valid ends mpcc.Invalid instead of mpcc.Solved,
	// and CLSValidity names the violated items.
	CLSValidity *CLSValidity

	// LastSuccess is set when the homotopy ended on a failed step after an
	// earlier step had succeeded: the result at that earlier step's point
	// (as OCPSolver.Evaluate: Status mpcc.NotSolved; its Homotopy holds the
	// records up to and including that step). The result itself is the
	// failed step's point, where a continuation would start.
	LastSuccess *OCPResult

	w []float64 // NLP solution (warm start)
	// point is the primal-dual point of the homotopy's last relaxed NLP
	// and layout the relaxation that shaped it (for Shift and Start.Warm).
	point  *mpcc.WarmStart
	layout relaxLayout
	// sigma is the relaxation parameter of that relaxed NLP.
	sigma float64
}

// NLPSolution returns a copy of the NLP solution vector w of the result, in
// the solver's variable order (see NumVariables). Saved, it restarts a
// later solve of the same OCP through WarmFromNLPSolution, e.g. in another
// process. A nil result has none (nil).
func (r *OCPResult) NLPSolution() []float64 {
	if r == nil {
		return nil
	}
	return clone(r.w)
}

// WarmFromNLPSolution returns a result that carries only the NLP solution
// w (a copy), for Start.Warm: a start from a solution saved with
// NLPSolution. Its length is checked against the NLP when the solve starts
// (ErrDimension) and its entries must be finite (ErrNonFinite).
func WarmFromNLPSolution(w []float64) *OCPResult { return &OCPResult{w: clone(w)} }

// fill writes the result at the NLP point w: trajectory, switches,
// stage-level values, residuals and infeasibility.
func (s *OCPSolver) fill(r *OCPResult, w, zb0 []float64) error {
	tr := s.tr
	pv := s.params()
	if err := tr.prob.SetParams(pv); err != nil {
		return err
	}
	out, err := tr.outputs(w, pv)
	if err != nil {
		return err
	}
	NE, N := tr.NE, tr.N
	r.w = clone(w)
	r.NumVariables, r.NumConstraints, r.NumComplementarities = tr.numW, tr.numC, len(tr.comp)
	r.Trajectory.fill(tr, w, out, zb0)
	r.Objective, r.NLPObjective, r.TFinal = out.cost, out.obj, out.tf
	r.SOT = out.s
	r.TPhys = make([]float64, NE+1)
	r.TPhys[0] = s.t0
	for n := 0; n < NE; n++ {
		r.TPhys[n+1] = r.TPhys[n] + r.SOT[tr.stageOf[n]]*r.H[n]
	}
	c := s.o.tab.C
	for n := 0; n < NE; n++ {
		for m := 0; m < tr.ns; m++ {
			r.PointTPhys = append(r.PointTPhys, r.TPhys[n]+r.SOT[tr.stageOf[n]]*c[m]*r.H[n])
		}
	}
	for k := 0; k <= N; k++ {
		n := tr.elemStart[k]
		r.StageX = append(r.StageX, r.X[n])
		r.StageT = append(r.StageT, r.T[n])
		r.StageTPhys = append(r.StageTPhys, r.TPhys[n])
	}
	g := &guess{s: s, st: &Start{}}
	for k := 0; k < N; k++ {
		if tr.u[k] >= 0 {
			r.U = append(r.U, clone(w[tr.u[k]:tr.u[k]+tr.nu]))
		} else {
			r.U = append(r.U, make([]float64, tr.nu))
		}
	}
	if tr.v >= 0 {
		r.V = clone(w[tr.v : tr.v+len(s.p.V)])
	}
	r.ElementResidual = make([]float64, NE)
	for k, c := range tr.comp {
		if n := tr.compElem[k]; n >= 0 {
			r.ElementResidual[n] = math.Max(r.ElementResidual[n], math.Abs(c.Value(w)))
		}
	}
	mp := mpcc.Problem{NLP: tr.prob, Comp: tr.comp}
	r.CompResidual, r.NaturalResidual = mp.Residuals(w, tr.wl)
	if r.Infeasibility, err = s.infeasibility(w); err != nil {
		return err
	}
	// the consistent algebraic values at x₀ with the solution's first
	// control and parameters, for the switch detection
	pk := func(k int) []float64 {
		v := g.stageP(k)
		for j, e := range s.p.V {
			for i := range v {
				if tr.d.P[i] == e {
					v[i] = r.V[j]
				}
			}
		}
		return v
	}
	z0, err := s.system().algebraic(r.X[0], r.U[0], pk(0))
	if err != nil {
		return err
	}
	r.Z0 = z0
	if s.sw != nil { // a system with a switch read-out
		sw, err := s.sw.detect(&r.Trajectory, func(n int) []float64 { return r.U[tr.stageOf[n]] }, func(n int) []float64 { return pk(tr.stageOf[n]) })
		if err != nil {
			return err
		}
		r.Switches = sw
	}
	if err := s.system().result(s, r, w, pk); err != nil {
		return err
	}
	if s.valid != nil {
		// the physical horizon the clock must span: T (with free time,
		// T_f = ∫ s dτ includes the frozen phases and is no clock
		// horizon: no clock item)
		horizon := s.p.T
		if s.p.FreeTime || s.p.TimeOptimal {
			horizon = 0
		}
		r.Validity, err = s.valid.check(&r.Trajectory, pk, s.p.Validity, horizon, tr.elemStart)
		if err != nil {
			return err
		}
	}
	return nil
}

// UAt returns the control of the element or stage point at numerical time
// t (piecewise constant, right-continuous); nil for a result without
// controls.
func (r *OCPResult) UAt(t float64) []float64 {
	if r == nil || len(r.U) == 0 || len(r.StageT) < len(r.U) {
		return nil
	}
	k := 0
	for k+1 < len(r.U) && t >= r.StageT[k+1] {
		k++
	}
	return r.U[k]
}
