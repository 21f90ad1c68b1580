package ad

import "math"

// op identifies the operation of a graph node. The numbering is internal;
// the table ops below is the single description of every operation.
type op uint8

const (
	opInvalid op = iota // poisoned node (id 0 of every graph)
	opConst             // constant k
	opSym               // symbol; k holds the serial number
	opAdd               // a + b
	opSub               // a − b
	opMul               // a · b
	opMulZ              // a · b with strong zero: 0 if a == 0 or b == 0
	opDiv               // a / b
	opNeg               // −a
	opSq                // a²
	opPowC              // a^k, k a constant exponent
	opPow               // a^b
	opSqrt              // √a
	opExp               // eᵃ
	opLog               // ln a
	opSin               // sin a
	opCos               // cos a
	opTan               // tan a
	opAtan              // atan a
	opAtan2             // atan2(a, b)
	opTanh              // tanh a
	opAbs               // |a|
	opSign              // sign a (sign 0 = 0)
	opMin               // min(a, b)
	opMax               // max(a, b)
	opGt                // 1 if a > b else 0
	opGe                // 1 if a ≥ b else 0
	opIfElse            // a > 0 ? b : c
	numOps
)

// opInfo describes one operation: its name, arity, value rule and partial
// derivatives. eval is the value rule (used for constant folding and as the
// reference the tape interpreter is tested against); partial returns ∂y/∂child
// as an expression, where y is the node itself (so rules such as
// d exp(a) = exp(a) reuse the node). Forward mode, reverse mode and therefore
// second-order derivatives all use partial.
type opInfo struct {
	name    string
	arity   int
	infix   string // for String(); "" means function-call notation
	nonsm   bool   // nonsmooth/selecting op: derivatives need strong-zero products
	eval    func(a, b, c, k float64) float64
	partial func(y Expr, i int) Expr
}

// ops is the operation table.
var ops [numOps]opInfo

