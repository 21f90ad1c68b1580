package dcs

import (
	"errors"
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
)

// MaxPsi is the largest number of switching functions of one subsystem:
// its 2^nψ base sets are enumerated.
const MaxPsi = 20

// Model is a nonsmooth dynamical system
//
//	ẋ = f₀(x, u, p, t, α, z) + Σ_k F_k(x, u, p, t) θ_k,
//
// built from ad expressions of one graph: a smooth drift F0, a sum of
// independent Filippov subsystems k (004 Remark 19), each with its own
// switching functions ψ_k, sign matrix S_k (or regions) and modes F_k, and
// general step selections α ∈ Γ(ψ(x)) (Model.Steps) that may enter F0
// arbitrarily (the Aizerman–Pyatnitskii form, 004 §2.4 and Remark 6), plus
// user algebraic variables z with equations G_z = 0 (for example a
// user lifting β − α₁(1 − α₄) = 0 as in IRMA).
//
// Build it with NewModel, AddSubsystem, AddStep and AddAlgebraic, or fill
// the fields directly. The model is a plain description: Validate checks
// it, Reformulate turns it into a *DCS.
type Model struct {
	Graph *ad.Graph
	// X are the differential states, U the controls, P the parameters:
	// distinct symbols of Graph. U and P may be empty.
	X, U, P ad.Vec
	// Time is an optional time symbol (the zero Expr for autonomous
	// systems). It may appear in F0 and in the modes F of subsystems only.
	Time ad.Expr
	// F0 is the smooth part of the right-hand side, of length n_x, or nil
	// for zero. It may use x, u, p, Time, the selections α of Steps and the
	// user algebraic variables.
	F0 ad.Vec
	// Subsystems are the Filippov subsystems; ẋ gets F_k θ_k from each.
	Subsystems []Subsystem
	// Steps are the general step functions α_j ∈ γ(ψ_j(x)).
	Steps []StepGroup
	// Algebraic holds user algebraic variables and equations.
	Algebraic Algebraic

	// timeFreezing is the time-freezing system that built the model (nil
	// for any other model).
	timeFreezing *TimeFreezing
}

// TimeFreezing returns the time-freezing system that built m
// (NewTimeFreezing), or nil for a model built otherwise (or a nil m). A
// solver uses it to check the physical validity of its results (see
// fesd.Validity).
func (m *Model) TimeFreezing() *TimeFreezing {
	if m == nil {
		return nil
	}
	return m.timeFreezing
}

// Subsystem is one Filippov piecewise smooth system ẋ ∈ F θ (004 eq. 11).
//
// The base sets are the rows of S (004 eq. 10): R̃_i = {x | S_ij ψ_j(x) > 0}.
// S must contain every sign pattern exactly once (2^nψ rows, entries ±1); a
// nil S means the ordering of 004 eq. (9) (see DefaultSigns). Without
// Regions the modes are the base sets and F has one column per row of S.
// With Regions, mode i lives on Regions[i], a union/intersection/complement
// of base sets; the regions must partition the base sets, and F has one
// column per region.
//
// For the Stewart formulation, G gives the indicator functions g(x) of
// (004 eq. 25), one per base set (or one per mode when there are no
// switching functions); nil means g = −Sψ (eq. 26).
type Subsystem struct {
	// Name is optional and used in messages and symbol names.
	Name string
	// Psi are the switching functions ψ(x, u, p).
	Psi ad.Vec
	// S is the sign matrix, n_base × nψ, entries ±1.
	S [][]int
	// Regions optionally merge base sets into fewer modes.
	Regions []Region
	// F are the modes f_i(x, u, p, t), each of length n_x.
	F []ad.Vec
	// G optionally gives Stewart's indicator functions g(x, u, p).
	G ad.Vec
}

// StepGroup is a group of general step selections: Alpha[j] ∈ γ(Psi[j](x)).
type StepGroup struct {
	// Psi are the switching functions ψ(x, u, p).
	Psi ad.Vec
	// Alpha are distinct symbols standing for the selections.
	Alpha ad.Vec
}

// Algebraic holds user algebraic variables Z and as many equations
// G(x, u, p, α, Z) = 0, with optional bounds (nil means unbounded) and
// starting values for InitialGuess (nil means 0).
type Algebraic struct {
	Z, G         ad.Vec
	Lower, Upper []float64
	Init         []float64
}

