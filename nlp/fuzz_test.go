package nlp_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/fesd-go/fesd/nlp"
)

// fuzzReader hands out the fuzz bytes one at a time (0 once they run out).
type fuzzReader struct {
	b []byte
	k int
}

func (r *fuzzReader) next() byte {
	if r.k >= len(r.b) {
		return 0
	}
	r.k++
	return r.b[r.k-1]
}

// val is a number in [−8, 8) on a grid of 1/16.
func (r *fuzzReader) val() float64 { return float64(int(r.next())-128) / 16 }

// fuzzProb is a small dense polynomial NLP built from fuzz bytes:
//
//	f(x) = ½ xᵀQx + cᵀx + Σ_j q_j x_j⁴,
//	g_i(x) = a_iᵀx + ½ xᵀP_i x,
//
// with Q and P_i symmetric, q_j ≥ 0, and bounds of every kind. Its
// derivatives are exact (written out below), so the solver's derivative
// probe must never fire on it.
type fuzzProb struct {
	n, m           int
	xL, xU, gL, gU []float64
	x0             []float64
	Q              [][]float64   // n×n symmetric
	c, q           []float64     // length n
	A              [][]float64   // m×n
	P              [][][]float64 // m of n×n symmetric
}

func newFuzzProb(r *fuzzReader) *fuzzProb {
	n, m := 1+int(r.next()%3), int(r.next()%3)
	p := &fuzzProb{n: n, m: m}
	inf := math.Inf(1)
	p.xL, p.xU, p.x0 = make([]float64, n), make([]float64, n), make([]float64, n)
	for j := range n {
		lo, w := r.val(), math.Abs(r.val())
		p.xL[j], p.xU[j] = -inf, inf
		switch r.next() % 5 {
		case 1:
			p.xL[j] = lo
		case 2:
			p.xU[j] = lo
		case 3:
			p.xL[j], p.xU[j] = lo, lo+w // w = 0: a fixed variable
		case 4:
			p.xL[j], p.xU[j] = lo, lo+0.5+w
		}
		p.x0[j] = r.val()
	}
	sym := func(scale float64) [][]float64 {
		s := make([][]float64, n)
		for i := range s {
			s[i] = make([]float64, n)
		}
		for i := range n {
			for j := 0; j <= i; j++ {
				v := r.val() * scale
				s[i][j], s[j][i] = v, v
			}
		}
		return s
	}
	p.Q = sym(0.25)
	p.c, p.q = make([]float64, n), make([]float64, n)
	for j := range n {
		p.c[j] = r.val()
		p.q[j] = float64(r.next()%3) / 8
	}
	p.gL, p.gU = make([]float64, m), make([]float64, m)
	p.A, p.P = make([][]float64, m), make([][][]float64, m)
	for i := range m {
		p.A[i] = make([]float64, n)
		for j := range n {
			p.A[i][j] = r.val() / 4
		}
		p.P[i] = sym(1.0 / 16)
		b, w := r.val(), math.Abs(r.val())
		p.gL[i], p.gU[i] = b, b
		switch r.next() % 4 {
		case 1:
			p.gL[i] = -inf
		case 2:
			p.gU[i] = inf
		case 3:
			p.gU[i] = b + w
		}
	}
	return p
}

func (p *fuzzProb) Dims() (int, int) { return p.n, p.m }
func (p *fuzzProb) Bounds(xL, xU, gL, gU []float64) {
	copy(xL, p.xL)
	copy(xU, p.xU)
	copy(gL, p.gL)
	copy(gU, p.gU)
}
func (p *fuzzProb) Start(x []float64) { copy(x, p.x0) }

// quad returns ½ xᵀSx.
func quad(s [][]float64, x []float64) float64 {
	v := 0.0
	for i := range x {
		for j := range x {
			v += 0.5 * x[i] * s[i][j] * x[j]
		}
	}
	return v
}

