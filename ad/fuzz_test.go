package ad

import (
	"math"
	"testing"
)

// fuzzProgram builds expressions from fuzz bytes with a small stack
// machine over three symbols and returns them with their reference values
// at xv, computed alongside by applying the operations as written (math
// package, no simplification; once per stack entry, so that shared
// subexpressions cost nothing twice). Each byte selects an instruction;
// the next byte is its operand where it needs one:
//
//	0–2  push symbol x_k            3  push constant (operand − 128)/16
//	4–17 unary op (Neg … Sign, Sq)  18–27 binary op (Add … Atan2, PowExpr)
//	28   IfElse(c, a, b)            29 Pow(a, small constant exponent)
//	30   duplicate                  31 Solve of a 2×2 system (top four, rhs two)
//
// Operations without enough operands are skipped.
//
// Construction-time simplification folds constants and reassociates
// constant factors, which changes roundings (package doc). So every
// reference value carries a first-order bound err of the rounding errors
// that reach it (ε·|v| per operation, propagated with the magnitudes of
// the partial derivatives): the compiled value must agree within a
// multiple of it.
type fuzzExpr struct {
	e   Expr
	v   float64 // reference value
	err float64 // first-order bound of the rounding error in v
	// unstable marks values that a rounding difference (or the sign of a
	// zero) can change by more than the propagated bound: a comparison,
	// IfElse or Sign at a near-tie, atan2 near its branch cut (y ≈ ±0,
	// x ≤ 0), tan near a pole, a power with a non-integer exponent of a
	// base near 0, a nearly singular Solve, non-finite values and
	// magnitudes beyond 1e±50 (derivative formulas multiply values, which
	// then overflow in one mode and not in the other: found with a Solve
	// whose entry was exp(234)² ≈ 2e203, where reverse mode through the
	// elimination gave 20.2 for a derivative of about 3e-201); and
	// everything built on them. Unstable values are not compared.
	unstable bool
}

// nearTie reports whether a and b are within rounding of each other.
func nearTie(a, b float64) bool { return math.Abs(a-b) <= 1e-9*(math.Abs(a)+math.Abs(b)) }

const fuzzEps = 0x1p-52

