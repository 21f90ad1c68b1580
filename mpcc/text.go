package mpcc

import "github.com/fesd-go/fesd/internal/enumtext"

// Text form of the enums of package mpcc: MarshalText writes the String,
// UnmarshalText reads it back without regard to case (for flag.TextVar and
// encoding/json); an unknown name is an error that lists the valid ones.

// updateRuleValues lists every UpdateRule.
func updateRuleValues() []UpdateRule { return enumtext.Values[UpdateRule](int(numUpdateRules)) }

// MarshalText returns the name of u; an unknown value is an error.
func (u UpdateRule) MarshalText() ([]byte, error) {
	return enumtext.Marshal("mpcc", "UpdateRule", updateRuleValues(), u)
}

// UnmarshalText sets u to the UpdateRule named by text, ignoring case.
func (u *UpdateRule) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("mpcc", "UpdateRule", updateRuleValues(), text)
	if err != nil {
		return err
	}
	*u = val
	return nil
}

// relaxationValues lists every Relaxation.
func relaxationValues() []Relaxation { return Relaxations() }

// MarshalText returns the name of r; an unknown value is an error.
func (r Relaxation) MarshalText() ([]byte, error) {
	return enumtext.Marshal("mpcc", "Relaxation", relaxationValues(), r)
}

// UnmarshalText sets r to the Relaxation named by text, ignoring case.
func (r *Relaxation) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("mpcc", "Relaxation", relaxationValues(), text)
	if err != nil {
		return err
	}
	*r = val
	return nil
}

// steeringValues lists every Steering.
func steeringValues() []Steering { return Steerings() }

// MarshalText returns the name of s; an unknown value is an error.
func (s Steering) MarshalText() ([]byte, error) {
	return enumtext.Marshal("mpcc", "Steering", steeringValues(), s)
}

// UnmarshalText sets s to the Steering named by text, ignoring case.
func (s *Steering) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("mpcc", "Steering", steeringValues(), text)
	if err != nil {
		return err
	}
	*s = val
	return nil
}

// penaltyScalingValues lists every PenaltyScaling.
func penaltyScalingValues() []PenaltyScaling {
	return enumtext.Values[PenaltyScaling](int(numPenaltyScalings))
}

// MarshalText returns the name of p; an unknown value is an error.
func (p PenaltyScaling) MarshalText() ([]byte, error) {
	return enumtext.Marshal("mpcc", "PenaltyScaling", penaltyScalingValues(), p)
}

// UnmarshalText sets p to the PenaltyScaling named by text, ignoring case.
func (p *PenaltyScaling) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("mpcc", "PenaltyScaling", penaltyScalingValues(), text)
	if err != nil {
		return err
	}
	*p = val
	return nil
}

// statusValues lists every Status.
func statusValues() []Status { return enumtext.Values[Status](int(numStatuses)) }

// MarshalText returns the name of s; an unknown value is an error.
func (s Status) MarshalText() ([]byte, error) {
	return enumtext.Marshal("mpcc", "Status", statusValues(), s)
}

// UnmarshalText sets s to the Status named by text, ignoring case.
func (s *Status) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("mpcc", "Status", statusValues(), text)
	if err != nil {
		return err
	}
	*s = val
	return nil
}

// stationarityValues lists every Stationarity.
func stationarityValues() []Stationarity {
	return enumtext.Values[Stationarity](int(numStationarities))
}

// MarshalText returns the name of s; an unknown value is an error.
func (s Stationarity) MarshalText() ([]byte, error) {
	return enumtext.Marshal("mpcc", "Stationarity", stationarityValues(), s)
}

// UnmarshalText sets s to the Stationarity named by text, ignoring case.
func (s *Stationarity) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("mpcc", "Stationarity", stationarityValues(), text)
	if err != nil {
		return err
	}
	*s = val
	return nil
}

// finishModeValues lists every FinishMode.
func finishModeValues() []FinishMode { return enumtext.Values[FinishMode](int(numFinishModes)) }

// MarshalText returns the name of f; an unknown value is an error.
func (f FinishMode) MarshalText() ([]byte, error) {
	return enumtext.Marshal("mpcc", "FinishMode", finishModeValues(), f)
}

// UnmarshalText sets f to the FinishMode named by text, ignoring case.
func (f *FinishMode) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("mpcc", "FinishMode", finishModeValues(), text)
	if err != nil {
		return err
	}
	*f = val
	return nil
}
