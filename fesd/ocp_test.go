package fesd_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
)

// doubleIntegrator returns ẍ = u (no switch).
func doubleIntegrator() (*dcs.Model, ad.Vec, ad.Vec) {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	u := g.SymVec("u", 1)
	m := dcs.NewModel(g, x, u, nil)
	m.F0 = ad.Vec{x[1], u[0]}
	return m, x, u
}

// TestOCPTimeOptimalDoubleIntegrator: rest-to-rest over distance d with
// |u| ≤ u_max has T* = 2√(d/u_max) (bang-bang, one switch at T*/2, which is
// a stage boundary for even N; Radau IIA is exact on the piecewise
// quadratic trajectory).
func TestOCPTimeOptimalDoubleIntegrator(t *testing.T) {
	m, x, _ := doubleIntegrator()
	d, umax := 1.0, 1.0
	p := &fesd.OCP{
		Model: m, X0: []float64{0, 0}, N: 10, T: 1,
		TimeOptimal: true, TMin: 0.1, TMax: 10,
		UL: []float64{-umax}, UU: []float64{umax},
		Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-d), x[1]}}},
	}
	r, err := fesd.SolveOCP(context.Background(), p, fesd.Options{}, fesd.Start{})
	if err != nil {
		t.Fatal(err)
	}
	want := 2 * math.Sqrt(d/umax)
	t.Logf("status %v T_f = %.10f (T* = %.10f), iterations %d, x(T) = %v", r.Status, r.TFinal, want, r.Iterations, r.Final())
	if r.Status != mpcc.Solved || math.Abs(r.TFinal-want) > 1e-4 {
		t.Errorf("status %v, T_f = %.10f, want %.10f", r.Status, r.TFinal, want)
	}
}

// turboCar: q̇ = v, v̇ = u for v < 10 and 3u for v > 10 (nosnoc's turbo
// car, examples/pss_ocp_tutorial_example/pss_tutorial_turbo_car_ocp.m in
// github.com/nosnoc/nosnoc).
func turboCar() (*dcs.Model, ad.Vec) {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	u := g.SymVec("u", 1)
	m := dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[1].AddConst(-10)},
		S:   [][]int{{-1}, {1}},
		F:   []ad.Vec{{x[1], u[0]}, {x[1], u[0].Scale(3)}},
	})
	return m, x
}

// TestOCPTurboCarFree: without a speed limit the time-optimal control from
// rest to rest at q = 200 is u = 5 until T/2, then −5: v reaches 10 at t = 2
// (q = 10), the peak V with 2·(10 + (V² − 100)/30) = 200, V = √2800, so
// T* = 4 + 2(V − 10)/15 = 9.72203… The control switch is at the stage
// boundary T/2 (N even) and the two velocity switches at v = 10 are found
// by FESD inside stages. Measured: the Step DCS without step
// equilibration reaches T* to 1e-8; with heuristic_mean (any ρ_h from
// 1e-3 to 1) and with Stewart's DCS the homotopy ends at the C-stationary
// point T_f = 10, where v = 10 exactly at a stage boundary (moving the
// switch into a stage needs a jump of the element lengths).
func TestOCPTurboCarFree(t *testing.T) {
	p, opts := turboOCP(10)
	r, err := fesd.SolveOCP(context.Background(), p, opts, turboStart)
	if err != nil {
		t.Fatal(err)
	}
	want := 4 + 2*(math.Sqrt(2800)-10)/15
	t.Logf("status %v T_f = %.10f (T* = %.10f), iterations %d, x(T) = %v, n = %d", r.Status, r.TFinal, want, r.Iterations, r.Final(), r.NumVariables)
	if r.Status != mpcc.Solved || math.Abs(r.TFinal-want) > 1e-4 {
		t.Errorf("status %v, T_f = %.10f, want %.10f", r.Status, r.TFinal, want)
	}
	if e := math.Hypot(r.Final()[0]-200, r.Final()[1]); e > 1e-6 {
		t.Errorf("terminal error %g", e)
	}
}

