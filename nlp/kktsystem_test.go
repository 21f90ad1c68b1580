package nlp

import (
	"context"
	"math"
	"testing"
)

// kktAtStart sets up a solver for p and runs it to the first search
// direction's factorization at the starting point (μ₀, Hessian evaluated,
// inertia correction done).
func kktAtStart(t *testing.T, p Problem, set *Settings) *ipm {
	t.Helper()
	ip, err := newIPM(p, set, set.resolve(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ip.ctx = context.Background()
	if st, err := ip.initialize(nil); st != running || err != nil {
		t.Fatalf("initialize: %v, %v", st, err)
	}
	ip.computeErrors(ip.mu)
	if ok, err := ip.evalHessian(); !ok || err != nil {
		t.Fatalf("Hessian: %v, %v", ok, err)
	}
	if !ip.ic.factorize(ip.kkt, ip.mu, false) {
		t.Fatal("inertia correction failed")
	}
	return ip
}

// denseKKT returns the Hessian W (n_w × n_w, zero slack part) and A = [J, −E]
// (m × n_w) of ip's current values as dense matrices, from the structures
// directly (no fixed variables in the tests' problems).
func denseKKT(ip *ipm) (W, A [][]float64) {
	W, A = make([][]float64, ip.nw), make([][]float64, ip.m)
	for j := range W {
		W[j] = make([]float64, ip.nw)
	}
	for i := range A {
		A[i] = make([]float64, ip.nw)
	}
	for k, i := range ip.hRow {
		j := ip.hCol[k]
		W[i][j] += ip.hVal[k]
		if i != j {
			W[j][i] += ip.hVal[k]
		}
	}
	for k, i := range ip.jRow {
		A[i][ip.jCol[k]] += ip.jVal[k]
	}
	for i, s := range ip.slackOf {
		if s >= 0 {
			A[i][s] = -1
		}
	}
	return W, A
}

// TestAugmentedKKTSolve: at the starting point of HS071 (bounded
// variables, an inequality with its slack, an equality), with each
// backend, the KKT system's factorization accepted by the inertia
// correction has the wanted inertia (n_w, m, 0), and its refined solution
// of the Newton system satisfies the unreduced system
//
//	(W + δ_w I) dw + Aᵀdy − dz_L + dz_U = bw,  A dw − δ_c dy = by,
//	Z_L dw + S_L dz_L = bL,  −Z_U dw + S_U dz_U = bU
//
// to 1e-9 relative to the right-hand side, with the residual computed here
// from dense W and A (not by the system's own refinement); dwᵀ(W + Σ +
// δ_w I)dw from the system matches the dense product to 1e-12.
func TestAugmentedKKTSolve(t *testing.T) {
	for _, kind := range []LinearSolverKind{SparseLDL, DenseLDL, PivotingLDL} {
		set := Settings{LinearSolver: kind}
		ip := kktAtStart(t, hs071{}, &set)
		dW, dC := ip.ic.deltaW, ip.ic.deltaC
		in, err := ip.kkt.factorize(dW, dC)
		if err != nil || in.Pos != ip.nw || in.Neg != ip.m || in.Zero != 0 {
			t.Fatalf("%v: inertia %+v, %v; want (%d, %d, 0)", kind, in, err, ip.nw, ip.m)
		}
		ip.setRHS(ip.mu)
		ratio := ip.kkt.solve(ip.rhs, ip.step)
		W, A := denseKKT(ip)
		res, scale := 0.0, ip.rhs.maxAbs()
		for j := range ip.nw {
			v := ip.rhs.w[j] - (dW*ip.step.w[j] - ip.step.zL[j] + ip.step.zU[j])
			for k := range ip.nw {
				v -= W[j][k] * ip.step.w[k]
			}
			for i := range ip.m {
				v -= A[i][j] * ip.step.y[i]
			}
			l := ip.rhs.zL[j] - (ip.zL[j]*ip.step.w[j] + ip.sL[j]*ip.step.zL[j])
			u := ip.rhs.zU[j] - (-ip.zU[j]*ip.step.w[j] + ip.sU[j]*ip.step.zU[j])
			res = max(res, math.Abs(v), math.Abs(l), math.Abs(u))
		}
		for i := range ip.m {
			v := ip.rhs.y[i] + dC*ip.step.y[i]
			for j := range ip.nw {
				v -= A[i][j] * ip.step.w[j]
			}
			res = max(res, math.Abs(v))
		}
		t.Logf("%v: δ_w %.3g, δ_c %.3g, residual %.3g, right-hand side %.3g, ‖dw‖ %.3g, curvature %.6g",
			kind, dW, dC, res, scale, normInf(ip.step.w), ip.kkt.curvature(ip.step.w))
		if !(res <= 1e-9*scale) || !(ratio <= resRatioMax) {
			t.Errorf("%v: residual %.3g (right-hand side %.3g), ratio %.3g", kind, res, scale, ratio)
		}
		curv := 0.0
		for j := range ip.nw {
			d := (dW + ip.zL[j]/ip.sL[j] + ip.zU[j]/ip.sU[j]) * ip.step.w[j]
			for k := range ip.nw {
				d += W[j][k] * ip.step.w[k]
			}
			curv += ip.step.w[j] * d
		}
		if got := ip.kkt.curvature(ip.step.w); math.Abs(got-curv) > 1e-12*max(1, math.Abs(curv)) {
			t.Errorf("%v: curvature %.17g, dense %.17g", kind, got, curv)
		}
	}
}

// TestAugmentedKKTLeastSquares: the least-squares multipliers minimize
// ‖∇f̃ + Aᵀy − z_L + z_U‖₂, so the normal equations A(∇f̃ − z_L + z_U + Aᵀy)
// = 0 hold (to 1e-10 relative to ‖A‖·‖∇f̃‖), with A from the structures.
func TestAugmentedKKTLeastSquares(t *testing.T) {
	set := Settings{}
	ip := kktAtStart(t, hs071{}, &set)
	y, ok := ip.kkt.leastSquaresY()
	if !ok {
		t.Fatal("least-squares multipliers failed")
	}
	_, A := denseKKT(ip)
	v := make([]float64, ip.nw)
	scale := 0.0
	for j := range v {
		v[j] = ip.grad[j] - ip.zL[j] + ip.zU[j]
		for i := range ip.m {
			v[j] += A[i][j] * y[i]
			scale = max(scale, math.Abs(A[i][j])*math.Abs(ip.grad[j]))
		}
	}
	t.Logf("y = %.6g, scale %.3g", y, scale)
	for i := range ip.m {
		r := 0.0
		for j := range v {
			r += A[i][j] * v[j]
		}
		if math.Abs(r) > 1e-10*max(1, scale) {
			t.Errorf("row %d of the normal equations: %.3g (scale %.3g)", i, r, scale)
		}
	}
}

// TestInertiaCorrectorRaise: the δ_w sequences of the correctors after
// rejected trials. Algorithm IC (W&B06 §3.1, IPOPT's constants): from 0
// without a previous δ_w, δ_w^0 = 1e-4, then ×κ̄_w⁺ = 100; with δ_w^last =
// 3e-3, first κ_w⁻·δ_w^last = 1e-3, then ×κ_w⁺ = 8 (×100 again once δ_w >
// 1e5·δ_w^last). Tracking with δ_w^prev = 0.3: from 0, δ_w^prev/3 = 0.1;
// below δ_w^prev, δ_w^prev itself; then Algorithm IC's increases.
func TestInertiaCorrectorRaise(t *testing.T) {
	seq := func(c inertiaCorrector, d, last float64, k int) []float64 {
		out := make([]float64, k)
		for i := range out {
			d = c.raiseDeltaW(d, last)
			out[i] = d
		}
		return out
	}
	near := func(a, b []float64) bool {
		for i := range a {
			if math.Abs(a[i]-b[i]) > 1e-14*b[i] {
				return false
			}
		}
		return true
	}
	for _, c := range []struct {
		name      string
		ic        inertiaCorrector
		d, last   float64
		want      []float64
		firstWant float64
	}{
		{"IC first", &inertiaBased{}, 0, 0, []float64{1e-4, 1e-2, 1, 100}, 0},
		{"IC last", &inertiaCurvature{}, 0, 3e-3, []float64{1e-3, 8e-3, 6.4e-2, 0.512}, 0},
		{"IC far above last", &inertiaBased{strict: true}, 400, 3e-3, []float64{4e4, 4e6}, 0},
		{"tracking", &inertiaTracking{prev: 0.3, probeAfter: trackZeroProbe}, 0, 0.3, []float64{0.1, 0.3, 2.4, 19.2}, 0.1},
	} {
		if got := seq(c.ic, c.d, c.last, len(c.want)); !near(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if got := c.ic.firstDeltaW(); got != c.firstWant && math.Abs(got-c.firstWant) > 1e-16 {
			t.Errorf("%s: first δ_w %v, want %v", c.name, got, c.firstWant)
		}
	}
}
