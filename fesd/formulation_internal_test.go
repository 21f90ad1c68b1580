package fesd

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/rk"
)

// liftedStart is the DCS formulation with the state an element starts
// from (start) as variables x⁺ of an element-start block, tied to the
// previous end state by the rows x⁺ − x_n = 0 of jump: a formulation with the shape of
// FESD-J's (variables and rows at the element boundaries, a start state
// of its own), whose solutions are those of the DCS formulation.
type liftedStart struct{ *dcsFormulation }

func (f liftedStart) vars() formVars {
	v := f.dcsFormulation.vars()
	lo, hi := make([]float64, f.tr.nx), make([]float64, f.tr.nx)
	for i := range lo {
		lo[i], hi[i] = math.Inf(-1), math.Inf(1)
	}
	v.elemStart = []varBlock{{name: "test_xp", tmpl: "tmpl_xp", kind: vAux, lo: lo, hi: hi}}
	return v
}

func (f liftedStart) start(ev *elemIn) ad.Vec { return ev.start[0] }

func (f liftedStart) jump(ev *elemIn) ([]conRow, error) {
	var rows []conRow
	for i, xp := range ev.start[0] {
		rows = append(rows, conRow{e: xp.Sub(ev.xn[i])})
	}
	return rows, nil
}

// register registers transcribe for f until restore is called (or the
// test ends).
func register(t *testing.T, f dcs.Formulation, transcribe func(tr *transcription) formulation) (restore func()) {
	old := formulations[f]
	formulations[f] = formulationClass{transcribe: transcribe, sides: old.sides}
	restore = func() { formulations[f] = old }
	t.Cleanup(restore)
	return restore
}

// TestFormulationElementStart: a formulation with element-start blocks and
// jump rows (liftedStart) builds through the shared builder alone — the
// element template gives the NLP of the symbolic expansion for an OCP
// (time-optimal, a control, Step and Stewart) and for Gauss–Legendre
// simulation steps with boundary points — and a simulation with it gives
// the end state and the switches of the DCS formulation (the same
// equations with x⁺ eliminated), in both representations. In the
// differential representation the stage states of the outputs start from
// x⁺: x_{n,m} = x⁺_n + h_n Σ_r a_mr v_{n,r} at any point w. Under -short
// the simulations with Stewart (algebraic) and Step (differential) only.
func TestFormulationElementStart(t *testing.T) {
	lifted := func(tr *transcription) formulation {
		return liftedStart{newDCSFormulation(tr).(*dcsFormulation)}
	}
	p := turboTimeOptimal()
	for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
		restore := register(t, f, lifted)
		a, b := buildBoth(t, p, Options{DCS: dcs.Options{Formulation: f}}, false)
		restore()
		if k := countKind(a, vAux); k != a.NE*a.nx {
			t.Fatalf("%v: %d variables x⁺, want %d", f, k, a.NE*a.nx)
		}
		compareNLPs(t, "turbo "+f.String(), a.prob, b.prob)
	}
	ctx := context.Background()
	for _, c := range tutorialCases() {
		for i, f := range []dcs.Formulation{dcs.Stewart, dcs.Step, dcs.Stewart, dcs.Step} {
			if testing.Short() && i != 0 && i != 3 {
				continue // -short: Stewart algebraic, Step differential
			}
			opts := Options{Scheme: rk.FamilyGaussLegendre, NFE: c.nfe, DCS: dcs.Options{Formulation: f}}
			if i >= 2 {
				opts.Representation = Differential
			}
			so := SimOptions{Options: opts, TSim: c.tsim, NSim: c.nsim, NoPredict: true}
			ref, err := Simulate(ctx, c.model(), []float64{c.x0}, so)
			if err != nil {
				t.Fatalf("%s %v: %v", c.name, f, err)
			}
			restore := register(t, f, lifted)
			a, b := buildBoth(t, &OCP{Model: c.model(), X0: []float64{c.x0}, N: 1, T: c.tsim / float64(c.nsim)}, opts, true)
			compareNLPs(t, c.name+" "+f.String(), a.prob, b.prob)
			if k := countKind(a, vAux); k != a.NE*a.nx {
				t.Fatalf("%s %v: %d variables x⁺, want %d", c.name, f, k, a.NE*a.nx)
			}
			r, err := Simulate(ctx, c.model(), []float64{c.x0}, so)
			restore()
			if err != nil {
				t.Fatalf("%s %v lifted: %v", c.name, f, err)
			}
			// 1e-7: the same step equations, solved from another start
			// (x⁺ starts at 0) to the homotopy's tolerance
			if d := math.Abs(r.X[len(r.X)-1][0] - ref.X[len(ref.X)-1][0]); d > 1e-7 {
				t.Errorf("%s %v: x(T) %.12g lifted, %.12g plain", c.name, f, r.X[len(r.X)-1][0], ref.X[len(ref.X)-1][0])
			}
			if len(r.Switches) != len(ref.Switches) {
				t.Errorf("%s %v: %d switches lifted, %d plain", c.name, f, len(r.Switches), len(ref.Switches))
				continue
			}
			for i, sw := range r.Switches {
				if sw.Kind != ref.Switches[i].Kind || math.Abs(sw.Time-ref.Switches[i].Time) > 1e-7 {
					t.Errorf("%s %v: switch %d: %v at %.12g lifted, %v at %.12g plain", c.name, f, i, sw.Kind, sw.Time, ref.Switches[i].Kind, ref.Switches[i].Time)
				}
			}
		}
	}
}

