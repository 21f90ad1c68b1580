package fesd

import "github.com/fesd-go/fesd/internal/enumtext"

// Text form of the enums of package fesd: MarshalText writes the String,
// UnmarshalText reads it back without regard to case (for flag.TextVar and
// encoding/json); an unknown name is an error that lists the valid ones.

// representationValues lists every Representation.
func representationValues() []Representation { return []Representation{Integral, Differential} }

// MarshalText returns the name of r; an unknown value is an error.
func (r Representation) MarshalText() ([]byte, error) {
	return enumtext.Marshal("fesd", "Representation", representationValues(), r)
}

// UnmarshalText sets r to the Representation named by text, ignoring case.
func (r *Representation) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("fesd", "Representation", representationValues(), text)
	if err != nil {
		return err
	}
	*r = val
	return nil
}

// crossCompValues lists every CrossComp.
func crossCompValues() []CrossComp { return CrossComps() }

// MarshalText returns the name of c; an unknown value is an error.
func (c CrossComp) MarshalText() ([]byte, error) {
	return enumtext.Marshal("fesd", "CrossComp", crossCompValues(), c)
}

// UnmarshalText sets c to the CrossComp named by text, ignoring case.
func (c *CrossComp) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("fesd", "CrossComp", crossCompValues(), text)
	if err != nil {
		return err
	}
	*c = val
	return nil
}

// stepEquilibrationValues lists every StepEquilibration.
func stepEquilibrationValues() []StepEquilibration { return StepEquilibrations() }

// MarshalText returns the name of s; an unknown value is an error.
func (s StepEquilibration) MarshalText() ([]byte, error) {
	return enumtext.Marshal("fesd", "StepEquilibration", stepEquilibrationValues(), s)
}

// UnmarshalText sets s to the StepEquilibration named by text, ignoring case.
func (s *StepEquilibration) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("fesd", "StepEquilibration", stepEquilibrationValues(), text)
	if err != nil {
		return err
	}
	*s = val
	return nil
}

// whereValues lists every Where.
func whereValues() []Where { return []Where{AtStageEnds, AtElementBoundaries, AtStagePoints} }

// MarshalText returns the name of w; an unknown value is an error.
func (w Where) MarshalText() ([]byte, error) {
	return enumtext.Marshal("fesd", "Where", whereValues(), w)
}

// UnmarshalText sets w to the Where named by text, ignoring case.
func (w *Where) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("fesd", "Where", whereValues(), text)
	if err != nil {
		return err
	}
	*w = val
	return nil
}

// speedOfTimeValues lists every SpeedOfTime.
func speedOfTimeValues() []SpeedOfTime {
	return []SpeedOfTime{NoSpeedOfTime, GlobalSpeedOfTime, StageSpeedOfTime}
}

// MarshalText returns the name of s; an unknown value is an error.
func (s SpeedOfTime) MarshalText() ([]byte, error) {
	return enumtext.Marshal("fesd", "SpeedOfTime", speedOfTimeValues(), s)
}

// UnmarshalText sets s to the SpeedOfTime named by text, ignoring case.
func (s *SpeedOfTime) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("fesd", "SpeedOfTime", speedOfTimeValues(), text)
	if err != nil {
		return err
	}
	*s = val
	return nil
}

// sideValues lists every Side.
func sideValues() []Side { return []Side{SideUnknown, SideNegative, SidePositive, SideSurface} }

// MarshalText returns the name of s; an unknown value is an error.
func (s Side) MarshalText() ([]byte, error) {
	return enumtext.Marshal("fesd", "Side", sideValues(), s)
}

// UnmarshalText sets s to the Side named by text, ignoring case.
func (s *Side) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("fesd", "Side", sideValues(), text)
	if err != nil {
		return err
	}
	*s = val
	return nil
}

// switchKindValues lists every SwitchKind.
func switchKindValues() []SwitchKind {
	return []SwitchKind{Crossing, EnteringSliding, LeavingSliding, Spontaneous}
}

// MarshalText returns the name of s; an unknown value is an error.
func (s SwitchKind) MarshalText() ([]byte, error) {
	return enumtext.Marshal("fesd", "SwitchKind", switchKindValues(), s)
}

// UnmarshalText sets s to the SwitchKind named by text, ignoring case.
func (s *SwitchKind) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("fesd", "SwitchKind", switchKindValues(), text)
	if err != nil {
		return err
	}
	*s = val
	return nil
}
