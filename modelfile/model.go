package modelfile

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// Var is a named block of states, controls, parameters or algebraic
// variables: Size components starting at Offset of its vector.
type Var struct {
	Name         string
	Size, Offset int
}

// Subsystem describes a [[subsystem]] or [[step]] for messages and for
// `fesd check`: its name and its switching functions as written.
type Subsystem struct {
	Name  string
	Psi   []string
	Signs [][]int // nil for a [[step]]
	Modes int     // number of modes (0 for a [[step]])
	Step  bool
}

// Model is a model file read by Parse: the nonsmooth model, its initial
// state and bounds, the settings and, if the file has them, a simulation
// and an optimal control problem.
type Model struct {
	// Name is the file's name key ("" if absent).
	Name string
	// Model is the nonsmooth system in a graph of its own.
	Model *dcs.Model
	// States, Controls, Params and Algebraic list the named blocks in file
	// order; StateNames, ControlNames name every component (x, or x0…x4
	// for a vector x of size 5).
	States, Controls, Params, Algebraic []Var
	StateNames, ControlNames            []string
	// Subsystems lists the [[subsystem]] tables and then the [[step]]
	// tables, in the order of dcs.Model.EvalPsi.
	Subsystems []Subsystem
	// X0 is the initial state; XL, XU, UL, UU the bounds (nil when no
	// component has one; ±Inf for the components without); P the
	// parameter values.
	X0, XL, XU, UL, UU, P []float64
	// Options are the settings of [options] (zero fields: fesd's
	// defaults).
	Options fesd.Options
	// Sim is the [simulate] table (nil if absent).
	Sim *Simulation
	// OCP is the [ocp] table (nil if absent).
	OCP *OCP

	// timeFreezing is set for a model of [time_freezing].
	timeFreezing bool
}

// ControlStep is one row of a piecewise-constant control table: U holds
// from time T on.
type ControlStep struct {
	T float64
	U []float64
}

// Simulation is the [simulate] table.
type Simulation struct {
	// TSim, NSim, T0, NoPredict and ColdStart are those of
	// fesd.SimOptions.
	TSim      float64
	NSim      int
	T0        float64
	NoPredict bool
	ColdStart bool
	// U is a constant control; UTable a piecewise-constant one (one of
	// them when the model has controls).
	U      []float64
	UTable []ControlStep
}

// Control returns the control at time t: U, or the last row of UTable
// whose time is ≤ t (the first row before its time).
func (s *Simulation) Control(t float64) []float64 {
	if len(s.UTable) == 0 {
		return s.U
	}
	u := s.UTable[0].U
	for _, r := range s.UTable {
		if r.T <= t {
			u = r.U
		}
	}
	return u
}

// OCP is the [ocp] table: the problem (with the model, x₀, bounds and
// parameters of the file) and its initial guess.
type OCP struct {
	Problem *fesd.OCP
	Start   fesd.Start
}

// builder holds the state of Parse.
type builder struct {
	d  *doc
	m  *Model
	g  *ad.Graph
	sc *scope
	x  ad.Vec
	u  ad.Vec
	p  ad.Vec
	// stepDesc describes the [[step]] tables (listed after the subsystems).
	stepDesc []Subsystem
	// algTables are the [[algebraic]] tables, whose equations are read
	// after the dynamics.
	algTables []*table
	// dynPath is the position of the dynamics for model errors.
	dynPath string
	// timeFreezing is set when [time_freezing] built the model.
	timeFreezing bool
}

// Parse reads a model file; file is the name used in messages. Every
// problem of the file is an *Error with its position.
func Parse(file string, src []byte) (*Model, error) {
	d, err := decode(file, src)
	if err != nil {
		return nil, err
	}
	b := &builder{d: d, m: &Model{}, g: ad.NewGraph()}
	b.sc = &scope{g: b.g, names: map[string]binding{}}
	if err := b.build(); err != nil {
		return nil, err
	}
	return b.m, nil
}

