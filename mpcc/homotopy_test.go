package mpcc

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/nlp"
)

// toyNLP is min (x₀ − 1)² + (x₁ − 1)² over x ≥ 0 without constraints; with
// the pair 0 ≤ x₀ ⊥ x₁ ≥ 0 its MPCC solutions are (1, 0) and (0, 1), f = 1.
func toyNLP() *denseNLP {
	inf := math.Inf(1)
	return &denseNLP{
		n: 2, m: 0,
		xL: []float64{0, 0}, xU: []float64{inf, inf},
		x0: []float64{0.5, 0.5},
		f: func(x []float64) float64 {
			return (x[0]-1)*(x[0]-1) + (x[1]-1)*(x[1]-1)
		},
		grad: func(x, g []float64) { g[0], g[1] = 2*(x[0]-1), 2*(x[1]-1) },
		cons: func(x, g []float64) {},
		jac:  func(x []float64, j [][]float64) {},
		hess: func(x []float64, s float64, l []float64, h [][]float64) { h[0][0], h[1][1] = 2*s, 2*s },
	}
}

// fakeCall records what the homotopy handed to the inner solver.
type fakeCall struct {
	sigma float64 // σ of the relaxed NLP, NaN for a tightened NLP
	start []float64
	warm  *WarmStart
	xL    []float64
	xU    []float64
}

// fakeSolver answers every relaxed solve with x = point(σ) (slacks at σ)
// and multipliers filled with the call number, so the hand-off is
// traceable; calls records the relaxed solves, tight the tightened ones
// (certificate and finish), which return the fixed variables at their
// bound and the others at tightX (default 1).
type fakeSolver struct {
	calls  []fakeCall
	tight  []fakeCall
	point  func(sigma float64) []float64 // MPCC part of x
	status func(call int) nlp.Status
	// tightStatus, if set, is the status of every tightened solve.
	tightStatus *nlp.Status
	tightX      float64
}

func (f *fakeSolver) SolveNLP(ctx context.Context, p nlp.Problem, warm *WarmStart) (*InnerResult, error) {
	n, m := p.Dims()
	c := fakeCall{sigma: math.NaN(), warm: warm, start: make([]float64, n), xL: make([]float64, n), xU: make([]float64, n)}
	p.Start(c.start)
	p.Bounds(c.xL, c.xU, make([]float64, m), make([]float64, m))
	q, ok := p.(*Relaxed)
	if _, tight := p.(interface{ tightened() }); tight {
		f.tight = append(f.tight, c)
		r := &InnerResult{Status: nlp.Solved, Iterations: 3, Y: fill(m, 0), ZL: fill(n, 0), ZU: fill(n, 0)}
		if f.tightStatus != nil {
			r.Status = *f.tightStatus
		}
		r.X = make([]float64, n)
		for i := range r.X {
			r.X[i] = 1
			if f.tightX != 0 {
				r.X[i] = f.tightX
			}
			if c.xU[i] == c.xL[i] {
				r.X[i] = c.xL[i]
			}
		}
		return r, nil
	}
	if !ok {
		return nil, errors.New("fakeSolver: unexpected problem type")
	}
	k := len(f.calls)
	f.calls = append(f.calls, c)
	r := &InnerResult{Status: nlp.Solved, Iterations: 10 + k, Y: fill(m, float64(k+1)), ZL: fill(n, float64(k+2)), ZU: fill(n, float64(k+3))}
	if f.status != nil {
		r.Status = f.status(k)
	}
	f.calls[k].sigma = q.Sigma()
	r.X = fill(n, q.Sigma())
	copy(r.X, f.point(q.Sigma()))
	return r, nil
}

func onePair() *Problem { return &Problem{NLP: toyNLP(), Comp: []Complementarity{Pair(0, 1)}} }

