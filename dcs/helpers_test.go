package dcs_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

var formulations = []dcs.Formulation{dcs.Stewart, dcs.Step}

// reformulate fails the test on error.
func reformulate(t *testing.T, m *dcs.Model, opt dcs.Options) *dcs.DCS {
	t.Helper()
	d, err := m.Reformulate(opt)
	if err != nil {
		t.Fatalf("Reformulate(%+v): %v", opt, err)
	}
	return d
}

// put writes vals into the block (kind, sub) of z.
func put(t *testing.T, d *dcs.DCS, z []float64, kind dcs.VarKind, sub int, vals ...float64) {
	t.Helper()
	bl, ok := d.ZBlock(kind, sub)
	if !ok {
		t.Fatalf("no %v block for subsystem %d", kind, sub)
	}
	if bl.Len != len(vals) {
		t.Fatalf("%v block of subsystem %d has %d entries, got %d values", kind, sub, bl.Len, len(vals))
	}
	copy(z[bl.Start:], vals)
}

// get returns the block (kind, sub) of z.
func get(t *testing.T, d *dcs.DCS, z []float64, kind dcs.VarKind, sub int) []float64 {
	t.Helper()
	bl, ok := d.ZBlock(kind, sub)
	if !ok {
		t.Fatalf("no %v block for subsystem %d", kind, sub)
	}
	return z[bl.Start : bl.Start+bl.Len]
}

func residuals(t *testing.T, d *dcs.DCS, x, u, p, z []float64) dcs.Residuals {
	t.Helper()
	r, err := d.Residuals(x, u, p, z)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func evalF(t *testing.T, d *dcs.DCS, x, u, p, z []float64, tm float64) []float64 {
	t.Helper()
	f, err := d.EvalF(x, u, p, z, tm)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func maxDiff(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	m := 0.0
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// exprFunc compiles outputs as a function of one input vector.
func exprFunc(t *testing.T, in ad.Vec, out ad.Vec) func([]float64) []float64 {
	t.Helper()
	f, err := ad.NewFunction("test", []ad.Arg{ad.A("in", in...)}, []ad.Arg{ad.A("out", out...)})
	if err != nil {
		t.Fatal(err)
	}
	ws := f.NewWorkspace()
	return func(v []float64) []float64 {
		o := make([]float64, len(out))
		if err := f.Eval(ws, [][]float64{v}, [][]float64{o}); err != nil {
			t.Fatal(err)
		}
		return o
	}
}
