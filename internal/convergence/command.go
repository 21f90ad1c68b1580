package convergence

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
)

// IsTerminal reports whether f is a character device (a terminal), where
// a progress line that rewrites itself can be shown.
func IsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Report prints a study's table with table and, unless dir is "", writes
// its files into dir with write and says so.
func Report(w io.Writer, dir string, table func(io.Writer), write func(dir string) error) error {
	table(w)
	if dir == "" {
		return nil
	}
	if err := write(dir); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s\n", dir)
	return nil
}

// Run calls body with a context that an interrupt (Ctrl-C) cancels and
// with whether the standard output is a terminal (where a progress line can
// be shown), once the command line is parsed: args are the arguments left
// after the flags, which a study command does not take.
func Run(args []string, body func(ctx context.Context, terminal bool) error) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected arguments %q", args)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return body(ctx, IsTerminal(os.Stdout))
}
