// Package kktgen generates an OCP-shaped KKT matrix, the benchmark matrix of
// the sparse LDLᵀ in package linalg (package nlp/testprob holds the NLP it
// comes from).
//
// # Problem
//
// Four coupled Duffing oscillators (n_x = 8: positions q₁…q₄, velocities
// v₁…v₄; n_u = 4 forces u₁…u₄) are discretized by explicit Euler over N
// stages with step h. Oscillator 1 touches a wall: per stage one contact pair
// (s_k, λ_k), the gap s_k = q₁ₖ + 1 and the contact force λ_k pushing on
// v₁, Scholtes-relaxed as s_k·λ_k ≤ σ. Bounds on u, v, s, λ contribute the
// barrier terms Σ_x. The NLP is
//
//	min  Σ_k h(‖x_k‖² + ‖u_k‖²) + ‖x_N‖²
//	s.t. x₀ = x̄                                   (8 equalities)
//	     x_{k+1} = x_k + h f(x_k, u_k, λ_k)           (8N equalities)
//	     s_k − q₁ₖ − 1 = 0                            (N equalities)
//	     s_k·λ_k ≤ σ                                  (N inequalities)
//	with q̇ᵢ = vᵢ,  v̇ᵢ = −ωᵢ²qᵢ − c qᵢ³ − κ(2qᵢ − qᵢ₋₁ − qᵢ₊₁) + uᵢ + [i=1]λ.
//
// Variables (n = 14N + 8): per stage k < N the block (x_k, u_k, s_k, λ_k)
// of 14 entries, then x_N. Constraints: m = 10N + 8, of which 9N + 8
// equalities (c) and N inequalities (d) with slacks. For N = 800:
// n = 11 208, m = 8 008, 800 inequalities.
//
// # KKT matrix
//
// As IPOPT forms it, in the unknowns (Δx, Δs, Δy_c, Δy_d):
//
//	⎡ W+Σ_x+δ_w I   0     J_cᵀ    J_dᵀ  ⎤
//	⎢ 0             Σ_s   0       −I    ⎥
//	⎢ J_c           0     −δ_c I  0     ⎥
//	⎣ J_d           −I    0       −δ_c I⎦
//
// of dimension n + N + m = 25N + 16 (20 016 for N = 800). Values: W+Σ_x is
// a positive diagonal plus the s–λ coupling of the Hessian of s·λ (kept
// diagonally dominant), Σ_s = 1, δ_c = 1e-8, Jacobians evaluated on a smooth
// trajectory. The matrix is quasi-definite, so its inertia is exactly
// (n + N, m, 0) = (15N + 8, 10N + 8, 0): 12 008 / 8 008 for N = 800.
//
// The KKT numbering is IPOPT's block order [x; s; y_c; y_d] with y_c =
// (initial condition, then per stage the 8 dynamics rows and the gap row).
// StagePerm is the stage-interleaved pivot order: per stage k
// (x_k, [y_init if k = 0], u_k, s_k, λ_k, slack_k, y_gap,k, y_ineq,k,
// y_dyn,k), then x_N — a band of half-width about 25.
//
// # Reference timings
//
// When the sparse solver was designed, this matrix (same pattern, written
// once to a file) was factored on a 2-vCPU virtualised Xeon, single
// threaded, by a textbook up-looking LDLᵀ prototype in Go with the stage
// order (0.50 / 1.95 / 7.8 ms per factorization at N = 200 / 800 / 3200,
// 0.41 / 1.7 ms per solve at N = 800 / 3200), by C QDLDL at -O2 (0.23 /
// 1.06 / 3.97 ms) and by sequential MUMPS 5.5.1 with its own ordering
// (3.7 / 12.0 / 52.6 ms); IPOPT 3.11.9 with MUMPS took 8 / 29 / 116 ms of
// wall time per iteration on the corresponding NLP (monotone μ). These are
// the targets of the benchmarks in package linalg (BenchmarkFactorizeKKT,
// BenchmarkSolveKKT).
package kktgen

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/nlp/linalg"
)