// TestHomotopySchedule checks the σ sequence, the stopping rules and the
// final status with a fake inner solver whose solution has x₀x₁ = r·σ.
// References: the linear rule σ_k = 10^{−k} and σ_N = 1e-10 (the defaults
// of nosnoc's +nosnoc/+reg_homotopy/Options.m: κ = 0.1, σ_N =
// min(0.1·complementarity_tol, 1e-9)).
func TestHomotopySchedule(t *testing.T) {
	cases := []struct {
		name      string
		set       Settings
		r         float64 // residual factor: x = (1, r·σ)
		status    func(int) nlp.Status
		wantSteps int
		want      Status
		lastSigma float64
	}{
		// comp = 0.99σ ≤ 1e-9 first at σ = 1e-9: 10 solves (0.99 absorbs
		// the rounding of 0.1⁹).
		{"defaults, comp = σ", Settings{InexactFactor: -1}, 0.99, nil, 10, Solved, 1e-9},
		// comp = 9.9σ ≤ 1e-9 first at σ_N = 1e-10: 11 solves.
		{"defaults, comp = 9.9σ", Settings{InexactFactor: -1}, 9.9, nil, 11, Solved, 1e-10},
		// comp = 100σ never ≤ 1e-9: stops at σ_N.
		{"sigma limit", Settings{InexactFactor: -1}, 100, nil, 11, SigmaLimit, 1e-10},
		{"max steps", Settings{InexactFactor: -1, MaxSteps: 3}, 1, nil, 3, MaxSteps, 1e-2},
		{"custom tol", Settings{InexactFactor: -1, CompTol: 1e-4}, 0.99, nil, 5, Solved, 1e-4},
		{"kappa 0.5", Settings{InexactFactor: -1, Kappa: 0.5, CompTol: 0.1}, 1, nil, 5, Solved, 0.0625},
		// An NLP failure does not stop the loop; a converged step after it
		// ends with Solved, a failure at the end with NLPFailure.
		{"failure then success", Settings{InexactFactor: -1}, 0.99, func(k int) nlp.Status {
			if k == 3 {
				return nlp.IterationLimit
			}
			return nlp.Solved
		}, 10, Solved, 1e-9},
		{"failure at the end", Settings{InexactFactor: -1}, 10, func(k int) nlp.Status {
			if k == 10 {
				return nlp.IterationLimit
			}
			return nlp.SolvedAcceptable
		}, 11, NLPFailure, 1e-10},
		// A NumericalError at a point that meets CompTol and the
		// constraints ends Solved (the status Solved's second case).
		{"numerical end within the tolerances", Settings{InexactFactor: -1}, 10, func(k int) nlp.Status {
			if k == 10 {
				return nlp.NumericalError
			}
			return nlp.SolvedAcceptable
		}, 11, Solved, 1e-10},
		// The same above CompTol: NLPFailure.
		{"numerical end above CompTol", Settings{InexactFactor: -1}, 20, func(k int) nlp.Status {
			if k == 10 {
				return nlp.NumericalError
			}
			return nlp.SolvedAcceptable
		}, 11, NLPFailure, 1e-10},
		// Relaxed NLPs that end Infeasible at points within the MPCC's
		// tolerances (residual 5σ ≤ ActiveTol² = 1e-7 from σ = 1e-8 on)
		// are no evidence of infeasibility; the last one meets CompTol
		// (5e-10) and ends the homotopy Solved.
		{"infeasible ends near feasible points", Settings{InexactFactor: -1}, 5, func(k int) nlp.Status {
			if k >= 8 {
				return nlp.Infeasible
			}
			return nlp.Solved
		}, 11, Solved, 1e-10},
		// Superlinear: 1, 0.1, 0.01, 1e-3, 10^{−4.5}, 10^{−6.75}, then
		// 10^{−10.125} is clamped to σ_N = 1e-10.
		{"superlinear", Settings{InexactFactor: -1, Update: Superlinear}, 100, nil, 7, SigmaLimit, 1e-10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeSolver{point: func(s float64) []float64 { return []float64{1, c.r * s} }, status: c.status}
			// CertifyOnly: the finish would turn SigmaLimit and NLPFailure
			// into Solved (TestHomotopyFinishFake).
			set := c.set
			set.Finish = CertifyOnly
			s := Solver{Settings: set, Inner: f}
			res, err := s.Solve(context.Background(), onePair())
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != c.want || len(res.Steps) != c.wantSteps {
				t.Fatalf("status %v after %d steps, want %v after %d", res.Status, len(res.Steps), c.want, c.wantSteps)
			}
			if math.Abs(res.Sigma-c.lastSigma) > 1e-12*c.lastSigma {
				t.Errorf("last σ = %g, want %g", res.Sigma, c.lastSigma)
			}
			sched, err := c.set.Schedule()
			if err != nil {
				t.Fatal(err)
			}
			for k, st := range res.Steps {
				if math.Abs(st.Sigma-sched[k]) > 1e-12*sched[k] || f.calls[k].sigma != st.Sigma {
					t.Errorf("step %d: σ = %g, schedule %g, solver saw %g", k, st.Sigma, sched[k], f.calls[k].sigma)
				}
				if st.Iterations != 10+k {
					t.Errorf("step %d: iterations %d, want %d", k, st.Iterations, 10+k)
				}
				want := c.r * st.Sigma
				if math.Abs(st.CompResidual-want) > 1e-12*want {
					t.Errorf("step %d: residual %g, want %g", k, st.CompResidual, want)
				}
			}
		})
	}
}

