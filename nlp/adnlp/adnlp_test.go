package adnlp_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/adnlp"
)

// smoothSpec is a nonlinear test problem with 4 variables, 4 constraints and
// 2 parameters; every nonlinear operation of the objective and constraints
// has nonzero second derivatives, and some entries are structurally zero.
func smoothSpec() adnlp.Spec {
	g := ad.NewGraph()
	x := g.SymVec("x", 4)
	p := g.SymVec("p", 2)
	f := ad.Exp(x[0].Mul(p[0])).
		Add(ad.Sq(x[1]).Mul(ad.Sin(x[2]))).
		Add(ad.Log(ad.Sq(x[3]).AddConst(1)).Mul(p[1])).
		Add(x[0].Mul(x[3]))
	G := ad.Vec{
		x[0].Mul(x[1]).Sub(p[1].Mul(ad.Sq(x[2]))),
		ad.Cos(x[3]).Mul(x[0]).Add(ad.Tanh(x[1])),
		ad.Sqrt(ad.Sq(x[2]).Add(ad.Sq(x[3])).AddConst(1)).Mul(x[1]),
		ad.PowInt(x[3], 3).Mul(p[0]),
	}
	return adnlp.Spec{
		X: x, F: f, G: G,
		GL: []float64{-1, -1, -1, -1}, GU: []float64{1, 1, 1, 1},
		P: p, PV: []float64{0.7, -1.3},
	}
}

