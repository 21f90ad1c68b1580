package ad

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

// Monopod (two-link hopping robot) free-flight dynamics; parameters and
// kinematics from nosnoc's
// examples/time_freezing/time_freezing_monoped_ocp/robot_model_files/
// (robot_model_parameters.m, robot_model_kinematics.m); the Lagrangian and
// the closed forms of M(q) and h(q, v) are those listed in the package doc
// of internal/monopod.
const (
	mpHip, mpThigh, mpShank = 3.975, 1.782, 0.548
	mpLThigh, mpLShank      = 0.2, 0.2
	mpSThigh, mpSShank      = 0.016, 0.1
	mpIThigh, mpIShank      = 0.001, 0.0032
	mpG                     = 9.81
)

type monopod struct {
	g       *Graph
	q, v, u Vec
	M       Mat
	h       Vec
	qdot    Vec // q̇ = v
	vdot    Vec // v̇ = M⁻¹(h + Bu)
}

// buildMonopod derives M(q) = ∂²T/∂v² and h = ∂L/∂q − (∂²L/∂v∂q)v from the
// Lagrangian L = T − V with ad, and v̇ = M⁻¹(h + Bu) with SolveSym.
func buildMonopod() (*monopod, error) {
	g := NewGraph()
	q, v, u := g.SymVec("q", 4), g.SymVec("v", 4), g.SymVec("u", 2)
	sh, ch := Sin(q[2]), Cos(q[2])
	shk, chk := Sin(q[2].Add(q[3])), Cos(q[2].Add(q[3]))
	// Positions of the three centres of mass (robot_model_kinematics.m).
	pHip := Vec{q[0], q[1]}
	pThigh := Vec{q[0].Sub(sh.Scale(mpSThigh)), q[1].Sub(ch.Scale(mpSThigh))}
	pShank := Vec{
		q[0].Sub(sh.Scale(mpLThigh)).Sub(shk.Scale(mpSShank)),
		q[1].Sub(ch.Scale(mpLThigh)).Sub(chk.Scale(mpSShank)),
	}
	// T = Σ ½m|ṗ|² + ½I_thigh ω_h² + ½I_shank (ω_h+ω_k)², ṗ = (∂p/∂q) v.
	T := g.Const(0)
	for _, b := range []struct {
		m float64
		p Vec
	}{{mpHip, pHip}, {mpThigh, pThigh}, {mpShank, pShank}} {
		pd, err := JVP(b.p, q, v)
		if err != nil {
			return nil, err
		}
		T = T.Add(Sq(pd[0]).Add(Sq(pd[1])).Scale(b.m / 2))
	}
	T = T.Add(Sq(v[2]).Scale(mpIThigh / 2)).Add(Sq(v[2].Add(v[3])).Scale(mpIShank / 2))
	V := q[1].Scale(mpHip).Add(pThigh[1].Scale(mpThigh)).Add(pShank[1].Scale(mpShank)).Scale(mpG)
	L := T.Sub(V)
	M, err := Hessian(T, v)
	if err != nil {
		return nil, err
	}
	dLdq, err := Gradient(L, q)
	if err != nil {
		return nil, err
	}
	dLdv, err := Gradient(L, v)
	if err != nil {
		return nil, err
	}
	cv, err := JVP(dLdv, q, v) // (∂²L/∂v∂q) v
	if err != nil {
		return nil, err
	}
	h, err := dLdq.Sub(cv)
	if err != nil {
		return nil, err
	}
	fv, err := h.Add(Vec{g.Const(0), g.Const(0), u[0], u[1]})
	if err != nil {
		return nil, err
	}
	vdot, err := SolveSym(M, fv)
	if err != nil {
		return nil, err
	}
	return &monopod{g: g, q: q, v: v, u: u, M: M, h: h, qdot: v, vdot: vdot}, nil
}

func (m *monopod) derivatives() (*Derivatives, error) {
	return NewDerivatives("monopod", []Arg{A_("q", m.q), A_("v", m.v), A_("u", m.u)},
		[]Arg{A_("xdot", Concat(m.qdot, m.vdot))})
}