// NewModel returns a model with states x, controls u and parameters p (u
// and p may be nil) in graph g.
func NewModel(g *ad.Graph, x, u, p ad.Vec) *Model {
	return &Model{Graph: g, X: x, U: u, P: p}
}

// AddSubsystem appends a Filippov subsystem and returns its index.
// On a nil model it does nothing and returns −1.
func (m *Model) AddSubsystem(s Subsystem) int {
	if m == nil {
		return -1
	}
	m.Subsystems = append(m.Subsystems, s)
	return len(m.Subsystems) - 1
}

// AddStep registers the switching functions psi and returns new symbols
// α_j ∈ γ(ψ_j(x)) (named alpha_gK for the K-th call) to be used in F0 and
// in user equations (nil for a nil model).
func (m *Model) AddStep(psi ad.Vec) ad.Vec {
	if m == nil {
		return nil
	}
	alpha := m.Graph.SymVec(fmt.Sprintf("alpha_g%d", len(m.Steps)), len(psi))
	m.Steps = append(m.Steps, StepGroup{Psi: psi, Alpha: alpha})
	return alpha
}

// AddAlgebraic appends user algebraic variables z (symbols) and equations
// eq(x, u, p, α, z) = 0, unbounded and starting at 0 (nothing for a nil
// model).
func (m *Model) AddAlgebraic(z, eq ad.Vec) {
	if m == nil {
		return
	}
	n := len(m.Algebraic.Z)
	grow := func(v []float64, fill float64) []float64 {
		if v == nil && fill == 0 {
			return nil
		}
		for len(v) < n {
			v = append(v, fill)
		}
		for range z {
			v = append(v, fill)
		}
		return v
	}
	if m.Algebraic.Lower != nil {
		m.Algebraic.Lower = grow(m.Algebraic.Lower, math.Inf(-1))
	}
	if m.Algebraic.Upper != nil {
		m.Algebraic.Upper = grow(m.Algebraic.Upper, math.Inf(1))
	}
	if m.Algebraic.Init != nil {
		m.Algebraic.Init = grow(m.Algebraic.Init, 0)
	}
	m.Algebraic.Z = append(m.Algebraic.Z, z...)
	m.Algebraic.G = append(m.Algebraic.G, eq...)
}

// DefaultSigns returns the dense sign matrix of 004 eq. (9) for n switching
// functions: row i (0-based) has S_ij = +1 if bit n−1−j of i is 0 and −1
// otherwise, so row 0 is all +1 and the last row all −1. It returns nil for
// n < 0 or n > MaxPsi.
func DefaultSigns(n int) [][]int {
	if n < 0 || n > MaxPsi {
		return nil
	}
	S := make([][]int, 1<<uint(n))
	for i := range S {
		S[i] = make([]int, n)
		for j := 0; j < n; j++ {
			if i>>uint(n-1-j)&1 == 0 {
				S[i][j] = 1
			} else {
				S[i][j] = -1
			}
		}
	}
	return S
}

// prepSub is a validated subsystem.
type prepSub struct {
	nPsi   int
	S      [][]int // resolved sign matrix (nil without ψ)
	nModes int     // len(F)
	// region[i] is the mode of base set i (nil: base set i is mode i).
	region []int
	// tables[i] is the truth table of mode i over sign vertices (only with
	// Regions).
	tables [][]bool
}

// nBase is the number of base sets (Stewart's θ count).
func (ps *prepSub) nBase() int {
	if ps.S != nil {
		return len(ps.S)
	}
	return ps.nModes
}

// Validate checks the model: dimensions, symbols, sign matrices, regions
// and which symbols each expression uses. The error is an *Error (or
// wraps a sentinel) naming the problem.
func (m *Model) Validate() error {
	_, err := m.prepare()
	return err
}

