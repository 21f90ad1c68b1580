//go:build ipopt

package main

import (
	"context"
	"os/exec"

	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/ipopt"
)

// ipoptBackend is IPOPT 3.x with MUMPS through package nlp/ipopt, its
// factorizations counted from its detailed output (CountFactorizations).
// With noTiming it skips print_timing_statistics (no lin. alg. split).
type ipoptBackend struct{ noTiming bool }

var _ untimedBackend = ipoptBackend{}

func (ipoptBackend) name() string { return "ipopt" }

func (b ipoptBackend) solve(ctx context.Context, p nlp.Problem, set nlp.Settings) (*nlp.Result, error) {
	return (&ipopt.Solver{Settings: set, NoTimingStatistics: b.noTiming, CountFactorizations: true}).Solve(ctx, p)
}

func (ipoptBackend) untimed() backend { return ipoptBackend{noTiming: true} }

// comparison returns the IPOPT backend (built with -tags ipopt).
func comparison() backend { return ipoptBackend{} }

// ipoptVersion asks dpkg for the version of the Debian package.
func ipoptVersion() string {
	out, err := exec.Command("dpkg-query", "-W", "-f", "${Version}", "coinor-libipopt-dev").Output()
	if err != nil || len(out) == 0 {
		return "(version unknown)"
	}
	return string(out)
}
