package ad

import "fmt"

// Vec is a vector of expressions.
type Vec []Expr

// Mat is a small dense R×C matrix of expressions, stored row-major in E.
type Mat struct {
	R, C int
	E    []Expr
}

// NewMat returns an R×C matrix with the given row-major entries.
func NewMat(r, c int, e ...Expr) (Mat, error) {
	if r < 0 || c < 0 || len(e) != r*c {
		return Mat{}, fmt.Errorf("%w: NewMat %d×%d with %d entries", ErrDimension, r, c, len(e))
	}
	return Mat{R: r, C: c, E: append([]Expr(nil), e...)}, nil
}

// ZeroMat returns the R×C matrix of constant zeros. A negative dimension
// gives the zero Mat and records ErrDimension in the graph (as SymVec).
func (g *Graph) ZeroMat(r, c int) Mat {
	if g == nil || !g.checkLen("ZeroMat", min(r, c)) {
		return Mat{}
	}
	return Mat{R: r, C: c, E: g.Zeros(r * c)}
}

// Eye returns the n×n identity matrix (the zero Mat and ErrDimension
// recorded in the graph for a negative n).
func (g *Graph) Eye(n int) Mat {
	if g == nil || !g.checkLen("Eye", n) {
		return Mat{}
	}
	m := g.ZeroMat(n, n)
	for i := 0; i < n; i++ {
		m.E[i*n+i] = g.one()
	}
	return m
}

// ok reports whether m is consistent (R, C ≥ 0, len(E) = R·C).
func (m Mat) ok() bool { return m.R >= 0 && m.C >= 0 && len(m.E) == m.R*m.C }

// in reports whether (i, j) is an entry of a consistent m.
func (m Mat) in(i, j int) bool { return m.ok() && i >= 0 && i < m.R && j >= 0 && j < m.C }

// At returns entry (i, j), or the zero Expr (invalid) when (i, j) is out of
// range or m is inconsistent (len(E) ≠ R·C).
func (m Mat) At(i, j int) Expr {
	if !m.in(i, j) {
		return Expr{}
	}
	return m.E[i*m.C+j]
}

// Set sets entry (i, j) and reports whether it exists (false, and m
// unchanged, when (i, j) is out of range or m is inconsistent).
func (m Mat) Set(i, j int, e Expr) bool {
	if !m.in(i, j) {
		return false
	}
	m.E[i*m.C+j] = e
	return true
}

// Row returns row i as a vector (a copy; nil when i is out of range or m is
// inconsistent).
func (m Mat) Row(i int) Vec {
	if !m.ok() || i < 0 || i >= m.R {
		return nil
	}
	return append(Vec(nil), m.E[i*m.C:(i+1)*m.C]...)
}

// Col returns column j as a vector (nil when j is out of range or m is
// inconsistent).
func (m Mat) Col(j int) Vec {
	if !m.ok() || j < 0 || j >= m.C {
		return nil
	}
	v := make(Vec, m.R)
	for i := range v {
		v[i] = m.E[i*m.C+j]
	}
	return v
}

// T returns the transpose of m (the zero Mat if m is inconsistent).
func (m Mat) T() Mat {
	if !m.ok() {
		return Mat{}
	}
	t := Mat{R: m.C, C: m.R, E: make([]Expr, len(m.E))}
	for i := 0; i < m.R; i++ {
		for j := 0; j < m.C; j++ {
			t.E[j*t.C+i] = m.E[i*m.C+j]
		}
	}
	return t
}

// Concat returns the concatenation of the vectors.
func Concat(vs ...Vec) Vec {
	var out Vec
	for _, v := range vs {
		out = append(out, v...)
	}
	return out
}

// Map applies f to every element.
func (v Vec) Map(f func(Expr) Expr) Vec {
	out := make(Vec, len(v))
	for i, e := range v {
		out[i] = f(e)
	}
	return out
}

// Scale returns k·v for an expression k.
func (v Vec) Scale(k Expr) Vec { return v.Map(k.Mul) }

func zipWith(a, b Vec, what string, f func(x, y Expr) Expr) (Vec, error) {
	if len(a) != len(b) {
		return nil, fmt.Errorf("%w: %s of lengths %d and %d", ErrDimension, what, len(a), len(b))
	}
	out := make(Vec, len(a))
	for i := range a {
		out[i] = f(a[i], b[i])
	}
	return out, nil
}

