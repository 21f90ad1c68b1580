package nlp_test

import (
	"context"
	"fmt"
	"math"

	"github.com/fesd-go/fesd/nlp"
)

// circle is min (x1 − 2)² + (x2 − 1)²  s.t.  x1² + x2² ≤ 1, x ≥ 0: the
// point of the unit disc closest to (2, 1), x* = (2, 1)/√5.
type circle struct{}

func (circle) Dims() (int, int) { return 2, 1 }
func (circle) Bounds(xL, xU, gL, gU []float64) {
	xL[0], xL[1], xU[0], xU[1] = 0, 0, math.Inf(1), math.Inf(1)
	gL[0], gU[0] = math.Inf(-1), 1
}
func (circle) Start(x []float64) { x[0], x[1] = 0.5, 0.5 }
func (circle) Objective(x []float64) (float64, error) {
	return (x[0]-2)*(x[0]-2) + (x[1]-1)*(x[1]-1), nil
}
func (circle) Gradient(x, g []float64) error {
	g[0], g[1] = 2*(x[0]-2), 2*(x[1]-1)
	return nil
}
func (circle) Constraints(x, g []float64) error  { g[0] = x[0]*x[0] + x[1]*x[1]; return nil }
func (circle) JacobianStructure() ([]int, []int) { return []int{0, 0}, []int{0, 1} }
func (circle) JacobianValues(x, v []float64) error {
	v[0], v[1] = 2*x[0], 2*x[1]
	return nil
}
func (circle) HessianStructure() ([]int, []int) { return []int{0, 1}, []int{0, 1} }
func (circle) HessianValues(x []float64, sigma float64, lambda, v []float64) error {
	v[0] = 2*sigma + 2*lambda[0]
	v[1] = 2*sigma + 2*lambda[0]
	return nil
}

func ExampleSolver_Solve() {
	s := nlp.Solver{Settings: nlp.Settings{Tol: 1e-10}}
	res, err := s.Solve(context.Background(), circle{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// f* = (√5 − 1)², y* = √5 − 1 (multiplier of the active upper bound, ≥ 0).
	fmt.Printf("%v x = (%.6f, %.6f) f = %.6f y = %.6f\n", res.Status, res.X[0], res.X[1], res.Objective, res.Y[0])
	// Output:
	// Solved x = (0.894427, 0.447214) f = 1.527864 y = 1.236068
}
