package fesd_test

import (
	"context"
	"fmt"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// A ball dropped from height 1 bounces with Newton's restitution
// coefficient e = 0.9: FESD-J puts every impact on an element boundary,
// at t_1 = √(2/g) and t_{k+1} = t_k + 2e^k√(2/g).
func ExampleSimulateCLS() {
	g := ad.NewGraph()
	z, v := g.SymVec("z", 1), g.SymVec("v", 1)
	M, err := ad.NewMat(1, 1, g.Const(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	ball, err := dcs.NewCLS(dcs.RigidBody{Graph: g, Q: z, V: v, M: M, FV: g.ConstVec(-9.81),
		Contacts: []dcs.Contact{{Gap: z[0], Restitution: 0.9}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := fesd.SimulateCLS(context.Background(), ball, []float64{1, 0}, fesd.SimOptions{TSim: 2, NSim: 20})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ev := range r.Events {
		fmt.Printf("%v at t = %.6f: v = %.4f → %.4f\n", ev.Kind, ev.Time, ev.VnBefore, ev.VnAfter)
	}
	// Output:
	// impact at t = 0.451524: v = -4.4294 → 3.9865
	// impact at t = 1.264266: v = -3.9865 → 3.5879
	// impact at t = 1.995734: v = -3.5879 → 3.2291
}