func TestScheduleSuperlinear(t *testing.T) {
	s := Settings{Update: Superlinear}
	got, err := s.Schedule()
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 0.1, 0.01, 1e-3, math.Pow(10, -4.5), math.Pow(10, -6.75), 1e-10}
	if len(got) != len(want) {
		t.Fatalf("schedule %v, want %v", got, want)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12*want[i] {
			t.Errorf("σ_%d = %g, want %g", i, got[i], want[i])
		}
	}
	// Default step count: ⌈log(1e-10)/log(0.1)⌉ + 1 = 11.
	lin, _ := (&Settings{}).Schedule()
	if len(lin) != 11 || math.Abs(lin[10]-1e-10) > 1e-24 {
		t.Errorf("default schedule %v, want 11 values down to 1e-10", lin)
	}
}

// TestHomotopyWarmStart checks the primal-dual hand-off: step k > 0 starts
// from step k−1's x (in the warm start and in Start) and multipliers, with
// μ₀ = max(1e-9, 0.1σ_k); ColdDuals passes the primal point only.
func TestHomotopyWarmStart(t *testing.T) {
	for _, cold := range []bool{false, true} {
		for _, steer := range Steerings() {
			f := &fakeSolver{point: func(s float64) []float64 { return []float64{1 + s, 2 * s} }}
			s := Solver{Settings: Settings{InexactFactor: -1, ColdDuals: cold, Steering: steer, MaxSteps: 5}, Inner: f}
			res, err := s.Solve(context.Background(), onePair())
			if err != nil {
				t.Fatal(err)
			}
			if len(f.calls) != 5 || f.calls[0].warm != nil {
				t.Fatalf("%d calls, first warm start %v", len(f.calls), f.calls[0].warm)
			}
			for k := 1; k < len(f.calls); k++ {
				w := f.calls[k].warm
				prev := f.calls[k-1].sigma
				if w == nil || w.X[0] != 1+prev || w.X[1] != 2*prev || f.calls[k].start[0] != 1+prev {
					t.Fatalf("%v: step %d: warm start %+v, Start %v; want x from σ = %g", steer, k, w, f.calls[k].start, prev)
				}
				if wantMu := math.Max(1e-9, 0.1*f.calls[k].sigma); w.MuInit != wantMu {
					t.Errorf("step %d: MuInit %g, want %g", k, w.MuInit, wantMu)
				}
				if cold {
					if w.Y != nil || w.ZL != nil || w.ZU != nil {
						t.Errorf("step %d: duals passed with ColdDuals", k)
					}
					continue
				}
				if len(w.ZL) != len(w.X) || w.ZL[0] != float64(k+1) || w.ZU[0] != float64(k+2) {
					t.Errorf("step %d: bound duals %v %v, want those of step %d", k, w.ZL, w.ZU, k-1)
				}
				if len(w.Y) > 0 && w.Y[0] != float64(k) {
					t.Errorf("step %d: Y %v, want those of step %d", k, w.Y, k-1)
				}
			}
			if len(res.X) != 2 {
				t.Errorf("%v: result x has length %d, want 2 (slacks stripped)", steer, len(res.X))
			}
		}
	}
}

