package hs_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"

	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/hs"
)

var _ nlp.Problem = (*hs.Problem)(nil)

// minProblems is the size the collection promises.
const minProblems = 291

// Tolerances for the finite-difference checks. The differences use a
// central formula with the step scaled per coordinate by 1 + |xᵢ|, so the
// error is O(h²) + O(ε/h) relative to the size of the derivatives; an error
// is measured against 1 + the largest entry of the vector or matrix row.
const (
	fdStep  = 1e-5
	fdTol   = 1e-6
	hessTol = 2e-6
)

// optTol is the tolerance of the optimum checks: f(x*) against the
// published f* (relative, or absolute when |f*| ≤ 1) and feasibility of x*.
const optTol = 1e-6

type data struct {
	n, m           int
	xL, xU, gL, gU []float64
	x0             []float64
	jr, jc, hr, hc []int
}

func load(t *testing.T, p *hs.Problem) data {
	t.Helper()
	n, m := p.Dims()
	d := data{n: n, m: m,
		xL: make([]float64, n), xU: make([]float64, n),
		gL: make([]float64, m), gU: make([]float64, m),
		x0: make([]float64, n),
	}
	p.Bounds(d.xL, d.xU, d.gL, d.gU)
	p.Start(d.x0)
	d.jr, d.jc = p.JacobianStructure()
	d.hr, d.hc = p.HessianStructure()
	return d
}

// points returns the start point and two random points near it, clipped to
// the variable bounds.
func points(d data, seed uint64) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	pts := [][]float64{d.x0}
	for k := 0; k < 2; k++ {
		x := make([]float64, d.n)
		for i := range x {
			x[i] = d.x0[i] + 0.05*(1+math.Abs(d.x0[i]))*(2*rng.Float64()-1)
			x[i] = math.Min(math.Max(x[i], d.xL[i]), d.xU[i])
		}
		pts = append(pts, x)
	}
	return pts
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// scaledJacobian returns the central-difference Jacobian (m×n) of
// f: ℝⁿ → ℝᵐ at x, differencing each coordinate with step fdStep·(1+|xᵢ|)
// by working in the scaled variable t with x = x + (1+|x|)∘t.
func scaledJacobian(m int, f func(y, x []float64), x []float64) *mat.Dense {
	n := len(x)
	s := make([]float64, n)
	for i := range s {
		s[i] = 1 + math.Abs(x[i])
	}
	xt := make([]float64, n)
	g := func(y, t []float64) {
		for i := range t {
			xt[i] = x[i] + s[i]*t[i]
		}
		f(y, xt)
	}
	dst := mat.NewDense(m, n, nil)
	fd.Jacobian(dst, g, make([]float64, n), &fd.JacobianSettings{Formula: fd.Central, Step: fdStep})
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			dst.Set(i, j, dst.At(i, j)/s[j])
		}
	}
	return dst
}

// compareRows checks analytic (row-major m×n) against fd row by row. size,
// when not nil, holds the magnitude of each differenced function at x: the
// rounding error of a central difference is about ε·size/h, which the check
// allows for (with a factor 100) on top of tol; it matters for functions
// with large values and small derivatives (problem 109's constraints
// 2250000 − x₁² − x₈²).
func compareRows(t *testing.T, what string, x []float64, m, n int, analytic []float64, fdm *mat.Dense, tol float64, size []float64) {
	t.Helper()
	const eps = 0x1p-52
	for i := 0; i < m; i++ {
		scale := 1.0
		for j := 0; j < n; j++ {
			scale = math.Max(scale, math.Abs(analytic[i*n+j]))
		}
		for j := 0; j < n; j++ {
			a, f := analytic[i*n+j], fdm.At(i, j)
			round := 0.0
			if size != nil {
				round = 100 * eps * math.Abs(size[i]) / (fdStep * (1 + math.Abs(x[j])))
			}
			if !(math.Abs(a-f) <= tol*scale+round) {
				t.Errorf("%s(%d,%d) at x=%v: analytic %.10g, finite differences %.10g", what, i, j, x, a, f)
			}
		}
	}
}

// TestCollection checks the size of the collection and, for every problem
// (under -short Suite's every fourth, without building the others), a
// unique name, a Source and a fresh instance from ByName.
func TestCollection(t *testing.T) {
	ps := hs.AllOnce
	if testing.Short() {
		ps = hs.Suite
		if n := hs.NumEntries(); n < minProblems {
			t.Errorf("All builds %d problems, want at least %d", n, minProblems)
		}
	} else if n := len(ps()); n < minProblems {
		t.Errorf("All returned %d problems, want at least %d", n, minProblems)
	}
	seen := map[string]bool{}
	for _, p := range ps() {
		if seen[p.Name] {
			t.Errorf("duplicate name %s", p.Name)
		}
		seen[p.Name] = true
		if p.Source == "" {
			t.Errorf("%s: no Source", p.Name)
		}
		q, err := hs.ByName(p.Name)
		if err != nil || q.Name != p.Name {
			t.Errorf("ByName(%q) = %v, %v", p.Name, q, err)
		}
		if q == p {
			t.Errorf("ByName(%q) returned a shared instance", p.Name)
		}
	}
	if _, err := hs.ByName("hs999"); !errors.Is(err, hs.ErrUnknown) {
		t.Errorf("ByName(hs999) error %v, want ErrUnknown", err)
	}
}

