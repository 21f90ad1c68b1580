package nlp

import "github.com/fesd-go/fesd/internal/enumtext"

// Text form of the enums of package nlp: MarshalText writes the String,
// UnmarshalText reads it back without regard to case (for flag.TextVar and
// encoding/json); an unknown name is an error that lists the valid ones.

// muStrategyValues lists every MuStrategy.
func muStrategyValues() []MuStrategy { return enumtext.Values[MuStrategy](len(muStrategyNames)) }

// MarshalText returns the name of m; an unknown value is an error.
func (m MuStrategy) MarshalText() ([]byte, error) {
	return enumtext.Marshal("nlp", "MuStrategy", muStrategyValues(), m)
}

// UnmarshalText sets m to the MuStrategy named by text, ignoring case.
func (m *MuStrategy) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("nlp", "MuStrategy", muStrategyValues(), text)
	if err != nil {
		return err
	}
	*m = val
	return nil
}

// muOracleValues lists every MuOracle.
func muOracleValues() []MuOracle { return enumtext.Values[MuOracle](len(muOracleNames)) }

// MarshalText returns the name of m; an unknown value is an error.
func (m MuOracle) MarshalText() ([]byte, error) {
	return enumtext.Marshal("nlp", "MuOracle", muOracleValues(), m)
}

// UnmarshalText sets m to the MuOracle named by text, ignoring case.
func (m *MuOracle) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("nlp", "MuOracle", muOracleValues(), text)
	if err != nil {
		return err
	}
	*m = val
	return nil
}

// linearSolverKindValues lists every LinearSolverKind.
func linearSolverKindValues() []LinearSolverKind {
	return enumtext.Values[LinearSolverKind](len(linearSolverNames))
}

// MarshalText returns the name of l; an unknown value is an error.
func (l LinearSolverKind) MarshalText() ([]byte, error) {
	return enumtext.Marshal("nlp", "LinearSolverKind", linearSolverKindValues(), l)
}

// UnmarshalText sets l to the LinearSolverKind named by text, ignoring case.
func (l *LinearSolverKind) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("nlp", "LinearSolverKind", linearSolverKindValues(), text)
	if err != nil {
		return err
	}
	*l = val
	return nil
}

// orderingValues lists every Ordering.
func orderingValues() []Ordering { return enumtext.Values[Ordering](len(orderingNames)) }

// MarshalText returns the name of o; an unknown value is an error.
func (o Ordering) MarshalText() ([]byte, error) {
	return enumtext.Marshal("nlp", "Ordering", orderingValues(), o)
}

// UnmarshalText sets o to the Ordering named by text, ignoring case.
func (o *Ordering) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("nlp", "Ordering", orderingValues(), text)
	if err != nil {
		return err
	}
	*o = val
	return nil
}

// inertiaPolicyValues lists every InertiaPolicy.
func inertiaPolicyValues() []InertiaPolicy { return enumtext.Values[InertiaPolicy](len(inertiaTable)) }

// MarshalText returns the name of i; an unknown value is an error.
func (i InertiaPolicy) MarshalText() ([]byte, error) {
	return enumtext.Marshal("nlp", "InertiaPolicy", inertiaPolicyValues(), i)
}

// UnmarshalText sets i to the InertiaPolicy named by text, ignoring case.
func (i *InertiaPolicy) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("nlp", "InertiaPolicy", inertiaPolicyValues(), text)
	if err != nil {
		return err
	}
	*i = val
	return nil
}

// statusValues lists every Status.
func statusValues() []Status { return enumtext.Values[Status](len(statusTable)) }

// MarshalText returns the name of s; an unknown value is an error.
func (s Status) MarshalText() ([]byte, error) {
	return enumtext.Marshal("nlp", "Status", statusValues(), s)
}

// UnmarshalText sets s to the Status named by text, ignoring case.
func (s *Status) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("nlp", "Status", statusValues(), text)
	if err != nil {
		return err
	}
	*s = val
	return nil
}

// derivativeTestValues lists every DerivativeTest.
func derivativeTestValues() []DerivativeTest {
	return enumtext.Values[DerivativeTest](len(derivativeTestNames))
}

// MarshalText returns the name of d; an unknown value is an error.
func (d DerivativeTest) MarshalText() ([]byte, error) {
	return enumtext.Marshal("nlp", "DerivativeTest", derivativeTestValues(), d)
}

// UnmarshalText sets d to the DerivativeTest named by text, ignoring case.
func (d *DerivativeTest) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("nlp", "DerivativeTest", derivativeTestValues(), text)
	if err != nil {
		return err
	}
	*d = val
	return nil
}
