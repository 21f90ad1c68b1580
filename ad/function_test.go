package ad

import (
	"errors"
	"math"
	"sync"
	"testing"
)

// testModel returns a small nonsmooth model ẋ = f(x, u) with a Derivatives
// bundle (Jacobian w.r.t. x and u, Lagrangian Hessian).
func testModel(t testing.TB) (*Graph, Vec, Vec, Vec, *Derivatives) {
	g := NewGraph()
	x := g.SymVec("x", 3)
	u := g.SymVec("u", 1)
	f := Vec{
		x[1],
		Sin(x[0]).Neg().Add(u[0]).Sub(x[1].Mul(Abs(x[1]))),
		Exp(x[2].Scale(-0.5)).Mul(Sq(x[0])).Add(Max(x[1], g.Const(0))),
	}
	d, err := NewDerivatives("model", []Arg{A("x", x...), A("u", u...)}, []Arg{A("f", f...)})
	if err != nil {
		t.Fatal(err)
	}
	return g, x, u, f, d
}

// TestZeroAllocs: Eval of a function, its Jacobian and its Lagrangian
// Hessian, and EvalScatter, allocate nothing (testing.AllocsPerRun = 0).
func TestZeroAllocs(t *testing.T) {
	_, _, _, _, d := testModel(t)
	x, u, lam := []float64{0.1, 0.2, 0.3}, []float64{1}, []float64{1, 2, 3}
	fo := make([]float64, 3)
	jo := make([]float64, d.JacPattern.NNZ())
	ho := make([]float64, d.HessPattern.NNZ())
	ws := NewWorkspace()
	in := [][]float64{x, u}
	hin := [][]float64{x, u, lam}
	fout, jout, hout := [][]float64{fo}, [][]float64{jo}, [][]float64{ho}
	for name, fn := range map[string]func(){
		"F":    func() { _ = d.F.Eval(ws, in, fout) },
		"Jac":  func() { _ = d.Jac.Eval(ws, in, jout) },
		"Hess": func() { _ = d.Hess.Eval(ws, hin, hout) },
		"all three, shared workspace": func() {
			_ = d.F.Eval(ws, in, fout)
			_ = d.Jac.Eval(ws, in, jout)
			_ = d.Hess.Eval(ws, hin, hout)
		},
	} {
		fn() // first call sizes the workspace
		if a := testing.AllocsPerRun(100, fn); a != 0 {
			t.Errorf("%s: %v allocations per call", name, a)
		}
	}
	// Inline argument literals must not allocate either.
	ws2 := d.F.NewWorkspace()
	if a := testing.AllocsPerRun(100, func() { _ = d.F.Eval(ws2, [][]float64{x, u}, [][]float64{fo}) }); a != 0 {
		t.Errorf("inline args: %v allocations per call", a)
	}
	// Scatter: 50 instances into a 50·nnz value array, reversed order.
	const K = 50
	nnz := d.JacPattern.NNZ()
	dst := make([][]int, K)
	args := make([][][]float64, K)
	for k := range dst {
		dst[k] = make([]int, nnz)
		for i := range dst[k] {
			dst[k][i] = (K-1-k)*nnz + i
		}
		args[k] = [][]float64{{float64(k), 0.2, 0.3}, {1}}
	}
	sc, err := NewScatter(nnz, dst)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]float64, K*nnz)
	ws3 := NewWorkspace()
	if err := d.Jac.EvalScatter(ws3, sc, args, vals); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(100, func() { _ = d.Jac.EvalScatter(ws3, sc, args, vals) }); a != 0 {
		t.Errorf("EvalScatter: %v allocations per call", a)
	}
	// Values of the scatter equal individual evaluations.
	clear(vals)
	if err := d.Jac.EvalScatter(ws3, sc, args, vals); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < K; k++ {
		if err := d.Jac.Eval(ws, args[k], [][]float64{jo}); err != nil {
			t.Fatal(err)
		}
		for i := range jo {
			if got := vals[(K-1-k)*nnz+i]; got != jo[i] {
				t.Fatalf("instance %d entry %d: scattered %v, direct %v", k, i, got, jo[i])
			}
		}
	}
}

