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
