package fesd

import "testing"

// CompareBuildsForTest compiles p with the element template and with the
// symbolic expansion and compares the two NLPs (compareNLPs).
func CompareBuildsForTest(t *testing.T, name string, p *OCP, opts Options) {
	a, b := buildBoth(t, p, opts, false)
	compareNLPs(t, name, a.prob, b.prob)
}