// TestHomotopyColdRestart checks ColdRestart: every step after the first
// starts from the previous step's x as the NLP's own start, with no
// primal-dual warm start and the inner solver's own μ₀ (MuInit 0), so
// that nlp pushes the point by its cold BoundPush (nosnoc's IPOPT calls).
func TestHomotopyColdRestart(t *testing.T) {
	f := &fakeSolver{point: func(s float64) []float64 { return []float64{1 + s, 2 * s} }}
	s := Solver{Settings: Settings{InexactFactor: -1, ColdRestart: true, MaxSteps: 4}, Inner: f}
	if _, err := s.Solve(context.Background(), onePair()); err != nil {
		t.Fatal(err)
	}
	if len(f.calls) != 4 || f.calls[0].warm != nil {
		t.Fatalf("%d calls, first warm start %v", len(f.calls), f.calls[0].warm)
	}
	for k := 1; k < len(f.calls); k++ {
		prev := f.calls[k-1].sigma
		if st := f.calls[k].start; st[0] != 1+prev || st[1] != 2*prev {
			t.Errorf("step %d: Start %v, want x from σ = %g", k, st, prev)
		}
		if w := f.calls[k].warm; w == nil || w.X != nil || w.Y != nil || w.ZL != nil || w.ZU != nil || w.MuInit != 0 {
			t.Errorf("step %d: warm start %+v, want none (a cold start)", k, w)
		}
	}
}

// TestHomotopyLog checks the header lines, one line per step and the
// summary.
func TestHomotopyLog(t *testing.T) {
	var buf bytes.Buffer
	f := &fakeSolver{point: func(s float64) []float64 { return []float64{1, s} }}
	s := Solver{Settings: Settings{InexactFactor: -1, Log: &buf, MaxSteps: 4}, Inner: f}
	if _, err := s.Solve(context.Background(), onePair()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	// Two header lines, four steps, the certificate's tightened solve
	// ("fin") and the summary with the class.
	if len(lines) != 2+4+1+1 || !strings.Contains(lines[1], "comp_res") || !strings.Contains(lines[5], "Solved") ||
		!strings.HasPrefix(lines[6], " fin") || !strings.HasPrefix(lines[7], "mpcc: Solved after 4 steps") ||
		!strings.Contains(lines[7], "S-stationary") {
		t.Errorf("log:\n%s", buf.String())
	}
}

// TestHomotopyFinishFake: x₁ = 100σ never meets the tolerance
// (SigmaLimit); the finish fixes the smaller variable x₁ at 0, the
// tightened point (1, 0) has ν = ∇f = (0, −2): x₀ free with zero residual,
// x₁ locked by its positive partner, no biactive pair, so it is
// S-stationary and replaces the homotopy point with exact complementarity
// (Solved, f = 1). With CertifyOnly the homotopy point stays, and since
// it is 1e-8 from (1, 0) the class applies to it. The finish runs after
// the homotopy only (FinishSigma < 0); TestHomotopyEarlyFinish has the
// default.
func TestHomotopyFinishFake(t *testing.T) {
	for _, mode := range []FinishMode{FinishDefault, CertifyOnly, NoCertificate} {
		f := &fakeSolver{point: func(s float64) []float64 { return []float64{1, 100 * s} }}
		s := Solver{Settings: Settings{Finish: mode, FinishSigma: -1}, Inner: f}
		res, err := s.Solve(context.Background(), onePair())
		if err != nil {
			t.Fatal(err)
		}
		wantTight := 1
		if mode == NoCertificate {
			wantTight = 0
		}
		if len(f.tight) != wantTight || len(f.calls) != 11 {
			t.Fatalf("%v: %d relaxed and %d tightened solves", mode, len(f.calls), len(f.tight))
		}
		if mode == NoCertificate {
			if res.Status != SigmaLimit || res.Stationarity != NotCertified || res.Certificate == nil || res.Finish != nil {
				t.Errorf("%v: %v, %v, %+v", mode, res.Status, res.Stationarity, res.Certificate)
			}
			continue
		}
		pc := f.tight[0]
		if pc.xU[1] != 0 || !math.IsInf(pc.xU[0], 1) || pc.start[1] != 0 || pc.warm.MaxIter != DefaultFinishMaxIter {
			t.Fatalf("%v: tightened call: xU %v start %v", mode, pc.xU, pc.start)
		}
		c := res.Certificate
		if res.Stationarity != SStationary || c.Class != SStationary || len(c.HActive) != 1 || len(c.Biactive) != 0 ||
			c.Nu[1] != -2 || c.DualResidual != 0 || c.X[0] != 1 || c.X[1] != 0 {
			t.Errorf("%v: class %v, certificate %+v", mode, res.Stationarity, c)
		}
		if mode == CertifyOnly {
			if res.Status != SigmaLimit || math.Abs(res.X[1]-1e-8) > 1e-20 || res.Finish != nil {
				t.Errorf("%v: %v x = %v finish %+v", mode, res.Status, res.X, res.Finish)
			}
			continue
		}
		if res.Finish == nil || !res.Finish.Accepted || len(res.Finish.Solves) != 1 || res.Finish.Solves[0].Fixed != 1 {
			t.Fatalf("finish %+v", res.Finish)
		}
		if res.Status != Solved || res.CompResidual != 0 || res.X[0] != 1 || res.X[1] != 0 || res.Objective != 1 {
			t.Errorf("after the finish: %v x = %v f = %g residual %g", res.Status, res.X, res.Objective, res.CompResidual)
		}
	}
}

// TestHomotopyEarlyFinish: the problem of TestHomotopyFinishFake with the
// default FinishSigma = 1e-4. The finish is first tried after the step at
// σ = 1e-4 (x = (1, 0.01); the σ computed by the updates is 1e-4 only up
// to rounding); its branch NLP fixes x₁ = 0 and certifies (1, 0)
// S-stationary, which ends the homotopy there (Solved, exact
// complementarity) instead of after σ = 1e-9: 5 relaxed solves (σ = 1,
// 0.1, …, 1e-4), not 11.
func TestHomotopyEarlyFinish(t *testing.T) {
	f := &fakeSolver{point: func(s float64) []float64 { return []float64{1, 100 * s} }}
	res, err := (&Solver{Settings: Settings{InexactFactor: -1}, Inner: f}).Solve(context.Background(), onePair())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.calls) != 5 || len(f.tight) != 1 {
		t.Fatalf("%d relaxed and %d tightened solves, want 5 and 1", len(f.calls), len(f.tight))
	}
	if res.Status != Solved || res.Stationarity != SStationary || res.CompResidual != 0 ||
		res.X[0] != 1 || res.X[1] != 0 || res.Finish == nil || !res.Finish.Accepted || math.Abs(res.Finish.Sigma-1e-4) > 1e-15 {
		t.Errorf("%v %v x = %v residual %g finish %+v", res.Status, res.Stationarity, res.X, res.CompResidual, res.Finish)
	}
	// The early attempt's branch NLP runs with a quarter of FinishMaxIter;
	// its 3 iterations (the fake's) are the finish's.
	if f.tight[0].warm.MaxIter != DefaultFinishMaxIter/4 || res.FinishIterations != 3 {
		t.Errorf("early attempt: MaxIter %d, FinishIterations %d", f.tight[0].warm.MaxIter, res.FinishIterations)
	}
	// A negative FinishSigma is the finish after the homotopy only; NaN is
	// an error.
	if err := (&Settings{FinishSigma: -1}).Validate(); err != nil {
		t.Error(err)
	}
	if err := (&Settings{FinishSigma: math.NaN()}).Validate(); err == nil {
		t.Error("FinishSigma = NaN accepted")
	}
}