// TestDerivativesBundle checks the compiled Jacobian and Lagrangian Hessian
// values against dense symbolic ones (1e-14) and the patterns.
func TestDerivativesBundle(t *testing.T) {
	_, xs, us, f, d := testModel(t)
	vars := Concat(xs, us)
	J, _ := Jacobian(f, vars)
	fJ := mustFunc(t, vars, A("J", J.E...))
	x := []float64{0.4, -0.3, 0.2, 0.7}
	dense := eval1(t, fJ, x)[0]
	jo := make([]float64, d.JacPattern.NNZ())
	if err := d.Jac.Eval(NewWorkspace(), [][]float64{x[:3], x[3:]}, [][]float64{jo}); err != nil {
		t.Fatal(err)
	}
	rows, cols := d.JacPattern.Coords()
	seen := map[[2]int]bool{}
	for k := range jo {
		seen[[2]int{rows[k], cols[k]}] = true
		if !closeTo(jo[k], dense[rows[k]*4+cols[k]], 1e-14) {
			t.Errorf("J[%d][%d]: sparse %v dense %v", rows[k], cols[k], jo[k], dense[rows[k]*4+cols[k]])
		}
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			if !seen[[2]int{i, j}] && dense[i*4+j] != 0 {
				t.Errorf("J[%d][%d] = %v missing from pattern", i, j, dense[i*4+j])
			}
		}
	}
	// Reference pattern by hand: f0 = x1; f1 = −sin x0 + u − x1|x1|;
	// f2 = exp(−x2/2)x0² + max(x1, 0).
	wantJ := "" +
		".*..\n" +
		"**.*\n" +
		"***.\n"
	if s := d.JacPattern.String(); s != wantJ {
		t.Errorf("Jacobian pattern\n%s want\n%s", s, wantJ)
	}
	// Lagrangian Hessian lower triangle: λ1·(sin x0 at (0,0); x1|x1| at (1,1))
	// + λ2·(exp·x0²: (0,0), (2,0), (2,2)); u enters linearly.
	wantH := "" +
		"*...\n" +
		".*..\n" +
		"*.*.\n" +
		"....\n"
	if s := d.HessPattern.String(); s != wantH {
		t.Errorf("Hessian pattern\n%s want\n%s", s, wantH)
	}
	lam := []float64{1.5, -2, 0.5}
	ho := make([]float64, d.HessPattern.NNZ())
	if err := d.Hess.Eval(NewWorkspace(), [][]float64{x[:3], x[3:], lam}, [][]float64{ho}); err != nil {
		t.Fatal(err)
	}
	// Closed form: H00 = λ1 sin x0 + λ2·2e^{−x2/2}; H11 = −2λ1 sign(x1);
	// H20 = −λ2 x0 e^{−x2/2}; H22 = λ2 x0² e^{−x2/2}/4.
	e := math.Exp(-x[2] / 2)
	want := []float64{lam[1]*math.Sin(x[0]) + lam[2]*2*e, lam[2] * -x[0] * e, -2 * lam[1] * -1, lam[2] * x[0] * x[0] * e / 4}
	for k := range want {
		if !closeTo(ho[k], want[k], 1e-14) {
			t.Errorf("Hessian value %d = %v, want %v", k, ho[k], want[k])
		}
	}
}

