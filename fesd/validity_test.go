package fesd_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
)

// dropBall is a point mass of mass 1 in the plane, q = (x, z), under
// gravity 9.81 with a vertical thrust u, above the ground z = 0 (gap z,
// friction μ = 0.2), as a time-freezing model in form.
func dropBall(t *testing.T, form dcs.Formulation, sot dcs.SpeedOfTime) *dcs.TimeFreezing {
	t.Helper()
	g := ad.NewGraph()
	q, v, u := g.SymVec("q", 2), g.SymVec("v", 2), g.SymVec("u", 1)
	rb := dcs.RigidBody{Graph: g, Q: q, V: v, U: u, M: g.Eye(2),
		FV:       ad.Vec{g.Const(0), u[0].Sub(g.Const(9.81))},
		Contacts: []dcs.Contact{{Gap: q[1], TangentPos: q[0], Mu: 0.2}}}
	tf, err := dcs.NewTimeFreezing(rb, dcs.TimeFreezingOptions{Formulation: form, SpeedOfTime: sot})
	require.NoError(t, err)
	require.Same(t, tf, tf.Model.TimeFreezing())
	return tf
}

// TestValiditySimulatedDrop: a ball thrown from height 1 with v_x = −2
// (closed form: it lands at t = √(2/9.81) = 0.4515, the auxiliary dynamics
// of a_n = 100 stopping v_z = −4.43 in a frozen phase of τ-length 0.0443
// that also takes 0.2·4.43 off |v_x|, and it then slides on the ground) is
// valid in both formulations: one flight, one landing,
// one frozen phase, no phantom contact (the steps are solved to
// complementarity 1e-9, so a weight above 1e-6 at a gap of 1e-3 would be a
// defect), and no drift below the ground while the clock advances beyond
// the default millimetre. Corrupting one stage point of the same
// trajectory — the ball 2 cm below the ground in free flight, or the
// auxiliary dynamics switched on in the air — makes it invalid with that
// item named. Under -short the Step formulation only.
func TestValiditySimulatedDrop(t *testing.T) {
	for _, form := range []dcs.Formulation{dcs.Step, dcs.Stewart} {
		t.Run(form.String(), func(t *testing.T) {
			if testing.Short() && form != dcs.Step {
				t.Skip("-short: the Step formulation only")
			}
			tf := dropBall(t, form, dcs.SpeedOfTimeNone)
			res, err := fesd.Simulate(context.Background(), tf.Model, []float64{0, 1, -2, 0, 0},
				fesd.SimOptions{TSim: 0.8, NSim: 8, U: []float64{0},
					Options: fesd.Options{NFE: 3, DCS: tf.DCSOptions()}})
			require.NoError(t, err)
			v, err := fesd.TimeFreezingValidity(tf, &res.Trajectory, nil, fesd.ValidityTolerances{})
			require.NoError(t, err)
			assert.Equal(t, v, res.Validity, "Simulate's own check")
			t.Logf("%v; impact penetration %.1e", v, v.MaxImpactPenetration)
			assert.True(t, v.Valid, v.String())
			assert.Equal(t, 1, v.Flights)
			assert.Equal(t, 1, v.Landings)
			assert.Equal(t, 1, v.Impacts)
			assert.Less(t, v.MaxPhantom, 1e-6)
			assert.Less(t, v.MaxDrift, 1e-3)
			assert.Zero(t, v.ClockError, "a simulation has no horizon to check the clock against")

			// the ball 2 cm below the ground at the first stage point
			// (free flight, the clock advancing)
			bad := res.Trajectory
			bad.PointX = append([][]float64(nil), res.PointX...)
			bad.PointX[0] = append([]float64(nil), res.PointX[0]...)
			bad.PointX[0][1] = -0.02
			v, err = fesd.TimeFreezingValidity(tf, &bad, nil, fesd.ValidityTolerances{})
			require.NoError(t, err)
			assert.False(t, v.Valid)
			assert.InDelta(t, 0.02, v.MaxDrift, 1e-12)
			require.Len(t, v.Violations, 1)
			assert.True(t, strings.HasPrefix(v.Violations[0], "drift"), v.Violations[0])

			// the auxiliary dynamics with weight 0.3 at the first stage
			// point, 1 m above the ground
			bad = res.Trajectory
			bad.PointZ = append([][]float64(nil), res.PointZ...)
			z := append([]float64(nil), res.PointZ[0]...)
			bad.PointZ[0] = z
			if form == dcs.Step {
				bl, ok := res.DCS.ZBlock(dcs.Alpha, -1)
				require.True(t, ok)
				z[bl.Start], z[bl.Start+1] = 0.3, 0 // (1 − α_fc)(1 − α_vn) = 0.7
			} else {
				bl, ok := res.DCS.ZBlock(dcs.Theta, 0)
				require.True(t, ok)
				for i := range bl.Len {
					z[bl.Start+i] = 0
				}
				z[bl.Start] = 0.3 // f_ode
				for i, modes := range tf.BaseModes {
					if modes[0] != 0 {
						z[bl.Start+i] = 0.7 // an auxiliary mode
						break
					}
				}
			}
			v, err = fesd.TimeFreezingValidity(tf, &bad, nil, fesd.ValidityTolerances{})
			require.NoError(t, err)
			assert.False(t, v.Valid)
			assert.InDelta(t, 0.7, v.MaxPhantom, 1e-12)
			require.NotEmpty(t, v.Violations)
			assert.True(t, strings.HasPrefix(v.Violations[0], "phantom"), v.Violations[0])
		})
	}
}

