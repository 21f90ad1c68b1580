package nlp_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/nlp"
)

// hs071 is Hock–Schittkowski problem 71 (f* = 17.0140173 at
// (1, 4.743, 3.8211, 1.3794)) with hand-written derivatives; the fields
// break it on purpose.
type hs071 struct {
	// jacScale multiplies Jacobian entry jacWrong (1: correct).
	jacWrong int
	jacScale float64
	// dropJac removes the entry (row 1, column 2) from JacobianStructure
	// (its value ∂g₂/∂x₃ = 2x₃ is then never reported).
	dropJac bool
	// hesWrong adds 1 to the Hessian entry (3, 0) (∂²L/∂x₄∂x₁).
	hesWrong bool
}

func (hs071) Dims() (int, int) { return 4, 2 }
func (hs071) Bounds(xL, xU, gL, gU []float64) {
	for j := range 4 {
		xL[j], xU[j] = 1, 5
	}
	gL[0], gU[0] = 25, math.Inf(1)
	gL[1], gU[1] = 40, 40
}
func (hs071) Start(x []float64) { copy(x, []float64{1, 5, 5, 1}) }
func (hs071) Objective(x []float64) (float64, error) {
	return x[0]*x[3]*(x[0]+x[1]+x[2]) + x[2], nil
}
func (hs071) Gradient(x, g []float64) error {
	g[0] = x[3]*(x[0]+x[1]+x[2]) + x[0]*x[3]
	g[1] = x[0] * x[3]
	g[2] = x[0]*x[3] + 1
	g[3] = x[0] * (x[0] + x[1] + x[2])
	return nil
}
func (hs071) Constraints(x, g []float64) error {
	g[0] = x[0] * x[1] * x[2] * x[3]
	g[1] = x[0]*x[0] + x[1]*x[1] + x[2]*x[2] + x[3]*x[3]
	return nil
}
func (p hs071) JacobianStructure() ([]int, []int) {
	r := []int{0, 0, 0, 0, 1, 1, 1, 1}
	c := []int{0, 1, 2, 3, 0, 1, 2, 3}
	if p.dropJac {
		r = slices.Delete(r, 6, 7)
		c = slices.Delete(c, 6, 7)
	}
	return r, c
}
func (p hs071) JacobianValues(x, v []float64) error {
	all := []float64{x[1] * x[2] * x[3], x[0] * x[2] * x[3], x[0] * x[1] * x[3], x[0] * x[1] * x[2],
		2 * x[0], 2 * x[1], 2 * x[2], 2 * x[3]}
	if p.dropJac {
		all = slices.Delete(all, 6, 7)
	}
	copy(v, all)
	if p.jacScale != 0 {
		v[p.jacWrong] *= p.jacScale
	}
	return nil
}
func (hs071) HessianStructure() ([]int, []int) {
	// Lower triangle, dense.
	var r, c []int
	for i := range 4 {
		for j := 0; j <= i; j++ {
			r, c = append(r, i), append(c, j)
		}
	}
	return r, c
}
func (p hs071) HessianValues(x []float64, s float64, l, v []float64) error {
	// Entries in the order of HessianStructure: (0,0) (1,0) (1,1) (2,0)
	// (2,1) (2,2) (3,0) (3,1) (3,2) (3,3).
	v[0] = s*2*x[3] + l[1]*2
	v[1] = s*x[3] + l[0]*x[2]*x[3]
	v[2] = l[1] * 2
	v[3] = s*x[3] + l[0]*x[1]*x[3]
	v[4] = l[0] * x[0] * x[3]
	v[5] = l[1] * 2
	v[6] = s*(2*x[0]+x[1]+x[2]) + l[0]*x[1]*x[2]
	v[7] = s*x[0] + l[0]*x[0]*x[2]
	v[8] = s*x[0] + l[0]*x[0]*x[1]
	v[9] = l[1] * 2
	if p.hesWrong {
		v[6]++
	}
	return nil
}

var hs071Start = []float64{1.1, 4.9, 3.7, 1.4}

