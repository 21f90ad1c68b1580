package rk

import "github.com/fesd-go/fesd/internal/enumtext"

// Text form of the enums of package rk: MarshalText writes the String,
// UnmarshalText reads it back without regard to case (for flag.TextVar and
// encoding/json); an unknown name is an error that lists the valid ones.

// familyValues lists every Family.
func familyValues() []Family { return enumtext.Values[Family](len(families)) }

// MarshalText returns the name of f; an unknown value is an error.
func (f Family) MarshalText() ([]byte, error) {
	return enumtext.Marshal("rk", "Family", familyValues(), f)
}

// UnmarshalText sets f to the Family named by text, ignoring case.
func (f *Family) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("rk", "Family", familyValues(), text)
	if err != nil {
		return err
	}
	*f = val
	return nil
}