func mustNew(t testing.TB, s adnlp.Spec) *adnlp.Problem {
	t.Helper()
	p, err := adnlp.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDerivativesFD compares ∇f, the Jacobian and the Lagrangian Hessian of
// the adapter with central finite differences (gonum diff/fd): of f and g
// for the first derivatives, of the adapter's ∇L = σ∇f + Jᵀλ for the
// Hessian. Central differences with step 1e-6 (first) and 1e-5 (second)
// are accurate to about 1e-8 here; the tolerance is 1e-6·max(1, |ref|).
func TestDerivativesFD(t *testing.T) {
	const tol = 1e-6
	p := mustNew(t, smoothSpec())
	n, m := p.Dims()
	x := []float64{0.3, -0.8, 1.1, 0.6}
	sigma, lambda := 0.9, []float64{0.5, -1.2, 2.0, 0.3}
	check := func(what string, i, j int, got, want float64) {
		t.Helper()
		if d := math.Abs(got - want); d > tol*math.Max(1, math.Abs(want)) {
			t.Errorf("%s[%d,%d] = %.12g, finite differences %.12g", what, i, j, got, want)
		}
	}
	obj := func(x []float64) float64 {
		f, err := p.Objective(x)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	grad := make([]float64, n)
	if err := p.Gradient(x, grad); err != nil {
		t.Fatal(err)
	}
	fdGrad := fd.Gradient(nil, obj, x, &fd.Settings{Formula: fd.Central, Step: 1e-6})
	for j := range grad {
		check("grad", 0, j, grad[j], fdGrad[j])
	}

	// Jacobian: the sparse values scattered into a dense matrix; entries
	// outside the pattern must be zero.
	rows, cols := p.JacobianStructure()
	jv := make([]float64, len(rows))
	if err := p.JacobianValues(x, jv); err != nil {
		t.Fatal(err)
	}
	J := mat.NewDense(m, n, nil)
	for k := range rows {
		J.Set(rows[k], cols[k], jv[k])
	}
	fdJ := mat.NewDense(m, n, nil)
	fd.Jacobian(fdJ, func(y, x []float64) {
		if err := p.Constraints(x, y); err != nil {
			t.Fatal(err)
		}
	}, x, &fd.JacobianSettings{Formula: fd.Central})
	for i := range m {
		for j := range n {
			check("jac", i, j, J.At(i, j), fdJ.At(i, j))
		}
	}

	// Hessian of the Lagrangian: FD Jacobian of ∇L = σ∇f + Jᵀλ.
	gradL := func(y, x []float64) {
		if err := p.Gradient(x, y); err != nil {
			t.Fatal(err)
		}
		for j := range y {
			y[j] *= sigma
		}
		if err := p.JacobianValues(x, jv); err != nil {
			t.Fatal(err)
		}
		for k := range rows {
			y[cols[k]] += lambda[rows[k]] * jv[k]
		}
	}
	fdH := mat.NewDense(n, n, nil)
	fd.Jacobian(fdH, gradL, x, &fd.JacobianSettings{Formula: fd.Central, Step: 1e-5})
	hr, hc := p.HessianStructure()
	hv := make([]float64, len(hr))
	if err := p.HessianValues(x, sigma, lambda, hv); err != nil {
		t.Fatal(err)
	}
	H := mat.NewDense(n, n, nil)
	for k := range hr {
		H.Set(hr[k], hc[k], hv[k])
		H.Set(hc[k], hr[k], hv[k])
	}
	for i := range n {
		for j := range n {
			check("hess", i, j, H.At(i, j), fdH.At(i, j))
		}
	}
}

// checkStructure verifies what nlp.Problem requires of the patterns: indices
// in range, no duplicates, the Hessian lower-triangular.
func checkStructure(t *testing.T, p *adnlp.Problem) {
	t.Helper()
	n, m := p.Dims()
	type rc struct{ r, c int }
	for _, s := range []struct {
		name       string
		rows, cols []int
		nr         int
		lower      bool
	}{
		{"Jacobian", nil, nil, m, false},
		{"Hessian", nil, nil, n, true},
	} {
		if s.lower {
			s.rows, s.cols = p.HessianStructure()
		} else {
			s.rows, s.cols = p.JacobianStructure()
		}
		if len(s.rows) != len(s.cols) {
			t.Fatalf("%s: %d rows, %d cols", s.name, len(s.rows), len(s.cols))
		}
		seen := map[rc]bool{}
		for k := range s.rows {
			r, c := s.rows[k], s.cols[k]
			if r < 0 || r >= s.nr || c < 0 || c >= n {
				t.Errorf("%s entry %d = (%d, %d) out of range", s.name, k, r, c)
			}
			if s.lower && r < c {
				t.Errorf("%s entry %d = (%d, %d) above the diagonal", s.name, k, r, c)
			}
			if seen[rc{r, c}] {
				t.Errorf("%s entry %d = (%d, %d) duplicated", s.name, k, r, c)
			}
			seen[rc{r, c}] = true
		}
	}
}

func TestStructure(t *testing.T) {
	p := mustNew(t, smoothSpec())
	checkStructure(t, p)
	// Expected counts (by hand): Jacobian rows {0,1,2}, {0,1,3}, {1,2,3},
	// {3}: 10 entries; Hessian lower triangle: f gives (0,0), (1,1), (2,1),
	// (2,2), (3,3), (3,0); g adds (1,0), (3,1), (3,2): 9 entries.
	if r, _ := p.JacobianStructure(); len(r) != 10 {
		t.Errorf("Jacobian nnz = %d, want 10", len(r))
	}
	if r, _ := p.HessianStructure(); len(r) != 9 {
		t.Errorf("Hessian nnz = %d, want 9", len(r))
	}
	c := mustNew(t, chainSpec(20))
	checkStructure(t, c)
	// Chain: 3 Jacobian entries per constraint (xₖ, uₖ, xₖ₊₁); Hessian
	// diagonal of every variable except none (all appear squared in f).
	if r, _ := c.JacobianStructure(); len(r) != 3*20 {
		t.Errorf("chain Jacobian nnz = %d, want 60", len(r))
	}
	if r, _ := c.HessianStructure(); len(r) != 41 {
		t.Errorf("chain Hessian nnz = %d, want 41", len(r))
	}
}

// TestParameters solves min (x − p)² for two values of p with one Problem:
// the solution is x = p (closed form), up to the solver tolerance.
func TestParameters(t *testing.T) {
	g := ad.NewGraph()
	x, par := g.Sym("x"), g.Sym("p")
	prob := mustNew(t, adnlp.Spec{X: ad.Vec{x}, F: ad.Sq(x.Sub(par)), P: ad.Vec{par}, PV: []float64{0}})
	before := prob.Stats()
	var s nlp.Solver
	for _, pv := range []float64{1.5, -0.7} {
		if err := prob.SetParams([]float64{pv}); err != nil {
			t.Fatal(err)
		}
		res, err := s.Solve(context.Background(), prob)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != nlp.Solved || math.Abs(res.X[0]-pv) > 1e-8 {
			t.Errorf("p = %g: %v, x = %.12g", pv, res.Status, res.X[0])
		}
	}
	if prob.Stats() != before {
		t.Error("Stats changed: the problem was rebuilt")
	}
}

// TestChainSolve solves the chain problem with the stage ordering and with
// AMD; both must agree (same iterates up to rounding).
func TestChainSolve(t *testing.T) {
	var f [2]float64
	for k, ord := range []nlp.Ordering{nlp.OrderStages, nlp.OrderAMD} {
		p := mustNew(t, chainSpec(50))
		s := nlp.Solver{Settings: nlp.Settings{Ordering: ord}}
		res, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != nlp.Solved {
			t.Fatalf("%v: %v", ord, res.Status)
		}
		f[k] = res.Objective
	}
	if math.Abs(f[0]-f[1]) > 1e-8*math.Abs(f[1]) {
		t.Errorf("objective %v (stages) vs %v (AMD)", f[0], f[1])
	}
}

func TestStages(t *testing.T) {
	s := chainSpec(3) // variables x0 u0 x1 u1 x2 u2 x3
	p := mustNew(t, s)
	xs, gs := make([]int, 7), make([]int, 3)
	p.Stages(xs, gs)
	// Default: variable j is stage j; constraint k ends at xₖ₊₁ = variable 2k+2.
	wantX, wantG := []int{0, 1, 2, 3, 4, 5, 6}, []int{2, 4, 6}
	for j := range xs {
		if xs[j] != wantX[j] {
			t.Errorf("default xStage = %v, want %v", xs, wantX)
			break
		}
	}
	for i := range gs {
		if gs[i] != wantG[i] {
			t.Errorf("default gStage = %v, want %v", gs, wantG)
			break
		}
	}
	// VarStage only: constraints take the largest stage of their variables.
	s = chainSpec(3)
	s.VarStage = []int{0, 0, 1, 1, 2, 2, 3}
	p = mustNew(t, s)
	p.Stages(xs, gs)
	if gs[0] != 1 || gs[1] != 2 || gs[2] != 3 {
		t.Errorf("derived gStage = %v, want [1 2 3]", gs)
	}
	s.ConStage = []int{0, 1, 2}
	p = mustNew(t, s)
	p.Stages(xs, gs)
	if gs[0] != 0 || gs[1] != 1 || gs[2] != 2 {
		t.Errorf("gStage = %v, want ConStage [0 1 2]", gs)
	}
}

// TestAllocs checks that no callback allocates.
func TestAllocs(t *testing.T) {
	for _, s := range []adnlp.Spec{smoothSpec(), chainSpec(10)} {
		p := mustNew(t, s)
		n, m := p.Dims()
		x := make([]float64, n)
		p.Start(x)
		grad, g, lambda := make([]float64, n), make([]float64, m), make([]float64, m)
		jr, _ := p.JacobianStructure()
		hr, _ := p.HessianStructure()
		jv, hv := make([]float64, len(jr)), make([]float64, len(hr))
		xl, xu, gl, gu := make([]float64, n), make([]float64, n), make([]float64, m), make([]float64, m)
		for name, f := range map[string]func(){
			"Objective":      func() { _, _ = p.Objective(x) },
			"Gradient":       func() { _ = p.Gradient(x, grad) },
			"Constraints":    func() { _ = p.Constraints(x, g) },
			"JacobianValues": func() { _ = p.JacobianValues(x, jv) },
			"HessianValues":  func() { _ = p.HessianValues(x, 1, lambda, hv) },
			"Bounds":         func() { p.Bounds(xl, xu, gl, gu) },
			"Start":          func() { p.Start(x) },
		} {
			if a := testing.AllocsPerRun(20, f); a != 0 {
				t.Errorf("%s: %v allocations per call", name, a)
			}
		}
	}
}

// TestNoObjective: F ≡ 0 (a feasibility problem) has a zero objective and
// gradient, and the Hessian holds only the constraint terms.
func TestNoObjective(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	p := mustNew(t, adnlp.Spec{X: x, G: ad.Vec{ad.Sq(x[0]).Add(ad.Sq(x[1])).AddConst(-1)}, X0: []float64{2, 1}})
	xv := []float64{2, 1}
	if f, err := p.Objective(xv); f != 0 || err != nil {
		t.Errorf("Objective = %v, %v", f, err)
	}
	grad := []float64{math.NaN(), math.NaN()}
	if err := p.Gradient(xv, grad); err != nil || grad[0] != 0 || grad[1] != 0 {
		t.Errorf("Gradient = %v, %v", grad, err)
	}
	hv := make([]float64, 2)
	if err := p.HessianValues(xv, 1, []float64{3}, hv); err != nil || hv[0] != 6 || hv[1] != 6 {
		t.Errorf("Hessian = %v, %v; want [6 6]", hv, err)
	}
	res, err := (&nlp.Solver{}).Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if r := math.Hypot(res.X[0], res.X[1]); res.Status != nlp.Solved || math.Abs(r-1) > 1e-8 {
		t.Errorf("%v, |x| = %v", res.Status, r)
	}
}

// TestNonFiniteOutputs: NaN and Inf values are written through, not errors.
func TestNonFiniteOutputs(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 1)
	p := mustNew(t, adnlp.Spec{X: x, F: ad.Log(x[0]), G: ad.Vec{x[0].Div(x[0].AddConst(-1))}})
	f, err := p.Objective([]float64{-1})
	if err != nil || !math.IsNaN(f) {
		t.Errorf("Objective(−1) = %v, %v; want NaN, nil", f, err)
	}
	gv := []float64{0}
	if err := p.Constraints([]float64{1}, gv); err != nil || !math.IsInf(gv[0], 0) {
		t.Errorf("Constraints(1) = %v, %v; want Inf, nil", gv, err)
	}
}

func TestStartAndBounds(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 3)
	p := mustNew(t, adnlp.Spec{X: x, XL: []float64{1, -5, math.Inf(-1)}, XU: []float64{2, -1, math.Inf(1)}, F: ad.Sum(x)})
	x0 := make([]float64, 3)
	p.Start(x0)
	if x0[0] != 1 || x0[1] != -1 || x0[2] != 0 {
		t.Errorf("default start %v, want [1 -1 0]", x0)
	}
	if err := p.SetVarBounds(nil, nil); err != nil {
		t.Fatal(err)
	}
	p.Start(x0)
	if x0[0] != 0 || x0[1] != 0 || x0[2] != 0 {
		t.Errorf("start after unbounding %v, want zeros", x0)
	}
	if err := p.SetStart([]float64{4, 5, 6}); err != nil {
		t.Fatal(err)
	}
	p.Start(x0)
	if x0[0] != 4 || x0[1] != 5 || x0[2] != 6 {
		t.Errorf("start %v, want [4 5 6]", x0)
	}
	xl, xu := make([]float64, 3), make([]float64, 3)
	p.Bounds(xl, xu, nil, nil)
	if !math.IsInf(xl[0], -1) || !math.IsInf(xu[2], 1) {
		t.Errorf("bounds %v %v, want ±Inf", xl, xu)
	}
	// A failed update leaves everything unchanged.
	if err := p.SetVarBounds([]float64{0, 0, 0}, []float64{1, -1, 1}); !errors.Is(err, adnlp.ErrBounds) {
		t.Errorf("SetVarBounds(l > u) = %v", err)
	}
	p.Bounds(xl, xu, nil, nil)
	if !math.IsInf(xl[1], -1) {
		t.Errorf("bounds changed by a failed SetVarBounds: %v", xl)
	}
	if err := p.SetStart([]float64{1, math.NaN(), 1}); !errors.Is(err, adnlp.ErrNonFinite) {
		t.Errorf("SetStart(NaN) = %v", err)
	}
	p.Start(x0)
	if x0[1] != 5 {
		t.Errorf("start changed by a failed SetStart: %v", x0)
	}
}