// Hand-written reference (the closed forms of internal/monopod's package
// doc): constants and closed forms.
const (
	mpA  = mpShank*mpLThigh + mpThigh*mpSThigh // 0.138112
	mpB  = mpShank * mpSShank                  // 0.0548
	mpC0 = mpIShank + mpIThigh + mpShank*mpLThigh*mpLThigh + mpShank*mpSShank*mpSShank + mpThigh*mpSThigh*mpSThigh
	mpC1 = 2 * mpShank * mpLThigh * mpSShank    // 0.02192
	mpD0 = mpIShank + mpShank*mpSShank*mpSShank // 0.00868
	mpD1 = mpShank * mpLThigh * mpSShank        // 0.01096
	mpMt = mpHip + mpThigh + mpShank            // 6.305
)

// handMh writes M (row-major 4×4) and h from those closed forms.
func handMh(M *[16]float64, h *[4]float64, q, v []float64) {
	sh, ch := math.Sincos(q[2])
	shk, chk := math.Sincos(q[2] + q[3])
	sk, ck := math.Sincos(q[3])
	wh, wk := v[2], v[3]
	W := wh + wk
	m13 := -mpA*ch - mpB*chk
	m14 := -mpB * chk
	m23 := mpA*sh + mpB*shk
	m24 := mpB * shk
	m33 := mpC0 + mpC1*ck
	m34 := mpD0 + mpD1*ck
	*M = [16]float64{
		mpMt, 0, m13, m14,
		0, mpMt, m23, m24,
		m13, m23, m33, m34,
		m14, m24, m34, mpD0,
	}
	h[0] = -mpA*wh*wh*sh - mpB*W*W*shk
	h[1] = -mpA*wh*wh*ch - mpB*W*W*chk - mpMt*mpG
	h[2] = mpD1*wk*(2*wh+wk)*sk - mpG*mpA*sh - mpG*mpB*shk
	h[3] = -mpD1*wh*wh*sk - mpG*mpB*shk
}

// ldl4 factors a symmetric positive definite 4×4 matrix in place (L below
// the diagonal, D on it) and solves for nrhs right-hand sides stored
// column-wise in b (b[r*4+i]).
func ldl4(M *[16]float64, b []float64, nrhs int) {
	for j := 0; j < 4; j++ {
		d := M[j*4+j]
		for k := 0; k < j; k++ {
			d -= M[j*4+k] * M[j*4+k] * M[k*4+k]
		}
		M[j*4+j] = d
		for i := j + 1; i < 4; i++ {
			s := M[i*4+j]
			for k := 0; k < j; k++ {
				s -= M[i*4+k] * M[j*4+k] * M[k*4+k]
			}
			M[i*4+j] = s / d
		}
	}
	for r := 0; r < nrhs; r++ {
		x := b[r*4 : r*4+4]
		for i := 1; i < 4; i++ {
			for k := 0; k < i; k++ {
				x[i] -= M[i*4+k] * x[k]
			}
		}
		for i := 0; i < 4; i++ {
			x[i] /= M[i*4+i]
		}
		for i := 2; i >= 0; i-- {
			for k := i + 1; k < 4; k++ {
				x[i] -= M[k*4+i] * x[k]
			}
		}
	}
}

// handDynamics writes ẋ = (v, M⁻¹(h + Bu)).
func handDynamics(xdot, q, v, u []float64) {
	var M [16]float64
	var h [4]float64
	handMh(&M, &h, q, v)
	h[2] += u[0]
	h[3] += u[1]
	ldl4(&M, h[:], 1)
	copy(xdot[:4], v)
	copy(xdot[4:], h[:])
}