func TestDimsAndStructure(t *testing.T) {
	for _, p := range hs.Suite() {
		t.Run(p.Name, func(t *testing.T) {
			d := load(t, p)
			if d.n != p.N || d.m != p.M || d.n <= 0 || d.m < 0 {
				t.Fatalf("Dims = (%d, %d), fields N, M = (%d, %d)", d.n, d.m, p.N, p.M)
			}
			if p.XStar != nil && len(p.XStar) != d.n {
				t.Errorf("len(XStar) = %d, want %d", len(p.XStar), d.n)
			}
			for i := 0; i < d.n; i++ {
				if !(d.xL[i] <= d.xU[i]) || math.IsNaN(d.x0[i]) {
					t.Errorf("variable %d: bounds [%g, %g], start %g", i, d.xL[i], d.xU[i], d.x0[i])
				}
			}
			for i := 0; i < d.m; i++ {
				if !(d.gL[i] <= d.gU[i]) {
					t.Errorf("constraint %d: bounds [%g, %g]", i, d.gL[i], d.gU[i])
				}
			}
			if len(d.jr) != len(d.jc) || len(d.hr) != len(d.hc) {
				t.Fatalf("structure lengths: Jacobian %d/%d, Hessian %d/%d", len(d.jr), len(d.jc), len(d.hr), len(d.hc))
			}
			seen := map[[2]int]bool{}
			for k := range d.jr {
				i, j := d.jr[k], d.jc[k]
				if i < 0 || i >= d.m || j < 0 || j >= d.n {
					t.Errorf("Jacobian entry %d = (%d,%d) out of range", k, i, j)
				}
				if seen[[2]int{i, j}] {
					t.Errorf("Jacobian entry (%d,%d) duplicated", i, j)
				}
				seen[[2]int{i, j}] = true
			}
			clear(seen)
			for k := range d.hr {
				i, j := d.hr[k], d.hc[k]
				if j < 0 || i >= d.n || i < j {
					t.Errorf("Hessian entry %d = (%d,%d) not in the lower triangle", k, i, j)
				}
				if seen[[2]int{i, j}] {
					t.Errorf("Hessian entry (%d,%d) duplicated", i, j)
				}
				seen[[2]int{i, j}] = true
			}
		})
	}
}

// TestOutputsWritten fills every output with NaN, evaluates at the start
// point (where all problems are finite) and checks that every entry was
// written and that the input was not modified.
func TestOutputsWritten(t *testing.T) {
	for _, p := range hs.Suite() {
		t.Run(p.Name, func(t *testing.T) {
			d := load(t, p)
			x := append([]float64(nil), d.x0...)
			nan := func(n int) []float64 {
				s := make([]float64, n)
				for i := range s {
					s[i] = math.NaN()
				}
				return s
			}
			check := func(what string, s []float64) {
				for i, v := range s {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Errorf("%s[%d] = %g", what, i, v)
					}
				}
			}
			f, err := p.Objective(x)
			must(t, err)
			check("f", []float64{f})
			g := nan(d.n)
			must(t, p.Gradient(x, g))
			check("grad", g)
			c := nan(d.m)
			must(t, p.Constraints(x, c))
			check("g", c)
			jv := nan(len(d.jr))
			must(t, p.JacobianValues(x, jv))
			check("jac", jv)
			lambda := make([]float64, d.m)
			for i := range lambda {
				lambda[i] = float64(i) - 0.5
			}
			hv := nan(len(d.hr))
			must(t, p.HessianValues(x, 0.7, lambda, hv))
			check("hess", hv)
			for i := range x {
				if x[i] != d.x0[i] {
					t.Errorf("x[%d] modified", i)
				}
			}
		})
	}
}

