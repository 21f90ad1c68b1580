//go:build ipopt

package ipopt

/*
#cgo CFLAGS: -I/usr/include/coin -DHAVE_CSTDDEF
#cgo LDFLAGS: -lipopt
#include <stdint.h>
#include <stdlib.h>
#include "IpStdCInterface.h"

IpoptProblem fesd_ipopt_create(Index n, Number *xl, Number *xu, Index m, Number *gl, Number *gu,
                               Index nele_jac, Index nele_hess);
*/
import "C"

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/cgo"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/fesd-go/fesd/nlp"
)

// ErrIPOPT is wrapped by the errors of Solve that come from IPOPT itself
// (problem creation, an option it rejects, a return status that means the
// solve could not run).
var ErrIPOPT = errors.New("ipopt: IPOPT failed")

// Option is an extra IPOPT option, set after those mapped from
// nlp.Settings. Value must be a string, an int or a float64.
type Option struct {
	Name  string
	Value any
}

// Solver solves an nlp.Problem with IPOPT.
type Solver struct {
	// Settings are mapped to IPOPT options (package documentation).
	Settings nlp.Settings
	// Options are set after the mapped ones (they win).
	Options []Option
	// NoTimingStatistics skips print_timing_statistics (and the temporary
	// output file it needs); Time.Factorization and Time.Solve are then 0.
	NoTimingStatistics bool
	// CountFactorizations counts IPOPT's KKT factorizations into
	// Result.Counts.Factorizations (default false: 0). IPOPT does not
	// return the count; it is read from its output at file_print_level 6
	// (J_DETAILED), where the MUMPS interface reports every numerical
	// factorization with its INFO(9) line — the least-squares multipliers,
	// every inertia-correction trial and the restoration phase included,
	// as nlp.Counts.Factorizations counts them. The output file is then
	// written even with NoTimingStatistics (a few kB per iteration), and
	// Settings.Log receives that detailed output.
	CountFactorizations bool
}

// ReturnStatus is IPOPT's ApplicationReturnStatus.
type ReturnStatus int

// IPOPT's return codes (IpReturnCodes_inc.h).
const (
	SolveSucceeded                 ReturnStatus = 0
	SolvedToAcceptableLevel        ReturnStatus = 1
	InfeasibleProblemDetected      ReturnStatus = 2
	SearchDirectionBecomesTooSmall ReturnStatus = 3
	DivergingIterates              ReturnStatus = 4
	UserRequestedStop              ReturnStatus = 5
	FeasiblePointFound             ReturnStatus = 6
	MaximumIterationsExceeded      ReturnStatus = -1
	RestorationFailed              ReturnStatus = -2
	ErrorInStepComputation         ReturnStatus = -3
	MaximumCpuTimeExceeded         ReturnStatus = -4
	NotEnoughDegreesOfFreedom      ReturnStatus = -10
	InvalidProblemDefinition       ReturnStatus = -11
	InvalidOption                  ReturnStatus = -12
	InvalidNumberDetected          ReturnStatus = -13
	UnrecoverableException         ReturnStatus = -100
	NonIpoptExceptionThrown        ReturnStatus = -101
	InsufficientMemory             ReturnStatus = -102
	InternalError                  ReturnStatus = -199
)

