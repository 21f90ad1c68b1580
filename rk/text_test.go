package rk_test

import (
	"testing"

	"github.com/fesd-go/fesd/internal/enumtext"
	"github.com/fesd-go/fesd/rk"
)

// TestText: every value of every enum of the package round-trips through
// its name (MarshalText, then UnmarshalText in any case), and an unknown
// name or value is an error.
func TestText(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func() error
	}{
		{"Family", func() error {
			return enumtext.RoundTrip([]rk.Family{rk.FamilyRadauIIA, rk.FamilyGaussLegendre, rk.FamilyRadauIA, rk.FamilyLobattoIIIA, rk.FamilyLobattoIIIC, rk.FamilyExplicit}, rk.Family(6))
		}},
	} {
		if err := c.check(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
