package fesd_test

import (
	"testing"

	"github.com/fesd-go/fesd/fesd"
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
		{"Representation", func() error {
			return enumtext.RoundTrip([]fesd.Representation{fesd.Integral, fesd.Differential}, fesd.Representation(2))
		}},
		{"CrossComp", func() error {
			return enumtext.RoundTrip([]fesd.CrossComp{fesd.FEStage, fesd.StageStage, fesd.StageFE, fesd.FEFE}, fesd.CrossComp(4))
		}},
		{"StepEquilibration", func() error {
			return enumtext.RoundTrip([]fesd.StepEquilibration{fesd.HeuristicMean, fesd.HeuristicDiff, fesd.L2Relaxed, fesd.L2RelaxedScaled, fesd.Direct, fesd.NoEquilibration}, fesd.StepEquilibration(6))
		}},
		{"Where", func() error {
			return enumtext.RoundTrip([]fesd.Where{fesd.AtStageEnds, fesd.AtElementBoundaries, fesd.AtStagePoints}, fesd.Where(3))
		}},
		{"SpeedOfTime", func() error {
			return enumtext.RoundTrip([]fesd.SpeedOfTime{fesd.NoSpeedOfTime, fesd.GlobalSpeedOfTime, fesd.StageSpeedOfTime}, fesd.SpeedOfTime(3))
		}},
		{"Side", func() error {
			return enumtext.RoundTrip([]fesd.Side{fesd.SideUnknown, fesd.SideNegative, fesd.SidePositive, fesd.SideSurface}, fesd.Side(4))
		}},
		{"SwitchKind", func() error {
			return enumtext.RoundTrip([]fesd.SwitchKind{fesd.Crossing, fesd.EnteringSliding, fesd.LeavingSliding, fesd.Spontaneous}, fesd.SwitchKind(4))
		}},
	} {
		if err := c.check(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