func fuzzProgram(g *Graph, x Vec, xv []float64, data []byte) []fuzzExpr {
	var st []fuzzExpr
	pop := func() fuzzExpr { e := st[len(st)-1]; st = st[:len(st)-1]; return e }
	push := func(es ...fuzzExpr) {
		for _, e := range es {
			a := math.Abs(e.v)
			if math.IsNaN(e.v) || a > 1e50 || (a != 0 && a < 1e-50) || math.IsNaN(e.err) || math.IsInf(e.err, 0) {
				e.unstable = true
			}
			e.err += fuzzEps * a // this operation's own rounding
			st = append(st, e)
		}
	}
	// d returns |f'| for the propagation of errors.
	unary := []struct {
		f func(Expr) Expr
		r func(float64) float64
		d func(float64) float64
	}{
		{Expr.Neg, func(a float64) float64 { return -a }, func(float64) float64 { return 1 }},
		{Sqrt, math.Sqrt, func(a float64) float64 { return 0.5 / math.Sqrt(math.Abs(a)) }},
		{Exp, math.Exp, math.Exp},
		{Log, math.Log, func(a float64) float64 { return 1 / math.Abs(a) }},
		{Sin, math.Sin, func(a float64) float64 { return 1 }},
		{Cos, math.Cos, func(a float64) float64 { return 1 }},
		{Tan, math.Tan, func(a float64) float64 { t := math.Tan(a); return 1 + t*t }},
		{Atan, math.Atan, func(a float64) float64 { return 1 / (1 + a*a) }},
		{Tanh, math.Tanh, func(float64) float64 { return 1 }},
		{Abs, math.Abs, func(float64) float64 { return 1 }},
		{Sign, sign, func(float64) float64 { return 0 }},
		{Sq, func(a float64) float64 { return a * a }, func(a float64) float64 { return 2 * math.Abs(a) }},
		{func(e Expr) Expr { return e.Scale(2.5) }, func(a float64) float64 { return 2.5 * a }, func(float64) float64 { return 2.5 }},
		{func(e Expr) Expr { return e.AddConst(-1) }, func(a float64) float64 { return a - 1 }, func(float64) float64 { return 1 }},
	}
	binary := []struct {
		f  func(a, b Expr) Expr
		r  func(a, b float64) float64
		da func(a, b float64) float64
		db func(a, b float64) float64
	}{
		{Expr.Add, func(a, b float64) float64 { return a + b }, one2, one2},
		{Expr.Sub, func(a, b float64) float64 { return a - b }, one2, one2},
		{Expr.Mul, func(a, b float64) float64 { return a * b },
			func(a, b float64) float64 { return math.Abs(b) }, func(a, b float64) float64 { return math.Abs(a) }},
		{Expr.Div, func(a, b float64) float64 { return a / b },
			func(a, b float64) float64 { return 1 / math.Abs(b) }, func(a, b float64) float64 { return math.Abs(a / (b * b)) }},
		{Min, minf, one2, one2}, {Max, maxf, one2, one2},
		{Gt, func(a, b float64) float64 { return b2f(a > b) }, zero2, zero2},
		{Ge, func(a, b float64) float64 { return b2f(a >= b) }, zero2, zero2},
		{Atan2, math.Atan2,
			func(a, b float64) float64 { return math.Abs(b) / (a*a + b*b) }, func(a, b float64) float64 { return math.Abs(a) / (a*a + b*b) }},
		{PowExpr, math.Pow,
			func(a, b float64) float64 { return math.Abs(b * math.Pow(a, b-1)) },
			func(a, b float64) float64 { return math.Abs(math.Pow(a, b) * math.Log(math.Abs(a))) }},
	}
	for p := 0; p < len(data) && len(st) < 64; p++ {
		op := int(data[p]) % 32
		operand := 0
		if p+1 < len(data) {
			operand = int(data[p+1])
		}
		switch {
		case op <= 2:
			push(fuzzExpr{e: x[op], v: xv[op]})
		case op == 3:
			c := float64(operand-128) / 16
			p++
			push(fuzzExpr{e: g.Const(c), v: c})
		case op <= 17:
			if len(st) < 1 {
				continue
			}
			a, u := pop(), unary[op-4]
			// Sign at 0, Tan near a pole.
			unst := a.unstable || (op-4 == 10 && nearTie(a.v, 0)) || (op-4 == 6 && math.Abs(math.Cos(a.v)) < 1e-6)
			push(fuzzExpr{u.f(a.e), u.r(a.v), u.d(a.v) * a.err, unst})
		case op <= 27:
			if len(st) < 2 {
				continue
			}
			b, a, bi := pop(), pop(), binary[op-18]
			unst := a.unstable || b.unstable
			switch op - 18 {
			case 6, 7: // Gt, Ge
				unst = unst || nearTie(a.v, b.v) || math.Abs(a.v-b.v) <= 16*(a.err+b.err)
			case 8: // Atan2(a, b): the branch cut y = ±0, x ≤ 0
				unst = unst || (math.Abs(a.v) <= 16*a.err+1e-9*math.Abs(b.v) && b.v <= 0)
			case 9: // PowExpr
				unst = unst || (math.Abs(a.v) <= 1e-9 && b.v != math.Trunc(b.v))
			}
			push(fuzzExpr{bi.f(a.e, b.e), bi.r(a.v, b.v), bi.da(a.v, b.v)*a.err + bi.db(a.v, b.v)*b.err, unst})
		case op == 28:
			if len(st) < 3 {
				continue
			}
			b, a, c := pop(), pop(), pop()
			v, err := b.v, b.err
			if c.v > 0 {
				v, err = a.v, a.err
			}
			unst := a.unstable || b.unstable || c.unstable || nearTie(c.v, 0) || math.Abs(c.v) <= 16*c.err
			push(fuzzExpr{IfElse(c.e, a.e, b.e), v, err, unst})
		case op == 29:
			if len(st) < 1 {
				continue
			}
			k := []float64{0, 1, 2, 3, 4, 0.5, -1, -2, 1.5, -0.5}[operand%10]
			p++
			a := pop()
			unst := a.unstable || (math.Abs(a.v) <= 1e-9 && k != math.Trunc(k))
			push(fuzzExpr{Pow(a.e, k), math.Pow(a.v, k), math.Abs(k*math.Pow(a.v, k-1)) * a.err, unst})
		case op == 30:
			if len(st) < 1 {
				continue
			}
			st = append(st, st[len(st)-1])
		case op == 31:
			if len(st) < 6 {
				continue
			}
			b1, b0, m11, m10, m01, m00 := pop(), pop(), pop(), pop(), pop(), pop()
			m, err := NewMat(2, 2, m00.e, m01.e, m10.e, m11.e)
			if err != nil {
				continue
			}
			sol, err := Solve(m, Vec{b0.e, b1.e})
			if err != nil {
				continue // structurally singular
			}
			// Reference: Cramer's rule. Elimination and Cramer's rule
			// round differently: the error bound is the perturbation bound
			// ‖δx‖ ≲ ‖M⁻¹‖(‖δb‖ + ‖δM‖‖x‖) with the rounding of both
			// methods as relative perturbations of M and b, and a nearly
			// singular matrix is unstable.
			det := m00.v*m11.v - m01.v*m10.v
			s0, s1 := (b0.v*m11.v-m01.v*b1.v)/det, (m00.v*b1.v-b0.v*m10.v)/det
			mmax := math.Max(math.Max(math.Abs(m00.v), math.Abs(m01.v)), math.Max(math.Abs(m10.v), math.Abs(m11.v)))
			inv := 2 * mmax / math.Abs(det) // ≥ ‖M⁻¹‖∞
			dM := math.Max(math.Max(m00.err, m01.err), math.Max(m10.err, m11.err)) + 4*fuzzEps*mmax
			db := math.Max(b0.err, b1.err) + 4*fuzzEps*math.Max(math.Abs(b0.v), math.Abs(b1.v))
			e := inv * (db + 2*dM*math.Max(math.Abs(s0), math.Abs(s1)))
			unst := m00.unstable || m01.unstable || m10.unstable || m11.unstable || b0.unstable || b1.unstable ||
				math.Abs(det) <= 1e-6*(math.Abs(m00.v*m11.v)+math.Abs(m01.v*m10.v))
			push(fuzzExpr{sol[0], s0, e, unst}, fuzzExpr{sol[1], s1, e, unst})
		}
	}
	return st
}

