//go:build ipopt

package main

import (
	"context"
	"os/exec"

	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/ipopt"
)

// ipoptInner is IPOPT (package nlp/ipopt, MUMPS) as the homotopy's inner
// solver, with the inner settings the native solver would use and the
// same warm starts.
type ipoptInner struct{ set nlp.Settings }

func (s ipoptInner) SolveNLP(ctx context.Context, p nlp.Problem, start *mpcc.WarmStart) (*mpcc.InnerResult, error) {
	set := s.set
	start.Apply(&set)
	res, err := (&ipopt.Solver{Settings: set, NoTimingStatistics: true}).Solve(ctx, p)
	if res == nil {
		return nil, err
	}
	// A cancelled solve comes with its error (wrapping ctx.Err()), as
	// mpcc.InnerSolver asks.
	return &mpcc.InnerResult{Status: res.Status, X: res.X, Y: res.Y, ZL: res.ZL, ZU: res.ZU, Iterations: res.Iterations}, err
}

// ipoptSolver returns the IPOPT inner solver for the inner settings set.
func ipoptSolver(set nlp.Settings) mpcc.InnerSolver { return ipoptInner{set} }

// ipoptVersion asks dpkg for the version of the Debian package.
func ipoptVersion() string {
	out, err := exec.Command("dpkg-query", "-W", "-f", "${Version}", "coinor-libipopt-dev").Output()
	if err != nil || len(out) == 0 {
		return "(version unknown)"
	}
	return string(out)
}
