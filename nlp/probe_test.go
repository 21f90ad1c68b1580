package nlp

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/nlp/hs"
)

// sumOfSquares is min x₁² + x₂² subject to x₁ + x₂ = 2 (optimum 2 at
// (1, 1)). With drop, JacobianStructure leaves out ∂g/∂x₂ = 1: the solver
// then sees g depend on x₁ only, and its KKT point is (2, 0) with
// objective 4.
func sumOfSquares(drop bool) *quadProb {
	q := &quadProb{
		n: 2, m: 1,
		xL: []float64{-inf, -inf}, xU: []float64{inf, inf},
		gL: []float64{2}, gU: []float64{2},
		x0: []float64{0.3, -0.2},
		f:  func(x []float64) float64 { return x[0]*x[0] + x[1]*x[1] },
		df: func(x, g []float64) { g[0], g[1] = 2*x[0], 2*x[1] },
		c:  func(x, c []float64) { c[0] = x[0] + x[1] },
		jr: []int{0, 0}, jc: []int{0, 1},
		jv: func(x, v []float64) { v[0], v[1] = 1, 1 },
		hr: []int{0, 1}, hc: []int{0, 1},
		hv: func(x []float64, s float64, l, v []float64) { v[0], v[1] = 2*s, 2*s },
	}
	if drop {
		q.jr, q.jc = []int{0}, []int{0}
		q.jv = func(x, v []float64) { v[0] = 1 }
	}
	return q
}

// TestProbeMissingJacobianEntry: the problem of issue 29 item 5. Without
// the probe it ends Solved at the wrong point (objective 4, closed form
// above); with the default settings it ends DerivativeMismatch after the
// same iterations, with an error naming the missing entry (0, 1) and its
// finite-difference value 1. The correct problem solves to 2.
func TestProbeMissingJacobianEntry(t *testing.T) {
	ctx := context.Background()
	off, err := (&Solver{Settings: Settings{tune: func(p *params) { p.noProbe = true }}}).Solve(ctx, sumOfSquares(true))
	require.NoError(t, err)
	require.Equal(t, Solved, off.Status)
	assert.InDelta(t, 4, off.Objective, 1e-6, "the silent wrong result")

	res, err := (&Solver{}).Solve(ctx, sumOfSquares(true))
	require.ErrorIs(t, err, ErrDerivatives)
	var de *DerivativeError
	require.ErrorAs(t, err, &de)
	t.Log(err)
	require.NotNil(t, res)
	assert.Equal(t, DerivativeMismatch, res.Status)
	assert.False(t, res.Status.Success())
	assert.Equal(t, off.Iterations, res.Iterations, "the probe only reads")
	assert.Equal(t, off.X, res.X)
	assert.Equal(t, off.Counts, res.Counts, "probe evaluations are not counted")
	rep := de.Report
	assert.True(t, rep.Probe)
	require.Len(t, rep.MissingEntries, 1)
	e := rep.MissingEntries[0]
	assert.Equal(t, JacobianEntry, e.Kind)
	assert.Equal(t, [2]int{0, 1}, [2]int{e.Row, e.Col})
	assert.InDelta(t, 1, e.Estimate, 1e-6) // ∂(x₁ + x₂)/∂x₂
	assert.Contains(t, err.Error(), "Jacobian[0,1]")

	// SolveIn does the same.
	var ws Workspace
	res, err = (&Solver{}).SolveIn(ctx, &ws, sumOfSquares(true))
	require.ErrorIs(t, err, ErrDerivatives)
	assert.Equal(t, DerivativeMismatch, res.Status)

	res, err = (&Solver{}).Solve(ctx, sumOfSquares(false))
	require.NoError(t, err)
	assert.Equal(t, Solved, res.Status)
	assert.InDelta(t, 2, res.Objective, 1e-8)
}

// TestProbeWrongGradient: a gradient entry off by a factor 1.5 (∂f/∂x₂
// reported as 3x₂) is flagged at the KKT point of the problem the
// derivatives describe, (6/5, 4/5) (2x₁ = 3x₂, x₁ + x₂ = 2); the solver
// itself does not converge on this problem (the gradient is not that of
// f, so the line search fails), so the probe is called directly.
func TestProbeWrongGradient(t *testing.T) {
	q := sumOfSquares(false)
	q.df = func(x, g []float64) { g[0], g[1] = 2*x[0], 3*x[1] }
	rep := probeAt(q, []float64{1.2, 0.8})
	require.NotNil(t, rep)
	require.NotEmpty(t, rep.Worst)
	w := rep.Worst[0]
	assert.Equal(t, GradientEntry, w.Kind)
	assert.Equal(t, 1, w.Col)
	assert.InDelta(t, 1.6, w.Estimate, 1e-6) // 2x₂
	assert.Equal(t, 0, rep.Missing)
	assert.Equal(t, 2, rep.Checked, "only the gradient row is compared")
}