// TestCheckDerivativesCorrect: the exact derivatives of hs071 pass at an
// interior point; every gradient, Jacobian and lower-triangle Hessian
// position is compared (4 + 2·4 + 10 = 22 entries) and the largest errors
// stay at the level of the finite-difference rounding (ε·|f|/h ≈ 1e-7
// with h = 1e-8 and |f| ≈ 40; bound 1e-5). x is not modified.
func TestCheckDerivativesCorrect(t *testing.T) {
	x := slices.Clone(hs071Start)
	rep, err := nlp.CheckDerivatives(hs071{}, x, nlp.DerivativeCheck{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep.WriteTo(&b)
	t.Log(b.String())
	if !rep.OK() || rep.Checked != 4+8+10 || rep.Skipped != 0 {
		t.Errorf("OK %v, %d checked, %d skipped", rep.OK(), rep.Checked, rep.Skipped)
	}
	for k, e := range rep.MaxError {
		if e > 1e-5 {
			t.Errorf("%v: largest error %g", nlp.DerivativeKind(k), e)
		}
	}
	if !slices.Equal(x, hs071Start) {
		t.Errorf("x modified: %v", x)
	}
}

// TestCheckDerivativesFlags: a wrong Jacobian value, a Jacobian nonzero
// missing from the declared structure and a wrong Hessian value are each
// flagged, at their position, and nothing else is (the Hessian is not
// checked after a flagged first derivative).
func TestCheckDerivativesFlags(t *testing.T) {
	for _, c := range []struct {
		name    string
		p       hs071
		want    nlp.DerivativeEntry // Kind, Row, Col, Missing
		wrong   int
		missing int
	}{
		// ∂g₁/∂x₂ = x₁x₃x₄ reported 1.5 times too large.
		{"wrong Jacobian", hs071{jacWrong: 1, jacScale: 1.5}, nlp.DerivativeEntry{Kind: nlp.JacobianEntry, Row: 0, Col: 1}, 1, 0},
		// ∂g₂/∂x₃ = 2x₃ = 7.4 left out of the structure.
		{"missing Jacobian", hs071{dropJac: true}, nlp.DerivativeEntry{Kind: nlp.JacobianEntry, Row: 1, Col: 2, Missing: true}, 0, 1},
		// ∂²L/∂x₄∂x₁ off by 1.
		{"wrong Hessian", hs071{hesWrong: true}, nlp.DerivativeEntry{Kind: nlp.HessianEntry, Row: 3, Col: 0}, 1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := nlp.CheckDerivatives(c.p, slices.Clone(hs071Start), nlp.DerivativeCheck{})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			rep.WriteTo(&b)
			t.Log(b.String())
			if rep.OK() || rep.Wrong != c.wrong || rep.Missing != c.missing {
				t.Fatalf("OK %v, %d wrong, %d missing; want %d, %d", rep.OK(), rep.Wrong, rep.Missing, c.wrong, c.missing)
			}
			w := rep.Worst[0]
			if w.Kind != c.want.Kind || w.Row != c.want.Row || w.Col != c.want.Col || w.Missing != c.want.Missing || w.Error <= rep.Tol {
				t.Errorf("worst entry %v, want %v at (%d, %d), missing %v", w, c.want.Kind, c.want.Row, c.want.Col, c.want.Missing)
			}
			if rep.HessianSkipped != (c.want.Kind == nlp.JacobianEntry) {
				t.Errorf("Hessian skipped: %v", rep.HessianSkipped)
			}
			if c.missing > 0 && (len(rep.MissingEntries) != 1 || rep.MissingEntries[0] != w) {
				t.Errorf("missing entries %v", rep.MissingEntries)
			}
			if c.want.Missing && math.Abs(w.Estimate-2*hs071Start[2]) > 1e-6 {
				t.Errorf("estimate of the missing entry %g, want 2x₃ = %g", w.Estimate, 2*hs071Start[2])
			}
		})
	}
	// First order only: the wrong Hessian is not looked at.
	rep, err := nlp.CheckDerivatives(hs071{hesWrong: true}, slices.Clone(hs071Start), nlp.DerivativeCheck{FirstOrderOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.SecondOrder || rep.Checked != 12 {
		t.Errorf("first order: OK %v, second order %v, %d checked", rep.OK(), rep.SecondOrder, rep.Checked)
	}
}

// TestCheckDerivativesHS: the derivatives of every Hock–Schittkowski
// problem of package hs pass the second-order check at the published
// start, moved 1e-3 inside its bounds (the solver starts from an interior
// point too).
func TestCheckDerivativesHS(t *testing.T) {
	for _, p := range nlp.HSSuite() {
		n, m := p.Dims()
		x := make([]float64, n)
		p.Start(x)
		xL, xU := make([]float64, n), make([]float64, n)
		p.Bounds(xL, xU, make([]float64, m), make([]float64, m))
		for j := range x {
			x[j] = math.Min(math.Max(x[j], xL[j]+1e-3), xU[j]-1e-3)
		}
		rep, err := nlp.CheckDerivatives(p, x, nlp.DerivativeCheck{})
		if err != nil {
			t.Errorf("%s: %v", p.Name, err)
			continue
		}
		if !rep.OK() {
			var b strings.Builder
			rep.WriteTo(&b)
			t.Errorf("%s: %s", p.Name, b.String())
		}
	}
}

// TestCheckDerivativesErrors: bad input is an error, not a report.
func TestCheckDerivativesErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		x    []float64
		opt  nlp.DerivativeCheck
		want error
	}{
		{"short x", []float64{1, 2, 3}, nlp.DerivativeCheck{}, nlp.ErrDimension},
		{"NaN x", []float64{1, math.NaN(), 3, 4}, nlp.DerivativeCheck{}, nlp.ErrDimension},
		{"negative Tol", hs071Start, nlp.DerivativeCheck{Tol: -1}, nlp.ErrSettings},
		{"Lambda length", hs071Start, nlp.DerivativeCheck{Lambda: []float64{1}}, nlp.ErrDimension},
	} {
		if _, err := nlp.CheckDerivatives(hs071{}, c.x, c.opt); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestSolveDerivativeTest: Settings.DerivativeTest runs the check at the
// start; a problem with a Jacobian entry missing from its structure stops
// Solve with a *DerivativeError carrying the report, a correct one solves
// to f* = 17.0140173 (HS 71) with the report in Result.Derivatives.
func TestSolveDerivativeTest(t *testing.T) {
	set := nlp.Settings{DerivativeTest: nlp.DerivativeTestSecondOrder}
	res, err := (&nlp.Solver{Settings: set}).Solve(context.Background(), hs071{dropJac: true})
	var de *nlp.DerivativeError
	if !errors.Is(err, nlp.ErrDerivatives) || !errors.As(err, &de) || res != nil {
		t.Fatalf("result %v, error %v", res, err)
	}
	t.Log(err)
	if de.Report.Missing != 1 || de.Report.Wrong != 0 || de.Report.MissingEntries[0].Row != 1 || de.Report.MissingEntries[0].Col != 2 {
		t.Errorf("report: %d missing, %v", de.Report.Missing, de.Report.MissingEntries)
	}
	res, err = (&nlp.Solver{Settings: set}).Solve(context.Background(), hs071{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != nlp.Solved || math.Abs(res.Objective-17.0140173) > 1e-6 || res.Derivatives == nil || !res.Derivatives.OK() {
		t.Errorf("%v, f = %v, report %v", res.Status, res.Objective, res.Derivatives)
	}
	res, err = (&nlp.Solver{}).Solve(context.Background(), hs071{})
	if err != nil || res.Derivatives != nil {
		t.Errorf("without the test: error %v, report %v", err, res.Derivatives)
	}
	if err := (&nlp.Settings{DerivativeTest: 3}).Validate(); !errors.Is(err, nlp.ErrSettings) {
		t.Errorf("DerivativeTest 3: %v", err)
	}
}
