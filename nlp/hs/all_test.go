package hs

import (
	"sync"
	"testing"
)

// AllOnce is All built once for the tests of this binary:
// building it compiles every problem's derivative tapes (about 1 s of
// CPU, half of it problem 391), and the tests only evaluate the problems,
// one at a time.
var AllOnce = sync.OnceValue(All)

// Suite returns the problems that a collection-wide test checks: every
// problem of All (built once, AllOnce), or under -short every fourth in
// the order of All, which samples both collections.
func Suite() []*Problem {
	ps := AllOnce()
	if !testing.Short() {
		return ps
	}
	var out []*Problem
	for i := 0; i < len(ps); i += 4 {
		out = append(out, ps[i])
	}
	return out
}

// TestEntryNames checks that each entry of constructors is named after the
// problem it builds, so that ByName, which goes by the entry's name, gives
// the problem of that name. All builds entry i as its problem i.
func TestEntryNames(t *testing.T) {
	seen := map[string]bool{}
	ps := AllOnce()
	if len(ps) != len(constructors) {
		t.Fatalf("All built %d problems, %d entries", len(ps), len(constructors))
	}
	for i, c := range constructors {
		if p := ps[i]; p.Name != c.name {
			t.Errorf("entry %q builds %q", c.name, p.Name)
		}
		if seen[c.name] {
			t.Errorf("duplicate entry %q", c.name)
		}
		seen[c.name] = true
	}
}