// scaledProblem is p in the variables y = x/sx with f multiplied by sf
// and g_i by sg: the same problem, badly scaled.
type scaledProblem struct {
	p      Problem
	sf, sg float64
	sx     []float64
}

func (s *scaledProblem) Dims() (int, int) { return s.p.Dims() }
func (s *scaledProblem) Bounds(xL, xU, gL, gU []float64) {
	s.p.Bounds(xL, xU, gL, gU)
	for j := range xL {
		xL[j] /= s.sx[j]
		xU[j] /= s.sx[j]
	}
	for i := range gL {
		gL[i] *= s.sg
		gU[i] *= s.sg
	}
}
func (s *scaledProblem) x(y []float64) []float64 {
	x := make([]float64, len(y))
	for j := range y {
		x[j] = y[j] * s.sx[j]
	}
	return x
}
func (s *scaledProblem) Start(y []float64) {
	s.p.Start(y)
	for j := range y {
		y[j] /= s.sx[j]
	}
}
func (s *scaledProblem) Objective(y []float64) (float64, error) {
	f, err := s.p.Objective(s.x(y))
	return s.sf * f, err
}
func (s *scaledProblem) Gradient(y, g []float64) error {
	err := s.p.Gradient(s.x(y), g)
	for j := range g {
		g[j] *= s.sf * s.sx[j]
	}
	return err
}
func (s *scaledProblem) Constraints(y, g []float64) error {
	err := s.p.Constraints(s.x(y), g)
	for i := range g {
		g[i] *= s.sg
	}
	return err
}
func (s *scaledProblem) JacobianStructure() ([]int, []int) { return s.p.JacobianStructure() }
func (s *scaledProblem) JacobianValues(y, v []float64) error {
	if err := s.p.JacobianValues(s.x(y), v); err != nil {
		return err
	}
	_, c := s.p.JacobianStructure()
	for k, j := range c {
		v[k] *= s.sg * s.sx[j]
	}
	return nil
}
func (s *scaledProblem) HessianStructure() ([]int, []int) { return s.p.HessianStructure() }
func (s *scaledProblem) HessianValues(y []float64, sigma float64, lambda, v []float64) error {
	l := make([]float64, len(lambda))
	for i := range l {
		l[i] = lambda[i] * s.sg
	}
	if err := s.p.HessianValues(s.x(y), sigma*s.sf, l, v); err != nil {
		return err
	}
	r, c := s.p.HessianStructure()
	for k := range r {
		v[k] *= s.sx[r[k]] * s.sx[c[k]]
	}
	return nil
}

// probeAt runs the probe at x with p's own bounds and structure.
func probeAt(p Problem, x []float64) *DerivativeReport {
	n, m := p.Dims()
	xL, xU := make([]float64, n), make([]float64, n)
	p.Bounds(xL, xU, make([]float64, m), make([]float64, m))
	jr, jc := p.JacobianStructure()
	// The solver's default bound relaxation.
	relax := func(b float64) float64 { return 1e-8 * math.Max(1, math.Abs(b)) }
	return probeDerivatives(p, x, xL, xU, relax, jr, jc)
}

// TestProbeNoFalseAlarm: the probe raises no alarm on the exact
// derivatives of every Hock–Schittkowski problem of package hs, at its
// published optimum XStar (variables at their bounds included) and at its
// start, as given and badly scaled (f·1e6, g·1e-4, variables by 1e-3 and
// 1e3 alternately); and the badly scaled HS 71 solves without one.
func TestProbeNoFalseAlarm(t *testing.T) {
	for _, p := range HSSuite() {
		n, _ := p.Dims()
		sx := make([]float64, n)
		for j := range sx {
			sx[j] = 1e-3
			if j%2 == 1 {
				sx[j] = 1e3
			}
		}
		for _, q := range []struct {
			name string
			p    Problem
			sx   []float64
		}{
			{"", p, nil},
			{"/scaled", &scaledProblem{p: p, sf: 1e6, sg: 1e-4, sx: sx}, sx},
		} {
			x0 := make([]float64, n)
			q.p.Start(x0)
			points := [][]float64{x0}
			if p.XStar != nil {
				xs := make([]float64, n)
				for j := range xs {
					xs[j] = p.XStar[j]
					if q.sx != nil {
						xs[j] /= q.sx[j]
					}
				}
				points = append(points, xs)
			}
			for k, x := range points {
				if rep := probeAt(q.p, x); rep != nil {
					t.Errorf("%s%s point %d: %v", p.Name, q.name, k, &DerivativeError{Report: rep})
				}
			}
		}
	}
	p, err := hs.ByName("hs071")
	require.NoError(t, err)
	n, _ := p.Dims()
	sx := make([]float64, n)
	for j := range sx {
		sx[j] = math.Pow(10, float64(2*j-3))
	}
	res, err := (&Solver{}).Solve(context.Background(), &scaledProblem{p: p, sf: 1e6, sg: 1e-4, sx: sx})
	require.NoError(t, err)
	assert.NotEqual(t, DerivativeMismatch, res.Status)
	t.Logf("scaled hs071: %v, f/1e6 = %.10g (f* = %.10g)", res.Status, res.Objective/1e6, p.FStar)
}