func (p *fuzzProb) Objective(x []float64) (float64, error) {
	v := quad(p.Q, x)
	for j, xj := range x {
		v += p.c[j]*xj + p.q[j]*xj*xj*xj*xj
	}
	return v, nil
}
func (p *fuzzProb) Gradient(x, g []float64) error {
	for j := range x {
		g[j] = p.c[j] + 4*p.q[j]*x[j]*x[j]*x[j]
		for k := range x {
			g[j] += p.Q[j][k] * x[k]
		}
	}
	return nil
}
func (p *fuzzProb) Constraints(x, g []float64) error {
	for i := range p.m {
		g[i] = quad(p.P[i], x)
		for j := range x {
			g[i] += p.A[i][j] * x[j]
		}
	}
	return nil
}
func (p *fuzzProb) JacobianStructure() (r, c []int) {
	for i := range p.m {
		for j := range p.n {
			r, c = append(r, i), append(c, j)
		}
	}
	return r, c
}
func (p *fuzzProb) JacobianValues(x, v []float64) error {
	k := 0
	for i := range p.m {
		for j := range p.n {
			v[k] = p.A[i][j]
			for l := range p.n {
				v[k] += p.P[i][j][l] * x[l]
			}
			k++
		}
	}
	return nil
}
func (p *fuzzProb) HessianStructure() (r, c []int) {
	for i := range p.n {
		for j := 0; j <= i; j++ {
			r, c = append(r, i), append(c, j)
		}
	}
	return r, c
}
func (p *fuzzProb) HessianValues(x []float64, sigma float64, lambda, v []float64) error {
	k := 0
	for i := range p.n {
		for j := 0; j <= i; j++ {
			h := sigma * p.Q[i][j]
			if i == j {
				h += sigma * 12 * p.q[i] * x[i] * x[i]
			}
			for l := range p.m {
				h += lambda[l] * p.P[l][i][j]
			}
			v[k] = h
			k++
		}
	}
	return nil
}

// kktCheck is the fuzz harness's own measure of a returned point: the
// largest violation of the bounds, of stationarity ∇f + JᵀY − ZL + ZU = 0,
// of the multiplier signs and of complementarity, each against its own
// scale.
type kktCheck struct {
	primal, stationarity, sign, compl float64
	scale                             float64 // max(1, largest term of the stationarity sum)
}

func checkKKT(p *fuzzProb, res *nlp.Result, yTolRel float64) kktCheck {
	n, m := p.n, p.m
	x := res.X
	var k kktCheck
	g := make([]float64, m)
	p.Constraints(x, g)
	grad := make([]float64, n)
	p.Gradient(x, grad)
	jac := make([]float64, n*m)
	p.JacobianValues(x, jac)
	for j := range n {
		k.primal = math.Max(k.primal, math.Max(p.xL[j]-x[j], x[j]-p.xU[j]))
	}
	for i := range m {
		k.primal = math.Max(k.primal, math.Max(p.gL[i]-g[i], g[i]-p.gU[i]))
	}
	k.scale = 1
	for j := range n {
		r := grad[j] - res.ZL[j] + res.ZU[j]
		k.scale = math.Max(k.scale, math.Max(math.Abs(grad[j]), math.Max(res.ZL[j], res.ZU[j])))
		for i := range m {
			t := jac[i*n+j] * res.Y[i]
			r += t
			k.scale = math.Max(k.scale, math.Abs(t))
		}
		k.stationarity = math.Max(k.stationarity, math.Abs(r))
	}
	// Signs: ZL, ZU ≥ 0, zero at an infinite bound; Y_i ≥ 0 needs a finite
	// upper bound, Y_i ≤ 0 a finite lower one.
	for j := range n {
		k.sign = math.Max(k.sign, math.Max(-res.ZL[j], -res.ZU[j]))
		if math.IsInf(p.xL[j], -1) {
			k.sign = math.Max(k.sign, math.Abs(res.ZL[j]))
		}
		if math.IsInf(p.xU[j], 1) {
			k.sign = math.Max(k.sign, math.Abs(res.ZU[j]))
		}
		if !math.IsInf(p.xL[j], -1) {
			k.compl = math.Max(k.compl, res.ZL[j]*math.Max(0, x[j]-p.xL[j]))
		}
		if !math.IsInf(p.xU[j], 1) {
			k.compl = math.Max(k.compl, res.ZU[j]*math.Max(0, p.xU[j]-x[j]))
		}
	}
	// Y_i is the multiplier of the constraint's slack only up to the dual
	// residual of the slack's row, which the solver bounds by its
	// stationarity tolerance: the part of |Y_i| above yTol·scale is what
	// must be complementary to the constraint's distance from its bound (an
	// inactive constraint 1e5 away with |Y_i| = 2e-9 is consistent with a
	// converged solve).
	yTol := yTolRel * k.scale
	for i := range m {
		y := res.Y[i]
		a := math.Max(0, math.Abs(y)-yTol)
		switch {
		case y > 0 && math.IsInf(p.gU[i], 1), y < 0 && math.IsInf(p.gL[i], -1):
			k.sign = math.Max(k.sign, a)
		case y > 0:
			k.compl = math.Max(k.compl, a*math.Max(0, p.gU[i]-g[i]))
		case y < 0:
			k.compl = math.Max(k.compl, a*math.Max(0, g[i]-p.gL[i]))
		}
	}
	return k
}

