package mpcc

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fesd-go/fesd/nlp"
)

// ralphB is min 2x − z s.t. s − z + x = 0, x ≥ 0, 0 ≤ z ⊥ s ≥ 0 (variables
// x, z, s), after Ralph's example of a B-stationary point that is not
// S-stationary (MacMPEC ralph1 in lifted form). At (0, 0, 0) the
// multipliers of the tightened NLP satisfy ν_x = 2 + y ≥ 0, ν_z = −1 − y,
// ν_s = y, so S-stationarity (ν_z, ν_s ≥ 0) would need y ≤ −1 and y ≥ 0:
// not S. On the branch z = 0 the constraint gives s = −x, so x = s = 0; on
// the branch s = 0 it gives z = x and f = x ≥ 0: no branch descends, the
// point is B-stationary (MPEC-LICQ fails: four active constraints in three
// variables).
func ralphB() *Problem {
	inf := math.Inf(1)
	q := &denseNLP{
		n: 3, m: 1,
		xL: []float64{0, 0, 0}, xU: []float64{inf, inf, inf},
		gL: []float64{0}, gU: []float64{0},
		x0:   []float64{0.5, 0.5, 0},
		f:    func(x []float64) float64 { return 2*x[0] - x[1] },
		grad: func(x, g []float64) { g[0], g[1], g[2] = 2, -1, 0 },
		cons: func(x, g []float64) { g[0] = x[2] - x[1] + x[0] },
		jac:  func(x []float64, j [][]float64) { j[0][0], j[0][1], j[0][2] = 1, -1, 1 },
		hess: func(x []float64, s float64, l []float64, h [][]float64) {},
	}
	return &Problem{NLP: q, Comp: []Complementarity{Pair(1, 2)}}
}

// pairsProblem is min Σ_i w_i(x_i − c_i)² + (y_i − d_i)² over k pairs
// 0 ≤ x_i ⊥ y_i ≥ 0 (variables x₀ … x_{k−1}, y₀ … y_{k−1}), started at x0.
func pairsProblem(k int, c, d, x0 []float64) *Problem {
	w := fill(2*k, 1)
	ctr := append(append([]float64(nil), c...), d...)
	var comp []Complementarity
	for i := 0; i < k; i++ {
		comp = append(comp, Pair(i, k+i))
	}
	return &Problem{NLP: quadratic(2*k, w, ctr, x0), Comp: comp}
}