func (m *Model) prepare() ([]prepSub, error) {
	if m == nil || m.Graph == nil {
		return nil, ErrNilGraph
	}
	if err := m.Graph.Err(); err != nil {
		return nil, newErr(ErrInvalidExpr, -1, "Graph", -1, -1, "%v", err)
	}
	if len(m.X) == 0 {
		return nil, ErrNoStates
	}
	nx := len(m.X)
	seen := make(map[ad.Expr]string)
	symbols := func(field string, v ad.Vec) error {
		for i, e := range v {
			if !m.own(e) {
				return newErr(ErrInvalidExpr, -1, field, i, -1, "")
			}
			if !e.IsSymbol() {
				return newErr(ErrNotSymbol, -1, field, i, -1, "%v", e)
			}
			if prev, ok := seen[e]; ok {
				return newErr(ErrDuplicateSymbol, -1, field, i, -1, "%v is also %s", e, prev)
			}
			seen[e] = fmt.Sprintf("%s[%d]", field, i)
		}
		return nil
	}
	for _, f := range []struct {
		name string
		v    ad.Vec
	}{{"X", m.X}, {"U", m.U}, {"P", m.P}} {
		if err := symbols(f.name, f.v); err != nil {
			return nil, err
		}
	}
	if m.Time != (ad.Expr{}) {
		if err := symbols("Time", ad.Vec{m.Time}); err != nil {
			e := err.(*Error)
			e.Index = -1
			return nil, e
		}
	}
	var stepAlpha, stepPsi ad.Vec
	for k, st := range m.Steps {
		if len(st.Psi) != len(st.Alpha) {
			return nil, newErr(ErrDimension, -1, fmt.Sprintf("Steps[%d]", k), -1, -1, "%d switching functions, %d selections", len(st.Psi), len(st.Alpha))
		}
		if err := symbols(fmt.Sprintf("Steps[%d].Alpha", k), st.Alpha); err != nil {
			return nil, err
		}
		stepAlpha = append(stepAlpha, st.Alpha...)
		stepPsi = append(stepPsi, st.Psi...)
	}
	alg := m.Algebraic
	if err := symbols("Algebraic.Z", alg.Z); err != nil {
		return nil, err
	}
	if len(alg.G) != len(alg.Z) {
		return nil, newErr(ErrDimension, -1, "Algebraic.G", -1, -1, "%d equations for %d variables", len(alg.G), len(alg.Z))
	}
	for name, v := range map[string][]float64{"Algebraic.Lower": alg.Lower, "Algebraic.Upper": alg.Upper, "Algebraic.Init": alg.Init} {
		if v != nil && len(v) != len(alg.Z) {
			return nil, newErr(ErrDimension, -1, name, -1, -1, "length %d, want %d", len(v), len(alg.Z))
		}
	}
	for i := range alg.Lower {
		if alg.Upper != nil && alg.Lower[i] > alg.Upper[i] {
			return nil, newErr(ErrDimension, -1, "Algebraic.Lower", i, -1, "lower bound %g > upper bound %g", alg.Lower[i], alg.Upper[i])
		}
	}

	xup := concat(m.X, m.U, m.P)
	xupt := xup
	if m.Time != (ad.Expr{}) {
		xupt = concat(xup, ad.Vec{m.Time})
	}
	full := concat(xupt, stepAlpha, alg.Z)

	if m.F0 != nil {
		if len(m.F0) != nx {
			return nil, newErr(ErrDimension, -1, "F0", -1, -1, "length %d, want n_x = %d", len(m.F0), nx)
		}
		if err := m.usesOnly(-1, "F0", m.F0, full, "x, u, p, t, α, z"); err != nil {
			return nil, err
		}
	}
	if err := m.usesOnly(-1, "Steps.Psi", stepPsi, xup, "x, u, p"); err != nil {
		return nil, err
	}
	algArgs := concat(xup, stepAlpha, alg.Z)
	if err := m.usesOnly(-1, "Algebraic.G", alg.G, algArgs, "x, u, p, α, z"); err != nil {
		return nil, err
	}
	if m.F0 == nil && len(m.Subsystems) == 0 {
		return nil, ErrNoDynamics
	}

	preps := make([]prepSub, len(m.Subsystems))
	for k := range m.Subsystems {
		ps, err := m.prepareSub(k, xup, xupt)
		if err != nil {
			return nil, err
		}
		preps[k] = ps
	}
	return preps, nil
}

