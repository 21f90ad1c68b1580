package reference

import (
	"errors"
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/rk"
	"gonum.org/v1/gonum/mat"
)

// Stewart's three masses with Coulomb friction (Stewart 1996, §5, eq. 15),
// x = (q₁, q₂, q₃, v₁, v₂, v₃):
//
//	q̈₁ = −q₁ + (q₂ − q₁) − q̇₁ − 0.3 sgn(q̇₁)
//	q̈₂ = (q₁ − q₂) + (q₃ − q₂) − q̇₂ − 0.3 sgn(q̇₂)
//	q̈₃ = (q₂ − q₃) − q̇₃ − 0.3 sgn(q̇₃) + 10 cos(πt)
//
// q(0) = (−1, 1, −1), v(0) = (−1, 1, 1), t ∈ [0, 10].
var (
	FrictionX0 = []float64{-1, 1, -1, -1, 1, 1}
	// FrictionMu is the friction force bound 0.3.
	FrictionMu = 0.3
	// FrictionTEnd is the horizon of the benchmark.
	FrictionTEnd = 10.0
)

// frictionK is the spring matrix: the smooth force is F = K q + (0, 0,
// 10 cos πt) − v.
var frictionK = [3][3]float64{{-2, 1, 0}, {1, -2, 1}, {0, 1, -1}}

// FrictionForm selects how FrictionModel writes the friction forces
// −0.3 sgn(v_j).
type FrictionForm int

const (
	// FrictionSplit: three independent 2-mode Filippov subsystems
	// "mass1"…"mass3" (the paper's decomposition, 004 Remark 19), ψ_j = v_j,
	// S = [1; −1], modes −0.3e_{v_j} (v_j > 0) and +0.3e_{v_j} (v_j < 0).
	// It serves the Step formulation (sgn v_j ↦ 2α_j − 1) and Stewart's.
	FrictionSplit FrictionForm = iota
	// FrictionJoint: one subsystem with ψ = v and all 8 sign combinations
	// (dcs.DefaultSigns(3)).
	FrictionJoint
	// FrictionSteps: general steps α_j ∈ γ(v_j) with sgn(v_j) = 2α_j − 1
	// written into F0 (Model.AddStep, the Heaviside form of 004 §2.5 with
	// one step per contact); the Step formulation only.
	FrictionSteps
)

// FrictionModel builds the three masses as a dcs.Model in the given form.
// The smooth part (springs, damping and the forcing 10 cos(πt) through the
// model's time symbol) is in the drift F0; sticking of mass j is the
// sliding mode v_j ≡ 0. All forms describe the same Filippov system;
// their graphs and DCS differ, so runs of two forms are not bit-identical.
// It panics on an unknown form.
func FrictionModel(form FrictionForm) *dcs.Model {
	switch form {
	case FrictionSteps:
		return frictionSteps()
	case FrictionSplit, FrictionJoint:
	default:
		panic(fmt.Sprintf("reference: unknown FrictionForm %d", form))
	}
	g := ad.NewGraph()
	x := g.SymVec("x", 6)
	tm := g.Sym("t")
	q, v := x[:3], x[3:]
	m := dcs.NewModel(g, x, nil, nil)
	m.Time = tm
	m.F0 = ad.Vec{v[0], v[1], v[2],
		q[0].Neg().Add(q[1].Sub(q[0])).Sub(v[0]),
		q[0].Sub(q[1]).Add(q[2].Sub(q[1])).Sub(v[1]),
		q[1].Sub(q[2]).Sub(v[2]).Add(ad.Cos(tm.Scale(math.Pi)).Scale(10)),
	}
	// friction is the mode with sgn v_idx[k] = signs[k].
	friction := func(signs []int, idx []int) ad.Vec {
		f := g.Zeros(6)
		for k, j := range idx {
			f[3+j] = g.Const(-FrictionMu * float64(signs[k]))
		}
		return f
	}
	if form == FrictionSplit {
		for j := range 3 {
			m.AddSubsystem(dcs.Subsystem{
				Name: fmt.Sprintf("mass%d", j+1),
				Psi:  ad.Vec{v[j]},
				S:    [][]int{{1}, {-1}},
				F:    []ad.Vec{friction([]int{1}, []int{j}), friction([]int{-1}, []int{j})},
			})
		}
		return m
	}
	S := dcs.DefaultSigns(3)
	F := make([]ad.Vec, len(S))
	for i, row := range S {
		F[i] = friction(row, []int{0, 1, 2})
	}
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{v[0], v[1], v[2]}, F: F})
	return m
}