// handJacobian writes the dense 8×10 Jacobian ∂ẋ/∂(q, v, u) (row-major),
// using ∂v̇/∂z = M⁻¹(∂f/∂z − (∂M/∂z) v̇) with hand-derived partials of the
// closed forms.
func handJacobian(J *[80]float64, q, v, u []float64) {
	var M [16]float64
	var h [4]float64
	handMh(&M, &h, q, v)
	sh, ch := math.Sincos(q[2])
	shk, chk := math.Sincos(q[2] + q[3])
	sk, ck := math.Sincos(q[3])
	wh, wk := v[2], v[3]
	W := wh + wk
	// Right-hand sides: column 0 is f = h + Bu, then ∂/∂(φh, φk, ωh, ωk, uh, uk).
	var b [28]float64
	b[0], b[1], b[2], b[3] = h[0], h[1], h[2]+u[0], h[3]+u[1]
	// ∂f/∂φh
	b[4] = -mpA*wh*wh*ch - mpB*W*W*chk
	b[5] = mpA*wh*wh*sh + mpB*W*W*shk
	b[6] = -mpG*mpA*ch - mpG*mpB*chk
	b[7] = -mpG * mpB * chk
	// ∂f/∂φk
	b[8] = -mpB * W * W * chk
	b[9] = mpB * W * W * shk
	b[10] = mpD1*wk*(2*wh+wk)*ck - mpG*mpB*chk
	b[11] = -mpD1*wh*wh*ck - mpG*mpB*chk
	// ∂f/∂ωh
	b[12] = -2*mpA*wh*sh - 2*mpB*W*shk
	b[13] = -2*mpA*wh*ch - 2*mpB*W*chk
	b[14] = 2 * mpD1 * wk * sk
	b[15] = -2 * mpD1 * wh * sk
	// ∂f/∂ωk
	b[16] = -2 * mpB * W * shk
	b[17] = -2 * mpB * W * chk
	b[18] = mpD1 * (2*wh + 2*wk) * sk
	b[19] = 0
	// ∂f/∂u
	b[22], b[27] = 1, 1
	Mc := M
	ldl4(&Mc, b[:4], 1) // v̇
	a := b[:4]
	// (∂M/∂φh) v̇ and (∂M/∂φk) v̇ with the partials of the closed-form entries.
	dm13h, dm14h, dm23h, dm24h := mpA*sh+mpB*shk, mpB*shk, mpA*ch+mpB*chk, mpB*chk
	dm13k, dm14k, dm23k, dm24k := mpB*shk, mpB*shk, mpB*chk, mpB*chk
	dm33k, dm34k := -mpC1*sk, -mpD1*sk
	b[4] -= dm13h*a[2] + dm14h*a[3]
	b[5] -= dm23h*a[2] + dm24h*a[3]
	b[6] -= dm13h*a[0] + dm23h*a[1]
	b[7] -= dm14h*a[0] + dm24h*a[1]
	b[8] -= dm13k*a[2] + dm14k*a[3]
	b[9] -= dm23k*a[2] + dm24k*a[3]
	b[10] -= dm13k*a[0] + dm23k*a[1] + dm33k*a[2] + dm34k*a[3]
	b[11] -= dm14k*a[0] + dm24k*a[1] + dm34k*a[2]
	ldl4(&M, b[4:], 6)
	*J = [80]float64{}
	for i := 0; i < 4; i++ {
		J[i*10+4+i] = 1 // ∂q̇/∂v = I
	}
	cols := [6]int{2, 3, 6, 7, 8, 9} // φh, φk, ωh, ωk, uh, uk
	for r, c := range cols {
		for i := 0; i < 4; i++ {
			J[(4+i)*10+c] = b[4+r*4+i]
		}
	}
}

func randomState(r *rand.Rand) (q, v, u []float64) {
	q = []float64{randIn(r, -1, 1), randIn(r, 0.2, 1), randIn(r, -1.5, 1.5), randIn(r, -2, 2)}
	v = []float64{randIn(r, -2, 2), randIn(r, -2, 2), randIn(r, -3, 3), randIn(r, -3, 3)}
	u = []float64{randIn(r, -5, 5), randIn(r, -5, 5)}
	return
}

