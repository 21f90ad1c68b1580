package dcs

import "testing"

func TestParseFormulation(t *testing.T) {
	for s, want := range map[string]Formulation{"step": Step, "Heaviside": Step, "STEWART": Stewart, "Step": Step} {
		if got, err := ParseFormulation(s); err != nil || got != want {
			t.Errorf("ParseFormulation(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "steps", "hybrid"} {
		if _, err := ParseFormulation(s); err == nil {
			t.Errorf("ParseFormulation(%q): no error", s)
		}
	}
	// Every formulation's own name parses back to it.
	for f := Stewart; f < numFormulations; f++ {
		if got, err := ParseFormulation(f.String()); err != nil || got != f {
			t.Errorf("round trip %v: %v, %v", f, got, err)
		}
	}
}