func TestErrors(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	par := g.Sym("p")
	free := g.Sym("free")
	other := ad.NewGraph().Sym("y")
	base := func() adnlp.Spec {
		return adnlp.Spec{X: x, F: ad.Sq(x[0]).Mul(par), G: ad.Vec{x[0].Add(x[1])}, P: ad.Vec{par}, PV: []float64{1}}
	}
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		name string
		edit func(*adnlp.Spec)
		want error
	}{
		{"no variables", func(s *adnlp.Spec) { s.X = nil }, adnlp.ErrDimension},
		{"X not a symbol", func(s *adnlp.Spec) { s.X = ad.Vec{x[0], x[1].AddConst(1)} }, adnlp.ErrNotSymbol},
		{"X duplicate", func(s *adnlp.Spec) { s.X = ad.Vec{x[0], x[0]} }, adnlp.ErrNotSymbol},
		{"P in X", func(s *adnlp.Spec) { s.P = ad.Vec{x[1]} }, adnlp.ErrNotSymbol},
		{"P not a symbol", func(s *adnlp.Spec) { s.P = ad.Vec{par.Neg()} }, adnlp.ErrNotSymbol},
		{"free symbol in F", func(s *adnlp.Spec) { s.F = s.F.Add(free) }, adnlp.ErrFreeSymbol},
		{"free symbol in G", func(s *adnlp.Spec) { s.G = ad.Vec{x[0].Mul(free)} }, ad.ErrFreeSymbol},
		{"parameter not declared", func(s *adnlp.Spec) { s.P, s.PV = nil, nil }, adnlp.ErrFreeSymbol},
		{"F of another graph", func(s *adnlp.Spec) { s.F = other }, adnlp.ErrGraph},
		{"G invalid", func(s *adnlp.Spec) { s.G = ad.Vec{x[0].Add(other)} }, adnlp.ErrGraph},
		{"X zero Expr", func(s *adnlp.Spec) { s.X = ad.Vec{{}, x[1]} }, adnlp.ErrGraph},
		{"XL length", func(s *adnlp.Spec) { s.XL = []float64{0} }, adnlp.ErrDimension},
		{"XU length", func(s *adnlp.Spec) { s.XU = []float64{0, 1, 2} }, adnlp.ErrDimension},
		{"XL > XU", func(s *adnlp.Spec) { s.XL, s.XU = []float64{0, 2}, []float64{1, 1} }, adnlp.ErrBounds},
		{"XL NaN", func(s *adnlp.Spec) { s.XL = []float64{nan, 0} }, adnlp.ErrBounds},
		{"XU NaN", func(s *adnlp.Spec) { s.XU = []float64{0, nan} }, adnlp.ErrBounds},
		{"XL +Inf", func(s *adnlp.Spec) { s.XL = []float64{inf, 0} }, adnlp.ErrBounds},
		{"GL > GU", func(s *adnlp.Spec) { s.GL, s.GU = []float64{1}, []float64{0} }, adnlp.ErrBounds},
		{"GU NaN", func(s *adnlp.Spec) { s.GL, s.GU = []float64{0}, []float64{nan} }, adnlp.ErrBounds},
		{"GU −Inf", func(s *adnlp.Spec) { s.GL, s.GU = []float64{-inf}, []float64{-inf} }, adnlp.ErrBounds},
		{"GL without GU", func(s *adnlp.Spec) { s.GL = []float64{0} }, adnlp.ErrDimension},
		{"GL length", func(s *adnlp.Spec) { s.GL, s.GU = []float64{0, 0}, []float64{1, 1} }, adnlp.ErrDimension},
		{"PV length", func(s *adnlp.Spec) { s.PV = nil }, adnlp.ErrDimension},
		{"PV NaN", func(s *adnlp.Spec) { s.PV = []float64{nan} }, adnlp.ErrNonFinite},
		{"PV Inf", func(s *adnlp.Spec) { s.PV = []float64{-inf} }, adnlp.ErrNonFinite},
		{"X0 length", func(s *adnlp.Spec) { s.X0 = []float64{1} }, adnlp.ErrDimension},
		{"X0 NaN", func(s *adnlp.Spec) { s.X0 = []float64{1, nan} }, adnlp.ErrNonFinite},
		{"VarStage length", func(s *adnlp.Spec) { s.VarStage = []int{0} }, adnlp.ErrDimension},
		{"ConStage length", func(s *adnlp.Spec) { s.VarStage, s.ConStage = []int{0, 1}, []int{0, 1} }, adnlp.ErrDimension},
		{"ConStage alone", func(s *adnlp.Spec) { s.ConStage = []int{0} }, adnlp.ErrDimension},
	} {
		s := base()
		c.edit(&s)
		p, err := adnlp.New(s)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
		if p != nil {
			t.Errorf("%s: non-nil Problem with an error", c.name)
		}
	}
	// The Set… methods.
	p := mustNew(t, base())
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"SetParams length", p.SetParams([]float64{1, 2}), adnlp.ErrDimension},
		{"SetParams NaN", p.SetParams([]float64{nan}), adnlp.ErrNonFinite},
		{"SetStart length", p.SetStart([]float64{1}), adnlp.ErrDimension},
		{"SetStart Inf", p.SetStart([]float64{inf, 0}), adnlp.ErrNonFinite},
		{"SetVarBounds length", p.SetVarBounds([]float64{0}, nil), adnlp.ErrDimension},
		{"SetVarBounds NaN", p.SetVarBounds(nil, []float64{nan, 1}), adnlp.ErrBounds},
		{"SetConstraintBounds one nil", p.SetConstraintBounds(nil, []float64{1}), adnlp.ErrDimension},
		{"SetConstraintBounds GL > GU", p.SetConstraintBounds([]float64{2}, []float64{1}), adnlp.ErrBounds},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, c.err, c.want)
		}
	}
}

