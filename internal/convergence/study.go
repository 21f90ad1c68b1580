package convergence

import (
	"fmt"
	"sort"

	"github.com/fesd-go/fesd/rk"
)

// Case is one simulation of a study.
type Case struct {
	Family rk.Family
	Stages int  // n_s
	FESD   bool // false: standard time stepping
	NSim   int  // simulation steps
}

// String describes the case in fixed-width columns, for a progress line.
func (c Case) String() string {
	return fmt.Sprintf("%-14s n_s=%d fesd=%-5v N_sim=%-4d", SchemeName(c.Family), c.Stages, c.FESD, c.NSim)
}

// Grid enumerates the cases in a fixed order: scheme, n_s, FESD, N_sim.
func Grid(schemes []rk.Family, stages []int, fesd []bool, nsim []int) []Case {
	var out []Case
	for _, f := range schemes {
		for _, ns := range stages {
			for _, fe := range fesd {
				for _, n := range nsim {
					out = append(out, Case{Family: f, Stages: ns, FESD: fe, NSim: n})
				}
			}
		}
	}
	return out
}

// Check returns the error of the first case whose scheme rk cannot build.
func Check(cases []Case) error {
	for _, c := range cases {
		if _, err := rk.New(c.Family, c.Stages); err != nil {
			return err
		}
	}
	return nil
}

// SchemeName is the name of a scheme family in the outputs: "radau_iia",
// "gauss_legendre", or rk's name of another family.
func SchemeName(f rk.Family) string {
	switch f {
	case rk.FamilyRadauIIA:
		return "radau_iia"
	case rk.FamilyGaussLegendre:
		return "gauss_legendre"
	}
	return f.String()
}

// SchemeTitle is the name of a scheme family (as SchemeName gives it) in
// plot titles.
func SchemeTitle(name string) string {
	switch name {
	case "radau_iia":
		return "Radau IIA"
	case "gauss_legendre":
		return "Gauss–Legendre"
	}
	return name
}

// Curve identifies the cases of a study that differ only in N_sim.
type Curve struct {
	Scheme string `json:"scheme"` // SchemeName of the family
	NS     int    `json:"ns"`
	Order  int    `json:"order"` // of the scheme
	FESD   bool   `json:"fesd"`
}

// Point is a simulation's place on its curve.
type Point struct {
	NSim int `json:"nsim"`
	// H is the nominal element length h̄ = T_sim/(N_sim·N_FE).
	H float64 `json:"h"`
	// HMax is the longest finite element of the run (FESD moves the
	// element boundaries; for standard time stepping HMax = H); 0 when
	// the simulation failed.
	HMax float64 `json:"h_max,omitempty"`
	// Error is nil when the simulation failed.
	Error *float64 `json:"error"`
}

// Outcome is how a simulation went.
type Outcome struct {
	// Status is "ok", possibly with a remark, for a simulation that
	// succeeded, and says why otherwise.
	Status     string  `json:"status"`
	Seconds    float64 `json:"seconds"` // wall time
	Iterations int     `json:"nlp_iterations"`
}

func (p Point) point() Point       { return p }
func (o Outcome) outcome() Outcome { return o }

// Sample is a simulation as this package reads it. A type is a Sample by
// embedding Point and Outcome.
type Sample interface {
	point() Point
	outcome() Outcome
}

// Group collects samples[i], the result of cases[i], into curves, in the
// order in which the curves first appear in cases. The cases must pass
// Check.
func Group[S any](cases []Case, samples []S) ([]Curve, [][]S) {
	var curves []Curve
	var points [][]S
	index := map[Curve]int{}
	for i, c := range cases {
		tab, _ := rk.New(c.Family, c.Stages)
		cv := Curve{Scheme: SchemeName(c.Family), NS: c.Stages, Order: tab.Order, FESD: c.FESD}
		k, ok := index[cv]
		if !ok {
			k = len(curves)
			index[cv] = k
			curves = append(curves, cv)
			points = append(points, nil)
		}
		points[k] = append(points[k], samples[i])
	}
	return curves, points
}

// SortByH sorts the samples of a curve by decreasing nominal h̄ (the
// coarsest first), keeping the order of equal ones.
func SortByH[S Sample](pts []S) {
	sort.SliceStable(pts, func(a, b int) bool { return pts[a].point().H > pts[b].point().H })
}
