package ad

import (
	"fmt"
	"math"
)

// Arg is a named vector argument (input or output) of a Function.
type Arg struct {
	Name string
	V    Vec
}

// A returns the argument (name, v).
func A(name string, v ...Expr) Arg { return Arg{Name: name, V: v} }

// instr is one tape instruction: w[out] = op(w[a], w[b], w[c]; k).
type instr struct {
	op      op
	a, b, c int32
	out     int32
	k       float64
}

// batch32 is a run tape[lo:hi] of instructions with the same opcode.
type batch32 struct {
	op     op
	lo, hi int32
}

// Function is a compiled function: a flat instruction tape over a work array
// of float64 slots. Inputs are copied into the first slots, constants sit in
// the following slots (written once per workspace), and the remaining slots
// are registers reused as soon as a value is dead. A Function is immutable
// after compilation and safe for concurrent use with one Workspace per
// goroutine.
type Function struct {
	name     string
	inNames  []string
	inSizes  []int
	outNames []string
	outSizes []int
	nin      int       // total input elements (slots [0, nin))
	consts   []float64 // values of slots [nin, nin+len(consts))
	nwork    int
	tape     []instr
	batches  []batch32 // runs of one opcode in tape
	outSlot  []int32   // slot of every output element (concatenated)
	outOff   []int     // offset of each output in outSlot
	freeSym  int32     // a non-input symbol met during compilation (error)
}

// Name returns the function's name.
func (f *Function) Name() string { return f.name }

// NumIn returns the number of input arguments.
func (f *Function) NumIn() int { return len(f.inNames) }

// NumOut returns the number of output arguments.
func (f *Function) NumOut() int { return len(f.outNames) }

// InName returns the name of input i; InSize its length.
func (f *Function) InName(i int) string { return f.inNames[i] }

// InSize returns the length of input i.
func (f *Function) InSize(i int) int { return f.inSizes[i] }

// OutName returns the name of output i.
func (f *Function) OutName(i int) string { return f.outNames[i] }

// OutSize returns the length of output i.
func (f *Function) OutSize(i int) int { return f.outSizes[i] }

// NumInstr returns the length of the tape.
func (f *Function) NumInstr() int { return len(f.tape) }

// WorkSize returns the number of float64 work slots.
func (f *Function) WorkSize() int { return f.nwork }

// NewFunction compiles outputs as functions of inputs. Every input element
// must be a distinct symbol; every output expression must belong to the same
// graph and depend only on input symbols. Names must be non-empty and unique
// among inputs and among outputs.
func NewFunction(name string, inputs, outputs []Arg) (*Function, error) {
	var all []Vec
	for _, a := range inputs {
		all = append(all, a.V)
	}
	for _, a := range outputs {
		all = append(all, a.V)
	}
	g, err := checkExprs(all...)
	if err != nil {
		return nil, fmt.Errorf("ad: function %q: %w", name, err)
	}
	f := &Function{name: name}
	seenName := map[string]bool{}
	var in Vec
	for _, a := range inputs {
		if a.Name == "" || seenName[a.Name] {
			return nil, fmt.Errorf("%w: input %q of %q", ErrBadName, a.Name, name)
		}
		seenName[a.Name] = true
		f.inNames = append(f.inNames, a.Name)
		f.inSizes = append(f.inSizes, len(a.V))
		in = append(in, a.V...)
	}
	if err := checkSymbols(in); err != nil {
		return nil, fmt.Errorf("ad: function %q inputs: %w", name, err)
	}
	seenName = map[string]bool{}
	var out Vec
	for _, a := range outputs {
		if a.Name == "" || seenName[a.Name] {
			return nil, fmt.Errorf("%w: output %q of %q", ErrBadName, a.Name, name)
		}
		seenName[a.Name] = true
		f.outNames = append(f.outNames, a.Name)
		f.outSizes = append(f.outSizes, len(a.V))
		f.outOff = append(f.outOff, len(out))
		out = append(out, a.V...)
	}
	f.outOff = append(f.outOff, len(out))
	f.nin = len(in)
	if g == nil { // no expressions at all
		f.nwork = 0
		return f, nil
	}
	f.compile(g, in, out)
	return f, f.checkFree(g, in, out)
}