// TestCertifyClasses certifies points with known classes (Scheel &
// Scholtes 2000, the definitions in the package documentation), started
// at the point itself. Reference multipliers are ∇f at the point (no
// constraints), exact; tolerance 1e-8 on them.
func TestCertifyClasses(t *testing.T) {
	two := func(c0, c1 float64) *Problem { return pairsProblem(1, []float64{c0}, []float64{c1}, []float64{0, 0}) }
	cases := []struct {
		name    string
		p       *Problem
		x       []float64
		want    Stationarity
		nu      []float64 // expected ν at the variables of the pair (nil: not checked)
		lpec    LPECOutcome
		freed   []int // LPEC descent branch
		biactiv int
	}{
		// min (x−1)² + (y−1)²: (1, 0) is a local minimizer, nondegenerate.
		{"two-minima (1,0)", two(1, 1), []float64{1, 0}, SStationary, []float64{0, -2}, LPECNotRun, nil, 0},
		// (0, 0): ν = (−2, −2), ν_G·ν_H > 0: C, not M; both branches
		// descend (the LPEC frees one side).
		{"two-minima (0,0)", two(1, 1), []float64{0, 0}, CStationary, []float64{-2, -2}, LPECDescent, nil, 1},
		// min x² + (y−1)² at (0, 0): ν = (0, −2): M (a zero multiplier), not
		// B: y may grow on the branch x = 0.
		{"M not B", two(0, 1), []float64{0, 0}, MStationary, []float64{0, -2}, LPECDescent, []int{1}, 1},
		// min (x+1)² + (y−1)² at (0, 0): ν = (2, −2): opposite signs, W only.
		{"W", two(-1, 1), []float64{0, 0}, WStationary, []float64{2, -2}, LPECDescent, []int{1}, 1},
		// min (x+1)² + (y+1)² at (0, 0): ν = (2, 2): S (the minimizer).
		{"S biactive", two(-1, -1), []float64{0, 0}, SStationary, []float64{2, 2}, LPECNotRun, nil, 1},
		// Ralph's example: B by the LPEC, not S.
		{"B not S", ralphB(), []float64{0, 0, 0}, BStationary, nil, LPECStationary, nil, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cert, err := (&Solver{}).Certify(context.Background(), c.p, c.x)
			if err != nil {
				t.Fatal(err)
			}
			if cert.Class != c.want || len(cert.Biactive) != c.biactiv {
				t.Fatalf("class %v (%s), %d biactive; want %v, %d", cert.Class, cert.Reason, len(cert.Biactive), c.want, c.biactiv)
			}
			if c.nu != nil {
				pr := c.p.Comp[0].Pairs[0]
				if math.Abs(cert.Nu[pr[0]]-c.nu[0]) > 1e-8 || math.Abs(cert.Nu[pr[1]]-c.nu[1]) > 1e-8 {
					t.Errorf("ν = (%g, %g), want %v", cert.Nu[pr[0]], cert.Nu[pr[1]], c.nu)
				}
			}
			got := LPECNotRun
			if cert.LPEC != nil {
				got = cert.LPEC.Outcome
			}
			if got != c.lpec {
				t.Fatalf("LPEC %v, want %v (%+v)", got, c.lpec, cert.LPEC)
			}
			if c.freed != nil && !slices.Equal(cert.LPEC.Freed, c.freed) {
				t.Errorf("LPEC frees %v, want %v", cert.LPEC.Freed, c.freed)
			}
			if c.lpec == LPECDescent && len(cert.LPEC.Freed) != 1 {
				t.Errorf("LPEC frees %v, want one variable", cert.LPEC.Freed)
			}
			if c.want == BStationary && (cert.LPEC.LPs < 2 || cert.Class.B() != true) {
				t.Errorf("B via %d LPs", cert.LPEC.LPs)
			}
			if cert.Violation > 1e-8 || cert.Distance > 1e-8 {
				t.Errorf("violation %g, distance %g", cert.Violation, cert.Distance)
			}
			t.Logf("%v: ν_min %.3g, dual residual %.1e, %d iterations, LPEC %+v", cert.Class, cert.MinBiactiveNu, cert.DualResidual, cert.Iterations, cert.LPEC)
		})
	}
}

// saddleInner answers every relaxed NLP of min (x−1)² + (y−1)² s.t.
// x·y ≤ σ with its symmetric KKT point x = y = √σ (a saddle of the relaxed
// NLP, where an interior-point method can stall; the limit (0, 0) is the
// C-stationary, not B-stationary point of Scheel & Scholtes 2000) and
// solves the tightened NLPs of the certificate and finish for real.
type saddleInner struct{ real NLPSolver }

func (s *saddleInner) SolveNLP(ctx context.Context, p nlp.Problem, w *WarmStart) (*InnerResult, error) {
	q, ok := p.(*Relaxed)
	if !ok {
		return s.real.SolveNLP(ctx, p, w)
	}
	n, m := q.Dims()
	r := math.Sqrt(q.Sigma())
	return &InnerResult{Status: nlp.Solved, X: fill(n, r), Y: fill(m, 1/r), ZL: fill(n, 0), ZU: fill(n, 0), Iterations: 1}, nil
}

