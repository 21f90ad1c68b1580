package ad

import (
	"fmt"
	"math"
	"unsafe"
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

// Name returns the function's name. The accessors below return zero
// values for a nil *Function, and InName, InSize, OutName, OutSize return
// "" or −1 for an index out of range.
func (f *Function) Name() string {
	if f == nil {
		return ""
	}
	return f.name
}

// NumIn returns the number of input arguments.
func (f *Function) NumIn() int {
	if f == nil {
		return 0
	}
	return len(f.inNames)
}

// NumOut returns the number of output arguments.
func (f *Function) NumOut() int {
	if f == nil {
		return 0
	}
	return len(f.outNames)
}

// InName returns the name of input i; InSize its length.
func (f *Function) InName(i int) string {
	if i < 0 || i >= f.NumIn() {
		return ""
	}
	return f.inNames[i]
}

// InSize returns the length of input i (−1 if there is no input i).
func (f *Function) InSize(i int) int {
	if i < 0 || i >= f.NumIn() {
		return -1
	}
	return f.inSizes[i]
}

// OutName returns the name of output i.
func (f *Function) OutName(i int) string {
	if i < 0 || i >= f.NumOut() {
		return ""
	}
	return f.outNames[i]
}

// OutSize returns the length of output i (−1 if there is no output i).
func (f *Function) OutSize(i int) int {
	if i < 0 || i >= f.NumOut() {
		return -1
	}
	return f.outSizes[i]
}

// NumInstr returns the length of the tape.
func (f *Function) NumInstr() int {
	if f == nil {
		return 0
	}
	return len(f.tape)
}

// WorkSize returns the number of float64 work slots.
func (f *Function) WorkSize() int {
	if f == nil {
		return 0
	}
	return f.nwork
}

// NewFunction compiles outputs as functions of inputs. Every input element
// must be a distinct symbol; every output expression must belong to the same
// graph and depend only on input symbols. Names must be non-empty and unique
// among inputs and among outputs. On error the Function is nil. NewFunction
// only reads the graph (see Graph for concurrent use).
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
	if err := f.checkFree(g, in, out); err != nil {
		return nil, err
	}
	return f, nil
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

// Tape-only fused opcodes, numbered after the graph operations. Each is a
// composition of table operations with the same roundings (the product is
// rounded before the sum: float64(a*b) prevents fused multiply-add).
const (
	opMulC    op = numOps + iota // a·k
	opAddC                       // a + k
	opRSubC                      // k − a
	opMulAdd                     // a·b + c
	opMulSub                     // a·b − c
	opNMulAdd                    // c − a·b
	opSinCos                     // out = sin a, b = cos a (two results)
	numTapeOps
)

// tnode is one tape operation before scheduling: operands are cone indices.
type tnode struct {
	op   op
	arg  [3]int32
	narg int
	k    float64
}

// compile builds the tape in four steps:
//  1. fusion: a product used only once by a sum or difference is fused into
//     it (a·b + c, a·b − c, c − a·b); products, sums and differences with a
//     constant operand carry the constant inline (a·k, a + k, k − a);
//  2. scheduling into batches of one opcode each (list scheduling on the
//     DAG: among the ready operations, the opcode with the most ready
//     operations is emitted next, all of them at once), so that run executes
//     a tight loop per opcode and the independent operations of a batch keep
//     the pipeline busy;
//  3. register allocation in the scheduled order: inputs and constants have
//     fixed slots, every other value takes a free register, released after
//     its last use;
//  4. output slots.
//
// The passes share the sweep's tables (cone, uses, slots) and run once per
// Function; they are kept in one function, read top to bottom in the order
// above.
func (f *Function) compile(g *Graph, in, out Vec) {
	s := newSweep(g, out)
	cone := s.cone
	nc := len(cone)
	opOf := func(ci int32) op { return g.nodes[cone[ci]].op }
	isOp := func(ci int32) bool { o := opOf(ci); return o != opConst && o != opSym }
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
	kid := func(ci int32, i int) int32 { return s.pos[child(g.nodes[cone[ci]], i)] }
	// 1. Fusion.
	uses := make([]int, nc)
	for ci := range cone {
		c := int32(ci)
		if !isOp(c) {
			continue
		}
		for i := 0; i < ops[opOf(c)].arity; i++ {
			uses[kid(c, i)]++
		}
	}
	for _, e := range out {
		uses[s.pos[e.id]] += 2 // outputs are never absorbed
	}
	absorbed := make([]bool, nc)
	fusable := func(c int32) bool { return opOf(c) == opMul && uses[c] == 1 && !absorbed[c] }
	constOf := func(c int32) (float64, bool) { return Expr{g, cone[c]}.IsConst() }
	tn := make([]tnode, nc)
	for ci := range cone {
		c := int32(ci)
		if !isOp(c) {
			continue
		}
		o := opOf(c)
		t := tnode{op: o, k: g.nodes[cone[c]].k, narg: ops[o].arity}
		for i := 0; i < t.narg; i++ {
			t.arg[i] = kid(c, i)
		}
		switch o {
		case opMul:
			if k, ok := constOf(t.arg[1]); ok {
				t = tnode{op: opMulC, arg: [3]int32{t.arg[0]}, narg: 1, k: k}
			} else if k, ok := constOf(t.arg[0]); ok {
				t = tnode{op: opMulC, arg: [3]int32{t.arg[1]}, narg: 1, k: k}
			}
		case opAdd:
			x, y := t.arg[0], t.arg[1]
			if k, ok := constOf(y); ok {
				t = tnode{op: opAddC, arg: [3]int32{x}, narg: 1, k: k}
			} else if k, ok := constOf(x); ok {
				t = tnode{op: opAddC, arg: [3]int32{y}, narg: 1, k: k}
			} else if fusable(x) {
				absorbed[x] = true
				t = tnode{op: opMulAdd, arg: [3]int32{kid(x, 0), kid(x, 1), y}, narg: 3}
			} else if fusable(y) {
				absorbed[y] = true
				t = tnode{op: opMulAdd, arg: [3]int32{kid(y, 0), kid(y, 1), x}, narg: 3}
			}
		case opSub:
			x, y := t.arg[0], t.arg[1]
			if k, ok := constOf(y); ok {
				t = tnode{op: opAddC, arg: [3]int32{x}, narg: 1, k: -k}
			} else if k, ok := constOf(x); ok {
				t = tnode{op: opRSubC, arg: [3]int32{y}, narg: 1, k: k}
			} else if fusable(y) {
				absorbed[y] = true
				t = tnode{op: opNMulAdd, arg: [3]int32{kid(y, 0), kid(y, 1), x}, narg: 3}
			} else if fusable(x) {
				absorbed[x] = true
				t = tnode{op: opMulSub, arg: [3]int32{kid(x, 0), kid(x, 1), y}, narg: 3}
			}
		}
		tn[ci] = t
	}
	// sin a and cos a of the same a become one SinCos computing both; the
	// cos node becomes a second result of its partner (cosOf).
	partner := make([]int32, nc) // cos node → sin node, sin node → cos node
	for i := range partner {
		partner[i] = -1
	}
	sinOf := map[int32]int32{}
	for ci := range cone {
		if c := int32(ci); opOf(c) == opSin {
			sinOf[kid(c, 0)] = c
		}
	}
	for ci := range cone {
		c := int32(ci)
		if opOf(c) != opCos {
			continue
		}
		if sn, ok := sinOf[kid(c, 0)]; ok && partner[sn] < 0 {
			partner[sn], partner[c] = c, sn
			absorbed[c] = true
			tn[sn].op = opSinCos
		}
	}
	// producer maps a value to the tape operation that computes it.
	producer := func(c int32) int32 {
		if opOf(c) == opCos && partner[c] >= 0 {
			return partner[c]
		}
		return c
	}
	valued := func(c int32) bool { return isOp(c) }
	live := func(c int32) bool { return isOp(c) && !absorbed[c] }
	// 2. Scheduling.
	pending := make([]int, nc)
	parents := make([][]int32, nc)
	for ci := range cone {
		c := int32(ci)
		if !live(c) {
			continue
		}
		t := &tn[ci]
		for i := 0; i < t.narg; i++ {
			a := producer(t.arg[i])
			dup := false
			for j := 0; j < i; j++ {
				dup = dup || producer(t.arg[j]) == a
			}
			if !dup && live(a) {
				pending[ci]++
				parents[a] = append(parents[a], c)
			}
		}
	}
	var ready [numTapeOps][]int32
	for ci := range cone {
		if c := int32(ci); live(c) && pending[ci] == 0 {
			ready[tn[ci].op] = append(ready[tn[ci].op], c)
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
		if n := len(f.batches); n > 0 && f.batches[n-1].op == best {
			// Same opcode as the previous batch: extend it (instructions run
			// in order, so dependent ones may share a loop).
			f.batches[n-1].hi += int32(len(batch))
		} else {
			f.batches = append(f.batches, batch32{op: best, lo: int32(len(order)), hi: int32(len(order) + len(batch))})
		}
		order = append(order, batch...)
		for _, c := range batch {
			for _, p := range parents[c] {
				pending[p]--
				if pending[p] == 0 {
					ready[tn[p].op] = append(ready[tn[p].op], p)
				}
			}
		}
	}
	// 3. Register allocation. last[c] is the position (in order) of the
	// last reader of c; outputs live to the end.
	last := make([]int, nc)
	for i := range last {
		last[i] = -1
	}
	for k, c := range order {
		t := &tn[c]
		for i := 0; i < t.narg; i++ {
			last[t.arg[i]] = k
		}
	}
	for _, e := range out {
		last[s.pos[e.id]] = len(order)
	}
	freeAt := make([][]int32, len(order)+1)
	for ci, l := range last {
		if l >= 0 && l < len(order) && valued(int32(ci)) && !(absorbed[ci] && opOf(int32(ci)) != opCos) {
			freeAt[l] = append(freeAt[l], int32(ci))
		}
	}
	var free []int32
	f.tape = make([]instr, 0, len(order))
	for k, c := range order {
		t := &tn[c]
		ins := instr{op: t.op, k: t.k}
		if t.narg > 0 {
			ins.a = slot[t.arg[0]]
		}
		if t.narg > 1 {
			ins.b = slot[t.arg[1]]
		}
		if t.narg > 2 {
			ins.c = slot[t.arg[2]]
		}
		// Release operands whose last use is this instruction, then take a
		// register (possibly one just released: an instruction reads its
		// operands before writing its result).
		for _, d := range freeAt[k] {
			free = append(free, slot[d])
		}
		take := func() int32 {
			if n := len(free); n > 0 {
				r := free[n-1]
				free = free[:n-1]
				return r
			}
			next++
			return next - 1
		}
		slot[c] = take()
		ins.out = slot[c]
		if t.op == opSinCos {
			cs := partner[c]
			slot[cs] = take()
			ins.b = slot[cs]
		}
		f.tape = append(f.tape, ins)
	}
	// 4. Outputs.
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

// NewWorkspace returns a workspace sized and initialized for f (an empty
// one for a nil f).
func (f *Function) NewWorkspace() *Workspace {
	ws := &Workspace{}
	if f != nil {
		ws.bind(f)
	}
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
// workspace has been used with f. A nil ws evaluates in a temporary
// workspace (which allocates, and does not check for non-finite outputs);
// a nil f is ErrNilFunction.
func (f *Function) Eval(ws *Workspace, in, out [][]float64) error {
	if f == nil {
		return ErrNilFunction
	}
	if err := f.checkArgs(in, out); err != nil {
		return err
	}
	if ws == nil {
		ws = &Workspace{}
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
// Slots are addressed without bounds checks: compile assigns every operand
// and result a slot below nwork, and bind guarantees len(w) ≥ nwork.
//
// It is one long function on purpose: one case per opcode (its cyclomatic
// complexity is the size of the instruction set), each a loop over the
// batch with the slot arithmetic inline; cases moved into functions would
// put a call into the innermost loop of every evaluation.
func (f *Function) run(w []float64) {
	if len(w) < f.nwork || f.nwork == 0 {
		return
	}
	base := unsafe.Pointer(unsafe.SliceData(w))
	at := func(i int32) *float64 { return (*float64)(unsafe.Add(base, uintptr(i)*8)) }
	for _, bt := range f.batches {
		t := f.tape[bt.lo:bt.hi]
		switch bt.op {
		case opAdd:
			for i := range t {
				in := &t[i]
				*at(in.out) = *at(in.a) + *at(in.b)
			}
		case opSub:
			for i := range t {
				in := &t[i]
				*at(in.out) = *at(in.a) - *at(in.b)
			}
		case opMul:
			for i := range t {
				in := &t[i]
				*at(in.out) = *at(in.a) * *at(in.b)
			}
		case opMulC:
			for i := range t {
				in := &t[i]
				*at(in.out) = *at(in.a) * in.k
			}
		case opAddC:
			for i := range t {
				in := &t[i]
				*at(in.out) = *at(in.a) + in.k
			}
		case opRSubC:
			for i := range t {
				in := &t[i]
				*at(in.out) = in.k - *at(in.a)
			}
		case opMulAdd:
			for i := range t {
				in := &t[i]
				*at(in.out) = float64(*at(in.a)**at(in.b)) + *at(in.c)
			}
		case opMulSub:
			for i := range t {
				in := &t[i]
				*at(in.out) = float64(*at(in.a)**at(in.b)) - *at(in.c)
			}
		case opNMulAdd:
			for i := range t {
				in := &t[i]
				*at(in.out) = *at(in.c) - float64(*at(in.a)**at(in.b))
			}
		case opMulZ:
			for i := range t {
				in := &t[i]
				*at(in.out) = mulZ(*at(in.a), *at(in.b))
			}
		case opDiv:
			for i := range t {
				in := &t[i]
				*at(in.out) = *at(in.a) / *at(in.b)
			}
		case opNeg:
			for i := range t {
				in := &t[i]
				*at(in.out) = -*at(in.a)
			}
		case opSq:
			for i := range t {
				in := &t[i]
				a := *at(in.a)
				*at(in.out) = a * a
			}
		case opPowC:
			for i := range t {
				in := &t[i]
				*at(in.out) = math.Pow(*at(in.a), in.k)
			}
		case opPow:
			for i := range t {
				in := &t[i]
				*at(in.out) = math.Pow(*at(in.a), *at(in.b))
			}
		case opSqrt:
			for i := range t {
				in := &t[i]
				*at(in.out) = math.Sqrt(*at(in.a))
			}
		case opExp:
			for i := range t {
				in := &t[i]
				*at(in.out) = math.Exp(*at(in.a))
			}
		case opLog:
			for i := range t {
				in := &t[i]
				*at(in.out) = math.Log(*at(in.a))
			}
		case opSinCos:
			for i := range t {
				in := &t[i]
				sn, cs := math.Sincos(*at(in.a))
				*at(in.out) = sn
				*at(in.b) = cs
			}
		case opSin:
			for i := range t {
				in := &t[i]
				*at(in.out) = math.Sin(*at(in.a))
			}
		case opCos:
			for i := range t {
				in := &t[i]
				*at(in.out) = math.Cos(*at(in.a))
			}
		case opTan:
			for i := range t {
				in := &t[i]
				*at(in.out) = math.Tan(*at(in.a))
			}
		case opAtan:
			for i := range t {
				in := &t[i]
				*at(in.out) = math.Atan(*at(in.a))
			}
		case opAtan2:
			for i := range t {
				in := &t[i]
				*at(in.out) = math.Atan2(*at(in.a), *at(in.b))
			}
		case opTanh:
			for i := range t {
				in := &t[i]
				*at(in.out) = math.Tanh(*at(in.a))
			}
		case opAbs:
			for i := range t {
				in := &t[i]
				*at(in.out) = math.Abs(*at(in.a))
			}
		case opSign:
			for i := range t {
				in := &t[i]
				*at(in.out) = sign(*at(in.a))
			}
		case opMin:
			for i := range t {
				in := &t[i]
				*at(in.out) = minf(*at(in.a), *at(in.b))
			}
		case opMax:
			for i := range t {
				in := &t[i]
				*at(in.out) = maxf(*at(in.a), *at(in.b))
			}
		case opGt:
			for i := range t {
				in := &t[i]
				*at(in.out) = b2f(*at(in.a) > *at(in.b))
			}
		case opGe:
			for i := range t {
				in := &t[i]
				*at(in.out) = b2f(*at(in.a) >= *at(in.b))
			}
		case opIfElse:
			for i := range t {
				in := &t[i]
				if *at(in.a) > 0 {
					*at(in.out) = *at(in.b)
				} else {
					*at(in.out) = *at(in.c)
				}
			}
		default:
			panic("ad: corrupt tape") // unreachable: compile emits known opcodes only
		}
	}
}
