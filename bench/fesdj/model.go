package main

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// balls are the parameters of the two balls connected by a spring of the
// FESD-J paper, §5.1 (A. Nurkanović, J. Frey, A. Pozharskiy, M. Diehl,
// "FESD-J: Finite Elements with Switch Detection for numerical optimal
// control of rigid bodies with impacts and Coulomb friction", Nonlinear
// Analysis: Hybrid Systems 52 (2024) 101460, eqs. (34)–(37); nosnoc's
// benchmarks/two_balls_cls/benchmark_globals.m): q = (q₁, q₂) the heights
// of the balls, unit masses,
//
//	q̈₁ = −g + k(q₂ − q₁ − l) + λ_n,  q̈₂ = −g − k(q₂ − q₁ − l),
//	0 ≤ λ_n ⊥ q₁ − R ≥ 0,  v₁⁺ = −e v₁⁻ at an impact.
type balls struct {
	G, K, L, R, E float64
	X0            [4]float64 // (q₁, q₂, v₁, v₂) at t = 0
	T             float64    // the horizon
}

// paperBalls are the paper's values: g = 9.81, k = 1e4, l = 1, R = 0.2,
// e = 0.8, x₀ = (1, 2, 0, 0), T = 1.
var paperBalls = balls{G: 9.81, K: 1e4, L: 1, R: 0.2, E: 0.8, X0: [4]float64{1, 2, 0, 0}, T: 1}

// cls builds the system as a dcs.CLS.
func (b balls) cls() (*dcs.CLS, error) {
	g := ad.NewGraph()
	q, v := g.SymVec("q", 2), g.SymVec("v", 2)
	M, err := ad.NewMat(2, 2, g.Const(1), g.Const(0), g.Const(0), g.Const(1))
	if err != nil {
		return nil, err
	}
	spring := q[1].Sub(q[0]).Sub(g.Const(b.L)).Mul(g.Const(b.K))
	fv := ad.Vec{g.Const(-b.G).Add(spring), g.Const(-b.G).Sub(spring)}
	return dcs.NewCLS(dcs.RigidBody{Graph: g, Q: q, V: v, M: M, FV: fv,
		Contacts: []dcs.Contact{{Name: "ground", Gap: q[0].Sub(g.Const(b.R)), Restitution: b.E}}})
}

// flow is the solution between impacts, in closed form: the centre of
// mass c = (q₁ + q₂)/2 falls freely, c̈ = −g, and the stretch
// δ = q₂ − q₁ − l is a harmonic oscillator, δ̈ = −2kδ (ω = √(2k)).
type flow struct {
	b          balls
	c0, w0     float64 // c and ċ at τ = 0
	d0, dd0, w float64 // δ, δ̇ at τ = 0 and ω
}

func (b balls) flowFrom(x [4]float64) flow {
	return flow{b: b, c0: (x[0] + x[1]) / 2, w0: (x[2] + x[3]) / 2,
		d0: x[1] - x[0] - b.L, dd0: x[3] - x[2], w: math.Sqrt(2 * b.K)}
}

// at returns the state τ after the start of the flow.
func (f flow) at(tau float64) [4]float64 {
	c := f.c0 + f.w0*tau - f.b.G*tau*tau/2
	cd := f.w0 - f.b.G*tau
	s, co := math.Sincos(f.w * tau)
	d := f.d0*co + f.dd0/f.w*s
	dd := -f.d0*f.w*s + f.dd0*co
	return [4]float64{c - (f.b.L+d)/2, c + (f.b.L+d)/2, cd - dd/2, cd + dd/2}
}

// gap returns q₁ − R τ after the start of the flow.
func (f flow) gap(tau float64) float64 { return f.at(tau)[0] - f.b.R }

// reference is the exact solution: the impact times and the state at the
// horizon.
type reference struct {
	Impacts []float64
	XT      [4]float64
}

// refSamples is the number of samples per period 2π/ω of the stretch at
// which the reference looks for the gap to close.
const refSamples = 2000

// solve returns the exact solution on [0, T]: the closed-form flow
// between impacts, each impact the first sign change of the gap q₁ − R
// after the last one, found on a grid of refSamples points per period of
// the spring and then by bisection down to adjacent floating-point
// numbers, where v₁ is reversed by Newton's law. The gap is quadratic in
// time plus a sinusoid of period 2π/ω, so between two samples it has at
// most one extremum up to O((ωΔτ)²): a touch that closes and reopens the
// gap between two samples is reported as an error when the smallest
// sampled gap of a flight comes within refGrazing of zero without a sign
// change. A body at rest on the ground (v₁ = 0 at q₁ = R with a
// downward acceleration) is an error too: the closed form does not hold
// there.
func (b balls) solve() (*reference, error) {
	const refGrazing = 1e-6
	x, t := b.X0, 0.0
	ref := &reference{}
	w := math.Sqrt(2 * b.K)
	dtau := 2 * math.Pi / w / refSamples
	for it := 0; ; it++ {
		if it > 10000 {
			return nil, fmt.Errorf("more than 10000 impacts before T = %g", b.T)
		}
		f := b.flowFrom(x)
		left := b.T - t
		tau, hit := 0.0, false
		lo := 0.0
		minGap := math.Inf(1)
		for k := 1; ; k++ {
			hi := math.Min(float64(k)*dtau, left)
			gh := f.gap(hi)
			if gh < 0 {
				for {
					mid := (lo + hi) / 2
					if mid <= lo || mid >= hi {
						break
					}
					if f.gap(mid) < 0 {
						hi = mid
					} else {
						lo = mid
					}
				}
				tau, hit = hi, true
				break
			}
			if k > 1 || it == 0 {
				minGap = math.Min(minGap, gh)
			}
			if hi >= left {
				break
			}
			lo = hi
		}
		if !hit && minGap < refGrazing {
			return nil, fmt.Errorf("a grazing touch (gap %.2g) after t = %g", minGap, t)
		}
		if !hit {
			ref.XT = f.at(left)
			return ref, nil
		}
		x = f.at(tau)
		t += tau
		if x[2] >= 0 {
			return nil, fmt.Errorf("the gap closes at t = %g with v₁ = %g ≥ 0", t, x[2])
		}
		x[0] = b.R // the bisection's root, to the last bit
		x[2] = -b.E * x[2]
		ref.Impacts = append(ref.Impacts, t)
		if x[2] < 1e-9 {
			return nil, fmt.Errorf("the ball comes to rest on the ground at t = %g", t)
		}
	}
}