// TestFinishLeavesSpuriousLimit: the homotopy ends at (√σ_N, √σ_N) ≈ 0
// with f ≈ 2 (status Solved: the residual σ_N meets CompTol). The
// certificate classifies its tightening (0, 0) as C-stationary (ν = (−2,
// −2)) and the LPEC finds descent on a branch; the finish moves there and
// its branch NLP ends at a minimizer (1, 0) or (0, 1), f = 1,
// S-stationary, after one branch change (the finish after the homotopy
// only, FinishSigma < 0). With the default early finish the same minimizer
// is reached before the limit, without a branch change. Tolerances 1e-8.
func TestFinishLeavesSpuriousLimit(t *testing.T) {
	p := func() *Problem { return pairsProblem(1, []float64{1}, []float64{1}, []float64{0.5, 0.5}) }
	inner := func() InnerSolver { return &saddleInner{real: NLPSolver{Settings: DefaultNLPSettings()}} }
	cert, err := (&Solver{Settings: Settings{Finish: CertifyOnly}, Inner: inner()}).Solve(context.Background(), p())
	if err != nil {
		t.Fatal(err)
	}
	if cert.Status != Solved || math.Abs(cert.Objective-2) > 1e-4 || cert.Stationarity != CStationary ||
		cert.Certificate.LPEC == nil || cert.Certificate.LPEC.Outcome != LPECDescent {
		t.Fatalf("homotopy: %v, f = %g, class %v (%s)", cert.Status, cert.Objective, cert.Stationarity, cert.Certificate.Reason)
	}
	early, err := (&Solver{Inner: inner()}).Solve(context.Background(), p())
	if err != nil {
		t.Fatal(err)
	}
	if early.Status != Solved || early.Stationarity != SStationary || early.Finish == nil || !early.Finish.Accepted ||
		early.Finish.Sigma > DefaultFinishSigma*(1+1e-9) || math.Abs(early.Objective-1) > 1e-8 || early.CompResidual != 0 ||
		distance(early.X, [][]float64{{1, 0}, {0, 1}}) > 1e-8 {
		t.Fatalf("early finish: %v, x = %v, f = %g, class %v, %+v", early.Status, early.X, early.Objective, early.Stationarity, early.Finish)
	}
	res, err := (&Solver{Settings: Settings{FinishSigma: -1}, Inner: inner()}).Solve(context.Background(), p())
	if err != nil {
		t.Fatal(err)
	}
	fin := res.Finish
	if res.Status != Solved || !fin.Accepted || fin.BranchChanges != 1 || res.Stationarity != SStationary ||
		math.Abs(res.Objective-1) > 1e-8 || res.CompResidual != 0 || distance(res.X, [][]float64{{1, 0}, {0, 1}}) > 1e-8 {
		t.Fatalf("finish: %v, x = %v, f = %g, class %v, %+v", res.Status, res.X, res.Objective, res.Stationarity, fin)
	}
	if len(fin.Solves) != 2 || fin.Solves[0].Class != CStationary || fin.Solves[1].Freed != 1 {
		t.Errorf("solves %+v", fin.Solves)
	}
	t.Logf("finish: %d solves, %d iterations, LPEC of the first certificate %+v", len(fin.Solves), fin.Iterations(), cert.Certificate.LPEC)
}

// coupled adds to p (a pairsProblem) the constraint Σ x_i ≥ 0: active at
// 0, implied by the bounds, and linking every variable in one row, so
// that the LPEC at 0 is one block.
func coupled(p *Problem) *Problem {
	q := p.NLP.(*denseNLP)
	q.m, q.gL, q.gU = 1, []float64{0}, []float64{math.Inf(1)}
	q.cons = func(x, g []float64) {
		g[0] = 0
		for _, v := range x {
			g[0] += v
		}
	}
	q.jac = func(x []float64, j [][]float64) {
		for i := range x {
			j[0][i] = 1
		}
	}
	return p
}

