// Command fesd simulates and optimally controls nonsmooth dynamical systems
// described in a TOML model file (package modelfile documents the format),
// with the FESD transcription of package fesd: no Go, no CasADi, one static
// binary that writes CSV, JSON and plots.
//
// Usage:
//
//	fesd check    [-json] [-set KEY=VALUE] model.toml   validate; dimensions, switching functions, modes, NLP sizes
//	fesd simulate [-out DIR] [-json] [-plot=false] [-set KEY=VALUE] model.toml
//	fesd ocp      [-out DIR] [-json] [-plot=false] [-set KEY=VALUE] model.toml
//	fesd help [command]
//
// Install it with
//
//	go install github.com/fesd-go/fesd/cmd/fesd@latest
//
// and try the files of examples/models:
//
//	fesd simulate examples/models/irma.toml   # IRMA, 36 switches in 1000 minutes
//	fesd ocp examples/models/turbocar.toml    # the time-optimal turbo car, T_f = 12.0166
//
// A bad model file stops with "file:line:column: what is wrong" on standard
// error and exit status 1; bad flags give status 2; -h prints the usage of
// the program or of a command and exits 0. Results go to the output folder
// (-out, default out/fesd): trajectory.csv, summary.json and
// trajectory.png/.svg for both commands, and stages.csv, controls.csv and
// switches.csv (simulate) or controls.csv and homotopy.csv (ocp); see
// fesd help simulate and fesd help ocp. With -json the summary is printed on
// standard output for scripts and the log goes to standard error; the
// progress line and the homotopy log are drawn only on a terminal.
//
// -set KEY=VALUE (repeatable) overrides an option of the file's [options]
// for one run: KEY is a field of fesd.Options (DCS.… and MPCC.… for the
// groups) and VALUE is read by the field's UnmarshalText for enums, as in
// the file (modelfile.Model.SetOption): fesd simulate -set
// DCS.Formulation=stewart -set NFE=4 model.toml.
//
// simulate integrates with fesd.Simulate (modelfile's Model.Simulate):
// steps with more predicted switches than element boundaries, or whose
// solve fails, are halved (down to T/2^fesd.MaxSplitDepth), and the
// switches are fesd's, detected over the whole trajectory.
package main
