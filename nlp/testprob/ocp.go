package testprob

import (
	"errors"
	"fmt"
	"math"

	"github.com/fesd-go/fesd/nlp"
)

// Sizes of the oscillator model.
const (
	NX = 8 // states per stage: q₁…q₄, v₁…v₄
	NU = 4 // controls per stage
	// StageVars is the number of variables per stage k < N: x, u, s, λ.
	StageVars = NX + NU + 2
)

// Model constants of the OCP (package documentation).
const (
	Step      = 0.01 // Euler step h
	Coupling  = 0.5  // spring coupling κ of neighbouring oscillators
	Cubic     = 0.2  // Duffing coefficient c
	WeightV   = 0.1  // velocity weight w_v
	WeightU   = 0.01 // control weight w_u
	MaxU      = 10.0 // control bound u_max
	MaxV      = 4.0  // velocity bound v_max
	WallGap   = 1.0  // s = q₁ + WallGap
	stageJac  = 39   // Jacobian entries per stage (with the inequality)
	stageHess = 13   // Hessian entries per stage (x, u diagonals and (λ, s))
)

// Omega are the natural frequencies ωᵢ of the four oscillators.
var Omega = [4]float64{1, 1.3, 1.7, 2.1}

// ErrOptions is returned by NewOCP for invalid options.
var ErrOptions = errors.New("testprob: invalid options")

// OCPOptions configures NewOCP.
type OCPOptions struct {
	// N is the number of stages (≥ 1; no default, 0 is an error).
	N int
	// Sigma is the relaxation σ of s_k·λ_k ≤ σ (0: DefaultSigma = 1e-3).
	Sigma float64
	// Complementarity leaves the inequalities out (default false: they are
	// in); the pairs (s_k, λ_k) of Pairs then form an MPCC with the NLP.
	Complementarity bool
}

// DefaultSigma is the default Scholtes relaxation σ.
const DefaultSigma = 1e-3

// OCP is the OCP-shaped oscillator NLP of the package documentation. It
// implements nlp.Problem and nlp.StageHinter.
type OCP struct {
	n     int
	sigma float64
	comp  bool
	ref   [][4]float64 // r(t_k), k = 0…N
	x0    [NX]float64
}

var (
	_ nlp.Problem     = (*OCP)(nil)
	_ nlp.StageHinter = (*OCP)(nil)
)

// NewOCP builds the NLP.
func NewOCP(o OCPOptions) (*OCP, error) {
	if o.N < 1 {
		return nil, fmt.Errorf("%w: N = %d, want ≥ 1", ErrOptions, o.N)
	}
	if o.Sigma < 0 || math.IsNaN(o.Sigma) || math.IsInf(o.Sigma, 0) {
		return nil, fmt.Errorf("%w: Sigma = %g", ErrOptions, o.Sigma)
	}
	p := &OCP{n: o.N, sigma: o.Sigma, comp: o.Complementarity}
	if p.sigma == 0 {
		p.sigma = DefaultSigma
	}
	p.ref = make([][4]float64, o.N+1)
	for k := range p.ref {
		t := Step * float64(k)
		p.ref[k][0] = -0.5 - math.Sin(2*t)
		for i := 1; i < 4; i++ {
			p.ref[k][i] = 0.5 * math.Sin(Omega[i]*t)
		}
	}
	p.x0[0], p.x0[4] = -0.5, -2
	return p, nil
}

// N returns the number of stages.
func (p *OCP) N() int { return p.n }

// Sigma returns the relaxation parameter σ.
func (p *OCP) Sigma() float64 { return p.sigma }

// XIndex returns the index of state j at stage k (0 ≤ k ≤ N).
func (p *OCP) XIndex(k, j int) int { return StageVars*k + j }

// UIndex returns the index of control j at stage k < N.
func (p *OCP) UIndex(k, j int) int { return StageVars*k + NX + j }

// SIndex returns the index of the gap s_k.
func (p *OCP) SIndex(k int) int { return StageVars*k + NX + NU }

// LambdaIndex returns the index of the contact force λ_k.
func (p *OCP) LambdaIndex(k int) int { return StageVars*k + NX + NU + 1 }

// DynRow returns the constraint index of dynamics row j of stage k.
func (p *OCP) DynRow(k, j int) int { return NX + (NX+1)*k + j }

// GapRow returns the constraint index of the gap equation of stage k.
func (p *OCP) GapRow(k int) int { return NX + (NX+1)*k + NX }

// IneqRow returns the constraint index of inequality k (−1 with
// Complementarity).
func (p *OCP) IneqRow(k int) int {
	if p.comp {
		return -1
	}
	return NX + (NX+1)*p.n + k
}

// Pairs returns the complementarity pairs (s_k, λ_k), k = 0…N−1.
func (p *OCP) Pairs() [][2]int {
	out := make([][2]int, p.n)
	for k := range out {
		out[k] = [2]int{p.SIndex(k), p.LambdaIndex(k)}
	}
	return out
}