// Sizes of the oscillator model.
const (
	NX = 8 // states per stage
	NU = 4 // controls per stage
	// StageVars is the number of primal variables per stage (x, u, s, λ).
	StageVars = NX + NU + 2
)

// KKT is a generated KKT system with its layout.
type KKT struct {
	N int // number of stages

	NVar   int // n = 14N + 8 primal variables
	NCon   int // m = 10N + 8 constraints
	NEq    int // 9N + 8 equality constraints
	NIneq  int // N inequality constraints (= slacks)
	Dim    int // n + N + m = 25N + 16
	DualC  int // first KKT index of y_c (= n + N)
	DualD  int // first KKT index of y_d (= n + N + NEq)
	DeltaC float64

	// A is the KKT matrix (upper CSC).
	A *linalg.SymCSC
	// Signs are the expected pivot signs: +1 for x and slacks, −1 for duals.
	Signs []int8
	// StagePerm is the stage-interleaved pivot order (StagePerm[k] is the
	// KKT index of pivot k).
	StagePerm []int
	// Inertia is the exact inertia (quasi-definite matrix).
	Inertia linalg.Inertia
}

// XIndex returns the primal index of state j at stage k (0 ≤ k ≤ N).
func (g *KKT) XIndex(k, j int) int { return StageVars*k + j }

// UIndex returns the primal index of control j at stage k < N.
func (g *KKT) UIndex(k, j int) int { return StageVars*k + NX + j }

// SIndex and LambdaIndex return the primal indices of s_k and λ_k.
func (g *KKT) SIndex(k int) int { return StageVars*k + NX + NU }

// LambdaIndex returns the primal index of λ_k.
func (g *KKT) LambdaIndex(k int) int { return StageVars*k + NX + NU + 1 }

// SlackIndex returns the KKT index of the slack of inequality k.
func (g *KKT) SlackIndex(k int) int { return g.NVar + k }

// InitDual returns the KKT index of the multiplier of initial condition j.
func (g *KKT) InitDual(j int) int { return g.DualC + j }

// DynDual returns the KKT index of the multiplier of dynamics row j of stage k.
func (g *KKT) DynDual(k, j int) int { return g.DualC + NX + (NX+1)*k + j }

// GapDual returns the KKT index of the multiplier of the gap equation of stage k.
func (g *KKT) GapDual(k int) int { return g.DualC + NX + (NX+1)*k + NX }

// IneqDual returns the KKT index of the multiplier of inequality k.
func (g *KKT) IneqDual(k int) int { return g.DualD + k }

