package nlp

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/fesd-go/fesd/nlp/hs"
)

// hsAllOnce is hs.All built once for the tests of this binary: building
// the collection compiles every problem's derivative tapes (about 1 s of
// CPU), and the tests solve and evaluate the problems one at a time
// without changing them.
var hsAllOnce = sync.OnceValue(hs.All)

// hsShortOnce is the problems of the collection whose number is a
// multiple of three (of the book's 1–119 and the second collection's
// 201–395), built once by hs.ByName without building the others.
var hsShortOnce = sync.OnceValue(func() []*hs.Problem {
	var out []*hs.Problem
	for _, r := range [][2]int{{3, 119}, {201, 395}} {
		for i := r[0]; i <= r[1]; i += 3 {
			p, err := hs.ByName(fmt.Sprintf("hs%03d", i))
			if errors.Is(err, hs.ErrUnknown) {
				continue
			}
			if err != nil {
				panic(err)
			}
			out = append(out, p)
		}
	}
	return out
})

// HSSuite returns the Hock–Schittkowski problems that a collection-wide
// test solves: every problem of hs.All (built once, hsAllOnce), or under
// -short those numbered by a multiple of three (hsShortOnce), which
// samples both of Schittkowski's collections.
func HSSuite() []*hs.Problem {
	if !testing.Short() {
		return hsAllOnce()
	}
	return hsShortOnce()
}
