package mpcc

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

// scalarTerms are scalar pairs over nonlinearNLP (variable 1 in two pairs).
var scalarTerms = []Complementarity{Pair(0, 1), Pair(2, 3), Pair(1, 4)}

// sumTerms adds a summed term, valid for Scholtes only.
var sumTerms = []Complementarity{
	Pair(0, 1),
	{Pairs: [][2]int{{0, 2}, {1, 3}, {4, 2}, {0, 1}}},
	{Pairs: [][2]int{{3, 4}, {4, 3}}},
}

// checkStructure verifies a coordinate pattern: indices in range, no
// duplicates, lower triangle if lower.
func checkStructure(t *testing.T, name string, rows, cols []int, nr, nc int, lower bool) {
	t.Helper()
	if len(rows) != len(cols) {
		t.Fatalf("%s: len(rows) = %d, len(cols) = %d", name, len(rows), len(cols))
	}
	seen := map[[2]int]bool{}
	for e := range rows {
		i, j := rows[e], cols[e]
		if i < 0 || i >= nr || j < 0 || j >= nc {
			t.Fatalf("%s: entry %d = (%d, %d) out of %d×%d", name, e, i, j, nr, nc)
		}
		if lower && j > i {
			t.Fatalf("%s: entry %d = (%d, %d) above the diagonal", name, e, i, j)
		}
		if seen[[2]int{i, j}] {
			t.Fatalf("%s: duplicate entry (%d, %d)", name, i, j)
		}
		seen[[2]int{i, j}] = true
	}
}

// scatter returns the dense matrix of a coordinate list; sym mirrors it.
func scatter(rows, cols []int, vals []float64, nr, nc int, sym bool) *mat.Dense {
	d := mat.NewDense(nr, nc, nil)
	for e := range rows {
		d.Set(rows[e], cols[e], d.At(rows[e], cols[e])+vals[e])
		if sym && rows[e] != cols[e] {
			d.Set(cols[e], rows[e], d.At(cols[e], rows[e])+vals[e])
		}
	}
	return d
}

func maxRelDiff(a, b mat.Matrix) (float64, int, int) {
	r, c := a.Dims()
	var worst float64
	wi, wj := -1, -1
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d := math.Abs(a.At(i, j)-b.At(i, j)) / math.Max(1, math.Abs(b.At(i, j)))
			if d > worst {
				worst, wi, wj = d, i, j
			}
		}
	}
	return worst, wi, wj
}

// TestRelaxedDerivatives checks the gradient, the constraint Jacobian and
// the Lagrangian Hessian of every valid relaxation × steering × scaling
// against central finite differences (gonum diff/fd) at random points.
// The analytic matrices are scattered from their patterns and compared
// entry by entry with the dense finite-difference matrices, so a nonzero
// outside the pattern (a pattern that does not cover) also fails.
// Tolerance 1e-6 relative: central differences with step ≈ 6e-6 have
// truncation error O(h²) ≈ 1e-10 times third derivatives of order ≤ 10³
// here, and the Hessian is differenced from the exact gradient of the
// Lagrangian.
func TestRelaxedDerivatives(t *testing.T) {
	const tol = 1e-6
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range Relaxations() {
		for _, s := range Steerings() {
			for _, sc := range []PenaltyScaling{PenaltyOverSigma, ObjectiveTimesSigma} {
				if s == Direct && sc != PenaltyOverSigma {
					continue
				}
				if Compatible(r, s) != nil {
					continue
				}
				terms := scalarTerms
				if r.AllowsSums() {
					terms = sumTerms
				}
				name := fmt.Sprintf("%v/%v/%v", r, s, sc)
				t.Run(name, func(t *testing.T) {
					p := &Problem{NLP: nonlinearNLP(), Comp: terms}
					q, err := NewRelaxedScaled(p, r, s, sc, 0.3)
					if err != nil {
						t.Fatal(err)
					}
					n, m := q.Dims()
					jr, jc := q.JacobianStructure()
					checkStructure(t, "Jacobian", jr, jc, m, n, false)
					hr, hc := q.HessianStructure()
					checkStructure(t, "Hessian", hr, hc, n, n, true)
					for trial := 0; trial < 5; trial++ {
						x := make([]float64, n)
						for i := range x {
							x[i] = 0.1 + 1.5*rng.Float64()
						}
						lam := make([]float64, m)
						for i := range lam {
							lam[i] = 2*rng.Float64() - 1
						}
						objScale := 0.5 + rng.Float64()
						checkPoint(t, q, x, lam, objScale, jr, jc, hr, hc, tol)
					}
				})
			}
		}
	}
}

