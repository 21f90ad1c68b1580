package fesd_test

import (
	"context"
	"fmt"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// An OCP on a complementarity Lagrangian system (OCP.CLS, FESD-J): a ball
// under gravity and a vertical force u, dropped from height 1 (e = 0.5),
// bounces once while u = 0 on the first two of four stages, and must be at
// height 0.8 at T = 1.2 with minimal ∫u² dt. The optimum is the closed
// form of TestCLSOCPBall: u = (0, 0, 12.6013, 4.2004), objective 52.9310.
func ExampleOCP_cls() {
	g := ad.NewGraph()
	z, v, u := g.SymVec("z", 1), g.SymVec("v", 1), g.SymVec("u", 1)
	M, err := ad.NewMat(1, 1, g.Const(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	ball, err := dcs.NewCLS(dcs.RigidBody{Graph: g, Q: z, V: v, U: u, M: M, FV: ad.Vec{u[0].AddConst(-9.81)},
		Contacts: []dcs.Contact{{Gap: z[0], Restitution: 0.5}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	p := &fesd.OCP{CLS: ball, X0: []float64{1, 0}, N: 4, T: 1.2, NFE: []int{3},
		Lagrange: u[0].Mul(u[0]),
		StageEnd: func(k int) []fesd.Constraint {
			if k < 2 { // no force on the first two stages
				return []fesd.Constraint{{G: u, L: []float64{0}, U: []float64{0}}}
			}
			return nil
		},
		Terminal: []fesd.Constraint{{G: z, L: []float64{0.8}, U: []float64{0.8}}}}
	r, err := fesd.SolveOCP(context.Background(), p, fesd.Options{}, fesd.Start{UInit: [][]float64{{0}, {0}, {10}, {10}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v, objective %.4f, u = %.4f %.4f\n", r.Status, r.Objective, r.U[2][0], r.U[3][0])
	for _, ev := range r.Contacts.Impacts() {
		fmt.Printf("impact at t = %.6f: v = %.4f → %.4f\n", ev.Time, ev.VnBefore, ev.VnAfter)
	}
	// Output:
	// Solved, objective 52.9310, u = 12.6013 4.2004
	// impact at t = 0.451524: v = -4.4294 → 2.2147
}
