package dcs

import (
	"fmt"
	"strings"

	"github.com/fesd-go/fesd/ad"
)

type regionOp uint8

const (
	opNone regionOp = iota
	opBase
	opPositive
	opNegative
	opUnion
	opIntersection
	opComplement
	opDifference
)

// Region is a set-valued expression over the base sets of a subsystem
// (004 Definition 1 and §6.1–6.2). Build regions with BaseSet, Positive,
// Negative, Union, Intersection, Complement and Difference; the zero Region
// is invalid. Indices are 0-based: BaseSet(i) is row i of the subsystem's
// sign matrix S, Positive(j) the set {ψ_j > 0}.
//
// A region is evaluated at the level of base sets: it is the set of base
// sets it contains. Its multiplier θ_i is the multilinear extension of the
// region's indicator in the selections α (sum over its base sets of the
// products (21)), which agrees with the elementary expressions of 004
// Table 3 wherever those are exact (A∪B for disjoint A, B; A∖B for B ⊂ A).
type Region struct {
	op    regionOp
	index int
	args  []Region
}

// BaseSet returns the base set R̃_i given by row i of the sign matrix S
// (004 eq. 10).
func BaseSet(i int) Region { return Region{op: opBase, index: i} }

// Positive returns {x | ψ_j(x) > 0}, the set A of 004 Table 3 (θ = α_j).
func Positive(j int) Region { return Region{op: opPositive, index: j} }

// Negative returns {x | ψ_j(x) < 0}, the interior of the complement of
// Positive(j) (θ = 1 − α_j).
func Negative(j int) Region { return Region{op: opNegative, index: j} }

// Union returns the union of the regions (004 Table 3, row 2).
func Union(r ...Region) Region { return Region{op: opUnion, args: append([]Region(nil), r...)} }

// Intersection returns the intersection of the regions (Table 3, row 3).
func Intersection(r ...Region) Region {
	return Region{op: opIntersection, args: append([]Region(nil), r...)}
}

// Complement returns the interior of the complement of r (Table 3, row 4).
func Complement(r Region) Region { return Region{op: opComplement, args: []Region{r}} }

// Difference returns a ∖ b (Table 3, row 5).
func Difference(a, b Region) Region { return Region{op: opDifference, args: []Region{a, b}} }

// String writes the region, e.g. "(ψ0>0 ∪ R̃3)".
func (r Region) String() string {
	var sb strings.Builder
	r.write(&sb)
	return sb.String()
}

func (r Region) write(sb *strings.Builder) {
	join := func(sep string) {
		sb.WriteByte('(')
		for i, a := range r.args {
			if i > 0 {
				sb.WriteString(sep)
			}
			a.write(sb)
		}
		sb.WriteByte(')')
	}
	switch r.op {
	case opBase:
		fmt.Fprintf(sb, "R̃%d", r.index)
	case opPositive:
		fmt.Fprintf(sb, "ψ%d>0", r.index)
	case opNegative:
		fmt.Fprintf(sb, "ψ%d<0", r.index)
	case opUnion:
		join(" ∪ ")
	case opIntersection:
		join(" ∩ ")
	case opComplement:
		sb.WriteString("∁")
		join("")
	case opDifference:
		join(" ∖ ")
	default:
		sb.WriteString("<invalid>")
	}
}

// check reports the first structural problem of r: an invalid node or an
// index out of range (nBase base sets, nPsi switching functions).
func (r Region) check(nBase, nPsi int) (detail string, err error) {
	switch r.op {
	case opBase:
		if r.index < 0 || r.index >= nBase {
			return fmt.Sprintf("base set %d of %d", r.index, nBase), ErrRegionIndex
		}
	case opPositive, opNegative:
		if r.index < 0 || r.index >= nPsi {
			return fmt.Sprintf("switching function %d of %d", r.index, nPsi), ErrRegionIndex
		}
	case opUnion, opIntersection:
		if len(r.args) == 0 {
			return "union or intersection of no regions", ErrInvalidRegion
		}
	case opComplement:
		if len(r.args) != 1 {
			return "complement needs one region", ErrInvalidRegion
		}
	case opDifference:
		if len(r.args) != 2 {
			return "difference needs two regions", ErrInvalidRegion
		}
	default:
		return "zero Region value", ErrInvalidRegion
	}
	for _, a := range r.args {
		if d, err := a.check(nBase, nPsi); err != nil {
			return d, err
		}
	}
	return "", nil
}

// contains reports whether the base set with sign vertex v (bit j set iff
// ψ_j > 0 on it) and row index base belongs to r.
func (r Region) contains(v uint64, base int) bool {
	switch r.op {
	case opBase:
		return r.index == base
	case opPositive:
		return v>>uint(r.index)&1 == 1
	case opNegative:
		return v>>uint(r.index)&1 == 0
	case opUnion:
		for _, a := range r.args {
			if a.contains(v, base) {
				return true
			}
		}
		return false
	case opIntersection:
		for _, a := range r.args {
			if !a.contains(v, base) {
				return false
			}
		}
		return true
	case opComplement:
		return !r.args[0].contains(v, base)
	case opDifference:
		return r.args[0].contains(v, base) && !r.args[1].contains(v, base)
	}
	return false
}

// vertexOf returns the sign vertex of a sign matrix row: bit j is set iff
// row[j] = +1.
func vertexOf(row []int) uint64 {
	var v uint64
	for j, s := range row {
		if s > 0 {
			v |= 1 << uint(j)
		}
	}
	return v
}

// truthTable returns the indicator of r over all 2^nψ sign vertices,
// indexed by vertex (bit j = α_j).
func (r Region) truthTable(S [][]int, nPsi int) []bool {
	t := make([]bool, 1<<uint(nPsi))
	for i, row := range S {
		v := vertexOf(row)
		t[v] = r.contains(v, i)
	}
	return t
}

// shannon returns the multilinear extension of the 0/1 table t (indexed by
// vertex, bit j ↔ alpha[j]) in the factored Shannon form
// f = α_j·f|α_j=1 + (1 − α_j)·f|α_j=0, dropping variables the table does not
// depend on. For a single base set it is the product (21); for 004 Example 4
// it gives θ₁ = α₁ + (1 − α₁)α₂.
func shannon(g *ad.Graph, t []bool, alpha ad.Vec) ad.Expr {
	all, none := true, true
	for _, b := range t {
		if b {
			none = false
		} else {
			all = false
		}
	}
	switch {
	case none:
		return g.Const(0)
	case all:
		return g.Const(1)
	}
	// Split on the lowest variable alpha[0]: entries with bit 0 set.
	half := len(t) / 2
	t0 := make([]bool, half)
	t1 := make([]bool, half)
	same := true
	for w := 0; w < half; w++ {
		t0[w], t1[w] = t[2*w], t[2*w+1]
		if t0[w] != t1[w] {
			same = false
		}
	}
	rest := alpha[1:]
	if same {
		return shannon(g, t0, rest)
	}
	e1 := shannon(g, t1, rest)
	e0 := shannon(g, t0, rest)
	a := alpha[0]
	return a.Mul(e1).Add(g.Const(1).Sub(a).Mul(e0))
}