func TestSettingsValidate(t *testing.T) {
	bad := []Settings{
		{Sigma0: -1},
		{Kappa: 1},
		{Kappa: 1.5},
		{Kappa: math.NaN()},
		{SigmaN: 2},
		{Sigma0: 1e-12},
		{CompTol: math.Inf(1)},
		{MaxSteps: -1},
		{Update: UpdateRule(7)},
		{PenaltyScaling: PenaltyScaling(-1)},
		{Relaxation: Relaxation(42)},
		{Steering: Steering(3)},
		{Finish: FinishMode(4)},
		{Finish: FinishMode(-1)},
		{ActiveTol: -1},
		{FinishSigma: math.Inf(1)},
	}
	for _, s := range bad {
		err := s.Validate()
		if err == nil {
			t.Errorf("%+v: no error", s)
		}
		if _, e2 := (&Solver{Settings: s, Inner: &fakeSolver{}}).Solve(context.Background(), onePair()); e2 == nil {
			t.Errorf("%+v: Solve ran", s)
		}
	}
	if err := (&Settings{Relaxation: Kadrani, Steering: L1}).Validate(); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Kadrani/L1: %v, want ErrUnsupported", err)
	}
	if err := (&Settings{Sigma0: 0}).Validate(); err != nil {
		t.Errorf("zero settings: %v", err)
	}
}