// TestMonopod checks M(q) and h(q, v) derived with ad against the closed
// forms (and M at q0 = (0, 0.4, 0, 0), which they give for φ = 0), and
// the compiled dynamics and sparse Jacobian against the hand-written Go
// version (1e-12 relative).
func TestMonopod(t *testing.T) {
	m, err := buildMonopod()
	if err != nil {
		t.Fatal(err)
	}
	fn, err := NewFunction("Mh", []Arg{A_("q", m.q), A_("v", m.v)}, []Arg{A_("M", m.M.E), A_("h", m.h)})
	if err != nil {
		t.Fatal(err)
	}
	ws := fn.NewWorkspace()
	Mo, ho := make([]float64, 16), make([]float64, 4)
	// M(q0): the closed forms at φ_hip = φ_knee = 0, e.g. M13 = −(0.138112 + 0.0548).
	q0 := []float64{0, 0.4, 0, 0}
	if err := fn.Eval(ws, [][]float64{q0, make([]float64, 4)}, [][]float64{Mo, ho}); err != nil {
		t.Fatal(err)
	}
	M0 := []float64{6.305, 0, -0.192912, -0.0548, 0, 6.305, 0, 0, -0.192912, 0, 0.053976192, 0.01964, -0.0548, 0, 0.01964, 0.00868}
	for i := range M0 {
		if !closeTo(Mo[i], M0[i], 1e-12) {
			t.Errorf("M(q0)[%d][%d] = %v, want %v (closed form)", i/4, i%4, Mo[i], M0[i])
		}
	}
	// At rest h = (0, −m_tot g, 0, 0) = (0, −61.85205, 0, 0).
	if !closeTo(ho[1], -61.85205, 1e-12) || ho[0] != 0 || ho[2] != 0 || ho[3] != 0 {
		t.Errorf("h(q0, 0) = %v, want (0, −61.85205, 0, 0)", ho)
	}
	d, err := m.derivatives()
	if err != nil {
		t.Fatal(err)
	}
	rows, cols := d.JacPattern.Coords()
	r := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 20; trial++ {
		q, v, u := randomState(r)
		if err := fn.Eval(ws, [][]float64{q, v}, [][]float64{Mo, ho}); err != nil {
			t.Fatal(err)
		}
		var Mh [16]float64
		var hh [4]float64
		handMh(&Mh, &hh, q, v)
		for i := range Mh {
			if !closeTo(Mo[i], Mh[i], 1e-12) {
				t.Errorf("M[%d][%d] = %v, closed form %v", i/4, i%4, Mo[i], Mh[i])
			}
		}
		for i := range hh {
			if !closeTo(ho[i], hh[i], 1e-12) {
				t.Errorf("h[%d] = %v, closed form %v", i, ho[i], hh[i])
			}
		}
		xd, xh := make([]float64, 8), make([]float64, 8)
		if err := d.F.Eval(ws, [][]float64{q, v, u}, [][]float64{xd}); err != nil {
			t.Fatal(err)
		}
		handDynamics(xh, q, v, u)
		for i := range xd {
			if !closeTo(xd[i], xh[i], 1e-12) {
				t.Errorf("ẋ[%d] = %v, hand-written %v", i, xd[i], xh[i])
			}
		}
		jv := make([]float64, d.JacPattern.NNZ())
		if err := d.Jac.Eval(ws, [][]float64{q, v, u}, [][]float64{jv}); err != nil {
			t.Fatal(err)
		}
		var Jh [80]float64
		handJacobian(&Jh, q, v, u)
		dense := make([]float64, 80)
		for k := range jv {
			dense[rows[k]*10+cols[k]] = jv[k]
		}
		for i := range dense {
			if !closeTo(dense[i], Jh[i], 1e-11) {
				t.Errorf("J[%d][%d] = %v, hand-written %v", i/10, i%10, dense[i], Jh[i])
			}
		}
	}
	// Lagrangian Hessian against central finite differences (gonum diff/fd,
	// step 1e-5) of the reverse-mode gradient λᵀ∂ẋ/∂z (1e-5 relative).
	z := Concat(m.q, m.v, m.u)
	lamS := m.g.SymVec("lam", 8)
	gl, err := VJP(Concat(m.qdot, m.vdot), z, lamS)
	if err != nil {
		t.Fatal(err)
	}
	fg, err := NewFunction("grad", []Arg{A_("z", z), A_("lam", lamS)}, []Arg{A_("g", gl)})
	if err != nil {
		t.Fatal(err)
	}
	q, v, u := randomState(r)
	zv := Concat2(q, v, u)
	lam := []float64{0.3, -0.2, 0.5, 1, -1.5, 0.7, 2, -0.4}
	hv := make([]float64, d.HessPattern.NNZ())
	if err := d.Hess.Eval(ws, [][]float64{q, v, u, lam}, [][]float64{hv}); err != nil {
		t.Fatal(err)
	}
	var fdH mat.Dense
	fdH.ReuseAs(10, 10)
	gws := fg.NewWorkspace()
	fd.Jacobian(&fdH, func(y, zz []float64) {
		if err := fg.Eval(gws, [][]float64{zz, lam}, [][]float64{y}); err != nil {
			t.Fatal(err)
		}
	}, zv, &fd.JacobianSettings{Formula: fd.Central, Step: 1e-5})
	hr, hc := d.HessPattern.Coords()
	seen := map[[2]int]bool{}
	for k := range hv {
		seen[[2]int{hr[k], hc[k]}] = true
		if !closeTo(hv[k], fdH.At(hr[k], hc[k]), 1e-5) {
			t.Errorf("H(%d,%d) = %v, fd %v", hr[k], hc[k], hv[k], fdH.At(hr[k], hc[k]))
		}
	}
	for i := 0; i < 10; i++ {
		for j := 0; j <= i; j++ {
			if !seen[[2]int{i, j}] && math.Abs(fdH.At(i, j)) > 1e-6 {
				t.Errorf("H(%d,%d) = %v (fd) missing from pattern", i, j, fdH.At(i, j))
			}
		}
	}
	t.Logf("monopod: dynamics tape %d instr / %d slots; Jacobian nnz %d, tape %d instr; Hessian nnz %d, tape %d instr",
		d.F.NumInstr(), d.F.WorkSize(), d.JacPattern.NNZ(), d.Jac.NumInstr(), d.HessPattern.NNZ(), d.Hess.NumInstr())
}

