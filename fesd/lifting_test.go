package fesd

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/rk"
)

// liftModel is a piecewise smooth system in the setting of 004 Example 5:
// n_ψ = 3 switching functions ψ = (x₁, x₂, x₃), the dense sign matrix of
// eq. (9) (row i ↔ signs s = (s₁, s₂, s₃)) and n_f = 8 distinct affine modes
//
//	f_s(x) = (1 + 0.2s₂ + 0.1s₃,  1 + 0.3s₁ − 0.1s₃,  0.2 − x₁ + 0.1s₁ + 0.05s₂).
//
// The component normal to ψ_j = 0 does not depend on s_j, so every switch is
// a transversal crossing (no sliding) wherever it is non-zero; the map
// s ↦ f_s is injective (the pair (0.2s₂ + 0.1s₃, 0.3s₁ − 0.1s₃) already is).
// From x₀ = (−0.3, −0.7, 0.05), x₁ and x₂ increase through 0 (t = 1/3 and
// 3/4) and x₃ rises and then falls through 0 (t ≈ 1.2; an explicit Euler run
// with h = 1e-5 gives these times): the trajectory visits four of the eight
// regions.
func liftModel() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 3)
	m := dcs.NewModel(g, x, nil, nil)
	S := dcs.DefaultSigns(3)
	var F []ad.Vec
	for _, s := range S {
		s1, s2, s3 := float64(s[0]), float64(s[1]), float64(s[2])
		F = append(F, ad.Vec{
			g.Const(1 + 0.2*s2 + 0.1*s3),
			g.Const(1 + 0.3*s1 - 0.1*s3),
			x[0].Neg().AddConst(0.2 + 0.1*s1 + 0.05*s2),
		})
	}
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[0], x[1], x[2]}, S: S, F: F})
	return m
}

