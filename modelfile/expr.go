package modelfile

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/fesd-go/fesd/ad"
)

// exprError is an error inside an expression string: Off is the byte
// offset in the expression where it was found.
type exprError struct {
	Off int
	Msg string
}

func (e *exprError) Error() string { return e.Msg }

func exprErrorf(off int, format string, args ...any) *exprError {
	return &exprError{Off: off, Msg: fmt.Sprintf(format, args...)}
}

// maxLen bounds the length of a vector value, so that nested
// concatenations ([let] a = "[x, x]", b = "[a, a]", …) cannot grow without
// bound.
const maxLen = 100000

// maxDepth bounds the nesting of an expression (parentheses, brackets,
// unary signs), so that a hostile file cannot exhaust the stack.
const maxDepth = 100

type tokKind int

const (
	tokEOF tokKind = iota
	tokNum
	tokIdent
	tokPunct // one of + - * / ^ ( ) [ ] ,
)

type token struct {
	kind tokKind
	text string
	num  float64
	off  int
}

// lex splits an expression into tokens.
func lex(s string) ([]token, *exprError) {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.IndexByte("+-*/^()[],", c) >= 0:
			toks = append(toks, token{kind: tokPunct, text: s[i : i+1], off: i})
			i++
		case isDigit(c) || c == '.':
			j := numberEnd(s, i)
			v, err := strconv.ParseFloat(s[i:j], 64)
			if err != nil || math.IsInf(v, 0) {
				return nil, exprErrorf(i, "invalid number %q", s[i:j])
			}
			toks = append(toks, token{kind: tokNum, text: s[i:j], num: v, off: i})
			i = j
		case isLetter(c):
			j := i
			for j < len(s) && (isLetter(s[j]) || isDigit(s[j])) {
				j++
			}
			toks = append(toks, token{kind: tokIdent, text: s[i:j], off: i})
			i = j
		default:
			r := []rune(s[i:])[0]
			return nil, exprErrorf(i, "unexpected character %q", r)
		}
	}
	return append(toks, token{kind: tokEOF, off: len(s)}), nil
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// numberEnd returns the end of the number that starts at s[i]: digits and
// points, then an exponent (e or E, an optional sign, digits) if digits
// follow.
func numberEnd(s string, i int) int {
	j := i
	for j < len(s) && (isDigit(s[j]) || s[j] == '.') {
		j++
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			j = k
		}
	}
	return j
}

type nodeKind int

const (
	nodeNum nodeKind = iota
	nodeName
	nodeNeg
	nodeBinary
	nodeCall
	nodeIndex
	nodeVector
)

// node is the syntax tree of an expression.
type node struct {
	kind nodeKind
	op   byte    // nodeBinary: + - * / ^
	name string  // nodeName, nodeCall
	num  float64 // nodeNum
	args []*node // operands, call arguments, vector elements, [indexed, index]
	off  int
}

type parser struct {
	toks  []token
	i     int
	depth int
}

// parseExpr parses an expression into its syntax tree.
func parseExpr(s string) (*node, *exprError) {
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	if toks[0].kind == tokEOF {
		return nil, exprErrorf(0, "empty expression")
	}
	p := &parser{toks: toks}
	n, err := p.sum()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, exprErrorf(t.off, "unexpected %s", describe(t))
	}
	return n, nil
}

func describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "end of expression"
	case tokNum:
		return "number " + t.text
	case tokIdent:
		return "name " + t.text
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) isPunct(s string) bool {
	t := p.toks[p.i]
	return t.kind == tokPunct && t.text == s
}

func (p *parser) expect(s string) *exprError {
	if !p.isPunct(s) {
		t := p.peek()
		return exprErrorf(t.off, "expected %q, found %s", s, describe(t))
	}
	p.i++
	return nil
}

func (p *parser) enter(off int) *exprError {
	p.depth++
	if p.depth > maxDepth {
		return exprErrorf(off, "expression nested more than %d levels deep", maxDepth)
	}
	return nil
}