// cancelSolver cancels the context during its second solve.
type cancelSolver struct {
	fakeSolver
	cancel context.CancelFunc
}

func (c *cancelSolver) SolveNLP(ctx context.Context, p nlp.Problem, warm *WarmStart) (*InnerResult, error) {
	if len(c.calls) == 1 {
		c.cancel()
	}
	return c.fakeSolver.SolveNLP(ctx, p, warm)
}

// errSolver fails to run.
type errSolver struct{}

var errInner = errors.New("inner failure")

func (errSolver) SolveNLP(context.Context, nlp.Problem, *WarmStart) (*InnerResult, error) {
	return nil, errInner
}

func TestHomotopyCancelAndErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := &cancelSolver{fakeSolver: fakeSolver{point: func(s float64) []float64 { return []float64{1, 100 * s} }}, cancel: cancel}
	res, err := (&Solver{Inner: f}).Solve(ctx, onePair())
	if !errors.Is(err, context.Canceled) || res == nil {
		t.Fatalf("got %v, %v; want a result and an error wrapping context.Canceled", res, err)
	}
	if res.Status != Cancelled || len(res.Steps) != 2 || res.X == nil {
		t.Errorf("cancelled: status %v, %d steps, x %v", res.Status, len(res.Steps), res.X)
	}
	if _, err := (&Solver{Inner: errSolver{}}).Solve(context.Background(), onePair()); !errors.Is(err, errInner) {
		t.Errorf("inner error: %v", err)
	}
	// Without complementarity terms the first NLP solves the problem.
	none, err := (&Solver{Inner: &fakeSolver{point: func(float64) []float64 { return []float64{1, 1} }}}).Solve(context.Background(), &Problem{NLP: toyNLP()})
	if err != nil || none.Status != Solved || len(none.Steps) != 1 || none.CompResidual != 0 {
		t.Errorf("no terms: %v, %+v", err, none)
	}
	if _, err := (&Solver{Inner: errSolver{}}).Solve(context.Background(), &Problem{}); !errors.Is(err, ErrNilProblem) {
		t.Errorf("nil problem: %v", err)
	}
}

// TestResiduals checks both residuals on a summed term and a loosened
// (negative) variable.
func TestResiduals(t *testing.T) {
	p := &Problem{NLP: nonlinearNLP(), Comp: []Complementarity{
		{Pairs: [][2]int{{0, 1}, {2, 3}}}, // 0.5·2 + 0·4 = 1
		Pair(3, 4),                        // 4·(−1e-3): product −4e-3, bound violation 1e-3
	}}
	x := []float64{0.5, 2, 0, 4, -1e-3}
	comp, nat := p.Residuals(x, fill(5, 0))
	if comp != 1 || nat != 0.5 {
		t.Errorf("residuals (%g, %g), want (1, 0.5)", comp, nat)
	}
	x[0] = 0
	comp, nat = p.Residuals(x, fill(5, 0))
	if math.Abs(comp-4e-3) > 1e-18 || nat != 1e-3 {
		t.Errorf("residuals (%g, %g), want (4e-3, 1e-3)", comp, nat)
	}
}

// TestHomotopyFinishEarly: with FinishSigma = 2e-4 the first step with
// σ ≤ 2e-4 is finished (x₁ = 100σ misses the tolerance) and the certified
// point ends the homotopy: 5 relaxed solves (σ = 1 … 1e-4) and one
// tightened one instead of 11 relaxed solves. The inner status does not
// matter, the certificate does: a tightened solve that ends with
// NumericalError at a KKT point is accepted, one that ends Solved at a
// non-stationary point (x₀ = 0.5, ∇f = (−1, −2)) is not, and then
// neither the steps with the same identified active set nor the finish
// after the homotopy (same active set) try it again: one tightened solve,
// whose rejection is the result's.
func TestHomotopyFinishEarly(t *testing.T) {
	ne := nlp.NumericalError
	for _, c := range []struct {
		name     string
		status   *nlp.Status
		tightX   float64
		accepted bool
	}{{"solved", nil, 0, true}, {"numerical error", &ne, 0, true}, {"not stationary", nil, 0.5, false}} {
		f := &fakeSolver{point: func(s float64) []float64 { return []float64{1, 100 * s} }, tightStatus: c.status, tightX: c.tightX}
		s := Solver{Settings: Settings{FinishSigma: 2e-4}, Inner: f}
		res, err := s.Solve(context.Background(), onePair())
		if err != nil {
			t.Fatal(err)
		}
		if c.accepted {
			if len(res.Steps) != 5 || len(f.calls) != 5 || len(f.tight) != 1 || res.Status != Solved ||
				!res.Finish.Accepted || res.CompResidual != 0 || res.Stationarity != SStationary {
				t.Errorf("%s: %d steps, %d+%d calls, %v, %v, finish %+v", c.name, len(res.Steps), len(f.calls), len(f.tight),
					res.Status, res.Stationarity, res.Finish)
			}
			continue
		}
		if len(res.Steps) != 11 || len(f.tight) != 1 || res.FinishIterations != 3 || res.Status != SigmaLimit || res.Finish.Accepted ||
			res.Stationarity != NotCertified || !strings.Contains(res.Finish.Reason, "dual residual") {
			t.Errorf("%s: %d steps, %d tightened, %v, %v, finish %+v", c.name, len(res.Steps), len(f.tight),
				res.Status, res.Stationarity, res.Finish)
		}
	}
}

