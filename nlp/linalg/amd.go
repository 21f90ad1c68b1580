package linalg

import (
	"math"
	"slices"
)

// AMDOptions configures AMD.
type AMDOptions struct {
	// DenseAlpha is the dense-row parameter α (default DefaultDenseAlpha =
	// 10): rows with more than max(16, α·√n) off-diagonal entries are
	// removed before ordering and placed last; negative disables dense-row
	// detection.
	DenseAlpha float64
	// NoAggressiveAbsorption disables aggressive element absorption
	// (default false: on).
	NoAggressiveAbsorption bool
}

// node states in the quotient graph.
const (
	amdVar   = iota // principal (super)variable, not yet eliminated
	amdElem         // element (an eliminated pivot), alive
	amdDead         // absorbed element, or non-principal / eliminated variable
	amdDense        // dense row, removed from the graph, ordered last
)

// AMD returns an approximate-minimum-degree pivot order for the symmetric
// pattern of a (values ignored): p[k] is the original index of the k-th
// pivot. a must satisfy Validate; AMD returns nil for a matrix that does
// not.
//
// The algorithm is that of Amestoy, Davis and Duff (SIMAX 17(4), 1996) on the
// quotient graph: the graph of the partially eliminated matrix is held as
// variables (adjacent to variables A_i and elements E_i) and elements
// (eliminated pivots e with their variable set L_e). Eliminating pivot p
// forms the new element L_p = (A_p ∪ ⋃_{e∈E_p} L_e) \ {p} and absorbs the
// elements of E_p. The degrees of i ∈ L_p are not computed exactly but
// bounded by
//
//	d̄_i = min( n_left − |i|,  d_i^old + |L_p∖i|,  |A_i∖L_p| + |L_p∖i| + Σ_{e∈E_i∖p} |L_e∖L_p| ),
//
// where |L_e∖L_p| is obtained for all e in one pass over L_p (weights |i|
// are supervariable sizes). Variables of L_p with no neighbour outside L_p
// are eliminated together with p (mass elimination); variables of L_p with
// identical adjacency are merged into supervariables (found by hashing);
// elements with L_e ⊆ L_p are absorbed into p (aggressive absorption).
// Rows with more than max(16, α√n) entries are ordered last (dense-row
// handling, α = DenseAlpha). Variables merged into a supervariable, or
// mass-eliminated, follow their pivot in the order.
//
// AMD is one long function, as the published implementations of the
// algorithm are (Amestoy, Davis and Duff, ACM TOMS 30(3), 2004): the
// degree lists, element lists and hash buckets are one workspace that
// every phase of an elimination step reads and rewrites in place.
func AMD(a *SymCSC, opt AMDOptions) []int {
	if a.Validate() != nil {
		return nil
	}
	n := a.N
	order := make([]int, 0, n)
	if n == 0 {
		return order
	}
	alpha := opt.DenseAlpha
	if alpha == 0 {
		alpha = DefaultDenseAlpha
	}
	aggressive := !opt.NoAggressiveAbsorption

	// Full adjacency (both triangles, no diagonal).
	cnt := make([]int, n)
	for j := range n {
		for p := a.ColPtr[j]; p < a.ColPtr[j+1]; p++ {
			if i := a.RowIdx[p]; i != j {
				cnt[i]++
				cnt[j]++
			}
		}
	}
	state := make([]int8, n)
	dense := 0
	if alpha >= 0 {
		thr := max(16, int(alpha*math.Sqrt(float64(n))))
		for i, c := range cnt {
			if c > thr {
				state[i] = amdDense
				dense++
			}
		}
	}
	vars := make([][]int32, n) // A_i for variables
	back := make([]int32, 0, 2*len(a.RowIdx))
	off := 0
	for i := range n {
		vars[i] = back[off : off : off+cnt[i]]
		off += cnt[i]
	}
	back = back[:off]
	for j := range n {
		for p := a.ColPtr[j]; p < a.ColPtr[j+1]; p++ {
			i := a.RowIdx[p]
			if i == j || state[i] == amdDense || state[j] == amdDense {
				continue
			}
			vars[i] = append(vars[i], int32(j))
			vars[j] = append(vars[j], int32(i))
		}
	}
	elems := make([][]int32, n) // E_i for variables
	le := make([][]int32, n)    // L_e for elements
	esize := make([]int, n)     // Σ|i| over L_e (constant while e is alive)
	nv := make([]int, n)        // supervariable size, 0 if non-principal
	deg := make([]int, n)       // approximate external degree
	// Degree lists.
	head := make([]int, n+1)
	next := make([]int, n)
	prev := make([]int, n)
	for i := range head {
		head[i] = -1
	}
	insert := func(i, d int) {
		next[i] = head[d]
		prev[i] = -1
		if head[d] >= 0 {
			prev[head[d]] = i
		}
		head[d] = i
	}
	remove := func(i int) {
		d := deg[i]
		if prev[i] >= 0 {
			next[prev[i]] = next[i]
		} else {
			head[d] = next[i]
		}
		if next[i] >= 0 {
			prev[next[i]] = prev[i]
		}
	}
	// Members of each principal variable, as linked lists (first, tail, link).
	mfirst := make([]int, n)
	mtail := make([]int, n)
	mlink := make([]int, n)
	join := func(i, j int) { // append j's members to i's
		mlink[mtail[i]] = mfirst[j]
		mtail[i] = mtail[j]
	}
	mindeg := n
	for i := range n {
		mfirst[i], mtail[i], mlink[i] = i, i, -1
		if state[i] == amdDense {
			continue
		}
		nv[i] = 1
		deg[i] = len(vars[i])
		insert(i, deg[i])
		mindeg = min(mindeg, deg[i])
	}

	mark := make([]int, n) // stamp: i ∈ L_p (for variables)
	wst := make([]int, n)  // stamp for wv
	wv := make([]int, n)   // |L_e ∖ L_p| during one pivot step
	ext := make([]int, n)  // external degree outside L_p
	hash := make([]uint64, n)
	stamp := 0
	type hv struct {
		h uint64
		i int
	}
	var buckets []hv

	nleft := n - dense // weight of variables not yet eliminated
	for nleft > 0 {
		// 1. Pivot of minimum approximate degree.
		for head[mindeg] < 0 {
			mindeg++
		}
		p := head[mindeg]
		remove(p)
		nvp := nv[p]
		nleft -= nvp
		stamp++
		mark[p] = stamp

		// 2. New element L_p; absorb E_p.
		var lp []int32
		degme := 0
		addVar := func(j int32) {
			if state[j] == amdVar && nv[j] > 0 && mark[j] != stamp {
				mark[j] = stamp
				lp = append(lp, j)
				degme += nv[j]
				remove(int(j))
			}
		}
		for _, e := range elems[p] {
			if state[e] != amdElem {
				continue
			}
			for _, j := range le[e] {
				addVar(j)
			}
			state[e] = amdDead
			le[e] = nil
		}
		for _, j := range vars[p] {
			addVar(j)
		}
		state[p] = amdElem
		elems[p], vars[p] = nil, nil

		// 3. |L_e ∖ L_p| for every element adjacent to L_p.
		for _, i := range lp {
			for _, e := range elems[i] {
				if state[e] != amdElem {
					continue
				}
				if wst[e] != stamp {
					wst[e] = stamp
					wv[e] = esize[e]
				}
				wv[e] -= nv[i]
			}
		}

		// 4. Degree update, list pruning, mass elimination.
		k := 0
		for _, i := range lp {
			ei := elems[i][:0]
			dext := 0
			var h uint64
			for _, e := range elems[i] {
				if state[e] != amdElem {
					continue
				}
				x := wv[e]
				if x == 0 && aggressive {
					// L_e ⊆ L_p: e is absorbed into p.
					state[e] = amdDead
					le[e] = nil
					continue
				}
				dext += x
				ei = append(ei, e)
				h += uint64(e)
			}
			ai := vars[i][:0]
			for _, j := range vars[i] {
				if state[j] != amdVar || nv[j] == 0 || mark[j] == stamp {
					continue
				}
				dext += nv[j]
				ai = append(ai, j)
				h += uint64(j)
			}
			vars[i] = ai
			if dext == 0 {
				// Mass elimination: i is adjacent to L_p only. Elements
				// kept in E_i (only without aggressive absorption, all
				// with L_e ⊆ L_p) lose i's weight.
				for _, e := range ei {
					esize[e] -= nv[i]
				}
				state[i] = amdDead
				elems[i], vars[i] = nil, nil
				degme -= nv[i]
				nleft -= nv[i]
				nvp += nv[i]
				nv[i] = 0
				join(p, int(i))
				continue
			}
			elems[i] = append(ei, int32(p))
			ext[i] = min(deg[i], dext)
			hash[i] = h + uint64(p)
			lp[k] = i
			k++
		}
		lp = lp[:k]

		// 5. Supervariable detection among L_p by hashing.
		buckets = buckets[:0]
		for _, i := range lp {
			buckets = append(buckets, hv{hash[i], int(i)})
		}
		slices.SortFunc(buckets, func(x, y hv) int {
			switch {
			case x.h < y.h:
				return -1
			case x.h > y.h:
				return 1
			}
			return x.i - y.i
		})
		for s := 0; s < len(buckets); {
			t := s + 1
			for t < len(buckets) && buckets[t].h == buckets[s].h {
				t++
			}
			for u := s; u < t; u++ {
				i := buckets[u].i
				if nv[i] == 0 {
					continue
				}
				var ok bool
				for v := u + 1; v < t; v++ {
					j := buckets[v].i
					if nv[j] == 0 || len(elems[i]) != len(elems[j]) || len(vars[i]) != len(vars[j]) {
						continue
					}
					if !ok {
						stamp++ // mark adjacency of i
						for _, e := range elems[i] {
							mark[e] = stamp
						}
						for _, x := range vars[i] {
							mark[x] = stamp
						}
						ok = true
					}
					same := true
					for _, e := range elems[j] {
						if mark[e] != stamp {
							same = false
							break
						}
					}
					if same {
						for _, x := range vars[j] {
							if mark[x] != stamp {
								same = false
								break
							}
						}
					}
					if same {
						nv[i] += nv[j]
						nv[j] = 0
						state[j] = amdDead
						elems[j], vars[j] = nil, nil
						join(i, j)
					}
				}
			}
			s = t
		}

		// 6. Final degrees; prune L_p to principal variables.
		k = 0
		for _, i := range lp {
			if nv[i] == 0 {
				continue
			}
			lpx := degme - nv[i]
			d := min(nleft-nv[i], ext[i]+lpx)
			d = max(d, 0)
			deg[i] = d
			insert(int(i), d)
			mindeg = min(mindeg, d)
			lp[k] = i
			k++
		}
		le[p] = slices.Clip(lp[:k])
		esize[p] = degme
		nv[p] = nvp
		for j := mfirst[p]; j >= 0; j = mlink[j] {
			order = append(order, j)
		}
	}
	for i := range n {
		if state[i] == amdDense {
			order = append(order, i)
		}
	}
	return order
}
