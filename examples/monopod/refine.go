package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
)

// refineMaxIter is the iteration limit per homotopy step of both recipes
// (package doc) unless -max-iter is given.
const refineMaxIter = 3000

// refineFixed are the flags whose values the refinement sweep sets itself
// (the two recipes of the package doc); giving them with -refine is an
// error rather than silently overridden.
var refineFixed = []string{"baumgarte", "terminal-tol", "terminal-vel-tol", "sigma0", "max-steps",
	"finish-baumgarte", "finish-terminal-tol", "finish-plain-first", "finish-second-sigma0", "finish-sigma0", "finish", "init-ref", "init-x0", "warm", "foot-ground", "finish-foot-ground"}

// targetsRecipe returns c with the targets recipe: nosnoc's homotopy, its
// ℓ∞ finish, one Scholtes step at σ = 1e-5, then the finish on the OCP
// with the Baumgarte gain k = 10 and the terminal box 5e-4 (-terminal-ball
// is for the refinement recipe only).
func targetsRecipe(c config) config {
	c.FinishPlainFirst, c.FinishBaumgarte, c.FinishTerminalTol = true, 10, 5e-4
	c.TerminalBall = 0
	c.InitFrom, c.fromName = nil, "targets recipe"
	return c
}

// refinementRecipe returns c initialized from the result from (named
// name) with the refinement recipe: the gain k = c.RefineBaumgarte (0:
// 10) and the terminal box 5e-4, or the ball c.TerminalBall if set, in the
// whole homotopy, one Scholtes step at σ = 1e-4, then the ℓ∞ finish.
func refinementRecipe(c config, from *fesd.OCPResult, name string) config {
	c.Baumgarte, c.TerminalTol, c.Sigma0, c.MaxSteps = 10, 5e-4, 1e-4, 1
	if c.RefineBaumgarte > 0 {
		c.Baumgarte = c.RefineBaumgarte
	}
	if c.TerminalBall > 0 {
		c.TerminalTol = 0
	}
	c.InitRef, c.InitX0 = false, false
	c.InitFrom, c.fromName = from, name
	return c
}

// secondFinish returns the configuration that restarts the ℓ∞ finish of
// the run g, which ended with result r (named name) short of Solved: the
// same OCP, warm-started at r's point, the ℓ∞ homotopy anew from ρ = 1e6
// (five steps at most, no further finish). A ground pass that stopped at
// σ_N with residual 1.5e-5 (Step N = 70) ended Solved this way at 7.0e-6
// in 2 164 iterations (one run).
//
// If r's homotopy ended on a failed step after successful ones, the
// restart starts from the last successful point (r.LastSuccess; name gets
// the suffix /last_success) rather than from the failed one.
func secondFinish(g config, r *fesd.OCPResult, name string) config {
	if r.LastSuccess != nil {
		r, name = r.LastSuccess, name+"/last_success"
	}
	g.InitFrom, g.Warm, g.fromName = nil, r.NLPSolution(), name
	g.Steering, g.Sigma0, g.MaxSteps, g.Finish = mpcc.LInf, 1e-6, 5, mpcc.Direct
	return g
}

// runName is the folder of the run with n stages in mode f.
func runName(n int, f dcs.Formulation) string {
	return fmt.Sprintf("N%d_%s", n, strings.ToLower(f.String()))
}

// refineSweep solves the monopod for every N in Ns in both DCS modes by
// mesh refinement (refineChain) and writes every run into its folder under
// out and its row into the sweep table.
func refineSweep(ctx context.Context, c config, Ns []int, ground bool, out string, stdout io.Writer) error {
	if c.Finish == mpcc.Direct {
		return fmt.Errorf("-refine: both recipes end with the ℓ∞ finish (-finish none given)")
	}
	var rows []summary
	run := func(cfg config, dir string) (*fesd.OCPResult, error) {
		s, r, err := solveWriteResult(ctx, cfg, filepath.Join(out, dir), stdout)
		if err != nil {
			return nil, err
		}
		rows = append(rows, s)
		return r, writeSweep(out, rows)
	}
	return refineChain(ctx, c, Ns, ground, run)
}

// runFunc runs cfg into the folder dir, records its row and returns its
// result.
type runFunc func(cfg config, dir string) (*fesd.OCPResult, error)

// source is a result and the folder it was written to.
type source struct {
	r    *fesd.OCPResult
	name string
}