// TestOCPLQRiccati: ẋ = a x + u, min ∫₀ᵀ q x² + r u² dt + p_T x(T)² with
// piecewise constant u on N stages. The exact zero-order-hold
// discretization over a stage of length L is x⁺ = A x + B u with
// A = e^{aL}, B = (e^{aL} − 1)/a and the stage cost Q x² + 2M x u + R u²
// with I₁ = ∫₀ᴸ e^{2aτ} = (e^{2aL} − 1)/(2a), Q = q I₁,
// M = q (I₁ − (e^{aL} − 1)/a)/a, R = q (I₁ − 2(e^{aL} − 1)/a + L)/a² + r L;
// the discrete Riccati recursion P = Q + A²P⁺ − (M + ABP⁺)²/(R + B²P⁺),
// P_N = p_T, gives the optimal cost P₀x₀² and u₀ = −(M + ABP₁)/(R + B²P₁)·x₀.
// FESD with Radau IIA n_s = 3 (order 5) and the RK quadrature of the
// running cost reproduce them to the integration error (measured ~1e-10).
func TestOCPLQRiccati(t *testing.T) {
	const (
		a, q, r, pT, x0, T = 0.8, 2.0, 0.5, 5.0, 1.5, 1.0
		N                  = 8
	)
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	u := g.SymVec("u", 1)
	m := dcs.NewModel(g, x, u, nil)
	m.F0 = ad.Vec{x[0].Scale(a).Add(u[0])}
	for _, rep := range []fesd.Representation{fesd.Integral, fesd.Differential} {
		r0, err := fesd.SolveOCP(context.Background(), &fesd.OCP{
			Model: m, X0: []float64{x0}, N: N, T: T, NFE: []int{2},
			Lagrange: ad.Sq(x[0]).Scale(q).Add(ad.Sq(u[0]).Scale(r)),
			Mayer:    ad.Sq(x[0]).Scale(pT),
		}, fesd.Options{Stages: 3, Representation: rep}, fesd.Start{})
		if err != nil {
			t.Fatal(err)
		}
		L := T / N
		eA := math.Exp(a * L)
		A, B := eA, (eA-1)/a
		I1 := (math.Exp(2*a*L) - 1) / (2 * a)
		Q := q * I1
		M := q * (I1 - (eA-1)/a) / a
		R := q*(I1-2*(eA-1)/a+L)/(a*a) + r*L
		P := pT
		var P1 float64
		for k := N - 1; k >= 0; k-- {
			if k == 0 {
				P1 = P
			}
			P = Q + A*A*P - (M+A*B*P)*(M+A*B*P)/(R+B*B*P)
		}
		J := P * x0 * x0
		u0 := -(M + A*B*P1) / (R + B*B*P1) * x0
		t.Logf("%v: J = %.12f (Riccati %.12f), u0 = %.10f (%.10f), iterations %d", rep, r0.Objective, J, r0.U[0][0], u0, r0.Iterations)
		if r0.Status != mpcc.Solved || math.Abs(r0.Objective-J) > 1e-8*J || math.Abs(r0.U[0][0]-u0) > 1e-7 {
			t.Errorf("%v: status %v, J = %.12g want %.12g, u0 = %.10g want %.10g", rep, r0.Status, r0.Objective, J, r0.U[0][0], u0)
		}
	}
}

