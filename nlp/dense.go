package nlp

import (
	"errors"
	"math"

	"github.com/fesd-go/fesd/nlp/linalg"
	"gonum.org/v1/gonum/mat"
)

// denseBackend is a small dense symmetric solver through the eigen
// decomposition A = V Λ Vᵀ (gonum). It is exact about inertia and serves as
// the DenseLDL backend and as a test oracle; it allocates and costs O(N³).
type denseBackend struct {
	n     int
	a     *mat.SymDense
	eig   mat.EigenSym
	vals  []float64
	vecs  mat.Dense
	in    linalg.Inertia
	ok    bool
	tmp   []float64
	zeroT float64
}

var _ linalg.LinearSolver = (*denseBackend)(nil)

func newDenseBackend() *denseBackend { return &denseBackend{zeroT: 1e-13} }

func (d *denseBackend) Analyze(a *linalg.SymCSC) error {
	if err := a.Validate(); err != nil {
		return err
	}
	d.n = a.N
	d.a = mat.NewSymDense(a.N, nil)
	d.tmp = make([]float64, a.N)
	return nil
}

func (d *denseBackend) Factorize(a *linalg.SymCSC, signs []int8) error {
	if d.a == nil {
		return errors.New("nlp: dense backend: Factorize before Analyze")
	}
	n := d.n
	for i := range n {
		for j := i; j < n; j++ {
			d.a.SetSym(i, j, 0)
		}
	}
	for j := range n {
		for p := a.ColPtr[j]; p < a.ColPtr[j+1]; p++ {
			v := a.Val[p]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				d.ok = false
				return &linalg.NonFiniteError{Where: "value", Index: p}
			}
			i := a.RowIdx[p]
			d.a.SetSym(i, j, d.a.At(i, j)+v)
		}
	}
	if n == 0 {
		d.in = linalg.Inertia{}
		d.ok = true
		return nil
	}
	if !d.eig.Factorize(d.a, true) {
		d.ok = false
		return errors.New("nlp: dense backend: eigen decomposition failed")
	}
	d.vals = d.eig.Values(d.vals)
	d.eig.VectorsTo(&d.vecs)
	d.in = linalg.Inertia{}
	for _, v := range d.vals {
		switch {
		case math.Abs(v) <= d.zeroT:
			d.in.Zero++
		case v > 0:
			d.in.Pos++
		default:
			d.in.Neg++
		}
	}
	d.ok = true
	return nil
}

func (d *denseBackend) Inertia() linalg.Inertia { return d.in }

func (d *denseBackend) Solve(x, b []float64) error {
	if !d.ok {
		return errors.New("nlp: dense backend: Solve before a successful Factorize")
	}
	n := d.n
	// tmp = Vᵀ b / λ
	for k := range n {
		s := 0.0
		for i := range n {
			s += d.vecs.At(i, k) * b[i]
		}
		if math.Abs(d.vals[k]) <= d.zeroT {
			s = 0
		} else {
			s /= d.vals[k]
		}
		d.tmp[k] = s
	}
	for i := range n {
		s := 0.0
		for k := range n {
			s += d.vecs.At(i, k) * d.tmp[k]
		}
		x[i] = s
	}
	return nil
}
