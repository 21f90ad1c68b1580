package dcs

import (
	"strings"

	"github.com/fesd-go/fesd/internal/enumtext"
)

// Text form of the enums of package dcs: MarshalText writes the String,
// UnmarshalText reads it back without regard to case (for flag.TextVar and
// encoding/json); an unknown name is an error that lists the valid ones.

// formulationValues lists every Formulation.
func formulationValues() []Formulation { return enumtext.Values[Formulation](int(numFormulations)) }

// MarshalText returns the name of f; an unknown value is an error.
func (f Formulation) MarshalText() ([]byte, error) {
	return enumtext.Marshal("dcs", "Formulation", formulationValues(), f)
}

// UnmarshalText sets f to the Formulation named by text, ignoring case;
// "heaviside" is another name of Step.
func (f *Formulation) UnmarshalText(text []byte) error {
	if strings.EqualFold(string(text), "heaviside") {
		*f = Step
		return nil
	}
	val, err := enumtext.Parse("dcs", "Formulation", formulationValues(), text)
	if err != nil {
		return err
	}
	*f = val
	return nil
}

// varKindValues lists every VarKind.
func varKindValues() []VarKind { return enumtext.Values[VarKind](int(numVarKinds)) }

// MarshalText returns the name of v; an unknown value is an error.
func (v VarKind) MarshalText() ([]byte, error) {
	return enumtext.Marshal("dcs", "VarKind", varKindValues(), v)
}

// UnmarshalText sets v to the VarKind named by text, ignoring case.
func (v *VarKind) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("dcs", "VarKind", varKindValues(), text)
	if err != nil {
		return err
	}
	*v = val
	return nil
}

// eqKindValues lists every EqKind.
func eqKindValues() []EqKind { return enumtext.Values[EqKind](int(numEqKinds)) }

// MarshalText returns the name of e; an unknown value is an error.
func (e EqKind) MarshalText() ([]byte, error) {
	return enumtext.Marshal("dcs", "EqKind", eqKindValues(), e)
}

// UnmarshalText sets e to the EqKind named by text, ignoring case.
func (e *EqKind) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("dcs", "EqKind", eqKindValues(), text)
	if err != nil {
		return err
	}
	*e = val
	return nil
}

// compKindValues lists every CompKind.
func compKindValues() []CompKind { return enumtext.Values[CompKind](int(numCompKinds)) }

// MarshalText returns the name of c; an unknown value is an error.
func (c CompKind) MarshalText() ([]byte, error) {
	return enumtext.Marshal("dcs", "CompKind", compKindValues(), c)
}

// UnmarshalText sets c to the CompKind named by text, ignoring case.
func (c *CompKind) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("dcs", "CompKind", compKindValues(), text)
	if err != nil {
		return err
	}
	*c = val
	return nil
}

// speedOfTimeValues lists every SpeedOfTime.
func speedOfTimeValues() []SpeedOfTime {
	return []SpeedOfTime{SpeedOfTimeNone, SpeedOfTimeAll, SpeedOfTimeFreeFlight}
}

// MarshalText returns the name of s; an unknown value is an error.
func (s SpeedOfTime) MarshalText() ([]byte, error) {
	return enumtext.Marshal("dcs", "SpeedOfTime", speedOfTimeValues(), s)
}

// UnmarshalText sets s to the SpeedOfTime named by text, ignoring case.
func (s *SpeedOfTime) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("dcs", "SpeedOfTime", speedOfTimeValues(), text)
	if err != nil {
		return err
	}
	*s = val
	return nil
}
