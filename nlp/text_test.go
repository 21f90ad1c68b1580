package nlp_test

import (
	"testing"

	"github.com/fesd-go/fesd/internal/enumtext"
	"github.com/fesd-go/fesd/nlp"
)

// TestText: every value of every enum of the package round-trips through
// its name (MarshalText, then UnmarshalText in any case), and an unknown
// name or value is an error.
func TestText(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func() error
	}{
		{"MuStrategy", func() error {
			return enumtext.RoundTrip([]nlp.MuStrategy{nlp.MuMonotone, nlp.MuAdaptive}, nlp.MuStrategy(2))
		}},
		{"MuOracle", func() error {
			return enumtext.RoundTrip([]nlp.MuOracle{nlp.OracleQualityFunction, nlp.OracleProbing}, nlp.MuOracle(-1))
		}},
		{"LinearSolverKind", func() error {
			return enumtext.RoundTrip([]nlp.LinearSolverKind{nlp.SparseLDL, nlp.DenseLDL, nlp.PivotingLDL}, nlp.LinearSolverKind(3))
		}},
		{"Ordering", func() error {
			return enumtext.RoundTrip([]nlp.Ordering{nlp.OrderAuto, nlp.OrderAMD, nlp.OrderStages, nlp.OrderNatural}, nlp.Ordering(4))
		}},
		{"InertiaPolicy", func() error {
			return enumtext.RoundTrip([]nlp.InertiaPolicy{nlp.InertiaDefault, nlp.InertiaStrict, nlp.InertiaStrictDeltaC, nlp.InertiaCurvature, nlp.InertiaStrictCurvature, nlp.InertiaTracking}, nlp.InertiaPolicy(6))
		}},
		{"DerivativeTest", func() error {
			return enumtext.RoundTrip([]nlp.DerivativeTest{nlp.DerivativeTestNone, nlp.DerivativeTestFirstOrder, nlp.DerivativeTestSecondOrder}, nlp.DerivativeTest(3))
		}},
		{"Status", func() error {
			return enumtext.RoundTrip([]nlp.Status{nlp.Solved, nlp.SolvedAcceptable, nlp.Infeasible, nlp.IterationLimit, nlp.TimeLimit, nlp.Cancelled, nlp.NumericalError, nlp.Diverging, nlp.UserStop, nlp.DerivativeMismatch}, nlp.Status(10))
		}},
	} {
		if err := c.check(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestInertiaValidate: Validate accepts every inertia policy and rejects an
// unknown one.
func TestInertiaValidate(t *testing.T) {
	for _, p := range []nlp.InertiaPolicy{-1, 6} {
		s := nlp.Settings{Inertia: p}
		if err := s.Validate(); err == nil {
			t.Errorf("Inertia %v: no error", p)
		}
	}
	for _, p := range []nlp.InertiaPolicy{nlp.InertiaDefault, nlp.InertiaStrict, nlp.InertiaStrictDeltaC, nlp.InertiaCurvature, nlp.InertiaStrictCurvature, nlp.InertiaTracking} {
		s := nlp.Settings{Inertia: p}
		if err := s.Validate(); err != nil {
			t.Errorf("Inertia %v: %v", p, err)
		}
	}
}
