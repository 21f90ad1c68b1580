package mpcc

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// Small MPCCs with closed-form solutions, each verified by hand by
// enumerating the two branches of every pair.
type mpccCase struct {
	name  string
	p     func() *Problem
	xStar [][]float64 // all solutions (any one is accepted)
	fStar float64
	// biactive marks solutions with x_a = x_b = 0 for some pair: the relaxed
	// solutions approach them like √σ, so only the polished point is exact.
	biactive bool
	sigma0   float64 // 0: default
}

func quadratic(n int, w, c []float64, x0 []float64) *denseNLP {
	inf := math.Inf(1)
	return &denseNLP{
		n: n, m: 0,
		xL: fill(n, 0), xU: fill(n, inf), x0: x0,
		f: func(x []float64) float64 {
			var s float64
			for i := range x {
				s += w[i] * (x[i] - c[i]) * (x[i] - c[i])
			}
			return s
		},
		grad: func(x, g []float64) {
			for i := range x {
				g[i] = 2 * w[i] * (x[i] - c[i])
			}
		},
		cons: func(x, g []float64) {},
		jac:  func(x []float64, j [][]float64) {},
		hess: func(x []float64, s float64, l []float64, h [][]float64) {
			for i := range x {
				h[i][i] = 2 * s * w[i]
			}
		},
	}
}

// stewartEuler is one implicit-Euler step of length h = ½ from x₀ = −1
// for the Filippov system ẋ = 3 (x < 0), ẋ = 1 (x > 0) in Stewart's
// DCS form (004 eq. 28, one implicit-Euler stage), variables
// (x₁, θ₁, θ₂, λ₁, λ₂, μ), g = (x, −x):
//
//	x₁ = x₀ + h(3θ₁ + θ₂),  x₁ − λ₁ − μ = 0,  −x₁ − λ₂ − μ = 0,  θ₁ + θ₂ = 1,
//	0 ≤ θ_i ⊥ λ_i ≥ 0,      objective 0.
//
// By hand: θ = (1, 0) gives x₁ = ½ > 0, contradicting λ₂ = −2x₁ ≥ 0;
// θ = (0, 1) gives x₁ = −½ < 0, contradicting λ₁ = 2x₁ ≥ 0; so both θ_i > 0,
// λ = 0, μ = 0, x₁ = 0 and θ₁ = ½: the unique solution (0, ½, ½, 0, 0, 0).
func stewartEuler(summed bool) *Problem {
	inf := math.Inf(1)
	q := &denseNLP{
		n: 6, m: 4,
		xL: []float64{-inf, 0, 0, 0, 0, -inf}, xU: fill(6, inf),
		gL: []float64{-1, 0, 0, 1}, gU: []float64{-1, 0, 0, 1},
		x0:   []float64{0, 0.5, 0.5, 0.1, 0.1, 0},
		f:    func(x []float64) float64 { return 0 },
		grad: func(x, g []float64) { clear(g) },
		cons: func(x, g []float64) {
			g[0] = x[0] - 0.5*(3*x[1]+x[2])
			g[1] = x[0] - x[3] - x[5]
			g[2] = -x[0] - x[4] - x[5]
			g[3] = x[1] + x[2]
		},
		jac: func(x []float64, j [][]float64) {
			j[0][0], j[0][1], j[0][2] = 1, -1.5, -0.5
			j[1][0], j[1][3], j[1][5] = 1, -1, -1
			j[2][0], j[2][4], j[2][5] = -1, -1, -1
			j[3][1], j[3][2] = 1, 1
		},
		hess: func(x []float64, s float64, l []float64, h [][]float64) {},
	}
	comp := []Complementarity{Pair(1, 3), Pair(2, 4)}
	if summed {
		comp = []Complementarity{{Pairs: [][2]int{{1, 3}, {2, 4}}}}
	}
	return &Problem{NLP: q, Comp: comp}
}

