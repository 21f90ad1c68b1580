package fesd_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
)

// turboOCP is the time-optimal turbo car of TestOCPTurboCarFree on N
// stages, with its settings.
func turboOCP(N int) (*fesd.OCP, fesd.Options) {
	m, x := turboCar()
	return &fesd.OCP{
			Model: m, X0: []float64{0, 0}, N: N, T: 10, NFE: []int{3},
			TimeOptimal: true,
			UL:          []float64{-5}, UU: []float64{5},
			Terminal: []fesd.Constraint{{G: ad.Vec{x[0].AddConst(-200), x[1]}}},
		}, fesd.Options{
			DCS:               dcs.Options{Formulation: dcs.Step},
			StepEquilibration: fesd.NoEquilibration,
		}
}

// turboStart is the bang-bang control guess of the turbo car on 10 stages.
var turboStart = fesd.Start{UInit: [][]float64{{5}, {5}, {5}, {0}, {0}, {0}, {0}, {-5}, {-5}, {-5}}}

// TestOCPInitFrom: mesh refinement. The turbo car (T* = 9.72203…, closed
// form in TestOCPTurboCarFree) is solved on N = 10 stages; its result
// initializes N = 20 through Start.InitFrom with a homotopy that starts at
// σ₀ = 1e-4, which must again reach T* to 1e-4. (Measured: 201
// iterations; the same homotopy from the default start ends at the
// C-stationary point T_f = 10 after 1 051.) Evaluate of the saved NLP
// solution must reproduce the solved result. A result that ends Solved
// has no LastSuccess (see TestOCPLastSuccess).
func TestOCPInitFrom(t *testing.T) {
	want := 4 + 2*(math.Sqrt(2800)-10)/15
	p, opts := turboOCP(10)
	s, err := fesd.NewOCPSolver(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	r10, err := s.Solve(context.Background(), turboStart)
	if err != nil {
		t.Fatal(err)
	}
	if r10.Status != mpcc.Solved || math.Abs(r10.TFinal-want) > 1e-4 {
		t.Fatalf("N = 10: status %v, T_f = %.10f, want %.10f", r10.Status, r10.TFinal, want)
	}
	if r10.LastSuccess != nil {
		t.Errorf("N = 10: Solved with a LastSuccess")
	}

	// Evaluate at the saved solution gives the same result (same
	// compiled functions at the same point: equal to rounding).
	e, err := s.Evaluate(r10.NLPSolution())
	if err != nil {
		t.Fatal(err)
	}
	if e.Status != mpcc.NotSolved || e.Iterations != 0 || e.Homotopy != nil {
		t.Errorf("Evaluate: status %v, %d iterations, %d steps", e.Status, e.Iterations, len(e.Homotopy))
	}
	if math.Abs(e.Objective-r10.Objective) > 1e-12 || math.Abs(e.TFinal-r10.TFinal) > 1e-12 ||
		math.Abs(e.CompResidual-r10.CompResidual) > 1e-12 || len(e.PointX) != len(r10.PointX) {
		t.Errorf("Evaluate: objective %g T_f %g residual %g, solve: %g %g %g",
			e.Objective, e.TFinal, e.CompResidual, r10.Objective, r10.TFinal, r10.CompResidual)
	}
	for i := range e.PointX {
		for j := range e.PointX[i] {
			if math.Abs(e.PointX[i][j]-r10.PointX[i][j]) > 1e-12 {
				t.Fatalf("Evaluate: PointX[%d][%d] = %g, solve %g", i, j, e.PointX[i][j], r10.PointX[i][j])
			}
		}
	}

	q, qopts := turboOCP(20)
	qopts.MPCC.Sigma0 = 1e-4
	r20, err := fesd.SolveOCP(context.Background(), q, qopts, fesd.Start{InitFrom: e})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("N = 10: %d iterations, T_f = %.10f; N = 20 from it, σ₀ = 1e-4: %v, %d iterations, T_f = %.10f (T* = %.10f)",
		r10.Iterations, r10.TFinal, r20.Status, r20.Iterations, r20.TFinal, want)
	if r20.Status != mpcc.Solved || math.Abs(r20.TFinal-want) > 1e-4 {
		t.Errorf("N = 20 from N = 10: status %v, T_f = %.10f, want %.10f", r20.Status, r20.TFinal, want)
	}
	if e := math.Hypot(r20.Final()[0]-200, r20.Final()[1]); e > 1e-6 {
		t.Errorf("N = 20 from N = 10: terminal error %g", e)
	}
}

// TestOCPInitFromErrors: a result without a trajectory, of another state
// dimension or with NaN is an error, not a panic.
func TestOCPInitFromErrors(t *testing.T) {
	p, opts := turboOCP(4)
	opts.MPCC.MaxSteps = 1
	r, err := fesd.SolveOCP(context.Background(), p, opts, fesd.Start{})
	if err != nil {
		t.Fatal(err)
	}
	q, qopts := turboOCP(6)
	s, err := fesd.NewOCPSolver(q, qopts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.Solve(ctx, fesd.Start{InitFrom: fesd.WarmFromNLPSolution(r.NLPSolution())}); !errors.Is(err, fesd.ErrDimension) {
		t.Errorf("InitFrom without trajectory: %v, want ErrDimension", err)
	}
	bad := *r
	bad.X = append([][]float64{{0}}, r.X[1:]...)
	if _, err := s.Solve(ctx, fesd.Start{InitFrom: &bad}); !errors.Is(err, fesd.ErrDimension) {
		t.Errorf("InitFrom with 1 state: %v, want ErrDimension", err)
	}
	bad = *r
	bad.PointX = append([][]float64{{math.NaN(), 0}}, r.PointX[1:]...)
	if _, err := s.Solve(ctx, fesd.Start{InitFrom: &bad}); !errors.Is(err, fesd.ErrNonFinite) {
		t.Errorf("InitFrom with NaN: %v, want ErrNonFinite", err)
	}
	if _, err := s.Evaluate(r.NLPSolution()); !errors.Is(err, fesd.ErrDimension) {
		t.Errorf("Evaluate with the N = 4 solution on N = 6: %v, want ErrDimension", err)
	}
}