// frictionSteps is FrictionModel(FrictionSteps).
func frictionSteps() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 6)
	t := g.Sym("t")
	m := dcs.NewModel(g, x, nil, nil)
	m.Time = t
	a := m.AddStep(ad.Vec{x[3], x[4], x[5]})
	m.F0 = make(ad.Vec, 6)
	for j := 0; j < 3; j++ {
		m.F0[j] = x[3+j]
		f := x[3+j].Neg().Sub(a[j].Scale(2 * FrictionMu)).AddConst(FrictionMu)
		for k := 0; k < 3; k++ {
			if frictionK[j][k] != 0 {
				f = f.Add(x[k].Scale(frictionK[j][k]))
			}
		}
		if j == 2 {
			f = f.Add(ad.Cos(t.Scale(math.Pi)).Scale(10))
		}
		m.F0[3+j] = f
	}
	return m
}

// FrictionForce returns the smooth force F_j = (K q)_j + 10 cos(πt)δ_j3
// on each mass without damping and friction: a mass at rest sticks while
// |F_j| ≤ 0.3.
func FrictionForce(x []float64, t float64) [3]float64 {
	var f [3]float64
	for j := 0; j < 3; j++ {
		for k := 0; k < 3; k++ {
			f[j] += frictionK[j][k] * x[k]
		}
	}
	f[2] += 10 * math.Cos(math.Pi*t)
	return f
}

// ErrEvent reports an event the friction reference cannot resolve (a slip
// that would not start, a grazing contact, events closer than the root
// tolerance).
var ErrEvent = errors.New("reference: unresolved friction event")

// Augmented state of the friction reference: y = (q, v, cos πt, sin πt, 1),
// so that every mode is the linear autonomous system ẏ = M y.
const (
	nAug  = 9
	iCos  = 6
	iSin  = 7
	iOne  = 8
	nMass = 3
)

// FrictionSolution is the event-driven solution of the three masses:
// segment k starts at Start[k] in the augmented state Y[k] with the mass
// modes Mode[k] (+1, −1: slipping with that velocity sign; 0: stuck).
type FrictionSolution struct {
	Start  []float64
	Y      [][]float64
	Mode   [][nMass]int
	Events []Event
	End    float64
	// flow propagates a segment; it is the matrix exponential except in
	// tests.
	flow flowFunc
}

// flowFunc returns y(τ) = exp(Mτ)·y for the generator M.
type flowFunc func(M *mat.Dense, y []float64, tau float64) []float64

// expFlow is the exact flow by the matrix exponential (gonum's Padé
// approximation with scaling and squaring).
func expFlow(M *mat.Dense, y []float64, tau float64) []float64 {
	var E, Mt mat.Dense
	Mt.Scale(tau, M)
	E.Exp(&Mt)
	out := mat.NewVecDense(nAug, nil)
	out.MulVec(&E, mat.NewVecDense(nAug, append([]float64(nil), y...)))
	return out.RawVector().Data
}

