package nlp

import (
	"math"
	"testing"
)

// hs071 is Hock–Schittkowski problem 71 (Hock & Schittkowski 1981, p. 92):
//
//	min x1 x4 (x1+x2+x3) + x3  s.t. x1x2x3x4 ≥ 25, Σxi² = 40, 1 ≤ x ≤ 5,
//
// x0 = (1, 5, 5, 1), f* = 17.0140173.
type hs071 struct {
	nanRegion bool
	nanHits   *int
}

func (hs071) Dims() (int, int) { return 4, 2 }
func (hs071) Bounds(xL, xU, gL, gU []float64) {
	for i := range 4 {
		xL[i], xU[i] = 1, 5
	}
	gL[0], gU[0] = 25, math.Inf(1)
	gL[1], gU[1] = 40, 40
}
func (hs071) Start(x []float64) { copy(x, []float64{1, 5, 5, 1}) }
func (p hs071) Objective(x []float64) (float64, error) {
	if p.nanRegion && x[0] > 1.1 && x[0] < 3 {
		*p.nanHits++
		return math.NaN(), nil
	}
	return x[0]*x[3]*(x[0]+x[1]+x[2]) + x[2], nil
}
func (hs071) Gradient(x, g []float64) error {
	g[0] = x[3]*(x[0]+x[1]+x[2]) + x[0]*x[3]
	g[1] = x[0] * x[3]
	g[2] = x[0]*x[3] + 1
	g[3] = x[0] * (x[0] + x[1] + x[2])
	return nil
}
func (hs071) Constraints(x, g []float64) error {
	g[0] = x[0] * x[1] * x[2] * x[3]
	g[1] = x[0]*x[0] + x[1]*x[1] + x[2]*x[2] + x[3]*x[3]
	return nil
}
func (hs071) JacobianStructure() ([]int, []int) {
	return []int{0, 0, 0, 0, 1, 1, 1, 1}, []int{0, 1, 2, 3, 0, 1, 2, 3}
}
func (hs071) JacobianValues(x, v []float64) error {
	v[0] = x[1] * x[2] * x[3]
	v[1] = x[0] * x[2] * x[3]
	v[2] = x[0] * x[1] * x[3]
	v[3] = x[0] * x[1] * x[2]
	v[4], v[5], v[6], v[7] = 2*x[0], 2*x[1], 2*x[2], 2*x[3]
	return nil
}
func (hs071) HessianStructure() ([]int, []int) {
	r := []int{0, 1, 1, 2, 2, 2, 3, 3, 3, 3}
	c := []int{0, 0, 1, 0, 1, 2, 0, 1, 2, 3}
	return r, c
}
func (hs071) HessianValues(x []float64, s float64, l, v []float64) error {
	v[0] = s * 2 * x[3]
	v[1] = s * x[3]
	v[2] = 0
	v[3] = s * x[3]
	v[4] = 0
	v[5] = 0
	v[6] = s * (2*x[0] + x[1] + x[2])
	v[7] = s * x[0]
	v[8] = s * x[0]
	v[9] = 0
	v[1] += l[0] * x[2] * x[3]
	v[3] += l[0] * x[1] * x[3]
	v[4] += l[0] * x[0] * x[3]
	v[6] += l[0] * x[1] * x[2]
	v[7] += l[0] * x[0] * x[2]
	v[8] += l[0] * x[0] * x[1]
	v[0] += l[1] * 2
	v[2] += l[1] * 2
	v[5] += l[1] * 2
	v[9] += l[1] * 2
	return nil
}

// TestViolations checks the largest and the summed violation on hs071 at
// x = (0.5, 5, 6, 1) (closed form): bounds 1 ≤ x ≤ 5 missed by 0.5 (x₁) and
// 1 (x₃); g₁ = x₁x₂x₃x₄ = 15 ≥ 25 missed by 10; g₂ = Σxᵢ² = 62.25 = 40
// missed by 22.25. Largest 22.25, sum 33.75; a NaN makes both +Inf.
func TestViolations(t *testing.T) {
	x := []float64{0.5, 5, 6, 1}
	v, s, err := Violations(hs071{}, x)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(v-22.25) > 1e-12 || math.Abs(s-33.75) > 1e-12 {
		t.Errorf("Violations = %v, %v; want 22.25, 33.75", v, s)
	}
	if w, err := Violation(hs071{}, x); err != nil || w != v {
		t.Errorf("Violation = %v, %v; want %v", w, err, v)
	}
	x[0] = math.NaN()
	if v, s, _ := Violations(hs071{}, x); !math.IsInf(v, 1) || !math.IsInf(s, 1) {
		t.Errorf("at a NaN: %v, %v; want +Inf, +Inf", v, s)
	}
}
