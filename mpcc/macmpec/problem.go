package macmpec

import (
	"errors"
	"fmt"

	"github.com/fesd-go/fesd/mpcc"
)

// ErrUnknown is returned by ByName for a name that is not in the set.
var ErrUnknown = errors.New("macmpec: unknown problem")

// Problem describes one problem of the MacMPEC collection.
type Problem struct {
	// Name is the MacMPEC name, e.g. "bard1" or "gnash14".
	Name string
	// Model is the AMPL model file of MacMPEC (and its data file, if any),
	// e.g. "gnash1.mod, gnash14.dat".
	Model string
	// Ref is the literature reference given in the model file.
	Ref string
	// Best is the best-known objective value of the AMPL model as published
	// in MacMPEC's table (for a maximization, the largest value known).
	Best float64
	// Maximize is set when the AMPL model maximizes its objective. The
	// mpcc.Problem then minimizes its negative; Value converts back.
	Maximize bool
	// Optimum and OptimumNote correct Best where the table's value is not
	// attainable by the model as written: Optimum is the proven optimal
	// value of the model and OptimumNote the proof. An empty note means
	// that Best stands (Optimum is then unused). Target returns the value
	// in force.
	Optimum     float64
	OptimumNote string

	build func(b *builder)
}

// New builds the MPCC: a fresh mpcc.Problem whose NLP starts from the
// model's starting point (AMPL's := and let values, else 0 projected into
// the bounds; lifted slacks at the value of their expression there).
func (p *Problem) New() (*mpcc.Problem, error) {
	if p == nil || p.build == nil {
		return nil, fmt.Errorf("%w: empty descriptor", ErrUnknown)
	}
	b := newBuilder()
	p.build(b)
	mp, err := b.build()
	if err != nil {
		return nil, fmt.Errorf("macmpec: %s: %w", p.Name, err)
	}
	return mp, nil
}

// Value returns the objective of the AMPL model from the objective f of the
// mpcc.Problem (−f for a maximization).
func (p *Problem) Value(f float64) float64 {
	if p.Maximize {
		return -f
	}
	return f
}

// Target returns the objective value a solve must reach: Optimum when
// OptimumNote gives one, else Best.
func (p *Problem) Target() float64 {
	if p.OptimumNote != "" {
		return p.Optimum
	}
	return p.Best
}

// Gap returns how far the model objective v falls short of the target
// b = Target(), relative to max(1, |b|): (v − b)/max(1, |b|) for a
// minimization, (b − v)/max(1, |b|) for a maximization. A gap ≤ 0 means
// the target was reached or improved.
func (p *Problem) Gap(v float64) float64 {
	b := p.Target()
	d := v - b
	if p.Maximize {
		d = -d
	}
	return d / max(1, abs(b))
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// All returns the descriptors of every problem of the set, in the order of
// MacMPEC's table.
func All() []Problem {
	return append([]Problem(nil), problems...)
}

// ByName returns the descriptor of the named problem; an unknown name gives
// an error wrapping ErrUnknown.
func ByName(name string) (Problem, error) {
	for _, p := range problems {
		if p.Name == name {
			return p, nil
		}
	}
	return Problem{}, fmt.Errorf("%w %q", ErrUnknown, name)
}