// rk4Flow returns a flow by the classical Runge–Kutta method (rk.RK4 by
// rk.ExplicitStepper) with steps of at most h (used to verify expFlow in
// tests).
func rk4Flow(h float64) flowFunc {
	return func(M *mat.Dense, y []float64, tau float64) []float64 {
		cur := append([]float64(nil), y...)
		n := int(math.Ceil(math.Abs(tau) / h))
		if n == 0 {
			return cur
		}
		st, err := rk.NewExplicitStepper(rk.RK4(), nAug)
		if err != nil {
			panic(err) // rk.RK4 is a valid explicit tableau
		}
		m := M.RawMatrix()
		f := func(_ float64, y, dy []float64) { // dy = M y
			for r := range dy {
				row := m.Data[r*m.Stride : r*m.Stride+nAug]
				dy[r] = 0
				for c, v := range row {
					dy[r] += v * y[c]
				}
			}
		}
		dt := tau / float64(n)
		for i := 0; i < n; i++ {
			st.StepTo(cur, f, float64(i)*dt, cur, dt)
		}
		return cur
	}
}

// generator returns M of the mode: q̇_j = v_j; for a slipping mass
// v̇_j = (Kq)_j − v_j − 0.3 s_j (+ 10 cos πt for j = 3), for a stuck one
// v̇_j = 0 (and v_j = 0); (cos πt)˙ = −π sin πt, (sin πt)˙ = π cos πt.
func generator(mode [nMass]int) *mat.Dense {
	M := mat.NewDense(nAug, nAug, nil)
	for j := 0; j < nMass; j++ {
		M.Set(j, nMass+j, 1)
		if mode[j] == 0 {
			continue
		}
		r := nMass + j
		for k := 0; k < nMass; k++ {
			M.Set(r, k, frictionK[j][k])
		}
		M.Set(r, r, -1)
		M.Set(r, iOne, -FrictionMu*float64(mode[j]))
		if j == 2 {
			M.Set(r, iCos, 10)
		}
	}
	M.Set(iCos, iSin, -math.Pi)
	M.Set(iSin, iCos, math.Pi)
	return M
}

// force returns F_j at the augmented state y.
func force(y []float64, j int) float64 {
	f := 0.0
	for k := 0; k < nMass; k++ {
		f += frictionK[j][k] * y[k]
	}
	if j == 2 {
		f += 10 * y[iCos]
	}
	return f
}

// eventFuncs returns the event functions of a mode, each positive while the
// mode is valid: s_j v_j for a slipping mass (zero velocity ends the slip),
// 0.3 − |F_j| as the pair 0.3 − F_j, 0.3 + F_j for a stuck one.
type eventFunc struct {
	mass int
	// kind: 0 slip ends (s v_j), +1 stick ends with F_j > 0.3, −1 with
	// F_j < −0.3.
	kind int
}

func (e eventFunc) value(y []float64, mode [nMass]int) float64 {
	j := e.mass
	if e.kind == 0 {
		return float64(mode[j]) * y[nMass+j]
	}
	return FrictionMu - float64(e.kind)*force(y, j)
}

// FrictionOptions tunes the friction reference.
type FrictionOptions struct {
	// Sample is the spacing of the sign scan of the event functions
	// (default 1e-3); RootTol the width of the final event bracket
	// (default 1e-14).
	Sample, RootTol float64
	// RK4Step, if positive, replaces the matrix exponential by the
	// classical Runge–Kutta method with steps of at most RK4Step (for
	// convergence tests).
	RK4Step float64
}

