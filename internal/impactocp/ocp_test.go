package impactocp

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/internal/rusage"
	"github.com/fesd-go/fesd/mpcc"
)

// Tolerances of the OCP tests: the complementarity bar, the
// largest violation of the NLP's constraints of a solved point (the
// inner solver's own constraint tolerance is 1e-4, its acceptable
// termination allows 1e-2; a solution of the MPCC meets the dynamics far
// tighter), penetration at the element boundaries (gaps are met exactly
// at the boundaries by FESD-J; the relaxed impulses leave O(√σ)), and the
// restitution law J_nᵀv⁺ = −e J_nᵀv⁻ of the reported impacts.
const (
	compTol     = 1e-6
	infeasTol   = 1e-6
	gapTol      = 1e-6
	newtonTol   = 1e-5
	terminalTol = 0.1
	// groundTol bounds the height of a box above its resting height: the
	// impacts leave the ground contacts impulses of order 1e-5 (see
	// TestBoxesImpact), which lift a box by far less.
	groundTol = 1e-5
)

// solve solves p from fesd's defaults (no start) with the paper's
// discretization and checks what every FESD-J OCP solution must meet.
func solve(t *testing.T, p *fesd.OCP) *fesd.OCPResult {
	t.Helper()
	c0 := rusage.CPUTime()
	r, err := fesd.SolveOCP(context.Background(), p, Options(), fesd.Start{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v, complementarity %.2g, infeasibility %.2g, objective %.8g, stationarity %v, %d iterations, CPU %v",
		r.Status, r.CompResidual, r.Infeasibility, r.Objective, r.Stationarity, r.Iterations, rusage.CPUTime()-c0)
	if r.Rerun != nil {
		t.Logf("first homotopy: %v after %d iterations", r.Rerun.Status, r.Rerun.Iterations)
	}
	if r.Status != mpcc.Solved {
		for _, h := range r.Homotopy {
			t.Logf("σ = %.3g: %v in %d iterations, complementarity %.3g, objective %.8g", h.Sigma, h.Status, h.Iterations, h.CompResidual, h.Objective)
		}
		t.Fatalf("status %v, want Solved", r.Status)
	}
	if r.CompResidual > compTol {
		t.Errorf("complementarity residual %.3g > %g", r.CompResidual, compTol)
	}
	if r.Infeasibility > infeasTol {
		t.Errorf("infeasibility %.3g > %g", r.Infeasibility, infeasTol)
	}
	if r.Stationarity == mpcc.NotCertified {
		t.Errorf("no stationarity class (%v)", r.Stationarity)
	}
	if r.Contacts == nil {
		t.Fatal("no contact view (OCPResult.Contacts)")
	}
	// the gaps at every element boundary, and Newton's law at every
	// reported impact
	cls := p.CLS
	for i, x := range r.Contacts.X {
		for ci, g := range gapsAt(t, p, x) {
			if g < -gapTol {
				t.Errorf("contact %d penetrates at t = %.6f: f_c = %.3g", ci, r.Contacts.T[i], g)
			}
		}
	}
	for _, ev := range r.Contacts.Impacts() {
		e := cls.E[ev.Contact]
		if math.Abs(ev.VnAfter+e*ev.VnBefore) > newtonTol {
			t.Errorf("impact of contact %d at t = %.6f: J_nᵀv %.6g → %.6g, want → %.6g", ev.Contact, ev.Time,
				ev.VnBefore, ev.VnAfter, -e*ev.VnBefore)
		}
	}
	return r
}

// gapsAt returns the gap functions of p's CLS at the state x = (q, v).
func gapsAt(t *testing.T, p *fesd.OCP, x []float64) []float64 {
	t.Helper()
	return evalAt(t, p, p.CLS.Gap, x)
}

// evalAt evaluates the expressions e of the body's positions q at the
// state x = (q, v).
func evalAt(t *testing.T, p *fesd.OCP, e ad.Vec, x []float64) []float64 {
	t.Helper()
	f, err := ad.NewFunction("e", []ad.Arg{ad.A("q", p.CLS.Body.Q...)}, []ad.Arg{ad.A("e", e...)})
	if err != nil {
		t.Fatal(err)
	}
	out := [][]float64{make([]float64, len(e))}
	if err := f.Eval(f.NewWorkspace(), [][]float64{x[:p.CLS.NQ]}, out); err != nil {
		t.Fatal(err)
	}
	return out[0]
}

// terminal checks that the positions q_i(T) (indices idx of x) are within
// terminalTol of the reference: the paper's tasks put the targets in the
// terminal cost with weight 100·Q (no terminal constraint), so a solution
// that performs the task ends close to them, not on them (0.1 is a third
// of the smaller disc's diameter and 5% of a box's side).
func terminal(t *testing.T, r *fesd.OCPResult, ref []float64, idx ...int) {
	t.Helper()
	xT := r.StageX[len(r.StageX)-1]
	for _, i := range idx {
		if d := math.Abs(xT[i] - ref[i]); d > terminalTol {
			t.Errorf("x_%d(T) = %.6f, reference %.6f (off by %.3g > %g)", i, xT[i], ref[i], d, terminalTol)
		}
	}
}

// skipUnlessAcceptance skips the paper-OCP acceptance tests unless
// FESD_PAPER_OCP is set. They state the target of issue 46 and fail today
// (measured from the defaults: the discs end Solved and S-stationary with
// the second disc pushed only part of the way, the boxes Solved and
// W-stationary at u ≡ 0, the boxes at rest, a local minimum of the task
// that misses the targets), so they
// stay out of the CI suite until the homotopy reaches them; run them with
// FESD_PAPER_OCP=1 go test -run OCP ./internal/impactocp. The package
// documentation ("Status") records the settings tried and why they fail.
func skipUnlessAcceptance(t *testing.T) {
	t.Helper()
	if testing.Short() || os.Getenv("FESD_PAPER_OCP") == "" {
		t.Skip("the paper's OCPs from the defaults (set FESD_PAPER_OCP=1; they fail today)")
	}
}

// TestDiscsOCP solves the two-disc manipulation of §5.2 from fesd's
// defaults and checks the solution: Solved with complementarity ≤ 1e-6,
// a stationarity class, the NLP constraints met to 1e-6, no penetration
// of the discs or of the obstacle at the element boundaries, the second
// disc moved by at least one inelastic impact (J_nᵀv⁺ = 0), and both
// discs at their swapped positions at T. The paper reports no objective
// value (only Figs. 7–8).
func TestDiscsOCP(t *testing.T) {
	skipUnlessAcceptance(t)
	p, err := Discs()
	if err != nil {
		t.Fatal(err)
	}
	r := solve(t, p)
	obstacle := p.Path[0].G
	for i, x := range r.Contacts.X {
		for j, g := range evalAt(t, p, obstacle, x) {
			if g < -gapTol {
				t.Errorf("disc %d inside the obstacle at t = %.6f: ‖q‖² − (r_ob + r)² = %.3g", j+1, r.Contacts.T[i], g)
			}
		}
	}
	if len(r.Contacts.Impacts()) == 0 {
		t.Error("no impact: the second disc can only move by contact")
	}
	terminal(t, r, DiscsXRef, 0, 1, 2, 3)
}

// TestBoxesOCP solves the three-box task of §5.3 from fesd's defaults
// and checks the solution: Solved with complementarity ≤ 1e-6, a
// stationarity class, the NLP constraints met to 1e-6, no penetration at
// the element boundaries, an impact of the middle box on each neighbour
// (the paper's solution has exactly these two) obeying its restitution
// (e = 0 left, e = 0.5 right), the boxes on the ground, and the outer
// boxes at their targets at T. The paper reports no objective value (only
// Figs. 9–10).
func TestBoxesOCP(t *testing.T) {
	skipUnlessAcceptance(t)
	p, err := Boxes()
	if err != nil {
		t.Fatal(err)
	}
	r := solve(t, p)
	hit := map[int]bool{}
	for _, ev := range r.Contacts.Impacts() {
		hit[ev.Contact] = true
	}
	if !hit[0] || !hit[1] {
		t.Errorf("impacts on the contacts %v, want the left (0) and the right (1) box", hit)
	}
	for i, x := range r.Contacts.X {
		for _, j := range []int{1, 3, 5} {
			if math.Abs(x[j]-BoxSide/2) > groundTol {
				t.Errorf("box %d off the ground at t = %.6f: height %.9f", j/2+1, r.Contacts.T[i], x[j])
			}
		}
	}
	terminal(t, r, BoxesXRef, 0, 4)
}
