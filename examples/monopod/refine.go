package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
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
// with the Baumgarte gain k = 10 and the terminal box 5e-4.
func targetsRecipe(c config) config {
	c.FinishPlainFirst, c.FinishBaumgarte, c.FinishTerminalTol = true, 10, 5e-4
	c.InitFrom, c.fromName = nil, "targets recipe"
	return c
}

// refinementRecipe returns c initialized from the result from (named
// name) with the refinement recipe: the gain k = 10 and the terminal box
// 5e-4 in the whole homotopy, one Scholtes step at σ = 1e-4, then the ℓ∞
// finish.
func refinementRecipe(c config, from *fesd.OCPResult, name string) config {
	c.Baumgarte, c.TerminalTol, c.Sigma0, c.MaxSteps = 10, 5e-4, 1e-4, 1
	c.InitRef, c.InitX0 = false, false
	c.InitFrom, c.fromName = from, name
	return c
}

// secondFinish returns the configuration that restarts the ℓ∞ finish of
// the run g, which ended with result r (named name) short of Solved: the
// same OCP, warm-started at r's point, the ℓ∞ homotopy anew from ρ = 1e6
// (five steps at most, no further finish). A ground pass that stopped at
// σ_N with residual 1.5e-5 (Step N = 70) ended Solved this way at 7.0e-6
// in 2 164 iterations (EXPERIMENTS.md).
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
// mesh refinement: Stewart at the first N by the targets recipe (or from
// c.InitFrom with the refinement recipe), Stewart at every later N from the
// last Stewart solution that ended Solved, and Step at every N from the
// Stewart solution it ran after (the one just computed if it ended
// Solved). Each row's time is that run's own; the sources' times are in
// their own rows. The chain goes on after a failed run.
//
// With ground, every run is followed by a ground pass: the refinement
// recipe at the same N and mode with the stage-point foot constraint (foot
// height ≥ −c.FootSlack), in a folder with the suffix _ground and a row of
// its own; if it does not end Solved, secondFinish restarts its ℓ∞ finish
// (suffix _ground2, another row). Where an earlier N has a ground pass of
// the same mode that ended Solved, the pass starts from the last such one
// first (Step N = 80 solved this way from Step N = 70, EXPERIMENTS.md) and,
// if that pass and its restart do not end Solved, runs again from the run
// it follows (suffixes _ground3 and _ground4). The chain without the
// constraint goes on from its own runs.
func refineSweep(ctx context.Context, c config, Ns []int, ground bool, out string, stdout io.Writer) error {
	if c.Finish == mpcc.Direct {
		return fmt.Errorf("-refine: both recipes end with the ℓ∞ finish (-finish none given)")
	}
	src, srcName := c.InitFrom, c.fromName
	var rows []summary
	// A run's result and the folder it was written to.
	type source struct {
		r    *fesd.OCPResult
		name string
	}
	// The last ground pass of each DCS mode that ended Solved (after the
	// restarted finish if need be): the next N's ground pass of that mode
	// starts from it.
	gsrc := map[dcs.Formulation]source{}
	// runRow runs cfg into the folder dir and adds its row.
	runRow := func(cfg config, dir string) (*fesd.OCPResult, error) {
		s, r, err := solveWriteResult(ctx, cfg, filepath.Join(out, dir), stdout)
		if err != nil {
			return nil, err
		}
		rows = append(rows, s)
		return r, writeSweep(out, rows)
	}
	// solve runs cfg (N and DCS mode set) into its folder, adds its row
	// and, with ground, its ground passes.
	solve := func(cfg config) (*fesd.OCPResult, error) {
		name := runName(cfg.N, cfg.Form)
		r, err := runRow(cfg, name)
		if err != nil || !ground {
			return r, err
		}
		// The sources of the ground pass: the last solved ground pass of
		// this mode (if any), then this run.
		srcs := []source{{r, name}}
		if prev, ok := gsrc[cfg.Form]; ok {
			srcs = []source{prev, {r, name}}
		}
		k := 0
		folder := func() string {
			k++
			if k == 1 {
				return name + "_ground"
			}
			return fmt.Sprintf("%s_ground%d", name, k)
		}
		for _, sr := range srcs {
			g := refinementRecipe(c, sr.r, sr.name) // not cfg: the targets recipe's finish settings stay out
			g.N, g.Form, g.FootGround = cfg.N, cfg.Form, true
			gdir := folder()
			gr, err := runRow(g, gdir)
			if err != nil {
				return nil, err
			}
			if gr.Status != mpcc.Solved {
				rdir := folder()
				if gr, err = runRow(secondFinish(g, gr, gdir), rdir); err != nil {
					return nil, err
				}
				gdir = rdir
			}
			if gr.Status == mpcc.Solved {
				gsrc[cfg.Form] = source{gr, gdir}
				break
			}
		}
		return r, nil
	}
	for _, n := range Ns {
		sc := c
		sc.N, sc.Form = n, dcs.Stewart
		if src == nil {
			sc = targetsRecipe(sc)
		} else {
			sc = refinementRecipe(sc, src, srcName)
		}
		r, err := solve(sc)
		if err != nil {
			return err
		}
		if r.Status == mpcc.Solved || src == nil {
			src, srcName = r, runName(n, dcs.Stewart)
		}
		st := c
		st.N, st.Form = n, dcs.Step
		if _, err := solve(refinementRecipe(st, src, srcName)); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}