// Friction computes the solution of the three-mass problem on [0, tEnd].
//
// Method. In each mode (every mass slipping with a known velocity sign, or
// stuck) the system is linear with the forcing 10 cos πt, so with the
// augmented state y = (q, v, cos πt, sin πt, 1) it is ẏ = M y and y(t₀ + τ)
// = exp(Mτ) y(t₀) exactly; exp is gonum's mat.Exp (Padé with scaling and
// squaring, accurate to a few ulps of ‖y‖). The event functions of the mode
// (s_j v_j for a slipping mass, 0.3 ∓ F_j for a stuck one) are scanned on a
// grid of spacing Sample; each sign change is bracketed and refined by
// bisection to a bracket of RootTol, and between two samples where an event
// function has a local minimum (a possible grazing touch) the minimum is
// located by golden-section search and checked. Transitions (Stewart's
// stick/slip logic):
//
//   - a slipping mass whose velocity reaches 0 sticks if |F_j| ≤ 0.3 there
//     (v_j is set to 0 exactly), and otherwise reverses: it slips with sign
//     sgn F_j;
//   - a stuck mass starts to slip, with sign sgn F_j, when |F_j| reaches 0.3.
//
// A slip that starts at |F_j| = 0.3 leaves tangentially (v_j ∼ Ḟ_j τ²/2);
// the velocity scan starts after the first sample so that the starting zero
// is not an event, and the mode is checked to be consistent there.
func Friction(x0 []float64, tEnd float64, o FrictionOptions) (*FrictionSolution, error) {
	if len(x0) != 2*nMass {
		return nil, fmt.Errorf("reference: friction needs 6 states, got %d", len(x0))
	}
	if o.Sample <= 0 {
		o.Sample = 1e-3
	}
	if o.RootTol <= 0 {
		o.RootTol = 1e-14
	}
	flow := flowFunc(expFlow)
	if o.RK4Step > 0 {
		flow = rk4Flow(o.RK4Step)
	}
	sol := &FrictionSolution{End: tEnd, flow: flow}
	y := make([]float64, nAug)
	copy(y, x0)
	y[iCos], y[iSin], y[iOne] = 1, 0, 1
	var mode [nMass]int
	for j := 0; j < nMass; j++ {
		switch v := x0[nMass+j]; {
		case v > 0:
			mode[j] = 1
		case v < 0:
			mode[j] = -1
		default:
			f := force(y, j)
			switch {
			case f > FrictionMu:
				mode[j] = 1
			case f < -FrictionMu:
				mode[j] = -1
			}
		}
	}
	t := 0.0
	for iter := 0; ; iter++ {
		if iter > 10000 {
			return nil, fmt.Errorf("%w: more than 10000 events", ErrEvent)
		}
		sol.Start = append(sol.Start, t)
		sol.Y = append(sol.Y, y)
		sol.Mode = append(sol.Mode, mode)
		M := generator(mode)
		var funcs []eventFunc
		for j := 0; j < nMass; j++ {
			if mode[j] != 0 {
				funcs = append(funcs, eventFunc{j, 0})
			} else {
				funcs = append(funcs, eventFunc{j, 1}, eventFunc{j, -1})
			}
		}
		tau, which, yEv, err := firstEvent(M, y, mode, funcs, tEnd-t, o, flow)
		if err != nil {
			return nil, fmt.Errorf("t = %.15g: %w", t, err)
		}
		if which < 0 {
			break
		}
		t += tau
		y = yEv
		e := funcs[which]
		j := e.mass
		ev := Event{T: t, Psi: j}
		if e.kind == 0 {
			y[nMass+j] = 0
			f := force(y, j)
			if math.Abs(f) <= FrictionMu {
				mode[j] = 0
				ev.Kind = "stick"
			} else {
				mode[j] = int(math.Copysign(1, f))
				ev.Kind = "reversal"
				ev.Dir = mode[j]
			}
		} else {
			mode[j] = e.kind
			ev.Kind = "slip"
			ev.Dir = e.kind
		}
		ev.X = append([]float64(nil), y[:2*nMass]...)
		sol.Events = append(sol.Events, ev)
	}
	return sol, nil
}

