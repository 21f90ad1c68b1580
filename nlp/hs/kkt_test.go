package hs_test

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fesd-go/fesd/nlp/hs"
)

// refine names a problem whose XStar TestRefine polishes and prints (a tool
// for maintaining the collection; see the package documentation).
var refine = flag.String("hs.refine", "", "polish and print XStar of the named problem")

// noMultipliers lists problems at whose optimum the constraint
// qualification fails, so that no Lagrange multipliers exist.
var noMultipliers = map[string]string{
	"hs013": "x* = (1, 0) is a cusp of the feasible set (Hock & Schittkowski 1981, problem 13)",
}

// activeSet describes the first-order conditions at a point: the variables
// not at a bound, and the active constraints with the value each is held
// at.
type activeSet struct {
	free   []int
	lower  []bool // per variable at a bound: true for the lower bound
	atBnd  []int
	cons   []int
	target []float64
}

func findActive(t *testing.T, p *hs.Problem, d data, x []float64, tol float64) activeSet {
	t.Helper()
	var a activeSet
	for i := 0; i < d.n; i++ {
		switch {
		case !math.IsInf(d.xL[i], 0) && math.Abs(x[i]-d.xL[i]) <= tol*(1+math.Abs(d.xL[i])):
			a.atBnd = append(a.atBnd, i)
			a.lower = append(a.lower, true)
		case !math.IsInf(d.xU[i], 0) && math.Abs(x[i]-d.xU[i]) <= tol*(1+math.Abs(d.xU[i])):
			a.atBnd = append(a.atBnd, i)
			a.lower = append(a.lower, false)
		default:
			a.free = append(a.free, i)
		}
	}
	c := make([]float64, d.m)
	must(t, p.Constraints(x, c))
	jd := denseJacobian(t, p, d, x)
	for i := 0; i < d.m; i++ {
		scale := 1.0
		for j := 0; j < d.n; j++ {
			scale += math.Abs(jd[i*d.n+j]) * (1 + math.Abs(x[j]))
		}
		switch {
		case !math.IsInf(d.gL[i], 0) && math.Abs(c[i]-d.gL[i]) <= tol*scale:
			a.cons = append(a.cons, i)
			a.target = append(a.target, d.gL[i])
		case !math.IsInf(d.gU[i], 0) && math.Abs(c[i]-d.gU[i]) <= tol*scale:
			a.cons = append(a.cons, i)
			a.target = append(a.target, d.gU[i])
		}
	}
	return a
}

// multipliers returns the least-squares multipliers λ of the active
// constraints at x and the reduced gradient r = ∇f − Jᵀλ (all n entries;
// the entries of variables at a bound are the bound multipliers).
func multipliers(t *testing.T, p *hs.Problem, d data, a activeSet, x []float64) (lambda, r []float64) {
	t.Helper()
	grad := make([]float64, d.n)
	must(t, p.Gradient(x, grad))
	jd := denseJacobian(t, p, d, x)
	k := len(a.cons)
	lambda = make([]float64, k)
	if k > 0 && len(a.free) > 0 {
		at := mat.NewDense(len(a.free), k, nil)
		b := mat.NewVecDense(len(a.free), nil)
		for r, j := range a.free {
			for c, i := range a.cons {
				at.Set(r, c, jd[i*d.n+j])
			}
			b.SetVec(r, grad[j])
		}
		// Minimum-norm least squares by SVD, so that dependent active
		// constraints (degenerate optima) still give multipliers.
		var svd mat.SVD
		if !svd.Factorize(at, mat.SVDThin) {
			t.Fatal("SVD of the active Jacobian failed")
		}
		if rank := svd.Rank(1e-10); rank > 0 {
			var l mat.VecDense
			svd.SolveVecTo(&l, b, rank)
			for i := range lambda {
				lambda[i] = l.AtVec(i)
			}
		}
	}
	r = append([]float64(nil), grad...)
	for c, i := range a.cons {
		for j := 0; j < d.n; j++ {
			r[j] -= lambda[c] * jd[i*d.n+j]
		}
	}
	return lambda, r
}

