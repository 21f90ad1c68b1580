package enumtext

import (
	"strings"
	"testing"
)

type color int

func (c color) String() string { return [...]string{"Red", "GreenBlue"}[c] }

// TestParseMarshal: names match without regard to case, unknown names and
// values are errors that list the valid names.
func TestParseMarshal(t *testing.T) {
	vals := Values[color](2)
	for _, c := range []struct {
		in   string
		want color
	}{{"Red", 0}, {"red", 0}, {"GREENBLUE", 1}, {"greenBlue", 1}} {
		got, err := Parse("x", "color", vals, []byte(c.in))
		if err != nil || got != c.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "green", "Red ", "0"} {
		_, err := Parse("x", "color", vals, []byte(bad))
		if err == nil || !strings.Contains(err.Error(), "Red, GreenBlue") || !strings.HasPrefix(err.Error(), "x: ") {
			t.Errorf("Parse(%q): error %v", bad, err)
		}
	}
	if b, err := Marshal("x", "color", vals, color(1)); err != nil || string(b) != "GreenBlue" {
		t.Errorf("Marshal(1) = %q, %v", b, err)
	}
	if _, err := Marshal("x", "color", vals, color(2)); err == nil {
		t.Error("Marshal(2): no error")
	}
}

func (c color) MarshalText() ([]byte, error) { return Marshal("x", "color", Values[color](2), c) }

func (c *color) UnmarshalText(b []byte) error {
	v, err := Parse("x", "color", Values[color](2), b)
	if err == nil {
		*c = v
	}
	return err
}

// lenient accepts every name, which RoundTrip must catch.
type lenient int

func (l lenient) String() string                { return "L" }
func (l lenient) MarshalText() ([]byte, error)  { return []byte("L"), nil }
func (l *lenient) UnmarshalText(b []byte) error { return nil }

func TestRoundTrip(t *testing.T) {
	if err := RoundTrip(Values[color](2), color(-1)); err != nil {
		t.Error(err)
	}
	if err := RoundTrip(Values[lenient](1), lenient(5)); err == nil {
		t.Error("RoundTrip accepted an UnmarshalText that takes every name")
	}
}