// FuzzSolve solves small random polynomial NLPs (1–3 variables, 0–2
// constraints, every kind of bound, fuzzed start; fuzzProb) with a small
// iteration limit and checks that nothing panics or hangs and that the
// status agrees with the returned point, checked independently of the
// solver (checkKKT):
//
//   - no error (the problems are valid and their callbacks never fail)
//     and never DerivativeMismatch (the derivatives are exact);
//   - X, Objective and G are f and g at X: Objective = f(X), G = g(X);
//   - Solved: bound violation ≤ ConstrViolTol (1e-4) plus the bound
//     relaxation, stationarity ≤ 1e-5 of the largest term (or of the
//     solver's multiplier scale s_d when that is larger) and multiplier
//     signs ≤ 1e-6 of the largest term, complementarity ≤ ComplInfTol (1e-4) plus 1e-6 of the
//     scale (the solver's tests are on the scaled problem), a constraint
//     multiplier counting only above the stationarity tolerance (it equals
//     the slack's multiplier up to that slack's dual residual);
//     SolvedAcceptable: the acceptable tolerances (1e-2 for violation and
//     complementarity, 1e-3 relative stationarity);
//   - Diverging: ‖X‖∞ > 1e12 or Objective < −1e20 (its definition);
//   - Infeasible never without constraints (bounds with x_L ≤ x_U);
//   - TimeLimit never (MaxWallTime 20 s is the hang detector).
func FuzzSolve(f *testing.F) {
	f.Add([]byte{1, 0, 128, 16, 0, 144})                                                 // 1-D unconstrained quadratic
	f.Add([]byte{2, 1, 120, 8, 1, 140, 100, 4, 2, 130, 150, 140, 160, 100, 1, 160, 140}) // bounds, one equality
	f.Add([]byte{3, 2, 0, 0, 3, 255, 255, 4, 0, 12, 7, 33, 91, 200, 17, 45, 250, 9, 128})
	f.Add([]byte{1, 1, 128, 0, 3, 128, 140, 140, 0, 144, 144, 200, 0, 1}) // fixed variable, one constraint
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &fuzzReader{b: data}
		p := newFuzzProb(r)
		set := nlp.Settings{MaxIter: 150, MaxWallTime: 20 * time.Second}
		switch r.next() % 3 {
		case 1:
			set.MuStrategy = nlp.MuAdaptive
		case 2:
			set.MuStrategy, set.MuOracle = nlp.MuAdaptive, nlp.OracleProbing
		}
		set.LinearSolver = nlp.LinearSolverKind(r.next() % 3)
		res, err := (&nlp.Solver{Settings: set}).Solve(context.Background(), p)
		if err != nil {
			var de *nlp.DerivativeError
			if errors.As(err, &de) {
				t.Fatalf("false derivative alarm: %v (status %v, x %v)", err, res.Status, res.X)
			}
			t.Fatalf("error %v", err)
		}
		if len(res.X) != p.n || len(res.G) != p.m || len(res.Y) != p.m || len(res.ZL) != p.n || len(res.ZU) != p.n {
			t.Fatalf("result lengths X %d G %d Y %d ZL %d ZU %d", len(res.X), len(res.G), len(res.Y), len(res.ZL), len(res.ZU))
		}
		if res.Status == nlp.Infeasible && p.m == 0 {
			t.Fatalf("Infeasible with bounds only (x_L ≤ x_U always holds) at x = %v", res.X)
		}
		if res.Status == nlp.TimeLimit {
			t.Fatalf("hang: TimeLimit after %d iterations", res.Iterations)
		}
		if res.Status == nlp.Diverging {
			xmax := 0.0
			for _, v := range res.X {
				xmax = math.Max(xmax, math.Abs(v))
			}
			if !(xmax > 1e12 || res.Objective < -1e20) {
				t.Fatalf("Diverging at ‖x‖∞ = %g, f = %g", xmax, res.Objective)
			}
			return
		}
		fx, _ := p.Objective(res.X)
		if !sameValue(fx, res.Objective) {
			t.Fatalf("%v: Objective %v, f(X) = %v", res.Status, res.Objective, fx)
		}
		g := make([]float64, p.m)
		p.Constraints(res.X, g)
		for i := range g {
			if !sameValue(g[i], res.G[i]) {
				t.Fatalf("%v: G[%d] = %v, g(X) = %v", res.Status, i, res.G[i], g[i])
			}
		}
		if !res.Status.Success() {
			return
		}
		primalTol, statTol, complTol := 1e-4, 1e-5, 1e-4
		if res.Status == nlp.SolvedAcceptable {
			primalTol, statTol, complTol = 1e-2, 1e-3, 1e-2
		}
		k := checkKKT(p, res, statTol)
		relax := 0.0
		for _, b := range append(append([]float64{}, p.xL...), p.xU...) {
			if !math.IsInf(b, 0) {
				relax = math.Max(relax, 1e-8*math.Max(1, math.Abs(b)))
			}
		}
		// The solver's test (W&B06 eq. (5), IPOPT's) divides the dual
		// residual by s_d = max(s_max, (‖Y‖₁ + ‖Z‖₁)/(m + n))/s_max, s_max
		// = 100: at a degenerate constraint (x = 0 of g = x² = 0, where
		// its multiplier runs off to 2e7 and ∇g·Y is a rounding-size
		// product) the unscaled stationarity is above 1e-5 by that factor.
		sd := 0.0
		for _, v := range res.Y {
			sd += math.Abs(v)
		}
		for j := range res.ZL {
			sd += math.Abs(res.ZL[j]) + math.Abs(res.ZU[j])
		}
		sd = math.Max(100, sd/float64(p.m+p.n)) / 100
		if k.primal > primalTol+relax || k.stationarity > statTol*math.Max(k.scale, sd) || k.sign > 1e-6*k.scale ||
			k.compl > complTol+1e-6*k.scale {
			t.Fatalf("%v after %d iterations at x = %v: violation %.3g, stationarity %.3g, signs %.3g, complementarity %.3g (scale %.3g); Y %v ZL %v ZU %v",
				res.Status, res.Iterations, res.X, k.primal, k.stationarity, k.sign, k.compl, k.scale, res.Y, res.ZL, res.ZU)
		}
	})
}

// sameValue reports whether two evaluations of the same value agree to
// rounding (NaN matches NaN).
func sameValue(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
