package nlp

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// fixedHS071 fixes x1 = 1 (its value at the solution), so f* is unchanged.
type fixedHS071 struct{ hs071 }

func (fixedHS071) Bounds(xL, xU, gL, gU []float64) {
	hs071{}.Bounds(xL, xU, gL, gU)
	xU[0] = 1
}

func TestFixedVariable(t *testing.T) {
	res, err := (&Solver{}).Solve(context.Background(), fixedHS071{})
	if err != nil {
		t.Fatal(err)
	}
	const fstar = 17.0140173 // HS071 (Hock & Schittkowski 1981); x1* = 1.
	if res.Status != Solved || math.Abs(res.Objective-fstar) > 1e-6*fstar || res.X[0] != 1 {
		t.Fatalf("status %v, f = %.10g, x = %v", res.Status, res.Objective, res.X)
	}
	// The fixed variable's multiplier equals the one of the active bound
	// x1 ≥ 1 in the unfixed problem.
	ref, _ := (&Solver{}).Solve(context.Background(), hs071{})
	if d := (res.ZL[0] - res.ZU[0]) - (ref.ZL[0] - ref.ZU[0]); math.Abs(d) > 1e-6 {
		t.Errorf("fixed multiplier %g − %g, want %g − %g", res.ZL[0], res.ZU[0], ref.ZL[0], ref.ZU[0])
	}
}

// stagedHS071 implements StageHinter (two artificial stages).
type stagedHS071 struct{ hs071 }

func (stagedHS071) Stages(xs, gs []int) {
	copy(xs, []int{0, 0, 1, 1})
	copy(gs, []int{0, 1})
}

func TestStageOrdering(t *testing.T) {
	ref, _ := (&Solver{}).Solve(context.Background(), hs071{})
	for _, o := range []Ordering{OrderAuto, OrderStages, OrderAMD, OrderNatural} {
		res, err := (&Solver{Settings: Settings{Ordering: o}}).Solve(context.Background(), stagedHS071{})
		if err != nil {
			t.Fatal(err)
		}
		// Same iterates up to rounding (the ordering changes only the
		// elimination order): 1e-8 relative in x.
		for j := range res.X {
			if math.Abs(res.X[j]-ref.X[j]) > 1e-8*math.Max(1, math.Abs(ref.X[j])) {
				t.Errorf("%v: x = %v, want %v", o, res.X, ref.X)
				break
			}
		}
	}
	if _, err := (&Solver{Settings: Settings{Ordering: OrderStages}}).Solve(context.Background(), hs071{}); err == nil {
		t.Error("OrderStages without StageHinter: no error")
	}
}

// scholtes is the Scholtes relaxation of degenerateProb:
// min (x1 − 1)² + (x2 − 1)² s.t. x ≥ 0, x1·x2 ≤ σ. As σ → 0 the solution
// from this start tends to (1, 0) with f = 1 (the MPCC's solution).
func scholtes(sigma float64) *quadProb {
	p := degenerateProb()
	p.gL, p.gU = []float64{-inf}, []float64{sigma}
	p.x0 = []float64{0.9, 0.2}
	return p
}

func TestScholtesHomotopyWarmStart(t *testing.T) {
	// σ = 1e-1, 1e-2, …, 1e-8 with NoBoundRelax and warm starts, as an MPCC
	// homotopy does; the limit is (1, 0) with f = 1 (closed form).
	var x []float64
	total := 0
	for k := 1; k <= 8; k++ {
		sigma := math.Pow(10, -float64(k))
		st := Settings{NoBoundRelax: true, MuStrategy: MuAdaptive, Tol: 1e-10}
		if x != nil {
			st.WarmStart = &WarmStart{X: x}
			st.MuInit = 1e-4
		}
		res, err := (&Solver{Settings: st}).Solve(context.Background(), scholtes(sigma))
		if err != nil {
			t.Fatal(err)
		}
		if !res.Status.Success() {
			t.Fatalf("σ = %g: status %v", sigma, res.Status)
		}
		if res.X[0]*res.X[1] > sigma*(1+1e-6) || res.X[0] < 0 || res.X[1] < 0 {
			t.Fatalf("σ = %g: x = %v infeasible", sigma, res.X)
		}
		x = res.X
		total += res.Iterations
	}
	if math.Abs(x[0]-1) > 1e-6 || x[1] > 1e-7 {
		t.Errorf("homotopy end x = %v, want (1, 0)", x)
	}
	t.Logf("homotopy: %d iterations in total, x = %v", total, x)
}