// TestLPECUndetermined: k pairs at (0, …, 0) of Σ (x_i−1)² + (y_i−1)²
// are all biactive with ν = (−2, −2): C-stationary. Coupled by one active
// row (one LPEC block), the LPEC needs at least k + 1 LPs to reach a
// complementary leaf: with k = 13 > 12 pairs it ends undetermined without
// an LP; with k = 6 and an LP budget of 3 it stops after 3 LPs. Both in
// bounded time (well under a second here; the bound is a CPU-time sanity
// limit). Uncoupled, the same 13 pairs are 13 blocks of one pair, and the
// first block's descent is found in 2 LPs. The finish then moves by the
// multiplier signs (or the LPEC), one variable per pair, to a minimizer
// with f = k.
func TestLPECUndetermined(t *testing.T) {
	for _, c := range []struct {
		k, maxLPs int
		coupled   bool
		outcome   LPECOutcome
		reason    string
		lps       int
	}{
		{13, 0, true, LPECUndetermined, "exceed the limit 12", 0},
		{6, 3, true, LPECUndetermined, "budget of 3", 3},
		{13, 0, false, LPECDescent, "finds descent", 2},
	} {
		ones := fill(c.k, 1)
		p := pairsProblem(c.k, ones, ones, fill(2*c.k, 0.5))
		if c.coupled {
			p = coupled(p)
		}
		s := &Solver{lpecLPs: c.maxLPs}
		t0 := time.Now()
		cert, err := s.Certify(context.Background(), p, fill(2*c.k, 0))
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(t0)
		if cert.Class != CStationary || cert.LPEC == nil || cert.LPEC.Outcome != c.outcome ||
			cert.LPEC.LPs != c.lps || !strings.Contains(cert.Reason, c.reason) || el > 5*time.Second {
			t.Fatalf("k = %d: %v (%s), LPEC %+v, %v", c.k, cert.Class, cert.Reason, cert.LPEC, el)
		}
		res, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Solved || !res.Finish.Accepted || res.Stationarity != SStationary ||
			math.Abs(res.Objective-float64(c.k)) > 1e-8 || res.CompResidual != 0 {
			t.Errorf("k = %d: finish %v, f = %g, class %v, %+v", c.k, res.Status, res.Objective, res.Stationarity, res.Finish)
		}
		t.Logf("k = %d, coupled %v: certificate %v; homotopy + finish: %d branch changes, %d finish iterations", c.k, c.coupled, el, res.Finish.BranchChanges, res.Finish.Iterations())
	}
}

// TestLPECBlocks: k pairs 0 ≤ y_i ⊥ t_i ≥ 0 with t_i = y_i and objective
// Σ (y_i − 2)² (the degenerate pairs of MacMPEC's qpec2). At 0 the
// multipliers are ν_y + ν_t = −4 (not S), but the only feasible point
// near 0 is 0 itself: B-stationary. The LPEC separates into k blocks of
// one pair, each decided by 3 LPs (root, then both sides fixed), so
// k = 13 > lpecMaxPairs is decided exactly, in 3k LPs.
func TestLPECBlocks(t *testing.T) {
	const k = 13
	inf := math.Inf(1)
	q := &denseNLP{
		n: 2 * k, m: k,
		xL: fill(2*k, 0), xU: fill(2*k, inf), gL: fill(k, 0), gU: fill(k, 0), x0: fill(2*k, 0),
		f: func(x []float64) float64 {
			var s float64
			for i := range k {
				s += (x[i] - 2) * (x[i] - 2)
			}
			return s
		},
		grad: func(x, g []float64) {
			clear(g)
			for i := range k {
				g[i] = 2 * (x[i] - 2)
			}
		},
		cons: func(x, g []float64) {
			for i := range k {
				g[i] = x[k+i] - x[i]
			}
		},
		jac: func(x []float64, j [][]float64) {
			for i := range k {
				j[i][i], j[i][k+i] = -1, 1
			}
		},
		hess: func(x []float64, s float64, l []float64, h [][]float64) {
			for i := range k {
				h[i][i] = 2 * s
			}
		},
	}
	var comp []Complementarity
	for i := range k {
		comp = append(comp, Pair(i, k+i))
	}
	p := &Problem{NLP: q, Comp: comp}
	cert, err := (&Solver{}).Certify(context.Background(), p, fill(2*k, 0))
	if err != nil {
		t.Fatal(err)
	}
	if cert.Class != BStationary || cert.LPEC == nil || cert.LPEC.Outcome != LPECStationary ||
		cert.LPEC.Blocks != k || cert.LPEC.LPs != 3*k {
		t.Fatalf("%v (%s), LPEC %+v", cert.Class, cert.Reason, cert.LPEC)
	}
}