// sum := product (('+' | '-') product)*
func (p *parser) sum() (*node, *exprError) {
	l, err := p.product()
	if err != nil {
		return nil, err
	}
	for p.isPunct("+") || p.isPunct("-") {
		t := p.toks[p.i]
		p.i++
		r, err := p.product()
		if err != nil {
			return nil, err
		}
		l = &node{kind: nodeBinary, op: t.text[0], args: []*node{l, r}, off: t.off}
	}
	return l, nil
}

// product := unary (('*' | '/') unary)*
func (p *parser) product() (*node, *exprError) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.isPunct("*") || p.isPunct("/") {
		t := p.toks[p.i]
		p.i++
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = &node{kind: nodeBinary, op: t.text[0], args: []*node{l, r}, off: t.off}
	}
	return l, nil
}

// unary := ('-' | '+') unary | power
func (p *parser) unary() (*node, *exprError) {
	if p.isPunct("-") || p.isPunct("+") {
		t := p.toks[p.i]
		if err := p.enter(t.off); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		p.i++
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if t.text == "+" {
			return x, nil
		}
		return &node{kind: nodeNeg, args: []*node{x}, off: t.off}, nil
	}
	return p.power()
}

// power := postfix ('^' unary)?   (right-associative; -x^2 = -(x^2))
func (p *parser) power() (*node, *exprError) {
	b, err := p.postfix()
	if err != nil {
		return nil, err
	}
	if p.isPunct("^") {
		t := p.toks[p.i]
		if err := p.enter(t.off); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		p.i++
		e, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &node{kind: nodeBinary, op: '^', args: []*node{b, e}, off: t.off}, nil
	}
	return b, nil
}

// postfix := primary ('[' sum ']')*
func (p *parser) postfix() (*node, *exprError) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for p.isPunct("[") {
		t := p.toks[p.i]
		if err := p.enter(t.off); err != nil {
			return nil, err
		}
		p.i++
		i, err := p.sum()
		if err != nil {
			return nil, err
		}
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		p.depth--
		x = &node{kind: nodeIndex, args: []*node{x, i}, off: t.off}
	}
	return x, nil
}