// TestWithinSlack: once σ ≤ CompTol a residual up to 1 % above CompTol is
// the inner solver's feasibility tolerance and counts as converged.
func TestWithinSlack(t *testing.T) {
	p := (&Settings{CompTol: 1e-12, SigmaN: 1e-12}).resolve()
	for _, c := range []struct {
		r, sigma float64
		want     bool
	}{{1e-12, 1e-10, true}, {1.005e-12, 1e-10, false}, {1.005e-12, 1e-12, true}, {1.02e-12, 1e-12, false}} {
		if got := p.within(c.r, c.sigma); got != c.want {
			t.Errorf("within(%g, σ = %g) = %v", c.r, c.sigma, got)
		}
	}
}

// TestWarmStartApply: Apply puts the warm start's point and barrier
// parameter into the inner solver's settings; a nil warm start (the cold
// first step) changes nothing.
func TestWarmStartApply(t *testing.T) {
	f := &fakeSolver{point: func(s float64) []float64 { return []float64{1 + s, 2 * s} }}
	s := Solver{Settings: Settings{InexactFactor: -1, Sigma0: 10, MaxSteps: 3}, Inner: f}
	if _, err := s.Solve(context.Background(), onePair()); err != nil {
		t.Fatal(err)
	}
	if len(f.calls) != 3 || f.calls[0].warm != nil {
		t.Fatalf("%d calls, first warm start %v", len(f.calls), f.calls[0].warm)
	}
	w := f.calls[2].warm
	var set nlp.Settings
	w.Apply(&set)
	if set.WarmStart == nil || &set.WarmStart.X[0] != &w.X[0] || set.MuInit != w.MuInit || set.WarmStartBoundPush != 0 {
		t.Errorf("Apply: %+v from %+v", set, *w)
	}
	// MaxIter only lowers the limit.
	for _, c := range []struct{ set, warm, want int }{{0, 200, 200}, {3000, 200, 200}, {100, 200, 100}, {500, 0, 500}} {
		s := nlp.Settings{MaxIter: c.set}
		(&WarmStart{MaxIter: c.warm}).Apply(&s)
		if s.MaxIter != c.want {
			t.Errorf("MaxIter %d with warm %d: %d, want %d", c.set, c.warm, s.MaxIter, c.want)
		}
	}
	before := set
	(*WarmStart)(nil).Apply(&set)
	if set.WarmStart != before.WarmStart || set.MuInit != before.MuInit {
		t.Errorf("nil Apply changed the settings: %+v", set)
	}
}

