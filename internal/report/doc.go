// Package report holds the small output helpers shared by the example
// programs of fesd: an output folder, indented JSON, CSV tables of float64
// written at full precision, plots saved as PNG and SVG side by side, a
// line-plot builder (named series, optional log axes, reference lines,
// vertical lines at switch times), and the switches of a simulation in the
// common JSON/CSV shape
//
//	"switches": [{"t": 0.3333333333333333, "psi": 0, "kind": "crossing"}, …]
//
// where psi is the 0-based index of the switching function in the order of
// dcs.Model.EvalPsi (the ψ of every subsystem in order, then those of the
// general steps) and kind is one of "crossing", "entering_sliding",
// "leaving_sliding", "spontaneous" (fesd.SwitchKind in lowercase words joined
// by underscores).
//
// Numbers in CSV files are written with strconv.FormatFloat(v, 'g', -1, 64):
// the shortest text that parses back to the same float64, so a CSV round
// trip is exact. NaN and ±Inf are written as "NaN", "+Inf", "-Inf", which
// strconv.ParseFloat reads back.
//
// Plots use go-hep.org/x/hep/hplot on top of gonum.org/v1/plot. A log axis
// of gonum/plot panics on a value ≤ 0, so LinePlot drops such points (and
// non-finite points, which gonum/plot rejects) before it adds a series, and
// leaves out reference lines that cannot be drawn on a log axis.
//
// The package is for programs: it writes files and returns errors, and
// prints nothing.
package report