var sink float64

func BenchmarkMonopodDynamics(b *testing.B) {
	m, err := buildMonopod()
	if err != nil {
		b.Fatal(err)
	}
	d, err := m.derivatives()
	if err != nil {
		b.Fatal(err)
	}
	q, v, u := randomState(rand.New(rand.NewPCG(1, 1)))
	xd := make([]float64, 8)
	b.Run("tape", func(b *testing.B) {
		ws := d.F.NewWorkspace()
		in, out := [][]float64{q, v, u}, [][]float64{xd}
		b.ReportAllocs()
		for b.Loop() {
			_ = d.F.Eval(ws, in, out)
		}
		sink = xd[5]
	})
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			handDynamics(xd, q, v, u)
		}
		sink = xd[5]
	})
}

func BenchmarkMonopodJacobian(b *testing.B) {
	m, err := buildMonopod()
	if err != nil {
		b.Fatal(err)
	}
	d, err := m.derivatives()
	if err != nil {
		b.Fatal(err)
	}
	q, v, u := randomState(rand.New(rand.NewPCG(1, 1)))
	b.Run("tape", func(b *testing.B) {
		ws := d.Jac.NewWorkspace()
		jv := make([]float64, d.JacPattern.NNZ())
		in, out := [][]float64{q, v, u}, [][]float64{jv}
		b.ReportAllocs()
		for b.Loop() {
			_ = d.Jac.Eval(ws, in, out)
		}
		sink = jv[3]
	})
	b.Run("hand", func(b *testing.B) {
		var J [80]float64
		b.ReportAllocs()
		for b.Loop() {
			handJacobian(&J, q, v, u)
		}
		sink = J[45]
	})
}