// refineChain solves the monopod for every N in Ns in both DCS modes by
// mesh refinement: Stewart at the first N by the targets recipe (or from
// c.InitFrom with the refinement recipe), Stewart at every later N from the
// last Stewart solution that ended Solved, and Step at every N from the
// Stewart solution it ran after (the one just computed if it ended
// Solved). Each row's time is that run's own; the sources' times are in
// their own rows. The chain goes on after a failed run.
//
// With ground, every run is followed by ground passes: the refinement
// recipe at the same N and mode with the stage-point foot constraint (foot
// height ≥ −c.FootSlack), in folders with the suffixes _ground, _ground2,
// … and rows of their own. A pass that does not end Solved is followed by
// secondFinish's restart of its ℓ∞ finish (the next folder). The sources,
// tried in turn until a pass (or its restart) ends Solved, are
//
//  0. for the passes at the first N (both modes), the c.InitFrom
//     solution itself (the certified N = 30 point of testdata, whose
//     unconstrained run went below the ground);
//  1. the solved ground pass of the same mode at the largest smaller N
//     (Step N = 80 solved this way from Step N = 70);
//  2. for Step, the solved Stewart ground pass at the same N (Step N = 50
//     solved this way where the pass from Step N = 60 stalled);
//  3. the run the passes follow.
//
// The coarse N rarely solve from their own unconstrained runs (their
// passes stalled at residuals 3.4e-5 to 1.5e-4 at N = 30–60, see the
// package doc), so after the sweep a descending chain goes back
// over every N and mode without a solved ground pass, from the largest N
// down: Stewart from the solved Stewart ground pass at the smallest larger
// N (Stewart N = 60 from N = 70, N = 50 from N = 60), Step from the Stewart
// ground pass at the same N, then from the Step ground pass at the
// smallest larger N. A source already tried for a run is not tried again.
func refineChain(ctx context.Context, c config, Ns []int, ground bool, run runFunc) error {
	src, srcName := c.InitFrom, c.fromName
	// solved[f][n] is the ground pass of mode f at N = n that ended Solved
	// (after the restart if need be).
	solved := map[dcs.Formulation]map[int]source{dcs.Stewart: {}, dcs.Step: {}}
	// nearest returns the solved ground pass of mode f at the N nearest
	// to n on the side given by above (false if there is none).
	nearest := func(f dcs.Formulation, n int, above bool) (source, bool) {
		best, found := 0, false
		for m := range solved[f] {
			if (above && m > n || !above && m < n) && (!found || above && m < best || !above && m > best) {
				best, found = m, true
			}
		}
		return solved[f][best], found
	}
	folders := map[string]int{}   // ground folders so far per run name
	tried := map[[2]string]bool{} // (run name, source name) pairs tried
	// passes runs the ground passes of N = n in mode f from the sources in
	// turn until one ends Solved.
	passes := func(n int, f dcs.Formulation, srcs []source) error {
		name := runName(n, f)
		folder := func() string {
			folders[name]++
			if k := folders[name]; k > 1 {
				return fmt.Sprintf("%s_ground%d", name, k)
			}
			return name + "_ground"
		}
		for _, sr := range srcs {
			if _, ok := solved[f][n]; ok {
				return nil
			}
			if tried[[2]string{name, sr.name}] {
				continue
			}
			tried[[2]string{name, sr.name}] = true
			if err := ctx.Err(); err != nil {
				return err
			}
			g := refinementRecipe(c, sr.r, sr.name) // not the run's config: the targets recipe's finish settings stay out
			g.N, g.Form, g.FootGround = n, f, true
			gdir := folder()
			gr, err := run(g, gdir)
			if err != nil {
				return err
			}
			if gr.Status != mpcc.Solved {
				rdir := folder()
				if gr, err = run(secondFinish(g, gr, gdir), rdir); err != nil {
					return err
				}
				gdir = rdir
			}
			if gr.Status == mpcc.Solved {
				solved[f][n] = source{gr, gdir}
			}
		}
		return ctx.Err()
	}
	// groundSources returns the sources of the ground passes of N = n in
	// mode f, in the order tried: the mode's own chain (from below on the
	// way up, from above on the way down), Stewart at the same N for Step,
	// and own (if not nil) last.
	groundSources := func(n int, f dcs.Formulation, above bool, own *source) []source {
		var srcs []source
		chain, hasChain := nearest(f, n, above)
		if hasChain && !above {
			srcs = append(srcs, chain)
		}
		if sw, ok := solved[dcs.Stewart][n]; ok && f == dcs.Step {
			srcs = append(srcs, sw)
		}
		if hasChain && above {
			srcs = append(srcs, chain)
		}
		if own != nil {
			srcs = append(srcs, *own)
		}
		return srcs
	}
	// solve runs cfg (N and DCS mode set) into its folder, adds its row
	// and, with ground, its ground passes, from first (if not nil) before
	// the sources of groundSources.
	solve := func(cfg config, first *source) (*fesd.OCPResult, error) {
		name := runName(cfg.N, cfg.Form)
		r, err := run(cfg, name)
		if err != nil || !ground {
			return r, err
		}
		srcs := groundSources(cfg.N, cfg.Form, false, &source{r, name})
		if first != nil {
			srcs = append([]source{*first}, srcs...)
		}
		return r, passes(cfg.N, cfg.Form, srcs)
	}
	// The solution given with -init-from is the first source of the
	// first N's ground passes in both modes: the unconstrained run from it
	// may leave a point that already meets the constraints (Stewart N = 30
	// from testdata/N30_stewart_solution.json went 1.1 cm below the ground
	// and its ground pass stalled at 5.0e-5; Step N = 30 from the Stewart
	// ground pass made from that point stalled at 2.0e-3, from the
	// testdata point it solves; one run each).
	var initSrc *source
	if src != nil {
		initSrc = &source{src, srcName}
	}
	for i, n := range Ns {
		sc := c
		sc.N, sc.Form = n, dcs.Stewart
		if src == nil {
			sc = targetsRecipe(sc)
		} else {
			sc = refinementRecipe(sc, src, srcName)
		}
		var first *source
		if i == 0 {
			first = initSrc
		}
		r, err := solve(sc, first)
		if err != nil {
			return err
		}
		if r.Status == mpcc.Solved || src == nil {
			src, srcName = r, runName(n, dcs.Stewart)
		}
		st := c
		st.N, st.Form = n, dcs.Step
		if _, err := solve(refinementRecipe(st, src, srcName), first); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if !ground {
		return nil
	}
	down := slices.Clone(Ns)
	slices.Sort(down)
	slices.Reverse(down)
	for _, n := range down {
		for _, f := range []dcs.Formulation{dcs.Stewart, dcs.Step} {
			if err := passes(n, f, groundSources(n, f, true, nil)); err != nil {
				return err
			}
		}
	}
	return nil
}