// primary := number | name | name '(' args ')' | '(' sum ')' | '[' sum (',' sum)* ']'
func (p *parser) primary() (*node, *exprError) {
	t := p.peek()
	switch {
	case t.kind == tokNum:
		p.i++
		return &node{kind: nodeNum, num: t.num, off: t.off}, nil
	case t.kind == tokIdent:
		p.i++
		if !p.isPunct("(") {
			return &node{kind: nodeName, name: t.text, off: t.off}, nil
		}
		if err := p.enter(t.off); err != nil {
			return nil, err
		}
		p.i++
		args, err := p.list(")")
		if err != nil {
			return nil, err
		}
		p.depth--
		return &node{kind: nodeCall, name: t.text, args: args, off: t.off}, nil
	case p.isPunct("("):
		if err := p.enter(t.off); err != nil {
			return nil, err
		}
		p.i++
		x, err := p.sum()
		if err != nil {
			return nil, err
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		p.depth--
		return x, nil
	case p.isPunct("["):
		if err := p.enter(t.off); err != nil {
			return nil, err
		}
		p.i++
		el, err := p.list("]")
		if err != nil {
			return nil, err
		}
		if len(el) == 0 {
			return nil, exprErrorf(t.off, "empty vector []")
		}
		p.depth--
		return &node{kind: nodeVector, args: el, off: t.off}, nil
	}
	return nil, exprErrorf(t.off, "expected a number, a name, '(' or '[', found %s", describe(t))
}

// list parses comma-separated expressions up to the closing punctuation.
func (p *parser) list(closing string) ([]*node, *exprError) {
	var out []*node
	if p.isPunct(closing) {
		p.i++
		return out, nil
	}
	for {
		x, err := p.sum()
		if err != nil {
			return nil, err
		}
		out = append(out, x)
		if p.isPunct(",") {
			p.i++
			continue
		}
		if err := p.expect(closing); err != nil {
			return nil, err
		}
		return out, nil
	}
}

// binding is what a name in an expression stands for.
type binding struct {
	v ad.Vec
	// what describes the name in messages ("state", "constant", …).
	what string
	// forbidden, if not empty, makes the name an error in this scope with
	// this explanation.
	forbidden string
}

// scope resolves names while an expression is built.
type scope struct {
	g     *ad.Graph
	names map[string]binding
}

func (s *scope) sortedNames() string {
	var n []string
	for k, b := range s.names {
		if b.forbidden == "" {
			n = append(n, k)
		}
	}
	sort.Strings(n)
	return strings.Join(n, ", ")
}

// unaryFuncs are the elementwise functions of one argument.
var unaryFuncs = map[string]func(ad.Expr) ad.Expr{
	"sin": ad.Sin, "cos": ad.Cos, "tan": ad.Tan, "atan": ad.Atan,
	"exp": ad.Exp, "log": ad.Log, "sqrt": ad.Sqrt, "tanh": ad.Tanh,
	"abs": ad.Abs, "sign": ad.Sign, "sq": ad.Sq,
}

// binaryFuncs are the elementwise functions of two arguments.
var binaryFuncs = map[string]func(a, b ad.Expr) ad.Expr{
	"min": ad.Min, "max": ad.Max, "atan2": ad.Atan2, "pow": power,
}

// funcNames lists every function for messages.
func funcNames() string {
	var n []string
	for k := range unaryFuncs {
		n = append(n, k)
	}
	for k := range binaryFuncs {
		n = append(n, k)
	}
	n = append(n, "sum")
	sort.Strings(n)
	return strings.Join(n, ", ")
}

// power returns a^b: an integer constant exponent gives ad.PowInt, another
// constant ad.Pow, an expression ad.PowExpr.
func power(a, b ad.Expr) ad.Expr {
	if p, ok := b.IsConst(); ok {
		if q, ok := a.IsConst(); ok {
			return a.Graph().Const(math.Pow(q, p))
		}
		if p == math.Trunc(p) && math.Abs(p) <= 64 {
			return ad.PowInt(a, int(p))
		}
		return ad.Pow(a, p)
	}
	return ad.PowExpr(a, b)
}

// build turns the syntax tree into a vector of ad expressions.
func (s *scope) build(n *node) (ad.Vec, *exprError) {
	switch n.kind {
	case nodeNum:
		return ad.Vec{s.g.Const(n.num)}, nil
	case nodeName:
		b, ok := s.names[n.name]
		if !ok {
			if _, f := unaryFuncs[n.name]; f {
				return nil, exprErrorf(n.off, "function %s needs arguments: %s(…)", n.name, n.name)
			}
			return nil, exprErrorf(n.off, "undefined name %q (defined here: %s)", n.name, s.sortedNames())
		}
		if b.forbidden != "" {
			return nil, exprErrorf(n.off, "%s %q %s", b.what, n.name, b.forbidden)
		}
		return b.v, nil
	case nodeNeg:
		x, err := s.build(n.args[0])
		if err != nil {
			return nil, err
		}
		out := make(ad.Vec, len(x))
		for i, e := range x {
			out[i] = e.Neg()
		}
		return out, nil
	case nodeVector:
		var out ad.Vec
		for _, a := range n.args {
			x, err := s.build(a)
			if err != nil {
				return nil, err
			}
			if len(out)+len(x) > maxLen {
				return nil, exprErrorf(n.off, "vector longer than %d elements", maxLen)
			}
			out = append(out, x...)
		}
		return out, nil
	case nodeIndex:
		return s.index(n)
	case nodeCall:
		return s.call(n)
	}
	return s.binary(n)
}

func (s *scope) index(n *node) (ad.Vec, *exprError) {
	x, err := s.build(n.args[0])
	if err != nil {
		return nil, err
	}
	iv, err := s.build(n.args[1])
	if err != nil {
		return nil, err
	}
	if len(iv) != 1 {
		return nil, exprErrorf(n.args[1].off, "an index must be a single number, not a vector of %d", len(iv))
	}
	f, ok := iv[0].IsConst()
	if !ok || f != math.Trunc(f) {
		return nil, exprErrorf(n.args[1].off, "an index must be a constant integer")
	}
	if f < 0 || f >= float64(len(x)) {
		return nil, exprErrorf(n.args[1].off, "index %g out of range: the vector has %d elements (indices are 0-based: 0…%d)", f, len(x), len(x)-1)
	}
	return ad.Vec{x[int(f)]}, nil
}

func (s *scope) call(n *node) (ad.Vec, *exprError) {
	args := make([]ad.Vec, len(n.args))
	for i, a := range n.args {
		x, err := s.build(a)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	if f, ok := unaryFuncs[n.name]; ok {
		if len(args) != 1 {
			return nil, exprErrorf(n.off, "%s takes 1 argument, got %d", n.name, len(args))
		}
		out := make(ad.Vec, len(args[0]))
		for i, e := range args[0] {
			out[i] = f(e)
		}
		return out, finiteConsts(n.off, out)
	}
	if f, ok := binaryFuncs[n.name]; ok {
		if len(args) != 2 {
			return nil, exprErrorf(n.off, "%s takes 2 arguments, got %d", n.name, len(args))
		}
		out, err := elementwise(n.args[1].off, args[0], args[1], f)
		if err != nil {
			return nil, err
		}
		return out, finiteConsts(n.off, out)
	}
	if n.name == "sum" {
		if len(args) != 1 {
			return nil, exprErrorf(n.off, "sum takes 1 argument, got %d", len(args))
		}
		return ad.Vec{ad.Sum(args[0])}, nil
	}
	if _, ok := s.names[n.name]; ok {
		return nil, exprErrorf(n.off, "%q is not a function (index a vector with [ ], 0-based)", n.name)
	}
	return nil, exprErrorf(n.off, "unknown function %q (functions: %s)", n.name, funcNames())
}

// elementwise applies f to a and b of equal length, or with one of them a
// scalar that is repeated.
func elementwise(off int, a, b ad.Vec, f func(a, b ad.Expr) ad.Expr) (ad.Vec, *exprError) {
	n := len(a)
	switch {
	case len(a) == len(b):
	case len(a) == 1:
		n = len(b)
	case len(b) == 1:
	default:
		return nil, exprErrorf(off, "size mismatch: %d and %d elements", len(a), len(b))
	}
	out := make(ad.Vec, n)
	for i := range out {
		out[i] = f(a[min(i, len(a)-1)], b[min(i, len(b)-1)])
	}
	return out, nil
}

func (s *scope) binary(n *node) (ad.Vec, *exprError) {
	a, err := s.build(n.args[0])
	if err != nil {
		return nil, err
	}
	b, err := s.build(n.args[1])
	if err != nil {
		return nil, err
	}
	if n.op == '/' {
		for _, e := range b {
			if c, ok := e.IsConst(); ok && c == 0 {
				return nil, exprErrorf(n.off, "division by zero")
			}
		}
	}
	var f func(a, b ad.Expr) ad.Expr
	switch n.op {
	case '+':
		f = ad.Expr.Add
	case '-':
		f = ad.Expr.Sub
	case '*':
		f = ad.Expr.Mul
	case '/':
		f = divide
	default:
		f = power
	}
	out, err := elementwise(n.off, a, b, f)
	if err != nil {
		return nil, err
	}
	return out, finiteConsts(n.off, out)
}

// finiteConsts reports a constant result that is NaN or infinite (0^-1,
// a huge power), which would otherwise only show up in the solver.
func finiteConsts(off int, v ad.Vec) *exprError {
	for _, e := range v {
		if c, ok := e.IsConst(); ok && (math.IsNaN(c) || math.IsInf(c, 0)) {
			return exprErrorf(off, "the constant value is %g", c)
		}
	}
	return nil
}

// divide returns a/b; division of an expression by a constant c is
// multiplication by 1/c (ad's Scale), as the Go models write it.
func divide(a, b ad.Expr) ad.Expr {
	if c, ok := b.IsConst(); ok && c != 0 {
		if _, ok := a.IsConst(); !ok {
			return a.Scale(1 / c)
		}
	}
	return a.Div(b)
}
