package dcs_test

import (
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/internal/enumtext"
)

// TestText: every value of every enum of the package round-trips through
// its name (MarshalText, then UnmarshalText in any case), and an unknown
// name or value is an error.
func TestText(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func() error
	}{
		{"Formulation", func() error { return enumtext.RoundTrip([]dcs.Formulation{dcs.Stewart, dcs.Step}, dcs.Formulation(2)) }},
		{"VarKind", func() error {
			return enumtext.RoundTrip([]dcs.VarKind{dcs.Theta, dcs.Lambda, dcs.Mu, dcs.Alpha, dcs.LambdaP, dcs.LambdaN, dcs.Beta, dcs.User}, dcs.VarKind(8))
		}},
		{"EqKind", func() error {
			return enumtext.RoundTrip([]dcs.EqKind{dcs.Stationarity, dcs.Convexity, dcs.Switching, dcs.ThetaDef, dcs.LiftDef, dcs.UserEq}, dcs.EqKind(6))
		}},
		{"CompKind", func() error {
			return enumtext.RoundTrip([]dcs.CompKind{dcs.LambdaTheta, dcs.LambdaNAlpha, dcs.LambdaPOneMinusAlpha}, dcs.CompKind(3))
		}},
		{"SpeedOfTime", func() error {
			return enumtext.RoundTrip([]dcs.SpeedOfTime{dcs.SpeedOfTimeNone, dcs.SpeedOfTimeAll, dcs.SpeedOfTimeFreeFlight}, dcs.SpeedOfTime(3))
		}},
	} {
		if err := c.check(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestFormulationHeaviside: "heaviside" is another name of Step.
func TestFormulationHeaviside(t *testing.T) {
	var f dcs.Formulation
	if err := f.UnmarshalText([]byte("Heaviside")); err != nil || f != dcs.Step {
		t.Errorf("UnmarshalText(Heaviside) = %v, %v", f, err)
	}
}
