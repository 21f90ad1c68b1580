package mpcc

import "fmt"

// MapPoint carries pt, a primal-dual point of the relaxed NLP of p for
// s.Settings' Relaxation and Steering (a Result.Point), over to the relaxed
// NLP of a problem of the same size whose quantities correspond to pt's
// under index maps, as when a receding-horizon problem is shifted by one
// stage: the new MPCC variable j takes the values of pt's variable vars[j]
// (its primal value and bound multipliers), the new constraint i the
// multiplier of constraint cons[i], and the new complementarity term k
// those of term terms[k] — its relaxation rows and, for L1 steering, its
// slack. The one slack of LInf steering keeps its value. The maps have the
// lengths n and m of p.NLP and len(p.Comp), with indices in range; nil
// multipliers stay nil.
func (s *Solver) MapPoint(p *Problem, pt *WarmStart, vars, cons, terms []int) (*WarmStart, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if pt == nil {
		return nil, fmt.Errorf("%w: no point to map", ErrDimension)
	}
	n0, m0 := p.NLP.Dims()
	nc := len(p.Comp)
	r, st := s.Settings.Relaxation, s.Settings.Steering
	nSlack, nRows := relaxedExtra(p, r, st)
	n, m := n0+nSlack, m0+nRows
	for _, c := range []struct {
		name      string
		idx       []int
		size, max int
	}{{"vars", vars, n0, n0}, {"cons", cons, m0, m0}, {"terms", terms, nc, nc}} {
		if len(c.idx) != c.size {
			return nil, fmt.Errorf("%w: %s has length %d, want %d", ErrDimension, c.name, len(c.idx), c.size)
		}
		for i, j := range c.idx {
			if j < 0 || j >= c.max {
				return nil, fmt.Errorf("%w: %s[%d] = %d outside [0, %d)", ErrIndex, c.name, i, j, c.max)
			}
		}
	}
	if len(pt.X) != n || pt.Y != nil && len(pt.Y) != m || pt.ZL != nil && len(pt.ZL) != n || pt.ZU != nil && len(pt.ZU) != n {
		return nil, fmt.Errorf("%w: point of lengths (%d, %d, %d, %d), the relaxed NLP has n = %d, m = %d",
			ErrDimension, len(pt.X), len(pt.Y), len(pt.ZL), len(pt.ZU), n, m)
	}
	// variable map of the relaxed NLP: MPCC variables, then the slacks
	vmap := make([]int, n)
	copy(vmap, vars)
	for k := 0; k < nSlack; k++ {
		vmap[n0+k] = n0 + k
		if nSlack == nc {
			vmap[n0+k] = n0 + terms[k]
		}
	}
	per := 0
	if nc > 0 {
		per = nRows / nc
	}
	cmap := make([]int, m)
	copy(cmap, cons)
	for k := 0; k < nc; k++ {
		for e := 0; e < per; e++ {
			cmap[m0+k*per+e] = m0 + terms[k]*per + e
		}
	}
	take := func(src []float64, idx []int) []float64 {
		if src == nil {
			return nil
		}
		out := make([]float64, len(idx))
		for i, j := range idx {
			out[i] = src[j]
		}
		return out
	}
	return &WarmStart{X: take(pt.X, vmap), Y: take(pt.Y, cmap), ZL: take(pt.ZL, vmap), ZU: take(pt.ZU, vmap), MuInit: pt.MuInit, MaxIter: pt.MaxIter}, nil
}
