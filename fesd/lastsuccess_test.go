package fesd_test

import (
	"context"
	"math"
	"testing"

	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// failFrom wraps an inner solver and reports IterationLimit from its
// call number from on (0-based), keeping the point the solve reached.
type failFrom struct {
	inner mpcc.InnerSolver
	from  int
	calls int
}

func (f *failFrom) SolveNLP(ctx context.Context, p nlp.Problem, w *mpcc.WarmStart) (*mpcc.InnerResult, error) {
	r, err := f.inner.SolveNLP(ctx, p, w)
	if err == nil && f.calls >= f.from {
		r.Status = nlp.IterationLimit
	}
	f.calls++
	return r, err
}

// TestOCPLastSuccess: when the homotopy ends on a failed step after
// successful ones, OCPResult.LastSuccess is the result at the last
// successful step's point. The turbo car of TestOCPInitFrom runs with an
// inner solver that declares every step from the third on failed (the
// first two are solved from its start; the third, σ = 0.01, is near the
// iteration limit, so it is not used); the result must be NLPFailure, and
// LastSuccess must carry the first two homotopy records, their
// iterations, and the residual and objective of the second step's record (the same point, evaluated again: to 1e-12).
// A homotopy that ends Solved has no LastSuccess (the same OCP solved
// with the default inner solver; under -short TestOCPInitFrom checks it on
// its solved result instead).
func TestOCPLastSuccess(t *testing.T) {
	p, opts := turboOCP(10)
	opts.Inner = &failFrom{inner: &mpcc.NLPSolver{Settings: mpcc.DefaultNLPSettings()}, from: 2}
	// The active-set finish would certify the failed homotopy's point
	// (it ignores the faked inner status) and end Solved.
	opts.MPCC.Finish = mpcc.CertifyOnly
	r, err := fesd.SolveOCP(context.Background(), p, opts, turboStart)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != mpcc.NLPFailure || len(r.Homotopy) <= 2 {
		t.Fatalf("status %v after %d steps, want NLPFailure after more than 2", r.Status, len(r.Homotopy))
	}
	ls := r.LastSuccess
	if ls == nil {
		t.Fatal("LastSuccess nil")
	}
	if ls.Status != mpcc.NotSolved || len(ls.Homotopy) != 2 {
		t.Fatalf("LastSuccess: status %v with %d records, want NotSolved with 2", ls.Status, len(ls.Homotopy))
	}
	st := ls.Homotopy[1]
	if !st.Status.Success() || ls.Iterations != r.Homotopy[0].Iterations+r.Homotopy[1].Iterations {
		t.Errorf("LastSuccess: step status %v, %d iterations", st.Status, ls.Iterations)
	}
	if math.Abs(ls.CompResidual-st.CompResidual) > 1e-12 || math.Abs(ls.Objective-st.Objective) > 1e-12*math.Max(1, math.Abs(st.Objective)) {
		t.Errorf("LastSuccess: residual %g objective %g, step record %g %g", ls.CompResidual, ls.Objective, st.CompResidual, st.Objective)
	}
	if len(ls.PointX) != len(r.PointX) || len(ls.NLPSolution()) != len(r.NLPSolution()) {
		t.Errorf("LastSuccess has %d stage points, the result %d", len(ls.PointX), len(r.PointX))
	}

	if testing.Short() {
		return
	}
	opts.Inner = nil
	r, err = fesd.SolveOCP(context.Background(), p, opts, turboStart)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != mpcc.Solved || r.LastSuccess != nil {
		t.Errorf("status %v, LastSuccess %v", r.Status, r.LastSuccess != nil)
	}
}