var statusTable = map[ReturnStatus]struct {
	name string
	st   nlp.Status
	run  bool // false: the solve could not run (Solve returns an error)
}{
	SolveSucceeded:                 {"Solve_Succeeded", nlp.Solved, true},
	SolvedToAcceptableLevel:        {"Solved_To_Acceptable_Level", nlp.SolvedAcceptable, true},
	InfeasibleProblemDetected:      {"Infeasible_Problem_Detected", nlp.Infeasible, true},
	SearchDirectionBecomesTooSmall: {"Search_Direction_Becomes_Too_Small", nlp.NumericalError, true},
	DivergingIterates:              {"Diverging_Iterates", nlp.Diverging, true},
	UserRequestedStop:              {"User_Requested_Stop", nlp.UserStop, true},
	FeasiblePointFound:             {"Feasible_Point_Found", nlp.Solved, true},
	MaximumIterationsExceeded:      {"Maximum_Iterations_Exceeded", nlp.IterationLimit, true},
	RestorationFailed:              {"Restoration_Failed", nlp.NumericalError, true},
	ErrorInStepComputation:         {"Error_In_Step_Computation", nlp.NumericalError, true},
	MaximumCpuTimeExceeded:         {"Maximum_CpuTime_Exceeded", nlp.TimeLimit, true},
	NotEnoughDegreesOfFreedom:      {"Not_Enough_Degrees_Of_Freedom", nlp.NumericalError, false},
	InvalidProblemDefinition:       {"Invalid_Problem_Definition", nlp.NumericalError, false},
	InvalidOption:                  {"Invalid_Option", nlp.NumericalError, false},
	InvalidNumberDetected:          {"Invalid_Number_Detected", nlp.NumericalError, true},
	UnrecoverableException:         {"Unrecoverable_Exception", nlp.NumericalError, false},
	NonIpoptExceptionThrown:        {"NonIpopt_Exception_Thrown", nlp.NumericalError, false},
	InsufficientMemory:             {"Insufficient_Memory", nlp.NumericalError, false},
	InternalError:                  {"Internal_Error", nlp.NumericalError, false},
}

// String returns IPOPT's name of the status.
func (r ReturnStatus) String() string {
	if e, ok := statusTable[r]; ok {
		return e.name
	}
	return "ReturnStatus(" + strconv.Itoa(int(r)) + ")"
}

// Status maps r to the nlp status (Search_Direction_Becomes_Too_Small is a
// NumericalError, Feasible_Point_Found Solved).
func (r ReturnStatus) Status() nlp.Status {
	if e, ok := statusTable[r]; ok {
		return e.st
	}
	return nlp.NumericalError
}

// state is what the callbacks reach through the cgo.Handle.
type state struct {
	ctx        context.Context
	p          nlp.Problem
	jRow, jCol []int
	hRow, hCol []int
	zeroM      []float64

	counts   nlp.Counts
	evalTime time.Duration
	err      error // first callback error
	stop     nlp.Status
	stopped  bool

	t0, deadline time.Time
	setup        time.Duration
	history      []nlp.IterRecord
	iter         int
	mu           float64
	first        bool
}

func (s *state) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// intermediate records one iteration and decides whether IPOPT goes on.
func (s *state) intermediate(r nlp.IterRecord) bool {
	if !s.first {
		s.first = true
		s.setup = time.Since(s.t0)
	}
	s.history = append(s.history, r)
	s.iter, s.mu = r.Iter, r.Mu
	switch {
	case s.err != nil:
		s.stop = nlp.UserStop
	case s.ctx.Err() != nil:
		s.stop = nlp.Cancelled
	case !s.deadline.IsZero() && time.Now().After(s.deadline):
		s.stop = nlp.TimeLimit
	default:
		return true
	}
	s.stopped = true
	return false
}

// Solve minimizes p with IPOPT. The error is non-nil when the solve could not
// run (inconsistent dimensions or structure, IPOPT rejected the problem or
// an option; the result is then nil) and when ctx stopped it: then the
// result has Status nlp.Cancelled and the error wraps ctx.Err(), as with
// nlp.Solver. Other numerical outcomes are in Result.Status.
func (s *Solver) Solve(ctx context.Context, p nlp.Problem) (*nlp.Result, error) {
	res, _, err := s.SolveStatus(ctx, p)
	return res, err
}

