package report

import (
	"errors"
	"flag"
	"io"
	"os"
	"strconv"
)

// Program conventions shared by the example programs: -h prints the usage
// and exits 0, times in messages are rounded, JSON lists are [] rather than
// null, and the carriage-return progress line is drawn only on a terminal.

// IsHelp reports whether err is the flag package's "help requested" (-h or
// -help), after which a program has printed its usage and exits 0.
func IsHelp(err error) bool { return errors.Is(err, flag.ErrHelp) }

// Time formats a time for messages with 10 significant digits, so that
// accumulated rounding (999.9999999999999 after a sum of steps) prints as
// 1000. Files keep full precision (FormatFloat).
func Time(t float64) string { return strconv.FormatFloat(t, 'g', 10, 64) }

// List returns s, or an empty non-nil slice for nil, so that encoding/json
// writes [] instead of null.
func List[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// IsTerminal reports whether w is a character device (a terminal), where a
// progress line redrawn with '\r' belongs; a file or pipe (a redirected
// log) gets no progress line.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