var mpccCases = []mpccCase{
	{
		// min (x−1)² + (y−1)², 0 ≤ x ⊥ y ≥ 0: branches (1, 0) and (0, 1),
		// f = 1. (The symmetric start (½, ½) would lead to the spurious
		// C-stationary limit (0, 0) with f = 2.)
		name: "two-minima",
		p: func() *Problem {
			return &Problem{NLP: quadratic(2, []float64{1, 1}, []float64{1, 1}, []float64{0.9, 0.2}), Comp: []Complementarity{Pair(0, 1)}}
		},
		xStar: [][]float64{{1, 0}, {0, 1}}, fStar: 1,
	},
	{
		// min (x−2)² + (y−1)² s.t. x + y ≤ 1.5, 0 ≤ x ⊥ y ≥ 0.
		// y = 0: x = 1.5, f = 0.25 + 1 = 1.25; x = 0: y = 1, f = 4.
		name: "constrained",
		p: func() *Problem {
			q := quadratic(2, []float64{1, 1}, []float64{2, 1}, []float64{1, 0.3})
			q.m = 1
			q.gL, q.gU = []float64{math.Inf(-1)}, []float64{1.5}
			q.cons = func(x, g []float64) { g[0] = x[0] + x[1] }
			q.jac = func(x []float64, j [][]float64) { j[0][0], j[0][1] = 1, 1 }
			return &Problem{NLP: q, Comp: []Complementarity{Pair(0, 1)}}
		},
		xStar: [][]float64{{1.5, 0}}, fStar: 1.25,
	},
	{
		// min (x+1)² + (y+1)², 0 ≤ x ⊥ y ≥ 0: the minimizer over the
		// orthant, biactive (0, 0), f = 2.
		name: "biactive-convex",
		p: func() *Problem {
			return &Problem{NLP: quadratic(2, []float64{1, 1}, []float64{-1, -1}, []float64{0.5, 0.3}), Comp: []Complementarity{Pair(0, 1)}}
		},
		xStar: [][]float64{{0, 0}}, fStar: 2, biactive: true,
	},
	{
		// Ralph's example (MacMPEC ralph2): min x² + y² − 4xy,
		// 0 ≤ x ⊥ y ≥ 0. On each branch f = t² ≥ 0: solution (0, 0), f = 0.
		// σ₀ = 0.1 keeps the L1 penalty f + xy/σ bounded below (needs
		// 1/σ ≥ 2; with σ₀ = 1 the first relaxed NLP is unbounded).
		name: "ralph2",
		p: func() *Problem {
			q := quadratic(2, []float64{1, 1}, []float64{0, 0}, []float64{0.5, 0.2})
			q.f = func(x []float64) float64 { return x[0]*x[0] + x[1]*x[1] - 4*x[0]*x[1] }
			q.grad = func(x, g []float64) { g[0], g[1] = 2*x[0]-4*x[1], 2*x[1]-4*x[0] }
			q.hess = func(x []float64, s float64, l []float64, h [][]float64) {
				h[0][0], h[1][1], h[0][1], h[1][0] = 2*s, 2*s, -4*s, -4*s
			}
			return &Problem{NLP: q, Comp: []Complementarity{Pair(0, 1)}}
		},
		xStar: [][]float64{{0, 0}}, fStar: 0, biactive: true, sigma0: 0.1,
	},
	{
		// Two independent pairs: min (x₀−1)² + (x₂−½)² + (x₁−2)² + (x₃−1)²,
		// 0 ≤ (x₀, x₁) ⊥ (x₂, x₃) ≥ 0. Pair (0, 2): x₂ = 0 gives ¼, x₀ = 0
		// gives 1; pair (1, 3): x₃ = 0 gives 1, x₁ = 0 gives 4.
		// Solution (1, 2, 0, 0), f = 1.25.
		name: "two-pairs",
		p: func() *Problem {
			return &Problem{NLP: quadratic(4, []float64{1, 1, 1, 1}, []float64{1, 2, 0.5, 1}, []float64{0.9, 1.8, 0.3, 0.3}),
				Comp: []Complementarity{Pair(0, 2), Pair(1, 3)}}
		},
		xStar: [][]float64{{1, 2, 0, 0}}, fStar: 1.25,
	},
	{
		name:  "stewart-euler",
		p:     func() *Problem { return stewartEuler(false) },
		xStar: [][]float64{{0, 0.5, 0.5, 0, 0, 0}},
	},
	{
		// The same with the summed term θ₁λ₁ + θ₂λ₂ (Scholtes only).
		name:  "stewart-euler-summed",
		p:     func() *Problem { return stewartEuler(true) },
		xStar: [][]float64{{0, 0.5, 0.5, 0, 0, 0}},
	},
	{
		// The same as one summed term x₀x₂ + x₁x₃ = 0 (Scholtes only).
		name: "summed",
		p: func() *Problem {
			return &Problem{NLP: quadratic(4, []float64{1, 1, 1, 1}, []float64{1, 2, 0.5, 1}, []float64{0.9, 1.8, 0.3, 0.3}),
				Comp: []Complementarity{{Pairs: [][2]int{{0, 2}, {1, 3}}}}}
		},
		xStar: [][]float64{{1, 2, 0, 0}}, fStar: 1.25,
	},
}

