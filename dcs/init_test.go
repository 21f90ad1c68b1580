package dcs_test

import (
	"errors"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

// TestInitialMultipliersEq17: the step DCS's initial multipliers are
// λᵖ = max(ψ, 0), λⁿ = −min(ψ, 0) (004 eq. 17), α is the step of ψ (1/2 on
// ψ = 0), θ the product (21) of α; Stewart's are λ = g − min g with
// g = −Sψ, μ = −min g, θ the indicator of the minimizing mode (split on
// ties). Two subsystems check the per-subsystem layout.
func TestInitialMultipliersEq17(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 3)
	m := dcs.NewModel(g, x, nil, nil)
	zero := g.Zeros(3)
	F4 := []ad.Vec{zero, zero, zero, zero}
	// ψ = (x₀ − 1, x₀·x₁), and ψ = x₂ in a second subsystem.
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[0].AddConst(-1), x[0].Mul(x[1])}, F: F4})
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[2]}, F: []ad.Vec{zero, zero}})
	st := reformulate(t, m, dcs.Options{})
	sp := reformulate(t, m, dcs.Options{Formulation: dcs.Step})
	for _, xv := range [][]float64{{2, 3, -1}, {0.5, 4, 2}, {1, -2, 0}, {-3, 0, 0.25}} {
		psi := [][]float64{{xv[0] - 1, xv[0] * xv[1]}, {xv[2]}}
		zs, err := sp.InitialGuess(xv, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		zt, err := st.InitialGuess(xv, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, ps := range psi {
			lp := make([]float64, len(ps))
			ln := make([]float64, len(ps))
			al := make([]float64, len(ps))
			for j, v := range ps {
				lp[j], ln[j] = math.Max(v, 0), -math.Min(v, 0)
				switch {
				case v > 0:
					al[j] = 1
				case v < 0:
					al[j] = 0
				default:
					al[j] = 0.5
				}
			}
			if d := maxDiff(get(t, sp, zs, dcs.LambdaP, k), lp); d != 0 {
				t.Errorf("x=%v sub %d: λᵖ = %v, want %v", xv, k, get(t, sp, zs, dcs.LambdaP, k), lp)
			}
			if d := maxDiff(get(t, sp, zs, dcs.LambdaN, k), ln); d != 0 {
				t.Errorf("x=%v sub %d: λⁿ = %v, want %v", xv, k, get(t, sp, zs, dcs.LambdaN, k), ln)
			}
			if d := maxDiff(get(t, sp, zs, dcs.Alpha, k), al); d != 0 {
				t.Errorf("x=%v sub %d: α = %v, want %v", xv, k, get(t, sp, zs, dcs.Alpha, k), al)
			}
			// Stewart: g_i = −Σ_j S_ij ψ_j with S of eq. (9).
			S := dcs.DefaultSigns(len(ps))
			gv := make([]float64, len(S))
			gmin := math.Inf(1)
			for i, row := range S {
				for j, s := range row {
					gv[i] -= float64(s) * ps[j]
				}
				gmin = math.Min(gmin, gv[i])
			}
			lam := make([]float64, len(S))
			th := make([]float64, len(S))
			nmin := 0
			for i := range gv {
				lam[i] = gv[i] - gmin
				if gv[i] == gmin {
					nmin++
				}
			}
			for i := range gv {
				if gv[i] == gmin {
					th[i] = 1 / float64(nmin)
				}
			}
			if d := maxDiff(get(t, st, zt, dcs.Lambda, k), lam); d > 1e-15 {
				t.Errorf("x=%v sub %d: Stewart λ = %v, want %v", xv, k, get(t, st, zt, dcs.Lambda, k), lam)
			}
			if d := maxDiff(get(t, st, zt, dcs.Mu, k), []float64{-gmin}); d > 1e-15 {
				t.Errorf("x=%v sub %d: μ = %v, want %v", xv, k, get(t, st, zt, dcs.Mu, k), -gmin)
			}
			if d := maxDiff(get(t, st, zt, dcs.Theta, k), th); d > 1e-15 {
				t.Errorf("x=%v sub %d: Stewart θ = %v, want %v", xv, k, get(t, st, zt, dcs.Theta, k), th)
			}
		}
		// Both guesses satisfy their DCS exactly (also with ψ = 0, where the
		// chosen selection is one admissible element).
		for _, c := range []struct {
			d *dcs.DCS
			z []float64
		}{{st, zt}, {sp, zs}} {
			if r := residuals(t, c.d, xv, nil, nil, c.z); r.Max() > 1e-15 {
				t.Errorf("%v x=%v: residuals %+v", c.d.Formulation, xv, r)
			}
		}
	}
}

// TestStewartUserIndicators: Stewart with user indicator functions
// g_i = ‖x − c_i‖² (a Voronoi partition, no ψ) picks the nearest centre.
func TestStewartUserIndicators(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	centres := [][]float64{{0, 0}, {2, 0}, {0, 3}}
	ind := make(ad.Vec, 3)
	F := make([]ad.Vec, 3)
	for i, c := range centres {
		ind[i] = ad.Sq(x[0].AddConst(-c[0])).Add(ad.Sq(x[1].AddConst(-c[1])))
		F[i] = g.ConstVec(float64(i), 1)
	}
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{G: ind, F: F})
	d := reformulate(t, m, dcs.Options{})
	for _, c := range []struct {
		x    []float64
		mode float64
	}{{[]float64{0.2, 0.1}, 0}, {[]float64{1.8, -1}, 1}, {[]float64{0.3, 2.5}, 2}} {
		z0, err := d.InitialGuess(c.x, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := residuals(t, d, c.x, nil, nil, z0); r.Max() > 1e-15 {
			t.Errorf("x=%v: residuals %+v", c.x, r)
		}
		if f := evalF(t, d, c.x, nil, nil, z0, 0); f[0] != c.mode {
			t.Errorf("x=%v: mode %g, want %g", c.x, f[0], c.mode)
		}
	}
	if _, err := m.Reformulate(dcs.Options{Formulation: dcs.Step}); !errors.Is(err, dcs.ErrNoPsi) {
		t.Errorf("Step without ψ: err = %v, want ErrNoPsi", err)
	}
}

// TestNonFinitePsi: EvalPsi and InitialGuess name the NaN switching
// function (ψ₁ = √x₀ − 1 at x₀ < 0) and its subsystem.
func TestNonFinitePsi(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	zero := g.Zeros(2)
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[1]}, F: []ad.Vec{zero, zero}})
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[0], ad.Sqrt(x[0]).AddConst(-1)}, F: []ad.Vec{zero, zero, zero, zero}})
	check := func(err error) {
		t.Helper()
		var nf *dcs.NonFiniteError
		if !errors.As(err, &nf) || !errors.Is(err, dcs.ErrNonFinite) {
			t.Fatalf("err = %v, want *NonFiniteError", err)
		}
		if nf.Subsystem != 1 || nf.Index != 1 || !math.IsNaN(nf.Value) {
			t.Errorf("NonFiniteError = %+v, want subsystem 1, ψ_1, NaN", nf)
		}
	}
	psi, err := m.EvalPsi([]float64{4, 1}, nil, nil)
	if err != nil || maxDiff(psi, []float64{1, 4, 1}) != 0 {
		t.Errorf("EvalPsi = %v, %v; want [1 4 1]", psi, err)
	}
	_, err = m.EvalPsi([]float64{-1, 1}, nil, nil)
	check(err)
	for _, f := range formulations {
		d := reformulate(t, m, dcs.Options{Formulation: f})
		_, err := d.InitialGuess([]float64{-1, 1}, nil, nil)
		check(err)
	}
	// Non-finite and wrongly sized inputs.
	if _, err := m.EvalPsi([]float64{math.NaN(), 1}, nil, nil); !errors.Is(err, dcs.ErrNonFinite) {
		t.Errorf("NaN input: err = %v", err)
	}
	if _, err := m.EvalPsi([]float64{1}, nil, nil); !errors.Is(err, dcs.ErrDimension) {
		t.Errorf("short x: err = %v", err)
	}
}
