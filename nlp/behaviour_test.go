package nlp

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/fesd-go/fesd/nlp/hs"
)

func TestInfeasible(t *testing.T) {
	for name, p := range map[string]*quadProb{
		"disc∩halfplane": infeasibleProb(), "x²=−1": infeasibleEqProb(), "box": infeasibleBoxProb(),
	} {
		for _, ms := range []MuStrategy{MuMonotone, MuAdaptive} {
			s := Solver{Settings: Settings{MuStrategy: ms}}
			res, err := s.Solve(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != Infeasible {
				t.Errorf("%s/%v: status %v after %d iterations, want Infeasible", name, ms, res.Status, res.Iterations)
			}
			t.Logf("%s/%v: %d iterations, x = %v, primal inf %g", name, ms, res.Iterations, res.X, res.PrimalInfeasibility)
		}
	}
}

func TestLinearUnbounded(t *testing.T) {
	// Unbounded along a direction of zero curvature: x2 is free and has no
	// Hessian entry, so the Newton system is singular along the ray and the
	// step is set by the backend's pivot regularization (1e-8), not by the
	// problem; f decreases by a constant amount per iteration and does not
	// reach −1e20 within the limit. The solve must end (no panic, no hang)
	// with f clearly decreasing.
	res, err := (&Solver{Settings: Settings{MaxIter: 200}}).Solve(context.Background(), linearUnboundedProb())
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Diverging && !(res.Status == IterationLimit && res.Objective < -1e9) {
		t.Errorf("status %v, f = %g", res.Status, res.Objective)
	}
	t.Logf("%v after %d iterations, f = %g", res.Status, res.Iterations, res.Objective)
}

func TestUnbounded(t *testing.T) {
	s := Solver{}
	res, err := s.Solve(context.Background(), unboundedProb())
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Diverging {
		t.Fatalf("status %v after %d iterations, f = %g, want Diverging", res.Status, res.Iterations, res.Objective)
	}
	t.Logf("%d iterations, f = %g", res.Iterations, res.Objective)
}

func TestDegenerate(t *testing.T) {
	// f* = 1 at (1, 0) or (0, 1) (closed form); LICQ fails there.
	for _, ms := range []MuStrategy{MuMonotone, MuAdaptive} {
		s := Solver{Settings: Settings{MuStrategy: ms}}
		res, err := s.Solve(context.Background(), degenerateProb())
		if err != nil {
			t.Fatal(err)
		}
		if !res.Status.Success() || math.Abs(res.Objective-1) > 1e-6 {
			t.Errorf("%v: status %v, f = %.10g, x = %v; want a solution with f = 1", ms, res.Status, res.Objective, res.X)
		}
		t.Logf("%v: %v in %d iterations, x = %v", ms, res.Status, res.Iterations, res.X)
	}
}

// TestInertiaStrictDeltaC: with InertiaStrictDeltaC (IPOPT's
// perturb_always_cd) every step of the main phase is computed with δ_c =
// 1e-8·μ^0.25 > 0, and the solutions are unchanged (hs071: Hock &
// Schittkowski 1981, f* = 17.0140173; the degenerate problem of
// TestDegenerate: f* = 1, closed form). With InertiaDefault hs071's
// nonsingular Jacobian never gets δ_c.
func TestInertiaStrictDeltaC(t *testing.T) {
	for _, pol := range []InertiaPolicy{InertiaDefault, InertiaStrictDeltaC} {
		always := pol == InertiaStrictDeltaC
		for _, tc := range []struct {
			name  string
			p     Problem
			fstar float64
		}{{"hs071", hs071{}, 17.0140173}, {"degenerate", degenerateProb(), 1}} {
			s := Solver{Settings: Settings{Inertia: pol}}
			res, err := s.Solve(context.Background(), tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Status.Success() || math.Abs(res.Objective-tc.fstar) > 1e-6*tc.fstar {
				t.Errorf("%s, %v: %v, f = %.10g, want %v", tc.name, pol, res.Status, res.Objective, tc.fstar)
			}
			withDC, steps := 0, 0
			for _, h := range res.History[1:] {
				// Steps of the main phase (not the restoration phase nor
				// the record of the return from it).
				if h.Restoration || h.StepNorm == 0 {
					continue
				}
				steps++
				if h.DeltaC > 0 {
					withDC++
				}
			}
			switch {
			case always && withDC != steps:
				t.Errorf("%s: δ_c > 0 in %d of %d steps, want all", tc.name, withDC, steps)
			case !always && tc.name == "hs071" && withDC != 0:
				t.Errorf("hs071 with %v: δ_c > 0 in %d steps, want none", pol, withDC)
			}
			t.Logf("%s, %v: %v in %d iterations, δ_c in %d steps", tc.name, pol, res.Status, res.Iterations, withDC)
		}
	}
}

func TestWarmStart(t *testing.T) {
	cold, err := (&Solver{}).Solve(context.Background(), hs071{})
	if err != nil || cold.Status != Solved {
		t.Fatalf("cold solve: %v %v", err, cold.Status)
	}
	s := Solver{Settings: Settings{
		MuInit:             1e-9,
		WarmStartBoundPush: 1e-9,
		WarmStartMultPush:  1e-12,
		WarmStart:          &WarmStart{X: cold.X, Y: cold.Y, ZL: cold.ZL, ZU: cold.ZU},
	}}
	res, err := s.Solve(context.Background(), hs071{})
	if err != nil {
		t.Fatal(err)
	}
	const fstar = 17.0140173 // Hock & Schittkowski 1981, problem 71
	if res.Status != Solved || res.Iterations > 3 || math.Abs(res.Objective-fstar) > 1e-6*fstar {
		t.Fatalf("warm start: status %v after %d iterations (want ≤ 3), f = %.10g", res.Status, res.Iterations, res.Objective)
	}
	t.Logf("warm start: %d iterations (cold: %d)", res.Iterations, cold.Iterations)
	// With IPOPT's default warm-start pushes (1e-3).
	s = Solver{Settings: Settings{MuInit: 1e-6, WarmStart: &WarmStart{X: cold.X, Y: cold.Y, ZL: cold.ZL, ZU: cold.ZU}}}
	res, err = s.Solve(context.Background(), hs071{})
	if err != nil || res.Status != Solved || res.Iterations > 3 || math.Abs(res.Objective-fstar) > 1e-6*fstar {
		t.Fatalf("warm start, default pushes: %v %v after %d iterations, f = %.10g", err, res.Status, res.Iterations, res.Objective)
	}
}

func TestRerunBitIdentical(t *testing.T) {
	s := Solver{}
	a, err := s.Solve(context.Background(), hs071{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Solve(context.Background(), hs071{})
	if !slices.Equal(a.X, b.X) || !slices.Equal(a.Y, b.Y) || len(a.History) != len(b.History) {
		t.Fatalf("reruns differ: %v vs %v", a.X, b.X)
	}
	for i := range a.History {
		if a.History[i] != b.History[i] {
			t.Fatalf("history %d differs: %+v vs %+v", i, a.History[i], b.History[i])
		}
	}
}

func TestNaNRegionCutsBack(t *testing.T) {
	// f is NaN for 1.1 < x1 < 3; the solution has x1 = 1 and the start
	// x1 = 1; the first full Newton step (x1 ≈ 1.13) lands in the region.
	s := Solver{}
	hits := 0
	res, err := s.Solve(context.Background(), hs071{nanRegion: true, nanHits: &hits})
	if err != nil {
		t.Fatal(err)
	}
	if hits == 0 {
		t.Error("the NaN region was never evaluated")
	}
	t.Logf("%d NaN evaluations, %d iterations", hits, res.Iterations)
	const fstar = 17.0140173
	if res.Status != Solved || math.Abs(res.Objective-fstar) > 1e-6*fstar {
		t.Fatalf("status %v, f = %g", res.Status, res.Objective)
	}
}

type nanStart struct {
	hs071
	fn string
}

func (p nanStart) Objective(x []float64) (float64, error) {
	if p.fn == "Objective" {
		return math.NaN(), nil
	}
	return p.hs071.Objective(x)
}

func (p nanStart) Constraints(x, g []float64) error {
	p.hs071.Constraints(x, g)
	if p.fn == "Constraints" {
		g[1] = math.Inf(1)
	}
	return nil
}

func (p nanStart) JacobianValues(x, v []float64) error {
	p.hs071.JacobianValues(x, v)
	if p.fn == "JacobianValues" {
		v[5] = math.NaN()
	}
	return nil
}

func TestNaNAtStart(t *testing.T) {
	for _, c := range []struct {
		fn  string
		idx int
	}{{"Objective", 0}, {"Constraints", 1}, {"JacobianValues", 5}} {
		_, err := (&Solver{}).Solve(context.Background(), nanStart{fn: c.fn})
		var ee *EvalError
		if !errors.As(err, &ee) || ee.Func != c.fn || ee.Index != c.idx {
			t.Errorf("%s: got error %v, want *EvalError{%s, %d}", c.fn, err, c.fn, c.idx)
		}
	}
}

func TestLimitsAndCancel(t *testing.T) {
	res, err := (&Solver{Settings: Settings{MaxIter: 3}}).Solve(context.Background(), hs071{})
	if err != nil || res.Status != IterationLimit || res.Iterations != 3 {
		t.Errorf("MaxIter: %v %v %d", err, res.Status, res.Iterations)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err = (&Solver{}).Solve(ctx, hs071{})
	if !errors.Is(err, context.Canceled) || res == nil || res.Status != Cancelled {
		t.Errorf("cancel: %v %v", err, res)
	}
	res, err = (&Solver{Settings: Settings{MaxWallTime: time.Nanosecond}}).Solve(context.Background(), rosenbrockChain(50))
	if err != nil || res.Status != TimeLimit {
		t.Errorf("time limit: %v %v", err, res.Status)
	}
}

func TestInvalidInput(t *testing.T) {
	bad := []Settings{
		{Tol: -1}, {MuInit: math.NaN()}, {MuStrategy: 7}, {LinearSolver: -1},
		{WarmStartBoundPush: 0.7}, {MaxWallTime: -time.Second},
	}
	for i, st := range bad {
		if _, err := (&Solver{Settings: st}).Solve(context.Background(), hs071{}); !errors.Is(err, ErrSettings) {
			t.Errorf("settings %d: err = %v, want ErrSettings", i, err)
		}
	}
	p := degenerateProb()
	p.xL = []float64{2, 0}
	p.xU = []float64{1, inf}
	if _, err := (&Solver{}).Solve(context.Background(), p); !errors.Is(err, ErrBounds) {
		t.Errorf("bounds: err = %v", err)
	}
	p = degenerateProb()
	p.jc = []int{0, 2}
	if _, err := (&Solver{}).Solve(context.Background(), p); !errors.Is(err, ErrStructure) {
		t.Errorf("structure: err = %v", err)
	}
	p = degenerateProb()
	p.hr, p.hc = []int{0, 0, 1}, []int{0, 1, 1} // (0,1) is above the diagonal
	if _, err := (&Solver{}).Solve(context.Background(), p); !errors.Is(err, ErrStructure) {
		t.Errorf("upper Hessian entry: err = %v", err)
	}
	ws := Settings{WarmStart: &WarmStart{X: []float64{1, 2}}}
	if _, err := (&Solver{Settings: ws}).Solve(context.Background(), hs071{}); !errors.Is(err, ErrDimension) {
		t.Errorf("warm start length: err = %v", err)
	}
}

func TestSparseMatchesDense(t *testing.T) {
	// The same iterates to 1e-8 with the sparse LDLᵀ and the dense oracle.
	// Problems whose KKT matrices stay nonsingular (a singular matrix is
	// regularized differently by the two backends).
	probs := []Problem{hs071{}, rosenbrockChain(6)}
	// hs072 is left out: its Σ reaches 1e10, where the eigenvalue-based
	// inertia of the dense oracle misreads small eigenvalues.
	for _, name := range []string{"hs010", "hs023", "hs035", "hs043", "hs044", "hs065", "hs071"} {
		p, err := hs.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		probs = append(probs, p)
	}
	for _, p := range probs {
		a, err1 := (&Solver{Settings: Settings{LinearSolver: SparseLDL}}).Solve(context.Background(), p)
		b, err2 := (&Solver{Settings: Settings{LinearSolver: DenseLDL}}).Solve(context.Background(), p)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if len(a.History) != len(b.History) {
			t.Errorf("%v: %d vs %d iterations", p, len(a.History), len(b.History))
			continue
		}
		for i := range a.History {
			ha, hb := a.History[i], b.History[i]
			if math.Abs(ha.Objective-hb.Objective) > 1e-8*math.Max(1, math.Abs(ha.Objective)) {
				t.Errorf("%T iter %d: objective %.15g vs %.15g", p, i, ha.Objective, hb.Objective)
			}
		}
		for j := range a.X {
			if math.Abs(a.X[j]-b.X[j]) > 1e-8*math.Max(1, math.Abs(a.X[j])) {
				t.Errorf("%T: x[%d] %.15g vs %.15g", p, j, a.X[j], b.X[j])
			}
		}
	}
}

// TestLoopAllocations checks that the iteration loop does not allocate:
// the allocation count of a solve does not grow with the iteration count.
func TestLoopAllocations(t *testing.T) {
	for _, st := range []Settings{
		{},
		{MuStrategy: MuAdaptive},
		{MuStrategy: MuAdaptive, MuOracle: OracleProbing, tune: noScaling},
	} {
		count := func(maxIter int) uint64 {
			p := ocpChain{50}
			st.MaxIter = maxIter
			s := Solver{Settings: st}
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			res, err := s.Solve(context.Background(), p)
			runtime.ReadMemStats(&m1)
			if err != nil {
				t.Fatal(err)
			}
			if res.Iterations != maxIter {
				t.Fatalf("wanted %d iterations, got %d (%v)", maxIter, res.Iterations, res.Status)
			}
			return m1.Mallocs - m0.Mallocs
		}
		minOf := func(k int) uint64 {
			best := count(k)
			for range 4 {
				best = min(best, count(k))
			}
			return best
		}
		few, many := minOf(1), minOf(5)
		if many != few {
			t.Errorf("%v/%v: allocations: %d for 1 iteration, %d for 5", st.MuStrategy, st.MuOracle, few, many)
		}
		t.Logf("%v/%v: allocations per solve: %d (1 iteration), %d (5 iterations)", st.MuStrategy, st.MuOracle, few, many)
	}
}

func TestRosenbrockChain(t *testing.T) {
	res, err := (&Solver{}).Solve(context.Background(), rosenbrockChain(40))
	if err != nil {
		t.Fatal(err)
	}
	// f* = 0 at x = 1 (closed form); the chain also has a local minimum with
	// x1 ≈ −1 for n ≥ 4, f ≈ 3.98.
	if !res.Status.Success() {
		t.Fatalf("status %v", res.Status)
	}
	t.Logf("%v in %d iterations, f = %g", res.Status, res.Iterations, res.Objective)
}

func TestStatusStrings(t *testing.T) {
	for s := Solved; s <= UserStop; s++ {
		if s.String() == "" || s.String()[0] == 'S' && s.String()[1] == 't' {
			t.Errorf("status %d has no name", s)
		}
	}
	if !Solved.Success() || Infeasible.Success() {
		t.Error("Success table wrong")
	}
}

// noScaling switches the gradient-based NLP scaling off
// (nlp_scaling_method = none).
func noScaling(p *params) { p.scaling = false }

// TestMuMax checks that μ_max (mu_max) bounds μ in every iteration of the main phase,
// for both barrier strategies, and that hs071 still reaches its optimum
// f* = 17.0140173 (Hock–Schittkowski's table). A cap of 1e-4 is far below
// the μ that either strategy chooses on its own at the start (0.1).
func TestMuMax(t *testing.T) {
	const muMax = 1e-4
	for _, strat := range []MuStrategy{MuMonotone, MuAdaptive} {
		res, err := (&Solver{Settings: Settings{MuStrategy: strat, tune: func(p *params) { p.muMax = muMax }}}).Solve(context.Background(), hs071{})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Status.Success() || math.Abs(res.Objective-17.0140173) > 1e-6*17.0140173 {
			t.Errorf("%v: %v, f = %.10g", strat, res.Status, res.Objective)
		}
		for _, h := range res.History {
			if !h.Restoration && h.Mu > muMax*(1+1e-12) {
				t.Errorf("%v: iteration %d has μ = %g > MuMax = %g", strat, h.Iter, h.Mu, muMax)
			}
		}
		free, err := (&Solver{Settings: Settings{MuStrategy: strat}}).Solve(context.Background(), hs071{})
		if err != nil {
			t.Fatal(err)
		}
		if free.History[0].Mu <= muMax {
			t.Errorf("%v: without MuMax μ₀ = %g, the test needs it above %g", strat, free.History[0].Mu, muMax)
		}
	}
}