// Add returns v + w element-wise.
func (v Vec) Add(w Vec) (Vec, error) { return zipWith(v, w, "Add", Expr.Add) }

// Sub returns v − w element-wise.
func (v Vec) Sub(w Vec) (Vec, error) { return zipWith(v, w, "Sub", Expr.Sub) }

// MulElem returns the element-wise product v ⊙ w.
func (v Vec) MulElem(w Vec) (Vec, error) { return zipWith(v, w, "MulElem", Expr.Mul) }

// DivElem returns the element-wise quotient v ⊘ w.
func (v Vec) DivElem(w Vec) (Vec, error) { return zipWith(v, w, "DivElem", Expr.Div) }

// Sum returns the sum of the elements. The sum of an empty vector is the
// zero Expr: without an element there is no graph to build the constant 0
// in (write g.Const(0) when an empty sum must be an expression), and using
// it in an operation, derivative or function reports ErrZeroExpr.
func Sum(v Vec) Expr {
	if len(v) == 0 {
		return Expr{}
	}
	s := v[0]
	for _, e := range v[1:] {
		s = s.Add(e)
	}
	return s
}

// Dot returns aᵀb. Both must be non-empty and of equal length.
func Dot(a, b Vec) (Expr, error) {
	p, err := a.MulElem(b)
	if err != nil {
		return Expr{}, err
	}
	if len(p) == 0 {
		return Expr{}, fmt.Errorf("%w: Dot of empty vectors", ErrDimension)
	}
	return Sum(p), nil
}

// MatVec returns m·v.
func MatVec(m Mat, v Vec) (Vec, error) {
	if m.C != len(v) || len(m.E) != m.R*m.C {
		return nil, fmt.Errorf("%w: MatVec %d×%d by %d", ErrDimension, m.R, m.C, len(v))
	}
	out := make(Vec, m.R)
	for i := range out {
		var s Expr
		for j := 0; j < m.C; j++ {
			t := m.E[i*m.C+j].Mul(v[j])
			if j == 0 {
				s = t
			} else {
				s = s.Add(t)
			}
		}
		if m.C == 0 {
			return nil, fmt.Errorf("%w: MatVec with zero columns", ErrDimension)
		}
		out[i] = s
	}
	return out, nil
}

// MatMul returns a·b.
func MatMul(a, b Mat) (Mat, error) {
	if a.C != b.R || a.C == 0 || len(a.E) != a.R*a.C || len(b.E) != b.R*b.C {
		return Mat{}, fmt.Errorf("%w: MatMul %d×%d by %d×%d", ErrDimension, a.R, a.C, b.R, b.C)
	}
	out := Mat{R: a.R, C: b.C, E: make([]Expr, a.R*b.C)}
	for i := 0; i < a.R; i++ {
		for j := 0; j < b.C; j++ {
			s := a.E[i*a.C].Mul(b.E[j])
			for k := 1; k < a.C; k++ {
				s = s.Add(a.E[i*a.C+k].Mul(b.E[k*b.C+j]))
			}
			out.E[i*out.C+j] = s
		}
	}
	return out, nil
}

