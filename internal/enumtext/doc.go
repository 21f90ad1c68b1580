// Package enumtext implements the text form of the module's integer enums
// (encoding.TextMarshaler and encoding.TextUnmarshaler, so that programs
// parse them with flag.TextVar and encoding/json writes names) from their
// String methods: a value's text is its String, matched without regard to
// case.
//
// A package declares its enum as an int type with a String method and the
// list of its values, and implements the two methods by delegation:
//
//	func (c Color) MarshalText() ([]byte, error) { return enumtext.Marshal("pkg", "color", colors, c) }
//	func (c *Color) UnmarshalText(b []byte) error {
//		v, err := enumtext.Parse("pkg", "color", colors, b)
//		if err == nil {
//			*c = v
//		}
//		return err
//	}
//
// RoundTrip is the shared table test of those methods.
package enumtext
