// Package testgc raises the garbage collector's target for the test
// binaries that import it (for its side effect): GOGC = Percent instead of
// Go's default 100, unless GOGC is set in the environment.
//
// The tests of fesd, nlp, dcs, the examples and the benchmarks build and
// solve many small NLPs whose short-lived slices keep the collector busy:
// with GOGC = 100 it takes about a fifth of a test binary's CPU time
// (fesd under go test -short: 15.9 s CPU with GOGC = 100, 12.7 s with 400,
// peak resident memory 60 and 77 MB; 0.1–0.4 s per binary for the smaller
// packages). It changes no result: allocation counts (testing.AllocsPerRun)
// do not depend on it. Library and program code never imports it.
package testgc

import (
	"os"
	"runtime/debug"
)

// Percent is the GOGC value the importing test binaries run with.
const Percent = 400

func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
}
