// Command rkorder measures the observed order of convergence of the Runge–Kutta
// tableaus of package rk on a smooth nonlinear ODE and prints a table
// (family, stages, claimed order, observed slope). With -out DIR it also writes
// DIR/summary.json.
//
// The test problem is the forced 2-D system
//
//	y₁' = y₂ − y₁² + g₁(t),   y₂' = −y₁ − y₁·y₂ + g₂(t),   t ∈ [0, T],
//
// with g chosen so that y(t) = (cos ωt, 1 + sin(ωt)/2) is the exact solution.
// Each method takes N = N₀, 2N₀, 4N₀, … equal steps (N₀ the smallest power of
// two with T/N₀ ≤ hmax) with an implicit RK stepper
// (Newton on the stage equations, dense LU); the observed order is the slope
// log₂(e_N/e_{2N}) of the last pair of errors that are both above a floor,
// chosen above round-off. The error e_N is the largest error over the step end
// points. Errors above 0.1 (and step sizes at which Newton fails) are skipped as
// pre-asymptotic. The high-order methods (s = 5) reach the asymptotic regime only
// at errors of about 1e-12, hence the low default floor; the Newton iteration is
// run to round-off for that reason.
//
// Usage:
//
//	go run ./examples/rkorder [-stages 5] [-T 2] [-omega 3] [-hmax 1] [-floor 3e-14] [-out DIR]
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/fesd-go/fesd/rk"
	"gonum.org/v1/gonum/mat"
)

// options configures run.
type options struct {
	MaxStages int     // largest s per implicit family (≥ 1)
	Final     float64 // final time T > 0
	Omega     float64 // frequency ω of the exact solution (> 0)
	Floor     float64 // errors below this are ignored for the slope (> 0)
	MaxSteps  int     // largest number of steps tried (≥ 2)
	MaxStep   float64 // largest step size tried (> 0)
	OutDir    string  // if not empty, summary.json is written here
}

// row is one line of the table.
type row struct {
	Family   string    `json:"family"`
	Stages   int       `json:"stages"`
	Claimed  int       `json:"claimed_order"`
	Observed float64   `json:"observed_order"`
	Steps    []int     `json:"steps"`
	Errors   []float64 `json:"errors"`
}

// result is what run returns and writes to summary.json.
type result struct {
	Problem string  `json:"problem"`
	Final   float64 `json:"final_time"`
	Floor   float64 `json:"error_floor"`
	Rows    []row   `json:"rows"`
}

func main() {
	var o options
	flag.IntVar(&o.MaxStages, "stages", 5, "largest number of stages per implicit family")
	flag.Float64Var(&o.Final, "T", 2, "final time")
	flag.Float64Var(&o.Omega, "omega", 3, "frequency of the exact solution")
	flag.Float64Var(&o.Floor, "floor", 3e-14, "ignore errors below this when fitting the slope")
	flag.IntVar(&o.MaxSteps, "maxsteps", 1024, "largest number of steps")
	flag.Float64Var(&o.MaxStep, "hmax", 1, "largest step size")
	flag.StringVar(&o.OutDir, "out", "", "directory for summary.json (optional)")
	flag.Parse()
	if _, err := run(os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "rkorder:", err)
		os.Exit(1)
	}
}