// Dims implements nlp.Problem: n = 14N + 8, m = 10N + 8 (9N + 8 with
// Complementarity).
func (p *OCP) Dims() (n, m int) {
	m = NX + (NX+1)*p.n
	if !p.comp {
		m += p.n
	}
	return StageVars*p.n + NX, m
}

// Bounds implements nlp.Problem.
func (p *OCP) Bounds(xL, xU, gL, gU []float64) {
	inf := math.Inf(1)
	for k := 0; k <= p.n; k++ {
		for j := range NX {
			i := p.XIndex(k, j)
			if j < 4 {
				xL[i], xU[i] = -inf, inf
			} else {
				xL[i], xU[i] = -MaxV, MaxV
			}
		}
		if k == p.n {
			break
		}
		for j := range NU {
			i := p.UIndex(k, j)
			xL[i], xU[i] = -MaxU, MaxU
		}
		xL[p.SIndex(k)], xU[p.SIndex(k)] = 0, inf
		xL[p.LambdaIndex(k)], xU[p.LambdaIndex(k)] = 0, inf
	}
	for j := range NX {
		gL[j], gU[j] = p.x0[j], p.x0[j]
	}
	for k := range p.n {
		for j := range NX + 1 {
			gL[p.DynRow(k, j)], gU[p.DynRow(k, j)] = 0, 0
		}
		if !p.comp {
			gL[p.IneqRow(k)], gU[p.IneqRow(k)] = -inf, p.sigma
		}
	}
}

// Start implements nlp.Problem: x_k = x̄, u = 0, s = q̄₁ + 1, λ = 0.
func (p *OCP) Start(x []float64) {
	clear(x)
	for k := 0; k <= p.n; k++ {
		copy(x[p.XIndex(k, 0):p.XIndex(k, NX)], p.x0[:])
		if k < p.n {
			x[p.SIndex(k)] = p.x0[0] + WallGap
		}
	}
}

// weight returns the stage weight of the tracking cost (h, or 1 at k = N).
func (p *OCP) weight(k int) float64 {
	if k == p.n {
		return 1
	}
	return Step
}

// Objective implements nlp.Problem.
func (p *OCP) Objective(x []float64) (float64, error) {
	f := 0.0
	for k := 0; k <= p.n; k++ {
		xk := x[StageVars*k : StageVars*k+NX]
		r := &p.ref[k]
		s := 0.0
		for i := range 4 {
			d := xk[i] - r[i]
			s += d*d + WeightV*xk[4+i]*xk[4+i]
		}
		if k < p.n {
			uk := x[StageVars*k+NX : StageVars*k+NX+NU]
			for _, u := range uk {
				s += WeightU * u * u
			}
		}
		f += p.weight(k) * s
	}
	return f, nil
}

// Gradient implements nlp.Problem.
func (p *OCP) Gradient(x, grad []float64) error {
	for k := 0; k <= p.n; k++ {
		w := 2 * p.weight(k)
		b := StageVars * k
		r := &p.ref[k]
		for i := range 4 {
			grad[b+i] = w * (x[b+i] - r[i])
			grad[b+4+i] = w * WeightV * x[b+4+i]
		}
		if k < p.n {
			for j := range NU {
				grad[b+NX+j] = w * WeightU * x[b+NX+j]
			}
			grad[b+NX+NU], grad[b+NX+NU+1] = 0, 0
		}
	}
	return nil
}

// accel returns v̇ᵢ without the control and contact terms.
func accel(q []float64, i int) float64 {
	a := -Omega[i]*Omega[i]*q[i] - Cubic*q[i]*q[i]*q[i] - 2*Coupling*q[i]
	if i > 0 {
		a += Coupling * q[i-1]
	}
	if i < 3 {
		a += Coupling * q[i+1]
	}
	return a
}

// Constraints implements nlp.Problem.
func (p *OCP) Constraints(x, g []float64) error {
	copy(g[:NX], x[:NX])
	for k := range p.n {
		b := StageVars * k
		xk := x[b : b+NX]
		xn := x[b+StageVars : b+StageVars+NX]
		u := x[b+NX : b+NX+NU]
		s, l := x[b+NX+NU], x[b+NX+NU+1]
		r := g[p.DynRow(k, 0) : p.DynRow(k, 0)+NX+1]
		for i := range 4 {
			r[i] = xn[i] - xk[i] - Step*xk[4+i]
			a := accel(xk[:4], i) + u[i]
			if i == 0 {
				a += l
			}
			r[4+i] = xn[4+i] - xk[4+i] - Step*a
		}
		r[NX] = s - xk[0] - WallGap
		if !p.comp {
			g[p.IneqRow(k)] = s * l
		}
	}
	return nil
}

