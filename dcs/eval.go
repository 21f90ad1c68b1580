package dcs

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
)

// compile builds the functions behind EvalF, EvalG, InitialGuess.
func (d *DCS) compile() error {
	args := d.Args()
	var err error
	if d.fF, err = ad.NewFunction("f", args, []ad.Arg{ad.A("f", d.F...)}); err != nil {
		return fmt.Errorf("dcs: compiling f: %w", err)
	}
	if d.fG, err = ad.NewFunction("G", args, []ad.Arg{ad.A("G", d.G...)}); err != nil {
		return fmt.Errorf("dcs: compiling G: %w", err)
	}
	m := d.model
	var psi, ind ad.Vec
	for _, s := range m.Subsystems {
		psi = append(psi, s.Psi...)
	}
	for _, st := range m.Steps {
		psi = append(psi, st.Psi...)
	}
	for _, s := range m.Subsystems {
		if d.Formulation == Stewart {
			ind = append(ind, s.G...)
		}
	}
	xup := []ad.Arg{ad.A("x", d.X...), ad.A("u", d.U...), ad.A("p", d.P...)}
	if d.fInit, err = ad.NewFunction("init", xup, []ad.Arg{ad.A("z0", d.Init...), ad.A("psi", psi...), ad.A("g", ind...)}); err != nil {
		return fmt.Errorf("dcs: compiling the initial guess: %w", err)
	}
	bl, ok := d.GBlock(UserEq, -1)
	if !ok {
		return nil
	}
	gu := d.G[bl.Start : bl.Start+bl.Len]
	zu := d.Var(User, -1)
	jac, err := ad.Jacobian(gu, zu)
	if err != nil {
		return fmt.Errorf("dcs: user equations: %w", err)
	}
	in := append(xup, ad.A("z", d.Z...))
	if d.fUser, err = ad.NewFunction("user", in, []ad.Arg{ad.A("G", gu...), ad.A("J", jac.E...)}); err != nil {
		return fmt.Errorf("dcs: compiling the user equations: %w", err)
	}
	return nil
}

// built reports ErrNilDCS for a nil DCS or one not made by Reformulate.
func (d *DCS) built() error {
	if d == nil || d.model == nil || d.fF == nil || d.fG == nil || d.fInit == nil {
		return ErrNilDCS
	}
	return nil
}

func (d *DCS) checkZ(z []float64) error {
	if len(z) != len(d.Z) {
		return newErr(ErrDimension, -1, "z", -1, -1, "length %d, want %d", len(z), len(d.Z))
	}
	return nil
}

// EvalF returns ẋ = F(x, u, p, z, t).
func (d *DCS) EvalF(x, u, p, z []float64, t float64) ([]float64, error) {
	if err := d.built(); err != nil {
		return nil, err
	}
	if err := d.model.checkInputs(x, u, p); err != nil {
		return nil, err
	}
	if err := d.checkZ(z); err != nil {
		return nil, err
	}
	out := make([]float64, len(d.F))
	err := d.fF.Eval(d.fF.NewWorkspace(), [][]float64{x, u, p, z, {t}}, [][]float64{out})
	return out, err
}

// EvalG returns the algebraic residuals G(x, u, p, z).
func (d *DCS) EvalG(x, u, p, z []float64) ([]float64, error) {
	if err := d.built(); err != nil {
		return nil, err
	}
	if err := d.model.checkInputs(x, u, p); err != nil {
		return nil, err
	}
	if err := d.checkZ(z); err != nil {
		return nil, err
	}
	out := make([]float64, len(d.G))
	err := d.fG.Eval(d.fG.NewWorkspace(), [][]float64{x, u, p, z, {0}}, [][]float64{out})
	return out, err
}

// Residuals measures how well z satisfies the DCS at (x, u, p).
type Residuals struct {
	// Eq is max_i |G_i|.
	Eq float64
	// Comp is the natural residual max over all pairs of |min(a, b)|.
	Comp float64
	// Bound is the largest violation of ZLower ≤ z ≤ ZUpper.
	Bound float64
}

// Max returns the largest of the three residuals.
func (r Residuals) Max() float64 { return math.Max(r.Eq, math.Max(r.Comp, r.Bound)) }

