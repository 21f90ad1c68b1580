package ad

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// chainProblem builds the discretized optimal control problem of
// nlp/adnlp's chain benchmark with N stages,
//
//	min Σₖ h(xₖ² + uₖ²) + x_N²  s.t.  xₖ₊₁ = xₖ + h(sin xₖ + uₖ),
//
// with variables ordered (x₀, u₀, x₁, u₁, …, x_N): n = 2N + 1, m = N.
func chainProblem(N int) (g *Graph, X Vec, F Expr, G Vec) {
	g = NewGraph()
	h := 1.0 / float64(N)
	n := 2*N + 1
	X = make(Vec, 0, n)
	xs, us := make(Vec, N+1), make(Vec, N)
	for k := 0; k <= N; k++ {
		xs[k] = g.Sym("x")
		X = append(X, xs[k])
		if k < N {
			us[k] = g.Sym("u")
			X = append(X, us[k])
		}
	}
	G = make(Vec, N)
	terms := make(Vec, 0, 2*N+1)
	for k := 0; k < N; k++ {
		G[k] = xs[k+1].Sub(xs[k]).Sub(Sin(xs[k]).Add(us[k]).Scale(h))
		terms = append(terms, Sq(xs[k]).Scale(h), Sq(us[k]).Scale(h))
	}
	terms = append(terms, Sq(xs[N]))
	return g, X, Sum(terms), G
}

// chainStats is one row of the scaling table.
type chainStats struct {
	n                      int
	build, grad, jac, hess time.Duration
	compile                time.Duration
	nodes0, nodes          int
	work                   int64
	jnnz, hnnz             int
	allocMB                float64
}

// chainDerivatives does what nlp/adnlp.New does with package ad (gradient of
// f, sparse Jacobian of g, lower triangle of the Lagrangian Hessian, five
// compiled tapes), timing each phase.
func chainDerivatives(tb testing.TB, N int, compile bool) chainStats {
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	t0 := time.Now()
	g, X, F, G := chainProblem(N)
	st := chainStats{n: len(X), nodes0: g.NumNodes()}
	t1 := time.Now()
	grad, err := Gradient(F, X)
	if err != nil {
		tb.Fatal(err)
	}
	t2 := time.Now()
	J, err := JacobianSparse(G, X)
	if err != nil {
		tb.Fatal(err)
	}
	t3 := time.Now()
	sigma := g.Sym("sigma")
	lambda := g.SymVec("lambda", len(G))
	H, err := LagrangianHessian(X, sigma, F, lambda, G)
	if err != nil {
		tb.Fatal(err)
	}
	t4 := time.Now()
	if compile {
		in := []Arg{A("x", X...)}
		for _, o := range []struct {
			in  []Arg
			out Vec
		}{{in, Vec{F}}, {in, grad}, {in, G}, {in, J.Values},
			{append(in, A("sigma", sigma), A("lambda", lambda...)), H.Values}} {
			if _, err := NewFunction("f", o.in, []Arg{A("y", o.out...)}); err != nil {
				tb.Fatal(err)
			}
		}
	}
	t5 := time.Now()
	runtime.ReadMemStats(&ms1)
	st.build, st.grad, st.jac, st.hess, st.compile = t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3), t5.Sub(t4)
	st.nodes = g.NumNodes()
	st.work = g.work
	st.jnnz, st.hnnz = J.Pattern.NNZ(), H.Pattern.NNZ()
	st.allocMB = float64(ms1.TotalAlloc-ms0.TotalAlloc) / (1 << 20)
	return st
}

// chainNewDerivatives builds the chain problem and compiles it with
// NewDerivatives (objective and constraints as one output vector).
func chainNewDerivatives(tb testing.TB, N int) (chainStats, *Derivatives) {
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	t0 := time.Now()
	g, X, F, G := chainProblem(N)
	st := chainStats{n: len(X), nodes0: g.NumNodes()}
	t1 := time.Now()
	d, err := NewDerivatives("chain", []Arg{A("x", X...)}, []Arg{A("f", F), A("g", G...)})
	if err != nil {
		tb.Fatal(err)
	}
	t2 := time.Now()
	runtime.ReadMemStats(&ms1)
	st.build, st.compile = t1.Sub(t0), t2.Sub(t1)
	st.nodes, st.work = g.NumNodes(), g.work
	st.jnnz, st.hnnz = d.JacPattern.NNZ(), d.HessPattern.NNZ()
	st.allocMB = float64(ms1.TotalAlloc-ms0.TotalAlloc) / (1 << 20)
	return st, d
}

