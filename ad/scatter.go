package ad

import "fmt"

// Scatter maps the outputs of many evaluations of one Function into a large
// value array (for example the nonzeros of the NLP Jacobian or Hessian). It
// is built once from, for each instance k, the destination index of each
// output element of the function (all outputs concatenated); a negative
// destination drops the element.
type Scatter struct {
	per     int     // output elements per instance
	dst     []int32 // dst[k*per+i]
	maxDest int     // largest destination index
}

// NewScatter builds a scatter map for len(dst) instances with per output
// elements each; dst[k][i] is the destination of element i of instance k.
func NewScatter(per int, dst [][]int) (*Scatter, error) {
	if per < 0 {
		return nil, fmt.Errorf("%w: %d elements per instance", ErrScatter, per)
	}
	s := &Scatter{per: per, dst: make([]int32, 0, per*len(dst)), maxDest: -1}
	for k, d := range dst {
		if len(d) != per {
			return nil, fmt.Errorf("%w: instance %d maps %d elements, want %d", ErrScatter, k, len(d), per)
		}
		for _, v := range d {
			if v > 1<<31-1 {
				return nil, fmt.Errorf("%w: destination %d too large", ErrScatter, v)
			}
			if v < 0 {
				v = -1
			}
			s.dst = append(s.dst, int32(v))
			s.maxDest = max(s.maxDest, v)
		}
	}
	return s, nil
}

// Instances returns the number of instances (0 for a nil Scatter).
func (s *Scatter) Instances() int {
	if s == nil || s.per == 0 {
		return 0
	}
	return len(s.dst) / s.per
}

// NumOutputs returns the total number of output elements of f (all outputs
// concatenated), the per-instance length a Scatter for f must have.
func (f *Function) NumOutputs() int {
	if f == nil {
		return 0
	}
	return f.outOff[len(f.outOff)-1]
}

// EvalScatter evaluates f once per instance, with in[k] the inputs of
// instance k (as in Eval), and adds each output element into vals at its
// destination: vals[dst] += value. The caller zeroes vals (or not, to
// accumulate). With ws.CheckFinite, a NaN or ±Inf output stops the loop with
// an ErrNonFinite naming the output, its index and the instance. It does not
// allocate once the workspace has been used with f. A nil ws evaluates in
// a temporary workspace (as Eval); a nil f or sc is ErrNilFunction.
func (f *Function) EvalScatter(ws *Workspace, sc *Scatter, in [][][]float64, vals []float64) error {
	if f == nil || sc == nil {
		return ErrNilFunction
	}
	if ws == nil {
		ws = &Workspace{}
	}
	if sc.per != f.NumOutputs() {
		return fmt.Errorf("%w: scatter has %d elements per instance, %q has %d outputs", ErrScatter, sc.per, f.name, f.NumOutputs())
	}
	if len(in) != sc.Instances() && !(sc.per == 0 && len(in) == 0) {
		return fmt.Errorf("%w: %d argument sets for %d instances", ErrDimension, len(in), sc.Instances())
	}
	if sc.maxDest >= len(vals) {
		return fmt.Errorf("%w: destination %d outside value array of length %d", ErrScatter, sc.maxDest, len(vals))
	}
	for _, args := range in {
		if err := f.checkIn(args); err != nil {
			return err
		}
	}
	ws.bind(f)
	w := ws.w
	for k, args := range in {
		p := 0
		for _, x := range args {
			copy(w[p:], x)
			p += len(x)
		}
		f.run(w)
		dst := sc.dst[k*sc.per : (k+1)*sc.per]
		for i, s := range f.outSlot {
			if d := dst[i]; d >= 0 {
				vals[d] += w[s]
			}
		}
		if ws.CheckFinite {
			for i, s := range f.outSlot {
				if v := w[s]; v-v != 0 {
					o := 0
					for f.outOff[o+1] <= i {
						o++
					}
					return ErrNonFinite{Output: f.outNames[o], Index: i - f.outOff[o], Value: v, Instance: k}
				}
			}
		}
	}
	return nil
}
