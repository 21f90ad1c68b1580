package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTurboCarRow runs one row end to end: the time-optimal turbo car with
// v ≤ 25 reaches the optimum of its discrete control structure,
// T_f = (√58225 − 25)/18 (examples/turbocar's closed form for N = 10),
// and the report files are written.
func TestTurboCarRow(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-rows", "turbo car", "-out", dir}, &out))
	b, err := os.ReadFile(filepath.Join(dir, "bench.json"))
	require.NoError(t, err)
	var rep Report
	require.NoError(t, json.Unmarshal(b, &rep))
	require.NotEmpty(t, rep.Results)
	r := rep.Results[0]
	assert.Equal(t, "native", r.Solver)
	assert.True(t, r.Met, "status %s, comp %g, violation %g", r.Status, r.CompResidual, r.Violation)
	assert.InDelta(t, 12.01664, float64(r.Objective), 1e-4)
	assert.Less(t, float64(r.Terminal), 1e-6)
	md, err := os.ReadFile(filepath.Join(dir, "bench.md"))
	require.NoError(t, err)
	assert.Contains(t, string(md), "1 of 1 rows met")
}

// TestFlags: -h is not an error for main (report.IsHelp), stray
// arguments are.
func TestFlags(t *testing.T) {
	var out bytes.Buffer
	assert.Error(t, run(context.Background(), []string{"extra"}, &out))
	err := run(context.Background(), []string{"-h"}, &out)
	assert.Error(t, err)
}

// TestNumJSON: NaN and ±Inf (a terminal error that means nothing for the
// row) are written as null and read back as NaN; numbers round-trip.
func TestNumJSON(t *testing.T) {
	b, err := json.Marshal([]num{num(math.NaN()), num(math.Inf(1)), 1.5})
	require.NoError(t, err)
	assert.Equal(t, "[null,null,1.5]", string(b))
	var back []num
	require.NoError(t, json.Unmarshal(b, &back))
	assert.True(t, math.IsNaN(float64(back[0])))
	assert.Equal(t, num(1.5), back[2])
}

// TestFigure10Table: fig10.md and the Figure 10 plot from the monopod rows
// of a report (no solve: two rows as bench.json has them); each row gets
// the paper's values for its N and mode (paperFig10, N = 30: Step 360 s
// and 0.058 s per iteration, Stewart 230 s) and its validity verdict, and a
// row of another family is left out.
func TestFigure10Table(t *testing.T) {
	rep := &Report{Date: "today", Machine: "test", Results: []Result{
		{Row: "monopod N = 30 Step", Family: "Step", N: 30, Solver: "native", Status: "Invalid",
			Validity: "invalid: drift", CompResidual: 9.7e-7, Iterations: 5647, CPU: 125, CPUPerIter: 22.1},
		{Row: "monopod N = 30 Stewart", Family: "Stewart", N: 30, Solver: "native", Status: "SigmaLimit",
			Validity: "valid", CompResidual: 2e-5, Iterations: 3000, CPU: 90, CPUPerIter: 30},
		{Row: "turbo car", Solver: "native", Status: "Solved", Iterations: 40, CPU: 1},
	}}
	md := rep.figure10Table()
	assert.Contains(t, md, "| 30 | Step | native | Invalid | invalid: drift | 9.7e-07 | 5647 | 125.0 | 22.10 | 360 | 58 |")
	assert.Contains(t, md, "| 30 | Stewart | native | SigmaLimit | valid | 2e-05 | 3000 | 90.0 | 30.00 | 230 | 78 |")
	assert.NotContains(t, md, "turbo")
	files, err := rep.figure10(filepath.Join(t.TempDir(), "fig10"))
	require.NoError(t, err)
	assert.Len(t, files, 2)
}
