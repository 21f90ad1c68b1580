package fesd

import (
	"context"
	"errors"
	"math"

	"github.com/fesd-go/fesd/mpcc"
)

// The active-set finish of a step solved by the homotopy (Simulator.NoPredict).
//
// The homotopy's point is an approximate solution of the step's MPCC: its
// complementarity holds to CompTol, its start multipliers within SwitchTol
// of zero are rounded to zero, and its element boundaries move only as far
// as the relaxed NLPs take them. Near a step boundary that is not enough: a
// switch 1e-6 step lengths after t₀ moves onto t₀ (the zero start
// multiplier lets the first element take the next region at once), a
// switch just before t₀ + T stays inside the last element, and the
// linearization at the point (its sensitivity) does not see the switch
// move with x₀. The finish reads the branch of the point — the mode of every
// element (which side of every complementarity pair vanishes:
// solutionModes), in the order of the pieces of equal mode — and solves the step once
// more on that branch with the branch NLP (branch.go): the vanishing sides
// fixed at zero, the step sizes free, so that the element boundaries move
// exactly onto the switches; the same verification (branchAccepted) and
// the branch's exact sensitivities. It is the MPCC's active-set finish
// (Nurkanović and Leyffer's BNLP), with element boundaries added where the
// point's branch needs one that its grid lacks.
//
// The times of the switches: a change of mode between two elements of the
// point is a switch at their boundary. Every piece of one region is then
// followed from its first state (the point's) along that region's flow
// with the event location of the predictor (predict.go) to the end of the
// piece, which finds a switch the point leaves inside an element (the
// homotopy could not move a boundary that close to t₀ + T); when the first
// element is not in the region of x₀, the region of x₀ is followed from x₀
// over the first piece, which finds the switch the rounded start
// multipliers moved onto t₀. A mode the point does not have is not taken:
// the branch is the point's, with at most the region of x₀ before it and one
// region after its last piece. The events then give the grid, the element
// modes and the branch start as a prediction's do (eventPrediction), with the
// same rules for switches within rounding of a step boundary; a step that
// needs more elements than N_FE is finished with as many (refinedStep's
// transcriptions).
//
// The finish runs where the homotopy's point has a switch, or its start or
// end state lies within freeSideTol of a switching surface (needsFinish),
// and on the step after one finished for its end. Without prediction that
// costs little and can save: examples/irma takes 33 993 NLP iterations
// instead of 36 863 (24 of its 509 steps finished; the shifted start from a
// finished step is closer to the next step's solution), examples/friction
// 10 631 instead of 10 533 (7 of 200). A finish that fails leaves the
// homotopy's point. Options.MPCC.Finish = CertifyOnly or NoCertificate
// (the homotopy point stays the result) switch it off.

// finishNear is the distance (relative to the step length) from the end of
// a step within which a switch makes the next step finished too.
const finishNear = 1e-3

// pieceEnds are the modes of the first and the last piece of a step's
// solution (pieceMode) and whether they are regions.
type pieceEnds struct {
	first, last             mode
	firstRegion, lastRegion bool
}

