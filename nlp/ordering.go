package nlp

import (
	"fmt"
	"sort"

	"github.com/fesd-go/fesd/nlp/linalg"
)

// StageHinter is an optional extension of Problem for problems with a stage
// structure (transcribed optimal control problems). Stages writes a stage
// number for every variable (xStage, length n) and every constraint (gStage,
// length m); smaller numbers come first. The solver then orders the KKT
// matrix stage by stage (inside a stage: variables, slacks, constraint
// multipliers, each in their original order), which gives a banded KKT
// factorization with O(N·b³) cost. With Settings.Ordering = OrderAuto this
// order competes with AMD and the one with the smaller nnz(L) is kept.
type StageHinter interface {
	Stages(xStage, gStage []int)
}

// stagePerm builds the KKT permutation (perm[k] = original index of the k-th
// pivot) from stage numbers. The KKT numbering is x (n), slacks (nI),
// constraints (m); slackOf[i] is the slack index (into w) of constraint i or
// −1.
func stagePerm(h StageHinter, n, m, nw int, slackOf []int) ([]int, error) {
	xs := make([]int, n)
	gs := make([]int, m)
	h.Stages(xs, gs)
	nk := nw + m
	stage := make([]int, nk)
	kind := make([]int, nk)
	copy(stage, xs)
	for i := range m {
		stage[nw+i] = gs[i]
		kind[nw+i] = 2
		if k := slackOf[i]; k >= 0 {
			stage[k] = gs[i]
			kind[k] = 1
		}
	}
	perm := make([]int, nk)
	if nk == 0 {
		return perm, nil
	}
	lo, hi := stage[0], stage[0]
	for _, v := range stage {
		lo, hi = min(lo, v), max(hi, v)
	}
	if span := hi - lo + 1; span > 0 && span <= 4*nk+16 {
		// Counting sort on the key 3·(stage − lo) + kind (stable).
		cnt := make([]int, 3*span+1)
		for i := range nk {
			cnt[3*(stage[i]-lo)+kind[i]+1]++
		}
		for k := 1; k < len(cnt); k++ {
			cnt[k] += cnt[k-1]
		}
		for i := range nk {
			k := 3*(stage[i]-lo) + kind[i]
			perm[cnt[k]] = i
			cnt[k]++
		}
		return perm, nil
	}
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(a, b int) bool {
		pa, pb := perm[a], perm[b]
		if stage[pa] != stage[pb] {
			return stage[pa] < stage[pb]
		}
		return kind[pa] < kind[pb]
	})
	return perm, nil
}

// newLinearSolver creates the backend chosen by the settings.
func newLinearSolver(s *Settings, p Problem, n, m, nw int, slackOf []int) (linalg.LinearSolver, error) {
	var perm []int
	h, isHinter := p.(StageHinter)
	if isHinter && (s.Ordering == OrderAuto || s.Ordering == OrderStages) {
		var err error
		perm, err = stagePerm(h, n, m, nw, slackOf)
		if err != nil {
			return nil, err
		}
	}
	if s.Ordering == OrderStages && !isHinter {
		return nil, fmt.Errorf("%w: OrderStages needs a Problem that implements StageHinter", ErrSettings)
	}
	nk := nw + m
	if s.NewLinearSolver != nil {
		return s.NewLinearSolver(nk, perm)
	}
	switch s.LinearSolver {
	case DenseLDL:
		return linalg.NewDense(), nil
	default:
		ls := linalg.Settings{}
		switch {
		case s.Ordering == OrderNatural:
			ls.Ordering = linalg.OrderNatural
		case s.Ordering == OrderStages:
			ls.Ordering, ls.Perm = linalg.OrderGiven, perm
		case perm != nil:
			ls.Ordering, ls.Perm = linalg.OrderBest, perm
		default:
			ls.Ordering = linalg.OrderAMD
		}
		if s.LinearSolver == PivotingLDL {
			return linalg.NewMultifrontal(ls)
		}
		return linalg.NewSparse(ls)
	}
}