// TestChainDerivativesLinear checks, without timing, that the derivative
// construction of the chain problem at n = 20 001 is linear: the nodes it
// adds to the graph and the nodes its sweeps visit are bounded by a small
// multiple of n (the whole-graph sweeps this replaced visited ~n²/2 nodes).
// Under -short n = 4 001, where n²/2 is still ten times the bound 200n.
func TestChainDerivativesLinear(t *testing.T) {
	N := 10000
	if testing.Short() {
		N = 2000
	}
	n := 2*N + 1
	s := chainDerivatives(t, N, false)
	added := s.nodes - s.nodes0
	t.Logf("adnlp-like: n=%d graph %d nodes, derivatives added %d nodes (%.1f n), swept %d (%.1f n)",
		n, s.nodes0, added, float64(added)/float64(n), s.work, float64(s.work)/float64(n))
	if added > 16*n || s.work > 200*int64(n) {
		t.Errorf("derivative construction not linear: %d nodes added, %d visited for n = %d", added, s.work, n)
	}
	if s.jnnz != 3*N || s.hnnz != n {
		t.Errorf("nnz: jac %d, hess %d", s.jnnz, s.hnnz)
	}
	s, d := chainNewDerivatives(t, N)
	added = s.nodes - s.nodes0
	t.Logf("NewDerivatives: added %d nodes (%.1f n), swept %d (%.1f n), %d instructions",
		added, float64(added)/float64(n), s.work, float64(s.work)/float64(n), d.F.NumInstr()+d.Jac.NumInstr()+d.Hess.NumInstr())
	// NewDerivatives builds the derivatives in a private graph (the caller's
	// graph is left unchanged), so its linearity shows in the compiled size.
	if ni := d.F.NumInstr() + d.Jac.NumInstr() + d.Hess.NumInstr(); added != 0 || ni > 16*n {
		t.Errorf("NewDerivatives: %d nodes added to the caller's graph, %d instructions for n = %d", added, ni, n)
	}
	if s.jnnz != 3*N+n || s.hnnz != n {
		t.Errorf("nnz: jac %d, hess %d", s.jnnz, s.hnnz)
	}
}

// TestChainScalingTable prints the construction cost of the chain problem
// for growing n. It runs only with AD_SCALING set (to the largest N wanted,
// default 50 000).
func TestChainScalingTable(t *testing.T) {
	env := os.Getenv("AD_SCALING")
	if env == "" {
		t.Skip("set AD_SCALING=<max N> to print the scaling table")
	}
	maxN := 50000
	if v, err := strconv.Atoi(env); err == nil && v > 0 {
		maxN = v
	}
	t.Logf("%8s %9s %9s %9s %9s %9s %9s %9s %9s %10s %8s %8s %9s",
		"n", "graph", "grad", "jac", "hess", "compile", "total", "nodes0", "nodes", "swept", "jnnz", "hnnz", "alloc MB")
	for _, N := range []int{500, 5000, 25000, 50000} {
		if N > maxN {
			break
		}
		runtime.GC()
		s := chainDerivatives(t, N, true)
		tot := s.build + s.grad + s.jac + s.hess + s.compile
		t.Logf("%8d %9s %9s %9s %9s %9s %9s %9d %9d %10d %8d %8d %9.1f", s.n,
			secs(s.build), secs(s.grad), secs(s.jac), secs(s.hess), secs(s.compile), secs(tot),
			s.nodes0, s.nodes, s.work, s.jnnz, s.hnnz, s.allocMB)
	}
	t.Logf("NewDerivatives (f and g as one output vector; compile includes differentiation):")
	for _, N := range []int{500, 5000, 25000, 50000} {
		if N > maxN {
			break
		}
		runtime.GC()
		s, _ := chainNewDerivatives(t, N)
		t.Logf("%8d %9s %9s %9s %9s %9s %9s %9d %9d %10d %8d %8d %9.1f", s.n,
			secs(s.build), "", "", "", secs(s.compile), secs(s.build+s.compile),
			s.nodes0, s.nodes, s.work, s.jnnz, s.hnnz, s.allocMB)
	}
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3fs", d.Seconds()) }

// BenchmarkChainDerivatives measures graph construction plus the
// derivative construction nlp/adnlp performs (gradient, sparse Jacobian,
// Lagrangian Hessian and five compiled tapes) on the chain problem.
func BenchmarkChainDerivatives(b *testing.B) {
	for _, N := range []int{500, 5000, 25000} {
		if testing.Short() && N > 5000 {
			continue
		}
		b.Run(fmt.Sprintf("n=%d", 2*N+1), func(b *testing.B) {
			for b.Loop() {
				s := chainDerivatives(b, N, true)
				b.ReportMetric(float64(s.nodes), "nodes")
			}
		})
	}
}