// solutionEvents returns the switches of the step's solution w (parameters
// pv) as the predictor's events (see the comment at the top of this file),
// with the predictor of the step, or ok = false when they contradict the
// point's branch or cannot be evaluated.
func (s *Simulator) solutionEvents(st *stepState, w, pv []float64) (pr *predictor, ev []event, ends pieceEnds, ok bool) {
	tr := s.tr
	if s.o.DisableFESD || len(s.d.Comp) == 0 {
		return nil, nil, ends, false
	}
	sigs := s.solutionModes(w)
	out, err := tr.outputs(w, pv)
	if err != nil {
		return nil, nil, ends, false
	}
	pr = &predictor{s: s, u: st.u, p: st.p, t0: st.t0, T: s.T}
	z0, sig0, ok := pr.guess(st.x0)
	if !ok {
		return nil, nil, ends, false
	}
	// An element shorter than finishNear·T whose mode is no region's
	// (the element the homotopy leaves between a switch and a step
	// boundary, its sides both at the size of its length) is not resolved
	// by the point: it takes the mode of the element after it (of the one
	// before, at the step's end), and the switch is located on the flow.
	for n := range sigs {
		if _, region := s.pieceMode(pr, out, w, n, sigs[n]); region || out.h[n] >= finishNear*s.T || tr.NE == 1 {
			continue
		}
		if n+1 < tr.NE {
			sigs[n] = sigs[n+1]
		} else {
			sigs[n] = sigs[n-1]
		}
	}
	ev = []event{{0, clone(st.x0), mode{sig: sig0, z: z0}}}
	maxEvents := 4 * tr.NE
	nx := tr.nx
	t := 0.0
	for n := 0; n < tr.NE; {
		e := n + 1
		for e < tr.NE && sameSig(sigs[e], sigs[n]) {
			e++
		}
		end := t
		for k := n; k < e; k++ {
			end += out.h[k]
		}
		if e == tr.NE {
			end = s.T
		}
		m, region := s.pieceMode(pr, out, w, n, sigs[n])
		if n == 0 {
			ends.first, ends.firstRegion = m, region
		}
		ends.last, ends.lastRegion = m, region
		if last := ev[len(ev)-1]; last.m.slide != nil {
			// a sliding motion found in an earlier piece lasts to the
			// end of the step: the point must slide on
			if !sameSig(last.m.sig, m.sig) {
				return nil, nil, ends, false
			}
			t, n = end, e
			continue
		}
		if !sameSig(ev[len(ev)-1].m.sig, m.sig) {
			if n == 0 {
				// the first element is not in the region of x₀: follow
				// that region from x₀ to the switch into the element's mode
				ev2, ok := pr.eventsFrom(ev, end, maxEvents, true)
				ev2 = mergeTouching(ev2, 1e-12*s.T)
				if ok && len(ev2) == 2 && sameSig(ev2[1].m.sig, m.sig) {
					ev = ev2
				} else {
					ev[0].m = m // x₀ on the surface: the step starts in it
				}
			} else {
				ev = append(ev, event{t, clone(out.xb[n*nx : (n+1)*nx]), m})
			}
		}
		if region && ev[len(ev)-1].m.slide == nil {
			// a switch inside the piece that the point left inside an
			// element: one into the next piece's mode, or after the last
			// piece
			k := len(ev)
			if ev, ok = pr.eventsFrom(ev, end, maxEvents, true); !ok {
				return nil, nil, ends, false
			}
			ev = mergeTouching(ev, 1e-12*s.T)
			if len(ev) > k+1 || len(ev) == k+1 && e < tr.NE && !sameSig(ev[k].m.sig, sigs[e]) {
				return nil, nil, ends, false
			}
		}
		t, n = end, e
	}
	return pr, ev, ends, true
}

// solutionModes returns the mode of every element of the solution w: a
// pair's selection is positive where its largest stage value exceeds the
// element's largest multiplier (as in branchOf) and finishSelTol. An
// element of 1e-6 step lengths next to a switch has multipliers of that
// size, and the relaxed NLPs leave the selections of the mode it is not
// in at about σ/λ, above them (measured up to 1.9e-3 against 2.5e-7).
func (s *Simulator) solutionModes(w []float64) [][]bool {
	sigs := make([][]bool, s.tr.NE)
	for n := range sigs {
		lam, sel := s.elementSides(w, n)
		sigs[n] = make([]bool, len(lam))
		for k := range lam {
			sigs[n][k] = sel[k] > lam[k] && sel[k] > finishSelTol
		}
	}
	return sigs
}

// finishSelTol is the smallest selection (a convex weight in [0, 1]) that
// solutionModes takes as positive.
const finishSelTol = 1e-2

// mergeTouching merges every event of ev that the next follows within tol
// into one, at the first's time and state, with the next's mode: the
// bisection of an event can end on the surface itself, whose signature (no
// selection above 1/2, or both) is neither region's, and the next substep
// then leaves it.
func mergeTouching(ev []event, tol float64) []event {
	out := ev[:0:0]
	for i := 0; i < len(ev); i++ {
		e := ev[i]
		for i > 0 && i+1 < len(ev) && ev[i+1].t-e.t <= tol {
			e.m = ev[i+1].m
			i++
		}
		out = append(out, e)
	}
	return out
}