var rootKeys = []string{"name", "time", "constants", "let", "state", "control", "parameter", "step", "algebraic", "subsystem", "dynamics", "options", "simulate", "ocp", "time_freezing"}

func (b *builder) build() error {
	root := &table{d: b.d, m: b.d.root, name: "the top level"}
	if err := root.check(rootKeys...); err != nil {
		return err
	}
	var err error
	if b.m.Name, _, err = root.str("name", false); err != nil {
		return err
	}
	steps := []func(*table) error{b.constants, b.options, b.states, b.controls, b.params, b.modelOrTimeFreezing, b.time, b.steps, b.algebraicVars, b.lets, b.subsystems, b.dynamics, b.algebraicEqs, b.model, b.simulate, b.ocp}
	for _, f := range steps {
		if err := f(root); err != nil {
			return err
		}
	}
	return nil
}

// define adds a name to the scope, reporting a duplicate at path.
func (b *builder) define(path, name, what string, v ad.Vec) error {
	if !validName(name) {
		return b.d.valErr(path, "invalid name %q: use letters, digits and _, starting with a letter or _", name)
	}
	if _, ok := unaryFuncs[name]; ok || name == "sum" || binaryFuncs[name] != nil {
		return b.d.valErr(path, "name %q is a function", name)
	}
	if old, ok := b.sc.names[name]; ok {
		return b.d.valErr(path, "name %q is already defined (a %s)", name, old.what)
	}
	b.sc.names[name] = binding{v: v, what: what}
	return nil
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (b *builder) constants(root *table) error {
	t, err := root.subtable("constants", "[constants]")
	if err != nil || t == nil {
		return err
	}
	for _, k := range sortedKeys(t) {
		v, err := b.d.floatList(t.sub(k), t.m[k], -1)
		if err != nil {
			return err
		}
		if len(v) == 0 {
			return b.d.valErr(t.sub(k), "constant %q is empty", k)
		}
		for i, f := range v {
			if math.IsInf(f, 0) {
				return b.d.valErr(t.sub(k), "constant %q: element %d is infinite", k, i)
			}
		}
		if err := b.defineAtKey(t.sub(k), k, "constant", b.g.ConstVec(v...)); err != nil {
			return err
		}
	}
	return nil
}

// defineAtKey is define reporting at the key (constants are keys).
func (b *builder) defineAtKey(path, name, what string, v ad.Vec) error {
	if err := b.define(path, name, what, v); err != nil {
		var e *Error
		if errors.As(err, &e) {
			e2 := b.d.keyErr(path, "%s", e.Msg)
			return e2
		}
		return err
	}
	return nil
}

// sortedKeys returns the keys of t in file order.
func sortedKeys(t *table) []string {
	var k []string
	for key := range t.m {
		k = append(k, key)
	}
	for i := 1; i < len(k); i++ {
		for j := i; j > 0 && t.d.where[t.sub(k[j])].key < t.d.where[t.sub(k[j-1])].key; j-- {
			k[j], k[j-1] = k[j-1], k[j]
		}
	}
	return k
}

// vars reads an array of [[state]], [[control]], [[parameter]] or
// [[algebraic]] tables: their names and sizes, as symbols.
func (b *builder) vars(root *table, key, what string, extra ...string) ([]*table, []Var, ad.Vec, error) {
	ts, err := root.tables(key, "[["+key+"]]")
	if err != nil {
		return nil, nil, nil, err
	}
	var vars []Var
	var all ad.Vec
	for _, t := range ts {
		if err := t.check(append([]string{"name", "size"}, extra...)...); err != nil {
			return nil, nil, nil, err
		}
		name, _, err := t.str("name", true)
		if err != nil {
			return nil, nil, nil, err
		}
		size, ok, err := t.int("size", false)
		if err != nil {
			return nil, nil, nil, err
		}
		if !ok {
			size = 1
		} else if size < 1 || size > 10000 {
			return nil, nil, nil, b.d.valErr(t.sub("size"), "size must be between 1 and 10000, found %d", size)
		}
		v := b.g.SymVec(name, size)
		if size == 1 {
			v = ad.Vec{b.g.Sym(name)}
		}
		if err := b.define(t.sub("name"), name, what, v); err != nil {
			return nil, nil, nil, err
		}
		vars = append(vars, Var{Name: name, Size: size, Offset: len(all)})
		all = append(all, v...)
	}
	return ts, vars, all, nil
}

// componentNames names every component: x for a scalar, x0… for a vector.
func componentNames(vars []Var) []string {
	var n []string
	for _, v := range vars {
		if v.Size == 1 {
			n = append(n, v.Name)
			continue
		}
		for i := 0; i < v.Size; i++ {
			n = append(n, v.Name+strconv.Itoa(i))
		}
	}
	return n
}

// bounds reads lower and upper of every table into l and u (nil when no
// table has one).
func (b *builder) bounds(ts []*table, vars []Var, n int) (l, u []float64, err error) {
	any := false
	for _, t := range ts {
		any = any || t.has("lower") || t.has("upper")
	}
	if !any {
		return nil, nil, nil
	}
	l, u = make([]float64, n), make([]float64, n)
	for i, t := range ts {
		v := vars[i]
		lo, ok, err := t.floats("lower", v.Size, false)
		if err != nil {
			return nil, nil, err
		}
		hi, ok2, err := t.floats("upper", v.Size, false)
		if err != nil {
			return nil, nil, err
		}
		for j := 0; j < v.Size; j++ {
			l[v.Offset+j], u[v.Offset+j] = math.Inf(-1), math.Inf(1)
			if ok {
				l[v.Offset+j] = lo[j]
			}
			if ok2 {
				u[v.Offset+j] = hi[j]
			}
			if l[v.Offset+j] > u[v.Offset+j] {
				return nil, nil, b.d.valErr(t.sub("lower"), "lower bound %g above upper bound %g (component %d of %s)", l[v.Offset+j], u[v.Offset+j], j, v.Name)
			}
		}
	}
	return l, u, nil
}

func (b *builder) states(root *table) error {
	ts, vars, x, err := b.vars(root, "state", "state", "x0", "lower", "upper")
	if err != nil {
		return err
	}
	if len(ts) == 0 {
		return root.missing("state")
	}
	b.x, b.m.States, b.m.StateNames = x, vars, componentNames(vars)
	for i, t := range ts {
		x0, _, err := t.floats("x0", vars[i].Size, true)
		if err != nil {
			return err
		}
		for j, f := range x0 {
			if math.IsInf(f, 0) {
				return b.d.valErr(t.sub("x0"), "x0 of %s: element %d is infinite", vars[i].Name, j)
			}
		}
		b.m.X0 = append(b.m.X0, x0...)
	}
	b.m.XL, b.m.XU, err = b.bounds(ts, vars, len(x))
	return err
}

func (b *builder) controls(root *table) error {
	ts, vars, u, err := b.vars(root, "control", "control", "lower", "upper")
	if err != nil {
		return err
	}
	b.u, b.m.Controls, b.m.ControlNames = u, vars, componentNames(vars)
	b.m.UL, b.m.UU, err = b.bounds(ts, vars, len(u))
	return err
}

func (b *builder) params(root *table) error {
	ts, vars, p, err := b.vars(root, "parameter", "parameter", "value")
	if err != nil {
		return err
	}
	b.p, b.m.Params = p, vars
	for i, t := range ts {
		v, _, err := t.floats("value", vars[i].Size, true)
		if err != nil {
			return err
		}
		b.m.P = append(b.m.P, v...)
	}
	return nil
}

func (b *builder) time(root *table) error {
	name, ok, err := root.str("time", false)
	if err != nil || !ok {
		return err
	}
	t := b.g.Sym(name)
	b.m.Model.Time = t
	return b.define("time", name, "time", ad.Vec{t})
}

// expr builds the expression string v at path.
func (b *builder) expr(path string, v any) (ad.Vec, error) {
	s, ok := v.(string)
	if !ok {
		if f, err := b.d.number(path, v); err == nil {
			return ad.Vec{b.g.Const(f)}, nil
		}
		return nil, b.d.valErr(path, "want an expression (a string), found %s", typeName(v))
	}
	n, perr := parseExpr(s)
	var out ad.Vec
	if perr == nil {
		out, perr = b.sc.build(n)
	}
	if perr != nil {
		w := b.d.where[path]
		off := w.val
		if w.text >= 0 {
			off = w.text + perr.Off
		}
		return nil, b.d.errAt(off, "%s", perr.Msg)
	}
	return out, nil
}

// exprs builds key of t: an expression or an array of expressions,
// concatenated; n ≥ 0 is the required total length.
func (b *builder) exprs(t *table, key string, n int, required bool, what string) (ad.Vec, bool, error) {
	v, ok := t.m[key]
	if !ok {
		if required {
			return nil, false, t.missing(key)
		}
		return nil, false, nil
	}
	path := t.sub(key)
	var out ad.Vec
	if arr, isArr := v.([]any); isArr {
		for i, e := range arr {
			x, err := b.expr(path+"."+strconv.Itoa(i), e)
			if err != nil {
				return nil, true, err
			}
			out = append(out, x...)
		}
	} else {
		x, err := b.expr(path, v)
		if err != nil {
			return nil, true, err
		}
		out = x
	}
	if len(out) == 0 {
		return nil, true, b.d.valErr(path, "%s is empty", what)
	}
	if n >= 0 && len(out) != n {
		return nil, true, b.d.valErr(path, "%s has %d elements, want %d", what, len(out), n)
	}
	return out, true, nil
}

// restrict marks the names of the given kinds as forbidden until the
// returned function restores them.
func (b *builder) restrict(why string, kinds ...string) func() {
	saved := map[string]binding{}
	for k, v := range b.sc.names {
		if contains(kinds, v.what) {
			saved[k] = v
			v.forbidden = why
			b.sc.names[k] = v
		}
	}
	return func() {
		for k, v := range saved {
			b.sc.names[k] = v
		}
	}
}

func exprStrings(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var s []string
		for _, e := range x {
			s = append(s, fmt.Sprint(e))
		}
		return s
	}
	return []string{fmt.Sprint(v)}
}

