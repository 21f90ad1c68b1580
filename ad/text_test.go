package ad_test

import (
	"testing"

	"github.com/fesd-go/fesd/ad"
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
		{"Mode", func() error { return enumtext.RoundTrip([]ad.Mode{ad.Auto, ad.Forward, ad.Reverse}, ad.Mode(3)) }},
	} {
		if err := c.check(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