// TestFinishFallback: a tightened NLP that fails (here a fake inner solver
// returning NaN with status Infeasible) leaves the homotopy point as the
// result, with the reason in Result.Finish and class NotCertified.
func TestFinishFallback(t *testing.T) {
	inf := nlp.Infeasible
	f := &fakeSolver{point: func(s float64) []float64 { return []float64{1, 100 * s} }, tightStatus: &inf, tightX: math.NaN()}
	res, err := (&Solver{Inner: f}).Solve(context.Background(), onePair())
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != SigmaLimit || res.Finish == nil || res.Finish.Accepted || res.Stationarity != NotCertified ||
		!strings.Contains(res.Finish.Reason, "Infeasible") || math.Abs(res.X[1]-1e-8) > 1e-20 {
		t.Errorf("%v, x = %v, class %v, finish %+v", res.Status, res.X, res.Stationarity, res.Finish)
	}
}

// TestCertifyKeepsUnprojectedPoint: min −u + (y − 50)² + (a − 1)² + b²
// s.t. 1e4·u − y = 0, |u| ≤ 0.005, 0 ≤ a ⊥ b ≥ 0 (variables u, y, a, b).
// Without the bound on u the minimizer would be u = 0.005 + 5e-9, so the
// solution is u = 0.005, y = 50, a = 1, b = 0, S-stationary with ν_u = −1
// and ν_b = 0 (both exact). The tightened NLP loosens |u| ≤ 0.005 by 1e-9
// and ends at u = 0.005 + 1e-9: projected back onto the bound, the row
// would be off by 1e4·1e-9 = 1e-5, far above the certificate's
// feasibility tolerance 1e-8·max(1, ‖x‖∞) = 5e-7, and the point would not
// certify; unprojected it violates only the bound, by the loosening.
func TestCertifyKeepsUnprojectedPoint(t *testing.T) {
	inf := math.Inf(1)
	q := &denseNLP{
		n: 4, m: 1,
		xL: []float64{-0.005, -inf, 0, 0}, xU: []float64{0.005, inf, inf, inf},
		gL: []float64{0}, gU: []float64{0},
		x0: []float64{0.005, 50, 1, 0},
		f: func(x []float64) float64 {
			return -x[0] + (x[1]-50)*(x[1]-50) + (x[2]-1)*(x[2]-1) + x[3]*x[3]
		},
		grad: func(x, g []float64) { g[0], g[1], g[2], g[3] = -1, 2*(x[1]-50), 2*(x[2]-1), 2*x[3] },
		cons: func(x, g []float64) { g[0] = 1e4*x[0] - x[1] },
		jac:  func(x []float64, j [][]float64) { j[0][0], j[0][1] = 1e4, -1 },
		hess: func(x []float64, s float64, l []float64, h [][]float64) {
			h[1][1], h[2][2], h[3][3] = 2*s, 2*s, 2*s
		},
	}
	p := &Problem{NLP: q, Comp: []Complementarity{Pair(2, 3)}}
	cert, err := (&Solver{}).Certify(context.Background(), p, []float64{0.005, 50, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	if cert.Class != SStationary {
		t.Fatalf("class %v (%s), violation %g", cert.Class, cert.Reason, cert.Violation)
	}
	if cert.Violation > 2e-9 {
		t.Errorf("violation %g, want at most the loosening 1e-9·max(1, 0.005) (with rounding)", cert.Violation)
	}
	if math.Abs(cert.X[0]-0.005) > 2e-9 || math.Abs(cert.X[1]-50) > 2e-5 || cert.X[3] != 0 {
		t.Errorf("x = %v, want (0.005, 50, 1, 0)", cert.X)
	}
	if math.Abs(cert.Nu[3]) > 1e-6 {
		t.Errorf("ν_b = %g, want 0", cert.Nu[3])
	}
}
