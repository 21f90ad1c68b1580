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

// shortOnce is every fourth problem in the order of All, built once
// without building the others (problem 391 is not among them).
var shortOnce = sync.OnceValue(func() []*Problem {
	var out []*Problem
	for i := 0; i < len(constructors); i += 4 {
		out = append(out, constructors[i].new())
	}
	return out
})

// NumEntries is the number of problems All builds (checked by
// TestEntryNames in the full run).
func NumEntries() int { return len(constructors) }

// Suite returns the problems that a collection-wide test checks: every
// problem of All (built once, AllOnce), or under -short every fourth in
// the order of All, which samples both collections (built once, shortOnce,
// without the others).
func Suite() []*Problem {
	if !testing.Short() {
		return AllOnce()
	}
	return shortOnce()
}

// TestEntryNames checks that each entry of constructors is named after the
// problem it builds, so that ByName, which goes by the entry's name, gives
// the problem of that name. All builds entry i as its problem i. Under
// -short every fourth entry (Suite's) is built; the names of all are
// checked for duplicates.
func TestEntryNames(t *testing.T) {
	seen := map[string]bool{}
	if !testing.Short() {
		if ps := AllOnce(); len(ps) != len(constructors) {
			t.Fatalf("All built %d problems, %d entries", len(ps), len(constructors))
		}
	}
	ps, every := Suite(), 1
	if testing.Short() {
		every = 4
	}
	for i, c := range constructors {
		if i%every == 0 {
			if p := ps[i/every]; p.Name != c.name {
				t.Errorf("entry %q builds %q", c.name, p.Name)
			}
		}
		if seen[c.name] {
			t.Errorf("duplicate entry %q", c.name)
		}
		seen[c.name] = true
	}
}