// pieceMode returns the mode of the piece of the solution w (outputs out)
// that starts with element n, of signature sig: the algebraic values the
// model gives at its first stage state when that state lies in the region
// of sig (region = true), else the point's own values there (a sliding
// motion, whose signature is no region's: its convex combination).
func (s *Simulator) pieceMode(pr *predictor, out *outputs, w []float64, n int, sig []bool) (m mode, region bool) {
	tr := s.tr
	x := out.xs[n*tr.ns*tr.nx : (n*tr.ns+1)*tr.nx]
	if z, zsig, ok := pr.guess(x); ok && sameSig(zsig, sig) {
		return mode{sig: sig, z: z}, true
	}
	return mode{sig: sig, z: clone(w[tr.z[n][0] : tr.z[n][0]+tr.nz])}, false
}

// needsFinish reports whether the finish runs on the homotopy's point of
// the step, with the events ev and piece modes ends of solutionEvents: when
// the point has a switch (not a sliding motion at its start that continues
// the previous step's), or its start or end state, in the region of its
// first or last piece, lies within freeSideTol of a switching surface of
// that region (a multiplier of a pair whose selection is zero there below
// it; a sliding piece lies on its surface and is not checked). end reports
// a switch within finishNear·T of the step's end or the end state near a
// surface: the next step, which starts there, is finished too
// (Simulator.finishedEnd).
func (s *Simulator) needsFinish(pr *predictor, ev []event, ends pieceEnds, xT []float64, slidBefore bool) (run, end bool) {
	for i, e := range ev[1:] {
		if i == 0 && e.m.slide != nil && slidBefore {
			continue
		}
		run = true
		end = end || s.T-e.t < finishNear*s.T
	}
	near := func(x []float64, m mode, region bool) bool {
		if !region {
			return false
		}
		z, _, ok := pr.guess(x)
		if !ok {
			return false
		}
		k := 0
		for _, g := range s.d.Comp {
			for _, p := range g.Pairs {
				if !m.sig[k] && math.Abs(z[p.Lambda]) < freeSideTol {
					return true
				}
				k++
			}
		}
		return false
	}
	end = end || near(xT, ends.last, ends.lastRegion)
	return run || end || near(ev[0].x, ends.first, ends.firstRegion), end
}

// finishStep solves the step st once more on the branch of the homotopy's
// point st.hw (see the comment at the top of this file). It returns the
// finished result, or nil when the finish does not apply or fails (then
// the homotopy's result hom keeps the failed attempt's record).
func (s *Simulator) finishStep(ctx context.Context, st *stepState, hom *StepResult) (*StepResult, error) {
	pr, ev, ends, ok := s.solutionEvents(st, st.hw, st.hpv)
	if !ok {
		return nil, nil
	}
	run, end := s.needsFinish(pr, ev, ends, hom.Final(), st.slidBefore)
	if !run && !st.afterFinishedEnd {
		return nil, nil
	}
	var sr *StepResult
	var err error
	lastBranch := s.lastBranch
	if pred := s.eventPrediction(pr, ev, st.zb0); pred != nil && pred.elements > s.tr.NE {
		if s.tr.NE >= maxRefinedElements {
			return nil, nil
		}
		var failed *mpcc.HomotopyStep
		if sr, failed, err = s.refinedFinish(ctx, pred.elements, st, ev); failed != nil {
			s.addFailed(hom, failed)
		}
	} else if pred != nil {
		fst := *st
		fst.zb0 = clone(st.zb0)
		fst.setPrediction(pred)
		fst.bounds()
		fst.branchRec = nil
		sr, err = s.branchStep(ctx, &fst)
		if sr == nil && fst.branchRec != nil {
			s.addFailed(hom, fst.branchRec)
		}
	}
	if sr == nil || err != nil {
		return nil, err
	}
	if hom.Record.Status == mpcc.Solved && !endsAgree(hom.Final(), sr.Final()) {
		// another solution of the step's MPCC, not the point's
		s.lastBranch = lastBranch
		for i := range sr.Record.Homotopy {
			s.addFailed(hom, &sr.Record.Homotopy[i])
		}
		return nil, nil
	}
	rec := hom.Record
	rec.Homotopy = append(append([]mpcc.HomotopyStep(nil), rec.Homotopy...), sr.Record.Homotopy...)
	rec.Iterations += sr.Record.Iterations
	rec.Elapsed += sr.Record.Elapsed
	rec.Status = mpcc.Solved
	rec.CompResidual, rec.NaturalResidual = sr.Record.CompResidual, sr.Record.NaturalResidual
	rec.Stationarity = sr.Record.Stationarity
	rec.Finished = true
	sr.Record = rec
	s.finishedEnd = end
	return sr, nil
}