// checkFree reports ErrFreeSymbol if the compilation met a symbol that is
// not an input (compile marks it with a negative slot).
func (f *Function) checkFree(g *Graph, in, out Vec) error {
	if f.freeSym != 0 {
		e := Expr{g, f.freeSym}
		return fmt.Errorf("ad: function %q: %w: %s", f.name, ErrFreeSymbol, e.Name())
	}
	return nil
}

// compile builds the tape: it schedules the operations into batches of
// one opcode each (list scheduling on the DAG: among the ready operations,
// the opcode with the most ready operations is emitted next, all of them at
// once), then assigns work slots in the scheduled order, reusing a register
// as soon as its value is dead. Batching lets run execute a tight loop per
// opcode instead of dispatching on every instruction, and the operations of
// a batch are independent, which keeps the pipeline busy.
func (f *Function) compile(g *Graph, in, out Vec) {
	s := newSweep(g, out)
	cone := s.cone
	nc := len(cone)
	isOp := func(ci int) bool {
		o := g.nodes[cone[ci]].op
		return o != opConst && o != opSym
	}
	slot := make([]int32, nc)
	for i := range slot {
		slot[i] = -1
	}
	for k, e := range in {
		if p := s.pos[e.id]; p >= 0 {
			slot[p] = int32(k)
		}
	}
	next := int32(f.nin)
	for ci, id := range cone {
		nd := g.nodes[id]
		switch nd.op {
		case opConst:
			slot[ci] = next
			next++
			f.consts = append(f.consts, nd.k)
		case opSym:
			if slot[ci] < 0 && f.freeSym == 0 {
				f.freeSym = id
			}
		}
	}
	if f.freeSym != 0 {
		return
	}
	// Children (cone indices) of every operation and dependency counts.
	kids := make([][3]int32, nc)
	pending := make([]int, nc)
	parents := make([][]int32, nc)
	for ci, id := range cone {
		if !isOp(ci) {
			continue
		}
		nd := g.nodes[id]
		ar := ops[nd.op].arity
		for i := 0; i < ar; i++ {
			c := s.pos[child(nd, i)]
			kids[ci][i] = c
			dup := false
			for j := 0; j < i; j++ {
				dup = dup || kids[ci][j] == c
			}
			if !dup && isOp(int(c)) {
				pending[ci]++
				parents[c] = append(parents[c], int32(ci))
			}
		}
	}
	var ready [numOps][]int32
	for ci := range cone {
		if isOp(ci) && pending[ci] == 0 {
			o := g.nodes[cone[ci]].op
			ready[o] = append(ready[o], int32(ci))
		}
	}
	var order []int32
	for {
		best := op(0)
		for o := range ready {
			if len(ready[o]) > len(ready[best]) {
				best = op(o)
			}
		}
		if len(ready[best]) == 0 {
			break
		}
		batch := ready[best]
		ready[best] = nil
		f.batches = append(f.batches, batch32{op: best, lo: int32(len(order)), hi: int32(len(order) + len(batch))})
		order = append(order, batch...)
		for _, ci := range batch {
			for _, p := range parents[ci] {
				pending[p]--
				if pending[p] == 0 {
					o := g.nodes[cone[p]].op
					ready[o] = append(ready[o], p)
				}
			}
		}
	}
	// Last use (position in order of the last reader); outputs live to the end.
	posIn := make([]int, nc)
	for k, ci := range order {
		posIn[ci] = k
	}
	last := make([]int, nc)
	for i := range last {
		last[i] = -1
	}
	for k, ci := range order {
		nd := g.nodes[cone[ci]]
		for i := 0; i < ops[nd.op].arity; i++ {
			last[kids[ci][i]] = k
		}
	}
	for _, e := range out {
		last[s.pos[e.id]] = len(order)
	}
	freeAt := make([][]int32, len(order)+1)
	for ci, l := range last {
		if l >= 0 && l < len(order) && isOp(ci) {
			freeAt[l] = append(freeAt[l], int32(ci))
		}
	}
	var free []int32
	f.tape = make([]instr, 0, len(order))
	for k, ci := range order {
		nd := g.nodes[cone[ci]]
		ins := instr{op: nd.op, k: nd.k}
		ar := ops[nd.op].arity
		if ar > 0 {
			ins.a = slot[kids[ci][0]]
		}
		if ar > 1 {
			ins.b = slot[kids[ci][1]]
		}
		if ar > 2 {
			ins.c = slot[kids[ci][2]]
		}
		// Release operands whose last use is this instruction, then take a
		// register (possibly one just released: an instruction reads its
		// operands before writing its result).
		for _, d := range freeAt[k] {
			free = append(free, slot[d])
		}
		if n := len(free); n > 0 {
			slot[ci] = free[n-1]
			free = free[:n-1]
		} else {
			slot[ci] = next
			next++
		}
		ins.out = slot[ci]
		f.tape = append(f.tape, ins)
	}
	f.nwork = int(next)
	f.outSlot = make([]int32, len(out))
	for k, e := range out {
		f.outSlot[k] = slot[s.pos[e.id]]
	}
}

