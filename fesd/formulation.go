package fesd

import (
	"fmt"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// formulation is what one class of complementarity system contributes to
// the FESD transcription, nosnoc's one discrete-time problem class per
// system (+nosnoc/+discrete_time_problem/Stewart.m, Heaviside.m and Cls.m
// in github.com/nosnoc/nosnoc). The shared builder (build.go,
// buildsteps.go, elementrows.go) writes everything else once: the grid of
// control stages and finite elements, the step sizes h_n with their bounds
// and Σ h = T/N per stage, the Runge–Kutta equations of 004 eq. 33 (or
// the integral form) and the end state of every element, the controls,
// parameters, speed of time and global variables, the OCP's costs, path,
// stage-end and terminal constraints and path complementarities, the
// step-equilibration modes of 004 §4.4 built on the formulation's
// indicator, the element template, and the compiled NLP that the MPCC
// homotopy solves.
//
// A formulation provides, in the order in which the builder asks:
//
//   - vars: its variable blocks at the start of the horizon, at the start
//     of every element, at every Runge–Kutta stage point (after the stage
//     state) and at the end of every element (after the end state), with
//     their bounds; the builder creates them, in the element template too,
//     and reports their positions in w through placed. The first block of
//     the stage points holds the values of the DCS's algebraic variables
//     Z, which user expressions (costs, path constraints) may use.
//   - start and jump: the state an element starts from, an expression of
//     the element's inputs (its previous end state x_n, its own blocks),
//     and the rows that tie it to x_n. Filippov systems have continuous
//     states (x_n⁺ = x_n, no rows). FESD-J (A. Nurkanović, J. Frey,
//     A. Pozharskiy, M. Diehl, Nonlinear Analysis: Hybrid Systems 52 (2024)
//     101460) puts the impulse equations there, as nosnoc's g_impulse
//     (+nosnoc/+dcs/Cls.m): q⁺ = q⁻, M(q)(v⁺ − v⁻) = J_n Λ_n + J_t Λ_t,
//     Y = f_c(q), and Newton's restitution law as P − N = J_nᵀ(v⁺ + e v⁻)
//     with Λ_n ⊥ Y + P + N and P ⊥ N; the impulses Λ, the gap Y and the
//     velocity parts P, N are its element-start blocks.
//   - stage: the right-hand side f of ẋ = f at a stage point, with which
//     the builder writes the Runge–Kutta equations, and the formulation's
//     rows there: the algebraic equations of the DCS (004 eq. 33's G = 0),
//     and for FESD-J the contact forces' equations and the gap y = f_c(q).
//   - end: the rows at the end of an element (the boundary equations of
//     004 eq. 42–43 with c_{n_s} ≠ 1; FESD-J: the gap at the boundary).
//   - complementarity: all complementarity terms, after every element is
//     built: the cross complementarity of 004 eq. 37–38 and 43 (or the
//     pointwise pairs without FESD); FESD-J adds the impulse
//     complementarities of the element boundaries and the switch detection
//     on the gap and on the contact velocities.
//   - indicator: the switch indicator η_n of 004 eq. 39 at the boundary
//     between elements n − 1 and n, zero exactly where the active set
//     changes there; the builder's step equilibration uses it (FESD-J's
//     is built from the sums of the gap variables and of the normal
//     contact forces over the two elements, nosnoc's Cls.m).
//
// The switch read-out of a formulation is its sideReader (switches.go).
// Formulations are registered by DCS class in formulations: a new
// formulation adds its file(s) and an entry there.
type formulation interface {
	// check reports a system the formulation cannot transcribe with the
	// layout's options.
	check() error
	// vars declares the formulation's variables.
	vars() formVars
	// placed receives the first index in w of every block of vars at
	// the place at (n: element, m: stage point; 0 where they do not
	// apply), in the order of the declaration.
	placed(at varPlace, n, m int, first []int)
	// start returns the state the element of ev starts from (the stage
	// states, the Runge–Kutta equations and the outputs use it); it adds
	// no rows.
	start(ev *elemIn) ad.Vec
	// jump returns the rows that determine the start state (emitted
	// first among the element's rows).
	jump(ev *elemIn) ([]conRow, error)
	// stage returns f at stage point pt and the formulation's rows there
	// (emitted after the point's Runge–Kutta equations).
	stage(pt *stagePoint) (f ad.Vec, rows []conRow, err error)
	// end returns the formulation's rows at the end of the element of ev
	// (emitted after the end state's equations).
	end(ev *elemIn) ([]conRow, error)
	// complementarity adds the complementarity terms of every element to
	// the layout (layout.addComp).
	complementarity()
	// indicator returns η_n (n ≥ 1) in expressions of the NLP.
	indicator(n int) ad.Expr
}

// varPlace is where a block of a formulation's variables sits.
type varPlace int8

const (
	atHorizon    varPlace = iota // once, before the first control stage (stage hint 0)
	atElemStart                  // at the start of every element, after its step size
	atStagePoint                 // at every stage point, after its state
	atElemEnd                    // at the end of every element, after its end state
)

// varBlock declares len(lo) variables with bounds lo ≤ v ≤ hi: name is
// the symbols' name in the NLP, tmpl in the element template, and kind
// with the block's position and the component index their varInfo.
type varBlock struct {
	name, tmpl string
	kind       varKind
	lo, hi     []float64
}

// formVars are the blocks of a formulation's variables at every place.
type formVars struct {
	horizon, elemStart, point, elemEnd []varBlock
}

// conRow is one constraint row lo ≤ e ≤ hi.
type conRow struct {
	e      ad.Expr
	lo, hi float64
}

// eqRows returns the rows e_i = 0.
func eqRows(rows []conRow, e ad.Vec) []conRow {
	for _, r := range e {
		rows = append(rows, conRow{e: r})
	}
	return rows
}

// stagePoint is one Runge–Kutta stage point m of an element as a
// formulation sees it: the stage state x, the time t, the element's
// control u and parameters p, and the formulation's blocks v there.
type stagePoint struct {
	m    int
	x    ad.Vec
	t    ad.Expr
	u, p ad.Vec
	v    []ad.Vec
}

// formulationClass is one registered formulation: its transcription part
// and its switch read-out.
type formulationClass struct {
	transcribe func(tr *transcription) formulation
	sides      sideReader
}

// formulations registers the formulation of every DCS class, the
// registration point: a new formulation adds its file(s) and an entry
// here.
var formulations = map[dcs.Formulation]formulationClass{
	dcs.Stewart: {transcribe: newDCSFormulation, sides: stewartSides{}},
	dcs.Step:    {transcribe: newDCSFormulation, sides: stepSides{}},
}

// newFormulation returns the formulation that transcribes tr.d (tr.own's
// if set).
func newFormulation(tr *transcription) (formulation, error) {
	if tr.own != nil {
		return tr.own(tr), nil
	}
	c, ok := formulations[tr.d.Formulation]
	if !ok {
		return nil, fmt.Errorf("%w: no FESD formulation for the DCS formulation %v", ErrStructure, tr.d.Formulation)
	}
	return c.transcribe(tr), nil
}

// newSideReader returns the switch read-out of d's formulation.
func newSideReader(d *dcs.DCS) (sideReader, error) {
	c, ok := formulations[d.Formulation]
	if !ok {
		return nil, fmt.Errorf("%w: no switch read-out for the DCS formulation %v", ErrStructure, d.Formulation)
	}
	return c.sides, nil
}
