package linalg_test

import (
	"testing"

	"github.com/fesd-go/fesd/internal/enumtext"
	"github.com/fesd-go/fesd/nlp/linalg"
)

// TestText: every value of every enum of the package round-trips through
// its name (MarshalText, then UnmarshalText in any case), and an unknown
// name or value is an error.
func TestText(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func() error
	}{
		{"Ordering", func() error {
			return enumtext.RoundTrip([]linalg.Ordering{linalg.OrderAMD, linalg.OrderNatural, linalg.OrderGiven, linalg.OrderBest}, linalg.Ordering(4))
		}},
	} {
		if err := c.check(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
