package linalg

import "github.com/fesd-go/fesd/internal/enumtext"

// Text form of the enums of package linalg: MarshalText writes the String,
// UnmarshalText reads it back without regard to case (for flag.TextVar and
// encoding/json); an unknown name is an error that lists the valid ones.

// orderingValues lists every Ordering.
func orderingValues() []Ordering { return enumtext.Values[Ordering](len(orderingNames)) }

// MarshalText returns the name of o; an unknown value is an error.
func (o Ordering) MarshalText() ([]byte, error) {
	return enumtext.Marshal("linalg", "Ordering", orderingValues(), o)
}

// UnmarshalText sets o to the Ordering named by text, ignoring case.
func (o *Ordering) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("linalg", "Ordering", orderingValues(), text)
	if err != nil {
		return err
	}
	*o = val
	return nil
}
