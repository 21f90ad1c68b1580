package fesd

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/mpcc"
)

// Guide imposes guiding constraints in the first steps of an OCP's
// homotopy (Options.Guide): the relaxed NLPs with σ ≥ Sigma are solved
// with the extra path constraints, and the homotopy goes on without them
// from the last guided point. In the early steps the relaxation lets the
// physics go ("in the early iterations, the physics is relaxed and we want
// to prohibit the optimizer to go to undesired regions": A. Nurkanović, J.
// Albrecht, B. Brogliato, M. Diehl, "The Time-Freezing Reformulation for
// Numerical Optimal Control of Complementarity Lagrangian Systems with
// State Jumps", Automatica 158 (2023) 111295, §7, which bounds the foot
// height to [−0.005, 0.2] and the joint angles of its hopping robot); the
// guides keep the iterate out of such regions while the relaxed optima
// are far from the MPCC's, and the final steps solve the OCP as stated.
// The guided OCP is compiled as a second NLP when the solver is built
// (about twice the build time and memory). A Solve from Start.Warm (a
// continuation) is not guided.
type Guide struct {
	// Path are guiding path constraints in the OCP's symbols (as
	// OCP.Path), imposed while σ ≥ Sigma (default none).
	Path []Constraint
	// GapDepth, if positive, bounds the gap of every contact of a
	// time-freezing model from below by −GapDepth at every stage point
	// while σ ≥ Sigma (default 0: no gap guide; the Automatica example
	// uses 0.005 m for the foot). It is ignored for other models.
	GapDepth float64
	// Sigma is the smallest σ of the homotopy solved with the guides
	// (default DefaultGuideSigma).
	Sigma float64
}

// DefaultGuideSigma is the default Guide.Sigma: the guides hold for σ =
// 1, 0.1, 0.01 of the default schedule.
const DefaultGuideSigma = 1e-2

// validate checks the guide's numbers (the constraints are checked when
// the guided OCP is built).
func (g *Guide) validate() error {
	if g == nil {
		return nil
	}
	if bad(g.GapDepth) || g.GapDepth < 0 {
		return optErr("Guide.GapDepth = %g, want finite and ≥ 0", g.GapDepth)
	}
	if bad(g.Sigma) || g.Sigma < 0 {
		return optErr("Guide.Sigma = %g, want finite and ≥ 0 (0: the default %g)", g.Sigma, DefaultGuideSigma)
	}
	return nil
}

// guideSigma is Guide.Sigma with its default.
func (g *Guide) guideSigma() float64 {
	if g.Sigma == 0 {
		return DefaultGuideSigma
	}
	return g.Sigma
}

// guidePath returns the guiding path constraints of g for p: g.Path and,
// for a time-freezing model with GapDepth > 0, f_c ≥ −GapDepth at every
// stage point for every contact.
func (g *Guide) guidePath(p *OCP) []Constraint {
	out := append([]Constraint(nil), g.Path...)
	tf := p.Model.TimeFreezing()
	if tf == nil || g.GapDepth <= 0 {
		return out
	}
	var gaps ad.Vec
	last := -1
	for j, c := range tf.PsiContact {
		if c != last { // the first switching function of a contact is f_c
			gaps = append(gaps, tf.Psi[j])
			last = c
		}
	}
	lo, hi := make([]float64, len(gaps)), make([]float64, len(gaps))
	for i := range gaps {
		lo[i], hi[i] = -g.GapDepth, math.Inf(1)
	}
	return append(out, Constraint{G: gaps, L: lo, U: hi, At: AtStagePoints})
}

// newGuided builds the solver of the guided steps for p with opts (whose
// Guide is set): the OCP with the guiding constraints added to its path
// constraints, the same discretization and homotopy settings. It returns
// nil when the guide adds no constraint.
func newGuided(p *OCP, opts Options) (*OCPSolver, error) {
	path := opts.Guide.guidePath(p)
	if len(path) == 0 {
		return nil, nil
	}
	q := *p
	q.Path = append(append([]Constraint(nil), p.Path...), path...)
	o := opts
	o.Guide = nil
	s, err := NewOCPSolver(&q, o)
	if err != nil {
		return nil, fmt.Errorf("fesd: the guided OCP (Options.Guide): %w", err)
	}
	return s, nil
}

// guideSplit splits the σ schedule of set at the guide's σ: the settings
// of the guided steps (σ ≥ σ_g, without a certificate) and of the steps
// after them (from the next σ on). ok is false when no step is left after
// the guided ones, or none is guided.
func guideSplit(set mpcc.Settings, sigmaG float64) (guided, rest mpcc.Settings, ok bool, err error) {
	sched, err := set.Schedule()
	if err != nil {
		return guided, rest, false, err
	}
	k := 0
	for k < len(sched) && sched[k] >= sigmaG*(1-1e-9) {
		k++
	}
	if k == 0 || k == len(sched) {
		return guided, rest, false, nil
	}
	guided, rest = set, set
	guided.SigmaN, guided.MaxSteps, guided.Finish = sched[k-1], k, mpcc.NoCertificate
	rest.Sigma0, rest.MaxSteps = sched[k], len(sched)-k
	if rest.SigmaN == 0 || rest.SigmaN > sched[len(sched)-1] {
		rest.SigmaN = sched[len(sched)-1]
	}
	return guided, rest, true, nil
}

// solveGuided runs the guided steps of s's homotopy with s.guided from
// start, then the remaining steps on s's own NLP from the last guided
// point (its primal point, with a barrier parameter of 0.1 times the
// first unguided σ). The result is the second run's, with the records,
// iterations and time of both. handled is false when the schedule has no
// step left after the guided ones: then the caller solves as usual.
func (s *OCPSolver) solveGuided(ctx context.Context, start Start) (r *OCPResult, handled bool, err error) {
	t0 := time.Now()
	set := s.o.MPCC
	guidedSet, restSet, ok, err := guideSplit(set, s.o.Guide.guideSigma())
	if err != nil || !ok {
		return nil, false, err
	}
	g, err := s.guided.WithHomotopy(guidedSet)
	if err != nil {
		return nil, true, err
	}
	r1, err := g.Solve(ctx, start)
	if err != nil || r1 == nil || len(r1.w) != s.tr.numW {
		return r1, true, err
	}
	rest, err := s.WithHomotopy(restSet)
	if err != nil {
		return nil, true, err
	}
	rest.guided = nil
	next := Start{Warm: WarmFromNLPSolution(r1.NLPSolution())}
	if r1.point != nil && len(r1.point.X) >= s.tr.numW {
		// the relaxation's slacks of the last guided point; the
		// multipliers belong to the guided NLP's rows and are not used
		next.dual = &mpcc.WarmStart{X: clone(r1.point.X)}
		next.dualLayout = r1.layout
	}
	r2, err := rest.Solve(ctx, next)
	if r2 == nil {
		return r1, true, err
	}
	r2.Homotopy = append(append([]mpcc.HomotopyStep(nil), r1.Homotopy...), r2.Homotopy...)
	r2.Iterations += r1.Iterations
	r2.Elapsed = time.Since(t0)
	return r2, true, err
}
