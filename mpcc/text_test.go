package mpcc_test

import (
	"testing"

	"github.com/fesd-go/fesd/internal/enumtext"
	"github.com/fesd-go/fesd/mpcc"
)

// TestText: every value of every enum of the package round-trips through
// its name (MarshalText, then UnmarshalText in any case), and an unknown
// name or value is an error.
func TestText(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func() error
	}{
		{"UpdateRule", func() error {
			return enumtext.RoundTrip([]mpcc.UpdateRule{mpcc.Linear, mpcc.Superlinear}, mpcc.UpdateRule(2))
		}},
		{"Relaxation", func() error {
			return enumtext.RoundTrip([]mpcc.Relaxation{mpcc.ScholtesIneq, mpcc.ScholtesEq, mpcc.LinFukushima, mpcc.KanzowSchwartz, mpcc.Kadrani, mpcc.FischerBurmeisterEq, mpcc.FischerBurmeisterIneq, mpcc.NaturalResidualEq, mpcc.NaturalResidualIneq}, mpcc.Relaxation(9))
		}},
		{"Steering", func() error {
			return enumtext.RoundTrip([]mpcc.Steering{mpcc.Direct, mpcc.L1, mpcc.LInf}, mpcc.Steering(3))
		}},
		{"PenaltyScaling", func() error {
			return enumtext.RoundTrip([]mpcc.PenaltyScaling{mpcc.PenaltyOverSigma, mpcc.ObjectiveTimesSigma}, mpcc.PenaltyScaling(2))
		}},
		{"Status", func() error {
			return enumtext.RoundTrip([]mpcc.Status{mpcc.Solved, mpcc.SigmaLimit, mpcc.MaxSteps, mpcc.NLPFailure, mpcc.Cancelled, mpcc.NotSolved, mpcc.Infeasible, mpcc.Invalid}, mpcc.Status(8))
		}},
		{"Stationarity", func() error {
			return enumtext.RoundTrip([]mpcc.Stationarity{mpcc.NotCertified, mpcc.WStationary, mpcc.CStationary, mpcc.MStationary, mpcc.BStationary, mpcc.SStationary}, mpcc.Stationarity(6))
		}},
		{"FinishMode", func() error {
			return enumtext.RoundTrip([]mpcc.FinishMode{mpcc.FinishDefault, mpcc.ActiveSetFinish, mpcc.CertifyOnly, mpcc.NoCertificate}, mpcc.FinishMode(4))
		}},
	} {
		if err := c.check(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