// TestDeterministic: building the same graph twice gives the same tape, and
// repeated evaluations are bit-identical.
func TestDeterministic(t *testing.T) {
	_, _, _, _, d1 := testModel(t)
	_, _, _, _, d2 := testModel(t)
	for _, p := range [][2]*Function{{d1.F, d2.F}, {d1.Jac, d2.Jac}, {d1.Hess, d2.Hess}} {
		a, b := p[0], p[1]
		if len(a.tape) != len(b.tape) || a.nwork != b.nwork {
			t.Fatalf("%s: tapes differ in size", a.name)
		}
		for i := range a.tape {
			if a.tape[i] != b.tape[i] {
				t.Fatalf("%s: instruction %d differs", a.name, i)
			}
		}
	}
	in := [][]float64{{0.4, -0.3, 0.2}, {0.7}, {1, 2, 3}}
	h1 := make([]float64, d1.HessPattern.NNZ())
	h2 := make([]float64, d2.HessPattern.NNZ())
	ws := NewWorkspace()
	_ = d1.Hess.Eval(ws, in, [][]float64{h1})
	for rep := 0; rep < 3; rep++ {
		_ = d1.F.Eval(ws, in[:2], [][]float64{make([]float64, 3)}) // rebinding in between
		_ = d2.Hess.Eval(ws, in, [][]float64{h2})
		for i := range h1 {
			if math.Float64bits(h1[i]) != math.Float64bits(h2[i]) {
				t.Fatalf("rerun %d: value %d differs: %v vs %v", rep, i, h1[i], h2[i])
			}
		}
	}
}

