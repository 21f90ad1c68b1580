package fesd

import (
	"context"
	"fmt"

	"github.com/fesd-go/fesd/mpcc"
)

// Rerun records the homotopy of a solve that ran two whose point is not
// the result (OCPResult.Rerun): its status and NLP iterations. The result
// is the second homotopy's, unless the context ended that one (then the result
// is the first's with Status mpcc.Cancelled, and Rerun holds the second's
// status, Cancelled, and iterations) or the first ended mpcc.Infeasible
// without its diagnosis confirming it and the second did not succeed: then
// the result is the first's, with that diagnosis (Status mpcc.NLPFailure),
// and Rerun holds the second's status and iterations. A first run whose
// infeasibility the diagnosis confirms is the result alone (bench/ocp's
// unreachable monopod: Infeasible at σ = 0.1, confirmed, no second run).
type Rerun struct {
	Status     mpcc.Status
	Iterations int
	// Result is the end point of the homotopy that Rerun records, as a
	// result (its status, homotopy records, iterations, trajectory and
	// residuals; nil after a cancellation), kept because the returned
	// run's point need not be the better one: on bench/ocp's monopod at N = 30 with ℓ∞
	// steering the first run ended at complementarity 1.0e-5 and objective
	// 202, the second at 1.3e-4 and 346. It is left out of JSON encodings
	// of Rerun (a summary's record of the first run stays small).
	Result *OCPResult `json:"-"`
}

// fallbackSolver returns the MPCC solver of the second homotopy of a
// failed solve (see Solve), or false when the inner solver is not the
// default one: a user's NLP settings or inner solver are not second-guessed.
func (s *OCPSolver) fallbackSolver() (mpcc.Solver, bool) {
	if s.o.Inner != nil || s.o.MPCC.NLP != nil {
		return mpcc.Solver{}, false
	}
	if s.innerAlt == nil {
		set := mpcc.DefaultNLPSettings()
		set.Inertia = ocpFallbackPolicy
		s.innerAlt = &mpcc.NLPSolver{Settings: set}
	}
	return mpcc.Solver{Settings: s.o.MPCC, Inner: s.innerAlt}, true
}

// ocpRuns is the outcome of the homotopies of one solve (Solve,
// rerunPolicy).
type ocpRuns struct {
	res     *mpcc.Result   // the run whose point is the result
	rerun   *Rerun         // the record of the other run (nil if there was one)
	first   *mpcc.Result   // the run that is not the result (Rerun.Result)
	inf     *Infeasibility // the diagnosis of a first run that ended Infeasible
	diagErr error          // why that diagnosis stopped (cancellation)
}

// rerunPolicy decides, for the first homotopy res of Solve from w0 (with
// the primal-dual start ws, nil for a primal start), whether a second one
// runs, runs it with the fallback solver from the same start and bounds
// xl, xu, and returns which run is the result (see OCPResult.Rerun and
// Rerun). A first run that ended mpcc.Infeasible is diagnosed first.
func (s *OCPSolver) rerunPolicy(ctx context.Context, mp *mpcc.Problem, res *mpcc.Result, ws *mpcc.WarmStart, w0, xl, xu []float64) (*ocpRuns, error) {
	var rerun *Rerun
	var first *mpcc.Result // the run that is not the result (Rerun.Result)
	var inf *Infeasibility // the diagnosis of a first run that ended Infeasible
	var diagErr error      // why that diagnosis stopped (cancellation)
	var err error
	fb, again := s.fallbackSolver()
	again = again && !res.Status.Success() && res.Status != mpcc.Cancelled && ctx.Err() == nil
	if again && res.Status == mpcc.Infeasible {
		// A confirmed infeasibility is the answer: the phase-1 problem
		// (diagnoseInfeasible) found no point of smaller violation, so
		// a second run of the same homotopy is not started.
		inf, diagErr = s.diagnoseInfeasible(ctx, w0, res.X, res.CompResidual, res.Sigma)
		again = diagErr == nil && inf.Unconfirmed
	}
	if again {
		// A second homotopy from the same start, its relaxed NLPs
		// starting with the other inertia policy (ocpNLPSettings). Its
		// result replaces the first one, also when it fails too, unless
		// the first ended Infeasible (see Rerun); the iterations of both
		// count.
		if err := s.setup(w0, xl, xu); err != nil {
			return nil, err
		}
		var res2 *mpcc.Result
		if ws != nil {
			w := *ws // the same start, in slices of its own
			w.X, w.Y, w.ZL, w.ZU = clone(ws.X), clone(ws.Y), clone(ws.ZL), clone(ws.ZU)
			res2, err = fb.SolveFrom(ctx, mp, &w)
		} else {
			res2, err = fb.Solve(ctx, mp)
		}
		if err != nil && !stoppedByContext(res2, err) {
			return nil, fmt.Errorf("fesd: OCP homotopy (second run): %w", err)
		}
		if res2.Status == mpcc.Cancelled {
			// The second run stopped from outside: the first run's end
			// point is the result (the second's is partial).
			rerun = &Rerun{Status: mpcc.Cancelled, Iterations: iterations(res2)}
			res.Status = mpcc.Cancelled
		} else if res.Status == mpcc.Infeasible && !res2.Status.Success() {
			// Two locally infeasible relaxed NLPs of an outer relaxation
			// say more than a second run that failed otherwise: the first
			// run is the result, with its diagnosis.
			rerun = &Rerun{Status: res2.Status, Iterations: iterations(res2)}
			first = res2
		} else {
			rerun = &Rerun{Status: res.Status, Iterations: iterations(res)}
			first = res
			res = res2
		}
	}
	return &ocpRuns{res: res, rerun: rerun, first: first, inf: inf, diagErr: diagErr}, nil
}

// diagnose sets r.Infeasible, r.Feasible and, when the infeasibility is
// not confirmed, r.Status for the homotopy result res that ended
// mpcc.Infeasible from the start w0. inf is res's diagnosis if it was
// made already (nil otherwise).
func (s *OCPSolver) diagnose(ctx context.Context, r *OCPResult, inf *Infeasibility, w0 []float64, res *mpcc.Result, zb0 []float64) error {
	if inf == nil {
		var err error
		if inf, err = s.diagnoseInfeasible(ctx, w0, res.X, res.CompResidual, res.Sigma); err != nil {
			return err
		}
	}
	r.Infeasible = inf
	if inf.Unconfirmed {
		r.Status = mpcc.NLPFailure
	}
	if inf.point != nil {
		r.Feasible = &OCPResult{Status: mpcc.NotSolved}
		if err := s.fill(r.Feasible, inf.point, zb0); err != nil {
			return err
		}
	}
	return nil
}