func one2(a, b float64) float64  { return 1 }
func zero2(a, b float64) float64 { return 0 }

// fuzzClose compares a compiled value with the reference of error bound
// err: both must be finite and moderate (|v| ≤ 1e6) to be compared, and
// agree within 64 times the propagated rounding bound (a first-order
// estimate, hence the margin) plus 1e-12 relative.
func fuzzClose(got float64, ref fuzzExpr) bool {
	want := ref.v
	if math.IsNaN(want) || math.IsInf(want, 0) || math.Abs(want) > 1e6 || math.IsNaN(got) || math.IsInf(got, 0) {
		return true
	}
	return math.Abs(got-want) <= 64*ref.err+1e-12*(1+math.Abs(want))
}

// FuzzExpressions builds expressions from fuzz bytes and checks that
// construction, compilation, copying and differentiation never panic, that
// compiled values match a direct evaluation (when both are finite and
// moderate), that a Copier's copy computes the same values bit for bit, and
// that forward- and reverse-mode Jacobians agree.
func FuzzExpressions(f *testing.F) {
	f.Add([]byte{0, 1, 18, 2, 20, 5}, 0.3, -0.7, 1.1)
	f.Add([]byte{0, 0, 20, 1, 21, 6, 2, 28}, 1.0, 2.0, -3.0)
	f.Add([]byte{0, 1, 2, 0, 1, 2, 31, 18}, 0.5, 0.25, 2.0)
	f.Add([]byte{0, 29, 8, 1, 29, 5, 19, 3, 200, 24}, -1.5, 0.0, 4.0)
	f.Add([]byte{2, 30, 19, 0, 16, 26, 1, 27}, 0.0, -0.0, 1e-300)
	f.Fuzz(func(t *testing.T, data []byte, a, b, c float64) {
		g := NewGraph()
		x := g.SymVec("x", 3)
		xv := []float64{a, b, c}
		exprs := fuzzProgram(g, x, xv, data)
		if err := g.Err(); err != nil {
			t.Fatalf("construction error: %v", err)
		}
		if len(exprs) == 0 {
			return
		}
		out := make(Vec, len(exprs))
		for i, e := range exprs {
			out[i] = e.e
		}
		in := []Arg{A("x", x...)}
		fn, err := NewFunction("f", in, []Arg{A("y", out...)})
		if err != nil {
			t.Fatalf("NewFunction: %v", err)
		}
		y := make([]float64, len(out))
		if err := fn.Eval(nil, [][]float64{xv}, [][]float64{y}); err != nil {
			t.Fatalf("Eval: %v", err)
		}
		for i, e := range exprs {
			if !e.unstable && !fuzzClose(y[i], e) {
				t.Errorf("output %d = %v, reference %v", i, y[i], e.v)
			}
		}

		// The Copier's copy has the structure of the original: the same
		// values bit for bit (NaN where NaN).
		n0 := g.NumNodes()
		cp := NewCopier(g)
		xc, oc := cp.Vec(x), cp.Vec(out)
		fc, err := NewFunction("f", []Arg{A("x", xc...)}, []Arg{A("y", oc...)})
		if err != nil {
			t.Fatalf("NewFunction on the copy: %v", err)
		}
		yc := make([]float64, len(out))
		if err := fc.Eval(nil, [][]float64{xv}, [][]float64{yc}); err != nil {
			t.Fatal(err)
		}
		for i := range y {
			if math.Float64bits(y[i]) != math.Float64bits(yc[i]) && !(math.IsNaN(y[i]) && math.IsNaN(yc[i])) {
				t.Errorf("copy: output %d = %v, original %v", i, yc[i], y[i])
			}
		}
		if g.NumNodes() != n0 || g.Err() != nil {
			t.Fatal("copying changed the source graph")
		}

		// Forward and reverse Jacobians: both modes build the same
		// derivative from the same partials; compare their values.
		jf, errF := JacobianMode(out, x, Forward)
		jr, errR := JacobianMode(out, x, Reverse)
		if (errF == nil) != (errR == nil) {
			t.Fatalf("Jacobian errors differ: forward %v, reverse %v", errF, errR)
		}
		if errF != nil {
			return
		}
		ff, err := NewFunction("jf", in, []Arg{A("j", jf.E...)})
		if err != nil {
			t.Fatalf("compiling the forward Jacobian: %v", err)
		}
		fr, err := NewFunction("jr", in, []Arg{A("j", jr.E...)})
		if err != nil {
			t.Fatalf("compiling the reverse Jacobian: %v", err)
		}
		vf, vr := make([]float64, len(jf.E)), make([]float64, len(jr.E))
		if err := ff.Eval(nil, [][]float64{xv}, [][]float64{vf}); err != nil {
			t.Fatal(err)
		}
		if err := fr.Eval(nil, [][]float64{xv}, [][]float64{vr}); err != nil {
			t.Fatal(err)
		}
		// Rows of unstable or ill-conditioned outputs are skipped (forward
		// mode through a recorded solve, ẋ = M⁻¹(ḃ − Ṁx), and reverse mode
		// through the elimination round, overflow and meet NaN
		// differently); the others agree to 1e-6 relative.
		for k := range vf {
			if e := exprs[k/len(x)]; e.unstable || e.err > 1e-9*(1+math.Abs(e.v)) {
				continue
			}
			if !fuzzClose(vf[k], fuzzExpr{v: vr[k], err: 1e-6 / 64 * (1 + math.Abs(vr[k]))}) {
				t.Errorf("Jacobian entry %d: forward %v, reverse %v", k, vf[k], vr[k])
			}
		}
		// NewDerivatives (Jacobian and Hessian in a private copy) must
		// not fail on what compiles, nor touch g.
		n := g.NumNodes()
		if _, err := NewDerivatives("f", in, []Arg{A("y", out...)}); err != nil {
			t.Fatalf("NewDerivatives: %v", err)
		}
		if g.NumNodes() != n {
			t.Fatalf("NewDerivatives added %d nodes to the caller's graph", g.NumNodes()-n)
		}
	})
}