func (m *Model) prepareSub(k int, xup, xupt ad.Vec) (prepSub, error) {
	s := &m.Subsystems[k]
	nx := len(m.X)
	ps := prepSub{nPsi: len(s.Psi)}
	if ps.nPsi > MaxPsi {
		return ps, newErr(ErrTooManyPsi, k, "Psi", -1, -1, "%d > MaxPsi = %d", ps.nPsi, MaxPsi)
	}
	if err := m.usesOnly(k, "Psi", s.Psi, xup, "x, u, p"); err != nil {
		return ps, err
	}
	if ps.nPsi == 0 {
		if s.S != nil {
			return ps, newErr(ErrDimension, k, "S", -1, -1, "sign matrix without switching functions")
		}
		if s.Regions != nil {
			return ps, newErr(ErrDimension, k, "Regions", -1, -1, "regions without switching functions")
		}
		if s.G == nil {
			return ps, newErr(ErrNoIndicator, k, "G", -1, -1, "")
		}
	} else {
		S := s.S
		if S == nil {
			S = DefaultSigns(ps.nPsi)
		}
		rows := make(map[uint64]int, len(S))
		for i, row := range S {
			if len(row) != ps.nPsi {
				return ps, newErr(ErrDimension, k, "S", i, -1, "row has %d entries, want nψ = %d", len(row), ps.nPsi)
			}
			for j, v := range row {
				if v != 1 && v != -1 {
					return ps, newErr(ErrSignEntry, k, "S", i, j, "got %d", v)
				}
			}
			v := vertexOf(row)
			if i0, ok := rows[v]; ok {
				return ps, newErr(ErrRepeatedRow, k, "S", i0, i, "rows %d and %d are equal", i0, i)
			}
			rows[v] = i
		}
		if len(S) != 1<<uint(ps.nPsi) {
			return ps, newErr(ErrIncompleteSigns, k, "S", -1, -1, "%d rows, want 2^%d = %d", len(S), ps.nPsi, 1<<uint(ps.nPsi))
		}
		ps.S = S
	}
	switch {
	case s.Regions != nil:
		if len(s.Regions) == 0 {
			return ps, newErr(ErrNoModes, k, "Regions", -1, -1, "")
		}
		ps.nModes = len(s.Regions)
		ps.region = make([]int, len(ps.S))
		for i := range ps.region {
			ps.region[i] = -1
		}
		ps.tables = make([][]bool, len(s.Regions))
		for r, reg := range s.Regions {
			if d, err := reg.check(len(ps.S), ps.nPsi); err != nil {
				return ps, newErr(err, k, "Regions", r, -1, "%s", d)
			}
			ps.tables[r] = reg.truthTable(ps.S, ps.nPsi)
			empty := true
			for i, row := range ps.S {
				if !ps.tables[r][vertexOf(row)] {
					continue
				}
				empty = false
				if r0 := ps.region[i]; r0 >= 0 {
					return ps, newErr(ErrOverlappingRegions, k, "Regions", r0, r, "both contain base set %d", i)
				}
				ps.region[i] = r
			}
			if empty {
				return ps, newErr(ErrEmptyRegion, k, "Regions", r, -1, "%v", reg)
			}
		}
		for i, r := range ps.region {
			if r < 0 {
				return ps, newErr(ErrUncovered, k, "Regions", -1, -1, "base set %d (S row %v)", i, ps.S[i])
			}
		}
	case ps.S != nil:
		ps.nModes = len(ps.S)
	default:
		ps.nModes = len(s.G)
	}
	if ps.nModes == 0 {
		return ps, newErr(ErrNoModes, k, "F", -1, -1, "")
	}
	if len(s.F) != ps.nModes {
		return ps, newErr(ErrDimension, k, "F", -1, -1, "%d modes, want %d", len(s.F), ps.nModes)
	}
	var all ad.Vec
	for i, f := range s.F {
		if len(f) != nx {
			return ps, newErr(ErrDimension, k, "F", i, -1, "mode has length %d, want n_x = %d", len(f), nx)
		}
		all = append(all, f...)
	}
	// Check all modes at once; name mode and component on failure.
	if err := m.usesOnly(k, "F", all, xupt, "x, u, p, t"); err != nil {
		if e, ok := err.(*Error); ok && e.Index >= 0 {
			e.Field = fmt.Sprintf("F[%d]", e.Index/nx)
			e.Index %= nx
		}
		return ps, err
	}
	if s.G != nil {
		if len(s.G) != ps.nBase() {
			return ps, newErr(ErrDimension, k, "G", -1, -1, "%d indicator functions, want %d (one per base set)", len(s.G), ps.nBase())
		}
		if err := m.usesOnly(k, "G", s.G, xup, "x, u, p"); err != nil {
			return ps, err
		}
	}
	return ps, nil
}

