package enum_test

import (
	"encoding"
	"encoding/json"
	"flag"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/enum"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/linalg"
	"github.com/fesd-go/fesd/rk"
)

// textEnum is an enum with both text methods (through its pointer).
type textEnum interface {
	encoding.TextMarshaler
	encoding.TextUnmarshaler
}

// TestMisuseEnumText: for every settings enum of the module, an unknown
// name is an error wrapping enum.ErrUnknownName and an out-of-range value
// an error wrapping enum.ErrInvalidValue, without a panic; the names
// round-trip elsewhere (each package's text_test.go).
func TestMisuseEnumText(t *testing.T) {
	for name, c := range map[string]struct {
		valid, invalid textEnum
	}{
		"ad.Mode":                 {new(ad.Mode), ptr(ad.Mode(99))},
		"dcs.Formulation":         {new(dcs.Formulation), ptr(dcs.Formulation(99))},
		"dcs.VarKind":             {new(dcs.VarKind), ptr(dcs.VarKind(99))},
		"dcs.EqKind":              {new(dcs.EqKind), ptr(dcs.EqKind(99))},
		"dcs.CompKind":            {new(dcs.CompKind), ptr(dcs.CompKind(99))},
		"dcs.SpeedOfTime":         {new(dcs.SpeedOfTime), ptr(dcs.SpeedOfTime(99))},
		"rk.Family":               {new(rk.Family), ptr(rk.Family(99))},
		"fesd.Representation":     {new(fesd.Representation), ptr(fesd.Representation(99))},
		"fesd.CrossComp":          {new(fesd.CrossComp), ptr(fesd.CrossComp(99))},
		"fesd.StepEquilibration":  {new(fesd.StepEquilibration), ptr(fesd.StepEquilibration(99))},
		"fesd.Where":              {new(fesd.Where), ptr(fesd.Where(99))},
		"fesd.SpeedOfTime":        {new(fesd.SpeedOfTime), ptr(fesd.SpeedOfTime(99))},
		"fesd.Side":               {new(fesd.Side), ptr(fesd.Side(99))},
		"fesd.SwitchKind":         {new(fesd.SwitchKind), ptr(fesd.SwitchKind(99))},
		"mpcc.UpdateRule":         {new(mpcc.UpdateRule), ptr(mpcc.UpdateRule(99))},
		"mpcc.Relaxation":         {new(mpcc.Relaxation), ptr(mpcc.Relaxation(99))},
		"mpcc.Steering":           {new(mpcc.Steering), ptr(mpcc.Steering(99))},
		"mpcc.PenaltyScaling":     {new(mpcc.PenaltyScaling), ptr(mpcc.PenaltyScaling(99))},
		"mpcc.Status":             {new(mpcc.Status), ptr(mpcc.Status(99))},
		"mpcc.Stationarity":       {new(mpcc.Stationarity), ptr(mpcc.Stationarity(99))},
		"mpcc.FinishMode":         {new(mpcc.FinishMode), ptr(mpcc.FinishMode(99))},
		"nlp.MuStrategy":          {new(nlp.MuStrategy), ptr(nlp.MuStrategy(99))},
		"nlp.MuOracle":            {new(nlp.MuOracle), ptr(nlp.MuOracle(99))},
		"nlp.LinearSolverKind":    {new(nlp.LinearSolverKind), ptr(nlp.LinearSolverKind(99))},
		"nlp.Ordering":            {new(nlp.Ordering), ptr(nlp.Ordering(99))},
		"nlp.InertiaPolicy":       {new(nlp.InertiaPolicy), ptr(nlp.InertiaPolicy(99))},
		"nlp.Status":              {new(nlp.Status), ptr(nlp.Status(99))},
		"nlp.DerivativeTest":      {new(nlp.DerivativeTest), ptr(nlp.DerivativeTest(99))},
		"linalg.Ordering":         {new(linalg.Ordering), ptr(linalg.Ordering(99))},
		"nlp.MuStrategy negative": {new(nlp.MuStrategy), ptr(nlp.MuStrategy(-1))},
	} {
		assert.NotPanics(t, func() {
			for _, text := range []string{"no such name", "", " Monotone", "0"} {
				err := c.valid.UnmarshalText([]byte(text))
				require.ErrorIs(t, err, enum.ErrUnknownName, "%s %q", name, text)
				assert.NotErrorIs(t, err, enum.ErrInvalidValue)
			}
			_, err := c.invalid.MarshalText()
			require.ErrorIs(t, err, enum.ErrInvalidValue, name)
		}, name)
	}
}

func ptr[T any](v T) *T { return &v }

// TestMisuseEnumTextDecoders: encoding/json returns the error itself, so
// the sentinel reaches the caller; package flag formats it with %v, so a
// flag.TextVar error only carries its message, the valid names included.
func TestMisuseEnumTextDecoders(t *testing.T) {
	var set struct{ Relaxation mpcc.Relaxation }
	err := json.Unmarshal([]byte(`{"Relaxation": "Scholtez"}`), &set)
	require.ErrorIs(t, err, enum.ErrUnknownName)

	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var mu nlp.MuStrategy
	fs.TextVar(&mu, "mu", nlp.MuMonotone, "barrier update")
	err = fs.Parse([]string{"-mu", "fast"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "want one of Monotone, Adaptive")
}
