// Package enum holds what the setting enums of the module share: the
// errors of their text methods. Every enum of packages ad, dcs, rk, fesd,
// mpcc, nlp and nlp/linalg (nlp.MuStrategy, fesd.Scheme, mpcc.Relaxation,
// …) implements encoding.TextMarshaler and encoding.TextUnmarshaler with
// its String names, matched without regard to case, so that programs read
// them with flag.TextVar and encoding/json. A name that is not one of the
// enum's is an error wrapping ErrUnknownName, whose message names the
// package, the type and every valid name; MarshalText of a value outside
// the enum is an error wrapping ErrInvalidValue:
//
//	var s nlp.MuStrategy
//	if err := s.UnmarshalText([]byte("adaptiv")); errors.Is(err, enum.ErrUnknownName) {
//		// err: nlp: unknown MuStrategy "adaptiv" (want one of Monotone, Adaptive)
//	}
package enum

import "errors"

var (
	// ErrUnknownName is wrapped by the error of every UnmarshalText of
	// the module's enums when the text is none of the enum's names.
	ErrUnknownName = errors.New("enum: unknown name")
	// ErrInvalidValue is wrapped by the error of every MarshalText of the
	// module's enums when the value is none of the enum's values.
	ErrInvalidValue = errors.New("enum: invalid value")
)
