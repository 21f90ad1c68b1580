package ad

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// refEval evaluates e directly from the operation table's value rules (the
// reference the tape interpreter must reproduce bit for bit).
func refEval(e Expr, env map[Expr]float64) float64 {
	memo := map[int32]float64{}
	var rec func(id int32) float64
	rec = func(id int32) float64 {
		if v, ok := memo[id]; ok {
			return v
		}
		n := e.g.nodes[id]
		var v float64
		switch n.op {
		case opConst:
			v = n.k
		case opSym:
			v = env[Expr{e.g, id}]
		default:
			var a, b, c float64
			ar := ops[n.op].arity
			if ar > 0 {
				a = rec(n.a)
			}
			if ar > 1 {
				b = rec(n.b)
			}
			if ar > 2 {
				c = rec(n.c)
			}
			v = ops[n.op].eval(a, b, c, n.k)
		}
		memo[id] = v
		return v
	}
	return rec(e.id)
}

// mustFunc compiles a single-input function or fails the test.
func mustFunc(t testing.TB, x Vec, outs ...Arg) *Function {
	t.Helper()
	f, err := NewFunction("test", []Arg{{Name: "x", V: x}}, outs)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// eval1 evaluates a single-input function and returns its outputs.
func eval1(t testing.TB, f *Function, x []float64) [][]float64 {
	t.Helper()
	out := make([][]float64, f.NumOut())
	for i := range out {
		out[i] = make([]float64, f.OutSize(i))
		for j := range out[i] {
			out[i][j] = math.NaN() // must be overwritten
		}
	}
	if err := f.Eval(f.NewWorkspace(), [][]float64{x}, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// close reports |a−b| ≤ tol·max(1, |a|, |b|); NaN never matches.
func closeTo(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func randIn(r *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }

func matVals(m Mat) Vec { return m.E }

func nowNanos() int64 { return time.Now().UnixNano() }
