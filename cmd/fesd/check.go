package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/modelfile"
)

// nlpSize is the size of an NLP.
type nlpSize struct {
	Variables         int `json:"variables"`
	Constraints       int `json:"constraints"`
	Complementarities int `json:"complementarities"`
}

// checkReport is what fesd check prints.
type checkReport struct {
	File         string                `json:"file"`
	Name         string                `json:"name"`
	States       []string              `json:"states"`
	Controls     []string              `json:"controls"`
	Parameters   []modelfile.Var       `json:"parameters"`
	Algebraic    []modelfile.Var       `json:"algebraic"`
	Subsystems   []checkSubsystem      `json:"subsystems"`
	Formulation  string                `json:"formulation"`
	DCS          dcs.Dims              `json:"dcs"`
	SimulateStep *nlpSize              `json:"simulate_step_nlp,omitempty"`
	OCP          *nlpSize              `json:"ocp_nlp,omitempty"`
	Options      fesd.Options          `json:"-"`
	Sim          *modelfile.Simulation `json:"-"`
}

type checkSubsystem struct {
	Name  string   `json:"name"`
	Step  bool     `json:"step"`
	Psi   []string `json:"psi"`
	Signs [][]int  `json:"signs,omitempty"`
	Modes int      `json:"modes"`
}

func checkCommand() *command {
	return &command{
		name: "check", args: "model.toml", short: "validate a model file and print its dimensions and NLP sizes",
		long: `Check reads the model file, reports the first problem as file:line:column:
message, and otherwise prints the states, controls, switching functions and
modes, the sizes of the complementarity system (DCS) in the chosen
formulation, and the NLP sizes of one simulation step ([simulate]) and of
the optimal control problem ([ocp]). It compiles the NLPs but solves nothing.
`,
		setup: func(fs *flag.FlagSet) func(context.Context, *env, []string) error {
			var set sets
			fs.Var(&set, "set", setUsage)
			jsonOut := fs.Bool("json", false, "print the report as JSON on standard output")
			return func(ctx context.Context, e *env, args []string) error {
				r, err := check(args[0], set)
				if err != nil {
					return err
				}
				if *jsonOut {
					return e.printJSON(r)
				}
				printCheck(e, r)
				return nil
			}
		},
	}
}

func check(path string, set sets) (*checkReport, error) {
	m, err := load(path, set)
	if err != nil {
		return nil, err
	}
	r := &checkReport{File: path, Name: m.Name, States: m.StateNames, Controls: listOf(m.ControlNames),
		Parameters: listOf(m.Params), Algebraic: listOf(m.Algebraic), Options: m.Options, Sim: m.Sim}
	for _, s := range m.Subsystems {
		modes := s.Modes
		r.Subsystems = append(r.Subsystems, checkSubsystem{Name: s.Name, Step: s.Step, Psi: s.Psi, Signs: s.Signs, Modes: modes})
	}
	r.Subsystems = listOf(r.Subsystems)
	d, err := m.Model.Reformulate(m.Options.DCS)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.Formulation, r.DCS = d.Formulation.String(), d.Dims
	if m.Sim != nil {
		sim, err := fesd.NewSimulator(m.Model, m.Options, m.Sim.TSim/float64(m.Sim.NSim))
		if err != nil {
			return nil, fmt.Errorf("%s: [simulate]: %w", path, err)
		}
		r.SimulateStep = &nlpSize{Variables: sim.NumVariables(), Constraints: sim.NumConstraints(), Complementarities: sim.NumComplementarities()}
	}
	if m.OCP != nil {
		s, err := fesd.NewOCPSolver(m.OCP.Problem, m.Options)
		if err != nil {
			return nil, fmt.Errorf("%s: [ocp]: %w", path, err)
		}
		r.OCP = &nlpSize{Variables: s.NumVariables(), Constraints: s.NumConstraints(), Complementarities: s.NumComplementarities()}
	}
	return r, nil
}

func listOf[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func printCheck(e *env, r *checkReport) {
	w := e.stdout
	name := r.Name
	if name == "" {
		name = "(no name)"
	}
	fmt.Fprintf(w, "%s: %s\n", r.File, name)
	fmt.Fprintf(w, "states (%d):   %s\n", len(r.States), strings.Join(r.States, ", "))
	fmt.Fprintf(w, "controls (%d): %s\n", len(r.Controls), strings.Join(r.Controls, ", "))
	for _, p := range r.Parameters {
		fmt.Fprintf(w, "parameter %s (%d)\n", p.Name, p.Size)
	}
	for _, a := range r.Algebraic {
		fmt.Fprintf(w, "algebraic %s (%d)\n", a.Name, a.Size)
	}
	psi := 0
	for k, s := range r.Subsystems {
		switch {
		case s.Step:
			fmt.Fprintf(w, "step selections %s: %d switching functions\n", s.Name, len(s.Psi))
		case s.Name == "":
			fmt.Fprintf(w, "subsystem %d: %d switching functions, %d modes\n", k, len(s.Psi), s.Modes)
		default:
			fmt.Fprintf(w, "subsystem %d (%s): %d switching functions, %d modes\n", k, s.Name, len(s.Psi), s.Modes)
		}
		for _, p := range s.Psi {
			fmt.Fprintf(w, "  ψ%d = %s\n", psi, p)
			psi++
		}
		for i, row := range s.Signs {
			fmt.Fprintf(w, "  mode %d: signs %v\n", i, row)
		}
	}
	d := r.DCS
	fmt.Fprintf(w, "DCS (%s): %d algebraic variables (θ %d, α %d, λ %d, μ %d, β %d), %d equations, %d complementarity pairs\n",
		r.Formulation, d.NZ, d.NTheta, d.NAlpha, d.NLambda, d.NMu, d.NBeta, d.NEq, d.NComp)
	if r.SimulateStep != nil {
		s := r.SimulateStep
		fmt.Fprintf(w, "simulation of [%g, %g] in %d steps; NLP of one step: %d variables, %d constraints, %d complementarities\n",
			r.Sim.T0, r.Sim.T0+r.Sim.TSim, r.Sim.NSim, s.Variables, s.Constraints, s.Complementarities)
	}
	if r.OCP != nil {
		s := r.OCP
		fmt.Fprintf(w, "OCP NLP: %d variables, %d constraints, %d complementarities\n", s.Variables, s.Constraints, s.Complementarities)
	}
}
