//go:build ipopt

package ipopt

/*
#include <stdint.h>
*/
import "C"

import (
	"fmt"
	"runtime/cgo"
	"time"
	"unsafe"

	"github.com/fesd-go/fesd/nlp"
)

// floats views C memory of length n as a Go slice (no copy).
func floats(p *C.double, n C.int) []float64 {
	if p == nil || n == 0 {
		return nil
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(p)), int(n))
}

func ints(p *C.int, n C.int) []int32 {
	if p == nil || n == 0 {
		return nil
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(p)), int(n))
}

func cbool(ok bool) C.int {
	if ok {
		return 1
	}
	return 0
}

// call runs one Problem callback: it times it, counts it, turns an error or
// a panic into a stop and reports success to IPOPT.
func call(h C.uintptr_t, name string, count *int, f func(p nlp.Problem) error) (ok C.int) {
	s := cgo.Handle(h).Value().(*state)
	t := time.Now()
	defer func() {
		if r := recover(); r != nil {
			s.fail(fmt.Errorf("ipopt: %s panicked: %v", name, r))
			ok = 0
		}
		s.evalTime += time.Since(t)
	}()
	*count++
	if err := f(s.p); err != nil {
		s.fail(fmt.Errorf("ipopt: %s: %w", name, err))
		return 0
	}
	return 1
}

//export fesdIpoptEvalF
func fesdIpoptEvalF(h C.uintptr_t, n C.int, x *C.double, obj *C.double) C.int {
	s := cgo.Handle(h).Value().(*state)
	return call(h, "Objective", &s.counts.Objective, func(p nlp.Problem) error {
		f, err := p.Objective(floats(x, n))
		*obj = C.double(f)
		return err
	})
}

//export fesdIpoptEvalGrad
func fesdIpoptEvalGrad(h C.uintptr_t, n C.int, x *C.double, grad *C.double) C.int {
	s := cgo.Handle(h).Value().(*state)
	return call(h, "Gradient", &s.counts.Gradient, func(p nlp.Problem) error {
		return p.Gradient(floats(x, n), floats(grad, n))
	})
}

//export fesdIpoptEvalG
func fesdIpoptEvalG(h C.uintptr_t, n C.int, x *C.double, m C.int, g *C.double) C.int {
	s := cgo.Handle(h).Value().(*state)
	if m == 0 {
		return 1
	}
	return call(h, "Constraints", &s.counts.Constraints, func(p nlp.Problem) error {
		return p.Constraints(floats(x, n), floats(g, m))
	})
}

//export fesdIpoptEvalJac
func fesdIpoptEvalJac(h C.uintptr_t, n C.int, x *C.double, nele C.int, irow, jcol *C.int, values *C.double) C.int {
	s := cgo.Handle(h).Value().(*state)
	if values == nil {
		r, c := ints(irow, nele), ints(jcol, nele)
		for k := range r {
			r[k], c[k] = int32(s.jRow[k]), int32(s.jCol[k])
		}
		return 1
	}
	return call(h, "JacobianValues", &s.counts.Jacobian, func(p nlp.Problem) error {
		return p.JacobianValues(floats(x, n), floats(values, nele))
	})
}

//export fesdIpoptEvalH
func fesdIpoptEvalH(h C.uintptr_t, n C.int, x *C.double, objFactor C.double, m C.int, lambda *C.double,
	nele C.int, irow, jcol *C.int, values *C.double) C.int {
	s := cgo.Handle(h).Value().(*state)
	if values == nil {
		r, c := ints(irow, nele), ints(jcol, nele)
		for k := range r {
			r[k], c[k] = int32(s.hRow[k]), int32(s.hCol[k])
		}
		return 1
	}
	lam := floats(lambda, m)
	if lam == nil {
		lam = s.zeroM
	}
	return call(h, "HessianValues", &s.counts.Hessian, func(p nlp.Problem) error {
		return p.HessianValues(floats(x, n), float64(objFactor), lam, floats(values, nele))
	})
}

//export fesdIpoptIntermediate
func fesdIpoptIntermediate(h C.uintptr_t, algMod, iter C.int, obj, infPr, infDu, mu, dNorm, reg, alphaDu, alphaPr C.double, lsTrials C.int) C.int {
	s := cgo.Handle(h).Value().(*state)
	return cbool(s.intermediate(nlp.IterRecord{
		Iter:        int(iter),
		Mu:          float64(mu),
		Objective:   float64(obj),
		InfPr:       float64(infPr),
		InfDu:       float64(infDu),
		StepNorm:    float64(dNorm),
		DeltaW:      float64(reg),
		AlphaPr:     float64(alphaPr),
		AlphaDu:     float64(alphaDu),
		LSTrials:    int(lsTrials),
		Restoration: algMod == 1,
	}))
}
