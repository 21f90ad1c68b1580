package convergence

import (
	"bytes"
	"context"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fesd-go/fesd/rk"
)

type sample struct {
	Point
	Outcome
}

func pt(h, hmax float64, e *float64) sample {
	return sample{Point: Point{H: h, HMax: hmax, Error: e}}
}

// TestFit: on errors e = C·h_max^p exactly the fit over h_max returns p
// (to 1e-12, round-off of the logarithms) whatever the nominal h̄; points
// at or below the floor, failed points and points without h_max (files
// written before it was recorded: h̄ is used) are handled as the package
// documentation defines.
func TestFit(t *testing.T) {
	e := func(v float64) *float64 { return &v }
	const p = 5.0
	pts := []sample{
		pt(10, 19, e(3*math.Pow(19, p))),
		pt(5, 7, e(3*math.Pow(7, p))),
		pt(2.5, 3, e(3*math.Pow(3, p))),
		pt(1, 1.2, nil),                        // failed: skipped
		pt(0.5, 0.6, e(3*math.Pow(0.6, p))),    // at the floor: skipped
		pt(0.25, 0.3, e(3*math.Pow(0.3, p)/2)), // below: skipped
		pt(0.125, 0.15, e(math.NaN())),         // not above the floor: skipped
		pt(0, 0, e(1)),                         // no h: skipped
	}
	floor := 3 * math.Pow(0.6, p)
	s, n := Fit(pts, floor, Longest)
	if s == nil || n != 3 || math.Abs(*s-p) > 1e-12 {
		t.Fatalf("h_max fit: slope %v on %d points, want %v on 3", s, n, p)
	}
	// Over h̄ = 10, 5, 2.5 the same errors give another slope:
	// log(19⁵/3⁵)/log(4) = 6.66 (closed form).
	sn, nn := Fit(pts, floor, Nominal)
	if want := p * math.Log(19.0/3) / math.Log(4); sn == nil || nn != 3 || math.Abs(*sn-want) > 1e-12 {
		t.Errorf("nominal fit %v on %d points, want %.4f on 3", sn, nn, want)
	}
	old := []sample{pt(2, 0, e(8)), pt(1, 0, e(1))}
	if s, _ := Fit(old, 0, Longest); s == nil || math.Abs(*s-3) > 1e-12 {
		t.Errorf("points without h_max: slope %v, want 3 (over h̄)", s)
	}
	if s, n := Fit(old[:1], 0, Longest); s != nil || n != 1 {
		t.Errorf("one point: slope %v, n %d; want nil, 1", s, n)
	}
	same := []sample{pt(1, 1, e(1)), pt(1, 1, e(2))}
	if s, n := Fit(same, 0, Longest); s != nil || n != 2 {
		t.Errorf("equal h: slope %v, n %d; want nil, 2", s, n)
	}
}

// TestPool: every job runs once and its result lands at its index, for
// any number of workers; with one worker the costliest job starts first;
// a progress line names the last job; a cancelled context stops the pool
// with its error.
func TestPool(t *testing.T) {
	jobs := []int{3, 1, 4, 1, 5, 9, 2, 6}
	for _, workers := range []int{0, 1, 3, 20} {
		var calls atomic.Int32
		p := Pool[int, int]{Workers: workers, Cost: func(j int) int { return j }}
		res, _, err := p.Run(context.Background(), jobs, func(_ context.Context, j int) int { calls.Add(1); return 10 * j })
		if err != nil || int(calls.Load()) != len(jobs) || len(res) != len(jobs) {
			t.Fatalf("%d workers: %v, %d calls, %d results", workers, err, calls.Load(), len(res))
		}
		for i, j := range jobs {
			if res[i] != 10*j {
				t.Errorf("%d workers: result %d = %d, want %d", workers, i, res[i], 10*j)
			}
		}
	}
	var started []int
	var buf bytes.Buffer
	p := Pool[int, int]{Workers: 1, Cost: func(j int) int { return j }, Progress: &buf, Label: func(j, r int) string { return "job " + string(rune('0'+j)) }}
	if _, _, err := p.Run(context.Background(), jobs, func(_ context.Context, j int) int { started = append(started, j); return j }); err != nil {
		t.Fatal(err)
	}
	if want := []int{9, 6, 5, 4, 3, 2, 1, 1}; !equalInts(started, want) {
		t.Errorf("one worker ran %v, want %v (costliest first)", started, want)
	}
	if out := buf.String(); !strings.Contains(out, "[  8/  8]") || !strings.Contains(out, "last: job 1") || !strings.HasSuffix(out, "\n") {
		t.Errorf("progress %q", out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, _, err := (Pool[int, int]{Workers: 2}).Run(ctx, jobs, func(_ context.Context, j int) int { return j }); err == nil || res != nil {
		t.Errorf("cancelled: %v, %v", res, err)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGroup: cases of the same scheme, n_s and FESD form one curve, in the
// order of first appearance, with the scheme's order (rk: Radau IIA n_s = 2
// has order 3, Gauss–Legendre n_s = 1 order 2).
func TestGroup(t *testing.T) {
	cases := Grid([]rk.Family{rk.FamilyRadauIIA, rk.FamilyGaussLegendre}, []int{2, 1}, []bool{true, false}, []int{4, 8})
	if len(cases) != 16 || cases[0] != (Case{rk.FamilyRadauIIA, 2, true, 4}) || cases[15] != (Case{rk.FamilyGaussLegendre, 1, false, 8}) {
		t.Fatalf("grid %v", cases)
	}
	if err := Check(cases); err != nil {
		t.Fatal(err)
	}
	rev := append([]Case(nil), cases...)
	rev[0], rev[15] = rev[15], rev[0]
	curves, points := Group(rev, make([]int, len(rev)))
	if len(curves) != 8 || curves[0] != (Curve{"gauss_legendre", 1, 2, false}) || curves[1] != (Curve{"radau_iia", 2, 3, true}) {
		t.Errorf("curves %v", curves)
	}
	for i, p := range points {
		if len(p) != 2 {
			t.Errorf("curve %v: %d points, want 2", curves[i], len(p))
		}
	}
	if err := Check([]Case{{Family: rk.FamilyRadauIIA, Stages: 0}}); err == nil {
		t.Error("no error for n_s = 0")
	}
}

// TestWriteTable: missing points are blank, failed ones FAILED and listed
// with their status, a nil slope "-".
func TestWriteTable(t *testing.T) {
	e := 1e-3
	rows := []Row[sample]{
		{Curve: Curve{"radau_iia", 1, 1, true}, Method: "FESD", Slopes: []*float64{nil, &e}, FitPoints: 1, Points: []sample{
			{Point{NSim: 2, Error: &e}, Outcome{Status: "ok"}},
			{Point{NSim: 4}, Outcome{Status: "step 0/4: NLPFailure"}},
		}},
		{Curve: Curve{"radau_iia", 1, 1, false}, Method: "standard", Slopes: []*float64{nil, nil}, Points: []sample{
			{Point{NSim: 1, Error: &e}, Outcome{Status: "ok"}},
		}},
	}
	var b bytes.Buffer
	WriteTable(&b, []string{"slope", "(h̄)"}, rows)
	want := `scheme           ns order method    slope   (h̄)  fit       N=1       N=2       N=4
radau_iia         1     1 FESD          -   0.00    1            1.00e-03    FAILED
radau_iia         1     1 standard      -      -    0  1.00e-03                    
1 failed simulations
  radau_iia n_s=1 FESD N_sim=4: step 0/4: NLPFailure
`
	if b.String() != want {
		t.Errorf("table\n%s\nwant\n%s", b.String(), want)
	}
}
