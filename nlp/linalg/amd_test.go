package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// grid2D returns the 5-point Laplacian pattern of a k×k grid (natural
// row-major numbering, values 4 on the diagonal and −1 off it).
func grid2D(k int) *SymCSC {
	var r, c []int
	var v []float64
	id := func(x, y int) int { return y*k + x }
	for y := range k {
		for x := range k {
			r, c, v = append(r, id(x, y)), append(c, id(x, y)), append(v, 4)
			if x+1 < k {
				r, c, v = append(r, id(x, y)), append(c, id(x+1, y)), append(v, -1)
			}
			if y+1 < k {
				r, c, v = append(r, id(x, y)), append(c, id(x, y+1)), append(v, -1)
			}
		}
	}
	a, _, err := NewSymCSC(k*k, r, c, v)
	if err != nil {
		panic(err)
	}
	return a
}

// nestedDissection returns a geometric nested-dissection order of the k×k
// grid: split the longer side by a middle grid line, order both halves
// recursively, then the separator (George, SIAM J. Numer. Anal. 10, 1973).
func nestedDissection(k int) []int {
	var order []int
	var rec func(x0, x1, y0, y1 int)
	rec = func(x0, x1, y0, y1 int) {
		if x1 <= x0 || y1 <= y0 {
			return
		}
		if (x1-x0)*(y1-y0) <= 4 {
			for y := y0; y < y1; y++ {
				for x := x0; x < x1; x++ {
					order = append(order, y*k+x)
				}
			}
			return
		}
		if x1-x0 >= y1-y0 {
			m := (x0 + x1) / 2
			rec(x0, m, y0, y1)
			rec(m+1, x1, y0, y1)
			for y := y0; y < y1; y++ {
				order = append(order, y*k+m)
			}
		} else {
			m := (y0 + y1) / 2
			rec(x0, x1, y0, m)
			rec(x0, x1, m+1, y1)
			for x := x0; x < x1; x++ {
				order = append(order, m*k+x)
			}
		}
	}
	rec(0, k, 0, k)
	return order
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

func TestAMDGridFill(t *testing.T) {
	for _, k := range []int{10, 20, 40} {
		a := grid2D(k)
		n := a.N
		for _, aggr := range []bool{true, false} {
			p := AMD(a, AMDOptions{NoAggressiveAbsorption: !aggr})
			if err := checkPerm(p, n); err != nil {
				t.Fatalf("k=%d: %v", k, err)
			}
			nat := symbolicNnz(a, identity(n))
			amd := symbolicNnz(a, p)
			nd := symbolicNnz(a, nestedDissection(k))
			t.Logf("grid %d×%d (n=%d, aggressive=%v): nnz(L) natural %d, AMD %d, geometric ND %d, (31/4)·n·log₂n = %.0f",
				k, k, n, aggr, nat, amd, nd, 31.0/4*float64(n)*math.Log2(float64(n)))
			// Natural order is banded with bandwidth k: nnz(L) ≈ n·k.
			if amd > nat {
				t.Errorf("k=%d: AMD fill %d worse than natural %d", k, amd, nat)
			}
			// Loose nested-dissection expectation: minimum-degree orderings
			// on 2-D grids are within a small factor of ND (George & Liu,
			// SIAM Rev. 31(1), 1989); allow 1.5×.
			if float64(amd) > 1.5*float64(nd) {
				t.Errorf("k=%d: AMD fill %d > 1.5 × nested dissection %d", k, amd, nd)
			}
		}
	}
}

// TestAMDArrow: a star (arrow) matrix whose hub is row 0. Eliminating the hub
// first fills the whole matrix (n(n−1)/2); any minimum-degree order
// eliminates the leaves first and gets nnz(L) = n−1 (closed form). With
// n = 400 the hub exceeds the dense-row threshold max(16, 10√n) = 200.
func TestAMDArrow(t *testing.T) {
	for _, n := range []int{10, 50, 400} {
		var r, c []int
		for i := range n {
			r, c = append(r, i), append(c, i)
			if i > 0 {
				r, c = append(r, 0), append(c, i)
			}
		}
		a, _, _ := NewSymCSC(n, r, c, nil)
		if got, want := symbolicNnz(a, identity(n)), n*(n-1)/2; got != want {
			t.Errorf("n=%d natural fill %d, want %d", n, got, want)
		}
		for _, alpha := range []float64{0, -1} {
			p := AMD(a, AMDOptions{DenseAlpha: alpha})
			if err := checkPerm(p, n); err != nil {
				t.Fatal(err)
			}
			// The hub and the last leaf tie at degree 1 at the end, so
			// the hub is one of the last two pivots.
			if k := indexOf(p, 0); k < n-2 {
				t.Errorf("n=%d alpha=%g: hub ordered at position %d, want ≥ %d", n, alpha, k, n-2)
			}
			if got := symbolicNnz(a, p); got != n-1 {
				t.Errorf("n=%d alpha=%g: AMD fill %d, want %d", n, alpha, got, n-1)
			}
		}
	}
}

func indexOf(p []int, v int) int {
	for k, x := range p {
		if x == v {
			return k
		}
	}
	return -1
}

// TestAMDRandom: valid permutations on random patterns (including empty
// rows and dense rows), and fill no worse than 1.2× natural on average.
func TestAMDRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 40 {
		n := 1 + rng.IntN(300)
		dens := rng.Float64() * 0.05
		var r, c []int
		for i := range n {
			r, c = append(r, i), append(c, i)
			for j := range i {
				if rng.Float64() < dens {
					r, c = append(r, j), append(c, i)
				}
			}
		}
		if n > 50 && trial%3 == 0 { // a dense row
			h := rng.IntN(n)
			for j := range n {
				if j != h {
					r, c = append(r, h), append(c, j)
				}
			}
		}
		a, _, err := NewSymCSC(n, r, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []AMDOptions{{}, {NoAggressiveAbsorption: true}, {DenseAlpha: -1}} {
			p := AMD(a, opt)
			if err := checkPerm(p, n); err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			if nat, amd := symbolicNnz(a, identity(n)), symbolicNnz(a, p); float64(amd) > 1.2*float64(nat)+10 {
				t.Errorf("trial %d n=%d %+v: AMD fill %d vs natural %d", trial, n, opt, amd, nat)
			}
		}
	}
}

// TestSymbolicCountsMatchCholesky: nnz(L) from the etree walk equals the
// number of nonzeros of the dense Cholesky factor (gonum) of an SPD matrix
// with the same pattern and random values (no exact cancellation occurs with
// probability one).
func TestSymbolicCountsMatchCholesky(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{5, 30, 90} {
		a, _, _ := randQuasiDefinite(rng, n, 0, 0.08, 1)
		for _, perm := range [][]int{identity(n), AMD(a, AMDOptions{}), rng.Perm(n)} {
			pinv := invPerm(perm)
			pa := mat.NewSymDense(n, nil)
			d := a.SymDense()
			for i := range n {
				for j := i; j < n; j++ {
					pa.SetSym(pinv[i], pinv[j], d.At(i, j))
				}
			}
			var ch mat.Cholesky
			if !ch.Factorize(pa) {
				t.Fatal("not SPD")
			}
			var l mat.TriDense
			ch.LTo(&l)
			cnt := 0
			for i := range n {
				for j := range i {
					if l.At(i, j) != 0 {
						cnt++
					}
				}
			}
			if got := symbolicNnz(a, perm); got != cnt {
				t.Errorf("n=%d: symbolic nnz(L) %d, dense Cholesky %d", n, got, cnt)
			}
		}
	}
}

// exactMinDegree is a reference minimum-degree order computed on the explicit
// elimination graph (boolean adjacency matrix, ties to the lowest index):
// eliminate a node of least current degree and join its neighbours into a
// clique (Tinney–Walker scheme 2; Rose 1972).
func exactMinDegree(a *SymCSC) []int {
	n := a.N
	adj := make([][]bool, n)
	for i := range adj {
		adj[i] = make([]bool, n)
	}
	for j := range n {
		for p := a.ColPtr[j]; p < a.ColPtr[j+1]; p++ {
			if i := a.RowIdx[p]; i != j {
				adj[i][j], adj[j][i] = true, true
			}
		}
	}
	done := make([]bool, n)
	var order []int
	for range n {
		best, bd := -1, n+1
		for i := range n {
			if done[i] {
				continue
			}
			d := 0
			for j := range n {
				if adj[i][j] && !done[j] {
					d++
				}
			}
			if d < bd {
				best, bd = i, d
			}
		}
		done[best] = true
		order = append(order, best)
		var nb []int
		for j := range n {
			if adj[best][j] && !done[j] {
				nb = append(nb, j)
			}
		}
		for _, u := range nb {
			for _, v := range nb {
				if u != v {
					adj[u][v] = true
				}
			}
		}
	}
	return order
}

// TestAMDvsExactMinDegree: AMD's approximate degrees should give fill close
// to exact minimum degree (Amestoy, Davis, Duff 1996, Table 2: AMD within a
// few percent of MMD). Tolerance: total fill over 30 random patterns within
// 15 %, no single case worse than 1.5×.
func TestAMDvsExactMinDegree(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	totA, totM := 0, 0
	for trial := range 30 {
		n := 20 + rng.IntN(130)
		dens := 2.5 / float64(n) * (1 + rng.Float64()*2)
		var r, c []int
		for i := range n {
			r, c = append(r, i), append(c, i)
			for j := range i {
				if rng.Float64() < dens {
					r, c = append(r, j), append(c, i)
				}
			}
		}
		a, _, _ := NewSymCSC(n, r, c, nil)
		fa := symbolicNnz(a, AMD(a, AMDOptions{DenseAlpha: -1}))
		fm := symbolicNnz(a, exactMinDegree(a))
		totA += fa
		totM += fm
		if float64(fa) > 1.5*float64(fm)+5 {
			t.Errorf("trial %d n=%d: AMD fill %d vs exact minimum degree %d", trial, n, fa, fm)
		}
	}
	t.Logf("total nnz(L): AMD %d, exact minimum degree %d", totA, totM)
	if float64(totA) > 1.15*float64(totM) {
		t.Errorf("AMD total fill %d > 1.15 × exact MD %d", totA, totM)
	}
}
