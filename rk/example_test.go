package rk_test

import (
	"fmt"

	"github.com/fesd-go/fesd/rk"
)

// Print the two-stage Radau IIA method (order 3): c = (1/3, 1),
// A = [[5/12, −1/12], [3/4, 1/4]], b = (3/4, 1/4).
func ExampleRadauIIA() {
	tab, err := rk.RadauIIA(2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(tab)
	fmt.Println("stiffly accurate:", tab.StifflyAccurate(), "c_s = 1:", tab.EndpointIsNode())
	// Output:
	// RadauIIA (s=2): order 3, stage order 2
	//   0.333333 |   0.416667  -0.083333
	//   1.000000 |   0.750000   0.250000
	//            |   0.750000   0.250000
	// stiffly accurate: true c_s = 1: true
}

// The integral representation of the one-stage Gauss method (implicit
// midpoint): points τ = (0, 1/2), u(τ) = (1 − 2τ)x_0 + 2τ x_1, so
// h f(x_1) = −2x_0 + 2x_1 and x_{n+1} = u(1) = −x_0 + 2x_1.
func ExampleTableau_Integral() {
	tab, _ := rk.GaussLegendre(1)
	in, err := tab.Integral()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("C = %v\nD = %v\nB = %v\n", in.C, in.D, in.B)
	// Output:
	// C = [[-2] [2]]
	// D = [-1 2]
	// B = [1]
}

func ExampleNew_error() {
	_, err := rk.New(rk.FamilyLobattoIIIA, 1)
	fmt.Println(err)
	// Output:
	// rk: number of stages out of range: LobattoIIIA needs 2 ≤ s ≤ 20, got s = 1
}
