package nlp

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"
)

// Solver is a primal-dual interior-point solver with a filter line search
// (see the package documentation).
type Solver struct {
	Settings Settings
}

// Solve minimizes p. The error is non-nil when the solve could not run
// (nil p as ErrNilProblem, invalid settings, inconsistent dimensions, bounds
// or structure, NaN/Inf at the starting point as *EvalError, linear-solver
// setup failure; the result is then nil) or when a Problem method returned
// an error: then the result is that of the last accepted iterate (the
// starting point if the error came before the first step; Objective is NaN
// if f was never evaluated), its Status is UserStop, and the error wraps
// ErrCallback and the method's error. A solve stopped by ctx (cancelled, or
// its deadline passed) returns the result of the last accepted iterate with
// Status Cancelled together with an error that wraps ctx.Err(), so that
// errors.Is(err, context.Canceled) (or context.DeadlineExceeded) holds, as
// in packages mpcc and fesd. Every other numerical outcome is reported in
// Result.Status with a nil error.
func (s *Solver) Solve(ctx context.Context, p Problem) (*Result, error) {
	t0 := time.Now()
	if p == nil {
		return nil, ErrNilProblem
	}
	if err := s.Settings.Validate(); err != nil {
		return nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	prm := s.Settings.resolve()
	ip, err := newIPM(p, &s.Settings, prm, nil)
	if err != nil {
		return nil, err
	}
	rep, err := derivativeTest(p, &s.Settings)
	if err != nil {
		return nil, err
	}
	ip.ctx = ctx
	ip.t0 = t0
	ip.timing.Setup = time.Since(t0)
	st, err := ip.initialize(s.Settings.WarmStart)
	if err != nil {
		return nil, err
	}
	if st < 0 {
		st = ip.fallBack(ip.run())
	}
	st, bad := ip.probe(st)
	res := ip.result(st)
	res.Derivatives = rep
	if bad != nil {
		return res, &DerivativeError{Report: bad}
	}
	return res, ip.stopErr(st)
}

// probe runs the derivative probe (probe.go) on a successful solve: a confirmed wrong or missing first
// derivative turns the status into DerivativeMismatch and is returned.
func (ip *ipm) probe(st Status) (Status, *DerivativeReport) {
	if !st.Success() || ip.prm.noProbe {
		return st, nil
	}
	rep := probeDerivatives(ip.p, ip.w[:ip.n], ip.xLo, ip.xUp, ip.relaxAmount, ip.jRow, ip.jCol)
	if rep == nil {
		return st, nil
	}
	return DerivativeMismatch, rep
}

// derivativeTest runs Settings.DerivativeTest at the starting point: nil
// report when it is off, a *DerivativeError when it flags an entry.
func derivativeTest(p Problem, set *Settings) (*DerivativeReport, error) {
	if set.DerivativeTest == DerivativeTestNone {
		return nil, nil
	}
	n, m := p.Dims()
	x := make([]float64, n)
	if ws := set.WarmStart; ws != nil && ws.X != nil {
		copy(x, ws.X)
	} else {
		p.Start(x)
	}
	xL, xU := make([]float64, n), make([]float64, n)
	p.Bounds(xL, xU, make([]float64, m), make([]float64, m))
	for j := range x {
		x[j] = math.Min(math.Max(x[j], xL[j]), xU[j])
	}
	rep, err := CheckDerivatives(p, x, DerivativeCheck{FirstOrderOnly: set.DerivativeTest == DerivativeTestFirstOrder})
	if err != nil {
		return nil, err
	}
	if !rep.OK() {
		return nil, &DerivativeError{Report: rep}
	}
	return rep, nil
}

// Workspace keeps the analysed structure of a problem (KKT pattern and
// index maps, fill-reducing ordering, symbolic factorization, all work
// vectors) between solves, for sequences of problems with the same
// structure such as MPCC relaxation homotopies. The zero value is ready to
// use. A Workspace must not be used by several solves at once.
type Workspace struct {
	ip  *ipm
	set Settings
}

// SolveIn is Solve reusing ws. When p has the same dimensions, Jacobian and
// Hessian structures and equality pattern (g_L,i = g_U,i) as the problem of
// the previous SolveIn with ws, and Settings.LinearSolver, Ordering and the
// presence of NewLinearSolver are unchanged and MaxIter is not larger, the
// setup is skipped (Result.Time.Setup then only covers the structure
// comparison); otherwise ws is rebuilt. Values (bounds, start, functions)
// may change freely. The results are the same as with Solve, bit for bit.
func (s *Solver) SolveIn(ctx context.Context, ws *Workspace, p Problem) (*Result, error) {
	if ws == nil {
		return s.Solve(ctx, p)
	}
	t0 := time.Now()
	if p == nil {
		return nil, ErrNilProblem
	}
	if err := s.Settings.Validate(); err != nil {
		return nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	prm := s.Settings.resolve()
	ip := ws.ip
	if ip == nil || !ws.compatible(&s.Settings, prm, p) {
		ws.ip = nil
		ws.set = s.Settings
		var err error
		ip, err = newIPM(p, &ws.set, prm, nil)
		if err != nil {
			return nil, err
		}
		ws.ip = ip
	}
	ws.set = s.Settings
	ip.p, ip.prm, ip.set = p, prm, &ws.set
	rep, err := derivativeTest(p, &ws.set)
	if err != nil {
		return nil, err
	}
	ip.ctx = ctx
	ip.t0 = t0
	ip.timing.Setup = time.Since(t0)
	st, err := ip.initialize(ws.set.WarmStart)
	if err != nil {
		return nil, err
	}
	if st < 0 {
		st = ip.fallBack(ip.run())
	}
	st, bad := ip.probe(st)
	res := ip.result(st)
	res.History = slices.Clone(res.History)
	res.Derivatives = rep
	if bad != nil {
		return res, &DerivativeError{Report: bad}
	}
	return res, ip.stopErr(st)
}

// stopErr is the error Solve returns with a result: with status Cancelled
// one wrapping ctx.Err(), with UserStop callbackErr's, otherwise nil.
func (ip *ipm) stopErr(st Status) error {
	if st == Cancelled {
		if err := ip.ctx.Err(); err != nil {
			return fmt.Errorf("nlp: solve cancelled after %d iterations: %w", ip.iter, err)
		}
		return fmt.Errorf("nlp: solve cancelled after %d iterations", ip.iter)
	}
	return ip.callbackErr(st)
}

// callbackErr is the error Solve returns with status UserStop: ErrCallback
// wrapping the callback's error.
func (ip *ipm) callbackErr(st Status) error {
	if st != UserStop {
		return nil
	}
	if ip.userErr == nil {
		return ErrCallback
	}
	return fmt.Errorf("%w: %w", ErrCallback, ip.userErr)
}

// compatible reports whether ws's structure fits p and the settings.
func (ws *Workspace) compatible(set *Settings, prm params, p Problem) bool {
	ip := ws.ip
	old := &ws.set
	if set.LinearSolver != old.LinearSolver || set.Ordering != old.Ordering ||
		(set.NewLinearSolver == nil) != (old.NewLinearSolver == nil) ||
		prm.maxIter+1 > cap(ip.history) || prm.maxIter+8 > cap(ip.filter) {
		return false
	}
	n, m := p.Dims()
	if n != ip.n || m != ip.m {
		return false
	}
	jr, jc := p.JacobianStructure()
	hr, hc := p.HessianStructure()
	if !slices.Equal(jr, ip.jRow) || !slices.Equal(jc, ip.jCol) ||
		!slices.Equal(hr, ip.hRow) || !slices.Equal(hc, ip.hCol) {
		return false
	}
	gl, gu := ip.gLo, ip.gUp
	p.Bounds(ip.xLo, ip.xUp, gl, gu)
	for i := range m {
		if (gl[i] == gu[i]) != ip.isEq[i] {
			return false
		}
	}
	return true
}

// ipm holds the whole state of one solve. Every slice is allocated in
// newIPM; the iteration loop only writes into them. The state is grouped
// by component into embedded structs (their fields are reached directly,
// ip.w, ip.mu): ipmBounds (bounds, classification, scaling), ipmDerivs
// (derivative structure and values), ipmKKT (KKT matrix, linear solver,
// inertia correction), ipmIterate (iterate, trial point, error measures),
// ipmSteps (step and refinement workspaces), ipmBarrier (μ update),
// ipmFilter (filter line search) and ipmProgress (counters, history).
type ipm struct {
	p      Problem
	set    *Settings
	prm    params
	ctx    context.Context
	t0     time.Time
	parent *ipm         // non-nil for the restoration-phase solver
	rctx   *restoration // the restoration that owns this (inner) solver
	resto  *restoration // this solver's restoration phase (created lazily)
	// restoTheta is θ at the last return from the restoration phase (0:
	// none yet).
	restoTheta float64

	// userErr is the last error a Problem callback returned (reported
	// with status UserStop).
	userErr error

	n, m, nI, nw, nk int

	ipmBounds
	ipmDerivs
	ipmKKT
	ipmIterate
	ipmSteps
	ipmBarrier
	ipmFilter
	ipmProgress
}

// ipmBounds holds the scaled and relaxed bounds of w = (x, s), the
// classification of variables and constraints and the scaling.
type ipmBounds struct {
	wL, wU      []float64
	hasL, hasU  []bool // finite bounds
	onlyL       []bool // lower bound only (for κ_d damping)
	onlyU       []bool
	mL, mU      []float64 // 1 where the bound exists, else 0
	oLU         []float64 // +1 lower bound only, −1 upper bound only, else 0
	fixedIdx    []int     // indices of fixed variables
	hasHDiag    []bool    // x_j has a structural Hessian diagonal entry
	nStructZero int       // free variables without Hessian diagonal (zero KKT diagonal)
	fixed       []bool    // x_L = x_U (removed: step forced to 0)
	nFixed      int
	// square: as many free variables as constraints, all equalities (not
	// in a restoration phase); see squareSolved.
	square    bool
	nBounds   int
	isEq      []bool    // constraint i is an equality
	gEq       []float64 // scaled right-hand side of equalities
	slackOf   []int     // index in w of constraint i's slack, or −1
	slackCons []int     // constraint of slack n+k
	gLo, gUp  []float64 // original (unscaled) constraint bounds
	xLo, xUp  []float64 // original variable bounds
	df        float64   // objective scale
	dc        []float64 // constraint scales
}

// ipmDerivs holds the Jacobian and Hessian structures and values.
type ipmDerivs struct {
	jRow, jCol, hRow, hCol []int
	jSkip, hSkip           []bool // entries touching a fixed variable
	jVal, hVal             []float64
	lamTmp                 []float64
}

// ipmKKT holds the KKT system and the inertia correction.
type ipmKKT struct {
	kkt kktSystem
	ic  inertiaCorrection
	// lastDeltaW, lastDeltaC are the perturbations of the last accepted
	// step (the iteration log's).
	lastDeltaW, lastDeltaC float64
}

// ipmIterate holds the iterate and the evaluations at it (scaled), the
// trial point, and the error measures at the iterate.
type ipmIterate struct {
	w, y, zL, zU []float64
	f            float64
	grad         []float64 // length nw (slack part 0)
	g, r         []float64 // g̃(x) and the residual g̃ − s (or g̃ − g_eq)
	sL, sU       []float64 // w − w_L and w_U − w at the iterate (1 without bound)
	theta        float64   // ‖r‖₁
	phi          float64   // barrier function
	phiT         float64   // barrier function at the last trial point

	// Trial point.
	wT     []float64
	fT     float64
	gT, rT []float64

	// Error measures at the current iterate.
	errDual, errPrimal, errCompl float64 // scaled, unweighted, compl with μ_target
	sd, sc                       float64
	e0                           float64
}

// ipmSteps holds the step (full unreduced system), the second step
// (second-order correction, centering direction), the right-hand side and
// the workspaces of their computation.
type ipmSteps struct {
	step kktVec    // the search direction (dw, dy, dz_L, dz_U)
	aux  kktVec    // second-order correction or centering direction
	rhs  kktVec    // right-hand side (bw, by, bL, bU)
	rd   []float64 // dual residual ∇f̃ + Aᵀy − z_L + z_U at the iterate
	csoc []float64
	// socY is the constraint part of the second-order correction's
	// right-hand side. It is the y part of the KKT system's refinement
	// correction (augmentedKKT.corr.y), so that a refinement step of that
	// solve overwrites it; the iterates are those of that arrangement.
	socY []float64
	// sqY, sqZL, sqZU hold the iterate's multipliers while squareSolved
	// tries the feasibility multipliers.
	sqY, sqZL, sqZU []float64
}

// ipmBarrier holds the state of the barrier parameter update.
type ipmBarrier struct {
	mu, tau  float64
	muMax    float64
	freeMode bool
	kktRefs  [kktRedIters]float64
	kktRefN  int
	qfRatio  float64
}

// ipmFilter holds the state of the filter line search.
type ipmFilter struct {
	thetaMax, thetaMin float64
	filter             []filterEntry
	alphaPr, alphaDu   float64
	lsTrials           int
	stepNorm           float64
	tinyCount          int  // consecutive tiny steps
	tinyLast           bool // the last step was tiny (forces a μ decrease)
	wd                 watchdog
}

// ipmProgress holds the counters, the best iterate and the history.
type ipmProgress struct {
	iter     int
	accCount int
	best     bestIterate // the best acceptable iterate (keepBest)
	// Divergence along a ray (see diverging): the length of the current
	// run of full steps that lengthened ‖x‖∞ and lowered f, and the last
	// ‖x‖∞ and f.
	rayCount   int
	rayX, rayF float64

	history []IterRecord
	counts  Counts
	timing  Timing
	logRows int
}

type filterEntry struct{ theta, phi float64 }

// newIPM checks the problem, computes the structure and allocates all
// workspace. It evaluates nothing. The steps: readBounds, classifyConstraints
// (equalities, slacks), readStructure (Jacobian and Hessian patterns),
// allocBounds, newAugmentedKKT (pattern, index maps, ordering, symbolic
// analysis) and allocIterate.
func newIPM(p Problem, set *Settings, prm params, parent *ipm) (*ipm, error) {
	n, m := p.Dims()
	if n < 0 || m < 0 {
		return nil, fmt.Errorf("%w: Dims() = (%d, %d)", ErrDimension, n, m)
	}
	ip := &ipm{p: p, set: set, prm: prm, parent: parent, n: n, m: m}
	ip.xLo, ip.xUp = make([]float64, n), make([]float64, n)
	ip.gLo, ip.gUp = make([]float64, m), make([]float64, m)
	if err := ip.readBounds(); err != nil {
		return nil, err
	}
	ip.classifyConstraints()
	if err := ip.readStructure(); err != nil {
		return nil, err
	}
	ip.allocBounds()
	k, err := newAugmentedKKT(ip)
	if err != nil {
		return nil, err
	}
	ip.kkt = k
	ip.allocIterate()
	ip.socY = k.corr.y
	return ip, nil
}

// classifyConstraints marks the equalities (g_L = g_U) and gives every
// other constraint a slack: w = (x, s) has n + n_I entries, the KKT matrix
// n + n_I + m rows.
func (ip *ipm) classifyConstraints() {
	n, m := ip.n, ip.m
	ip.isEq = make([]bool, m)
	ip.slackOf = make([]int, m)
	nI := 0
	for i := range m {
		if ip.gLo[i] == ip.gUp[i] {
			ip.isEq[i] = true
			ip.slackOf[i] = -1
		} else {
			ip.slackOf[i] = n + nI
			nI++
		}
	}
	ip.nI, ip.nw = nI, n+nI
	ip.slackCons = make([]int, nI)
	for i, k := range ip.slackOf {
		if k >= 0 {
			ip.slackCons[k-n] = i
		}
	}
	ip.nk = ip.nw + m
}

// readStructure copies the Jacobian and Hessian structures and checks
// them: equal lengths, entries in range (the Hessian's in the lower
// triangle), no duplicates (duplicate Hessian entries are allowed in the
// restoration phase's problem).
func (ip *ipm) readStructure() error {
	n, m := ip.n, ip.m
	jr, jc := ip.p.JacobianStructure()
	hr, hc := ip.p.HessianStructure()
	ip.jRow, ip.jCol = slices.Clone(jr), slices.Clone(jc)
	ip.hRow, ip.hCol = slices.Clone(hr), slices.Clone(hc)
	if len(ip.jRow) != len(ip.jCol) || len(ip.hRow) != len(ip.hCol) {
		return fmt.Errorf("%w: structure row/column lists of different lengths", ErrStructure)
	}
	keys := make([]int64, 0, max(len(ip.jRow), len(ip.hRow)))
	for k, i := range ip.jRow {
		j := ip.jCol[k]
		if i < 0 || i >= m || j < 0 || j >= n {
			return fmt.Errorf("%w: Jacobian entry %d at (%d, %d) outside %d×%d", ErrStructure, k, i, j, m, n)
		}
		keys = append(keys, int64(i)*int64(n)+int64(j))
	}
	if k := firstDuplicate(keys); k >= 0 {
		return fmt.Errorf("%w: duplicate Jacobian entry at (%d, %d)", ErrStructure, k/int64(max(n, 1)), k%int64(max(n, 1)))
	}
	keys = keys[:0]
	for k, i := range ip.hRow {
		j := ip.hCol[k]
		if i < 0 || i >= n || j < 0 || j > i {
			return fmt.Errorf("%w: Hessian entry %d at (%d, %d) not in the lower triangle of %d×%d", ErrStructure, k, i, j, n, n)
		}
		keys = append(keys, int64(i)*int64(n)+int64(j))
	}
	if k := firstDuplicate(keys); k >= 0 && ip.parent == nil {
		return fmt.Errorf("%w: duplicate Hessian entry at (%d, %d)", ErrStructure, k/int64(n), k%int64(n))
	}
	return nil
}

// allocBounds allocates the bounds of w (written, relaxed and scaled, in
// initialize), their masks, the scales and the derivative values, and
// marks the variables with a structural Hessian diagonal.
func (ip *ipm) allocBounds() {
	n, m, nw := ip.n, ip.m, ip.nw
	ip.wL, ip.wU = make([]float64, nw), make([]float64, nw)
	ip.hasL, ip.hasU = make([]bool, nw), make([]bool, nw)
	ip.onlyL, ip.onlyU = make([]bool, nw), make([]bool, nw)
	ip.mL, ip.mU, ip.oLU = make([]float64, nw), make([]float64, nw), make([]float64, nw)
	ip.sL, ip.sU = make([]float64, nw), make([]float64, nw)
	ip.fixedIdx = make([]int, 0, n)
	ip.hasHDiag = make([]bool, n)
	for k, i := range ip.hRow {
		if ip.hCol[k] == i {
			ip.hasHDiag[i] = true
		}
	}
	ip.fixed = make([]bool, n)
	ip.gEq = make([]float64, m)
	ip.dc = make([]float64, m)
	ip.df = 1

	ip.jVal = make([]float64, len(ip.jRow))
	ip.hVal = make([]float64, len(ip.hRow))
	ip.jSkip = make([]bool, len(ip.jRow))
	ip.hSkip = make([]bool, len(ip.hRow))
	ip.lamTmp = make([]float64, m)
}

// allocIterate allocates the iterate, the trial point, the steps and
// right-hand sides, the filter and (outside a restoration phase) the
// history.
func (ip *ipm) allocIterate() {
	m, nw := ip.m, ip.nw
	vec := func(k int) []float64 { return make([]float64, k) }
	ip.w, ip.y, ip.zL, ip.zU = vec(nw), vec(m), vec(nw), vec(nw)
	ip.grad, ip.g, ip.r = vec(nw), vec(m), vec(m)
	ip.wT, ip.gT, ip.rT = vec(nw), vec(m), vec(m)
	ip.step = kktVec{vec(nw), vec(m), vec(nw), vec(nw)}
	ip.aux = kktVec{vec(nw), vec(m), vec(nw), vec(nw)}
	ip.rhs = kktVec{vec(nw), vec(m), vec(nw), vec(nw)}
	ip.rd = vec(nw)
	ip.csoc = vec(m)
	ip.filter = make([]filterEntry, 0, ip.prm.maxIter+8)
	if ip.parent == nil {
		ip.history = make([]IterRecord, 0, ip.prm.maxIter+1)
	}
}

// firstDuplicate sorts keys and returns a repeated key, or −1.
func firstDuplicate(keys []int64) int64 {
	slices.Sort(keys)
	for i := 1; i < len(keys); i++ {
		if keys[i] == keys[i-1] {
			return keys[i]
		}
	}
	return -1
}

// readBounds reads the bounds of the problem and checks them.
func (ip *ipm) readBounds() error {
	ip.p.Bounds(ip.xLo, ip.xUp, ip.gLo, ip.gUp)
	for j := range ip.n {
		lo, up := ip.xLo[j], ip.xUp[j]
		if math.IsNaN(lo) || math.IsNaN(up) || lo > up || math.IsInf(lo, 1) || math.IsInf(up, -1) {
			return fmt.Errorf("%w: variable %d has bounds [%g, %g]", ErrBounds, j, lo, up)
		}
	}
	for i := range ip.m {
		lo, up := ip.gLo[i], ip.gUp[i]
		if math.IsNaN(lo) || math.IsNaN(up) || lo > up || math.IsInf(lo, 1) || math.IsInf(up, -1) {
			return fmt.Errorf("%w: constraint %d has bounds [%g, %g]", ErrBounds, i, lo, up)
		}
	}
	return nil
}

// samePattern reports whether the equality pattern of the bounds just read
// is the one the KKT structure was built for.
func (ip *ipm) sameEqPattern() bool {
	for i := range ip.m {
		if (ip.gLo[i] == ip.gUp[i]) != ip.isEq[i] {
			return false
		}
	}
	return true
}

// rawDerivs evaluates the unscaled gradient and Jacobian at x into grad
// and jVal; ok is false if a value is not finite.
func (ip *ipm) rawDerivs(x []float64) (ok bool, err error) {
	n := ip.n
	if err := ip.p.Gradient(x, ip.grad[:n]); err != nil {
		return false, err
	}
	ip.counts.Gradient++
	if err := ip.p.JacobianValues(x, ip.jVal); err != nil {
		return false, err
	}
	ip.counts.Jacobian++
	for _, v := range ip.grad[:n] {
		if nonFinite(v) {
			return false, nil
		}
	}
	for _, v := range ip.jVal {
		if nonFinite(v) {
			return false, nil
		}
	}
	return true, nil
}

// computeScaling sets d_f and d_c from the unscaled derivatives in grad and
// jVal (IPOPT's gradient-based scaling).
func (ip *ipm) computeScaling() {
	prm := &ip.prm
	gmax := 0.0
	for j, v := range ip.grad[:ip.n] {
		if !ip.fixed[j] {
			gmax = max(gmax, math.Abs(v))
		}
	}
	ip.df = prm.objScaling * max(scalingMinVal, min(1, prm.scalingMaxGrad/max(gmax, 1e-300)))
	rowMax := ip.lamTmp
	clear(rowMax)
	for k, v := range ip.jVal {
		if !ip.jSkip[k] {
			rowMax[ip.jRow[k]] = max(rowMax[ip.jRow[k]], math.Abs(v))
		}
	}
	for i := range ip.m {
		ip.dc[i] = max(scalingMinVal, min(1, prm.scalingMaxGrad/max(rowMax[i], 1e-300)))
	}
}

// relaxAmount is IPOPT's bound relaxation for bound b.
func (ip *ipm) relaxAmount(b float64) float64 {
	if ip.prm.boundRelax == 0 {
		return 0
	}
	return math.Min(ip.prm.constrViolTol, ip.prm.boundRelax*math.Max(1, math.Abs(b)))
}

// pushInto moves v into [lo+pL, up−pU] (W&B06 eq. 32).
func pushInto(v, lo, up float64, hasL, hasU bool, k1, k2 float64) float64 {
	switch {
	case hasL && hasU:
		pl := math.Min(k1*math.Max(1, math.Abs(lo)), k2*(up-lo))
		pu := math.Min(k1*math.Max(1, math.Abs(up)), k2*(up-lo))
		if v < lo+pl {
			v = lo + pl
		}
		if v > up-pu {
			v = up - pu
		}
		if lo+pl > up-pu { // degenerate tiny interval
			v = 0.5 * (lo + up)
		}
	case hasL:
		if pl := k1 * math.Max(1, math.Abs(lo)); v < lo+pl {
			v = lo + pl
		}
	case hasU:
		if pu := k1 * math.Max(1, math.Abs(up)); v > up-pu {
			v = up - pu
		}
	}
	return v
}

func nonFinite(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }

// running is the pseudo-status of a solve that goes on: the steps of
// initialize return it when the iterations are to start (it never reaches
// a Result).
const running Status = -1

// initialize computes the scaling, the starting point and its evaluations.
// It returns a status ≥ 0 when the solve ends before the first iteration
// (callback error, fixed variables violating the constraints), running
// otherwise. The steps, in this order: startPoint (bounds and the user's
// x₀), boundVariables (fixed variables, relaxed bounds, push into them),
// startScaling (d_f, d_c), startDerivatives (∇f̃ and J̃ at the pushed
// point), defaultMuMin, boundSlacks and classifyBounds (slack bounds,
// bound masks), startValues (f, g, Hessian check), startMultipliers
// (slacks, z, y), startBarrier (θ_max, θ_min, φ, μ) and fixedInfeasible
// (no free variable and violated constraints).
func (ip *ipm) initialize(ws *WarmStart) (Status, error) {
	ip.resetState()
	ws, err := ip.startPoint(ws)
	if err != nil {
		return 0, err
	}
	ip.boundVariables(ws)
	if st := ip.startScaling(ws); st != running {
		return st, nil
	}
	if st, err := ip.startDerivatives(); st != running || err != nil {
		return st, err
	}
	ip.defaultMuMin()
	ip.boundSlacks()
	ip.classifyBounds()
	if st, err := ip.startValues(); st != running || err != nil {
		return st, err
	}
	ip.startMultipliers(ws)
	ip.startBarrier()
	return ip.fixedInfeasible(), nil
}

// defaultMuMin sets μ_min to IPOPT's mu_min default, with compl_inf_tol in
// scaled units (d_f is known from here on).
func (ip *ipm) defaultMuMin() {
	prm := &ip.prm
	prm.muMin = min(1e-11, min(prm.tol, prm.complInfTol*math.Abs(ip.df))/(kappaEps+1), prm.muInit)
}

// fixedInfeasible returns Infeasible (with the start recorded) when no
// variable is free and g(x), a constant, violates its bounds: no step can
// change it. Otherwise it returns running.
func (ip *ipm) fixedInfeasible() Status {
	if ip.parent == nil && ip.n > 0 && ip.nFixed == ip.n && ip.fixedViolation() > ip.prm.constrViolTol {
		ip.computeErrors(ip.mu)
		_, constr, _ := ip.unscaledErrors()
		ip.record(constr)
		return Infeasible
	}
	return running
}

// resetState clears the per-solve state before a (re)start and chooses
// the inertia corrector of Settings.Inertia.
func (ip *ipm) resetState() {
	if ip.parent == nil {
		ip.userErr = nil
	}
	// NaN until the objective is evaluated (a callback error before that
	// leaves Result.Objective NaN).
	ip.f = math.NaN()
	ip.filter = ip.filter[:0]
	var deg Degeneracy
	if ip.parent == nil {
		deg = ip.set.Degeneracy
	}
	ip.ic.reset(ip.set.Inertia.corrector(), &ip.counts, ip.m, ip.nw, deg)
	ip.lastDeltaW, ip.lastDeltaC = 0, 0
	ip.restoTheta = 0
	ip.accCount = 0
	ip.best.ok = false
	ip.kktRefN = 0
	ip.tinyCount, ip.tinyLast = 0, false
	ip.wd.reset()
	ip.iter = 0
	ip.stepNorm, ip.lsTrials = 0, 0
	ip.alphaPr, ip.alphaDu = 0, 0
	setup := ip.timing.Setup
	ip.counts, ip.timing = Counts{}, Timing{Setup: setup}
	ip.history = ip.history[:0]
	ip.logRows = 0
	clear(ip.y)
	for j := range ip.hasL {
		ip.hasL[j], ip.hasU[j] = false, false
	}
	for j := range ip.fixed {
		ip.fixed[j] = false
	}
	for j := range ip.wL {
		ip.wL[j], ip.wU[j] = 0, 0
	}
}

// startPoint reads and checks the bounds and the warm start and writes the
// user's starting point (WarmStart.X or Problem.Start) into x. It returns
// the warm start in effect (nil in a restoration phase).
func (ip *ipm) startPoint(ws *WarmStart) (*WarmStart, error) {
	n, m := ip.n, ip.m
	if err := ip.readBounds(); err != nil {
		return nil, err
	}
	if !ip.sameEqPattern() {
		return nil, fmt.Errorf("%w: equality pattern of the constraint bounds changed", ErrStructure)
	}
	if ip.parent != nil {
		ws = nil
	}
	if ws != nil && ((ws.X != nil && len(ws.X) != n) || (ws.Y != nil && len(ws.Y) != m) ||
		(ws.ZL != nil && len(ws.ZL) != n) || (ws.ZU != nil && len(ws.ZU) != n)) {
		return nil, fmt.Errorf("%w: WarmStart lengths (%d, %d, %d, %d) for n = %d, m = %d",
			ErrDimension, len(ws.X), len(ws.Y), len(ws.ZL), len(ws.ZU), n, m)
	}
	x := ip.w[:n]
	if ws != nil && ws.X != nil {
		copy(x, ws.X)
	} else {
		ip.p.Start(x)
	}
	for j, v := range x {
		if nonFinite(v) {
			return nil, &EvalError{Func: "Start", Index: j, Value: v}
		}
	}
	return ws, nil
}

// pushConstants are κ₁ and κ₂ of the push into the bounds (W&B06 eq. 32):
// bound_push = bound_frac = 0.01, or WarmStartBoundPush for both with a warm
// start.
func (ip *ipm) pushConstants(ws *WarmStart) (k1, k2 float64) {
	if ws != nil {
		return ip.prm.wsBoundPush, ip.prm.wsBoundPush
	}
	return ip.prm.boundPush, ip.prm.boundFrac
}

// boundVariables marks the fixed variables (x_L = x_U, set to the bound),
// writes the relaxed bounds of the free ones (unscaled), keeps the user's
// point in wT (the fallback point of the scaling) and pushes x into the
// bounds; Jacobian and Hessian entries touching a fixed variable are
// skipped from here on.
func (ip *ipm) boundVariables(ws *WarmStart) {
	n := ip.n
	x := ip.w[:n]
	ip.nFixed, ip.nBounds = 0, 0
	k1, k2 := ip.pushConstants(ws)
	for j := range n {
		lo, up := ip.xLo[j], ip.xUp[j]
		if lo == up {
			ip.fixed[j] = true
			ip.nFixed++
			x[j] = lo
			continue
		}
		ip.hasL[j] = !math.IsInf(lo, -1)
		ip.hasU[j] = !math.IsInf(up, 1)
		if ip.hasL[j] {
			ip.wL[j] = lo - ip.relaxAmount(lo)
		}
		if ip.hasU[j] {
			ip.wU[j] = up + ip.relaxAmount(up)
		}
	}
	x0 := ip.wT[:n]
	copy(x0, x)
	for j := range n {
		if !ip.fixed[j] {
			x[j] = pushInto(x[j], ip.wL[j], ip.wU[j], ip.hasL[j], ip.hasU[j], k1, k2)
		}
	}
	for k := range ip.jRow {
		ip.jSkip[k] = ip.fixed[ip.jCol[k]]
	}
	for k := range ip.hRow {
		ip.hSkip[k] = ip.fixed[ip.hRow[k]] || ip.fixed[ip.hCol[k]]
	}
}

// startScaling sets d_f and d_c: ObjScaling and 1 without gradient-based
// scaling, otherwise from the unscaled derivatives at the user's starting
// point, as IPOPT computes it (before the push into the bounds), for a
// cold start; the pushed point if the user's gives non-finite
// derivatives. A warm start (WarmStart.X, e.g. the previous solution of an
// MPCC homotopy) sits on or near bounds where the smoothed
// complementarity functions are steep, so its scaling is taken at the
// pushed point, where the iterates start (at the warm point itself,
// package mpcc's natural-residual relaxations got row scales of 1e-8 and
// failed), and the warm point is the fallback. It returns UserStop on a
// callback error, running otherwise.
func (ip *ipm) startScaling(ws *WarmStart) Status {
	ip.df = ip.prm.objScaling
	for i := range ip.dc {
		ip.dc[i] = 1
	}
	if !ip.prm.scaling {
		return running
	}
	x, x0 := ip.w[:ip.n], ip.wT[:ip.n]
	first, second := x0, x
	if ws != nil {
		first, second = x, x0
	}
	ok, err := ip.rawDerivs(first)
	if err != nil {
		return ip.stop(err)
	}
	if !ok {
		if ok, err = ip.rawDerivs(second); err != nil {
			return ip.stop(err)
		}
	}
	if ok {
		ip.computeScaling()
	}
	return running
}

// startDerivatives evaluates the (unscaled) gradient and Jacobian at the
// pushed starting point: UserStop on a callback error, an *EvalError on a
// non-finite value, running otherwise.
func (ip *ipm) startDerivatives() (Status, error) {
	x := ip.w[:ip.n]
	if err := ip.p.Gradient(x, ip.grad[:ip.n]); err != nil {
		return ip.stop(err), nil
	}
	ip.counts.Gradient++
	for j, v := range ip.grad[:ip.n] {
		if nonFinite(v) {
			return 0, &EvalError{Func: "Gradient", Index: j, Value: v}
		}
	}
	if err := ip.p.JacobianValues(x, ip.jVal); err != nil {
		return ip.stop(err), nil
	}
	ip.counts.Jacobian++
	for k, v := range ip.jVal {
		if nonFinite(v) {
			return 0, &EvalError{Func: "JacobianValues", Index: k, Value: v}
		}
	}
	return running, nil
}

// boundSlacks writes the scaled, relaxed bounds of the slacks and the
// scaled right-hand sides of the equalities.
func (ip *ipm) boundSlacks() {
	for i := range ip.m {
		if ip.isEq[i] {
			ip.gEq[i] = ip.dc[i] * ip.gLo[i]
			continue
		}
		k := ip.slackOf[i]
		lo, up := ip.gLo[i], ip.gUp[i]
		ip.hasL[k] = !math.IsInf(lo, -1)
		ip.hasU[k] = !math.IsInf(up, 1)
		if ip.hasL[k] {
			ip.wL[k] = ip.dc[i] * (lo - ip.relaxAmount(lo))
		}
		if ip.hasU[k] {
			ip.wU[k] = ip.dc[i] * (up + ip.relaxAmount(up))
		}
	}
}

// classifyBounds derives from the bounds of w whether the problem is
// square, the fixed variables' indices, the number of structurally zero
// KKT diagonals, the bound masks (onlyL, onlyU, mL, mU, oLU) and the
// number of bounds.
func (ip *ipm) classifyBounds() {
	n := ip.n
	ip.square = ip.parent == nil && ip.nI == 0 && ip.m > 0 && n-ip.nFixed == ip.m
	ip.fixedIdx = ip.fixedIdx[:0]
	ip.nStructZero = 0
	for j := range n {
		if ip.fixed[j] {
			ip.fixedIdx = append(ip.fixedIdx, j)
		} else if !ip.hasL[j] && !ip.hasU[j] && !ip.hasHDiag[j] {
			ip.nStructZero++
		}
	}
	ip.ic.structZero = ip.nStructZero
	for j := range ip.nw {
		ip.onlyL[j] = ip.hasL[j] && !ip.hasU[j]
		ip.onlyU[j] = ip.hasU[j] && !ip.hasL[j]
		ip.mL[j], ip.mU[j], ip.oLU[j] = 0, 0, 0
		if ip.hasL[j] {
			ip.mL[j] = 1
			ip.nBounds++
		}
		if ip.hasU[j] {
			ip.mU[j] = 1
			ip.nBounds++
		}
		if ip.onlyL[j] {
			ip.oLU[j] = 1
		}
		if ip.onlyU[j] {
			ip.oLU[j] = -1
		}
	}
}

// startValues scales the stored gradient and Jacobian and evaluates f and
// g (scaled) and, as a check, the Hessian with σ = 1, λ = 1 (exposing the
// constraint terms): UserStop on a callback error, an *EvalError on a
// non-finite value, running otherwise.
func (ip *ipm) startValues() (Status, error) {
	x := ip.w[:ip.n]
	for j := range ip.grad[:ip.n] {
		ip.grad[j] *= ip.df
	}
	for k := range ip.jVal {
		ip.jVal[k] *= ip.dc[ip.jRow[k]]
	}
	f, err := ip.p.Objective(x)
	ip.counts.Objective++
	if err != nil {
		return ip.stop(err), nil
	}
	if nonFinite(f) {
		return 0, &EvalError{Func: "Objective", Index: 0, Value: f}
	}
	ip.f = ip.df * f
	if err := ip.p.Constraints(x, ip.g); err != nil {
		return ip.stop(err), nil
	}
	ip.counts.Constraints++
	for i, v := range ip.g {
		if nonFinite(v) {
			return 0, &EvalError{Func: "Constraints", Index: i, Value: v}
		}
		ip.g[i] = v * ip.dc[i]
	}
	for i := range ip.lamTmp {
		ip.lamTmp[i] = 1
	}
	if err := ip.p.HessianValues(x, 1, ip.lamTmp, ip.hVal); err != nil {
		return ip.stop(err), nil
	}
	ip.counts.Hessian++
	for k, v := range ip.hVal {
		if nonFinite(v) {
			return 0, &EvalError{Func: "HessianValues", Index: k, Value: v}
		}
	}
	return running, nil
}

// startMultipliers sets the slacks (g̃(x₀) pushed into their bounds), μ
// and τ from MuInit, the residual, z = 1 (bound_mult_init_val; or the warm start's
// multipliers) and y: the warm start's, else the least-squares estimate
// (0 if that fails; none for a square problem).
func (ip *ipm) startMultipliers(ws *WarmStart) {
	prm := &ip.prm
	k1, k2 := ip.pushConstants(ws)
	for i := range ip.m {
		if k := ip.slackOf[i]; k >= 0 {
			ip.w[k] = pushInto(ip.g[i], ip.wL[k], ip.wU[k], ip.hasL[k], ip.hasU[k], k1, k2)
		}
	}
	ip.updateSlacks()
	ip.mu = prm.muInit
	ip.tau = math.Max(tauMin, 1-ip.mu)
	for j := range ip.nw {
		ip.zL[j], ip.zU[j] = 0, 0
		if ip.hasL[j] {
			ip.zL[j] = prm.boundMultInit
		}
		if ip.hasU[j] {
			ip.zU[j] = prm.boundMultInit
		}
	}
	ip.computeResidual(ip.w, ip.g, ip.r)
	warmY := ws != nil && ip.warmMultipliers(ws)
	if ip.rctx != nil {
		ip.rctx.initInner(ip)
	}
	if !warmY && ip.m > 0 && !ip.square {
		// (A square problem's steps in x do not depend on y: J is square,
		// so dx = −J⁻¹c whatever W is; its y comes from squareSolved at
		// the end, and the factorization of the estimate is saved.)
		if ok := ip.leastSquaresY(); !ok {
			clear(ip.y)
		}
	}
}

// warmMultipliers takes the multipliers the warm start gives (in the
// user's convention and units), at least WarmStartMultPush for the bound
// multipliers, and sets the slacks' bound multipliers from y. It reports
// whether y was given.
func (ip *ipm) warmMultipliers(ws *WarmStart) bool {
	prm := &ip.prm
	if ws.ZL != nil {
		for j := range ip.n {
			if ip.hasL[j] {
				ip.zL[j] = math.Max(ws.ZL[j]*ip.df, prm.wsMultPush)
			}
		}
	}
	if ws.ZU != nil {
		for j := range ip.n {
			if ip.hasU[j] {
				ip.zU[j] = math.Max(ws.ZU[j]*ip.df, prm.wsMultPush)
			}
		}
	}
	if ws.Y == nil {
		return false
	}
	for i := range ip.m {
		ip.y[i] = ws.Y[i] * ip.df / ip.dc[i]
		if k := ip.slackOf[i]; k >= 0 {
			// slack stationarity: −y − z_L + z_U = 0.
			if ip.hasL[k] {
				ip.zL[k] = math.Max(-ip.y[i], prm.wsMultPush)
			}
			if ip.hasU[k] {
				ip.zU[k] = math.Max(ip.y[i], prm.wsMultPush)
			}
		}
	}
	return true
}

// startBarrier sets θ, the filter's θ_max and θ_min, φ, the mode of the
// barrier update (free for MuAdaptive) with μ_max, and clamps μ into
// [μ_min, μ_max].
func (ip *ipm) startBarrier() {
	prm := &ip.prm
	ip.theta = ip.norm1(ip.r)
	ip.thetaMax = thetaMaxFact * math.Max(1, ip.theta)
	ip.thetaMin = thetaMinFact * math.Max(1, ip.theta)
	ip.phi = ip.barrierCur(ip.f)
	ip.freeMode = ip.prm.muStrategy == MuAdaptive
	ip.muMax = prm.muMax
	if ip.freeMode {
		if avg := ip.avgCompl(); avg > 0 {
			ip.muMax = math.Min(prm.muMax, muMaxFact*avg)
		}
	}
	ip.mu = math.Max(math.Min(ip.mu, prm.muMax), prm.muMin)
	ip.tau = math.Max(tauMin, 1-ip.mu)
	ip.alphaPr, ip.alphaDu = 0, 0
	ip.rayCount, ip.rayX, ip.rayF = 0, math.Inf(1), math.Inf(-1)
}

// fixedViolation is the max-norm violation of g_L ≤ g(x) ≤ g_U (unscaled)
// at the current x.
func (ip *ipm) fixedViolation() float64 {
	v := 0.0
	for i := range ip.m {
		gi := ip.g[i] / ip.dc[i]
		v = max(v, ip.gLo[i]-gi, gi-ip.gUp[i])
	}
	return v
}