// SolveStatus is Solve that also returns IPOPT's own return status.
func (s *Solver) SolveStatus(ctx context.Context, p nlp.Problem) (*nlp.Result, ReturnStatus, error) {
	t0 := time.Now()
	if err := s.Settings.Validate(); err != nil {
		return nil, 0, err
	}
	n, m := p.Dims()
	if n < 0 || m < 0 {
		return nil, 0, fmt.Errorf("%w: n = %d, m = %d", nlp.ErrDimension, n, m)
	}
	b := &bounds{xL: make([]float64, n), xU: make([]float64, n), gL: make([]float64, m), gU: make([]float64, m)}
	p.Bounds(b.xL, b.xU, b.gL, b.gU)
	st := &state{ctx: ctx, p: p, t0: t0, zeroM: make([]float64, m)}
	if err := st.structure(n, m); err != nil {
		return nil, 0, err
	}
	if s.Settings.MaxWallTime > 0 {
		st.deadline = t0.Add(s.Settings.MaxWallTime)
	}

	prob := C.fesd_ipopt_create(C.int(n), ptr(b.xL), ptr(b.xU), C.int(m), ptr(b.gL), ptr(b.gU),
		C.int(len(st.jRow)), C.int(len(st.hRow)))
	if prob == nil {
		return nil, 0, fmt.Errorf("%w: CreateIpoptProblem returned NULL", ErrIPOPT)
	}
	defer C.FreeIpoptProblem(prob)

	pt, warmDuals, err := s.startPoint(p, n, m, b)
	if err != nil {
		return nil, 0, err
	}
	var outFile string
	if !s.NoTimingStatistics || s.Settings.Log != nil || s.CountFactorizations {
		f, err := os.CreateTemp("", "fesd-ipopt-*.out")
		if err != nil {
			return nil, 0, err
		}
		outFile = f.Name()
		f.Close()
		defer os.Remove(outFile)
	}
	if err := s.setOptions(prob, outFile, warmDuals); err != nil {
		return nil, 0, err
	}

	h := cgo.NewHandle(st)
	defer h.Delete()
	ud := (*C.uintptr_t)(C.malloc(C.size_t(unsafe.Sizeof(C.uintptr_t(0)))))
	defer C.free(unsafe.Pointer(ud))
	*ud = C.uintptr_t(h)

	g := make([]float64, m)
	var obj C.double
	rs := ReturnStatus(C.IpoptSolve(prob, ptr(pt.x), ptr(g), &obj, ptr(pt.yBuf), ptr(pt.zL), ptr(pt.zU), C.UserDataPtr(unsafe.Pointer(ud))))
	total := time.Since(t0)

	e, known := statusTable[rs]
	if !known || !e.run {
		return nil, rs, fmt.Errorf("%w: %v", ErrIPOPT, rs)
	}
	res := st.result(rs, pt, g, float64(obj), total)
	s.readOutput(res, outFile)
	finalErrors(p, res, b.xL, b.xU, b.gL, b.gU)
	if res.Status == nlp.Cancelled {
		// The rule of nlp.Solver.Solve: the partial result and an error
		// wrapping ctx.Err().
		return res, rs, fmt.Errorf("ipopt: solve cancelled after %d iterations: %w", res.Iterations, ctx.Err())
	}
	return res, rs, nil
}

// bounds are the variable and constraint bounds of a problem.
type bounds struct{ xL, xU, gL, gU []float64 }

// point is the primal-dual point IPOPT starts from and overwrites with its
// solution.
type point struct {
	x, y, zL, zU []float64
	// yBuf holds y: with m = 0 it still has one (unused) element, because
	// IPOPT's C interface asks for the constraint multipliers of a warm
	// start and fails (Unrecoverable_Exception) when the pointer is NULL.
	yBuf []float64
}

// ptr is the C pointer of a vector handed to C; empty vectors give nil
// (fine only for outputs).
func ptr(v []float64) *C.double {
	if len(v) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(&v[0]))
}

// structure reads the sparsity structures of the problem and checks them.
func (st *state) structure(n, m int) error {
	p := st.p
	st.jRow, st.jCol = p.JacobianStructure()
	st.hRow, st.hCol = p.HessianStructure()
	if len(st.jRow) != len(st.jCol) || len(st.hRow) != len(st.hCol) {
		return fmt.Errorf("%w: structure lists of different lengths", nlp.ErrStructure)
	}
	for k := range st.jRow {
		if st.jRow[k] < 0 || st.jRow[k] >= m || st.jCol[k] < 0 || st.jCol[k] >= n {
			return fmt.Errorf("%w: Jacobian entry %d = (%d, %d)", nlp.ErrStructure, k, st.jRow[k], st.jCol[k])
		}
	}
	for k := range st.hRow {
		if st.hCol[k] < 0 || st.hRow[k] < st.hCol[k] || st.hRow[k] >= n {
			return fmt.Errorf("%w: Hessian entry %d = (%d, %d)", nlp.ErrStructure, k, st.hRow[k], st.hCol[k])
		}
	}
	return nil
}

