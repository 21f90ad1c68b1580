package hs

import "testing"

// TestEntryNames checks that each entry of constructors is named after the
// problem it builds, so that ByName, which goes by the entry's name, gives
// the problem of that name.
func TestEntryNames(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range constructors {
		if p := c.new(); p.Name != c.name {
			t.Errorf("entry %q builds %q", c.name, p.Name)
		}
		if seen[c.name] {
			t.Errorf("duplicate entry %q", c.name)
		}
		seen[c.name] = true
	}
}
