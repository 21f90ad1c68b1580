package linalg

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// mfCtor returns a constructor of Multifrontal solvers for runConformance.
func mfCtor(t *testing.T, set Settings) func() LinearSolver {
	return func() LinearSolver {
		s, err := NewMultifrontal(set)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

func TestConformanceMultifrontalAMD(t *testing.T) {
	runConformance(t, mfCtor(t, Settings{}))
}

func TestConformanceMultifrontalNatural(t *testing.T) {
	runConformance(t, mfCtor(t, Settings{Ordering: OrderNatural}))
}

// Strict threshold u = 0.5: many delays and root fallbacks on the same suite.
func TestConformanceMultifrontalStrict(t *testing.T) {
	runConformance(t, mfCtor(t, Settings{PivotTol: 0.5}))
}

// permMultifrontal makes the user permutation (reversal) at Analyze, when n
// is known, so the conformance suite runs OrderGiven and OrderBest.
type permMultifrontal struct {
	*Multifrontal
	ord Ordering
	t   *testing.T
}

func (p *permMultifrontal) Analyze(a *SymCSC) error {
	if a == nil {
		return p.Multifrontal.Analyze(a)
	}
	perm := make([]int, max(a.N, 0))
	for i := range perm {
		perm[i] = len(perm) - 1 - i
	}
	s, err := NewMultifrontal(Settings{Ordering: p.ord, Perm: perm})
	if err != nil {
		p.t.Fatal(err)
	}
	p.Multifrontal = s
	return s.Analyze(a)
}

func TestConformanceMultifrontalGiven(t *testing.T) {
	runConformance(t, func() LinearSolver {
		s, _ := NewMultifrontal(Settings{})
		return &permMultifrontal{Multifrontal: s, ord: OrderGiven, t: t}
	})
}

func TestConformanceMultifrontalBest(t *testing.T) {
	runConformance(t, func() LinearSolver {
		s, _ := NewMultifrontal(Settings{})
		return &permMultifrontal{Multifrontal: s, ord: OrderBest, t: t}
	})
}

// backwardError is the normwise backward error ‖Ax−b‖∞ / (‖A‖∞‖x‖∞ + ‖b‖∞)
// (Rigal & Gaches 1967; Higham, "Accuracy and Stability of Numerical
// Algorithms", 2nd ed., Thm 7.1).
func backwardError(a *SymCSC, x, b []float64) float64 {
	n := a.N
	r := make([]float64, n)
	a.MulVecTo(r, x)
	for i := range r {
		r[i] -= b[i]
	}
	abs := a.Clone()
	for i, v := range abs.Val {
		abs.Val[i] = math.Abs(v)
	}
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	rowsum := make([]float64, n)
	abs.MulVecTo(rowsum, ones)
	return normInf(r) / (normInf(rowsum)*normInf(x) + normInf(b))
}

// fromTriplets builds a SymCSC with the variables shuffled by idx (idx[i] is
// the position of logical variable i), or unshuffled if idx is nil.
func fromTriplets(n int, idx []int, ri, cj []int, v []float64) *SymCSC {
	if idx != nil {
		for t := range ri {
			ri[t], cj[t] = idx[ri[t]], idx[cj[t]]
		}
	}
	a, _, err := NewSymCSC(n, ri, cj, v)
	if err != nil {
		panic(err)
	}
	return a
}

// randSaddle returns K = [0 Bᵀ; B 0] of order n+m with an all-zero diagonal,
// B m×n (m ≤ n) sparse with a transversal of entries of magnitude in [1, 2),
// hence of full rank m for generic values. The eigenvalues of K are ±σᵢ(B)
// (m pairs) and n−m zeros (Golub & Van Loan, 4th ed., §8.6.1), so its
// inertia is (m, m, n−m). If shuffle, primal and dual variables interleave.
func randSaddle(rng *rand.Rand, n, m int, dens float64, shuffle bool) (*SymCSC, Inertia) {
	var ri, cj []int
	var v []float64
	cols := rng.Perm(n)
	for i := range m {
		for j := range n {
			x := 0.0
			switch {
			case j == cols[i]:
				x = (1 + rng.Float64()) * float64(1-2*rng.IntN(2))
			case rng.Float64() < dens:
				x = rng.NormFloat64()
			default:
				continue
			}
			ri, cj, v = append(ri, n+i), append(cj, j), append(v, x)
		}
	}
	var idx []int
	if shuffle {
		idx = rng.Perm(n + m)
	}
	return fromTriplets(n+m, idx, ri, cj, v), Inertia{Pos: m, Neg: m, Zero: n - m}
}

// randSingularKKT returns K = [H Jᵀ; J 0] with n primal and m dual
// variables, J = [E F] (E diagonal with |E_ii| ∈ [1, 2), F sparse N(0,1)),
// H = diag(H₁₁, H₂₂) with H₁₁ diagonal in {0, −α} (singular and indefinite)
// and H₂₂ sparse, strictly diagonally dominant with margin ≥ 1. With
// Z = [−E⁻¹F; I] a null-space basis of J, ZᵀHZ = H₂₂ + FᵀE⁻¹H₁₁E⁻¹F ⪰
// (1 − α‖F‖²_F) I ≻ 0 for α = 0.5/(1+‖F‖²_F), so In(K) = In(ZᵀHZ) + (m, m, 0)
// = (n, m, 0) (Gould, Math. Prog. 32, 1985, Lemma 3.4). The zero diagonal
// of the dual block and of H₁₁ forces 2×2 pivots or delays.
func randSingularKKT(rng *rand.Rand, n, m int, dens float64, shuffle bool) (*SymCSC, []int8, Inertia) {
	var ri, cj []int
	var v []float64
	add := func(i, j int, x float64) { ri, cj, v = append(ri, i), append(cj, j), append(v, x) }
	fro := 0.0
	for i := range m {
		add(n+i, i, (1+rng.Float64())*float64(1-2*rng.IntN(2)))
		for j := m; j < n; j++ {
			if rng.Float64() < dens {
				x := rng.NormFloat64()
				fro += x * x
				add(n+i, j, x)
			}
		}
	}
	alpha := 0.5 / (1 + fro)
	for i := range m {
		if rng.IntN(2) == 0 {
			add(i, i, -alpha)
		} // else H₁₁[i,i] = 0 (stored by NewSymCSC)
	}
	rowsum := make([]float64, n)
	for i := m; i < n; i++ {
		for j := m; j < i; j++ {
			if rng.Float64() < dens {
				x := rng.NormFloat64()
				add(i, j, x)
				rowsum[i] += math.Abs(x)
				rowsum[j] += math.Abs(x)
			}
		}
	}
	for i := m; i < n; i++ {
		add(i, i, rowsum[i]+1+rng.Float64())
	}
	var idx []int
	if shuffle {
		idx = rng.Perm(n + m)
	}
	signs := make([]int8, n+m)
	for i := range signs {
		g := int8(1)
		if i >= n {
			g = -1
		}
		if idx != nil {
			signs[idx[i]] = g
		} else {
			signs[i] = g
		}
	}
	return fromTriplets(n+m, idx, ri, cj, v), signs, Inertia{Pos: n, Neg: m}
}

// randIndefinite returns a random sparse symmetric matrix with N(0,1)
// off-diagonal entries of the given density and a N(0,1) diagonal, of which
// each entry with at least two off-diagonal neighbours is zero with
// probability 1/3.
func randIndefinite(rng *rand.Rand, n int, dens float64) (*SymCSC, []int8) {
	var ri, cj []int
	var v []float64
	deg := make([]int, n)
	for i := range n {
		for j := range i {
			if rng.Float64() < dens {
				ri, cj, v = append(ri, j), append(cj, i), append(v, rng.NormFloat64())
				deg[i]++
				deg[j]++
			}
		}
	}
	for i := range n {
		if deg[i] < 2 || rng.IntN(3) > 0 {
			ri, cj, v = append(ri, i), append(cj, i), append(v, rng.NormFloat64())
		}
	}
	signs := make([]int8, n)
	for i := range signs {
		signs[i] = int8(1 - 2*rng.IntN(2))
	}
	return fromTriplets(n, nil, ri, cj, v), signs
}

// eigMinAndInertia returns minAbsEig(a) and eigInertia(a, tol) from one
// eigendecomposition.
func eigMinAndInertia(t *testing.T, a *SymCSC, tol float64) (float64, Inertia) {
	t.Helper()
	var e mat.EigenSym
	if !e.Factorize(a.SymDense(), false) {
		t.Fatal("EigenSym failed")
	}
	m, in := math.Inf(1), Inertia{}
	for _, l := range e.Values(nil) {
		m = math.Min(m, math.Abs(l))
		switch {
		case math.Abs(l) <= tol:
			in.Zero++
		case l > 0:
			in.Pos++
		default:
			in.Neg++
		}
	}
	return m, in
}

// minAbsEig returns min |λ(A)| (gonum EigenSym).
func minAbsEig(t *testing.T, a *SymCSC) float64 {
	t.Helper()
	var e mat.EigenSym
	if !e.Factorize(a.SymDense(), false) {
		t.Fatal("EigenSym failed")
	}
	m := math.Inf(1)
	for _, l := range e.Values(nil) {
		m = math.Min(m, math.Abs(l))
	}
	return m
}

// mfCase is a matrix with its reference inertia; runMFCases factorizes it
// with each of mfSettings and checks the inertia and the backward error of a
// plain solve.
type mfCase struct {
	name  string
	a     *SymCSC
	signs []int8
	want  Inertia
	// tol bounds the backward error (plain solve for u ≥ 0.1, refined solve
	// for every u); 0: not checked (singular matrices). See the cases.
	tol float64
}

// mfSettings are the solver settings of runMFCases: AMD and natural order,
// IPOPT's default threshold u = 1e-8 and the strict 0.1 and 0.5.
func mfSettings() []Settings {
	return []Settings{{}, {Ordering: OrderNatural}, {PivotTol: 0.5}, {Ordering: OrderNatural, PivotTol: 0.1}}
}

// runMFCases checks each case with each of mfSettings, without and with the
// expected signs.
func runMFCases(t *testing.T, cases []mfCase) {
	for _, c := range cases {
		for _, set := range mfSettings() {
			name := fmt.Sprintf("%s/%v/u=%g", c.name, set.Ordering, set.PivotTol)
			s, err := NewMultifrontal(set)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Analyze(c.a); err != nil {
				t.Fatal(err)
			}
			for _, signs := range [][]int8{nil, c.signs} {
				if err := s.Factorize(c.a, signs); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got := s.Inertia(); got != c.want {
					t.Errorf("%s signs=%v: inertia %+v, want %+v (stats %+v)", name, signs != nil, got, c.want, s.Stats())
				}
				if c.tol == 0 {
					continue
				}
				rng := rand.New(rand.NewPCG(uint64(c.a.N), 1))
				b := randVec(rng, c.a.N)
				x := make([]float64, c.a.N)
				if err := s.Solve(x, b); err != nil {
					t.Fatal(err)
				}
				// The threshold u bounds the entries of L by 1/u and the
				// growth per pivot step by 1 + 2/u (Duff & Reid 1983), so the backward error of a
				// plain solve is small only for a large u; with IPOPT's
				// u = 1e-8 it can reach ≈ 1e-10 here, and IPOPT relies on
				// iterative refinement, as is checked for every u.
				be := backwardError(c.a, x, b)
				if set.PivotTol >= 0.1 && !(be <= c.tol) {
					t.Errorf("%s signs=%v: backward error %.3g > %g (stats %+v)", name, signs != nil, be, c.tol, s.Stats())
				}
				if _, err := s.RefinedSolve(c.a, x, b, 5, 1e-15); err != nil {
					t.Fatal(err)
				}
				if bre := backwardError(c.a, x, b); !(bre <= c.tol) {
					t.Errorf("%s signs=%v: refined backward error %.3g > %g (plain %.3g, stats %+v)", name, signs != nil, bre, c.tol, be, s.Stats())
				}
			}
		}
	}
}

// TestMultifrontalSaddle: [0 Bᵀ; B 0] with an all-zero diagonal, so that no
// 1×1 pivot exists at the start and every pivot is 2×2 or delayed.
// Reference: inertia (m, m, n−m) by construction (randSaddle), cross-checked
// by the gonum eigenvalue count (zero threshold 1e-10). Tolerance: backward
// error 1e-14 ≈ 50ε for the nonsingular (square B) cases.
func TestMultifrontalSaddle(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var cases []mfCase
	for _, c := range []struct {
		n, m    int
		dens    float64
		shuffle bool
	}{{1, 1, 0, false}, {5, 5, 0.3, true}, {40, 40, 0.05, false}, {40, 40, 0.05, true}, {150, 150, 0.02, true},
		{10, 6, 0.2, true}, {60, 40, 0.05, false}, {60, 40, 0.05, true}} {
		a, in := randSaddle(rng, c.n, c.m, c.dens, c.shuffle)
		if ref := eigInertia(t, a, 1e-10); ref != in {
			t.Fatalf("saddle %d×%d: eigenvalue count %+v, construction %+v", c.m, c.n, ref, in)
		}
		tol := 1e-14
		if in.Zero > 0 {
			tol = 0
		}
		signs := make([]int8, a.N)
		for i := range signs {
			signs[i] = int8(1 - 2*rng.IntN(2))
		}
		cases = append(cases, mfCase{fmt.Sprintf("saddle%dx%d/shuffle=%v", c.m, c.n, c.shuffle), a, signs, in, tol})
	}
	runMFCases(t, cases)
}

// TestMultifrontalSingularH: KKT matrices [H Jᵀ; J 0] with H singular and
// indefinite but positive definite on null(J). Reference: inertia (n, m, 0)
// (randSingularKKT, Gould 1985), cross-checked by eigenvalues. Tolerance:
// backward error 1e-14.
func TestMultifrontalSingularH(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var cases []mfCase
	for _, c := range []struct {
		n, m    int
		dens    float64
		shuffle bool
	}{{2, 1, 0.5, false}, {6, 3, 0.3, true}, {40, 15, 0.1, false}, {40, 15, 0.1, true}, {200, 80, 0.02, true}} {
		a, sg, in := randSingularKKT(rng, c.n, c.m, c.dens, c.shuffle)
		if ref := eigInertia(t, a, 1e-10); ref != in {
			t.Fatalf("kkt %d+%d: eigenvalue count %+v, construction %+v", c.n, c.m, ref, in)
		}
		cases = append(cases, mfCase{fmt.Sprintf("kkt%d_%d/shuffle=%v", c.n, c.m, c.shuffle), a, sg, in, 1e-14})
	}
	runMFCases(t, cases)
}

// tinyPivotBlocks returns k copies of A₃ = [ε 1 1; 1 1 β; 1 β 1] on the
// diagonal (ε = 1e-11, β = 1 − 1e-6). A₃ has the eigenvalue 1 − β = 1e-6
// (eigenvector (0, 1, −1)) and the two eigenvalues of [ε √2; √2 1+β], of
// opposite signs, so In(A₃) = (2, 1, 0). Eliminating ε first without
// pivoting creates entries of size 1/ε = 1e11 whose rounding (≈ 1e-5) swamps
// the last pivot, whose exact value is ≈ 2(1 − β) = 2e-6.
func tinyPivotBlocks(k int) *SymCSC {
	var ri, cj []int
	var v []float64
	const eps, beta = 1e-11, 1 - 1e-6
	for b := range k {
		o := 3 * b
		for _, e := range []struct {
			i, j int
			x    float64
		}{{0, 0, eps}, {0, 1, 1}, {0, 2, 1}, {1, 1, 1}, {1, 2, beta}, {2, 2, 1}} {
			ri, cj, v = append(ri, o+e.i), append(cj, o+e.j), append(v, e.x)
		}
	}
	return fromTriplets(3*k, nil, ri, cj, v)
}

// TestMultifrontalPivotingBeatsSparse: on tinyPivotBlocks in the natural
// order the pivot-free Sparse reports a wrong inertia (checked, so the case
// stays meaningful) while Multifrontal, which takes a 2×2 pivot, matches
// the eigenvalue count (1, 2 per block; closed form above). Tolerance:
// backward error 1e-14.
func TestMultifrontalPivotingBeatsSparse(t *testing.T) {
	const k = 10
	a := tinyPivotBlocks(k)
	want := Inertia{Pos: 2 * k, Neg: k}
	if ref := eigInertia(t, a, 1e-10); ref != want {
		t.Fatalf("eigenvalue count %+v, closed form %+v", ref, want)
	}
	if m := minAbsEig(t, a); m < 9e-7 {
		t.Fatalf("min |λ| = %g, closed form ≈ 1e-6", m)
	}
	sp, _ := NewSparse(Settings{Ordering: OrderNatural})
	if err := sp.Analyze(a); err != nil {
		t.Fatal(err)
	}
	if err := sp.Factorize(a, nil); err != nil {
		t.Fatal(err)
	}
	if sp.Inertia() == want {
		t.Fatalf("Sparse found the right inertia %+v; the case no longer shows the failure", want)
	}
	runMFCases(t, []mfCase{{"tiny-pivot", a, nil, want, 1e-14}})
	mf, _ := NewMultifrontal(Settings{Ordering: OrderNatural})
	_ = mf.Analyze(a)
	_ = mf.Factorize(a, nil)
	if st := mf.Stats(); st.TwoByTwo != k {
		t.Errorf("%d 2×2 pivots, want one per block (%d)", st.TwoByTwo, k)
	}
}

// TestMultifrontalRankDeficient: A = Mᵀ B M with B random sparse symmetric
// indefinite of order n and M = [I | e_i + e_j] (n × (n+1)): the extra
// variable duplicates x_i + x_j, so rank A = n and A has exactly one zero
// eigenvalue (B nonsingular, checked). Reference: gonum eigenvalue count
// with zero threshold 1e-10; Zero must be 1.
func TestMultifrontalRankDeficient(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	var cases []mfCase
	for _, n := range []int{2, 8, 60, 200} {
		b, _ := randIndefinite(rng, n, math.Min(1, 4/float64(n)))
		if minAbsEig(t, b) < 1e-6 {
			t.Fatalf("n=%d: B nearly singular", n)
		}
		i, j := rng.IntN(n), rng.IntN(n)
		for j == i && n > 1 {
			j = rng.IntN(n)
		}
		// A = Mᵀ B M: A[:n,:n] = B, A[:n,n] = B(e_i+e_j), A[n,n] = (e_i+e_j)ᵀB(e_i+e_j).
		bd := b.SymDense()
		var ri, cj []int
		var v []float64
		for r := range n {
			for c := r; c < n; c++ {
				if x := bd.At(r, c); x != 0 || r == c {
					ri, cj, v = append(ri, r), append(cj, c), append(v, x)
				}
			}
			if x := bd.At(r, i) + bd.At(r, j); x != 0 {
				ri, cj, v = append(ri, r), append(cj, n), append(v, x)
			}
		}
		ri, cj, v = append(ri, n), append(cj, n), append(v, bd.At(i, i)+2*bd.At(i, j)+bd.At(j, j))
		a := fromTriplets(n+1, nil, ri, cj, v)
		ref := eigInertia(t, a, 1e-10)
		if ref.Zero != 1 {
			t.Fatalf("n=%d: eigenvalue count %+v, want one zero", n, ref)
		}
		signs := make([]int8, n+1)
		for k := range signs {
			signs[k] = int8(1 - 2*rng.IntN(2))
		}
		cases = append(cases, mfCase{fmt.Sprintf("rankdef%d", n), a, signs, ref, 0})
	}
	runMFCases(t, cases)
}

// TestMultifrontalRandomIndefinite: random sparse symmetric indefinite
// matrices (a third of the diagonal zero) of several sizes and densities.
// Reference: gonum eigenvalue count; the seeds give min |λ| ≥ 1e-6 (checked),
// far from the 1e-10 zero threshold.
func TestMultifrontalRandomIndefinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	var cases []mfCase
	for _, c := range []struct {
		n    int
		dens float64
	}{{1, 0}, {2, 1}, {5, 0.5}, {50, 0.05}, {50, 0.3}, {500, 0.004}, {500, 0.02}} {
		// Redraw (deterministically) the structurally or numerically
		// singular draws: sparse random matrices with zero diagonal
		// entries often have an empty or dependent row.
		// One eigendecomposition per draw gives both min |λ| and the
		// inertia (it is most of this test's CPU at n = 500).
		a, sg := randIndefinite(rng, c.n, c.dens)
		minAbs, in := eigMinAndInertia(t, a, 1e-10)
		for tries := 0; minAbs < 1e-6; tries++ {
			if tries == 20 {
				t.Fatalf("n=%d dens=%g: no nonsingular draw", c.n, c.dens)
			}
			a, sg = randIndefinite(rng, c.n, c.dens)
			minAbs, in = eigMinAndInertia(t, a, 1e-10)
		}
		cases = append(cases, mfCase{fmt.Sprintf("rand%d_%g", c.n, c.dens), a, sg, in, 1e-13})
	}
	runMFCases(t, cases)
}

// delaySaddle is a nonsingular saddle matrix [0 Bᵀ; B 0] (randSaddle with
// square B, shuffled) of order 300 with inertia (150, 150, 0). Its zero
// diagonal makes leaf fronts whose columns have no fully summed partner for
// a 2×2 pivot, so they delay.
func delaySaddle() (*SymCSC, []int8, Inertia) {
	rng := rand.New(rand.NewPCG(61, 62))
	a, in := randSaddle(rng, 150, 150, 0.02, true)
	sg := make([]int8, a.N)
	for i := range sg {
		sg[i] = int8(1 - 2*rng.IntN(2))
	}
	return a, sg, in
}

// TestMultifrontalDelays: delays happen (Stats().Delayed > 0) and the results
// stay right. Reference: inertia (150, 150, 0) by construction (randSaddle),
// cross-checked by eigenvalues; refined backward error ≤ 1e-14, and the
// plain solve ≤ 1e-14 for u = 0.5.
func TestMultifrontalDelays(t *testing.T) {
	a, sg, in := delaySaddle()
	if ref := eigInertia(t, a, 1e-10); ref != in {
		t.Fatalf("eigenvalue count %+v, construction %+v", ref, in)
	}
	for _, u := range []float64{0, 0.5} {
		s, err := NewMultifrontal(Settings{PivotTol: u})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Analyze(a); err != nil {
			t.Fatal(err)
		}
		if err := s.Factorize(a, sg); err != nil {
			t.Fatal(err)
		}
		st := s.Stats()
		if st.Delayed == 0 {
			t.Errorf("u=%g: no delayed pivots (stats %+v)", u, st)
		}
		if got := s.Inertia(); got != in {
			t.Errorf("u=%g: inertia %+v, want %+v", u, got, in)
		}
		rng := rand.New(rand.NewPCG(1, 1))
		b := randVec(rng, a.N)
		x := make([]float64, a.N)
		if err := s.Solve(x, b); err != nil {
			t.Fatal(err)
		}
		if be := backwardError(a, x, b); u == 0.5 && be > 1e-14 {
			t.Errorf("u=%g: plain backward error %.3g > 1e-14", u, be)
		}
		if _, err := s.RefinedSolve(a, x, b, 5, 1e-15); err != nil {
			t.Fatal(err)
		}
		if be := backwardError(a, x, b); be > 1e-14 {
			t.Errorf("u=%g: refined backward error %.3g > 1e-14", u, be)
		}
		t.Logf("u=%g: %+v", u, st)
	}
}

// TestMultifrontalReproducible: Factorize twice on the same values gives
// bit-identical solutions (also after a different factorization in between).
func TestMultifrontalReproducible(t *testing.T) {
	a, sg, _ := delaySaddle()
	s, _ := NewMultifrontal(Settings{})
	if err := s.Analyze(a); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	b := randVec(rng, a.N)
	solve := func(m *SymCSC) []float64 {
		if err := s.Factorize(m, sg); err != nil {
			t.Fatal(err)
		}
		x := make([]float64, a.N)
		if err := s.Solve(x, b); err != nil {
			t.Fatal(err)
		}
		return x
	}
	x1 := solve(a)
	other := a.Clone()
	for i := range other.Val {
		other.Val[i] *= 1 + 0.1*rng.Float64()
	}
	solve(other)
	x2 := solve(a)
	for i := range x1 {
		if math.Float64bits(x1[i]) != math.Float64bits(x2[i]) {
			t.Fatalf("x[%d]: %v then %v", i, x1[i], x2[i])
		}
	}
}

// TestMultifrontalErrors: invalid PivotTol, NaN value, changed pattern,
// Solve before Factorize (the conformance suite checks more).
func TestMultifrontalErrors(t *testing.T) {
	for _, u := range []float64{-1e-3, 0.6, math.NaN(), math.Inf(1)} {
		if _, err := NewMultifrontal(Settings{PivotTol: u}); !errors.Is(err, ErrSettings) {
			t.Errorf("PivotTol=%g: %v", u, err)
		}
	}
	for _, u := range []float64{0, 1e-8, 0.5} {
		if _, err := NewMultifrontal(Settings{PivotTol: u}); err != nil {
			t.Errorf("PivotTol=%g: %v", u, err)
		}
	}
	a, sg, _ := delaySaddle()
	s, _ := NewMultifrontal(Settings{})
	x := make([]float64, a.N)
	if err := s.Solve(x, x); !errors.Is(err, ErrNotFactorized) {
		t.Errorf("Solve before Analyze: %v", err)
	}
	if err := s.Analyze(a); err != nil {
		t.Fatal(err)
	}
	if err := s.Solve(x, x); !errors.Is(err, ErrNotFactorized) {
		t.Errorf("Solve before Factorize: %v", err)
	}
	if _, err := s.RefinedSolve(a, x, x, 2, 0); !errors.Is(err, ErrNotFactorized) {
		t.Errorf("RefinedSolve before Factorize: %v", err)
	}
	nan := a.Clone()
	nan.Val[7] = math.Inf(-1)
	var nf *NonFiniteError
	if err := s.Factorize(nan, sg); !errors.As(err, &nf) || nf.Where != "value" || nf.Index != 7 {
		t.Errorf("Inf value: %v", err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	other, _ := randSaddle(rng, 150, 150, 0.02, true)
	if err := s.Factorize(other, sg); !errors.Is(err, ErrPattern) {
		t.Errorf("changed pattern: %v", err)
	}
	if err := s.Factorize(a, sg); err != nil {
		t.Fatal(err)
	}
	// Overflow in a pivot: a_00 = 1e301 passes the 1×1 test against
	// a_10 = 1.7e308 (u = 1e-8), and the Schur complement
	// 0 − a_10²/a_00 ≈ −3e315 overflows to −Inf.
	big, _, _ := NewSymCSC(2, []int{0, 0, 1}, []int{0, 1, 1}, []float64{1e301, 1.7e308, 0})
	sb, _ := NewMultifrontal(Settings{})
	if err := sb.Analyze(big); err != nil {
		t.Fatal(err)
	}
	if err := sb.Factorize(big, nil); !errors.As(err, &nf) || nf.Where != "pivot" {
		t.Errorf("overflowing pivot: %v", err)
	}
	if err := sb.Solve([]float64{1, 1}, []float64{1, 1}); !errors.Is(err, ErrNotFactorized) {
		t.Errorf("Solve after failed Factorize: %v", err)
	}
}

// TestMultifrontalNoAllocs: after Analyze and one Factorize, Factorize,
// Solve and RefinedSolve do not allocate, for a matrix without delays
// (quasi-definite) and one with delays (delaySaddle).
func TestMultifrontalNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	qd, qsg, _ := randQuasiDefinite(rng, 200, 100, 0.03, 1e-8)
	dk, dsg, _ := delaySaddle()
	for _, c := range []struct {
		name string
		a    *SymCSC
		sg   []int8
		set  Settings
	}{
		{"quasidefinite/AMD", qd, qsg, Settings{}},
		{"quasidefinite/Natural", qd, qsg, Settings{Ordering: OrderNatural}},
		{"delays/AMD", dk, dsg, Settings{}},
		{"delays/AMD/u=0.5", dk, dsg, Settings{PivotTol: 0.5}},
	} {
		s, err := NewMultifrontal(c.set)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Analyze(c.a); err != nil {
			t.Fatal(err)
		}
		if err := s.Factorize(c.a, c.sg); err != nil {
			t.Fatal(err)
		}
		b := randVec(rng, c.a.N)
		x := make([]float64, c.a.N)
		if n := testing.AllocsPerRun(10, func() {
			if err := s.Factorize(c.a, c.sg); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: Factorize allocates %v times", c.name, n)
		}
		if n := testing.AllocsPerRun(10, func() {
			if err := s.Solve(x, b); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: Solve allocates %v times", c.name, n)
		}
		if n := testing.AllocsPerRun(10, func() {
			if _, err := s.RefinedSolve(c.a, x, b, 5, 0); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: RefinedSolve allocates %v times", c.name, n)
		}
		st := s.Stats()
		if strings.HasPrefix(c.name, "delays") && st.Delayed == 0 {
			t.Errorf("%s: no delays (stats %+v)", c.name, st)
		}
		t.Logf("%s: %+v", c.name, st)
	}
}