func TestIterationLog(t *testing.T) {
	var buf bytes.Buffer
	res, err := (&Solver{Settings: Settings{Log: &buf}}).Solve(context.Background(), degenerateProb())
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	headers := strings.Count(out, "iter    objective")
	lines := len(res.History)
	if want := (lines + 9) / 10; headers != want {
		t.Errorf("%d headers for %d lines, want %d", headers, lines, want)
	}
	resto := 0
	for _, h := range res.History {
		if h.Restoration {
			resto++
		}
	}
	if resto > 0 && !strings.Contains(out, "r ") {
		t.Error("restoration iterations not marked with 'r'")
	}
	if res.Counts.Objective == 0 || res.Counts.Factorizations == 0 || res.Time.Total <= 0 {
		t.Errorf("counts %+v, time %+v", res.Counts, res.Time)
	}
}

func TestPrimalWarmStart(t *testing.T) {
	cold, _ := (&Solver{}).Solve(context.Background(), hs071{})
	res, err := (&Solver{Settings: Settings{WarmStart: &WarmStart{X: cold.X}, MuInit: 1e-6}}).Solve(context.Background(), hs071{})
	if err != nil || res.Status != Solved {
		t.Fatalf("%v %v", err, res.Status)
	}
	t.Logf("primal warm start: %d iterations (cold %d)", res.Iterations, cold.Iterations)
}

func TestMaximize(t *testing.T) {
	// A negative objective scaling factor (obj_scaling_factor) maximizes: maximize the 2-D Rosenbrock
	// function on the box [−2, 2]².
	p := rosenbrockChain(2)
	p.xU = []float64{2, 2}
	p.xL = []float64{-2, -2}
	res, err := (&Solver{Settings: Settings{tune: func(p *params) { p.objScaling = -1 }}}).Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	// Maximum of the Rosenbrock function on [−2,2]²: at a corner (−2,−2):
	// 100·(−2−4)² + 9 = 3609 (closed form; corners (2,−2): 3601).
	if !res.Status.Success() || math.Abs(res.Objective-3609) > 1e-6*3609 {
		t.Errorf("status %v, f = %.10g, x = %v, want 3609", res.Status, res.Objective, res.X)
	}
}

type errProb struct {
	hs071
	calls *int
}

func (p errProb) Constraints(x, g []float64) error {
	*p.calls++
	if *p.calls > 3 {
		return errors.New("model failure")
	}
	return p.hs071.Constraints(x, g)
}

func TestCallbackErrorUserStop(t *testing.T) {
	calls := 0
	res, err := (&Solver{}).Solve(context.Background(), errProb{calls: &calls})
	if !errors.Is(err, ErrCallback) || err == nil || !strings.Contains(err.Error(), "model failure") {
		t.Fatalf("err = %v, want ErrCallback wrapping the callback's error", err)
	}
	if res == nil || res.Status != UserStop {
		t.Errorf("status %v, want UserStop", res.Status)
	}
}

func TestEmptyProblem(t *testing.T) {
	p := &quadProb{
		f:  func(x []float64) float64 { return 3 },
		df: func(x, g []float64) {}, c: func(x, c []float64) {},
		jv: func(x, v []float64) {}, hv: func(x []float64, s float64, l, v []float64) {},
	}
	res, err := (&Solver{}).Solve(context.Background(), p)
	if err != nil || res.Status != Solved || res.Objective != 3 {
		t.Errorf("%v %+v", err, res)
	}
	// Unconstrained quadratic without bounds: one Newton step.
	q := rosenbrockChain(2)
	q.xL = []float64{-inf, -inf}
	res, err = (&Solver{}).Solve(context.Background(), q)
	if err != nil || res.Status != Solved || math.Abs(res.X[0]-1) > 1e-6 {
		t.Errorf("rosenbrock: %v %v %v", err, res.Status, res.X)
	}
}