func BenchmarkMonopodHessian(b *testing.B) {
	m, _ := buildMonopod()
	d, err := m.derivatives()
	if err != nil {
		b.Fatal(err)
	}
	q, v, u := randomState(rand.New(rand.NewPCG(1, 1)))
	lam := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	ws := d.Hess.NewWorkspace()
	hv := make([]float64, d.HessPattern.NNZ())
	in, out := [][]float64{q, v, u, lam}, [][]float64{hv}
	b.ReportAllocs()
	for b.Loop() {
		_ = d.Hess.Eval(ws, in, out)
	}
}

// BenchmarkBuildMonopod: graph construction, symbolic derivation and
// compilation of dynamics, Jacobian and Lagrangian Hessian.
func BenchmarkBuildMonopod(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		m, err := buildMonopod()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.derivatives(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMonopodRatio times the tape and the hand-written code in
// alternating chunks of 200 calls (so that varying machine load affects both
// alike) and reports the per-call times and tape/hand ratios of the
// dynamics and of the Jacobian; the minimum over chunks is used.
func BenchmarkMonopodRatio(b *testing.B) {
	m, err := buildMonopod()
	if err != nil {
		b.Fatal(err)
	}
	d, err := m.derivatives()
	if err != nil {
		b.Fatal(err)
	}
	q, v, u := randomState(rand.New(rand.NewPCG(1, 1)))
	xd := make([]float64, 8)
	jv := make([]float64, d.JacPattern.NNZ())
	var J [80]float64
	ws := NewWorkspace()
	in := [][]float64{q, v, u}
	fout, jout := [][]float64{xd}, [][]float64{jv}
	const chunk = 200
	best := [4]float64{math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)}
	timeIt := func(k int, fn func()) {
		t0 := nowNanos()
		for i := 0; i < chunk; i++ {
			fn()
		}
		best[k] = math.Min(best[k], float64(nowNanos()-t0)/chunk)
	}
	for b.Loop() {
		timeIt(0, func() { _ = d.F.Eval(ws, in, fout) })
		timeIt(1, func() { handDynamics(xd, q, v, u) })
		timeIt(2, func() { _ = d.Jac.Eval(ws, in, jout) })
		timeIt(3, func() { handJacobian(&J, q, v, u) })
	}
	b.ReportMetric(best[0], "dyn-tape-ns")
	b.ReportMetric(best[1], "dyn-hand-ns")
	b.ReportMetric(best[0]/best[1], "dyn-ratio")
	b.ReportMetric(best[2], "jac-tape-ns")
	b.ReportMetric(best[3], "jac-hand-ns")
	b.ReportMetric(best[2]/best[3], "jac-ratio")
}

// Concat2 concatenates float slices.
func Concat2(xs ...[]float64) []float64 {
	var out []float64
	for _, x := range xs {
		out = append(out, x...)
	}
	return out
}

// BenchmarkMonopodScatter evaluates the monopod Jacobian at 100 stage points
// and scatters the nonzeros into a big value array (reversed instance order),
// as FESD does for one model at every RK stage. ns/op is per 100 instances.
func BenchmarkMonopodScatter(b *testing.B) {
	m, _ := buildMonopod()
	d, err := m.derivatives()
	if err != nil {
		b.Fatal(err)
	}
	const K = 100
	nnz := d.JacPattern.NNZ()
	dst := make([][]int, K)
	args := make([][][]float64, K)
	r := rand.New(rand.NewPCG(2, 2))
	for k := range dst {
		dst[k] = make([]int, nnz)
		for i := range dst[k] {
			dst[k][i] = (K-1-k)*nnz + i
		}
		q, v, u := randomState(r)
		args[k] = [][]float64{q, v, u}
	}
	sc, err := NewScatter(nnz, dst)
	if err != nil {
		b.Fatal(err)
	}
	vals := make([]float64, K*nnz)
	ws := d.Jac.NewWorkspace()
	b.ReportAllocs()
	for b.Loop() {
		clear(vals)
		if err := d.Jac.EvalScatter(ws, sc, args, vals); err != nil {
			b.Fatal(err)
		}
	}
}
