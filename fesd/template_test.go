package fesd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/nlp"
)

// buildBoth compiles the transcription of p with the element template and
// with every element expanded symbolically.
func buildBoth(t *testing.T, p *OCP, opts Options, fixed bool) (tmpl, sym *transcription) {
	t.Helper()
	o, err := opts.resolve()
	if err != nil {
		t.Fatal(err)
	}
	d, err := p.Model.Reformulate(o.DCS)
	if err != nil {
		t.Fatal(err)
	}
	if tmpl, err = newTranscription(p, d, o, fixed); err != nil {
		t.Fatal(err)
	}
	symbolicBuild = true
	defer func() { symbolicBuild = false }()
	if sym, err = newTranscription(p, d, o, fixed); err != nil {
		t.Fatal(err)
	}
	return tmpl, sym
}

// sparse returns the entries of a sparse matrix as a map.
func sparse(rows, cols []int, vals []float64) map[[2]int]float64 {
	m := map[[2]int]float64{}
	for k := range rows {
		m[[2]int{rows[k], cols[k]}] += vals[k]
	}
	return m
}

var tolNLP = 1e-12

// compareNLPs checks that two NLPs have the same dimensions, bounds,
// stage hints, sparsity patterns and values of f, g, ∇f, the Jacobian and
// the Lagrangian Hessian at random points (to 1e-12 relative).
func compareNLPs(t *testing.T, name string, a, b nlp.Problem) {
	t.Helper()
	n, m := a.Dims()
	if n2, m2 := b.Dims(); n != n2 || m != m2 {
		t.Fatalf("%s: dims %d×%d and %d×%d", name, n, m, n2, m2)
	}
	ar, ac := a.JacobianStructure()
	br, bc := b.JacobianStructure()
	hr, hc := a.HessianStructure()
	gr, gc := b.HessianStructure()
	if len(ar) != len(br) || len(hr) != len(gr) {
		t.Errorf("%s: Jacobian %d and %d nonzeros, Hessian %d and %d", name, len(ar), len(br), len(hr), len(gr))
	}
	sa, sb := make([]int, n), make([]int, n)
	ca, cb := make([]int, m), make([]int, m)
	a.(nlp.StageHinter).Stages(sa, ca)
	b.(nlp.StageHinter).Stages(sb, cb)
	for i := range sa {
		if sa[i] != sb[i] {
			t.Fatalf("%s: variable %d has stage %d and %d", name, i, sa[i], sb[i])
		}
	}
	for i := range ca {
		if ca[i] != cb[i] {
			t.Fatalf("%s: constraint %d has stage %d and %d", name, i, ca[i], cb[i])
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	near := func(what string, x, y float64) {
		t.Helper()
		if math.Abs(x-y) > tolNLP*math.Max(1, math.Max(math.Abs(x), math.Abs(y))) {
			t.Errorf("%s: %s %.17g and %.17g", name, what, x, y)
		}
	}
	for trial := 0; trial < 3; trial++ {
		x := make([]float64, n)
		for i := range x {
			x[i] = 0.1 + rng.Float64()
		}
		lam := make([]float64, m)
		for i := range lam {
			lam[i] = rng.NormFloat64()
		}
		fa, _ := a.Objective(x)
		fb, _ := b.Objective(x)
		near("f", fa, fb)
		ga, gb := make([]float64, m), make([]float64, m)
		_ = a.Constraints(x, ga)
		_ = b.Constraints(x, gb)
		for i := range ga {
			near("g", ga[i], gb[i])
		}
		da, db := make([]float64, n), make([]float64, n)
		_ = a.Gradient(x, da)
		_ = b.Gradient(x, db)
		for i := range da {
			near("∇f", da[i], db[i])
		}
		ja, jb := make([]float64, len(ar)), make([]float64, len(br))
		_ = a.JacobianValues(x, ja)
		_ = b.JacobianValues(x, jb)
		ma, mb := sparse(ar, ac, ja), sparse(br, bc, jb)
		for k, v := range ma {
			near("J", v, mb[k])
		}
		for k, v := range mb {
			if _, ok := ma[k]; !ok {
				t.Errorf("%s: J%v = %g only in the symbolic build", name, k, v)
			}
		}
		ha, hb := make([]float64, len(hr)), make([]float64, len(gr))
		_ = a.HessianValues(x, 0.7, lam, ha)
		_ = b.HessianValues(x, 0.7, lam, hb)
		Ha, Hb := sparse(hr, hc, ha), sparse(gr, gc, hb)
		for k, v := range Ha {
			near("H", v, Hb[k])
		}
		for k, v := range Hb {
			if _, ok := Ha[k]; !ok {
				t.Errorf("%s: H%v = %g only in the symbolic build", name, k, v)
			}
		}
	}
}

// turboTimeOptimal is the time-optimal turbo car of nosnoc's OCP tutorial
// on 4 stages of 3 elements with a small running cost on the control.
func turboTimeOptimal() *OCP {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	u := g.SymVec("u", 1)
	m := dcs.NewModel(g, x, u, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{x[1].AddConst(-10)},
		S:   [][]int{{-1}, {1}},
		F:   []ad.Vec{{x[1], u[0]}, {x[1], u[0].Scale(3)}},
	})
	return &OCP{
		Model: m, X0: []float64{0, 0}, N: 4, T: 10, NFE: []int{3},
		TimeOptimal: true, UL: []float64{-5}, UU: []float64{5},
		Lagrange: ad.Sq(u[0]).Scale(0.01),
		Terminal: []Constraint{{G: ad.Vec{x[0].AddConst(-200), x[1]}}},
	}
}

// TestTemplateBuildIsSymbolicBuild: the compiled element template gives
// the NLP of the symbolic expansion — same variables, constraints, bounds,
// stage hints, sparsity and values — for a time-optimal OCP with a
// control (Step), a time-dependent simulation step (Stewart,
// Gauss–Legendre with boundary points), the differential representation
// and time-stepping without FESD.
func TestTemplateBuildIsSymbolicBuild(t *testing.T) {
	turbo := turboTimeOptimal()
	cases := []struct {
		name  string
		p     *OCP
		opts  Options
		fixed bool
	}{
		{"turbo step", turbo, Options{DCS: dcs.Options{Formulation: dcs.Step}}, false},
		{"turbo stewart differential", turbo, Options{Representation: Differential}, false},
		{"turbo no FESD", turbo, Options{DisableFESD: true}, false},
	}
	for _, c := range tutorialCases() {
		cases = append(cases, struct {
			name  string
			p     *OCP
			opts  Options
			fixed bool
		}{c.name, &OCP{Model: c.model(), X0: []float64{c.x0}, N: 1, T: 0.5, P: nil}, Options{NFE: 3, Scheme: 1, DCS: dcs.Options{Formulation: dcs.Stewart}}, true})
	}
	for _, c := range cases {
		a, b := buildBoth(t, c.p, c.opts, c.fixed)
		compareNLPs(t, c.name, a.prob, b.prob)
	}
}