// New builds the KKT matrix for N ≥ 1 stages.
func New(n int) (*KKT, error) {
	if n < 1 {
		return nil, fmt.Errorf("kktgen: N = %d, want ≥ 1", n)
	}
	g := &KKT{N: n, DeltaC: 1e-8}
	g.NVar = StageVars*n + NX
	g.NEq = NX + (NX+1)*n
	g.NIneq = n
	g.NCon = g.NEq + g.NIneq
	g.Dim = g.NVar + g.NIneq + g.NCon
	g.DualC = g.NVar + g.NIneq
	g.DualD = g.DualC + g.NEq
	g.Inertia = linalg.Inertia{Pos: g.NVar + g.NIneq, Neg: g.NCon}

	const (
		h     = 0.01
		kappa = 0.5 // spring coupling of neighbouring oscillators
		cub   = 0.2 // Duffing coefficient
	)
	omega := [4]float64{1, 1.3, 1.7, 2.1}
	var ri, ci []int
	var v []float64
	add := func(i, j int, x float64) { ri, ci, v = append(ri, i), append(ci, j), append(v, x) }
	// Trajectory at which derivatives are evaluated.
	q := func(k, i int) float64 { return 0.5 * math.Sin(0.02*float64(k)+float64(i)) }

	// W + Σ_x: positive diagonal; s–λ coupling 0.3 with diagonals ≥ 1.
	for k := 0; k <= n; k++ {
		for j := range NX {
			w := 2 * h
			if k == n {
				w = 2
			}
			if j < 4 { // Duffing curvature times a dynamics multiplier
				w += 6 * cub * h * math.Abs(q(k, j)) * 0.1
			} else { // bound on v: barrier term
				w += 0.5
			}
			add(g.XIndex(k, j), g.XIndex(k, j), w)
		}
		if k == n {
			break
		}
		for j := range NU {
			add(g.UIndex(k, j), g.UIndex(k, j), 2*h+1) // bound on u
		}
		s, l := g.SIndex(k), g.LambdaIndex(k)
		add(s, s, 1+0.5*math.Abs(math.Cos(float64(k))))
		add(l, l, 1+0.5*math.Abs(math.Sin(float64(k))))
		add(s, l, 0.3)
	}
	// Slacks and dual regularization.
	for k := range n {
		add(g.SlackIndex(k), g.SlackIndex(k), 1)
	}
	for i := g.DualC; i < g.Dim; i++ {
		add(i, i, -g.DeltaC)
	}
	// J_c: initial condition.
	for j := range NX {
		add(g.InitDual(j), g.XIndex(0, j), 1)
	}
	// J_c: dynamics x_{k+1} − x_k − h f(x_k, u_k, λ_k) = 0 and gap rows.
	for k := range n {
		for i := range 4 {
			r := g.DynDual(k, i) // position row
			add(r, g.XIndex(k+1, i), 1)
			add(r, g.XIndex(k, i), -1)
			add(r, g.XIndex(k, 4+i), -h)
			r = g.DynDual(k, 4+i) // velocity row
			add(r, g.XIndex(k+1, 4+i), 1)
			add(r, g.XIndex(k, 4+i), -1)
			qi := q(k, i)
			add(r, g.XIndex(k, i), h*(omega[i]*omega[i]+3*cub*qi*qi+2*kappa))
			if i > 0 {
				add(r, g.XIndex(k, i-1), -h*kappa)
			}
			if i < 3 {
				add(r, g.XIndex(k, i+1), -h*kappa)
			}
			add(r, g.UIndex(k, i), -h)
			if i == 0 {
				add(r, g.LambdaIndex(k), -h)
			}
		}
		r := g.GapDual(k)
		add(r, g.SIndex(k), 1)
		add(r, g.XIndex(k, 0), -1)
		// J_d: gradient of s·λ, and −I for the slack.
		r = g.IneqDual(k)
		add(r, g.SIndex(k), 0.1+0.05*math.Abs(math.Sin(float64(k))))      // λ_k
		add(r, g.LambdaIndex(k), 0.1+0.05*math.Abs(math.Cos(float64(k)))) // s_k
		add(r, g.SlackIndex(k), -1)
	}
	a, _, err := linalg.NewSymCSC(g.Dim, ri, ci, v)
	if err != nil {
		return nil, err
	}
	g.A = a
	g.Signs = make([]int8, g.Dim)
	for i := range g.Signs {
		g.Signs[i] = 1
		if i >= g.DualC {
			g.Signs[i] = -1
		}
	}
	p := make([]int, 0, g.Dim)
	for k := range n {
		for j := range NX {
			p = append(p, g.XIndex(k, j))
		}
		if k == 0 {
			for j := range NX {
				p = append(p, g.InitDual(j))
			}
		}
		for j := range NU {
			p = append(p, g.UIndex(k, j))
		}
		p = append(p, g.SIndex(k), g.LambdaIndex(k), g.SlackIndex(k), g.GapDual(k), g.IneqDual(k))
		for j := range NX {
			p = append(p, g.DynDual(k, j))
		}
	}
	for j := range NX {
		p = append(p, g.XIndex(n, j))
	}
	g.StagePerm = p
	return g, nil
}