// Residuals evaluates the equations, complementarity pairs and bounds at
// (x, u, p, z).
func (d *DCS) Residuals(x, u, p, z []float64) (Residuals, error) {
	gv, err := d.EvalG(x, u, p, z)
	if err != nil {
		return Residuals{}, err
	}
	var r Residuals
	for _, v := range gv {
		r.Eq = math.Max(r.Eq, math.Abs(v))
	}
	for _, c := range d.Comp {
		for _, pr := range c.Pairs {
			a, b := pr.Values(z)
			r.Comp = math.Max(r.Comp, math.Abs(math.Min(a, b)))
		}
	}
	for i, v := range z {
		r.Bound = math.Max(r.Bound, math.Max(d.ZLower[i]-v, v-d.ZUpper[i]))
	}
	return r, nil
}

// InitialGuess returns a consistent algebraic vector z₀ for (x₀, u₀, p):
// the values of Init (004 eq. 17 for λᵖ, λⁿ; α from the sign of ψ; θ and β
// from α; Stewart λ = g − min g, μ = −min g and θ from the active mode),
// with the user algebraic variables solved from their equations by Newton's
// method started at Algebraic.Init. A NaN or infinite ψ_j (or g_j) is a
// *NonFiniteError naming it.
func (d *DCS) InitialGuess(x0, u0, p []float64) ([]float64, error) {
	if err := d.built(); err != nil {
		return nil, err
	}
	if err := d.model.checkInputs(x0, u0, p); err != nil {
		return nil, err
	}
	z := make([]float64, len(d.Z))
	psi := make([]float64, d.fInit.OutSize(1))
	ind := make([]float64, d.fInit.OutSize(2))
	if err := d.fInit.Eval(d.fInit.NewWorkspace(), [][]float64{x0, u0, p}, [][]float64{z, psi, ind}); err != nil {
		return nil, err
	}
	if err := d.model.checkPsiFinite(psi); err != nil {
		return nil, err
	}
	off := 0
	for k, s := range d.model.Subsystems {
		if d.Formulation != Stewart {
			break
		}
		for j := range s.G {
			if v := ind[off+j]; math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, &NonFiniteError{Subsystem: k, Name: "g", Index: j, Value: v}
			}
		}
		off += len(s.G)
	}
	if d.fUser != nil {
		if err := d.newtonUser(x0, u0, p, z); err != nil {
			return nil, err
		}
	}
	return z, nil
}

// newtonUser solves the user equations for the user variables in place.
func (d *DCS) newtonUser(x, u, p, z []float64) error {
	n := d.fUser.OutSize(0)
	gv := make([]float64, n)
	jac := make([]float64, n*n)
	ws := d.fUser.NewWorkspace()
	zu := z[d.userAt : d.userAt+n]
	const maxIter = 50
	for it := 0; ; it++ {
		if err := d.fUser.Eval(ws, [][]float64{x, u, p, z}, [][]float64{gv, jac}); err != nil {
			return err
		}
		res, scale := 0.0, 1.0
		for i, v := range gv {
			res = math.Max(res, math.Abs(v))
			scale = math.Max(scale, math.Abs(zu[i]))
		}
		if res <= 1e-13*scale {
			return nil
		}
		if it == maxIter || math.IsNaN(res) {
			return fmt.Errorf("%w: residual %.3g after %d iterations", ErrInitialGuess, res, it)
		}
		for i := range gv {
			gv[i] = -gv[i]
		}
		if !solveDense(jac, gv, n) {
			return fmt.Errorf("%w: singular Jacobian", ErrInitialGuess)
		}
		for i := range zu {
			zu[i] += gv[i]
		}
	}
}

// solveDense solves a·x = b (a row-major n×n, overwritten) by Gaussian
// elimination with partial pivoting; b is overwritten with x.
func solveDense(a, b []float64, n int) bool {
	for k := 0; k < n; k++ {
		piv := k
		for i := k + 1; i < n; i++ {
			if math.Abs(a[i*n+k]) > math.Abs(a[piv*n+k]) {
				piv = i
			}
		}
		if a[piv*n+k] == 0 {
			return false
		}
		if piv != k {
			for j := 0; j < n; j++ {
				a[k*n+j], a[piv*n+j] = a[piv*n+j], a[k*n+j]
			}
			b[k], b[piv] = b[piv], b[k]
		}
		for i := k + 1; i < n; i++ {
			f := a[i*n+k] / a[k*n+k]
			for j := k; j < n; j++ {
				a[i*n+j] -= f * a[k*n+j]
			}
			b[i] -= f * b[k]
		}
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for j := i + 1; j < n; j++ {
			s -= a[i*n+j] * b[j]
		}
		b[i] = s / a[i*n+i]
	}
	return true
}