// switchingFunctions reads the key psi of t: switching functions of the
// states, controls and parameters (not of the time, step selections or
// algebraic variables), at most dcs.MaxPsi of them.
func (b *builder) switchingFunctions(t *table) (ad.Vec, error) {
	restore := b.restrict("cannot appear in switching functions", "time", "step selection", "algebraic variable")
	psi, _, err := b.exprs(t, "psi", -1, true, "psi")
	restore()
	if err != nil {
		return nil, err
	}
	if len(psi) > dcs.MaxPsi {
		return nil, b.d.valErr(t.sub("psi"), "%d switching functions, at most %d", len(psi), dcs.MaxPsi)
	}
	return psi, nil
}

func (b *builder) steps(root *table) error {
	ts, err := root.tables("step", "[[step]]")
	if err != nil {
		return err
	}
	for _, t := range ts {
		if err := t.check("name", "psi"); err != nil {
			return err
		}
		name, _, err := t.str("name", true)
		if err != nil {
			return err
		}
		psi, err := b.switchingFunctions(t)
		if err != nil {
			return err
		}
		alpha := b.m.Model.AddStep(psi)
		if err := b.define(t.sub("name"), name, "step selection", alpha); err != nil {
			return err
		}
		b.stepDesc = append(b.stepDesc, Subsystem{Name: name, Psi: exprStrings(t.m["psi"]), Step: true})
	}
	return nil
}
