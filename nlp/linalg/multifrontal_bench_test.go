package linalg_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fesd-go/fesd/nlp/linalg"
)

// The kktgen OCP-shaped KKT (quasi-definite, so no delays are
// expected) for Multifrontal; compare with BenchmarkFactorizeKKT and
// BenchmarkSolveKKT (Sparse).
func newMultifrontal(set linalg.Settings) (linalg.LinearSolver, error) {
	return linalg.NewMultifrontal(set)
}

func reportMultifrontal(b *testing.B, s linalg.LinearSolver) {
	st := s.(*linalg.Multifrontal).Stats()
	b.ReportMetric(float64(st.NnzL), "nnzL")
	b.ReportMetric(float64(st.Fronts), "fronts")
	b.ReportMetric(float64(st.MaxFront), "maxfront")
	b.ReportMetric(float64(st.Delayed), "delayed")
}

func BenchmarkMultifrontalKKT(b *testing.B) {
	benchKKT(b, true, newMultifrontal, reportMultifrontal)
}

func BenchmarkMultifrontalSolveKKT(b *testing.B) {
	benchKKT(b, false, newMultifrontal, reportMultifrontal)
}

func BenchmarkMultifrontalAnalyzeKKT800(b *testing.B) { benchAnalyzeKKT800(b, newMultifrontal) }

// readKKTDump reads a KKT matrix dumped by an interior-point run: a line
// "n nnz", nnz lines "i j value" (upper triangle in CSC order), a line
// "signs s0 s1 …" and a line "perm p0 p1 …" (the caller's stage order).
func readKKTDump(path string) (a *linalg.SymCSC, signs []int8, perm []int, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var n, nnz int
	if _, err := fmt.Sscan(lines[0], &n, &nnz); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: header: %w", path, err)
	}
	if len(lines) != nnz+3 {
		return nil, nil, nil, fmt.Errorf("%s: %d lines, want %d", path, len(lines), nnz+3)
	}
	a = &linalg.SymCSC{N: n, ColPtr: make([]int, n+1), RowIdx: make([]int, nnz), Val: make([]float64, nnz)}
	for p, ln := range lines[1 : nnz+1] {
		f := strings.Fields(ln)
		if len(f) != 3 {
			return nil, nil, nil, fmt.Errorf("%s: entry %d: %q", path, p, ln)
		}
		i, err1 := strconv.Atoi(f[0])
		j, err2 := strconv.Atoi(f[1])
		v, err3 := strconv.ParseFloat(f[2], 64)
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, nil, nil, fmt.Errorf("%s: entry %d: %w", path, p, err)
		}
		a.RowIdx[p], a.Val[p] = i, v
		a.ColPtr[j+1]++
	}
	for j := range n {
		a.ColPtr[j+1] += a.ColPtr[j]
	}
	sf := strings.Fields(lines[nnz+1])
	pf := strings.Fields(lines[nnz+2])
	if len(sf) != n+1 || sf[0] != "signs" || len(pf) != n+1 || pf[0] != "perm" {
		return nil, nil, nil, fmt.Errorf("%s: bad signs/perm lines", path)
	}
	signs = make([]int8, n)
	perm = make([]int, n)
	for k := range n {
		g, err1 := strconv.Atoi(sf[k+1])
		p, err2 := strconv.Atoi(pf[k+1])
		if err := errors.Join(err1, err2); err != nil {
			return nil, nil, nil, fmt.Errorf("%s: signs/perm %d: %w", path, k, err)
		}
		signs[k], perm[k] = int8(g), p
	}
	return a, signs, perm, a.Validate()
}

// BenchmarkMultifrontalRealKKT factorizes (and solves with) KKT matrices
// dumped from an interior-point run of the monopod OCP (order 12 306),
// read from the directory $FESD_KKT_DIR (files kkt_*.txt, see readKKTDump;
// skipped when unset). The ordering is OrderBest with the dumped stage
// permutation, as in the interior-point solver.
func BenchmarkMultifrontalRealKKT(b *testing.B) {
	dir := os.Getenv("FESD_KKT_DIR")
	if dir == "" {
		b.Skip("FESD_KKT_DIR not set")
	}
	files, err := filepath.Glob(filepath.Join(dir, "kkt_*.txt"))
	if err != nil || len(files) == 0 {
		b.Skipf("no kkt_*.txt in %s", dir)
	}
	for _, path := range files {
		a, signs, perm, err := readKKTDump(path)
		if err != nil {
			b.Fatal(err)
		}
		s, err := linalg.NewMultifrontal(linalg.Settings{Ordering: linalg.OrderBest, Perm: perm})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Analyze(a); err != nil {
			b.Fatal(err)
		}
		if err := s.Factorize(a, signs); err != nil {
			b.Fatal(err)
		}
		rhs := make([]float64, a.N)
		for i := range rhs {
			rhs[i] = float64(i%7) - 3
		}
		x := make([]float64, a.N)
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		report := func(b *testing.B) {
			st := s.Stats()
			in := s.Inertia()
			b.ReportMetric(float64(st.NnzL), "nnzL")
			b.ReportMetric(float64(st.Fronts), "fronts")
			b.ReportMetric(float64(st.Delayed), "delayed")
			b.ReportMetric(float64(in.Neg), "neg")
			b.ReportMetric(float64(in.Zero), "zero")
		}
		// min-ns/op, the fastest single call, is robust against other load
		// on the machine.
		b.Run(name+"/factor", func(b *testing.B) {
			b.ReportAllocs()
			best := time.Duration(math.MaxInt64)
			for b.Loop() {
				t0 := time.Now()
				if err := s.Factorize(a, signs); err != nil {
					b.Fatal(err)
				}
				best = min(best, time.Since(t0))
			}
			b.ReportMetric(float64(best.Nanoseconds()), "min-ns/op")
			report(b)
		})
		b.Run(name+"/solve", func(b *testing.B) {
			b.ReportAllocs()
			best := time.Duration(math.MaxInt64)
			for b.Loop() {
				t0 := time.Now()
				if err := s.Solve(x, rhs); err != nil {
					b.Fatal(err)
				}
				best = min(best, time.Since(t0))
			}
			b.ReportMetric(float64(best.Nanoseconds()), "min-ns/op")
		})
	}
}
