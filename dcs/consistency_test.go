package dcs_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/internal/reference"
)

// oscillator is the Filippov oscillator of nosnoc_py's
// examples/oscillator/oscillator_example.py: ẋ = A₁x
// outside the unit circle (ψ = x₁² + x₂² − 1 > 0), A₂x inside, ω = 2π.
func oscillator() *dcs.Model {
	g := ad.NewGraph()
	x := g.SymVec("x", 2)
	w := 2 * math.Pi
	m := dcs.NewModel(g, x, nil, nil)
	m.AddSubsystem(dcs.Subsystem{
		Psi: ad.Vec{ad.Sq(x[0]).Add(ad.Sq(x[1])).AddConst(-1)},
		F: []ad.Vec{
			{x[0].Add(x[1].Scale(w)), x[0].Scale(-w).Add(x[1])},
			{x[0].Add(x[1].Scale(-w)), x[0].Scale(w).Add(x[1])},
		},
	})
	return m
}

func oscillatorRHS(x []float64) []float64 {
	w := 2 * math.Pi
	if x[0]*x[0]+x[1]*x[1] > 1 {
		return []float64{x[0] + w*x[1], -w*x[0] + x[1]}
	}
	return []float64{x[0] - w*x[1], w*x[0] + x[1]}
}

// threeMassesRHS is the right-hand side of Stewart's three masses with
// Coulomb friction (Stewart 1996, §5, eq. 15; the model is
// reference.FrictionModel) written out, with sgn v_j from the sign of v_j.
func threeMassesRHS(x []float64, t float64) []float64 {
	q, v := x[:3], x[3:]
	sgn := func(a float64) float64 {
		if a > 0 {
			return 1
		}
		return -1
	}
	return []float64{v[0], v[1], v[2],
		-q[0] + (q[1] - q[0]) - v[0] - 0.3*sgn(v[0]),
		(q[0] - q[1]) + (q[2] - q[1]) - v[1] - 0.3*sgn(v[1]),
		(q[1] - q[2]) - v[2] - 0.3*sgn(v[2]) + 10*math.Cos(math.Pi*t),
	}
}

// TestStepStewartConsistency: for random x in every region, the unique
// solution z of each DCS (Init, checked to have zero residuals) gives the
// same ẋ in all formulations, equal to the hand-written right-hand side.
func TestStepStewartConsistency(t *testing.T) {
	const tol = 1e-12
	opts := []dcs.Options{
		{Formulation: dcs.Stewart},
		{Formulation: dcs.Step},
		{Formulation: dcs.Step, LiftDepth: 2},
	}
	type problem struct {
		name  string
		model *dcs.Model
		rhs   func(x []float64, t float64) []float64
		point func(r func() float64, region int) []float64
		n     int // regions to sample
	}
	r := newRand(1)
	problems := []problem{
		{"oscillator", oscillator(), func(x []float64, _ float64) []float64 { return oscillatorRHS(x) },
			func(u func() float64, region int) []float64 {
				rad := 0.2 + 0.7*u()
				if region == 0 {
					rad = 1.05 + 2*u()
				}
				a := 2 * math.Pi * u()
				return []float64{rad * math.Cos(a), rad * math.Sin(a)}
			}, 2},
	}
	for _, form := range []reference.FrictionForm{reference.FrictionSplit, reference.FrictionJoint} {
		split := form == reference.FrictionSplit
		problems = append(problems, problem{fmt.Sprintf("three masses split=%v", split), reference.FrictionModel(form), threeMassesRHS,
			func(u func() float64, region int) []float64 {
				x := make([]float64, 6)
				for i := range x {
					x[i] = 4*u() - 2
				}
				for j := 0; j < 3; j++ { // region bits give the velocity signs (eq. 9 order)
					s := 1.0
					if region>>(2-j)&1 == 1 {
						s = -1
					}
					x[3+j] = s * (0.01 + u())
				}
				return x
			}, 8})
	}
	for _, pr := range problems {
		for _, o := range opts {
			d := reformulate(t, pr.model, o)
			for region := 0; region < pr.n; region++ {
				for trial := 0; trial < 5; trial++ {
					x := pr.point(r.Float64, region)
					tm := 3 * r.Float64()
					z0, err := d.InitialGuess(x, nil, nil)
					if err != nil {
						t.Fatal(err)
					}
					if res := residuals(t, d, x, nil, nil, z0); res.Max() > tol {
						t.Errorf("%s %+v region %d: residuals %+v", pr.name, o, region, res)
					}
					got := evalF(t, d, x, nil, nil, z0, tm)
					if diff := maxDiff(got, pr.rhs(x, tm)); diff > tol {
						t.Errorf("%s %+v region %d x=%v: ẋ=%v, want %v", pr.name, o, region, x, got, pr.rhs(x, tm))
					}
				}
			}
		}
	}
}

// TestSumOfSubsystemsEqualsEnumeration: for any selections α ∈ [0, 1]³
// (also on sliding surfaces), the sum of three 2-mode subsystems (004
// Remark 19) and the 8-mode enumeration with θ from eq. (21) give the same
// ẋ; this is Proposition 5 (Σθ = 1) applied per mass.
func TestSumOfSubsystemsEqualsEnumeration(t *testing.T) {
	split := reformulate(t, reference.FrictionModel(reference.FrictionSplit), dcs.Options{Formulation: dcs.Step})
	full := reformulate(t, reference.FrictionModel(reference.FrictionJoint), dcs.Options{Formulation: dcs.Step, LiftDepth: 2})
	r := newRand(2)
	for trial := 0; trial < 20; trial++ {
		x := make([]float64, 6)
		for i := range x {
			x[i] = 2*r.Float64() - 1
		}
		alpha := []float64{r.Float64(), r.Float64(), r.Float64()}
		if trial%4 == 0 {
			alpha[trial%3] = 0 // a vertex coordinate
		}
		zs := make([]float64, len(split.Z))
		for j := 0; j < 3; j++ {
			put(t, split, zs, dcs.Theta, j, alpha[j], 1-alpha[j])
		}
		zf := make([]float64, len(full.Z))
		th := make([]float64, 8)
		for i, row := range dcs.DefaultSigns(3) {
			th[i] = 1
			for j, s := range row {
				if s > 0 {
					th[i] *= alpha[j]
				} else {
					th[i] *= 1 - alpha[j]
				}
			}
		}
		put(t, full, zf, dcs.Theta, 0, th...)
		tm := r.Float64()
		if diff := maxDiff(evalF(t, split, x, nil, nil, zs, tm), evalF(t, full, x, nil, nil, zf, tm)); diff > 1e-12 {
			t.Errorf("α=%v: split and enumerated ẋ differ by %g", alpha, diff)
		}
	}
}