func checkPoint(t *testing.T, q *Relaxed, x, lam []float64, objScale float64, jr, jc, hr, hc []int, tol float64) {
	t.Helper()
	n, m := q.Dims()
	central := &fd.Settings{Formula: fd.Central}

	// Gradient.
	grad := make([]float64, n)
	if err := q.Gradient(x, grad); err != nil {
		t.Fatal(err)
	}
	obj := func(x []float64) float64 {
		f, err := q.Objective(x)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	fdGrad := fd.Gradient(nil, obj, x, central)
	if d, i, _ := maxRelDiff(mat.NewVecDense(n, grad), mat.NewVecDense(n, fdGrad)); d > tol {
		t.Errorf("gradient[%d] = %g, finite differences %g", i, grad[i], fdGrad[i])
	}

	// Jacobian.
	jv := make([]float64, len(jr))
	if err := q.JacobianValues(x, jv); err != nil {
		t.Fatal(err)
	}
	jac := scatter(jr, jc, jv, m, n, false)
	fdJac := mat.NewDense(m, n, nil)
	fd.Jacobian(fdJac, func(g, x []float64) {
		if err := q.Constraints(x, g); err != nil {
			t.Fatal(err)
		}
	}, x, &fd.JacobianSettings{Formula: fd.Central})
	if d, i, j := maxRelDiff(jac, fdJac); d > tol {
		t.Errorf("Jacobian(%d, %d) = %g, finite differences %g", i, j, jac.At(i, j), fdJac.At(i, j))
	}

	// Hessian of the Lagrangian σ f + λᵀg, differenced from its exact gradient.
	hv := make([]float64, len(hr))
	if err := q.HessianValues(x, objScale, lam, hv); err != nil {
		t.Fatal(err)
	}
	hess := scatter(hr, hc, hv, n, n, true)
	lagGrad := func(g, x []float64) {
		if err := q.Gradient(x, g); err != nil {
			t.Fatal(err)
		}
		vals := make([]float64, len(jr))
		if err := q.JacobianValues(x, vals); err != nil {
			t.Fatal(err)
		}
		for i := range g {
			g[i] *= objScale
		}
		for e := range jr {
			g[jc[e]] += lam[jr[e]] * vals[e]
		}
	}
	fdHess := mat.NewDense(n, n, nil)
	fd.Jacobian(fdHess, lagGrad, x, &fd.JacobianSettings{Formula: fd.Central})
	if d, i, j := maxRelDiff(hess, fdHess); d > tol {
		t.Errorf("Hessian(%d, %d) = %g, finite differences %g", i, j, hess.At(i, j), fdHess.At(i, j))
	}
}

// TestRelaxedDims checks the number of slacks and relaxation rows of each
// layout: L1 Scholtes is a pure penalty (no rows, no slack), L1 otherwise has
// one slack per term, LInf one slack, Lin–Fukushima two rows per term.
func TestRelaxedDims(t *testing.T) {
	p := &Problem{NLP: nonlinearNLP(), Comp: scalarTerms}
	cases := []struct {
		r         Relaxation
		s         Steering
		n, m      int
		slacks    int
		relaxRows int
	}{
		{ScholtesIneq, Direct, 5, 2 + 3, 0, 3},
		{ScholtesIneq, L1, 5, 2, 0, 0},
		{ScholtesEq, LInf, 6, 5, 1, 3},
		{LinFukushima, Direct, 5, 2 + 6, 0, 6},
		{KanzowSchwartz, L1, 8, 5, 3, 3},
		{FischerBurmeisterEq, LInf, 6, 5, 1, 3},
	}
	for _, c := range cases {
		q, err := NewRelaxed(p, c.r, c.s, 1)
		if err != nil {
			t.Fatalf("%v/%v: %v", c.r, c.s, err)
		}
		n, m := q.Dims()
		if n != c.n || m != c.m || q.NumSlacks() != c.slacks || q.NumRelaxationRows() != c.relaxRows {
			t.Errorf("%v/%v: dims (%d, %d), slacks %d, rows %d; want (%d, %d), %d, %d",
				c.r, c.s, n, m, q.NumSlacks(), q.NumRelaxationRows(), c.n, c.m, c.slacks, c.relaxRows)
		}
	}
}

// TestRelaxedBoundsAndSigma checks that SetSigma keeps the pattern, that
// Lin–Fukushima and Kadrani loosen the lower bounds to −τ = −σ.
func TestRelaxedBoundsAndSigma(t *testing.T) {
	p := &Problem{NLP: nonlinearNLP(), Comp: []Complementarity{Pair(0, 1)}}
	for _, r := range Relaxations() {
		q, err := NewRelaxed(p, r, Direct, 0.04)
		if err != nil {
			t.Fatal(err)
		}
		hr1, _ := q.HessianStructure()
		jr1, _ := q.JacobianStructure()
		n, m := q.Dims()
		xL, xU, gL, gU := make([]float64, n), make([]float64, n), make([]float64, m), make([]float64, m)
		q.Bounds(xL, xU, gL, gU)
		wantL := 0.0
		if r == LinFukushima || r == Kadrani {
			wantL = -0.04
		}
		if xL[0] != wantL || xL[1] != wantL || xL[2] != 0 {
			t.Errorf("%v: xL = %v, want %g on variables 0 and 1", r, xL, wantL)
		}
		if err := q.SetSigma(1e-6); err != nil {
			t.Fatal(err)
		}
		hr2, _ := q.HessianStructure()
		jr2, _ := q.JacobianStructure()
		if len(hr1) != len(hr2) || len(jr1) != len(jr2) {
			t.Errorf("%v: pattern changed with σ", r)
		}
		for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
			if err := q.SetSigma(bad); !errors.Is(err, ErrSigma) {
				t.Errorf("%v: SetSigma(%g) = %v, want ErrSigma", r, bad, err)
			}
		}
	}
	q, err := NewRelaxed(p, ScholtesIneq, L1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.SetSigma(0); !errors.Is(err, ErrSigma) {
		t.Errorf("SetSigma(0) with L1 = %v, want ErrSigma", err)
	}
}

// TestRelaxedSetsAtSigma checks the normalization: for every equality-type
// relaxation the point (a, b) with a·b = σ is on the relaxed boundary, and
// for the inequality types (0, b) is feasible and (2√σ, 2√σ) is not.
func TestRelaxedSetsAtSigma(t *testing.T) {
	p := &Problem{NLP: nonlinearNLP(), Comp: []Complementarity{Pair(0, 1)}}
	const sigma = 0.01
	for _, r := range Relaxations() {
		q, err := NewRelaxed(p, r, Direct, sigma)
		if err != nil {
			t.Fatal(err)
		}
		n, m := q.Dims()
		xL, xU, gL, gU := make([]float64, n), make([]float64, n), make([]float64, m), make([]float64, m)
		q.Bounds(xL, xU, gL, gU)
		feasible := func(a, b float64) bool {
			x := []float64{a, b, 0.5, 0.5, 0.5}
			g := make([]float64, m)
			if err := q.Constraints(x, g); err != nil {
				t.Fatal(err)
			}
			for i := 2; i < m; i++ {
				if g[i] < gL[i]-1e-12 || g[i] > gU[i]+1e-12 {
					return false
				}
			}
			return a >= xL[0] && b >= xL[1]
		}
		switch r {
		case ScholtesEq, FischerBurmeisterEq, NaturalResidualEq:
			if !feasible(0.05, sigma/0.05) || feasible(0, 1) {
				t.Errorf("%v: a·b = σ should be exactly the feasible set", r)
			}
		default:
			if !feasible(0, 1) || !feasible(1, 0) || feasible(2*math.Sqrt(sigma), 2*math.Sqrt(sigma)) {
				t.Errorf("%v: (0,1), (1,0) feasible and (2√σ, 2√σ) infeasible expected", r)
			}
		}
	}
}

func TestValidationErrors(t *testing.T) {
	base := nonlinearNLP()
	negLower := nonlinearNLP()
	negLower.xL[3] = -1
	infLower := nonlinearNLP()
	infLower.xL[4] = math.Inf(-1)
	cases := []struct {
		name string
		p    *Problem
		r    Relaxation
		s    Steering
		want error
	}{
		{"nil", &Problem{}, ScholtesIneq, Direct, ErrNilProblem},
		{"empty term", &Problem{NLP: base, Comp: []Complementarity{{}}}, ScholtesIneq, Direct, ErrEmptyTerm},
		{"index too large", &Problem{NLP: base, Comp: []Complementarity{Pair(0, 5)}}, ScholtesIneq, Direct, ErrIndex},
		{"negative index", &Problem{NLP: base, Comp: []Complementarity{Pair(-1, 2)}}, ScholtesIneq, Direct, ErrIndex},
		{"same variable", &Problem{NLP: base, Comp: []Complementarity{Pair(2, 2)}}, ScholtesIneq, Direct, ErrSamePair},
		{"negative lower bound", &Problem{NLP: negLower, Comp: []Complementarity{Pair(2, 3)}}, ScholtesIneq, Direct, ErrLowerBound},
		{"infinite lower bound", &Problem{NLP: infLower, Comp: []Complementarity{Pair(4, 0)}}, ScholtesIneq, Direct, ErrLowerBound},
		{"FB on a sum", &Problem{NLP: base, Comp: sumTerms}, FischerBurmeisterEq, Direct, ErrScalarPairRequired},
		{"KS on a sum", &Problem{NLP: base, Comp: sumTerms}, KanzowSchwartz, L1, ErrScalarPairRequired},
		{"LF with L1", &Problem{NLP: base, Comp: scalarTerms}, LinFukushima, L1, ErrUnsupported},
		{"Kadrani with LInf", &Problem{NLP: base, Comp: scalarTerms}, Kadrani, LInf, ErrUnsupported},
		{"unknown relaxation", &Problem{NLP: base, Comp: scalarTerms}, Relaxation(99), Direct, ErrRelaxation},
		{"unknown steering", &Problem{NLP: base, Comp: scalarTerms}, ScholtesIneq, Steering(-1), ErrSteering},
	}
	for _, c := range cases {
		_, err := NewRelaxed(c.p, c.r, c.s, 1)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
	// The error names the offending term.
	_, err := NewRelaxed(&Problem{NLP: base, Comp: sumTerms}, NaturalResidualIneq, Direct, 1)
	if err == nil || !containsAll(err.Error(), "term 1", "NaturalResidualIneq") {
		t.Errorf("error %q should name term 1 and the relaxation", err)
	}
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !contains(s, sub) {
			return false
		}
	}
	return true
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestRelaxedOutputsAndAllocs checks that every output entry is written
// (outputs NaN-prefilled), that inputs are not modified, and that the
// evaluations do not allocate.
func TestRelaxedOutputsAndAllocs(t *testing.T) {
	for _, r := range Relaxations() {
		for _, s := range Steerings() {
			if Compatible(r, s) != nil {
				continue
			}
			terms := scalarTerms
			if r.AllowsSums() {
				terms = sumTerms
			}
			q, err := NewRelaxed(&Problem{NLP: nonlinearNLP(), Comp: terms}, r, s, 0.5)
			if err != nil {
				t.Fatal(err)
			}
			n, m := q.Dims()
			jr, _ := q.JacobianStructure()
			hr, _ := q.HessianStructure()
			x := make([]float64, n)
			for i := range x {
				x[i] = 0.3 + 0.1*float64(i)
			}
			lam := fill(m, 0.7)
			x0, lam0 := append([]float64(nil), x...), append([]float64(nil), lam...)
			grad, g := fill(n, math.NaN()), fill(m, math.NaN())
			jv, hv := fill(len(jr), math.NaN()), fill(len(hr), math.NaN())
			eval := func() {
				if _, err := q.Objective(x); err != nil {
					t.Fatal(err)
				}
				if q.Gradient(x, grad) != nil || q.Constraints(x, g) != nil ||
					q.JacobianValues(x, jv) != nil || q.HessianValues(x, 1.5, lam, hv) != nil {
					t.Fatal("evaluation failed")
				}
			}
			eval()
			for name, v := range map[string][]float64{"gradient": grad, "constraints": g, "Jacobian": jv, "Hessian": hv} {
				for i, e := range v {
					if math.IsNaN(e) {
						t.Errorf("%v/%v: %s[%d] not written", r, s, name, i)
					}
				}
			}
			for i := range x {
				if x[i] != x0[i] {
					t.Errorf("%v/%v: x modified", r, s)
				}
			}
			for i := range lam {
				if lam[i] != lam0[i] {
					t.Errorf("%v/%v: λ modified", r, s)
				}
			}
			if a := testing.AllocsPerRun(10, eval); a != 0 {
				t.Errorf("%v/%v: %v allocations per evaluation", r, s, a)
			}
		}
	}
}
