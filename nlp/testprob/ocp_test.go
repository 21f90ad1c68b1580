package testprob

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fesd-go/fesd/nlp"
	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

func newOCP(t testing.TB, o OCPOptions) *OCP {
	t.Helper()
	p, err := NewOCP(o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOCPDims: the sizes of the package doc for N = 800 (n = 11 208, m =
// 8 008, 800 inequalities) and the layout of kktgen (stage blocks of 14,
// constraint rows init, (dynamics, gap) per stage, inequalities last).
func TestOCPDims(t *testing.T) {
	p := newOCP(t, OCPOptions{N: 800})
	n, m := p.Dims()
	if n != 11208 || m != 8008 {
		t.Fatalf("n, m = %d, %d, want 11208, 8008", n, m)
	}
	xL, xU, gL, gU := make([]float64, n), make([]float64, n), make([]float64, m), make([]float64, m)
	p.Bounds(xL, xU, gL, gU)
	ineq := 0
	for i := range gL {
		if gL[i] != gU[i] {
			ineq++
			if i < 8+9*800 {
				t.Errorf("inequality at row %d before the equality block", i)
			}
		}
	}
	if ineq != 800 {
		t.Errorf("%d inequalities, want 800", ineq)
	}
	if p.XIndex(800, 7) != n-1 || p.LambdaIndex(799) != 14*799+13 || p.IneqRow(799) != m-1 || p.GapRow(799) != 8+9*799+8 {
		t.Error("index layout differs from kktgen")
	}
	c := newOCP(t, OCPOptions{N: 800, Complementarity: true})
	if n, m := c.Dims(); n != 11208 || m != 8008-800 {
		t.Errorf("complementarity form: n, m = %d, %d, want 11208, 7208", n, m)
	}
	if pr := c.Pairs(); len(pr) != 800 || pr[5] != [2]int{c.SIndex(5), c.LambdaIndex(5)} {
		t.Errorf("Pairs = %v…", pr[:1])
	}
	for _, o := range []OCPOptions{{N: 0}, {N: 3, Sigma: -1}, {N: 3, Sigma: math.NaN()}} {
		if _, err := NewOCP(o); !errors.Is(err, ErrOptions) {
			t.Errorf("%+v: err = %v, want ErrOptions", o, err)
		}
	}
}

// TestOCPStructure: patterns in range, lower triangle, no duplicates.
func TestOCPStructure(t *testing.T) {
	for _, comp := range []bool{false, true} {
		p := newOCP(t, OCPOptions{N: 7, Complementarity: comp})
		n, m := p.Dims()
		check := func(name string, r, c []int, nr int, lower bool) {
			seen := map[[2]int]bool{}
			for k := range r {
				if r[k] < 0 || r[k] >= nr || c[k] < 0 || c[k] >= n || (lower && r[k] < c[k]) {
					t.Errorf("%s entry %d = (%d, %d) out of range", name, k, r[k], c[k])
				}
				if seen[[2]int{r[k], c[k]}] {
					t.Errorf("%s duplicate (%d, %d)", name, r[k], c[k])
				}
				seen[[2]int{r[k], c[k]}] = true
			}
		}
		r, c := p.JacobianStructure()
		check("Jacobian", r, c, m, false)
		r, c = p.HessianStructure()
		check("Hessian", r, c, n, true)
		xs, gs := make([]int, n), make([]int, m)
		p.Stages(xs, gs)
		if xs[n-1] != 7 || gs[m-1] != 6 || gs[0] != 0 {
			t.Errorf("stages: x_N %d, last row %d", xs[n-1], gs[m-1])
		}
	}
}

// TestOCPDerivatives compares the gradient, the Jacobian and the Hessian of
// the Lagrangian with central finite differences (gonum diff/fd) at a random
// point, N = 3, and checks that the patterns miss no entry.
func TestOCPDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, comp := range []bool{false, true} {
		p := newOCP(t, OCPOptions{N: 3, Complementarity: comp})
		n, m := p.Dims()
		x := make([]float64, n)
		for i := range x {
			x[i] = 2*rng.Float64() - 1
		}
		lam := make([]float64, m)
		for i := range lam {
			lam[i] = 2*rng.Float64() - 1
		}
		const sigma = 0.7
		f := func(x []float64) float64 { v, _ := p.Objective(x); return v }

		grad := make([]float64, n)
		if err := p.Gradient(x, grad); err != nil {
			t.Fatal(err)
		}
		fdg := fd.Gradient(nil, f, x, &fd.Settings{Formula: fd.Central})
		for i := range grad {
			if d := math.Abs(grad[i] - fdg[i]); d > 1e-6*(1+math.Abs(fdg[i])) {
				t.Errorf("comp=%v: ∇f[%d] = %g, fd %g", comp, i, grad[i], fdg[i])
			}
		}

		rows, cols := p.JacobianStructure()
		vals := make([]float64, len(rows))
		if err := p.JacobianValues(x, vals); err != nil {
			t.Fatal(err)
		}
		jac := mat.NewDense(m, n, nil)
		for k := range rows {
			jac.Set(rows[k], cols[k], vals[k])
		}
		fdj := mat.NewDense(m, n, nil)
		fd.Jacobian(fdj, func(g, x []float64) { _ = p.Constraints(x, g) }, x, &fd.JacobianSettings{Formula: fd.Central})
		for i := range m {
			for j := range n {
				if d := math.Abs(jac.At(i, j) - fdj.At(i, j)); d > 1e-6*(1+math.Abs(fdj.At(i, j))) {
					t.Errorf("comp=%v: J[%d,%d] = %g, fd %g", comp, i, j, jac.At(i, j), fdj.At(i, j))
				}
			}
		}

		rows, cols = p.HessianStructure()
		vals = make([]float64, len(rows))
		if err := p.HessianValues(x, sigma, lam, vals); err != nil {
			t.Fatal(err)
		}
		hess := mat.NewSymDense(n, nil)
		for k := range rows {
			hess.SetSym(rows[k], cols[k], vals[k])
		}
		g := make([]float64, m)
		lag := func(x []float64) float64 {
			_ = p.Constraints(x, g)
			return sigma*f(x) + mat.Dot(mat.NewVecDense(m, lam), mat.NewVecDense(m, g))
		}
		fdh := mat.NewSymDense(n, nil)
		fd.Hessian(fdh, lag, x, nil)
		for i := range n {
			for j := 0; j <= i; j++ {
				if d := math.Abs(hess.At(i, j) - fdh.At(i, j)); d > 1e-4*(1+math.Abs(fdh.At(i, j))) {
					t.Errorf("comp=%v: H[%d,%d] = %g, fd %g", comp, i, j, hess.At(i, j), fdh.At(i, j))
				}
			}
		}
	}
}

// TestOCPSolve: nlp.Solver solves the relaxed NLP at N = 50; the contact
// is active on part of the horizon (q₁ is pushed into the wall by the
// reference) and the relaxed complementarity holds.
func TestOCPSolve(t *testing.T) {
	p := newOCP(t, OCPOptions{N: 50})
	res, err := (&nlp.Solver{}).Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != nlp.Solved {
		t.Fatalf("status %v after %d iterations", res.Status, res.Iterations)
	}
	contact := 0
	for k := range p.N() {
		s, l := res.X[p.SIndex(k)], res.X[p.LambdaIndex(k)]
		if s*l > p.Sigma()*(1+1e-6) {
			t.Errorf("stage %d: s·λ = %g > σ", k, s*l)
		}
		if s < 1e-3 {
			contact++
		}
	}
	if contact == 0 {
		t.Error("no stage in contact")
	}
	t.Logf("N = 50: %d iterations, f = %.10g, %d stages in contact (s < 1e-3), time %v", res.Iterations, res.Objective, contact, res.Time.Total)
}