// TestOCPStageSpeedOfTime: time freezing's ingredients on the double
// integrator with a clock state c, ẋ = s_k·(v, u, 1): stage-wise speed of
// time and the stage-end clock constraint c(τ_{k+1}) = (k+1)·T_f/N with
// T_f given by HorizonSym. Time-optimal rest-to-rest over d = 1 with
// |u| ≤ 1 gives T_f = 2 on the numerical horizon 1; the physical time of
// the stage ends must equal the clock.
func TestOCPStageSpeedOfTime(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 3)
	u := g.SymVec("u", 1)
	m := dcs.NewModel(g, x, u, nil)
	m.F0 = ad.Vec{x[1], u[0], g.Const(1)}
	Tf := g.Sym("Tf")
	const N = 6
	p := &fesd.OCP{
		Model: m, X0: []float64{0, 0, 0}, N: N, T: 1,
		SpeedOfTime: fesd.StageSpeedOfTime, SOTMin: 0.1, SOTMax: 10,
		TimeOptimal: true, HorizonSym: Tf,
		UL: []float64{-1}, UU: []float64{1},
		StageEnd: func(k int) []fesd.Constraint {
			return []fesd.Constraint{{G: ad.Vec{x[2].Sub(Tf.Scale(float64(k+1) / N))}}}
		},
		Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-1), x[1]}}},
	}
	r, err := fesd.SolveOCP(context.Background(), p, fesd.Options{}, fesd.Start{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("status %v, T_f = %.10f, s = %v, iterations %d", r.Status, r.TFinal, r.SOT, r.Iterations)
	if r.Status != mpcc.Solved || math.Abs(r.TFinal-2) > 1e-6 {
		t.Fatalf("status %v, T_f = %.10f, want 2", r.Status, r.TFinal)
	}
	for k := range r.StageX {
		if d := math.Abs(r.StageX[k][2] - r.StageTPhys[k]); d > 1e-8 {
			t.Errorf("stage %d: clock %g, physical time %g", k, r.StageX[k][2], r.StageTPhys[k])
		}
		if d := math.Abs(r.StageX[k][2] - 2*float64(k)/N); d > 1e-6 {
			t.Errorf("stage %d: clock %g, want %g", k, r.StageX[k][2], 2*float64(k)/N)
		}
	}
	if r.StageT[N] != 1 {
		t.Errorf("numerical horizon %g", r.StageT[N])
	}
}

// TestOCPPathComp: ẋ = a − b with controls a, b ∈ [0, 1] and the running
// cost (x − 1)² − 0.1(a + b), which alone would pick a = b = 1 where x = 1
// is reached; the path complementarity 0 ≤ a ⊥ b ≥ 0 at every stage
// point forbids it (the solution then alternates a and b around x = 1). Warm-starting from the solution must reproduce it.
func TestOCPPathComp(t *testing.T) {
	p := pathCompOCP()
	s, err := fesd.NewOCPSolver(p, fesd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Solve(context.Background(), fesd.Start{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != mpcc.Solved {
		t.Fatalf("status %v", r.Status)
	}
	for k, uk := range r.U {
		if uk[0]*uk[1] > 1e-8 {
			t.Errorf("stage %d: a·b = %g", k, uk[0]*uk[1])
		}
	}
	// without the complementarity a = b = 1 somewhere
	p.PathComps = nil
	rf, err := fesd.SolveOCP(context.Background(), p, fesd.Options{}, fesd.Start{})
	if err != nil {
		t.Fatal(err)
	}
	maxab := 0.0
	for _, uk := range rf.U {
		maxab = math.Max(maxab, uk[0]*uk[1])
	}
	if maxab < 0.5 || rf.Objective >= r.Objective {
		t.Errorf("without the complementarity: max a·b = %g, objective %g (with: %g)", maxab, rf.Objective, r.Objective)
	}
	r2, err := s.Solve(context.Background(), fesd.Start{Warm: r})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("objective %.10f (%d iterations), warm %.10f (%d iterations)", r.Objective, r.Iterations, r2.Objective, r2.Iterations)
	if r2.Status != mpcc.Solved || math.Abs(r2.Objective-r.Objective) > 1e-6 {
		t.Errorf("warm start: status %v, objective %g, want %g", r2.Status, r2.Objective, r.Objective)
	}
	// The same from the saved solution vector, in a solver built anew (as
	// another process would), through Start.Warm.
	w := r.NLPSolution()
	if len(w) != s.NumVariables() {
		t.Fatalf("NLPSolution has %d entries, the NLP %d variables", len(w), s.NumVariables())
	}
	warm := fesd.WarmFromNLPSolution(w)
	w[0] = math.NaN() // the warm start holds its own copy
	r3, err := fesd.SolveOCP(context.Background(), pathCompOCP(), fesd.Options{}, fesd.Start{Warm: warm})
	if err != nil {
		t.Fatal(err)
	}
	if r3.Status != mpcc.Solved || math.Abs(r3.Objective-r.Objective) > 1e-6 {
		t.Errorf("warm start from the saved solution: status %v, objective %g, want %g", r3.Status, r3.Objective, r.Objective)
	}
	if r3.Iterations != r2.Iterations {
		t.Errorf("warm start from the saved solution: %d iterations, from the result %d", r3.Iterations, r2.Iterations)
	}
}

// TestOCPWithHomotopy continues a homotopy with other settings: the path
// complementarity OCP of TestOCPPathComp stopped after two Scholtes steps
// (σ = 1, 0.1, so not solved), then finished by the exact ℓ1 penalty from
// that point, must reach the complementarity tolerance and the objective of
// the full Scholtes homotopy (the reference, solved from scratch).
func TestOCPWithHomotopy(t *testing.T) {
	ref, s, r1 := twoStepPathComp(t)
	if _, err := s.WithHomotopy(mpcc.Settings{Kappa: 2}); !errors.Is(err, fesd.ErrOptions) {
		t.Errorf("Kappa = 2: %v, want ErrOptions", err)
	}
	l1, err := s.WithHomotopy(mpcc.Settings{Steering: mpcc.L1, Sigma0: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := l1.Solve(context.Background(), fesd.Start{Warm: r1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Scholtes: %.10f (%d iterations); 2 Scholtes steps + ℓ1: %.10f (%d + %d iterations), residual %.1e",
		ref.Objective, ref.Iterations, r2.Objective, r1.Iterations, r2.Iterations, r2.CompResidual)
	if r2.Status != mpcc.Solved || math.Abs(r2.Objective-ref.Objective) > 1e-6*math.Max(1, math.Abs(ref.Objective)) {
		t.Errorf("ℓ1 finish: status %v, objective %.10f, want %.10f", r2.Status, r2.Objective, ref.Objective)
	}
}

// pathCompOCP is the OCP of TestOCPPathComp: ẋ = a − b, a, b ∈ [0, 1],
// running cost (x − 1)² − 0.1(a + b), 0 ≤ a ⊥ b ≥ 0 at every stage point.
func pathCompOCP() *fesd.OCP {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	u := g.SymVec("u", 2)
	m := dcs.NewModel(g, x, u, nil)
	m.F0 = ad.Vec{u[0].Sub(u[1])}
	p := &fesd.OCP{
		Model: m, X0: []float64{0}, N: 8, T: 4,
		UL: []float64{0, 0}, UU: []float64{1, 1},
		Lagrange:  ad.Sq(x[0].AddConst(-1)).Sub(u[0].Add(u[1]).Scale(0.1)),
		PathComps: []fesd.PathComp{{G: ad.Vec{u[0]}, H: ad.Vec{u[1]}, At: fesd.AtStagePoints}},
	}
	return p
}

// TestOCPInfeasibility: OCPResult.Infeasibility is the largest violation of
// the NLP's constraints other than the complementarities. At the solution
// of TestOCPPathComp's problem it is within the inner tolerance; evaluated
// on the same problem with a terminal constraint x(T) ≤ x*(T) − 0.25 that
// the point violates by exactly 0.25 (x*(T) from the solution), it is 0.25.
func TestOCPInfeasibility(t *testing.T) {
	p := pathCompOCP()
	r, err := fesd.SolveOCP(context.Background(), p, fesd.Options{}, fesd.Start{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != mpcc.Solved || r.Infeasibility > 1e-6 {
		t.Fatalf("status %v, infeasibility %g", r.Status, r.Infeasibility)
	}
	e0, err := fesd.NewOCPSolver(p, fesd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e, err := e0.Evaluate(r.NLPSolution()); err != nil || e.Infeasibility != r.Infeasibility {
		t.Errorf("Evaluate at the solution: %v, infeasibility %v, the solve's %v", err, e.Infeasibility, r.Infeasibility)
	}
	q := pathCompOCP()
	xT := r.StageX[len(r.StageX)-1][0]
	q.Terminal = []fesd.Constraint{{G: ad.Vec{q.Model.X[0]}, L: []float64{math.Inf(-1)}, U: []float64{xT - 0.25}}}
	s, err := fesd.NewOCPSolver(q, fesd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := s.Evaluate(r.NLPSolution())
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(e.Infeasibility-0.25) > 1e-12 {
		t.Errorf("infeasibility %.15g, want 0.25", e.Infeasibility)
	}
}

// TestOCPContinue: a result of Solve carries its last relaxed NLP's
// primal-dual point, and a solver with σ₀ no larger than that NLP's σ
// continues from it (Start.Warm). On the path complementarity OCP of
// TestOCPPathComp stopped after two Scholtes steps (σ = 1, 0.1), re-solving
// σ = 0.1 or continuing at σ₀ = 0.01 from the result takes fewer
// iterations than from the primal point alone (WarmFromNLPSolution: cold
// multipliers and barrier parameter; measured 2 against 4 and 23 against
// 27, the first relaxed NLP 1 against 2 and 3 against 7), and the
// continuation reaches the objective of the full homotopy solved from
// scratch (the reference). (On bench/ocp's monopod at N = 30, re-solving
// its σ = 1e-3 relaxed NLP from the result took 19 iterations, from the
// primal point alone 10 718 without converging.)
func TestOCPContinue(t *testing.T) {
	ref, s, r1 := twoStepPathComp(t)
	primal := fesd.WarmFromNLPSolution(r1.NLPSolution())
	for _, c := range []struct {
		sigma0 float64
		steps  int
	}{{0.1, 1}, {0.01, 0}} {
		sc, err := s.WithHomotopy(mpcc.Settings{Sigma0: c.sigma0, MaxSteps: c.steps, Finish: mpcc.NoCertificate})
		if err != nil {
			t.Fatal(err)
		}
		rd, err := sc.Solve(context.Background(), fesd.Start{Warm: r1})
		if err != nil {
			t.Fatal(err)
		}
		rp, err := sc.Solve(context.Background(), fesd.Start{Warm: primal})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("σ₀ = %g: %d iterations from the primal-dual point (first NLP %d), %d from the primal point (first NLP %d); objectives %.10f, %.10f",
			c.sigma0, rd.Iterations, rd.Homotopy[0].Iterations, rp.Iterations, rp.Homotopy[0].Iterations, rd.Objective, rp.Objective)
		if rd.Iterations >= rp.Iterations {
			t.Errorf("σ₀ = %g: %d iterations from the primal-dual point, not fewer than the %d from the primal point", c.sigma0, rd.Iterations, rp.Iterations)
		}
		if rd.Homotopy[0].Iterations > rp.Homotopy[0].Iterations {
			t.Errorf("σ₀ = %g: the first relaxed NLP took %d iterations from the primal-dual point, %d from the primal point",
				c.sigma0, rd.Homotopy[0].Iterations, rp.Homotopy[0].Iterations)
		}
		if c.steps == 0 && (rd.Status != mpcc.Solved || math.Abs(rd.Objective-ref.Objective) > 1e-6*math.Max(1, math.Abs(ref.Objective))) {
			t.Errorf("continued: status %v, objective %.10f, want %.10f", rd.Status, rd.Objective, ref.Objective)
		}
	}
}

// twoStepPathComp returns the path complementarity OCP's reference (its
// default homotopy, Solved), a solver of it whose homotopy stops after two
// Scholtes steps (σ = 1, 0.1) and certifies without finishing
// (CertifyOnly: the active-set finish would already end it Solved), and
// that solver's unfinished result.
func twoStepPathComp(t *testing.T) (ref *fesd.OCPResult, s *fesd.OCPSolver, r1 *fesd.OCPResult) {
	t.Helper()
	p := pathCompOCP()
	ref, err := fesd.SolveOCP(context.Background(), p, fesd.Options{}, fesd.Start{})
	if err != nil || ref.Status != mpcc.Solved {
		t.Fatalf("reference: %v %v", err, ref.Status)
	}
	s, err = fesd.NewOCPSolver(p, fesd.Options{MPCC: mpcc.Settings{MaxSteps: 2, Finish: mpcc.CertifyOnly}})
	if err != nil {
		t.Fatal(err)
	}
	r1, err = s.Solve(context.Background(), fesd.Start{})
	if err != nil {
		t.Fatal(err)
	}
	if r1.Status == mpcc.Solved || r1.CompResidual < 1e-3 || len(r1.Homotopy) != 2 {
		t.Fatalf("two steps: status %v, residual %g after %d steps; the tests need an unfinished homotopy",
			r1.Status, r1.CompResidual, len(r1.Homotopy))
	}
	return ref, s, r1
}