// TestConcurrentEval runs one Function from several goroutines with separate
// workspaces (run with -race) and compares with serial results.
func TestConcurrentEval(t *testing.T) {
	_, _, _, _, d := testModel(t)
	const G, N = 4, 200
	want := make([][]float64, N)
	ws := NewWorkspace()
	for k := range want {
		want[k] = make([]float64, d.JacPattern.NNZ())
		_ = d.Jac.Eval(ws, [][]float64{{float64(k) / N, 0.1, -0.2}, {0.3}}, [][]float64{want[k]})
	}
	var wg sync.WaitGroup
	errs := make(chan error, G)
	for gi := 0; gi < G; gi++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := d.Jac.NewWorkspace()
			out := make([]float64, d.JacPattern.NNZ())
			for k := 0; k < N; k++ {
				_ = d.Jac.Eval(ws, [][]float64{{float64(k) / N, 0.1, -0.2}, {0.3}}, [][]float64{out})
				for i := range out {
					if out[i] != want[k][i] {
						errs <- errors.New("concurrent result differs")
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestErrors: every user mistake returns an error matching its sentinel.
func TestErrors(t *testing.T) {
	g := NewGraph()
	x := g.SymVec("x", 2)
	y := g.Sym("y")
	h := NewGraph()
	z := h.Sym("z")
	f, err := NewFunction("f", []Arg{A("x", x...)}, []Arg{A("out", Sin(x[0]).Mul(x[1]), x[0].Div(x[1]))})
	if err != nil {
		t.Fatal(err)
	}
	ws := f.NewWorkspace()
	mixed := x[0].Add(z)
	_, errMix := NewFunction("m", []Arg{A("x", x...)}, []Arg{A("out", mixed)})
	_, errForeignIn := NewFunction("m", []Arg{A("x", x...)}, []Arg{A("out", z)})
	_, errFree := NewFunction("free", []Arg{A("x", x...)}, []Arg{A("out", x[0].Mul(y))})
	_, errNotSym := NewFunction("ns", []Arg{A("x", x[0].Mul(x[1]))}, []Arg{A("out", x[0])})
	_, errDup := NewFunction("dup", []Arg{A("x", x...), A("x2", x[0])}, []Arg{A("out", x[0])})
	_, errName := NewFunction("dupname", []Arg{A("x", x[0]), A("x", x[1])}, []Arg{A("out", x[0])})
	_, errGradMix := Gradient(x[0], Vec{z})
	_, errGradNotSym := Gradient(x[0], Vec{x[0].Add(x[1])})
	_, errDot := Dot(x, Vec{y})
	_, errMV := MatVec(g.Eye(3), x)
	_, errSolve := Solve(g.ZeroMat(2, 2), x)
	_, errJVP := JVP(Vec{x[0]}, x, Vec{y})
	_, errScatter := NewScatter(3, [][]int{{1, 2}})
	sc, _ := NewScatter(2, [][]int{{0, 5}})
	errScatterDst := f.EvalScatter(ws, sc, [][][]float64{{{1, 2}}}, make([]float64, 3))
	sc2, _ := NewScatter(3, [][]int{{0, 1, 2}})
	errScatterPer := f.EvalScatter(ws, sc2, [][][]float64{{{1, 2}}}, make([]float64, 3))
	out := make([]float64, 2)
	errNIn := f.Eval(ws, [][]float64{{1, 2}, {3}}, [][]float64{out})
	errLenIn := f.Eval(ws, [][]float64{{1}}, [][]float64{out})
	errLenOut := f.Eval(ws, [][]float64{{1, 2}}, [][]float64{make([]float64, 3)})
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"mixed graphs", errMix, ErrForeignGraph},
		{"output from other graph", errForeignIn, ErrForeignGraph},
		{"free symbol", errFree, ErrFreeSymbol},
		{"input not a symbol", errNotSym, ErrNotSymbol},
		{"duplicate input symbol", errDup, ErrDuplicateSymbol},
		{"duplicate name", errName, ErrBadName},
		{"gradient w.r.t. foreign symbol", errGradMix, ErrForeignGraph},
		{"gradient w.r.t. non-symbol", errGradNotSym, ErrNotSymbol},
		{"dot dims", errDot, ErrDimension},
		{"matvec dims", errMV, ErrDimension},
		{"structurally singular", errSolve, ErrSingular},
		{"jvp dims", errJVP, ErrDimension},
		{"scatter lengths", errScatter, ErrScatter},
		{"scatter destination", errScatterDst, ErrScatter},
		{"scatter per-instance", errScatterPer, ErrScatter},
		{"number of inputs", errNIn, ErrDimension},
		{"input length", errLenIn, ErrDimension},
		{"output length", errLenOut, ErrDimension},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, c.err, c.want)
		}
	}
	if g.Err() == nil || !errors.Is(g.Err(), ErrForeignGraph) {
		t.Errorf("graph did not record the mixing error: %v", g.Err())
	}
	// Non-finite output, reported by name and index when asked.
	if err := f.Eval(ws, [][]float64{{1, 0}}, [][]float64{out}); err != nil {
		t.Errorf("unchecked Eval returned %v", err)
	}
	ws.CheckFinite = true
	err = f.Eval(ws, [][]float64{{1, 0}}, [][]float64{out})
	var nf ErrNonFinite
	if !errors.As(err, &nf) || nf.Output != "out" || nf.Index != 1 || !math.IsInf(nf.Value, 1) {
		t.Errorf("non-finite: got %v (%+v)", err, nf)
	}
}

// TestScatterNonFinite: EvalScatter reports the output, index and instance
// of a non-finite value when asked.
func TestScatterNonFinite(t *testing.T) {
	g := NewGraph()
	x := g.SymVec("x", 2)
	f, err := NewFunction("f", []Arg{A("x", x...)}, []Arg{A("a", x[0]), A("b", x[0], g.Const(1).Div(x[1]))})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := NewScatter(3, [][]int{{0, 1, 2}, {3, 4, -1}})
	if err != nil {
		t.Fatal(err)
	}
	ws := NewWorkspace()
	ws.CheckFinite = true
	vals := make([]float64, 5)
	err = f.EvalScatter(ws, sc, [][][]float64{{{1, 2}}, {{3, 0}}}, vals)
	var nf ErrNonFinite
	if !errors.As(err, &nf) || nf.Output != "b" || nf.Index != 1 || nf.Instance != 1 {
		t.Errorf("got %v (%+v), want output b index 1 instance 1", err, nf)
	}
	// First instance written: 1, 1, 0.5 (the dropped element is not written).
	if vals[0] != 1 || vals[1] != 1 || vals[2] != 0.5 || vals[3] != 3 || vals[4] != 3 {
		t.Errorf("vals = %v", vals)
	}
}
