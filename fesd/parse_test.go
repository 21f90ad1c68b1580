package fesd

import (
	"strings"
	"testing"
)

func TestParseCrossComp(t *testing.T) {
	for _, c := range CrossComps() {
		for _, s := range []string{c.String(), strings.ToLower(c.String())} {
			if got, err := ParseCrossComp(s); err != nil || got != c {
				t.Errorf("ParseCrossComp(%q) = %v, %v; want %v", s, got, err, c)
			}
		}
	}
	for _, s := range []string{"", "fe", "fe-fe"} {
		if _, err := ParseCrossComp(s); err == nil {
			t.Errorf("ParseCrossComp(%q): no error", s)
		}
	}
}

func TestParseWhere(t *testing.T) {
	for _, w := range []Where{AtStageEnds, AtElementBoundaries, AtStagePoints} {
		for _, s := range []string{w.String(), strings.ToUpper(w.String())} {
			if got, err := ParseWhere(s); err != nil || got != w {
				t.Errorf("ParseWhere(%q) = %v, %v; want %v", s, got, err, w)
			}
		}
	}
	for _, s := range []string{"", "stage", "Where(7)"} {
		if _, err := ParseWhere(s); err == nil {
			t.Errorf("ParseWhere(%q): no error", s)
		}
	}
}