// Workspace holds the work array of Function evaluations. A workspace may
// be used with several Functions in turn (it grows on first use with a larger
// function and reloads constants when the function changes), but never by two
// goroutines at once.
type Workspace struct {
	// CheckFinite makes Eval return ErrNonFinite when an output contains
	// NaN or ±Inf.
	CheckFinite bool

	w     []float64
	owner *Function
}

// NewWorkspace returns an empty workspace; it is sized on first use.
func NewWorkspace() *Workspace { return &Workspace{} }

// NewWorkspace returns a workspace sized and initialized for f.
func (f *Function) NewWorkspace() *Workspace {
	ws := &Workspace{}
	ws.bind(f)
	return ws
}

func (ws *Workspace) bind(f *Function) {
	if ws.owner == f {
		return
	}
	if cap(ws.w) < f.nwork {
		ws.w = make([]float64, f.nwork)
	}
	ws.w = ws.w[:f.nwork]
	copy(ws.w[f.nin:], f.consts)
	ws.owner = f
}

// Eval evaluates f at the inputs in (one slice per input argument, of the
// declared lengths) and writes the outputs into out (one slice per output
// argument; a nil slice skips that output). It does not allocate once the
// workspace has been used with f.
func (f *Function) Eval(ws *Workspace, in, out [][]float64) error {
	if err := f.checkArgs(in, out); err != nil {
		return err
	}
	ws.bind(f)
	w := ws.w
	k := 0
	for _, x := range in {
		copy(w[k:], x)
		k += len(x)
	}
	f.run(w)
	for o, y := range out {
		if y == nil {
			continue
		}
		slots := f.outSlot[f.outOff[o]:f.outOff[o+1]]
		for i, s := range slots {
			y[i] = w[s]
		}
		if ws.CheckFinite {
			for i, v := range y {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return ErrNonFinite{Output: f.outNames[o], Index: i, Value: v}
				}
			}
		}
	}
	return nil
}

func (f *Function) checkArgs(in, out [][]float64) error {
	if err := f.checkIn(in); err != nil {
		return err
	}
	if len(out) != len(f.outSizes) {
		return fmt.Errorf("%w: %q has %d outputs, got %d", ErrDimension, f.name, len(f.outSizes), len(out))
	}
	for i, y := range out {
		if y != nil && len(y) != f.outSizes[i] {
			return fmt.Errorf("%w: %q output %q has length %d, got %d", ErrDimension, f.name, f.outNames[i], f.outSizes[i], len(y))
		}
	}
	return nil
}