// TestValidityOCPClock: the ball of dropBall must fall for T = 0.8 s with
// the least thrust ∫u²: it lands at 0.45 s, and the frozen phase of the
// impact and the stance make the clock lag the numerical time. Without
// speed of time the clock ends the horizon short of T (by at least about
// the frozen phase √(2·9.81)/a_n = 0.044 of the landing, see
// TestValiditySimulatedDrop), and the result, solved as an MPCC, must not
// be reported Solved: its status is mpcc.Invalid with the clock named.
// With a speed of time per stage and nosnoc's stage-wise clock constraint
// t(τ_k) = k T/N, the same OCP is valid and Solved.
func TestValidityOCPClock(t *testing.T) {
	if testing.Short() {
		t.Skip("two time-freezing OCPs")
	}
	for _, sot := range []bool{false, true} {
		tf := dropBall(t, dcs.Step, dcs.SpeedOfTimeNone)
		const T, N = 0.8, 4
		p := &fesd.OCP{Model: tf.Model, X0: []float64{0, 1, 0, 0, 0}, N: N, T: T,
			Lagrange: tf.Model.U[0].Mul(tf.Model.U[0]), UL: []float64{-20}, UU: []float64{20}}
		if sot {
			p.SpeedOfTime = fesd.StageSpeedOfTime
			p.SOTMax = 10
			p.StageEnd = func(k int) []fesd.Constraint {
				c := float64(k+1) * T / N
				return []fesd.Constraint{{G: ad.Vec{tf.ClockSym}, L: []float64{c}, U: []float64{c}}}
			}
		}
		r, err := fesd.SolveOCP(context.Background(), p,
			fesd.Options{NFE: 3, DCS: tf.DCSOptions(), MPCC: mpcc.Settings{CompTol: 1e-9}}, fesd.Start{})
		require.NoError(t, err)
		require.NotNil(t, r.Validity)
		t.Logf("speed of time %v: %v, %v, comp %.1e, clock %.2e, stage clock %.2e", sot, r.Status, r.Validity, r.CompResidual, r.Validity.ClockError, r.Validity.StageClockError)
		assert.LessOrEqual(t, r.CompResidual, 1e-9)
		assert.Less(t, r.Validity.MaxPhantom, 1e-3)
		if sot {
			assert.Equal(t, mpcc.Solved, r.Status)
			assert.True(t, r.Validity.Valid, r.Validity.String())
			assert.Less(t, r.Validity.StageClockError, 1e-6)
		} else {
			assert.Equal(t, mpcc.Invalid, r.Status)
			assert.False(t, r.Validity.Valid)
			// at least the frozen phase of the landing is missing (v_z⁻ of
			// the least-thrust fall is that of the free fall, 4.43 m/s,
			// measured: 0.06 with the slower clock of the stance)
			n := len(r.X) - 1
			assert.InDelta(t, T-(r.X[n][tf.Clock]-r.X[0][tf.Clock]), r.Validity.ClockError, 1e-12)
			assert.Greater(t, r.Validity.ClockError, 0.5*math.Sqrt(2*9.81)/dcs.DefaultAN)
			require.Len(t, r.Validity.Violations, 1)
			assert.True(t, strings.HasPrefix(r.Validity.Violations[0], "clock"), r.Validity.Violations[0])
		}
	}
}