func TestNoAllocs(t *testing.T) {
	for _, p := range hs.Suite() {
		d := load(t, p)
		g := make([]float64, d.n)
		c := make([]float64, d.m)
		jv := make([]float64, len(d.jr))
		hv := make([]float64, len(d.hr))
		lambda := make([]float64, d.m)
		allocs := testing.AllocsPerRun(10, func() {
			_, _ = p.Objective(d.x0)
			_ = p.Gradient(d.x0, g)
			_ = p.Constraints(d.x0, c)
			_ = p.JacobianValues(d.x0, jv)
			_ = p.HessianValues(d.x0, 1, lambda, hv)
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per evaluation", p.Name, allocs)
		}
	}
}

func TestGradient(t *testing.T) {
	for _, p := range hs.Suite() {
		t.Run(p.Name, func(t *testing.T) {
			d := load(t, p)
			for _, x := range points(d, 1) {
				g := make([]float64, d.n)
				must(t, p.Gradient(x, g))
				fdg := scaledJacobian(1, func(y, x []float64) {
					f, err := p.Objective(x)
					must(t, err)
					y[0] = f
				}, x)
				f, err := p.Objective(x)
				must(t, err)
				compareRows(t, "grad", x, 1, d.n, g, fdg, fdTol, []float64{f})
			}
		})
	}
}

// denseJacobian expands the sparse Jacobian at x into a row-major m×n slice.
func denseJacobian(t *testing.T, p *hs.Problem, d data, x []float64) []float64 {
	t.Helper()
	vals := make([]float64, len(d.jr))
	must(t, p.JacobianValues(x, vals))
	jd := make([]float64, d.m*d.n)
	for k, v := range vals {
		jd[d.jr[k]*d.n+d.jc[k]] = v
	}
	return jd
}

func TestJacobian(t *testing.T) {
	for _, p := range hs.Suite() {
		if p.M == 0 {
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			d := load(t, p)
			for _, x := range points(d, 2) {
				jd := denseJacobian(t, p, d, x)
				fdj := scaledJacobian(d.m, func(y, x []float64) { must(t, p.Constraints(x, y)) }, x)
				// An entry missing from the structure shows up as an
				// analytic zero against a nonzero difference.
				c := make([]float64, d.m)
				must(t, p.Constraints(x, c))
				compareRows(t, "jac", x, d.m, d.n, jd, fdj, fdTol, c)
			}
		})
	}
}

// TestHessian compares the Hessian of the Lagrangian with finite
// differences of its gradient σ∇f + Jᵀλ for random σ and λ, and checks that
// every entry the differences find nonzero is in the structure.
func TestHessian(t *testing.T) {
	for _, p := range hs.Suite() {
		t.Run(p.Name, func(t *testing.T) {
			d := load(t, p)
			rng := rand.New(rand.NewPCG(3, uint64(d.n)))
			in := map[[2]int]bool{}
			for k := range d.hr {
				in[[2]int{d.hr[k], d.hc[k]}] = true
			}
			for _, x := range points(d, 3) {
				sigma := 0.5 + rng.Float64()
				lambda := make([]float64, d.m)
				for i := range lambda {
					lambda[i] = 2*rng.Float64() - 1
				}
				vals := make([]float64, len(d.hr))
				must(t, p.HessianValues(x, sigma, lambda, vals))
				h := make([]float64, d.n*d.n)
				for k, v := range vals {
					i, j := d.hr[k], d.hc[k]
					h[i*d.n+j] = v
					h[j*d.n+i] = v
				}
				grad := make([]float64, d.n)
				lagGrad := func(y, x []float64) {
					must(t, p.Gradient(x, grad))
					jd := denseJacobian(t, p, d, x)
					for j := 0; j < d.n; j++ {
						y[j] = sigma * grad[j]
						for i := 0; i < d.m; i++ {
							y[j] += lambda[i] * jd[i*d.n+j]
						}
					}
				}
				fdh := scaledJacobian(d.n, lagGrad, x)
				compareRows(t, "hess", x, d.n, d.n, h, fdh, hessTol, nil)
				for i := 0; i < d.n; i++ {
					for j := 0; j <= i; j++ {
						if v := fdh.At(i, j); math.Abs(v) > 1e-7 && !in[[2]int{i, j}] {
							t.Errorf("Hessian entry (%d,%d) = %g by finite differences is missing from the structure", i, j, v)
						}
					}
				}
			}
		})
	}
}

// TestOptimum checks each recorded optimum against the published value:
// f(x*) ≈ f* and x* feasible, both within optTol. The reference for each
// f* is the problem's Source (Hock & Schittkowski 1981).
func TestOptimum(t *testing.T) {
	for _, p := range hs.Suite() {
		t.Run(p.Name, func(t *testing.T) {
			if p.XStar == nil {
				t.Skip("no optimal point recorded")
			}
			d := load(t, p)
			x := p.XStar
			f, err := p.Objective(x)
			must(t, err)
			if !(math.Abs(f-p.FStar) <= optTol*math.Max(1, math.Abs(p.FStar))) {
				t.Errorf("f(x*) = %.12g, published f* = %.12g (%s)", f, p.FStar, p.Source)
			}
			for i := 0; i < d.n; i++ {
				if viol := math.Max(d.xL[i]-x[i], x[i]-d.xU[i]); viol > optTol {
					t.Errorf("x*[%d] = %g violates [%g, %g]", i, x[i], d.xL[i], d.xU[i])
				}
			}
			c := make([]float64, d.m)
			must(t, p.Constraints(x, c))
			for i := 0; i < d.m; i++ {
				if viol := math.Max(d.gL[i]-c[i], c[i]-d.gU[i]); viol > optTol {
					t.Errorf("g%d(x*) = %g violates [%g, %g]", i+1, c[i], d.gL[i], d.gU[i])
				}
			}
		})
	}
}

func ExampleByName() {
	p, err := hs.ByName("hs071")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.N, p.M, p.FStar)
	// Output: 4 2 17.0140173
}