// startPoint is the start of the solve: the warm start's point, or the
// problem's, with the warm start's multipliers when it has any (warmDuals).
func (s *Solver) startPoint(p nlp.Problem, n, m int, b *bounds) (pt *point, warmDuals bool, err error) {
	pt = &point{x: make([]float64, n), yBuf: make([]float64, max(m, 1)), zL: make([]float64, n), zU: make([]float64, n)}
	pt.y = pt.yBuf[:m]
	ws := s.Settings.WarmStart
	if ws != nil && ws.X != nil {
		if len(ws.X) != n {
			return nil, false, fmt.Errorf("%w: WarmStart.X has length %d, want %d", nlp.ErrDimension, len(ws.X), n)
		}
		copy(pt.x, ws.X)
	} else {
		p.Start(pt.x)
	}
	warmDuals = ws != nil && (ws.Y != nil || ws.ZL != nil || ws.ZU != nil)
	if warmDuals {
		if err := warmMultipliers(ws, b.xL, b.xU, pt.y, pt.zL, pt.zU); err != nil {
			return nil, false, err
		}
	}
	return pt, warmDuals, nil
}

// result assembles the result of a run that ended with rs at pt.
func (st *state) result(rs ReturnStatus, pt *point, g []float64, obj float64, total time.Duration) *nlp.Result {
	res := &nlp.Result{
		Status:     rs.Status(),
		Iterations: st.iter,
		X:          pt.x,
		Objective:  obj,
		G:          g,
		Y:          pt.y,
		ZL:         pt.zL,
		ZU:         pt.zU,
		Mu:         st.mu,
		History:    st.history,
		Counts:     st.counts,
		Time: nlp.Timing{
			Total:      total,
			Evaluation: st.evalTime,
			Setup:      st.setup,
		},
	}
	switch {
	case st.err != nil:
		res.Status = nlp.UserStop
	case rs == UserRequestedStop && st.stopped:
		res.Status = st.stop
	}
	if !res.Status.Success() {
		// IPOPT 3.11 does not return f and g on every failure.
		if f, err := st.p.Objective(pt.x); err == nil {
			res.Objective = f
		}
		if len(g) > 0 {
			_ = st.p.Constraints(pt.x, g)
		}
	}
	return res
}

// readOutput takes the timing statistics and factorization count from
// IPOPT's output file and copies it to the log.
func (s *Solver) readOutput(res *nlp.Result, outFile string) {
	if outFile == "" {
		return
	}
	out, err := os.ReadFile(outFile)
	if err != nil {
		return
	}
	if !s.NoTimingStatistics {
		res.Time.Factorization, res.Time.Solve = parseTiming(out)
	}
	if s.CountFactorizations {
		res.Counts.Factorizations = countFactorizations(out)
	}
	if s.Settings.Log != nil {
		_, _ = s.Settings.Log.Write(out)
	}
}

// warmMultipliers fills y, zL, zU from a warm start; missing parts are y = 0
// and z = 1 (bound_mult_init_val, as nlp's cold start) on finite bounds.
func warmMultipliers(ws *nlp.WarmStart, xL, xU, y, zL, zU []float64) error {
	const zInit = 1.0
	set := func(dst, src []float64, name string, def func(j int) float64) error {
		if src == nil {
			for j := range dst {
				dst[j] = def(j)
			}
			return nil
		}
		if len(src) != len(dst) {
			return fmt.Errorf("%w: WarmStart.%s has length %d, want %d", nlp.ErrDimension, name, len(src), len(dst))
		}
		copy(dst, src)
		return nil
	}
	finite := func(b []float64) func(int) float64 {
		return func(j int) float64 {
			if math.IsInf(b[j], 0) {
				return 0
			}
			return zInit
		}
	}
	if err := set(y, ws.Y, "Y", func(int) float64 { return 0 }); err != nil {
		return err
	}
	if err := set(zL, ws.ZL, "ZL", finite(xL)); err != nil {
		return err
	}
	return set(zU, ws.ZU, "ZU", finite(xU))
}