// TestHomotopyAfterFailure checks where the step after a failed one
// starts: from the failed point (as in nosnoc), also when it diverged, and
// the result is the last step's point. The fake inner solver returns
// x = (1+σ, 2σ) (residual ≈ 2σ) except in steps 2 and 4, which "diverge"
// to x = (100, 100); steps 2, 3 and 4 fail.
func TestHomotopyAfterFailure(t *testing.T) {
	diverged := func(k int) bool { return k == 2 || k == 4 }
	var f *fakeSolver
	f = &fakeSolver{
		point: func(s float64) []float64 {
			if diverged(len(f.calls) - 1) {
				return []float64{100, 100}
			}
			return []float64{1 + s, 2 * s}
		},
		status: func(k int) nlp.Status {
			if k >= 2 {
				return nlp.IterationLimit
			}
			return nlp.Solved
		},
	}
	s := Solver{Settings: Settings{InexactFactor: -1, MaxSteps: 5, Finish: CertifyOnly}, Inner: f}
	res, err := s.Solve(context.Background(), onePair())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.calls) != 5 || len(res.Steps) != 5 {
		t.Fatalf("%d calls, %d steps; want 5", len(f.calls), len(res.Steps))
	}
	point := func(k int) []float64 {
		if diverged(k) {
			return []float64{100, 100}
		}
		return []float64{1 + f.calls[k].sigma, 2 * f.calls[k].sigma}
	}
	// Step k starts from the point of step k−1.
	for k := 1; k < 5; k++ {
		want := point(k - 1)
		if w := f.calls[k].warm; w == nil || w.X[0] != want[0] || f.calls[k].start[1] != want[1] {
			t.Errorf("step %d starts at %v, want %v (step %d)", k, f.calls[k].start, want, k-1)
		}
	}
	if res.Status != NLPFailure {
		t.Errorf("status %v, want NLPFailure (the last step failed)", res.Status)
	}
	want := point(4)
	if res.X[0] != want[0] || res.X[1] != want[1] {
		t.Errorf("result %v, want %v (step 4)", res.X, want)
	}
	// The residual is that of the returned point, x₀·x₁.
	if r := want[0] * want[1]; math.Abs(res.CompResidual-r) > 1e-12*r {
		t.Errorf("comp residual %g, want %g", res.CompResidual, r)
	}
}

// TestHomotopyLastSuccess checks Result.LastSuccess: the point of the last
// step whose inner solve succeeded, kept when later steps fail, equal to X
// when the homotopy ends Solved, nil when no step succeeded. The fake inner
// solver returns x = (1, 10σ), so the residual of step k is 10σ_k.
func TestHomotopyLastSuccess(t *testing.T) {
	point := func(s float64) []float64 { return []float64{1, 10 * s} }
	cases := []struct {
		name     string
		status   func(int) nlp.Status
		want     Status
		lastStep int // −1: LastSuccess nil
	}{
		{"failures from step 4 on", func(k int) nlp.Status {
			if k >= 4 {
				return nlp.IterationLimit
			}
			return nlp.SolvedAcceptable
		}, NLPFailure, 3},
		{"all fail", func(int) nlp.Status { return nlp.IterationLimit }, NLPFailure, -1},
		{"solved", nil, Solved, 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Solver{Settings: Settings{InexactFactor: -1, Finish: CertifyOnly}, Inner: &fakeSolver{point: point, status: c.status}}
			res, err := s.Solve(context.Background(), onePair())
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != c.want {
				t.Fatalf("status %v, want %v", res.Status, c.want)
			}
			ls := res.LastSuccess
			if c.lastStep < 0 {
				if ls != nil {
					t.Fatalf("LastSuccess = %+v, want nil", ls)
				}
				return
			}
			if ls == nil || ls.Step != c.lastStep {
				t.Fatalf("LastSuccess = %+v, want step %d", ls, c.lastStep)
			}
			st := res.Steps[ls.Step]
			want := point(st.Sigma)
			if len(ls.X) != 2 || ls.X[0] != want[0] || ls.X[1] != want[1] {
				t.Errorf("LastSuccess.X = %v, want %v", ls.X, want)
			}
			if ls.CompResidual != st.CompResidual || ls.Objective != st.Objective || ls.NaturalResidual != st.NaturalResidual {
				t.Errorf("LastSuccess residuals (%g, %g, %g), step record (%g, %g, %g)",
					ls.CompResidual, ls.NaturalResidual, ls.Objective, st.CompResidual, st.NaturalResidual, st.Objective)
			}
			if c.want == Solved && (ls.X[1] != res.X[1] || ls.Step != len(res.Steps)-1) {
				t.Errorf("Solved: LastSuccess %+v, X %v", ls, res.X)
			}
			// X stays the last step's point (nosnoc's hand-off).
			if w := point(res.Sigma); res.X[1] != w[1] {
				t.Errorf("X = %v, want the last step's %v", res.X, w)
			}
		})
	}
}