// own reports whether e is a valid expression of the model's graph.
func (m *Model) own(e ad.Expr) bool { return e.IsValid() && e.Graph() == m.Graph }

// usesOnly checks that every element of v is a valid expression of the
// model's graph that depends only on the symbols in allowed.
func (m *Model) usesOnly(sub int, field string, v, allowed ad.Vec, what string) error {
	for i, e := range v {
		if !m.own(e) {
			return newErr(ErrInvalidExpr, sub, field, i, -1, "zero, invalid or foreign-graph expression")
		}
	}
	if len(v) == 0 {
		return nil
	}
	in := []ad.Arg{ad.A("in", allowed...)}
	if _, err := ad.NewFunction("check", in, []ad.Arg{ad.A("out", v...)}); err == nil {
		return nil
	}
	for i, e := range v {
		if _, err := ad.NewFunction("check", in, []ad.Arg{ad.A("out", e)}); err != nil {
			if errors.Is(err, ad.ErrFreeSymbol) {
				return newErr(ErrForeignSymbol, sub, field, i, -1, "may use only %s (%v)", what, err)
			}
			return newErr(ErrInvalidExpr, sub, field, i, -1, "%v", err)
		}
	}
	return newErr(ErrInvalidExpr, sub, field, -1, -1, "cannot compile")
}

func concat(vs ...ad.Vec) ad.Vec {
	var out ad.Vec
	for _, v := range vs {
		out = append(out, v...)
	}
	return out
}

// EvalPsi evaluates all switching functions at (x, u, p): the ψ of every
// subsystem in order, then those of Model.Steps. A NaN or infinite value
// is reported as a *NonFiniteError naming the subsystem and ψ_j.
func (m *Model) EvalPsi(x, u, p []float64) ([]float64, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := m.checkInputs(x, u, p); err != nil {
		return nil, err
	}
	var psi ad.Vec
	for _, s := range m.Subsystems {
		psi = append(psi, s.Psi...)
	}
	for _, st := range m.Steps {
		psi = append(psi, st.Psi...)
	}
	fn, err := ad.NewFunction("psi", []ad.Arg{ad.A("x", m.X...), ad.A("u", m.U...), ad.A("p", m.P...)}, []ad.Arg{ad.A("psi", psi...)})
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(psi))
	if err := fn.Eval(fn.NewWorkspace(), [][]float64{x, u, p}, [][]float64{out}); err != nil {
		return nil, err
	}
	return out, m.checkPsiFinite(out)
}

// checkPsiFinite maps the first non-finite entry of the concatenated ψ to
// its subsystem and index.
func (m *Model) checkPsiFinite(psi []float64) error {
	off := 0
	for k, s := range m.Subsystems {
		for j := range s.Psi {
			if v := psi[off+j]; math.IsNaN(v) || math.IsInf(v, 0) {
				return &NonFiniteError{Subsystem: k, Name: "ψ", Index: j, Value: v}
			}
		}
		off += len(s.Psi)
	}
	for j, v := range psi[off:] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &NonFiniteError{Subsystem: -1, Name: "ψ", Index: j, Value: v}
		}
	}
	return nil
}

func (m *Model) checkInputs(x, u, p []float64) error {
	for _, a := range []struct {
		name string
		v    []float64
		n    int
	}{{"x", x, len(m.X)}, {"u", u, len(m.U)}, {"p", p, len(m.P)}} {
		if len(a.v) != a.n {
			return newErr(ErrDimension, -1, a.name, -1, -1, "length %d, want %d", len(a.v), a.n)
		}
		for i, v := range a.v {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return newErr(ErrNonFinite, -1, a.name, i, -1, "%v", v)
			}
		}
	}
	return nil
}