// TestMultiplierConvention checks IPOPT's sign convention with the user's
// callbacks: ∇f + Jᵀy − z_L + z_U = 0 at the returned point, z ≥ 0, and y ≤ 0
// for the active lower bound g1 ≥ 25 of HS071 (IPOPT reports
// λ = (−0.5523, 0.1615) for this problem, documented HS071 example output).
func TestMultiplierConvention(t *testing.T) {
	p := hs071{}
	res, err := (&Solver{}).Solve(context.Background(), p)
	if err != nil || res.Status != Solved {
		t.Fatal(err, res.Status)
	}
	n, _ := p.Dims()
	grad := make([]float64, n)
	p.Gradient(res.X, grad)
	rows, cols := p.JacobianStructure()
	vals := make([]float64, len(rows))
	p.JacobianValues(res.X, vals)
	for k := range rows {
		grad[cols[k]] += vals[k] * res.Y[rows[k]]
	}
	for j := range grad {
		grad[j] += -res.ZL[j] + res.ZU[j]
		if math.Abs(grad[j]) > 1e-7 || res.ZL[j] < 0 || res.ZU[j] < 0 {
			t.Errorf("stationarity component %d: %g (zL %g, zU %g)", j, grad[j], res.ZL[j], res.ZU[j])
		}
	}
	if math.Abs(res.Y[0]+0.5522937) > 1e-6 || math.Abs(res.Y[1]-0.1614686) > 1e-6 {
		t.Errorf("y = %v, want (−0.5522937, 0.1614686)", res.Y)
	}
	g := make([]float64, 2)
	p.Constraints(res.X, g)
	if g[0] != res.G[0] && math.Abs(g[0]-res.G[0]) > 1e-12*math.Abs(g[0]) {
		t.Errorf("G = %v, g(X) = %v", res.G, g)
	}
	// The bound g1 ≥ 25 is relaxed by bound_relax_factor·25 = 2.5e-7 (IPOPT's
	// bound_relax_factor), so the original bound may be violated by that much.
	if res.DualInfeasibility > 1e-7 || res.PrimalInfeasibility > 2.6e-7 || res.Complementarity > 1e-7 {
		t.Errorf("final errors %g %g %g", res.PrimalInfeasibility, res.DualInfeasibility, res.Complementarity)
	}
}

// TestWorkspaceReuse runs a Scholtes homotopy twice, with Solve and with
// SolveIn on one Workspace: the results must be bit-identical, and the
// workspace must be rebuilt when the structure changes.
func TestWorkspaceReuse(t *testing.T) {
	run := func(solve func(s *Solver, p Problem) (*Result, error)) [][]float64 {
		var out [][]float64
		var x []float64
		for k := 1; k <= 6; k++ {
			sigma := math.Pow(10, -float64(k))
			st := Settings{NoBoundRelax: true, MuStrategy: MuAdaptive}
			if x != nil {
				st.WarmStart = &WarmStart{X: x}
				st.MuInit = 1e-4
			}
			res, err := solve(&Solver{Settings: st}, scholtes(sigma))
			if err != nil || !res.Status.Success() {
				t.Fatalf("σ = %g: %v %v", sigma, err, res.Status)
			}
			x = res.X
			out = append(out, res.X)
			out = append(out, []float64{float64(res.Iterations), res.Objective})
		}
		return out
	}
	a := run(func(s *Solver, p Problem) (*Result, error) { return s.Solve(context.Background(), p) })
	var ws Workspace
	b := run(func(s *Solver, p Problem) (*Result, error) { return s.SolveIn(context.Background(), &ws, p) })
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("step %d: Solve %v, SolveIn %v", i/2, a[i], b[i])
		}
	}
	first := ws.ip
	// Same structure: reused.
	if _, err := (&Solver{}).SolveIn(context.Background(), &ws, scholtes(0.5)); err != nil || ws.ip != first {
		t.Errorf("workspace not reused (err %v)", err)
	}
	// Different structure (hs071): rebuilt, still correct.
	res, err := (&Solver{}).SolveIn(context.Background(), &ws, hs071{})
	if err != nil || res.Status != Solved || ws.ip == first {
		t.Errorf("rebuild: %v %v", err, res.Status)
	}
	// Equality pattern changed (σ bound turned into an equality): rebuilt.
	before := ws.ip
	p := scholtes(0.1)
	p.gL = []float64{0.1}
	res, err = (&Solver{}).SolveIn(context.Background(), &ws, p)
	if err != nil || !res.Status.Success() || ws.ip == before {
		t.Errorf("equality pattern change: %v %v", err, res.Status)
	}
}

// cancelAfter cancels its context on the k-th objective evaluation.
type cancelAfter struct {
	*quadProb
	k      *int
	cancel context.CancelFunc
}

func (c cancelAfter) Objective(x []float64) (float64, error) {
	*c.k--
	if *c.k == 0 {
		c.cancel()
	}
	return c.quadProb.Objective(x)
}

func TestCancelMidSolve(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	k := 5
	res, err := (&Solver{}).Solve(ctx, cancelAfter{rosenbrockChain(20), &k, cancel})
	if !errors.Is(err, context.Canceled) || res == nil {
		t.Fatalf("got %v, %v; want a result and an error wrapping context.Canceled", res, err)
	}
	if res.Status != Cancelled || res.Iterations < 2 || res.Iterations > 6 {
		t.Errorf("status %v after %d iterations, want Cancelled a few iterations in", res.Status, res.Iterations)
	}
}