// finishAgree bounds the change of the end state by the finish of a
// solved homotopy point, relative to its largest entry (at least 1): the
// finish corrects the point's switches, it does not move to another
// solution of the step's MPCC. Measured: at most 7.5e-7 on the matrix of
// TestSwitchAtStepBoundariesNoPredict (the switches the point moved onto
// t₀), 2.9e-6 on examples/irma without prediction.
const finishAgree = 1e-3

// endsAgree reports whether the end states a (the homotopy's) and b (the
// finish's) agree to finishAgree.
func endsAgree(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	d, scale := 0.0, 1.0
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
		scale = math.Max(scale, math.Abs(a[i]))
	}
	return d <= finishAgree*scale
}

// addFailed appends the record of a failed finish to the homotopy's.
func (s *Simulator) addFailed(hom *StepResult, br *mpcc.HomotopyStep) {
	hom.Record.Homotopy = append(hom.Record.Homotopy, *br)
	hom.Record.Iterations += br.Iterations
	hom.Record.Elapsed += br.Elapsed
}

// refinedFinish finishes the step st on the events ev with a
// transcription of ne elements (refinedStep's): its branch puts an
// element boundary at every switch. It returns nil and the failed branch
// solve's record (if any) when that branch fails.
func (s *Simulator) refinedFinish(ctx context.Context, ne int, st *stepState, ev []event) (*StepResult, *mpcc.HomotopyStep, error) {
	r, err := s.refinedSimulator(ne)
	if err != nil {
		return nil, nil, err
	}
	r.Sensitivity, r.ColdStart, r.NoPredict = s.Sensitivity, s.ColdStart, true
	r.prev, r.lastBranch = nil, nil
	rst, err := r.newStep(st.t0, st.x0, st.u, st.p)
	if err != nil {
		return nil, nil, err
	}
	rpr := &predictor{s: r, u: st.u, p: st.p, t0: st.t0, T: r.T}
	pred := r.eventPrediction(rpr, ev, rst.zb0)
	if pred == nil || pred.elements > 0 {
		return nil, nil, nil
	}
	rst.setPrediction(pred)
	rst.bounds()
	sr, err := r.branchStep(ctx, rst)
	if sr == nil || err != nil {
		return nil, rst.branchRec, err
	}
	s.prev, s.lastBranch = nil, nil
	return sr, nil, nil
}

// finishHomotopy runs the finish after the homotopy of a step without
// prediction (Simulator.Step): it returns the finished result, or the
// homotopy's result sr and error err with the homotopy point's
// sensitivities (deferred until the finish is known not to replace it).
// Options.MPCC.Finish = CertifyOnly or NoCertificate, which keep the
// homotopy point as the result, skip the finish.
func (s *Simulator) finishHomotopy(ctx context.Context, st *stepState, sr *StepResult, err error) (*StepResult, error) {
	var se *StepError
	if sr == nil || st.hw == nil || (err != nil && (!errors.As(err, &se) || se.Status == mpcc.Cancelled)) {
		return sr, err
	}
	var fr *StepResult
	var ferr error
	if f := s.o.MPCC.Finish; f != mpcc.CertifyOnly && f != mpcc.NoCertificate {
		fr, ferr = s.finishStep(ctx, st, sr)
	}
	if fr != nil && ferr == nil {
		return fr, nil
	}
	if cerr := ctx.Err(); cerr != nil && err == nil {
		s.prev = nil
		return sr, &StepError{T0: st.t0, Status: mpcc.Cancelled, Cause: cancelled(ctx)}
	}
	if err != nil {
		return sr, err
	}
	s.prev = st.hw
	if s.Sensitivity {
		if sr.Sens, err = s.stepSensitivity(ctx, st.hw, st.u, st.p, st.hpv, st.xl, st.xu, nil); err != nil {
			return sr, err
		}
	}
	return sr, nil
}