// TestLiftingExample5 simulates liftModel with the step reformulation
// without lifting (LiftDepth 0) and with Algorithm 1 of 004 at depths 2 (the
// G_β, G_θ of Example 5) and 1. The lifted DCS must describe the same
// trajectory: element boundaries, the states there and the switch times
// agree within 1e-8, as do θ at every stage. The modes are affine, so x is
// piecewise quadratic and Radau IIA n_s = 2 integrates every region exactly:
// the switch times and x(1.6) also match the exact ones within 1e-8 (the
// remaining error is the homotopy tolerance). The sizes
// follow 004 Table 4: n_β = 2^nψ − 2^n_d (4 for n_d = 2, 6 for n_d = 1),
// n_alg = n_f + 3nψ + n_β, n_eq = n_f + nψ + n_β, n_comp = 2nψ, and the FESD
// NLP grows by n_β variables and equations per stage point.
func TestLiftingExample5(t *testing.T) {
	const tol = 1e-8
	x0 := []float64{-0.3, -0.7, 0.05}
	type run struct {
		depth int
		r     *SimResult
		nv    int
		nc    int
	}
	var runs []run
	for _, depth := range []int{0, 2, 1} {
		o := Options{Scheme: rk.FamilyRadauIIA, Stages: 2, NFE: 3, DCS: dcs.Options{Formulation: dcs.Step, LiftDepth: depth}}
		r, err := Simulate(context.Background(), liftModel(), x0, SimOptions{TSim: 1.6, NSim: 8, Options: o})
		if err != nil {
			t.Fatalf("LiftDepth %d: %v", depth, err)
		}
		sim, err := NewSimulator(liftModel(), o, 0.2)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, run{depth, r, sim.NumVariables(), sim.NumConstraints()})
		// Table 4 of 004.
		nb := map[int]int{0: 0, 2: 4, 1: 6}[depth]
		d := r.DCS.Dims
		want := dcs.Dims{NX: 3, NPsi: 3, NF: 8, NTheta: 8, NAlpha: 3, NBeta: nb, NLambda: 6, NZ: 8 + 9 + nb, NComp: 6, NEq: 8 + 3 + nb}
		if d != want {
			t.Errorf("LiftDepth %d: Dims %+v, want %+v", depth, d, want)
		}
		if nb != dcs.NumLift(3, depth) {
			t.Errorf("NumLift(3, %d) = %d, want %d", depth, dcs.NumLift(3, depth), nb)
		}
	}
	// Exact trajectory (piecewise integration of the active mode, sympy):
	// ψ₀ crosses at 1/3 (ẋ₁ = 0.9), ψ₁ at 3/4 (ẋ₂ = 0.6, then 1.2), ψ₂ at
	// the root 19/26 + √1338/78 of x₃ in the region s = (+, +, +), and
	// x(1.6) = (849/650 + √1338/390, 388/325 − √1338/390,
	// −84709/338000 − 113√1338/50700).
	r1338 := math.Sqrt(1338)
	wantSw := []float64{1.0 / 3, 0.75, 19.0/26 + r1338/78}
	wantX := []float64{849.0/650 + r1338/390, 388.0/325 - r1338/390, -84709.0/338000 - 113*r1338/50700}
	base := runs[0]
	if len(base.r.Switches) != 3 {
		t.Fatalf("reference run has switches %v, want crossings of ψ₀, ψ₁, ψ₂ at %v", switchSummary(base.r.Switches), wantSw)
	}
	for j, s := range base.r.Switches {
		if s.Kind != Crossing || s.Psi != j || math.Abs(s.Time-wantSw[j]) > tol {
			t.Errorf("switch %d: %v of ψ%d at %.10f, want a crossing of ψ%d at %.10f", j, s.Kind, s.Psi, s.Time, j, wantSw[j])
		}
	}
	for _, rn := range runs {
		for i, w := range wantX {
			if e := math.Abs(rn.r.Final()[i] - w); e > tol {
				t.Errorf("LiftDepth %d: x_%d(1.6) = %.12f, want %.12f (error %.2g)", rn.depth, i+1, rn.r.Final()[i], w, e)
			}
		}
	}
	// Stages per interval: N_FE·n_s = 6 stage points carry z.
	const stagePoints = 6
	for _, rn := range runs[1:] {
		name := fmt.Sprintf("LiftDepth %d", rn.depth)
		nb := rn.r.DCS.Dims.NBeta
		if dv, dc := rn.nv-base.nv, rn.nc-base.nc; dv != stagePoints*nb || dc != stagePoints*nb {
			t.Errorf("%s: NLP grows by %d variables and %d constraints, want %d each", name, dv, dc, stagePoints*nb)
		}
		if len(rn.r.T) != len(base.r.T) {
			t.Fatalf("%s: %d boundaries, want %d", name, len(rn.r.T), len(base.r.T))
		}
		var eT, eX float64
		for n := range base.r.T {
			eT = max(eT, math.Abs(rn.r.T[n]-base.r.T[n]))
			for i := range 3 {
				eX = max(eX, math.Abs(rn.r.X[n][i]-base.r.X[n][i]))
			}
		}
		if eT > tol || eX > tol {
			t.Errorf("%s: boundaries differ by %.2g, states by %.2g (> %g)", name, eT, eX, tol)
		}
		if len(rn.r.Switches) != len(base.r.Switches) {
			t.Fatalf("%s: switches %v, want %v", name, switchSummary(rn.r.Switches), switchSummary(base.r.Switches))
		}
		var eS float64
		for i, s := range rn.r.Switches {
			b := base.r.Switches[i]
			if s.Psi != b.Psi || s.Kind != b.Kind {
				t.Errorf("%s: switch %d %v ψ%d, want %v ψ%d", name, i, s.Kind, s.Psi, b.Kind, b.Psi)
			}
			eS = max(eS, math.Abs(s.Time-b.Time))
		}
		if eS > tol {
			t.Errorf("%s: switch times differ by %.2g > %g", name, eS, tol)
		}
		th, thb := rn.r.Algebraic(dcs.Theta, 0), base.r.Algebraic(dcs.Theta, 0)
		var eTh float64
		for k := range thb {
			for i := range thb[k] {
				eTh = max(eTh, math.Abs(th[k][i]-thb[k][i]))
			}
		}
		if eTh > tol {
			t.Errorf("%s: θ differs by %.2g > %g", name, eTh, tol)
		}
		t.Logf("%s: n_β = %d, NLP %d×%d (unlifted %d×%d); max differences: boundaries %.2g, x %.2g, switch times %.2g, θ %.2g",
			name, nb, rn.nv, rn.nc, base.nv, base.nc, eT, eX, eS, eTh)
	}
	t.Logf("switches: %v", switchSummary(base.r.Switches))
}