// firstEvent finds the first zero of the event functions on (0, maxTau].
// It returns which < 0 when there is none.
func firstEvent(M *mat.Dense, y []float64, mode [nMass]int, funcs []eventFunc, maxTau float64, o FrictionOptions, flow flowFunc) (float64, int, []float64, error) {
	n := int(math.Ceil(maxTau / o.Sample))
	if n < 1 {
		n = 1
	}
	dt := maxTau / float64(n)
	prevTau := 0.0
	prevY := y
	prevV := make([]float64, len(funcs))
	prev2V := make([]float64, len(funcs))
	for i, f := range funcs {
		prevV[i] = f.value(y, mode)
		prev2V[i] = math.NaN()
	}
	at := func(from []float64, fromTau, tau float64) []float64 { return flow(M, from, tau-fromTau) }
	for k := 1; k <= n; k++ {
		tau := float64(k) * dt
		if k == n {
			tau = maxTau
		}
		cur := at(prevY, prevTau, tau)
		best, bestI := math.Inf(1), -1
		var bestY []float64
		for i, f := range funcs {
			v := f.value(cur, mode)
			g := func(s float64) float64 { return f.value(at(prevY, prevTau, s), mode) }
			var root float64
			found := false
			switch {
			case prevV[i] > 0 && v <= 0:
				root, found = bisect(g, prevTau, tau, o.RootTol), true
			case prevV[i] <= 0 && k > 1:
				return 0, -1, nil, fmt.Errorf("%w: event function %d of mass %d is %g at τ = %g", ErrEvent, f.kind, f.mass+1, prevV[i], prevTau)
			case v > 0 && !math.IsNaN(prev2V[i]) && prevV[i] < prev2V[i] && prevV[i] < v:
				// A local minimum in (τ_{k−2}, τ_k): check whether it dips
				// below zero (a grazing or a double crossing).
				lo := prevTau - dt
				m := goldenMin(g, lo, tau, 1e-12)
				if gm := g(m); gm <= 0 {
					root, found = bisect(g, lo, m, o.RootTol), true
				}
			}
			if found && root < best {
				best, bestI = root, i
				bestY = at(prevY, prevTau, root)
			}
			prev2V[i] = prevV[i]
			prevV[i] = v
		}
		if bestI >= 0 {
			return best, bestI, bestY, nil
		}
		prevTau, prevY = tau, cur
		// The velocity of a slip that started at rest is zero at τ = 0;
		// after the first sample it must be positive (s_j v_j > 0).
		if k == 1 {
			for i, f := range funcs {
				if prevV[i] <= 0 {
					return 0, -1, nil, fmt.Errorf("%w: mass %d does not leave its event surface (value %g)", ErrEvent, f.mass+1, prevV[i])
				}
			}
		}
	}
	return 0, -1, nil, nil
}

// bisect returns the left end of a bracket of width tol around the first
// sign change of g (g(a) > 0 ≥ g(b)): the point just before the event, so
// that the old mode is valid up to it.
func bisect(g func(float64) float64, a, b, tol float64) float64 {
	for b-a > tol*math.Max(1, math.Abs(a)) {
		m := a + (b-a)/2
		if m <= a || m >= b {
			break
		}
		if g(m) > 0 {
			a = m
		} else {
			b = m
		}
	}
	return b
}

// goldenMin locates a minimum of g on [a, b] by golden-section search.
func goldenMin(g func(float64) float64, a, b, tol float64) float64 {
	r := (math.Sqrt(5) - 1) / 2
	c, d := b-r*(b-a), a+r*(b-a)
	gc, gd := g(c), g(d)
	for b-a > tol {
		if gc < gd {
			b, d, gd = d, c, gc
			c = b - r*(b-a)
			gc = g(c)
		} else {
			a, c, gc = c, d, gd
			d = a + r*(b-a)
			gd = g(d)
		}
	}
	return (a + b) / 2
}

// At returns the state x(t) (6 values) for t ∈ [0, End].
func (s *FrictionSolution) At(t float64) []float64 {
	k := 0
	for k+1 < len(s.Start) && s.Start[k+1] <= t {
		k++
	}
	y := s.flow(generator(s.Mode[k]), s.Y[k], t-s.Start[k])
	return y[:2*nMass]
}

