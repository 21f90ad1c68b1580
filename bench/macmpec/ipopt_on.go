//go:build ipopt

package main

import (
	"context"
	"os/exec"

	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/ipopt"
)

// ipoptInner is IPOPT 3.x with MUMPS (package nlp/ipopt) as the homotopy's
// inner solver, started exactly as mpcc.NLPSolver starts nlp.Solver (warm
// start with multipliers, MuInit from the homotopy).
type ipoptInner struct{ set nlp.Settings }

var _ mpcc.InnerSolver = (*ipoptInner)(nil)

func (s *ipoptInner) SolveNLP(ctx context.Context, p nlp.Problem, start *mpcc.WarmStart) (*mpcc.InnerResult, error) {
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

// comparison returns the IPOPT side (built with -tags ipopt).
func comparison() *side {
	return &side{Name: "ipopt", inner: func(set nlp.Settings) mpcc.InnerSolver { return &ipoptInner{set: set} }}
}

// ipoptVersion asks dpkg for the version of the Debian package.
func ipoptVersion() string {
	out, err := exec.Command("dpkg-query", "-W", "-f", "${Version}", "coinor-libipopt-dev").Output()
	if err != nil || len(out) == 0 {
		return "(version unknown)"
	}
	return string(out)
}
