package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/fesd-go/fesd/internal/report"
	"github.com/fesd-go/fesd/modelfile"
)

// command is a subcommand: its flags are defined on fs by setup, and run
// executes it on the remaining arguments.
type command struct {
	name, args, short string
	long              string
	setup             func(fs *flag.FlagSet) func(ctx context.Context, env *env, args []string) error
}

// env is what a command writes to: stdout for results (the JSON summary
// with -json) and log for messages (stdout without -json, stderr with it).
type env struct {
	stdout, stderr, log io.Writer
}

var commands []*command

func init() {
	commands = []*command{checkCommand(), simulateCommand(), ocpCommand()}
}

const rootUsage = `fesd simulates and optimally controls nonsmooth dynamical systems described
in a TOML model file, with FESD (finite elements with switch detection).

Usage:

	fesd <command> [flags] model.toml

Commands:
%s	help      show the help of a command (fesd help simulate)

The model file format is documented in package
github.com/fesd-go/fesd/modelfile (go doc github.com/fesd-go/fesd/modelfile);
examples/models holds IRMA, the turbo car and more.
Exit status: 0 on success, 1 for a bad model file or a failed run, 2 for
bad usage.
`

func printRootUsage(w io.Writer) {
	var b strings.Builder
	for _, c := range commands {
		fmt.Fprintf(&b, "\t%-9s %s\n", c.name, c.short)
	}
	fmt.Fprintf(w, rootUsage, b.String())
}

func find(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// newFlagSet returns the flag set of c with its usage text.
func newFlagSet(c *command, out io.Writer) (*flag.FlagSet, func(context.Context, *env, []string) error) {
	fs := flag.NewFlagSet("fesd "+c.name, flag.ContinueOnError)
	fs.SetOutput(out)
	runFn := c.setup(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: fesd %s [flags] %s\n\n%s\nFlags:\n", c.name, c.args, c.long)
		fs.PrintDefaults()
	}
	return fs, runFn
}

// run is the program: it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printRootUsage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printRootUsage(stdout)
		return 0
	case "help":
		if len(args) == 1 || strings.HasPrefix(args[1], "-") {
			printRootUsage(stdout)
			return 0
		}
		c := find(args[1])
		if c == nil {
			fmt.Fprintf(stderr, "fesd help: unknown command %q\n", args[1])
			return 2
		}
		fs, _ := newFlagSet(c, stdout)
		fs.Usage()
		return 0
	}
	c := find(args[0])
	if c == nil {
		fmt.Fprintf(stderr, "fesd: unknown command %q\n\n", args[0])
		printRootUsage(stderr)
		return 2
	}
	var msgs strings.Builder
	fs, runFn := newFlagSet(c, &msgs)
	if err := fs.Parse(args[1:]); err != nil {
		if report.IsHelp(err) {
			fmt.Fprint(stdout, msgs.String())
			return 0
		}
		fmt.Fprint(stderr, msgs.String())
		return 2
	}
	fs.SetOutput(stderr)
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "fesd %s: want one model file, got %d arguments\n", c.name, fs.NArg())
		fs.Usage()
		return 2
	}
	e := &env{stdout: stdout, stderr: stderr, log: stdout}
	if f := fs.Lookup("json"); f != nil && f.Value.String() == "true" {
		e.log = stderr
	}
	if err := runFn(ctx, e, fs.Args()); err != nil {
		var me *modelfile.Error
		if errors.As(err, &me) {
			fmt.Fprintln(stderr, err)
		} else {
			fmt.Fprintf(stderr, "fesd %s: %v\n", c.name, err)
		}
		return 1
	}
	return 0
}

// sets collects the -set KEY=VALUE overrides of the file's [options].
type sets []string

func (s *sets) String() string { return strings.Join(*s, " ") }

func (s *sets) Set(v string) error {
	if !strings.Contains(v, "=") {
		return fmt.Errorf("want KEY=VALUE, e.g. NFE=4 or DCS.Formulation=stewart")
	}
	*s = append(*s, v)
	return nil
}

const setUsage = "override an option of the file's [options], as `KEY=VALUE` with KEY a field of fesd.Options (DCS.… and MPCC.… for their groups) and VALUE as in the file, e.g. NFE=4, DCS.Formulation=stewart, MPCC.CompTol=1e-8 (repeatable)"

// load reads and parses a model file and applies the overrides.
func load(path string, overrides sets) (*modelfile.Model, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := modelfile.Parse(path, src)
	if err != nil {
		return nil, err
	}
	for _, kv := range overrides {
		k, v, _ := strings.Cut(kv, "=")
		if err := m.SetOption(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return nil, fmt.Errorf("-set %s: %w", kv, err)
		}
	}
	return m, nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
