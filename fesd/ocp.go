package fesd

import (
	"errors"
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// Where selects the points of the FESD grid at which a state bound, a path
// constraint or a path complementarity is imposed (nosnoc's g_path_at_fe,
// g_path_at_stg, x_box_at_fe, x_box_at_stg in +nosnoc/Options.m of
// github.com/nosnoc/nosnoc).
type Where int

const (
	// AtStageEnds (the default): at the end s_{k+1} of every control stage
	// k = 0…N−1, with the stage's control q_k (004 eq. 45e; the initial
	// state s₀ is fixed and not constrained).
	AtStageEnds Where = iota
	// AtElementBoundaries: at the end of every finite element.
	AtElementBoundaries
	// AtStagePoints: at every Runge–Kutta stage point x_{n,m} (where the
	// algebraic variables z of the DCS exist, so the expressions may use
	// them) and, for state bounds, also at every element boundary.
	AtStagePoints
)

func (w Where) String() string {
	switch w {
	case AtStageEnds:
		return "stage_ends"
	case AtElementBoundaries:
		return "element_boundaries"
	case AtStagePoints:
		return "stage_points"
	}
	return fmt.Sprintf("Where(%d)", int(w))
}

// SpeedOfTime selects speed-of-time variables s (nosnoc's
// use_speed_of_time_variables and local_speed_of_time_variable in
// +nosnoc/Options.m of github.com/nosnoc/nosnoc): the right-hand side and
// the running cost are multiplied by s, so that on the numerical time grid
// τ the physical time advances as dt = s dτ.
type SpeedOfTime int

const (
	// NoSpeedOfTime (the default): s = 1 (or the hidden global time scaling
	// of a free-time problem, see OCP.FreeTime).
	NoSpeedOfTime SpeedOfTime = iota
	// GlobalSpeedOfTime: one variable s for the whole horizon.
	GlobalSpeedOfTime
	// StageSpeedOfTime: one variable s_k per control stage (nosnoc's
	// local_speed_of_time_variable; what time freezing needs).
	StageSpeedOfTime
)

func (s SpeedOfTime) String() string {
	switch s {
	case NoSpeedOfTime:
		return "none"
	case GlobalSpeedOfTime:
		return "global"
	case StageSpeedOfTime:
		return "stage"
	}
	return fmt.Sprintf("SpeedOfTime(%d)", int(s))
}

// Constraint is a vector of constraints L ≤ G ≤ U.
type Constraint struct {
	// G are the constrained expressions, in the model's graph and in the
	// symbols the OCP allows (see OCP).
	G ad.Vec
	// L and U are the bounds, of the length of G (nil, both: G = 0); use
	// ±Inf for one-sided constraints.
	L, U []float64
	// At selects the points of a path constraint (zero value: AtStageEnds;
	// ignored for terminal and stage-end constraints).
	At Where
}

// PathComp is a vector of path complementarity constraints
// 0 ≤ G_i ⊥ H_i ≥ 0 (nosnoc's G_path ⊥ H_path). Both sides are lifted: new
// variables a = G, b = H with a, b ≥ 0 form mpcc pairs that the homotopy
// relaxes with the DCS complementarities.
type PathComp struct {
	// G and H are the two sides, of equal length (ignored if FromDCS is
	// set).
	G, H ad.Vec
	// At selects the points (zero value: AtStageEnds).
	At Where
	// FromDCS, if not nil, builds G and H from the reformulated DCS (whose
	// algebraic variables Z hold θ, λ, α, …; see dcs.DCS.Var) instead of
	// the fields G and H. Expressions that use Z need At = AtStagePoints.
	FromDCS func(d *dcs.DCS) (g, h ad.Vec)
}

// Tracking is a least-squares cost (nosnoc's lsq_x, lsq_u, lsq_T):
//
//	Σ_k (T/N)·[(s_{k+1} − x_ref,k)ᵀ Q (·) + (q_k − u_ref,k)ᵀ R (·)] + (s_N − x_ref,T)ᵀ Q_T (·)
//
// with the numerical stage length T/N. A reference with one row is used
// for every stage; nil URef means zero; nil XRefT means the last XRef row.
// Nil matrices leave out their term. Matrices are dense n×n (see Diag).
type Tracking struct {
	// XRef is the state reference x_ref,k at the stage ends: N rows, or 1
	// row for every stage, of length n_x.
	XRef [][]float64
	// Q is the n_x × n_x state weight (nil: no state term).
	Q [][]float64
	// URef is the control reference u_ref,k: N rows or 1 row of length n_u
	// (nil: zero).
	URef [][]float64
	// R is the n_u × n_u control weight (nil: no control term).
	R [][]float64
	// XRefT is the terminal reference x_ref,T of length n_x (nil: the last
	// row of XRef).
	XRefT []float64
	// QT is the n_x × n_x terminal weight (nil: no terminal term).
	QT [][]float64
}

// Diag returns the diagonal matrix with the given entries.
func Diag(v ...float64) [][]float64 {
	m := make([][]float64, len(v))
	for i := range m {
		m[i] = make([]float64, len(v))
		m[i][i] = v[i]
	}
	return m
}

// OCP is an optimal control problem (004 eq. 44) of a nonsmooth model over
// [T0, T0 + T], and its discretization in time (004 eq. 45): N control
// stages with piecewise constant controls q_k, each discretized by FESD
// with N_FE,k finite elements:
//
//	min  Σ_k ∫_stage k s_k L(x, q_k, p_k, z, t) dτ + R(s_N) + tracking + [T_f]
//	s.t. s₀ = X0, FESD equations of every element (004 eq. 40–43),
//	     continuity of the states and of the boundary multipliers across
//	     elements and stages, bounds, path, stage-end and terminal
//	     constraints, path complementarities.
//
// Expressions (costs, constraints, complementarities) are built in the
// model's graph and may use the model's symbols X, U, P and Time (the
// numerical time τ), the global variables V, and the symbol HorizonSym if
// set (the physical horizon T_f). At stage points they may also use the
// DCS's algebraic variables (see PathComp.FromDCS and LagrangeFromDCS).
// Terminal expressions use the last stage's control and parameters. The
// solver translates all of them into the graph of its own reformulation of
// the model (see "Sharing a model" in the package documentation); the
// model's graph is only read.
//
// The OCP is the problem only: the settings of the discretization and of
// the solver are Options, and the initial guess is a Start (see
// NewOCPSolver, SolveOCP). A zero field means "none" or the default given
// in its comment; NewOCPSolver checks the dimensions and bounds.
type OCP struct {
	// Model is the nonsmooth system (exactly one of Model and CLS).
	Model *dcs.Model
	// CLS, instead of Model, is a complementarity Lagrangian system,
	// transcribed by FESD-J (A. Nurkanović, J. Frey, A. Pozharskiy,
	// M. Diehl, Nonlinear Analysis: Hybrid Systems 52 (2024) 101460; the
	// FESD-J formulation of SimulateCLS). Its state is x = (q, v) (CLS.X)
	// and the expressions are built in the body's graph in its symbols
	// Q, V, U and P (there is no time symbol). A CLS has no algebraic
	// variables for user expressions: LagrangeFromDCS and
	// PathComp.FromDCS are ErrStructure, and Validity does not apply. With
	// Options.MPCC.Sigma0 zero the homotopy starts at CLSOCPSigma0, and
	// with Options.MPCC.Finish zero it ends with CLSFinish, as SimulateCLS; the
	// cold start is SimulateCLS's event-driven guess, stage by stage with
	// the start's controls (Start.XInit and InitFrom are not used).
	CLS *dcs.CLS
	// X0 is the initial state s₀, of length n_x (required; fixed in the
	// NLP, OCPSolver.SetX0 changes it between solves, as in
	// model-predictive control).
	X0 []float64
	// N is the number of control stages (required, ≥ 1).
	N int
	// T is the horizon (required, > 0): the numerical horizon, which with
	// FreeTime is also the initial guess of the physical one.
	T float64
	// T0 is the start time (default 0).
	T0 float64
	// NFE is the number of finite elements per stage: nil (Options.NFE for
	// every stage), one value for all stages, or N values.
	NFE []int

	// FreeTime makes the physical horizon T_f a decision variable with
	// TMin ≤ T_f ≤ TMax (default false: T_f = T). Without speed-of-time
	// variables it is a global time scaling s_T = T_f/T that multiplies the
	// right-hand side; with StageSpeedOfTime T_f = (T/N) Σ_k s_k.
	FreeTime bool
	// TimeOptimal adds T_f to the objective and implies FreeTime (default
	// false).
	TimeOptimal bool
	// TMin and TMax bound a free horizon T_f (defaults 0 and, for TMax = 0,
	// +Inf).
	TMin, TMax float64
	// HorizonSym, if valid, is a new symbol of the model's graph that
	// stands for T_f in the expressions, for example in a stage-wise clock
	// constraint (zero Expr: none).
	HorizonSym ad.Expr

	// SpeedOfTime adds speed-of-time variables (zero value: NoSpeedOfTime).
	SpeedOfTime SpeedOfTime
	// SOTMin and SOTMax bound the speed of time s (defaults 1 and 25,
	// nosnoc's s_sot_min and s_sot_max).
	SOTMin, SOTMax float64
	// SOTRho is the weight of the regularization SOTRho·Σ(s − 1)² in the
	// objective (default 0: none; nosnoc's rho_sot).
	SOTRho float64

	// XL and XU bound the states (nil: unbounded), at the points XBoundsAt.
	XL, XU []float64
	// XBoundsAt selects where XL and XU hold (zero value: AtStageEnds).
	XBoundsAt Where
	// UL and UU bound the controls (nil: unbounded).
	UL, UU []float64

	// P are the values of the model's parameters, of length n_p (nil: the
	// model has none, or all of them are global variables V).
	P []float64
	// PStage, if not nil, gives the parameter values per stage (N rows of
	// length n_p), instead of P.
	PStage [][]float64

	// V are global decision variables: distinct symbols of the model's
	// graph (nil: none). Start.V0 gives their start. A symbol of V that is
	// also one of the model's parameters P makes that parameter a decision
	// variable (its value in P is then ignored).
	V ad.Vec
	// VL and VU bound V (nil: unbounded).
	VL, VU []float64

	// Lagrange is the running cost L, integrated with the Runge–Kutta
	// quadrature of every element, h Σ_m b_m s L(x_{n,m}, …) (zero Expr:
	// none).
	Lagrange ad.Expr
	// LagrangeFromDCS, if set, builds a running cost from the reformulated
	// DCS, which may use its algebraic variables Z; it is added to
	// Lagrange (nil: none).
	LagrangeFromDCS func(d *dcs.DCS) ad.Expr
	// Mayer is the terminal cost R(s_N) (zero Expr: none).
	Mayer ad.Expr
	// Tracking is a least-squares cost (nil: none).
	Tracking *Tracking

	// Path are the path constraints, each at the points of its At (nil:
	// none).
	Path []Constraint
	// Terminal are the constraints at the final state s_N (nil: none).
	Terminal []Constraint
	// StageEnd, if not nil, gives constraints at the end s_{k+1} of stage
	// k = 0…N−1 (their At is ignored), for example the stage-wise clock
	// constraint t(τ_{k+1}) = (k+1)·T/N of time freezing (nil: none).
	StageEnd func(k int) []Constraint
	// PathComps are user complementarity constraints (nil: none).
	PathComps []PathComp

	// Validity are the tolerances of the physical-validity check of a
	// time-freezing model (dcs.NewTimeFreezing), in the model's units
	// (zero value: the defaults of ValidityTolerances). Other models have
	// no such check.
	Validity ValidityTolerances
}

// importInto returns a copy of the validated OCP whose expressions are
// translated into the graph of d, the model's reformulation (dcs.DCS.Import:
// the model's symbols become those of d, the other symbols such as V and
// HorizonSym new symbols of d's graph). Callbacks are wrapped so that what
// they return is translated too; expressions they build from d are already
// in its graph.
func (p *OCP) importInto(d exprImporter) *OCP {
	q := *p
	if dd, ok := d.(*dcs.DCS); ok {
		q.Model = dd.Model()
	}
	q.V = d.Import(p.V)
	q.HorizonSym = d.ImportExpr(p.HorizonSym)
	q.Lagrange = d.ImportExpr(p.Lagrange)
	q.Mayer = d.ImportExpr(p.Mayer)
	if f := p.LagrangeFromDCS; f != nil {
		q.LagrangeFromDCS = func(d *dcs.DCS) ad.Expr { return d.ImportExpr(f(d)) }
	}
	cons := func(cs []Constraint) []Constraint {
		if cs == nil {
			return nil
		}
		out := make([]Constraint, len(cs))
		for i, c := range cs {
			out[i] = c
			out[i].G = d.Import(c.G)
		}
		return out
	}
	q.Path = cons(p.Path)
	q.Terminal = cons(p.Terminal)
	if f := p.StageEnd; f != nil {
		q.StageEnd = func(k int) []Constraint { return cons(f(k)) }
	}
	if p.PathComps != nil {
		q.PathComps = make([]PathComp, len(p.PathComps))
		for i, c := range p.PathComps {
			c.G, c.H = d.Import(c.G), d.Import(c.H)
			if f := c.FromDCS; f != nil {
				c.FromDCS = func(d *dcs.DCS) (ad.Vec, ad.Vec) {
					g, h := f(d)
					return d.Import(g), d.Import(h)
				}
			}
			q.PathComps[i] = c
		}
	}
	return &q
}

// exprImporter translates expressions into the graph of a transcription
// (*dcs.DCS for a model's reformulation; the copier of a CLS).
type exprImporter interface {
	Import(v ad.Vec) ad.Vec
	ImportExpr(e ad.Expr) ad.Expr
}

// symbols returns the graph and the symbols of the OCP's system: its
// model's, or its CLS's (X = (q, v)).
func (p *OCP) symbols() (g *ad.Graph, X, U, P ad.Vec) {
	if c := p.CLS; c != nil {
		return c.Body.Graph, c.X, c.Body.U, c.Body.P
	}
	m := p.Model
	return m.Graph, m.X, m.U, m.P
}

// errCLSFromDCS: a CLS has no DCS for the FromDCS callbacks.
var errCLSFromDCS = errors.New("fesd: an OCP on a CLS has no DCS algebraic variables (LagrangeFromDCS, PathComp.FromDCS)")

// validate checks the OCP against the model's dimensions.
func (p *OCP) validate() error {
	if p == nil || (p.Model == nil) == (p.CLS == nil) {
		if p != nil && p.Model != nil {
			return fmt.Errorf("%w: give Model or CLS, not both", ErrStructure)
		}
		return ErrNilModel
	}
	if p.CLS != nil {
		if p.LagrangeFromDCS != nil {
			return fmt.Errorf("%w: %w", ErrStructure, errCLSFromDCS)
		}
		for _, c := range p.PathComps {
			if c.FromDCS != nil {
				return fmt.Errorf("%w: %w", ErrStructure, errCLSFromDCS)
			}
		}
	}
	for _, check := range []func() error{p.validateHorizon, p.validateTime, p.validateBounds, p.validateGlobals, p.validateConstraints, p.Validity.Validate} {
		if err := check(); err != nil {
			return err
		}
	}
	if t := p.Tracking; t != nil {
		_, X, U, _ := p.symbols()
		if err := t.validate(p.N, len(X), len(U)); err != nil {
			return err
		}
	}
	return nil
}

// validateHorizon checks the stages, the horizon, x₀ and the elements.
func (p *OCP) validateHorizon() error {
	if p.N < 1 {
		return fmt.Errorf("%w: N = %d < 1 control stages", ErrHorizon, p.N)
	}
	if !(p.T > 0) || math.IsInf(p.T, 0) {
		return fmt.Errorf("%w: T = %g must be positive and finite", ErrHorizon, p.T)
	}
	if bad(p.T0) {
		return fmt.Errorf("%w: T0 = %g", ErrHorizon, p.T0)
	}
	_, X, _, _ := p.symbols()
	if err := checkVec("X0", p.X0, len(X)); err != nil {
		return err
	}
	switch len(p.NFE) {
	case 0, 1, p.N:
	default:
		return fmt.Errorf("%w: NFE has %d entries, want 1 or N = %d", ErrDimension, len(p.NFE), p.N)
	}
	for k, v := range p.NFE {
		if v < 1 {
			return optErr("NFE[%d] = %d < 1", k, v)
		}
	}
	return nil
}

// validateTime checks the free final time and the speed of time.
func (p *OCP) validateTime() error {
	if p.TMin < 0 || math.IsNaN(p.TMin) || math.IsNaN(p.TMax) || p.TMax < 0 {
		return fmt.Errorf("%w: TMin = %g, TMax = %g", ErrBounds, p.TMin, p.TMax)
	}
	if p.TMax != 0 && p.TMin > p.TMax {
		return fmt.Errorf("%w: TMin = %g > TMax = %g", ErrBounds, p.TMin, p.TMax)
	}
	if (p.FreeTime || p.TimeOptimal) && p.SpeedOfTime == GlobalSpeedOfTime {
		return optErr("FreeTime already scales time globally: use NoSpeedOfTime or StageSpeedOfTime")
	}
	if p.SpeedOfTime < NoSpeedOfTime || p.SpeedOfTime > StageSpeedOfTime {
		return optErr("unknown speed-of-time mode %d", int(p.SpeedOfTime))
	}
	for _, v := range []float64{p.SOTMin, p.SOTMax, p.SOTRho} {
		if math.IsNaN(v) || v < 0 {
			return fmt.Errorf("%w: speed-of-time settings (SOTMin %g, SOTMax %g, SOTRho %g)", ErrBounds, p.SOTMin, p.SOTMax, p.SOTRho)
		}
	}
	if lo, hi := p.sotBounds(); lo > hi {
		return fmt.Errorf("%w: SOTMin = %g > SOTMax = %g", ErrBounds, lo, hi)
	}
	return nil
}

// validateBounds checks the state and control bounds and the parameters.
func (p *OCP) validateBounds() error {
	_, X, U, P := p.symbols()
	nx, nu, np := len(X), len(U), len(P)
	if err := checkBounds("XL/XU", p.XL, p.XU, nx); err != nil {
		return err
	}
	if err := checkBounds("UL/UU", p.UL, p.UU, nu); err != nil {
		return err
	}
	if err := checkWhere("XBoundsAt", p.XBoundsAt); err != nil {
		return err
	}
	if p.PStage != nil {
		if len(p.PStage) != p.N {
			return fmt.Errorf("%w: PStage has %d rows, want N = %d", ErrDimension, len(p.PStage), p.N)
		}
		for k, r := range p.PStage {
			if err := checkVec(fmt.Sprintf("PStage[%d]", k), r, np); err != nil {
				return err
			}
		}
	} else if err := checkVec("P", p.P, np); err != nil {
		if !(np > 0 && len(p.P) == 0 && allGlobal(P, p.V)) {
			return err
		}
	}
	return nil
}

// validateGlobals checks the global variables and the horizon symbol.
func (p *OCP) validateGlobals() error {
	g, X, U, P := p.symbols()
	seen := map[ad.Expr]bool{}
	for _, e := range ad.Concat(X, U) {
		seen[e] = true
	}
	for i, v := range p.V {
		if !v.IsSymbol() || v.Graph() != g {
			return fmt.Errorf("%w: V[%d] is not a symbol of the model's graph", ErrDimension, i)
		}
		if seen[v] {
			return fmt.Errorf("%w: V[%d] = %s is a state, a control or repeated", ErrDimension, i, v.Name())
		}
		seen[v] = true
	}
	if err := checkBounds("VL/VU", p.VL, p.VU, len(p.V)); err != nil {
		return err
	}
	if p.HorizonSym.IsValid() {
		if !p.HorizonSym.IsSymbol() || p.HorizonSym.Graph() != g || seen[p.HorizonSym] {
			return fmt.Errorf("%w: HorizonSym must be a new symbol of the model's graph", ErrDimension)
		}
		for _, e := range P {
			if e == p.HorizonSym {
				return fmt.Errorf("%w: HorizonSym is a model parameter", ErrDimension)
			}
		}
	}
	return nil
}

// validateConstraints checks the path, terminal and stage-end constraints
// and the path complementarities.
func (p *OCP) validateConstraints() error {
	for i, c := range p.Path {
		if err := checkConstraint(fmt.Sprintf("Path[%d]", i), c); err != nil {
			return err
		}
		if err := checkWhere(fmt.Sprintf("Path[%d].At", i), c.At); err != nil {
			return err
		}
	}
	for i, c := range p.Terminal {
		if err := checkConstraint(fmt.Sprintf("Terminal[%d]", i), c); err != nil {
			return err
		}
	}
	if p.StageEnd != nil {
		for k := 0; k < p.N; k++ {
			for i, c := range p.StageEnd(k) {
				if err := checkConstraint(fmt.Sprintf("StageEnd(%d)[%d]", k, i), c); err != nil {
					return err
				}
			}
		}
	}
	for i, c := range p.PathComps {
		if c.FromDCS == nil && len(c.G) != len(c.H) {
			return fmt.Errorf("%w: PathComps[%d] has %d G and %d H", ErrDimension, i, len(c.G), len(c.H))
		}
		if err := checkWhere(fmt.Sprintf("PathComps[%d].At", i), c.At); err != nil {
			return err
		}
	}
	return nil
}

// checkInitFrom checks that r carries a trajectory of a problem with nx
// states and nu controls.
func checkInitFrom(r *OCPResult, nx, nu int) error {
	if len(r.X) < 2 || len(r.T) != len(r.X) || len(r.PointT) != len(r.PointX) ||
		len(r.U) == 0 || len(r.StageT) != len(r.U)+1 {
		return fmt.Errorf("%w: InitFrom has no trajectory (a result of WarmFromNLPSolution?)", ErrDimension)
	}
	for i, x := range r.X {
		if err := checkVec(fmt.Sprintf("InitFrom.X[%d]", i), x, nx); err != nil {
			return err
		}
	}
	for i, x := range r.PointX {
		if err := checkVec(fmt.Sprintf("InitFrom.PointX[%d]", i), x, nx); err != nil {
			return err
		}
	}
	for k, u := range r.U {
		if err := checkVec(fmt.Sprintf("InitFrom.U[%d]", k), u, nu); err != nil {
			return err
		}
	}
	if len(r.SOT) != len(r.U) {
		return fmt.Errorf("%w: InitFrom has %d speeds of time for %d stages", ErrDimension, len(r.SOT), len(r.U))
	}
	if err := checkFinite("InitFrom.SOT", r.SOT); err != nil {
		return err
	}
	if err := checkFinite("InitFrom.T", r.T); err != nil {
		return err
	}
	if err := checkFinite("InitFrom.PointT", r.PointT); err != nil {
		return err
	}
	if err := checkFinite("InitFrom.StageT", r.StageT); err != nil {
		return err
	}
	if !(r.T[len(r.T)-1] > r.T[0]) {
		return fmt.Errorf("%w: InitFrom spans the numerical times [%g, %g]", ErrHorizon, r.T[0], r.T[len(r.T)-1])
	}
	return nil
}

func allGlobal(P, V ad.Vec) bool {
	in := map[ad.Expr]bool{}
	for _, v := range V {
		in[v] = true
	}
	for _, e := range P {
		if !in[e] {
			return false
		}
	}
	return true
}

func (p *OCP) sotBounds() (lo, hi float64) {
	lo, hi = p.SOTMin, p.SOTMax
	if lo == 0 {
		lo = 1
	}
	if hi == 0 {
		hi = 25
	}
	return lo, hi
}

func checkWhere(name string, w Where) error {
	if w < AtStageEnds || w > AtStagePoints {
		return optErr("%s: unknown point selection %d", name, int(w))
	}
	return nil
}

// checkBounds checks optional bound vectors of length n: both may be nil;
// NaN or lo > hi is ErrBounds.
func checkBounds(name string, lo, hi []float64, n int) error {
	if lo != nil && len(lo) != n {
		return fmt.Errorf("%w: %s: lower bound of length %d, want %d", ErrDimension, name, len(lo), n)
	}
	if hi != nil && len(hi) != n {
		return fmt.Errorf("%w: %s: upper bound of length %d, want %d", ErrDimension, name, len(hi), n)
	}
	for i := 0; i < n; i++ {
		l, u := math.Inf(-1), math.Inf(1)
		if lo != nil {
			l = lo[i]
		}
		if hi != nil {
			u = hi[i]
		}
		if math.IsNaN(l) || math.IsNaN(u) || l > u || math.IsInf(l, 1) || math.IsInf(u, -1) {
			return fmt.Errorf("%w: %s[%d]: [%g, %g]", ErrBounds, name, i, l, u)
		}
	}
	return nil
}

func checkConstraint(name string, c Constraint) error {
	if (c.L == nil) != (c.U == nil) {
		return fmt.Errorf("%w: %s: give both L and U or neither", ErrDimension, name)
	}
	if c.L == nil {
		return nil
	}
	return checkBounds(name, c.L, c.U, len(c.G))
}

func checkMat(name string, m [][]float64, n int) error {
	if m == nil {
		return nil
	}
	if len(m) != n {
		return fmt.Errorf("%w: %s has %d rows, want %d", ErrDimension, name, len(m), n)
	}
	for i, r := range m {
		if err := checkVec(fmt.Sprintf("%s[%d]", name, i), r, n); err != nil {
			return err
		}
	}
	return nil
}

func (t *Tracking) validate(N, nx, nu int) error {
	if err := checkMat("Tracking.Q", t.Q, nx); err != nil {
		return err
	}
	if err := checkMat("Tracking.R", t.R, nu); err != nil {
		return err
	}
	if err := checkMat("Tracking.QT", t.QT, nx); err != nil {
		return err
	}
	if t.Q != nil || (t.QT != nil && t.XRefT == nil) {
		if len(t.XRef) != 1 && len(t.XRef) != N {
			return fmt.Errorf("%w: Tracking.XRef has %d rows, want 1 or N = %d", ErrDimension, len(t.XRef), N)
		}
	}
	for k, r := range t.XRef {
		if err := checkVec(fmt.Sprintf("Tracking.XRef[%d]", k), r, nx); err != nil {
			return err
		}
	}
	if t.URef != nil && len(t.URef) != 1 && len(t.URef) != N {
		return fmt.Errorf("%w: Tracking.URef has %d rows, want 1 or N = %d", ErrDimension, len(t.URef), N)
	}
	for k, r := range t.URef {
		if err := checkVec(fmt.Sprintf("Tracking.URef[%d]", k), r, nu); err != nil {
			return err
		}
	}
	if t.XRefT != nil {
		if err := checkVec("Tracking.XRefT", t.XRefT, nx); err != nil {
			return err
		}
	}
	return nil
}

// nfe returns N_FE of stage k.
func (p *OCP) nfe(k int, def int) int {
	switch len(p.NFE) {
	case 0:
		return def
	case 1:
		return p.NFE[0]
	}
	return p.NFE[k]
}

// row returns row k of a table with one or n rows (nil for an empty one).
func row(tab [][]float64, k int) []float64 {
	switch len(tab) {
	case 0:
		return nil
	case 1:
		return tab[0]
	}
	return tab[k]
}
