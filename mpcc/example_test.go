package mpcc_test

import (
	"context"
	"fmt"
	"math"

	"github.com/fesd-go/fesd/mpcc"
)

// twoMinima is min (x−1)² + (y−1)² over x, y ≥ 0, as an nlp.Problem
// (no constraints; the Hessian is diagonal).
type twoMinima struct{}

func (twoMinima) Dims() (int, int) { return 2, 0 }
func (twoMinima) Bounds(xL, xU, gL, gU []float64) {
	xL[0], xL[1] = 0, 0
	xU[0], xU[1] = math.Inf(1), math.Inf(1)
}
func (twoMinima) Start(x0 []float64) { x0[0], x0[1] = 0.9, 0.2 }
func (twoMinima) Objective(x []float64) (float64, error) {
	return (x[0]-1)*(x[0]-1) + (x[1]-1)*(x[1]-1), nil
}
func (twoMinima) Gradient(x, g []float64) error {
	g[0], g[1] = 2*(x[0]-1), 2*(x[1]-1)
	return nil
}
func (twoMinima) Constraints(x, g []float64) error       { return nil }
func (twoMinima) JacobianStructure() (rows, cols []int)  { return nil, nil }
func (twoMinima) JacobianValues(x, vals []float64) error { return nil }
func (twoMinima) HessianStructure() (rows, cols []int)   { return []int{0, 1}, []int{0, 1} }
func (twoMinima) HessianValues(x []float64, s float64, l, v []float64) error {
	v[0], v[1] = 2*s, 2*s
	return nil
}

// Example solves min (x−1)² + (y−1)² s.t. 0 ≤ x ⊥ y ≥ 0 with the default
// Scholtes homotopy and active-set finish. The σ = 1 solution is the
// symmetric point (1, 1) (x·y ≤ 1 is not binding), from which the
// homotopy goes to one of the two global minima, here (0, 1) with f = 1,
// exactly complementary and certified S-stationary (from the start
// (0.9, 0.2); which minimum is taken depends on the iterates near (1, 1)).
func Example() {
	p := &mpcc.Problem{NLP: twoMinima{}, Comp: []mpcc.Complementarity{mpcc.Pair(0, 1)}}
	s := mpcc.Solver{}
	res, err := s.Solve(context.Background(), p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v: x = (%.6f, %.6f), f = %.6f, residual %g, %v-stationary\n",
		res.Status, res.X[0], res.X[1], res.Objective, res.CompResidual, res.Stationarity)
	// Output:
	// Solved: x = (0.000000, 1.000000), f = 1.000000, residual 0, S-stationary
}

// ExampleSolver_Certify classifies two points of the same MPCC without a
// homotopy. (0, 0) is C-stationary (ν = ∇f = (−2, −2)) and the LPEC finds
// a descent branch; (1, 0) is S-stationary.
func ExampleSolver_Certify() {
	p := &mpcc.Problem{NLP: twoMinima{}, Comp: []mpcc.Complementarity{mpcc.Pair(0, 1)}}
	var s mpcc.Solver
	for _, x := range [][]float64{{0, 0}, {1, 0}} {
		c, err := s.Certify(context.Background(), p, x)
		if err != nil {
			fmt.Println(err)
			return
		}
		lpec := "not needed"
		if c.LPEC != nil {
			lpec = c.LPEC.Outcome.String()
		}
		fmt.Printf("(%g, %g): %v-stationary, %d biactive, ν = (%.2f, %.2f), LPEC %s\n",
			x[0], x[1], c.Class, len(c.Biactive), c.Nu[0], c.Nu[1], lpec)
	}
	// Output:
	// (0, 0): C-stationary, 1 biactive, ν = (-2.00, -2.00), LPEC Descent
	// (1, 0): S-stationary, 0 biactive, ν = (0.00, -2.00), LPEC not needed
}
