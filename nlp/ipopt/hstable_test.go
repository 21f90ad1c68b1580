//go:build ipopt

package ipopt

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/nlp"
	"github.com/fesd-go/fesd/nlp/hs"
)

// hsReached reports whether a result reaches the published optimum of p:
// a successful status and |f − f*| ≤ 1e-6·max(1, |f*|), with f evaluated
// at the solution projected onto the variable bounds (both solvers relax
// the bounds by 10⁻⁸ relative, which moves f by more than 10⁻⁶ on
// problems 95–98). It returns that f.
func hsReached(p *hs.Problem, r *nlp.Result) (float64, bool) {
	n, m := p.Dims()
	xl, xu := make([]float64, n), make([]float64, n)
	p.Bounds(xl, xu, make([]float64, m), make([]float64, m))
	y := make([]float64, n)
	for i := range y {
		y[i] = math.Min(math.Max(r.X[i], xl[i]), xu[i])
	}
	f, err := p.Objective(y)
	return f, err == nil && r.Status.Success() && math.Abs(f-p.FStar) <= 1e-6*math.Max(1, math.Abs(p.FStar))
}

// ipoptOnly lists the problems on which IPOPT 3.11.9 reaches f* and
// nlp.Solver does not, with the cause found (see nlp's knownFailures and
// knownLocal): they are the open cases of the comparison.
var ipoptOnly = map[string]string{}

// TestHSTable runs IPOPT and nlp.Solver, both with default settings, on
// every problem of package hs from the published starting point and logs a
// side-by-side table (status, f at the solution projected onto the bounds,
// iterations). Reference: the published
// optimal values f* of Hock & Schittkowski (1981) in package hs (each
// problem's Source). It fails when IPOPT reaches f* (to 1e-6 relative) on
// a problem where nlp.Solver does not, unless the problem is one of the
// documented open cases of ipoptOnly.
func TestHSTable(t *testing.T) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-6s %4s %4s  %-28s %16s %5s  %-16s %16s %5s\n", "name", "n", "m",
		"IPOPT status", "f", "iter", "nlp status", "f", "iter")
	var both, onlyIpopt, onlyOurs, neither int
	var lost []string
	for _, p := range hs.All() {
		ri, rs, err := (&Solver{}).SolveStatus(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: ipopt: %v", p.Name, err)
		}
		q, _ := hs.ByName(p.Name)
		rn, err := (&nlp.Solver{}).Solve(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: nlp: %v", p.Name, err)
		}
		fi, oi := hsReached(p, ri)
		fn, on := hsReached(q, rn)
		mark := func(ok bool) string {
			if ok {
				return "*"
			}
			return " "
		}
		fmt.Fprintf(&b, "%-6s %4d %4d  %-28s %16.9g%s %5d  %-16v %16.9g%s %5d\n", p.Name, p.N, p.M,
			rs, fi, mark(oi), ri.Iterations, rn.Status, fn, mark(on), rn.Iterations)
		switch {
		case oi && on:
			both++
		case oi:
			onlyIpopt++
			lost = append(lost, p.Name)
		case on:
			onlyOurs++
		default:
			neither++
		}
	}
	fmt.Fprintf(&b, "(* = f within 1e-6 relative of the published f*)\n")
	t.Log(b.String())
	t.Logf("%d problems: f* reached by both %d, by IPOPT only %d %v, by nlp only %d, by neither %d",
		len(hs.All()), both, onlyIpopt, lost, onlyOurs, neither)
	for _, name := range lost {
		if why, ok := ipoptOnly[name]; ok {
			t.Logf("%s: open: %s", name, why)
		} else {
			t.Errorf("IPOPT reaches f* on %s, nlp.Solver does not", name)
		}
	}
}
