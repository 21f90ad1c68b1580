package mpcc

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/fesd-go/fesd/nlp"
)

// Status is the outcome of a homotopy.
type Status int

const (
	// Solved: the last relaxed NLP (or the accepted active-set finish) was
	// solved and the complementarity residual is at most CompTol; or the
	// last relaxed NLP ended NumericalError or Infeasible at a point with
	// the residual at most CompTol and the constraints of the MPCC met to
	// 1e-8·max(1, ‖x‖∞) (its HomotopyStep keeps the inner status).
	Solved Status = iota
	// SigmaLimit: σ reached σ_N with the residual above CompTol.
	SigmaLimit
	// MaxSteps: Settings.MaxSteps NLPs were solved with the residual above
	// CompTol.
	MaxSteps
	// NLPFailure: the last relaxed NLP did not converge (nlp status not
	// Solved/SolvedAcceptable).
	NLPFailure
	// Cancelled: the context was cancelled.
	Cancelled
	// NotSolved: no homotopy ran; the result was evaluated at a given
	// point (for example fesd.OCPSolver.Evaluate of a saved solution).
	NotSolved
	// Infeasible: the MPCC is locally infeasible. Two consecutive relaxed
	// NLPs ended nlp.Infeasible (the inner solver's restoration phase
	// converged to a stationary point of the constraint violation) at
	// points far from MPCC-feasible (the NLP's constraints violated by more
	// than 1e-8·max(1, ‖x‖∞), or the complementarity residual above
	// ActiveTol²), with direct steering and a relaxation whose feasible set
	// contains the MPCC's (Relaxation.Outer), so no smaller σ can be
	// feasible near that point. The result is at the last infeasible
	// point.
	Infeasible
	// Invalid: the homotopy solved the MPCC (as Solved), but the solution
	// fails a check of the problem it models: for fesd, the physical
	// validity of a time-freezing model (fesd.OCPResult.Validity names the
	// violated items). mpcc itself never returns it.
	Invalid
	numStatuses
)

var statusTable = [...]struct {
	name    string
	success bool
}{
	Solved:     {"Solved", true},
	SigmaLimit: {"SigmaLimit", false},
	MaxSteps:   {"MaxSteps", false},
	NLPFailure: {"NLPFailure", false},
	Cancelled:  {"Cancelled", false},
	NotSolved:  {"NotSolved", false},
	Infeasible: {"Infeasible", false},
	Invalid:    {"Invalid", false},
}