// DX0 returns the exact sensitivity ∂x(t)/∂x₀ (6×6, DX0[i][j] =
// ∂x_i(t)/∂x₀_j) of the solution for t ∈ [0, End], by the variational
// equation of the event-driven solution: within a segment of mode M the
// flow of the augmented state is exp(Mτ), so its derivative is exp(Mτ); at
// an event with event function g (v_j for a slip that ends, 0.3 ∓ F_j for
// a stick that ends) and fields f⁻ = M_old y, f⁺ = M_new y at the event
// state y the event time moves with the state and the derivative jumps by
// the saltation matrix
//
//	Σ = I + (f⁺ − f⁻) ∇gᵀ / (∇gᵀ f⁻)
//
// (Aizerman and Gantmacher 1958; for a mass that starts to stick f⁺ has
// v̇_j = 0 and Σ removes the v_j component, as the sliding mode attracts;
// for a slip that starts f⁺ = f⁻ and Σ = I). The derivative with respect
// to the initial cos πt, sin πt and 1 is not needed: they do not depend on
// x₀. It is an error when an event is not transversal (∇gᵀ f⁻ = 0).
func (s *FrictionSolution) DX0(t float64) ([][]float64, error) {
	if t < 0 || t > s.End {
		return nil, fmt.Errorf("reference: DX0 at t = %g outside [0, %g]", t, s.End)
	}
	phi := mat.NewDense(nAug, nAug, nil)
	for i := 0; i < nAug; i++ {
		phi.Set(i, i, 1)
	}
	flowTo := func(M *mat.Dense, tau float64) {
		var E, Mt, tmp mat.Dense
		Mt.Scale(tau, M)
		E.Exp(&Mt)
		tmp.Mul(&E, phi)
		phi.Copy(&tmp)
	}
	for k := range s.Start {
		M := generator(s.Mode[k])
		end := s.End
		if k+1 < len(s.Start) {
			end = s.Start[k+1]
		}
		if t <= end || k+1 == len(s.Start) {
			flowTo(M, t-s.Start[k])
			break
		}
		flowTo(M, end-s.Start[k])
		ev := s.Events[k]
		y := s.Y[k+1]
		grad := make([]float64, nAug)
		j := ev.Psi
		if ev.Kind == "slip" {
			for c := 0; c < nMass; c++ {
				grad[c] = frictionK[j][c]
			}
			if j == 2 {
				grad[iCos] = 10
			}
		} else {
			grad[nMass+j] = 1
		}
		fm, fp := mat.NewVecDense(nAug, nil), mat.NewVecDense(nAug, nil)
		yv := mat.NewVecDense(nAug, append([]float64(nil), y...))
		fm.MulVec(M, yv)
		fp.MulVec(generator(s.Mode[k+1]), yv)
		den := 0.0
		for i := range grad {
			den += grad[i] * fm.AtVec(i)
		}
		if den == 0 || math.IsNaN(den) {
			return nil, fmt.Errorf("%w: %s of mass %d at t = %g is not transversal", ErrEvent, ev.Kind, j+1, ev.T)
		}
		sigma := mat.NewDense(nAug, nAug, nil)
		for r := 0; r < nAug; r++ {
			sigma.Set(r, r, 1)
			d := (fp.AtVec(r) - fm.AtVec(r)) / den
			for c := 0; c < nAug; c++ {
				sigma.Set(r, c, sigma.At(r, c)+d*grad[c])
			}
		}
		var tmp mat.Dense
		tmp.Mul(sigma, phi)
		phi.Copy(&tmp)
	}
	out := make([][]float64, 2*nMass)
	for i := range out {
		out[i] = make([]float64, 2*nMass)
		for j := range out[i] {
			out[i][j] = phi.At(i, j)
		}
	}
	return out, nil
}
