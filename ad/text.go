package ad

import (
	"fmt"

	"github.com/fesd-go/fesd/internal/enumtext"
)

// Text form of the enums of package ad: MarshalText writes the String,
// UnmarshalText reads it back without regard to case (for flag.TextVar and
// encoding/json); an unknown name is an error that lists the valid ones.

var modeNames = [...]string{Auto: "Auto", Forward: "Forward", Reverse: "Reverse"}

// String returns the name of the mode.
func (m Mode) String() string {
	if m < 0 || int(m) >= len(modeNames) {
		return fmt.Sprintf("Mode(%d)", int(m))
	}
	return modeNames[m]
}

// modeValues lists every Mode.
func modeValues() []Mode { return enumtext.Values[Mode](len(modeNames)) }

// MarshalText returns the name of m; an unknown value is an error.
func (m Mode) MarshalText() ([]byte, error) {
	return enumtext.Marshal("ad", "Mode", modeValues(), m)
}

// UnmarshalText sets m to the Mode named by text, ignoring case.
func (m *Mode) UnmarshalText(text []byte) error {
	val, err := enumtext.Parse("ad", "Mode", modeValues(), text)
	if err != nil {
		return err
	}
	*m = val
	return nil
}
