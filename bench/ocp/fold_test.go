package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFoldFile: results appended to fold.jsonl (as separate processes do)
// are read back in order, a NaN measure as NaN, and fold.md has a row for
// each with its validity and a line of homotopy steps.
func TestFoldFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "fold.jsonl")
	a := foldResult{Candidate: "R6", DCS: "Step", N: foldN, Status: "Invalid", CompRes: 9.5e-6, Drift: 0.043,
		Phantom: num(math.NaN()), Validity: "invalid: drift 4.3e-02 m > 1.0e-03", Iterations: 12345, Steps: "σ=1e+00:Solved/10/1.0e+00"}
	b := foldResult{Candidate: "R4", DCS: "Stewart", N: foldN, Status: "Solved", CompRes: 1e-6, Drift: 1e-4, Phantom: 0, Flights: 3, Landings: 2}
	require.NoError(t, appendFold(name, a))
	require.NoError(t, appendFold(name, b))
	rs, err := readFold(name)
	require.NoError(t, err)
	require.Len(t, rs, 2)
	assert.Equal(t, "R6", rs[0].Candidate)
	assert.Equal(t, 0.043, float64(rs[0].Drift))
	assert.True(t, math.IsNaN(float64(rs[0].Phantom)))
	assert.Equal(t, 3, rs[1].Flights)
	require.NoError(t, writeFoldTable(dir))
	md, err := os.ReadFile(filepath.Join(dir, "fold.md"))
	require.NoError(t, err)
	s := string(md)
	assert.Contains(t, s, "| R6 | Step | Invalid | 9.5e-06 | 0.043 | – | 0 / 0 |")
	assert.Contains(t, s, "| R4 | Stewart | Solved | 1e-06 | 0.0001 | 0 | 3 / 2 |")
	assert.Equal(t, 2, strings.Count(s, "\n- R"), "one steps line per result")
}
