package report

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// ErrShape reports rows or columns whose lengths do not match the header.
var ErrShape = errors.New("report: table shape mismatch")

// MakeDir creates the output folder dir and its parents (like mkdir -p) and
// returns dir. An empty dir is an error.
func MakeDir(dir string) (string, error) {
	if dir == "" {
		return "", errors.New("report: empty output directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	return dir, nil
}

// FormatFloat formats v with the fewest digits that parse back to v
// (strconv 'g', precision −1).
func FormatFloat(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// WriteJSON writes v as indented JSON (two spaces) with a final newline to
// path. NaN and ±Inf cannot be encoded in JSON; use a pointer or omit them.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("report: %s: %w", path, err)
	}
	b = append(b, '\n')
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// WriteCSV writes a header line and one line per row of float64 values to
// path. Every row must have len(header) values (ErrShape otherwise).
func WriteCSV(path string, header []string, rows [][]float64) error {
	for i, r := range rows {
		if len(r) != len(header) {
			return fmt.Errorf("%w: %s: row %d has %d values, header %d", ErrShape, filepath.Base(path), i, len(r), len(header))
		}
	}
	rec := make([]string, len(header))
	return writeCSV(path, header, len(rows), func(i int) []string {
		for j, v := range rows[i] {
			rec[j] = FormatFloat(v)
		}
		return rec
	})
}

// WriteColumnsCSV writes columns of equal length under header to path:
// line i holds cols[0][i], cols[1][i], …. There must be one column per
// header name, all of the same length (ErrShape otherwise).
func WriteColumnsCSV(path string, header []string, cols ...[]float64) error {
	if len(cols) != len(header) {
		return fmt.Errorf("%w: %s: %d columns, header %d", ErrShape, filepath.Base(path), len(cols), len(header))
	}
	n := 0
	if len(cols) > 0 {
		n = len(cols[0])
	}
	for j, c := range cols {
		if len(c) != n {
			return fmt.Errorf("%w: %s: column %q has %d values, column %q %d", ErrShape, filepath.Base(path), header[j], len(c), header[0], n)
		}
	}
	rec := make([]string, len(header))
	return writeCSV(path, header, n, func(i int) []string {
		for j, c := range cols {
			rec[j] = FormatFloat(c[i])
		}
		return rec
	})
}

// WriteTrajectoryCSV writes a trajectory to path: a column "t" (or
// timeName if not empty) followed by one column per state named by names
// (x0, x1, … when names is nil). x[i] is the state at t[i].
func WriteTrajectoryCSV(path, timeName string, names []string, t []float64, x [][]float64) error {
	if len(x) != len(t) {
		return fmt.Errorf("%w: %s: %d times, %d states", ErrShape, filepath.Base(path), len(t), len(x))
	}
	nx := len(names)
	if names == nil && len(x) > 0 {
		nx = len(x[0])
	}
	if timeName == "" {
		timeName = "t"
	}
	header := []string{timeName}
	for i := range nx {
		if names != nil {
			header = append(header, names[i])
		} else {
			header = append(header, "x"+strconv.Itoa(i))
		}
	}
	rows := make([][]float64, len(t))
	for i := range t {
		if len(x[i]) != nx {
			return fmt.Errorf("%w: %s: state %d has %d components, want %d", ErrShape, filepath.Base(path), i, len(x[i]), nx)
		}
		rows[i] = append([]float64{t[i]}, x[i]...)
	}
	return WriteCSV(path, header, rows)
}

// WriteTableCSV writes a header and rows of strings (already formatted) to
// path. Every row must have len(header) fields (ErrShape otherwise).
func WriteTableCSV(path string, header []string, rows [][]string) error {
	for i, r := range rows {
		if len(r) != len(header) {
			return fmt.Errorf("%w: %s: row %d has %d fields, header %d", ErrShape, filepath.Base(path), i, len(r), len(header))
		}
	}
	return writeCSV(path, header, len(rows), func(i int) []string { return rows[i] })
}

// writeCSV writes header and n records produced by rec to path.
func writeCSV(path string, header []string, n int, rec func(i int) []string) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("report: %w", cerr)
		}
	}()
	bw := bufio.NewWriter(f)
	w := csv.NewWriter(bw)
	if err := w.Write(header); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	for i := range n {
		if err := w.Write(rec(i)); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
