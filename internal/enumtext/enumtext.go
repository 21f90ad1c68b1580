package enumtext

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fesd-go/fesd/enum"
)

// textError is an error of Parse or Marshal: its own message (which names
// the package, the type and the valid names) wrapping a sentinel of
// package enum.
type textError struct {
	msg      string
	sentinel error
}

func (e *textError) Error() string { return e.msg }
func (e *textError) Unwrap() error { return e.sentinel }

// Enum is an integer enum with a String method.
type Enum interface {
	~int | ~int8
	String() string
}

// Values returns the n values 0, 1, …, n−1 of T.
func Values[T ~int | ~int8](n int) []T {
	v := make([]T, n)
	for i := range v {
		v[i] = T(i)
	}
	return v
}

// Parse returns the value among values whose String equals text, ignoring
// case. The error names the package pkg, the type kind and every valid name
// and wraps enum.ErrUnknownName.
func Parse[T Enum](pkg, kind string, values []T, text []byte) (T, error) {
	s := string(text)
	for _, v := range values {
		if strings.EqualFold(v.String(), s) {
			return v, nil
		}
	}
	var zero T
	return zero, &textError{fmt.Sprintf("%s: unknown %s %q (want one of %s)", pkg, kind, s, names(values)), enum.ErrUnknownName}
}

// Marshal returns the String of v, or an error wrapping
// enum.ErrInvalidValue if v is not among values.
func Marshal[T Enum](pkg, kind string, values []T, v T) ([]byte, error) {
	for _, w := range values {
		if w == v {
			return []byte(v.String()), nil
		}
	}
	return nil, &textError{fmt.Sprintf("%s: invalid %s %d (want one of %s)", pkg, kind, int(v), names(values)), enum.ErrInvalidValue}
}

func names[T Enum](values []T) string {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = v.String()
	}
	return strings.Join(s, ", ")
}

// Text is an Enum with the text methods.
type Text interface {
	Enum
	MarshalText() ([]byte, error)
}

// Unmarshaler is the pointer type of T with UnmarshalText.
type Unmarshaler[T any] interface {
	*T
	UnmarshalText([]byte) error
}

// RoundTrip checks the text methods of an enum for the tests of the
// packages that use this one: every value's MarshalText is its String and
// UnmarshalText gives the value back from that name in any case; an unknown
// name and the value invalid are errors wrapping enum.ErrUnknownName and
// enum.ErrInvalidValue. It returns the first failure.
func RoundTrip[T Text, P Unmarshaler[T]](values []T, invalid T) error {
	for _, v := range values {
		b, err := v.MarshalText()
		if err != nil || string(b) != v.String() {
			return fmt.Errorf("%T(%d).MarshalText() = %q, %v; want %q", v, int(v), b, err, v.String())
		}
		for _, s := range []string{v.String(), strings.ToUpper(v.String()), strings.ToLower(v.String())} {
			var got T
			if err := P(&got).UnmarshalText([]byte(s)); err != nil || got != v {
				return fmt.Errorf("%T.UnmarshalText(%q) = %v, %v; want %v", v, s, got, err, v)
			}
		}
	}
	var got T
	if err := P(&got).UnmarshalText([]byte("no such name")); !errors.Is(err, enum.ErrUnknownName) {
		return fmt.Errorf("%T.UnmarshalText(\"no such name\"): error %v, want enum.ErrUnknownName", got, err)
	}
	if err := P(&got).UnmarshalText(nil); !errors.Is(err, enum.ErrUnknownName) {
		return fmt.Errorf("%T.UnmarshalText(\"\"): error %v, want enum.ErrUnknownName", got, err)
	}
	if b, err := invalid.MarshalText(); !errors.Is(err, enum.ErrInvalidValue) {
		return fmt.Errorf("%T(%d).MarshalText() = %q, %v; want enum.ErrInvalidValue", invalid, int(invalid), b, err)
	}
	return nil
}