func (f *Function) checkIn(in [][]float64) error {
	if len(in) != len(f.inSizes) {
		return fmt.Errorf("%w: %q takes %d inputs, got %d", ErrDimension, f.name, len(f.inSizes), len(in))
	}
	for i, x := range in {
		if len(x) != f.inSizes[i] {
			return fmt.Errorf("%w: %q input %q has length %d, got %d", ErrDimension, f.name, f.inNames[i], f.inSizes[i], len(x))
		}
	}
	return nil
}

// run executes the tape on the work array, one tight loop per batch.
func (f *Function) run(w []float64) {
	for _, bt := range f.batches {
		t := f.tape[bt.lo:bt.hi]
		switch bt.op {
		case opAdd:
			for i := range t {
				in := &t[i]
				w[in.out] = w[in.a] + w[in.b]
			}
		case opSub:
			for i := range t {
				in := &t[i]
				w[in.out] = w[in.a] - w[in.b]
			}
		case opMul:
			for i := range t {
				in := &t[i]
				w[in.out] = w[in.a] * w[in.b]
			}
		case opMulZ:
			for i := range t {
				in := &t[i]
				w[in.out] = mulZ(w[in.a], w[in.b])
			}
		case opDiv:
			for i := range t {
				in := &t[i]
				w[in.out] = w[in.a] / w[in.b]
			}
		case opNeg:
			for i := range t {
				in := &t[i]
				w[in.out] = -w[in.a]
			}
		case opSq:
			for i := range t {
				in := &t[i]
				a := w[in.a]
				w[in.out] = a * a
			}
		case opPowC:
			for i := range t {
				in := &t[i]
				w[in.out] = math.Pow(w[in.a], in.k)
			}
		case opPow:
			for i := range t {
				in := &t[i]
				w[in.out] = math.Pow(w[in.a], w[in.b])
			}
		case opSqrt:
			for i := range t {
				in := &t[i]
				w[in.out] = math.Sqrt(w[in.a])
			}
		case opExp:
			for i := range t {
				in := &t[i]
				w[in.out] = math.Exp(w[in.a])
			}
		case opLog:
			for i := range t {
				in := &t[i]
				w[in.out] = math.Log(w[in.a])
			}
		case opSin:
			for i := range t {
				in := &t[i]
				w[in.out] = math.Sin(w[in.a])
			}
		case opCos:
			for i := range t {
				in := &t[i]
				w[in.out] = math.Cos(w[in.a])
			}
		case opTan:
			for i := range t {
				in := &t[i]
				w[in.out] = math.Tan(w[in.a])
			}
		case opAtan:
			for i := range t {
				in := &t[i]
				w[in.out] = math.Atan(w[in.a])
			}
		case opAtan2:
			for i := range t {
				in := &t[i]
				w[in.out] = math.Atan2(w[in.a], w[in.b])
			}
		case opTanh:
			for i := range t {
				in := &t[i]
				w[in.out] = math.Tanh(w[in.a])
			}
		case opAbs:
			for i := range t {
				in := &t[i]
				w[in.out] = math.Abs(w[in.a])
			}
		case opSign:
			for i := range t {
				in := &t[i]
				w[in.out] = sign(w[in.a])
			}
		case opMin:
			for i := range t {
				in := &t[i]
				w[in.out] = minf(w[in.a], w[in.b])
			}
		case opMax:
			for i := range t {
				in := &t[i]
				w[in.out] = maxf(w[in.a], w[in.b])
			}
		case opGt:
			for i := range t {
				in := &t[i]
				w[in.out] = b2f(w[in.a] > w[in.b])
			}
		case opGe:
			for i := range t {
				in := &t[i]
				w[in.out] = b2f(w[in.a] >= w[in.b])
			}
		case opIfElse:
			for i := range t {
				in := &t[i]
				if w[in.a] > 0 {
					w[in.out] = w[in.b]
				} else {
					w[in.out] = w[in.c]
				}
			}
		default:
			panic("ad: corrupt tape") // unreachable: compile emits table ops only
		}
	}
}
