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