// Solve returns x with m·x = b, by symbolic Gaussian elimination.
//
// Pivoting is structural, not numerical: in column k the pivot is the first
// row r ≥ k whose entry is not the constant 0 (a constant nonzero entry is
// preferred if one exists). The resulting expressions divide by these pivots,
// so they are valid wherever the chosen pivots are nonzero at the evaluation
// point — always the case for symmetric positive definite matrices (mass
// matrices), where no pivoting is needed at all, and for diagonally dominant
// ones. For indefinite matrices whose pivots can vanish, the expressions may
// evaluate to Inf/NaN even though m is invertible. A column with no
// structurally nonzero candidate is ErrSingular.
func Solve(m Mat, b Vec) (Vec, error) {
	n := m.R
	if m.C != n || len(b) != n || len(m.E) != n*n {
		return nil, fmt.Errorf("%w: Solve %d×%d with rhs %d", ErrDimension, m.R, m.C, len(b))
	}
	if n == 0 {
		return Vec{}, nil
	}
	if _, err := checkExprs(m.E, b); err != nil {
		return nil, err
	}
	a := append([]Expr(nil), m.E...)
	r := append(Vec(nil), b...)
	inv := make(Vec, n) // reciprocal pivots
	for k := 0; k < n; k++ {
		p := -1
		for i := k; i < n; i++ {
			e := a[i*n+k]
			if e.IsZero() {
				continue
			}
			if _, ok := e.IsConst(); ok {
				p = i
				break
			}
			if p < 0 {
				p = i
			}
		}
		if p < 0 {
			return nil, fmt.Errorf("%w: column %d", ErrSingular, k)
		}
		if p != k {
			for j := 0; j < n; j++ {
				a[k*n+j], a[p*n+j] = a[p*n+j], a[k*n+j]
			}
			r[k], r[p] = r[p], r[k]
		}
		piv := a[k*n+k]
		inv[k] = piv.g.one().Div(piv)
		for i := k + 1; i < n; i++ {
			if a[i*n+k].IsZero() {
				continue
			}
			f := a[i*n+k].Mul(inv[k])
			for j := k + 1; j < n; j++ {
				a[i*n+j] = a[i*n+j].Sub(f.Mul(a[k*n+j]))
			}
			r[i] = r[i].Sub(f.Mul(r[k]))
			a[i*n+k] = piv.g.zero()
		}
	}
	x := make(Vec, n)
	for k := n - 1; k >= 0; k-- {
		s := r[k]
		for j := k + 1; j < n; j++ {
			s = s.Sub(a[k*n+j].Mul(x[j]))
		}
		x[k] = s.Mul(inv[k])
	}
	m.E[0].g.registerSolve(m, b, x, false)
	return x, nil
}

// SolveSym returns x with m·x = b for a symmetric m, by a symbolic LDLᵀ
// factorization without pivoting that reads only the lower triangle (the
// upper triangle is ignored and assumed equal to it). It is valid when all
// leading principal minors are nonzero at the evaluation point, in
// particular for symmetric positive definite matrices such as mass matrices
// M(q). It needs about half the operations of Solve and no square roots.
// A structurally zero pivot is ErrSingular. Forward-mode derivatives are
// formed implicitly as for Solve.
func SolveSym(m Mat, b Vec) (Vec, error) {
	n := m.R
	if m.C != n || len(b) != n || len(m.E) != n*n {
		return nil, fmt.Errorf("%w: SolveSym %d×%d with rhs %d", ErrDimension, m.R, m.C, len(b))
	}
	if n == 0 {
		return Vec{}, nil
	}
	if _, err := checkExprs(m.E, b); err != nil {
		return nil, err
	}
	g := m.E[0].g
	L := make([]Expr, n*n) // strictly lower part used
	d := make(Vec, n)
	dinv := make(Vec, n)
	for j := 0; j < n; j++ {
		s := m.E[j*n+j]
		// w[k] = L[j][k]·d[k]
		for k := 0; k < j; k++ {
			s = s.Sub(L[j*n+k].Mul(L[j*n+k]).Mul(d[k]))
		}
		if s.IsZero() {
			return nil, fmt.Errorf("%w: zero pivot %d", ErrSingular, j)
		}
		d[j] = s
		dinv[j] = g.one().Div(s)
		for i := j + 1; i < n; i++ {
			t := m.E[i*n+j]
			for k := 0; k < j; k++ {
				t = t.Sub(L[i*n+k].Mul(L[j*n+k]).Mul(d[k]))
			}
			L[i*n+j] = t.Mul(dinv[j])
		}
	}
	// L z = b
	z := make(Vec, n)
	for i := 0; i < n; i++ {
		s := b[i]
		for k := 0; k < i; k++ {
			s = s.Sub(L[i*n+k].Mul(z[k]))
		}
		z[i] = s
	}
	// D y = z; Lᵀ x = y
	x := make(Vec, n)
	for i := n - 1; i >= 0; i-- {
		s := z[i].Mul(dinv[i])
		for k := i + 1; k < n; k++ {
			s = s.Sub(L[k*n+i].Mul(x[k]))
		}
		x[i] = s
	}
	g.registerSolve(m, b, x, true)
	return x, nil
}