// TestCallerGraphUnchanged: New builds the derivatives in a private copy of
// the cone (ad.CopyArgs), so compiling an NLP, also twice from the same
// expressions, adds no node to the caller's graph; both Problems give the
// same values, bit for bit.
func TestCallerGraphUnchanged(t *testing.T) {
	s := smoothSpec()
	g := s.X[0].Graph()
	n0 := g.NumNodes()
	a := mustNew(t, s)
	b := mustNew(t, s)
	if g.NumNodes() != n0 {
		t.Errorf("New added %d nodes to the caller's graph", g.NumNodes()-n0)
	}
	x := []float64{0.3, -0.5, 0.8, 1.1}
	lam := []float64{0.4, -1.2, 0.9, 2.0}
	hr, _ := a.HessianStructure()
	ha, hb := make([]float64, len(hr)), make([]float64, len(hr))
	if err := a.HessianValues(x, 1.5, lam, ha); err != nil {
		t.Fatal(err)
	}
	if err := b.HessianValues(x, 1.5, lam, hb); err != nil {
		t.Fatal(err)
	}
	for k := range ha {
		if math.Float64bits(ha[k]) != math.Float64bits(hb[k]) {
			t.Errorf("Hessian entry %d: %v and %v", k, ha[k], hb[k])
		}
	}
}