// setOptions maps the nlp settings to IPOPT options.
func (s *Solver) setOptions(prob C.IpoptProblem, outFile string, warm bool) error {
	set := s.Settings
	var err error
	num := func(name string, v float64) {
		if err != nil {
			return
		}
		cn := C.CString(name)
		defer C.free(unsafe.Pointer(cn))
		if C.AddIpoptNumOption(prob, cn, C.double(v)) == 0 {
			err = fmt.Errorf("%w: option %s = %g rejected", ErrIPOPT, name, v)
		}
	}
	integer := func(name string, v int) {
		if err != nil {
			return
		}
		cn := C.CString(name)
		defer C.free(unsafe.Pointer(cn))
		if C.AddIpoptIntOption(prob, cn, C.int(v)) == 0 {
			err = fmt.Errorf("%w: option %s = %d rejected", ErrIPOPT, name, v)
		}
	}
	str := func(name, v string) {
		if err != nil {
			return
		}
		cn, cv := C.CString(name), C.CString(v)
		defer C.free(unsafe.Pointer(cn))
		defer C.free(unsafe.Pointer(cv))
		if C.AddIpoptStrOption(prob, cn, cv) == 0 {
			err = fmt.Errorf("%w: option %s = %s rejected", ErrIPOPT, name, v)
		}
	}
	numIf := func(name string, v float64) {
		if v != 0 {
			num(name, v)
		}
	}

	str("sb", "yes")
	integer("print_level", 0)
	str("linear_solver", "mumps")
	str("hessian_approximation", "exact")
	numIf("tol", set.Tol)
	numIf("dual_inf_tol", set.DualInfTol)
	numIf("constr_viol_tol", set.ConstrViolTol)
	numIf("compl_inf_tol", set.ComplInfTol)
	numIf("acceptable_tol", set.AcceptableTol)
	switch {
	case set.AcceptableIter < 0:
		integer("acceptable_iter", 0)
	case set.AcceptableIter > 0:
		integer("acceptable_iter", set.AcceptableIter)
	}
	switch {
	case set.MaxIter < 0:
		integer("max_iter", 0)
	case set.MaxIter > 0:
		integer("max_iter", set.MaxIter)
	}
	if set.MuStrategy == nlp.MuAdaptive {
		str("mu_strategy", "adaptive")
		if set.MuOracle == nlp.OracleProbing {
			str("mu_oracle", "probing")
		} else {
			str("mu_oracle", "quality-function")
		}
	} else {
		str("mu_strategy", "monotone")
	}
	numIf("mu_init", set.MuInit)
	if set.NoBoundRelax {
		num("bound_relax_factor", 0)
	}
	if warm {
		str("warm_start_init_point", "yes")
		if set.WarmStartBoundPush > 0 {
			num("warm_start_bound_push", set.WarmStartBoundPush)
			num("warm_start_bound_frac", set.WarmStartBoundPush)
			num("warm_start_slack_bound_push", set.WarmStartBoundPush)
			num("warm_start_slack_bound_frac", set.WarmStartBoundPush)
		}
		numIf("warm_start_mult_bound_push", set.WarmStartMultPush)
	}
	if outFile != "" {
		level := 3 // summary and timing statistics
		if set.Log != nil {
			level = 5 // iteration log
		}
		if s.CountFactorizations {
			level = 6 // the MUMPS interface's factorization reports
		}
		if !s.NoTimingStatistics {
			str("print_timing_statistics", "yes")
		}
		if err == nil {
			cf := C.CString(outFile)
			defer C.free(unsafe.Pointer(cf))
			if C.OpenIpoptOutputFile(prob, cf, C.int(level)) == 0 {
				err = fmt.Errorf("%w: cannot open output file %s", ErrIPOPT, outFile)
			}
		}
	}
	for _, o := range s.Options {
		switch v := o.Value.(type) {
		case string:
			str(o.Name, v)
		case int:
			integer(o.Name, v)
		case float64:
			num(o.Name, v)
		default:
			if err == nil {
				err = fmt.Errorf("%w: option %s has type %T", ErrIPOPT, o.Name, o.Value)
			}
		}
	}
	return err
}