// JacobianStructure implements nlp.Problem. Per stage: the position rows,
// the velocity rows, the gap row, then (separately, after all stages) the
// inequality rows; entries of a row in a fixed order that JacobianValues
// repeats.
func (p *OCP) JacobianStructure() (rows, cols []int) {
	nnz := NX + p.n*(stageJac-2)
	if !p.comp {
		nnz += 2 * p.n
	}
	rows, cols = make([]int, 0, nnz), make([]int, 0, nnz)
	add := func(i, j int) { rows, cols = append(rows, i), append(cols, j) }
	for j := range NX {
		add(j, p.XIndex(0, j))
	}
	for k := range p.n {
		for i := range 4 {
			r := p.DynRow(k, i)
			add(r, p.XIndex(k, i))
			add(r, p.XIndex(k, 4+i))
			add(r, p.XIndex(k+1, i))
		}
		for i := range 4 {
			r := p.DynRow(k, 4+i)
			if i > 0 {
				add(r, p.XIndex(k, i-1))
			}
			add(r, p.XIndex(k, i))
			if i < 3 {
				add(r, p.XIndex(k, i+1))
			}
			add(r, p.XIndex(k, 4+i))
			add(r, p.UIndex(k, i))
			if i == 0 {
				add(r, p.LambdaIndex(k))
			}
			add(r, p.XIndex(k+1, 4+i))
		}
		add(p.GapRow(k), p.XIndex(k, 0))
		add(p.GapRow(k), p.SIndex(k))
	}
	if !p.comp {
		for k := range p.n {
			add(p.IneqRow(k), p.SIndex(k))
			add(p.IneqRow(k), p.LambdaIndex(k))
		}
	}
	return rows, cols
}

// JacobianValues implements nlp.Problem.
func (p *OCP) JacobianValues(x, vals []float64) error {
	v := vals
	for j := range NX {
		v[j] = 1
	}
	v = v[NX:]
	for k := range p.n {
		b := StageVars * k
		for range 4 {
			v[0], v[1], v[2] = -1, -Step, 1
			v = v[3:]
		}
		for i := range 4 {
			q := x[b+i]
			if i > 0 {
				v[0] = -Step * Coupling
				v = v[1:]
			}
			v[0] = Step * (Omega[i]*Omega[i] + 3*Cubic*q*q + 2*Coupling)
			v = v[1:]
			if i < 3 {
				v[0] = -Step * Coupling
				v = v[1:]
			}
			v[0], v[1] = -1, -Step
			v = v[2:]
			if i == 0 {
				v[0] = -Step
				v = v[1:]
			}
			v[0] = 1
			v = v[1:]
		}
		v[0], v[1] = -1, 1
		v = v[2:]
	}
	if !p.comp {
		for k := range p.n {
			v[0], v[1] = x[p.LambdaIndex(k)], x[p.SIndex(k)]
			v = v[2:]
		}
	}
	return nil
}

// HessianStructure implements nlp.Problem: per stage the diagonals of x_k
// and u_k and, with the inequality, the (λ_k, s_k) entry; then x_N.
func (p *OCP) HessianStructure() (rows, cols []int) {
	nnz := p.n*stageHess + NX
	rows, cols = make([]int, 0, nnz), make([]int, 0, nnz)
	add := func(i, j int) { rows, cols = append(rows, i), append(cols, j) }
	for k := 0; k <= p.n; k++ {
		for j := range NX {
			add(p.XIndex(k, j), p.XIndex(k, j))
		}
		if k == p.n {
			break
		}
		for j := range NU {
			add(p.UIndex(k, j), p.UIndex(k, j))
		}
		if !p.comp {
			add(p.LambdaIndex(k), p.SIndex(k))
		}
	}
	return rows, cols
}

// HessianValues implements nlp.Problem.
func (p *OCP) HessianValues(x []float64, sigma float64, lambda, vals []float64) error {
	v := vals
	for k := 0; k <= p.n; k++ {
		w := 2 * sigma * p.weight(k)
		b := StageVars * k
		for i := range 4 {
			v[i] = w
			if k < p.n {
				// −h·(−3c q²)'' = 6hc·q on velocity row i.
				v[i] += lambda[p.DynRow(k, 4+i)] * 6 * Step * Cubic * x[b+i]
			}
			v[4+i] = w * WeightV
		}
		v = v[NX:]
		if k == p.n {
			break
		}
		for j := range NU {
			v[j] = w * WeightU
		}
		v = v[NU:]
		if !p.comp {
			v[0] = lambda[p.IneqRow(k)]
			v = v[1:]
		}
	}
	return nil
}

// Stages implements nlp.StageHinter: stage k for the variables of block k
// and the constraints of stage k (the initial condition is stage 0), N for
// x_N.
func (p *OCP) Stages(xStage, gStage []int) {
	for j := range xStage {
		xStage[j] = j / StageVars
	}
	for j := range NX {
		gStage[j] = 0
	}
	for k := range p.n {
		for j := range NX + 1 {
			gStage[p.DynRow(k, j)] = k
		}
		if !p.comp {
			gStage[p.IneqRow(k)] = k
		}
	}
}