func (s Status) String() string {
	if s < 0 || s >= numStatuses {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusTable[s].name
}

// Success reports whether the status is Solved.
func (s Status) Success() bool { return s >= 0 && s < numStatuses && statusTable[s].success }

// HomotopyStep records one relaxed NLP solve.
type HomotopyStep struct {
	Sigma float64
	// CompResidual and NaturalResidual are those of Problem.Residuals at
	// the step's solution.
	CompResidual, NaturalResidual float64
	// Objective is the MPCC objective f(x) (without penalty terms).
	Objective  float64
	Status     nlp.Status
	Iterations int
	Elapsed    time.Duration
	// Tol is the inexact tolerance the relaxed NLP was solved to
	// (Settings.InexactFactor), 0 for the inner solver's own; a step
	// with Tol = 0 after one with the same σ is the exact re-solve.
	Tol float64
}

// Result is the outcome of Solver.Solve.
type Result struct {
	Status Status
	// X is the MPCC point (length n of Problem.NLP): the last relaxed
	// solution, or the certified point of the active-set finish if it was
	// accepted (then the complementarity holds exactly), or the NLP's
	// starting point if the solve was cancelled before the first relaxed
	// NLP. It always has length n.
	X []float64
	// Y are the multipliers of the MPCC's constraints g (length m) from the
	// same solve (empty if no relaxed NLP ran).
	Y []float64
	// Objective is f(X).
	Objective float64
	// CompResidual and NaturalResidual are Problem.Residuals(X).
	CompResidual, NaturalResidual float64
	// Sigma is σ of the last relaxed NLP.
	Sigma float64
	// Steps has one record per relaxed NLP.
	Steps []HomotopyStep
	// Stationarity is the certified class of X: Certificate.Class when
	// Certificate.X is X (accepted finish) or within ActiveTol·max(1,
	// ‖X‖∞) of it, NotCertified otherwise.
	Stationarity Stationarity
	// Certificate is the certificate of the accepted finish point or, if
	// none, of the tightening of the homotopy point (never nil; with
	// NoCertificate or Cancelled it only carries the reason).
	Certificate *Certificate
	// Finish records the active-set finish (nil unless ActiveSetFinish;
	// with FinishSigma it is the last attempt).
	Finish *FinishRecord
	// FinishIterations are the NLP iterations of the certificate and of
	// every finish attempt, the rejected early ones (FinishSigma)
	// included; with Steps' iterations they are the solve's total.
	FinishIterations int
	// LastSuccess is the point of the last relaxed NLP whose inner solve
	// succeeded (nil if none did). X is the last step's point even when
	// that step failed (as in nosnoc, so that a continuation starts where
	// the homotopy stopped); LastSuccess keeps the last stationary point of
	// a relaxed NLP, which after a failure at small σ can be far closer to
	// feasible than X (monopod Step N = 30: residual 9.7e-5 against 2.8).
	LastSuccess *StepPoint
	// Point is the primal-dual point of the last relaxed NLP that ran (its
	// x, y, z_L and z_U, in the variables and constraints of the relaxed
	// NLP: Relaxed.Dims for the solver's Relaxation and Steering); the
	// multipliers are nil when they were not finite. Nil if no relaxed NLP
	// ran. SolveFrom starts a later solve from it (MapPoint carries it over
	// to a shifted problem).
	Point   *WarmStart
	Elapsed time.Duration
}

// StepPoint is the primal point of one homotopy step.
type StepPoint struct {
	// Step indexes Result.Steps.
	Step int
	// X is the MPCC point (length n of Problem.NLP).
	X []float64
	// Objective is f(X); CompResidual and NaturalResidual are
	// Problem.Residuals(X) (the step's record in Result.Steps).
	Objective                     float64
	CompResidual, NaturalResidual float64
}

// Solver runs the relaxation homotopy.
type Solver struct {
	Settings Settings
	// Inner solves the NLPs; nil means &NLPSolver{Settings: *Settings.NLP}
	// or DefaultNLPSettings().
	Inner InnerSolver

	// lpecLPs, if positive, replaces the LPEC's budget lpecMaxLPs (a test
	// hook for the budget running out).
	lpecLPs int
}

// params returns the resolved settings with the test hooks applied.
func (s *Solver) params() params {
	p := s.Settings.resolve()
	if s.lpecLPs > 0 {
		p.lpecMaxLPs = s.lpecLPs
	}
	return p
}

func finiteVec(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// Solve runs the homotopy on p:
//
//	σ ← σ₀; x ← start
//	repeat: solve the relaxed NLP(σ) warm-started at the previous primal-dual
//	        solution; record the step;
//	        stop if the NLP succeeded and CompResidual ≤ CompTol (Solved),
//	        if σ ≤ σ_N, or after MaxSteps solves; σ ← update(σ).
//
// A failed NLP does not stop the loop (as in nosnoc); its point is passed on
// if finite. The error is non-nil when the homotopy could not run (invalid
// problem or settings, or an inner solver error; the result is then nil),
// and when a relaxed NLP stopped because of the Problem (InnerResult.Err: a
// callback error, wrapping nlp.ErrCallback and the callback's error, or a
// derivative mismatch, wrapping nlp.ErrDerivatives): the homotopy then ends
// at that step with status NLPFailure and the error comes with the result
// (X from the last finite point, no certificate), as nlp.Solver does. A
// homotopy stopped by ctx returns its partial result with Status Cancelled
// and an error wrapping ctx.Err() (see the package documentation,
// "Cancellation").
func (s *Solver) Solve(ctx context.Context, p *Problem) (*Result, error) {
	return s.solve(ctx, p, nil)
}

// SolveFrom is Solve with the first relaxed NLP started from the
// primal-dual point start instead of the NLP's start: start.X is a point of
// the relaxed NLP (length n of Relaxed.Dims for s.Settings' Relaxation and
// Steering), start.Y, ZL and ZU its multipliers (each nil or of full
// length; dropped with ColdDuals), as in Result.Point. The first solve is
// then warm-started like every later homotopy step: its barrier parameter
// is μ₀ = max(1e-9, 0.1·σ₀) (start.MuInit and MaxIter are
// not used). A nil start is Solve. Wrong lengths or non-finite values are
// an error.
func (s *Solver) SolveFrom(ctx context.Context, p *Problem, start *WarmStart) (*Result, error) {
	if start == nil {
		return s.solve(ctx, p, nil)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	n0, m0 := p.NLP.Dims()
	nSlack, nRows := relaxedExtra(p, s.Settings.Relaxation, s.Settings.Steering)
	n, m := n0+nSlack, m0+nRows
	for _, v := range []struct {
		name string
		x    []float64
		want int
		opt  bool
	}{{"X", start.X, n, false}, {"Y", start.Y, m, true}, {"ZL", start.ZL, n, true}, {"ZU", start.ZU, n, true}} {
		if v.x == nil && v.opt {
			continue
		}
		if len(v.x) != v.want {
			return nil, fmt.Errorf("%w: start %s has length %d, want %d", ErrDimension, v.name, len(v.x), v.want)
		}
		if !finiteVec(v.x) {
			return nil, fmt.Errorf("%w: start %s is not finite", ErrDimension, v.name)
		}
	}
	w := &WarmStart{X: append([]float64(nil), start.X...)}
	if !s.Settings.ColdDuals {
		w.Y = append([]float64(nil), start.Y...)
		w.ZL = append([]float64(nil), start.ZL...)
		w.ZU = append([]float64(nil), start.ZU...)
	}
	return s.solve(ctx, p, w)
}

// relaxedExtra returns the numbers of slacks and relaxation rows that the
// relaxed NLP of p adds for the relaxation r and steering st (zero
// values: the defaults), as Relaxed.Dims counts them.
func relaxedExtra(p *Problem, r Relaxation, st Steering) (nSlack, nRows int) {
	switch {
	case st == L1 && r.AllowsSums():
	case st == L1:
		nSlack = len(p.Comp)
	case st == LInf:
		nSlack = 1
	}
	if !(st == L1 && r.AllowsSums()) {
		nRows = len(p.Comp) * len(r.rows())
	}
	return nSlack, nRows
}

// solve runs the homotopy from start (nil: the NLP's start); see Solve
// and homotopy for its parts.
func (s *Solver) solve(ctx context.Context, p *Problem, start *WarmStart) (*Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	h, err := s.newHomotopy(p, start)
	if err != nil {
		return nil, err
	}
	for k := 0; k < h.prm.maxSteps+h.extra; k++ {
		stop, err := h.step(ctx, k)
		if err != nil {
			return nil, err
		}
		if stop {
			break
		}
	}
	return h.end(ctx)
}

// cutByContext reports whether an NLP of res's certificate or finish ended
// nlp.Cancelled.
func cutByContext(res *Result) bool {
	if c := res.Certificate; c != nil && c.NLPStatus == nlp.Cancelled {
		return true
	}
	if f := res.Finish; f != nil {
		for _, b := range f.Solves {
			if b.Status == nlp.Cancelled {
				return true
			}
		}
	}
	return false
}

// cancelErr is the error returned with a result of Status Cancelled: it
// wraps ctx.Err() (the rule of nlp.Solver.Solve and fesd).
func cancelErr(ctx context.Context, res *Result) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mpcc: homotopy cancelled after %d steps: %w", len(res.Steps), err)
	}
	// An inner solver reported Cancelled with ctx still live.
	return fmt.Errorf("mpcc: homotopy cancelled after %d steps by the inner solver", len(res.Steps))
}

// inner returns the inner solver: Solver.Inner, or an NLPSolver with
// Settings.NLP or DefaultNLPSettings().
func (s *Solver) inner() InnerSolver {
	if s.Inner != nil {
		return s.Inner
	}
	ns := DefaultNLPSettings()
	if s.Settings.NLP != nil {
		ns = *s.Settings.NLP
	}
	return &NLPSolver{Settings: ns}
}

// Certify certifies a point x of p (length n of p.NLP) without a
// homotopy: it fixes the pair variables within Settings.ActiveTol of their
// lower bound (and the smaller side of every other pair), solves the
// tightened NLP from x and classifies its solution, solving the LPEC when
// the multiplier signs do not decide (see the package documentation,
// "Certificate"). The certificate describes Certificate.X; its Distance to
// x says how far the point moved. The error means that the certificate
// could not run (invalid problem, settings or x, inner solver error).
func (s *Solver) Certify(ctx context.Context, p *Problem, x []float64) (*Certificate, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := s.Settings.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	n0, m0 := p.NLP.Dims()
	if len(x) != n0 {
		return nil, fmt.Errorf("%w: x has length %d, want %d", ErrDimension, len(x), n0)
	}
	if !finiteVec(x) {
		return nil, fmt.Errorf("%w: x is not finite", ErrDimension)
	}
	prm := s.params()
	xL := make([]float64, n0)
	p.NLP.Bounds(xL, make([]float64, n0), make([]float64, m0), make([]float64, m0))
	pi := newPairInfo(p, n0)
	c, _, err := s.certify(ctx, s.inner(), p, pi, prm, pi.identify(x, xL, prm.activeTol), x, nil)
	return c, err
}

// fillResult sets the point, multipliers, residuals and objective of res
// from the inner result last.
func (s *Solver) fillResult(p *Problem, last *InnerResult, xL []float64, res *Result) error {
	n0, m0 := p.NLP.Dims()
	res.X = append(res.X[:0], last.X[:n0]...)
	res.Y = res.Y[:0]
	if len(last.Y) >= m0 {
		res.Y = append(res.Y, last.Y[:m0]...)
	}
	res.CompResidual, res.NaturalResidual = p.Residuals(res.X, xL)
	var err error
	if res.Objective, err = p.NLP.Objective(res.X); err != nil {
		res.Objective = math.NaN()
	}
	return nil
}

// innerTol returns the tolerance of the default inner solver (0 for
// others, which then always get the re-solve of Settings.InexactFactor).
func innerTol(in InnerSolver) float64 {
	if s, ok := in.(*NLPSolver); ok {
		return s.Settings.Tol
	}
	return 0
}

// numericalEnd reports the inner statuses after which a point that meets
// the tolerances is kept (see Solved): a stall of the inner solver, not an
// iteration limit (far from a solution, possibly) nor a stop from outside.
func numericalEnd(st nlp.Status) bool { return st == nlp.NumericalError || st == nlp.Infeasible }

// feasibleEnd reports whether x meets the bounds and constraints of nl to
// finishFeasTol·max(1, ‖x‖∞), the tolerance of a certified point.
func feasibleEnd(nl nlp.Problem, x []float64) bool {
	v, err := nlp.Violation(nl, x)
	return err == nil && v <= finishFeasTol*math.Max(1, maxAbs(x))
}

// farFromMPCC reports whether an infeasible relaxed NLP's point x is
// evidence that the MPCC is infeasible: its own constraints violated
// beyond the tolerance of a certified point, or a complementarity residual
// above ActiveTol² (a pair with both members within ActiveTol counts as
// complementary in the certificate). A point that meets the constraints
// with a residual within that is a numerical failure of the relaxed NLP
// at a small σ, not evidence that no MPCC point is near.
func farFromMPCC(nl nlp.Problem, x []float64, comp float64, prm params) bool {
	return !feasibleEnd(nl, x) || comp > prm.activeTol*prm.activeTol
}