// TestKKT checks that each XStar satisfies the first-order optimality
// conditions of the formulation here: with the constraints active at XStar
// and least-squares multipliers, ∇f − Jᵀλ vanishes on the free variables,
// and the multipliers of inequalities and bounds have the right sign. This
// catches a transcription error that moves the optimum even when f(XStar)
// matches f*.
func TestKKT(t *testing.T) {
	const actTol, statTol = 1e-6, 1e-6
	for _, p := range hs.Suite() {
		t.Run(p.Name, func(t *testing.T) {
			if p.XStar == nil {
				t.Skip("no optimal point recorded")
			}
			if why, ok := noMultipliers[p.Name]; ok {
				t.Skip(why)
			}
			d := load(t, p)
			x := p.XStar
			a := findActive(t, p, d, x, actTol)
			lambda, r := multipliers(t, p, d, a, x)
			scale := 1.0
			g := make([]float64, d.n)
			must(t, p.Gradient(x, g))
			for _, v := range g {
				scale = math.Max(scale, math.Abs(v))
			}
			for _, j := range a.free {
				if math.Abs(r[j]) > statTol*scale {
					t.Errorf("stationarity: (∇f − Jᵀλ)[%d] = %g (active constraints %v, λ = %v)", j, r[j], a.cons, lambda)
				}
			}
			for k, j := range a.atBnd {
				if (a.lower[k] && r[j] < -statTol*scale) || (!a.lower[k] && r[j] > statTol*scale) {
					t.Errorf("bound multiplier of x[%d] has the wrong sign: %g", j, r[j])
				}
			}
			for c, i := range a.cons {
				if d.gL[i] == d.gU[i] {
					continue
				}
				atLower := a.target[c] == d.gL[i]
				if (atLower && lambda[c] < -statTol*scale) || (!atLower && lambda[c] > statTol*scale) {
					t.Errorf("multiplier of constraint %d has the wrong sign: %g", i, lambda[c])
				}
			}
		})
	}
}

// TestRefine polishes XStar of the problem named by -hs.refine with Newton's
// method on the first-order conditions (active set taken from XStar) and
// prints the result. It is a maintenance tool, skipped by default:
//
//	go test ./nlp/hs -run TestRefine -v -args -hs.refine=hs071
func TestRefine(t *testing.T) {
	if *refine == "" {
		t.Skip("no -hs.refine problem given")
	}
	p, err := hs.ByName(*refine)
	must(t, err)
	d := load(t, p)
	x := append([]float64(nil), p.XStar...)
	a := findActive(t, p, d, x, 1e-4)
	for k, j := range a.atBnd {
		if a.lower[k] {
			x[j] = d.xL[j]
		} else {
			x[j] = d.xU[j]
		}
	}
	lambda, _ := multipliers(t, p, d, a, x)
	nf, k := len(a.free), len(a.cons)
	full := make([]float64, d.m)
	grad := make([]float64, d.n)
	c := make([]float64, d.m)
	for it := 0; it < 30; it++ {
		must(t, p.Gradient(x, grad))
		must(t, p.Constraints(x, c))
		jd := denseJacobian(t, p, d, x)
		clear(full)
		for ci, i := range a.cons {
			full[i] = -lambda[ci]
		}
		hv := make([]float64, len(d.hr))
		must(t, p.HessianValues(x, 1, full, hv))
		h := make([]float64, d.n*d.n)
		for q, v := range hv {
			i, j := d.hr[q], d.hc[q]
			h[i*d.n+j], h[j*d.n+i] = v, v
		}
		kk := mat.NewDense(nf+k, nf+k, nil)
		rhs := mat.NewVecDense(nf+k, nil)
		res := 0.0
		for r, j := range a.free {
			v := grad[j]
			for ci, i := range a.cons {
				v -= lambda[ci] * jd[i*d.n+j]
				kk.Set(r, nf+ci, -jd[i*d.n+j])
				kk.Set(nf+ci, r, jd[i*d.n+j])
			}
			for s, jj := range a.free {
				kk.Set(r, s, h[j*d.n+jj])
			}
			rhs.SetVec(r, -v)
			res = math.Max(res, math.Abs(v))
		}
		for ci, i := range a.cons {
			v := c[i] - a.target[ci]
			rhs.SetVec(nf+ci, -v)
			res = math.Max(res, math.Abs(v))
		}
		t.Logf("iteration %d: residual %.3g", it, res)
		if res < 1e-13 {
			break
		}
		var dz mat.VecDense
		if err := dz.SolveVec(kk, rhs); err != nil {
			t.Fatalf("Newton step: %v", err)
		}
		for r, j := range a.free {
			x[j] += dz.AtVec(r)
		}
		for ci := range lambda {
			lambda[ci] += dz.AtVec(nf + ci)
		}
	}
	f, err := p.Objective(x)
	must(t, err)
	var b strings.Builder
	for i, v := range x {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%.16g", v)
	}
	t.Logf("%s: active constraints %v, λ = %v, bounds active at %v", p.Name, a.cons, lambda, a.atBnd)
	t.Logf("%s: x* = {%s}", p.Name, b.String())
	t.Logf("%s: f(x*) = %.16g, published f* = %.16g, relative difference %.2g",
		p.Name, f, p.FStar, math.Abs(f-p.FStar)/math.Max(1, math.Abs(p.FStar)))
	for i, v := range x {
		t.Logf("x[%d]: published %.10g, polished %.16g, difference %.2g", i, p.XStar[i], v, v-p.XStar[i])
	}
}