// TestProbeKink: a kink of |·| or max(·, 0) at the point is no alarm
// whichever subgradient the gradient reports there: inside the box the
// one-sided quotients disagree by the jump; at a bound (x within the
// relaxation of the bound 0 where the kink is) the step stays within 1e-3
// of the distance to the relaxed bound and does not cross it. A
// singularity at a bound (log x at x = 1e-9) is no alarm either, and a
// slope 1 % off there is found (the step is 1e-3 of the distance, so the
// curvature changes the one-sided quotients by about 0.1 %).
func TestProbeKink(t *testing.T) {
	for _, c := range []struct {
		name   string
		f      func(x []float64) float64
		df     func(x, g []float64)
		xL, x0 float64
	}{
		{"abs", func(x []float64) float64 { return math.Abs(x[0] - 1) }, func(x, g []float64) { g[0] = 0 }, -inf, 1},
		{"max", func(x []float64) float64 { return math.Max(x[0]-1, 0) }, func(x, g []float64) { g[0] = 1 }, -inf, 1},
		// x slightly outside the relaxed bound 0 with the kink at 0.
		{"max at bound", func(x []float64) float64 { return math.Max(x[0], 0) }, func(x, g []float64) { g[0] = 0 }, 0, -5e-9},
		{"log at bound", func(x []float64) float64 { return math.Log(x[0]) }, func(x, g []float64) { g[0] = 1 / x[0] }, 0, 1e-9},
	} {
		q := &quadProb{n: 1, xL: []float64{c.xL}, xU: []float64{inf}, f: c.f, df: c.df,
			c: func(x, g []float64) {}, jv: func(x, v []float64) {}}
		assert.Nil(t, probeAt(q, []float64{c.x0}), c.name)
	}
	logWrong := &quadProb{n: 1, xL: []float64{0}, xU: []float64{inf},
		f: func(x []float64) float64 { return math.Log(x[0]) }, df: func(x, g []float64) { g[0] = 1.01 / x[0] },
		c: func(x, g []float64) {}, jv: func(x, v []float64) {}}
	assert.NotNil(t, probeAt(logWrong, []float64{1e-9}), "log with a slope 1 % off")
	// The same functions with a wrong slope away from the kink are found.
	q := &quadProb{n: 1, xL: []float64{-inf}, xU: []float64{inf},
		f: func(x []float64) float64 { return math.Abs(x[0] - 1) }, df: func(x, g []float64) { g[0] = 0 },
		c: func(x, g []float64) {}, jv: func(x, v []float64) {}}
	assert.NotNil(t, probeAt(q, []float64{3}))
}

// TestProbeAbandoned: a callback error or NaN during the probe is no
// alarm.
func TestProbeAbandoned(t *testing.T) {
	q := sumOfSquares(true)
	calls := 0
	q.c = func(x, c []float64) {
		calls++
		c[0] = x[0] + x[1]
		if calls > 1 {
			c[0] = math.NaN()
		}
	}
	assert.Nil(t, probeAt(q, []float64{2, 0}))
	e := &errProbe{quadProb: sumOfSquares(true)}
	assert.Nil(t, probeAt(e, []float64{2, 0}))
	assert.NotNil(t, probeAt(sumOfSquares(true), []float64{2, 0}))
}

type errProbe struct {
	*quadProb
	calls int
}

func (e *errProbe) Objective(x []float64) (float64, error) {
	e.calls++
	if e.calls > 1 {
		return 0, errors.New("no value")
	}
	return e.quadProb.Objective(x)
}