// TestFormulationStartOutputs: the outputs' stage states start from the
// formulation's start state (liftedStart's x⁺, not x_n), checked at a
// point w where x⁺ ≠ x_n.
func TestFormulationStartOutputs(t *testing.T) {
	restore := register(t, dcs.Stewart, func(tr *transcription) formulation {
		return liftedStart{newDCSFormulation(tr).(*dcsFormulation)}
	})
	defer restore()
	c := tutorialCases()[0]
	opts := Options{Representation: Differential, NFE: 3, Stages: 2}
	a, _ := buildBoth(t, &OCP{Model: c.model(), X0: []float64{c.x0}, N: 1, T: 1}, opts, true)
	w := make([]float64, a.numW)
	for k := range w {
		w[k] = 0.1 + 0.01*float64(k)
	}
	out, err := a.outputs(w, a.pvals)
	if err != nil {
		t.Fatal(err)
	}
	xp := map[int]float64{} // x⁺ of every element (n_x = 1)
	for k, inf := range a.winfo {
		if inf.kind == vAux {
			xp[inf.n] = w[k]
		}
	}
	o, _ := opts.resolve()
	for n := 0; n < a.NE; n++ {
		for m := 0; m < a.ns; m++ {
			want := xp[n]
			for r := 0; r < a.ns; r++ {
				want += w[a.h[n]] * o.tab.A[m][r] * w[a.x[n][r]]
			}
			if got := out.xs[n*a.ns+m]; math.Abs(got-want) > 1e-14 {
				t.Errorf("element %d, stage %d: x %.17g, want %.17g", n, m, got, want)
			}
		}
	}
}

// countKind returns the number of variables of kind k.
func countKind(tr *transcription, k varKind) int {
	n := 0
	for _, inf := range tr.winfo {
		if inf.kind == k {
			n++
		}
	}
	return n
}

// TestFormulationUnregistered: a DCS class without a registered
// formulation is an ErrStructure, for the transcription and for the switch
// read-out.
func TestFormulationUnregistered(t *testing.T) {
	c := tutorialCases()[0]
	o, err := Options{}.resolve()
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.model().Reformulate(o.DCS)
	if err != nil {
		t.Fatal(err)
	}
	old := formulations[d.Formulation]
	delete(formulations, d.Formulation)
	defer func() { formulations[d.Formulation] = old }()
	if _, err := newTranscription(&OCP{Model: c.model(), X0: []float64{c.x0}, N: 1, T: 1}, d, o, true); !errors.Is(err, ErrStructure) {
		t.Errorf("transcription: %v, want ErrStructure", err)
	}
	if _, err := newSwitchInfo(d, o); !errors.Is(err, ErrStructure) {
		t.Errorf("switch read-out: %v, want ErrStructure", err)
	}
}
