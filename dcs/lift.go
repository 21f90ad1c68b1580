package dcs

import (
	"strings"

	"github.com/fesd-go/fesd/ad"
)

// affine returns the factor (1 − s)/2 + s·a of the product (21): a for
// s = +1 and 1 − a for s = −1.
func affine(g *ad.Graph, s int, a ad.Expr) ad.Expr {
	if s > 0 {
		return a
	}
	return g.Const(1).Sub(a)
}

// liftProducts runs the lifting Algorithm 1 of 004 (§6.3) on the rows of
// the sign matrix S (entries ±1, rows distinct, nψ = len(alpha) columns)
// with depth nd and returns, for every row i, the expression θ̃_i that the
// algorithm equates with θ_i (line 8).
//
// The loop multiplies the running products θ̃ by the factor of column j
// (line 6). At the stages j = nd, …, nψ − 1 (1-based; only when nd ≥ 1) it
// takes the distinct prefixes S_{•,1..j} in first-occurrence order (the
// function unique of line 14, ordered so that 004 Example 5 is reproduced
// exactly), hands their products θ̃_{I_red} to lift, and replaces every θ̃_i
// by the returned expression of its prefix (line 17). lift either creates
// the lifting variables β^j and records the equations β^j − θ̃_{I_red} = 0
// (line 16), or returns its argument, which evaluates the unlifted product.
//
// With a complete sign matrix every θ_i has nψ factors, so all θ_i are
// emitted after the last column (lines 7–11 with k = 0), and the number of
// lifting variables is Σ_{j=nd}^{nψ−1} 2^j = 2^nψ − 2^nd (Table 4). Every
// lifted expression is a product of at most two factors (β·α or β·(1−α)),
// except β^{nd} itself, which has nd factors.
func liftProducts(g *ad.Graph, S [][]int, alpha ad.Vec, nd int, lift func(stage int, defs ad.Vec) ad.Vec) []ad.Expr {
	n := len(alpha)
	cur := make([]ad.Expr, len(S))
	for i := range cur {
		cur[i] = g.Const(1)
	}
	full := make([]int, len(S))
	for jj := 0; jj < n; jj++ {
		for i, row := range S {
			cur[i] = cur[i].Mul(affine(g, row[jj], alpha[jj]))
		}
		j := jj + 1
		if nd < 1 || j < nd || j > n-1 {
			continue
		}
		seen := make(map[string]int)
		var red []int
		for i, row := range S {
			key := prefixKey(row[:j])
			k, ok := seen[key]
			if !ok {
				k = len(red)
				seen[key] = k
				red = append(red, i)
			}
			full[i] = k
		}
		defs := make(ad.Vec, len(red))
		for k, i := range red {
			defs[k] = cur[i]
		}
		repl := lift(j, defs)
		for i := range cur {
			cur[i] = repl[full[i]]
		}
	}
	return cur
}

func prefixKey(row []int) string {
	var sb strings.Builder
	for _, s := range row {
		if s > 0 {
			sb.WriteByte('+')
		} else {
			sb.WriteByte('-')
		}
	}
	return sb.String()
}

// NumLift returns the number of lifting variables n_β that Algorithm 1 of
// 004 introduces for a complete sign matrix with nψ columns and depth nd
// (Table 4): 2^nψ − 2^nd for 1 ≤ nd ≤ nψ, and 0 for nd = 0 (no lifting) or
// nd > nψ.
func NumLift(nPsi, nd int) int {
	if nd < 1 || nd > nPsi {
		return 0
	}
	return 1<<uint(nPsi) - 1<<uint(nd)
}