func maxAbsDiff(a, b []float64) float64 {
	var d float64
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// distance returns the max-norm distance of x to the nearest solution.
func distance(x []float64, sols [][]float64) float64 {
	d := math.Inf(1)
	for _, s := range sols {
		d = math.Min(d, maxAbsDiff(x, s))
	}
	return d
}

// TestHomotopyEndToEnd solves every case with every valid relaxation ×
// steering with the real interior-point solver (nlp.Solver, default
// settings of this package), once with the certificate only and once with
// the active-set finish (the default).
// Tolerances: |f − f*| ≤ 1e-6 and ‖x − x*‖∞ ≤ 1e-6 after the finish, with
// complementarity residual exactly 0 (the fixed variables sit on their
// bound) and a B-stationary class; before the finish the same for nondegenerate solutions, and
// ‖x − x*‖∞ ≤ 1e-4 and |f − f*| ≤ 2e-4 for biactive ones: equality-type
// relaxations force a·b = σ, so they stop at a = b = √σ ≈ 3.2e-5 for
// σ = CompTol = 1e-9, and f − f* = 4√σ ≈ 1.3e-4 in biactive-convex.
func TestHomotopyEndToEnd(t *testing.T) {
	var summary strings.Builder
	for _, c := range mpccCases {
		for _, r := range Relaxations() {
			for _, s := range Steerings() {
				if Compatible(r, s) != nil {
					continue
				}
				p := c.p()
				if !r.AllowsSums() && !allScalar(p) {
					continue
				}
				name := fmt.Sprintf("%s/%v/%v", c.name, r, s)
				t.Run(name, func(t *testing.T) {
					ns := DefaultNLPSettings()
					ns.MaxWallTime = 20 * time.Second
					set := Settings{Relaxation: r, Steering: s, Sigma0: c.sigma0, NLP: &ns, Finish: CertifyOnly}
					ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
					defer cancel()

					// Homotopy alone.
					res, err := (&Solver{Settings: set}).Solve(ctx, p)
					if err != nil {
						t.Fatal(err)
					}
					if len(res.Steps) == 0 {
						t.Fatal("no homotopy steps recorded")
					}
					iters := make([]string, len(res.Steps))
					for k, st := range res.Steps {
						// σ decreases, except for the exact re-solve
						// of an inexact step (Settings.InexactFactor)
						resolve := k > 0 && st.Sigma == res.Steps[k-1].Sigma && st.Tol == 0 && res.Steps[k-1].Tol > 0
						if st.Sigma <= 0 || st.Elapsed <= 0 || (k > 0 && st.Sigma >= res.Steps[k-1].Sigma && !resolve) {
							t.Errorf("step %d: bad record %+v", k, st)
						}
						iters[k] = fmt.Sprint(st.Iterations)
						if !st.Status.Success() {
							iters[k] += "!"
						}
					}
					xTol := 1e-6
					if c.biactive {
						xTol = 1e-4
					}
					dx := distance(res.X, c.xStar)
					if res.Status != Solved {
						t.Errorf("homotopy status %v", res.Status)
					}
					if dx > xTol {
						t.Errorf("homotopy x = %v, want one of %v (|Δ| = %.1e > %.0e)", res.X, c.xStar, dx, xTol)
					}
					fTol := 1e-6
					if c.biactive {
						fTol = 2e-4
					}
					if d := math.Abs(res.Objective - c.fStar); d > fTol {
						t.Errorf("homotopy f = %.10g, want %g", res.Objective, c.fStar)
					}

					// With the active-set finish.
					set.Finish = ActiveSetFinish
					pol, err := (&Solver{Settings: set}).Solve(ctx, p)
					if err != nil {
						t.Fatal(err)
					}
					dp := distance(pol.X, c.xStar)
					fin := pol.Finish
					fmt.Fprintf(&summary, "%-40s %-10v %2d steps, iters [%s], comp %.1e, nat %.1e, |x−x*| %.1e, class %v (cert %d it) | finish: %d solves %d it, accepted %v, class %v, comp %.0e, |x−x*| %.1e\n",
						name, res.Status, len(res.Steps), strings.Join(iters, " "), res.CompResidual, res.NaturalResidual, dx,
						res.Stationarity, res.Certificate.Iterations,
						len(fin.Solves), fin.Iterations(), fin.Accepted, pol.Stationarity, pol.CompResidual, dp)
					if pol.Status != Solved || !fin.Accepted || !pol.Stationarity.B() {
						t.Errorf("finish: status %v, class %v, %+v", pol.Status, pol.Stationarity, fin)
					}
					if dp > 1e-6 {
						t.Errorf("finished x = %v, want one of %v (|Δ| = %.1e)", pol.X, c.xStar, dp)
					}
					if d := math.Abs(pol.Objective - c.fStar); d > 1e-6 {
						t.Errorf("finished f = %.10g, want %g", pol.Objective, c.fStar)
					}
					if pol.CompResidual != 0 {
						t.Errorf("complementarity residual %g after the finish, want 0", pol.CompResidual)
					}
				})
			}
		}
	}
	t.Log("\n" + summary.String())
}

func allScalar(p *Problem) bool {
	for _, c := range p.Comp {
		if !c.Scalar() {
			return false
		}
	}
	return true
}

// TestHomotopyOptions runs option variants on the constrained and
// two-pairs cases (tolerances as in TestHomotopyEndToEnd), and checks that
// a rerun is bit-identical and the problem is not modified.
func TestHomotopyOptions(t *testing.T) {
	variants := []struct {
		name string
		set  Settings
	}{
		{"superlinear", Settings{Update: Superlinear}},
		{"cold duals", Settings{ColdDuals: true}},
		{"kappa 0.2", Settings{Kappa: 0.2}},
		{"L1 σf+P", Settings{Steering: L1, PenaltyScaling: ObjectiveTimesSigma}},
		{"LInf σf+P", Settings{Steering: LInf, PenaltyScaling: ObjectiveTimesSigma}},
		{"KS L1 σf+P", Settings{Relaxation: KanzowSchwartz, Steering: L1, PenaltyScaling: ObjectiveTimesSigma}},
	}
	for _, c := range []mpccCase{mpccCases[1], mpccCases[4]} {
		for _, v := range variants {
			t.Run(c.name+"/"+v.name, func(t *testing.T) {
				p := c.p()
				comp := fmt.Sprint(p.Comp)
				s := Solver{Settings: v.set}
				res, err := s.Solve(context.Background(), p)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != Solved || distance(res.X, c.xStar) > 1e-6 || math.Abs(res.Objective-c.fStar) > 1e-6 {
					t.Errorf("%v after %d steps: x = %v, f = %.10g", res.Status, len(res.Steps), res.X, res.Objective)
				}
				again, err := s.Solve(context.Background(), p)
				if err != nil {
					t.Fatal(err)
				}
				for i := range res.X {
					if math.Float64bits(res.X[i]) != math.Float64bits(again.X[i]) {
						t.Errorf("rerun differs: %v vs %v", res.X, again.X)
						break
					}
				}
				if fmt.Sprint(p.Comp) != comp {
					t.Errorf("problem modified: %s → %v", comp, p.Comp)
				}
			})
		}
	}
}

// scalablePairs is min Σ_i (x_i − 1)² + (y_i − c_i)² s.t. Σ_i x_i ≤ n − 1,
// 0 ≤ x_i ⊥ y_i ≥ 0, c_i ∈ [0.1, 0.8). With y = 0 the x-part is the
// projection of (1, …, 1) onto the half-space: x_i = 1 − 1/n, costing 1/n in
// total; setting some x_i = 0 instead costs about 1 − c_i² > 1/n more, so
// the solution is x_i = 1 − 1/n, y_i = 0, f = Σ c_i² + 1/n, with an active
// coupling constraint (multiplier 2/n).
func scalablePairs(n int) (*Problem, float64) {
	w := fill(2*n, 1)
	c := make([]float64, 2*n)
	x0 := make([]float64, 2*n)
	var f float64
	var comp []Complementarity
	for i := 0; i < n; i++ {
		c[i] = 1
		c[n+i] = 0.1 + 0.7*float64(i)/float64(n)
		f += c[n+i]*c[n+i] + 1/float64(n*n)
		x0[i], x0[n+i] = 0.9, 0.3
		comp = append(comp, Pair(i, n+i))
	}
	q := quadratic(2*n, w, c, x0)
	q.m = 1
	q.gL, q.gU = []float64{math.Inf(-1)}, []float64{float64(n - 1)}
	q.cons = func(x, g []float64) {
		g[0] = 0
		for i := 0; i < n; i++ {
			g[0] += x[i]
		}
	}
	q.jac = func(x []float64, j [][]float64) {
		for i := 0; i < n; i++ {
			j[0][i] = 1
		}
	}
	return &Problem{NLP: q, Comp: comp}, f
}

// TestHomotopyScalable solves 40 pairs with a coupling constraint.
// Tolerance 1e-6 on x and f (closed form above).
func TestHomotopyScalable(t *testing.T) {
	const n = 40
	p, fStar := scalablePairs(n)
	xStar := make([]float64, 2*n)
	for i := 0; i < n; i++ {
		xStar[i] = 1 - 1.0/n
	}
	for _, r := range []Relaxation{ScholtesIneq, KanzowSchwartz, FischerBurmeisterIneq} {
		res, err := (&Solver{Settings: Settings{Relaxation: r}}).Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		var iters []int
		for _, st := range res.Steps {
			iters = append(iters, st.Iterations)
		}
		t.Logf("%v: %v, %d steps, iterations %v, comp %.1e, finish accepted %v (%d it), class %v", r, res.Status, len(res.Steps), iters, res.CompResidual, res.Finish.Accepted, res.Finish.Iterations(), res.Stationarity)
		if res.Status != Solved || maxAbsDiff(res.X, xStar) > 1e-6 || math.Abs(res.Objective-fStar) > 1e-6 {
			t.Errorf("%v: %v, |x − x*| = %.1e, f = %.10g want %.10g", r, res.Status, maxAbsDiff(res.X, xStar), res.Objective, fStar)
		}
	}
}