// parseTiming reads IPOPT's timing statistics. IPOPT 3.11 with MUMPS books
// the numerical factorization outside LinearSystemFactorization (it happens
// inside the solver interface's MultiSolve), so the linear algebra is taken
// as a whole from StdAugSystemSolverMultiSolve (augmented-system solves:
// structure conversion, scaling, symbolic and numeric factorization and
// back-solves); solve is LinearSystemBackSolve and fact the rest. Wall
// times, first occurrence of each line.
func parseTiming(out []byte) (fact, solve time.Duration) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	get := func(line string) time.Duration {
		i := strings.Index(line, "wall:")
		if i < 0 {
			return 0
		}
		f := strings.Fields(line[i+len("wall:"):])
		if len(f) == 0 {
			return 0
		}
		v, err := strconv.ParseFloat(strings.TrimRight(f[0], ")"), 64)
		if err != nil {
			return 0
		}
		return time.Duration(v * float64(time.Second))
	}
	var multi time.Duration
	seenM, seenS := false, false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case !seenM && strings.HasPrefix(line, "StdAugSystemSolverMultiSolve"):
			multi, seenM = get(line), true
		case !seenS && strings.HasPrefix(line, "LinearSystemBackSolve"):
			solve, seenS = get(line), true
		}
	}
	return max(0, multi-solve), solve
}

// mumpsFactorLine starts the line IPOPT's MUMPS interface prints (at
// J_DETAILED) after every numerical factorization, successful or not
// (IpMumpsSolverInterface.cpp, Factorization).
const mumpsFactorLine = "Number of doubles for MUMPS to hold factorization (INFO(9))"

// countFactorizations counts the numerical factorizations in IPOPT's
// output.
func countFactorizations(out []byte) int {
	return bytes.Count(out, []byte(mumpsFactorLine))
}

// finalErrors sets the unscaled final errors of res as package nlp defines
// them: bound and constraint violation, ‖∇f + JᵀY − ZL + ZU‖∞ and the
// largest complementarity product (bounds and inequality constraints).
func finalErrors(p nlp.Problem, res *nlp.Result, xL, xU, gL, gU []float64) {
	n := len(res.X)
	pinf, compl := 0.0, 0.0
	for i, gi := range res.G {
		pinf = math.Max(pinf, math.Max(gL[i]-gi, gi-gU[i]))
		if gL[i] != gU[i] {
			if y := res.Y[i]; y < 0 && !math.IsInf(gL[i], 0) {
				compl = math.Max(compl, -y*(gi-gL[i]))
			} else if y > 0 && !math.IsInf(gU[i], 0) {
				compl = math.Max(compl, y*(gU[i]-gi))
			}
		}
	}
	for j, x := range res.X {
		pinf = math.Max(pinf, math.Max(xL[j]-x, x-xU[j]))
		if !math.IsInf(xL[j], 0) {
			compl = math.Max(compl, res.ZL[j]*(x-xL[j]))
		}
		if !math.IsInf(xU[j], 0) {
			compl = math.Max(compl, res.ZU[j]*(xU[j]-x))
		}
	}
	res.PrimalInfeasibility, res.Complementarity = math.Max(0, pinf), compl
	grad := make([]float64, n)
	if p.Gradient(res.X, grad) != nil {
		res.DualInfeasibility = math.NaN()
		return
	}
	vals := make([]float64, len(res.X)+1)
	rows, cols := p.JacobianStructure()
	if len(rows) > 0 {
		vals = make([]float64, len(rows))
		if p.JacobianValues(res.X, vals) != nil {
			res.DualInfeasibility = math.NaN()
			return
		}
	}
	for k, i := range rows {
		grad[cols[k]] += vals[k] * res.Y[i]
	}
	d := 0.0
	for j := range grad {
		d = math.Max(d, math.Abs(grad[j]-res.ZL[j]+res.ZU[j]))
	}
	res.DualInfeasibility = d
}
