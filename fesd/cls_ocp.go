package fesd

import (
	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/mpcc"
)

// FESD-J optimal control: an OCP on a complementarity Lagrangian system
// (OCP.CLS), transcribed by the shared builder with the FESD-J formulation
// of SimulateCLS (clsFormulation), N control stages instead of one step;
// nosnoc's +nosnoc/+discrete_time_problem/Cls.m is the same problem class
// for simulation and optimal control.

// copierImporter translates an OCP's expressions from a CLS body's graph
// into the graph of the system's copy.
type copierImporter struct{ cp *ad.Copier }

func (c copierImporter) Import(v ad.Vec) ad.Vec {
	if v == nil {
		return nil
	}
	return c.cp.Vec(v)
}

func (c copierImporter) ImportExpr(e ad.Expr) ad.Expr { return c.cp.Expr(e) }

// clsOCPSystem is the ocpSystem of a CLS: no DCS algebraic variables, and
// the cold start of SimulateCLS's event-driven guess (clsGuess), stage by
// stage from x₀ with the start's controls.
type clsOCPSystem struct {
	f     *clsFormulation
	guess *clsGuess
	kin   *ad.Function // (q, v, u, p) → (f_c, J_nᵀv)
}

// CLSOCPSigma0 is σ₀ of a FESD-J OCP's homotopy when
// Options.MPCC.Sigma0 is zero. An OCP starts far from its solution (the
// cold start keeps the controls of the start), not from a simulation's
// guess next to it, so it starts from SimulateCLS's CLSSigma0 = 1e-3
// only where the user sets it. Measured from fesd's other defaults
// (κ = 0.1; internal/impactocp's Discs and Boxes of the FESD-J paper,
// CPU under load): with σ₀ = 1 the discs end Solved and S-stationary
// (objective 8 923, 4.3 s) instead of NLPFailure (10 020, 25 s), the
// boxes Solved and W-stationary instead of Solved NotCertified at the
// same point (objective 26 500, 35 s instead of 62 s); the FESD-J
// monopod of examples/monopod ends valid only from σ₀ = 1.
const CLSOCPSigma0 = 1.0

// homotopy: σ₀ = CLSOCPSigma0 and the finish CLSFinish where set leaves
// them to the default.
func (*clsOCPSystem) homotopy(set *mpcc.Settings) {
	if set.Sigma0 == 0 {
		set.Sigma0 = CLSOCPSigma0
	}
	if set.Finish == mpcc.FinishDefault {
		set.Finish = CLSFinish
	}
}

// result fills r.Contacts as SimulateCLS fills its result, stage by
// stage (CLSSimulator.events, modes).
func (c *clsOCPSystem) result(s *OCPSolver, r *OCPResult, w []float64, pk func(k int) []float64) error {
	tr, f := s.tr, c.f
	cs := &CLSSimulator{s: f.s, f: f, tr: tr, kin: c.kin, kw: c.kin.NewWorkspace()}
	out := &CLSResult{T: clone(r.T), X: make([][]float64, len(r.X))}
	for i, x := range r.X {
		out.X[i] = clone(x)
	}
	nq := f.s.nq
	for k := 0; k < tr.N; k++ {
		n0, ne := tr.elemStart[k], tr.nfe[k]
		st := &CLSStep{T: out.T[n0 : n0+ne+1], X: out.X[n0 : n0+ne+1]}
		for n := n0; n < n0+ne; n++ {
			b := f.pos.start[n]
			xs := clone(out.X[n])
			copy(xs[nq:], w[b[clsVP]:b[clsVP]+nq])
			st.XStart = append(st.XStart, xs)
			st.Impulse = append(st.Impulse, clone(w[b[clsLam]:b[clsLam]+f.s.nc]))
			st.Modes = append(st.Modes, cs.modes(w, n))
		}
		for j := range st.XStart {
			out.XStart = append(out.XStart, st.XStart[j])
			if err := cs.events(out, st, j, n0+j, k, r.U[k], pk(k)); err != nil {
				return err
			}
		}
	}
	r.Contacts = out
	v, err := clsOCPValidity(cs, r, w, pk)
	if err != nil {
		return err
	}
	if r.CLSValidity = v; r.Status == mpcc.Solved && !v.Valid {
		r.Status = mpcc.Invalid
	}
	return nil
}

func (*clsOCPSystem) algebraic(x, u, p []float64) ([]float64, error) { return nil, nil }

// coldStart chains the guess of every stage (the end state of one is the
// start of the next) with the speed of time 1; the start's XInit and
// InitFrom are not used.
func (c *clsOCPSystem) coldStart(g *guess, _ []float64) ([]float64, error) {
	s := g.s
	tr := s.tr
	w := make([]float64, tr.numW)
	x := clone(s.x0)
	sot := make([]float64, tr.N)
	for k := range sot {
		sot[k] = 1
		if g.st.SOTInit > 0 && (tr.sot[k] >= 0 || tr.sotG >= 0) {
			sot[k] = g.st.SOTInit
		}
		c.guess.u, c.guess.p = g.uStart(k), g.stageP(k)
		c.guess.restTime = tr.h0[k]
		x = c.guess.stage(c.f, w, k, s.t0+tr.tau[k], x)
		if err := checkFinite("FESD-J start", x); err != nil {
			return nil, err
		}
	}
	g.setDecisions(w, sot)
	return w, nil
}

// newCLSOCPSolver builds the solver of p (p.CLS set, validated) with the
// resolved options o: the CLS defaults CLSOCPSigma0 and CLSFinish where
// o.MPCC leaves σ₀ and the finish to the default, no switch read-out
// (OCPResult.Switches nil) and no validity check.
func newCLSOCPSolver(p *OCP, o *resolved) (*OCPSolver, error) {
	sys, err := newCLSSystem(p.CLS)
	if err != nil {
		return nil, err
	}
	d := sys.shell()
	q := p.importInto(copierImporter{sys.cp})
	if err := sys.g.Err(); err != nil {
		return nil, err
	}
	ro := *o
	cos := &clsOCPSystem{}
	cos.homotopy(&ro.MPCC)
	L := newLayout(d, ro.Stages, q.N, q.T, func(k int) int { return q.nfe(k, ro.NFE) })
	tr, err := buildTranscription(&transcription{layout: L, p: q, o: &ro, d: d, g: d.Graph,
		isGlob: map[ad.Expr]bool{}, own: newCLSOCPFormulation(sys)})
	if err != nil {
		return nil, err
	}
	if cos.guess, err = newCLSGuess(sys); err != nil {
		return nil, err
	}
	if cos.kin, err = newCLSKinematics(sys); err != nil {
		return nil, err
	}
	cos.f = tr.form.(*clsFormulation)
	return &OCPSolver{p: *tr.p, o: &ro, tr: tr, sys: cos, x0: clone(p.X0), t0: p.T0}, nil
}