func init() {
	ops = [numOps]opInfo{
		opInvalid: {name: "invalid"},
		opConst:   {name: "const"},
		opSym:     {name: "sym"},
		opAdd: {name: "add", arity: 2, infix: "+",
			eval:    func(a, b, _, _ float64) float64 { return a + b },
			partial: func(y Expr, i int) Expr { return y.g.one() }},
		opSub: {name: "sub", arity: 2, infix: "-",
			eval: func(a, b, _, _ float64) float64 { return a - b },
			partial: func(y Expr, i int) Expr {
				if i == 0 {
					return y.g.one()
				}
				return y.g.Const(-1)
			}},
		opMul: {name: "mul", arity: 2, infix: "*",
			eval:    func(a, b, _, _ float64) float64 { return a * b },
			partial: func(y Expr, i int) Expr { return y.arg(1 - i) }},
		opMulZ: {name: "mulz", arity: 2, nonsm: true,
			eval:    func(a, b, _, _ float64) float64 { return mulZ(a, b) },
			partial: func(y Expr, i int) Expr { return y.arg(1 - i) }},
		opDiv: {name: "div", arity: 2, infix: "/",
			eval: func(a, b, _, _ float64) float64 { return a / b },
			partial: func(y Expr, i int) Expr {
				b := y.arg(1)
				if i == 0 {
					return b.g.one().Div(b)
				}
				return y.Div(b).Neg()
			}},
		opNeg: {name: "neg", arity: 1,
			eval:    func(a, _, _, _ float64) float64 { return -a },
			partial: func(y Expr, i int) Expr { return y.g.Const(-1) }},
		opSq: {name: "sq", arity: 1,
			eval:    func(a, _, _, _ float64) float64 { return a * a },
			partial: func(y Expr, i int) Expr { return y.arg(0).Scale(2) }},
		opPowC: {name: "powc", arity: 1,
			eval: func(a, _, _, k float64) float64 { return math.Pow(a, k) },
			partial: func(y Expr, i int) Expr {
				k := y.g.nodes[y.id].k
				return Pow(y.arg(0), k-1).Scale(k)
			}},
		opPow: {name: "pow", arity: 2,
			eval: func(a, b, _, _ float64) float64 { return math.Pow(a, b) },
			partial: func(y Expr, i int) Expr {
				a, b := y.arg(0), y.arg(1)
				if i == 0 {
					return b.Mul(PowExpr(a, b.AddConst(-1)))
				}
				return y.Mul(Log(a))
			}},
		opSqrt: {name: "sqrt", arity: 1,
			eval:    func(a, _, _, _ float64) float64 { return math.Sqrt(a) },
			partial: func(y Expr, i int) Expr { return y.g.Const(0.5).Div(y) }},
		opExp: {name: "exp", arity: 1,
			eval:    func(a, _, _, _ float64) float64 { return math.Exp(a) },
			partial: func(y Expr, i int) Expr { return y }},
		opLog: {name: "log", arity: 1,
			eval:    func(a, _, _, _ float64) float64 { return math.Log(a) },
			partial: func(y Expr, i int) Expr { return y.g.one().Div(y.arg(0)) }},
		opSin: {name: "sin", arity: 1,
			eval:    func(a, _, _, _ float64) float64 { return math.Sin(a) },
			partial: func(y Expr, i int) Expr { return Cos(y.arg(0)) }},
		opCos: {name: "cos", arity: 1,
			eval:    func(a, _, _, _ float64) float64 { return math.Cos(a) },
			partial: func(y Expr, i int) Expr { return Sin(y.arg(0)).Neg() }},
		opTan: {name: "tan", arity: 1,
			eval:    func(a, _, _, _ float64) float64 { return math.Tan(a) },
			partial: func(y Expr, i int) Expr { return Sq(y).AddConst(1) }},
		opAtan: {name: "atan", arity: 1,
			eval: func(a, _, _, _ float64) float64 { return math.Atan(a) },
			partial: func(y Expr, i int) Expr {
				return y.g.one().Div(Sq(y.arg(0)).AddConst(1))
			}},
		opAtan2: {name: "atan2", arity: 2,
			eval: func(a, b, _, _ float64) float64 { return math.Atan2(a, b) },
			partial: func(y Expr, i int) Expr {
				a, b := y.arg(0), y.arg(1)
				r := Sq(a).Add(Sq(b))
				if i == 0 {
					return b.Div(r)
				}
				return a.Neg().Div(r)
			}},
		opTanh: {name: "tanh", arity: 1,
			eval:    func(a, _, _, _ float64) float64 { return math.Tanh(a) },
			partial: func(y Expr, i int) Expr { return y.g.one().Sub(Sq(y)) }},
		opAbs: {name: "abs", arity: 1, nonsm: true,
			eval:    func(a, _, _, _ float64) float64 { return math.Abs(a) },
			partial: func(y Expr, i int) Expr { return Sign(y.arg(0)) }},
		opSign: {name: "sign", arity: 1, nonsm: true,
			eval:    func(a, _, _, _ float64) float64 { return sign(a) },
			partial: func(y Expr, i int) Expr { return y.g.zero() }},
		opMin: {name: "min", arity: 2, nonsm: true,
			eval: func(a, b, _, _ float64) float64 { return minf(a, b) },
			partial: func(y Expr, i int) Expr {
				a, b := y.arg(0), y.arg(1)
				if i == 0 {
					return Ge(b, a) // a ≤ b: first argument wins ties
				}
				return Gt(a, b)
			}},
		opMax: {name: "max", arity: 2, nonsm: true,
			eval: func(a, b, _, _ float64) float64 { return maxf(a, b) },
			partial: func(y Expr, i int) Expr {
				a, b := y.arg(0), y.arg(1)
				if i == 0 {
					return Ge(a, b) // a ≥ b: first argument wins ties
				}
				return Gt(b, a)
			}},
		opGt: {name: "gt", arity: 2, infix: ">", nonsm: true,
			eval:    func(a, b, _, _ float64) float64 { return b2f(a > b) },
			partial: func(y Expr, i int) Expr { return y.g.zero() }},
		opGe: {name: "ge", arity: 2, infix: ">=", nonsm: true,
			eval:    func(a, b, _, _ float64) float64 { return b2f(a >= b) },
			partial: func(y Expr, i int) Expr { return y.g.zero() }},
		opIfElse: {name: "ifelse", arity: 3, nonsm: true,
			eval: func(a, b, c, _ float64) float64 {
				if a > 0 {
					return b
				}
				return c
			},
			partial: func(y Expr, i int) Expr {
				g := y.g
				cond := y.arg(0)
				switch i {
				case 1:
					return IfElse(cond, g.one(), g.zero())
				case 2:
					return IfElse(cond, g.zero(), g.one())
				}
				return g.zero()
			}},
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// sign returns −1, 0 or 1 (NaN for NaN).
func sign(a float64) float64 {
	switch {
	case a > 0:
		return 1
	case a < 0:
		return -1
	}
	return a // ±0 or NaN
}

// minf returns a if a ≤ b, b if b < a, and NaN if either is NaN.
func minf(a, b float64) float64 {
	if a <= b {
		return a
	}
	if b < a {
		return b
	}
	return math.NaN()
}

// maxf returns a if a ≥ b, b if b > a, and NaN if either is NaN.
func maxf(a, b float64) float64 {
	if a >= b {
		return a
	}
	if b > a {
		return b
	}
	return math.NaN()
}

// mulZ is the strong-zero product: 0 if either factor is zero, even when the
// other is NaN or ±Inf. Chain-rule products use it when an expression
// contains selecting operations, so that an inactive branch's NaN/Inf
// partials are multiplied by an exact zero and vanish.
func mulZ(a, b float64) float64 {
	if a == 0 || b == 0 {
		return 0
	}
	return a * b
}
