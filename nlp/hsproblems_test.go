package nlp

import (
	"sync"
	"testing"

	"github.com/fesd-go/fesd/nlp/hs"
)

// hsAllOnce is hs.All built once for the tests of this binary: building
// the collection compiles every problem's derivative tapes (about 1 s of
// CPU), and the tests solve and evaluate the problems one at a time
// without changing them.
var hsAllOnce = sync.OnceValue(hs.All)

// HSSuite returns the Hock–Schittkowski problems that a collection-wide
// test solves: every problem of hs.All (built once, hsAllOnce), or under
// -short every third in the order of hs.All, which samples both of
// Schittkowski's collections.
func HSSuite() []*hs.Problem {
	ps := hsAllOnce()
	if !testing.Short() {
		return ps
	}
	var out []*hs.Problem
	for i := 0; i < len(ps); i += 3 {
		out = append(out, ps[i])
	}
	return out
}
