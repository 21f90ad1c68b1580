// Package modelfile reads nonsmooth models, simulations and optimal control
// problems from TOML files into the types of packages dcs and fesd. It is
// the format of the fesd command (cmd/fesd) and of examples/models.
//
// A file is read by Parse. Every problem is reported as an *Error
// "file:line:column: what is wrong" at the key or value (or the character
// inside an expression) where it is written: TOML syntax, unknown keys (with
// the valid ones listed), wrong types and sizes, undefined names, a sign
// matrix of the wrong width, a mode without dynamics, an unknown option
// value (with the valid names). Nothing is defaulted silently: every
// default is stated below, and the options not given keep the documented
// zero-value defaults of fesd.Options.
//
// # Example
//
// The turbo car of nosnoc's tutorial (examples/models/turbocar.toml):
//
//	name = "turbo car"
//
//	[[state]]
//	name = "q"
//	x0 = 0
//
//	[[state]]
//	name = "v"
//	x0 = 0
//	lower = -25
//	upper = 25
//
//	[[control]]
//	name = "u"
//	lower = -5
//	upper = 5
//
//	[[subsystem]]
//	psi = "v - 10"
//	signs = [[-1], [1]]
//	modes = [["v", "u"], ["v", "3*u"]]
//
//	[options]
//	DCS.Formulation = "step"
//	StepEquilibration = "none"
//
//	[ocp]
//	N = 10
//	T = 10
//	NFE = 3
//	TimeOptimal = true
//	Terminal = [{ G = ["q - 200", "v"] }]
//
//	[ocp.Start]
//	UInit = [[5], [5], [5], [0], [0], [0], [0], [-5], [-5], [-5]]
//
// # Top level
//
//	name        string, optional: shown in logs and plots
//	time        string, optional: the name of the time symbol t (models
//	            whose modes or dynamics depend on time; dcs.Model.Time)
//	[constants] name = number or array of numbers: named constants
//	[let]       name = "expression": named intermediate expressions, in
//	            file order (each may use the variables, α, and the earlier
//	            ones); an OCP expression may not use one that contains α
//	[[state]]   the differential states x, in file order (required)
//	[[control]] the controls u, in file order
//	[[parameter]] the parameters p, in file order
//	[[step]]    step selections α ∈ γ(ψ(x)) (Heaviside form)
//	[[algebraic]] user algebraic variables z with equations G(x, u, p, α, z) = 0
//	[[subsystem]] Filippov subsystems (Stewart's sign-matrix form)
//	[dynamics]  the smooth part f₀ of ẋ = f₀ + Σ_k F_k θ_k
//	[time_freezing] a rigid body with contacts, made a Filippov system by
//	            time freezing (instead of steps, subsystems and dynamics)
//	[options]   fesd.Options
//	[simulate]  a simulation (fesd simulate)
//	[ocp]       an optimal control problem (fesd ocp)
//
// # Variables
//
// [[state]], [[control]], [[parameter]] and [[algebraic]] tables have a name
// (required, letters, digits and _) and a size (default 1: a scalar; a size
// > 1 makes a vector, indexed x[0]…). A state has x0, its initial value
// (required; a number for a scalar, an array of size numbers for a vector)
// and optional lower and upper bounds; a control optional lower and upper
// bounds. Bounds are the OCP's XL, XU, UL, UU (±Inf for the components
// without; a simulation ignores them). A parameter has its value (required).
// An algebraic variable has its equations (expressions, size of them in
// total). The components of all states, in file order, make the state
// vector x of dcs.Model.X (CSV columns x0…x4 for a vector x, q for a
// scalar q).
//
// # Switching and modes
//
// A [[subsystem]] is one Filippov system ẋ ∈ F θ (dcs.Subsystem):
//
//	name   string, optional
//	psi    the switching functions ψ(x, u, p): an expression or an array of
//	       them (a vector expression counts its elements)
//	signs  the sign matrix S, one row of ±1 per mode, one column per ψ;
//	       every sign pattern exactly once (2^nψ rows). Optional: without it,
//	       dcs.DefaultSigns (row 0 all +1 … last row all −1).
//	regions optional: modes on unions of base sets (dcs.Region), one
//	       expression per mode of base(i) (row i of signs), positive(j),
//	       negative(j) (ψ_j > 0, ψ_j < 0), union(…), intersection(…),
//	       complement(r) and difference(a, b); they must partition the
//	       base sets
//	modes  one entry per row of signs (per region with regions): the
//	       right-hand side f_i(x, u, p, t) of that mode, an expression or
//	       an array of them with n_x elements in total
//	g      optional: Stewart's indicator functions, one per mode
//
// A [[step]] registers switching functions psi and names the vector of
// their step selections α_j ∈ γ(ψ_j) (name, required), which [dynamics] and
// the algebraic equations may use (dcs.Model.AddStep). [dynamics] f is the
// smooth part f₀ with n_x elements; it is required without subsystems. The
// switching functions are numbered as dcs.Model.EvalPsi numbers them: those
// of every subsystem in file order, then those of the steps.
//
// # Time freezing
//
// [time_freezing] builds the model with dcs.NewTimeFreezing from a rigid
// body M(q) v̇ = f_v(q, v, u, p) with unilateral contacts; the file then has
// exactly two [[state]] blocks, the coordinates and the velocities, and no
// [[step]], [[subsystem]], [[algebraic]], [dynamics] or time:
//
//	q, v        the names of the two state blocks (same size n_q)
//	clock       the name of the clock state t appended to them; clock_x0 its
//	            initial value (both required)
//	mass        M(q): n_q rows of n_q expressions
//	forces      f_v: n_q expressions
//	[[time_freezing.contact]]  gap f_c(q) (required); normal J_n (default
//	            ∇f_c); tangent J_t or tangent_pos (its gradient) with mu for
//	            a frictional contact
//	[time_freezing.options]    dcs.TimeFreezingOptions by field name (AN,
//	            Baumgarte); the formulation is [options] DCS.Formulation
//
// examples/models/bouncingball.toml is a ball dropped onto the ground.
//
// # Expressions
//
// Expressions are strings (a plain number is accepted as a constant):
//
//	a+b a-b a*b a/b  with the usual precedence, and unary minus
//	a^b              power: right-associative, binds tighter than unary
//	                 minus: -x^2 = -(x^2), 2^-1 = 0.5
//	( )              grouping
//	x[i]             element i of a vector, 0-based (x[0] is the first, as in
//	                 Go, Python and the switch numbering of fesd's output);
//	                 i is a constant integer expression; out of range is an
//	                 error
//	[a, b, …]        a vector, concatenating its elements
//	sin cos tan atan exp log sqrt tanh abs sign sq   elementwise, one argument
//	min max atan2 pow                                elementwise, two arguments
//	sum(v)           the sum of the elements of v
//
// Values are vectors: a name stands for all its components. Arithmetic and
// the two-argument functions act elementwise on vectors of equal length,
// and a scalar (one element) is repeated against a vector: -gamma*x with a
// constant vector gamma and a state vector x of size 5 is the vector of the
// five products. A constant integer exponent is ad.PowInt, another constant
// ad.Pow, an expression exponent ad.PowExpr; division of an expression by a
// constant c is multiplication by 1/c (ad's Scale, as the Go models write
// it). Constant sub-expressions are folded; a non-finite constant (1/0,
// log(-1)) is an error. Where a name may not be used (α or algebraic
// variables outside [dynamics] and the algebraic equations, time in
// switching functions), the message says so.
//
// # Options
//
// [options] sets fesd.Options by its Go field names, with DCS and MPCC as
// sub-tables ([options.DCS] or DCS.Formulation = …): integers, numbers,
// booleans, and enums written in their text forms (the names their
// UnmarshalText accepts, listed in the error for an unknown one), e.g.
//
//	[options]
//	Scheme = "RadauIIA"             # rk.Family
//	Stages = 2
//	NFE = 3
//	CrossComp = "FE_FE"             # fesd.CrossComp
//	StepEquilibration = "heuristic_mean"
//	DCS.Formulation = "step"        # dcs.Formulation: Stewart, Step
//	MPCC.CompTol = 1e-9             # mpcc.Settings
//
// Fields that are not plain values (Tableau, Inner, MPCC.NLP, MPCC.Log)
// cannot be set. Options.Validate runs on the result.
//
// # Simulation
//
// [simulate] has the keys of fesd.SimOptions: TSim and NSim (required),
// T0 (default 0), NoPredict, ColdStart, and U, the constant control (n_u
// numbers), or UTable, a piecewise-constant control: rows [t, u₀, u₁, …] with
// increasing t, each holding from its t on; the first row's t must be ≤ T0.
// One of U and UTable is required when the model has controls.
// Model.Simulate runs fesd.Simulate, which halves a step that fails down to
// T/2^fesd.MaxSplitDepth (see there).
//
// # Optimal control
//
// [ocp] has the keys of fesd.OCP: N and T (required), T0, NFE (one value
// or N), FreeTime, TimeOptimal, TMin, TMax, SpeedOfTime ("none", "global",
// "stage"), SOTMin, SOTMax, SOTRho, XBoundsAt ("stage_ends",
// "element_boundaries", "stage_points"), Lagrange and Mayer (scalar
// expressions), Path and Terminal (arrays of constraint tables {G, L, U}
// and, for Path, At; without L and U the constraint is G = 0, with one of
// them one-sided), StageEnd (constraints at the end of every stage k, in
// which the name stage is the constant k, 0-based: the clock constraint of
// time freezing is G = "t - (stage + 1)*T/N" with the numbers written out) and
// PathComps (arrays of {G, H, At}: 0 ≤ G ⊥ H ≥ 0, fesd.PathComp).
// [ocp.Start] sets fesd.Start's UInit (1 or N rows of n_u), XInit (1 or N+1
// rows of n_x) and SOTInit; XLinear = [state] instead of XInit is the
// straight line from x₀ to that state at the N+1 stage boundaries. X0, the bounds and P come from the variables.
//
// # Invariants
//
// Parse builds a new ad.Graph per file and never panics on any input (a
// fuzz target runs parser and builder). Files of examples/models give the
// models, NLPs and results of the Go examples they name to 1e-12 (tests
// compare them).
package modelfile