// run measures all tableaus, prints the table to w and writes summary.json if
// o.OutDir is set.
func run(w io.Writer, o options) (*result, error) {
	if o.MaxStages < 1 || o.MaxStages > rk.MaxStages || !(o.Final > 0) || !(o.Omega > 0) || !(o.Floor > 0) || o.MaxSteps < 2 || !(o.MaxStep > 0) {
		return nil, fmt.Errorf("invalid options %+v", o)
	}
	var tabs []*rk.Tableau
	tabs = append(tabs, rk.ExplicitEuler(), rk.Heun(), rk.RK4())
	for _, f := range rk.ImplicitFamilies() {
		for s := f.MinStages(); s <= o.MaxStages; s++ {
			t, err := rk.New(f, s)
			if err != nil {
				return nil, err
			}
			tabs = append(tabs, t)
		}
	}
	res := &result{
		Problem: fmt.Sprintf("y1' = y2 - y1^2 + g1, y2' = -y1 - y1*y2 + g2, y = (cos wt, 1 + sin(wt)/2), w = %g", o.Omega),
		Final:   o.Final, Floor: o.Floor,
	}
	fmt.Fprintf(w, "observed order on [0, %g], error floor %.0e\n", o.Final, o.Floor)
	fmt.Fprintf(w, "%-14s %6s %8s %9s %8s %11s\n", "family", "stages", "claimed", "observed", "steps", "error")
	for _, t := range tabs {
		r, err := measure(t, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		res.Rows = append(res.Rows, r)
		last := len(r.Steps) - 1
		fmt.Fprintf(w, "%-14s %6d %8d %9.2f %8d %11.3e\n", r.Family, r.Stages, r.Claimed, r.Observed, r.Steps[last], r.Errors[last])
	}
	if o.OutDir != "" {
		if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
			return nil, err
		}
		buf, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return nil, err
		}
		path := filepath.Join(o.OutDir, "summary.json")
		if err := os.WriteFile(path, append(buf, '\n'), 0o644); err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "wrote %s\n", path)
	}
	return res, nil
}

// ceiling is the largest error taken as asymptotic.
const ceiling = 0.1

// measure integrates with N = 1, 2, 4, … steps until the error falls below the
// floor, and returns the slope of the last pair above it.
func measure(t *rk.Tableau, o options) (row, error) {
	name := t.Family.String()
	if t.Family == rk.FamilyExplicit {
		name = t.Name
	}
	r := row{Family: name, Stages: t.Stages(), Claimed: t.Order, Observed: math.NaN()}
	n0 := 1
	for o.Final/float64(n0) > o.MaxStep {
		n0 *= 2
	}
	for n := n0; n <= o.MaxSteps; n *= 2 {
		e, err := problem{o.Omega}.globalError(t, n, o.Final)
		if len(r.Errors) == 0 && (err != nil || !(e <= ceiling)) {
			// Steps this large are outside the asymptotic range: the
			// explicit methods are unstable and Newton may fail.
			continue
		}
		if err != nil {
			return r, err
		}
		if e < o.Floor {
			break
		}
		r.Steps = append(r.Steps, n)
		r.Errors = append(r.Errors, e)
	}
	k := len(r.Errors)
	if k < 2 {
		return r, errors.New("fewer than two errors above the floor; lower -floor or raise -T")
	}
	r.Observed = math.Log2(r.Errors[k-2] / r.Errors[k-1])
	return r, nil
}

// problem is the test ODE with frequency ω.
type problem struct{ omega float64 }

// exact is the exact solution y(t) = (cos ωt, 1 + sin(ωt)/2).
func (p problem) exact(t float64) [2]float64 {
	return [2]float64{math.Cos(p.omega * t), 1 + math.Sin(p.omega*t)/2}
}

// rhs evaluates f(t, y) and its Jacobian ∂f/∂y (if jac is not nil).
func (p problem) rhs(t float64, y []float64, f []float64, jac *mat.Dense) {
	w := p.omega
	ye := p.exact(t)
	dye := [2]float64{-w * math.Sin(w*t), w / 2 * math.Cos(w*t)}
	// g = y_e' − F(y_e) with F(y) = (y₂ − y₁², −y₁ − y₁y₂).
	g1 := dye[0] - (ye[1] - ye[0]*ye[0])
	g2 := dye[1] - (-ye[0] - ye[0]*ye[1])
	f[0] = y[1] - y[0]*y[0] + g1
	f[1] = -y[0] - y[0]*y[1] + g2
	if jac != nil {
		jac.Set(0, 0, -2*y[0])
		jac.Set(0, 1, 1)
		jac.Set(1, 0, -1-y[1])
		jac.Set(1, 1, -y[0])
	}
}

// globalError integrates with n equal steps to final and returns the largest
// error max_k ‖y_k − y(t_k)‖∞ over the step end points (taking the maximum over
// the whole trajectory avoids an accidental zero of the error at one time).
func (p problem) globalError(t *rk.Tableau, n int, final float64) (float64, error) {
	h := final / float64(n)
	y0 := p.exact(0)
	y := y0[:]
	var e float64
	for k := 0; k < n; k++ {
		var err error
		y, err = p.step(t, float64(k)*h, h, y)
		if err != nil {
			return 0, err
		}
		ye := p.exact(float64(k+1) * h)
		e = math.Max(e, math.Max(math.Abs(y[0]-ye[0]), math.Abs(y[1]-ye[1])))
		if math.IsNaN(e) {
			return math.Inf(1), nil
		}
	}
	return e, nil
}

// step advances y by one RK step of size h from time t0, solving the stage
// equations K_i = f(t0 + c_i h, y + h Σ_j a_ij K_j) by Newton's method.
func (p problem) step(tab *rk.Tableau, t0, h float64, y []float64) ([]float64, error) {
	const dim = 2
	s := tab.Stages()
	N := s * dim
	K := make([]float64, N)
	f := make([]float64, dim)
	p.rhs(t0, y, f, nil)
	for i := 0; i < s; i++ {
		copy(K[i*dim:], f)
	}
	Y := make([][]float64, s)
	jacs := make([]*mat.Dense, s)
	for i := range Y {
		Y[i] = make([]float64, dim)
		jacs[i] = mat.NewDense(dim, dim, nil)
	}
	R := mat.NewVecDense(N, nil)
	Jn := mat.NewDense(N, N, nil)
	var lu mat.LU
	var dx mat.VecDense
	prev := math.Inf(1)
	for it := 0; ; it++ {
		if it == 100 {
			return nil, fmt.Errorf("Newton did not converge at t = %g, h = %g", t0, h)
		}
		for i := 0; i < s; i++ {
			for d := 0; d < dim; d++ {
				v := y[d]
				for j := 0; j < s; j++ {
					v += h * tab.A[i][j] * K[j*dim+d]
				}
				Y[i][d] = v
			}
			p.rhs(t0+tab.C[i]*h, Y[i], f, jacs[i])
			for d := 0; d < dim; d++ {
				R.SetVec(i*dim+d, K[i*dim+d]-f[d])
			}
		}
		// ∂R_i/∂K_j = δ_ij I − h a_ij J(Y_i).
		for i := 0; i < s; i++ {
			for j := 0; j < s; j++ {
				for a := 0; a < dim; a++ {
					for b := 0; b < dim; b++ {
						v := -h * tab.A[i][j] * jacs[i].At(a, b)
						if i == j && a == b {
							v++
						}
						Jn.Set(i*dim+a, j*dim+b, v)
					}
				}
			}
		}
		lu.Factorize(Jn)
		if err := lu.SolveVecTo(&dx, false, R); err != nil {
			return nil, err
		}
		var norm, knorm float64
		for k := 0; k < N; k++ {
			K[k] -= dx.AtVec(k)
			norm = math.Max(norm, math.Abs(dx.AtVec(k)))
			knorm = math.Max(knorm, math.Abs(K[k]))
		}
		// Stop at round-off: a tiny update, or one that no longer halves.
		if norm <= 1e-15*(1+knorm) || (norm <= 1e-12*(1+knorm) && norm > prev/2) {
			break
		}
		prev = norm
	}
	out := make([]float64, dim)
	for d := 0; d < dim; d++ {
		v := y[d]
		for i := 0; i < s; i++ {
			v += h * tab.B[i] * K[i*dim+d]
		}
		out[d] = v
	}
	return out, nil
}
